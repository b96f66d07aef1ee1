// probe2: the texture unit's 3D weights, mip interpolation, LOD from gradients,
// normalized-coordinate wrapping, the sRGB table and s8 filtering, on the H100.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void s3(cudaTextureObject_t t, const float4 *c, float *o, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z); }
__global__ void slod(cudaTextureObject_t t, const float4 *c, float *o, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2DLod<float>(t, c[i].x, c[i].y, c[i].z); }
__global__ void sgrad(cudaTextureObject_t t, const float4 *c, const float4 *g, float *o, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float>(t, c[i].x, c[i].y, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w)); }
__global__ void s1(cudaTextureObject_t t, const float4 *c, float *o, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1D<float>(t, c[i].x); }
__global__ void s1v(cudaTextureObject_t t, const float4 *c, float4 *o, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1D<float4>(t, c[i].x); }

static FILE *out;
static float4 *dc, *dg; static float *dout; static float4 *dout4;
static void put(const void *p, size_t n) { fwrite(p, 1, n, out); }

static cudaTextureObject_t obj(cudaResourceDesc *rd, int filter, int mip, int addr, int norm, int srgb, int rm, float maxlod)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = (cudaTextureAddressMode)addr;
    td.filterMode = (cudaTextureFilterMode)filter;
    td.mipmapFilterMode = (cudaTextureFilterMode)mip;
    td.readMode = (cudaTextureReadMode)rm;
    td.normalizedCoords = norm;
    td.sRGB = srgb;
    td.maxMipmapLevelClamp = maxlod;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, rd, &td, NULL));
    return t;
}

