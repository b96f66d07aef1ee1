/* fuzzvec.c: ptxfuzz's variants and vectors: the value kinds and their special and
 * random values, the meaning of a variant's name (its operands' kinds), its kernel, and
 * the input vectors of its three sections (tools/fuzzvec.h, docs/arithmetic.md). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fuzzvec.h"

#define SPECIAL_2D 20u     /* binary and ternary ops: the first 20 specials crossed in S */

/*{=====================================================================
 * Value kinds: how an operand's bits are generated and compared
 *====================================================================*/
const unsigned fuzz_kind_bytes[K__COUNT] = { 2, 2, 4, 8, 4, 4, 2, 2, 8, 1, 2, 4, 8, 1, 2, 4, 8, 4, 1, 4, 16 };

static int kind_of_type(isa_type_t t)
{
    switch (t) {
    case ISA_T_F16: return K_F16;       case ISA_T_BF16: return K_BF16;
    case ISA_T_F32: return K_F32;       case ISA_T_TF32: return K_F32;
    case ISA_T_F64: return K_F64;       case ISA_T_F16X2: return K_F16X2;
    case ISA_T_BF16X2: return K_BF16X2; case ISA_T_E4M3X2: return K_E4M3X2;
    case ISA_T_E5M2X2: return K_E5M2X2; case ISA_T_F32X2: return K_F32X2;
    case ISA_T_S8: return K_S8;   case ISA_T_S16: return K_S16;
    case ISA_T_S32: return K_S32; case ISA_T_S64: return K_S64;
    case ISA_T_U8: return K_U8;   case ISA_T_U16: return K_U16;
    case ISA_T_U32: return K_U32; case ISA_T_U64: return K_U64;
    case ISA_T_B8: return K_U8;   case ISA_T_B16: return K_U16;
    case ISA_T_B32: return K_U32; case ISA_T_B64: return K_U64;
    case ISA_T_U16X2: case ISA_T_S16X2: return K_I16X2;
    case ISA_T_PRED: return K_PRED;
    default: return -1;
    }
}

/* Special values, most important first: binary and ternary variants cross the first
 * SPECIAL_2D of a list, unary ones take all of it. */
static const uint64_t sp_f32[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
    0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc12345, 0x7f800001, 0x3fc00000, 0x40400000,
    0x3f800001, 0x3f7fffff, 0x4b800001, 0x00400000, 0x34000000, 0x7f000000, 0x40490fdb, 0xc0a00000,
    0x7fa00000, 0x00000003, 0x80800000, 0x477fe000, 0x477ff000, 0x33800000, 0x33000000, 0x43e00000,
    0x47600000, 0x3f808000, 0x3f818000, 0x7f7f8000, 0x4f000000, 0xcf000000, 0x4f800000, 0x5f000000,
    0xdf000000, 0x3effffff, 0xbf000000, 0x3f000000, 0x43700000, 0x43680000, 0x387fc000, 0x3b000000,
};
static const uint64_t sp_f64[] = {
    0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
    0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff,
    0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
    0xfff8000012345678, 0x7ff0000000000001, 0x3ff8000000000000, 0x4008000000000000,
    0x3ff0000000000001, 0x3fefffffffffffff, 0x4340000000000001, 0x0008000000000000,
    0x3cb0000000000000, 0x7fe0000000000000, 0x400921fb54442d18, 0xc014000000000000,
    0x7ff4000000000000, 0x36a0000000000000, 0x3810000000000000, 0x47efffffe0000000,
    0x47effffff0000000, 0x41e0000000000000, 0xc1e0000000000000, 0x43e0000000000000,
    0x3ff0000010000000, 0x3ff0000030000000, 0x380fffffe0000000, 0x36a0000000000001,
};
static const uint64_t sp_f16[] = {
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
    0xfe12, 0x7c01, 0x3e00, 0x4200, 0x3c01, 0x3bff, 0x6800, 0x0200, 0x1400, 0x7800, 0x4248, 0xc500,
    0x7d00, 0x0003, 0x8400, 0x5f00, 0x5b00, 0x3555, 0x3800, 0xb800, 0x7bfe, 0x0010, 0x2e66, 0x1c00,
};
static const uint64_t sp_bf16[] = {
    0x0000, 0x8000, 0x3f80, 0xbf80, 0x0001, 0x807f, 0x0080, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0,
    0xffc1, 0x7f81, 0x3fc0, 0x4040, 0x3f81, 0x3f7f, 0x4b80, 0x0040, 0x3400, 0x7f00, 0x4049, 0xc0a0,
    0x7fa0, 0x0003, 0x8080, 0x4380, 0x4370, 0x3eab, 0x3f00, 0xbf00, 0x7f7e, 0x0010, 0x3dcd, 0x3c00,
};
static const uint64_t sp_fp8[] = {   /* bytes; a pair is two of them */
    0x00, 0x80, 0x38, 0xb8, 0x01, 0x07, 0x08, 0x7e, 0xfe, 0x7f, 0xff, 0x7c, 0x7b, 0x3c, 0x40, 0x78,
    0xf8, 0x04, 0x3f, 0x77, 0xfb, 0x7d, 0x83, 0x02,
};
static const uint64_t sp_int[] = {
    0, 1, ~0ull, 2, 0x80000000, 0x7fffffff, 0x80000001, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000,
    0xffff, 0x10000, 0xfffffffe, 0x1000001, 0xffffff, 0x2000003, 0x8000000000000000ull,
    0x7fffffffffffffffull, 0x20000000000001ull, 0xffffffff00000000ull, 0x100000000ull,
    0x8000000000000001ull, 0xffffff80ull, 0xffffffffffffff7full, 0x0000000100000001ull,
    0x7ffffffffffffc00ull, 0x1000003ull, 0xfff8000000000000ull, 0x3fffffffffffffffull,
};

