// mma_sync.cu: mma.sync on the fragments the PTX manual lays out, one configuration per
// CTA (one warp): f16 (f32 and f16 results), bf16, tf32 (k8 and k4), f64, s8/u8 (k16, k32,
// m8n8k16, .satfinite), then ldmatrix (.x1, .x2.trans, .x4), stmatrix (.x4.trans) and
// movmatrix.  The values are small, so the product sums are exact: this records the
// fragments' layouts.  in: random words; out: 384 words per CTA.
#include <cstdint>
#include <cuda_fp16.h>
__device__ unsigned h2(unsigned v)   // two f16 of small halves
{
    unsigned short lo = __half_as_ushort(__float2half((float)((int)(v % 7) - 3) * 0.5f));
    unsigned short hi = __half_as_ushort(__float2half((float)((int)(v / 7 % 7) - 3) * 0.5f));
    return lo | (unsigned)hi << 16;
}
__device__ unsigned bf2(unsigned v)
{
    unsigned lo = __float_as_uint((float)((int)(v % 9) - 4) * 0.25f) >> 16;
    unsigned hi = __float_as_uint((float)((int)(v / 9 % 9) - 4) * 0.25f) >> 16;
    return lo | hi << 16;
}
__device__ unsigned tf(unsigned v) { return __float_as_uint((float)((int)(v % 11) - 5) * 0.125f); }
__device__ unsigned s8x4(unsigned v) { return v & 0x9f9f9f9fu; }

extern "C" __global__ void mma_sync(const unsigned *in, unsigned *out)
{
    unsigned l = threadIdx.x, cfg = blockIdx.x;
    const unsigned *r = in + cfg * 1024 + l * 16;
    unsigned *o = out + cfg * 384 + l * 8;
    unsigned d[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    switch (cfg) {
    case 0: {
        float c0 = (float)(r[8] % 5), c1 = 1.5f, c2 = -2, c3 = (float)(r[9] % 3), e0, e1, e2, e3;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(e0), "=f"(e1), "=f"(e2), "=f"(e3)
                     : "r"(h2(r[0])), "r"(h2(r[1])), "r"(h2(r[2])), "r"(h2(r[3])), "r"(h2(r[4])), "r"(h2(r[5])),
                       "f"(c0), "f"(c1), "f"(c2), "f"(c3));
        d[0] = __float_as_uint(e0); d[1] = __float_as_uint(e1); d[2] = __float_as_uint(e2); d[3] = __float_as_uint(e3);
        break;
    }
    case 1:
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                     : "=r"(d[0]), "=r"(d[1])
                     : "r"(h2(r[0])), "r"(h2(r[1])), "r"(h2(r[2])), "r"(h2(r[3])), "r"(h2(r[4])), "r"(h2(r[5])),
                       "r"(h2(r[6])), "r"(h2(r[7])));
        break;
    case 2: {
        float e0, e1, e2, e3;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(e0), "=f"(e1), "=f"(e2), "=f"(e3)
                     : "r"(bf2(r[0])), "r"(bf2(r[1])), "r"(bf2(r[2])), "f"(1.0f), "f"(-0.5f), "f"((float)(r[3] % 4)), "f"(0.0f));
        d[0] = __float_as_uint(e0); d[1] = __float_as_uint(e1); d[2] = __float_as_uint(e2); d[3] = __float_as_uint(e3);
        break;
    }
    case 3: {
        float e0, e1, e2, e3;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(e0), "=f"(e1), "=f"(e2), "=f"(e3)
                     : "r"(tf(r[0])), "r"(tf(r[1])), "r"(tf(r[2])), "r"(tf(r[3])), "r"(tf(r[4])), "r"(tf(r[5])),
                       "f"(0.25f), "f"((float)(r[6] % 3)), "f"(-1.0f), "f"(2.0f));
        d[0] = __float_as_uint(e0); d[1] = __float_as_uint(e1); d[2] = __float_as_uint(e2); d[3] = __float_as_uint(e3);
        break;
    }
    case 4: {
        float e0, e1, e2, e3;
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(e0), "=f"(e1), "=f"(e2), "=f"(e3)
                     : "r"(tf(r[0])), "r"(tf(r[1])), "r"(tf(r[2])), "f"(0.5f), "f"(0.0f), "f"((float)(r[3] % 5)), "f"(1.0f));
        d[0] = __float_as_uint(e0); d[1] = __float_as_uint(e1); d[2] = __float_as_uint(e2); d[3] = __float_as_uint(e3);
        break;
    }
    case 5: {
        double a = (double)((int)(r[0] % 9) - 4) * 0.125, b = (double)((int)(r[1] % 7) - 3), c0 = r[2] % 5, c1 = -1.0, e0, e1;
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=d"(e0), "=d"(e1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
        d[0] = (unsigned)__double_as_longlong(e0); d[1] = (unsigned)(__double_as_longlong(e0) >> 32);
        d[2] = (unsigned)__double_as_longlong(e1); d[3] = (unsigned)(__double_as_longlong(e1) >> 32);
        break;
    }
    case 6:
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(s8x4(r[0])), "r"(s8x4(r[1])), "r"(s8x4(r[2])), "r"(s8x4(r[3])), "r"(r[4]), "r"(r[5]),
                       "r"(r[6] % 1000), "r"(0x7ffff000u + (r[7] & 0xff)), "r"(-(int)(r[8] % 77)), "r"(0x80000100u));
        break;
    case 7:
        asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3] % 100), "r"(7), "r"(0), "r"(-5));
        break;
    case 8:
        asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=r"(d[0]), "=r"(d[1]) : "r"(r[0]), "r"(r[1]), "r"(r[2] % 50), "r"(3));
        break;
    case 9: {
        __shared__ __align__(16) unsigned short sm[4][8][8], st[4][8][8];
        for (unsigned i = l; i < 256; i += 32) {
            (&sm[0][0][0])[i] = (unsigned short)(r[i % 16] >> 3);
            (&st[0][0][0])[i] = 0;
        }
        __syncwarp();
        unsigned a = (unsigned)__cvta_generic_to_shared(&sm[l / 8][l % 8][0]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a));
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(d[4]), "=r"(d[5]) : "r"(a));
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%0}, [%1];" : "=r"(d[6]) : "r"(a));
        asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d[7]) : "r"(d[0]));
        unsigned b = (unsigned)__cvta_generic_to_shared(&st[l / 8][l % 8][0]);
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(b), "r"(d[0]), "r"(d[1] ^ 0x5555), "r"(d[2]), "r"(d[3]) : "memory");
        __syncwarp();
        for (unsigned i = l; i < 128; i += 32)
            out[cfg * 384 + 256 + i] = ((const unsigned *)&st[0][0][0])[i];
        break;
    }
    }
    for (int k = 0; k < 8; k++)
        o[k] = d[k];
}
