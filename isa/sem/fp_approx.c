/* fp_approx.c: the approximate functions of the GPU's multi-function unit (MUFU): sin, cos,
 * lg2, ex2, tanh, rcp, rsqrt, sqrt and div .approx, and div.full; each as ptxas builds it. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"

/* The hardware interpolates from tables whose contents are not public: results differ from
 * the exact function by up to the bounds measured against recorded GPU outputs (listed in
 * docs/arithmetic.md and asserted by the fuzz replay).  What is modelled exactly is
 * everything around the table lookup, which decides special values and large errors: the
 * argument reduction of sin and cos, flushing, scaling of subnormal operands and results,
 * the NaNs, infinities and zeros, and the 20-bit precision of the f64 forms.  The values
 * themselves are the exact function rounded to nearest (computed in double). */

#define F32_QNAN 0x7fffffffu
#define FZ(x) f32_ftz(x)

/* A double rounded to f32, .ftz flushing a result below the smallest normal. */
static inline float f32_out(double r, bool ftz)
{
    float f = (float)r;
    return ftz ? FZ(f) : f;
}

/*{=====================================================================
 * f32: rcp, rsqrt, sqrt, lg2, ex2, tanh
 *====================================================================*/
static inline float rcp_approx(float a, bool ftz)
{
    double x = ftz ? FZ(a) : a;
    return f32_canon(f32_out(1.0 / x, ftz));
}
static inline float rsqrt_approx(float a, bool ftz)
{
    double x = ftz ? FZ(a) : a;
    return f32_canon(f32_out(1.0 / sqrt(x), ftz));
}
static inline float sqrt_approx(float a, bool ftz)
{
    double x = ftz ? FZ(a) : a;
    return f32_canon(f32_out(sqrt(x), ftz));
}
static inline float lg2_approx(float a, bool ftz)
{
    double x = ftz ? FZ(a) : a;
    return f32_canon((float)log2(x));
}
static inline double ex2_unit(double x)
{
    return exp2(x);
}
static inline float ex2_approx(float a, bool ftz)
{
    double x = ftz ? FZ(a) : a;
    return f32_canon(f32_out(ex2_unit(x), ftz));
}
/* tanh: the unit gives x itself for |x| <= 2^-8 and +-1 from |x| >= 8 (hardware-recorded);
 * the f16 and bf16 forms truncate its f32 result to the narrow format (below). */
static inline double tanh_unit(double x)
{
    double a = fabs(x);
    return a <= 0x1p-8 ? x : a >= 8 ? copysign(1.0, x) : tanh(x);
}
static inline float tanh_approx(float a)
{
    return f32_canon((float)tanh_unit(a));
}

/*}=====================================================================*/

/*{=====================================================================
 * sin, cos: the argument is first multiplied by 1/(2 pi) in f32, rounding toward zero
 * (FMUL.RZ), and the unit reads the product t as a turn with 25 fraction bits, truncated
 * (a quadrant and 23 bits): so sin of |x| < 2^-22 is a zero, and for large arguments the
 * result follows the rounded product, not x.  The sign of a zero follows the quadrant
 * (sin of half a turn is -0) and, for sin, the sign of the turn.
 *====================================================================*/
#define TURN_BITS 25
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
/* sin of m / 2^25 turns, m in [0, 2^25): by quadrant, exact zeros and ones.  Where the
 * unit evaluates the cosine of the quadrant's angle, its result is low by up to about
 * 0.78 * 2^-22 near the zero, and never below it (hardware-recorded: sin(pi) is +0). */
static inline double sin_turn(int32_t m)
{
    int q = m >> 23, r = m & 0x7fffff;
    double th = r * (M_PI / 0x1p24);
    double c = cos(th) - 0.786 * 0x1p-22 * (r < (1 << 22) ? r * 0x1p-22 : 1.0);
    c = c < 0 ? 0 : c;
    switch (q) {
    case 0:  return sin(th);
    case 1:  return c;
    case 2:  return -sin(th);
    default: return -c;
    }
}
static inline float sincos_out(double v, bool neg, bool ftz)
{
    return f32_out(neg ? -v : v, ftz);
}
static inline float sin_approx(float a, bool ftz)
{
    if (isinf(a) || a != a)
        return f32_of(F32_QNAN);
    bool neg;
    int32_t m = turns(a, ftz, &neg);
    return sincos_out(sin_turn(m), neg, ftz);
}
static inline float cos_approx(float a, bool ftz)
{
    if (isinf(a) || a != a)
        return f32_of(F32_QNAN);
    bool neg;
    int32_t m = turns(a, ftz, &neg);
    return sincos_out(sin_turn((m + (1 << 23)) & 0x1ffffff), false, ftz);
}
/*}=====================================================================*/