/* The integer instructions' specials (by width; the conversions keep sp_int above):
 * 0, 1, -1, the signed and unsigned extremes, powers of two and their neighbours,
 * 0x80/0x7f byte patterns, alternating bits; counts (shifts, bit positions and lengths)
 * around the widths. */
static const uint64_t sp_i16[] = {
    0, 1, 0xffff, 0x8000, 0x7fff, 2, 0x80, 0x7f, 0xff, 0x100, 0x8080, 0x7f7f, 0xfffe, 0x8001,
    0x81, 0xff80, 0x10, 0x1f, 0x20, 3, 0x5555, 0xaaaa, 0x7f80, 0x807f, 0x1234, 0xbeef, 0x0f, 0x11,
};
static const uint64_t sp_i32[] = {
    0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 0x8000, 0x7fff, 0x80, 0x7f, 0xff, 0xffff,
    0x80808080, 0x7f7f7f7f, 0x10000, 0xfffffffe, 0x80000001, 0x7f807f80, 0xffff8000, 0x1f,
    0x20, 0x21, 0x3f, 0x40, 3, 0x55555555, 0xaaaaaaaa, 0x12345678, 0xdeadbeef, 0xffffff80,
    0x100, 0x807f807f, 0x8001, 0x81, 0x01000000, 0x00800000, 0xff00ff00, 0x00ff00ff,
};
static const uint64_t sp_i64[] = {
    0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffff, 0x80000000, 0x7fffffff,
    2, 0x100000000ull, 0xffffffff80000000ull, 0x8080808080808080ull, 0x7f7f7f7f7f7f7f7full,
    0xfffffffffffffffeull, 0x8000000000000001ull, 0x80, 0x7f, 0xffff, 0x8000, 0x3f,
    0x40, 0x41, 0xffffffff00000000ull, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull,
    0x123456789abcdef0ull, 3, 0x7fffffff80000000ull, 0x100000001ull, 0xff, 0x7f80ff007f80ff00ull,
};
static const uint64_t sp_cnt[] = {
    0, 1, 31, 32, 33, 63, 64, 65, 8, 16, 15, 17, 7, 2, 0xffffffff, 0x80000000, 0xff, 0x100,
    0x101, 24, 3, 4, 5, 6, 9, 12, 20, 30, 34, 62, 66, 127, 128, 0xfe, 0x1f00, 0x2008,
    0xffff0010, 0x7fffffff, 0xffffffe0, 0xffffffc0,
};
static const uint64_t sp_pred[] = { 0, 1 };

/* A conversion's integer source: sp_int, then the specials of its width. */
static const uint64_t *cvt_int_specials(kind_t k, size_t *out_n)
{
    static uint64_t lists[3][sizeof sp_int / 8 + sizeof sp_i32 / 8];
    static size_t lens[3];
    _Static_assert(sizeof sp_i32 >= sizeof sp_i16 && sizeof sp_i32 >= sizeof sp_i64, "lists[] too short");
    unsigned w = fuzz_kind_bytes[k], which = w <= 2 ? 0 : w == 4 ? 1 : 2;
    const uint64_t *own = which == 0 ? sp_i16 : which == 1 ? sp_i32 : sp_i64;
    size_t nown = which == 0 ? sizeof sp_i16 / 8 : which == 1 ? sizeof sp_i32 / 8 : sizeof sp_i64 / 8;
    if (!lens[which]) {
        memcpy(lists[which], sp_int, sizeof sp_int);
        memcpy(lists[which] + sizeof sp_int / 8, own, nown * 8);
        lens[which] = sizeof sp_int / 8 + nown;
    }
    *out_n = lens[which];
    return lists[which];
}

static const uint64_t *kind_specials(kind_t k, bool fresh, size_t *out_n)
{
    if (!fresh && k >= K_S8 && k <= K_U64)
        return cvt_int_specials(k, out_n);
    if (fresh || k >= K_I16X2) {
        switch (k) {
        case K_S8: case K_U8: case K_S16: case K_U16: case K_I16X2:
            *out_n = sizeof sp_i16 / 8; return sp_i16;
        case K_S32: case K_U32: *out_n = sizeof sp_i32 / 8; return sp_i32;
        case K_S64: case K_U64: *out_n = sizeof sp_i64 / 8; return sp_i64;
        case K_CNT: *out_n = sizeof sp_cnt / 8; return sp_cnt;
        case K_PRED: *out_n = sizeof sp_pred / 8; return sp_pred;
        default: break;
        }
    }
    switch (k) {
    case K_F32: case K_F32X2: *out_n = sizeof sp_f32 / 8; return sp_f32;
    case K_F64: *out_n = sizeof sp_f64 / 8; return sp_f64;
    case K_F16: case K_F16X2: *out_n = sizeof sp_f16 / 8; return sp_f16;
    case K_BF16: case K_BF16X2: *out_n = sizeof sp_bf16 / 8; return sp_bf16;
    case K_E4M3X2: case K_E5M2X2: *out_n = sizeof sp_fp8 / 8; return sp_fp8;
    default: *out_n = sizeof sp_int / 8; return sp_int;
    }
}

/* Special i of kind k; packed kinds pair special i with another one so that both halves
 * go through the list. */
static uint64_t kind_special(kind_t k, bool fresh, size_t i)
{
    size_t n;
    const uint64_t *s = kind_specials(k, fresh, &n);
    uint64_t lo = s[i % n], hi = s[(i * 7 + 3) % n];
    switch (k) {
    case K_F16X2: case K_BF16X2: case K_I16X2: return lo | hi << 16;
    case K_E4M3X2: case K_E5M2X2: return lo | hi << 8;
    case K_F32X2: return lo | hi << 32;
    default: return lo;
    }
}

static uint64_t mix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random float of e exponent bits and m mantissa bits (sign at bit e+m), drawn from a
 * mix of shapes: any bits; exponents near 1, near the previous operand's (cancellation),
 * tiny (subnormal results) or huge (overflow); and mantissas with few bits set, which
 * make exact ties for every narrower rounding. */
