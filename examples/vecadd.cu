// vecadd.cu: the bundled example kernel; vecadd.ptx beside it is nvcc's output
// (regenerate with: nvcc -std=c++17 -ptx -arch=sm_90 vecadd.cu -o vecadd.ptx).
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
