/* half.c: f16, bf16 and their x2 packs: add, sub, mul, fma, abs, neg, min and max, with
 * the roundings, .ftz, .sat, .relu, .NaN and .xorsign.abs, bit-exact to the hardware. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"
#include "isa/sem/hvec.h"

/* Hardware rules (recorded on sm_90, tests/fuzz/):
 * - every NaN produced, by arithmetic, abs, neg or min/max of two NaNs, is the canonical
 *   0x7fff, for f16 and bf16 alike (no payload or sign propagates);
 * - .ftz (f16 only) flushes subnormal inputs to zero of their sign, and flushes a result
 *   that is tiny after rounding: below the smallest normal 2^-14 once rounded to 11 bits
 *   with an unbounded exponent (mul.ftz(0x0401, 0x3bfe), exactly 2^-14 (1 - 2^-20),
 *   gives 0x0400; mul.ftz(0x0400, 0x3bff), exactly 2^-14 (1 - 2^-11), gives +0);
 * - .sat clamps to [+0, 1], NaN and -0 give +0; .relu gives +0 for a negative result and
 *   keeps NaNs (canonical);
 * - min/max: a NaN operand yields the other operand, -0 is below +0; .NaN makes any NaN
 *   operand give the canonical NaN; .xorsign.abs compares the magnitudes and gives the
 *   result the xor of the operands' signs (also when one operand is a NaN);
 * - fma .oob: a factor (a or b) that is the OOB-NaN 0x7ff7 or 0xfff7 (f16 and bf16 alike)
 *   makes the result +0, whatever the other operands; in c it is an ordinary NaN (every
 *   16-bit value tried as each operand on sm_90; other NaNs are ordinary).
 * An x2 pack applies the operation to each 16-bit half independently. */

/*{=====================================================================
 * Formats: bf selects bf16 (8 exponent bits, 7 fraction bits) over f16 (5, 10); the
 * handlers are specialised on it, the rest of the variant comes from aux.
 *====================================================================*/
#define H_CANON    0x7fffu
#define H_EXPM(bf) ((bf) ? 0x7f80u : 0x7c00u)
#define H_E(bf)    ((bf) ? 8u : 5u)
#define H_M(bf)    ((bf) ? 7u : 10u)
#define H_EMIN(bf) ((bf) ? -126 : -14)
#define H_EMAX(bf) ((bf) ? 127 : 15)

/* aux: rounding mode (bits 0-3), .ftz (4), .sat (5), .relu (6), .NaN (7), .xorsign.abs (8), .oob (9). */
#define AUX_MODE(a) ((int)((a) & 15))
#define AUX_FTZ     (1u << 4)
#define AUX_SAT     (1u << 5)
#define AUX_RELU    (1u << 6)
#define AUX_NAN     (1u << 7)
#define AUX_XORSIGN (1u << 8)
#define AUX_OOB     (1u << 9)

/* fma .oob: a factor that is the OOB-NaN (tensor loads fill out-of-bounds elements with it). */
static inline bool h_oob(uint16_t ua, uint16_t ub, uint64_t aux)
{
    return (aux & AUX_OOB) && ((ua & 0x7fffu) == 0x7ff7u || (ub & 0x7fffu) == 0x7ff7u);
}

static inline bool h_isnan(uint16_t u, bool bf) { return (u & 0x7fffu) > H_EXPM(bf); }
static inline uint16_t h_ftz(uint16_t u, bool bf) { return (u & H_EXPM(bf)) == 0 ? u & 0x8000u : u; }
static inline uint16_t h_in(uint16_t u, bool bf, uint64_t aux) { return aux & AUX_FTZ ? h_ftz(u, bf) : u; }

/* The value of a half (exact in a double). */
static inline double h_dec(uint16_t u, bool bf)
{
    if (bf)
        return (double)f32_of((uint32_t)u << 16);
    unsigned ex = u >> 10 & 31, fr = u & 0x3ffu;
    double v = ex == 0    ? (double)fr * 0x1p-24
             : ex == 31   ? (fr ? NAN : INFINITY)
                          : (double)f32_of((ex + 112) << 23 | fr << 13);   /* rebias 15 -> 127 */
    return u & 0x8000u ? -v : v;
}

/* The sign of an exactly zero sum x + y: that of two zeros of one sign, else -0 when
 * rounding down and +0 otherwise. */
