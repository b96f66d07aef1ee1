// Feature group 6.16: address-space predicates and conversions.
#include <cstddef>
__constant__ int cst[16] = { 1, 2, 3 };
__device__ int gbl[16];

__device__ __noinline__ int classify(const void *p)
{
    int r = 0;
    r |= __isGlobal(p) ? 1 : 0;
    r |= __isShared(p) ? 2 : 0;
    r |= __isConstant(p) ? 4 : 0;
    r |= __isLocal(p) ? 8 : 0;
#if __CUDA_ARCH__ >= 700
    r |= __isGridConstant(p) ? 16 : 0;
#endif
#if __CUDA_ARCH__ >= 900
    r |= __isClusterShared(p) ? 32 : 0;
#endif
    return r;
}
__device__ __noinline__ size_t to_spaces(const void *p)
{
    return __cvta_generic_to_shared(p) + __cvta_generic_to_global(p) + __cvta_generic_to_constant(p)
         + __cvta_generic_to_local(p);
}
__device__ __noinline__ void *from_spaces(size_t a, int which)
{
    switch (which) {
    case 0: return __cvta_shared_to_generic(a);
    case 1: return __cvta_global_to_generic(a);
    case 2: return __cvta_constant_to_generic(a);
    default: return __cvta_local_to_generic(a);
    }
}
struct P { int v[4]; };
__global__ void k_addrspace(int *g, int *o, size_t *so, const __grid_constant__ P prm)
{
    __shared__ int sh[32];
    int loc[8];
    int i = threadIdx.x;
    for (int j = 0; j < 8; j++) loc[j] = g[j] + i;
    sh[i & 31] = i;
    o[i] = classify(g) + classify(sh) + classify(&cst[1]) + classify(&loc[i & 7]) + classify(&prm.v[1]) + loc[(i + 1) & 7];
    so[i] = to_spaces(g) + to_spaces(&sh[i & 31]) + to_spaces(cst) + to_spaces(&loc[i & 7]);
    so[i + 64] = (size_t)from_spaces(so[i], i & 3);
}
__global__ void k_visible_objects(size_t *so, int **po)
{
    __shared__ int sh[32];
    int i = threadIdx.x;
    sh[i & 31] = i;
    so[i] = __cvta_generic_to_shared(&sh[i & 31]);
    so[i + 64] = __cvta_generic_to_constant(&cst[i & 15]);
    so[i + 128] = __cvta_generic_to_global(&gbl[i & 15]);
    po[i] = (int *)__cvta_shared_to_generic(so[i]);
    po[i + 64] = (int *)__cvta_constant_to_generic(so[i + 64]);
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CL2 __cluster_dims__(2, 1, 1)
#else
#define CL2
#endif
__global__ void CL2 k_cluster_map(int *o)
{
#if __CUDA_ARCH__ >= 900
    __shared__ int sh[64];
    int i = threadIdx.x;
    unsigned rank = __clusterRelativeBlockRank();
    sh[i] = rank * 100 + i;
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
    int *remote = (int *)__cluster_map_shared_rank((void *)sh, rank ^ 1);
    o[blockIdx.x * 64 + i] = remote[i] + __cluster_query_shared_rank(remote) + __clusterSizeInBlocks()
                            + __clusterDim().x + __clusterIdx().x + __clusterGridDimInClusters().x
                            + __clusterRelativeBlockIdx().x + __isClusterShared(remote);
    __cluster_barrier_arrive_relaxed();
    __cluster_barrier_wait();
#endif
}
