// module_layout: where the driver puts a module's variables, and what a kernel reads past
// the end of a __device__ array.  The module's memory starts at a 2 MiB boundary with the
// __constant__ variables (each at its own alignment), then from the next 256-byte boundary
// every __device__ variable at a 256-byte boundary (or its larger alignment), in order of
// declaration, used or not.  A table read past its end (as a Perlin-noise kernel's
// hash[h + i] does) reads the next variable or the zeros between; a write past the end
// lands in the next variable; the rest of the 2 MiB reads as zeros.
#include "apps.h"
#include <cstdint>

__constant__ int kc[75] = { 9, 8, 7 };
__constant__ char kc2 = 5;
__device__ int tab[256] = { 1, 4, 7, 10, 13, 16, 19, 22, 25, 28 };
__device__ char one;
__device__ double dv[3] = { 1.5, 2.5, 3.5 };
__device__ int unused_table[100];
__device__ __align__(16) char mid[300] = { 'a', 'b', 'c' };
__device__ __align__(512) int wide[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 };
__device__ short tab2[40];
__device__ int after[16] = { -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16 };
__device__ char last[3] = { 1, 2, 3 };

__global__ void lookup(const int *t, int n, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = t[i];
}

__global__ void spill(int n)
{
    int i = threadIdx.x;
    if (i < n)
        tab2[i] = (short)(1000 + i);   // tab2 holds 40: the rest lands in the padding and after
}

__global__ void use(int *o) { o[0] = unused_table[0] + one + kc[0] + kc2 + (int)dv[0] + mid[0] + wide[0] + last[0]; }

#define SYM(x) { void *p; CK(cudaGetSymbolAddress(&p, x)); printf("%-13s offset %6lld size %4zu\n", #x, \
                 (long long)((char *)p - (char *)base), sizeof(x)); }

static void *sym(const void *s) { void *p; CK(cudaGetSymbolAddress(&p, s)); return p; }

int main()
{
    int *o;
    CK(cudaMalloc(&o, 4096 * sizeof(int)));
    use<<<1, 1>>>(o);
    CK(cudaDeviceSynchronize());
    char *base = (char *)sym(kc);
    printf("module base at a 2 MiB boundary: %s\n", (uintptr_t)base % (2u << 20) == 0 ? "yes" : "no");
    SYM(kc) SYM(kc2) SYM(tab) SYM(one) SYM(dv) SYM(unused_table) SYM(mid) SYM(wide) SYM(tab2) SYM(after) SYM(last)

    // tab[0..700): tab, then one, dv, unused_table's zeros, mid's bytes
    int n = 700, h[700];
    lookup<<<(n + 127) / 128, 128>>>((const int *)sym(tab), n, o);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, o, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i])
            printf("tab[%d] = %d (0x%08x)\n", i, h[i], h[i]);

    // 64 words before tab: the constant bank
    lookup<<<1, 64>>>((const int *)sym(tab) - 64, 64, o);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, o, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        if (h[i])
            printf("tab[%d] = %d\n", i - 64, h[i]);

    // a write past tab2's 40 elements: 216 bytes of padding, then after[]
    spill<<<1, 256>>>(256);
    CK(cudaDeviceSynchronize());
    int a[16];
    CK(cudaMemcpyFromSymbol(a, after, sizeof a));
    for (int i = 0; i < 16; i++)
        printf("after[%d] = %d (0x%08x)\n", i, a[i], a[i]);

    // past the last variable to the end of the first 2 MiB: zeros
    long long sum = 0;
    const int *end = (const int *)((char *)sym(last) + 256);
    int words = (int)(((2 << 20) - ((char *)end - base)) / 4);
    for (int at = 0; at < words; at += 4096) {
        int m = words - at < 4096 ? words - at : 4096;
        lookup<<<(m + 255) / 256, 256>>>(end + at, m, o);
        CK(cudaDeviceSynchronize());
        static int big[4096];
        CK(cudaMemcpy(big, o, m * sizeof(int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < m; i++)
            sum += big[i] != 0;
    }
    printf("%d words from 256 bytes past the last variable to 2 MiB: %lld not zero\n", words, sum);
    return 0;
}
