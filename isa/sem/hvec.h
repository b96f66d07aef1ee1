/* hvec.h: the common case of f16 and bf16 arithmetic on a whole warp at once, in vectors
 * (GCC's vector extensions: SSE2, AVX2 or AVX-512 as the handler's clone was built for,
 * NEON on AArch64).  A lane holds one half in the low 16 bits of a 32-bit element.
 *
 * The arithmetic is done in f32, where it is exact: an f16 or bf16 product has at most 22
 * (16) significant bits, and a sum is exact as the two-sum s + e.  The exact result is then
 * rounded once to nearest even, straight to the format's bits.  Callers guarantee the
 * ranges (half.c): f16 operands finite; bf16 factors zero or of exponent field 63..190, so
 * that their product is an exact f32 (at least 2^-128, below 2^128; sums of finite bf16 may
 * overflow f32: the rounding below still gives infinity).  hv_round_f16 is the vector form
 * of fp.h's one-lane isa_f16_round_f32 (tests/unit/isa/check_hvec.c holds the two equal;
 * tests/unit/exec/check_halfvec.c the handlers and the general ones). */
#ifndef PTXEMU_ISA_SEM_HVEC_H
#define PTXEMU_ISA_SEM_HVEC_H

#include <stdint.h>
#include <string.h>

/* 64-byte vectors: one AVX-512 register in the clones built for it, two AVX2 or four SSE2
 * registers in the others (measured: 30 % faster than 32-byte vectors with AVX-512, the
 * same with AVX2, 3-15 % slower with SSE2 alone).
 * Every function taking them is inlined: no ABI is involved (the Makefile turns off the
 * compilers' note about it, -Wno-psabi). */
#define HV_W 16                                    /* lanes per vector */
#define HV_INLINE static inline __attribute__((always_inline))
typedef float hv_f __attribute__((vector_size(64)));
typedef uint32_t hv_u __attribute__((vector_size(64)));
typedef int32_t hv_i __attribute__((vector_size(64)));

/* m ? a : b per lane, m all ones or zero.  The masks come from arithmetic shifts of
 * differences, not comparisons: GCC compares vectors wider than the host's registers lane
 * by lane. */
HV_INLINE hv_u hv_sel(hv_u m, hv_u a, hv_u b) { return (m & a) | (~m & b); }
/* All ones in the lanes where x < y (both below 2^31). */
HV_INLINE hv_u hv_lt(hv_u x, uint32_t y) { return (hv_u)((hv_i)(x - y) >> 31); }

/* The low (hi = 0) or high half of each 32-bit element, f16 bits (finite) or bf16 bits, to
 * f32.  f16: the half's sign moved to bit 31 and its exponent and fraction to bits 13-27 by
 * an arithmetic shift, the exponent rebiased by a multiplication by 2^112 (exact,
 * subnormals included). */
HV_INLINE hv_f hv_dec_f16(hv_u u, int hi)
{
    hv_u x = hi ? (hv_u)((hv_i)u >> 3) & 0x8fffe000u : (hv_u)((hv_i)(u << 16) >> 3) & 0x8fffffffu;
    return (hv_f)x * 0x1p112f;
}
HV_INLINE hv_f hv_dec_bf16(hv_u u, int hi) { return (hv_f)(hi ? u & 0xffff0000u : u << 16); }
HV_INLINE hv_f hv_dec(hv_u u, int hi, int bf) { return bf ? hv_dec_bf16(u, hi) : hv_dec_f16(u, hi); }

/* |s| + e as f32 magnitude bits whose rounding at any coarser place is that of the exact
 * value (|e| below half an ulp of s): one ulp below |s| when e points down, and the
 * lowest bit set when e is not zero (the sticky bit). */
HV_INLINE hv_u hv_sticky(hv_u sb, hv_u eb)
{
    hv_u xb = sb & 0x7fffffffu;
    hv_u sticky = (hv_u)((hv_i)(0u - (eb & 0x7fffffffu)) >> 31);
    hv_u down = (hv_u)((hv_i)(eb ^ sb) >> 31);
    return (xb + (sticky & down)) | (sticky & 1u);
}

/* s + e to nearest even as f16 bits: normal results by integer rounding at bit 13 with
 * the exponent rebiased (a carry reaches the next binade or infinity), subnormal ones by
 * a float addition that aligns the quantum 2^-24 with the last place of 0.5. */
