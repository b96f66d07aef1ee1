/* fp.h: floating-point helpers shared by the fp semantics: bit views, the GPU's
 * canonical NaN, flush-to-zero and saturation.  Round-to-nearest arithmetic is the
 * host's IEEE arithmetic; nothing here depends on a host FP mode left set. */
#ifndef PTXEMU_ISA_FP_H
#define PTXEMU_ISA_FP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t f64_bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline double f64_of(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

/* A NaN produced by an f32 operation is the canonical 0x7fffffff. */
static inline float f32_canon(float r) { return r != r ? f32_of(0x7fffffffu) : r; }
static inline double f64_canon(double r) { return r != r ? f64_of(0x7fffffffffffffffull) : r; }

/* Subnormal to sign-preserving zero (.ftz inputs and results). */
static inline float f32_ftz(float x)
{
    uint32_t u = f32_bits(x);
    return (u & 0x7f800000u) == 0 ? f32_of(u & 0x80000000u) : x;
}

/* .sat: clamp to [0, 1]; NaN becomes 0. */
static inline float f32_sat(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline double f64_sat(double x) { return x != x ? 0.0 : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* min/max: a NaN operand yields the other operand; -0 is below +0. */
static inline float f32_min(float a, float b)
{
    if (a != a) return b != b ? f32_of(0x7fffffffu) : b;
    if (b != b) return a;
    if (a == b) return f32_of(f32_bits(a) | f32_bits(b));
    return a < b ? a : b;
}
static inline float f32_max(float a, float b)
{
    if (a != a) return b != b ? f32_of(0x7fffffffu) : b;
    if (b != b) return a;
    if (a == b) return f32_of(f32_bits(a) & f32_bits(b));
    return a > b ? a : b;
}
static inline double f64_min(double a, double b)
{
    if (a != a) return b != b ? f64_of(0x7fffffffffffffffull) : b;
    if (b != b) return a;
    if (a == b) return f64_of(f64_bits(a) | f64_bits(b));
    return a < b ? a : b;
}
static inline double f64_max(double a, double b)
{
    if (a != a) return b != b ? f64_of(0x7fffffffffffffffull) : b;
    if (b != b) return a;
    if (a == b) return f64_of(f64_bits(a) & f64_bits(b));
    return a > b ? a : b;
}

#endif
