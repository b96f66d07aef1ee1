// err_assert: a failed device assert: the message on standard error (compare: stderr) and
// cudaErrorAssert, sticky, from the synchronising call; the program exits with 3.
#include "apps.h"
#include <cassert>

__global__ void check(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(v[i] >= 0);
}

int main()
{
    int h[64], *d;
    for (int i = 0; i < 64; i++)
        h[i] = i == 45 ? -1 : i;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check<<<2, 32>>>(d, 44);
    printf("all positive: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    fflush(stdout);
    check<<<2, 32>>>(d, 64);
    cudaError_t e = cudaDeviceSynchronize();
    printf("one negative: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    printf("then: %s\n", cudaGetErrorName(cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost)));
    return 3;
}
