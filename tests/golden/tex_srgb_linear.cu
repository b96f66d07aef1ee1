// tex_sample.cu: texture fetches at coordinates read from a buffer, for the texture
// goldens (tests/golden/tex_*): each thread i samples at c[k*n + i] * scale + bias for
// its k-th coordinate and stores the four results.
#include <cuda_runtime.h>

#define C(k) (c[(k) * n + i] * scale + bias)

extern "C" __global__ void s1d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex1D<float4>(t, C(0));
}
extern "C" __global__ void s2d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex2D<float4>(t, C(0), C(1));
}
extern "C" __global__ void s2di(cudaTextureObject_t t, const float *c, int4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex2D<int4>(t, C(0), C(1));
}
extern "C" __global__ void s3d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex3D<float4>(t, C(0), C(1), C(2));
}
extern "C" __global__ void sa1d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex1DLayered<float4>(t, C(0), (int)floorf(C(1)));
}
extern "C" __global__ void sa2d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex2DLayered<float4>(t, C(0), C(1), (int)floorf(C(2)));
}
extern "C" __global__ void scube(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = texCubemap<float4>(t, C(0), C(1), C(2));
}
extern "C" __global__ void sacube(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = texCubemapLayered<float4>(t, C(0), C(1), C(2), (int)floorf(C(3)));
}
extern "C" __global__ void lod2d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex2DLod<float4>(t, C(0), C(1), c[2 * n + i] * 4.0f + 1.5f);
}
extern "C" __global__ void grad2d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float g = exp2f(c[2 * n + i] * 5.0f) / 64.0f;
    if (i < n) o[i] = tex2DGrad<float4>(t, C(0), C(1), make_float2(g, 0), make_float2(0, g * 0.75f));
}
extern "C" __global__ void gather(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = C(0), y = C(1);
    switch (i & 3) {
    case 0: o[i] = tex2Dgather<float4>(t, x, y, 0); break;
    case 1: o[i] = tex2Dgather<float4>(t, x, y, 1); break;
    case 2: o[i] = tex2Dgather<float4>(t, x, y, 2); break;
    default: o[i] = tex2Dgather<float4>(t, x, y, 3); break;
    }
}
extern "C" __global__ void fetch(cudaTextureObject_t t, uint4 *o, int n, int first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex1Dfetch<uint4>(t, first + i);
}
extern "C" __global__ void fetchf(cudaTextureObject_t t, float4 *o, int n, int first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex1Dfetch<float4>(t, first + i);
}
