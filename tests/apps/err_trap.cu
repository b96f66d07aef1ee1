// err_trap: __trap() in a kernel ends it with cudaErrorLaunchFailure, sticky; printf output
// of the kernel before the trap still appears.
#include "apps.h"

__global__ void t(int when)
{
    if (threadIdx.x == 0)
        printf("kernel before the trap, when %d\n", when);
    if (threadIdx.x == when)
        __trap();
}

int main()
{
    t<<<1, 32>>>(99);
    printf("no trap: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    t<<<1, 32>>>(5);
    printf("trap: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("then: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
