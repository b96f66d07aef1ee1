/* fp_approx.c: the approximate functions of the GPU's multi-function unit (MUFU): sin, cos,
 * lg2, ex2, tanh, rcp, rsqrt, sqrt and div .approx, and div.full; each as ptxas builds it. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"
#include "isa/sem/mufu.h"

/* The unit's results are the recorded tables of isa/sem/mufu.h, extended over the exponent
 * as the unit does, with ptxas's scaling of subnormal operands and results around it for
 * the forms without .ftz; every rule here was checked against 262,144 recorded results per
 * form (tests/mufu/). */

#define F32_QNAN 0x7fffffffu
#define FZ(x) f32_ftz(x)

/*{=====================================================================
 * f32 rcp, rsqrt, sqrt, lg2, ex2 as ptxas builds them: .ftz is the unit alone; without
 * it a subnormal operand is scaled by 2^24 first (and the result back, rounding to
 * nearest), a reciprocal that would be subnormal is taken of a quarter of the operand and
 * quartered, and an ex2 below 2^-126 is the square of the ex2 of half the operand.
 *====================================================================*/
static inline bool f32_sub(float a) { return a != 0 && fabsf(a) < 0x1p-126f; }

static inline float rcp_approx(float a, bool ftz)
{
    uint32_t u = f32_bits(a);
    if (!ftz && f32_sub(a))
        return f32_of(isa_mufu_rcp(f32_bits(a * 0x1p24f))) * 0x1p24f;
    if (!ftz && ISA_MUFU_EXP(u) >= 253 && ISA_MUFU_EXP(u) != 255)
        return f32_of(isa_mufu_rcp(f32_bits(a * 0.25f))) * 0.25f;
    return f32_of(isa_mufu_rcp(u));
}
static inline float rsqrt_approx(float a, bool ftz)
{
    if (!ftz && f32_sub(a))
        return f32_of(isa_mufu_root(f32_bits(a * 0x1p24f), false)) * 0x1p12f;
    return f32_of(isa_mufu_root(f32_bits(a), false));
}
static inline float sqrt_approx(float a, bool ftz)
{
    if (!ftz && f32_sub(a))
        return f32_of(isa_mufu_root(f32_bits(a * 0x1p24f), true)) * 0x1p-12f;
    return f32_of(isa_mufu_root(f32_bits(a), true));
}
static inline __attribute__((always_inline)) float lg2_approx(float a, bool ftz)
{
    if (!ftz && f32_sub(a))
        return f32_of(isa_mufu_lg2(f32_bits(a * 0x1p24f))) - 24.0f;
    return f32_of(isa_mufu_lg2(f32_bits(a)));
}
static inline __attribute__((always_inline)) float ex2_approx(float a, bool ftz)
{
    if (!ftz && a < -126.0f) {
        float h = f32_of(isa_mufu_ex2(f32_bits(a * 0.5f)));
        return h * h;
    }
    return f32_of(isa_mufu_ex2(f32_bits(a)));
}
/* tanh: x itself for |x| < 2^-8, +-1 from |x| >= 8, and odd; between, the unit reads
 * fewer bits of the fraction the nearer the binade is to 0 or 8 (TANH_DROP: the low bits
 * it ignores, per binade from 2^-8), each run of inputs it does not tell apart having one
 * entry in the table. */
static const uint8_t TANH_DROP[11] = { 6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3 };
static inline float tanh_approx(float a)
{
    uint32_t u = f32_bits(a), e = ISA_MUFU_EXP(u), m = u & 0x7fffffu;
    if (e == 255 && m)
        return f32_of(F32_QNAN);
    if (e < 127 - 8)
        return a;
    if (e >= 127 + 3)
        return f32_of(ISA_MUFU_SIGN(u) | 0x3f800000u);
    uint32_t base = 0;
    for (uint32_t k = 0; k < e - (127 - 8); k++)
        base += 1u << (23 - TANH_DROP[k]);
    return f32_of(ISA_MUFU_SIGN(u) | isa_mufu_get(ISA_MUFU_TANH, base + (m >> TANH_DROP[e - (127 - 8)])));
}

