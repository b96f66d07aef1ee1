// hello.cu: an ordinary CUDA program for the README: memory, copies, a launch with device
// printf, an error check.  examples/hello is nvcc 13's build of it (static runtime, x86-64,
// stripped), for machines without nvcc: nvcc -O2 -o examples/hello examples/hello.cu && strip examples/hello
#include <cstdio>

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
    if (i == n - 1)
        printf("hello from thread %d of block %d\n", threadIdx.x, blockIdx.x);
}

int main()
{
    const int n = 1 << 16;
    float *x, *y;
    static float hx[n], hy[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    cudaMalloc(&x, sizeof hx);
    cudaMalloc(&y, sizeof hy);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += hy[i] != 2.0f * i + 1.0f;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("%s (sm_%d%d): saxpy of %d floats: %s, %d wrong\n", p.name, p.major, p.minor, n, cudaGetErrorString(e), bad);
    cudaFree(x);
    cudaFree(y);
    return bad != 0 || e != cudaSuccess;
}