static uint64_t rand_float(uint64_t *st, unsigned e, unsigned m, uint64_t prev, bool have_prev)
{
    uint64_t r = mix64(st), bits = mix64(st);
    uint64_t emax = (1ull << e) - 1, bias = emax >> 1;
    uint64_t sign = (r >> 8 & 1) << (e + m), mant = bits & ((1ull << m) - 1), ex;
    unsigned shape = (unsigned)(r & 15);
    switch (shape) {
    case 0: case 1: case 2: case 3: case 4:   /* any bits (f64: all 64 of them) */
        return e + m + 1 >= 64 ? bits : bits & ((1ull << (e + m + 1)) - 1);
    case 5: case 6: case 7: case 8:
        ex = bias - 12 + (r >> 16) % 25;
        break;
    case 9: case 10:
        if (have_prev) {
            uint64_t pe = prev >> m & emax;
            ex = pe + (r >> 16) % 5 - 2;
            if (ex == 0 || ex >= emax)
                ex = pe;
            break;
        }
        ex = bias + (r >> 16) % 8;
        break;
    case 11:
        ex = (r >> 16) % (m + 2);
        break;
    case 12:
        ex = emax - 1 - (r >> 16) % (m + 2);
        break;
    default: {
        /* k random top bits, then a 1 and zeros, or ones below (ties and near-ties) */
        unsigned k = (unsigned)((r >> 16) % (m + 1));
        uint64_t top = m ? mant >> (m - k) << (m - k) : 0;
        uint64_t tail = k < m ? 1ull << (m - k - 1) : 0;
        if (r >> 24 & 1 && tail)
            tail = (tail << 1) - 1;
        mant = (top | tail) & ((1ull << m) - 1);
        ex = bias - 16 + (r >> 32) % 33;
        break;
    }
    }
    if (ex > emax)
        ex = emax;
    return sign | ex << m | mant;
}

static uint64_t rand_int(uint64_t *st)
{
    uint64_t r = mix64(st), v = mix64(st);
    switch (r & 3) {
    case 0: return v;
    case 1: return (uint64_t)((int64_t)(v % 513) - 256);
    case 2: return (1ull << (r >> 8 & 63)) + (uint64_t)((int64_t)(v % 9) - 4);
    default: return v >> (r >> 8 & 63);
    }
}

