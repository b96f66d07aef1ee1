// printf beyond the FIFO (cudaLimitPrintfFifoSize, 1 MiB by default): 8 CTAs of 256
// threads each print 16 lines of four ints and 16 lines without arguments; what the
// H100 prints of the 65536 records (line counts) is recorded in printf_fifo.txt.
#include <cstdio>

__global__ void printf_fifo(int *out)
{
    int t = threadIdx.x, c = blockIdx.x;
    for (int i = 0; i < 16; i++)
        printf("%d %d %d %d\n", c, t, i, c * t + i);
    for (int i = 0; i < 16; i++)
        printf("no arguments here\n");
    out[c * blockDim.x + t] = t;
}