int main(int argc, char **argv)
{
    out = fopen(argv[1], "wb");
    const int MAX = 1 << 20;
    float4 *hc = new float4[MAX], *hg = new float4[MAX];
    float *ho = new float[MAX];
    CK(cudaMalloc(&dc, MAX * 16)); CK(cudaMalloc(&dg, MAX * 16)); CK(cudaMalloc(&dout, MAX * 4)); CK(cudaMalloc(&dout4, MAX * 16));
    srand(777);
    // 1. 3D weights: unit texel k of a 2x2x2 f32 array, a,b,c in steps of 8 (33^3) plus 20000 random
    {
        int n = 0;
        for (int c = 0; c <= 256; c += 8) for (int b = 0; b <= 256; b += 8) for (int a = 0; a <= 256; a += 8)
            hc[n++] = make_float4(0.5f + a / 256.f, 0.5f + b / 256.f, 0.5f + c / 256.f, 0);
        for (int r = 0; r < 20000; r++)
            hc[n++] = make_float4(0.5f + (rand() % 257) / 256.f, 0.5f + (rand() % 257) / 256.f, 0.5f + (rand() % 257) / 256.f, 0);
        CK(cudaMemcpy(dc, hc, n * 16, cudaMemcpyHostToDevice));
        put(&n, 4); put(hc, n * 16);
        for (int k = 0; k < 9; k++) {
            float v[8];
            for (int q = 0; q < 8; q++) v[q] = k < 8 ? (q == k) : (float)((rand() % 20001) - 10000) / 7777.0f;
            cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
            cudaArray_t a; CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(2, 2, 2)));
            cudaMemcpy3DParms p = {}; p.srcPtr = make_cudaPitchedPtr(v, 8, 2, 2); p.dstArray = a; p.extent = make_cudaExtent(2, 2, 2); p.kind = cudaMemcpyHostToDevice;
            CK(cudaMemcpy3D(&p));
            cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
            cudaTextureObject_t t = obj(&rd, 1, 0, 1, 0, 0, 0, 0);
            s3<<<(n + 255) / 256, 256>>>(t, dc, dout, n);
            CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
            put(v, 32); put(ho, n * 4);
            cudaDestroyTextureObject(t); cudaFreeArray(a);
        }
    }
    // 2. mipmaps: a 8x8 f32 mipmapped array, 4 levels; level values: (a) constant level index, (b) random
    for (int variant = 0; variant < 2; variant++) {
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaMipmappedArray_t m; CK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(8, 8, 0), 4));
        float lv[4][64];
        for (int l = 0; l < 4; l++) {
            cudaArray_t a; CK(cudaGetMipmappedArrayLevel(&a, m, l));
            int w = 8 >> l;
            for (int i = 0; i < w * w; i++) lv[l][i] = variant ? (float)((rand() % 20001) - 10000) / 7777.0f : (float)l;
            CK(cudaMemcpy2DToArray(a, 0, 0, lv[l], w * 4, w * 4, w, cudaMemcpyHostToDevice));
        }
        put(lv, sizeof lv);
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m;
        for (int f = 0; f < 2; f++) {   // mip filter point, linear; texel filter linear
            cudaTextureObject_t t = obj(&rd, 1, f, 1, 1, 0, 0, 3);
            int n = 0;
            for (int k = 0; k <= 3 * 1024 + 256; k++)   // lod -0.125 .. 3.125 in 1/1024 steps, at a fixed point
                hc[n++] = make_float4(0.3f, 0.6f, -0.125f + k / 1024.0f, 0);
            for (int r = 0; r < 8192; r++)
                hc[n++] = make_float4((rand() % 4096) / 4096.f, (rand() % 4096) / 4096.f, (rand() % 4096) / 1024.f - 0.5f, 0);
            CK(cudaMemcpy(dc, hc, n * 16, cudaMemcpyHostToDevice));
            slod<<<(n + 255) / 256, 256>>>(t, dc, dout, n);
            CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
            put(&n, 4); put(hc, n * 16); put(ho, n * 4);
            // gradients: isotropic sweep, then random
            n = 0;
            for (int k = 0; k < 4096; k++) {
                float g = k / 4096.0f;   // in normalized units; level 0 is 8 texels wide
                hc[n] = make_float4(0.3f, 0.6f, 0, 0); hg[n++] = make_float4(g, 0, 0, g);
            }
            for (int k = 0; k < 4096; k++) {
                float g = k / 4096.0f;
                hc[n] = make_float4(0.3f, 0.6f, 0, 0); hg[n++] = make_float4(g, 0, 0, 0);
            }
            for (int r = 0; r < 8192; r++) {
                hc[n] = make_float4((rand() % 4096) / 4096.f, (rand() % 4096) / 4096.f, 0, 0);
                hg[n++] = make_float4(((rand() % 2001) - 1000) / 2000.f, ((rand() % 2001) - 1000) / 2000.f,
                                      ((rand() % 2001) - 1000) / 2000.f, ((rand() % 2001) - 1000) / 2000.f);
            }
            CK(cudaMemcpy(dc, hc, n * 16, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dg, hg, n * 16, cudaMemcpyHostToDevice));
            sgrad<<<(n + 255) / 256, 256>>>(t, dc, dg, dout, n);
            CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
            put(&n, 4); put(hc, n * 16); put(hg, n * 16); put(ho, n * 4);
            cudaDestroyTextureObject(t);
        }
        cudaFreeMipmappedArray(m);
    }
    // 3. normalized coordinates: 1D f32 array of 8 texels valued by index; point; wrap, mirror, clamp
    {
        float v[8]; for (int i = 0; i < 8; i++) v[i] = (float)i;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t a; CK(cudaMallocArray(&a, &cd, 8, 0));
        CK(cudaMemcpy2DToArray(a, 0, 0, v, 32, 32, 1, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
        int n = 0;
        for (int k = -24 * 64; k <= 24 * 64; k++) {   // every 1/512 from -3 to 3, and neighbours
            float u = k / 512.0f;
            hc[n++] = make_float4(u, 0, 0, 0);
            hc[n++] = make_float4(nextafterf(u, 1e9f), 0, 0, 0);
            hc[n++] = make_float4(nextafterf(u, -1e9f), 0, 0, 0);
        }
        for (int r = 0; r < 8192; r++) { unsigned x = ((unsigned)rand() << 16) ^ rand(); float u; memcpy(&u, &x, 4); if (!(u > -100 && u < 100)) u = 0.37f; hc[n++] = make_float4(u, 0, 0, 0); }
        CK(cudaMemcpy(dc, hc, n * 16, cudaMemcpyHostToDevice));
        put(&n, 4); put(hc, n * 16);
        int modes[3] = { 0, 2, 1 };   // wrap, mirror, clamp
        for (int f = 0; f < 2; f++)
            for (int mi = 0; mi < 3; mi++) {
                cudaTextureObject_t t = obj(&rd, f, 0, modes[mi], 1, 0, 0, 0);
                s1<<<(n + 255) / 256, 256>>>(t, dc, dout, n);
                CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
                put(ho, n * 4);
                cudaDestroyTextureObject(t);
            }
        cudaFreeArray(a);
    }
    // 4. sRGB: 256 uchar4 texels (c, c, c, c), point, unnormalized, normalized float read
    {
        uchar4 v[256]; for (int i = 0; i < 256; i++) v[i] = make_uchar4(i, i, i, i);
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
        cudaArray_t a; CK(cudaMallocArray(&a, &cd, 256, 0));
        CK(cudaMemcpy2DToArray(a, 0, 0, v, 1024, 1024, 1, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
        int n = 0;
        for (int i = 0; i < 256; i++) hc[n++] = make_float4(i + 0.5f, 0, 0, 0);
        for (int i = 0; i < 255 * 16; i++) hc[n++] = make_float4(0.5f + i / 16.0f, 0, 0, 0);   // linear between
        CK(cudaMemcpy(dc, hc, n * 16, cudaMemcpyHostToDevice));
        put(&n, 4);
        for (int f = 0; f < 2; f++) {
            cudaTextureObject_t t = obj(&rd, f, 0, 1, 0, 1, 1, 0);
            s1v<<<(n + 255) / 256, 256>>>(t, dc, dout4, n);
            CK(cudaMemcpy(hg, dout4, n * 16, cudaMemcpyDeviceToHost));
            put(hg, n * 16);
            cudaDestroyTextureObject(t);
        }
        cudaFreeArray(a);
    }
    // 5. s8 linear, normalized float: 1D 256 texels of every s8 value in a random order
    {
        signed char v[256]; for (int i = 0; i < 256; i++) v[i] = (signed char)(i * 89 + 7);
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<signed char>();
        cudaArray_t a; CK(cudaMallocArray(&a, &cd, 256, 0));
        CK(cudaMemcpy2DToArray(a, 0, 0, v, 256, 256, 1, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
        cudaTextureObject_t t = obj(&rd, 1, 0, 1, 0, 0, 1, 0);
        int n = 0;
        for (int i = 0; i < 255; i++) for (int w = 0; w < 256; w += 3) hc[n++] = make_float4(i + 0.5f + w / 256.0f, 0, 0, 0);
        CK(cudaMemcpy(dc, hc, n * 16, cudaMemcpyHostToDevice));
        s1<<<(n + 255) / 256, 256>>>(t, dc, dout, n);
        CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
        put(v, 256); put(&n, 4); put(hc, n * 16); put(ho, n * 4);
    }
    fclose(out);
    printf("probe2 done\n");
    return 0;
}