static inline double h_zero_sum(double x, double y, int mode)
{
    if (x == 0 && y == 0 && signbit(x) == signbit(y))
        return x;
    return mode == ISA_RND_M ? -0.0 : 0.0;
}

/* The common case of h_finish: hi + lo (hi not a NaN) rounded to nearest even, straight
 * to the format's bits from the double's (the same rounding as isa_fp_round's). */
static inline uint16_t h_round_rn(double hi, double lo, bool bf)
{
    const int M = (int)H_M(bf), EMIN = H_EMIN(bf), EMAX = H_EMAX(bf);
    uint64_t b = f64_bits(hi);
    uint16_t sign = (uint16_t)(b >> 63 << 15);
    uint64_t xb = b & ~(1ull << 63);
    if (xb == 0)
        return sign;
    if (xb >= 0x7ff0000000000000ull)
        return sign | (uint16_t)H_EXPM(bf);
    if (lo != 0.0 && (lo < 0) != (sign != 0))
        xb--;                            /* strictly between the lower neighbours */
    int ex = (int)(xb >> 52) - 1023;
    if (ex > EMAX)
        return sign | (uint16_t)H_EXPM(bf);
    if (ex < EMIN - M - 1)
        return sign;                     /* below half the smallest subnormal */
    uint64_t mant = (xb & ((1ull << 52) - 1)) | 1ull << 52;
    int sh = 52 - M + (ex < EMIN ? EMIN - ex : 0);
    uint64_t f = mant >> sh, rem = mant & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    f += rem > half || (rem == half && (lo != 0.0 || (f & 1)));
    /* f counts units of the last place, the leading bit included: the exponent field
     * takes the carry of a rounding up (to the next binade, or to infinity) */
    uint32_t bits = ex < EMIN ? (uint32_t)f : ((uint32_t)(ex - EMIN) << M) + (uint32_t)f;
    return sign | (uint16_t)bits;
}

/* Round the exact result hi + lo (lo's sign only; 0 when hi is not finite) to the
 * format, then apply .ftz, .sat and .relu. */
static inline uint16_t h_finish(double hi, double lo, bool bf, uint64_t aux)
{
    double r;
    if (hi != hi)
        return aux & AUX_SAT ? 0 : H_CANON;
    if (!(aux & (AUX_FTZ | AUX_SAT | AUX_RELU)) && AUX_MODE(aux) == ISA_RND_N)
        return h_round_rn(hi, lo, bf);
    if (isinf(hi))
        r = hi;
    else if ((aux & AUX_FTZ) && isa_fp_tiny(hi, lo, H_EMIN(bf), H_M(bf), AUX_MODE(aux)))
        r = signbit(hi) ? -0.0 : 0.0;    /* tiny after rounding, with an unbounded exponent */
    else
        r = isa_fp_round(hi, lo, H_EMIN(bf), H_EMAX(bf), H_M(bf), AUX_MODE(aux));
    if (aux & AUX_SAT)
        r = r <= 0 ? 0.0 : r > 1 ? 1.0 : r;
    if ((aux & AUX_RELU) && r <= 0)
        r = 0.0;
    return (uint16_t)isa_fp_pack(r, H_E(bf), H_M(bf));
}
/*}=====================================================================*/

/*{=====================================================================
 * One half's operations
 *====================================================================*/
/* a + b: the sum of two halves is hi + lo exactly (two-sum; no overflow in a double). */
static inline uint16_t h_add(uint16_t ua, uint16_t ub, bool bf, uint64_t aux)
{
    double a = h_dec(h_in(ua, bf, aux), bf), b = h_dec(h_in(ub, bf, aux), bf), lo;
    double hi = two_sum(a, b, &lo);
    if (hi == 0 && lo == 0)
        hi = h_zero_sum(a, b, AUX_MODE(aux));
    return h_finish(hi, isfinite(hi) ? lo : 0, bf, aux);
}
/* a * b: the product of two halves is exact in a double. */
static inline uint16_t h_mul(uint16_t ua, uint16_t ub, bool bf, uint64_t aux)
{
    return h_finish(h_dec(h_in(ua, bf, aux), bf) * h_dec(h_in(ub, bf, aux), bf), 0, bf, aux);
}
/* a * b + c: the exact product plus c as a two-sum. */
static inline uint16_t h_fma(uint16_t ua, uint16_t ub, uint16_t uc, bool bf, uint64_t aux)
{
    if (h_oob(ua, ub, aux))
        return 0;
    double p = h_dec(h_in(ua, bf, aux), bf) * h_dec(h_in(ub, bf, aux), bf);
    double c = h_dec(h_in(uc, bf, aux), bf), lo, hi = two_sum(p, c, &lo);
    if (hi == 0 && lo == 0)
        hi = h_zero_sum(p, c, AUX_MODE(aux));
    return h_finish(hi, isfinite(hi) ? lo : 0, bf, aux);
}
/* What the H100 computes for fma.{rz,rm,rp}{.relu}.bf16 (the driver's PTX JIT, 580.159.04,
 * sm_90; docs/arithmetic.md), not what the manual says: the operands are read as f16, the
 * fma is done in f32 in the given mode, that is rounded to f16 to nearest, and .relu is
 * ignored (fma.rm.bf16(0x3f80, 0x3fc0, 0xbf00) gives 0x3f88), and so is .oob (the OOB-NaN
 * read as an f16 is a NaN: fma.rz.oob.bf16(0x7ff7, 0x0080, 0x7f81) gives 0x7fff).  The f16 product is exact in
 * a double and the two-sum keeps the sum exact, so the f32 rounding is exact too. */
