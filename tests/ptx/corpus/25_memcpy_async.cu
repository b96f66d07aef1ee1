// Feature group 6.25: asynchronous copies and pipelines.
#pragma nv_diag_suppress 20054
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

__global__ void k_cg_memcpy_async(const int *g, int *o, int n)
{
    extern __shared__ int sh[];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, sh, g, sizeof(int) * n);
    cg::wait(block);
    o[threadIdx.x] = sh[n - 1 - threadIdx.x];
}
__global__ void k_cg_memcpy_tile(const float4 *g, float4 *o)
{
    __shared__ float4 sh[128];
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    cg::memcpy_async(tile, sh, g + blockIdx.x * 128, cuda::aligned_size_t<16>(sizeof(float4) * 128));
    cg::wait(tile);
    o[threadIdx.x] = sh[127 - threadIdx.x];
}
__global__ void k_cuda_memcpy_async_bar(const int *g, int *o, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ alignas(16) int sh[512];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, sh, g, sizeof(int) * n, bar);
    bar.arrive_and_wait();
    o[threadIdx.x] = sh[threadIdx.x];
    block.sync();
    cuda::memcpy_async(block, sh, g + 512, cuda::aligned_size_t<16>(sizeof(int) * 512), bar);
    bar.arrive_and_wait();
    o[threadIdx.x + 512] = sh[threadIdx.x];
}
__global__ void k_cuda_memcpy_async_thread(const float4 *g, float4 *o)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ alignas(16) float4 sh[256];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&sh[threadIdx.x], &g[threadIdx.x], cuda::aligned_size_t<16>(sizeof(float4)), bar);
    bar.arrive_and_wait();
    o[threadIdx.x] = sh[blockDim.x - 1 - threadIdx.x];
}
__global__ void k_pipeline_thread(const int *g, int *o)
{
    __shared__ int sh[256];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&sh[threadIdx.x], &g[threadIdx.x], sizeof(int), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    o[threadIdx.x] = sh[threadIdx.x] * 2;
    pipe.consumer_release();
}
__global__ void k_pipeline_block(const float4 *g, float4 *o, int iters)
{
    constexpr int stages = 2;
    __shared__ alignas(16) float4 buf[stages][128];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    for (int s = 0; s < stages && s < iters; s++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[s], g + s * 128, cuda::aligned_size_t<16>(sizeof(float4) * 128), pipe);
        pipe.producer_commit();
    }
    float4 acc = make_float4(0, 0, 0, 0);
    for (int it = 0; it < iters; it++) {
        pipe.consumer_wait();
        float4 v = buf[it % stages][threadIdx.x];
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
        pipe.consumer_release();
        if (it + stages < iters) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[it % stages], g + (it + stages) * 128,
                               cuda::aligned_size_t<16>(sizeof(float4) * 128), pipe);
            pipe.producer_commit();
        }
    }
    o[blockIdx.x * 128 + threadIdx.x] = acc;
}
__global__ void k_pipeline_prims(const int *g, const long long *gl, const int4 *g4, int *o)
{
    __shared__ int s4[128];
    __shared__ long long s8[128];
    __shared__ int4 s16[128];
    __shared__ int sz[128];
    int i = threadIdx.x;
    __pipeline_memcpy_async(&s4[i], &g[i], 4);
    __pipeline_memcpy_async(&s8[i], &gl[i], 8);
    __pipeline_commit();
    __pipeline_memcpy_async(&s16[i], &g4[i], 16);
    __pipeline_memcpy_async(&sz[i], &g[i], 4, 2);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __pipeline_wait_prior(0);
    o[i] = s4[i] + (int)s8[i] + s16[i].x + sz[i];
#if __CUDA_ARCH__ >= 800
    __shared__ __mbarrier_t mb;
    if (i == 0) __mbarrier_init(&mb, blockDim.x);
    __syncthreads();
    __pipeline_memcpy_async(&s4[i], &g[i + 128], 4);
    __pipeline_arrive_on(&mb);
    __mbarrier_token_t t = __mbarrier_arrive(&mb);
    while (!__mbarrier_test_wait(&mb, t)) { }
    o[i + 128] = s4[i];
#endif
}
