/* logic.c: logic, shift and bit-manipulation semantics: and, or, xor, not, cnot (also on
 * predicates), shl, shr (shift amounts clamp at the width), popc, clz, brev, bfind,
 * bfe, bfi, lop3 and prmt (default mode). */
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
    static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)      \
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
    ISA_DESC(NAME, ISA_W_PRED, ISA_W_PRED, ISA_W_PRED)
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

/* bfe: extract len bits at pos (both taken modulo 256); signed forms sign-extend from
 * the last extracted bit, and a field past the top replicates the sign. */
static inline uint64_t bfe_u(uint64_t a, uint32_t b, uint32_t c, unsigned w)
{
    unsigned pos = b & 0xff, len = c & 0xff;
    if (len == 0 || pos >= w)
        return 0;
    if (len > w - pos)
        len = w - pos;
    uint64_t v = a >> pos;
    return len >= 64 ? v : v & ((1ull << len) - 1);
}
static inline int64_t bfe_s(int64_t a, uint32_t b, uint32_t c, unsigned w)
{
    unsigned pos = b & 0xff, len = c & 0xff;
    int64_t sbit;
    if (len == 0)
        return 0;
    if (pos + len - 1 >= w)
        sbit = (a >> (w - 1)) & 1;
    else
        sbit = (a >> (pos + len - 1)) & 1;
    uint64_t v = bfe_u((uint64_t)a, pos, len, w);
    unsigned got = pos >= w ? 0 : (len > w - pos ? w - pos : len);
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

/* bfi: insert the low len bits of a into b at pos. */
static inline uint64_t bfi_u(uint64_t a, uint64_t b, uint32_t c, uint32_t d, unsigned w)
{
    unsigned pos = c & 0xff, len = d & 0xff;
    if (len == 0 || pos >= w)
        return b;
    if (len > w - pos)
        len = w - pos;
    uint64_t m = (len >= 64 ? ~0ull : ((1ull << len) - 1)) << pos;
    uint64_t r = (b & ~m) | ((a << pos) & m);
    return w == 32 ? (uint32_t)r : r;
}
#define BFI(W, U)                                                                        \
    static int bfi_##W##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)       \
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
static int lop3_32_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);
    const uint32_t *a = ISA_SLOT(const uint32_t, f, in->o[1]), *b = ISA_SLOT(const uint32_t, f, in->o[2]);
    const uint32_t *c = ISA_SLOT(const uint32_t, f, in->o[3]);
    uint32_t lut = (uint32_t)in->aux;
    ISA_LANE_LOOP(mask, { d[l] = lop3(a[l], b[l], c[l], lut); });
    return ISA_X_NEXT;
}
ISA_DESC(lop3_32, 4, 4, 4, 4)

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
    case ISA_OP_LOP3: x->desc = plain && t == ISA_T_B32 && in->nopd == 5 ? lop3_32 : NULL; break;
    case ISA_OP_PRMT: x->desc = plain && t == ISA_T_B32 ? prmt_32 : NULL; break;
    default: break;
    }
    return x->desc != NULL;
}
