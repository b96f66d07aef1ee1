/* lanes.h: the family loops, written once: each macro defines a handler that applies a
 * one-lane expression to every lane of a mask over typed frame slots. */
#ifndef PTXEMU_ISA_LANES_H
#define PTXEMU_ISA_LANES_H

#include "isa/sem/sem.h"

/* d = EXPR(a) */
#define ISA_H1(NAME, TD, TA, EXPR)                                                   \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        TD *d = ISA_SLOT(TD, f, in->o[0]);                                           \
        const TA *pa = ISA_SLOT(const TA, f, in->o[1]);                              \
        ISA_LANE_LOOP(mask, { TA a = pa[l]; d[l] = (TD)(EXPR); });                   \
        return ISA_X_NEXT;                                                           \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { sizeof(TD), sizeof(TA) }, 0 } };

/* d = EXPR(a, b) */
#define ISA_H2(NAME, TD, TA, TB, EXPR)                                               \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        TD *d = ISA_SLOT(TD, f, in->o[0]);                                           \
        const TA *pa = ISA_SLOT(const TA, f, in->o[1]);                              \
        const TB *pb = ISA_SLOT(const TB, f, in->o[2]);                              \
        ISA_LANE_LOOP(mask, { TA a = pa[l]; TB b = pb[l]; d[l] = (TD)(EXPR); });     \
        return ISA_X_NEXT;                                                           \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { sizeof(TD), sizeof(TA), sizeof(TB) }, 0 } };

/* d = EXPR(a, b, c) */
#define ISA_H3(NAME, TD, TA, TB, TC, EXPR)                                           \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        TD *d = ISA_SLOT(TD, f, in->o[0]);                                           \
        const TA *pa = ISA_SLOT(const TA, f, in->o[1]);                              \
        const TB *pb = ISA_SLOT(const TB, f, in->o[2]);                              \
        const TC *pc = ISA_SLOT(const TC, f, in->o[3]);                              \
        ISA_LANE_LOOP(mask, { TA a = pa[l]; TB b = pb[l]; TC c = pc[l];              \
                              d[l] = (TD)(EXPR); });                                 \
        return ISA_X_NEXT;                                                           \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = {                                             \
        { NAME##_f, { sizeof(TD), sizeof(TA), sizeof(TB), sizeof(TC) }, 0 } };

/* Define a descriptor for a hand-written handler NAME##_f. */
#define ISA_DESC(NAME, ...) static const isa_xdesc_t NAME[1] = { { NAME##_f, { __VA_ARGS__ }, 0 } };
/* The same, for a handler that honours the operand forms HON (isa_xdesc_t.honours). */
#define ISA_DESCH(NAME, HON, ...) \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { __VA_ARGS__ }, HON } };

/* Comparisons: NAME##_bits gives bit l = EXPR(a, b) for all 32 lanes; NAME is the
 * setp handler (predicate destination, optional combine with c and the p|q pair). */
#define ISA_HP2(NAME, TA, EXPR)                                                      \
    static inline uint32_t NAME##_bits(const uint8_t *f, const isa_xinsn_t *in)      \
    {                                                                                \
        const TA *pa = ISA_SLOT(const TA, f, in->o[1]);                              \
        const TA *pb = ISA_SLOT(const TA, f, in->o[2]);                              \
        uint32_t bits = 0;                                                           \
        for (unsigned l = 0; l < ISA_LANES; l++) {                                   \
            TA a = pa[l], b = pb[l];                                                 \
            bits |= (uint32_t)(EXPR) << l;                                           \
        }                                                                            \
        return bits;                                                                 \
    }                                                                                \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        return isa_pred_write(f, in, NAME##_bits(f, in), mask);                      \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = {                                             \
        { NAME##_f, { ISA_W_PRED, sizeof(TA), sizeof(TA), ISA_W_PRED, ISA_W_PRED },      \
          ISA_OPDF_NEG | ISA_HON_DUAL | ISA_HON_SINK } };

/* set: the comparison NAME##_bits combined with the optional predicate c, written as
 * ONE or 0 into a 32-bit destination (0xffffffff for u32/s32, 1.0f for f32). */
#define ISA_HSET(NAME, CMP, TA, ONE)                                                 \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        uint32_t bits = isa_pred_combine(f, in, CMP##_bits(f, in));                  \
        uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);                               \
        ISA_LANE_LOOP(mask, { d[l] = (bits >> l & 1) ? (ONE) : 0u; });              \
        return ISA_X_NEXT;                                                           \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = {                                             \
        { NAME##_f, { 4, sizeof(TA), sizeof(TA), ISA_W_PRED }, ISA_OPDF_NEG } };

/* setp/set's BoolOp (aux 1 and, 2 or, 3 xor) with the optional predicate c (o[3],
 * negated when flags bit 0 is set). */
static inline uint32_t isa_pred_combine(const uint8_t *f, const isa_xinsn_t *in, uint32_t bits)
{
    if (in->o[3] == ISA_NONE)
        return bits;
    uint32_t c = *ISA_SLOT(const uint32_t, f, in->o[3]);
    if (in->flags & 1)
        c = ~c;
    switch (in->aux) {
    case 1: return bits & c;
    case 2: return bits | c;
    case 3: return bits ^ c;
    default: return bits;
    }
}

/* Write a predicate result, combined with an optional predicate c (setp's BoolOp) and
 * mirrored into the optional second destination q (p|q: q = BoolOp(!t, c)). */
static inline int isa_pred_write(uint8_t *f, const isa_xinsn_t *in, uint32_t bits, uint32_t mask)
{
    if (in->o[4] != ISA_NONE) {
        uint32_t *pq = ISA_SLOT(uint32_t, f, in->o[4]);
        *pq = (*pq & ~mask) | (isa_pred_combine(f, in, ~bits) & mask);
    }
    bits = isa_pred_combine(f, in, bits);
    if (in->o[0] != ISA_NONE) {
        uint32_t *pd = ISA_SLOT(uint32_t, f, in->o[0]);
        *pd = (*pd & ~mask) | (bits & mask);
    }
    return ISA_X_NEXT;
}

/* Selection tables: a (type -> handler) row list per operation. */
typedef struct { isa_type_t t; const isa_xdesc_t *fn; } isa_tsel_t;

static inline const isa_xdesc_t *isa_tsel(const isa_tsel_t *rows, size_t n, isa_type_t t)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].t == t)
            return rows[i].fn;
    return NULL;
}
#define ISA_TSEL(rows, t) isa_tsel(rows, sizeof rows / sizeof *rows, t)

/* Semantic families' selectors (select.c dispatches). */
bool isa_sem_int(const isa_instr_t *in, isa_xinsn_t *x);
bool isa_sem_logic(const isa_instr_t *in, isa_xinsn_t *x);
bool isa_sem_fp(const isa_instr_t *in, isa_xinsn_t *x);
bool isa_sem_fp_approx(const isa_instr_t *in, isa_xinsn_t *x); /* fp_approx.c: .approx, .full */
bool isa_sem_half(const isa_instr_t *in, isa_xinsn_t *x);   /* half.c; fp_arith.c asks it first */
bool isa_sem_fp_wide(const isa_instr_t *in, isa_xinsn_t *x); /* fp_wide.c: .f32x2, .f32.f16/.bf16 */
bool isa_sem_cmp(const isa_instr_t *in, isa_xinsn_t *x);
bool isa_sem_cvt(const isa_instr_t *in, isa_xinsn_t *x);
bool isa_sem_video(const isa_instr_t *in, isa_xinsn_t *x);   /* video.c */

#endif
