// Feature group 6.28: thread-block clusters (sm_90; empty bodies on older targets).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTER(x, y, z) __cluster_dims__(x, y, z)
#define LB_CLUSTER __launch_bounds__(256, 1, 4)
#else
#define CLUSTER(x, y, z)
#define LB_CLUSTER __launch_bounds__(256, 1)
#endif

__global__ void CLUSTER(2, 1, 1) k_cluster_basic(int *o)
{
#if __CUDA_ARCH__ >= 900
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank();
    dim3 bi = cl.block_index();
    dim3 dims = cl.dim_blocks();
    o[blockIdx.x * blockDim.x + threadIdx.x] = r + cl.num_blocks() + bi.x + dims.x + cl.num_threads()
                                              + cl.thread_rank();
    cl.sync();
#endif
}
__global__ void CLUSTER(2, 2, 1) k_cluster_dsmem(int *o)
{
#if __CUDA_ARCH__ >= 900
    __shared__ int sh[128];
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank();
    sh[threadIdx.x] = r * 1000 + threadIdx.x;
    cl.sync();
    int *peer = cl.map_shared_rank(sh, (r + 1) % cl.num_blocks());
    int v = peer[threadIdx.x];
    int &pr = *cl.map_shared_rank(&sh[0], 0u);
    if (threadIdx.x == 0) atomicAdd(&pr, 1);
    cl.sync();
    o[(blockIdx.y * gridDim.x + blockIdx.x) * 128 + threadIdx.x] = v + (int)cl.query_shared_rank(peer);
#endif
}
__global__ void LB_CLUSTER k_cluster_lb(int *o)
{
#if __CUDA_ARCH__ >= 900
    unsigned rank, n, cid, ncx, isx;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncx));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(isx));
    o[threadIdx.x] = rank + n + cid + ncx + isx;
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
#endif
}
__global__ void k_cluster_runtime(int *o)
{
#if __CUDA_ARCH__ >= 900
    // launched with a cluster dimension chosen at run time (cudaLaunchKernelEx)
    cg::cluster_group cl = cg::this_cluster();
    o[blockIdx.x] = cl.block_rank() + cl.dim_blocks().x;
    cl.sync();
#endif
}