static inline uint16_t h_fma_bf16_jit(uint16_t ua, uint16_t ub, uint16_t uc, uint64_t aux)
{
    int mode = AUX_MODE(aux);
    double p = h_dec(ua, false) * h_dec(ub, false), c = h_dec(uc, false), lo, hi = two_sum(p, c, &lo);
    if (hi != hi)
        return H_CANON;
    if (hi == 0 && lo == 0)
        hi = h_zero_sum(p, c, mode);
    double f = isinf(hi) ? hi : isa_fp_round(hi, lo, -126, 127, 23, mode);
    return h_finish(f, 0, false, (uint64_t)ISA_RND_N);
}
static inline uint16_t h_abs(uint16_t u, bool bf, uint64_t aux)
{
    return h_isnan(u, bf) ? H_CANON : h_in(u, bf, aux) & 0x7fffu;
}
static inline uint16_t h_neg(uint16_t u, bool bf, uint64_t aux)
{
    return h_isnan(u, bf) ? H_CANON : h_in(u, bf, aux) ^ 0x8000u;
}
/* min (max false) or max of two halves, with .ftz, .NaN and .xorsign.abs (fp.h). */
static inline uint16_t h_minmax(uint16_t a, uint16_t b, bool bf, uint64_t aux, bool max)
{
    return (uint16_t)isa_fp_minmax(h_in(a, bf, aux), h_in(b, bf, aux), 16, H_EXPM(bf), max,
                                   (aux & AUX_NAN) != 0, (aux & AUX_XORSIGN) != 0);
}
static inline uint16_t h_min(uint16_t a, uint16_t b, bool bf, uint64_t aux) { return h_minmax(a, b, bf, aux, false); }
static inline uint16_t h_max(uint16_t a, uint16_t b, bool bf, uint64_t aux) { return h_minmax(a, b, bf, aux, true); }
static inline uint16_t h_sub(uint16_t a, uint16_t b, bool bf, uint64_t aux) { return h_add(a, b ^ 0x8000u, bf, aux); }
/* The atomic operations' half arithmetic (atom.c): a + b rounded to nearest without
 * .ftz, and min (max false) or max, for f16 (bf false) or bf16. */
uint16_t isa_half_add(uint16_t a, uint16_t b, bool bf) { return h_add(a, b, bf, ISA_RND_N); }
uint16_t isa_half_minmax(uint16_t a, uint16_t b, bool bf, bool max)
{
    return h_minmax(a, b, bf, 0, max);
}
/*}=====================================================================*/

/*{=====================================================================
 * Handlers: each operation for f16, bf16 (16-bit slots) and the x2 packs (32-bit slots)
 *====================================================================*/
#define LO(x) ((uint16_t)(x))
#define HI(x) ((uint16_t)((x) >> 16))
#define PACK(lo, hi) ((uint32_t)(lo) | (uint32_t)(hi) << 16)

