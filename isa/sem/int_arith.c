/* int_arith.c: integer arithmetic semantics: add, sub, mul (.lo .hi .wide), mad, div,
 * rem, abs, neg, min, max.  Signed wrap-around is computed in unsigned arithmetic. */
#include "isa/sem/lanes.h"

/* High halves of products. */
static inline uint32_t hi_u32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static inline int32_t hi_s32(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
static inline uint64_t hi_u64(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static inline int64_t hi_s64(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
static inline uint16_t hi_u16(uint16_t a, uint16_t b) { return (uint16_t)(((uint32_t)a * b) >> 16); }
static inline int16_t hi_s16(int16_t a, int16_t b) { return (int16_t)(((int32_t)a * b) >> 16); }

/* Division: by zero gives all ones (unsigned) as the hardware does; the most negative
 * value divided by -1 wraps. */
#define DIVU(a, b) ((b) ? (a) / (b) : (__typeof__(a))~(__typeof__(a))0)
#define REMU(a, b) ((b) ? (a) % (b) : (a))
#define DIVS(T, UT, a, b) ((b) == 0 ? (T)-1 : ((b) == -1 ? (T)(UT)(0 - (UT)(a)) : (T)((a) / (b))))
#define REMS(T, a, b) ((b) == 0 ? (a) : ((b) == -1 ? (T)0 : (T)((a) % (b))))

#define INT_SET(W, U, S)                                                                        \
    ISA_H2(add_##W, U, U, U, a + b)                                                             \
    ISA_H2(sub_##W, U, U, U, a - b)                                                             \
    ISA_H2(mullo_##W, U, U, U, (U)(a * b))                                                      \
    ISA_H2(mulhi_u##W, U, U, U, hi_u##W(a, b))                                               \
    ISA_H2(mulhi_s##W, S, S, S, hi_s##W(a, b))                                               \
    ISA_H3(madlo_##W, U, U, U, U, (U)(a * b + c))                                               \
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

bool isa_sem_int(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->ntypes != 1)
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    if (isa_types[t].cls == TC_FLOAT || isa_types[t].cls == TC_PACKED)
        return isa_sem_fp(in, x);
    /* Saturation and carry forms are not implemented yet. */
    if (isa_instr_mod(in, ISA_G_SAT) >= 0 || isa_instr_mod(in, ISA_G_CC) >= 0 || in->nsfx != 1 + (isa_instr_mod(in, ISA_G_MULMODE) >= 0))
        return false;
    if ((in->op == ISA_OP_MIN || in->op == ISA_OP_MAX) && in->nopd != 3)
        return false;
    int mm = isa_instr_mod(in, ISA_G_MULMODE);
    switch ((isa_op_t)in->op) {
    case ISA_OP_ADD: x->desc = ISA_TSEL(t_add, t); break;
    case ISA_OP_SUB: x->desc = ISA_TSEL(t_sub, t); break;
    case ISA_OP_MUL:
        x->desc = mm == ISA_M_LO ? ISA_TSEL(t_mullo, t) : mm == ISA_M_HI ? ISA_TSEL(t_mulhi, t)
              : mm == ISA_M_WIDE ? ISA_TSEL(t_mulwide, t) : NULL;
        break;
    case ISA_OP_MAD:
        x->desc = mm == ISA_M_LO ? ISA_TSEL(t_madlo, t) : mm == ISA_M_HI ? ISA_TSEL(t_madhi, t)
              : mm == ISA_M_WIDE ? ISA_TSEL(t_madwide, t) : NULL;
        break;
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
