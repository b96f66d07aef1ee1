/* fp_arith.c: f32 and f64 arithmetic in round-to-nearest: add, sub, mul, fma/mad, div,
 * sqrt, rcp, abs, neg, min, max, copysign, with .ftz and .sat; testp.  Directed roundings
 * and the .approx functions are selected as unsupported until their helpers exist. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"

#define FZ(x) f32_ftz(x)

#define F32_SET(SFX, PRE, POST)                                                                  \
    ISA_H2(add_f32##SFX, float, float, float, POST(f32_canon(PRE(a) + PRE(b))))                  \
    ISA_H2(sub_f32##SFX, float, float, float, POST(f32_canon(PRE(a) - PRE(b))))                  \
    ISA_H2(mul_f32##SFX, float, float, float, POST(f32_canon(PRE(a) * PRE(b))))                  \
    ISA_H3(fma_f32##SFX, float, float, float, float, POST(f32_canon(fmaf(PRE(a), PRE(b), PRE(c)))))
#define ID(x) (x)
#define FZSAT(x) f32_sat(f32_ftz(x))
F32_SET(, ID, ID)
F32_SET(_ftz, FZ, FZ)
F32_SET(_sat, ID, f32_sat)
F32_SET(_ftz_sat, FZ, FZSAT)

/* On x86-64 hosts whose CPU has FMA instructions (chosen at selection time), the plain
 * fma.rn.f32 handler is also built with them enabled, so that fmaf is one instruction
 * instead of a library call per lane.  The result is the same correctly rounded fma. */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static int fma_f32_hw_f(void *w_, uint8_t *f, const isa_xinsn_t *in,
                                                     uint32_t mask)
{
    (void)w_;
    float *d = ISA_SLOT(float, f, in->o[0]);
    const float *pa = ISA_SLOT(const float, f, in->o[1]), *pb = ISA_SLOT(const float, f, in->o[2]);
    const float *pc = ISA_SLOT(const float, f, in->o[3]);
    ISA_LANE_LOOP(mask, { d[l] = f32_canon(__builtin_fmaf(pa[l], pb[l], pc[l])); });
    return ISA_X_NEXT;
}
ISA_DESC(fma_f32_hw, 4, 4, 4, 4)

static const isa_xdesc_t *fast_fma(const isa_xdesc_t *d)
{
    return d == fma_f32 && __builtin_cpu_supports("fma") ? fma_f32_hw : d;
}
#else
static const isa_xdesc_t *fast_fma(const isa_xdesc_t *d) { return d; }
#endif

ISA_H2(div_f32, float, float, float, f32_canon(a / b))
ISA_H2(div_f32_ftz, float, float, float, FZ(f32_canon(FZ(a) / FZ(b))))
ISA_H1(sqrt_f32, float, float, f32_canon(sqrtf(a)))
ISA_H1(sqrt_f32_ftz, float, float, FZ(f32_canon(sqrtf(FZ(a)))))
ISA_H1(rcp_f32, float, float, f32_canon(1.0f / a))
ISA_H1(rcp_f32_ftz, float, float, FZ(f32_canon(1.0f / FZ(a))))
/* abs and neg of a NaN give the canonical NaN. */
#define F32_NAN(u) (((u) & 0x7fffffffu) > 0x7f800000u)
ISA_H1(abs_f32, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : a & 0x7fffffffu)
ISA_H1(neg_f32, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : a ^ 0x80000000u)
ISA_H1(abs_f32_ftz, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : f32_bits(FZ(f32_of(a))) & 0x7fffffffu)
ISA_H1(neg_f32_ftz, uint32_t, uint32_t, F32_NAN(a) ? 0x7fffffffu : f32_bits(FZ(f32_of(a))) ^ 0x80000000u)
ISA_H2(min_f32, float, float, float, f32_min(a, b))
ISA_H2(max_f32, float, float, float, f32_max(a, b))
ISA_H2(min_f32_ftz, float, float, float, f32_min(FZ(a), FZ(b)))
ISA_H2(max_f32_ftz, float, float, float, f32_max(FZ(a), FZ(b)))
ISA_H2(copysign_f32, uint32_t, uint32_t, uint32_t, (b & 0x7fffffffu) | (a & 0x80000000u))

