/* a.cu: the main half of the -rdc test program (tests/apps/rdc/README.md): a kernel that
 * calls b.cu's device functions and reads b.cu's variables, and the host code that checks
 * every result against its own computation and prints PASS and two totals. */
#include <cstdio>
#include "rdc.h"

/* File scope, as in b.cu: each unit must see its own (the printf format strings of both
 * units are even named alike, $str). */
static __device__ int file_bias = 5;
static __device__ __noinline__ int helper(int x) { return x + file_bias; }

__global__ void rdc_kernel(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        /* (3i + T[i&3]) + (i + 5) + (3i + 1007) - (2i + 7) + 12 = 5i + T[i&3] + 1017 */
        out[i] = rdc_scale(i) + helper(i) + rdc_b_value(i) - twice_plus<7>(i) + rdc_offset;
        atomicAdd(&rdc_counter, 1);
    }
    if (i == 0)
        printf("device: rdc_scale(5) = %d\n", rdc_scale(5));
}

int main()
{
    const int n = 64;
    int *d = nullptr, h[n];
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) {
        printf("FAIL: cudaMalloc\n");
        return 1;
    }
    rdc_kernel<<<2, 32>>>(d, n);
    rdc_bump<<<1, 32>>>(2);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(e));
        return 1;
    }
    int counter = -1;
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(&counter, rdc_counter, sizeof counter);
    static const int table[4] = { 10, 20, 30, 40 };
    long sum = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int want = 5 * i + table[i & 3] + 1017;
        if (h[i] != want && bad++ < 4)
            printf("out[%d] = %d, expected %d\n", i, h[i], want);
        sum += h[i];
    }
    /* sum = 5 * (0 + ... + 63) + 16 * (10 + 20 + 30 + 40) + 64 * 1017
     *     = 5 * 2016 + 1600 + 65088 = 76768;
     * counter = 64 (one per rdc_kernel thread) + 32 * 2 (rdc_bump) = 128. */
    printf("sum = %ld, counter = %d\n", sum, counter);
    printf("%s\n", bad == 0 && sum == 76768 && counter == 128 ? "PASS" : "FAIL");
    cudaFree(d);
    return bad == 0 && sum == 76768 && counter == 128 ? 0 : 1;
}
