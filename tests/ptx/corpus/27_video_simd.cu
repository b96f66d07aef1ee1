// Feature group 6.27: SIMD video intrinsics and video instructions via inline asm.
#pragma nv_diag_suppress 550
#define KV(name, expr) __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *o) \
    { int i = threadIdx.x; unsigned x = a[i], y = b[i], z = c[i]; (void)y; (void)z; o[i] = (expr); }

KV(k_vadd, __vadd2(x, y) ^ __vadd4(x, y) ^ __vaddss2(x, y) ^ __vaddss4(x, y) ^ __vaddus2(x, y) ^ __vaddus4(x, y))
KV(k_vsub, __vsub2(x, y) ^ __vsub4(x, y) ^ __vsubss2(x, y) ^ __vsubss4(x, y) ^ __vsubus2(x, y) ^ __vsubus4(x, y))
KV(k_vabsdiff, __vabsdiffu4(x, y) ^ __vabsdiffs4(x, y) ^ __vabsdiffu2(x, y) ^ __vabsdiffs2(x, y))
KV(k_vsad, __vsadu4(x, y) + __vsads4(x, y) + __vsadu2(x, y) + __vsads2(x, y))
KV(k_vabs, __vabs2(x) ^ __vabs4(x) ^ __vabsss2(x) ^ __vabsss4(x) ^ __vneg2(x) ^ __vneg4(x) ^ __vnegss2(x) ^ __vnegss4(x))
KV(k_vavg, __vavgu2(x, y) ^ __vavgu4(x, y) ^ __vavgs2(x, y) ^ __vavgs4(x, y) ^ __vhaddu2(x, y) ^ __vhaddu4(x, y))
KV(k_vminmax, __vmaxs2(x, y) ^ __vmaxu2(x, y) ^ __vmaxs4(x, y) ^ __vmaxu4(x, y) ^ __vmins2(x, y) ^ __vminu2(x, y) ^ __vmins4(x, y) ^ __vminu4(x, y))
KV(k_vcmp, __vcmpeq2(x, y) ^ __vcmpeq4(x, y) ^ __vcmpgts2(x, y) ^ __vcmpgts4(x, y) ^ __vcmpgeu2(x, y) ^ __vcmpltu4(x, y) ^ __vcmpne4(x, y) ^ __vcmples2(x, y))
KV(k_vset, __vseteq2(x, y) ^ __vseteq4(x, y) ^ __vsetgtu2(x, y) ^ __vsetgts4(x, y) ^ __vsetles4(x, y) ^ __vsetltu2(x, y) ^ __vsetne4(x, y) ^ __vsetgeu4(x, y))

__global__ void k_video_asm(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *o)
{
    int i = threadIdx.x; unsigned x = a[i], y = b[i], z = c[i], r = 0, t;
#define V(ins) asm(ins " %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(z)); r ^= t;
    V("vadd2.u32.u32.u32") V("vadd2.u32.u32.u32.add") V("vadd2.s32.s32.s32.sat") V("vadd4.u32.u32.u32.add")
    V("vadd4.s32.s32.s32.sat") V("vsub2.u32.u32.u32") V("vsub4.s32.s32.s32.sat") V("vavrg2.u32.u32.u32")
    V("vavrg4.u32.u32.u32.add") V("vabsdiff2.u32.u32.u32") V("vabsdiff4.s32.s32.s32.add") V("vmin2.u32.u32.u32")
    V("vmax2.s32.s32.s32") V("vmin4.s32.s32.s32.add") V("vmax4.u32.u32.u32") V("vset2.u32.u32.ne")
    V("vset2.u32.u32.gt.add") V("vset4.s32.s32.lt")
    V("vadd.u32.u32.u32.sat") V("vsub.s32.s32.s32.add") V("vabsdiff.u32.u32.u32") V("vmin.s32.s32.s32")
    V("vmax.u32.u32.u32.max") V("vshl.u32.u32.u32.clamp") V("vshr.u32.u32.u32.wrap") V("vset.u32.u32.lt")
    V("vmad.u32.u32.u32")
#undef V
    asm("vadd.u32.u32.u32 %0, %1.b0, %2.b1, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(z)); r ^= t;
    asm("vadd.s32.s32.s32.sat %0, %1.b2, %2.b3, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(z)); r ^= t;
    asm("vmad.u32.u32.u32 %0, %1.h0, %2.h1, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(z)); r ^= t;
    asm("vsub.u32.u32.u32 %0.b2, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(z)); r ^= t;
    asm("vmax.s32.u32.s32 %0.h1, %1.h1, %2.h0, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(z)); r ^= t;
    o[i] = r;
}
