/* wmma.c: warp-level matrix multiply-accumulate (wmma.load, wmma.store, wmma.mma) for the
 * f16, bf16, tf32, f64, s8 and u8 element types with every shape the manual gives them.
 *
 * A fragment is the warp's copy of a whole matrix, spread over the lanes' registers; its
 * layout is the emulator's own (the PTX manual leaves it unspecified): the matrix's
 * elements in row-major order, lane l holding elements l*U .. l*U + U - 1 (U = elements /
 * 32) in its fragment slots 0 .. U-1, and, where a fragment has more slots than that (the
 * 16-bit a and b fragments), the same elements again.  Loads and stores read and write
 * memory in the layout the instruction names, so a fragment holds the logical matrix
 * whatever the memory layout; wmma.mma works on the logical matrices.
 *
 * The arithmetic of the H100's tensor cores, as measured (docs/execution.md, "Matrix
 * multiply-accumulate"): for 16-bit and tf32 inputs, the products are exact; each product
 * and the accumulator are cut towards zero to a multiple of 2^(E - 27), E the largest of
 * the products' alignment exponents (the sums of their operands' frexp exponents) and the
 * accumulator's exponent plus one; the cut terms are summed exactly and the sum rounded to
 * f32 towards zero (an f32 result) or to f16 to nearest even (an f16 result).  tf32
 * operands are first cut to tf32, and tf32 mma runs in steps of k = 4.  f64 is a
 * chain of fused multiply-adds from the accumulator, k in order; the integer types are
 * exact in 32-bit two's complement (with .satfinite, saturated). */
#include "exec/internal.h"
#include "isa/sem/fp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { WT_F16, WT_BF16, WT_TF32, WT_F32, WT_F64, WT_S8, WT_U8, WT_S32, WT_S4, WT_U4, WT_B1, WT_E4M3, WT_E5M2 };
static const uint8_t wt_bytes[] = { 2, 2, 4, 4, 8, 1, 1, 4, 0, 0, 0, 1, 1 };      /* in memory (0: under a byte) */
static const uint8_t wt_bits[] = { 16, 16, 32, 32, 64, 8, 8, 32, 4, 4, 1, 8, 8 };
static const uint8_t wt_per_reg[] = { 2, 2, 1, 1, 1, 4, 4, 1, 8, 8, 32, 4, 4 };  /* in one register */
#define WT_SUB(t) ((t) >= WT_S4 && (t) <= WT_B1)   /* elements under a byte: packed, element 0 in the low bits */
#define WT_BYTE(t) ((t) == WT_S8 || (t) == WT_U8 || (t) == WT_E4M3 || (t) == WT_E5M2)   /* 8-bit elements */

/* x->aux: bits 0-7 M, 8-15 N, 16-23 K; 24-27 the matrix (0 a, 1 b, 2 c, 3 d); 28 the
 * column-major layout (load, store); 32-35 the element type (a/b for mma), 36-39 c's,
 * 40-43 d's; 44 .satfinite; 45 b1's .and (else .xor); 48-50 the f64 rounding mode.  x->target: the first vector
 * operand's pool index (load: the destination; store: the source), x->vec its count;
 * mma: o[0] d's, o[1] a's, o[2] b's, o[3] c's pool index.  Load and store: o[4] the
 * address register (32 bits with flags WM_B32), x->imm its offset, o[5] the stride (ISA_NONE:
 * the matrix's width), x->width the address space (0xff generic). */
#define WM_B32 0x01
enum { MX_A, MX_B, MX_C, MX_D };

#define AUX_M(a)    ((unsigned)((a) & 0xff))
#define AUX_N(a)    ((unsigned)(((a) >> 8) & 0xff))
#define AUX_K(a)    ((unsigned)(((a) >> 16) & 0x1ff))
#define AUX_MX(a)   ((unsigned)(((a) >> 25) & 0xf))
#define AUX_COL(a)  ((unsigned)(((a) >> 29) & 1))
#define AUX_T(a)    ((unsigned)(((a) >> 32) & 0xf))
#define AUX_TC(a)   ((unsigned)(((a) >> 36) & 0xf))
#define AUX_TD(a)   ((unsigned)(((a) >> 40) & 0xf))
#define AUX_SAT(a)  ((unsigned)(((a) >> 44) & 1))
#define AUX_RND(a)  ((int)(((a) >> 48) & 7))
#define AUX_AND(a)  ((unsigned)(((a) >> 45) & 1))   /* b1: .and.popc (else .xor.popc) */

/* The rows and columns of matrix mx of shape M x N x K. */
static void dims(unsigned mx, unsigned M, unsigned N, unsigned K, unsigned *rows, unsigned *cols)
{
    *rows = mx == MX_A ? M : mx == MX_B ? K : M;
    *cols = mx == MX_A ? K : N;
}

/* Register slot k of vector operand first (frame f of function fn): lane l's element e. */
static inline uint8_t *elem_at(uint8_t *f, const ex_func_t *fn, uint32_t first, unsigned t, unsigned e, unsigned l)
{
    unsigned per = wt_per_reg[t], rb = t == WT_F64 ? 8 : 4, eb = t == WT_TF32 ? 4 : wt_bytes[t];
    uint32_t slot = fn->opd_slot[first + e / per];
    return f + slot + l * rb + (e % per) * eb;
}

/* An f16's value, infinities and NaNs included. */
static inline double f16_val(uint16_t h)
{
    if ((h & 0x7c00) == 0x7c00)
        return (h & 0x3ff) ? NAN : (h & 0x8000) ? -INFINITY : INFINITY;
    return isa_f16_dec_f32(h);
}

/* The value of an element as a double (its bits for the integer types' sign-extended values). */
static inline __attribute__((always_inline)) double elem_get(const uint8_t *p, unsigned t)
{
    switch (t) {
    case WT_F16: { uint16_t h; memcpy(&h, p, 2); return f16_val(h); }
    case WT_BF16: { uint16_t h; memcpy(&h, p, 2); return f32_of((uint32_t)h << 16); }
    case WT_TF32: { uint32_t u; memcpy(&u, p, 4); return f32_of(((u & 0x7f800000u) == 0x7f800000u) ? u : u & 0xffffe000u); }
    case WT_F32: { float v; memcpy(&v, p, 4); return v; }
    case WT_F64: { double v; memcpy(&v, p, 8); return v; }
    case WT_S8: return (int8_t)*p;
    case WT_U8: return *p;
    case WT_E4M3: {   /* 1-4-3, bias 7, no infinity; S.1111.111 is NaN */
        unsigned v = *p, e = (v >> 3) & 15, m = v & 7;
        double r = (v & 0x7f) == 0x7f ? NAN : e ? ldexp(8 + m, (int)e - 10) : ldexp(m, -9);
        return (v & 0x80) ? -r : r;
    }
    case WT_E5M2: {   /* 1-5-2, bias 15, as IEEE */
        unsigned v = *p, e = (v >> 2) & 31, m = v & 3;
        double r = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(4 + m, (int)e - 17) : ldexp(m, -16);
        return (v & 0x80) ? -r : r;
    }
    default: { int32_t v; memcpy(&v, p, 4); return v; }
    }
}

/* Element e of lane l's fragment as a double, for every type (sub-byte ones included). */
static inline __attribute__((always_inline)) double frag_val(uint8_t *f, const ex_func_t *fn, uint32_t first, unsigned t, unsigned e, unsigned l)
{
    if (!WT_SUB(t))
        return elem_get(elem_at(f, fn, first, t, e, l), t);
    unsigned per = wt_per_reg[t], bits = wt_bits[t];
    uint32_t w = ISA_SLOT(const uint32_t, f, fn->opd_slot[first + e / per])[l];
    uint32_t v = (w >> ((e % per) * bits)) & ((1u << bits) - 1);
    return t == WT_S4 ? (double)((int32_t)(v << 28) >> 28) : (double)v;
}

/* A result element v (exact in its type, NaN as the canonical one) into p, as type t. */
static void elem_put(uint8_t *p, unsigned t, double v)
{
    if (t == WT_F64) {
        memcpy(p, &v, 8);
    } else if (t == WT_F16) {
        uint16_t h = v != v ? 0x7fff : (uint16_t)isa_fp_pack(v, 5, 10);
        memcpy(p, &h, 2);
    } else if (t == WT_F32) {
        float fv = v != v ? f32_of(0x7fffffffu) : (float)v;
        memcpy(p, &fv, 4);
    } else {
        int32_t iv = (int32_t)v;
        memcpy(p, &iv, 4);
    }
}

/*{=====================================================================
 * wmma.load / wmma.store
 *====================================================================*/
static int wm_fault(ex_warp_t *w, const isa_xinsn_t *x, uint32_t mask, const char *what)
{
    ex_set_fault(w, x, mask, what);
    return ISA_X_FAULT;
}

/* Host memory for the bytes [lo, hi) of a lane's elements when they lie in one global
 * allocation or in the CTA's own shared memory, else NULL (nothing recorded: the caller
 * then translates element by element, which reports a fault).  Local memory is
 * interleaved by lane, so it always goes element by element. */
