// thrust_float: floating-point reductions of thrust and CUB (reduce of f32 and f64,
// transform_reduce, max, cub::DeviceReduce::Sum) over 1,000 to 5,000,000 elements, every
// result bit printed: their grids (CUB sizes them by the occupancy the driver reports), the
// order of the partial sums and what ptxas fuses decide the low bits, so each must be as
// the H100 computes it; and integer scans (exact).  Float scans are left out: CUB's
// decoupled look-back adds a tile's predecessors in an order that depends on timing.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <vector>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>
#include <cub/cub.cuh>

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t bitsd(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
struct sq { __host__ __device__ float operator()(float x) const { return x * x + 0.5f; } };

int main()
{
    const int sizes[] = { 1000, 100000, 1 << 20, 5000000 };
    for (int n : sizes) {
        std::vector<float> h(n);
        std::vector<double> hd(n);
        uint64_t s = 12345 + n;
        for (int i = 0; i < n; i++) { s = s * 6364136223846793005ull + 1442695040888963407ull; h[i] = (float)((s >> 40) & 0xffffff) / 16777216.0f - 0.3f; hd[i] = h[i] * 1.000001; }
        thrust::device_vector<float> d(h.begin(), h.end());
        thrust::device_vector<double> dd(hd.begin(), hd.end());
        float r = thrust::reduce(d.begin(), d.end());
        double rd = thrust::reduce(dd.begin(), dd.end());
        float tr = thrust::transform_reduce(d.begin(), d.end(), sq(), 0.0f, thrust::plus<float>());
        float mx = thrust::reduce(d.begin(), d.end(), -1e30f, thrust::maximum<float>());
        std::vector<int> hi(n);
        for (int i = 0; i < n; i++)
            hi[i] = (int)(bits(h[i]) & 0xfff) - 2048;
        thrust::device_vector<int> di(hi.begin(), hi.end()), si(n);
        thrust::inclusive_scan(di.begin(), di.end(), si.begin());
        std::vector<int> hs(n);
        thrust::copy(si.begin(), si.end(), hs.begin());
        uint64_t ih = 1469598103934665603ull;
        for (int v : hs) {
            ih ^= (uint32_t)v;
            ih *= 1099511628211ull;
        }
        // cub
        float *out; cudaMalloc(&out, sizeof(float));
        void *tmp = nullptr; size_t tb = 0;
        cub::DeviceReduce::Sum(tmp, tb, thrust::raw_pointer_cast(d.data()), out, n);
        cudaMalloc(&tmp, tb);
        cub::DeviceReduce::Sum(tmp, tb, thrust::raw_pointer_cast(d.data()), out, n);
        float cr; cudaMemcpy(&cr, out, 4, cudaMemcpyDeviceToHost);
        cudaFree(tmp);
        printf("n %d: reduce %08x double %016llx transform %08x max %08x cub %08x int scan %016llx %s\n", n, bits(r),
               (unsigned long long)bitsd(rd), bits(tr), bits(mx), bits(cr), (unsigned long long)ih,
               cudaGetErrorName(cudaDeviceSynchronize()));
        cudaFree(out);
    }
    return 0;
}
