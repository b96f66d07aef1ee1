/* mufu.h: the GPU's multi-function unit (MUFU) as recorded from an H100 (and one table of
 * the texture unit).
 *
 * Each function is a table of the unit's results over one binade (or two) of inputs,
 * recorded whole (tests/mufu/); the unit's other results follow from these by the
 * exponent, which isa/sem/fp_approx.c applies.  The tables are compressed into the
 * library and expanded on first use. */
#ifndef PTXEMU_ISA_SEM_MUFU_H
#define PTXEMU_ISA_SEM_MUFU_H

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "isa/sem/fp.h"

typedef enum {
    ISA_MUFU_RCP,    /* MUFU.RCP   of 0x3f800000 + i, i < 2^23 ([1,2)) */
    ISA_MUFU_RSQ,    /* MUFU.RSQ   of 0x3f800000 + i, i < 2^24 ([1,4)) */
    ISA_MUFU_SQRT,   /* MUFU.SQRT  of 0x3f800000 + i, i < 2^24 ([1,4)) */
    ISA_MUFU_LG2,    /* MUFU.LG2   of 0x3f800000 + i, i < 2^23 ([1,2)) */
    ISA_MUFU_LG2M,   /* MUFU.LG2   of 0x3f000000 + i, i < 2^23 ([0.5,1)) */
    ISA_MUFU_EX2,    /* MUFU.EX2   of i * 2^-23,      i < 2^23 ([0,1)) */
    ISA_MUFU_SIN,    /* MUFU.SIN   of the turn i * 2^-25, i < 2^23 (the first quadrant) */
    ISA_MUFU_COS,    /* MUFU.COS   likewise */
    ISA_MUFU_H16,    /* 4 * h + k: k = 0 ex2.approx.f16, 1 ex2.approx.ftz.bf16,
                      * 2 tanh.approx.f16, 3 tanh.approx.bf16 of the 16-bit h */
    ISA_MUFU_RCP64H, /* MUFU.RCP64H of the high word 0x3ff00000 + i, i < 2^20 */
    ISA_MUFU_RSQ64H, /* MUFU.RSQ64H of the high word 0x3ff00000 + i, i < 2^21 */
    ISA_MUFU_TANH,   /* MUFU.TANH of the binades [2^-8,2^-7) .. [4,8) one after the other,
                      * one entry per run of inputs with one result (fp_approx.c) */
    ISA_MUFU_TEX_S8, /* not the MUFU: the texture unit's linear filter of s8 normalized
                      * texels, q (the result is q / 32767) of the sum S of the texels
                      * times their weights in 1/256 (-32768 <= S <= 32512), at S + 32768 */
    ISA_MUFU_TEX_SRGB, /* the texture unit's sRGB linear filter: at lo * 256 + hi (8-bit
                      * values, lo's linear value below hi's), 1 where lo counts one step
                      * lower than its value cut to 8 bits of hi's (exec/tex/sample.c) */
    ISA_MUFU_NTABLES
} isa_mufu_table_t;

/* An expanded table: blocks of 16 entries, each a base and signed byte offsets from it,
 * or (where the entries spread further) 16 whole entries in wide[]. */
#define ISA_MUFU_NARROW UINT32_MAX
typedef struct {
    uint32_t base, wide;            /* wide: index of the block's first entry in wide[] */
} isa_mufu_block_t;
typedef struct {
    uint32_t n;
    const isa_mufu_block_t *blk;
    const int8_t *off;
    const uint32_t *wide;
    const uint8_t *res;             /* a predicted table (isa_mufu_predict): the unit's result
                                     * minus the prediction, -2..1, two bits an entry (blk,
                                     * off and wide are then NULL); else NULL */
} isa_mufu_tab_t;

extern const isa_mufu_tab_t *_Atomic isa_mufu_tabs[ISA_MUFU_NTABLES];
const isa_mufu_tab_t *isa_mufu_expand(isa_mufu_table_t t);

/* The tables of MUFU.RCP, .RSQ and .SQRT are within -2..1 ulp of the correctly rounded
 * function (measured over all of them, isa_mufu_expand checks it): they are kept as that
 * prediction plus a 2-bit residual, a quarter of a byte an entry, so that a warp's
 * lookups mostly hit the host's caches (RCP: 2 MiB instead of 12).  The prediction is
 * IEEE arithmetic, the same on every host and in every build.  true for those tables. */