static uint8_t *span_host(ex_warp_t *w, unsigned space, uint64_t lo, uint64_t hi)
{
    ex_cta_t *c = w->cta;
    if (space == EX_SP_GENERIC) {
        if ((lo & EX_WIN_MASK) == 0 && (hi & EX_WIN_MASK) == 0)
            space = ISA_SP_GLOBAL;
        else if ((lo & EX_WIN_MASK) == EX_WIN_SHARED && ((hi - 1) & EX_WIN_MASK) == EX_WIN_SHARED) {
            space = ISA_SP_SHARED;
            lo -= EX_WIN_SHARED;
            hi -= EX_WIN_SHARED;
        } else
            return NULL;
    }
    if (isa_spaces[space].window == ISA_SP_GLOBAL)
        return ex_global_ok(c->p, (uintptr_t)lo, hi - lo) ? (uint8_t *)(uintptr_t)lo : NULL;
    if (isa_spaces[space].window == ISA_SP_SHARED && !(hi >> 32) && lo >= c->shared_base &&
        hi - c->shared_base <= c->shared_size)
        return c->shared + (lo - c->shared_base);
    return NULL;
}

static int ldst_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask, bool store)
{
    ex_warp_t *w = wv;
    if (mask != ISA_FULL)   /* .sync.aligned: the whole warp (of 32 threads) executes it together */
        return wm_fault(w, x, mask, "wmma with only some lanes of the warp active (.aligned needs all of them)");
    const ex_func_t *fn = ex_top(w)->fn;
    uint64_t a = x->aux;
    unsigned rows, cols, t = AUX_T(a), mx = AUX_MX(a);
    dims(mx, AUX_M(a), AUX_N(a), AUX_K(a), &rows, &cols);
    unsigned U = rows * cols / ISA_LANES, E = x->vec * wt_per_reg[t], eb = wt_bytes[t], bits = wt_bits[t];
    /* element e's place in its register's lane 0 (elem_at), and the lane stride */
    uint32_t reg[32];
    unsigned rb = t == WT_F64 ? 8 : 4;
    for (unsigned e = 0; e < E && e < 32 && !WT_SUB(t); e++)
        reg[e] = (uint32_t)(elem_at(f, fn, x->target, t, e, 0) - f);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t base = ex_addr_lane(f, x->o[4], x->flags & WM_B32, x->imm, l);
        uint64_t ld = x->o[5] == ISA_NONE ? (AUX_COL(a) ? rows : cols) : ISA_SLOT(const uint32_t, f, x->o[5])[l];
        /* As on the H100 (golden wmma_shapes' notes): rows start at 16-byte boundaries. */
        if (base % 16 || (ld * bits) % 128) {
            snprintf(w->fault_buf, sizeof w->fault_buf,
                     "wmma matrix at %#llx with a stride of %llu elements: rows must start at 16-byte boundaries",
                     (unsigned long long)base, (unsigned long long)ld);
            ex_set_fault_k(w, x, 1u << l, EX_FAULT_MISALIGNED, w->fault_buf);
            w->fault_addr = base;
            return ISA_X_FAULT;
        }
        if (WT_SUB(t)) {   /* a and b fragments of s4, u4, b1: packed, element 0 in the low bits */
            for (unsigned e = 0; e < E; e++) {
                unsigned idx = l * U + e % U, r = idx / cols, c = idx % cols;
                uint64_t bit = (AUX_COL(a) ? (uint64_t)c * ld + r : (uint64_t)r * ld + c) * bits;
                const uint8_t *h = ex_mem(w, l, x->width == EX_SP_GENERIC ? ISA_SP_NONE : (isa_space_t)x->width,
                                          base + bit / 8, 1, x);
                if (!h)
                    return ISA_X_FAULT;
                uint32_t v = (*h >> (bit % 8)) & ((1u << bits) - 1);
                uint32_t *reg = &ISA_SLOT(uint32_t, f, fn->opd_slot[x->target + e / wt_per_reg[t]])[l];
                unsigned sh = (e % wt_per_reg[t]) * bits;
                *reg = (*reg & ~(((1u << bits) - 1) << sh)) | v << sh;
            }
            continue;
        }
        /* the lane's U elements (the first U of E; the rest repeat them), translated as
         * one span where they lie in one allocation or the CTA's shared memory */
        uint64_t off[32], lo = UINT64_MAX, hi = 0, amis = 0;
        unsigned r0 = l * U / cols, c0 = l * U % cols;
        for (unsigned e = 0; e < U && U <= 32; e++) {
            off[e] = (AUX_COL(a) ? (uint64_t)c0 * ld + r0 : (uint64_t)r0 * ld + c0) * eb;
            uint64_t addr = base + off[e];
            lo = addr < lo ? addr : lo;
            hi = addr > hi ? addr : hi;
            amis |= addr % eb;
            if (++c0 == cols) {
                c0 = 0;
                r0++;
            }
        }
        uint8_t *span = U <= 32 && !amis && hi + eb > lo ? span_host(w, x->width, lo, hi + eb) : NULL;
        if (span && E <= 32) {
            uint8_t *h0 = span + (base - lo);
            unsigned n = store ? U : E;
#define WM_COPY(B)                                                                            \
            for (unsigned e = 0; e < n; e++) {                                                \
                uint8_t *r8 = f + reg[e] + l * rb;                                            \
                if (store)                                                                    \
                    memcpy(h0 + off[e % U], r8, B);                                           \
                else                                                                          \
                    memcpy(r8, h0 + off[e % U], B);                                           \
            }
            switch (eb) {
            case 1: WM_COPY(1) break;
            case 2: WM_COPY(2) break;
            case 4: WM_COPY(4) break;
            default: WM_COPY(8) break;
            }
#undef WM_COPY
            continue;
        }
        for (unsigned e = 0; e < E; e++) {
            if (store && e >= U)
                break;
            unsigned idx = l * U + e % U, r = idx / cols, c = idx % cols;
            uint64_t off = AUX_COL(a) ? (uint64_t)c * ld + r : (uint64_t)r * ld + c;
            uint64_t addr = base + off * eb;
            if (addr % eb) {
                ex_set_fault_k(w, x, 1u << l, EX_FAULT_MISALIGNED, "misaligned wmma element address");
                w->fault_addr = addr;
                return ISA_X_FAULT;
            }
            uint8_t *h = ex_mem(w, l, x->width == EX_SP_GENERIC ? ISA_SP_NONE : (isa_space_t)x->width, addr, eb, x);
            if (!h)
                return ISA_X_FAULT;
            uint8_t *r8 = elem_at(f, fn, x->target, t, e, l);
            if (store)
                memcpy(h, r8, eb);
            else
                memcpy(r8, h, eb);
        }
    }
    return ISA_X_NEXT;
}
static int load_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask) { return ldst_f(wv, f, x, mask, false); }
static int store_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask) { return ldst_f(wv, f, x, mask, true); }
/*}=====================================================================*/

/*{=====================================================================
 * wmma.mma
 *====================================================================*/
/* One element of a floating-point product sum with 16-bit or tf32 operands, as the tensor
 * cores compute it (see the top of the file): the sum as an exact double. */
ISA_HOT static double tc_sum_bits(const double *av, const double *bv, unsigned K, double c, bool *nan, int *inf, int bits,
                                  int acc_up, int emin, const int16_t *xa, const int16_t *xb);
static double tc_sum(const double *av, const double *bv, unsigned K, double c, bool *nan, int *inf, unsigned t,
                     const int16_t *xa, const int16_t *xb);

/* The alignment exponent of an operand: its frexp exponent, at least emin (the bits of a
 * nonzero finite double that is no subnormal; a zero gives emin too). */
static inline int16_t align_exp(double v, int emin)
{
    uint64_t b;
    memcpy(&b, &v, 8);
    int e = (int)((b >> 52) & 0x7ff) - 1022;
    return (int16_t)(e < emin ? emin : e);
}

/* The smallest frexp exponent of an operand type's values: a subnormal (or zero) operand
 * counts as the smallest normal exponent in the alignment. */
