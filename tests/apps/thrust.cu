// thrust: a Thrust program (device_vector, sort, reduce, transform_reduce, inclusive_scan,
// unique, count_if with device lambdas, stable_sort_by_key): CUB's radix sort, scan and
// reduction kernels under the runtime, as most CUDA C++ programs use them.
// target: -arch=sm_90 --extended-lambda
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/sequence.h>
#include <thrust/unique.h>
#include <thrust/count.h>
#include <thrust/functional.h>
#include <cstdio>
struct sq { __host__ __device__ float operator()(float x) const { return x*x; } };
int main(){
  int n = 100000;
  thrust::host_vector<unsigned> h(n);
  unsigned s = 12345;
  for (int i=0;i<n;i++){ s = s*1664525u+1013904223u; h[i]= s>>8; }
  thrust::device_vector<unsigned> d = h;
  thrust::sort(d.begin(), d.end());
  thrust::host_vector<unsigned> r = d;
  bool ok = true; for (int i=1;i<n;i++) if (r[i-1]>r[i]) ok=false;
  printf("sorted %d first %u last %u\n", ok, r[0], r[n-1]);
  unsigned long long sum = thrust::reduce(d.begin(), d.end(), 0ull);
  printf("sum %llu\n", sum);
  thrust::device_vector<float> f(n); thrust::sequence(f.begin(), f.end(), 0.5f, 0.25f);
  float ss = thrust::transform_reduce(f.begin(), f.end(), sq(), 0.0f, thrust::plus<float>());
  printf("sumsq %.9g\n", ss);
  thrust::device_vector<int> iv(n); thrust::sequence(iv.begin(), iv.end());
  thrust::inclusive_scan(iv.begin(), iv.end(), iv.begin());
  int last = iv[n-1]; printf("scan last %d mid %d\n", last, (int)iv[n/2]);
  thrust::device_vector<unsigned> k(n); 
  thrust::transform(d.begin(), d.end(), k.begin(), [] __device__ (unsigned x){ return x % 1000; });
  thrust::sort(k.begin(), k.end());
  auto e = thrust::unique(k.begin(), k.end());
  printf("unique %d\n", (int)(e - k.begin()));
  int c = thrust::count_if(d.begin(), d.end(), [] __device__ (unsigned x){ return (x&1)==0; });
  printf("even %d\n", c);
  thrust::device_vector<float> kf(n); thrust::device_vector<int> vals(n);
  thrust::transform(d.begin(), d.end(), kf.begin(), [] __device__ (unsigned x){ return (float)(x%777) - 300.f; });
  thrust::sequence(vals.begin(), vals.end());
  thrust::stable_sort_by_key(kf.begin(), kf.end(), vals.begin());
  printf("sbk %g %d %g %d\n", (float)kf[0], (int)vals[0], (float)kf[n-1], (int)vals[n-1]);
  return 0;
}
