/* b.cu: the library half of the -rdc test program (tests/apps/rdc/README.md): device
 * functions and variables that a.cu reaches only through the device linker. */
#include <cstdio>
#include "rdc.h"

__device__ int rdc_counter;
__device__ int rdc_table[4] = { 10, 20, 30, 40 };
__constant__ int rdc_offset = 12;

/* File scope: a.cu has its own file_bias and helper (nvcc names each unit's apart). */
static __device__ int file_bias = 1000;
static __device__ __noinline__ int helper(int x) { return x + file_bias; }

__device__ __noinline__ int rdc_scale(int x) { return 3 * x + rdc_table[x & 3]; }

__device__ __noinline__ int rdc_b_value(int x) { return helper(x) + twice_plus<7>(x); }

/* Its printf's format string is a file-scope $str, as a.cu's is: the linker keeps them apart. */
__global__ void rdc_bump(int k)
{
    atomicAdd(&rdc_counter, k);
    if (threadIdx.x == 31)
        printf("device: rdc_bump(%d) from thread %d\n", k, threadIdx.x);
}