/* Random value of kind k; prev is the previous operand of the vector (same kind). */
static uint64_t kind_random(kind_t k, uint64_t *st, uint64_t prev, bool have_prev)
{
    switch (k) {
    case K_F16: return rand_float(st, 5, 10, prev, have_prev);
    case K_BF16: return rand_float(st, 8, 7, prev, have_prev);
    case K_F32: return rand_float(st, 8, 23, prev, have_prev);
    case K_F64: return rand_float(st, 11, 52, prev, have_prev);
    case K_F16X2:
        return rand_float(st, 5, 10, prev & 0xffff, have_prev) |
               rand_float(st, 5, 10, prev >> 16, have_prev) << 16;
    case K_BF16X2:
        return rand_float(st, 8, 7, prev & 0xffff, have_prev) |
               rand_float(st, 8, 7, prev >> 16, have_prev) << 16;
    case K_E4M3X2: case K_E5M2X2: return mix64(st) & 0xffff;
    case K_F32X2:
        return rand_float(st, 8, 23, prev & 0xffffffff, have_prev) |
               rand_float(st, 8, 23, prev >> 32, have_prev) << 32;
    case K_PRED: return mix64(st) >> 7 & 1;
    case K_CNT: {
        uint64_t r = mix64(st), x = mix64(st);
        switch (r & 3) {
        case 0: case 1: return x % 72;
        case 2: return x & 0xff;
        default: return x & 0xffffffff;
        }
    }
    case K_I16X2: return (rand_int(st) & 0xffff) | (rand_int(st) & 0xffff) << 16;
    default: return rand_int(st);
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Variants: an instruction as written, its operands' kinds
 *====================================================================*/

#define SPECIAL_2D_INT 16u  /* integer, comparison and video variants cross fewer specials */

/* The output bytes of one vector: the result, then the carry flag (.cc) of its width. */
unsigned fuzz_out_bytes(const variant_t *v) { return fuzz_kind_bytes[v->dk] * (v->carry_out ? 2u : 1u); }

static kind_t wide_kind(kind_t k)
{
    switch (k) {
    case K_S16: return K_S32;
    case K_U16: return K_U32;
    case K_S32: return K_S64;
    case K_U32: return K_U64;
    default: return k;
    }
}

/* The variants of the first fuzzer (float arithmetic and cvt) keep their inputs. */
static bool old_variant(isa_op_t op, int k0)
{
    switch (op) {
    case ISA_OP_ADD: case ISA_OP_SUB: case ISA_OP_MUL: case ISA_OP_FMA: case ISA_OP_MAD:
    case ISA_OP_DIV: case ISA_OP_RCP: case ISA_OP_SQRT: case ISA_OP_RSQRT: case ISA_OP_SIN:
    case ISA_OP_COS: case ISA_OP_LG2: case ISA_OP_EX2: case ISA_OP_TANH: case ISA_OP_ABS:
    case ISA_OP_NEG: case ISA_OP_MIN: case ISA_OP_MAX: case ISA_OP_COPYSIGN:
        return k0 >= 0 && (k0 <= K_BF16X2 || k0 == K_F32X2);
    case ISA_OP_CVT: return true;
    default: return false;
    }
}

/* Operands of the integer, comparison and video variants.  types: the type suffixes. */
static bool fresh_operands(variant_t *v, const isa_type_t *types, unsigned nt, const int *mods, unsigned nm)
{
    bool cc = false, wide = false, boolop = false, op2 = false;
    for (unsigned i = 0; i < nm; i++) {
        cc |= mods[i] == ISA_M_CCMOD;
        wide |= mods[i] == ISA_M_WIDE;
        boolop |= mods[i] == ISA_M_AND || mods[i] == ISA_M_OR || mods[i] == ISA_M_XOR;
        op2 |= mods[i] == ISA_M_ADD || mods[i] == ISA_M_MIN || mods[i] == ISA_M_MAX;
    }
    int k[3] = { -1, -1, -1 };
    for (unsigned i = 0; i < nt; i++)
        k[i] = kind_of_type(types[i]);
    v->fresh = true;
    v->carry_in = -1;
    v->carry_out = cc;
    kind_t t = (kind_t)k[0];
    const isa_op_info_t *oi = &isa_ops[v->op];
    if (oi->family == ISA_FAM_VIDEO) {
        /* d, a, b are words (vshl/vshr: b a count); c: merge, op2 or SIMD accumulator */
        v->sk[0] = v->sk[1] = v->sk[2] = v->dk = K_U32;
        if (v->op == ISA_OP_VSHL || v->op == ISA_OP_VSHR)
            v->sk[1] = K_CNT;
        v->nsrc = oi->shape == ISA_SH_D_S_S_S || op2 || v->sel[0][0] ? 3 : 2;
        return true;
    }
    if (v->op == ISA_OP_CVT_PACK) {
        v->sk[0] = v->sk[1] = K_S32;
        v->sk[2] = v->dk = K_U32;
        v->nsrc = nt == 3 ? 3 : 2;
        return true;
    }
    if (v->op == ISA_OP_TESTP) {
        if (k[0] < 0)
            return false;
        v->sk[0] = t;
        v->dk = K_PRED;
        v->npred = 1;
        v->nsrc = 1;
        return true;
    }
    if (k[0] < 0 || (nt >= 2 && k[1] < 0))
        return false;
    switch (isa_ops[v->op].shape) {
    case ISA_SH_D_S: v->nsrc = 1; break;
    case ISA_SH_D_S_S: case ISA_SH_D_S_S_S_OPT: v->nsrc = 2; break;
    case ISA_SH_D_S_S_S: v->nsrc = 3; break;
    case ISA_SH_D_S_S_S_S: v->nsrc = 4; break;
    default: v->nsrc = 3; break;
    }
    v->dk = v->sk[0] = v->sk[1] = v->sk[2] = v->sk[3] = t;
    switch (v->op) {
    case ISA_OP_MUL: case ISA_OP_MAD:
        if (wide)
            v->dk = v->sk[2] = wide_kind(t);
        if (v->op == ISA_OP_MUL)
            v->sk[2] = t;
        break;
    case ISA_OP_ADDC: case ISA_OP_SUBC: case ISA_OP_MADC:
        v->carry_in = (int)v->nsrc;
        v->sk[v->nsrc++] = K_PRED;
        v->borrow = v->op == ISA_OP_SUBC;
        break;
    case ISA_OP_POPC: case ISA_OP_CLZ: case ISA_OP_BFIND:
        v->dk = K_U32;
        break;
    case ISA_OP_BFE:
        v->sk[1] = v->sk[2] = K_CNT;
        break;
    case ISA_OP_BFI:
        v->sk[2] = v->sk[3] = K_CNT;
        break;
    case ISA_OP_FNS:
        v->sk[1] = v->sk[2] = K_CNT;
        break;
    case ISA_OP_SZEXT: case ISA_OP_SHL: case ISA_OP_SHR:
        v->sk[1] = K_CNT;
        break;
    case ISA_OP_BMSK:
        v->sk[0] = v->sk[1] = K_CNT;
        break;
    case ISA_OP_SHF:
        v->sk[2] = K_CNT;
        break;
    case ISA_OP_DP4A: case ISA_OP_DP2A:
        v->sk[0] = v->sk[1] = v->sk[2] = v->dk = K_U32;
        break;
    case ISA_OP_SETP:
        v->nsrc = boolop ? 3 : 2;
        v->sk[2] = K_PRED;
        v->dk = K_PRED;
        v->npred = t == K_F16 || t == K_BF16 ? 1 : 2;  /* scalar halves: p only (ptxas) */
        break;
    case ISA_OP_SET:
        if (nt != 2)
            return false;
        v->sk[0] = v->sk[1] = (kind_t)k[1];
        v->sk[2] = K_PRED;
        v->nsrc = boolop ? 3 : 2;
        break;
    case ISA_OP_SELP:
        v->sk[2] = K_PRED;
        break;
    case ISA_OP_SLCT:
        if (nt != 2)
            return false;
        v->sk[2] = (kind_t)k[1];
        break;
    case ISA_OP_LOP3:
        v->nsrc = 3;
        break;
    default:
        break;
    }
    if (t == K_PRED)
        v->npred = 1;
    if (v->carry_out && v->dk != K_U32 && v->dk != K_S32 && v->dk != K_U64 && v->dk != K_S64)
        v->carry_out = false;
    return true;
}

/* Parse a variant's name; false when ptxfuzz cannot test it. */
bool fuzz_parse(const char *name, variant_t *v)
{
    memset(v, 0, sizeof *v);
    v->carry_in = -1;
    if (strlen(name) >= sizeof v->name)
        return false;
    strcpy(v->name, name);
    const char *plus = strchr(name, '+');
    size_t tl = plus ? (size_t)(plus - name) : strlen(name);
    memcpy(v->text, name, tl);
    v->text[tl] = 0;
    for (const char *p = plus; p; p = strchr(p + 1, '+')) {
        const char *q = strchr(p + 1, '+');
        size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);
        const char *which = len > 2 && p[2] == '.' ? strchr("dabc", p[1]) : NULL;
        if (which && len - 2 < sizeof v->sel[0]) {
            memcpy(v->sel[which - "dabc"], p + 3, len - 2);
        } else if (len == 1 && p[1] == '3' && !q && p == plus) {
            v->three = true;
        } else if (!which && len && len < sizeof v->imm) {
            memcpy(v->imm, p + 1, len);
        } else {
            return false;
        }
    }
    size_t mlen;
    int op = isa_op_lookup(v->text, tl, &mlen);
    if (op < 0)
        return false;
    v->op = (isa_op_t)op;
    isa_type_t types[3];
    int mods[8];
    unsigned nt = 0, nm = 0;
    bool approx = false;
    for (const char *p = v->text + mlen; *p == '.';) {
        const char *q = strchr(p + 1, '.');
        size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);
        int t = isa_type_lookup(p + 1, len);
        if (t >= 0) {
            if (nt == 3)
                return false;
            types[nt++] = (isa_type_t)t;
        } else {
            int m = isa_mod_lookup(p + 1, len);
            if (m < 0 || nm == 8)
                return false;
            mods[nm++] = m;
            approx |= m == ISA_M_APPROX || m == ISA_M_FULL;
            v->oob |= m == ISA_M_OOB;
        }
        p += 1 + len;
    }
    if (nt == 0)
        return false;
    if (v->three) {
        if ((v->op != ISA_OP_MIN && v->op != ISA_OP_MAX) || nt != 1 || types[0] != ISA_T_F32)
            return false;
        plus = NULL;
    }
    if (!old_variant(v->op, kind_of_type(types[0])) || plus)
        return fresh_operands(v, types, nt, mods, nm);
    switch (v->op) {
    case ISA_OP_SIN: case ISA_OP_COS: case ISA_OP_LG2: case ISA_OP_EX2: case ISA_OP_TANH:
    case ISA_OP_RSQRT:
        approx = true;
        break;
    default: break;
    }
    v->approx = approx;
    if (v->op == ISA_OP_CVT) {
        if (nt != 2)
            return false;
        bool satf = false, rnz = false;
        for (unsigned i = 0; i < nm; i++) {
            satf |= mods[i] == ISA_M_SATFINITE;
            rnz |= mods[i] == ISA_M_RN || mods[i] == ISA_M_RZ;
        }
        v->sm100 = types[0] == ISA_T_TF32 && satf && rnz;
        int d = kind_of_type(types[0]), s = kind_of_type(types[1]);
        if (d < 0 || s < 0 || d >= K_I16X2 || s >= K_I16X2)
            return false;
        v->dk = (kind_t)d;
        v->sk[0] = v->sk[1] = (kind_t)s;
        bool pair = (d == K_F16X2 || d == K_BF16X2 || d == K_E4M3X2 || d == K_E5M2X2) && s == K_F32;
        v->nsrc = pair ? 2 : 1;
        return true;
    }
    if (nt == 2 && types[0] == ISA_T_F32 && (types[1] == ISA_T_F16 || types[1] == ISA_T_BF16) &&
        (v->op == ISA_OP_ADD || v->op == ISA_OP_SUB || v->op == ISA_OP_FMA)) {
        /* mixed precision: half sources a (and b for fma), an f32 addend */
        v->sm100 = true;
        v->dk = K_F32;
        v->sk[0] = v->sk[1] = (kind_t)kind_of_type(types[1]);
        v->nsrc = v->op == ISA_OP_FMA ? 3 : 2;
        v->sk[v->nsrc - 1] = K_F32;
        return true;
    }
    if (nt != 1)
        return false;
    int k = kind_of_type(types[0]);
    switch (isa_ops[v->op].shape) {
    case ISA_SH_D_S: v->nsrc = 1; break;
    case ISA_SH_D_S_S: case ISA_SH_D_S_S_S_OPT: v->nsrc = v->three ? 3 : 2; break;
    case ISA_SH_D_S_S_S: v->nsrc = 3; break;
    default: return false;
    }
    v->dk = v->sk[0] = v->sk[1] = v->sk[2] = (kind_t)k;
    v->fma_c = v->nsrc == 3 && !v->three;
    v->sm100 = v->three || k == K_F32X2;
    return true;
}

