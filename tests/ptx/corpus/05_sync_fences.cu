// Feature group 6.5: memory fences and synchronization (incl. cooperative groups).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;

__global__ void k_fences(int *a)
{
    a[threadIdx.x] = 1;
    __threadfence_block();
    a[threadIdx.x + 32] = 2;
    __threadfence();
    a[threadIdx.x + 64] = 3;
    __threadfence_system();
#if __CUDA_ARCH__ >= 900
    __threadfence_cluster();
#endif
}
__global__ void k_syncthreads(int *a, int *out)
{
    __shared__ int s[256];
    int i = threadIdx.x;
    s[i] = a[i];
    __syncthreads();
    int cnt = __syncthreads_count(s[255 - i] > 0);
    int all = __syncthreads_and(s[i] != 0);
    int any = __syncthreads_or(s[i] < 0);
    out[i] = cnt + all * 2 + any * 4;
}
__global__ void k_syncwarp(int *a)
{
    a[threadIdx.x] += 1;
    __syncwarp();
    a[threadIdx.x] += a[threadIdx.x ^ 1];
    __syncwarp(0xffff);
    a[threadIdx.x] += 2;
    __syncwarp(0xffffffffu >> (threadIdx.x & 7));
}
__global__ void k_cg(int *a, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    block.sync();
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    t16.sync();
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
    int v = a[block.thread_rank()];
    int s = cg::reduce(t32, v, cg::plus<int>());
    int m = cg::reduce(t16, v, cg::greater<int>());
    int sh = t32.shfl(v, 0) + t32.shfl_down(v, 1) + t32.shfl_xor(v, 2);
    unsigned bal = t32.ballot(v > 0);
    out[block.thread_rank()] = s + m + sh + (int)bal + t32.any(v == 3) + t32.all(v != 0)
                               + t16.meta_group_rank() + t16.thread_rank() + block.size();
    cg::thread_group dyn = cg::tiled_partition(block, 8);
    dyn.sync();
    cg::coalesced_group co = cg::coalesced_threads();
    out[block.thread_rank() + 256] = co.size() + co.thread_rank();
    dim3 gi = block.group_index();
    dim3 ti = block.thread_index();
    out[block.thread_rank() + 512] = gi.x + ti.y;
}
__global__ void k_libcu_fences(int *a)
{
    a[threadIdx.x] = 1;
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    a[threadIdx.x + 1] = 2;
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
    a[threadIdx.x + 2] = 3;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_system);
    a[threadIdx.x + 3] = 4;
    cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CL2 __cluster_dims__(2, 1, 1)
#else
#define CL2
#endif
__global__ void CL2 k_cluster_sync(int *a)
{
#if __CUDA_ARCH__ >= 900
    cg::cluster_group cl = cg::this_cluster();
    a[threadIdx.x] = cl.block_rank() + cl.num_blocks();
    cl.sync();
    a[threadIdx.x + 128] = cl.thread_rank();
#endif
}