#define H_UNARY(OP)                                                                              \
    ISA_H1(OP##_f16, uint16_t, uint16_t, h_##OP(a, false, in->aux))                              \
    ISA_H1(OP##_bf16, uint16_t, uint16_t, h_##OP(a, true, in->aux))                              \
    ISA_H1(OP##_f16x2, uint32_t, uint32_t, PACK(h_##OP(LO(a), false, in->aux), h_##OP(HI(a), false, in->aux))) \
    ISA_H1(OP##_bf16x2, uint32_t, uint32_t, PACK(h_##OP(LO(a), true, in->aux), h_##OP(HI(a), true, in->aux)))
#define H_BINARY(OP)                                                                             \
    ISA_H2(OP##_f16, uint16_t, uint16_t, uint16_t, h_##OP(a, b, false, in->aux))                 \
    ISA_H2(OP##_bf16, uint16_t, uint16_t, uint16_t, h_##OP(a, b, true, in->aux))                 \
    ISA_H2(OP##_f16x2, uint32_t, uint32_t, uint32_t,                                             \
           PACK(h_##OP(LO(a), LO(b), false, in->aux), h_##OP(HI(a), HI(b), false, in->aux)))     \
    ISA_H2(OP##_bf16x2, uint32_t, uint32_t, uint32_t,                                            \
           PACK(h_##OP(LO(a), LO(b), true, in->aux), h_##OP(HI(a), HI(b), true, in->aux)))
H_UNARY(abs)
H_UNARY(neg)
H_BINARY(add)
H_BINARY(sub)
H_BINARY(mul)
H_BINARY(min)
H_BINARY(max)
ISA_H3(fma_f16, uint16_t, uint16_t, uint16_t, uint16_t, h_fma(a, b, c, false, in->aux))
ISA_H3(fma_bf16, uint16_t, uint16_t, uint16_t, uint16_t, h_fma(a, b, c, true, in->aux))
ISA_H3(fma_bf16_dir, uint16_t, uint16_t, uint16_t, uint16_t, h_fma_bf16_jit(a, b, c, in->aux))
ISA_H3(fma_f16x2, uint32_t, uint32_t, uint32_t, uint32_t,
       PACK(h_fma(LO(a), LO(b), LO(c), false, in->aux), h_fma(HI(a), HI(b), HI(c), false, in->aux)))
ISA_H3(fma_bf16x2, uint32_t, uint32_t, uint32_t, uint32_t,
       PACK(h_fma(LO(a), LO(b), LO(c), true, in->aux), h_fma(HI(a), HI(b), HI(c), true, in->aux)))

/*{=====================================================================
 * The common case of f16 and bf16 add, sub, mul and fma (to nearest, no .ftz, .sat, .relu or
 * .oob), a whole warp at once in vectors (hvec.h): in f32, where the products are exact and
 * the sums exact as two-sums, rounded once to the format's bits.  A lane whose operands the
 * f32 form cannot take exactly (f16: an infinity or NaN; bf16: not finite, or a factor
 * whose product might not be exact in f32) sends the whole instruction to the general
 * handler above.
 *====================================================================*/
/* Bits 15 and 31 of each 32-bit element set where its low or high half must go the general
 * way as operand i (0 and 1 the factors of mul and fma, 2 the addend) of op, other bits of
 * no meaning: f16 not finite; bf16 not finite as an addend, a factor neither zero nor of
 * exponent field 63..190 (t holds field + 65: 128..255 has bit 7 set and bit 8 clear). */
HV_INLINE hv_u hv_bad_v(hv_u v, int op, int bf, int i)
{
    if (!bf)
        return (v & 0x7c007c00u) + 0x04000400u;
    if (op == HV_ADD || i == 2)
        return (v & 0x7f807f80u) + 0x00800080u;
    hv_u t = (v & 0x7f807f80u) + (65u << 7 | 65u << 23);
    hv_u nz = (v & 0x7fff7fffu) + 0x7fff7fffu;
    return nz & (t | ~(t << 1));
}
/* The elements (all ones) of one vector whose lanes are active in mask: 16 lanes from lane i
 * of 32-bit registers, or 32 lanes of 16-bit registers (two per element). */
HV_INLINE hv_u hv_active(uint32_t mask, unsigned i, int pair)
{
    static const hv_u idx = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    hv_u m = (hv_u){ 0 } + mask;
    if (pair)
        return 0u - ((m >> (idx + i)) & 1u);
    return (0u - ((m >> (idx + idx)) & 1u)) >> 16 | (0u - ((m >> (idx + idx + 1u)) & 1u)) << 16;
}
/* The operands are read whole, 64 bytes at a time (inactive lanes too: their values only
 * matter through the active-lane mask of the check), as 32-bit elements holding two halves:
 * one lane's pair, or two lanes of 16-bit registers.  The results of all lanes are computed
 * before any is written (d may be a source). */
#define HV_FAST(NAME, TD, OP, BF, NEG, GENERAL)                                                  \
    ISA_HOT static int NAME##_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)              \
    {                                                                                            \
        TD *d = ISA_SLOT(TD, f, in->o[0]);                                                       \
        const uint8_t *pa = f + in->o[1], *pb = f + in->o[2];                                    \
        const uint8_t *pc = OP == HV_FMA ? f + in->o[3] : pb;                                    \
        const int pair = sizeof(TD) == 4;                                                        \
        union { uint32_t w[ISA_LANES]; TD l[ISA_LANES]; } r;                                     \
        hv_u bad = { 0 };                                                                        \
        for (unsigned i = 0; i < (pair ? 2u : 1u); i++) {                                        \
            hv_u ua, ub, uc;                                                                     \
            memcpy(&ua, pa + 64 * i, sizeof ua);                                                 \
            memcpy(&ub, pb + 64 * i, sizeof ub);                                                 \
            ub ^= (NEG) | (NEG) << 16;                                                           \
            if (OP == HV_FMA)                                                                    \
                memcpy(&uc, pc + 64 * i, sizeof uc);                                             \
            else                                                                                 \
                uc = ub;                                                                         \
            hv_u b1 = hv_bad_v(ua, OP, BF, 0) | hv_bad_v(ub, OP, BF, 1);                         \
            if (OP == HV_FMA)                                                                    \
                b1 |= hv_bad_v(uc, OP, BF, 2);                                                   \
            hv_u res = hv_op_v(hv_dec(ua, 0, BF), hv_dec(ub, 0, BF), hv_dec(uc, 0, BF), OP, BF) |  \
                       hv_op_v(hv_dec(ua, 1, BF), hv_dec(ub, 1, BF), hv_dec(uc, 1, BF), OP, BF) << 16; \
            bad |= mask == ISA_FULL ? b1 : b1 & hv_active(mask, 16 * i, pair);                   \
            memcpy(r.w + 16 * i, &res, sizeof res);                                              \
        }                                                                                        \
        uint32_t any = 0;                                                                        \
        for (unsigned k = 0; k < HV_W; k++)                                                      \
            any |= bad[k];                                                                       \
        if (any & 0x80008000u)                                                                   \
            return GENERAL->fn(w_, f, in, mask);                                                 \
        if (mask == ISA_FULL)                                                                    \
            memcpy(d, r.l, sizeof r.l);                                                          \
        else                                                                                     \
            ISA_LANE_LOOP(mask, { d[l] = r.l[l]; });                                             \
        return ISA_X_NEXT;                                                                       \
    }                                                                                            \
    static const isa_xdesc_t NAME[1] = { { NAME##_f, { sizeof(TD), sizeof(TD), sizeof(TD), sizeof(TD) }, 0 } };
#define HV_FOUR(OP, HOP, NEG)                                                                    \
    HV_FAST(hv_##OP##_f16, uint16_t, HOP, 0, NEG, OP##_f16)                                      \
    HV_FAST(hv_##OP##_bf16, uint16_t, HOP, 1, NEG, OP##_bf16)                                    \
    HV_FAST(hv_##OP##_f16x2, uint32_t, HOP, 0, NEG, OP##_f16x2)                                  \
    HV_FAST(hv_##OP##_bf16x2, uint32_t, HOP, 1, NEG, OP##_bf16x2)
HV_FOUR(fma, HV_FMA, 0u)
HV_FOUR(add, HV_ADD, 0u)
HV_FOUR(sub, HV_ADD, 0x8000u)
HV_FOUR(mul, HV_MUL, 0u)
/*}=====================================================================*/

#ifdef PTXEMU_TESTING
bool isa_sem_general_only;
#define GENERAL_ONLY isa_sem_general_only
#else
#define GENERAL_ONLY false
#endif

/* An operation's four handlers, in the order f16, bf16, f16x2, bf16x2. */
typedef const isa_xdesc_t *const h_four_t[4];
#define FOUR(OP) { OP##_f16, OP##_bf16, OP##_f16x2, OP##_bf16x2 }
static h_four_t h_add_t = FOUR(add), h_sub_t = FOUR(sub), h_mul_t = FOUR(mul), h_fma_t = FOUR(fma),
                h_abs_t = FOUR(abs), h_neg_t = FOUR(neg), h_min_t = FOUR(min), h_max_t = FOUR(max);
static h_four_t hv_add_t = FOUR(hv_add), hv_sub_t = FOUR(hv_sub), hv_mul_t = FOUR(hv_mul),
                hv_fma_t = FOUR(hv_fma);
/*}=====================================================================*/

/* Selection for a half type: every suffix must be understood (the frontend's rules have
 * already checked which combinations each type allows).  Returns false for other types
 * and for variants without semantics here (.approx, mixed-precision forms). */
bool isa_sem_half(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->ntypes != 1)
        return false;
    int k;
    switch ((isa_type_t)in->types[0]) {
    case ISA_T_F16: k = 0; break;
    case ISA_T_BF16: k = 1; break;
    case ISA_T_F16X2: k = 2; break;
    case ISA_T_BF16X2: k = 3; break;
    default: return false;
    }
    int rnd = isa_instr_mod(in, ISA_G_ROUND);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) == ISA_M_FTZ, sat = isa_instr_mod(in, ISA_G_SAT) == ISA_M_SAT;
    bool relu = isa_instr_mod(in, ISA_G_RELU) >= 0, nan = isa_instr_mod(in, ISA_G_NAN) >= 0;
    bool xs = isa_instr_mod(in, ISA_G_XORSIGN) >= 0, abs = isa_instr_mod(in, ISA_G_ABSMOD) >= 0;
    bool oob = isa_instr_mod(in, ISA_G_OOB) == ISA_M_OOB;
    unsigned known = 1u + (rnd >= 0) + ftz + sat + relu + nan + xs + abs + oob;
    if (in->nsfx != known || xs != abs)
        return false;
    int mode = rnd < 0 || rnd == ISA_M_RN ? ISA_RND_N : rnd == ISA_M_RZ ? ISA_RND_Z
             : rnd == ISA_M_RM ? ISA_RND_M : rnd == ISA_M_RP ? ISA_RND_P : -1;
    if (mode < 0)
        return false;
    bool arith = true, rounds = true;
    const h_four_t *t;
    switch ((isa_op_t)in->op) {
    case ISA_OP_ADD: t = &h_add_t; break;
    case ISA_OP_SUB: t = &h_sub_t; break;
    case ISA_OP_MUL: t = &h_mul_t; break;
    case ISA_OP_FMA: t = &h_fma_t; break;
    case ISA_OP_ABS: t = &h_abs_t; arith = rounds = false; break;
    case ISA_OP_NEG: t = &h_neg_t; arith = rounds = false; break;
    case ISA_OP_MIN: t = &h_min_t; arith = false; rounds = false; break;
    case ISA_OP_MAX: t = &h_max_t; arith = false; rounds = false; break;
    default: return false;
    }
    if ((!rounds && rnd >= 0) || (!arith && (sat || relu)) || (arith && (nan || xs)) || (oob && in->op != ISA_OP_FMA))
        return false;
    if ((in->op == ISA_OP_MIN || in->op == ISA_OP_MAX) && in->nopd != 3)
        return false;
    if ((in->op == ISA_OP_ABS || in->op == ISA_OP_NEG) && (nan || xs))
        return false;
    x->desc = (*t)[k];
    /* fma.bf16 and fma.bf16x2 with .rz .rm .rp do what the H100 does (h_fma_bf16_jit):
     * the scalar its own handler, the pair rounds to nearest whatever the mode. */
    if (in->op == ISA_OP_FMA && mode != ISA_RND_N && k == 1)
        x->desc = fma_bf16_dir;
    if (in->op == ISA_OP_FMA && k == 3)
        mode = ISA_RND_N;
    x->aux = (uint64_t)mode | (ftz ? AUX_FTZ : 0) | (sat ? AUX_SAT : 0) | (relu ? AUX_RELU : 0) |
             (nan ? AUX_NAN : 0) | (xs ? AUX_XORSIGN : 0) | (oob ? AUX_OOB : 0);
    /* to nearest without modifiers: the warp-wide vector handlers */
    if (mode == ISA_RND_N && !ftz && !sat && !relu && !oob && !GENERAL_ONLY) {
        switch ((isa_op_t)in->op) {
        case ISA_OP_FMA: x->desc = hv_fma_t[k]; break;
        case ISA_OP_ADD: x->desc = hv_add_t[k]; break;
        case ISA_OP_SUB: x->desc = hv_sub_t[k]; break;
        case ISA_OP_MUL: x->desc = hv_mul_t[k]; break;
        default: break;
        }
    }
    return true;
}
