/* mufu.h: the GPU's multi-function unit (MUFU) as recorded from an H100.
 *
 * Each function is a table of the unit's results over one binade (or two) of inputs,
 * recorded whole (tests/mufu/); the unit's other results follow from these by the
 * exponent, which isa/sem/fp_approx.c applies.  The tables are compressed into the
 * library and expanded on first use. */
#ifndef PTXEMU_ISA_SEM_MUFU_H
#define PTXEMU_ISA_SEM_MUFU_H

#include <stdatomic.h>
#include <stdint.h>

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
} isa_mufu_tab_t;

extern const isa_mufu_tab_t *_Atomic isa_mufu_tabs[ISA_MUFU_NTABLES];
const isa_mufu_tab_t *isa_mufu_expand(isa_mufu_table_t t);

/* Entry i of a table (i below its size); the table is expanded on first use. */
static inline uint32_t isa_mufu_get(isa_mufu_table_t t, uint32_t i)
{
    const isa_mufu_tab_t *tab = atomic_load_explicit(&isa_mufu_tabs[t], memory_order_acquire);
    if (!tab)
        tab = isa_mufu_expand(t);
    const isa_mufu_block_t *b = &tab->blk[i >> 4];
    if (b->wide != ISA_MUFU_NARROW)
        return tab->wide[b->wide + (i & 15)];
    return b->base + (uint32_t)(int32_t)tab->off[i];
}

#endif
