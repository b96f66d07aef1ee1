/* video.c: video instruction semantics: the scalar vadd, vsub, vabsdiff, vmin, vmax,
 * vshl, vshr, vmad and vset, and the SIMD v*2 / v*4 forms, bit-exact to sm_90.
 *
 * The rules below are those of the recorded hardware (tests/golden/video_*), which
 * differ from the PTX manual's pseudocode in several corners; docs/arithmetic.md lists
 * them.  Every variant is one handler per operation whose types, modifiers and operand
 * selectors are decoded once into aux (layout below); the lane function is pure. */
#include "isa/sem/lanes.h"
#include "isa/sem/hvec.h"

/* aux layout.  Pre-decoding adds what the operands carry (isa_sem_video_opd): the
 * scalar forms' byte/half selectors (ISA_AUX_SEL_SHIFT), vmad's negations, and the SIMD
 * forms' destination mask and source permutation.  The SIMD forms' source selectors
 * are in imm: a's digits (fsel, isa.h) in bits 15..0, b's in bits 31..16. */
enum {
    V_DS = 1 << 0,          /* dtype .s32 */
    V_AS = 1 << 1,          /* atype .s32 */
    V_BS = 1 << 2,          /* btype .s32 */
    V_SAT = 1 << 3,
    V_WRAP = 1 << 4,        /* vshl/vshr .wrap (else .clamp) */
    V_PO = 1 << 5,          /* vmad .po */
    V_NEGP = 1 << 6,        /* vmad: the product is negated (-a or -b, not both) */
    V_NEGC = 1 << 7,        /* vmad: c is negated */
    V_OP2_SHIFT = 8,        /* secondary operation: 0 none, 1 .add, 2 .min, 3 .max */
    V_CMP_SHIFT = 10,       /* vset comparison: 0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge */
    V_SCALE_SHIFT = 13,     /* vmad scale: right shift 0, 7 or 15 (4 bits) */
    V_PERM = 1 << 17,       /* SIMD: a source selector other than the default (imm) */
    V_MASK_SHIFT = 20       /* SIMD: the destination mask, bit i for field i (4 bits) */
};
/* The SIMD forms' default source selectors, as imm holds them: a.h10, b.h32 and
 * a.b3210, b.b7654 (the words as they are). */
#define V_IMM2 (0x10 | 0x32 << 16)
#define V_IMM4 (0x3210 | (int64_t)0x7654 << 16)
enum { OP2_NONE, OP2_ADD, OP2_MIN, OP2_MAX };

/* The selector of operand i (isa_sel_t), ISA_SEL_NONE when none. */
static inline unsigned vsel(uint64_t aux, unsigned i) { return (unsigned)(aux >> ISA_AUX_SEL_SHIFT(i)) & 0xf; }

/* ==== Scalar operations {=====
 * Sources: the selected byte or half-word (or the word) extended by the operand's own
 * type to a 33-bit value, held in an int64_t. */
static inline int64_t part(uint32_t x, bool sgn, unsigned sel)
{
    switch (sel) {
    case ISA_SEL_B0: case ISA_SEL_B1: case ISA_SEL_B2: case ISA_SEL_B3: {
        uint32_t v = (x >> (8 * (sel - ISA_SEL_B0))) & 0xff;
        return sgn ? (int64_t)(int8_t)v : (int64_t)v;
    }
    case ISA_SEL_H0: case ISA_SEL_H1: {
        uint32_t v = (x >> (16 * (sel - ISA_SEL_H0))) & 0xffff;
        return sgn ? (int64_t)(int16_t)v : (int64_t)v;
    }
    default:
        return sgn ? (int64_t)(int32_t)x : (int64_t)x;
    }
}

static inline int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Merge into c under a destination selector.  A byte result goes to its byte; .h0
 * keeps the result's low half and .h1 its HIGH half (hardware-recorded: the half is
 * not moved up). */
