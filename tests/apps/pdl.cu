// pdl.cu: programmatic dependent launch: a secondary kernel launched with the programmatic
// stream serialization attribute waits in cudaGridDependencySynchronize (griddepcontrol.wait)
// for the primary, which lets it start with cudaTriggerProgrammaticLaunchCompletion
// (griddepcontrol.launch_dependents); the secondary reads what the primary wrote.
// target: -arch=sm_90
#include "apps.h"

__global__ void primary(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = i * 3 + 1;
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void secondary(const int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pre = i < n ? i : 0;              /* work before the wait */
    cudaGridDependencySynchronize();
    if (i < n)
        b[i] = a[n - 1 - i] + pre;
}

int main()
{
    const int n = 4096;
    int *a, *b;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    for (int round = 0; round < 3; round++) {
        primary<<<n / 256, 256, 0, s>>>(a, n);
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = n / 128;
        cfg.blockDim = 128;
        cfg.stream = s;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        SAY(cudaLaunchKernelEx(&cfg, secondary, (const int *)a, b, n));
        CK(cudaStreamSynchronize(s));
        int h[4];
        CK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
        printf("round %d: %d %d %d %d\n", round, h[0], h[1], h[2], h[3]);
        CK(cudaMemcpy(h, b + n - 4, sizeof h, cudaMemcpyDeviceToHost));
        printf("         %d %d %d %d\n", h[0], h[1], h[2], h[3]);
        CK(cudaMemset(a, 0, n * sizeof(int)));
    }
    return 0;
}
