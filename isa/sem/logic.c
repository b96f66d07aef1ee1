/* logic.c: logic, shift and bit-manipulation semantics: and, or, xor, not, cnot (also on
 * predicates), shl, shr (shift amounts clamp at the width), shf, popc, clz, brev, bfind,
 * bfe, bfi, bmsk, szext, fns, lop3 (with its predicate form) and prmt (every mode). */
#include "isa/sem/lanes.h"

#define LOGIC_SET(W, U)                                                                   \
    ISA_H2(and_##W, U, U, U, a & b) ISA_H2(or_##W, U, U, U, a | b)                        \
    ISA_H2(xor_##W, U, U, U, a ^ b) ISA_H1(not_##W, U, U, ~a) ISA_H1(cnot_##W, U, U, a == 0) \
    ISA_H2(shl_##W, U, U, uint32_t, b >= W ? 0 : (U)(a << b))                             \
    ISA_H2(shr_u##W, U, U, uint32_t, b >= W ? 0 : (U)(a >> b))
LOGIC_SET(16, uint16_t)
LOGIC_SET(32, uint32_t)
LOGIC_SET(64, uint64_t)
ISA_H2(shr_s16, int16_t, int16_t, uint32_t, a >> (b >= 16 ? 15 : b))
ISA_H2(shr_s32, int32_t, int32_t, uint32_t, a >> (b >= 32 ? 31 : b))
ISA_H2(shr_s64, int64_t, int64_t, uint32_t, a >> (b >= 64 ? 63 : b))

/* Predicate logic works on whole lane masks. */
#define PRED_OP(NAME, EXPR)                                                              \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
    {                                                                                    \
        (void)w_;                                                                        \
        uint32_t a = *ISA_SLOT(uint32_t, f, in->o[1]);                                   \
        uint32_t b = in->o[2] != ISA_NONE ? *ISA_SLOT(uint32_t, f, in->o[2]) : 0;        \
        if (in->flags & 2) a = ~a;                                                       \
        if (in->flags & 4) b = ~b;                                                       \
        uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);                                   \
        *d = (*d & ~mask) | ((EXPR) & mask);                                             \
        return ISA_X_NEXT;                                                               \
    }                                                                                    \
    ISA_DESCH(NAME, ISA_OPDF_NEG, ISA_W_PRED, ISA_W_PRED, ISA_W_PRED)
PRED_OP(and_pred, a & b)
PRED_OP(or_pred, a | b)
PRED_OP(xor_pred, a ^ b)
PRED_OP(not_pred, ~a)

ISA_H1(popc_32, uint32_t, uint32_t, (uint32_t)__builtin_popcount(a))
ISA_H1(popc_64, uint32_t, uint64_t, (uint32_t)__builtin_popcountll(a))
ISA_H1(clz_32, uint32_t, uint32_t, a ? (uint32_t)__builtin_clz(a) : 32u)
ISA_H1(clz_64, uint32_t, uint64_t, a ? (uint32_t)__builtin_clzll(a) : 64u)

static inline uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline uint64_t brev64(uint64_t x) { return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32)); }
ISA_H1(brev_32, uint32_t, uint32_t, brev32(a))
ISA_H1(brev_64, uint64_t, uint64_t, brev64(a))

/* bfind: position of the most significant non-sign bit, 0xffffffff when none;
 * .shiftamt gives the left shift that would bring it to the top. */
static inline uint32_t bfind_u(uint64_t a, unsigned w, bool shamt)
{
    if (a == 0)
        return 0xffffffffu;
    uint32_t pos = 63u - (uint32_t)__builtin_clzll(a);
    return shamt ? (w - 1) - pos : pos;
}
static inline uint32_t bfind_s(int64_t a, unsigned w, bool shamt)
{
    uint64_t u = a < 0 ? ~(uint64_t)a : (uint64_t)a;
    if (w == 32)
        u &= 0xffffffffu;
    return bfind_u(u, w, shamt);
}
ISA_H1(bfind_u32, uint32_t, uint32_t, bfind_u(a, 32, false))
ISA_H1(bfind_u64, uint32_t, uint64_t, bfind_u(a, 64, false))
ISA_H1(bfind_s32, uint32_t, int32_t, bfind_s(a, 32, false))
ISA_H1(bfind_s64, uint32_t, int64_t, bfind_s(a, 64, false))
ISA_H1(bfind_sa_u32, uint32_t, uint32_t, bfind_u(a, 32, true))
ISA_H1(bfind_sa_u64, uint32_t, uint64_t, bfind_u(a, 64, true))
ISA_H1(bfind_sa_s32, uint32_t, int32_t, bfind_s(a, 32, true))
ISA_H1(bfind_sa_s64, uint32_t, int64_t, bfind_s(a, 64, true))

/* bfe: extract len bits at pos; signed forms sign-extend from the last extracted bit, and
 * a field past the top replicates the sign.  The 32-bit forms take pos and len modulo 256,
 * the 64-bit forms the whole 32-bit values (hardware-recorded: bfe.u64(1, 0x80000000,
 * 0x80) is 0, bfe.u64(0x7fffffff, 2, 0x1f00) is 0x1fffffff). */
static inline uint32_t bf_field(uint32_t x, unsigned w) { return w == 64 ? x : x & 0xff; }
static inline uint64_t bfe_u(uint64_t a, uint32_t b, uint32_t c, unsigned w)
{
    uint32_t pos = bf_field(b, w), len = bf_field(c, w);
    if (len == 0 || pos >= w)
        return 0;
    if (len > w - pos)
        len = w - pos;
    uint64_t v = a >> pos;
    return len >= 64 ? v : v & ((1ull << len) - 1);
}
static inline int64_t bfe_s(int64_t a, uint32_t b, uint32_t c, unsigned w)
{
    uint32_t pos = bf_field(b, w), len = bf_field(c, w);
    int64_t sbit;
    if (len == 0)
        return 0;
    if (pos >= w || len > w - pos)
        sbit = (a >> (w - 1)) & 1;
    else
        sbit = (a >> (pos + len - 1)) & 1;
    uint64_t v = bfe_u((uint64_t)a, pos, len, w);
    uint32_t got = pos >= w ? 0 : (len > w - pos ? w - pos : len);
    if (sbit && got < 64)
        v |= ~0ull << got;
    if (pos >= w)
        v = sbit ? ~0ull : 0;
    return (int64_t)v;
}
ISA_H3(bfe_u32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)bfe_u(a, b, c, 32))
ISA_H3(bfe_u64, uint64_t, uint64_t, uint32_t, uint32_t, bfe_u(a, b, c, 64))
ISA_H3(bfe_s32, int32_t, int32_t, uint32_t, uint32_t, (int32_t)bfe_s(a, b, c, 32))
ISA_H3(bfe_s64, int64_t, int64_t, uint32_t, uint32_t, bfe_s(a, b, c, 64))