/*}=====================================================================*/

/*{=====================================================================
 * sin, cos: the argument is first multiplied by 1/(2 pi) in f32, rounding toward zero
 * (FMUL.RZ), and the unit reads the product t as a turn with 25 fraction bits, truncated:
 * a quadrant and 23 bits, r.  The tables hold sin and cos of r in the first quadrant;
 * the others negate or swap them.  So sin of |x| < 2^-22 is a zero, and for large
 * arguments the result follows the rounded product, not x.  sin takes t's sign.
 *====================================================================*/
/* The truncated fraction of the turn, in units of 2^-25: |m| < 2^25, with t's sign. */
static inline int32_t turns(float a, bool ftz, bool *out_neg)
{
    float x = ftz ? FZ(a) : a;
    double p = (double)x * (double)f32_of(0x3e22f983u);    /* exact in double */
    double t = isa_fp_round(p, 0, -126, 127, 23, ISA_RND_Z);
    *out_neg = signbit(t);
    double f = fabs(t) - floor(fabs(t));                   /* exact */
    return (int32_t)(f * 0x1p25);                          /* truncated */
}
/* sin of m / 2^25 turns, m in [0, 2^25), as the unit gives it. */
static inline uint32_t sin_turn(int32_t m)
{
    uint32_t r = (uint32_t)m & 0x7fffffu;
    switch (m >> 23) {
    case 0:  return isa_mufu_get(ISA_MUFU_SIN, r);
    case 1:  return isa_mufu_get(ISA_MUFU_COS, r);
    case 2:  return isa_mufu_get(ISA_MUFU_SIN, r) ^ 0x80000000u;
    default: return isa_mufu_get(ISA_MUFU_COS, r) ^ 0x80000000u;
    }
}
static inline float sin_approx(float a, bool ftz)
{
    if (isinf(a) || a != a)
        return f32_of(F32_QNAN);
    bool neg;
    int32_t m = turns(a, ftz, &neg);
    return f32_of(sin_turn(m) ^ (neg ? 0x80000000u : 0));
}
/* The entry sin or cos of a will read, near enough for a prefetch (the product's rounding
 * to f32 toward zero is left out: it moves the index by a few entries at most). */
static inline void sincos_prefetch(uint32_t u, bool cosine)
{
    float a = f32_of(u);
    if (isinf(a) || a != a)
        return;
    double t = fabs((double)a * (double)f32_of(0x3e22f983u));
    int32_t m = (int32_t)((t - floor(t)) * 0x1p25);
    if (cosine)
        m = (m + (1 << 23)) & 0x1ffffff;
    isa_mufu_prefetch((m >> 23) & 1 ? ISA_MUFU_COS : ISA_MUFU_SIN, (uint32_t)m & 0x7fffffu);
}
static inline float cos_approx(float a, bool ftz)
{
    if (isinf(a) || a != a)
        return f32_of(F32_QNAN);
    bool neg;
    int32_t m = turns(a, ftz, &neg);
    return f32_of(sin_turn((m + (1 << 23)) & 0x1ffffff));
}
/*}=====================================================================*/

/*{=====================================================================
 * div.approx and div.full: the dividend times the unit's reciprocal of the divisor.
 * Around it ptxas scales both operands: by 2^24 when the divisor is below 2^-126 in
 * magnitude (not with .ftz), and (div.full) by 1/4 when it is above 2^126.
 *====================================================================*/
static inline float div_mufu(float a, float b, bool ftz, bool full)
{
    if (ftz) {
        a = FZ(a);
        b = FZ(b);
    }
    if (full && fabsf(b) > 0x1p126f) {
        a = ftz ? FZ(a * 0.25f) : a * 0.25f;
        b *= 0.25f;
    } else if (!ftz && fabsf(b) < 0x1p-126f) {
        a *= 0x1p24f;
        b *= 0x1p24f;
    }
    float r = f32_of(isa_mufu_rcp(f32_bits(b)));
    return f32_canon(ftz ? FZ(a * r) : a * r);
}
/*}=====================================================================*/