HV_INLINE hv_u hv_round_f16(hv_f s, hv_f e)
{
    hv_u sb = (hv_u)s, xb = hv_sticky(sb, (hv_u)e);
    hv_u nrm = (xb + 0xc8000fffu + ((xb >> 13) & 1u)) >> 13;   /* -(112 << 23) + 0xfff */
    nrm = hv_sel(hv_lt(xb, 0x47800000u), nrm, (hv_u){ 0 } + 0x7c00u);
    hv_u sub = (hv_u)((hv_f)xb + 0.5f) - 0x3f000000u;
    return (sb >> 16 & 0x8000u) | hv_sel(hv_lt(xb, 0x38800000u), sub, nrm);
}
/* s + e to nearest even as bf16 bits (f32's exponent range: integer rounding at bit 16). */
HV_INLINE hv_u hv_round_bf16(hv_f s, hv_f e)
{
    hv_u sb = (hv_u)s, xb = hv_sticky(sb, (hv_u)e);
    return (sb >> 16 & 0x8000u) | (xb + 0x7fffu + ((xb >> 16) & 1u)) >> 16;
}

enum { HV_ADD, HV_MUL, HV_FMA };

/* op(x, y[, z]) for 16 lanes of decoded halves, rounded to f16 (or bf16 when bf) bits;
 * sub is add with y's sign flipped by the caller. */
HV_INLINE hv_u hv_op_v(hv_f x, hv_f y, hv_f z, int op, int bf)
{
    hv_f s, e = { 0 };
    if (op == HV_MUL) {
        s = x * y;
    } else {
        if (op == HV_FMA) {
            x = x * y;
            y = z;
        }
        s = x + y;
        hv_f bb = s - x;
        e = (x - (s - bb)) + (y - bb);
    }
    return bf ? hv_round_bf16(s, e) : hv_round_f16(s, e);
}

/* r = op(a, b[, c]) for 32 lanes of halves. */
HV_INLINE void hv_op(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                                        const uint32_t *c, int op, int bf)
{
    for (unsigned i = 0; i < 32; i += HV_W) {
        hv_u ua, ub, uc = { 0 };
        memcpy(&ua, a + i, sizeof ua);
        memcpy(&ub, b + i, sizeof ub);
        if (op == HV_FMA)
            memcpy(&uc, c + i, sizeof uc);
        hv_u res = hv_op_v(hv_dec(ua, 0, bf), hv_dec(ub, 0, bf), hv_dec(uc, 0, bf), op, bf) & 0xffffu;
        memcpy(r + i, &res, sizeof res);
    }
}

/* cvt.rn.f16.f32 of 32 lanes: f32 bits to f16 bits (NaN: the canonical 0x7fff). */
HV_INLINE void hv_cvt_f16_f32(uint32_t *r, const uint32_t *x)
{
    for (unsigned i = 0; i < 32; i += HV_W) {
        hv_u u;
        memcpy(&u, x + i, sizeof u);
        hv_u nan = (hv_u)((hv_i)(0x7f800000u - (u & 0x7fffffffu)) >> 31);
        hv_u res = hv_sel(nan, (hv_u){ 0 } + 0x7fffu, hv_round_f16((hv_f)u, (hv_f){ 0 }));
        memcpy(r + i, &res, sizeof res);
    }
}
/* cvt.rn.bf16.f32 of 32 lanes: f32 bits to bf16 bits (NaN: the canonical 0x7fff). */
HV_INLINE void hv_cvt_bf16_f32(uint32_t *r, const uint32_t *x)
{
    for (unsigned i = 0; i < 32; i += HV_W) {
        hv_u u;
        memcpy(&u, x + i, sizeof u);
        hv_u nan = (hv_u)((hv_i)(0x7f800000u - (u & 0x7fffffffu)) >> 31);
        hv_u res = hv_sel(nan, (hv_u){ 0 } + 0x7fffu, (u + 0x7fffu + (u >> 16 & 1u)) >> 16);
        memcpy(r + i, &res, sizeof res);
    }
}
/* cvt.f32.f16 of 32 lanes: f16 bits (low 16 bits) to f32 bits (NaN: 0x7fffffff). */
HV_INLINE void hv_cvt_f32_f16(uint32_t *r, const uint32_t *x)
{
    for (unsigned i = 0; i < 32; i += HV_W) {
        hv_u u;
        memcpy(&u, x + i, sizeof u);
        hv_u special = (hv_u){ 0 } - (((u & 0x7c00u) + 0x400u) >> 15);       /* exponent all ones */
        hv_u nan = (hv_u)((hv_i)(0u - (u & 0x3ffu)) >> 31);
        hv_u inf = (u & 0x8000u) << 16 | 0x7f800000u;
        hv_u res = hv_sel(special, hv_sel(nan, (hv_u){ 0 } + 0x7fffffffu, inf), (hv_u)hv_dec_f16(u, 0));
        memcpy(r + i, &res, sizeof res);
    }
}

#endif
