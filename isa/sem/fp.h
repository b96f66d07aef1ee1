/* fp.h: floating-point helpers shared by the fp semantics: bit views, the GPU's
 * canonical NaN, flush-to-zero and saturation.  Round-to-nearest arithmetic is the
 * host's IEEE arithmetic; nothing here depends on a host FP mode left set. */
#ifndef PTXEMU_ISA_FP_H
#define PTXEMU_ISA_FP_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Rounding modes of the explicit-rounding helpers (fp_round.c). */
enum { ISA_RND_N, ISA_RND_Z, ISA_RND_M, ISA_RND_P, ISA_RND_NA };
double   isa_fp_round(double hi, double lo, int emin, int emax, unsigned m, int mode);
uint32_t isa_fp_pack(double v, unsigned e, unsigned m);
double   isa_f64_direct(double hi, double lo, int mode);
double   isa_f64_overflow(double hi, int mode);

/* Error-free transformations: a + b == s + *out_e exactly (no overflow). */
static inline double two_sum(double a, double b, double *out_e)
{
    double s = a + b, bb = s - a;
    *out_e = (a - (s - bb)) + (b - bb);
    return s;
}

static inline uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t f64_bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline double f64_of(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

/* A NaN produced by an f32 operation is the canonical 0x7fffffff (hardware-recorded).
 * f64 operations propagate a NaN operand's payload, quieted (sign kept, also by sub),
 * and produce 0xfff8000000000000 for an invalid operation (0/0, inf - inf, ...).  When
 * several operands are NaNs, the hardware-recorded choice is b's for add, sub, mul, min
 * and max, a's for div, and for fma/mad b's, then c's, then a's.  (Between fma's two
 * factors the choice follows the order ptxas gives them, which can differ from the PTX
 * order: fma(c, b, a) with c and b NaN was recorded giving c's.) */
#define F64_DEFAULT_NAN 0xfff8000000000000ull
static inline float f32_canon(float r) { return r != r ? f32_of(0x7fffffffu) : r; }
static inline double f64_canon(double r) { return r != r ? f64_of(F64_DEFAULT_NAN) : r; }
static inline double f64_quiet(double x) { return f64_of(f64_bits(x) | 0x0008000000000000ull); }
/* The result r of op(a, b) with b's NaN first, then a's, then the default NaN. */
static inline double f64_nan_ba(double a, double b, double r)
{
    return b != b ? f64_quiet(b) : a != a ? f64_quiet(a) : f64_canon(r);
}
/* The result r of op(a, b) with a's NaN first (div). */
static inline double f64_nan_ab(double a, double b, double r)
{
    return a != a ? f64_quiet(a) : b != b ? f64_quiet(b) : f64_canon(r);
}
/* The result r of fma(a, b, c): b's NaN, then c's, then a's. */
static inline double f64_nan_bca(double a, double b, double c, double r)
{
    return b != b ? f64_quiet(b) : c != c ? f64_quiet(c) : a != a ? f64_quiet(a) : f64_canon(r);
}

/* .ftz's tininess of a result (hardware-recorded for f32 and f16): the exact result
 * hi + lo (as isa_fp_round takes it) is tiny when, rounded to m fraction bits in the mode
 * with an unbounded exponent, it is still below 2^emin in magnitude.  So a result just
 * below the smallest normal that rounds up to it is kept, and one that is exact (or
 * rounds down) on the finer grid below it is flushed. */
static inline bool isa_fp_tiny(double hi, double lo, int emin, unsigned m, int mode)
{
    double t = ldexp(1.0, emin);
    return fabs(hi) <= t && fabs(isa_fp_round(hi, lo, -1022, 1023, m, mode)) < t;
}

/* f16 arithmetic's common case in f32 (half.c, cvt.c). */
/* f16 bits (finite) to their value in f32: the fraction shifted into place, the exponent
 * rebiased by a multiplication by 2^112 (exact, subnormals included). */
static inline float isa_f16_dec_f32(uint32_t u)
{
    float v = f32_of((u & 0x7fffu) << 13) * 0x1p112f;
    return f32_of(f32_bits(v) | (u & 0x8000u) << 16);
}
/* s + e (exact; |e| below half an ulp of s) to nearest even, as f16 bits. */
static inline uint32_t isa_f16_round_f32(float s, float e)
{
    uint32_t sb = f32_bits(s), eb = f32_bits(e);
    uint32_t sign = sb >> 31 << 15, xb = sb & 0x7fffffffu;
    uint32_t sticky = (eb & 0x7fffffffu) != 0;
    xb -= sticky & ((eb >> 31) != (sb >> 31)) & (xb != 0);   /* strictly below |s| */
    int ex = (int)(xb >> 23) - 127;
    uint32_t mant = (xb & 0x7fffffu) | 0x800000u;
    int sh = 13 + (ex < -14 ? -14 - ex : 0);
    sh = sh > 25 ? 25 : sh;              /* below half the smallest subnormal: 0 */
    uint32_t f = mant >> sh, rem = mant & ((1u << sh) - 1), half = 1u << (sh - 1);
    f += (rem > half) | ((rem == half) & (sticky | (f & 1)));
    uint32_t bits = ex < -14 ? f : ((uint32_t)(ex + 14) << 10) + f;
    bits = ex > 15 ? 0x7c00u : bits;
    bits = xb == 0 ? 0 : bits;
    return sign | bits;
}

/* Subnormal to sign-preserving zero (.ftz inputs). */
static inline float f32_ftz(float x)
{
    uint32_t u = f32_bits(x);
    return (u & 0x7f800000u) == 0 ? f32_of(u & 0x80000000u) : x;
}

/* .sat: clamp to [+0, 1]; NaN and -0 become +0 (hardware-recorded). */
static inline float f32_sat(float x)
{
    float y = x > 0.0f ? x : 0.0f;        /* NaN, -0 and below: +0 (two blends, no branch) */
    return y > 1.0f ? 1.0f : y;
}
static inline double f64_sat(double x)
{
    double y = x > 0.0 ? x : 0.0;
    return y > 1.0 ? 1.0 : y;
}

/* min/max: a NaN operand yields the other operand; -0 is below +0. */
/* Written as selects on the bits, so that the lane loops vectorise (blends, no branch). */
static inline float f32_min(float a, float b)
{
    uint32_t ua = f32_bits(a), ub = f32_bits(b);
    uint32_t r = a < b ? ua : ub;
    r = a == b ? ua | ub : r;                       /* -0 and +0: -0 */
    r = b != b ? ua : r;
    r = a != a ? (b != b ? 0x7fffffffu : ub) : r;
    return f32_of(r);
}
static inline float f32_max(float a, float b)
{
    uint32_t ua = f32_bits(a), ub = f32_bits(b);
    uint32_t r = a > b ? ua : ub;
    r = a == b ? ua & ub : r;                       /* -0 and +0: +0 */
    r = b != b ? ua : r;
    r = a != a ? (b != b ? 0x7fffffffu : ub) : r;
    return f32_of(r);
}
/* min (max false) or max of two floats of w bits in IEEE layout (inf: the bits of
 * +infinity), already flushed by .ftz; the rules of f32, f16 and bf16 (hardware-recorded):
 * a NaN operand yields the other operand, two NaNs give the canonical NaN (every bit but
 * the sign), -0 is below +0; with .NaN (nan) any NaN operand gives the canonical NaN;
 * .xorsign.abs (xs) compares the magnitudes and gives the result the xor of the operands'
 * signs, also when one operand is a NaN (min.xorsign.abs(+0, -NaN) is -0). */
static inline uint32_t isa_fp_minmax(uint32_t a, uint32_t b, unsigned w, uint32_t inf, bool max,
                                     bool nan, bool xs)
{
    uint32_t sign = 1u << (w - 1), mag = sign - 1, s = 0;
    if (xs) {
        s = (a ^ b) & sign;
        a &= mag;
        b &= mag;
    }
    bool na = (a & mag) > inf, nb = (b & mag) > inf;
    if (na || nb)
        return (na && nb) || nan ? mag : (na ? b : a) | s;
    /* IEEE order is the order of the sign-magnitude bits. */
    int64_t ka = a & sign ? -(int64_t)(a & mag) : (int64_t)a, kb = b & sign ? -(int64_t)(b & mag) : (int64_t)b;
    if (ka == kb)
        return (max ? a & b : a | b) | s;       /* -0 is below +0 */
    return ((ka < kb) != max ? a : b) | s;
}

/* f64 min/max of two NaNs: b's NaN, quieted. */
static inline double f64_min(double a, double b)
{
    if (a != a) return b != b ? f64_quiet(b) : b;
    if (b != b) return a;
    if (a == b) return f64_of(f64_bits(a) | f64_bits(b));
    return a < b ? a : b;
}
static inline double f64_max(double a, double b)
{
    if (a != a) return b != b ? f64_quiet(b) : b;
    if (b != b) return a;
    if (a == b) return f64_of(f64_bits(a) & f64_bits(b));
    return a > b ? a : b;
}

#endif
