/* cooperative.cu: which cooperative launches the driver refuses (cooperative.txt is its
 * output on an H100); the CTAs it lets be resident match ex_resident_ctas. */
#include <cstdio>
#include <cuda.h>
__global__ void k(int *p) { if (threadIdx.x == 0) atomicAdd(p, 1); }
int main() {
    int *d; cudaMalloc(&d, 4); cudaMemset(d, 0, 4);
    int nb = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, 1024, 0);
    printf("max active 1024-thread blocks per SM: %d\n", nb);
    unsigned grids[] = {264, 265};
    for (int i = 0; i < 2; i++) {
        void *args[] = { &d };
        cudaError_t e = cudaLaunchCooperativeKernel((void *)k, dim3(grids[i]), dim3(1024), args, 0, 0);
        printf("grid %u x 1024: %s\n", grids[i], cudaGetErrorName(e));
        cudaGetLastError(); cudaDeviceSynchronize();
    }
    nb = 0; cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 102400);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, 32, 102400);
    printf("max active 32-thread blocks with 100 KiB dynamic shared per SM: %d\n", nb);
    for (int i = 0; i < 2; i++) {
        void *args[] = { &d };
        cudaError_t e = cudaLaunchCooperativeKernel((void *)k, dim3(grids[i]), dim3(32), args, 102400, 0);
        printf("grid %u x 32, 100 KiB: %s\n", grids[i], cudaGetErrorName(e));
        cudaGetLastError(); cudaDeviceSynchronize();
    }
    return 0;
}
