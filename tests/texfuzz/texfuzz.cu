// texfuzz.cu: the kernels of the texture fuzz cases (tests/texfuzz/cases.txt): thread i
// samples at c[k*n + i] * scale + bias for its k-th coordinate (layers: the floor of it;
// levels of detail: c[dims*n + i] * 4 + 1.5; gradients: along the axes, exp2 of it) and
// stores the four results.  f* return floats, i* signed and u* unsigned integers.
#include <cuda_runtime.h>

#define C(k) (c[(k) * n + i] * scale + bias)
#define L(k) ((int)floorf(C(k)))
#define KERNELS(P, T)                                                                                          \
extern "C" __global__ void P##1d(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias)    \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1D<T>(t, C(0)); }                          \
extern "C" __global__ void P##2d(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias)    \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2D<T>(t, C(0), C(1)); }                    \
extern "C" __global__ void P##3d(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias)    \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex3D<T>(t, C(0), C(1), C(2)); }              \
extern "C" __global__ void P##a1d(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias)   \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1DLayered<T>(t, C(0), L(1)); }             \
extern "C" __global__ void P##a2d(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias)   \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2DLayered<T>(t, C(0), C(1), L(2)); }       \
extern "C" __global__ void P##cube(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias)  \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = texCubemap<T>(t, C(0), C(1), C(2)); }         \
extern "C" __global__ void P##acube(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias) \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = texCubemapLayered<T>(t, C(0), C(1), C(2), L(3)); } \
extern "C" __global__ void P##gather(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias)\
{                                                                                                              \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                             \
    if (i >= n) return;                                                                                        \
    float x = C(0), y = C(1);                                                                                  \
    switch (i & 3) {                                                                                           \
    case 0: o[i] = tex2Dgather<T>(t, x, y, 0); break;                                                          \
    case 1: o[i] = tex2Dgather<T>(t, x, y, 1); break;                                                          \
    case 2: o[i] = tex2Dgather<T>(t, x, y, 2); break;                                                          \
    default: o[i] = tex2Dgather<T>(t, x, y, 3); break;                                                         \
    }                                                                                                          \
}                                                                                                              \
extern "C" __global__ void P##fetch(cudaTextureObject_t t, const float *c, T *o, int n, float scale, float bias) \
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1Dfetch<T>(t, L(0)); }

KERNELS(f, float4)
KERNELS(i, int4)
KERNELS(u, uint4)

extern "C" __global__ void flod1d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1DLod<float4>(t, C(0), c[n + i] * 4.0f + 1.5f); }
extern "C" __global__ void flod2d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2DLod<float4>(t, C(0), C(1), c[2 * n + i] * 4.0f + 1.5f); }
extern "C" __global__ void flod3d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex3DLod<float4>(t, C(0), C(1), C(2), c[3 * n + i] * 4.0f + 1.5f); }
extern "C" __global__ void fgrad2d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float g = exp2f(c[2 * n + i] * 5.0f) / 64.0f;
    o[i] = (i & 1) ? tex2DGrad<float4>(t, C(0), C(1), make_float2(g, 0), make_float2(0, g * 0.75f))
                   : tex2DGrad<float4>(t, C(0), C(1), make_float2(0, g * 0.5f), make_float2(g, 0));
}