/*{=====================================================================
 * div.approx: a times the approximate reciprocal of b; div.full scales the operands
 * to keep the reciprocal in range.
 *====================================================================*/
static inline float div_approx(float a, float b, bool ftz)
{
    if (ftz) {
        a = FZ(a);
        b = FZ(b);
    }
    if (!ftz && b != 0 && fabs(b) < 0x1p-126)     /* a subnormal divisor is scaled */
        return f32_canon(a * FZ(rcp_approx(b * 0x1p24f, false)) * 0x1p24f);
    float r = FZ(rcp_approx(b, false));
    return f32_canon(ftz ? FZ(a * r) : a * r);
}
static inline float div_full_val(float a, float b, bool ftz)
{
    double x = ftz ? FZ(a) : a, y = ftz ? FZ(b) : b;
    return f32_canon(f32_out(x / y, ftz));
}
/*}=====================================================================*/

/*{=====================================================================
 * f64 rcp.approx.ftz and rsqrt.approx.ftz: the unit works on the high 32 bits of the
 * operand (sign, exponent, 20 fraction bits) and gives the high 32 bits of the result,
 * the low ones zero; subnormal operands and results are flushed; a NaN gives
 * 0x7fffffff00000000.  rsqrt.approx.f64 (no .ftz) is refined to a full double.
 *====================================================================*/
#define F64_HI_NAN 0x7fffffff00000000ull
/* The 20-bit result: the exact value r (a double, near enough) truncated to 20 fraction
 * bits after adding bias (in units of the last of them): the unit's approximation is a
 * little above the exact value, so that its truncation is the rounding up within about
 * 0.07 of the next 20-bit value (rcp) or 0.055 (rsqrt). */
static inline double hi20(double r, double bias)
{
    if (r == 0 || !isfinite(r))
        return r;
    if (fabs(r) < 0x1p-1022)
        return signbit(r) ? -0.0 : 0.0;
    uint64_t u = f64_bits(r) & 0xffffffff00000000ull;
    double lo = r - f64_of(u), ulp = f64_of(u + 0x100000000ull) - f64_of(u);
    if (fabs(lo) + bias * fabs(ulp) >= fabs(ulp))
        u += 0x100000000ull;
    return f64_of(u);
}
static inline double ftz64(double x)
{
    return fabs(x) < 0x1p-1022 ? (signbit(x) ? -0.0 : 0.0) : x;
}
static inline double rcp_approx_f64(double a)
{
    double x = ftz64(f64_of(f64_bits(a) & 0xffffffff00000000ull));
    if (x != x)
        return f64_of(F64_HI_NAN);
    return hi20(1.0 / x, 0.07);
}
static inline double rsqrt_approx_ftz_f64(double a)
{
    double x = ftz64(f64_of(f64_bits(a) & 0xffffffff00000000ull));
    if (x != x || x < 0)
        return f64_of(F64_HI_NAN);
    return hi20(1.0 / sqrt(x), 0.055);
}
static inline double rsqrt_approx_f64(double a)
{
    if (a != a)
        return f64_quiet(a);
    if (a < 0)
        return f64_of(F64_DEFAULT_NAN);
    return 1.0 / sqrt(a);
}
/*}=====================================================================*/

/*{=====================================================================
 * f16 and bf16 ex2 and tanh: the unit's f32 result truncated to the narrow format
 * (subnormal results too); for ex2 a result of 2^16 (f16) or 2^128 (bf16) or more is
 * infinity.
 *====================================================================*/
