// cg_cub: cooperative groups (a cooperative launch with grid.sync, tiled partitions of 32 and
// 8 with reduce and inclusive_scan, coalesced groups under divergence, labeled partitions)
// and CUB (BlockReduce, BlockScan, BlockRadixSort; DeviceRadixSort::SortPairs,
// DeviceSelect::Unique, DeviceHistogram::HistogramEven).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/cub.cuh>
#include <cstdio>
namespace cg = cooperative_groups;
__global__ void k1(const int *in, int *out, int n) {
  cg::grid_group g = cg::this_grid();
  cg::thread_block b = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(b);
  auto t8 = cg::tiled_partition<8>(b);
  int i = g.thread_rank();
  int v = i < n ? in[i] : 0;
  int s32 = cg::reduce(t32, v, cg::plus<int>());
  int m8 = cg::reduce(t8, v, cg::greater<int>());
  int sc = cg::inclusive_scan(t8, v);
  if (i < n) { out[i] = s32 ^ (m8 << 8) ^ (sc << 3); }
  g.sync();
  int w = i < n ? out[i] + out[(i + 37) % n] : 0;
  g.sync();
  if (i < n) out[i] = w;
  auto act = cg::coalesced_threads();
  if (v & 1) {
    auto c = cg::coalesced_threads();
    int r = cg::reduce(c, v, cg::plus<int>());
    out[i] ^= r * 7 + c.thread_rank() + c.size()*1000;
  }
  auto lab = cg::labeled_partition(t32, v % 3);
  out[i] += lab.size() * 100000 + lab.thread_rank();
}
__global__ void k2(const float *in, float *out) {
  typedef cub::BlockReduce<float, 128> BR;
  typedef cub::BlockScan<int, 128> BS;
  typedef cub::BlockRadixSort<int, 128, 4> BRS;
  __shared__ union { typename BR::TempStorage r; typename BS::TempStorage s; typename BRS::TempStorage rs; } tmp;
  float x = in[blockIdx.x*128+threadIdx.x];
  float s = BR(tmp.r).Sum(x);
  __syncthreads();
  int y = (int)(x*100), ys;
  BS(tmp.s).ExclusiveSum(y, ys);
  __syncthreads();
  int keys[4]; for (int j=0;j<4;j++) keys[j] = (int)(in[(blockIdx.x*128+threadIdx.x*4+j) % 1024]*1000) - 500;
  BRS(tmp.rs).Sort(keys);
  out[blockIdx.x*128+threadIdx.x] = (threadIdx.x==0 ? s : 0.f) + ys + keys[0]*0.001f + keys[3];
}
int main(){
  int n = 4096; int *in, *out; cudaMallocManaged(&in, n*4); cudaMallocManaged(&out, n*4);
  for (int i=0;i<n;i++) in[i] = (i*7919)%1013;
  void *args[] = {&in, &out, &n};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)k1, 16, 256, args, 0, 0);
  cudaDeviceSynchronize();
  printf("coop %d\n", (int)e);
  unsigned h = 0; for (int i=0;i<n;i++) h = h*31 + out[i];
  printf("k1 hash %08x out0 %d out100 %d\n", h, out[0], out[100]);
  for (int i=0;i<n;i+=64) printf("k1 %d: %d %d %d %d\n", i, out[i], out[i+1], out[i+17], out[i+63]);
  float *fi, *fo; cudaMallocManaged(&fi, 1024*4); cudaMallocManaged(&fo, 1024*4);
  for (int i=0;i<1024;i++) fi[i] = ((i*37)%101)/101.0f;
  k2<<<8,128>>>(fi, fo); cudaDeviceSynchronize();
  double acc=0; for (int i=0;i<1024;i++) acc += fo[i]*(i%7+1);
  printf("k2 %.6f %.9g %.9g\n", acc, fo[0], fo[129]);
  // device-wide cub
  int *dk, *dv, *dko, *dvo; int m = 50000;
  cudaMallocManaged(&dk, m*4); cudaMallocManaged(&dv, m*4); cudaMallocManaged(&dko, m*4); cudaMallocManaged(&dvo, m*4);
  for (int i=0;i<m;i++){ dk[i] = (i*2654435761u)>>12; dv[i]=i; }
  void *tmp = 0; size_t tb = 0;
  cub::DeviceRadixSort::SortPairs(tmp, tb, dk, dko, dv, dvo, m);
  cudaMalloc(&tmp, tb);
  cub::DeviceRadixSort::SortPairs(tmp, tb, dk, dko, dv, dvo, m);
  cudaDeviceSynchronize();
  printf("radix %d %d %d %d\n", dko[0], dvo[0], dko[m-1], dvo[m-1]);
  int *sel, *nsel; cudaMallocManaged(&sel, m*4); cudaMallocManaged(&nsel, 4);
  void *t2=0; size_t tb2=0;
  cub::DeviceSelect::Unique(t2, tb2, dko, sel, nsel, m); cudaMalloc(&t2, tb2);
  cub::DeviceSelect::Unique(t2, tb2, dko, sel, nsel, m); cudaDeviceSynchronize();
  printf("unique %d\n", *nsel);
  int *hist; cudaMallocManaged(&hist, 64*4); void *t3=0; size_t tb3=0;
  cub::DeviceHistogram::HistogramEven(t3, tb3, dk, hist, 65, 0, 1<<20, m); cudaMalloc(&t3, tb3);
  cub::DeviceHistogram::HistogramEven(t3, tb3, dk, hist, 65, 0, 1<<20, m); cudaDeviceSynchronize();
  printf("hist %d %d %d\n", hist[0], hist[31], hist[63]);
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
