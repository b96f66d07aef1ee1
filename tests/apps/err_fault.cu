// err_fault: an illegal address in a kernel is a sticky error: the synchronising call
// returns it, later calls return it, and cudaGetLastError does not clear it.  (What a
// cudaDeviceReset after the fault gives depends on the GPU's recovery: on the H100 the
// next allocation was refused with cudaErrorDevicesUnavailable.)
#include "apps.h"

__global__ void bad(int *p, int off) { p[off + threadIdx.x] = 1; }

int main()
{
    int *d;
    CK(cudaMalloc(&d, 256));
    bad<<<1, 32>>>(d, 1 << 28);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("get last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("get last error again: %s\n", cudaGetErrorName(cudaGetLastError()));
    void *p;
    printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
    int h;
    printf("memcpy: %s\n", cudaGetErrorName(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost)));
    bad<<<1, 1>>>(d, 0);
    printf("another launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
}
