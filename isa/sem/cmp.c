/* cmp.c: comparison and selection semantics: setp and set with every comparison
 * (ordered and unordered on floats), an optional predicate combine and a p|q pair;
 * selp and slct. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"

/* Each comparison gives three handlers, picked by index: [0] setp, [1] set with an
 * integer destination (0xffffffff when true), [2] set.f32 (1.0f when true). */
typedef const isa_xdesc_t *const cmp_trio_t[3];
#define CMPX(NAME, TA, EXPR)                                                               \
    ISA_HP2(NAME, TA, EXPR)                                                                \
    ISA_HSET(NAME##_si, NAME, TA, 0xffffffffu)                                             \
    ISA_HSET(NAME##_sf, NAME, TA, 0x3f800000u)                                             \
    static cmp_trio_t NAME##_t = { NAME, NAME##_si, NAME##_sf };

/* Integer comparisons: signed forms compare as signed, the unsigned and bit forms
 * (and lo/ls/hi/hs) as unsigned. */
#define ICMP(W, U, S)                                                                      \
    CMPX(eq_##W, U, a == b) CMPX(ne_##W, U, a != b)                                   \
    CMPX(lt_s##W, S, a < b) CMPX(le_s##W, S, a <= b)                                  \
    CMPX(gt_s##W, S, a > b) CMPX(ge_s##W, S, a >= b)                                  \
    CMPX(lt_u##W, U, a < b) CMPX(le_u##W, U, a <= b)                                  \
    CMPX(gt_u##W, U, a > b) CMPX(ge_u##W, U, a >= b)
ICMP(16, uint16_t, int16_t)
ICMP(32, uint32_t, int32_t)
ICMP(64, uint64_t, int64_t)

/* Float comparisons: ordered ones are false with a NaN; the u forms are true. */
#define FCMP(W, T)                                                                        \
    CMPX(feq_##W, T, a == b) CMPX(fne_##W, T, a != b && a == a && b == b)             \
    CMPX(flt_##W, T, a < b) CMPX(fle_##W, T, a <= b)                                  \
    CMPX(fgt_##W, T, a > b) CMPX(fge_##W, T, a >= b)                                  \
    CMPX(fequ_##W, T, !(a < b || a > b)) CMPX(fneu_##W, T, a != b)                    \
    CMPX(fltu_##W, T, !(a >= b)) CMPX(fleu_##W, T, !(a > b))                          \
    CMPX(fgtu_##W, T, !(a <= b)) CMPX(fgeu_##W, T, !(a < b))                          \
    CMPX(fnum_##W, T, a == a && b == b) CMPX(fnan_##W, T, a != a || b != b)
FCMP(32, float)
FCMP(64, double)

/* f32 comparisons with .ftz flush subnormal inputs first. */
#define FZ(x) f32_ftz(x)
CMPX(feq_32z, float, FZ(a) == FZ(b)) CMPX(fne_32z, float, FZ(a) != FZ(b) && a == a && b == b)
CMPX(flt_32z, float, FZ(a) < FZ(b)) CMPX(fle_32z, float, FZ(a) <= FZ(b))
CMPX(fgt_32z, float, FZ(a) > FZ(b)) CMPX(fge_32z, float, FZ(a) >= FZ(b))
CMPX(fequ_32z, float, !(FZ(a) < FZ(b) || FZ(a) > FZ(b))) CMPX(fneu_32z, float, FZ(a) != FZ(b))
CMPX(fltu_32z, float, !(FZ(a) >= FZ(b))) CMPX(fleu_32z, float, !(FZ(a) > FZ(b)))
CMPX(fgtu_32z, float, !(FZ(a) <= FZ(b))) CMPX(fgeu_32z, float, !(FZ(a) < FZ(b)))

typedef struct { isa_mod_t cmp; const cmp_trio_t *s16, *s32, *s64, *u16, *u32, *u64; } icmp_row_t;
static const icmp_row_t icmp_rows[] = {
    { ISA_M_EQ, &eq_16_t, &eq_32_t, &eq_64_t, &eq_16_t, &eq_32_t, &eq_64_t },
    { ISA_M_NE, &ne_16_t, &ne_32_t, &ne_64_t, &ne_16_t, &ne_32_t, &ne_64_t },
    { ISA_M_LT, &lt_s16_t, &lt_s32_t, &lt_s64_t, &lt_u16_t, &lt_u32_t, &lt_u64_t },
    { ISA_M_LE, &le_s16_t, &le_s32_t, &le_s64_t, &le_u16_t, &le_u32_t, &le_u64_t },
    { ISA_M_GT, &gt_s16_t, &gt_s32_t, &gt_s64_t, &gt_u16_t, &gt_u32_t, &gt_u64_t },
    { ISA_M_GE, &ge_s16_t, &ge_s32_t, &ge_s64_t, &ge_u16_t, &ge_u32_t, &ge_u64_t },
    { ISA_M_LO, &lt_u16_t, &lt_u32_t, &lt_u64_t, &lt_u16_t, &lt_u32_t, &lt_u64_t },
    { ISA_M_LS, &le_u16_t, &le_u32_t, &le_u64_t, &le_u16_t, &le_u32_t, &le_u64_t },
    { ISA_M_HI, &gt_u16_t, &gt_u32_t, &gt_u64_t, &gt_u16_t, &gt_u32_t, &gt_u64_t },
    { ISA_M_HS, &ge_u16_t, &ge_u32_t, &ge_u64_t, &ge_u16_t, &ge_u32_t, &ge_u64_t },
};

typedef struct { isa_mod_t cmp; const cmp_trio_t *f32, *f32z, *f64; } fcmp_row_t;
static const fcmp_row_t fcmp_rows[] = {
    { ISA_M_EQ, &feq_32_t, &feq_32z_t, &feq_64_t },    { ISA_M_NE, &fne_32_t, &fne_32z_t, &fne_64_t },
    { ISA_M_LT, &flt_32_t, &flt_32z_t, &flt_64_t },    { ISA_M_LE, &fle_32_t, &fle_32z_t, &fle_64_t },
    { ISA_M_GT, &fgt_32_t, &fgt_32z_t, &fgt_64_t },    { ISA_M_GE, &fge_32_t, &fge_32z_t, &fge_64_t },
    { ISA_M_EQU, &fequ_32_t, &fequ_32z_t, &fequ_64_t }, { ISA_M_NEU, &fneu_32_t, &fneu_32z_t, &fneu_64_t },
    { ISA_M_LTU, &fltu_32_t, &fltu_32z_t, &fltu_64_t }, { ISA_M_LEU, &fleu_32_t, &fleu_32z_t, &fleu_64_t },
    { ISA_M_GTU, &fgtu_32_t, &fgtu_32z_t, &fgtu_64_t }, { ISA_M_GEU, &fgeu_32_t, &fgeu_32z_t, &fgeu_64_t },
    { ISA_M_NUM, &fnum_32_t, &fnum_32_t, &fnum_64_t },  { ISA_M_NAN, &fnan_32_t, &fnan_32_t, &fnan_64_t },
};

/* The comparison handlers for setp.type or set.dtype.stype (the last type suffix). */
static const cmp_trio_t *cmp_select(const isa_instr_t *in)
{
    isa_type_t t = (isa_type_t)in->types[in->ntypes - 1];
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

/* slct: d = c >= 0 ? a : b, c an s32 or an f32 (a NaN c selects b; -0 selects a; .ftz
 * flushes a subnormal c to a zero of its sign first). */
static inline bool slct_f32(uint32_t c, bool ftz)
{
    if ((c & 0x7fffffffu) > 0x7f800000u)
        return false;
    if (ftz && (c & 0x7f800000u) == 0)
        return true;
    return !(c >> 31) || (c & 0x7fffffffu) == 0;
}
#define SLCT(W, T)                                                                       \
    ISA_H3(slct_s_##W, T, T, T, int32_t, c >= 0 ? a : b)                                 \
    ISA_H3(slct_f_##W, T, T, T, uint32_t, slct_f32(c, false) ? a : b)                    \
    ISA_H3(slct_fz_##W, T, T, T, uint32_t, slct_f32(c, true) ? a : b)
SLCT(16, uint16_t)
SLCT(32, uint32_t)
SLCT(64, uint64_t)

bool isa_sem_cmp(const isa_instr_t *in, isa_xinsn_t *x)
{
    isa_type_t t = (isa_type_t)in->types[0];
    int bop = isa_instr_mod(in, ISA_G_BOOLOP);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) >= 0;
    x->desc = NULL;
    switch ((isa_op_t)in->op) {
    case ISA_OP_SETP:
    case ISA_OP_SET: {
        bool set = in->op == ISA_OP_SET;
        if (in->ntypes != 1u + set || in->nsfx != in->ntypes + 1u + (bop >= 0) + ftz)
            return false;
        if (set && t != ISA_T_U32 && t != ISA_T_S32 && t != ISA_T_F32)
            return false;
        const cmp_trio_t *trio = cmp_select(in);
        if (!trio)
            return false;
        x->desc = (*trio)[!set ? 0 : t == ISA_T_F32 ? 2 : 1];
        x->aux = bop == ISA_M_AND ? 1 : bop == ISA_M_OR ? 2 : bop == ISA_M_XOR ? 3 : 0;
        break;
    }
    case ISA_OP_SELP: {
        unsigned bits = isa_types[t].bits;
        if (in->ntypes != 1 || in->nsfx != 1 || isa_types[t].cls == TC_PACKED)
            return false;
        x->desc = bits == 16 ? selp_16 : bits == 32 ? selp_32 : bits == 64 ? selp_64 : NULL;
        break;
    }
    case ISA_OP_SLCT: {
        if (in->ntypes != 2 || in->nsfx != 2u + ftz || isa_types[t].cls == TC_PACKED)
            return false;
        unsigned bits = isa_types[t].bits;
        isa_type_t ct = (isa_type_t)in->types[1];
        if (ct == ISA_T_S32 && !ftz)
            x->desc = bits == 16 ? slct_s_16 : bits == 32 ? slct_s_32 : bits == 64 ? slct_s_64 : NULL;
        else if (ct == ISA_T_F32)
            x->desc = bits == 16 ? (ftz ? slct_fz_16 : slct_f_16) : bits == 32 ? (ftz ? slct_fz_32 : slct_f_32)
                    : bits == 64 ? (ftz ? slct_fz_64 : slct_f_64) : NULL;
        break;
    }
    default:
        return false;
    }
    return x->desc != NULL;
}