/* bfi: insert the low len bits of a into b at pos (pos and len as for bfe). */
static inline uint64_t bfi_u(uint64_t a, uint64_t b, uint32_t c, uint32_t d, unsigned w)
{
    uint32_t pos = bf_field(c, w), len = bf_field(d, w);
    if (len == 0 || pos >= w)
        return b;
    if (len > w - pos)
        len = w - pos;
    uint64_t m = (len >= 64 ? ~0ull : ((1ull << len) - 1)) << pos;
    uint64_t r = (b & ~m) | ((a << pos) & m);
    return w == 32 ? (uint32_t)r : r;
}
#define BFI(W, U)                                                                        \
    ISA_HOT static int bfi_##W##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)       \
    {                                                                                    \
        (void)w_;                                                                        \
        U *d = ISA_SLOT(U, f, in->o[0]);                                                 \
        const U *a = ISA_SLOT(const U, f, in->o[1]), *b = ISA_SLOT(const U, f, in->o[2]); \
        const uint32_t *c = ISA_SLOT(const uint32_t, f, in->o[3]);                       \
        const uint32_t *e = ISA_SLOT(const uint32_t, f, in->o[4]);                       \
        ISA_LANE_LOOP(mask, { d[l] = (U)bfi_u(a[l], b[l], c[l], e[l], W); });             \
        return ISA_X_NEXT;                                                               \
    }                                                                                    \
    ISA_DESC(bfi_##W, sizeof(U), sizeof(U), sizeof(U), 4, 4)
BFI(32, uint32_t)
BFI(64, uint64_t)

/* lop3: any three-input function by its truth table. */
static inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t r = 0;
    if (lut & 0x01) r |= ~a & ~b & ~c;
    if (lut & 0x02) r |= ~a & ~b & c;
    if (lut & 0x04) r |= ~a & b & ~c;
    if (lut & 0x08) r |= ~a & b & c;
    if (lut & 0x10) r |= a & ~b & ~c;
    if (lut & 0x20) r |= a & ~b & c;
    if (lut & 0x40) r |= a & b & ~c;
    if (lut & 0x80) r |= a & b & c;
    return r;
}
ISA_HOT static int lop3_32_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);
    const uint32_t *a = ISA_SLOT(const uint32_t, f, in->o[1]), *b = ISA_SLOT(const uint32_t, f, in->o[2]);
    const uint32_t *c = ISA_SLOT(const uint32_t, f, in->o[3]);
    uint32_t lut = (uint32_t)in->aux;
    /* the truth table's bits as all-ones or zero masks: the lanes' loop has no branch */
    uint32_t m0 = 0u - (lut & 1), m1 = 0u - (lut >> 1 & 1), m2 = 0u - (lut >> 2 & 1), m3 = 0u - (lut >> 3 & 1);
    uint32_t m4 = 0u - (lut >> 4 & 1), m5 = 0u - (lut >> 5 & 1), m6 = 0u - (lut >> 6 & 1), m7 = 0u - (lut >> 7 & 1);
    ISA_LANE_LOOP(mask, {
        uint32_t x = a[l];
        uint32_t y = b[l];
        uint32_t z = c[l];
        uint32_t nx = ~x;
        uint32_t ny = ~y;
        uint32_t nz = ~z;
        d[l] = (nx & ny & nz & m0) | (nx & ny & z & m1) | (nx & y & nz & m2) | (nx & y & z & m3) |
               (x & ny & nz & m4) | (x & ny & z & m5) | (x & y & nz & m6) | (x & y & z & m7);
    });
    return ISA_X_NEXT;
}
ISA_DESC(lop3_32, 4, 4, 4, 4)