static inline bool isa_mufu_predicted(isa_mufu_table_t t)
{
    return t == ISA_MUFU_RCP || t == ISA_MUFU_RSQ || t == ISA_MUFU_SQRT;
}
static inline uint32_t isa_mufu_predict(isa_mufu_table_t t, uint32_t i)
{
    float x = f32_of(0x3f800000u + i);
    switch (t) {
    case ISA_MUFU_RCP: return f32_bits(1.0f / x);
    case ISA_MUFU_RSQ: return f32_bits((float)(1.0 / sqrt((double)x)));
    default:           return f32_bits(sqrtf(x));
    }
}

/* Entry i of a table (i below its size); the table is expanded on first use. */
static inline __attribute__((always_inline)) uint32_t isa_mufu_get(isa_mufu_table_t t, uint32_t i)
{
    const isa_mufu_tab_t *tab = atomic_load_explicit(&isa_mufu_tabs[t], memory_order_acquire);
    if (!tab)
        tab = isa_mufu_expand(t);
    if (isa_mufu_predicted(t)) {
        int32_t r = (int32_t)(tab->res[i >> 2] >> ((i & 3) * 2) & 3);
        return isa_mufu_predict(t, i) + (uint32_t)(r >= 2 ? r - 4 : r);
    }
    const isa_mufu_block_t *b = &tab->blk[i >> 4];
    if (b->wide != ISA_MUFU_NARROW)
        return tab->wide[b->wide + (i & 15)];
    return b->base + (uint32_t)(int32_t)tab->off[i];
}

/* Ask for entry i of table t (expanded already) to be brought into the cache: a warp's
 * lanes look up far apart in tables of up to 24 MiB, and asking for all of them before
 * using any lets their misses overlap (twice as fast on random inputs). */
static inline __attribute__((always_inline)) void isa_mufu_prefetch(isa_mufu_table_t t, uint32_t i)
{
    const isa_mufu_tab_t *tab = atomic_load_explicit(&isa_mufu_tabs[t], memory_order_acquire);
    if (tab && i < tab->n) {
        if (tab->res) {
            __builtin_prefetch(&tab->res[i >> 2]);
            return;
        }
        __builtin_prefetch(&tab->blk[i >> 4]);
        __builtin_prefetch(&tab->off[i]);
    }
}
/* The entry the unit's function of f32 bits u reads (rcp; rsqrt and sqrt; lg2). */
static inline void isa_mufu_prefetch_rcp(uint32_t u) { isa_mufu_prefetch(ISA_MUFU_RCP, u & 0x7fffffu); }
static inline void isa_mufu_prefetch_root(uint32_t u, bool sq)
{
    isa_mufu_prefetch(sq ? ISA_MUFU_SQRT : ISA_MUFU_RSQ, ((u >> 23) & 1u) == 0 ? (1u << 23 | (u & 0x7fffffu))
                                                                         : (u & 0x7fffffu));
}
static inline void isa_mufu_prefetch_lg2(uint32_t u)
{
    isa_mufu_prefetch(((u >> 23) & 0xffu) >= 127 ? ISA_MUFU_LG2 : ISA_MUFU_LG2M, u & 0x7fffffu);
}

static inline __attribute__((always_inline)) void isa_mufu_prefetch_ex2(uint32_t u)
{
    uint32_t e = (u >> 23) & 0xffu;
    float x = f32_of(u);
    if (e == 255 || e == 0 || x >= 128 || x <= -256)
        return;
    int64_t a = (int64_t)(fabsf(x) * 0x1p23f), k = x >= 0 ? a : (a & 0x7fffff) ? ~a : -a;
    isa_mufu_prefetch(ISA_MUFU_EX2, (uint32_t)(k & 0x7fffff));
}

/* The unit (MUFU.RCP, RSQ, SQRT, LG2, EX2) on f32 bit patterns: subnormal operands and
 * results are zeros, a NaN gives 0x7fffffff. */
#define ISA_MUFU_EXP(u)  ((u) >> 23 & 0xffu)
#define ISA_MUFU_SIGN(u) ((u) & 0x80000000u)
#define ISA_MUFU_QNAN    0x7fffffffu
/* The table entry t scaled by 2^k; a result below the normal range is a zero of sign s,
 * above it an infinity. */
