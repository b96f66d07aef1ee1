/* cmp.c: comparison and selection semantics: setp and set with every comparison
 * (ordered and unordered on floats, halves and their pairs too), an optional predicate
 * combine and a p|q pair; selp and slct. */
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
    bool sgn = isa_types[t].cls == ISA_TC_SINT;
    unsigned bits = isa_types[t].bits;
    if (isa_types[t].cls == ISA_TC_FLOAT || isa_types[t].cls == ISA_TC_PACKED || bits < 16 || bits > 64)
        return NULL;
    if (isa_types[t].cls == ISA_TC_BIT && cmp != ISA_M_EQ && cmp != ISA_M_NE)
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

/*{=====================================================================
 * f16, bf16 and their pairs.  One handler per destination shape; the comparison is a
 * set of the four IEEE relations (less, equal, greater, unordered) in aux, so one loop
 * serves all 14.  aux: BoolOp (bits 0-1, as isa_pred_combine), relation set (4-7),
 * .ftz (8), bf16 (9), the value written for true (16-47: per half for a pair).
 * A pair's halves compare independently: setp writes p from the low halves and q from
 * the high ones (each combined with c), set packs the two results.
 *====================================================================*/
enum { HC_LT = 1, HC_EQ = 2, HC_GT = 4, HC_UN = 8 };
#define HC_FTZ  (1u << 8)
#define HC_BF   (1u << 9)
#define HC_ONE(aux) ((uint32_t)((aux) >> 16))

/* The relation of two halves (bit index into the set: 0 less, 1 equal, 2 greater, 3
 * unordered); -0 equals +0, .ftz flushes subnormals to zeros of their sign first. */
static inline unsigned hc_rel(uint32_t a, uint32_t b, uint32_t expm, bool ftz)
{
    if (ftz) {
        a = (a & expm) == 0 ? a & 0x8000u : a;
        b = (b & expm) == 0 ? b & 0x8000u : b;
    }
    uint32_t ma = a & 0x7fffu, mb = b & 0x7fffu;
    if (ma > expm || mb > expm)
        return 3;
    /* IEEE order is the order of the sign-magnitude bits. */
    int32_t ka = a & 0x8000u ? -(int32_t)ma : (int32_t)ma, kb = b & 0x8000u ? -(int32_t)mb : (int32_t)mb;
    return ka < kb ? 0 : ka == kb ? 1 : 2;
}

/* Bit l: the comparison of lane l's halves; half -1: 16-bit slots, 0 (1): the low
 * (high) halves of 32-bit slots. */
static inline uint32_t hc_bits(const uint8_t *f, const isa_xinsn_t *in, int half)
{
    uint32_t set = (uint32_t)(in->aux >> 4) & 15, expm = in->aux & HC_BF ? 0x7f80u : 0x7c00u, bits = 0;
    bool ftz = (in->aux & HC_FTZ) != 0;
    if (half < 0) {
        const uint16_t *pa = ISA_SLOT(const uint16_t, f, in->o[1]), *pb = ISA_SLOT(const uint16_t, f, in->o[2]);
        for (unsigned l = 0; l < ISA_LANES; l++)
            bits |= (set >> hc_rel(pa[l], pb[l], expm, ftz) & 1) << l;
    } else {
        const uint32_t *pa = ISA_SLOT(const uint32_t, f, in->o[1]), *pb = ISA_SLOT(const uint32_t, f, in->o[2]);
        unsigned sh = half ? 16 : 0;
        for (unsigned l = 0; l < ISA_LANES; l++)
            bits |= (set >> hc_rel(pa[l] >> sh & 0xffffu, pb[l] >> sh & 0xffffu, expm, ftz) & 1) << l;
    }
    return bits;
}

/* BoolOp with c (negated when flags bit 0 is set), as isa_pred_combine, reading only
 * aux's BoolOp bits. */
static inline uint32_t hc_combine(const uint8_t *f, const isa_xinsn_t *in, uint32_t bits)
{
    if (in->o[3] == ISA_NONE)
        return bits;
    uint32_t c = *ISA_SLOT(const uint32_t, f, in->o[3]);
    if (in->flags & 1)
        c = ~c;
    switch (in->aux & 3) {
    case 1: return bits & c;
    case 2: return bits | c;
    case 3: return bits ^ c;
    default: return bits;
    }
}

