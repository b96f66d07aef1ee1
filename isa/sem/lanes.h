/* lanes.h: the family loops, written once: each macro defines a handler that applies a
 * one-lane expression to every lane of a mask over typed frame slots. */
#ifndef PTXEMU_ISA_LANES_H
#define PTXEMU_ISA_LANES_H

#include "isa/sem/sem.h"

/* d = EXPR(a) */
#define ISA_H1(NAME, TD, TA, EXPR)                                                   \
    static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        TD *d = ISA_SLOT(TD, f, in->o[0]);                                           \
        const TA *pa = ISA_SLOT(const TA, f, in->o[1]);                              \
        ISA_LANE_LOOP(mask, { TA a = pa[l]; d[l] = (TD)(EXPR); });                   \
        return ISA_X_NEXT;                                                           \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { sizeof(TD), sizeof(TA) } } };

/* d = EXPR(a, b) */
#define ISA_H2(NAME, TD, TA, TB, EXPR)                                               \
    static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        TD *d = ISA_SLOT(TD, f, in->o[0]);                                           \
        const TA *pa = ISA_SLOT(const TA, f, in->o[1]);                              \
        const TB *pb = ISA_SLOT(const TB, f, in->o[2]);                              \
        ISA_LANE_LOOP(mask, { TA a = pa[l]; TB b = pb[l]; d[l] = (TD)(EXPR); });     \
        return ISA_X_NEXT;                                                           \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { sizeof(TD), sizeof(TA), sizeof(TB) } } };

/* d = EXPR(a, b, c) */
#define ISA_H3(NAME, TD, TA, TB, TC, EXPR)                                           \
    static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
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
        { NAME##_f, { sizeof(TD), sizeof(TA), sizeof(TB), sizeof(TC) } } };

/* Define a descriptor for a hand-written handler NAME##_f. */
#define ISA_DESC(NAME, ...) static const isa_xdesc_t NAME[1] = { { NAME##_f, { __VA_ARGS__ } } };

/* Predicate destination: bit l of the mask slot = EXPR(a, b) for lanes in mask. */
#define ISA_HP2(NAME, TA, EXPR)                                                      \
    static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                \
        (void)w_;                                                                    \
        const TA *pa = ISA_SLOT(const TA, f, in->o[1]);                              \
        const TA *pb = ISA_SLOT(const TA, f, in->o[2]);                              \
        uint32_t bits = 0;                                                           \
        for (unsigned l = 0; l < ISA_LANES; l++) {                                   \
            TA a = pa[l], b = pb[l];                                                 \
            bits |= (uint32_t)(EXPR) << l;                                           \
        }                                                                            \
        return isa_pred_write(f, in, bits, mask);                                    \
    }                                                                                \
    static const isa_xdesc_t NAME[1] = {                                             \
        { NAME##_f, { ISA_W_PRED, sizeof(TA), sizeof(TA), ISA_W_PRED, ISA_W_PRED } } };

/* Write a predicate result, combined with an optional predicate c (setp's BoolOp) and
 * mirrored into the optional second destination q (p|q: q = !p). */
static inline int isa_pred_write(uint8_t *f, const isa_xinsn_t *in, uint32_t bits, uint32_t mask)
{
    if (in->o[3] != ISA_NONE) {
        uint32_t c = *ISA_SLOT(uint32_t, f, in->o[3]);
        if (in->flags & 1)
            c = ~c;
        uint32_t q = ~bits;
        switch (in->aux) {
        case 1: bits &= c; q &= c; break;
        case 2: bits |= c; q |= c; break;
        case 3: bits ^= c; q ^= c; break;
        default: break;
        }
        if (in->o[4] != ISA_NONE) {
            uint32_t *pq = ISA_SLOT(uint32_t, f, in->o[4]);
            *pq = (*pq & ~mask) | (q & mask);
        }
    } else if (in->o[4] != ISA_NONE) {
        uint32_t *pq = ISA_SLOT(uint32_t, f, in->o[4]);
        *pq = (*pq & ~mask) | (~bits & mask);
    }
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
bool isa_sem_cmp(const isa_instr_t *in, isa_xinsn_t *x);
bool isa_sem_cvt(const isa_instr_t *in, isa_xinsn_t *x);

#endif
