// func_regs: what the driver says of kernels by the registers and stack ptxas gives them
// (8 to 208 registers, a __launch_bounds__ kernel that spills, a local array, static shared
// memory): cudaFuncGetAttributes (numRegs, localSizeBytes, maxThreadsPerBlock: 896, 384 and
// 256 threads for 72, 136 and 208 registers), cudaOccupancyMaxActiveBlocksPerMultiprocessor
// for blocks of 32 to 1024 threads and cudaOccupancyMaxPotentialBlockSize, and launches of
// more threads than the registers leave room for (cudaErrorLaunchOutOfResources).  The
// default build runs its PTX (the H100's JIT allocates what ptxas does; the emulator asks
// ptxas), the sm_90 build its SASS (the emulator reads the cubin's .nv.info): the same.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k_small(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void k_mid(float *x, int n)
{
    float a[16];
#pragma unroll
    for (int i = 0; i < 16; i++) a[i] = x[threadIdx.x + i * 32];
    for (int k = 0; k < n; k++)
#pragma unroll
        for (int i = 0; i < 16; i++) a[i] = a[i] * a[(i + 1) % 16] + 1.0f;
    float s = 0;
#pragma unroll
    for (int i = 0; i < 16; i++) s += a[i];
    x[threadIdx.x] = s;
}
template <int N> __global__ void k_acc(float *x, int n)
{
    float a[N];
#pragma unroll
    for (int i = 0; i < N; i++) a[i] = x[threadIdx.x + i * 32];
    for (int k = 0; k < n; k++)
#pragma unroll
        for (int i = 0; i < N; i++) a[i] = a[i] * a[(i + 7) % N] + a[(i + 3) % N];
    float s = 0;
#pragma unroll
    for (int i = 0; i < N; i++) s += a[i] * (i + 1);
    x[threadIdx.x] = s;
}
__global__ void __launch_bounds__(256, 4) k_bounded(float *x, int n)
{
    float a[96];
#pragma unroll
    for (int i = 0; i < 96; i++) a[i] = x[threadIdx.x + i * 32];
    for (int k = 0; k < n; k++)
#pragma unroll
        for (int i = 0; i < 96; i++) a[i] = a[i] * a[(i + 7) % 96] + a[(i + 3) % 96];
    float s = 0;
#pragma unroll
    for (int i = 0; i < 96; i++) s += a[i] * (i + 1);
    x[threadIdx.x] = s;
}
__global__ void k_local(float *x, int j)
{
    float buf[100];
    for (int i = 0; i < 100; i++) buf[i] = x[i] * i;
    x[threadIdx.x] = buf[j % 100] + buf[(j * 7) % 100];
}
__global__ void k_shared(float *x)
{
    __shared__ float s[4096];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
template <typename K> void show(const char *name, K k)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, k);
    printf("%s: %s regs %d local %zu maxthreads %d shared %zu const %zu bin %d\n", name, cudaGetErrorName(e),
           a.numRegs, a.localSizeBytes, a.maxThreadsPerBlock, a.sharedSizeBytes, a.constSizeBytes, a.binaryVersion);
    const int bs[] = { 32, 128, 256, 512, 768, 1024 };
    printf("  blocks/SM:");
    for (int b : bs) {
        int n = -1;
        cudaError_t r = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, b, 0);
        printf(" %d:%d%s", b, n, r ? cudaGetErrorName(r) : "");
    }
    int mg = 0, bb = 0;
    cudaError_t r = cudaOccupancyMaxPotentialBlockSize(&mg, &bb, k, 0, 0);
    printf("\n  potential: grid %d block %d %s\n", mg, bb, cudaGetErrorName(r));
}
int main()
{
    float *x;
    cudaMalloc(&x, 1 << 20);
    cudaMemset(x, 0, 1 << 20);
    show("k_small", k_small);
    show("k_mid", k_mid);
    show("k_acc<32>", k_acc<32>);
    show("k_acc<64>", k_acc<64>);
    show("k_acc<128>", k_acc<128>);
    show("k_acc<200>", k_acc<200>);
    show("k_bounded", k_bounded);
    show("k_local", k_local);
    show("k_shared", k_shared);
    for (int t : { 256, 512, 640, 1024 }) {
        k_acc<128><<<1, t>>>(x, 1);
        cudaError_t e1 = cudaGetLastError();
        cudaError_t e2 = cudaDeviceSynchronize();
        k_acc<200><<<1, t>>>(x, 1);
        cudaError_t e3 = cudaGetLastError();
        cudaError_t e4 = cudaDeviceSynchronize();
        printf("launch %d threads: k_acc<128> %s %s, k_acc<200> %s %s\n", t, cudaGetErrorName(e1), cudaGetErrorName(e2),
               cudaGetErrorName(e3), cudaGetErrorName(e4));
    }
    return 0;
}