static int frexp_min(unsigned t)
{
    switch (t) {
    case WT_F16:  return -13;
    case WT_E5M2: return -13;
    case WT_E4M3: return -5;
    case WT_BF16: case WT_TF32: return -125;
    default:      return -1021;
    }
}
/* A power of two, 2^e, for e within double's normal range. */
static inline double pow2(int e)
{
    uint64_t b = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* The same with the terms cut to multiples of 2^(E - bits).  E is the largest of the
 * products' alignment exponents and the accumulator's exponent plus acc_up; a product's
 * alignment exponent is the sum of its operands' frexp exponents (each at least emin, the
 * type's smallest normal), which is the product's own exponent or one more: the hardware
 * aligns by the operands' exponents before it normalises the product (measured:
 * pending/mma_mixed, 388 of 388 finite sums against 350 with the product's own exponent).
 * A zero product takes no part.  Each product is computed once (exact: at most 22
 * significant bits, and a normal double for every operand type); a term is the product
 * scaled by a power of two (exact) cut towards zero by the conversion to an integer. */
ISA_HOT static double tc_sum_bits(const double *av, const double *bv, unsigned K, double c, bool *nan, int *inf, int bits,
                                  int acc_up, int emin, const int16_t *xa, const int16_t *xb)
{
    double p[256];
    int emax = INT32_MIN;
    unsigned fmax = 0;
    for (unsigned k = 0; k < K; k++) {
        p[k] = av[k] * bv[k];
        uint64_t b;
        memcpy(&b, &p[k], 8);
        unsigned ef = (unsigned)(b >> 52) & 0x7ff;
        fmax = ef > fmax ? ef : fmax;
        int ea = xa ? xa[k] : align_exp(av[k], emin), eb = xb ? xb[k] : align_exp(bv[k], emin);
        int e = (b << 1) ? ea + eb : INT32_MIN;
        emax = e > emax ? e : emax;
    }
    *nan = false;
    *inf = 0;
    if (isnan(c))
        *nan = true;
    else if (isinf(c))
        *inf = c > 0 ? 1 : -1;
    if (fmax == 0x7ff) {
        for (unsigned k = 0; k < K; k++) {
            if (isnan(p[k])) {
                *nan = true;
            } else if (isinf(p[k])) {
                int sg = p[k] > 0 ? 1 : -1;
                if (*inf && *inf != sg)
                    *nan = true;
                *inf = sg;
            }
        }
    }
    if (*nan || *inf)
        return 0;
    if (c != 0) {
        int e;
        frexp(c, &e);
        if (e + acc_up > emax)
            emax = e + acc_up;     /* the accumulator counts acc_up binades higher */
    }
    if (emax == INT32_MIN)
        return 0;
    /* Terms in units of 2^(emax - bits), cut towards zero: each below 2^bits in magnitude. */
    int64_t s = 0;
    if (bits - emax >= -1000 && bits - emax <= 1000) {
        double scale = pow2(bits - emax);
        for (unsigned k = 0; k < K; k++)
            s += (int64_t)(p[k] * scale);
        s += (int64_t)(c * scale);
        return (double)s * pow2(emax - bits);
    }
    for (unsigned k = 0; k < K; k++)
        s += (int64_t)trunc(ldexp(p[k], bits - emax));
    s += (int64_t)trunc(ldexp(c, bits - emax));
    return ldexp((double)s, emax - bits);
}

/* The sum of mma.sync and wmma.mma for operand type t.  tf32 runs as steps of k = 4, each
 * rounded to an f32 accumulator before the next (as the H100's m16n8k4 tf32 instructions
 * would: measured, golden wmma_round); the others as one sum. */
static double f32_rz(double v);
static double tc_sum(const double *av, const double *bv, unsigned K, double c, bool *nan, int *inf, unsigned t,
                     const int16_t *xa, const int16_t *xb)
{
    int emin = frexp_min(t);
    if (t != WT_TF32 || K <= 4)
        return tc_sum_bits(av, bv, K, c, nan, inf, 27, 1, emin, xa, xb);
    double acc = c;
    for (unsigned k = 0; k < K; k += 4) {
        acc = tc_sum_bits(av + k, bv + k, K - k < 4 ? K - k : 4, acc, nan, inf, 27, 1, emin, xa + k, xb + k);
        if (*nan || *inf)
            return 0;
        if (k + 4 < K)
            acc = f32_rz(acc);
    }
    return acc;
}

/* A tensor-core sum (an exact double) as an f32 accumulator: rounded towards zero, within
 * f32's normal range by dropping the low 29 bits of the significand; a sum of 2^128 or
 * more is an infinity (measured: golden mma_special, bf16 sums beyond f32's range). */
static double f32_rz(double v)
{
    uint64_t b;
    memcpy(&b, &v, 8);
    unsigned ef = (unsigned)(b >> 52) & 0x7ff;
    if (ef >= 1023 - 126 && ef <= 1023 + 127) {
        b &= ~(((uint64_t)1 << 29) - 1);
        memcpy(&v, &b, 8);
        return v;
    }
    if (ef > 1023 + 127 && ef != 0x7ff)
        return v > 0 ? INFINITY : -INFINITY;
    return isa_fp_round(v, 0, -126, 127, 23, ISA_RND_Z);
}

static uint16_t f16_bits_rn(double v)
{
    return (uint16_t)isa_fp_pack(isa_fp_round(v, 0, -14, 15, 10, ISA_RND_N), 5, 10);
}

ISA_HOT static int mma_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    if (mask != ISA_FULL)
        return wm_fault(w, x, mask, "wmma with only some lanes of the warp active (.aligned needs all of them)");
    const ex_func_t *fn = ex_top(w)->fn;
    uint64_t a = x->aux;
    unsigned M = AUX_M(a), N = AUX_N(a), K = AUX_K(a), t = AUX_T(a), tc = AUX_TC(a), td = AUX_TD(a);
    double A[8 * 128], B[128 * 8], C[32 * 32];
    unsigned UA = M * K / ISA_LANES, UB = K * N / ISA_LANES, UC = M * N / ISA_LANES;
    for (unsigned l = 0; l < ISA_LANES; l++) {
        for (unsigned e = 0; e < UA; e++)
            A[l * UA + e] = frag_val(f, fn, x->o[1], t, e, l);
        for (unsigned e = 0; e < UB; e++)
            B[l * UB + e] = frag_val(f, fn, x->o[2], t, e, l);
        for (unsigned e = 0; e < UC; e++)
            C[l * UC + e] = elem_get(elem_at(f, fn, x->o[3], tc, e, l), tc);
    }
    double D[32 * 32];
    uint32_t Di[32 * 32];
    double bcol[256];
    int16_t XA[8 * 128], xbcol[256];
    int emin = frexp_min(t);
    for (unsigned e = 0; e < M * K; e++)
        XA[e] = align_exp(A[e], emin);
    for (unsigned j = 0; j < N; j++) {
        for (unsigned k = 0; k < K; k++) {
            bcol[k] = B[k * N + j];
            xbcol[k] = align_exp(bcol[k], emin);
        }
        for (unsigned i = 0; i < M; i++) {
            const double *arow = &A[i * K];
            double c = C[i * N + j];
            if (t == WT_S8 || t == WT_U8 || WT_SUB(t)) {
                int64_t s = (int64_t)c;
                for (unsigned k = 0; k < K; k++)
                    s += t == WT_B1 ? (AUX_AND(a) ? (int64_t)arow[k] & (int64_t)bcol[k] : (int64_t)arow[k] ^ (int64_t)bcol[k])
                                    : (int64_t)arow[k] * (int64_t)bcol[k];
                if (AUX_SAT(a))
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                Di[i * N + j] = (uint32_t)s;
            } else if (t == WT_F64) {
                /* a chain of fused multiply-adds from the accumulator, k in order */
                double r = c;
                for (unsigned k = 0; k < K; k++)
                    r = fma(arow[k], bcol[k], r);
                D[i * N + j] = f64_canon(r);
            } else {
                bool nan;
                int inf;
                double s = tc_sum(arow, bcol, K, c, &nan, &inf, t, &XA[i * K], xbcol);
                if (td == WT_F32) {
                    float r = nan ? f32_of(0x7fffffffu) : inf ? (inf > 0 ? INFINITY : -INFINITY)
                                                              : (float)f32_rz(s);
                    if (AUX_SAT(a) && isinf(r))
                        r = r > 0 ? FLT_MAX : -FLT_MAX;
                    if (r == 0)
                        r = 0.0f;          /* a sum that rounds to zero is +0 (golden wmma_exact) */
                    Di[i * N + j] = f32_bits(r);
                } else {
                    uint16_t h = nan ? 0x7fff : inf ? (inf > 0 ? 0x7c00 : 0xfc00) : f16_bits_rn(s);
                    if (h == 0x8000)
                        h = 0;             /* a sum that rounds to zero is +0 (golden wmma_exact) */
                    if (AUX_SAT(a) && (h & 0x7fff) == 0x7c00)
                        h = (uint16_t)((h & 0x8000) | 0x7bff);
                    Di[i * N + j] = h;
                }
            }
        }
    }
    /* Scatter d into every slot of every lane. */
    unsigned per = wt_per_reg[td];
    unsigned ED = x->vec * per;
    for (unsigned l = 0; l < ISA_LANES; l++)
        for (unsigned e = 0; e < ED; e++) {
            unsigned idx = l * UC + e % UC;
            uint8_t *p = elem_at(f, fn, x->o[0], td, e, l);
            if (td == WT_F64) {
                memcpy(p, &D[idx], 8);
            } else if (td == WT_F16) {
                uint16_t h = (uint16_t)Di[idx];
                memcpy(p, &h, 2);
            } else {
                memcpy(p, &Di[idx], 4);
            }
        }
    return ISA_X_NEXT;
}

static const isa_xdesc_t load_d[1] = { { load_f, { 0 }, 0 } };
static const isa_xdesc_t store_d[1] = { { store_f, { 0 }, 0 } };
static const isa_xdesc_t mma_d[1] = { { mma_f, { 0 }, 0 } };
/*}=====================================================================*/

/*{=====================================================================
 * mma.sync (the fragments the manual lays out), ldmatrix, stmatrix, movmatrix.  For a
 * lane, g = lane / 4 and t = lane % 4; element e of a fragment is element e % per of
 * register e / per.  x->aux as for wmma.mma, plus bits 52-55 b's type (integer operands
 * may differ in signedness).
 *====================================================================*/
enum { FR_A, FR_B, FR_C };

