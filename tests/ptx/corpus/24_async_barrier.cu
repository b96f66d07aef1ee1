// Feature group 6.24: asynchronous barriers (cuda::barrier and the __mbarrier_* primitives).
#pragma nv_diag_suppress 20054
#include <cuda/barrier>
#include <cuda_awbarrier_primitives.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void k_cuda_barrier(int *a)
{
    __shared__ block_barrier bar;
    __shared__ int s[256];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    int i = threadIdx.x;
    s[i] = a[i];
    block_barrier::arrival_token tok = bar.arrive();
    bar.wait(std::move(tok));
    a[i] = s[255 - i];
    bar.arrive_and_wait();
    s[i] += 1;
    auto t2 = bar.arrive(1);
    bar.wait(std::move(t2));
    if (i == 0) (void)bar.arrive(2);
    bar.wait_parity(false);
    if (i >= 128) bar.arrive_and_drop();
    else a[i] += s[i];
}
__global__ void k_device_barrier(int *a)
{
    __shared__ cuda::barrier<cuda::thread_scope_device> dbar;
    if (threadIdx.x == 0) init(&dbar, blockDim.x);
    __syncthreads();
    a[threadIdx.x] += 1;
    dbar.arrive_and_wait();
    a[threadIdx.x] += a[(threadIdx.x + 1) % blockDim.x];
}
__global__ void k_mbarrier_prims(int *o, unsigned ns)
{
#if __CUDA_ARCH__ >= 800
    __shared__ __mbarrier_t b;
    int i = threadIdx.x;
    if (i == 0) __mbarrier_init(&b, blockDim.x);
    __syncthreads();
    __mbarrier_token_t tok = __mbarrier_arrive(&b);
    int done = 0;
    while (!(done = __mbarrier_test_wait(&b, tok))) { }
    o[i] = done + __mbarrier_token_pending_count(tok) + (int)__mbarrier_maximum_count();
    __syncthreads();
    tok = __mbarrier_arrive(&b);
    while (!__mbarrier_test_wait_parity(&b, 1)) { }
#if __CUDA_ARCH__ >= 900
    while (!__mbarrier_try_wait(&b, tok, ns)) { }
    while (!__mbarrier_try_wait_parity(&b, 0, ns)) { }
#endif
    __syncthreads();
    if (i & 1) (void)__mbarrier_arrive_and_drop(&b);
    __syncthreads();
    if (i == 0) __mbarrier_inval(&b);
#endif
}
