// wgmma_layouts.cu: where wgmma reads its shared-memory operands: one matrix descriptor per
// CTA (m64n64k16, f16, f32 results).  Shared memory holds each f16 element's own index
// (two runs: the index's low 10 bits, then the rest, each exact in f16).  The B probes (CTAs
// 0..43) take A from registers as a selector (A(m, k) = 1 where k = m % 16), so that
// D(m, n) = B(m % 16, n); the A probes (44..56) take B as a selector (B(k, n) = 1 where
// k = n % 16, K-major, no swizzle, LBO 128, SBO 256, at byte 12288), so that D(m, n) =
// A(m, n % 16).  out[cta * 1024 + i]: the byte offset of B(k = i / 64, n = i % 64), or of
// A(m = i / 16, k = i % 16).  The descriptors cover no swizzle (several leading and stride
// byte offsets), the 128-, 64- and 32-byte swizzles, K-major and transposed operands,
// start addresses that are not 1024-byte aligned and the base offset.
#include <cuda_fp16.h>
#include <cstdint>

// off, lbo, sbo, base, swizzle, transposed
__constant__ unsigned cfg[57][6] = {
    {0, 128, 256, 0, 0, 0}, {0, 256, 128, 0, 0, 0}, {0, 1024, 128, 0, 0, 0}, {0, 128, 512, 0, 0, 0}, {256, 128, 256, 0, 0, 0},
    {0, 128, 256, 0, 0, 1}, {0, 256, 128, 0, 0, 1}, {0, 1024, 128, 0, 0, 1}, {0, 128, 1024, 0, 0, 1},
    {0, 16, 1024, 0, 1, 0}, {0, 0, 1024, 0, 1, 0}, {0, 4096, 1024, 0, 1, 0}, {0, 16, 2048, 0, 1, 0}, {128, 16, 1024, 0, 1, 0}, {512, 16, 1024, 0, 1, 0},
    {0, 16, 512, 0, 2, 0}, {0, 1024, 512, 0, 2, 0}, {128, 16, 512, 0, 2, 0}, {0, 16, 256, 0, 3, 0}, {0, 1024, 256, 0, 3, 0}, {64, 16, 256, 0, 3, 0},
    {0, 16, 1024, 0, 1, 1}, {0, 8192, 1024, 0, 1, 1}, {0, 2048, 1024, 0, 1, 1}, {0, 1024, 2048, 0, 1, 1}, {0, 4096, 512, 0, 1, 1}, {128, 8192, 1024, 0, 1, 1},
    {0, 1024, 512, 0, 2, 1}, {0, 4096, 512, 0, 2, 1}, {0, 512, 256, 0, 3, 1}, {0, 2048, 256, 0, 3, 1},
    {256, 16, 1024, 1, 1, 0}, {256, 16, 1024, 0, 1, 0}, {32, 16, 1024, 0, 1, 0}, {384, 16, 1024, 3, 1, 0}, {128, 16, 512, 1, 2, 0},
    {64, 16, 256, 1, 3, 0}, {256, 4096, 1024, 2, 1, 1}, {0, 2048, 512, 0, 2, 1}, {0, 16, 128, 0, 0, 0}, {16, 128, 256, 0, 0, 0},
    {0, 256, 256, 0, 0, 1}, {0, 16, 1536, 0, 1, 0}, {0, 512, 512, 0, 3, 1},
    // A probes
    {0, 128, 256, 0, 0, 0}, {0, 256, 128, 0, 0, 0}, {0, 128, 512, 0, 0, 0},
    {0, 16, 1024, 0, 1, 0}, {0, 16, 512, 0, 2, 0}, {0, 16, 256, 0, 3, 0}, {128, 16, 1024, 0, 1, 0},
    {0, 128, 256, 0, 0, 1}, {0, 256, 128, 0, 0, 1}, {0, 1024, 128, 0, 0, 1},
    {0, 16, 1024, 0, 1, 1}, {0, 8192, 1024, 0, 1, 1}, {0, 1024, 2048, 0, 1, 1},
};