void fuzz_cat(char *buf, size_t size, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, size - n, fmt, ap);
    va_end(ap);
}

/* text without its first occurrence of cut (".f32x2" -> "", ...), add in its place. */
static void text_without(const char *text, const char *cut, const char *add, char *out, size_t size)
{
    const char *at = strstr(text, cut);
    size_t n = at ? (size_t)(at - text) : strlen(text);
    snprintf(out, size, "%.*s%s%s", (int)n, text, at ? add : "", at ? at + strlen(cut) : "");
}

/* The body of an sm_100 variant's kernel as sm_90 runs it (recording on an H100): what
 * the manual defines the instruction to compute, in sm_90 instructions.  .f32x2: the f32
 * instruction on each element; f32 with half sources: the sources converted (exactly)
 * to f32, then the f32 instruction; min/max of three: min(min(a, b), c), of magnitudes
 * with .abs; cvt.{rn,rz}.satfinite to tf32: the conversion without .satfinite, an
 * infinity then replaced by the largest finite tf32 of its sign. */
static void sm90_body(const variant_t *v, char *out, size_t size)
{
    char base[96];
    out[0] = 0;
    if (v->sk[0] == K_F32X2) {
        text_without(v->text, ".f32x2", ".f32", base, sizeof base);
        bool c = v->nsrc == 3;
        fuzz_cat(out, size, "\tmov.b64 {%%sa0, %%sa1}, %%a;\n\tmov.b64 {%%sb0, %%sb1}, %%b;\n");
        if (c)
            fuzz_cat(out, size, "\tmov.b64 {%%sc0, %%sc1}, %%c;\n");
        for (unsigned h = 0; h < 2; h++) {
            if (c)
                fuzz_cat(out, size, "\t%s %%sd%u, %%sa%u, %%sb%u, %%sc%u;\n", base, h, h, h, h);
            else
                fuzz_cat(out, size, "\t%s %%sd%u, %%sa%u, %%sb%u;\n", base, h, h, h);
        }
        fuzz_cat(out, size, "\tmov.b64 %%d, {%%sd0, %%sd1};\n");
    } else if (v->op != ISA_OP_CVT && !v->three) {
        const char *h = v->sk[0] == K_BF16 ? "bf16" : "f16";
        char cut[8];
        snprintf(cut, sizeof cut, ".%s", h);
        text_without(v->text, cut, "", base, sizeof base);
        fuzz_cat(out, size, "\tcvt.f32.%s %%sa0, %%a;\n", h);
        if (v->nsrc == 3)
            fuzz_cat(out, size, "\tcvt.f32.%s %%sb0, %%b;\n\t%s %%d, %%sa0, %%sb0, %%c;\n", h, base);
        else
            fuzz_cat(out, size, "\t%s %%d, %%sa0, %%b;\n", base);
    } else if (v->three) {
        bool abs = strstr(v->text, ".abs") != NULL, ftz = strstr(v->text, ".ftz") != NULL;
        text_without(v->text, ".abs", "", base, sizeof base);
        const char *a = "%a", *b = "%b", *c = "%c";
        if (abs) {
            for (unsigned i = 0; i < 3; i++)
                fuzz_cat(out, size, "\tabs%s.f32 %%s%c0, %%%c;\n", ftz ? ".ftz" : "", "abc"[i], "abc"[i]);
            a = "%sa0", b = "%sb0", c = "%sc0";
        }
        fuzz_cat(out, size, "\t%s %%st, %s, %s;\n\t%s %%d, %%st, %s;\n", base, a, b, base, c);
    } else {
        text_without(v->text, ".satfinite", "", base, sizeof base);
        fuzz_cat(out, size, "\t%s %%st, %%a;\n\tand.b32 %%sa0, %%st, 0x7fffffff;\n"
                       "\tsetp.eq.u32 %%ps, %%sa0, 0x7f800000;\n\tand.b32 %%sb0, %%st, 0x80000000;\n"
                       "\tor.b32 %%sb0, %%sb0, 0x7f7fe000;\n\tselp.b32 %%d, %%sb0, %%st, %%ps;\n", base);
    }
}

