/* f32r.h: f32 arithmetic with an explicit rounding mode, .ftz and .sat, on exact
 * results (a double hi plus the sign of the remainder lo, from error-free
 * transformations): shared by fp_arith.c (f32) and fp_wide.c (f32x2, f32 with f16 or
 * bf16 sources).  aux holds the mode (bits 0-3), .ftz (bit 4) and .sat (bit 5). */
#ifndef PTXEMU_ISA_F32R_H
#define PTXEMU_ISA_F32R_H

#include "isa/sem/fp.h"

#define AUX_MODE(a) ((int)((a) & 15))
#define AUX_FTZ(a)  ((unsigned)((a) >> 4 & 1))
#define AUX_SAT(a)  ((unsigned)((a) >> 5 & 1))

/* The sign of an exactly zero sum x + y: that of two zeros of one sign, else -0 when
 * rounding down and +0 otherwise. */
static inline double zero_sum(double x, double y, int mode)
{
    if (x == 0 && y == 0 && signbit(x) == signbit(y))
        return x;
    return mode == ISA_RND_M ? -0.0 : 0.0;
}

/* hi + lo (finite, hi nonzero) rounded to f32 toward zero, down or up, subnormals kept:
 * the host's nearest float r of hi is the answer or one step from it (|lo| is far below
 * half of r's ulp), toward the exact value when r lies on the wrong side of it. */
static inline float f32_directed(double hi, double lo, int mode)
{
    float r = (float)hi;
    double rd = (double)r;
    bool above = rd > hi || (rd == hi && lo < 0), below = rd < hi || (rd == hi && lo > 0);
    bool down = mode == ISA_RND_M ? above : mode == ISA_RND_P ? false : hi > 0 && above;
    bool up = mode == ISA_RND_P ? below : mode == ISA_RND_M ? false : hi < 0 && below;
    uint32_t u = f32_bits(r);
    if (down)                              /* the next float below (from +-0: -2^-149) */
        u = (u & 0x7fffffffu) == 0 ? 0x80000001u : (u >> 31) ? u + 1 : u - 1;
    else if (up)
        u = (u & 0x7fffffffu) == 0 ? 0x00000001u : (u >> 31) ? u - 1 : u + 1;
    return f32_of(u);
}

static inline float f32_finish(double hi, double lo, uint64_t aux)
{
    float r;
    if (hi != hi)
        r = f32_of(0x7fffffffu);
    else if (isinf(hi))
        r = (float)hi;
    else if (AUX_FTZ(aux) && isa_fp_tiny(hi, lo, -126, 23, AUX_MODE(aux)))
        r = signbit(hi) ? -0.0f : 0.0f;
    else if (!AUX_FTZ(aux) && hi != 0 && (AUX_MODE(aux) == ISA_RND_Z || AUX_MODE(aux) == ISA_RND_M ||
                                          AUX_MODE(aux) == ISA_RND_P))
        r = f32_directed(hi, lo, AUX_MODE(aux));   /* what expf's fma.rm runs: no isa_fp_round */
    else
        r = (float)isa_fp_round(hi, lo, -126, 127, 23, AUX_MODE(aux));
    return AUX_SAT(aux) ? f32_sat(r) : r;
}
static inline float f32_in(float x, uint64_t aux) { return AUX_FTZ(aux) ? f32_ftz(x) : x; }

static inline float f32_add_r(float fa, float fb, uint64_t aux)
{
    double a = f32_in(fa, aux), b = f32_in(fb, aux), lo, hi = two_sum(a, b, &lo);
    if (hi == 0 && lo == 0)
        hi = zero_sum(a, b, AUX_MODE(aux));
    return f32_finish(hi, isfinite(hi) ? lo : 0, aux);
}
static inline float f32_mul_r(float a, float b, uint64_t aux)
{
    return f32_finish((double)f32_in(a, aux) * (double)f32_in(b, aux), 0, aux);
}
static inline float f32_fma_r(float fa, float fb, float fc, uint64_t aux)
{
    double p = (double)f32_in(fa, aux) * (double)f32_in(fb, aux), c = f32_in(fc, aux), lo;
    double hi = two_sum(p, c, &lo);
    if (hi == 0 && lo == 0)
        hi = zero_sum(p, c, AUX_MODE(aux));
    return f32_finish(hi, isfinite(hi) ? lo : 0, aux);
}
static inline float f32_div_r(float fa, float fb, uint64_t aux)
{
    double a = f32_in(fa, aux), b = f32_in(fb, aux), hi = a / b, lo = 0;
    if (isfinite(hi) && hi != 0) {
        double r = fma(-hi, b, a);
        lo = b < 0 ? -r : r;
    }
    return f32_finish(hi, lo, aux);
}
static inline float f32_sqrt_r(float fa, uint64_t aux)
{
    double a = f32_in(fa, aux), hi = sqrt(a), lo = 0;
    if (isfinite(hi) && hi > 0)
        lo = fma(-hi, hi, a);
    return f32_finish(hi, lo, aux);
}
/* add.rn.ftz.f32 through the host's addition (fp_arith.c's F32_FTZ_RN for one lane): the
 * host rounds a tiny sum onto the subnormal grid, which agrees with .ftz's tininess except
 * where it gives exactly 2^-126. */
static inline float f32_add_rn_ftz(float a, float b)
{
    float r = f32_ftz(a) + f32_ftz(b);
    uint32_t u = f32_bits(r), mag = u & 0x7fffffffu;
    if (mag == 0x00800000u)
        return f32_add_r(a, b, ISA_RND_N | 1u << 4);
    return mag < 0x00800000u ? f32_of(u & 0x80000000u) : f32_canon(r);
}
#endif