static inline void hc_pred(uint8_t *f, uint32_t o, uint32_t bits, uint32_t mask)
{
    if (o != ISA_NONE) {
        uint32_t *p = ISA_SLOT(uint32_t, f, o);
        *p = (*p & ~mask) | (bits & mask);
    }
}

/* setp.f16, setp.bf16: p = BoolOp(t, c), q = BoolOp(!t, c). */
ISA_HOT static int hsetp_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint32_t t = hc_bits(f, in, -1);
    hc_pred(f, in->o[4], hc_combine(f, in, ~t), mask);
    hc_pred(f, in->o[0], hc_combine(f, in, t), mask);
    return ISA_X_NEXT;
}
ISA_DESCH(hsetp, ISA_OPDF_NEG | ISA_HON_DUAL | ISA_HON_SINK, ISA_W_PRED, 2, 2, ISA_W_PRED, ISA_W_PRED)

/* setp.f16x2, setp.bf16x2: p = BoolOp(t_lo, c), q = BoolOp(t_hi, c). */
ISA_HOT static int hsetp2_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint32_t lo = hc_bits(f, in, 0), hi = hc_bits(f, in, 1);
    hc_pred(f, in->o[4], hc_combine(f, in, hi), mask);
    hc_pred(f, in->o[0], hc_combine(f, in, lo), mask);
    return ISA_X_NEXT;
}
ISA_DESCH(hsetp2, ISA_OPDF_NEG | ISA_HON_DUAL | ISA_HON_SINK, ISA_W_PRED, 4, 4, ISA_W_PRED, ISA_W_PRED)

/* set.dtype.f16 (bf16): ONE or 0 into a 16-bit (u16, s16, f16, bf16) or 32-bit (u32,
 * s32) destination. */
#define HSET(NAME, TD)                                                                   \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)          \
    {                                                                                    \
        (void)w_;                                                                        \
        uint32_t bits = hc_combine(f, in, hc_bits(f, in, -1));                           \
        TD one = (TD)HC_ONE(in->aux), *d = ISA_SLOT(TD, f, in->o[0]);                    \
        ISA_LANE_LOOP(mask, { d[l] = (bits >> l & 1) ? one : 0; });                      \
        return ISA_X_NEXT;                                                               \
    }                                                                                    \
    ISA_DESCH(NAME, ISA_OPDF_NEG, sizeof(TD), 2, 2, ISA_W_PRED)
HSET(hset16, uint16_t)
HSET(hset32, uint32_t)

/* set.dtype.f16x2 (bf16x2): each half's result, BoolOp'd with c, as ONE or 0 in its half. */
ISA_HOT static int hset2_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint32_t lo = hc_combine(f, in, hc_bits(f, in, 0)), hi = hc_combine(f, in, hc_bits(f, in, 1));
    uint32_t one = HC_ONE(in->aux) & 0xffffu, *d = ISA_SLOT(uint32_t, f, in->o[0]);
    ISA_LANE_LOOP(mask, { d[l] = ((lo >> l & 1) ? one : 0) | ((hi >> l & 1) ? one << 16 : 0); });
    return ISA_X_NEXT;
}
ISA_DESCH(hset2, ISA_OPDF_NEG, 4, 4, 4, ISA_W_PRED)

static const struct { isa_mod_t cmp; uint8_t set; } hc_rows[] = {
    { ISA_M_EQ, HC_EQ },                { ISA_M_NE, HC_LT | HC_GT },
    { ISA_M_LT, HC_LT },                { ISA_M_LE, HC_LT | HC_EQ },
    { ISA_M_GT, HC_GT },                { ISA_M_GE, HC_GT | HC_EQ },
    { ISA_M_EQU, HC_EQ | HC_UN },       { ISA_M_NEU, HC_LT | HC_GT | HC_UN },
    { ISA_M_LTU, HC_LT | HC_UN },       { ISA_M_LEU, HC_LT | HC_EQ | HC_UN },
    { ISA_M_GTU, HC_GT | HC_UN },       { ISA_M_GEU, HC_GT | HC_EQ | HC_UN },
    { ISA_M_NUM, HC_LT | HC_EQ | HC_GT }, { ISA_M_NAN, HC_UN },
};

