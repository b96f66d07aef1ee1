/* cmp.c: comparison and selection semantics: setp with every comparison (ordered and
 * unordered on floats), an optional predicate combine and a p|q pair; selp. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"

/* Integer comparisons: signed forms compare as signed, the unsigned and bit forms
 * (and lo/ls/hi/hs) as unsigned. */
#define ICMP(W, U, S)                                                                      \
    ISA_HP2(eq_##W, U, a == b) ISA_HP2(ne_##W, U, a != b)                                   \
    ISA_HP2(lt_s##W, S, a < b) ISA_HP2(le_s##W, S, a <= b)                                  \
    ISA_HP2(gt_s##W, S, a > b) ISA_HP2(ge_s##W, S, a >= b)                                  \
    ISA_HP2(lt_u##W, U, a < b) ISA_HP2(le_u##W, U, a <= b)                                  \
    ISA_HP2(gt_u##W, U, a > b) ISA_HP2(ge_u##W, U, a >= b)
ICMP(16, uint16_t, int16_t)
ICMP(32, uint32_t, int32_t)
ICMP(64, uint64_t, int64_t)

/* Float comparisons: ordered ones are false with a NaN; the u forms are true. */
#define FCMP(W, T)                                                                        \
    ISA_HP2(feq_##W, T, a == b) ISA_HP2(fne_##W, T, a != b && a == a && b == b)             \
    ISA_HP2(flt_##W, T, a < b) ISA_HP2(fle_##W, T, a <= b)                                  \
    ISA_HP2(fgt_##W, T, a > b) ISA_HP2(fge_##W, T, a >= b)                                  \
    ISA_HP2(fequ_##W, T, !(a < b || a > b)) ISA_HP2(fneu_##W, T, a != b)                    \
    ISA_HP2(fltu_##W, T, !(a >= b)) ISA_HP2(fleu_##W, T, !(a > b))                          \
    ISA_HP2(fgtu_##W, T, !(a <= b)) ISA_HP2(fgeu_##W, T, !(a < b))                          \
    ISA_HP2(fnum_##W, T, a == a && b == b) ISA_HP2(fnan_##W, T, a != a || b != b)
FCMP(32, float)
FCMP(64, double)

/* f32 comparisons with .ftz flush subnormal inputs first. */
#define FZ(x) f32_ftz(x)
ISA_HP2(feq_32z, float, FZ(a) == FZ(b)) ISA_HP2(fne_32z, float, FZ(a) != FZ(b) && a == a && b == b)
ISA_HP2(flt_32z, float, FZ(a) < FZ(b)) ISA_HP2(fle_32z, float, FZ(a) <= FZ(b))
ISA_HP2(fgt_32z, float, FZ(a) > FZ(b)) ISA_HP2(fge_32z, float, FZ(a) >= FZ(b))
ISA_HP2(fequ_32z, float, !(FZ(a) < FZ(b) || FZ(a) > FZ(b))) ISA_HP2(fneu_32z, float, FZ(a) != FZ(b))
ISA_HP2(fltu_32z, float, !(FZ(a) >= FZ(b))) ISA_HP2(fleu_32z, float, !(FZ(a) > FZ(b)))
ISA_HP2(fgtu_32z, float, !(FZ(a) <= FZ(b))) ISA_HP2(fgeu_32z, float, !(FZ(a) < FZ(b)))

typedef struct { isa_mod_t cmp; const isa_xdesc_t *s16, *s32, *s64, *u16, *u32, *u64; } icmp_row_t;
static const icmp_row_t icmp_rows[] = {
    { ISA_M_EQ, eq_16, eq_32, eq_64, eq_16, eq_32, eq_64 },
    { ISA_M_NE, ne_16, ne_32, ne_64, ne_16, ne_32, ne_64 },
    { ISA_M_LT, lt_s16, lt_s32, lt_s64, lt_u16, lt_u32, lt_u64 },
    { ISA_M_LE, le_s16, le_s32, le_s64, le_u16, le_u32, le_u64 },
    { ISA_M_GT, gt_s16, gt_s32, gt_s64, gt_u16, gt_u32, gt_u64 },
    { ISA_M_GE, ge_s16, ge_s32, ge_s64, ge_u16, ge_u32, ge_u64 },
    { ISA_M_LO, lt_u16, lt_u32, lt_u64, lt_u16, lt_u32, lt_u64 },
    { ISA_M_LS, le_u16, le_u32, le_u64, le_u16, le_u32, le_u64 },
    { ISA_M_HI, gt_u16, gt_u32, gt_u64, gt_u16, gt_u32, gt_u64 },
    { ISA_M_HS, ge_u16, ge_u32, ge_u64, ge_u16, ge_u32, ge_u64 },
};

typedef struct { isa_mod_t cmp; const isa_xdesc_t *f32, *f32z, *f64; } fcmp_row_t;
static const fcmp_row_t fcmp_rows[] = {
    { ISA_M_EQ, feq_32, feq_32z, feq_64 },    { ISA_M_NE, fne_32, fne_32z, fne_64 },
    { ISA_M_LT, flt_32, flt_32z, flt_64 },    { ISA_M_LE, fle_32, fle_32z, fle_64 },
    { ISA_M_GT, fgt_32, fgt_32z, fgt_64 },    { ISA_M_GE, fge_32, fge_32z, fge_64 },
    { ISA_M_EQU, fequ_32, fequ_32z, fequ_64 }, { ISA_M_NEU, fneu_32, fneu_32z, fneu_64 },
    { ISA_M_LTU, fltu_32, fltu_32z, fltu_64 }, { ISA_M_LEU, fleu_32, fleu_32z, fleu_64 },
    { ISA_M_GTU, fgtu_32, fgtu_32z, fgtu_64 }, { ISA_M_GEU, fgeu_32, fgeu_32z, fgeu_64 },
    { ISA_M_NUM, fnum_32, fnum_32, fnum_64 },  { ISA_M_NAN, fnan_32, fnan_32, fnan_64 },
};

static const isa_xdesc_t *setp_select(const isa_instr_t *in)
{
    isa_type_t t = (isa_type_t)in->types[0];
    int cmp = isa_instr_mod(in, ISA_G_CMP);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) >= 0;
    if (t == ISA_T_F32 || t == ISA_T_F64) {
        if (ftz && t != ISA_T_F32)
            return NULL;
        for (size_t i = 0; i < sizeof fcmp_rows / sizeof *fcmp_rows; i++)
            if ((int)fcmp_rows[i].cmp == cmp)
                return t == ISA_T_F64 ? fcmp_rows[i].f64 : ftz ? fcmp_rows[i].f32z : fcmp_rows[i].f32;
        return NULL;
    }
    if (ftz)
        return NULL;
    bool sgn = isa_types[t].cls == TC_SINT;
    unsigned bits = isa_types[t].bits;
    if (isa_types[t].cls == TC_FLOAT || isa_types[t].cls == TC_PACKED || bits < 16 || bits > 64)
        return NULL;
    if (isa_types[t].cls == TC_BIT && cmp != ISA_M_EQ && cmp != ISA_M_NE)
        return NULL;
    for (size_t i = 0; i < sizeof icmp_rows / sizeof *icmp_rows; i++) {
        const icmp_row_t *r = &icmp_rows[i];
        if ((int)r->cmp != cmp)
            continue;
        if (bits == 16) return sgn ? r->s16 : r->u16;
        if (bits == 32) return sgn ? r->s32 : r->u32;
        return sgn ? r->s64 : r->u64;
    }
    return NULL;
}

/* selp: d = c ? a : b, c a predicate mask slot. */
#define SELP(W, T)                                                                       \
    static int selp_##W##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                    \
        (void)w_;                                                                        \
        T *d = ISA_SLOT(T, f, in->o[0]);                                                 \
        const T *a = ISA_SLOT(const T, f, in->o[1]), *b = ISA_SLOT(const T, f, in->o[2]); \
        uint32_t c = *ISA_SLOT(uint32_t, f, in->o[3]);                                   \
        if (in->flags & 1)                                                               \
            c = ~c;                                                                      \
        ISA_LANE_LOOP(mask, { d[l] = (c >> l & 1) ? a[l] : b[l]; });                     \
        return ISA_X_NEXT;                                                               \
    }                                                                                    \
    ISA_DESC(selp_##W, sizeof(T), sizeof(T), sizeof(T), ISA_W_PRED)
SELP(16, uint16_t)
SELP(32, uint32_t)
SELP(64, uint64_t)

bool isa_sem_cmp(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->ntypes != 1)
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    switch ((isa_op_t)in->op) {
    case ISA_OP_SETP: {
        unsigned known = 2 + (isa_instr_mod(in, ISA_G_BOOLOP) >= 0) + (isa_instr_mod(in, ISA_G_FTZ) >= 0);
        if (in->nsfx != known)
            return false;
        x->desc = setp_select(in);
        int bop = isa_instr_mod(in, ISA_G_BOOLOP);
        x->aux = bop == ISA_M_AND ? 1 : bop == ISA_M_OR ? 2 : bop == ISA_M_XOR ? 3 : 0;
        break;
    }
    case ISA_OP_SELP: {
        unsigned bits = isa_types[t].bits;
        if (in->nsfx != 1 || isa_types[t].cls == TC_PACKED)
            return false;
        x->desc = bits == 16 ? selp_16 : bits == 32 ? selp_32 : bits == 64 ? selp_64 : NULL;
        break;
    }
    default:
        return false;
    }
    return x->desc != NULL;
}
