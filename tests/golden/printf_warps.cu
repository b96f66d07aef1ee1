// printf from many threads: one line per thread of 2 CTAs of 64 threads, the lanes of a
// warp in order; a divergent branch prints from even and odd lanes separately.
#include <cstdio>

__global__ void printf_warps(int *out)
{
    int t = threadIdx.x, c = blockIdx.x;
    printf("cta %d thread %d\n", c, t);
    if (t & 1)
        printf("odd %d.%d\n", c, t);
    else
        printf("even %d.%d\n", c, t);
    out[c * blockDim.x + t] = t;
}