static inline uint32_t isa_mufu_scale(uint32_t t, int k, uint32_t s)
{
    int e = (int)ISA_MUFU_EXP(t) + k;
    if (e <= 0)
        return s;
    if (e >= 255)
        return s | 0x7f800000u;
    return s | (uint32_t)e << 23 | (t & 0x7fffffu);
}
static inline uint32_t isa_mufu_rcp(uint32_t u)
{
    uint32_t s = ISA_MUFU_SIGN(u), e = ISA_MUFU_EXP(u), m = u & 0x7fffffu;
    if (e == 255)
        return m ? ISA_MUFU_QNAN : s;
    if (e == 0)
        return s | 0x7f800000u;
    return isa_mufu_scale(isa_mufu_get(ISA_MUFU_RCP, m), 127 - (int)e, s);
}
/* rsqrt and sqrt: the table covers [1,4), the exponent's parity choosing the half. */
static inline uint32_t isa_mufu_root(uint32_t u, bool sq)
{
    uint32_t s = ISA_MUFU_SIGN(u), e = ISA_MUFU_EXP(u), m = u & 0x7fffffu;
    if (e == 255 && m)
        return ISA_MUFU_QNAN;
    if (e == 0)
        return s | (sq ? 0 : 0x7f800000u);
    if (s)
        return ISA_MUFU_QNAN;
    if (e == 255)
        return sq ? 0x7f800000u : 0;
    int n = (int)e - 127, odd = n & 1, h = (n - odd) / 2;
    uint32_t t = isa_mufu_get(sq ? ISA_MUFU_SQRT : ISA_MUFU_RSQ, (uint32_t)odd << 23 | m);
    return isa_mufu_scale(t, sq ? h : -h, 0);
}
/* lg2 of m * 2^n: n + log2(m) rounded toward zero.  The table of [1,2) gives it for
 * n >= 0; that of [0.5,1), n - 1 + log2(m) rounded toward zero, holds the unit's
 * finer bits for n < 0, where the sum's magnitude is |n| - log2(m). */
static inline __attribute__((always_inline)) uint32_t isa_mufu_lg2(uint32_t u)
{
    uint32_t e = ISA_MUFU_EXP(u), m = u & 0x7fffffu;
    if (e == 255 && m)
        return ISA_MUFU_QNAN;
    if (e == 0)
        return 0xff800000u;
    if (ISA_MUFU_SIGN(u))
        return ISA_MUFU_QNAN;
    if (e == 255)
        return 0x7f800000u;
    int n = (int)e - 127;
    double v = n >= 0 ? n + (double)f32_of(isa_mufu_get(ISA_MUFU_LG2, m))
                      : (n + 1) + (double)f32_of(isa_mufu_get(ISA_MUFU_LG2M, m));  /* exact */
    /* rounded toward zero: the nearest float, one step toward zero when it lies beyond v
     * (|v| <= 128: never an infinity; a nonzero float's magnitude is one below in its bits) */
    uint32_t r = f32_bits((float)v);
    return fabs((double)f32_of(r)) > fabs(v) ? r - 1 : r;
}
/* ex2 of x: x in fixed point with 23 fraction bits, its magnitude truncated; a negative
 * one is complemented (-a - 1), unless its fraction is zero (-a): the integer part scales
 * the table's entry for the fraction. */
static inline uint32_t isa_mufu_ex2(uint32_t u)
{
    uint32_t e = ISA_MUFU_EXP(u), m = u & 0x7fffffu;
    if (e == 255)
        return m ? ISA_MUFU_QNAN : ISA_MUFU_SIGN(u) ? 0 : 0x7f800000u;
    if (e == 0)
        return 0x3f800000u;
    double x = f32_of(u);
    if (x >= 128)
        return 0x7f800000u;
    if (x <= -256)
        return 0;
    int64_t a = (int64_t)floor(fabs(x) * 0x1p23), k = x >= 0 ? a : (a & 0x7fffff) ? ~a : -a;
    return isa_mufu_scale(isa_mufu_get(ISA_MUFU_EX2, (uint32_t)(k & 0x7fffff)), (int)(k >> 23), 0);
}

#endif
