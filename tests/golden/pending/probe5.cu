// probe5: linear filtering of 8-bit signed normalized and sRGB textures on the H100,
// whole: every filter sum of two s8 texels, and every (first texel, second texel, weight)
// of an sRGB channel.  Writes, to the file named by argv[1]:
//   s8:   u32 n = 65281, then n f32: texels i - 128 (i < 256) in a row, read at
//         x = i + 0.5 + w / 256 for i < 255, w < 256, then x = 255.5 (so the 16-bit sum
//         (i - 128) * 256 + w, every value from -32768 to 32512, in order)
//   s8b:  u32 n = 8192, then n x (f32 x, f32 y, f32 result): a 16x16 two-channel s8
//         texture of random texels (channel 0 listed first: 256 bytes), read bilinearly
//         at random points of the 1/256 grid
//   srgb: u32 n = 2^24, then n u16: the f16 bits of channel 0 of a 512x256 sRGB u8x4
//         texture whose row a holds, at x = 2b and 2b + 1, the channels a and b, read at
//         (2b + 0.5 + w / 256, a + 0.5): index (a * 256 + b) * 256 + w; every result is an
//         f16 value (checked; otherwise the program fails)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void s1(cudaTextureObject_t t, const float *x, float *o, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1D<float>(t, x[i]); }
__global__ void s2(cudaTextureObject_t t, const float2 *c, float *o, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2D<float>(t, c[i].x, c[i].y); }
__global__ void srgb(cudaTextureObject_t t, unsigned short *o, int *bad)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;   // (a * 256 + b) * 256 + w
    unsigned a = i >> 16, b = i >> 8 & 255, w = i & 255;
    float r = tex2D<float4>(t, 2 * b + 0.5f + w / 256.0f, a + 0.5f).x;
    __half h = __float2half_rn(r);
    if (__half2float(h) != r)
        atomicAdd(bad, 1);
    o[i] = __half_as_ushort(h);
}

static cudaTextureObject_t obj(cudaArray_t arr, int norm_read, int srgb_on)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = norm_read ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.sRGB = srgb_on;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

int main(int argc, char **argv)
{
    FILE *out = fopen(argv[1], "wb");
    if (!out)
        return 1;
    {   // s8, every sum
        signed char tex[256];
        for (int i = 0; i < 256; i++)
            tex[i] = (signed char)(i - 128);
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<signed char>();
        cudaArray_t arr;
        CK(cudaMallocArray(&arr, &cd, 256, 0));
        CK(cudaMemcpy2DToArray(arr, 0, 0, tex, 256, 256, 1, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = obj(arr, 1, 0);
        int n = 255 * 256 + 1;
        float *hx = new float[n], *ho = new float[n], *dx, *dout;
        for (int i = 0; i < 255; i++)
            for (int w = 0; w < 256; w++)
                hx[i * 256 + w] = i + 0.5f + w / 256.0f;
        hx[n - 1] = 255.5f;
        CK(cudaMalloc(&dx, n * 4)); CK(cudaMalloc(&dout, n * 4));
        CK(cudaMemcpy(dx, hx, n * 4, cudaMemcpyHostToDevice));
        s1<<<(n + 255) / 256, 256>>>(t, dx, dout, n);
        CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
        fwrite(&n, 4, 1, out);
        fwrite(ho, 4, n, out);
    }
    {   // s8, bilinear at random points
        srand(5);
        signed char tex[16 * 16 * 2];
        for (int i = 0; i < 512; i++)
            tex[i] = (signed char)(rand() & 255);
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<char2>();
        cudaArray_t arr;
        CK(cudaMallocArray(&arr, &cd, 16, 16));
        CK(cudaMemcpy2DToArray(arr, 0, 0, tex, 32, 32, 16, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = obj(arr, 1, 0);
        int n = 8192;
        float2 *hc = new float2[n], *dc;
        float *ho = new float[n], *dout;
        for (int i = 0; i < n; i++)
            hc[i] = make_float2((rand() % (16 * 256)) / 256.0f, (rand() % (16 * 256)) / 256.0f);
        CK(cudaMalloc(&dc, n * 8)); CK(cudaMalloc(&dout, n * 4));
        CK(cudaMemcpy(dc, hc, n * 8, cudaMemcpyHostToDevice));
        s2<<<n / 256, 256>>>(t, dc, dout, n);
        CK(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
        fwrite(&n, 4, 1, out);
        for (int i = 0; i < 256; i++)
            fwrite(&tex[2 * i], 1, 1, out);
        for (int i = 0; i < n; i++) {
            fwrite(&hc[i], 8, 1, out);
            fwrite(&ho[i], 4, 1, out);
        }
    }
    {   // sRGB, every pair and weight
        unsigned char *tex = new unsigned char[512 * 256 * 4];
        for (int a = 0; a < 256; a++)
            for (int b = 0; b < 256; b++)
                for (int k = 0; k < 4; k++) {
                    tex[((a * 512) + 2 * b) * 4 + k] = (unsigned char)a;
                    tex[((a * 512) + 2 * b + 1) * 4 + k] = (unsigned char)b;
                }
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
        cudaArray_t arr;
        CK(cudaMallocArray(&arr, &cd, 512, 256));
        CK(cudaMemcpy2DToArray(arr, 0, 0, tex, 2048, 2048, 256, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = obj(arr, 1, 1);
        int n = 1 << 24, *dbad, bad = 0;
        unsigned short *ho = new unsigned short[n], *dout;
        CK(cudaMalloc(&dout, n * 2)); CK(cudaMalloc(&dbad, 4));
        CK(cudaMemset(dbad, 0, 4));
        srgb<<<n / 256, 256>>>(t, dout, dbad);
        CK(cudaMemcpy(ho, dout, n * 2, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&bad, dbad, 4, cudaMemcpyDeviceToHost));
        if (bad) {
            printf("srgb: %d results are not f16 values\n", bad);
            return 1;
        }
        fwrite(&n, 4, 1, out);
        fwrite(ho, 2, n, out);
    }
    fclose(out);
    printf("done\n");
    return 0;
}