static inline double h_in(uint32_t h, unsigned e, unsigned m)
{
    int bias = (1 << (e - 1)) - 1;
    unsigned ex = h >> m & ((1u << e) - 1), fr = h & ((1u << m) - 1);
    double v;
    if (ex == (1u << e) - 1)
        v = fr ? NAN : INFINITY;
    else if (ex == 0)
        v = ldexp(fr, 1 - bias - (int)m);
    else
        v = ldexp(fr | 1u << m, (int)ex - bias - (int)m);
    return h >> (e + m) & 1 ? -v : v;
}
static inline uint32_t h_out(double v, unsigned e, unsigned m, bool ftz)
{
    int bias = (1 << (e - 1)) - 1;
    if (v != v)
        return (1u << (e + m)) - 1;                       /* canonical NaN: 0x7fff */
    if (ftz && v != 0 && fabs(v) < ldexp(1.0, 1 - bias))
        v = signbit(v) ? -0.0 : 0.0;
    if (fabs(v) >= ldexp(1.0, bias + 1))
        v = v < 0 ? -INFINITY : INFINITY;
    else
        v = isa_fp_round(v, 0, 1 - bias, bias, m, ISA_RND_Z);
    return isa_fp_pack(v, e, m);
}
static inline uint32_t ex2_h(uint32_t h, unsigned e, unsigned m, bool ftz)
{
    double x = h_in(h, e, m);
    if (ftz && x != 0 && fabs(x) < ldexp(1.0, 2 - (1 << (e - 1))))
        x = 0;
    return h_out((float)ex2_unit(x), e, m, ftz);   /* the unit's f32 result, truncated */
}
#define EX2_F16(h)  ex2_h(h, 5, 10, false)
#define EX2_BF16(h) ex2_h(h, 8, 7, true)
static inline uint32_t tanh_h(uint32_t h, unsigned e, unsigned m)
{
    return h_out((float)tanh_unit(h_in(h, e, m)), e, m, false);
}
#define TANH_F16(h)  tanh_h(h, 5, 10)
#define TANH_BF16(h) tanh_h(h, 8, 7)
/*}=====================================================================*/

ISA_H1(rcp_a, float, float, rcp_approx(a, false))
ISA_H1(rcp_a_ftz, float, float, rcp_approx(a, true))
ISA_H1(rsqrt_a, float, float, rsqrt_approx(a, false))
ISA_H1(rsqrt_a_ftz, float, float, rsqrt_approx(a, true))
ISA_H1(sqrt_a, float, float, sqrt_approx(a, false))
ISA_H1(sqrt_a_ftz, float, float, sqrt_approx(a, true))
ISA_H1(lg2_a, float, float, lg2_approx(a, false))
ISA_H1(lg2_a_ftz, float, float, lg2_approx(a, true))
ISA_H1(ex2_a, float, float, ex2_approx(a, false))
ISA_H1(ex2_a_ftz, float, float, ex2_approx(a, true))
ISA_H1(sin_a, float, float, sin_approx(a, false))
ISA_H1(sin_a_ftz, float, float, sin_approx(a, true))
ISA_H1(cos_a, float, float, cos_approx(a, false))
ISA_H1(cos_a_ftz, float, float, cos_approx(a, true))
ISA_H1(tanh_a, float, float, tanh_approx(a))
ISA_H2(div_a, float, float, float, div_approx(a, b, false))
ISA_H2(div_a_ftz, float, float, float, div_approx(a, b, true))
ISA_H2(div_full, float, float, float, div_full_val(a, b, false))
ISA_H2(div_full_ftz, float, float, float, div_full_val(a, b, true))
ISA_H1(rcp_a_f64, double, double, rcp_approx_f64(a))
ISA_H1(rsqrt_a_f64, double, double, rsqrt_approx_f64(a))
ISA_H1(rsqrt_a_ftz_f64, double, double, rsqrt_approx_ftz_f64(a))
ISA_H1(ex2_a_f16, uint16_t, uint16_t, EX2_F16(a))
ISA_H1(ex2_a_f16x2, uint32_t, uint32_t, EX2_F16(a & 0xffffu) | EX2_F16(a >> 16) << 16)
ISA_H1(ex2_a_bf16, uint16_t, uint16_t, EX2_BF16(a))
ISA_H1(ex2_a_bf16x2, uint32_t, uint32_t, EX2_BF16(a & 0xffffu) | EX2_BF16(a >> 16) << 16)
ISA_H1(tanh_a_f16, uint16_t, uint16_t, TANH_F16(a))
ISA_H1(tanh_a_f16x2, uint32_t, uint32_t, TANH_F16(a & 0xffffu) | TANH_F16(a >> 16) << 16)
ISA_H1(tanh_a_bf16, uint16_t, uint16_t, TANH_BF16(a))
ISA_H1(tanh_a_bf16x2, uint32_t, uint32_t, TANH_BF16(a & 0xffffu) | TANH_BF16(a >> 16) << 16)

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