/* Row and column of element e of lane l's fragment fr of shape M x N x K, type t. */
static inline __attribute__((always_inline)) void frag_rc(unsigned fr, unsigned M, unsigned K, unsigned t, unsigned l, unsigned e, unsigned *r, unsigned *c)
{
    unsigned g = l >> 2, q = l & 3;
    bool i8 = WT_BYTE(t);
    if (fr == FR_C) {
        if (M == 8) {                       /* m8n8: f64 or s32 */
            *r = g; *c = 2 * q + e;
        } else {
            *r = g + 8 * (e >> 1); *c = 2 * q + (e & 1);
        }
        return;
    }
    if (WT_SUB(t)) {                        /* s4/u4 (8 per register), b1 (32 per register) */
        unsigned per = wt_per_reg[t], regs = (fr == FR_A ? M * K : K * 8) / ISA_LANES / per;
        unsigned j = e % per, k = e / per;  /* element j of register k */
        if (fr == FR_A) {
            /* m8n8: one register, row g; m16n8: registers alternate rows g and g + 8, then
             * the next column block */
            if (M == 8) { *r = g; *c = per * q + j; }
            else { *r = g + 8 * (k & 1); *c = per * q + j + 4 * per * (k >> 1); }
        } else {
            *c = g;
            *r = per * q + j + 4 * per * k;
        }
        (void)regs;
        return;
    }
    if (t == WT_F64) {                      /* m8n8k4 */
        *r = fr == FR_A ? g : q;
        *c = fr == FR_A ? q : g;
        return;
    }
    if (fr == FR_A) {
        if (i8) {
            if (M == 8) { *r = g; *c = 4 * q + e; }                                   /* m8n8k16 */
            else if (K == 16) { *r = g + 8 * (e >> 2); *c = 4 * q + (e & 3); }         /* m16n8k16 */
            else { *r = g + 8 * ((e >> 2) & 1); *c = 4 * q + (e & 3) + 16 * (e >> 3); } /* m16n8k32 */
        } else if (t == WT_TF32) {
            if (K == 8) { *r = g + 8 * (e & 1); *c = q + 4 * (e >> 1); }
            else { *r = g + 8 * e; *c = q; }
        } else {
            if (K == 16) { *r = g + 8 * ((e >> 1) & 1); *c = 2 * q + (e & 1) + 8 * (e >> 2); }
            else { *r = g + 8 * (e >> 1); *c = 2 * q + (e & 1); }
        }
    } else {
        *c = g;
        if (i8)
            *r = K == 32 ? 4 * q + (e & 3) + 16 * (e >> 2) : 4 * q + e;
        else if (t == WT_TF32)
            *r = K == 8 ? q + 4 * e : q;
        else
            *r = K == 16 ? 2 * q + (e & 1) + 8 * (e >> 1) : 2 * q + e;
    }
}

#define AUX_TB(a) ((unsigned)(((a) >> 52) & 0xf))

/* One element of mma.sync on fp8 operands (e4m3, e5m2; k = 16 or 32).  The H100 has no
 * fp8 mma.sync: ptxas converts the operands to f16 (exact, F2FP.F16.E4M3/E5M2.UNPACK_B)
 * and runs two f16 mma of k / 2 each, the first from a zero accumulator and the second
 * from its result, then adds c with an f32 FADD or an f16 HADD2, both rounding to nearest
 * (SASS of pending mma_fp8).  The first takes the k whose bit 1 is clear (each register's
 * low two bytes), the second the others.  Each f16 mma as tc_sum_bits with f16 operands;
 * its result rounded as mma_sync_f rounds an f32 or f16 accumulator. */
static double fp8_mma(const double *arow, const double *bcol, const int16_t *xa, const int16_t *xb, unsigned K,
                      double c, unsigned td)
{
    double av[2][16], bv[2][16];
    int16_t ea[2][16], eb[2][16];
    unsigned n[2] = { 0, 0 };
    for (unsigned k = 0; k < K; k++) {
        unsigned h = (k >> 1) & 1, m = n[h]++;
        av[h][m] = arow[k];
        bv[h][m] = bcol[k];
        ea[h][m] = xa[k];
        eb[h][m] = xb[k];
    }
    double acc = 0;
    for (unsigned h = 0; h < 2; h++) {
        bool nan;
        int inf;
        double s = tc_sum_bits(av[h], bv[h], n[h], acc, &nan, &inf, 27, 1, frexp_min(WT_F16), ea[h], eb[h]);
        if (nan)
            acc = NAN;
        else if (inf)
            acc = inf > 0 ? INFINITY : -INFINITY;
        else if (td == WT_F32)
            acc = (double)(float)f32_rz(s) + 0.0;      /* a zero sum is +0 */
        else
            acc = f16_val(f16_bits_rn(s)) + 0.0;
    }
    if (td == WT_F32) {
        return f32_canon((float)c + (float)acc);
    }
    double r = c + acc;                                 /* exact: two f16 values */
    return isnan(r) ? NAN : f16_val(f16_bits_rn(r));
}

ISA_HOT static int mma_sync_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    if (mask != ISA_FULL)
        return wm_fault(w, x, mask, "mma with only some lanes of the warp active (.aligned needs all of them)");
    const ex_func_t *fn = ex_top(w)->fn;
    uint64_t a = x->aux;
    unsigned M = AUX_M(a), N = AUX_N(a), K = AUX_K(a), t = AUX_T(a), tb = AUX_TB(a), tc = AUX_TC(a), td = AUX_TD(a);
    double A[16 * 256], B[256 * 8], C[16 * 8];
    unsigned EA = M * K / ISA_LANES, EB = K * N / ISA_LANES, EC = M * N / ISA_LANES;
    for (unsigned l = 0; l < ISA_LANES; l++) {
        unsigned r, c;
        for (unsigned e = 0; e < EA; e++) {
            frag_rc(FR_A, M, K, t, l, e, &r, &c);
            A[r * K + c] = frag_val(f, fn, x->o[1], t, e, l);
        }
        for (unsigned e = 0; e < EB; e++) {
            frag_rc(FR_B, M, K, tb, l, e, &r, &c);
            B[r * N + c] = frag_val(f, fn, x->o[2], tb, e, l);
        }
        for (unsigned e = 0; e < EC; e++) {
            frag_rc(FR_C, M, K, tc, l, e, &r, &c);
            C[r * N + c] = elem_get(elem_at(f, fn, x->o[3], tc, e, l), tc);
        }
    }
    double bcol[256];
    int16_t XA[16 * 256], xbcol[256];
    bool fp8 = t == WT_E4M3 || t == WT_E5M2;
    int emin = frexp_min(fp8 ? WT_F16 : t);      /* fp8 runs as f16 (fp8_mma) */
    for (unsigned e = 0; e < M * K; e++)
        XA[e] = align_exp(A[e], emin);
    for (unsigned j = 0; j < N; j++) {
        for (unsigned k = 0; k < K; k++) {
            bcol[k] = B[k * N + j];
            xbcol[k] = align_exp(bcol[k], emin);
        }
        for (unsigned i = 0; i < M; i++) {
            double *d = &C[i * N + j];
            const double *arow = &A[i * K];
            if (fp8) {
                *d = fp8_mma(arow, bcol, &XA[i * K], xbcol, K, *d, td);
            } else if (t == WT_S8 || t == WT_U8 || WT_SUB(t)) {
                int64_t s = (int64_t)*d;
                for (unsigned k = 0; k < K; k++)
                    s += t == WT_B1 ? (AUX_AND(a) ? (int64_t)arow[k] & (int64_t)bcol[k] : (int64_t)arow[k] ^ (int64_t)bcol[k])
                                    : (int64_t)arow[k] * (int64_t)bcol[k];
                if (AUX_SAT(a))
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                *d = (double)(int32_t)(uint32_t)s;
            } else if (t == WT_F64) {
                double r = *d;
                for (unsigned k = 0; k < K; k++)
                    r = fma(arow[k], bcol[k], r);
                *d = f64_canon(r);
            } else {
                bool nan;
                int inf;
                double sum = tc_sum(arow, bcol, K, *d, &nan, &inf, t, &XA[i * K], xbcol);
                if (td == WT_F32) {
                    float r = nan ? f32_of(0x7fffffffu) : inf ? (inf > 0 ? INFINITY : -INFINITY)
                                                              : (float)f32_rz(sum);
                    *d = r == 0 ? 0.0 : r;
                } else {
                    uint16_t h = nan ? 0x7fff : inf ? (inf > 0 ? 0x7c00 : 0xfc00) : f16_bits_rn(sum);
                    *d = h == 0x8000 ? 0.0 : f16_val(h);
                    if (nan)
                        *d = NAN;
                }
            }
        }
    }
    for (unsigned l = 0; l < ISA_LANES; l++)
        for (unsigned e = 0; e < EC; e++) {
            unsigned r, c;
            frag_rc(FR_C, M, K, td, l, e, &r, &c);
            elem_put(elem_at(f, fn, x->o[0], td, e, l), td, C[r * N + c]);
        }
    return ISA_X_NEXT;
}

/* ldmatrix / stmatrix .m8n8.x{1,2,4}{.trans}.b16: lane i*8 + r gives the address of row r
 * of matrix i (16 bytes); lane l's register i holds row l / 4, columns 2 (l % 4) and the
 * next of matrix i (with .trans: rows 2 (l % 4) and the next, column l / 4).  x->vec the
 * matrices, x->target the registers' pool index, o[4] the address, aux bit 0 .trans,
 * bit 1 store. */
static int ldmatrix_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    if (mask != ISA_FULL)
        return wm_fault(w, x, mask, "ldmatrix/stmatrix with only some lanes of the warp active (.aligned needs all of them)");
    const ex_func_t *fn = ex_top(w)->fn;
    bool trans = x->aux & 1, store = x->aux & 2;
    for (unsigned i = 0; i < x->vec; i++) {
        uint16_t *row[8];
        for (unsigned r = 0; r < 8; r++) {
            unsigned l = i * 8 + r;
            uint64_t addr = ex_addr_lane(f, x->o[4], x->flags & WM_B32, x->imm, l);
            if (addr % 16) {
                ex_set_fault_k(w, x, 1u << l, EX_FAULT_MISALIGNED, "ldmatrix/stmatrix row address not 16-byte aligned");
                w->fault_addr = addr;
                return ISA_X_FAULT;
            }
            row[r] = (uint16_t *)(void *)span_host(w, x->width, addr, addr + 16);   /* the CTA's shared memory */
            if (!row[r])
                row[r] = ex_mem(w, l, x->width == EX_SP_GENERIC ? ISA_SP_NONE : (isa_space_t)x->width, addr, 16, x);
            if (!row[r])
                return ISA_X_FAULT;
        }
        uint32_t slot = fn->opd_slot[x->target + i];
        for (unsigned l = 0; l < ISA_LANES; l++) {
            uint16_t *h = (uint16_t *)(f + slot + l * 4);
            for (unsigned j = 0; j < 2; j++) {
                unsigned r = l / 4, c = 2 * (l % 4) + j;
                uint16_t *m = trans ? &row[c][r] : &row[r][c];
                if (store)
                    memcpy(m, &h[j], 2);
                else
                    memcpy(&h[j], m, 2);
            }
        }
    }
    return ISA_X_NEXT;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the 8 x 8 matrix of a's fragments (as
 * ldmatrix lays them out) transposed. */