/*{=====================================================================
 * f64 rcp.approx.ftz and rsqrt.approx.ftz: the unit (MUFU.RCP64H, RSQ64H) works on the
 * high 32 bits of the operand (sign, exponent, 20 fraction bits) and gives the high 32
 * bits of the result, the low ones zero; subnormal operands and results are zeros, a NaN
 * gives 0x7fffffff00000000.
 *====================================================================*/
#define HI_NAN 0x7fffffffu
static inline double from_hi(uint32_t hi) { return f64_of((uint64_t)hi << 32); }
/* The table entry t (a high word) scaled by 2^k, with sign s. */
static inline uint32_t mufu64_scale(uint32_t t, int k, uint32_t s)
{
    int e = (int)(t >> 20 & 0x7ffu) + k;
    if (e <= 0)
        return s;
    if (e >= 0x7ff)
        return s | 0x7ff00000u;
    return s | (uint32_t)e << 20 | (t & 0xfffffu);
}
static inline double rcp_approx_f64(double a)
{
    uint32_t hi = (uint32_t)(f64_bits(a) >> 32), s = hi & 0x80000000u;
    uint32_t e = hi >> 20 & 0x7ffu, m = hi & 0xfffffu;
    if (e == 0x7ff)
        return from_hi(m ? HI_NAN : s);
    if (e == 0)
        return from_hi(s | 0x7ff00000u);
    return from_hi(mufu64_scale(isa_mufu_get(ISA_MUFU_RCP64H, m), 1023 - (int)e, s));
}
static inline double rsqrt_approx_ftz_f64(double a)
{
    uint32_t hi = (uint32_t)(f64_bits(a) >> 32), s = hi & 0x80000000u;
    uint32_t e = hi >> 20 & 0x7ffu, m = hi & 0xfffffu;
    if (e == 0x7ff && m)
        return from_hi(HI_NAN);
    if (e == 0)
        return from_hi(s | 0x7ff00000u);
    if (s)
        return from_hi(HI_NAN);
    if (e == 0x7ff)
        return 0.0;
    int n = (int)e - 1023, odd = n & 1, h = (n - odd) / 2;
    return from_hi(mufu64_scale(isa_mufu_get(ISA_MUFU_RSQ64H, (uint32_t)odd << 20 | m), -h, 0));
}
/* rsqrt.approx.f64 without .ftz: ptxas refines the unit's value y0 for a positive
 * normal operand once, y0 + (1/2 + 3/8 e) y0 e with e = 1 - x y0^2 (fused); a subnormal
 * operand is scaled by 2^54 and the result by 2^27. */
static inline double rsqrt_refine(double x)
{
    double y0 = rsqrt_approx_ftz_f64(x);
    double e = fma(x, -(y0 * y0), 1.0);
    return fma(fma(e, 0.375, 0.5), y0 * e, y0);
}
static inline double rsqrt_approx_f64(double a)
{
    uint32_t hi = (uint32_t)(f64_bits(a) >> 32);
    if (hi - 0x00100000u < 0x7fe00000u)
        return rsqrt_refine(a);
    if (a == 0)
        return from_hi((hi & 0x80000000u) | 0x7ff00000u);
    if (a != a)
        return f64_quiet(a);
    if (hi & 0x80000000u)
        return f64_of(0xfff8000000000000ull);
    if (isinf(a))
        return 0.0;
    return rsqrt_refine(a * 0x1p54) * 0x1p27;
}
/*}=====================================================================*/

/*{=====================================================================
 * f16 and bf16 ex2 and tanh: recorded whole (isa/sem/mufu.h).
 *====================================================================*/
#define EX2_F16(h)   ((uint16_t)isa_mufu_get(ISA_MUFU_H16, 4u * (h)))
#define EX2_BF16(h)  ((uint16_t)isa_mufu_get(ISA_MUFU_H16, 4u * (h) + 1))
#define TANH_F16(h)  ((uint16_t)isa_mufu_get(ISA_MUFU_H16, 4u * (h) + 2))
#define TANH_BF16(h) ((uint16_t)isa_mufu_get(ISA_MUFU_H16, 4u * (h) + 3))
/*}=====================================================================*/

