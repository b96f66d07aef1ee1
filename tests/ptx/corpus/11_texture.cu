// Feature group 6.11: texture object functions.
#include <cuda_runtime.h>

__global__ void k_tex1dfetch(cudaTextureObject_t t, cudaTextureObject_t ti, cudaTextureObject_t tu,
                             cudaTextureObject_t tc, float *o, int4 *oi, uchar4 *ou, char *oc)
{
    int i = threadIdx.x;
    float4 v = tex1Dfetch<float4>(t, i);
    o[i] = tex1Dfetch<float>(t, i) + v.x + v.w;
    oi[i] = tex1Dfetch<int4>(ti, i);
    ou[i] = tex1Dfetch<uchar4>(tu, i);
    oc[i] = tex1Dfetch<char>(tc, i) + (char)tex1Dfetch<short>(tc, i) + (char)tex1Dfetch<unsigned int>(tc, i);
}
__global__ void k_tex1d2d3d(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                            cudaTextureObject_t tb, float *o, float4 *o4, int4 *oi, uchar4 *ou, unsigned char *ob)
{
    int i = threadIdx.x; float x = i + 0.5f, y = x * 0.25f, z = x * 0.125f;
    o[i] = tex1D<float>(t1, x) + tex2D<float>(t2, x, y) + tex3D<float>(t3, x, y, z);
    o4[i] = tex2D<float4>(t2, x, y);
    oi[i] = tex2D<int4>(t2, y, x);
    ou[i] = tex2D<uchar4>(t2, x, x);
    ob[i] = tex1D<unsigned char>(tb, x);
    float2 f2 = tex3D<float2>(t3, z, y, x);
    o[i + 64] = f2.x + f2.y;
}
__global__ void k_tex_lod_grad(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3, float *o)
{
    int i = threadIdx.x; float x = i + 0.5f, y = x * 0.25f, z = x * 0.125f, l = i * 0.1f;
    o[i] = tex1DLod<float>(t1, x, l) + tex2DLod<float>(t2, x, y, l) + tex3DLod<float>(t3, x, y, z, l);
    float4 dx = make_float4(0.1f, 0.2f, 0.3f, 0), dy = make_float4(0.4f, 0.5f, 0.6f, 0);
    o[i + 64] = tex1DGrad<float>(t1, x, dx.x, dy.x) + tex2DGrad<float>(t2, x, y, make_float2(dx.x, dx.y), make_float2(dy.x, dy.y))
              + tex3DGrad<float>(t3, x, y, z, dx, dy);
}
__global__ void k_tex_layered(cudaTextureObject_t t1l, cudaTextureObject_t t2l, float *o, int layer)
{
    int i = threadIdx.x; float x = i + 0.5f, y = x * 0.25f, l = i * 0.1f;
    o[i] = tex1DLayered<float>(t1l, x, layer) + tex2DLayered<float>(t2l, x, y, layer);
    o[i + 64] = tex1DLayeredLod<float>(t1l, x, layer, l) + tex2DLayeredLod<float>(t2l, x, y, layer, l);
    o[i + 128] = tex1DLayeredGrad<float>(t1l, x, layer, 0.1f, 0.2f)
               + tex2DLayeredGrad<float>(t2l, x, y, layer, make_float2(0.1f, 0.2f), make_float2(0.3f, 0.4f));
}
__global__ void k_tex_cube(cudaTextureObject_t tc, cudaTextureObject_t tcl, float *o, int layer)
{
    int i = threadIdx.x; float x = i * 0.01f, y = 1.0f - x, z = 0.5f, l = i * 0.1f;
    o[i] = texCubemap<float>(tc, x, y, z) + texCubemapLod<float>(tc, x, y, z, l)
         + texCubemapLayered<float>(tcl, x, y, z, layer) + texCubemapLayeredLod<float>(tcl, x, y, z, layer, l);
    float4 dx = make_float4(0.1f, 0.2f, 0.3f, 0), dy = make_float4(0.4f, 0.5f, 0.6f, 0);
    o[i + 64] = texCubemapGrad<float>(tc, x, y, z, dx, dy) + texCubemapLayeredGrad<float>(tcl, x, y, z, layer, dx, dy);
}
__global__ void k_tex_gather(cudaTextureObject_t t, cudaTextureObject_t ti, float4 *o, int4 *oi, uchar4 *ou)
{
    int i = threadIdx.x; float x = i + 0.5f, y = x * 0.5f;
    float4 a = tex2Dgather<float4>(t, x, y, 0), b = tex2Dgather<float4>(t, x, y, 1);
    float4 c = tex2Dgather<float4>(t, x, y, 2), d = tex2Dgather<float4>(t, x, y, 3);
    o[i] = make_float4(a.x + b.y, c.z, d.w, a.w);
    oi[i] = tex2Dgather<int4>(ti, x, y, 0);
    ou[i] = tex2Dgather<uchar4>(ti, x, y, 1);
}
__global__ void k_tex_sparse(cudaTextureObject_t t2, cudaTextureObject_t t3, float *o, int *res)
{
    int i = threadIdx.x; float x = i + 0.5f, y = x * 0.25f;
    bool r1 = false, r2 = false;
    o[i] = tex2D<float>(t2, x, y, &r1) + tex3D<float>(t3, x, y, x, &r2);
    res[i] = r1 + 2 * r2;
}