ISA_H2(add_f64, double, double, double, f64_nan_ba(a, b, a + b))
ISA_H2(sub_f64, double, double, double, f64_nan_ba(a, b, a - b))
ISA_H2(mul_f64, double, double, double, f64_nan_ba(a, b, a * b))
ISA_H3(fma_f64, double, double, double, double, f64_nan_bca(a, b, c, fma(a, b, c)))
ISA_H2(add_f64_sat, double, double, double, f64_sat(a + b))
ISA_H2(sub_f64_sat, double, double, double, f64_sat(a - b))
ISA_H2(mul_f64_sat, double, double, double, f64_sat(a * b))
ISA_H3(fma_f64_sat, double, double, double, double, f64_sat(fma(a, b, c)))
ISA_H2(div_f64, double, double, double, f64_nan_ab(a, b, a / b))
ISA_H1(sqrt_f64, double, double, a != a ? f64_quiet(a) : f64_canon(sqrt(a)))
ISA_H1(rcp_f64, double, double, a != a ? f64_quiet(a) : f64_canon(1.0 / a))
/* abs and neg of an f64 NaN quiet it and keep its sign and payload. */
#define F64_NAN(u) (((u) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
ISA_H1(abs_f64, uint64_t, uint64_t, F64_NAN(a) ? a | 0x0008000000000000ull : a & 0x7fffffffffffffffull)
ISA_H1(neg_f64, uint64_t, uint64_t, F64_NAN(a) ? a | 0x0008000000000000ull : a ^ 0x8000000000000000ull)
ISA_H2(min_f64, double, double, double, f64_min(a, b))
ISA_H2(max_f64, double, double, double, f64_max(a, b))
ISA_H2(copysign_f64, uint64_t, uint64_t, uint64_t, (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull))

/* testp: a predicate per lane from the operand's class, on its bits (no flushing).
 * .normal is true for zeros too (hardware-recorded): finite and not subnormal. */
#define TESTP(NAME, U, EXPR)                                                                     \
    static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)              \
    {                                                                                            \
        (void)w_;                                                                                \
        const U *pa = ISA_SLOT(const U, f, in->o[1]);                                            \
        uint32_t bits = 0;                                                                       \
        for (unsigned l = 0; l < ISA_LANES; l++) {                                               \
            U a = pa[l];                                                                         \
            bits |= (uint32_t)(EXPR) << l;                                                       \
        }                                                                                        \
        return isa_pred_write(f, in, bits, mask);                                                \
    }                                                                                            \
    ISA_DESC(NAME, ISA_W_PRED, sizeof(U))