/* The table lookups of a warp's lanes miss the cache far apart: each handler first asks
 * for every active lane's entry (PF, of the operand's bits u), then computes, so that the
 * misses overlap. */
#define MUFU_H1(NAME, PF, EXPR)                                                            \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)     \
    {                                                                                      \
        (void)w_;                                                                          \
        float *d = ISA_SLOT(float, f, in->o[0]);                                           \
        const float *pa = ISA_SLOT(const float, f, in->o[1]);                              \
        ISA_LANE_LOOP(mask, { uint32_t u = f32_bits(pa[l]); PF; });                        \
        ISA_LANE_LOOP(mask, { float a = pa[l]; d[l] = (EXPR); });                          \
        return ISA_X_NEXT;                                                                 \
    }                                                                                      \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { sizeof(float), sizeof(float) }, 0 } };
#define MUFU_DIV(NAME, EXPR)                                                               \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)     \
    {                                                                                      \
        (void)w_;                                                                          \
        float *d = ISA_SLOT(float, f, in->o[0]);                                           \
        const float *pa = ISA_SLOT(const float, f, in->o[1]);                              \
        const float *pb = ISA_SLOT(const float, f, in->o[2]);                              \
        ISA_LANE_LOOP(mask, { isa_mufu_prefetch_rcp(f32_bits(pb[l])); });                  \
        ISA_LANE_LOOP(mask, { float a = pa[l]; float b = pb[l]; d[l] = (EXPR); });          \
        return ISA_X_NEXT;                                                                 \
    }                                                                                      \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { sizeof(float), sizeof(float), sizeof(float) }, 0 } };

MUFU_H1(rcp_a, isa_mufu_prefetch_rcp(u), rcp_approx(a, false))
MUFU_H1(rcp_a_ftz, isa_mufu_prefetch_rcp(u), rcp_approx(a, true))
MUFU_H1(rsqrt_a, isa_mufu_prefetch_root(u, false), rsqrt_approx(a, false))
MUFU_H1(rsqrt_a_ftz, isa_mufu_prefetch_root(u, false), rsqrt_approx(a, true))
MUFU_H1(sqrt_a, isa_mufu_prefetch_root(u, true), sqrt_approx(a, false))
MUFU_H1(sqrt_a_ftz, isa_mufu_prefetch_root(u, true), sqrt_approx(a, true))
MUFU_H1(lg2_a, isa_mufu_prefetch_lg2(u), lg2_approx(a, false))
MUFU_H1(lg2_a_ftz, isa_mufu_prefetch_lg2(u), lg2_approx(a, true))
MUFU_H1(ex2_a, isa_mufu_prefetch_ex2(u), ex2_approx(a, false))
MUFU_H1(ex2_a_ftz, isa_mufu_prefetch_ex2(u), ex2_approx(a, true))
MUFU_H1(sin_a, sincos_prefetch(u, false), sin_approx(a, false))
MUFU_H1(sin_a_ftz, sincos_prefetch(u, false), sin_approx(a, true))
MUFU_H1(cos_a, sincos_prefetch(u, true), cos_approx(a, false))
MUFU_H1(cos_a_ftz, sincos_prefetch(u, true), cos_approx(a, true))
ISA_H1(tanh_a, float, float, tanh_approx(a))
MUFU_DIV(div_a, div_mufu(a, b, false, false))
MUFU_DIV(div_a_ftz, div_mufu(a, b, true, false))
MUFU_DIV(div_full, div_mufu(a, b, false, true))
MUFU_DIV(div_full_ftz, div_mufu(a, b, true, true))
ISA_H1(rcp_a_f64, double, double, rcp_approx_f64(a))
ISA_H1(rsqrt_a_f64, double, double, rsqrt_approx_f64(a))
ISA_H1(rsqrt_a_ftz_f64, double, double, rsqrt_approx_ftz_f64(a))
ISA_H1(ex2_a_f16, uint16_t, uint16_t, EX2_F16(a))
ISA_H1(ex2_a_f16x2, uint32_t, uint32_t, EX2_F16(a & 0xffffu) | (uint32_t)EX2_F16(a >> 16) << 16)
ISA_H1(ex2_a_bf16, uint16_t, uint16_t, EX2_BF16(a))
ISA_H1(ex2_a_bf16x2, uint32_t, uint32_t, EX2_BF16(a & 0xffffu) | (uint32_t)EX2_BF16(a >> 16) << 16)
ISA_H1(tanh_a_f16, uint16_t, uint16_t, TANH_F16(a))
ISA_H1(tanh_a_f16x2, uint32_t, uint32_t, TANH_F16(a & 0xffffu) | (uint32_t)TANH_F16(a >> 16) << 16)
ISA_H1(tanh_a_bf16, uint16_t, uint16_t, TANH_BF16(a))
ISA_H1(tanh_a_bf16x2, uint32_t, uint32_t, TANH_BF16(a & 0xffffu) | (uint32_t)TANH_BF16(a >> 16) << 16)

