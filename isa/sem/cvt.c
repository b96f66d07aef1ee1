/* cvt.c: conversion semantics between the integer types, f32/f64 and the narrow formats
 * (f16, bf16, tf32, the f16x2/bf16x2/e4m3x2/e5m2x2 pairs, and sm_100's microscaling
 * formats e2m1x2, e2m3x2, e3m2x2, ue8m0x2 and stochastic rounding .rs).  Integer-to-integer
 * conversions read and write registers of any width (PTX lets cvt's registers be wider
 * than its types); float results take every rounding mode (.rn .rz .rm .rp .rna), computed
 * exactly without the host's rounding mode; float-to-integer conversions saturate. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"
#include "isa/sem/hvec.h"

/* aux layout of an integer conversion: source slot width, destination slot width,
 * source bits and signedness, destination bits and signedness, saturation. */
#define CV_SW(a)   ((unsigned)((a) & 0xf))
#define CV_DW(a)   ((unsigned)(((a) >> 4) & 0xf))
#define CV_SB(a)   ((unsigned)(((a) >> 8) & 0xff))
#define CV_SS(a)   ((unsigned)(((a) >> 16) & 1))
#define CV_DB(a)   ((unsigned)(((a) >> 24) & 0xff))
#define CV_DS(a)   ((unsigned)(((a) >> 32) & 1))
#define CV_SAT(a)  ((unsigned)(((a) >> 33) & 1))

static inline uint64_t slot_read(const uint8_t *s, unsigned w, unsigned l)
{
    switch (w) {
    case 1: return s[l];
    case 2: return ((const uint16_t *)(const void *)s)[l];
    case 4: return ((const uint32_t *)(const void *)s)[l];
    default: return ((const uint64_t *)(const void *)s)[l];
    }
}

static inline void slot_write(uint8_t *s, unsigned w, unsigned l, uint64_t v)
{
    switch (w) {
    case 1: s[l] = (uint8_t)v; break;
    case 2: ((uint16_t *)(void *)s)[l] = (uint16_t)v; break;
    case 4: ((uint32_t *)(void *)s)[l] = (uint32_t)v; break;
    default: ((uint64_t *)(void *)s)[l] = v; break;
    }
}

/* Value of the low `bits` of x, sign-extended when sgn. */
static inline int64_t ext(uint64_t x, unsigned bits, unsigned sgn)
{
    if (bits >= 64)
        return (int64_t)x;
    x &= (1ull << bits) - 1;
    if (sgn && (x >> (bits - 1)) & 1)
        x |= ~0ull << bits;
    return (int64_t)x;
}

