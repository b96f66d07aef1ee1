// How many blocks of each size the default 8 MiB device heap holds (each count starts
// from an empty heap: the previous blocks are freed first).
#include <cstdio>

__global__ void heap_sizes(int *out)
{
    if (threadIdx.x != 0)
        return;
    const size_t sizes[8] = { 16, 1000, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20 };
    static __device__ void *blocks[8192];
    for (int s = 0; s < 8; s++) {
        int n = 0;
        while (n < 8192 && (blocks[n] = malloc(sizes[s])) != 0)
            n++;
        out[s] = n;
        out[8 + s] = n > 1 ? (int)((char *)blocks[1] - (char *)blocks[0]) : 0;
        for (int i = 0; i < n; i++)
            free(blocks[i]);
    }
}
