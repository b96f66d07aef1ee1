// cluster_occupancy.cu: cudaOccupancyMaxActiveClusters for clusters of 1 to 16 CTAs over
// block sizes and dynamic shared memory (so 1 to 32 resident CTAs per SM), and
// cudaOccupancyMaxPotentialClusterSize, with and without the non-portable cluster size,
// and what they refuse.  The values reflect the GPU's GPCs: a cluster is resident in one.
// target: -arch=sm_90
#include "apps.h"

__global__ void k(unsigned *out)
{
    extern __shared__ unsigned sm[];
    sm[threadIdx.x % 8] = threadIdx.x;
    __syncthreads();
    if (out)
        out[blockIdx.x] = sm[0];
}

__global__ void __cluster_dims__(2, 2, 1) fixed(unsigned *out)
{
    if (out)
        out[blockIdx.x] = threadIdx.x;
}

static cudaLaunchConfig_t config(int t, size_t s, int cs, cudaLaunchAttribute *a)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(cs > 0 ? cs * 8 : 64);
    cfg.blockDim = dim3(t);
    cfg.dynamicSmemBytes = s;
    if (cs > 0) {
        a[0].id = cudaLaunchAttributeClusterDimension;
        a[0].val.clusterDim.x = cs;
        a[0].val.clusterDim.y = 1;
        a[0].val.clusterDim.z = 1;
        cfg.attrs = a;
        cfg.numAttrs = 1;
    }
    return cfg;
}

int main()
{
    SAY(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
    int threads[] = { 32, 128, 256, 512, 1024 };
    size_t shm[] = { 0, 20 << 10, 40 << 10, 56 << 10, 72 << 10, 100 << 10, 200 << 10 };
    cudaLaunchAttribute a[1];
    for (int np = 0; np < 2; np++) {
        SAY(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, np));
        for (int t : threads)
            for (size_t s : shm) {
                int per = -1;
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, t, s));
                printf("threads %4d shared %6zu per SM %2d:", t, s, per);
                for (int cs = 1; cs <= 16; cs++) {
                    cudaLaunchConfig_t cfg = config(t, s, cs, a);
                    int nc = -1;
                    cudaError_t e = cudaOccupancyMaxActiveClusters(&nc, k, &cfg);
                    if (e == cudaSuccess)
                        printf(" %d", nc);
                    else
                        printf(" %s", cudaGetErrorName(e));
                }
                cudaLaunchConfig_t cfg = config(t, s, 0, a);
                int sz = -1;
                cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&sz, k, &cfg);
                printf(" | potential %d %s\n", sz, cudaGetErrorName(e));
            }
    }
    // No cluster dimension anywhere; the kernel's own; a configuration's beside it.
    cudaLaunchConfig_t cfg = config(128, 0, 0, a);
    int nc = -1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&nc, k, &cfg);
    printf("no dimension: %s %d\n", cudaGetErrorName(e), nc);
    cfg.gridDim = dim3(8, 8);
    nc = -1;
    e = cudaOccupancyMaxActiveClusters(&nc, fixed, &cfg);
    printf("fixed (2,2,1): %s %d\n", cudaGetErrorName(e), nc);
    cudaLaunchConfig_t c2 = config(128, 0, 4, a);
    nc = -1;
    e = cudaOccupancyMaxActiveClusters(&nc, fixed, &c2);
    printf("fixed with (4,1,1): %s %d\n", cudaGetErrorName(e), nc);
    SAY(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
    c2 = config(128, 0, 9, a);
    nc = -1;
    e = cudaOccupancyMaxActiveClusters(&nc, k, &c2);
    printf("9 CTAs, not opted in: %s %d\n", cudaGetErrorName(e), nc);
    int sz = -1;
    e = cudaOccupancyMaxPotentialClusterSize(&sz, fixed, &cfg);
    printf("fixed potential: %s %d\n", cudaGetErrorName(e), sz);
    cudaGetLastError();
    return 0;
}