#define TESTP_SET(W, U, EXPMASK, SIGN)                                                           \
    TESTP(testp_finite_##W, U, (a & EXPMASK) != EXPMASK)                                         \
    TESTP(testp_infinite_##W, U, (a & ~SIGN) == EXPMASK)                                         \
    TESTP(testp_number_##W, U, (a & ~SIGN) <= EXPMASK)                                           \
    TESTP(testp_notanumber_##W, U, (a & ~SIGN) > EXPMASK)                                        \
    TESTP(testp_normal_##W, U, (a & EXPMASK) != EXPMASK && ((a & EXPMASK) != 0 || (a & ~SIGN) == 0))                   \
    TESTP(testp_subnormal_##W, U, (a & EXPMASK) == 0 && (a & ~SIGN) != 0)
TESTP_SET(32, uint32_t, 0x7f800000u, 0x80000000u)
TESTP_SET(64, uint64_t, 0x7ff0000000000000ull, 0x8000000000000000ull)

static const isa_xdesc_t *testp_select(const isa_instr_t *in, bool f64)
{
    switch (isa_instr_mod(in, ISA_G_MODE)) {
    case ISA_M_FINITE:     return f64 ? testp_finite_64 : testp_finite_32;
    case ISA_M_INFINITE:   return f64 ? testp_infinite_64 : testp_infinite_32;
    case ISA_M_NUMBER:     return f64 ? testp_number_64 : testp_number_32;
    case ISA_M_NOTANUMBER: return f64 ? testp_notanumber_64 : testp_notanumber_32;
    case ISA_M_NORMAL:     return f64 ? testp_normal_64 : testp_normal_32;
    case ISA_M_SUBNORMAL:  return f64 ? testp_subnormal_64 : testp_subnormal_32;
    default:               return NULL;
    }
}

/* Index of a handler by (ftz, sat). */
#define PICK4(op) (ftz ? (sat ? op##_f32_ftz_sat : op##_f32_ftz) : (sat ? op##_f32_sat : op##_f32))

bool isa_sem_fp(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->ntypes != 1)
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    int rnd = isa_instr_mod(in, ISA_G_ROUND);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) >= 0, sat = isa_instr_mod(in, ISA_G_SAT) >= 0;
    if (in->op == ISA_OP_TESTP) {
        if (in->nsfx != 2 || (t != ISA_T_F32 && t != ISA_T_F64))
            return false;
        x->desc = testp_select(in, t == ISA_T_F64);
        return x->desc != NULL;
    }
    /* Every suffix must be understood: type, .rn, .ftz, .sat. */
    unsigned known = 1 + (rnd >= 0) + ftz + sat;
    if (in->nsfx != known || (rnd >= 0 && rnd != ISA_M_RN))
        return false;
    if (isa_instr_mod(in, ISA_G_PREC) >= 0)
        return false;
    x->desc = NULL;
    if (t == ISA_T_F32) {
        switch ((isa_op_t)in->op) {
        case ISA_OP_ADD: x->desc = PICK4(add); break;
        case ISA_OP_SUB: x->desc = PICK4(sub); break;
        case ISA_OP_MUL: x->desc = PICK4(mul); break;
        case ISA_OP_FMA:
        case ISA_OP_MAD: x->desc = rnd == ISA_M_RN ? fast_fma(PICK4(fma)) : NULL; break;
        case ISA_OP_DIV: x->desc = rnd == ISA_M_RN && !sat ? (ftz ? div_f32_ftz : div_f32) : NULL; break;
        case ISA_OP_SQRT: x->desc = rnd == ISA_M_RN && !sat ? (ftz ? sqrt_f32_ftz : sqrt_f32) : NULL; break;
        case ISA_OP_RCP: x->desc = rnd == ISA_M_RN && !sat ? (ftz ? rcp_f32_ftz : rcp_f32) : NULL; break;
        case ISA_OP_ABS: x->desc = !sat ? (ftz ? abs_f32_ftz : abs_f32) : NULL; break;
        case ISA_OP_NEG: x->desc = !sat ? (ftz ? neg_f32_ftz : neg_f32) : NULL; break;
        case ISA_OP_MIN: x->desc = !sat && in->nopd == 3 ? (ftz ? min_f32_ftz : min_f32) : NULL; break;
        case ISA_OP_MAX: x->desc = !sat && in->nopd == 3 ? (ftz ? max_f32_ftz : max_f32) : NULL; break;
        case ISA_OP_COPYSIGN: x->desc = copysign_f32; break;
        default: break;
        }
    } else if (t == ISA_T_F64 && !ftz) {
        switch ((isa_op_t)in->op) {
        case ISA_OP_ADD: x->desc = sat ? add_f64_sat : add_f64; break;
        case ISA_OP_SUB: x->desc = sat ? sub_f64_sat : sub_f64; break;
        case ISA_OP_MUL: x->desc = sat ? mul_f64_sat : mul_f64; break;
        case ISA_OP_FMA:
        case ISA_OP_MAD: x->desc = rnd == ISA_M_RN ? (sat ? fma_f64_sat : fma_f64) : NULL; break;
        case ISA_OP_DIV: x->desc = rnd == ISA_M_RN && !sat ? div_f64 : NULL; break;
        case ISA_OP_SQRT: x->desc = rnd == ISA_M_RN && !sat ? sqrt_f64 : NULL; break;
        case ISA_OP_RCP: x->desc = rnd == ISA_M_RN && !sat ? rcp_f64 : NULL; break;
        case ISA_OP_ABS: x->desc = !sat ? abs_f64 : NULL; break;
        case ISA_OP_NEG: x->desc = !sat ? neg_f64 : NULL; break;
        case ISA_OP_MIN: x->desc = !sat && in->nopd == 3 ? min_f64 : NULL; break;
        case ISA_OP_MAX: x->desc = !sat && in->nopd == 3 ? max_f64 : NULL; break;
        case ISA_OP_COPYSIGN: x->desc = copysign_f64; break;
        default: break;
        }
    }
    return x->desc != NULL;
}