/* The kernel: thread i applies the instruction to vector i (sources a, b, c, e from four
 * arrays) and stores the result.  Registers are bit-typed, 8-bit values in 16-bit ones;
 * a predicate source is loaded as a byte and compared with 0; a predicate destination is
 * stored as a byte (p in bit 0, q in bit 1).  A carry-in source sets the carry flag just
 * before the instruction (add.cc of it and -1, or sub.cc of 0 and it), and a .cc
 * instruction's carry flag is read after it (addc or subc of 0 and 0).  An sm_100
 * variant's kernel targets sm_100a; for the GPU (gpu true) it is its sm_90 equivalent. */
char *fuzz_kernel(const variant_t *v, bool gpu)
{
    static char buf[8192];
    static const char *srcs[4] = { "a", "b", "c", "e" };
    char decl[512] = "", loads[2048] = "", opnds[128] = "", pre[512] = "", post[512] = "";
    for (unsigned i = 0; i < v->nsrc; i++) {
        unsigned w = fuzz_kind_bytes[v->sk[i]], rb = w < 2 ? 16 : w * 8;
        fuzz_cat(decl, sizeof decl, "\t.reg .b%u %%%s;\n", rb, srcs[i]);
        fuzz_cat(loads, sizeof loads,
            "\tld.param.u64 %%x, [p%s];\n\tmul.wide.u32 %%o, %%i, %u;\n\tadd.s64 %%x, %%x, %%o;\n"
            "\tld.global.b%u %%%s, [%%x];\n", srcs[i], w, w * 8, srcs[i]);
        if ((int)i == v->carry_in)
            continue;
        if (v->sk[i] == K_PRED) {
            fuzz_cat(pre, sizeof pre, "\tsetp.ne.b16 %%q%s, %%%s, 0;\n", srcs[i], srcs[i]);
            fuzz_cat(opnds, sizeof opnds, ", %%q%s", srcs[i]);
        } else {
            /* operand selectors exist on d, a, b and c only (sel[0..3]) */
            const char *sel = i + 1 < 4 ? v->sel[i + 1] : "";
            fuzz_cat(opnds, sizeof opnds, ", %%%s%s%s", srcs[i], sel[0] ? "." : "", sel);
        }
    }
    if (v->carry_in >= 0) {
        fuzz_cat(pre, sizeof pre, "\tcvt.u32.u16 %%ci, %%%s;\n", srcs[v->carry_in]);
        fuzz_cat(pre, sizeof pre, v->borrow ? "\tsub.cc.u32 %%ci, %%z, %%ci;\n" : "\tadd.cc.u32 %%ci, %%ci, %%m1;\n");
    }
    if (v->imm[0])
        fuzz_cat(opnds, sizeof opnds, ", %s", v->imm);
    unsigned dw = fuzz_kind_bytes[v->dk], drb = dw < 2 ? 16 : dw * 8, ow = fuzz_out_bytes(v);
    char dop[32];
    if (v->npred)
        snprintf(dop, sizeof dop, v->npred == 2 ? "%%pd|%%pe" : "%%pd");
    else
        snprintf(dop, sizeof dop, "%%d%s%s", v->sel[0][0] ? "." : "", v->sel[0]);
    if (v->npred) {
        fuzz_cat(post, sizeof post, "\tselp.u16 %%d, 1, 0, %%pd;\n");
        if (v->npred == 2)
            fuzz_cat(post, sizeof post, "\tselp.u16 %%h, 2, 0, %%pe;\n\tor.b16 %%d, %%d, %%h;\n");
    }
    if (v->carry_out)
        fuzz_cat(post, sizeof post, "\t%s.u%u %%co, %%z%u, %%z%u;\n", v->borrow ? "subc" : "addc", drb, drb, drb);
    char body[1024];
    if (v->sm100 && gpu)
        sm90_body(v, body, sizeof body);
    else
        snprintf(body, sizeof body, "\t%s %s%s;\n", v->text, dop, opnds);
    snprintf(buf, sizeof buf,
             "%s\n.address_size 64\n\n"
             "// ptxfuzz: %s\n"
             ".visible .entry fz(.param .u64 pd, .param .u64 pa, .param .u64 pb, .param .u64 pc, "
             ".param .u64 pe, .param .u32 pn)\n{\n"
             "\t.reg .pred %%p, %%pd, %%pe, %%qa, %%qb, %%qc, %%qe;\n"
             "\t.reg .b32 %%i, %%n, %%t, %%ci, %%z, %%m1, %%z32;\n\t.reg .b64 %%x, %%o, %%z64;\n"
             "\t.reg .b16 %%h;\n\t.reg .b%u %%d, %%co;\n%s"
             "\t.reg .b32 %%sa0, %%sa1, %%sb0, %%sb1, %%sc0, %%sc1, %%sd0, %%sd1, %%st;\n\t.reg .pred %%ps;\n"
             "\tmov.u32 %%i, %%ctaid.x;\n\tmov.u32 %%n, %%ntid.x;\n\tmov.u32 %%t, %%tid.x;\n"
             "\tmad.lo.u32 %%i, %%i, %%n, %%t;\n\tld.param.u32 %%n, [pn];\n"
             "\tsetp.ge.u32 %%p, %%i, %%n;\n\t@%%p bra DONE;\n%s"
             "\tmov.b32 %%z, 0;\n\tmov.b32 %%z32, 0;\n\tmov.b64 %%z64, 0;\n\tmov.b32 %%m1, -1;\n%s"
             "%s%s"
             "\tld.param.u64 %%x, [pd];\n\tmul.wide.u32 %%o, %%i, %u;\n\tadd.s64 %%x, %%x, %%o;\n"
             "\tst.global.b%u [%%x], %%d;\n",
             v->sm100 && !gpu ? ".version 8.8\n.target sm_100a" : ".version 8.3\n.target sm_90", v->name, drb,
             decl, loads, pre, body, post, ow, dw * 8);
    if (v->carry_out)
        fuzz_cat(buf, sizeof buf, "\tst.global.b%u [%%x+%u], %%co;\n", dw * 8, dw);
    fuzz_cat(buf, sizeof buf, "DONE:\n\tret;\n}\n");
    return buf;
}