static int movmatrix_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    if (mask != ISA_FULL)
        return wm_fault(w, x, mask, "movmatrix with only some lanes of the warp active (.aligned needs all of them)");
    uint16_t m[8][8];
    const uint16_t *src = ISA_SLOT(const uint16_t, f, x->o[1]);
    for (unsigned l = 0; l < ISA_LANES; l++)
        for (unsigned j = 0; j < 2; j++)
            m[l / 4][2 * (l % 4) + j] = src[2 * l + j];
    uint16_t *dst = ISA_SLOT(uint16_t, f, x->o[0]);
    for (unsigned l = 0; l < ISA_LANES; l++)
        for (unsigned j = 0; j < 2; j++)
            dst[2 * l + j] = m[2 * (l % 4) + j][l / 4];
    return ISA_X_NEXT;
}

static const isa_xdesc_t mma_sync_d[1] = { { mma_sync_f, { 0 }, 0 } };
static const isa_xdesc_t ldmatrix_d[1] = { { ldmatrix_f, { 0 }, 0 } };
static const isa_xdesc_t movmatrix_d[1] = { { movmatrix_f, { 0 }, 0 } };
/*}=====================================================================*/


/*{=====================================================================
 * wgmma (sm_90a): a warpgroup (4 consecutive warps, from a multiple of 4) computes
 * D (64 x N) = A (64 x K) * B (K x N) + D; warp q of the group holds rows 16q .. 16q + 15
 * of D and, when A is in registers, of A, in mma.sync's m16n8 fragments: so each warp
 * computes its own rows at issue, reading A's and B's shared-memory operands through their
 * matrix descriptors.  wgmma.fence, commit_group and wait_group have nothing to wait for.
 *
 * A descriptor (64 bits): the start address >> 4 (bits 0-13), the leading (16-29) and
 * stride (32-45) byte offsets >> 4, the base offset (49-51) and the swizzle (62-63: none,
 * 128, 64 or 32 bytes).  Element (row r of M or N, k) of an operand lies at, as measured on
 * the H100 (golden wgmma_layouts: 57 descriptors of f16 A and B, 0 differences):
 *   K-major (the default), no swizzle: start + (r / 8) SBO + (r % 8) 16 + (kb / 16) LBO + kb % 16
 *   K-major, swizzle S bytes:          start + (r / 8) SBO + (r % 8) S + kb
 *   MN-major (transposed), no swizzle: start + (k / 8) LBO + (k % 8) 16 + (rb / 16) SBO + rb % 16
 *   MN-major, swizzle S bytes:         start + (k / 8) SBO + (k % 8) S + (rb / S) LBO + rb % S
 * with kb and rb the byte offsets along K and along M or N; a swizzle then exchanges
 * address bits 4-6 (4-5, 4) with ((address >> 7) - base offset) & 7 (3, 1).
 *
 * x->aux as for mma.sync (N - 1 in N's bits, K, the types, .satfinite), plus bit 46 A by descriptor,
 * 47 A transposed, 48 B transposed, 49 A negated, 50 B negated.  x->o[0] d's pool index,
 * o[1] a's (registers) or its descriptor's slot, o[2] b's descriptor slot, o[3] scale-d
 * (a predicate's slot, flags WG_PRED, or a constant's).
 *====================================================================*/
#define WG_PRED 0x01
#define AUX_ADESC(a) ((unsigned)(((a) >> 46) & 1))
#define AUX_TRA(a)   ((unsigned)(((a) >> 47) & 1))
#define AUX_TRB(a)   ((unsigned)(((a) >> 48) & 1))
#define AUX_NEGA(a)  ((unsigned)(((a) >> 49) & 1))
#define AUX_NEGB(a)  ((unsigned)(((a) >> 50) & 1))

/* The shared-memory byte of element (r, k) of the operand that descriptor d describes
 * (elements of bits bits; bit is the element's bit in the byte). */
static uint32_t wg_addr(uint64_t d, bool mn_major, unsigned r, unsigned k, unsigned bits, unsigned *bit)
{
    uint32_t start = (uint32_t)(d & 0x3fff) << 4, lbo = (uint32_t)((d >> 16) & 0x3fff) << 4;
    uint32_t sbo = (uint32_t)((d >> 32) & 0x3fff) << 4, base = (uint32_t)(d >> 49) & 7;
    unsigned sw = (unsigned)(d >> 62) & 3, S = sw ? 256u >> sw : 16;
    uint32_t a;
    *bit = 0;
    if (!mn_major) {
        uint32_t kb = k * bits / 8;
        *bit = (k * bits) % 8;
        a = sw ? start + (r / 8) * sbo + (r % 8) * S + kb
               : start + (r / 8) * sbo + (r % 8) * 16 + (kb / 16) * lbo + kb % 16;
    } else {
        uint32_t rb = r * bits / 8;
        a = sw ? start + (k / 8) * sbo + (k % 8) * S + (rb / S) * lbo + rb % S
               : start + (k / 8) * lbo + (k % 8) * 16 + (rb / 16) * sbo + rb % 16;
    }
    if (sw) {
        uint32_t m = sw == 1 ? 7 : sw == 2 ? 3 : 1;
        a ^= (((a >> 7) - base) & m) << 4;
    }
    return a;
}

/* Element (r, k) of a descriptor's operand of type t, or NaN with the fault recorded when
 * it lies outside the CTA's shared memory. */
static bool wg_elem(ex_warp_t *w, const isa_xinsn_t *x, uint64_t d, bool mn, unsigned r, unsigned k, unsigned t,
                    double *out)
{
    unsigned bit, bits = wt_bits[t];
    uint32_t a = wg_addr(d, mn, r, k, bits, &bit);
    unsigned nb = bits >= 8 ? bits / 8 : 1;
    ex_cta_t *c = w->cta;
    if (a + nb > c->shared_size) {
        snprintf(w->fault_buf, sizeof w->fault_buf,
                 "wgmma operand element (%u, %u) at shared address 0x%x, outside the CTA's %u bytes of shared memory",
                 r, k, a, c->shared_size);
        ex_set_fault(w, x, ISA_FULL, w->fault_buf);
        return false;
    }
    const uint8_t *p = c->shared + a;
    if (t == WT_B1)
        *out = (double)((*p >> bit) & 1);
    else
        *out = elem_get(p, t);
    return true;
}