/* lop3.{and,or}.b32 d|p, a, b, c, immLut, q: d as above (o[0], ISA_NONE for _), and the
 * predicate p (o[4]) = (d != 0) BoolOp q, q in o[5] (negated when flags bit 0 is set);
 * aux: the LUT in bits 0-7, LOP3_OR for .or (else .and). */
#define LOP3_OR 0x100u
ISA_HOT static int lop3_32p_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint32_t *d = in->o[0] == ISA_NONE ? NULL : ISA_SLOT(uint32_t, f, in->o[0]);
    const uint32_t *a = ISA_SLOT(const uint32_t, f, in->o[1]), *b = ISA_SLOT(const uint32_t, f, in->o[2]);
    const uint32_t *c = ISA_SLOT(const uint32_t, f, in->o[3]);
    uint32_t *p = ISA_SLOT(uint32_t, f, in->o[4]);
    uint32_t q = *ISA_SLOT(const uint32_t, f, in->o[5]);
    uint32_t lut = (uint32_t)in->aux & 0xff, nz = 0;
    if (in->flags & 1)
        q = ~q;
    ISA_LANE_LOOP(mask, {
        uint32_t r = lop3(a[l], b[l], c[l], lut);
        nz |= (uint32_t)(r != 0) << l;
        if (d)
            d[l] = r;
    });
    uint32_t r = (in->aux & LOP3_OR) ? nz | q : nz & q;
    *p = (*p & ~mask) | (r & mask);
    return ISA_X_NEXT;
}
ISA_DESCH(lop3_32p, ISA_OPDF_NEG | ISA_HON_DUAL | ISA_HON_SINK, 4, 4, 4, 4, ISA_W_ANY, ISA_W_PRED)

/* prmt (default mode): each selector nibble picks a byte of {b, a}; bit 3 replicates
 * the picked byte's sign. */
static inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t x = ((uint64_t)b << 32) | a;
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned s = (c >> (4 * i)) & 0xf;
        uint32_t byte = (uint32_t)(x >> (8 * (s & 7))) & 0xff;
        if (s & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
    }
    return r;
}
ISA_H3(prmt_32, uint32_t, uint32_t, uint32_t, uint32_t, prmt(a, b, c))

/* The other prmt modes take c's two low bits and pick, for result bytes 3..0, the
 * bytes of {b, a} given by a fixed table (one nibble per result byte, as the manual
 * lists them):
 * f4e forward 4 extract, b4e backward, rc8 replicate a byte, ecl and ecr edge clamps
 * left and right, rc16 replicate a half-word. */
static const uint16_t prmt_tab[6][4] = {
    { 0x3210, 0x4321, 0x5432, 0x6543 },      /* f4e */
    { 0x5670, 0x6701, 0x7012, 0x0123 },      /* b4e */
    { 0x0000, 0x1111, 0x2222, 0x3333 },      /* rc8 */
    { 0x3210, 0x3211, 0x3222, 0x3333 },      /* ecl */
    { 0x0000, 0x1110, 0x2210, 0x3210 },      /* ecr */
    { 0x1010, 0x3232, 0x1010, 0x3232 },      /* rc16 */
};
static inline uint32_t prmt_mode(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
    uint64_t x = ((uint64_t)b << 32) | a;
    unsigned sel = prmt_tab[mode][c & 3];
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; i++)
        r |= ((uint32_t)(x >> (8 * ((sel >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
#define PRMT_MODE(NAME, M) ISA_H3(NAME, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(a, b, c, M))
PRMT_MODE(prmt_f4e, 0)
PRMT_MODE(prmt_b4e, 1)
PRMT_MODE(prmt_rc8, 2)
PRMT_MODE(prmt_ecl, 3)
PRMT_MODE(prmt_ecr, 4)
PRMT_MODE(prmt_rc16, 5)

/* shf: funnel shift of the 64-bit {b, a} by c; .clamp limits c to 32, .wrap takes it
 * modulo 32.  .l returns the high word of the left shift, .r the low word of the right. */
static inline uint32_t shf_l(uint32_t a, uint32_t b, uint32_t n)
{
    return (uint32_t)(((((uint64_t)b << 32) | a) << n) >> 32);
}
static inline uint32_t shf_r(uint32_t a, uint32_t b, uint32_t n)
{
    return (uint32_t)((((uint64_t)b << 32) | a) >> n);
}
ISA_H3(shf_l_clamp, uint32_t, uint32_t, uint32_t, uint32_t, shf_l(a, b, c > 32 ? 32 : c))
ISA_H3(shf_l_wrap, uint32_t, uint32_t, uint32_t, uint32_t, shf_l(a, b, c & 31))
ISA_H3(shf_r_clamp, uint32_t, uint32_t, uint32_t, uint32_t, shf_r(a, b, c > 32 ? 32 : c))
ISA_H3(shf_r_wrap, uint32_t, uint32_t, uint32_t, uint32_t, shf_r(a, b, c & 31))

/* bmsk: a mask of b ones starting at bit a.  .wrap takes a and b modulo 32; .clamp
 * gives no bits for a >= 32 and every bit from a up for b >= 32 (or a + b >= 32). */
static inline uint32_t bmsk(uint32_t a, uint32_t b, bool clamp)
{
    uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1;
    bool over = sum >= 32;
    if (clamp) {
        if (a >= 32) {
            mask0 = 0;
            over = true;
        }
        if (b >= 32)
            over = true;
    }
    if (over)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~0u;
    else
        mask1 = ~0u << sum;
    return mask0 & ~mask1;
}
ISA_H2(bmsk_clamp, uint32_t, uint32_t, uint32_t, bmsk(a, b, true))
ISA_H2(bmsk_wrap, uint32_t, uint32_t, uint32_t, bmsk(a, b, false))

/* szext: keep the low N = b bits of a, zero- or sign-extended; N = 0 gives 0, and
 * N >= 32 keeps a (.clamp) or wraps modulo 32 (.wrap). */
static inline uint32_t szext(uint32_t a, uint32_t b, bool clamp, bool sgn)
{
    uint32_t b1 = b & 31;
    bool big = clamp && b >= 32;
    uint32_t mask = big ? 0 : ~0u << b1;
    bool sbit = !(b1 == 0 || big || !sgn) && ((a >> ((b1 - 1) & 31)) & 1);
    return (a & ~mask) | (sbit ? mask : 0);
}
ISA_H2(szext_clamp_u, uint32_t, uint32_t, uint32_t, szext(a, b, true, false))
ISA_H2(szext_wrap_u, uint32_t, uint32_t, uint32_t, szext(a, b, false, false))
ISA_H2(szext_clamp_s, uint32_t, uint32_t, uint32_t, szext(a, b, true, true))
ISA_H2(szext_wrap_s, uint32_t, uint32_t, uint32_t, szext(a, b, false, true))

/* fns: the position of the |offset|-th set bit of mask counting from base (upwards for
 * a positive offset, downwards for a negative one, base itself first); offset 0 tests
 * base alone; 0xffffffff when there is none.  Where the manual leaves it undefined the
 * GPU gives 0xffffffff for any base above 31 (taken unsigned, whole), and 0 for the
 * offset INT_MIN (whatever mask and base are). */
static inline uint32_t fns(uint32_t mask, uint32_t base, int32_t off)
{
    if (off == INT32_MIN)
        return 0;
    if (base >= 32)
        return 0xffffffffu;
    if (off == 0)
        return ((mask >> base) & 1) ? base : 0xffffffffu;
    int pos = (int)base, inc = off > 0 ? 1 : -1;
    uint32_t count = (uint32_t)(off > 0 ? off : -(int64_t)off) - 1;
    for (; pos >= 0 && pos < 32; pos += inc) {
        if ((mask >> pos) & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
    }
    return 0xffffffffu;
}
ISA_H3(fns_32, uint32_t, uint32_t, uint32_t, int32_t, fns(a, b, c))

#define ROWS3(op) { ISA_T_B16, op##_16 }, { ISA_T_B32, op##_32 }, { ISA_T_B64, op##_64 }
static const isa_tsel_t t_and[] = { ROWS3(and) }, t_or[] = { ROWS3(or) }, t_xor[] = { ROWS3(xor) };
static const isa_tsel_t t_not[] = { ROWS3(not) }, t_cnot[] = { ROWS3(cnot) }, t_shl[] = { ROWS3(shl) };
static const isa_tsel_t t_shr[] = {
    { ISA_T_B16, shr_u16 }, { ISA_T_B32, shr_u32 }, { ISA_T_B64, shr_u64 },
    { ISA_T_U16, shr_u16 }, { ISA_T_U32, shr_u32 }, { ISA_T_U64, shr_u64 },
    { ISA_T_S16, shr_s16 }, { ISA_T_S32, shr_s32 }, { ISA_T_S64, shr_s64 } };

bool isa_sem_logic(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->ntypes != 1)
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    bool plain = in->nsfx == 1;
    x->desc = NULL;
    if (t == ISA_T_PRED && plain) {
        switch ((isa_op_t)in->op) {
        case ISA_OP_AND: x->desc = and_pred; break;
        case ISA_OP_OR:  x->desc = or_pred; break;
        case ISA_OP_XOR: x->desc = xor_pred; break;
        case ISA_OP_NOT: x->desc = not_pred; break;
        default: break;
        }
        return x->desc != NULL;
    }
    switch ((isa_op_t)in->op) {
    case ISA_OP_AND:  x->desc = plain ? ISA_TSEL(t_and, t) : NULL; break;
    case ISA_OP_OR:   x->desc = plain ? ISA_TSEL(t_or, t) : NULL; break;
    case ISA_OP_XOR:  x->desc = plain ? ISA_TSEL(t_xor, t) : NULL; break;
    case ISA_OP_NOT:  x->desc = plain ? ISA_TSEL(t_not, t) : NULL; break;
    case ISA_OP_CNOT: x->desc = plain ? ISA_TSEL(t_cnot, t) : NULL; break;
    case ISA_OP_SHL:  x->desc = plain ? ISA_TSEL(t_shl, t) : NULL; break;
    case ISA_OP_SHR:  x->desc = plain ? ISA_TSEL(t_shr, t) : NULL; break;
    case ISA_OP_POPC: x->desc = t == ISA_T_B32 ? popc_32 : t == ISA_T_B64 ? popc_64 : NULL; break;
    case ISA_OP_CLZ:  x->desc = t == ISA_T_B32 ? clz_32 : t == ISA_T_B64 ? clz_64 : NULL; break;
    case ISA_OP_BREV: x->desc = t == ISA_T_B32 ? brev_32 : t == ISA_T_B64 ? brev_64 : NULL; break;
    case ISA_OP_BFIND: {
        bool sa = isa_instr_mod(in, ISA_G_MODE) >= 0;
        if (in->nsfx != 1 + sa)
            break;
        x->desc = t == ISA_T_U32 ? (sa ? bfind_sa_u32 : bfind_u32) : t == ISA_T_U64 ? (sa ? bfind_sa_u64 : bfind_u64)
              : t == ISA_T_S32 ? (sa ? bfind_sa_s32 : bfind_s32) : t == ISA_T_S64 ? (sa ? bfind_sa_s64 : bfind_s64)
              : NULL;
        break;
    }
    case ISA_OP_BFE:
        x->desc = t == ISA_T_U32 ? bfe_u32 : t == ISA_T_U64 ? bfe_u64 : t == ISA_T_S32 ? bfe_s32
              : t == ISA_T_S64 ? bfe_s64 : NULL;
        break;
    case ISA_OP_BFI: x->desc = t == ISA_T_B32 ? bfi_32 : t == ISA_T_B64 ? bfi_64 : NULL; break;
    case ISA_OP_LOP3: {
        int bop = isa_instr_mod(in, ISA_G_BOOLOP);
        if (t != ISA_T_B32)
            break;
        if (plain && in->nopd == 5)
            x->desc = lop3_32;
        else if (in->nsfx == 2 && in->nopd == 6 && (bop == ISA_M_AND || bop == ISA_M_OR)) {
            x->desc = lop3_32p;
            x->aux = bop == ISA_M_OR ? LOP3_OR : 0;   /* pre-decoding adds the LUT */
        }
        break;
    }
    case ISA_OP_PRMT: {
        int m = isa_instr_mod(in, ISA_G_MODE);
        if (t != ISA_T_B32 || in->nsfx != 1u + (m >= 0))
            break;
        x->desc = m < 0 ? prmt_32 : m == ISA_M_F4E ? prmt_f4e : m == ISA_M_B4E ? prmt_b4e
              : m == ISA_M_RC8 ? prmt_rc8 : m == ISA_M_ECL ? prmt_ecl : m == ISA_M_ECR ? prmt_ecr
              : m == ISA_M_RC16 ? prmt_rc16 : NULL;
        break;
    }
    case ISA_OP_SHF: {
        int m = isa_instr_mod(in, ISA_G_MODE), w = isa_instr_mod(in, ISA_G_WRAP);
        if (t != ISA_T_B32 || in->nsfx != 3 || (w != ISA_M_CLAMP && w != ISA_M_WRAP))
            break;
        x->desc = m == ISA_M_L ? (w == ISA_M_CLAMP ? shf_l_clamp : shf_l_wrap)
              : m == ISA_M_R ? (w == ISA_M_CLAMP ? shf_r_clamp : shf_r_wrap) : NULL;
        break;
    }
    case ISA_OP_BMSK:
    case ISA_OP_SZEXT: {
        int w = isa_instr_mod(in, ISA_G_WRAP);
        if (in->nsfx != 2 || (w != ISA_M_CLAMP && w != ISA_M_WRAP))
            break;
        bool cl = w == ISA_M_CLAMP;
        if (in->op == ISA_OP_BMSK)
            x->desc = t == ISA_T_B32 ? (cl ? bmsk_clamp : bmsk_wrap) : NULL;
        else
            x->desc = t == ISA_T_U32 ? (cl ? szext_clamp_u : szext_wrap_u)
                  : t == ISA_T_S32 ? (cl ? szext_clamp_s : szext_wrap_s) : NULL;
        break;
    }
    case ISA_OP_FNS: x->desc = plain && t == ISA_T_B32 ? fns_32 : NULL; break;
    default: break;
    }
    return x->desc != NULL;
}
