// cluster_addr.cu: shared addresses in clusters: a CTA's own addresses (cvta, generic)
// carry its rank in bits 24-31; .shared::cluster with the rank bits cleared reaches rank 0;
// plain .shared with the full address is the CTA's own; and (last, it ends the context)
// .shared::cta with the rank bits cleared in a CTA of rank 1 is an illegal instruction.
// target: -arch=sm_90
#include "apps.h"

__global__ void __cluster_dims__(2, 1, 1) k(unsigned *out, int mode)
{
    __shared__ unsigned s[32];
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    s[threadIdx.x] = r * 100 + threadIdx.x;
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    unsigned long long gen = (unsigned long long)&s[threadIdx.x];
    unsigned v = 0xeeee;
    if (mode == 1)
        asm volatile("{ .reg .u32 t; and.b32 t, %1, 0xffffff; ld.shared::cluster.u32 %0, [t]; }" : "=r"(v) : "r"(a));
    if (mode == 2)
        asm volatile("{ .reg .u32 t; mov.u32 t, %1; ld.shared.u32 %0, [t]; }" : "=r"(v) : "r"(a));
    if (mode == 3)
        asm volatile("{ .reg .u32 t; and.b32 t, %1, 0xffffff; ld.shared::cta.u32 %0, [t]; }" : "=r"(v) : "r"(a));
    if (threadIdx.x < 2) {
        unsigned *o = out + (blockIdx.x * 2 + threadIdx.x) * 4;
        o[0] = r;
        o[1] = a >> 24;
        o[2] = (unsigned)gen >> 24;
        o[3] = v;
    }
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
}

int main()
{
    unsigned *d, h[32];
    CK(cudaMalloc(&d, sizeof h));
    for (int mode = 0; mode < 4; mode++) {
        CK(cudaMemset(d, 0, sizeof h));
        k<<<4, 32>>>(d, mode);
        cudaError_t e = cudaDeviceSynchronize();
        printf("mode %d: %s\n", mode, cudaGetErrorName(e));
        if (e != cudaSuccess)
            return 1;
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 8; i++)
            printf("  cta %d thread %d: rank %u shared %u generic %u read %x\n", i / 2, i % 2, h[i * 4],
                   h[i * 4 + 1], h[i * 4 + 2], h[i * 4 + 3]);
    }
    return 0;
}