static int wgmma_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    if (mask != ISA_FULL)
        return wm_fault(w, x, mask, "wgmma with only some lanes of the warp active (.aligned needs all of them)");
    const ex_func_t *fn = ex_top(w)->fn;
    uint64_t a = x->aux;
    unsigned N = AUX_N(a) + 1, K = AUX_K(a), t = AUX_T(a), tb = AUX_TB(a), td = AUX_TD(a);
    unsigned q = w->id % 4;   /* the warp's quarter of the warpgroup: rows 16q .. 16q + 15 */
    static _Thread_local double A[16 * 256], B[256 * 256], C[16 * 256];
    if (AUX_ADESC(a)) {
        uint64_t d = ISA_SLOT(const uint64_t, f, x->o[1])[0];
        for (unsigned r = 0; r < 16; r++)
            for (unsigned k = 0; k < K; k++)
                if (!wg_elem(w, x, d, AUX_TRA(a), 16 * q + r, k, t, &A[r * K + k]))
                    return ISA_X_FAULT;
    } else {
        unsigned EA = 16 * K / ISA_LANES;
        for (unsigned l = 0; l < ISA_LANES; l++)
            for (unsigned e = 0; e < EA; e++) {
                unsigned r, c;
                frag_rc(FR_A, 16, K, t, l, e, &r, &c);
                A[r * K + c] = frag_val(f, fn, x->o[1], t, e, l);
            }
    }
    uint64_t db = ISA_SLOT(const uint64_t, f, x->o[2])[0];
    for (unsigned k = 0; k < K; k++)
        for (unsigned n = 0; n < N; n++)
            if (!wg_elem(w, x, db, AUX_TRB(a), n, k, tb, &B[k * N + n]))
                return ISA_X_FAULT;
    if (AUX_NEGA(a))
        for (unsigned i = 0; i < 16 * K; i++)
            A[i] = -A[i];
    if (AUX_NEGB(a))
        for (unsigned i = 0; i < K * N; i++)
            B[i] = -B[i];
    /* The accumulator: d's element e of lane l is row l / 4 + 8 ((e / 2) % 2), column
     * 8 (e / 4) + 2 (l % 4) + e % 2; scale-d false reads it as zero. */
    bool scale = (x->flags & WG_PRED) ? (ISA_SLOT(const uint32_t, f, x->o[3])[0] & 1) != 0
                                      : ISA_SLOT(const uint32_t, f, x->o[3])[0] != 0;
    unsigned ED = 16 * N / ISA_LANES;
    for (unsigned l = 0; l < ISA_LANES; l++)
        for (unsigned e = 0; e < ED; e++) {
            unsigned r = l / 4 + 8 * ((e / 2) % 2), c = 8 * (e / 4) + 2 * (l % 4) + e % 2;
            C[r * N + c] = scale ? elem_get(elem_at(f, fn, x->o[0], td, e, l), td) : 0;
        }
    bool fp8 = t == WT_E4M3 || t == WT_E5M2;
    double bcol[256];
    for (unsigned j = 0; j < N; j++) {
        for (unsigned k = 0; k < K; k++)
            bcol[k] = B[k * N + j];
        for (unsigned i = 0; i < 16; i++) {
            double *d = &C[i * N + j];
            const double *arow = &A[i * K];
            if (td == WT_S32) {
                int64_t s = (int64_t)*d;
                for (unsigned k = 0; k < K; k++)
                    s += t == WT_B1 ? ((int64_t)arow[k] & (int64_t)bcol[k]) : (int64_t)arow[k] * (int64_t)bcol[k];
                if (AUX_SAT(a))
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                *d = (double)(int32_t)(uint32_t)s;
            } else {
                bool nan;
                int inf;
                double sum;
                if (fp8) {
                    /* fp8 (measured, golden wgmma_round: every bit): the k products and the
                     * accumulator in one sum cut to multiples of 2^(E - 15), the accumulator
                     * not counted higher, then cut to f32 and, for f32 results, to the
                     * accumulator's 13 fraction bits (e8m13: the low 10 bits of every f32
                     * result are zero) */
                    sum = tc_sum_bits(arow, bcol, K, *d, &nan, &inf, 15, 0, frexp_min(t), NULL, NULL);
                    if (!nan && !inf)
                        sum = f32_rz(sum);
                } else {
                    sum = tc_sum_bits(arow, bcol, K, *d, &nan, &inf, 27, 1, frexp_min(t), NULL, NULL);
                }
                if (td == WT_F32) {
                    float r = nan ? f32_of(0x7fffffffu) : inf ? (inf > 0 ? INFINITY : -INFINITY)
                                                              : (float)f32_rz(sum);
                    if (fp8 && !nan && !inf)
                        r = f32_of(f32_bits(r) & ~0x3ffu);
                    *d = r == 0 ? 0.0 : r;
                    if (nan)
                        *d = NAN;
                } else {
                    uint16_t h = nan ? 0x7fff : inf ? (inf > 0 ? 0x7c00 : 0xfc00) : f16_bits_rn(sum);
                    *d = h == 0x8000 ? 0.0 : f16_val(h);
                    if (nan)
                        *d = NAN;
                }
            }
        }
    }
    for (unsigned l = 0; l < ISA_LANES; l++)
        for (unsigned e = 0; e < ED; e++) {
            unsigned r = l / 4 + 8 * ((e / 2) % 2), c = 8 * (e / 4) + 2 * (l % 4) + e % 2;
            elem_put(elem_at(f, fn, x->o[0], td, e, l), td, C[r * N + c]);
        }
    return ISA_X_NEXT;
}
static const isa_xdesc_t wgmma_d[1] = { { wgmma_f, { 0 }, 0 } };
static int wg_nop_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_NEXT; }
static const isa_xdesc_t wg_nop_d[1] = { { wg_nop_f, { 0 }, 0 } };
/*}=====================================================================*/

/*{=====================================================================
 * Selection
 *====================================================================*/
static int wt_of(isa_type_t t)
{
    switch (t) {
    case ISA_T_F16: return WT_F16;
    case ISA_T_BF16: return WT_BF16;
    case ISA_T_TF32: return WT_TF32;
    case ISA_T_F32: return WT_F32;
    case ISA_T_F64: return WT_F64;
    case ISA_T_S8: return WT_S8;
    case ISA_T_U8: return WT_U8;
    case ISA_T_S32: return WT_S32;
    case ISA_T_S4: return WT_S4;
    case ISA_T_U4: return WT_U4;
    case ISA_T_B1: return WT_B1;
    case ISA_T_E4M3: return WT_E4M3;
    case ISA_T_E5M2: return WT_E5M2;
    default: return -1;
    }
}

/* The shape's M, N, K; 0 when it is none of wmma's. */
static bool shape_of(int sh, unsigned *M, unsigned *N, unsigned *K)
{
    switch (sh) {
    case ISA_M_M16N16K16: *M = 16; *N = 16; *K = 16; return true;
    case ISA_M_M32N8K16: *M = 32; *N = 8; *K = 16; return true;
    case ISA_M_M8N32K16: *M = 8; *N = 32; *K = 16; return true;
    case ISA_M_M16N16K8: *M = 16; *N = 16; *K = 8; return true;
    case ISA_M_M8N8K4: *M = 8; *N = 8; *K = 4; return true;
    case ISA_M_M8N8K32: *M = 8; *N = 8; *K = 32; return true;
    case ISA_M_M8N8K128: *M = 8; *N = 8; *K = 128; return true;
    default: return false;
    }
}

/* Whether types t (a and b), c and d go with the shape. */
static bool types_ok(unsigned M, unsigned K, int t, int c, int d)
{
    (void)M;
    switch (t) {
    case WT_F16: return K == 16 && (c == WT_F16 || c == WT_F32) && (d == WT_F16 || d == WT_F32);
    case WT_BF16: return K == 16 && c == WT_F32 && d == WT_F32;
    case WT_TF32: return K == 8 && c == WT_F32 && d == WT_F32;
    case WT_F64: return K == 4 && c == WT_F64 && d == WT_F64;
    case WT_S8: case WT_U8: return K == 16 && c == WT_S32 && d == WT_S32;
    case WT_S4: case WT_U4: return K == 32 && c == WT_S32 && d == WT_S32;
    case WT_B1: return K == 128 && c == WT_S32 && d == WT_S32;
    default: return false;
    }
}

/* The registers a fragment of type t of matrix mx has (the manual's counts). */
static unsigned regs_of(unsigned mx, unsigned M, unsigned N, unsigned K, int t)
{
    unsigned rows, cols;
    dims(mx, M, N, K, &rows, &cols);
    if (t == WT_F16 && mx <= MX_B)
        return 8;
    return rows * cols / ISA_LANES / wt_per_reg[t];
}

/* A vector operand of n registers of width rb: their slots into f->opd_slot. */
static bool vec_regs(ex_func_t *f, const isa_operand_t *o, unsigned n, unsigned rb, uint32_t *first)
{
    if (o->kind != ISA_OPD_VEC || o->count != n)
        return false;
    for (unsigned k = 0; k < n; k++) {
        const isa_operand_t *e = &f->ir->opds[o->u.first + k];
        unsigned w;
        if (e->kind != ISA_OPD_REG)
            return false;
        uint32_t s = ex_reg_operand(f, e, &w);
        if (s == ISA_NONE || w != rb)
            return false;
        f->opd_slot[o->u.first + k] = s;
    }
    *first = o->u.first;
    return true;
}

static bool select_ldst(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x, bool store)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int mx = isa_instr_mod(in, ISA_G_MATRIX), lay = isa_instr_mod(in, ISA_G_LAYOUT), sh = isa_instr_mod(in, ISA_G_SHAPE);
    int spi = isa_instr_space(in, 0);
    bool sync = isa_instr_has(in, ISA_M_SYNCMOD), aligned = isa_instr_has(in, ISA_M_ALIGNEDM);
    unsigned known = 1u + (mx >= 0) + (lay >= 0) + (sh >= 0) + (spi >= 0) + sync + aligned;
    unsigned M, N, K;
    if (in->nsfx != known || !sync || !aligned || lay < 0 || in->ntypes != 1 || !shape_of(sh, &M, &N, &K))
        return false;
    unsigned m = mx == ISA_M_A ? MX_A : mx == ISA_M_B ? MX_B : mx == ISA_M_C ? MX_C : mx == ISA_M_D ? MX_D : 99;
    if (store ? m != MX_D : m > MX_C)
        return false;
    int t = wt_of((isa_type_t)in->types[0]);
    if (t < 0)
        return false;
    int acc = t == WT_F64 ? WT_F64 : (t == WT_S8 || t == WT_U8 || WT_SUB(t)) ? WT_S32 : WT_F32;
    if (m <= MX_B ? !types_ok(M, K, t, acc, acc)
                  : !(t == WT_F16 || t == WT_F32 || t == WT_F64 || t == WT_S32))
        return false;
    if (m > MX_B && (t == WT_F64) != (K == 4))
        return false;
    if (spi >= 0 && isa_spaces[spi].window != ISA_SP_GLOBAL && isa_spaces[spi].window != ISA_SP_SHARED)
        return false;
    if (in->nopd < 2 || in->nopd > 3)
        return false;
    const isa_operand_t *vo = &o[store ? 1 : 0], *ao = &o[store ? 0 : 1];
    unsigned n = regs_of(m, M, N, K, t);
    if (!vec_regs(f, vo, n, t == WT_F64 ? 8 : 4, &x->target))
        return false;
    x->vec = (uint8_t)n;
    ex_addrop_t ad;
    if (!ex_pd_address(pd, f, ao, spi, &ad))
        return false;
    x->o[4] = ad.slot;
    x->imm = ad.off;
    x->width = ad.space;
    x->flags |= ad.b32 ? WM_B32 : 0;
    x->o[5] = ISA_NONE;
    if (in->nopd == 3) {
        const isa_operand_t *so = &o[2];
        if ((so->kind != ISA_OPD_REG && so->kind != ISA_OPD_IMM) || (so->kind == ISA_OPD_REG && ex_reg_width(f, so) != 4))
            return false;
        x->o[5] = ex_pd_operand(pd, so, 4);
        if (x->o[5] == ISA_NONE)
            return false;
    }
    x->aux = M | N << 8 | K << 16 | (uint64_t)m << 25 | (uint64_t)(lay == ISA_M_COL) << 29 | (uint64_t)t << 32;
    x->desc = store ? store_d : load_d;
    return true;
}

