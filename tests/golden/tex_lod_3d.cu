// tex_lod.cu: explicit-LOD fetches of 1D and 3D mipmapped textures for the goldens
// tex_lod_1d and tex_lod_3d: thread i samples at c[k*n + i] * scale + bias for its k-th
// coordinate, at level of detail c[dims*n + i] * 4 + 1.5, and stores the four results.
#include <cuda_runtime.h>

#define C(k) (c[(k) * n + i] * scale + bias)

extern "C" __global__ void lod1d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex1DLod<float4>(t, C(0), c[n + i] * 4.0f + 1.5f);
}
extern "C" __global__ void lod3d(cudaTextureObject_t t, const float *c, float4 *o, int n, float scale, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex3DLod<float4>(t, C(0), C(1), C(2), c[3 * n + i] * 4.0f + 1.5f);
}
