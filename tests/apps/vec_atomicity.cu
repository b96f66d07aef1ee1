// vec_atomicity: an ordered vector access of 8 or 16 bytes is one access, as on the GPU.
// CUB's decoupled look-back (thrust::reduce_by_key, scans) publishes each tile's
// {status, value} with st.relaxed.gpu.v2.u64 and other CTAs read it with
// ld.relaxed.gpu.v2.u64: CTA 0 writes pairs {i, 3i} (and {i, 5i} as v2.u32, {i, 2i, 3i, 4i}
// as v4.u32) while CTA 1 reads them; a read that mixes two writes is counted.
#include "apps.h"

__global__ void k(unsigned long long *s64, unsigned *s32, unsigned *s128, unsigned long long *bad, int iters)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        for (unsigned long long i = 1; i <= (unsigned long long)iters; i++) {
            asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(s64), "l"(i), "l"(3 * i) : "memory");
            unsigned j = (unsigned)i;
            asm volatile("st.relaxed.gpu.v2.u32 [%0], {%1, %2};" ::"l"(s32), "r"(j), "r"(5 * j) : "memory");
            asm volatile("st.release.gpu.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(s128), "r"(j), "r"(2 * j), "r"(3 * j),
                         "r"(4 * j) : "memory");
        }
    } else {
        unsigned long long n64 = 0, n32 = 0, n128 = 0;
        for (int n = 0; n < iters; n++) {
            unsigned long long a, b;
            unsigned c, d, e, f, g, h;
            asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(s64) : "memory");
            asm volatile("ld.relaxed.gpu.v2.u32 {%0, %1}, [%2];" : "=r"(c), "=r"(d) : "l"(s32) : "memory");
            asm volatile("ld.acquire.gpu.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(e), "=r"(f), "=r"(g), "=r"(h) : "l"(s128) : "memory");
            n64 += b != 3 * a;
            n32 += d != 5 * c;
            n128 += f != 2 * e || g != 3 * e || h != 4 * e;
        }
        bad[0] = n64;
        bad[1] = n32;
        bad[2] = n128;
    }
}

int main()
{
    const int iters = 300000;
    unsigned long long *s64, *bad, h[3];
    unsigned *s32, *s128;
    CK(cudaMalloc(&s64, 16));
    CK(cudaMalloc(&s32, 8));
    CK(cudaMalloc(&s128, 16));
    CK(cudaMalloc(&bad, sizeof h));
    CK(cudaMemset(s64, 0, 16));
    CK(cudaMemset(s32, 0, 8));
    CK(cudaMemset(s128, 0, 16));
    k<<<2, 32>>>(s64, s32, s128, bad, iters);
    CK(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
    printf("mixed reads of %d: v2.u64 %llu, v2.u32 %llu, v4.u32 %llu\n", iters, h[0], h[1], h[2]);
    return 0;
}
