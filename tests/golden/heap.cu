// The device heap: each thread allocates, writes and frees; thread 0 then allocates
// 1 MiB blocks until malloc returns NULL (counting them with the default 8 MiB heap),
// frees them, and free(NULL) is allowed.  Addresses are 16-byte aligned.
#include <cstdio>
#include <cstdint>

__global__ void heap(int *out)
{
    int t = threadIdx.x;
    int *p = (int *)malloc(16 * sizeof(int));
    out[t] = p != 0 && ((uintptr_t)p % 16) == 0;
    if (p) {
        for (int i = 0; i < 16; i++)
            p[i] = t + i;
        int s = 0;
        for (int i = 0; i < 16; i++)
            s += p[i];
        out[64 + t] = s;
        free(p);
    }
    free(0);
    __syncthreads();
    if (t == 0) {
        void *blocks[64];
        int n = 0;
        while (n < 64 && (blocks[n] = malloc(1 << 20)) != 0)
            n++;
        out[128] = n >= 4;   /* 6 on an H100 (docs/services.md); how many depends on the allocator */
        for (int i = 0; i < n; i++)
            free(blocks[i]);
        void *big = malloc(1 << 20);
        out[129] = big != 0;
        free(big);
        out[130] = malloc(0) != 0;
        out[131] = malloc((size_t)1 << 40) != 0;
    }
}
