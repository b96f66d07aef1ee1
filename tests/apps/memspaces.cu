// memspaces: __constant__ and __device__ variables with their initialisers, the symbol
// API (cudaMemcpyToSymbol/FromSymbol, cudaGetSymbolAddress/Size), static and dynamic
// shared memory (with the opt-in above 48 KiB and the error without it), local arrays.
#include "apps.h"

__constant__ float cscale[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
__constant__ int ctab[256];
__device__ int gcount = 17;
__device__ unsigned long long gsum;
__device__ float garr[64];

__global__ void k_static_shared(const int *in, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x, g = blockIdx.x * 256 + t;
    s[t] = in[g] + ctab[t];
    __syncthreads();
    out[g] = s[255 - t] * (int)cscale[blockIdx.x & 3];
    atomicAdd(&gsum, (unsigned long long)s[t]);
}

extern __shared__ unsigned dyn[];
__global__ void k_dyn_shared(int n, unsigned *out)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        dyn[i] = (unsigned)i * 2654435761u + blockIdx.x;
    __syncthreads();
    unsigned acc = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc = acc * 33u ^ dyn[n - 1 - i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void k_local(int n, const int *idx, int *out)
{
    int a[64];
    int t = threadIdx.x;
    for (int i = 0; i < 64; i++)
        a[i] = i * t + n;
    int s = 0;
    for (int i = 0; i < 64; i++)
        s += a[idx[(i + t) & 63]] * (i + 1);
    out[t] = s;
}

__global__ void k_globals()
{
    if (threadIdx.x == 0)
        gcount += 1;
    garr[threadIdx.x] = threadIdx.x * 0.5f * cscale[threadIdx.x & 3];
}

int main()
{
    const int N = 4 * 256;
    int h_tab[256], *h_in = new int[N], *h_out = new int[N];
    for (int i = 0; i < 256; i++)
        h_tab[i] = i * i - 1000;
    for (int i = 0; i < N; i++)
        h_in[i] = (i * 37) % 1001 - 500;
    CK(cudaMemcpyToSymbol(ctab, h_tab, sizeof h_tab));
    int *d_in, *d_out;
    CK(cudaMalloc(&d_in, N * sizeof(int)));
    CK(cudaMalloc(&d_out, N * sizeof(int)));
    CK(cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice));
    k_static_shared<<<4, 256>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int i = 0; i < N; i++)
        s = s * 31 + h_out[i];
    unsigned long long gs;
    CK(cudaMemcpyFromSymbol(&gs, gsum, sizeof gs));
    printf("static shared: checksum %lld, gsum %llu, out[0] %d out[1023] %d\n", s, gs, h_out[0], h_out[N - 1]);

    // dynamic shared memory: 100 KiB needs the opt-in
    const int words = 100 * 1024 / 4;
    unsigned *d_u, h_u[2 * 128];
    CK(cudaMalloc(&d_u, sizeof h_u));
    k_dyn_shared<<<2, 128, words * 4>>>(words, d_u);
    printf("100 KiB without the opt-in: %s\n", cudaGetErrorName(cudaGetLastError()));
    CK(cudaFuncSetAttribute(k_dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    k_dyn_shared<<<2, 128, words * 4>>>(words, d_u);
    CK(cudaGetLastError());
    k_dyn_shared<<<2, 128, 228 * 1024>>>(words, d_u);
    printf("228 KiB with the opt-in of 227: %s\n", cudaGetErrorName(cudaGetLastError()));
    CK(cudaMemcpy(h_u, d_u, sizeof h_u, cudaMemcpyDeviceToHost));
    unsigned us = 0;
    for (int i = 0; i < 256; i++)
        us = us * 7u + h_u[i];
    printf("dynamic shared: checksum %u, out[0] %u out[255] %u\n", us, h_u[0], h_u[255]);
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, k_dyn_shared));
    printf("k_dyn_shared: sharedSizeBytes %zu maxDynamicSharedSizeBytes %d\n", fa.sharedSizeBytes,
           fa.maxDynamicSharedSizeBytes);
    CK(cudaFuncGetAttributes(&fa, k_static_shared));
    printf("k_static_shared: sharedSizeBytes %zu maxDynamicSharedSizeBytes %d\n", fa.sharedSizeBytes,
           fa.maxDynamicSharedSizeBytes);

    // local arrays
    int h_idx[64], *d_idx, h_loc[64];
    for (int i = 0; i < 64; i++)
        h_idx[i] = (i * 29 + 3) & 63;
    CK(cudaMalloc(&d_idx, sizeof h_idx));
    CK(cudaMemcpy(d_idx, h_idx, sizeof h_idx, cudaMemcpyHostToDevice));
    k_local<<<1, 64>>>(5, d_idx, d_out);
    CK(cudaMemcpy(h_loc, d_out, sizeof h_loc, cudaMemcpyDeviceToHost));
    printf("local: %d %d %d %d\n", h_loc[0], h_loc[1], h_loc[31], h_loc[63]);

    // __device__ variables through the symbol API
    k_globals<<<1, 64>>>();
    CK(cudaDeviceSynchronize());
    int gc;
    CK(cudaMemcpyFromSymbol(&gc, gcount, sizeof gc));
    float *p, h_g[64];
    size_t sz;
    CK(cudaGetSymbolAddress((void **)&p, garr));
    CK(cudaGetSymbolSize(&sz, garr));
    CK(cudaMemcpy(h_g, p, sizeof h_g, cudaMemcpyDeviceToHost));
    printf("gcount %d, garr size %zu, garr[5] %g garr[63] %g\n", gc, sz, h_g[5], h_g[63]);
    float c2;
    CK(cudaMemcpyFromSymbol(&c2, cscale, 4, 2 * sizeof(float)));
    printf("cscale[2] %g\n", c2);
    int bad = 1;
    SAY(cudaMemcpyToSymbol(gcount, &bad, 8));
    return 0;
}
