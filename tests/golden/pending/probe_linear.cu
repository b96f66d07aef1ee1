// probe_linear: how the H100 weights and combines texels in 1D and 2D linear filtering (docs/textures.md).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void sample2d(cudaTextureObject_t t, const float2 *xy, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, xy[i].x, xy[i].y);
}
__global__ void sample1d(cudaTextureObject_t t, const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1D<float>(t, x[i]);
}

static cudaTextureObject_t make2d(const float *v, int w, int h, cudaArray_t *arr)
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    CK(cudaMallocArray(arr, &cd, w, h));
    CK(cudaMemcpy2DToArray(*arr, 0, 0, v, w * 4, w * 4, h, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = *arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

int main()
{
    const int N = 257 * 257;
    float2 *hxy = new float2[N], *dxy;
    for (int j = 0; j <= 256; j++)
        for (int i = 0; i <= 256; i++)
            hxy[j * 257 + i] = make_float2(0.5f + i / 256.0f, 0.5f + j / 256.0f);
    CK(cudaMalloc(&dxy, N * sizeof(float2)));
    CK(cudaMemcpy(dxy, hxy, N * sizeof(float2), cudaMemcpyHostToDevice));
    float *dout, *hout = new float[N];
    CK(cudaMalloc(&dout, N * sizeof(float)));
    FILE *f = fopen(getenv("WOUT"), "wb");
    // unit texels: the four weight functions
    for (int k = 0; k < 4; k++) {
        float v[4] = { 0, 0, 0, 0 };
        v[k] = 1.0f;
        cudaArray_t a;
        cudaTextureObject_t t = make2d(v, 2, 2, &a);
        sample2d<<<(N + 255) / 256, 256>>>(t, dxy, dout, N);
        CK(cudaMemcpy(hout, dout, N * sizeof(float), cudaMemcpyDeviceToHost));
        fwrite(hout, 4, N, f);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(a));
    }
    fclose(f);
    // random texels at random weights: 64 texel sets x 4096 points
    f = fopen(getenv("ROUT"), "wb");
    srand(12345);
    const int M = 4096;
    for (int s = 0; s < 64; s++) {
        float v[4];
        for (int k = 0; k < 4; k++) {
            unsigned r = ((unsigned)rand() << 16) ^ (unsigned)rand();
            float x;
            switch (s % 4) {
            case 0: x = (float)(r % 2001) / 1000.0f - 1.0f; break;   /* [-1, 1] */
            case 1: x = (float)(r % 100000) * 0.37f; break;           /* large */
            case 2: memcpy(&x, &r, 4); if (x != x || x > 1e30f || x < -1e30f) x = 1.0f; break;
            default: x = 1.0f + (float)(r % 1024) / 8388608.0f; break; /* near 1, low bits */
            }
            v[k] = x;
        }
        cudaArray_t a;
        cudaTextureObject_t t = make2d(v, 2, 2, &a);
        for (int p = 0; p < M; p++) {
            int i = rand() % 257, j = rand() % 257;
            hxy[p] = make_float2(0.5f + i / 256.0f, 0.5f + j / 256.0f);
        }
        CK(cudaMemcpy(dxy, hxy, M * sizeof(float2), cudaMemcpyHostToDevice));
        sample2d<<<M / 256, 256>>>(t, dxy, dout, M);
        CK(cudaMemcpy(hout, dout, M * sizeof(float), cudaMemcpyDeviceToHost));
        fwrite(v, 4, 4, f);
        fwrite(hxy, sizeof(float2), M, f);
        fwrite(hout, 4, M, f);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(a));
    }
    fclose(f);
    // 1D: texels (t0, t1) random, 257 weights
    f = fopen(getenv("DOUT"), "wb");
    float *hx = new float[257], *dx;
    for (int i = 0; i <= 256; i++)
        hx[i] = 0.5f + i / 256.0f;
    CK(cudaMalloc(&dx, 257 * 4));
    CK(cudaMemcpy(dx, hx, 257 * 4, cudaMemcpyHostToDevice));
    for (int s = 0; s < 64; s++) {
        float v[2];
        for (int k = 0; k < 2; k++) {
            unsigned r = ((unsigned)rand() << 16) ^ (unsigned)rand();
            v[k] = s == 0 ? (float)k : (s % 2 ? (float)(r % 2001) / 1000.0f - 1.0f : 1.0f + (float)(r % 1024) / 8388608.0f);
        }
        cudaArray_t a;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        CK(cudaMallocArray(&a, &cd, 2, 0));
        CK(cudaMemcpy2DToArray(a, 0, 0, v, 8, 8, 1, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = a;
        cudaTextureDesc td = {};
        td.addressMode[0] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModeLinear;
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        sample1d<<<2, 256>>>(t, dx, dout, 257);
        CK(cudaMemcpy(hout, dout, 257 * 4, cudaMemcpyDeviceToHost));
        fwrite(v, 4, 2, f);
        fwrite(hout, 4, 257, f);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(a));
    }
    fclose(f);
    printf("done\n");
    return 0;
}
