// cdp.cu: dynamic parallelism (the device runtime): kernels launching kernels, recursively
// to depth 3, into the default stream, created streams, the tail-launch and
// fire-and-forget streams; cudaMemcpyAsync and cudaMemsetAsync queued in a kernel; the
// launch errors a kernel sees (cudaGetLastError, cudaPeekAtLastError, cudaGetErrorString of
// a launch with too many threads); device cudaMalloc and cudaFree.
// target: -rdc=true -arch=sm_90
// link: -lcudadevrt
#include "apps.h"

__device__ int launches;

__global__ void child(int *a, int v, int depth)
{
    atomicAdd(&a[threadIdx.x + blockIdx.x * blockDim.x], v);
    if (threadIdx.x == 0)
        atomicAdd(&launches, 1);
    if (depth > 0 && threadIdx.x == 0 && blockIdx.x == 0)
        child<<<2, 32>>>(a + 256, v * 10, depth - 1);
}

__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = v + i;
}

__global__ void parent(int *a, int *errs)
{
    if (threadIdx.x == 0) {
        child<<<2, 32>>>(a, blockIdx.x + 1, 3);
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        fill<<<4, 64, 0, s>>>(a + 1024 + 256 * blockIdx.x, 256, 1000 * (blockIdx.x + 1));
        errs[blockIdx.x * 12 + 8] = cudaMemcpyAsync(a + 2048 + 256 * blockIdx.x, a + 1024 + 256 * blockIdx.x,
                                                    256 * sizeof(int), cudaMemcpyDeviceToDevice, s);
        errs[blockIdx.x * 12 + 9] = cudaMemsetAsync(a + 3072 + 64 * blockIdx.x, 0x7f, 16 * sizeof(int), s);
        errs[blockIdx.x * 12 + 10] = cudaMemsetAsync(a + 3200 + 64 * blockIdx.x, 0x7f, 16 * sizeof(int));
        cudaStreamDestroy(s);
        child<<<1, 32, 0, cudaStreamTailLaunch>>>(a + 128, 100, 0);
        child<<<1, 32, 0, cudaStreamFireAndForget>>>(a + 160, 7, 0);
        errs[blockIdx.x * 12 + 0] = cudaGetLastError();
        child<<<1, 2000>>>(a, 1, 0);                 // too many threads
        errs[blockIdx.x * 12 + 1] = cudaPeekAtLastError();
        errs[blockIdx.x * 12 + 2] = cudaGetLastError();
        errs[blockIdx.x * 12 + 3] = cudaGetLastError();
        void *p = nullptr;
        errs[blockIdx.x * 12 + 4] = cudaMalloc(&p, 256);
        errs[blockIdx.x * 12 + 5] = p != nullptr;
        errs[blockIdx.x * 12 + 6] = cudaFree(p);
        if (blockIdx.x == 0)
            printf("device: %s / %s\n", cudaGetErrorString(cudaSuccess),
                   cudaGetErrorString(cudaErrorInvalidConfiguration));
    }
}

int main()
{
    int *a, *errs;
    CK(cudaMalloc(&a, 4096 * sizeof(int)));
    CK(cudaMalloc(&errs, 24 * sizeof(int)));
    CK(cudaMemset(a, 0, 4096 * sizeof(int)));
    CK(cudaMemset(errs, 0xff, 24 * sizeof(int)));
    parent<<<2, 32>>>(a, errs);
    SAY(cudaGetLastError());
    SAY(cudaDeviceSynchronize());
    static int h[4096];
    int e[24], n;
    CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(e, errs, sizeof e, cudaMemcpyDeviceToHost));
    CK(cudaMemcpyFromSymbol(&n, launches, sizeof n));
    printf("child CTAs %d\n", n);
    printf("a[0..3] %d %d %d %d  a[63] %d  a[128] %d a[160] %d\n", h[0], h[1], h[2], h[3], h[63], h[128], h[160]);
    for (int d = 1; d <= 3; d++)
        printf("depth %d: a[%d] %d a[%d] %d\n", d, 256 * d, h[256 * d], 256 * d + 63, h[256 * d + 63]);
    printf("fill %d %d %d %d  copy %d %d %d %d  set %08x %08x %08x  %08x %08x\n", h[1024], h[1279], h[1280], h[1535],
           h[2048], h[2303], h[2304], h[2559], h[3072], h[3087], h[3088], h[3200], h[3264]);
    for (int b = 0; b < 2; b++)
        printf("block %d errors: %d %d %d %d malloc %d %d free %d memcpy %d memset %d %d\n", b, e[b * 12],
               e[b * 12 + 1], e[b * 12 + 2], e[b * 12 + 3], e[b * 12 + 4], e[b * 12 + 5], e[b * 12 + 6], e[b * 12 + 8],
               e[b * 12 + 9], e[b * 12 + 10]);
    return 0;
}