__device__ __forceinline__ uint64_t desc(unsigned addr, unsigned lbo, unsigned sbo, unsigned base, unsigned sw)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32) |
           ((uint64_t)base << 49) | ((uint64_t)sw << 62);
}

#define D32 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, " \
            "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define O32(d) "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]), \
    "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15]), \
    "=f"(d[16]), "=f"(d[17]), "=f"(d[18]), "=f"(d[19]), "=f"(d[20]), "=f"(d[21]), "=f"(d[22]), "=f"(d[23]), \
    "=f"(d[24]), "=f"(d[25]), "=f"(d[26]), "=f"(d[27]), "=f"(d[28]), "=f"(d[29]), "=f"(d[30]), "=f"(d[31])

extern "C" __global__ void __launch_bounds__(128) wgmma_layouts(unsigned short *out)
{
    extern __shared__ unsigned char dyn[];
    unsigned short *sm = (unsigned short *)(((uintptr_t)dyn + 1023) & ~(uintptr_t)1023);
    unsigned t = threadIdx.x, w = t / 32, l = t % 32, c = blockIdx.x;
    const unsigned *g = cfg[c];
    bool aprobe = c >= 44;
    unsigned s0 = (unsigned)__cvta_generic_to_shared(sm);
    float res[2][32];
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = t; i < 8192; i += 128)
            sm[i] = __half_as_ushort(__float2half((float)(pass == 0 ? (i & 1023) : (i >> 10))));
        __syncthreads();
        if (aprobe) {
            for (unsigned i = 6144 + t; i < 8192; i += 128)
                sm[i] = 0;
            __syncthreads();
            for (unsigned i = t; i < 64 * 16; i += 128) {
                unsigned n = i / 16, k = i % 16;
                sm[(12288 + (n / 8) * 256 + (k / 8) * 128 + (n % 8) * 16 + (k % 8) * 2) / 2] =
                    __half_as_ushort(__float2half(k == n % 16 ? 1.f : 0.f));
            }
        }
        __syncthreads();
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        float *d = res[pass];
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        if (!aprobe) {
            uint64_t db = desc(s0 + g[0], g[1], g[2], g[3], g[4]);
            unsigned a[4], r = w * 16 + l / 4;
            for (int j = 0; j < 4; j++) {
                unsigned row = r + ((j & 1) ? 8 : 0), k0 = 2 * (l % 4) + ((j & 2) ? 8 : 0);
                __half lo = __float2half(k0 == row % 16 ? 1.f : 0.f), hi = __float2half(k0 + 1 == row % 16 ? 1.f : 0.f);
                a[j] = (unsigned)__half_as_ushort(lo) | ((unsigned)__half_as_ushort(hi) << 16);
            }
            if (g[5])
                asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", {%32, %33, %34, %35}, %36, 0, 1, 1, 1;"
                             : O32(d) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db) : "memory");
            else
                asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", {%32, %33, %34, %35}, %36, 0, 1, 1, 0;"
                             : O32(d) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db) : "memory");
        } else {
            uint64_t da = desc(s0 + g[0], g[1], g[2], g[3], g[4]), db = desc(s0 + 12288, 128, 256, 0, 0);
            if (g[5])
                asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", %32, %33, 0, 1, 1, 1, 0;"
                             : O32(d) : "l"(da), "l"(db) : "memory");
            else
                asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", %32, %33, 0, 1, 1, 0, 0;"
                             : O32(d) : "l"(da), "l"(db) : "memory");
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        __syncthreads();
    }
    // D(m, n): element e of lane l is row 16w + l/4 + 8 ((e/2) % 2), column 8 (e/4) + 2 (l%4) + e%2
    for (unsigned e = 0; e < 32; e++) {
        unsigned m = 16 * w + l / 4 + 8 * ((e / 2) % 2), n = 8 * (e / 4) + 2 * (l % 4) + e % 2;
        unsigned v = ((unsigned)res[1][e] << 10) | (unsigned)res[0][e];
        if (!aprobe && m < 16)
            out[c * 1024 + m * 64 + n] = (unsigned short)(v * 2);
        if (aprobe && n < 16)
            out[c * 1024 + m * 16 + n] = (unsigned short)(v * 2);
    }
}
