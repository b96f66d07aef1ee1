// probe3: the H100's trilinear weights (docs/textures.md): unit texels of a 2x2x2 four-channel
// f32 texture, every (a, b) for 13 values of c and every triple in steps of 4; writes each
// sample's eight weights x256 (bit 15 set where one is not a multiple of 1/256) to DIR.
// nvcc -arch=sm_90 -o probe3 probe3.cu && ./probe3 DIR
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
__device__ unsigned short q16(float v) { float s = v * 256.0f; unsigned short r = (unsigned short)s; if ((float)r != s) r |= 0x8000; return r; }
__global__ void s3(cudaTextureObject_t A, cudaTextureObject_t B, const float4 *c, unsigned short *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 a = tex3D<float4>(A, c[i].x, c[i].y, c[i].z), b = tex3D<float4>(B, c[i].x, c[i].y, c[i].z);
    unsigned short *p = o + 8 * (size_t)i;
    p[0] = q16(a.x); p[1] = q16(a.y); p[2] = q16(a.z); p[3] = q16(a.w);
    p[4] = q16(b.x); p[5] = q16(b.y); p[6] = q16(b.z); p[7] = q16(b.w);
}
static cudaTextureObject_t mk(int base)
{
    float4 v[8];
    for (int q = 0; q < 8; q++) { float *f = &v[q].x; for (int k = 0; k < 4; k++) f[k] = (q == base + k) ? 1.0f : 0.0f; }
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
    cudaArray_t a; CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(2, 2, 2)));
    cudaMemcpy3DParms p = {}; p.srcPtr = make_cudaPitchedPtr(v, 32, 2, 2); p.dstArray = a; p.extent = make_cudaExtent(2, 2, 2); p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, NULL)); return t;
}
static void run(cudaTextureObject_t A, cudaTextureObject_t B, float4 *hc, int n, const char *path)
{
    float4 *dc; unsigned short *dout; CK(cudaMalloc(&dc, (size_t)n * 16)); CK(cudaMalloc(&dout, (size_t)n * 16));
    CK(cudaMemcpy(dc, hc, (size_t)n * 16, cudaMemcpyHostToDevice));
    s3<<<(n + 255) / 256, 256>>>(A, B, dc, dout, n); CK(cudaGetLastError());
    unsigned short *h = new unsigned short[(size_t)n * 8];
    CK(cudaMemcpy(h, dout, (size_t)n * 16, cudaMemcpyDeviceToHost));
    FILE *f = fopen(path, "wb"); fwrite(h, 16, n, f); fclose(f);
    cudaFree(dc); cudaFree(dout); delete[] h;
}
int main(int argc, char **argv)
{
    cudaTextureObject_t A = mk(0), B = mk(4);
    static const int cs[] = { 0, 1, 2, 3, 5, 64, 100, 127, 128, 129, 200, 255, 256 };
    int nc = sizeof cs / sizeof cs[0];
    float4 *hc = new float4[257 * 257 * nc];
    int n = 0;
    for (int ci = 0; ci < nc; ci++) for (int b = 0; b <= 256; b++) for (int a = 0; a <= 256; a++)
        hc[n++] = make_float4(0.5f + a / 256.f, 0.5f + b / 256.f, 0.5f + cs[ci] / 256.f, 0);
    char p[512]; snprintf(p, sizeof p, "%s/w3_planes.bin", argv[1]); run(A, B, hc, n, p);
    n = 0;
    for (int c = 0; c <= 256; c += 4) for (int b = 0; b <= 256; b += 4) for (int a = 0; a <= 256; a += 4)
        hc[n++] = make_float4(0.5f + a / 256.f, 0.5f + b / 256.f, 0.5f + c / 256.f, 0);
    snprintf(p, sizeof p, "%s/w3_cube.bin", argv[1]); run(A, B, hc, n, p);
    printf("probe3 done\n");
    return 0;
}
