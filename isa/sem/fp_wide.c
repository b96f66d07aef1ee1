/* fp_wide.c: the f32 arithmetic of sm_100: pairs (add, sub, mul, fma .f32x2 on 64-bit
 * registers, element by element, each element as the f32 instruction with the same
 * rounding and .ftz), and mixed precision (add, sub .f32.{f16,bf16}: d = a + c and
 * d = a - c with a half source; fma .f32.{f16,bf16}: d = a * b + c with half factors),
 * where the half sources convert to f32 exactly and the f32 operation rounds once. */
#include "isa/sem/f32r.h"
#include "isa/sem/lanes.h"

/*{=====================================================================
 * .f32x2: element 0 in bits 0-31, element 1 in bits 32-63
 *====================================================================*/
static inline float x_lo(uint64_t x) { return f32_of((uint32_t)x); }
static inline float x_hi(uint64_t x) { return f32_of((uint32_t)(x >> 32)); }
static inline uint64_t x_pack(float lo, float hi) { return f32_bits(lo) | (uint64_t)f32_bits(hi) << 32; }

/* Round to nearest without .ftz: the host's IEEE operations. */
ISA_H2(add_f32x2, uint64_t, uint64_t, uint64_t,
       x_pack(f32_canon(x_lo(a) + x_lo(b)), f32_canon(x_hi(a) + x_hi(b))))
ISA_H2(sub_f32x2, uint64_t, uint64_t, uint64_t,
       x_pack(f32_canon(x_lo(a) - x_lo(b)), f32_canon(x_hi(a) - x_hi(b))))
ISA_H2(mul_f32x2, uint64_t, uint64_t, uint64_t,
       x_pack(f32_canon(x_lo(a) * x_lo(b)), f32_canon(x_hi(a) * x_hi(b))))
ISA_H3(fma_f32x2, uint64_t, uint64_t, uint64_t, uint64_t,
       x_pack(f32_canon(fmaf(x_lo(a), x_lo(b), x_lo(c))), f32_canon(fmaf(x_hi(a), x_hi(b), x_hi(c)))))
/* Directed roundings and .ftz (f32r.h; aux as there). */
ISA_H2(add_f32x2_r, uint64_t, uint64_t, uint64_t,
       x_pack(f32_add_r(x_lo(a), x_lo(b), in->aux), f32_add_r(x_hi(a), x_hi(b), in->aux)))
ISA_H2(sub_f32x2_r, uint64_t, uint64_t, uint64_t,
       x_pack(f32_add_r(x_lo(a), -x_lo(b), in->aux), f32_add_r(x_hi(a), -x_hi(b), in->aux)))
ISA_H2(mul_f32x2_r, uint64_t, uint64_t, uint64_t,
       x_pack(f32_mul_r(x_lo(a), x_lo(b), in->aux), f32_mul_r(x_hi(a), x_hi(b), in->aux)))
ISA_H3(fma_f32x2_r, uint64_t, uint64_t, uint64_t, uint64_t,
       x_pack(f32_fma_r(x_lo(a), x_lo(b), x_lo(c), in->aux), f32_fma_r(x_hi(a), x_hi(b), x_hi(c), in->aux)))
/*}=====================================================================*/

/*{=====================================================================
 * Mixed precision: an f16 or bf16 source, exact as an f32
 *====================================================================*/
static inline float f16_val(uint16_t h)
{
    unsigned e = h >> 10 & 31, m = h & 0x3ffu;
    float v = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 0x400u), (int)e - 25);
    return h >> 15 ? -v : v;
}
static inline float bf16_val(uint16_t h) { return f32_of((uint32_t)h << 16); }

#define MIXED_SET(SFX, CONV)                                                                     \
    ISA_H2(add_f32_##SFX, float, uint16_t, float, f32_canon(CONV(a) + b))                        \
    ISA_H2(sub_f32_##SFX, float, uint16_t, float, f32_canon(CONV(a) - b))                        \
    ISA_H3(fma_f32_##SFX, float, uint16_t, uint16_t, float, f32_canon(fmaf(CONV(a), CONV(b), c)))  \
    ISA_H2(add_f32_##SFX##_r, float, uint16_t, float, f32_add_r(CONV(a), b, in->aux))            \
    ISA_H2(sub_f32_##SFX##_r, float, uint16_t, float, f32_add_r(CONV(a), -b, in->aux))           \
    ISA_H3(fma_f32_##SFX##_r, float, uint16_t, uint16_t, float, f32_fma_r(CONV(a), CONV(b), c, in->aux))
MIXED_SET(f16, f16_val)
MIXED_SET(bf16, bf16_val)
/*}=====================================================================*/

/* The handler of an f32x2 or mixed-precision add, sub, mul or fma, or false.  Round to
 * nearest without .ftz or .sat takes the host's operations; everything else the
 * explicit-rounding helpers.  The pairs take no .sat, the mixed forms no .ftz (ptxas). */
bool isa_sem_fp_wide(const isa_instr_t *in, isa_xinsn_t *x)
{
    isa_type_t t0 = (isa_type_t)in->types[0];
    bool pair = in->ntypes == 1 && t0 == ISA_T_F32X2;
    bool mixed = in->ntypes == 2 && t0 == ISA_T_F32 && (in->types[1] == ISA_T_F16 || in->types[1] == ISA_T_BF16);
    if (!pair && !mixed)
        return false;
    int rnd = isa_instr_mod(in, ISA_G_ROUND);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) == ISA_M_FTZ, sat = isa_instr_mod(in, ISA_G_SAT) == ISA_M_SAT;
    if (in->nsfx != in->ntypes + (rnd >= 0) + ftz + sat || (pair && sat) || (mixed && ftz))
        return false;
    int mode = rnd < 0 || rnd == ISA_M_RN ? ISA_RND_N : rnd == ISA_M_RZ ? ISA_RND_Z
             : rnd == ISA_M_RM ? ISA_RND_M : rnd == ISA_M_RP ? ISA_RND_P : -1;
    if (mode < 0 || (in->op == ISA_OP_FMA && rnd < 0))
        return false;
    bool fast = mode == ISA_RND_N && !ftz && !sat, bf = mixed && in->types[1] == ISA_T_BF16;
    switch ((isa_op_t)in->op) {
    case ISA_OP_ADD:
        x->desc = pair ? (fast ? add_f32x2 : add_f32x2_r)
                : bf ? (fast ? add_f32_bf16 : add_f32_bf16_r) : (fast ? add_f32_f16 : add_f32_f16_r);
        break;
    case ISA_OP_SUB:
        x->desc = pair ? (fast ? sub_f32x2 : sub_f32x2_r)
                : bf ? (fast ? sub_f32_bf16 : sub_f32_bf16_r) : (fast ? sub_f32_f16 : sub_f32_f16_r);
        break;
    case ISA_OP_MUL:
        x->desc = pair ? (fast ? mul_f32x2 : mul_f32x2_r) : NULL;
        break;
    case ISA_OP_FMA:
        x->desc = pair ? (fast ? fma_f32x2 : fma_f32x2_r)
                : bf ? (fast ? fma_f32_bf16 : fma_f32_bf16_r) : (fast ? fma_f32_f16 : fma_f32_f16_r);
        break;
    default:
        return false;
    }
    x->aux = (uint64_t)mode | (uint64_t)ftz << 4 | (uint64_t)sat << 5;
    return x->desc != NULL;
}
