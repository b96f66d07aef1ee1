// probe4: the H100's level of detail for tex.grad: a 256x256 f32 mipmapped texture whose
// level l holds l everywhere (linear mip filtering returns the LOD, in 1/256); gradient
// sweeps for max anisotropy 1, 4 and 16.  Writes per set: n, gradients (n float4), LODs.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
__global__ void g(cudaTextureObject_t t, const float4 *gr, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(gr[i].x / 256, gr[i].y / 256), make_float2(gr[i].z / 256, gr[i].w / 256));
}
int main(int argc, char **argv)
{
    FILE *out = fopen(argv[1], "wb");
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m; CK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(256, 256, 0), 9));
    static float buf[256 * 256];
    for (int l = 0; l < 9; l++) {
        cudaArray_t a; CK(cudaGetMipmappedArrayLevel(&a, m, l));
        int w = 256 >> l;
        for (int i = 0; i < w * w; i++) buf[i] = (float)l;
        CK(cudaMemcpy2DToArray(a, 0, 0, buf, w * 4, w * 4, w, cudaMemcpyHostToDevice));
    }
    const int MAX = 1 << 16;
    float4 *h = new float4[MAX]; float *ho = new float[MAX];
    int n = 0;
    for (int ri = 0; ri < 3; ri++) { float r = ri == 0 ? 1.5f : ri == 1 ? 3.0f : 5.0f;
        for (int k = 0; k < 1024; k++) { float th = k * (float)M_PI / 2 / 1024; h[n++] = make_float4(r * cosf(th), r * sinf(th), 0, 0); } }
    for (int ai = 0; ai < 29; ai++) for (int bi = 0; bi < 29; bi++) h[n++] = make_float4(1 + ai * 0.25f, 0, 0, 1 + bi * 0.25f);
    for (int bi = 1; bi <= 4; bi++) for (int k = 0; k < 256; k++) { float ph = k * (float)M_PI / 256; h[n++] = make_float4(4, 0, bi * cosf(ph), bi * sinf(ph)); }
    srand(4242);
    for (int k = 0; k < 8192; k++) {
        float s = exp2f((rand() % 1000) / 1000.0f * 6 - 1);
        h[n++] = make_float4(s * ((rand() % 2001) - 1000) / 1000.f, s * ((rand() % 2001) - 1000) / 1000.f,
                             s * ((rand() % 2001) - 1000) / 1000.f, s * ((rand() % 2001) - 1000) / 1000.f);
    }
    float4 *dg; float *dout; CK(cudaMalloc(&dg, n * 16)); CK(cudaMalloc(&dout, n * 4));
    CK(cudaMemcpy(dg, h, n * 16, cudaMemcpyHostToDevice));
    fwrite(&n, 4, 1, out); fwrite(h, 16, n, out);
    int anis[3] = { 1, 4, 16 };
    for (int ai = 0; ai < 3; ai++) {
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModeLinear; td.mipmapFilterMode = cudaFilterModeLinear;
        td.readMode = cudaReadModeElementType; td.normalizedCoords = 1; td.maxMipmapLevelClamp = 8;
        td.maxAnisotropy = anis[ai];
        cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        g<<<(n + 255) / 256, 256>>>(t, dg, dout, n); CK(cudaGetLastError());
        CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
        fwrite(ho, 4, n, out);
        cudaDestroyTextureObject(t);
    }
    fclose(out);
    printf("probe4 done, %d gradients\n", n);
    return 0;
}
