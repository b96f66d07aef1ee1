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

static inline float f32_finish(double hi, double lo, uint64_t aux)
{
    float r;
    if (hi != hi)
        r = f32_of(0x7fffffffu);
    else if (isinf(hi))
        r = (float)hi;
    else if (AUX_FTZ(aux) && isa_fp_tiny(hi, lo, -126, 23, AUX_MODE(aux)))
        r = signbit(hi) ? -0.0f : 0.0f;
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
#endif