ISA_HOT static int cvt_int_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    unsigned sb = CV_SB(a), ss = CV_SS(a), db = CV_DB(a), ds = CV_DS(a);
    if (!CV_SAT(a) && CV_SW(a) == 4 && sb == 32 && CV_DW(a) == 8 && db == 64) {
        /* the usual widening (cvt.s64.s32, cvt.u64.u32: every address computation of a
         * -G build) as one lane loop the compiler vectorises */
        const uint32_t *sx = (const uint32_t *)(const void *)s;
        uint64_t *dx = (uint64_t *)(void *)d;
        if (ss)
            ISA_LANE_LOOP(mask, { dx[l] = (uint64_t)(int64_t)(int32_t)sx[l]; });
        else
            ISA_LANE_LOOP(mask, { dx[l] = sx[l]; });
        return ISA_X_NEXT;
    }
    if (!CV_SAT(a) && CV_SW(a) == 8 && sb == 64 && CV_DW(a) == 4 && db == 32) {
        /* narrowing to 32 bits: the low word, whatever the signs */
        const uint64_t *sx = (const uint64_t *)(const void *)s;
        uint32_t *dx = (uint32_t *)(void *)d;
        ISA_LANE_LOOP(mask, { dx[l] = (uint32_t)sx[l]; });
        return ISA_X_NEXT;
    }
    if (!CV_SAT(a) && sb <= 32 && db <= 32 && (CV_SW(a) == 2 || CV_SW(a) == 4) && (CV_DW(a) == 2 || CV_DW(a) == 4)) {
        /* the 8-, 16- and 32-bit conversions without .sat (cvt.u32.u16, cvt.s32.s8,
         * cvt.u16.u32, ...): the source's low sb bits extended by its sign, then the low
         * db bits by the destination's, in 32-bit shifts the compiler vectorises */
        unsigned sh = 32 - sb, dh = 32 - db;
#define CVT_I32(ST, DT)                                                                       \
        do {                                                                                  \
            const ST *sx = (const ST *)(const void *)s;                                       \
            DT *dx = (DT *)(void *)d;                                                         \
            ISA_LANE_LOOP(mask, {                                                             \
                uint32_t v = (uint32_t)sx[l] << sh;                                           \
                v = ss ? (uint32_t)((int32_t)v >> sh) : v >> sh;                              \
                v <<= dh;                                                                     \
                dx[l] = (DT)(ds ? (uint32_t)((int32_t)v >> dh) : v >> dh);                    \
            });                                                                               \
        } while (0)
        switch (CV_SW(a) << 4 | CV_DW(a)) {
        case 0x22: CVT_I32(uint16_t, uint16_t); break;
        case 0x24: CVT_I32(uint16_t, uint32_t); break;
        case 0x42: CVT_I32(uint32_t, uint16_t); break;
        default:   CVT_I32(uint32_t, uint32_t); break;
        }
#undef CVT_I32
        return ISA_X_NEXT;
    }
    ISA_LANE_LOOP(mask, {
        int64_t v = ext(slot_read(s, CV_SW(a), l), sb, ss);
        if (CV_SAT(a)) {
            /* Clamp to the destination's range, reading the source with its own sign. */
            int64_t lo = ds ? (db >= 64 ? INT64_MIN : -(int64_t)(1ull << (db - 1))) : 0;
            uint64_t hi = ds ? (db >= 64 ? (uint64_t)INT64_MAX : (1ull << (db - 1)) - 1)
                             : (db >= 64 ? ~0ull : (1ull << db) - 1);
            if (ss && v < lo)
                v = lo;
            else if ((!ss || v >= 0) && (uint64_t)v > hi)
                v = (int64_t)hi;
        }
        slot_write(d, CV_DW(a), l, (uint64_t)ext((uint64_t)v, db, ds));
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_int, ISA_W_ANY, ISA_W_ANY)

/* Rounding modes of the float results and of the integer roundings, as aux keeps them
 * (bits 40-47); bit 56 is .ftz. */
enum { RND_N, RND_Z, RND_M, RND_P };
#define CV_RND(a) ((int)(((a) >> 40) & 0xff))
#define CV_FTZ(a) ((unsigned)(((a) >> 56) & 1))

/* The magnitude m (negative when neg) rounded to a float of p significand bits, exactly:
 * the kept high bits q and the dropped remainder decide by mode, and q * 2^shift is then
 * representable, so the final scaling is exact.  No host rounding mode is involved. */
static inline double round_mag(uint64_t m, bool neg, unsigned p, int mode)
{
    if (m == 0)
        return 0.0;
    unsigned n = 64u - (unsigned)__builtin_clzll(m);
    if (n <= p)
        return neg ? -(double)m : (double)m;
    unsigned shift = n - p;
    uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    bool up;
    switch (mode) {
    case RND_N: up = rem > half || (rem == half && (q & 1)); break;
    case RND_Z: up = false; break;
    case RND_M: up = neg && rem != 0; break;
    default:    up = !neg && rem != 0; break;
    }
    q += up;
    double r = ldexp((double)q, (int)shift);     /* q <= 2^p: exact */
    return neg ? -r : r;
}

/* Integer to f32/f64 with a rounding mode; .sat clamps the result to [0, 1]. */
ISA_HOT static int cvt_i2f_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    unsigned sb = CV_SB(a), ss = CV_SS(a), sat = CV_SAT(a);
    bool f64 = CV_DB(a) == 64;
    int mode = CV_RND(a);
    if (mode == RND_N && !sat) {
        /* to nearest: the host's conversions round correctly, ties to even */
        if (!f64 && sb == 32 && CV_SW(a) == 4) {
            const uint32_t *sx = (const uint32_t *)(const void *)s;   /* the usual: a 32-bit register */
            if (ss)
                ISA_LANE_LOOP(mask, { ((float *)(void *)d)[l] = (float)(int32_t)sx[l]; });
            else
                ISA_LANE_LOOP(mask, { ((float *)(void *)d)[l] = (float)sx[l]; });
            return ISA_X_NEXT;
        }
        if (sb <= 32 && (CV_SW(a) == 2 || CV_SW(a) == 4)) {
            /* an 8-, 16- or 32-bit integer: extended in 32 bits, converted (straight loops) */
            unsigned sh = 32 - sb;
#define I2F(ST, DT)                                                                           \
            do {                                                                              \
                const ST *sx = (const ST *)(const void *)s;                                   \
                DT *dx = (DT *)(void *)d;                                                     \
                if (ss)                                                                       \
                    ISA_LANE_LOOP(mask, { dx[l] = (DT)((int32_t)((uint32_t)sx[l] << sh) >> sh); }); \
                else                                                                          \
                    ISA_LANE_LOOP(mask, { dx[l] = (DT)(((uint32_t)sx[l] << sh) >> sh); });    \
            } while (0)
            if (CV_SW(a) == 2 && f64)
                I2F(uint16_t, double);
            else if (CV_SW(a) == 2)
                I2F(uint16_t, float);
            else if (f64)
                I2F(uint32_t, double);
            else
                I2F(uint32_t, float);
#undef I2F
            return ISA_X_NEXT;
        }
        if (sb == 64 && CV_SW(a) == 8) {
            const uint64_t *sx = (const uint64_t *)(const void *)s;
            if (f64 && ss)
                ISA_LANE_LOOP(mask, { ((double *)(void *)d)[l] = (double)(int64_t)sx[l]; });
            else if (f64)
                ISA_LANE_LOOP(mask, { ((double *)(void *)d)[l] = (double)sx[l]; });
            else if (ss)
                ISA_LANE_LOOP(mask, { ((float *)(void *)d)[l] = (float)(int64_t)sx[l]; });
            else
                ISA_LANE_LOOP(mask, { ((float *)(void *)d)[l] = (float)sx[l]; });
            return ISA_X_NEXT;
        }
        if (f64)
            ISA_LANE_LOOP(mask, {
                int64_t v = ext(slot_read(s, CV_SW(a), l), sb, ss);
                ((double *)(void *)d)[l] = ss ? (double)v : (double)(uint64_t)v;
            });
        else
            ISA_LANE_LOOP(mask, {
                int64_t v = ext(slot_read(s, CV_SW(a), l), sb, ss);
                ((float *)(void *)d)[l] = ss ? (float)v : (float)(uint64_t)v;
            });
        return ISA_X_NEXT;
    }
    ISA_LANE_LOOP(mask, {
        int64_t v = ext(slot_read(s, CV_SW(a), l), sb, ss);
        bool neg = ss && v < 0;
        uint64_t m = neg ? 0 - (uint64_t)v : (uint64_t)v;
        if (f64) {
            double r = round_mag(m, neg, 53, mode);
            ((double *)(void *)d)[l] = sat ? f64_sat(r) : r;
        } else {
            float r = (float)round_mag(m, neg, 24, mode);      /* exact: 24 bits */
            ((float *)(void *)d)[l] = sat ? f32_sat(r) : r;
        }
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_i2f, ISA_W_ANY, ISA_W_ANY)

/* f64 to f32 with a rounding mode: the host's conversion rounds to nearest (it is
 * correctly rounded); a directed mode steps one f32 ulp when that went the wrong way,
 * which also turns an overflow to infinity into the largest finite value for .rz and
 * the mode away from the infinity.  A NaN keeps its sign and the top 22 bits of its
 * payload, quieted (hardware-recorded: 0x7ff8... and 0x7ff0...01 both give 0x7fc00000). */
static inline float f64_to_f32(double x, int mode)
{
    if (x != x) {
        uint64_t u = f64_bits(x);
        return f32_of((uint32_t)(u >> 32 & 0x80000000u) | 0x7fc00000u | (uint32_t)(u >> 29 & 0x3fffffu));
    }
    float r = (float)x;
    if ((double)r == x || mode == RND_N)
        return r;
    switch (mode) {
    case RND_Z: return fabs((double)r) > fabs(x) ? nextafterf(r, 0.0f) : r;
    case RND_M: return (double)r > x ? nextafterf(r, -INFINITY) : r;
    default:    return (double)r < x ? nextafterf(r, INFINITY) : r;
    }
}

ISA_HOT static int cvt_d2f_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    float *d = ISA_SLOT(float, f, in->o[0]);
    const double *s = ISA_SLOT(const double, f, in->o[1]);
    int mode = CV_RND(a);
    bool ftz = CV_FTZ(a), sat = CV_SAT(a);
    ISA_LANE_LOOP(mask, {
        float r = f64_to_f32(s[l], mode);
        /* .ftz flushes a value that is tiny after rounding (fp.h): only one of at most
         * 2^-126 can be */
        if (ftz && fabs(s[l]) <= 0x1p-126 && isa_fp_tiny(s[l], 0, -126, 23, mode))
            r = signbit(s[l]) ? -0.0f : 0.0f;
        d[l] = sat ? f32_sat(r) : r;
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_d2f, 4, 8)

/* Integer roundings of a float, exact and independent of the host's rounding mode:
 * remainder(x, 1) is exact and leaves x - n with n the nearest integer, ties to even.
 * The result keeps x's sign (-0.4 rounds to -0). */
static inline double rint_mode(double x, int mode)
{
    double ax = fabs(x);
    if (!(ax < 0x1p52))
        return x;                        /* an integer already, an infinity or a NaN */
    /* |x| < 2^52: adding 2^52 rounds to an integer, ties to even (the host's IEEE
     * addition), and the subtraction is exact; truncation is the conversion to int64. */
    double t = (double)(int64_t)ax, r;
    switch (mode) {
    case RND_N: r = (ax + 0x1p52) - 0x1p52; break;
    case RND_Z: r = t; break;
    case RND_M: r = x < 0 ? t + (double)(t != ax) : t; break;
    default:    r = x > 0 ? t + (double)(t != ax) : t; break;
    }
    return copysign(r, x);
}
static inline float rintf_mode(float x, int mode) { return (float)rint_mode((double)x, mode); }

/* Float to integer with an integer rounding, always saturating.  A NaN gives the bit
 * pattern 1 << (bits - 1) of the destination type (its most negative value when signed,
 * sign-extended into a wider register) for every f64 source and for a 64-bit
 * destination; a NaN of a narrower source (f32, f16, bf16) to a destination of 32 bits
 * or fewer gives 0 (hardware-recorded). */
static inline uint64_t f2i(double x, int mode, unsigned db, unsigned ds, bool src64)
{
    double lo = ds ? -(double)(1ull << (db - 1)) : 0.0;
    double hi = ds ? (double)((1ull << (db - 1)) - 1) : db >= 64 ? 0x1p64 - 1.0 : (double)((1ull << db) - 1);
    if (x != x)
        return db == 64 || src64 ? (ds ? (uint64_t)(int64_t)lo : 1ull << (db - 1)) : 0;
    double y = rint_mode(x, mode);
    if (y <= lo)
        return ds ? (uint64_t)(int64_t)lo : 0;
    if (y >= hi)
        return db == 64 ? (ds ? (uint64_t)INT64_MAX : ~0ull) : (uint64_t)hi;
    return ds ? (uint64_t)(int64_t)y : (uint64_t)y;
}

ISA_HOT static int cvt_f2i_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    unsigned db = CV_DB(a), ds = CV_DS(a);
    int mode = CV_RND(a);
    bool src64 = CV_SB(a) == 64, ftz = CV_FTZ(a);
    if (!src64 && db == 32 && CV_DW(a) == 4) {
        /* cvt.{rni,rzi,rmi,rpi}{.ftz}.{s32,u32}.f32 into a 32-bit register, branch-free:
         * the host's exact integer rounding (.ftz first: it matters to .rmi and .rpi
         * only), then f2i's clamps, NaN 0 */
        const float *sx = (const float *)(const void *)s;
        uint32_t *dx = (uint32_t *)(void *)d;
#define F2I32(ROUND)                                                                          \
        do {                                                                                  \
            if (ds)                                                                           \
                ISA_LANE_LOOP(mask, {                                                         \
                    float x = ROUND(ftz ? f32_ftz(sx[l]) : sx[l]);                            \
                    int32_t in_range = (int32_t)(x > -0x1p31f && x < 0x1p31f ? x : 0.0f);     \
                    dx[l] = (uint32_t)(x >= 0x1p31f ? INT32_MAX : x <= -0x1p31f ? INT32_MIN : in_range); \
                });                                                                           \
            else                                                                              \
                ISA_LANE_LOOP(mask, {                                                         \
                    float x = ROUND(ftz ? f32_ftz(sx[l]) : sx[l]);                            \
                    uint32_t in_range = (uint32_t)(x > 0.0f && x < 0x1p32f ? x : 0.0f);       \
                    dx[l] = x >= 0x1p32f ? UINT32_MAX : in_range;                             \
                });                                                                           \
        } while (0)
#define NOROUND(x) (x)                    /* the conversion truncates */
        switch (mode) {
        case RND_Z: F2I32(NOROUND); break;
        case RND_N: F2I32(nearbyintf); break;
        case RND_M: F2I32(floorf); break;
        default:    F2I32(ceilf); break;
        }
#undef NOROUND
#undef F2I32
        return ISA_X_NEXT;
    }
    if (src64 && db == 32 && CV_DW(a) == 4) {
        /* cvt.{rni,rzi,rmi,rpi}.{s32,u32}.f64: the host's exact integer rounding, then
         * f2i's clamps; a NaN gives 0x80000000 (an f64 source) */
        const double *sx = (const double *)(const void *)s;
        uint32_t *dx = (uint32_t *)(void *)d;
#define F64I32(ROUND)                                                                         \
        do {                                                                                  \
            if (ds)                                                                           \
                ISA_LANE_LOOP(mask, {                                                         \
                    double x = sx[l];                                                         \
                    double y = ROUND(x);                                                      \
                    int32_t in_range = (int32_t)(y > -0x1p31 && y < 0x1p31 ? y : 0.0);        \
                    uint32_t r = (uint32_t)(y >= 0x1p31 - 1 ? INT32_MAX : y <= -0x1p31 ? INT32_MIN : in_range); \
                    dx[l] = x != x ? 0x80000000u : r;                                         \
                });                                                                           \
            else                                                                              \
                ISA_LANE_LOOP(mask, {                                                         \
                    double x = sx[l];                                                         \
                    double y = ROUND(x);                                                      \
                    uint32_t in_range = (uint32_t)(y > 0.0 && y < 0x1p32 ? y : 0.0);          \
                    uint32_t r = y >= 0x1p32 - 1 ? UINT32_MAX : in_range;                     \
                    dx[l] = x != x ? 0x80000000u : r;                                         \
                });                                                                           \
        } while (0)
        switch (mode) {
        case RND_Z: F64I32(trunc); break;
        case RND_N: F64I32(nearbyint); break;
        case RND_M: F64I32(floor); break;
        default:    F64I32(ceil); break;
        }
#undef F64I32
        return ISA_X_NEXT;
    }
    ISA_LANE_LOOP(mask, {
        double x = src64 ? ((const double *)(const void *)s)[l]
                         : (double)(ftz ? f32_ftz(((const float *)(const void *)s)[l])
                                        : ((const float *)(const void *)s)[l]);
        slot_write(d, CV_DW(a), l, f2i(x, mode, db, ds, src64));
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_f2i, ISA_W_ANY, ISA_W_ANY)

/* f32 to f64 is exact; a NaN keeps its sign and payload, quieted, except with .ftz,
 * which gives the canonical f32 NaN widened, 0x7fffffffe0000000 (hardware-recorded). */
static inline double f32_to_f64(float x) { return x != x ? f64_quiet((double)x) : (double)x; }
static inline double f32_to_f64_ftz(float x) { return (double)f32_canon(f32_ftz(x)); }
ISA_H1(cvt_f32_f64, double, float, f32_to_f64(a))
ISA_H1(cvt_f32_f64_ftz, double, float, f32_to_f64_ftz(a))
ISA_H1(cvt_f32_f64_sat, double, float, f64_sat(f32_to_f64(a)))
ISA_H1(cvt_f32_f64_ftz_sat, double, float, f64_sat(f32_to_f64_ftz(a)))
/* Same-size conversions: .ftz flushes, .sat clamps, an integer rounding rounds; a NaN
 * becomes the canonical NaN of f32, and keeps its payload (quieted) in f64. */
static inline float f32_same(float x, int mode, bool ftz, bool sat)
{
    if (mode < 0 && !ftz && !sat)
        return x;                   /* a plain copy, NaNs included (hardware-recorded) */
    if (x != x)
        return sat ? 0.0f : f32_of(0x7fffffffu);
    if (ftz)
        x = f32_ftz(x);
    if (mode >= 0)
        x = rintf_mode(x, mode);
    if (ftz)
        x = f32_ftz(x);
    return sat ? f32_sat(x) : x;
}
static inline double f64_same(double x, int mode, bool sat)
{
    if (mode < 0 && !sat)
        return x;
    if (x != x)
        return sat ? 0.0 : f64_quiet(x);
    if (mode >= 0)
        x = rint_mode(x, mode);
    return sat ? f64_sat(x) : x;
}
ISA_HOT static int cvt_ff32_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    float *d = ISA_SLOT(float, f, in->o[0]);
    const float *s = ISA_SLOT(const float, f, in->o[1]);
    int mode = (int)(int8_t)CV_RND(a);
    bool ftz = CV_FTZ(a), sat = CV_SAT(a);
    if (mode >= 0) {
        /* an integer rounding: the host's (exact, the sign kept: -0.4 gives -0), with
         * f32_same's NaN, .ftz and .sat, as straight loops */
        float nanv = sat ? 0.0f : f32_of(0x7fffffffu);
        /* every step computed and selected (a conditional float compare would be a branch) */
#define FF32(ROUND)                                                                           \
        ISA_LANE_LOOP(mask, {                                                                 \
            float x = s[l];                                                                   \
            float xf = f32_ftz(x);                                                            \
            float y = ROUND(ftz ? xf : x);                                                    \
            float yf = f32_ftz(y);                                                            \
            y = ftz ? yf : y;                                                                 \
            float ys = f32_sat(y);                                                            \
            y = sat ? ys : y;                                                                 \
            d[l] = x != x ? nanv : y;                                                         \
        })
        switch (mode) {
        case RND_Z: FF32(truncf); break;
        case RND_N: FF32(nearbyintf); break;
        case RND_M: FF32(floorf); break;
        default:    FF32(ceilf); break;
        }
#undef FF32
        return ISA_X_NEXT;
    }
    ISA_LANE_LOOP(mask, { d[l] = f32_same(s[l], mode, ftz, sat); });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_ff32, 4, 4)
ISA_HOT static int cvt_ff64_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    double *d = ISA_SLOT(double, f, in->o[0]);
    const double *s = ISA_SLOT(const double, f, in->o[1]);
    int mode = (int)(int8_t)CV_RND(a);
    bool sat = CV_SAT(a);
    ISA_LANE_LOOP(mask, { d[l] = f64_same(s[l], mode, sat); });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_ff64, 8, 8)

/*{=====================================================================
 * Narrow formats: f16, bf16, tf32, e4m3, e5m2, e2m1, e2m3, e3m2, ue8m0 and their pairs
 *====================================================================*/

/* Value kinds of the narrow conversions, and each float kind's exponent and fraction
 * bits.  tf32 is an f32 bit pattern with 10 fraction bits kept.  Of the sm_100 formats
 * (OCP microscaling), e2m1, e2m3 and e3m2 have neither infinities nor NaNs (the top
 * exponent holds normal values); ue8m0 is an unsigned power of two 2^(x - 127), 0xff
 * its NaN. */
enum { NK_INT, NK_F16, NK_BF16, NK_TF32, NK_F32, NK_F64, NK_E4M3, NK_E5M2, NK_E2M1, NK_E2M3, NK_E3M2, NK_UE8M0 };
static const struct { uint8_t e, m; } nk_fmt[] = {
    { 0, 0 }, { 5, 10 }, { 8, 7 }, { 8, 10 }, { 8, 23 }, { 11, 52 }, { 4, 3 }, { 5, 2 },
    { 2, 1 }, { 2, 3 }, { 3, 2 }, { 8, 0 },
};
static inline bool nk_finite_only(unsigned k) { return k == NK_E2M1 || k == NK_E2M3 || k == NK_E3M2; }

/* aux layout of a narrow conversion: slot widths (bits 0-7, from pre-decoding), source
 * and destination kinds, the integer side's bits and signedness, the rounding
 * (ISA_RND_*), and flags: an integer rounding of a float (.rni .rzi .rmi .rpi), .ftz,
 * .sat, .satfinite, .relu; the shape: one value, two f32 sources packed (d = a:b, a in
 * the upper half), or a pair converted element by element. */
#define NV_SK(a)    ((unsigned)(((a) >> 8) & 0xff))
#define NV_DK(a)    ((unsigned)(((a) >> 16) & 0xff))
#define NV_IB(a)    ((unsigned)(((a) >> 24) & 0xff))
#define NV_IS(a)    ((unsigned)(((a) >> 32) & 1))
#define NV_MODE(a)  ((int)(((a) >> 40) & 0xff))
#define NV_IRND     (1ull << 48)
#define NV_FTZ      (1ull << 49)
#define NV_SAT      (1ull << 50)
#define NV_SATF     (1ull << 51)
#define NV_RELU     (1ull << 52)
#define NV_SHAPE(a) ((unsigned)(((a) >> 53) & 3))
#define NV_BW(a)    ((unsigned)(((a) >> 56) & 0xf))   /* the packed form's b: register width */
enum { NV_ONE, NV_PACK, NV_PAIR };

typedef struct {
    unsigned sk, dk, ib, is;
    int mode;
    bool irnd, ftz, sat, satf, relu;
} nparm_t;

static inline nparm_t nparm_of(uint64_t a)
{
    nparm_t p = { NV_SK(a), NV_DK(a), NV_IB(a), NV_IS(a), NV_MODE(a), (a & NV_IRND) != 0,
                  (a & NV_FTZ) != 0, (a & NV_SAT) != 0, (a & NV_SATF) != 0, (a & NV_RELU) != 0 };
    return p;
}

/* Bit width of a kind's element in a pair (e2m3 and e3m2 use the low 6 of their 8). */
static inline unsigned nk_bits(unsigned k) { return k == NK_E2M1 ? 4 : k >= NK_E4M3 ? 8 : 16; }

static inline bool nk_isnan(uint64_t x, unsigned k)
{
    if (nk_finite_only(k))
        return false;
    if (k == NK_UE8M0)
        return (x & 0xff) == 0xff;
    unsigned e = nk_fmt[k].e, m = nk_fmt[k].m;
    uint64_t ex = x >> m & ((1ull << e) - 1), fr = x & ((1ull << m) - 1);
    if (k == NK_E4M3)
        return ex == 15 && fr == 7;
    return ex == (1ull << e) - 1 && fr != 0;
}

/* The exact value of a float kind's bits (not a NaN); e4m3 has no infinity. */
static inline double nk_decode(uint64_t x, unsigned k)
{
    if (k == NK_F64)
        return f64_of(x);
    if (k == NK_UE8M0)
        return ldexp(1.0, (int)(x & 0xff) - 127);
    unsigned e = nk_fmt[k].e, m = nk_fmt[k].m;
    int bias = (1 << (e - 1)) - 1;
    uint64_t ex = x >> m & ((1ull << e) - 1), fr = x & ((1ull << m) - 1);
    double v;
    if (ex == (1ull << e) - 1 && k != NK_E4M3 && !nk_finite_only(k))
        v = INFINITY;
    else if (ex == 0)
        v = ldexp((double)fr, 1 - bias - (int)m);
    else
        v = ldexp((double)(fr | 1ull << m), (int)ex - bias - (int)m);
    return x >> (e + m) & 1 ? -v : v;
}

/* The NaN a conversion gives (hardware-recorded): .sat gives +0; an integer the f2i
 * rule; f16 and bf16 the canonical 0x7fff, but from an f64 NaN its sign and top payload
 * bits, quieted (as f64 to f32 does); f32 the canonical 0x7fffffff, but a bf16 NaN's bits
 * exactly (signalling ones too) without .ftz; tf32 0x7fffe000; f64 the source's sign and
 * payload, quieted; e4m3 and e5m2 0x7f.  From the PTX manual (no sm_100 GPU recorded):
 * e2m1, e2m3 and e3m2, which have no NaN, the positive largest value; ue8m0 0xff. */
static inline uint64_t nv_nan(uint64_t x, const nparm_t *p)
{
    if (p->sat && p->dk != NK_INT)
        return 0;
    unsigned se = nk_fmt[p->sk].e, sm = nk_fmt[p->sk].m, sign = (unsigned)(x >> (se + sm) & 1);
    switch (p->dk) {
    case NK_INT:
        return f2i(NAN, ISA_RND_N, p->ib, p->is, false);
    case NK_F16: case NK_BF16: {
        unsigned e = nk_fmt[p->dk].e, m = nk_fmt[p->dk].m;
        if (p->sk != NK_F64)
            return 0x7fff;
        return (uint64_t)sign << (e + m) | ((1ull << e) - 1) << m | 1ull << (m - 1) |
               (x >> (52 - m) & ((1ull << (m - 1)) - 1));
    }
    case NK_F32:
        return p->sk == NK_BF16 && !p->ftz ? x << 16 : 0x7fffffff;
    case NK_TF32:
        return 0x7fffe000;
    case NK_F64:
        return (uint64_t)sign << 63 | 0x7ff8000000000000ull | (x & ((1ull << sm) - 1)) << (52 - sm);
    case NK_E2M1:
        return 0x7;
    case NK_E2M3: case NK_E3M2:
        return 0x1f;
    case NK_UE8M0:
        return 0xff;
    default:
        return 0x7f;
    }
}

/* ue8m0 (.rz or .rp) of a value: the power of two at or below |v| (.rz) or at or above
 * it (.rp), the sign dropped; below 2^-127 the smallest code 0, above 2^127 (and from an
 * infinity) 0xff, or the largest code 0xfe with .satfinite. */
static inline uint64_t ue8m0_of(double v, int mode, bool satf)
{
    double a = fabs(v);
    if (isinf(a))
        return satf ? 0xfe : 0xff;
    if (a == 0.0)
        return 0;
    int e = ilogb(a);
    if (mode == ISA_RND_P && a != ldexp(1.0, e))
        e++;
    e += 127;
    return e < 0 ? 0 : e > 254 ? (satf ? 0xfe : 0xff) : (uint64_t)e;
}

/* The largest exponent and the largest finite value of a float kind. */
static inline int nk_emax(unsigned k)
{
    unsigned e = nk_fmt[k].e;
    return k == NK_E4M3 ? 8 : nk_finite_only(k) ? 1 << (e - 1) : (1 << (e - 1)) - 1;
}
static inline double nk_max(unsigned k)
{
    return k == NK_E4M3 ? 448.0 : ldexp(2.0 - ldexp(1.0, -(int)nk_fmt[k].m), nk_emax(k));
}

/* One value: source bits x to destination bits.  The source is exact as hi (and, for a
 * 64-bit integer with more than 53 significant bits, the sign of the dropped rest as
 * lo); isa_fp_round rounds it once to the destination format. */
static inline uint64_t nv_convert(uint64_t x, const nparm_t *p)
{
    double hi, lo = 0.0;
    if (p->dk == NK_TF32 && p->mode == ISA_RND_NA) {
        /* .rna to tf32 rounds the bit pattern, and truncates a NaN's (0x7f800001 gives
         * infinity); .satfinite then steps an all-ones exponent, infinity or NaN, down one
         * unit (hardware-recorded: 0x7fc00000 gives 0x7fbfe000). */
        uint64_t r = ((x & 0x7fffffffu) > 0x7f800000u ? x : x + 0x1000u) & 0xffffe000u;
        if (p->satf && (r & 0x7f800000u) == 0x7f800000u)
            r -= 0x2000u;
        return r;
    }
    if (p->sk == NK_INT) {
        int64_t v = ext(x, p->ib, p->is);
        bool neg = p->is && v < 0;
        uint64_t m = neg ? 0 - (uint64_t)v : (uint64_t)v;
        hi = round_mag(m, neg, 53, RND_Z);
        if ((uint64_t)fabs(hi) != m)
            lo = neg ? -1.0 : 1.0;          /* hi truncated m: the rest is on hi's side */
    } else {
        if (nk_isnan(x, p->sk))
            return nv_nan(x, p);
        hi = nk_decode(x, p->sk);
        if (p->ftz && fabs(hi) < 0x1p-126)
            hi = copysign(0.0, hi);
    }
    if (p->irnd)
        hi = rint_mode(hi, p->mode);
    if (p->relu && signbit(hi))
        hi = 0.0;
    if (p->dk == NK_INT)
        return f2i(hi, p->mode, p->ib, p->is, false);
    if (p->dk == NK_UE8M0)
        return ue8m0_of(hi, p->mode, p->satf);
    unsigned e = nk_fmt[p->dk].e, m = nk_fmt[p->dk].m;
    int emin = 2 - (1 << (e - 1)), emax = nk_emax(p->dk);
    double max = nk_max(p->dk);
    double r = isinf(hi) || p->dk == NK_F64 ? hi : isa_fp_round(hi, lo, emin, emax, m, p->irnd ? ISA_RND_N : p->mode);
    if (p->ftz && fabs(r) < 0x1p-126)
        r = copysign(0.0, r);
    if ((p->satf || p->dk == NK_E4M3 || nk_finite_only(p->dk)) && fabs(r) > max)
        r = copysign(max, r);
    if (p->sat)
        r = f64_sat(r);
    switch (p->dk) {
    case NK_F32: case NK_TF32: return f32_bits((float)r);
    case NK_F64: return f64_bits(r);
    default: return isa_fp_pack(r, e, m);
    }
}

/* The handler of every narrow conversion: one value, a packed pair of two f32 sources,
 * or a pair converted element by element. */
ISA_HOT static int cvt_nar_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    nparm_t p = nparm_of(a);
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    unsigned shape = NV_SHAPE(a);
    /* The common cases: cvt.rn.f16.f32 and cvt.f32.f16 without modifiers, in vectors between
     * registers of their widths (hvec.h), else branch-free lane by lane. */
    const uint64_t plain = (uint64_t)ISA_RND_N << 40 | (uint64_t)NV_ONE << 53;
    if ((a & ~0xffull) == (plain | (uint64_t)NK_F32 << 8 | (uint64_t)NK_F16 << 16) && CV_SW(a) == 4 && CV_DW(a) == 2) {
        uint32_t r[ISA_LANES];
        hv_cvt_f16_f32(r, (const uint32_t *)(const void *)s);
        ISA_LANE_LOOP(mask, { ((uint16_t *)(void *)d)[l] = (uint16_t)r[l]; });
        return ISA_X_NEXT;
    }
    if ((a & ~0xffull) == (plain | (uint64_t)NK_F16 << 8 | (uint64_t)NK_F32 << 16) && CV_SW(a) == 2 && CV_DW(a) == 4) {
        uint32_t x[ISA_LANES], r[ISA_LANES];
        for (unsigned l = 0; l < ISA_LANES; l++)
            x[l] = ((const uint16_t *)(const void *)s)[l];
        hv_cvt_f32_f16(r, x);
        ISA_LANE_LOOP(mask, { ((uint32_t *)(void *)d)[l] = r[l]; });
        return ISA_X_NEXT;
    }
    if ((a & ~0xffull) == (plain | (uint64_t)NK_F32 << 8 | (uint64_t)NK_F16 << 16)) {
        ISA_LANE_LOOP(mask, {
            uint32_t x = (uint32_t)slot_read(s, CV_SW(a), l);
            uint32_t r = (x & 0x7fffffffu) > 0x7f800000u ? 0x7fffu : isa_f16_round_f32(f32_of(x), 0.0f);
            slot_write(d, CV_DW(a), l, r);
        });
        return ISA_X_NEXT;
    }
    if ((a & ~0xffull) == (plain | (uint64_t)NK_F16 << 8 | (uint64_t)NK_F32 << 16)) {
        ISA_LANE_LOOP(mask, {
            uint32_t x = (uint32_t)slot_read(s, CV_SW(a), l) & 0xffffu;
            uint32_t e = x & 0x7c00u;
            uint32_t r = e != 0x7c00u ? f32_bits(isa_f16_dec_f32(x))
                       : (x & 0x3ffu) ? 0x7fffffffu : (x & 0x8000u) << 16 | 0x7f800000u;
            slot_write(d, CV_DW(a), l, r);
        });
        return ISA_X_NEXT;
    }
    /* cvt.rn.f16x2.f32 and cvt.rn.bf16x2.f32 d, a, b without modifiers: a to the upper
     * half, b to the lower, in vectors */
    if (shape == NV_PACK && p.sk == NK_F32 && (p.dk == NK_F16 || p.dk == NK_BF16) && p.mode == ISA_RND_N &&
        !p.irnd && !p.ftz && !p.sat && !p.satf && !p.relu && CV_SW(a) == 4 && CV_DW(a) == 4 && NV_BW(a) == 4) {
        uint32_t hi[ISA_LANES], lo[ISA_LANES];
        const uint32_t *sa = (const uint32_t *)(const void *)s, *sb = (const uint32_t *)(const void *)(f + in->o[2]);
        if (p.dk == NK_F16) {
            hv_cvt_f16_f32(hi, sa);
            hv_cvt_f16_f32(lo, sb);
        } else {
            hv_cvt_bf16_f32(hi, sa);
            hv_cvt_bf16_f32(lo, sb);
        }
        ISA_LANE_LOOP(mask, { ((uint32_t *)(void *)d)[l] = hi[l] << 16 | lo[l]; });
        return ISA_X_NEXT;
    }
    if (shape == NV_PACK) {
        const uint8_t *b = f + in->o[2];
        unsigned h = nk_bits(p.dk), bw = NV_BW(a);
        ISA_LANE_LOOP(mask, {
            uint64_t hi = nv_convert(slot_read(s, CV_SW(a), l) & 0xffffffffu, &p);
            uint64_t lo = nv_convert(slot_read(b, bw, l) & 0xffffffffu, &p);
            slot_write(d, CV_DW(a), l, hi << h | lo);
        });
    } else if (shape == NV_PAIR) {
        unsigned sh = nk_bits(p.sk), dh = nk_bits(p.dk);
        ISA_LANE_LOOP(mask, {
            uint64_t x = slot_read(s, CV_SW(a), l);
            uint64_t hi = nv_convert(x >> sh & ((1ull << sh) - 1), &p);
            uint64_t lo = nv_convert(x & ((1ull << sh) - 1), &p);
            slot_write(d, CV_DW(a), l, hi << dh | lo);
        });
    } else {
        ISA_LANE_LOOP(mask, { slot_write(d, CV_DW(a), l, nv_convert(slot_read(s, CV_SW(a), l), &p)); });
    }
    return ISA_X_NEXT;
}
ISA_DESC(cvt_nar, ISA_W_ANY, ISA_W_ANY, ISA_W_ANY)

/* Stochastic rounding (.rs) of an f32 (bits x) to f16 or bf16 with random bits rb (13
 * for f16, 16 for bf16), as the PTX manual defines it (no sm_100 GPU recorded): the
 * magnitude truncated to the format, then one unit more when adding rb to the discarded
 * fraction's top bits carries out, so that it rounds away from zero with a probability
 * of the discarded fraction.  A magnitude past the largest finite value is an infinity
 * (.satfinite: the largest finite value); .relu makes a negative result +0; a NaN gives
 * the canonical 0x7fff. */
static inline uint64_t nv_stochastic(uint32_t x, unsigned rb, const nparm_t *p)
{
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    double v = f32_of(x);
    if (p->relu && signbit(v))
        v = 0.0;
    unsigned e = nk_fmt[p->dk].e, m = nk_fmt[p->dk].m, bits = p->dk == NK_F16 ? 13 : 16;
    int emin = 2 - (1 << (e - 1)), emax = nk_emax(p->dk);
    double a = fabs(v), max = nk_max(p->dk), r = a;
    if (isinf(a) || (a != 0.0 && ilogb(a) > emax)) {
        r = INFINITY;
    } else if (a != 0.0) {
        int ex = ilogb(a);
        double q = ldexp(1.0, (ex < emin ? emin : ex) - (int)m), t = floor(a / q) * q;
        double top = floor(ldexp((a - t) / q, (int)bits));
        r = top + (double)(rb & ((1u << bits) - 1)) >= ldexp(1.0, (int)bits) ? t + q : t;
    }
    if (r > max)
        r = p->satf ? max : INFINITY;
    return isa_fp_pack(signbit(v) ? -r : r, e, m);
}

/* cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits: a to the upper half with
 * rbits' upper 16 bits, b to the lower half with its lower 16 bits. */
ISA_HOT static int cvt_rs_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    nparm_t p = nparm_of(in->aux);
    uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);
    const uint32_t *a = ISA_SLOT(const uint32_t, f, in->o[1]), *b = ISA_SLOT(const uint32_t, f, in->o[2]);
    const uint32_t *r = ISA_SLOT(const uint32_t, f, in->o[3]);
    ISA_LANE_LOOP(mask, {
        d[l] = (uint32_t)(nv_stochastic(a[l], r[l] >> 16, &p) << 16 | nv_stochastic(b[l], r[l] & 0xffff, &p));
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_rs, 4, 4, 4, 4)

/* The narrow kind of a type (its element's for a pair), NK_INT for an integer, -1 for
 * a type the narrow conversions do not take. */
static int nk_of(isa_type_t t, bool *out_pair)
{
    *out_pair = false;
    switch (t) {
    case ISA_T_F16:    return NK_F16;
    case ISA_T_BF16:   return NK_BF16;
    case ISA_T_TF32:   return NK_TF32;
    case ISA_T_F32:    return NK_F32;
    case ISA_T_F64:    return NK_F64;
    case ISA_T_F16X2:  *out_pair = true; return NK_F16;
    case ISA_T_BF16X2: *out_pair = true; return NK_BF16;
    case ISA_T_E4M3X2: *out_pair = true; return NK_E4M3;
    case ISA_T_E5M2X2: *out_pair = true; return NK_E5M2;
    case ISA_T_E2M1X2: *out_pair = true; return NK_E2M1;
    case ISA_T_E2M3X2: *out_pair = true; return NK_E2M3;
    case ISA_T_E3M2X2: *out_pair = true; return NK_E3M2;
    case ISA_T_UE8M0X2: *out_pair = true; return NK_UE8M0;
    default:           return -1;
    }
}

/* Selection of a narrow conversion: one of the types is f16, bf16, tf32 or a pair, or
 * the instruction has .relu or .satfinite.  A float destination takes a float rounding
 * (.rn by default; .rna for tf32); a float to itself an integer rounding; an integer
 * destination an integer rounding (required). */
static bool cvt_narrow_select(const isa_instr_t *in, isa_xinsn_t *x, bool dint, bool sint)
{
    isa_type_t dt = (isa_type_t)in->types[0], st = (isa_type_t)in->types[1];
    bool dpair, spair;
    int dk = dint ? NK_INT : nk_of(dt, &dpair), sk = sint ? NK_INT : nk_of(st, &spair);
    if (dint)
        dpair = false;
    if (sint)
        spair = false;
    if (dk < 0 || sk < 0 || (dk == NK_INT && sk == NK_INT))
        return false;
    int m = isa_instr_mod(in, ISA_G_ROUND), sm = isa_instr_mod(in, ISA_G_SAT);
    if (m == ISA_M_RS) {
        if ((dt != ISA_T_F16X2 && dt != ISA_T_BF16X2) || st != ISA_T_F32 || in->nopd != 4)
            return false;
        x->desc = cvt_rs;
        x->aux = (uint64_t)sk << 8 | (uint64_t)dk << 16 | (sm == ISA_M_SATFINITE ? NV_SATF : 0) |
                 (isa_instr_mod(in, ISA_G_RELU) >= 0 ? NV_RELU : 0);
        return true;
    }
    unsigned shape = NV_ONE;
    if (dpair && sk == NK_F32 && !spair && in->nopd == 3)
        shape = NV_PACK;
    else if (dpair && spair && in->nopd == 2)
        shape = NV_PAIR;
    else if (dpair || spair || in->nopd != 2)
        return false;
    int mode;
    bool irnd = false;
    switch (m) {
    case -1:         mode = ISA_RND_N; break;
    case ISA_M_RN:   mode = ISA_RND_N; break;
    case ISA_M_RZ:   mode = ISA_RND_Z; break;
    case ISA_M_RM:   mode = ISA_RND_M; break;
    case ISA_M_RP:   mode = ISA_RND_P; break;
    case ISA_M_RNA:  mode = ISA_RND_NA; break;
    case ISA_M_RNI:  mode = ISA_RND_N; irnd = true; break;
    case ISA_M_RZI:  mode = ISA_RND_Z; irnd = true; break;
    case ISA_M_RMI:  mode = ISA_RND_M; irnd = true; break;
    case ISA_M_RPI:  mode = ISA_RND_P; irnd = true; break;
    default:         return false;
    }
    if (dk == NK_INT ? !irnd : (irnd && dk != sk) || (sk == NK_INT && m < 0))
        return false;
    if (mode == ISA_RND_NA && dk != NK_TF32)
        return false;
    unsigned ib = dk == NK_INT ? isa_types[dt].bits : sk == NK_INT ? isa_types[st].bits : 0;
    bool is = dk == NK_INT ? isa_types[dt].cls == ISA_TC_SINT : sk == NK_INT && isa_types[st].cls == ISA_TC_SINT;
    uint64_t aux = (uint64_t)sk << 8 | (uint64_t)dk << 16 | (uint64_t)ib << 24 | (uint64_t)is << 32 |
                   (uint64_t)mode << 40 | (irnd ? NV_IRND : 0) |
                   (isa_instr_mod(in, ISA_G_FTZ) == ISA_M_FTZ && dk != NK_F16 ? NV_FTZ : 0) |
                   (sm == ISA_M_SAT ? NV_SAT : 0) | (sm == ISA_M_SATFINITE ? NV_SATF : 0) |
                   (isa_instr_mod(in, ISA_G_RELU) >= 0 ? NV_RELU : 0) | (uint64_t)shape << 53;
    /* An integer rounding of a float to itself keeps the value exact: the rounding to
     * the format afterwards is to nearest (nv_convert). */
    x->desc = cvt_nar;
    x->aux = aux;
    return true;
}
/*}=====================================================================*/

static bool is_int(isa_type_t t)
{
    isa_tclass_t c = isa_types[t].cls;
    return (c == ISA_TC_UINT || c == ISA_TC_SINT || c == ISA_TC_BIT) && isa_types[t].bits >= 8 && isa_types[t].bits <= 64;
}

/*{=====================================================================
 * Wider registers: the f32/f64 conversions above with a float operand in a register
 * wider than its type (valid PTX; hardware-recorded, tests/golden/cvt_wide_regs: a
 * float result is zero-extended, a float source's upper bits are ignored)
 *====================================================================*/
enum { FW_NONE, FW_I2F, FW_F2I, FW_D2F, FW_F2D, FW_FF32, FW_FF64 };
#define FW_KIND(a) ((unsigned)(((a) >> 60) & 7))

static inline uint64_t fw_lane(uint64_t u, uint64_t a)
{
    int mode = CV_RND(a);
    bool ftz = CV_FTZ(a), sat = CV_SAT(a);
    switch (FW_KIND(a)) {
    case FW_I2F: {
        int64_t v = ext(u, CV_SB(a), CV_SS(a));
        bool neg = CV_SS(a) && v < 0;
        uint64_t m = neg ? 0 - (uint64_t)v : (uint64_t)v;
        if (CV_DB(a) == 64) {
            double r = round_mag(m, neg, 53, mode);
            return f64_bits(sat ? f64_sat(r) : r);
        }
        float r = (float)round_mag(m, neg, 24, mode);
        return f32_bits(sat ? f32_sat(r) : r);
    }
    case FW_F2I: {
        bool src64 = CV_SB(a) == 64;
        double x = src64 ? f64_of(u) : (double)(ftz ? f32_ftz(f32_of((uint32_t)u)) : f32_of((uint32_t)u));
        return f2i(x, mode, CV_DB(a), CV_DS(a), src64);
    }
    case FW_D2F: {
        double x = f64_of(u);
        float r = f64_to_f32(x, mode);
        if (ftz && isa_fp_tiny(x, 0, -126, 23, mode))
            r = signbit(x) ? -0.0f : 0.0f;
        return f32_bits(sat ? f32_sat(r) : r);
    }
    case FW_F2D: {
        float x = f32_of((uint32_t)u);
        double r = ftz ? f32_to_f64_ftz(x) : f32_to_f64(x);
        return f64_bits(sat ? f64_sat(r) : r);
    }
    case FW_FF32:
        return f32_bits(f32_same(f32_of((uint32_t)u), (int)(int8_t)mode, ftz, sat));
    default:
        return f64_bits(f64_same(f64_of(u), (int)(int8_t)mode, sat));
    }
}
ISA_HOT static int cvt_fw_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    ISA_LANE_LOOP(mask, { slot_write(d, CV_DW(a), l, fw_lane(slot_read(s, CV_SW(a), l), a)); });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_fw, ISA_W_ANY, ISA_W_ANY)