static bool select_mma(ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int sh = isa_instr_mod(in, ISA_G_SHAPE), rnd = isa_instr_mod(in, ISA_G_ROUND), sat = isa_instr_mod(in, ISA_G_SAT);
    bool sync = isa_instr_has(in, ISA_M_SYNCMOD), aligned = isa_instr_has(in, ISA_M_ALIGNEDM);
    unsigned nlay = 2;   /* .alayout.blayout */
    int bop = isa_instr_mod(in, ISA_G_BOOLOP);
    bool popc = isa_instr_has(in, ISA_M_POPC);
    unsigned known = in->ntypes + nlay + (sh >= 0) + (rnd >= 0) + (sat >= 0) + sync + aligned + (bop >= 0) + popc;
    unsigned M, N, K;
    if (in->nsfx != known || !sync || !aligned || !shape_of(sh, &M, &N, &K) || in->nopd != 4)
        return false;
    /* Types: .dtype.ctype (f16 operands), or .dtype.atype.btype.ctype. */
    int t, tc, td;
    if (in->ntypes == 2) {
        td = wt_of((isa_type_t)in->types[0]);
        tc = wt_of((isa_type_t)in->types[1]);
        t = WT_F16;
    } else if (in->ntypes == 4) {
        td = wt_of((isa_type_t)in->types[0]);
        t = wt_of((isa_type_t)in->types[1]);
        tc = wt_of((isa_type_t)in->types[3]);
        if (in->types[1] != in->types[2])
            return false;
    } else {
        return false;
    }
    if (t < 0 || tc < 0 || td < 0 || !types_ok(M, K, t, tc, td))
        return false;
    /* b1: .xor.popc or .and.popc, and nothing else has them. */
    if ((t == WT_B1) != (popc && (bop == ISA_M_XOR || bop == ISA_M_AND)) || (t != WT_B1 && bop >= 0))
        return false;
    /* .rnd only on f64 (.rn .rz .rm .rp); .satfinite on the float results and the integers. */
    int mode = ISA_RND_N;
    if (rnd >= 0) {
        if (t != WT_F64)
            return false;
        mode = rnd == ISA_M_RN ? ISA_RND_N : rnd == ISA_M_RZ ? ISA_RND_Z : rnd == ISA_M_RM ? ISA_RND_M
             : rnd == ISA_M_RP ? ISA_RND_P : -1;
        if (mode != ISA_RND_N)
            return false;          /* .rz .rm .rp: not supported yet (nvcuda::wmma emits .rn) */
    }
    if (sat >= 0 && (sat != ISA_M_SATFINITE || t == WT_F64))
        return false;
    uint32_t first;
    if (!vec_regs(f, &o[0], regs_of(MX_D, M, N, K, td), td == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[0] = first;
    x->vec = (uint8_t)regs_of(MX_D, M, N, K, td);
    if (!vec_regs(f, &o[1], regs_of(MX_A, M, N, K, t), t == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[1] = first;
    if (!vec_regs(f, &o[2], regs_of(MX_B, M, N, K, t), t == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[2] = first;
    if (!vec_regs(f, &o[3], regs_of(MX_C, M, N, K, tc), tc == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[3] = first;
    x->aux = M | N << 8 | K << 16 | (uint64_t)t << 32 | (uint64_t)tc << 36 | (uint64_t)td << 40 |
             (uint64_t)(sat >= 0) << 44 | (uint64_t)(bop == ISA_M_AND) << 45 | (uint64_t)mode << 48;
    x->desc = mma_d;
    return true;
}


static bool select_mma_sync(ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int sh = isa_instr_mod(in, ISA_G_SHAPE), sat = isa_instr_mod(in, ISA_G_SAT);
    bool sync = isa_instr_has(in, ISA_M_SYNCMOD), aligned = isa_instr_has(in, ISA_M_ALIGNEDM);
    bool row = isa_instr_has(in, ISA_M_ROW), col = isa_instr_has(in, ISA_M_COL);
    unsigned known = in->ntypes + 2 + (sh >= 0) + (sat >= 0) + sync + aligned + (isa_instr_mod(in, ISA_G_BOOLOP) >= 0) +
                     isa_instr_has(in, ISA_M_POPC);
    if (in->nsfx != known || !sync || !aligned || !row || !col || in->ntypes != 4 || in->nopd != 4)
        return false;
    unsigned M, N, K;
    switch (sh) {
    case ISA_M_M16N8K16: M = 16; N = 8; K = 16; break;
    case ISA_M_M16N8K8: M = 16; N = 8; K = 8; break;
    case ISA_M_M16N8K4: M = 16; N = 8; K = 4; break;
    case ISA_M_M16N8K32: M = 16; N = 8; K = 32; break;
    case ISA_M_M8N8K4: M = 8; N = 8; K = 4; break;
    case ISA_M_M8N8K16: M = 8; N = 8; K = 16; break;
    case ISA_M_M8N8K32: M = 8; N = 8; K = 32; break;
    case ISA_M_M16N8K64: M = 16; N = 8; K = 64; break;
    case ISA_M_M8N8K128: M = 8; N = 8; K = 128; break;
    case ISA_M_M16N8K128: M = 16; N = 8; K = 128; break;
    case ISA_M_M16N8K256: M = 16; N = 8; K = 256; break;
    default: return false;
    }
    int td = wt_of((isa_type_t)in->types[0]), t = wt_of((isa_type_t)in->types[1]);
    int tb = wt_of((isa_type_t)in->types[2]), tc = wt_of((isa_type_t)in->types[3]);
    if (td < 0 || t < 0 || tb < 0 || tc < 0)
        return false;
    bool i8 = (t == WT_S8 || t == WT_U8) && (tb == WT_S8 || tb == WT_U8);
    bool i4 = (t == WT_S4 || t == WT_U4) && (tb == WT_S4 || tb == WT_U4);
    int bop = isa_instr_mod(in, ISA_G_BOOLOP);
    bool popc = isa_instr_has(in, ISA_M_POPC);
    bool ok;
    if (t == WT_B1 || tb == WT_B1)
        ok = t == tb && td == WT_S32 && tc == WT_S32 && popc && (bop == ISA_M_XOR || bop == ISA_M_AND) &&
             ((M == 8 && K == 128) || (M == 16 && (K == 128 || K == 256)));
    else if (bop >= 0 || popc)
        ok = false;
    else if (i4)
        ok = td == WT_S32 && tc == WT_S32 && ((M == 8 && K == 32) || (M == 16 && (K == 32 || K == 64)));
    else if (i8)
        ok = td == WT_S32 && tc == WT_S32 && ((M == 16 && (K == 16 || K == 32)) || (M == 8 && K == 16));
    else if ((t == WT_E4M3 || t == WT_E5M2) && (tb == WT_E4M3 || tb == WT_E5M2))
        ok = M == 16 && (K == 16 || K == 32) && (td == WT_F16 || td == WT_F32) && tc == td;
    else if (t != tb)
        ok = false;
    else if (t == WT_F16)
        ok = M == 16 && (K == 8 || K == 16) && (td == WT_F16 || td == WT_F32) && tc == td;   /* ptxas: d and c alike */
    else if (t == WT_BF16)
        ok = M == 16 && (K == 8 || K == 16) && td == WT_F32 && tc == WT_F32;
    else if (t == WT_TF32)
        ok = M == 16 && (K == 4 || K == 8) && td == WT_F32 && tc == WT_F32;
    else if (t == WT_F64)
        ok = M == 8 && K == 4 && td == WT_F64 && tc == WT_F64;
    else
        ok = false;
    if (!ok || (sat >= 0 && (sat != ISA_M_SATFINITE || !(i8 || i4))))
        return false;
    /* Registers: elements / 32 lanes, packed per register. */
    unsigned na = M * K / ISA_LANES / wt_per_reg[t], nb = K * N / ISA_LANES / wt_per_reg[tb];
    unsigned nc = M * N / ISA_LANES / wt_per_reg[tc], nd = M * N / ISA_LANES / wt_per_reg[td];
    uint32_t first;
    if (!vec_regs(f, &o[0], nd, td == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[0] = first;
    if (!vec_regs(f, &o[1], na, t == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[1] = first;
    if (!vec_regs(f, &o[2], nb, tb == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[2] = first;
    if (!vec_regs(f, &o[3], nc, tc == WT_F64 ? 8 : 4, &first))
        return false;
    x->o[3] = first;
    x->aux = M | N << 8 | K << 16 | (uint64_t)t << 32 | (uint64_t)tc << 36 | (uint64_t)td << 40 |
             (uint64_t)(sat >= 0) << 44 | (uint64_t)(bop == ISA_M_AND) << 45 | (uint64_t)tb << 52;
    x->desc = mma_sync_d;
    return true;
}

static bool select_ldmatrix(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x, bool store)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int sh = isa_instr_mod(in, ISA_G_SHAPE), num = isa_instr_mod(in, ISA_G_NUM), spi = isa_instr_space(in, 0);
    bool sync = isa_instr_has(in, ISA_M_SYNCMOD), aligned = isa_instr_has(in, ISA_M_ALIGNEDM);
    bool trans = isa_instr_has(in, ISA_M_TRANS);
    unsigned known = 1u + (sh >= 0) + (num >= 0) + (spi >= 0) + sync + aligned + trans;
    if (in->nsfx != known || !sync || !aligned || sh != ISA_M_M8N8 || in->ntypes != 1 || in->types[0] != ISA_T_B16 ||
        in->nopd != 2)
        return false;
    unsigned n = num == ISA_M_X1 ? 1 : num == ISA_M_X2 ? 2 : num == ISA_M_X4 ? 4 : 0;
    if (!n || (spi >= 0 && isa_spaces[spi].window != ISA_SP_SHARED))
        return false;
    const isa_operand_t *ro = &o[store ? 1 : 0], *ao = &o[store ? 0 : 1];
    uint32_t first;
    if (ro->kind == ISA_OPD_VEC) {
        if (!vec_regs(f, ro, n, 4, &first))
            return false;
    } else {
        /* one register without braces (x1) */
        unsigned w;
        if (n != 1 || ro->kind != ISA_OPD_REG || ex_reg_operand(f, ro, &w) == ISA_NONE || w != 4)
            return false;
        first = (uint32_t)(ro - f->ir->opds);
        f->opd_slot[first] = ex_reg_operand(f, ro, &w);
    }
    x->target = first;
    x->vec = (uint8_t)n;
    ex_addrop_t ad;
    if (!ex_pd_address(pd, f, ao, spi, &ad) || ad.space == ISA_SP_GLOBAL)
        return false;
    x->o[4] = ad.slot;
    x->imm = ad.off;
    x->width = ad.space;
    x->flags |= ad.b32 ? WM_B32 : 0;
    x->aux = (uint64_t)trans | (uint64_t)store << 1;
    x->desc = ldmatrix_d;
    return true;
}

static bool select_movmatrix(ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int sh = isa_instr_mod(in, ISA_G_SHAPE);
    bool sync = isa_instr_has(in, ISA_M_SYNCMOD), aligned = isa_instr_has(in, ISA_M_ALIGNEDM);
    bool trans = isa_instr_has(in, ISA_M_TRANS);
    if (in->nsfx != 5u || !sync || !aligned || !trans || sh != ISA_M_M8N8 || in->ntypes != 1 ||
        in->types[0] != ISA_T_B16 || in->nopd != 2)
        return false;
    unsigned w0, w1;
    if (o[0].kind != ISA_OPD_REG || o[1].kind != ISA_OPD_REG)
        return false;
    x->o[0] = ex_reg_operand(f, &o[0], &w0);
    x->o[1] = ex_reg_operand(f, &o[1], &w1);
    if (x->o[0] == ISA_NONE || x->o[1] == ISA_NONE || w0 != 4 || w1 != 4)
        return false;
    x->desc = movmatrix_d;
    return true;
}


/* wgmma.mma_async.sync.aligned.m64nNkK{.satfinite}.dtype.atype.btype{.and.popc} d, a, b-desc,
 * scale-d{, imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b}: the shapes and types of
 * the manual (f16 and bf16 k16, tf32 k8, e4m3/e5m2 and s8/u8 k32, b1 k256). */
static bool select_wgmma(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int sh = isa_instr_mod(in, ISA_G_SHAPE), sat = isa_instr_mod(in, ISA_G_SAT), bop = isa_instr_mod(in, ISA_G_BOOLOP);
    bool sync = isa_instr_has(in, ISA_M_SYNCMOD), aligned = isa_instr_has(in, ISA_M_ALIGNEDM);
    bool popc = isa_instr_has(in, ISA_M_POPC);
    unsigned M, N, K;
    if (!sync || !aligned || in->ntypes != 3 || sh < 0 || sscanf(isa_mods[sh].text, "m%un%uk%u", &M, &N, &K) != 3 ||
        M != 64 || N < 8 || N > 256 || N % 8)
        return false;
    unsigned known = in->ntypes + 2 + 1 + (sat >= 0) + (bop >= 0) + popc;
    if (in->nsfx != known)
        return false;
    int td = wt_of((isa_type_t)in->types[0]), t = wt_of((isa_type_t)in->types[1]), tb = wt_of((isa_type_t)in->types[2]);
    if (td < 0 || t < 0 || tb < 0)
        return false;
    bool fp8 = (t == WT_E4M3 || t == WT_E5M2) && (tb == WT_E4M3 || tb == WT_E5M2);
    bool i8 = (t == WT_S8 || t == WT_U8) && (tb == WT_S8 || tb == WT_U8);
    bool ok, isint = i8 || t == WT_B1, trans_ok = t == WT_F16 || t == WT_BF16;
    if (t == WT_B1)
        ok = tb == WT_B1 && td == WT_S32 && K == 256 && popc && bop == ISA_M_AND;
    else if (bop >= 0 || popc)
        ok = false;
    else if (i8)
        ok = td == WT_S32 && K == 32;
    else if (fp8)
        ok = (td == WT_F16 || td == WT_F32) && K == 32;
    else if (t != tb)
        ok = false;
    else if (t == WT_F16)
        ok = (td == WT_F16 || td == WT_F32) && K == 16;
    else if (t == WT_BF16)
        ok = td == WT_F32 && K == 16;
    else if (t == WT_TF32)
        ok = td == WT_F32 && K == 8;
    else
        ok = false;
    /* the integer shapes: N of 8, 16, 24, then multiples of 16 */
    if (isint && N > 24 && N % 16)
        ok = false;
    if (!ok || (sat >= 0 && (sat != ISA_M_SATFINITE || !i8)))
        return false;
    /* Operands: d, a, b-desc, scale-d, then the immediates. */
    bool adesc = o[1].kind != ISA_OPD_VEC;
    unsigned nimm = isint ? 0 : 2 + (trans_ok ? 1 + adesc : 0);
    if (in->nopd != 4 + nimm)
        return false;
    uint32_t first;
    unsigned nd = 16 * N / ISA_LANES / wt_per_reg[td];
    if (!vec_regs(f, &o[0], nd, 4, &first))
        return false;
    x->o[0] = first;
    if (adesc) {
        if ((o[1].kind == ISA_OPD_REG && ex_reg_width(f, &o[1]) != 8) || (x->o[1] = ex_pd_operand(pd, &o[1], 8)) == ISA_NONE)
            return false;
    } else {
        if (!vec_regs(f, &o[1], 4, 4, &first))
            return false;
        x->o[1] = first;
    }
    if ((o[2].kind == ISA_OPD_REG && ex_reg_width(f, &o[2]) != 8) || (x->o[2] = ex_pd_operand(pd, &o[2], 8)) == ISA_NONE)
        return false;
    if (o[3].kind == ISA_OPD_REG && ex_reg_width(f, &o[3]) == 0) {
        unsigned pw;
        x->o[3] = ex_reg_operand(f, &o[3], &pw);
        x->flags |= WG_PRED;
    } else if (o[3].kind == ISA_OPD_IMM) {
        x->o[3] = ex_pd_operand(pd, &o[3], 4);
    } else {
        return false;
    }
    if (x->o[3] == ISA_NONE)
        return false;
    int64_t imm[4] = { 1, 1, 0, 0 };   /* scale-a, scale-b, trans-a, trans-b */
    for (unsigned i = 0; i < nimm; i++) {
        const isa_operand_t *io = &o[4 + i];
        if (io->kind != ISA_OPD_IMM)
            return false;
        unsigned slot = i < 2 ? i : (adesc && i == 2) ? 2 : 3;
        imm[slot] = io->imm;
    }
    if ((imm[0] != 1 && imm[0] != -1) || (imm[1] != 1 && imm[1] != -1) || (imm[2] & ~1) || (imm[3] & ~1))
        return false;
    x->aux = (uint64_t)(N - 1) << 8 | K << 16 | (uint64_t)t << 32 | (uint64_t)td << 40 | (uint64_t)(sat >= 0) << 44 |
             (uint64_t)adesc << 46 | (uint64_t)imm[2] << 47 | (uint64_t)imm[3] << 48 | (uint64_t)(imm[0] < 0) << 49 |
             (uint64_t)(imm[1] < 0) << 50 | (uint64_t)tb << 52;
    x->desc = wgmma_d;
    return true;
}

bool ex_select_wmma(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    bool ok;
    switch ((isa_op_t)in->op) {
    case ISA_OP_WMMA_LOAD: ok = select_ldst(pd, f, in, x, false); break;
    case ISA_OP_WMMA_STORE: ok = select_ldst(pd, f, in, x, true); break;
    case ISA_OP_WMMA_MMA: ok = select_mma(f, in, x); break;
    case ISA_OP_MMA: ok = select_mma_sync(f, in, x); break;
    case ISA_OP_LDMATRIX: ok = select_ldmatrix(pd, f, in, x, false); break;
    case ISA_OP_STMATRIX: ok = select_ldmatrix(pd, f, in, x, true); break;
    case ISA_OP_MOVMATRIX: ok = select_movmatrix(f, in, x); break;
    case ISA_OP_WGMMA_MMA_ASYNC: ok = select_wgmma(pd, f, in, x); break;
    case ISA_OP_WGMMA_FENCE:
    case ISA_OP_WGMMA_COMMIT_GROUP:
        ok = in->nopd == 0 && isa_instr_has(in, ISA_M_SYNCMOD) && isa_instr_has(in, ISA_M_ALIGNEDM);
        x->desc = wg_nop_d;
        break;
    case ISA_OP_WGMMA_WAIT_GROUP: {
        /* the copies of mma_async are done when it is issued: nothing to wait for */
        const isa_operand_t *o = &f->ir->opds[in->opd];
        ok = in->nopd == 1 && o[0].kind == ISA_OPD_IMM && isa_instr_has(in, ISA_M_SYNCMOD) &&
             isa_instr_has(in, ISA_M_ALIGNEDM);
        x->desc = wg_nop_d;
        break;
    }
    default: return false;
    }
    if (!ok)
        ex_insn_unselect(x);
    return ok;
}
/*}=====================================================================*/