/* The vectors of a variant, in three sections:
 *   S  the special vectors kept whole in the .fz file: for one source, every special of
 *      its kind; for more, the first SPECIAL_2D (SPECIAL_2D_INT) of a and b crossed, the
 *      other sources walking their lists;
 *   X  every special crossed: each pair of sources crossed whole (a x b, a x c, b x c, ...),
 *      the other sources taking each of the first SPECIAL_SHORT of their lists in turn;
 *      kept as one digest per chunk of CHUNK vectors (the last one shorter);
 *   R  nchunks * CHUNK random vectors, a digest per chunk.
 * Chunks are numbered over X then R: chunk c < nxchunks is crossed, the rest random. */
#define SPECIAL_SHORT 8u

static size_t special_count(const variant_t *v, unsigned s)
{
    size_t n;
    kind_specials(v->sk[s], v->fresh, &n);
    return n;
}
static size_t special_side(const variant_t *v)
{
    size_t n = special_count(v, 0), lim = v->fresh ? SPECIAL_2D_INT : SPECIAL_2D;
    return v->nsrc == 1 || n < lim ? n : lim;
}
size_t fuzz_nspecial(const variant_t *v)
{
    size_t side = special_side(v);
    return v->nsrc == 1 ? side : side * side;
}
/* The crossed block of the source pair (p, q): its size; others[] the other sources'
 * short-list lengths (k walks 0..K-1 and other source o takes (k + o) mod its length). */
static size_t cross_block(const variant_t *v, unsigned p, unsigned q, size_t *out_k)
{
    size_t k = 1;
    for (unsigned s = 0; s < v->nsrc; s++) {
        if (s == p || s == q)
            continue;
        size_t m = special_count(v, s);
        if (m > SPECIAL_SHORT)
            m = SPECIAL_SHORT;
        if (m > k)
            k = m;
    }
    *out_k = k;
    return special_count(v, p) * special_count(v, q) * k;
}
size_t fuzz_ncrossed(const variant_t *v)
{
    size_t n = 0, k;
    for (unsigned p = 0; p < v->nsrc; p++)
        for (unsigned q = p + 1; q < v->nsrc; q++)
            n += cross_block(v, p, q, &k);
    return n;
}
/* Crossed vector x: each source's special index. */
static void crossed_indices(const variant_t *v, size_t x, size_t idx[4])
{
    for (unsigned p = 0; p < v->nsrc; p++)
        for (unsigned q = p + 1; q < v->nsrc; q++) {
            size_t k, b = cross_block(v, p, q, &k);
            if (x >= b) {
                x -= b;
                continue;
            }
            size_t nq = special_count(v, q), kk = x % k, t = x / k;
            idx[p] = t / nq;
            idx[q] = t % nq;
            unsigned o = 0;
            for (unsigned s = 0; s < v->nsrc; s++) {
                if (s == p || s == q)
                    continue;
                size_t m = special_count(v, s);
                if (m > SPECIAL_SHORT)
                    m = SPECIAL_SHORT;
                idx[s] = (kk + o++) % m;
            }
            return;
        }
}
unsigned fuzz_nxchunks(const variant_t *v)
{
    return (unsigned)((fuzz_ncrossed(v) + CHUNK - 1) / CHUNK);
}
/* Chunk c's vectors: [*first, *first + *n). */
void fuzz_chunk_range(const variant_t *v, unsigned c, size_t *first, size_t *n)
{
    size_t ns = fuzz_nspecial(v), nx = fuzz_ncrossed(v), nxc = fuzz_nxchunks(v);
    if (c < nxc) {
        *first = ns + (size_t)c * CHUNK;
        *n = *first + CHUNK <= ns + nx ? CHUNK : ns + nx - *first;
    } else {
        *first = ns + nx + (size_t)(c - nxc) * CHUNK;
        *n = CHUNK;
    }
}

