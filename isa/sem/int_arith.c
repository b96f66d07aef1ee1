/* int_arith.c: integer arithmetic semantics: add, sub, mul (.lo .hi .wide), mad, div,
 * rem, abs, neg, min, max, the .sat and carry (.cc, addc, subc, madc) forms, mul24,
 * mad24, sad, dp4a and dp2a.  Signed wrap-around is computed in unsigned arithmetic (16-bit
 * products as unsigned int: 1u * a * b, not the int that uint16_t promotes to). */
#include "isa/sem/lanes.h"

/* High halves of products. */
static inline uint32_t hi_u32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static inline int32_t hi_s32(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
__extension__ typedef unsigned __int128 u128_t;   /* a GNU C type (builds with -pedantic) */
__extension__ typedef __int128 s128_t;
static inline uint64_t hi_u64(uint64_t a, uint64_t b) { return (uint64_t)(((u128_t)a * b) >> 64); }
static inline int64_t hi_s64(int64_t a, int64_t b) { return (int64_t)(((s128_t)a * b) >> 64); }
static inline uint16_t hi_u16(uint16_t a, uint16_t b) { return (uint16_t)(((uint32_t)a * b) >> 16); }
static inline int16_t hi_s16(int16_t a, int16_t b) { return (int16_t)(((int32_t)a * b) >> 16); }

/* Division: by zero, quotient and remainder are all ones, signed or not (hardware-
 * recorded); the most negative value divided by -1 wraps, with remainder 0. */
#define DIVU(a, b) ((b) ? (a) / (b) : (__typeof__(a))~(__typeof__(a))0)
#define REMU(a, b) ((b) ? (a) % (b) : (__typeof__(a))~(__typeof__(a))0)
#define DIVS(T, UT, a, b) ((b) == 0 ? (T)-1 : ((b) == -1 ? (T)(UT)(0 - (UT)(a)) : (T)((a) / (b))))
#define REMS(T, a, b) ((b) == 0 ? (T)-1 : ((b) == -1 ? (T)0 : (T)((a) % (b))))

#define INT_SET(W, U, S)                                                                        \
    ISA_H2(add_##W, U, U, U, a + b)                                                             \
    ISA_H2(sub_##W, U, U, U, a - b)                                                             \
    ISA_H2(mullo_##W, U, U, U, (U)(1u * a * b))                                                 \
    ISA_H2(mulhi_u##W, U, U, U, hi_u##W(a, b))                                               \
    ISA_H2(mulhi_s##W, S, S, S, hi_s##W(a, b))                                               \
    ISA_H3(madlo_##W, U, U, U, U, (U)(1u * a * b + c))                                          \
    ISA_H3(madhi_u##W, U, U, U, U, (U)(hi_u##W(a, b) + c))                                   \
    ISA_H3(madhi_s##W, S, S, S, S, (S)(U)((U)hi_s##W(a, b) + (U)c))                          \
    ISA_H2(div_u##W, U, U, U, DIVU(a, b))                                                       \
    ISA_H2(div_s##W, S, S, S, DIVS(S, U, a, b))                                                 \
    ISA_H2(rem_u##W, U, U, U, REMU(a, b))                                                       \
    ISA_H2(rem_s##W, S, S, S, REMS(S, a, b))                                                    \
    ISA_H1(abs_s##W, S, S, (S)(a < 0 ? (U)(0 - (U)a) : (U)a))                                   \
    ISA_H1(neg_s##W, U, U, (U)(0 - a))                                                          \
    ISA_H2(min_u##W, U, U, U, a < b ? a : b)                                                    \
    ISA_H2(min_s##W, S, S, S, a < b ? a : b)                                                    \
    ISA_H2(max_u##W, U, U, U, a > b ? a : b)                                                    \
    ISA_H2(max_s##W, S, S, S, a > b ? a : b)

INT_SET(16, uint16_t, int16_t)
INT_SET(32, uint32_t, int32_t)
INT_SET(64, uint64_t, int64_t)

/* Wide products: the destination is twice as wide. */
ISA_H2(mulwide_u16, uint32_t, uint16_t, uint16_t, (uint32_t)a * b)
ISA_H2(mulwide_s16, int32_t, int16_t, int16_t, (int32_t)a * b)
ISA_H2(mulwide_u32, uint64_t, uint32_t, uint32_t, (uint64_t)a * b)
ISA_H2(mulwide_s32, int64_t, int32_t, int32_t, (int64_t)a * b)
ISA_H3(madwide_u16, uint32_t, uint16_t, uint16_t, uint32_t, (uint32_t)a * b + c)
ISA_H3(madwide_s16, uint32_t, int16_t, int16_t, uint32_t, (uint32_t)((int32_t)a * b) + c)
ISA_H3(madwide_u32, uint64_t, uint32_t, uint32_t, uint64_t, (uint64_t)a * b + c)
ISA_H3(madwide_s32, uint64_t, int32_t, int32_t, uint64_t, (uint64_t)((int64_t)a * b) + c)

/* Saturating signed 32-bit results: add.sat, sub.sat, mad.hi.sat, mad24.hi.sat. */
static inline int32_t sat_s32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }
ISA_H2(add_sat_s32, int32_t, int32_t, int32_t, sat_s32((int64_t)a + b))
ISA_H2(sub_sat_s32, int32_t, int32_t, int32_t, sat_s32((int64_t)a - b))
ISA_H3(madhi_sat_s32, int32_t, int32_t, int32_t, int32_t, sat_s32((int64_t)hi_s32(a, b) + c))

/* ==== Carry chains {=====
 * The carry flag CC.CF is a per-lane 0/1 word in the frame slot o[5].  add.cc and
 * addc.cc write the carry out of the unsigned addition.  Subtraction adds the inverted
 * operand, as the hardware does: sub.cc computes a + ~b + 1 and subc a + ~b + CF, and
 * the .cc forms write that addition's carry out, so CF is 1 when no borrow occurred
 * (hardware-recorded: sub.cc then addc 0, 0 gives 1 exactly when a >= b, and add.cc
 * then subc 0, 0 gives -1 exactly when the addition did not carry).  Signed types chain
 * the same unsigned words.  mad{c}.lo/.hi.cc add c (and the carry in) to the chosen
 * product half. */
#define ADDC(U)                                                                             \
    static inline U addc_##U(U a, U b, uint32_t ci, uint32_t *co)                           \
    {                                                                                       \
        U s = (U)(a + b), r = (U)(s + ci);                                                  \
        *co = (uint32_t)(s < a) | (uint32_t)(r < s);                                        \
        return r;                                                                           \
    }
ADDC(uint32_t)
ADDC(uint64_t)

/* A carry handler: d = EXPR over a, b (and c when N is 3), the carry in ci (0 unless
 * CIN) and the carry out co (stored when COUT). */
#define CARRY_H(NAME, U, N, CIN, COUT, EXPR)                                                \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)         \
    {                                                                                       \
        (void)w_;                                                                           \
        U *d = ISA_SLOT(U, f, in->o[0]);                                                    \
        const U *pa = ISA_SLOT(const U, f, in->o[1]), *pb = ISA_SLOT(const U, f, in->o[2]); \
        const U *pc = N == 3 ? ISA_SLOT(const U, f, in->o[3]) : pa;                         \
        uint32_t *cf = ISA_SLOT(uint32_t, f, in->o[5]);                                     \
        ISA_LANE_LOOP(mask, {                                                               \
            U a = pa[l];                                                                    \
            U b = pb[l];                                                                    \
            U c = pc[l];                                                                    \
            uint32_t ci = CIN ? cf[l] : 0;                                                  \
            uint32_t co = 0;                                                                \
            (void)c;                                                                        \
            (void)ci;                                                                       \
            d[l] = (EXPR);                                                                  \
            if (COUT)                                                                       \
                cf[l] = co;                                                                 \
        });                                                                                 \
        return ISA_X_NEXT;                                                                  \
    }                                                                                       \
    ISA_DESC(NAME, sizeof(U), sizeof(U), sizeof(U), N == 3 ? sizeof(U) : 0)

/* Variants by (carry in, carry out): _co add.cc, _ci addc, _cc addc.cc. */
#define CARRY_SET(W, U, S)                                                                  \
    CARRY_H(addcc_co_##W, U, 2, 0, 1, addc_##U(a, b, ci, &co))                              \
    CARRY_H(addcc_ci_##W, U, 2, 1, 0, addc_##U(a, b, ci, &co))                              \
    CARRY_H(addcc_cc_##W, U, 2, 1, 1, addc_##U(a, b, ci, &co))                              \
    CARRY_H(subcc_co_##W, U, 2, 0, 1, addc_##U(a, (U)~b, 1, &co))                           \
    CARRY_H(subcc_ci_##W, U, 2, 1, 0, addc_##U(a, (U)~b, ci, &co))                          \
    CARRY_H(subcc_cc_##W, U, 2, 1, 1, addc_##U(a, (U)~b, ci, &co))                          \
    CARRY_H(madlocc_co_##W, U, 3, 0, 1, addc_##U((U)(a * b), c, ci, &co))                   \
    CARRY_H(madlocc_ci_##W, U, 3, 1, 0, addc_##U((U)(a * b), c, ci, &co))                   \
    CARRY_H(madlocc_cc_##W, U, 3, 1, 1, addc_##U((U)(a * b), c, ci, &co))                   \
    CARRY_H(madhiucc_co_##W, U, 3, 0, 1, addc_##U(hi_u##W(a, b), c, ci, &co))               \
    CARRY_H(madhiucc_ci_##W, U, 3, 1, 0, addc_##U(hi_u##W(a, b), c, ci, &co))               \
    CARRY_H(madhiucc_cc_##W, U, 3, 1, 1, addc_##U(hi_u##W(a, b), c, ci, &co))               \
    CARRY_H(madhiscc_co_##W, U, 3, 0, 1, addc_##U((U)hi_s##W((S)a, (S)b), c, ci, &co))      \
    CARRY_H(madhiscc_ci_##W, U, 3, 1, 0, addc_##U((U)hi_s##W((S)a, (S)b), c, ci, &co))      \
    CARRY_H(madhiscc_cc_##W, U, 3, 1, 1, addc_##U((U)hi_s##W((S)a, (S)b), c, ci, &co))
CARRY_SET(32, uint32_t, int32_t)
CARRY_SET(64, uint64_t, int64_t)

/* Row: one operation's (carry in, carry out) variants for 32 and 64 bits. */
typedef struct { const isa_xdesc_t *co32, *ci32, *cc32, *co64, *ci64, *cc64; } carry_row_t;
#define CARRY_ROW(op) { op##_co_32, op##_ci_32, op##_cc_32, op##_co_64, op##_ci_64, op##_cc_64 }
static const carry_row_t c_add = CARRY_ROW(addcc), c_sub = CARRY_ROW(subcc), c_madlo = CARRY_ROW(madlocc);
static const carry_row_t c_madhiu = CARRY_ROW(madhiucc), c_madhis = CARRY_ROW(madhiscc);

static const isa_xdesc_t *carry_pick(const carry_row_t *r, unsigned bits, bool cin, bool cout)
{
    if (bits == 32)
        return cin ? (cout ? r->cc32 : r->ci32) : cout ? r->co32 : NULL;
    if (bits == 64)
        return cin ? (cout ? r->cc64 : r->ci64) : cout ? r->co64 : NULL;
    return NULL;
}
/* }===== */

/* mul24/mad24: the product of the low 24 bits (sign-extended for .s32) is 48 bits wide;
 * .lo is its bits 31..0, .hi its bits 47..16. */
static inline int64_t p24_s(uint32_t a, uint32_t b)
{
    return (int64_t)((int32_t)(a << 8) >> 8) * (int64_t)((int32_t)(b << 8) >> 8);
}
static inline uint64_t p24_u(uint32_t a, uint32_t b) { return (uint64_t)(a & 0xffffffu) * (b & 0xffffffu); }
ISA_H2(mul24lo_u32, uint32_t, uint32_t, uint32_t, (uint32_t)p24_u(a, b))
ISA_H2(mul24hi_u32, uint32_t, uint32_t, uint32_t, (uint32_t)(p24_u(a, b) >> 16))
ISA_H2(mul24lo_s32, uint32_t, uint32_t, uint32_t, (uint32_t)p24_s(a, b))
ISA_H2(mul24hi_s32, uint32_t, uint32_t, uint32_t, (uint32_t)(uint64_t)(p24_s(a, b) >> 16))
ISA_H3(mad24lo_u32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)p24_u(a, b) + c)
ISA_H3(mad24hi_u32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)(p24_u(a, b) >> 16) + c)
ISA_H3(mad24lo_s32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)p24_s(a, b) + c)
ISA_H3(mad24hi_s32, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)(uint64_t)(p24_s(a, b) >> 16) + c)
ISA_H3(mad24hi_sat_s32, int32_t, uint32_t, uint32_t, int32_t,
       sat_s32((int64_t)(int32_t)(uint32_t)(uint64_t)(p24_s(a, b) >> 16) + c))

/* sad: c plus the absolute difference of a and b (compared with the type's sign). */
#define SAD(W, U, S)                                                                        \
    ISA_H3(sad_u##W, U, U, U, U, (U)(c + (a < b ? (U)(b - a) : (U)(a - b))))                  \
    ISA_H3(sad_s##W, U, S, S, U, (U)(c + (a < b ? (U)((U)b - (U)a) : (U)((U)a - (U)b))))
SAD(16, uint16_t, int16_t)
SAD(32, uint32_t, int32_t)
SAD(64, uint64_t, int64_t)

/* dp4a/dp2a: dot products of packed bytes (and half-words, dp2a's a) accumulated into
 * c, modulo 2^32; each packed element is extended with its operand's own sign.
 * aux: bit 0 a signed, bit 1 b signed, bit 2 dp2a.hi (b's bytes 2 and 3). */
static inline int32_t byte_of(uint32_t x, unsigned i, bool sgn)
{
    uint32_t v = (x >> (8 * i)) & 0xff;
    return sgn ? (int32_t)(int8_t)v : (int32_t)v;
}
static inline int32_t half_of(uint32_t x, unsigned i, bool sgn)
{
    uint32_t v = (x >> (16 * i)) & 0xffff;
    return sgn ? (int32_t)(int16_t)v : (int32_t)v;
}
static inline uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, uint64_t aux)
{
    uint32_t r = c;
    for (unsigned i = 0; i < 4; i++)
        r += (uint32_t)(byte_of(a, i, aux & 1) * byte_of(b, i, aux & 2));
    return r;
}
static inline uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, uint64_t aux)
{
    unsigned k = aux & 4 ? 2 : 0;
    return c + (uint32_t)(half_of(a, 0, aux & 1) * byte_of(b, k, aux & 2))
             + (uint32_t)(half_of(a, 1, aux & 1) * byte_of(b, k + 1, aux & 2));
}
#define DOT(NAME, FN)                                                                       \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)         \
    {                                                                                       \
        (void)w_;                                                                           \
        uint32_t *d = ISA_SLOT(uint32_t, f, in->o[0]);                                      \
        const uint32_t *a = ISA_SLOT(const uint32_t, f, in->o[1]);                          \
        const uint32_t *b = ISA_SLOT(const uint32_t, f, in->o[2]);                          \
        const uint32_t *c = ISA_SLOT(const uint32_t, f, in->o[3]);                          \
        uint64_t aux = in->aux;                                                             \
        ISA_LANE_LOOP(mask, { d[l] = FN(a[l], b[l], c[l], aux); });                         \
        return ISA_X_NEXT;                                                                  \
    }                                                                                       \
    ISA_DESC(NAME, 4, 4, 4, 4)
DOT(dp4a_32, dp4a)
DOT(dp2a_32, dp2a)

#define ROWS_US(op)                                                                           \
    { ISA_T_U16, op##_u16 }, { ISA_T_U32, op##_u32 }, { ISA_T_U64, op##_u64 },                \
    { ISA_T_S16, op##_s16 }, { ISA_T_S32, op##_s32 }, { ISA_T_S64, op##_s64 }
#define ROWS_W(op)                                                                            \
    { ISA_T_U16, op##_16 }, { ISA_T_U32, op##_32 }, { ISA_T_U64, op##_64 },                   \
    { ISA_T_S16, op##_16 }, { ISA_T_S32, op##_32 }, { ISA_T_S64, op##_64 },                   \
    { ISA_T_B16, op##_16 }, { ISA_T_B32, op##_32 }, { ISA_T_B64, op##_64 }

static const isa_tsel_t t_add[] = { ROWS_W(add) }, t_sub[] = { ROWS_W(sub) };
static const isa_tsel_t t_mullo[] = { ROWS_W(mullo) }, t_madlo[] = { ROWS_W(madlo) };
static const isa_tsel_t t_mulhi[] = { ROWS_US(mulhi) }, t_madhi[] = { ROWS_US(madhi) };
static const isa_tsel_t t_div[] = { ROWS_US(div) }, t_rem[] = { ROWS_US(rem) };
static const isa_tsel_t t_min[] = { ROWS_US(min) }, t_max[] = { ROWS_US(max) };
static const isa_tsel_t t_abs[] = { { ISA_T_S16, abs_s16 }, { ISA_T_S32, abs_s32 }, { ISA_T_S64, abs_s64 } };
static const isa_tsel_t t_neg[] = { { ISA_T_S16, neg_s16 }, { ISA_T_S32, neg_s32 }, { ISA_T_S64, neg_s64 } };
static const isa_tsel_t t_mulwide[] = { { ISA_T_U16, mulwide_u16 }, { ISA_T_S16, mulwide_s16 },
                                        { ISA_T_U32, mulwide_u32 }, { ISA_T_S32, mulwide_s32 } };
static const isa_tsel_t t_madwide[] = { { ISA_T_U16, madwide_u16 }, { ISA_T_S16, madwide_s16 },
                                        { ISA_T_U32, madwide_u32 }, { ISA_T_S32, madwide_s32 } };

static const isa_tsel_t t_sad[] = { ROWS_US(sad) };

/* dp4a.atype.btype and dp2a.mode.atype.btype. */
static bool dot_select(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->ntypes != 2)
        return false;
    int mm = isa_instr_mod(in, ISA_G_MULMODE);
    bool dp2 = in->op == ISA_OP_DP2A;
    if (in->nsfx != 2u + dp2 || (dp2 && mm != ISA_M_LO && mm != ISA_M_HI))
        return false;
    x->aux = (uint64_t)(in->types[0] == ISA_T_S32) | (uint64_t)(in->types[1] == ISA_T_S32) << 1 |
             (uint64_t)(dp2 && mm == ISA_M_HI) << 2;
    x->desc = dp2 ? dp2a_32 : dp4a_32;
    return true;
}

/* The carry forms: add.cc, sub.cc, addc{.cc}, subc{.cc}, mad{.lo,.hi}.cc, madc{.lo,.hi}{.cc}. */
static const isa_xdesc_t *carry_select(const isa_instr_t *in, isa_type_t t, int mm, bool cc)
{
    unsigned bits = isa_types[t].bits;
    bool cin = in->op == ISA_OP_ADDC || in->op == ISA_OP_SUBC || in->op == ISA_OP_MADC;
    bool sgn = isa_types[t].cls == ISA_TC_SINT;
    if (isa_types[t].cls != ISA_TC_UINT && !sgn)
        return NULL;
    switch ((isa_op_t)in->op) {
    case ISA_OP_ADD:
    case ISA_OP_ADDC: return carry_pick(&c_add, bits, cin, cc);
    case ISA_OP_SUB:
    case ISA_OP_SUBC: return carry_pick(&c_sub, bits, cin, cc);
    case ISA_OP_MAD:
    case ISA_OP_MADC:
        if (mm == ISA_M_HI)
            return carry_pick(sgn ? &c_madhis : &c_madhiu, bits, cin, cc);
        return mm == ISA_M_LO || (mm < 0 && cin) ? carry_pick(&c_madlo, bits, cin, cc) : NULL;
    default: return NULL;
    }
}

/*{=====================================================================
 * Packed 16-bit pairs (u16x2, s16x2: add, min, max) and .relu (s32, s16x2 min/max):
 * each half computed on its own, .relu clamping a negative result to 0.
 *====================================================================*/
static inline uint32_t h2(uint32_t lo, uint32_t hi) { return (lo & 0xffffu) | (hi << 16); }
static inline int32_t relu(int32_t v) { return v < 0 ? 0 : v; }
#define LO_U(x) ((x) & 0xffffu)
#define HI_U(x) ((x) >> 16)
#define LO_S(x) ((int32_t)(int16_t)(uint16_t)(x))
#define HI_S(x) ((int32_t)(int16_t)(uint16_t)((x) >> 16))
#define MIN_(p, q) ((p) < (q) ? (p) : (q))
#define MAX_(p, q) ((p) > (q) ? (p) : (q))
ISA_H2(add_x2, uint32_t, uint32_t, uint32_t, h2(a + b, HI_U(a) + HI_U(b)))
ISA_H2(min_u16x2, uint32_t, uint32_t, uint32_t, h2(MIN_(LO_U(a), LO_U(b)), MIN_(HI_U(a), HI_U(b))))
ISA_H2(max_u16x2, uint32_t, uint32_t, uint32_t, h2(MAX_(LO_U(a), LO_U(b)), MAX_(HI_U(a), HI_U(b))))
ISA_H2(min_s16x2, uint32_t, uint32_t, uint32_t,
       h2((uint32_t)MIN_(LO_S(a), LO_S(b)), (uint32_t)MIN_(HI_S(a), HI_S(b))))
ISA_H2(max_s16x2, uint32_t, uint32_t, uint32_t,
       h2((uint32_t)MAX_(LO_S(a), LO_S(b)), (uint32_t)MAX_(HI_S(a), HI_S(b))))
ISA_H2(min_s16x2_relu, uint32_t, uint32_t, uint32_t,
       h2((uint32_t)relu(MIN_(LO_S(a), LO_S(b))), (uint32_t)relu(MIN_(HI_S(a), HI_S(b)))))
ISA_H2(max_s16x2_relu, uint32_t, uint32_t, uint32_t,
       h2((uint32_t)relu(MAX_(LO_S(a), LO_S(b))), (uint32_t)relu(MAX_(HI_S(a), HI_S(b)))))
ISA_H2(min_s32_relu, int32_t, int32_t, int32_t, relu(MIN_(a, b)))
ISA_H2(max_s32_relu, int32_t, int32_t, int32_t, relu(MAX_(a, b)))

static bool packed_select(const isa_instr_t *in, isa_type_t t, bool rl, isa_xinsn_t *x)
{
    bool s = t == ISA_T_S16X2;
    switch ((isa_op_t)in->op) {
    case ISA_OP_ADD: x->desc = rl ? NULL : add_x2; break;
    case ISA_OP_MIN: x->desc = s ? (rl ? min_s16x2_relu : min_s16x2) : rl ? NULL : min_u16x2; break;
    case ISA_OP_MAX: x->desc = s ? (rl ? max_s16x2_relu : max_s16x2) : rl ? NULL : max_u16x2; break;
    default: x->desc = NULL; break;
    }
    return x->desc != NULL;
}
/*}=====================================================================*/

bool isa_sem_int(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->op == ISA_OP_DP4A || in->op == ISA_OP_DP2A)
        return dot_select(in, x);
    isa_type_t t = (isa_type_t)in->types[0];
    if (in->ntypes == 2 && t == ISA_T_F32)          /* add, sub .f32.{f16,bf16} */
        return isa_sem_fp(in, x);
    if (in->ntypes != 1)
        return false;
    bool rl = isa_instr_mod(in, ISA_G_RELU) >= 0;
    if ((in->op == ISA_OP_MIN || in->op == ISA_OP_MAX || in->op == ISA_OP_ADD) &&
        (t == ISA_T_U16X2 || t == ISA_T_S16X2))
        return in->nsfx == 1u + rl && in->nopd == 3 && packed_select(in, t, rl, x);
    if (isa_types[t].cls == ISA_TC_FLOAT || isa_types[t].cls == ISA_TC_PACKED)
        return isa_sem_fp(in, x);
    int mm = isa_instr_mod(in, ISA_G_MULMODE);
    bool sat = isa_instr_mod(in, ISA_G_SAT) >= 0, cc = isa_instr_mod(in, ISA_G_CC) >= 0;
    /* Every suffix must be understood: the type, the multiply mode, .sat, .cc, .relu. */
    if (in->nsfx != 1u + (mm >= 0) + sat + cc + rl)
        return false;
    if ((in->op == ISA_OP_MIN || in->op == ISA_OP_MAX) && in->nopd != 3)
        return false;
    if (rl) {
        /* .relu: min/max on s32 (s16x2 above). */
        x->desc = t != ISA_T_S32 ? NULL : in->op == ISA_OP_MIN ? min_s32_relu
                : in->op == ISA_OP_MAX ? max_s32_relu : NULL;
        return x->desc != NULL;
    }
    if (cc || in->op == ISA_OP_ADDC || in->op == ISA_OP_SUBC || in->op == ISA_OP_MADC) {
        x->desc = sat ? NULL : carry_select(in, t, mm, cc);
        return x->desc != NULL;
    }
    if (sat) {
        /* .sat exists for add/sub .s32, mad.hi.s32 and mad24.hi.s32. */
        x->desc = t != ISA_T_S32 ? NULL
                : in->op == ISA_OP_ADD ? add_sat_s32 : in->op == ISA_OP_SUB ? sub_sat_s32
                : in->op == ISA_OP_MAD && mm == ISA_M_HI ? madhi_sat_s32
                : in->op == ISA_OP_MAD24 && mm == ISA_M_HI ? mad24hi_sat_s32 : NULL;
        return x->desc != NULL;
    }
    bool s32 = t == ISA_T_S32;
    switch ((isa_op_t)in->op) {
    case ISA_OP_ADD: x->desc = mm < 0 ? ISA_TSEL(t_add, t) : NULL; break;
    case ISA_OP_SUB: x->desc = mm < 0 ? ISA_TSEL(t_sub, t) : NULL; break;
    case ISA_OP_MUL:
        x->desc = mm == ISA_M_LO ? ISA_TSEL(t_mullo, t) : mm == ISA_M_HI ? ISA_TSEL(t_mulhi, t)
              : mm == ISA_M_WIDE ? ISA_TSEL(t_mulwide, t) : NULL;
        break;
    case ISA_OP_MAD:
        x->desc = mm == ISA_M_LO ? ISA_TSEL(t_madlo, t) : mm == ISA_M_HI ? ISA_TSEL(t_madhi, t)
              : mm == ISA_M_WIDE ? ISA_TSEL(t_madwide, t) : NULL;
        break;
    case ISA_OP_MUL24:
        x->desc = mm == ISA_M_LO ? (s32 ? mul24lo_s32 : mul24lo_u32)
              : mm == ISA_M_HI ? (s32 ? mul24hi_s32 : mul24hi_u32) : NULL;
        break;
    case ISA_OP_MAD24:
        x->desc = mm == ISA_M_LO ? (s32 ? mad24lo_s32 : mad24lo_u32)
              : mm == ISA_M_HI ? (s32 ? mad24hi_s32 : mad24hi_u32) : NULL;
        break;
    case ISA_OP_SAD: x->desc = mm < 0 ? ISA_TSEL(t_sad, t) : NULL; break;
    case ISA_OP_DIV: x->desc = ISA_TSEL(t_div, t); break;
    case ISA_OP_REM: x->desc = ISA_TSEL(t_rem, t); break;
    case ISA_OP_ABS: x->desc = ISA_TSEL(t_abs, t); break;
    case ISA_OP_NEG: x->desc = ISA_TSEL(t_neg, t); break;
    case ISA_OP_MIN: x->desc = ISA_TSEL(t_min, t); break;
    case ISA_OP_MAX: x->desc = ISA_TSEL(t_max, t); break;
    default: x->desc = NULL;
    }
    return x->desc != NULL;
}