static inline uint32_t vmerge(unsigned dsel, int64_t t, uint32_t c)
{
    uint32_t r = (uint32_t)t;
    switch (dsel) {
    case ISA_SEL_B0: case ISA_SEL_B1: case ISA_SEL_B2: case ISA_SEL_B3: {
        unsigned sh = 8 * (dsel - ISA_SEL_B0);
        return ((r & 0xffu) << sh) | (c & ~(0xffu << sh));
    }
    case ISA_SEL_H0: return (r & 0xffffu) | (c & 0xffff0000u);
    case ISA_SEL_H1: return (r & 0xffff0000u) | (c & 0xffffu);
    default: return r;
    }
}

/* .min/.max against c: x is the primary result as the hardware compares it, r its
 * low word.  A signed dtype compares signed with c sign-extended; an unsigned one
 * compares x's 64-bit pattern with c zero-extended, so that a negative x ranks above
 * every c. */
static inline uint32_t vminmax(unsigned op2, int64_t x, uint32_t r, uint32_t c, bool ds)
{
    bool lt = ds ? x < (int64_t)(int32_t)c : (uint64_t)x < (uint64_t)c;
    bool take_x = op2 == OP2_MIN ? lt : !lt;
    return take_x ? r : c;
}

enum { VADD, VSUB, VABSDIFF, VMIN, VMAX };

/* vadd, vsub, vabsdiff, vmin, vmax.  .sat without a destination selector clamps a
 * signed dtype to s32 and an unsigned one only from below (a sum past 2^32 wraps);
 * with a selector it is an UNSIGNED minimum of the exact result's 64-bit pattern with
 * the field's maximum (a negative result, or one of 2^32 or more, gives 0x7f / 0xff /
 * 0x7fff / 0xffff).  For .min/.max the result counts as signed 32-bit (its low word)
 * after vadd/vsub, and as its exact value after vabsdiff, vmin and vmax (mixed source
 * types: |(-1) - 0xffffffff| is 2^32, above every c). */
static inline uint32_t varith(unsigned op, uint32_t a, uint32_t b, uint32_t c, uint64_t aux)
{
    bool ds = aux & V_DS, as = aux & V_AS, bs = aux & V_BS;
    unsigned dsel = vsel(aux, 0);
    int64_t ta = part(a, as, vsel(aux, 1)), tb = part(b, bs, vsel(aux, 2)), t;
    switch (op) {
    case VADD: t = ta + tb; break;
    case VSUB: t = ta - tb; break;
    case VABSDIFF: t = ta > tb ? ta - tb : tb - ta; break;
    case VMIN: t = ta < tb ? ta : tb; break;
    default: t = ta > tb ? ta : tb; break;
    }
    if (aux & V_SAT) {
        if (dsel >= ISA_SEL_B0) {
            uint32_t max = dsel <= ISA_SEL_B3 ? (ds ? 0x7fu : 0xffu) : (ds ? 0x7fffu : 0xffffu);
            t = (uint64_t)t < max ? t : max;
        } else if (ds) {
            t = clamp64(t, INT32_MIN, INT32_MAX);
        } else if (t < 0) {
            t = 0;
        }
    }
    unsigned op2 = (aux >> V_OP2_SHIFT) & 3;
    if (op2 == OP2_ADD)
        return (uint32_t)t + c;
    if (op2) {
        int64_t x = op == VADD || op == VSUB ? (int64_t)(int32_t)(uint32_t)t : t;
        return vminmax(op2, x, (uint32_t)t, c, ds);
    }
    return vmerge(dsel, t, c);
}

/* vshl, vshr: b's (selected) value is an unsigned count, .clamp limits it to 32 and
 * .wrap takes it modulo 32.  The result is the exact shift taken modulo 2^34 as a
 * signed 34-bit value; .sat clamps that to the dtype's 32-bit range whatever the
 * destination selector.  .min/.max compare the shift's low 64 bits as a signed value
 * (exact but for a u32 source shifted by 32: 0x80000000 << 32 is negative), the
 * saturated value as signed 32-bit under .sat. */
__extension__ typedef __int128 s128_t;            /* GNU C types (builds with -pedantic) */
__extension__ typedef unsigned __int128 u128_t;

