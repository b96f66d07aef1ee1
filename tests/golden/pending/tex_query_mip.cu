// surf_rw.cu: surface loads, stores and reductions of every width and boundary mode,
// for the surface goldens (tests/golden/surf_*).
#include <cuda_runtime.h>

// Thread (x, y) of a W x H grid: reads element (x + dx, y + dy) of s with each boundary
// mode and writes what it read, transformed, to d at (W-1-x, y).
extern "C" __global__ void rw2d(cudaSurfaceObject_t s, cudaSurfaceObject_t d, unsigned *o, int dx, int dy)
{
    int x = threadIdx.x, y = threadIdx.y, w = blockDim.x, i = y * w + x;
    unsigned a = surf2Dread<unsigned>(s, (x + dx) * 4, y + dy, cudaBoundaryModeClamp);
    unsigned b = surf2Dread<unsigned>(s, (x + dx) * 4, y + dy, cudaBoundaryModeZero);
    o[2 * i] = a;
    o[2 * i + 1] = b;
    surf2Dwrite(a * 3 + 1, d, (w - 1 - x) * 4, y);
}
// 1D surface of 8-byte elements: loads of 1, 2, 4, 8 and 16 bytes, stores of 1 and 2.
extern "C" __global__ void widths(cudaSurfaceObject_t s, unsigned long long *o)
{
    int x = threadIdx.x;
    o[6 * x + 0] = surf1Dread<unsigned char>(s, x * 8 + 3);
    o[6 * x + 1] = surf1Dread<unsigned short>(s, x * 8 + 2);
    o[6 * x + 2] = surf1Dread<unsigned>(s, x * 8 + 4);
    o[6 * x + 3] = surf1Dread<unsigned long long>(s, x * 8);
    if (x % 2 == 0) {
        ulonglong2 v = surf1Dread<ulonglong2>(s, x * 8);
        o[6 * x + 4] = v.x ^ v.y;
    } else {
        o[6 * x + 4] = 0;
    }
    uint4 q = surf1Dread<uint4>(s, (x & ~1) * 8);
    o[6 * x + 5] = q.x + q.y + q.z + q.w;
    __syncthreads();
    surf1Dwrite((unsigned char)(x + 0x40), s, x * 8 + 1);
    surf1Dwrite((unsigned short)(x * 0x101), s, x * 8 + 6);
}
// Layered 2D and 3D surfaces: the layer or slice from the thread index.
extern "C" __global__ void layers(cudaSurfaceObject_t a, cudaSurfaceObject_t v, unsigned *o)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    unsigned p = surf2DLayeredread<unsigned>(a, x * 4, y, z);
    unsigned q = surf3Dread<unsigned>(v, x * 4, y, z);
    int i = (z * blockDim.y + y) * blockDim.x + x;
    o[2 * i] = p;
    o[2 * i + 1] = q;
    surf2DLayeredwrite(p + q, a, x * 4, y, z);
    surf3Dwrite(p ^ q, v, x * 4, y, z);
}
// sured: reductions of every thread onto a few elements.
extern "C" __global__ void red(cudaSurfaceObject_t s, cudaSurfaceObject_t s64)
{
    int x = threadIdx.x;
    unsigned v = x * 7 + 1;
    asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" :: "l"(s), "r"(0), "r"(v));
    asm volatile("sured.b.min.1d.u32.trap [%0, {%1}], %2;" :: "l"(s), "r"(4), "r"(v + 100));
    asm volatile("sured.b.max.1d.s32.trap [%0, {%1}], %2;" :: "l"(s), "r"(8), "r"((int)(v - 100)));
    asm volatile("sured.b.and.1d.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(12), "r"(~(1u << (x & 31))));
    asm volatile("sured.b.or.1d.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(16), "r"(1u << (x % 29)));
    asm volatile("sured.b.min.1d.s32.clamp [%0, {%1}], %2;" :: "l"(s), "r"(1000), "r"(-(int)v));
    asm volatile("sured.b.add.1d.u64.trap [%0, {%1}], %2;" :: "l"(s64), "r"(0), "l"((unsigned long long)v << 33));
    asm volatile("sured.b.max.1d.s64.zero [%0, {%1}], %2;" :: "l"(s64), "r"(8), "l"(-(long long)v));
    asm volatile("sured.b.max.1d.u64.zero [%0, {%1}], %2;" :: "l"(s64), "r"(800), "l"((unsigned long long)v));
}
// Queries: txq and suq of every supported attribute, and istypep.
extern "C" __global__ void query(cudaTextureObject_t t, cudaSurfaceObject_t s, unsigned *o)
{
    unsigned r;
    asm volatile("txq.width.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[0] = r;
    asm volatile("txq.height.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[1] = r;
    asm volatile("txq.depth.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[2] = r;
    asm volatile("txq.normalized_coords.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[3] = r;
    asm volatile("txq.array_size.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[4] = r;
    asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[5] = r;
    asm volatile("txq.level.width.b32 %0, [%1], 1;" : "=r"(r) : "l"(t)); o[6] = r;
    asm volatile("txq.level.height.b32 %0, [%1], 2;" : "=r"(r) : "l"(t)); o[7] = r;
    asm volatile("suq.width.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[8] = r;
    asm volatile("suq.height.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[9] = r;
    asm volatile("suq.depth.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[10] = r;
    asm volatile("suq.array_size.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[11] = r;
    asm volatile("{.reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(t)); o[12] = r;
    asm volatile("{.reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(t)); o[13] = r;
    asm volatile("{.reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(s)); o[14] = r;
    asm volatile("{.reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(s)); o[15] = r;
}