bool isa_sem_cvt_wide(isa_xinsn_t *x)
{
    unsigned k = x->desc == cvt_i2f ? FW_I2F : x->desc == cvt_f2i ? FW_F2I : x->desc == cvt_d2f ? FW_D2F
               : x->desc == cvt_ff32 ? FW_FF32 : x->desc == cvt_ff64 ? FW_FF64
               : x->desc == cvt_f32_f64 || x->desc == cvt_f32_f64_ftz || x->desc == cvt_f32_f64_sat ||
                 x->desc == cvt_f32_f64_ftz_sat ? FW_F2D : FW_NONE;
    if (x->desc == cvt_nar)
        return true;                /* reads and writes any width already */
    if (k == FW_NONE)
        return false;
    x->desc = cvt_fw;
    x->aux = (x->aux & ~(7ull << 60)) | (uint64_t)k << 60;
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * cvt.pack: two s32 values saturated to a narrow integer, packed
 *====================================================================*/

/* cvt.pack.sat.T.s32{.b32} d, a, b{, c}: a and b clamp to the range of T (N bits; u16,
 * s16 pack two, u8 .. s2 a further c); d holds b in bits 0..N-1, a in bits N..2N-1, and,
 * for the forms with c, the low bits of c above them.  aux: N, bit 8 set for a signed T. */
static inline uint32_t pack_sat(int32_t v, unsigned n, bool sgn)
{
    int32_t lo = sgn ? -(1 << (n - 1)) : 0, hi = sgn ? (1 << (n - 1)) - 1 : (int32_t)((1u << n) - 1);
    return (uint32_t)(v < lo ? lo : v > hi ? hi : v) & ((1u << n) - 1);
}
ISA_HOT static int cvt_pack_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    unsigned n = (unsigned)(in->aux & 0xff);
    bool sgn = (in->aux >> 8) & 1;
    uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);
    const int32_t *a = ISA_SLOT(const int32_t, f, in->o[1]), *b = ISA_SLOT(const int32_t, f, in->o[2]);
    const uint32_t *c = in->o[3] != ISA_NONE ? ISA_SLOT(const uint32_t, f, in->o[3]) : NULL;
    ISA_LANE_LOOP(mask, {
        uint32_t r = pack_sat(a[l], n, sgn) << n | pack_sat(b[l], n, sgn);
        d[l] = n < 16 && c ? r | c[l] << (2 * n) : r;
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_pack, 4, 4, 4, 4)

static bool cvt_pack_select(const isa_instr_t *in, isa_xinsn_t *x)
{
    isa_type_t t = (isa_type_t)in->types[0];
    unsigned n = isa_types[t].bits;
    bool sgn = isa_types[t].cls == ISA_TC_SINT, wide = n == 16;
    if (in->nsfx != 1u + in->ntypes || isa_instr_mod(in, ISA_G_SAT) != ISA_M_SAT ||
        (isa_types[t].cls != ISA_TC_SINT && isa_types[t].cls != ISA_TC_UINT) || (n != 2 && n != 4 && n != 8 && n != 16) ||
        in->ntypes != (wide ? 2u : 3u) || in->types[1] != ISA_T_S32 || (!wide && in->types[2] != ISA_T_B32) ||
        in->nopd != in->ntypes + 1u)
        return false;
    x->desc = cvt_pack;
    x->aux = n | (uint64_t)sgn << 8;
    return true;
}
/*}=====================================================================*/

/* The rounding modifier as RND_*: float roundings (.rn .rz .rm .rp) when irnd is false,
 * integer roundings (.rni .rzi .rmi .rpi) when it is true; -1 for none, -2 for the
 * other kind. */
static int rnd_of(int m, bool irnd)
{
    if (m < 0)
        return -1;
    switch (m) {
    case ISA_M_RN:  return irnd ? -2 : RND_N;
    case ISA_M_RZ:  return irnd ? -2 : RND_Z;
    case ISA_M_RM:  return irnd ? -2 : RND_M;
    case ISA_M_RP:  return irnd ? -2 : RND_P;
    case ISA_M_RNI: return irnd ? RND_N : -2;
    case ISA_M_RZI: return irnd ? RND_Z : -2;
    case ISA_M_RMI: return irnd ? RND_M : -2;
    case ISA_M_RPI: return irnd ? RND_P : -2;
    default:        return -2;
    }
}

/* Register widths are filled in by pre-decoding (aux bits 0-7) before the handler runs:
 * isa_sem_cvt leaves them 0 and marks the descriptor as adapting (ISA_W_ANY).  A narrow
 * type, .relu, .satfinite, .rna or a packing (three operands) goes to cvt_narrow_select;
 * among the integer types, f32 and f64, which rounding each pair needs: integer to float and f64 to f32 a float rounding (.rn
 * .rz .rm .rp, required); float to integer an integer one (.rni .rzi .rmi .rpi,
 * required); float to float of one size an optional integer one; f32 to f64 none. */
bool isa_sem_cvt(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->op == ISA_OP_CVT_PACK)
        return cvt_pack_select(in, x);
    if (in->op != ISA_OP_CVT || in->ntypes != 2 || in->nopd < 2 || in->nopd > 4)
        return false;
    isa_type_t dt = (isa_type_t)in->types[0], st = (isa_type_t)in->types[1];
    int m = isa_instr_mod(in, ISA_G_ROUND), sm = isa_instr_mod(in, ISA_G_SAT);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) >= 0, sat = sm >= 0, relu = isa_instr_mod(in, ISA_G_RELU) >= 0;
    if (in->nsfx != 2u + (m >= 0) + ftz + sat + relu)
        return false;
    bool dflt = dt == ISA_T_F32 || dt == ISA_T_F64, sflt = st == ISA_T_F32 || st == ISA_T_F64;
    if (!(dflt || is_int(dt)) || !(sflt || is_int(st)) || relu || sm == ISA_M_SATFINITE ||
        m == ISA_M_RNA || in->nopd != 2)
        return cvt_narrow_select(in, x, is_int(dt), is_int(st));
    uint64_t aux = (uint64_t)isa_types[st].bits << 8 | (uint64_t)(isa_types[st].cls == ISA_TC_SINT) << 16 |
                   (uint64_t)isa_types[dt].bits << 24 | (uint64_t)(isa_types[dt].cls == ISA_TC_SINT) << 32 |
                   (uint64_t)sat << 33 | (uint64_t)ftz << 56;
    int r;
    if (is_int(dt) && is_int(st)) {
        if (m >= 0 || ftz)
            return false;
        x->desc = cvt_int;
    } else if (dflt && is_int(st)) {
        /* .ftz changes nothing: an integer is never a subnormal. */
        if ((r = rnd_of(m, false)) < 0 || (ftz && dt != ISA_T_F32))
            return false;
        x->desc = cvt_i2f;
        aux |= (uint64_t)r << 40;
    } else if (is_int(dt) && sflt) {
        if ((r = rnd_of(m, true)) < 0 || (ftz && st != ISA_T_F32))
            return false;
        x->desc = cvt_f2i;
        aux |= (uint64_t)r << 40;
    } else if (dt == ISA_T_F64 && st == ISA_T_F32) {
        if (m >= 0)
            return false;
        x->desc = ftz ? (sat ? cvt_f32_f64_ftz_sat : cvt_f32_f64_ftz) : (sat ? cvt_f32_f64_sat : cvt_f32_f64);
    } else if (dt == ISA_T_F32 && st == ISA_T_F64) {
        if ((r = rnd_of(m, false)) < 0)
            return false;
        x->desc = cvt_d2f;
        aux |= (uint64_t)r << 40;
    } else if (dt == st && dflt) {
        if ((r = rnd_of(m, true)) == -2 || (ftz && dt != ISA_T_F32))
            return false;
        x->desc = dt == ISA_T_F32 ? cvt_ff32 : cvt_ff64;
        aux |= (uint64_t)(uint8_t)(int8_t)r << 40;
    } else {
        return false;
    }
    x->aux = aux;
    return true;
}
