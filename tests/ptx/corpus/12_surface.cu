// Feature group 6.12: surface object functions.
#include <cuda_runtime.h>

__global__ void k_surf1d(cudaSurfaceObject_t s, cudaSurfaceObject_t s8, cudaSurfaceObject_t s16,
                         cudaSurfaceObject_t s64, cudaSurfaceObject_t s128)
{
    int x = threadIdx.x;
    float f = surf1Dread<float>(s, x * 4);
    surf1Dwrite(f * 2.0f, s, x * 4);
    unsigned char c = surf1Dread<unsigned char>(s8, x);
    surf1Dwrite((unsigned char)(c + 1), s8, x);
    short2 h = surf1Dread<short2>(s16, x * 4);
    surf1Dwrite(make_short2(h.y, h.x), s16, x * 4);
    long long l = surf1Dread<long long>(s64, x * 8);
    surf1Dwrite(l + 1, s64, x * 8);
    float2 f2 = surf1Dread<float2>(s64, x * 8);
    surf1Dwrite(make_float2(f2.y, f2.x), s64, x * 8);
    longlong2 l2 = surf1Dread<longlong2>(s128, x * 16);
    surf1Dwrite(make_longlong2(l2.y, l2.x), s128, x * 16);
    short sh = surf1Dread<short>(s16, x * 2, cudaBoundaryModeClamp);
    surf1Dwrite((short)(sh + 1), s16, x * 2, cudaBoundaryModeZero);
}
__global__ void k_surf2d(cudaSurfaceObject_t s, cudaSurfaceObject_t su, cudaSurfaceObject_t si)
{
    int x = threadIdx.x, y = blockIdx.x;
    float4 v = surf2Dread<float4>(s, x * 16, y);
    surf2Dwrite(make_float4(v.w, v.z, v.y, v.x), s, x * 16, y);
    uchar4 u = surf2Dread<uchar4>(su, x * 4, y, cudaBoundaryModeClamp);
    surf2Dwrite(make_uchar4(u.w, u.z, u.y, u.x), su, x * 4, y, cudaBoundaryModeZero);
    int n = surf2Dread<int>(si, x * 4, y, cudaBoundaryModeZero);
    surf2Dwrite(n + 1, si, x * 4, y, cudaBoundaryModeClamp);
    int4 n4 = surf2Dread<int4>(s, x * 16, y);
    surf2Dwrite(n4, s, x * 16, y + 1);
}
__global__ void k_surf3d_layered(cudaSurfaceObject_t s3, cudaSurfaceObject_t s1l, cudaSurfaceObject_t s2l, int layer)
{
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    float a = surf3Dread<float>(s3, x * 4, y, z);
    surf3Dwrite(a + 1.0f, s3, x * 4, y, z);
    float b = surf1DLayeredread<float>(s1l, x * 4, layer);
    surf1DLayeredwrite(b + 1.0f, s1l, x * 4, layer);
    float c = surf2DLayeredread<float>(s2l, x * 4, y, layer);
    surf2DLayeredwrite(c + 1.0f, s2l, x * 4, y, layer);
    uchar4 d = surf3Dread<uchar4>(s3, x * 4, y, z, cudaBoundaryModeClamp);
    surf3Dwrite(d, s3, x * 4, y, z + 1, cudaBoundaryModeZero);
}
__global__ void k_surf_cube(cudaSurfaceObject_t sc, cudaSurfaceObject_t scl, int face, int layerFace)
{
    int x = threadIdx.x, y = blockIdx.x;
    float a = surfCubemapread<float>(sc, x * 4, y, face);
    surfCubemapwrite(a * 2.0f, sc, x * 4, y, face);
    float b = surfCubemapLayeredread<float>(scl, x * 4, y, layerFace);
    surfCubemapLayeredwrite(b * 2.0f, scl, x * 4, y, layerFace);
}