static inline uint32_t vshift(bool left, uint32_t a, uint32_t b, uint32_t c, uint64_t aux)
{
    bool ds = aux & V_DS;
    int64_t ta = part(a, aux & V_AS, vsel(aux, 1));
    uint64_t n = (uint64_t)part(b, false, vsel(aux, 2));
    n = aux & V_WRAP ? n & 31 : n > 32 ? 32 : n;
    s128_t full = left ? (s128_t)((u128_t)(s128_t)ta << n) : (s128_t)(ta >> n);
    int64_t t = (int64_t)((uint64_t)full << 30) >> 30;          /* signed 34-bit */
    if (aux & V_SAT)
        t = ds ? clamp64(t, INT32_MIN, INT32_MAX) : clamp64(t, 0, UINT32_MAX);
    unsigned op2 = (aux >> V_OP2_SHIFT) & 3;
    if (op2 == OP2_ADD)
        return (uint32_t)t + c;
    if (op2) {
        int64_t x = aux & V_SAT ? (int64_t)(int32_t)(uint32_t)t : (int64_t)(uint64_t)full;
        return vminmax(op2, x, (uint32_t)t, c, ds);
    }
    return vmerge(vsel(aux, 0), t, c);
}

/* vset: the comparison gives 0 or 1; .min/.max compare it with c signed when the
 * atype is signed (btype plays no part: vset.u32.s32.max(0, c = 0x80000000) is c). */
static inline uint32_t vset1(uint32_t a, uint32_t b, uint32_t c, uint64_t aux)
{
    bool sgn = aux & V_AS;
    int64_t ta = part(a, aux & V_AS, vsel(aux, 1)), tb = part(b, aux & V_BS, vsel(aux, 2));
    int64_t t;
    switch ((aux >> V_CMP_SHIFT) & 7) {
    case 0: t = ta == tb; break;
    case 1: t = ta != tb; break;
    case 2: t = ta < tb; break;
    case 3: t = ta <= tb; break;
    case 4: t = ta > tb; break;
    default: t = ta >= tb; break;
    }
    unsigned op2 = (aux >> V_OP2_SHIFT) & 3;
    if (op2 == OP2_ADD)
        return (uint32_t)t + c;
    if (op2)
        return vminmax(op2, t, (uint32_t)t, c, sgn);
    return vmerge(vsel(aux, 0), t, c);
}

/* vmad: each (selected, extended) source is used as a signed 32-bit value, and c is
 * sign-extended: t = ±a * b ± c (+ 1 with .po), exact, then shifted right
 * arithmetically by the scale.  .sat clamps to s32 when a source type is signed or a
 * negation takes effect; for u32 * u32 it clamps to [0, 2^32 - 1], except that with a
 * scale a negative result gives 2^32 - 1.  The dtype does not matter. */
static inline uint32_t vmad1(uint32_t a, uint32_t b, uint32_t c, uint64_t aux)
{
    int64_t ta = (int32_t)(uint32_t)part(a, aux & V_AS, vsel(aux, 1));
    int64_t tb = (int32_t)(uint32_t)part(b, aux & V_BS, vsel(aux, 2));
    int64_t p = ta * tb, tc = (int32_t)c;
    int64_t t = (aux & V_NEGP ? -p : p) + (aux & V_NEGC ? -tc : tc) + ((aux & V_PO) ? 1 : 0);
    unsigned scale = (aux >> V_SCALE_SHIFT) & 0xf;
    t >>= scale;
    if (aux & V_SAT) {
        if (aux & (V_AS | V_BS | V_NEGP | V_NEGC))
            t = clamp64(t, INT32_MIN, INT32_MAX);
        else if (scale)
            t = (uint64_t)t > UINT32_MAX ? UINT32_MAX : t;
        else
            t = clamp64(t, 0, UINT32_MAX);
    }
    return (uint32_t)t;
}
/* }===== */

/* ==== SIMD operations {=====
 * N fields of 32/N bits in each source, each extended by its operand's type; .sat
 * clamps each result to the dtype's field range.  The mask (the destination's fields;
 * all of them when it has no selector) picks the fields that are written, the others
 * coming from c; .add instead adds the masked results (as signed values) to c.
 * Source selectors (a.h21, b.b7531) first permute the 64-bit value {b, a}. */
enum { SADD, SSUB, SAVRG, SABSDIFF, SMIN, SMAX, SSET };

