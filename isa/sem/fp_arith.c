/* fp_arith.c: f32 and f64 arithmetic: add, sub, mul, fma/mad, div, sqrt, rcp in every
 * rounding mode with .ftz and .sat, abs, neg, min, max (.NaN, .xorsign.abs), copysign; testp. */
#include "isa/sem/f32r.h"
#include "isa/sem/lanes.h"

#define FZ(x) f32_ftz(x)
/* f64 to nearest: the host's result r, unless it is a NaN, when NAN_RULE picks the NaN the
 * hardware gives (fp.h).  r is a NaN whenever an operand is, so the common case is one
 * comparison, and the lane loops stay branch-free (blends) for the compiler to vectorise. */
#define F64_RN(RAW, NAN_RULE) __extension__({ double r = (RAW); r != r ? (NAN_RULE) : r; })

/* Round to nearest without .ftz (the host's IEEE operations), with .sat or without. */
#define F32_SET(SFX, POST)                                                                       \
    ISA_H2(add_f32##SFX, float, float, float, POST(f32_canon(a + b)))                            \
    ISA_H2(sub_f32##SFX, float, float, float, POST(f32_canon(a - b)))                            \
    ISA_H2(mul_f32##SFX, float, float, float, POST(f32_canon(a * b)))                            \
    ISA_H3(fma_f32##SFX, float, float, float, float, POST(f32_canon(fmaf(a, b, c))))
#define ID(x) (x)
F32_SET(, ID)
F32_SET(_sat, f32_sat)

/* On x86-64 hosts whose CPU has FMA instructions but not the x86-64-v3 set that ISA_HOT's
 * builds use (chosen at selection time), the plain fma.rn handlers are also built with FMA
 * enabled, so that fma is one instruction instead of a library call per lane.  The result
 * is the same correctly rounded fma. */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static int fma_f32_hw_f(void *w_, uint8_t *f, const isa_xinsn_t *in,
                                                     uint32_t mask)
{
    (void)w_;
    float *d = ISA_SLOT(float, f, in->o[0]);
    const float *pa = ISA_SLOT(const float, f, in->o[1]), *pb = ISA_SLOT(const float, f, in->o[2]);
    const float *pc = ISA_SLOT(const float, f, in->o[3]);
    ISA_LANE_LOOP(mask, { d[l] = f32_canon(__builtin_fmaf(pa[l], pb[l], pc[l])); });
    return ISA_X_NEXT;
}
ISA_DESC(fma_f32_hw, 4, 4, 4, 4)
__attribute__((target("fma"))) static int fma_f64_hw_f(void *w_, uint8_t *f, const isa_xinsn_t *in,
                                                     uint32_t mask)
{
    (void)w_;
    double *d = ISA_SLOT(double, f, in->o[0]);
    const double *pa = ISA_SLOT(const double, f, in->o[1]), *pb = ISA_SLOT(const double, f, in->o[2]);
    const double *pc = ISA_SLOT(const double, f, in->o[3]);
    ISA_LANE_LOOP(mask, { double a = pa[l]; double b = pb[l]; double c = pc[l];
                          d[l] = F64_RN(__builtin_fma(a, b, c), f64_nan_bca(a, b, c, r)); });
    return ISA_X_NEXT;
}
ISA_DESC(fma_f64_hw, 8, 8, 8, 8)

static const isa_xdesc_t fma_f64[1];   /* below */
static const isa_xdesc_t *fast_fma(const isa_xdesc_t *d)
{
    if (!__builtin_cpu_supports("fma"))
        return d;
#ifdef ISA_HOT_CLONES
    if (__builtin_cpu_supports("avx2"))
        return d;           /* the x86-64-v3 and v4 builds of the handlers have FMA (and wider vectors) */
#endif
    return d == fma_f32 ? fma_f32_hw : d == fma_f64 ? fma_f64_hw : d;
}
#else
static const isa_xdesc_t *fast_fma(const isa_xdesc_t *d) { return d; }
#endif

ISA_H2(div_f32, float, float, float, f32_canon(a / b))
ISA_H1(sqrt_f32, float, float, f32_canon(sqrtf(a)))
ISA_H1(rcp_f32, float, float, f32_canon(1.0f / a))
/* abs and neg of a NaN give the canonical NaN. */
#define F32_NAN(u) (((u) & 0x7fffffffu) > 0x7f800000u)
ISA_H1(abs_f32, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : a & 0x7fffffffu)
ISA_H1(neg_f32, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : a ^ 0x80000000u)
ISA_H1(abs_f32_ftz, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : f32_bits(FZ(f32_of(a))) & 0x7fffffffu)
ISA_H1(neg_f32_ftz, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : f32_bits(FZ(f32_of(a))) ^ 0x80000000u)
ISA_H2(min_f32, float, float, float, f32_min(a, b))
ISA_H2(max_f32, float, float, float, f32_max(a, b))
ISA_H2(min_f32_ftz, float, float, float, f32_min(FZ(a), FZ(b)))
ISA_H2(max_f32_ftz, float, float, float, f32_max(FZ(a), FZ(b)))
/* min/max with .NaN or .xorsign.abs (fp.h's rules, shared with f16 and bf16); aux: max
 * (bit 0), .NaN (1), .xorsign.abs (2), .ftz (3). */
static inline uint32_t f32_minmax_x(uint32_t a, uint32_t b, uint64_t aux)
{
    if (aux & 8) {
        a = f32_bits(FZ(f32_of(a)));
        b = f32_bits(FZ(f32_of(b)));
    }
    return isa_fp_minmax(a, b, 32, 0x7f800000u, aux & 1, aux & 2, aux & 4);
}
ISA_H2(minmax_f32_x, uint32_t, uint32_t, uint32_t, f32_minmax_x(a, b, in->aux))
/* Three sources (sm_100): min(min(a, b), c) by the two-source rules, so two NaNs among
 * them give the third; .abs compares and gives the magnitudes; aux as above with .abs
 * in bit 2. */
static inline uint32_t f32_minmax3(uint32_t a, uint32_t b, uint32_t c, uint64_t aux)
{
    if (aux & 8) {
        a = f32_bits(FZ(f32_of(a)));
        b = f32_bits(FZ(f32_of(b)));
        c = f32_bits(FZ(f32_of(c)));
    }
    if (aux & 4) {
        a &= 0x7fffffffu;
        b &= 0x7fffffffu;
        c &= 0x7fffffffu;
    }
    uint32_t ab = isa_fp_minmax(a, b, 32, 0x7f800000u, aux & 1, aux & 2, false);
    return isa_fp_minmax(ab, c, 32, 0x7f800000u, aux & 1, aux & 2, false);
}
ISA_H3(minmax3_f32, uint32_t, uint32_t, uint32_t, uint32_t, f32_minmax3(a, b, c, in->aux))
ISA_H2(copysign_f32, uint32_t, uint32_t, uint32_t, (b & 0x7fffffffu) | (a & 0x80000000u))

/* f64 add, sub, mul and fma to nearest: the host's results for all 32 lanes (in vectors),
 * then the NaN rule in the lanes whose result is a NaN, if any. */
#define F64_RN_H(NAME, HAS_C, RAW, NAN_RULE)                                                          \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)          \
    {                                                                                        \
        (void)w_;                                                                            \
        double *d = ISA_SLOT(double, f, in->o[0]);                                           \
        const double *pa = ISA_SLOT(const double, f, in->o[1]);                              \
        const double *pb = ISA_SLOT(const double, f, in->o[2]);                              \
        const double *pc = HAS_C ? ISA_SLOT(const double, f, in->o[3]) : pb;                  \
        double res[ISA_LANES];                                                               \
        int nan = 0;                                                                         \
        for (unsigned l = 0; l < ISA_LANES; l++) {                                           \
            double a = pa[l], b = pb[l], c = pc[l];                                          \
            (void)c;                                                                         \
            res[l] = (RAW);                                                                  \
            nan |= res[l] != res[l];                                                         \
        }                                                                                    \
        if (nan)                                                                             \
            for (unsigned l = 0; l < ISA_LANES; l++)                                         \
                if (res[l] != res[l]) {                                                      \
                    double a = pa[l], b = pb[l], c = pc[l], r = res[l];                      \
                    (void)c;                                                                 \
                    res[l] = (NAN_RULE);                                                     \
                }                                                                            \
        if (mask == ISA_FULL)                                                                \
            memcpy(d, res, sizeof res);                                                      \
        else                                                                                 \
            ISA_LANE_LOOP(mask, { d[l] = res[l]; });                                         \
        return ISA_X_NEXT;                                                                   \
    }
F64_RN_H(add_f64, 0, a + b, f64_nan_ba(a, b, r))
ISA_DESC(add_f64, 8, 8, 8)
F64_RN_H(sub_f64, 0, a - b, f64_nan_ba(a, b, r))
ISA_DESC(sub_f64, 8, 8, 8)
F64_RN_H(mul_f64, 0, a * b, f64_nan_ba(a, b, r))
ISA_DESC(mul_f64, 8, 8, 8)
F64_RN_H(fma_f64, 1, fma(a, b, c), f64_nan_bca(a, b, c, r))
ISA_DESC(fma_f64, 8, 8, 8, 8)
ISA_H2(add_f64_sat, double, double, double, f64_sat(a + b))
ISA_H2(sub_f64_sat, double, double, double, f64_sat(a - b))
ISA_H2(mul_f64_sat, double, double, double, f64_sat(a * b))
ISA_H3(fma_f64_sat, double, double, double, double, f64_sat(fma(a, b, c)))
ISA_H2(div_f64, double, double, double, f64_nan_ab(a, b, a / b))
ISA_H1(sqrt_f64, double, double, a != a ? f64_quiet(a) : f64_canon(sqrt(a)))
ISA_H1(rcp_f64, double, double, a != a ? f64_quiet(a) : f64_canon(1.0 / a))
/* abs and neg of an f64 NaN quiet it and keep its sign and payload. */
#define F64_NAN(u) (((u) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
ISA_H1(abs_f64, uint64_t, uint64_t, F64_NAN(a) ? a | 0x0008000000000000ull : a & 0x7fffffffffffffffull)
ISA_H1(neg_f64, uint64_t, uint64_t, F64_NAN(a) ? a | 0x0008000000000000ull : a ^ 0x8000000000000000ull)
ISA_H2(min_f64, double, double, double, f64_min(a, b))
ISA_H2(max_f64, double, double, double, f64_max(a, b))
ISA_H2(copysign_f64, uint64_t, uint64_t, uint64_t, (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull))

/*{=====================================================================
 * Explicit rounding: the directed modes (.rz .rm .rp) of f32 and f64, and f32 .ftz,
 * which flushes a result that is tiny after rounding with an unbounded exponent
 * (isa_fp_tiny; hardware-recorded, tests/golden/fp_ftz_round: mul.rn.ftz(0x00800001,
 * 0x3f7ffffe) is 0x00800000, mul.rn.ftz(2^-126, 1 - 2^-24) is +0).  The exact
 * result is a double hi plus the sign of the remainder lo, from error-free
 * transformations (f32r.h).
 *====================================================================*/
ISA_H2(add_f32_r, float, float, float, f32_add_r(a, b, in->aux))
ISA_H2(sub_f32_r, float, float, float, f32_add_r(a, -b, in->aux))
ISA_H2(mul_f32_r, float, float, float, f32_mul_r(a, b, in->aux))
ISA_H3(fma_f32_r, float, float, float, float, f32_fma_r(a, b, c, in->aux))
ISA_H2(div_f32_r, float, float, float, f32_div_r(a, b, in->aux))
ISA_H1(sqrt_f32_r, float, float, f32_sqrt_r(a, in->aux))
ISA_H1(rcp_f32_r, float, float, f32_div_r(1.0f, a, in->aux))

/* f32 to nearest with .ftz (what --use_fast_math emits everywhere): the host's correctly
 * rounded result of the flushed operands, flushed when below the smallest normal.  The
 * host rounds onto the subnormal grid where .ftz's tininess rounds with an unbounded
 * exponent; the two agree except where the host gives exactly 2^-126 (an exact result
 * just below it may be tiny): those lanes take the explicit-rounding path above.  aux as
 * the explicit-rounding handlers' (the mode is to nearest, .ftz set, .sat maybe). */
#define F32_FTZ_RN(NAME, NSRC, POST, FAST, SLOW)                                                  \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)       \
    {                                                                                            \
        (void)w_;                                                                                \
        float *d = ISA_SLOT(float, f, in->o[0]), t[ISA_LANES];                                   \
        const float *pa = ISA_SLOT(const float, f, in->o[1]);                                    \
        const float *pb = ISA_SLOT(const float, f, in->o[NSRC > 1 ? 2 : 1]);                     \
        const float *pc = ISA_SLOT(const float, f, in->o[NSRC > 2 ? 3 : 1]);                     \
        uint32_t amb[ISA_LANES], any = 0;                                                        \
        ISA_LANE_LOOP(mask, {                                                                    \
            float a = FZ(pa[l]);                                                                 \
            float b = FZ(pb[l]);                                                                 \
            float c = FZ(pc[l]);                                                                 \
            (void)b; (void)c;                                                                    \
            uint32_t u = f32_bits(FAST);                                                         \
            uint32_t mag = u & 0x7fffffffu;                                                      \
            amb[l] = mag == 0x00800000u;                                                         \
            any |= amb[l];                                                                       \
            u = mag < 0x00800000u ? u & 0x80000000u : mag > 0x7f800000u ? 0x7fffffffu : u;       \
            t[l] = POST(f32_of(u));                                                              \
        });                                                                                      \
        for (uint32_t m = any ? mask : 0; m; m &= m - 1) {                                       \
            unsigned l = (unsigned)__builtin_ctz(m);                                             \
            if (!amb[l])                                                                         \
                continue;                                                                        \
            float a = pa[l], b = pb[l], c = pc[l];                                               \
            (void)b; (void)c;                                                                    \
            t[l] = (SLOW);                                                                       \
        }                                                                                        \
        ISA_LANE_LOOP(mask, { d[l] = t[l]; });                                                   \
        return ISA_X_NEXT;                                                                       \
    }                                                                                            \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { 4, 4, NSRC > 1 ? 4 : 0, NSRC > 2 ? 4 : 0 }, 0 } };
#define F32_FTZ_SET(SFX, POST)                                                                    \
    F32_FTZ_RN(add_f32_ftz_rn##SFX, 2, POST, a + b, f32_add_r(a, b, in->aux))                      \
    F32_FTZ_RN(sub_f32_ftz_rn##SFX, 2, POST, a - b, f32_add_r(a, -b, in->aux))                     \
    F32_FTZ_RN(mul_f32_ftz_rn##SFX, 2, POST, a * b, f32_mul_r(a, b, in->aux))                      \
    F32_FTZ_RN(fma_f32_ftz_rn##SFX, 3, POST, fmaf(a, b, c), f32_fma_r(a, b, c, in->aux))
F32_FTZ_SET(, ID)
F32_FTZ_SET(_sat, f32_sat)
F32_FTZ_RN(div_f32_ftz_rn, 2, ID, a / b, f32_div_r(a, b, in->aux))
F32_FTZ_RN(sqrt_f32_ftz_rn, 1, ID, sqrtf(a), f32_sqrt_r(a, in->aux))
F32_FTZ_RN(rcp_f32_ftz_rn, 1, ID, 1.0f / a, f32_div_r(1.0f, a, in->aux))

/* add, sub, mul and fma of f32 toward zero, down or up without .ftz (expf's range
 * reduction is an fma.rm.f32): the exact result as a double hi plus the remainder lo
 * (f32 products are exact in double; two_sum), rounded by f32_directed's rule written as
 * selects over the lanes, so that the loop vectorises; zeros and NaNs as f32_finish.
 * aux as the explicit-rounding handlers'. */
static inline __attribute__((always_inline)) uint32_t dir_round(double x, double y, double hi, double lo, bool m_dn, bool m_up, bool m_z)
{
    float r = (float)hi;
    double rd = r;
    bool above = rd > hi || (rd == hi && lo < 0);
    bool below = rd < hi || (rd == hi && lo > 0);
    bool dn = m_dn ? above : m_z && hi > 0 && above;
    bool up = m_up ? below : m_z && hi < 0 && below;
    uint32_t u = f32_bits(r), z = (u & 0x7fffffffu) == 0, ng = u >> 31;
    uint32_t udn = z ? 0x80000001u : ng ? u + 1 : u - 1;
    uint32_t uup = z ? 0x00000001u : ng ? u - 1 : u + 1;
    u = dn ? udn : up ? uup : u;
    /* an exact zero: two zeros of one sign keep it, else -0 down and +0 otherwise */
    uint32_t zs = (x == 0 && y == 0 && !((f64_bits(x) ^ f64_bits(y)) >> 63)) ? f32_bits((float)x)
                  : m_dn ? 0x80000000u : 0u;
    u = hi == 0 ? zs : u;
    return hi != hi ? 0x7fffffffu : u;
}
static inline __attribute__((always_inline)) uint32_t dir_add(double x, double y, bool m_dn, bool m_up, bool m_z)
{
    double hi = x + y, bb = hi - x, lo = (x - (hi - bb)) + (y - bb);   /* two_sum */
    return dir_round(x, y, hi, lo, m_dn, m_up, m_z);
}
static inline __attribute__((always_inline)) uint32_t dir_mul(double a, double b, bool m_dn, bool m_up, bool m_z)
{
    double p = a * b;                     /* exact: 24-bit by 24-bit */
    return dir_round(p, p, p, 0, m_dn, m_up, m_z);
}
#define F32_DIR(NAME, NSRC, POST, EXPR, MODE)                                                    \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)       \
    {                                                                                            \
        (void)w_;                                                                                \
        float *d = ISA_SLOT(float, f, in->o[0]);                                                 \
        const float *pa = ISA_SLOT(const float, f, in->o[1]);                                    \
        const float *pb = ISA_SLOT(const float, f, in->o[2]);                                    \
        const float *pc = ISA_SLOT(const float, f, in->o[NSRC > 2 ? 3 : 1]);                     \
        const bool m_dn = MODE == ISA_RND_M, m_up = MODE == ISA_RND_P, m_z = MODE == ISA_RND_Z;  \
        ISA_LANE_LOOP(mask, {                                                                    \
            double a = pa[l];                                                                    \
            double b = pb[l];                                                                    \
            double c = pc[l];                                                                    \
            (void)c;                                                                             \
            d[l] = POST(f32_of(EXPR));                                                           \
        });                                                                                      \
        return ISA_X_NEXT;                                                                       \
    }                                                                                            \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { 4, 4, 4, NSRC > 2 ? 4 : 0 }, 0 } };
#define DIR_SET(SFX, POST, MODE)                                                                  \
    F32_DIR(add_f32_dir##SFX, 2, POST, dir_add(a, b, m_dn, m_up, m_z), MODE)                      \
    F32_DIR(sub_f32_dir##SFX, 2, POST, dir_add(a, -b, m_dn, m_up, m_z), MODE)                     \
    F32_DIR(mul_f32_dir##SFX, 2, POST, dir_mul(a, b, m_dn, m_up, m_z), MODE)                      \
    F32_DIR(fma_f32_dir##SFX, 3, POST, dir_add(a * b, c, m_dn, m_up, m_z), MODE)
DIR_SET(_z, ID, ISA_RND_Z)
DIR_SET(_z_sat, f32_sat, ISA_RND_Z)
DIR_SET(_m, ID, ISA_RND_M)
DIR_SET(_m_sat, f32_sat, ISA_RND_M)
DIR_SET(_p, ID, ISA_RND_P)
DIR_SET(_p_sat, f32_sat, ISA_RND_P)

static const isa_xdesc_t *dir_select(isa_op_t op, bool sat, int mode)
{
#define DIR_PICK(OP) (mode == ISA_RND_Z ? (sat ? OP##_f32_dir_z_sat : OP##_f32_dir_z)           \
                      : mode == ISA_RND_M ? (sat ? OP##_f32_dir_m_sat : OP##_f32_dir_m)         \
                      : mode == ISA_RND_P ? (sat ? OP##_f32_dir_p_sat : OP##_f32_dir_p) : NULL)
    switch (op) {
    case ISA_OP_ADD: return DIR_PICK(add);
    case ISA_OP_SUB: return DIR_PICK(sub);
    case ISA_OP_MUL: return DIR_PICK(mul);
    case ISA_OP_FMA: case ISA_OP_MAD: return DIR_PICK(fma);
    default: return NULL;
    }
#undef DIR_PICK
}

static const isa_xdesc_t *ftz_rn_select(isa_op_t op, bool sat)
{
    switch (op) {
    case ISA_OP_ADD: return sat ? add_f32_ftz_rn_sat : add_f32_ftz_rn;
    case ISA_OP_SUB: return sat ? sub_f32_ftz_rn_sat : sub_f32_ftz_rn;
    case ISA_OP_MUL: return sat ? mul_f32_ftz_rn_sat : mul_f32_ftz_rn;
    case ISA_OP_FMA: case ISA_OP_MAD: return sat ? fma_f32_ftz_rn_sat : fma_f32_ftz_rn;
    case ISA_OP_DIV: return sat ? NULL : div_f32_ftz_rn;
    case ISA_OP_SQRT: return sat ? NULL : sqrt_f32_ftz_rn;
    case ISA_OP_RCP: return sat ? NULL : rcp_f32_ftz_rn;
    default: return NULL;
    }
}

/* f64: operands below 2^-900 are scaled up by 2^200 and results below 2^-969 by 2^128
 * more (the total scale k), so that every remainder is exact; the scaled result is then
 * rounded on the grid of the scaled format and scaled back, exactly. */
#define F64_SMALL 0x1p-900
#define F64_TINY  0x1p-969
static inline double f64_scaled(double hs, double ls, int k, int mode)
{
    return ldexp(isa_fp_round(hs, ls, -1022 + k, 1023 + k, 52, mode), -k);
}
/* A nonzero result below half the smallest subnormal, of sign neg, in a mode. */
static inline double f64_deep(bool neg, int mode)
{
    if (mode == ISA_RND_M && neg)
        return -0x1p-1074;
    if (mode == ISA_RND_P && !neg)
        return 0x1p-1074;
    return neg ? -0.0 : 0.0;
}
static inline double up_small(double x, int *k, int by)
{
    if (x != 0 && fabs(x) < F64_SMALL) {
        *k += by;
        return ldexp(x, 200);
    }
    return x;
}
static inline double f64_add_r(double a, double b, int mode)
{
    double lo, hi = two_sum(a, b, &lo);
    if (hi != hi)
        return f64_nan_ba(a, b, hi);
    if (isinf(hi))
        return isinf(a) || isinf(b) ? hi : isa_f64_overflow(hi, mode);
    if (hi == 0 && lo == 0)
        return zero_sum(a, b, mode);
    return isa_f64_direct(hi, lo, mode);        /* sums in the subnormal range are exact */
}
static inline double f64_mul_r(double a, double b, int mode)
{
    double hi = a * b;
    if (hi != hi)
        return f64_nan_ba(a, b, hi);
    if (isinf(hi) && (isinf(a) || isinf(b)))
        return hi;
    if (a == 0 || b == 0)
        return hi;
    if (ilogb(a) + ilogb(b) + 2 <= -1075)
        return f64_deep(signbit(a) != signbit(b), mode);
    int k = 0;
    a = up_small(a, &k, 200);
    b = up_small(b, &k, 200);
    double hs = a * b;
    if (fabs(hs) < F64_TINY) {
        a = ldexp(a, 128);
        k += 128;
        hs = a * b;
    }
    if (isinf(hs))
        return isa_f64_overflow(hs, mode);
    return f64_scaled(hs, fma(a, b, -hs), k, mode);
}
/* The sign of fma(a, b, c) - hi (ErrFma, Boldo and Muller). */
static inline double fma_rem(double a, double b, double c, double hi)
{
    double u1 = a * b, u2 = fma(a, b, -u1), z, b2;
    double a1 = two_sum(c, u2, &z);
    double b1 = two_sum(u1, a1, &b2);
    return ((b1 - hi) + b2) + z;
}
static inline double f64_fma_r(double a, double b, double c, int mode)
{
    double hi = fma(a, b, c);
    if (hi != hi)
        return f64_nan_bca(a, b, c, hi);
    if (isinf(a) || isinf(b) || isinf(c))
        return hi;
    if (a == 0 || b == 0) {
        double p = a * b;
        return c == 0 ? zero_sum(p, c, mode) : c;
    }
    if (ilogb(a) + ilogb(b) + 2 <= -1075) {
        bool neg = signbit(a) != signbit(b);
        return c == 0 ? f64_deep(neg, mode) : isa_f64_direct(c, neg ? -1.0 : 1.0, mode);
    }
    int k = 0;
    a = up_small(a, &k, 200);
    b = up_small(b, &k, 200);
    /* A product below the range's bottom from larger factors (2^-538 * 2^-538): the
     * smaller factor is scaled until the product is above 2^-900, so that the remainder
     * keeps its sign (fma.rz.f64 of 0x1e526db240e48850, 0x9e51005cba1fa428 and a large c
     * is c less one ulp). */
    while (ilogb(a) + ilogb(b) < -900) {
        if (fabs(a) <= fabs(b))
            a = ldexp(a, 200);
        else
            b = ldexp(b, 200);
        k += 200;
    }
    if (k) {
        /* The scaled product is below 2^-700, so below 2^(-700-k) unscaled: far below
         * the last bit of a c of 2^(900-k) or more. */
        if (fabs(c) >= ldexp(1.0, 900 - k))
            return isa_f64_direct(c, signbit(a) != signbit(b) ? -1.0 : 1.0, mode);
        c = ldexp(c, k);
    }
    if (isinf(a * b)) {             /* a finite result past an overflowing product */
        a = ldexp(a, -128);
        c = ldexp(c, -128);
        k -= 128;
    }
    double hs = fma(a, b, c);
    if (fabs(hs) < F64_TINY && fabs(a * b) < 0x1p895) {
        /* Only for a product below 2^895: with a larger one the exact result is 0 or
         * above 2^-969, so here it is 0, and the scaled product would overflow (fma.rz.f64
         * of -96, 0x7cf3d9d58f9f9fb2, 0x7d5dc6c0576f6f8b is +0: random chunk 12).  The
         * smaller factor takes the scale, so that neither overflows (fma.rz.f64 of 2^1023,
         * the subnormal 2^-1023 and -1 is +0: the larger one scaled was an infinity). */
        if (fabs(a) <= fabs(b))
            a = ldexp(a, 128);
        else
            b = ldexp(b, 128);
        c = ldexp(c, 128);
        k += 128;
        hs = fma(a, b, c);
    }
    if (isinf(hs))
        return isa_f64_overflow(hs, mode);
    double lo = fma_rem(a, b, c, hs);
    if (hs == 0 && lo == 0)
        return zero_sum(a * b, c, mode);
    if (hs == 0)
        return f64_scaled(lo, 0, k, mode);
    return f64_scaled(hs, lo, k, mode);
}
static inline double f64_div_r(double a, double b, int mode)
{
    double hi = a / b;
    if (hi != hi)
        return f64_nan_ab(a, b, hi);
    if (isinf(a) || isinf(b) || a == 0 || b == 0)
        return hi;
    if (ilogb(a) - ilogb(b) + 1 <= -1075)
        return f64_deep(signbit(a) != signbit(b), mode);
    int k = 0;
    a = up_small(a, &k, 200);
    b = up_small(b, &k, -200);
    double hs = a / b;
    if (fabs(hs) < F64_TINY) {
        a = ldexp(a, 128);
        k += 128;
        hs = a / b;
    }
    if (isinf(hs))
        return isa_f64_overflow(hs, mode);
    double r = fma(-hs, b, a);
    return f64_scaled(hs, b < 0 ? -r : r, k, mode);
}
static inline double f64_sqrt_r(double a, int mode)
{
    if (a != a)
        return f64_quiet(a);
    double hi = sqrt(a);
    if (!isfinite(hi) || hi <= 0)
        return f64_canon(hi);
    if (a < F64_SMALL) {            /* sqrt(a * 2^200) = sqrt(a) * 2^100, a normal result */
        double as = ldexp(a, 200), hs = sqrt(as);
        return ldexp(isa_f64_direct(hs, fma(-hs, hs, as), mode), -100);
    }
    return isa_f64_direct(hi, fma(-hi, hi, a), mode);
}
static inline double f64_rcp_r(double a, int mode)
{
    return a != a ? f64_quiet(a) : f64_div_r(1.0, a, mode);
}
ISA_H2(add_f64_r, double, double, double, f64_add_r(a, b, AUX_MODE(in->aux)))
ISA_H2(sub_f64_r, double, double, double, f64_add_r(a, b != b ? b : -b, AUX_MODE(in->aux)))
ISA_H2(mul_f64_r, double, double, double, f64_mul_r(a, b, AUX_MODE(in->aux)))
ISA_H3(fma_f64_r, double, double, double, double, f64_fma_r(a, b, c, AUX_MODE(in->aux)))
ISA_H2(div_f64_r, double, double, double, f64_div_r(a, b, AUX_MODE(in->aux)))
ISA_H1(sqrt_f64_r, double, double, f64_sqrt_r(a, AUX_MODE(in->aux)))
ISA_H1(rcp_f64_r, double, double, f64_rcp_r(a, AUX_MODE(in->aux)))

/* The explicit-rounding handler of an f32 or f64 operation, or NULL. */
static const isa_xdesc_t *rounded_select(isa_op_t op, bool f64)
{
    switch (op) {
    case ISA_OP_ADD: return f64 ? add_f64_r : add_f32_r;
    case ISA_OP_SUB: return f64 ? sub_f64_r : sub_f32_r;
    case ISA_OP_MUL: return f64 ? mul_f64_r : mul_f32_r;
    case ISA_OP_FMA: case ISA_OP_MAD: return f64 ? fma_f64_r : fma_f32_r;
    case ISA_OP_DIV: return f64 ? div_f64_r : div_f32_r;
    case ISA_OP_SQRT: return f64 ? sqrt_f64_r : sqrt_f32_r;
    case ISA_OP_RCP: return f64 ? rcp_f64_r : rcp_f32_r;
    default: return NULL;
    }
}
/*}=====================================================================*/

/* testp: a predicate per lane from the operand's class, on its bits (no flushing).
 * .normal is true for zeros too (hardware-recorded): finite and not subnormal. */
#define TESTP(NAME, U, EXPR)                                                                     \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)              \
    {                                                                                            \
        (void)w_;                                                                                \
        const U *pa = ISA_SLOT(const U, f, in->o[1]);                                            \
        uint32_t bits = 0;                                                                       \
        for (unsigned l = 0; l < ISA_LANES; l++) {                                               \
            U a = pa[l];                                                                         \
            bits |= (uint32_t)(EXPR) << l;                                                       \
        }                                                                                        \
        return isa_pred_write(f, in, bits, mask);                                                \
    }                                                                                            \
    ISA_DESC(NAME, ISA_W_PRED, sizeof(U))
#define TESTP_SET(W, U, EXPMASK, SIGN)                                                           \
    TESTP(testp_finite_##W, U, (a & EXPMASK) != EXPMASK)                                         \
    TESTP(testp_infinite_##W, U, (a & ~SIGN) == EXPMASK)                                         \
    TESTP(testp_number_##W, U, (a & ~SIGN) <= EXPMASK)                                           \
    TESTP(testp_notanumber_##W, U, (a & ~SIGN) > EXPMASK)                                        \
    TESTP(testp_normal_##W, U, (a & EXPMASK) != EXPMASK && ((a & EXPMASK) != 0 || (a & ~SIGN) == 0))                   \
    TESTP(testp_subnormal_##W, U, (a & EXPMASK) == 0 && (a & ~SIGN) != 0)
TESTP_SET(32, uint32_t, 0x7f800000u, 0x80000000u)
TESTP_SET(64, uint64_t, 0x7ff0000000000000ull, 0x8000000000000000ull)

static const isa_xdesc_t *testp_select(const isa_instr_t *in, bool f64)
{
    switch (isa_instr_mod(in, ISA_G_MODE)) {
    case ISA_M_FINITE:     return f64 ? testp_finite_64 : testp_finite_32;
    case ISA_M_INFINITE:   return f64 ? testp_infinite_64 : testp_infinite_32;
    case ISA_M_NUMBER:     return f64 ? testp_number_64 : testp_number_32;
    case ISA_M_NOTANUMBER: return f64 ? testp_notanumber_64 : testp_notanumber_32;
    case ISA_M_NORMAL:     return f64 ? testp_normal_64 : testp_normal_32;
    case ISA_M_SUBNORMAL:  return f64 ? testp_subnormal_64 : testp_subnormal_32;
    default:               return NULL;
    }
}

/* An f32 handler without .ftz (those take the explicit-rounding ones), by .sat. */
#define PICK2(op) (sat ? op##_f32_sat : op##_f32)

bool isa_sem_fp(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (isa_sem_half(in, x) || isa_sem_fp_wide(in, x))  /* half.c, fp_wide.c */
        return true;
    if (in->ntypes != 1)
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    int rnd = isa_instr_mod(in, ISA_G_ROUND);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) >= 0, sat = isa_instr_mod(in, ISA_G_SAT) >= 0;
    if (in->op == ISA_OP_TESTP) {
        if (in->nsfx != 2 || (t != ISA_T_F32 && t != ISA_T_F64))
            return false;
        x->desc = testp_select(in, t == ISA_T_F64);
        return x->desc != NULL;
    }
    if (isa_instr_mod(in, ISA_G_PREC) >= 0)     /* .approx, .full: fp_approx.c */
        return isa_sem_fp_approx(in, x);
    bool nan = isa_instr_mod(in, ISA_G_NAN) >= 0, xs = isa_instr_mod(in, ISA_G_XORSIGN) >= 0;
    if ((in->op == ISA_OP_MIN || in->op == ISA_OP_MAX) && in->nopd == 4) {
        bool abs = isa_instr_mod(in, ISA_G_ABSMOD) >= 0;
        if (t != ISA_T_F32 || xs || sat || rnd >= 0 || in->nsfx != 1u + ftz + nan + abs)
            return false;
        x->desc = minmax3_f32;
        x->aux = (uint64_t)(in->op == ISA_OP_MAX) | (uint64_t)nan << 1 | (uint64_t)abs << 2 | (uint64_t)ftz << 3;
        return true;
    }
    if (nan || xs) {            /* f32 min/max .NaN, .xorsign.abs */
        bool abs = isa_instr_mod(in, ISA_G_ABSMOD) >= 0, max = in->op == ISA_OP_MAX;
        if ((in->op != ISA_OP_MIN && !max) || t != ISA_T_F32 || in->nopd != 3 || xs != abs ||
            in->nsfx != 1u + ftz + nan + xs + abs)
            return false;
        x->desc = minmax_f32_x;
        x->aux = (uint64_t)max | (uint64_t)nan << 1 | (uint64_t)xs << 2 | (uint64_t)ftz << 3;
        return true;
    }
    /* Every suffix must be understood: type, rounding, .ftz, .sat. */
    unsigned known = 1 + (rnd >= 0) + ftz + sat;
    if (in->nsfx != known)
        return false;
    int mode = rnd == ISA_M_RZ ? ISA_RND_Z : rnd == ISA_M_RM ? ISA_RND_M : rnd == ISA_M_RP ? ISA_RND_P
             : rnd < 0 || rnd == ISA_M_RN ? ISA_RND_N : -1;
    if (mode < 0)
        return false;
    x->desc = NULL;
    /* Directed modes, and f32 .ftz results of operations that can round up to the
     * smallest normal, take the explicit-rounding handlers (f32 .ftz to nearest through
     * the host's result, ftz_rn_select, and those only where it is 2^-126); so does
     * rcp.rnd.ftz.f64, whose
     * .ftz changes nothing (hardware-recorded: rcp.rn.ftz.f64 of -0x000fffffffffffff is
     * 0xffd0000000000001, of 0x7fefffffffffffff the subnormal 0x0004000000000000). */
    bool f32 = t == ISA_T_F32, f64 = t == ISA_T_F64;
    bool round_op = in->op == ISA_OP_ADD || in->op == ISA_OP_SUB || in->op == ISA_OP_MUL ||
                    in->op == ISA_OP_FMA || in->op == ISA_OP_MAD || in->op == ISA_OP_DIV ||
                    in->op == ISA_OP_SQRT || in->op == ISA_OP_RCP;
    if (round_op && ((f32 && (mode != ISA_RND_N || ftz)) || (f64 && mode != ISA_RND_N && !sat && !ftz) ||
                     (f64 && ftz && in->op == ISA_OP_RCP))) {
        if ((in->op == ISA_OP_DIV || in->op == ISA_OP_SQRT || in->op == ISA_OP_RCP) && (sat || rnd < 0))
            return false;
        if ((in->op == ISA_OP_FMA || in->op == ISA_OP_MAD) && rnd < 0)
            return false;
        x->desc = f32 && mode == ISA_RND_N ? ftz_rn_select((isa_op_t)in->op, sat)
                  : f32 && !ftz && dir_select((isa_op_t)in->op, sat, mode) ? dir_select((isa_op_t)in->op, sat, mode)
                  : rounded_select((isa_op_t)in->op, f64);
        x->aux = (uint64_t)mode | (uint64_t)ftz << 4 | (uint64_t)sat << 5;
        return x->desc != NULL;
    }
    if (t == ISA_T_F32) {
        switch ((isa_op_t)in->op) {
        case ISA_OP_ADD: x->desc = PICK2(add); break;
        case ISA_OP_SUB: x->desc = PICK2(sub); break;
        case ISA_OP_MUL: x->desc = PICK2(mul); break;
        case ISA_OP_FMA:
        case ISA_OP_MAD: x->desc = rnd == ISA_M_RN ? fast_fma(PICK2(fma)) : NULL; break;
        case ISA_OP_DIV: x->desc = rnd == ISA_M_RN && !sat ? div_f32 : NULL; break;
        case ISA_OP_SQRT: x->desc = rnd == ISA_M_RN && !sat ? sqrt_f32 : NULL; break;
        case ISA_OP_RCP: x->desc = rnd == ISA_M_RN && !sat ? rcp_f32 : NULL; break;
        case ISA_OP_ABS: x->desc = !sat ? (ftz ? abs_f32_ftz : abs_f32) : NULL; break;
        case ISA_OP_NEG: x->desc = !sat ? (ftz ? neg_f32_ftz : neg_f32) : NULL; break;
        case ISA_OP_MIN: x->desc = !sat && in->nopd == 3 ? (ftz ? min_f32_ftz : min_f32) : NULL; break;
        case ISA_OP_MAX: x->desc = !sat && in->nopd == 3 ? (ftz ? max_f32_ftz : max_f32) : NULL; break;
        case ISA_OP_COPYSIGN: x->desc = copysign_f32; break;
        default: break;
        }
    } else if (t == ISA_T_F64 && !ftz) {
        switch ((isa_op_t)in->op) {
        case ISA_OP_ADD: x->desc = sat ? add_f64_sat : add_f64; break;
        case ISA_OP_SUB: x->desc = sat ? sub_f64_sat : sub_f64; break;
        case ISA_OP_MUL: x->desc = sat ? mul_f64_sat : mul_f64; break;
        case ISA_OP_FMA:
        case ISA_OP_MAD: x->desc = rnd == ISA_M_RN ? (sat ? fma_f64_sat : fast_fma(fma_f64)) : NULL; break;
        case ISA_OP_DIV: x->desc = rnd == ISA_M_RN && !sat ? div_f64 : NULL; break;
        case ISA_OP_SQRT: x->desc = rnd == ISA_M_RN && !sat ? sqrt_f64 : NULL; break;
        case ISA_OP_RCP: x->desc = rnd == ISA_M_RN && !sat ? rcp_f64 : NULL; break;
        case ISA_OP_ABS: x->desc = !sat ? abs_f64 : NULL; break;
        case ISA_OP_NEG: x->desc = !sat ? neg_f64 : NULL; break;
        case ISA_OP_MIN: x->desc = !sat && in->nopd == 3 ? min_f64 : NULL; break;
        case ISA_OP_MAX: x->desc = !sat && in->nopd == 3 ? max_f64 : NULL; break;
        case ISA_OP_COPYSIGN: x->desc = copysign_f64; break;
        default: break;
        }
    }
    return x->desc != NULL;
}