uint64_t fuzz_fnv1a(const void *p, size_t n, uint64_t h)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void put_le(uint8_t *p, unsigned w, uint64_t x)
{
    for (unsigned i = 0; i < w; i++)
        p[i] = (uint8_t)(i < 8 ? x >> (8 * i) : 0);
}
uint64_t fuzz_get_le(const uint8_t *p, unsigned w)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < w && i < 8; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}

/* A value of w bytes as hex, most significant first (any width: a .cc result is 16). */
void fuzz_hex_print(FILE *f, const uint8_t *p, unsigned w)
{
    for (unsigned i = w; i-- > 0;)
        fprintf(f, "%02x", p[i]);
}
void fuzz_hex_parse(uint8_t *p, unsigned w, const char *s)
{
    size_t n = strlen(s);
    for (unsigned i = 0; i < w; i++) {
        unsigned x = 0;
        for (unsigned k = 0; k < 2; k++) {
            size_t at = 2 * (size_t)i + (1 - k);   /* digits from the right */
            char c = at < n ? s[n - 1 - at] : '0';
            x = x << 4 | (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        p[i] = (uint8_t)x;
    }
}

/* -(a * b), rounded to the kind, nudged by a few ulp: an fma addend that cancels. */
static uint64_t cancel_c(kind_t k, uint64_t a, uint64_t b, uint64_t r)
{
    int64_t nudge = (int64_t)(r % 7) - 3;
    if (k == K_F32X2)
        return cancel_c(K_F32, a & 0xffffffff, b & 0xffffffff, r) |
               cancel_c(K_F32, a >> 32, b >> 32, r >> 8) << 32;
    if (k == K_F32) {
        float fa, fb;
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        memcpy(&fa, &ua, 4);
        memcpy(&fb, &ub, 4);
        float p = (float)-((double)fa * (double)fb);
        uint32_t u;
        memcpy(&u, &p, 4);
        return (uint32_t)(u + (uint32_t)nudge);
    }
    if (k == K_F64) {
        double fa, fb;
        memcpy(&fa, &a, 8);
        memcpy(&fb, &b, 8);
        double p = -(fa * fb);
        uint64_t u;
        memcpy(&u, &p, 8);
        return u + (uint64_t)nudge;
    }
    return r;
}

/* The sources of vectors [first, first + n) into in[0..nsrc) (each fuzz_kind_bytes wide). */
void fuzz_inputs(const variant_t *v, size_t first, size_t n, uint8_t *in[4])
{
    size_t ns = fuzz_nspecial(v), nx = fuzz_ncrossed(v), side = special_side(v);
    uint64_t seed = fuzz_fnv1a(v->name, strlen(v->name), 0xcbf29ce484222325ull);
    for (size_t j = 0; j < n; j++) {
        size_t i = first + j;
        uint64_t val[4] = { 0, 0, 0, 0 };
        if (i < ns) {
            size_t ia = v->nsrc == 1 ? i : i / side, ib = i % side;
            val[0] = kind_special(v->sk[0], v->fresh, ia);
            val[1] = kind_special(v->sk[1], v->fresh, ib);
            val[2] = kind_special(v->sk[2], v->fresh, ia + 2 * ib + 1);
            val[3] = kind_special(v->sk[3], v->fresh, 3 * ia + ib + 2);
        } else if (i < ns + nx) {
            size_t idx[4] = { 0, 0, 0, 0 };
            crossed_indices(v, i - ns, idx);
            for (unsigned s = 0; s < v->nsrc; s++)
                val[s] = kind_special(v->sk[s], v->fresh, idx[s]);
        } else {
            /* Each random vector has its own stream, so that a chunk can be made alone. */
            uint64_t st = seed ^ (uint64_t)(i - ns - nx) * 0xd1342543de82ef95ull;
            for (unsigned s = 0; s < v->nsrc; s++)
                val[s] = kind_random(v->sk[s], &st, s ? val[s - 1] : 0, s > 0 && v->sk[s] == v->sk[s - 1]);
            if (v->fma_c && (mix64(&st) & 3) == 0)
                val[2] = cancel_c(v->sk[2], val[0], val[1], mix64(&st));
            if (v->fresh && v->nsrc >= 2 && v->sk[0] == v->sk[1]) {
                /* equal and adjacent pairs, which comparisons need */
                uint64_t r = mix64(&st);
                if ((r & 7) == 0)
                    val[1] = val[0];
                else if ((r & 7) == 1)
                    val[1] = val[0] + (r >> 8 & 1 ? 1 : ~0ull);
            }
        }
        if (v->oob) {
            /* each half of each source is the OOB-NaN 0x7ff7 or 0xfff7 one time in four, and
             * the canonical NaN 0x7fff one time in eight */
            static const uint16_t special_nan[3] = { 0x7ff7, 0xfff7, 0x7fff };
            uint64_t r = fuzz_fnv1a(&i, sizeof i, seed);
            for (unsigned s = 0; s < v->nsrc; s++)
                for (unsigned h = 0; h < fuzz_kind_bytes[v->sk[s]] / 2; h++) {
                    unsigned k = (unsigned)(r >> (6 * s + 3 * h)) & 7;
                    if (k < 3)
                        val[s] = (val[s] & ~(0xffffull << (16 * h))) | (uint64_t)special_nan[k] << (16 * h);
                }
        }
        for (unsigned s = 0; s < v->nsrc; s++)
            put_le(in[s] + j * fuzz_kind_bytes[v->sk[s]], fuzz_kind_bytes[v->sk[s]], val[s]);
    }
}
/*}=====================================================================*/