/* Field i of the result is field digit i of x (fields of 32/n bits, n of them), the
 * digits one per nibble of fsel: bytes 0-3 (halves 0-1) are a, 4-7 (2-3) are b. */
static inline uint32_t vperm(uint64_t x, unsigned n, unsigned fsel)
{
    unsigned w = 32 / n;
    uint32_t m = n == 2 ? 0xffffu : 0xffu, r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= (uint32_t)(x >> (w * ((fsel >> (4 * i)) & 0xf)) & m) << (w * i);
    return r;
}

static inline uint32_t vsimd(unsigned op, unsigned n, uint32_t a, uint32_t b, uint32_t c, uint64_t aux,
                             uint32_t fs)
{
    unsigned w = 32 / n;
    uint32_t m = n == 2 ? 0xffffu : 0xffu;
    bool as = aux & V_AS, bs = aux & V_BS, ds = aux & V_DS;
    unsigned mask = (unsigned)(aux >> V_MASK_SHIFT) & 0xf;
    if (aux & V_PERM) {
        uint64_t x = (uint64_t)b << 32 | a;
        a = vperm(x, n, fs & 0xffff);
        b = vperm(x, n, fs >> 16);
    }
    int64_t lo = ds ? -((int64_t)m + 1) / 2 : 0, hi = ds ? (int64_t)m / 2 : (int64_t)m;
    uint32_t sum = c, merged = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t fa = (a >> (w * i)) & m, fb = (b >> (w * i)) & m;
        int64_t va = as ? ((int64_t)fa ^ (m / 2 + 1)) - (m / 2 + 1) : (int64_t)fa;
        int64_t vb = bs ? ((int64_t)fb ^ (m / 2 + 1)) - (m / 2 + 1) : (int64_t)fb;
        int64_t t;
        switch (op) {
        case SADD: t = va + vb; break;
        case SSUB: t = va - vb; break;
        case SAVRG: t = va + vb; t = t >= 0 ? (t + 1) >> 1 : t >> 1; break;
        case SABSDIFF: t = va > vb ? va - vb : vb - va; break;
        case SMIN: t = va < vb ? va : vb; break;
        case SMAX: t = va > vb ? va : vb; break;
        default:
            switch ((aux >> V_CMP_SHIFT) & 7) {
            case 0: t = va == vb; break;
            case 1: t = va != vb; break;
            case 2: t = va < vb; break;
            case 3: t = va <= vb; break;
            case 4: t = va > vb; break;
            default: t = va >= vb; break;
            }
            break;
        }
        if (aux & V_SAT)
            t = clamp64(t, lo, hi);
        bool on = (mask >> i) & 1;
        if (on)
            sum += (uint32_t)t;
        merged |= (on ? (uint32_t)t & m : (c >> (w * i)) & m) << (w * i);
    }
    return ((aux >> V_OP2_SHIFT) & 3) == OP2_ADD ? sum : merged;
}
/* }===== */

/* One handler per operation: d = FN(a, b, c) over 32-bit slots; c is absent (o[3] is
 * ISA_NONE) in the two-source scalar forms and then reads as a.  fs: the SIMD source
 * selectors (imm). */
#define VIDEO_OPERANDS                                                                      \
    uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);                                          \
    const uint32_t *pa = ISA_SLOT(const uint32_t, f, in->o[1]);                             \
    const uint32_t *pb = ISA_SLOT(const uint32_t, f, in->o[2]);                             \
    const uint32_t *pc = in->o[3] == ISA_NONE ? pa : ISA_SLOT(const uint32_t, f, in->o[3]); \
    uint64_t aux = in->aux
#define VIDEO_H(NAME, EXPR)                                                                 \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)        \
    {                                                                                       \
        (void)w_;                                                                           \
        VIDEO_OPERANDS;                                                                     \
        uint32_t fs = (uint32_t)in->imm;                                                    \
        (void)fs;                                                                           \
        ISA_LANE_LOOP(mask, {                                                               \
            uint32_t a = pa[l];                                                             \
            uint32_t b = pb[l];                                                             \
            uint32_t c = pc[l];                                                             \
            d[l] = (EXPR);                                                                  \
        });                                                                                 \
        return ISA_X_NEXT;                                                                  \
    }                                                                                       \
    ISA_DESC(NAME, 4, 4, 4, 4)