/* Selection for an instruction with .approx or .full: NULL when it has no model. */
static const isa_xdesc_t *approx_select(isa_op_t op, isa_type_t t, bool full, bool ftz)
{
    if (full)
        return op == ISA_OP_DIV && t == ISA_T_F32 ? (ftz ? div_full_ftz : div_full) : NULL;
    if (t == ISA_T_F32) {
        switch (op) {
        case ISA_OP_RCP:   return ftz ? rcp_a_ftz : rcp_a;
        case ISA_OP_RSQRT: return ftz ? rsqrt_a_ftz : rsqrt_a;
        case ISA_OP_SQRT:  return ftz ? sqrt_a_ftz : sqrt_a;
        case ISA_OP_LG2:   return ftz ? lg2_a_ftz : lg2_a;
        case ISA_OP_EX2:   return ftz ? ex2_a_ftz : ex2_a;
        case ISA_OP_SIN:   return ftz ? sin_a_ftz : sin_a;
        case ISA_OP_COS:   return ftz ? cos_a_ftz : cos_a;
        case ISA_OP_TANH:  return ftz ? NULL : tanh_a;
        case ISA_OP_DIV:   return ftz ? div_a_ftz : div_a;
        default:           return NULL;
        }
    }
    if (t == ISA_T_F64) {
        switch (op) {
        case ISA_OP_RCP:   return ftz ? rcp_a_f64 : NULL;
        case ISA_OP_RSQRT: return ftz ? rsqrt_a_ftz_f64 : rsqrt_a_f64;
        default:           return NULL;
        }
    }
    if (op == ISA_OP_TANH && !ftz) {
        switch (t) {
        case ISA_T_F16:    return tanh_a_f16;
        case ISA_T_F16X2:  return tanh_a_f16x2;
        case ISA_T_BF16:   return tanh_a_bf16;
        case ISA_T_BF16X2: return tanh_a_bf16x2;
        default:           return NULL;
        }
    }
    if (op != ISA_OP_EX2)
        return NULL;
    switch (t) {
    case ISA_T_F16:    return ftz ? NULL : ex2_a_f16;
    case ISA_T_F16X2:  return ftz ? NULL : ex2_a_f16x2;
    case ISA_T_BF16:   return ftz ? ex2_a_bf16 : NULL;
    case ISA_T_BF16X2: return ftz ? ex2_a_bf16x2 : NULL;
    default:           return NULL;
    }
}

bool isa_sem_fp_approx(const isa_instr_t *in, isa_xinsn_t *x)
{
    int prec = isa_instr_mod(in, ISA_G_PREC);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) >= 0;
    if (in->ntypes != 1 || prec < 0 || in->nsfx != 2u + ftz)
        return false;
    x->desc = approx_select((isa_op_t)in->op, (isa_type_t)in->types[0], prec == ISA_M_FULL, ftz);
    return x->desc != NULL;
}