/* setp or set whose (source) type is a half or a pair: the handler and aux.  set's
 * destination: u16, s16, u32, s32 or the source's own format for a half (either half
 * format for 1.0); u32, s32 or the source type for a pair. */
static bool hc_select(const isa_instr_t *in, isa_xinsn_t *x, bool set, uint32_t bop)
{
    isa_type_t t = (isa_type_t)in->types[in->ntypes - 1];
    bool pair = t == ISA_T_F16X2 || t == ISA_T_BF16X2, bf = t == ISA_T_BF16 || t == ISA_T_BF16X2;
    int cmp = isa_instr_mod(in, ISA_G_CMP);
    uint64_t aux = bop | (isa_instr_mod(in, ISA_G_FTZ) >= 0 ? HC_FTZ : 0) | (bf ? HC_BF : 0);
    size_t i = 0, n = sizeof hc_rows / sizeof *hc_rows;
    while (i < n && (int)hc_rows[i].cmp != cmp)
        i++;
    if (i == n)
        return false;
    aux |= (uint64_t)hc_rows[i].set << 4;
    if (!set) {
        x->desc = pair ? hsetp2 : hsetp;
        x->aux = aux;
        return true;
    }
    isa_type_t dt = (isa_type_t)in->types[0];
    uint32_t one;
    switch (dt) {
    case ISA_T_U16: case ISA_T_S16: one = pair ? 0 : 0xffffu; break;
    case ISA_T_U32: case ISA_T_S32: one = pair ? 0xffffu : 0xffffffffu; break;
    case ISA_T_F16: one = pair ? 0 : 0x3c00u; break;
    case ISA_T_BF16: one = pair ? 0 : 0x3f80u; break;
    case ISA_T_F16X2: one = t == ISA_T_F16X2 ? 0x3c00u : 0; break;
    case ISA_T_BF16X2: one = t == ISA_T_BF16X2 ? 0x3f80u : 0; break;
    default: one = 0; break;
    }
    if (!one)
        return false;
    x->desc = pair ? hset2 : isa_types[dt].bits == 16 ? hset16 : hset32;
    x->aux = aux | (uint64_t)one << 16;
    return true;
}
/*}=====================================================================*/

/* selp: d = c ? a : b, c a predicate mask slot. */
#define SELP(W, T)                                                                       \
    ISA_HOT static int selp_##W##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
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
    ISA_DESCH(selp_##W, ISA_OPDF_NEG, sizeof(T), sizeof(T), sizeof(T), ISA_W_PRED)
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
        uint32_t bo = bop == ISA_M_AND ? 1 : bop == ISA_M_OR ? 2 : bop == ISA_M_XOR ? 3 : 0;
        isa_type_t st = (isa_type_t)in->types[in->ntypes - 1];
        if (st == ISA_T_F16 || st == ISA_T_BF16 || st == ISA_T_F16X2 || st == ISA_T_BF16X2)
            return hc_select(in, x, set, bo);
        if (set && t != ISA_T_U32 && t != ISA_T_S32 && t != ISA_T_F32)
            return false;
        const cmp_trio_t *trio = cmp_select(in);
        if (!trio)
            return false;
        x->desc = (*trio)[!set ? 0 : t == ISA_T_F32 ? 2 : 1];
        x->aux = bo;
        break;
    }
    case ISA_OP_SELP: {
        unsigned bits = isa_types[t].bits;
        if (in->ntypes != 1 || in->nsfx != 1 || isa_types[t].cls == ISA_TC_PACKED)
            return false;
        x->desc = bits == 16 ? selp_16 : bits == 32 ? selp_32 : bits == 64 ? selp_64 : NULL;
        break;
    }
    case ISA_OP_SLCT: {
        if (in->ntypes != 2 || in->nsfx != 2u + ftz || isa_types[t].cls == ISA_TC_PACKED)
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