/* x extended to 64 bits, by its sign where sgn is all ones */
static inline int64_t vext(uint32_t x, uint32_t sgn)
{
    return (int64_t)((uint64_t)x | (0u - (uint64_t)(x >> 31 & sgn & 1u)) << 32);
}
/* vadd, vsub, vabsdiff, vmin, vmax without selectors or .sat (the common forms): varith
 * branch-free, the types' signs as masks (all ones for .s32), so that the lane loop runs
 * in vectors.  op and op2 are constants in each copy. */
static inline uint32_t vplain(unsigned op, unsigned op2, uint32_t a, uint32_t b, uint32_t c, uint32_t as,
                              uint32_t bs, uint32_t ds)
{
    int64_t ta = vext(a, as), tb = vext(b, bs);
    int64_t t = op == VADD ? ta + tb : op == VSUB ? ta - tb : op == VABSDIFF ? (ta > tb ? ta - tb : tb - ta)
              : op == VMIN ? (ta < tb ? ta : tb) : (ta > tb ? ta : tb);
    if (op2 == OP2_NONE)
        return (uint32_t)t;
    if (op2 == OP2_ADD)
        return (uint32_t)t + c;
    int64_t x = op == VADD || op == VSUB ? (int64_t)(int32_t)(uint32_t)t : t;
    int64_t tc = vext(c, ds);
    /* signed: x < c sign-extended; unsigned: x's 64-bit pattern against c zero-extended */
    bool lt = ds ? x < tc : (uint64_t)x < (uint64_t)tc;
    return (op2 == OP2_MIN ? lt : !lt) ? (uint32_t)t : c;
}
#define V_NOT_PLAIN ((uint64_t)V_SAT | 0xfffull << ISA_AUX_SEL_SHIFT(0))
#define VPLAIN_LOOP(OP, OP2)                                                                \
    ISA_LANE_LOOP(mask, { d[l] = vplain(OP, OP2, pa[l], pb[l], pc[l], as, bs, ds); })
#define VARITH_H(NAME, OP)                                                                  \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)        \
    {                                                                                       \
        (void)w_;                                                                           \
        VIDEO_OPERANDS;                                                                     \
        if (aux & V_NOT_PLAIN) {                                                            \
            ISA_LANE_LOOP(mask, { d[l] = varith(OP, pa[l], pb[l], pc[l], aux); });           \
            return ISA_X_NEXT;                                                              \
        }                                                                                   \
        uint32_t as = aux & V_AS ? ~0u : 0, bs = aux & V_BS ? ~0u : 0, ds = aux & V_DS ? ~0u : 0; \
        switch (aux >> V_OP2_SHIFT & 3) {                                                   \
        case OP2_NONE: VPLAIN_LOOP(OP, OP2_NONE); break;                                     \
        case OP2_ADD: VPLAIN_LOOP(OP, OP2_ADD); break;                                       \
        case OP2_MIN: VPLAIN_LOOP(OP, OP2_MIN); break;                                       \
        default: VPLAIN_LOOP(OP, OP2_MAX); break;                                            \
        }                                                                                   \
        return ISA_X_NEXT;                                                                  \
    }                                                                                       \
    ISA_DESC(NAME, 4, 4, 4, 4)

VARITH_H(vadd_x, VADD)
VARITH_H(vsub_x, VSUB)
VARITH_H(vabsdiff_x, VABSDIFF)
VARITH_H(vmin_x, VMIN)
VARITH_H(vmax_x, VMAX)
VIDEO_H(vshl_x, vshift(true, a, b, c, aux))
VIDEO_H(vshr_x, vshift(false, a, b, c, aux))
VIDEO_H(vset_x, vset1(a, b, c, aux))
VIDEO_H(vmad_x, vmad1(a, b, c, aux))
#define SIMD_H(op, OP)                                                                      \
    VIDEO_H(op##2_x, vsimd(OP, 2, a, b, c, aux, fs))                                        \
    VIDEO_H(op##4_x, vsimd(OP, 4, a, b, c, aux, fs))

SIMD_H(vadd, SADD)
SIMD_H(vsub, SSUB)
SIMD_H(vavrg, SAVRG)
SIMD_H(vabsdiff, SABSDIFF)
SIMD_H(vmin, SMIN)
SIMD_H(vmax, SMAX)
SIMD_H(vset, SSET)

/* vabsdiff4 with every field, the sources as they are and no .sat (nvcc's __vabsdiffu4,
 * __vsadu4, __vabsss4: `vabsdiff4.u32.u32.u32[.add]`): the four fields' absolute
 * differences, or their sum plus c with .add, 16 lanes at a time in vectors; other forms
 * go to vsimd. */
#define SAD4_FORM (0xfull << V_MASK_SHIFT)
#define SAD4_FREE ((uint64_t)V_DS | V_AS | V_BS | (uint64_t)3 << V_OP2_SHIFT)
ISA_HOT static int sad4_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    VIDEO_OPERANDS;
    unsigned op2 = (unsigned)(aux >> V_OP2_SHIFT) & 3;
    if ((aux & ~SAD4_FREE) != SAD4_FORM || (op2 != OP2_NONE && op2 != OP2_ADD) ||
        (op2 == OP2_ADD && in->o[3] == ISA_NONE))
        return vabsdiff4_x->fn(w_, f, in, mask);
    uint32_t as = aux & V_AS ? 0x80u : 0, bs = aux & V_BS ? 0x80u : 0;
    uint32_t r[ISA_LANES];
    for (unsigned i = 0; i < ISA_LANES; i += HV_W) {
        hv_u a, b, s = { 0 };
        memcpy(&a, pa + i, sizeof a);
        memcpy(&b, pb + i, sizeof b);
        if (op2 == OP2_ADD)
            memcpy(&s, pc + i, sizeof s);
        for (unsigned k = 0; k < 32; k += 8) {
            /* a field, sign-extended when its type is signed: (x ^ 0x80) - 0x80 */
            hv_i x = ((hv_i)((a >> k & 0xffu) ^ as) - (int32_t)as) - ((hv_i)((b >> k & 0xffu) ^ bs) - (int32_t)bs);
            hv_i m = x >> 31;
            hv_u t = (hv_u)((x ^ m) - m);
            s += op2 == OP2_ADD ? t : (t & 0xffu) << k;
        }
        memcpy(r + i, &s, sizeof s);
    }
    if (mask == ISA_FULL)
        memcpy(d, r, sizeof r);
    else
        ISA_LANE_LOOP(mask, { d[l] = r[l]; });
    return ISA_X_NEXT;
}
ISA_DESC(sad4, 4, 4, 4, 4)

/* The handler of each operation and its SIMD field count (0: scalar). */
static const struct { uint16_t op; const isa_xdesc_t *fn; uint8_t simd; } rows[] = {
    { ISA_OP_VADD, vadd_x, 0 }, { ISA_OP_VSUB, vsub_x, 0 }, { ISA_OP_VABSDIFF, vabsdiff_x, 0 },
    { ISA_OP_VMIN, vmin_x, 0 }, { ISA_OP_VMAX, vmax_x, 0 }, { ISA_OP_VSHL, vshl_x, 0 },
    { ISA_OP_VSHR, vshr_x, 0 }, { ISA_OP_VSET, vset_x, 0 }, { ISA_OP_VMAD, vmad_x, 0 },
    { ISA_OP_VADD2, vadd2_x, 2 }, { ISA_OP_VSUB2, vsub2_x, 2 }, { ISA_OP_VAVRG2, vavrg2_x, 2 },
    { ISA_OP_VABSDIFF2, vabsdiff2_x, 2 }, { ISA_OP_VMIN2, vmin2_x, 2 }, { ISA_OP_VMAX2, vmax2_x, 2 },
    { ISA_OP_VSET2, vset2_x, 2 }, { ISA_OP_VADD4, vadd4_x, 4 }, { ISA_OP_VSUB4, vsub4_x, 4 },
    { ISA_OP_VAVRG4, vavrg4_x, 4 }, { ISA_OP_VABSDIFF4, sad4, 4 }, { ISA_OP_VMIN4, vmin4_x, 4 },
    { ISA_OP_VMAX4, vmax4_x, 4 }, { ISA_OP_VSET4, vset4_x, 4 },
};

/* Selection: the types, then every modifier the instruction carries must be one this
 * file understands (the suffix count checks it).  Operand selectors and negations
 * arrive later from pre-decoding (isa_sem_video_opd), which refuses the forms that
 * have no semantics. */
bool isa_sem_video(const isa_instr_t *in, isa_xinsn_t *x)
{
    const isa_xdesc_t *fn = NULL;
    unsigned simd = 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (rows[i].op == in->op) {
            fn = rows[i].fn;
            simd = rows[i].simd;
        }
    if (!fn)
        return false;
    bool set = in->op == ISA_OP_VSET || in->op == ISA_OP_VSET2 || in->op == ISA_OP_VSET4;
    unsigned nt = set ? 2 : 3;
    if (in->ntypes != nt)
        return false;
    for (unsigned i = 0; i < nt; i++)
        if (in->types[i] != ISA_T_U32 && in->types[i] != ISA_T_S32)
            return false;
    uint64_t aux = 0;
    if (!set)
        aux |= (uint64_t)(in->types[0] == ISA_T_S32) * V_DS;
    aux |= (uint64_t)(in->types[set ? 0 : 1] == ISA_T_S32) * V_AS;
    aux |= (uint64_t)(in->types[set ? 1 : 2] == ISA_T_S32) * V_BS;
    if ((in->op == ISA_OP_VSHL || in->op == ISA_OP_VSHR) && in->types[2] != ISA_T_U32)
        return false;

    unsigned known = nt;
    if (isa_instr_has(in, ISA_M_SAT)) {
        if (set)
            return false;
        aux |= V_SAT;
        known++;
    }
    int op2 = isa_instr_mod(in, ISA_G_ATOMOP);
    if (op2 >= 0) {
        if (op2 != ISA_M_ADD && op2 != ISA_M_MIN && op2 != ISA_M_MAX)
            return false;
        if (in->op == ISA_OP_VMAD || (simd && op2 != ISA_M_ADD))
            return false;
        aux |= (uint64_t)(op2 == ISA_M_ADD ? OP2_ADD : op2 == ISA_M_MIN ? OP2_MIN : OP2_MAX) << V_OP2_SHIFT;
        known++;
    }
    if (in->op == ISA_OP_VSHL || in->op == ISA_OP_VSHR) {
        bool clamp = isa_instr_has(in, ISA_M_CLAMP), wrap = isa_instr_has(in, ISA_M_WRAP);
        if (clamp == wrap)
            return false;
        aux |= (uint64_t)wrap * V_WRAP;
        known++;
    }
    if (in->op == ISA_OP_VMAD) {
        if (isa_instr_has(in, ISA_M_PO)) {
            aux |= V_PO;
            known++;
        }
        int sc = isa_instr_mod(in, ISA_G_VSCALE);
        if (sc >= 0) {
            aux |= (uint64_t)(sc == ISA_M_SHR7 ? 7 : 15) << V_SCALE_SHIFT;
            known++;
        }
    }
    if (set) {
        static const uint16_t cmps[] = { ISA_M_EQ, ISA_M_NE, ISA_M_LT, ISA_M_LE, ISA_M_GT, ISA_M_GE };
        int cmp = isa_instr_mod(in, ISA_G_CMP);
        unsigned k = 0;
        while (k < 6 && cmps[k] != cmp)
            k++;
        if (k == 6)
            return false;
        aux |= (uint64_t)k << V_CMP_SHIFT;
        known++;
    }
    if (in->nsfx != known)
        return false;
    /* SIMD: every field written, the sources as they are, until the operands say
     * otherwise. */
    if (simd)
        aux |= (uint64_t)((1u << simd) - 1) << V_MASK_SHIFT;
    x->imm = simd == 2 ? V_IMM2 : simd == 4 ? V_IMM4 : 0;
    x->aux = aux;
    x->desc = fn;
    return true;
}

/* Which single selectors operand i (0 d, 1 a, 2 b, 3 c) of a video instruction may
 * carry: scalar sources and the scalar destination any byte or half-word (not vmad's
 * destination); a SIMD destination one field of its width as the mask.  The SIMD
 * forms' multi-field selectors are isa_sem_video_opd's. */
bool isa_sem_video_sel(const isa_instr_t *in, unsigned i, unsigned sel)
{
    if (sel == ISA_SEL_NONE)
        return true;
    if (sel < ISA_SEL_B0 || i > 2)
        return false;
    switch ((isa_op_t)in->op) {
    case ISA_OP_VADD2: case ISA_OP_VSUB2: case ISA_OP_VAVRG2: case ISA_OP_VABSDIFF2:
    case ISA_OP_VMIN2: case ISA_OP_VMAX2: case ISA_OP_VSET2:
        return i == 0 && sel >= ISA_SEL_H0;
    case ISA_OP_VADD4: case ISA_OP_VSUB4: case ISA_OP_VAVRG4: case ISA_OP_VABSDIFF4:
    case ISA_OP_VMIN4: case ISA_OP_VMAX4: case ISA_OP_VSET4:
        return i == 0 && sel <= ISA_SEL_B3;
    case ISA_OP_VMAD:
        return i != 0;
    default:
        /* A merge needs c, and excludes a secondary operation. */
        return i != 0 || (in->nopd == 4 && isa_instr_mod(in, ISA_G_ATOMOP) < 0);
    }
}

/* Operand i of a video instruction carries selector sel (digits fsel) and, when minus,
 * a negation: record them in x (selected by isa_sem_video) for the handler, or refuse.
 * Scalar: a byte or half selector goes to aux at ISA_AUX_SEL_SHIFT(i).  vmad: -a and
 * -b each flip the product's sign (V_NEGP), -c sets V_NEGC.  SIMD: the destination's
 * fields (.h1, .b20, .b3210) replace the mask in aux; a source's digits (.h21, .b7531:
 * 2 or 4 of them, halves 0-3 or bytes 0-7) go to imm and V_PERM is set when imm is not
 * the default. */
bool isa_sem_video_opd(const isa_instr_t *in, unsigned i, unsigned sel, unsigned fsel, bool minus,
                       isa_xinsn_t *x)
{
    unsigned n = 0;
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++)
        if (rows[k].op == in->op)
            n = rows[k].simd;
    if (minus) {
        if (in->op != ISA_OP_VMAD || i < 1 || i > 3)
            return false;
        x->aux ^= i == 3 ? V_NEGC : V_NEGP;
    }
    if (sel == ISA_SEL_NONE)
        return true;
    if (!n) {
        if (ISA_SEL_MULTI(sel) || !isa_sem_video_sel(in, i, sel))
            return false;
        x->aux |= (uint64_t)sel << ISA_AUX_SEL_SHIFT(i);
        return true;
    }
    if (i > 2)
        return false;
    unsigned nd = ISA_SEL_MULTI(sel) ? ISA_SEL_NDIGITS(sel) : 0;
    if (i == 0) {
        unsigned mask = 0;
        if (!nd) {
            if (!isa_sem_video_sel(in, 0, sel))
                return false;
            mask = 1u << (sel - (n == 2 ? ISA_SEL_H0 : ISA_SEL_B0));
        } else {
            if ((sel == ISA_SEL_HXY) != (n == 2))
                return false;
            for (unsigned k = 0; k < nd; k++) {
                unsigned dg = (fsel >> (4 * k)) & 0xf;
                if (dg >= n)
                    return false;
                mask |= 1u << dg;
            }
        }
        x->aux = (x->aux & ~((uint64_t)0xf << V_MASK_SHIFT)) | (uint64_t)mask << V_MASK_SHIFT;
        return true;
    }
    if (sel != (n == 2 ? ISA_SEL_HXY : ISA_SEL_BXYZW))
        return false;
    for (unsigned k = 0; k < n; k++)
        if (((fsel >> (4 * k)) & 0xf) >= 2 * n)
            return false;
    unsigned sh = 16 * (i - 1);
    x->imm = (int64_t)(((uint64_t)x->imm & ~((uint64_t)0xffff << sh)) | (uint64_t)(fsel & 0xffff) << sh);
    x->aux &= ~(uint64_t)V_PERM;
    if (x->imm != (n == 2 ? V_IMM2 : V_IMM4))
        x->aux |= V_PERM;
    return true;
}
