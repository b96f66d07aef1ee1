/* ptxfuzz.c: differential fuzzing of the arithmetic instructions against the GPU: walks the
 * ISA tables for instruction variants, makes their kernels and input vectors, records the
 * GPU's outputs (tests/fuzz/NAME.fz) and replays them on the emulator.
 *
 *   ptxfuzz list [--sm100]                every variant the tables allow that it can test (or those
 *                                         needing sm_100, recorded through sm_90 equivalents)
 *   ptxfuzz record [opts] [NAME...]       run on a backend (cuda) and write NAME.fz files
 *   ptxfuzz replay [opts] [NAME...]       run the recorded variants on the emulator, compare
 *   ptxfuzz show [opts] NAME CHUNK        print a chunk's vectors and outputs (emu, cuda, both)
 *   ptxfuzz kernel [--backend cuda] NAME  print the variant's kernel (as the emulator or the GPU runs it)
 *   ptxfuzz measure [opts] [NAME...]      .approx variants: ulp bounds from raw GPU outputs
 *   ptxfuzz doc [--dir DIR]               docs/verification.md on stdout (tools/fuzzdoc.c)
 * Options: --dir DIR (tests/fuzz), --raw DIR (full GPU outputs, for measure and debugging),
 * --backend emu|cuda|both, --chunks N (random chunks of 4096 vectors; 25 by default).
 * Exit status: 0 ok, 1 a mismatch or an unsupported variant, 2 usage or I/O errors. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "frontend/fe.h"
#include "isa/isa.h"
#include "runtime/rt.h"
#include "tools/fuzzdoc.h"

#define CHUNK      4096u
#define NCHUNKS    25u     /* 102400 random vectors per variant */
#define SPECIAL_2D 20u     /* binary and ternary ops: the first 20 specials crossed */

/*{=====================================================================
 * Value kinds: how an operand's bits are generated and compared
 *====================================================================*/
typedef enum {
    K_F16, K_BF16, K_F32, K_F64, K_F16X2, K_BF16X2, K_E4M3X2, K_E5M2X2,
    K_F32X2,    /* two f32 in 64 bits (sm_100's .f32x2) */
    K_S8, K_S16, K_S32, K_S64, K_U8, K_U16, K_U32, K_U64,
    K_I16X2,    /* u16x2, s16x2: two 16-bit integers */
    K_PRED,     /* a predicate, or two (bit 0 p, bit 1 q): one byte, 0 or 1 as an input */
    K_CNT,      /* a 32-bit count, position or length (shifts, bfe, bfi, szext, bmsk, fns) */
    K_U128,     /* an output only: a 64-bit result and the carry flag after it */
    K__COUNT
} kind_t;
static const unsigned kind_bytes[K__COUNT] = { 2, 2, 4, 8, 4, 4, 2, 2, 8, 1, 2, 4, 8, 1, 2, 4, 8, 4, 1, 4, 16 };

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

static const uint64_t *kind_specials(kind_t k, bool fresh, size_t *out_n)
{
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
    case 0: case 1: case 2: case 3: case 4:
        return bits & ((1ull << (e + m + 1)) - 1);
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
typedef struct {
    char     name[80];      /* as recorded: the instruction, then "+d.b0"-style operand
                               selectors or a "+0x96" immediate operand */
    char     text[80];      /* the instruction as written: "add.rz.ftz.f32" */
    isa_op_t op;
    unsigned nsrc;          /* 1..4 source arrays */
    kind_t   sk[4], dk;     /* kinds of the sources and the destination */
    bool     approx;        /* .approx, .full: compared by ulp distance when not bit-exact */
    bool     fma_c;         /* the third source may be drawn as -(a*b) (cancellation) */
    bool     fresh;         /* integer, comparison and video variants (their own specials) */
    unsigned npred;         /* the destination is 1 predicate, or 2 (p|q: bits 0 and 1) */
    int      carry_in;      /* the source (0 or 1) that sets the carry flag first; -1: none */
    bool     carry_out;     /* .cc: the carry flag afterwards is stored after the result */
    bool     borrow;        /* the flag is set and read by sub.cc / subc (a borrow) */
    char     sel[4][4];     /* the selectors of d, a, b, c ("b0".."h1"), "" for none */
    char     imm[12];       /* an immediate last operand (lop3's LUT), "" for none */
    bool     sm100;         /* needs sm_100: recorded on sm_90 through an equivalent kernel */
    bool     three;         /* min/max with three sources (name suffix "+3") */
    bool     oob;           /* fma .oob: sources also take the OOB-NaN 0x7ff7 (0xfff7), 0x7fff */
} variant_t;

#define SPECIAL_2D_INT 16u  /* integer, comparison and video variants cross fewer specials */

/* The output bytes of one vector: the result, then the carry flag (.cc) of its width. */
static unsigned out_bytes(const variant_t *v) { return kind_bytes[v->dk] * (v->carry_out ? 2u : 1u); }

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
static bool variant_parse(const char *name, variant_t *v)
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

static void cat(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t size, const char *fmt, ...)
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
        cat(out, size, "\tmov.b64 {%%sa0, %%sa1}, %%a;\n\tmov.b64 {%%sb0, %%sb1}, %%b;\n");
        if (c)
            cat(out, size, "\tmov.b64 {%%sc0, %%sc1}, %%c;\n");
        for (unsigned h = 0; h < 2; h++) {
            if (c)
                cat(out, size, "\t%s %%sd%u, %%sa%u, %%sb%u, %%sc%u;\n", base, h, h, h, h);
            else
                cat(out, size, "\t%s %%sd%u, %%sa%u, %%sb%u;\n", base, h, h, h);
        }
        cat(out, size, "\tmov.b64 %%d, {%%sd0, %%sd1};\n");
    } else if (v->op != ISA_OP_CVT && !v->three) {
        const char *h = v->sk[0] == K_BF16 ? "bf16" : "f16";
        char cut[8];
        snprintf(cut, sizeof cut, ".%s", h);
        text_without(v->text, cut, "", base, sizeof base);
        cat(out, size, "\tcvt.f32.%s %%sa0, %%a;\n", h);
        if (v->nsrc == 3)
            cat(out, size, "\tcvt.f32.%s %%sb0, %%b;\n\t%s %%d, %%sa0, %%sb0, %%c;\n", h, base);
        else
            cat(out, size, "\t%s %%d, %%sa0, %%b;\n", base);
    } else if (v->three) {
        bool abs = strstr(v->text, ".abs") != NULL, ftz = strstr(v->text, ".ftz") != NULL;
        text_without(v->text, ".abs", "", base, sizeof base);
        const char *a = "%a", *b = "%b", *c = "%c";
        if (abs) {
            for (unsigned i = 0; i < 3; i++)
                cat(out, size, "\tabs%s.f32 %%s%c0, %%%c;\n", ftz ? ".ftz" : "", "abc"[i], "abc"[i]);
            a = "%sa0", b = "%sb0", c = "%sc0";
        }
        cat(out, size, "\t%s %%st, %s, %s;\n\t%s %%d, %%st, %s;\n", base, a, b, base, c);
    } else {
        text_without(v->text, ".satfinite", "", base, sizeof base);
        cat(out, size, "\t%s %%st, %%a;\n\tand.b32 %%sa0, %%st, 0x7fffffff;\n"
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
static char *variant_kernel(const variant_t *v, bool gpu)
{
    static char buf[8192];
    static const char *srcs[4] = { "a", "b", "c", "e" };
    char decl[512] = "", loads[2048] = "", opnds[128] = "", pre[512] = "", post[512] = "";
    for (unsigned i = 0; i < v->nsrc; i++) {
        unsigned w = kind_bytes[v->sk[i]], rb = w < 2 ? 16 : w * 8;
        cat(decl, sizeof decl, "\t.reg .b%u %%%s;\n", rb, srcs[i]);
        cat(loads, sizeof loads,
            "\tld.param.u64 %%x, [p%s];\n\tmul.wide.u32 %%o, %%i, %u;\n\tadd.s64 %%x, %%x, %%o;\n"
            "\tld.global.b%u %%%s, [%%x];\n", srcs[i], w, w * 8, srcs[i]);
        if ((int)i == v->carry_in)
            continue;
        if (v->sk[i] == K_PRED) {
            cat(pre, sizeof pre, "\tsetp.ne.b16 %%q%s, %%%s, 0;\n", srcs[i], srcs[i]);
            cat(opnds, sizeof opnds, ", %%q%s", srcs[i]);
        } else {
            cat(opnds, sizeof opnds, ", %%%s%s%s", srcs[i], v->sel[i + 1][0] ? "." : "", v->sel[i + 1]);
        }
    }
    if (v->carry_in >= 0) {
        cat(pre, sizeof pre, "\tcvt.u32.u16 %%ci, %%%s;\n", srcs[v->carry_in]);
        cat(pre, sizeof pre, v->borrow ? "\tsub.cc.u32 %%ci, %%z, %%ci;\n" : "\tadd.cc.u32 %%ci, %%ci, %%m1;\n");
    }
    if (v->imm[0])
        cat(opnds, sizeof opnds, ", %s", v->imm);
    unsigned dw = kind_bytes[v->dk], drb = dw < 2 ? 16 : dw * 8, ow = out_bytes(v);
    char dop[32];
    if (v->npred)
        snprintf(dop, sizeof dop, v->npred == 2 ? "%%pd|%%pe" : "%%pd");
    else
        snprintf(dop, sizeof dop, "%%d%s%s", v->sel[0][0] ? "." : "", v->sel[0]);
    if (v->npred) {
        cat(post, sizeof post, "\tselp.u16 %%d, 1, 0, %%pd;\n");
        if (v->npred == 2)
            cat(post, sizeof post, "\tselp.u16 %%h, 2, 0, %%pe;\n\tor.b16 %%d, %%d, %%h;\n");
    }
    if (v->carry_out)
        cat(post, sizeof post, "\t%s.u%u %%co, %%z%u, %%z%u;\n", v->borrow ? "subc" : "addc", drb, drb, drb);
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
        cat(buf, sizeof buf, "\tst.global.b%u [%%x+%u], %%co;\n", dw * 8, dw);
    cat(buf, sizeof buf, "DONE:\n\tret;\n}\n");
    return buf;
}

/* Vector counts: specials (unary: the whole list; otherwise the first SPECIAL_2D
 * crossed, the third operand walking the list), then nchunks * CHUNK random ones. */
static size_t special_side(const variant_t *v)
{
    size_t n, lim = v->fresh ? SPECIAL_2D_INT : SPECIAL_2D;
    kind_specials(v->sk[0], v->fresh, &n);
    return v->nsrc == 1 || n < lim ? n : lim;
}
static size_t variant_nspecial(const variant_t *v)
{
    size_t side = special_side(v);
    return v->nsrc == 1 ? side : side * side;
}

static uint64_t fnv1a(const void *p, size_t n, uint64_t h)
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
static uint64_t get_le(const uint8_t *p, unsigned w)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < w && i < 8; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}

/* A value of w bytes as hex, most significant first (any width: a .cc result is 16). */
static void hex_print(FILE *f, const uint8_t *p, unsigned w)
{
    for (unsigned i = w; i-- > 0;)
        fprintf(f, "%02x", p[i]);
}
static void hex_parse(uint8_t *p, unsigned w, const char *s)
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

/* The sources of vectors [first, first + n) into in[0..nsrc) (each kind_bytes wide). */
static void variant_inputs(const variant_t *v, size_t first, size_t n, uint8_t *in[4])
{
    size_t ns = variant_nspecial(v), side = special_side(v);
    uint64_t seed = fnv1a(v->name, strlen(v->name), 0xcbf29ce484222325ull);
    for (size_t j = 0; j < n; j++) {
        size_t i = first + j;
        uint64_t val[4] = { 0, 0, 0, 0 };
        if (i < ns) {
            size_t ia = v->nsrc == 1 ? i : i / side, ib = i % side;
            val[0] = kind_special(v->sk[0], v->fresh, ia);
            val[1] = kind_special(v->sk[1], v->fresh, ib);
            val[2] = kind_special(v->sk[2], v->fresh, ia + 2 * ib + 1);
            val[3] = kind_special(v->sk[3], v->fresh, 3 * ia + ib + 2);
        } else {
            /* Each random vector has its own stream, so that a chunk can be made alone. */
            uint64_t st = seed ^ (uint64_t)(i - ns) * 0xd1342543de82ef95ull;
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
            uint64_t r = fnv1a(&i, sizeof i, seed);
            for (unsigned s = 0; s < v->nsrc; s++)
                for (unsigned h = 0; h < kind_bytes[v->sk[s]] / 2; h++) {
                    unsigned k = (unsigned)(r >> (6 * s + 3 * h)) & 7;
                    if (k < 3)
                        val[s] = (val[s] & ~(0xffffull << (16 * h))) | (uint64_t)special_nan[k] << (16 * h);
                }
        }
        for (unsigned s = 0; s < v->nsrc; s++)
            put_le(in[s] + j * kind_bytes[v->sk[s]], kind_bytes[v->sk[s]], val[s]);
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Running a variant on a backend
 *====================================================================*/
enum { BE_EMU = 1, BE_CUDA = 2 };

/* Run vectors [first, first + n) of v; the outputs go to out (n * dest width bytes).
 * Returns ISA_ST_OK, or the status with the reason in err (the first line of the
 * diagnostics: "not supported yet", a JIT error, ...). */
static isa_status_t variant_run(const variant_t *v, int backend, size_t first, size_t n, uint8_t *out,
                                char *err, size_t errsize)
{
    const char *text = variant_kernel(v, backend == BE_CUDA);
    isa_module_t *m = NULL;
    char *dbuf = NULL;
    size_t dlen = 0;
    FILE *diag = open_memstream(&dbuf, &dlen);
    fe_options_t fo = { diag, 1, false };
    isa_status_t st = fe_load_text(v->name, text, strlen(text), &fo, &m);
    ex_program_t *p = NULL;
    rt_args_t a;
    bool args = false;
    if (st != ISA_ST_OK)
        goto done;
    if (backend == BE_EMU) {
        p = ex_program_new(m);
        if (!p || ex_program_check_entry(p, 0, diag) != 0) {
            st = ISA_ST_UNSUPPORTED;
            goto done;
        }
    }
    char sa[4][32], sd[32], sn[32];
    char *argv[6];
    for (unsigned s = 0; s < 4; s++) {
        if (s < v->nsrc)
            snprintf(sa[s], sizeof sa[s], "b%u[%zu]", kind_bytes[v->sk[s]] * 8, n);
        else
            snprintf(sa[s], sizeof sa[s], "b8[1]");
        argv[1 + s] = sa[s];
    }
    snprintf(sd, sizeof sd, "b8[%zu]", n * out_bytes(v));
    snprintf(sn, sizeof sn, "%zu", n);
    argv[0] = sd;
    argv[5] = sn;
    if ((st = rt_args_parse(&m->funcs[0], 6, argv, diag, &a)) != ISA_ST_OK)
        goto done;
    args = true;
    uint8_t *in[4] = { a.bufs[1].host, a.bufs[2].host, a.bufs[3].host, a.bufs[4].host };
    variant_inputs(v, first, n, in);
    ex_launch_t l = { { (uint32_t)((n + 255) / 256), 1, 1 }, { 256, 1, 1 }, 0, 0 };
    if (backend == BE_EMU) {
        ex_stats_t stats;
        st = rt_run_emu(p, 0, &l, &a, diag, &stats);
    } else {
        st = rt_run_cuda(m, 0, &l, &a, diag);
    }
    if (st == ISA_ST_OK)
        memcpy(out, a.bufs[0].host, n * out_bytes(v));
done:
    if (args)
        rt_args_free(&a);
    if (p)
        ex_program_free(p);
    if (m)
        isa_module_free(m);
    fclose(diag);
    if (err && errsize) {
        /* The diagnostics on one line: their first 400 characters, lines joined by " | ". */
        const char *s = dbuf && *dbuf ? dbuf : "failed";
        size_t k = 0;
        for (; *s && k + 4 < errsize && k < 400; s++) {
            if (*s == '\n') {
                if (s[1])
                    k += (size_t)snprintf(err + k, errsize - k, " | ");
            } else {
                err[k++] = *s == '\t' ? ' ' : *s;
            }
        }
        err[k] = 0;
    }
    free(dbuf);
    return st;
}
/*}=====================================================================*/

/*{=====================================================================
 * Enumeration: walk the ISA table for the variants ptxfuzz can test
 *====================================================================*/
static const isa_op_t fuzz_ops[] = {
    ISA_OP_ADD, ISA_OP_SUB, ISA_OP_MUL, ISA_OP_FMA, ISA_OP_MAD, ISA_OP_DIV, ISA_OP_RCP, ISA_OP_SQRT,
    ISA_OP_RSQRT, ISA_OP_SIN, ISA_OP_COS, ISA_OP_LG2, ISA_OP_EX2, ISA_OP_TANH, ISA_OP_ABS, ISA_OP_NEG,
    ISA_OP_MIN, ISA_OP_MAX, ISA_OP_COPYSIGN, ISA_OP_CVT,
};
static const isa_type_t fuzz_ftypes[] = { ISA_T_F32, ISA_T_F64, ISA_T_F16, ISA_T_F16X2, ISA_T_BF16, ISA_T_BF16X2,
                                           ISA_T_F32X2 };
static const isa_type_t fuzz_ctypes[] = {
    ISA_T_S8, ISA_T_S16, ISA_T_S32, ISA_T_S64, ISA_T_U8, ISA_T_U16, ISA_T_U32, ISA_T_U64, ISA_T_F16,
    ISA_T_BF16, ISA_T_TF32, ISA_T_F32, ISA_T_F64, ISA_T_F16X2, ISA_T_BF16X2, ISA_T_E4M3X2, ISA_T_E5M2X2,
};

/* Whether the frontend's validator (ptxas's rules) accepts the instruction. */
static bool candidate_valid(const char *name)
{
    variant_t v;
    if (!variant_parse(name, &v))
        return false;
    const char *text = variant_kernel(&v, false);
    FILE *null = fopen("/dev/null", "w");
    fe_options_t fo = { null, 1, false };
    isa_module_t *m = NULL;
    bool ok = fe_load_text(name, text, strlen(text), &fo, &m) == ISA_ST_OK;
    if (m)
        isa_module_free(m);
    fclose(null);
    return ok;
}

typedef void (*name_fn)(const char *name, void *ctx);

/* The integer, comparison, selection and video variants: per opcode, modifier axes
 * before the types, type axes, and modifier axes after them (PTX's order).  An axis
 * lists its alternatives separated by '|'; an empty one means "absent".  Every
 * combination the frontend's validator accepts is a variant. */
#define T_INT  "b8|b16|b32|b64|u8|u16|u32|u64|s8|s16|s32|s64|u16x2|s16x2"
#define T_FLT  "f16|f16x2|bf16|bf16x2|f32|f64"
#define T_US32 "u32|s32"
#define A_CMP  ".eq|.ne|.lt|.le|.gt|.ge|.lo|.ls|.hi|.hs|.equ|.neu|.ltu|.leu|.gtu|.geu|.num|.nan"
#define A_VCMP ".eq|.ne|.lt|.le|.gt|.ge"
typedef struct {
    isa_op_t    op;
    const char *pre[3], *types[3], *post[3];
    bool        vsel;       /* also the operand-selector forms (scalar video) */
} fuzz_form_t;
static const fuzz_form_t fuzz_forms[] = {
    { ISA_OP_ADD, { "|.cc", "|.sat" }, { T_INT }, { 0 }, false },
    { ISA_OP_SUB, { "|.cc", "|.sat" }, { T_INT }, { 0 }, false },
    { ISA_OP_MUL, { ".lo|.hi|.wide" }, { T_INT }, { 0 }, false },
    { ISA_OP_MAD, { ".lo|.hi|.wide", "|.cc", "|.sat" }, { T_INT }, { 0 }, false },
    { ISA_OP_MUL24, { ".lo|.hi" }, { T_US32 }, { 0 }, false },
    { ISA_OP_MAD24, { ".lo|.hi", "|.sat" }, { T_US32 }, { 0 }, false },
    { ISA_OP_SAD, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_DIV, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_REM, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_ABS, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_NEG, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_MIN, { "|.relu" }, { T_INT }, { 0 }, false },
    { ISA_OP_MAX, { "|.relu" }, { T_INT }, { 0 }, false },
    { ISA_OP_ADDC, { "|.cc" }, { T_INT }, { 0 }, false },
    { ISA_OP_SUBC, { "|.cc" }, { T_INT }, { 0 }, false },
    { ISA_OP_MADC, { ".lo|.hi", "|.cc" }, { T_INT }, { 0 }, false },
    { ISA_OP_POPC, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_CLZ, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BFIND, { "|.shiftamt" }, { T_INT }, { 0 }, false },
    { ISA_OP_FNS, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BREV, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BFE, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BFI, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_SZEXT, { ".clamp|.wrap" }, { T_INT }, { 0 }, false },
    { ISA_OP_BMSK, { ".clamp|.wrap" }, { T_INT }, { 0 }, false },
    { ISA_OP_DP4A, { 0 }, { T_US32, T_US32 }, { 0 }, false },
    { ISA_OP_DP2A, { ".lo|.hi" }, { T_US32, T_US32 }, { 0 }, false },
    { ISA_OP_TESTP, { ".finite|.infinite|.number|.notanumber|.normal|.subnormal" }, { T_FLT }, { 0 }, false },
    { ISA_OP_SETP, { A_CMP, "|.and|.or|.xor", "|.ftz" }, { T_INT "|" T_FLT }, { 0 }, false },
    { ISA_OP_SET, { A_CMP, "|.and|.or|.xor", "|.ftz" }, { "u32|s32|f32|f16|f16x2|bf16|bf16x2", T_INT "|" T_FLT },
      { 0 }, false },
    { ISA_OP_SELP, { 0 }, { T_INT "|" T_FLT }, { 0 }, false },
    { ISA_OP_SLCT, { "|.ftz" }, { T_INT "|" T_FLT, "s32|f32" }, { 0 }, false },
    { ISA_OP_AND, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_OR, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_XOR, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_NOT, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_CNOT, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_LOP3, { 0 }, { "b32" }, { "+0x00|+0xff|+0x96|+0xe8|+0xca|+0xf0|+0xcc|+0xaa|+0x80|+0xfe|+0x01|+0x7f|"
                                       "+0x6a|+0x3c|+0x5a|+0xb4|+0x1e|+0xd2|+0x78|+0x69" }, false },
    { ISA_OP_SHF, { ".l|.r", ".clamp|.wrap" }, { T_INT }, { 0 }, false },
    { ISA_OP_SHL, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_SHR, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_PRMT, { 0 }, { "b32" }, { "|.f4e|.b4e|.rc8|.ecl|.ecr|.rc16" }, false },
    { ISA_OP_CVT_PACK, { ".sat" }, { "u2|s2|u4|s4|u8|s8|u16|s16", "s32", "|b32" }, { 0 }, false },
    { ISA_OP_VADD, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VSUB, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VABSDIFF, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VMIN, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VMAX, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VSHL, { 0 }, { T_US32, T_US32, "u32" }, { "|.sat", ".clamp|.wrap", "|.add|.min|.max" }, true },
    { ISA_OP_VSHR, { 0 }, { T_US32, T_US32, "u32" }, { "|.sat", ".clamp|.wrap", "|.add|.min|.max" }, true },
    { ISA_OP_VMAD, { 0 }, { T_US32, T_US32, T_US32 }, { "|.po", "|.sat", "|.shr7|.shr15" }, true },
    { ISA_OP_VSET, { 0 }, { T_US32, T_US32 }, { A_VCMP, "|.add|.min|.max" }, true },
    { ISA_OP_VADD2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSUB2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VAVRG2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VABSDIFF2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMIN2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMAX2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSET2, { 0 }, { T_US32, T_US32 }, { A_VCMP, "|.add" }, false },
    { ISA_OP_VADD4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSUB4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VAVRG4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VABSDIFF4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMIN4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMAX4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSET4, { 0 }, { T_US32, T_US32 }, { A_VCMP, "|.add" }, false },
};

/* Scalar video operand selectors: not crossed with everything, but each selector of
 * each operand appears, on rotating types and modifiers (the k-th alternative of each
 * axis); a destination selector takes c as its merge operand, so no secondary op. */
static const char *const fuzz_vsel[] = {
    "+a.b0+b.b1", "+a.b1+b.b2", "+a.b2+b.b3", "+a.b3+b.b0", "+a.h0+b.h1", "+a.h1+b.h0",
    "+a.b3+b.h1", "+a.h1+b.b2", "+d.b0", "+d.b1+a.h1", "+d.b2+b.b1", "+d.b3", "+d.h0+a.b2",
    "+d.h1+b.h1",
};

/* The k-th alternative of an axis (cyclically) into out. */
static void axis_alt(const char *axis, unsigned k, char *out, size_t size)
{
    unsigned n = 1;
    for (const char *p = axis; *p; p++)
        n += *p == '|';
    k %= n;
    const char *p = axis;
    while (k--)
        p = strchr(p, '|') + 1;
    const char *q = strchr(p, '|');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    snprintf(out, size, "%.*s", (int)len, p);
}
static unsigned axis_count(const char *axis)
{
    unsigned n = 1;
    for (const char *p = axis; p && *p; p++)
        n += *p == '|';
    return axis ? n : 1;
}

/* All combinations of the form's axes: axis i of the 9 (3 pre, 3 types, 3 post) takes
 * alternative idx[i]. */
static void form_name(const fuzz_form_t *f, const unsigned idx[9], const char *suffix, char *name, size_t size)
{
    snprintf(name, size, "%s", isa_ops[f->op].mnemonic);
    for (unsigned i = 0; i < 9; i++) {
        const char *axis = i < 3 ? f->pre[i] : i < 6 ? f->types[i - 3] : f->post[i - 6];
        if (!axis)
            continue;
        char alt[32];
        axis_alt(axis, idx[i], alt, sizeof alt);
        if (i >= 3 && i < 6 && alt[0])
            cat(name, size, ".%s", alt);
        else
            cat(name, size, "%s", alt);
    }
    cat(name, size, "%s", suffix);
}

static bool candidate_valid(const char *name);

/* set and setp: the comparisons the manual gives each type (floats: all 14; signed:
 * eq..ge; unsigned: those and lo, ls, hi, hs; bit types: eq, ne), .ftz on f32, f16 and
 * f16x2.  A boolean op is combined with every type but only with .lt (.eq for bit types)
 * and, for floats, .geu; set's destination types are u32, s32 and f32 (for f16, bf16
 * and their pairs: u32 and the source's own type), with a boolean op u32 alone. */
static bool cmp_keep(isa_op_t op, const char *name)
{
    char buf[96], *w[8] = { 0 };
    unsigned n = 0;
    snprintf(buf, sizeof buf, "%s", name);
    for (char *p = strtok(buf, "."); p && n < 8; p = strtok(NULL, "."))
        w[n++] = p;
    if (n < 3)
        return false;
    const char *cmp = w[1], *st = w[n - 1], *dt = op == ISA_OP_SET ? w[n - 2] : NULL;
    bool boolop = n > 2 && (!strcmp(w[2], "and") || !strcmp(w[2], "or") || !strcmp(w[2], "xor"));
    bool ftz = strstr(name, ".ftz.") != NULL;
    bool flt = st[0] == 'f' || (st[0] == 'b' && st[1] == 'f'), half = flt && strstr(st, "16");
    if (strchr(st, 'x') && !flt)
        return false;
    if (!flt && !strcmp(st + 1, "8"))
        return false;
    char key[8];
    snprintf(key, sizeof key, "%s ", cmp);
    bool ok;
    if (flt)
        ok = strstr("eq ne lt le gt ge equ neu ltu leu gtu geu num nan ", key) != NULL;
    else if (st[0] == 's')
        ok = strstr("eq ne lt le gt ge ", key) != NULL;
    else if (st[0] == 'u')
        ok = strstr("eq ne lt le gt ge lo ls hi hs ", key) != NULL;
    else
        ok = strstr("eq ne ", key) != NULL;
    if (!ok || (ftz && strcmp(st, "f32") && strcmp(st, "f16") && strcmp(st, "f16x2")))
        return false;
    if (boolop && strcmp(cmp, st[0] == 'b' && !flt ? "eq" : "lt") && !(flt && !strcmp(cmp, "geu")))
        return false;
    if (dt) {
        bool plain = !strcmp(dt, "u32") || !strcmp(dt, "s32") || !strcmp(dt, "f32");
        if (half ? strcmp(dt, "u32") && strcmp(dt, st) : !plain)
            return false;
        if (boolop && strcmp(dt, "u32"))
            return false;
    }
    return true;
}

static void enumerate_fresh(name_fn fn, void *ctx)
{
    for (size_t fi = 0; fi < sizeof fuzz_forms / sizeof *fuzz_forms; fi++) {
        const fuzz_form_t *f = &fuzz_forms[fi];
        unsigned cnt[9], idx[9] = { 0 };
        for (unsigned i = 0; i < 9; i++)
            cnt[i] = axis_count(i < 3 ? f->pre[i] : i < 6 ? f->types[i - 3] : f->post[i - 6]);
        for (;;) {
            char name[96];
            form_name(f, idx, "", name, sizeof name);
            if ((f->op == ISA_OP_SET || f->op == ISA_OP_SETP) && !cmp_keep(f->op, name))
                ;
            else if (strlen(name) < 80 && candidate_valid(name))
                fn(name, ctx);
            unsigned i = 9;
            while (i-- > 0 && ++idx[i] == cnt[i])
                idx[i] = 0;
            if (i == (unsigned)-1)
                break;
        }
        if (!f->vsel)
            continue;
        for (unsigned k = 0; k < sizeof fuzz_vsel / sizeof *fuzz_vsel; k++) {
            bool dsel = fuzz_vsel[k][1] == 'd';
            for (unsigned i = 0; i < 9; i++)
                idx[i] = (k >> (i % 3)) + i;
            if (dsel)
                for (unsigned i = 6; i < 9; i++) {
                    const char *axis = f->post[i - 6];
                    char alt[32];
                    axis_alt(axis ? axis : "", idx[i], alt, sizeof alt);
                    if (strcmp(alt, ".add") == 0 || strcmp(alt, ".min") == 0 || strcmp(alt, ".max") == 0)
                        idx[i] = 0;
                }
            char name[96];
            form_name(f, idx, fuzz_vsel[k], name, sizeof name);
            if (strlen(name) < 80 && candidate_valid(name))
                fn(name, ctx);
        }
    }
}

/* sm_100's forms that the type walk does not make: f32 arithmetic with f16 or bf16
 * sources (add, sub: d, a, c; fma: d, a, b, c) and min/max of three f32 sources. */
static void enumerate_sm100(name_fn fn, void *ctx)
{
    static const char *ops[] = { "add", "sub", "fma" }, *rnd[] = { "", ".rn", ".rz", ".rm", ".rp" };
    static const char *half[] = { "f16", "bf16" };
    char name[96];
    for (unsigned o = 0; o < 3; o++)
        for (unsigned r = 0; r < 5; r++)
            for (unsigned sat = 0; sat < 2; sat++)
                for (unsigned h = 0; h < 2; h++) {
                    snprintf(name, sizeof name, "%s%s%s.f32.%s", ops[o], rnd[r], sat ? ".sat" : "", half[h]);
                    if (candidate_valid(name))
                        fn(name, ctx);
                }
    for (unsigned o = 0; o < 2; o++)
        for (unsigned m = 0; m < 8; m++) {
            snprintf(name, sizeof name, "%s%s%s%s.f32+3", o ? "max" : "min", m & 1 ? ".ftz" : "",
                     m & 2 ? ".NaN" : "", m & 4 ? ".abs" : "");
            if (candidate_valid(name))
                fn(name, ctx);
        }
}

/* Every combination of the modifier axes the opcode's row accepts, in PTX's order:
 * precision, rounding, ftz, oob, NaN, xorsign.abs, relu, sat/satfinite; then the types. */
static void enumerate(name_fn fn, void *ctx)
{
    static const char *prec[] = { "", ".approx", ".full" };
    static const char *rnd[] = { "", ".rn", ".rz", ".rm", ".rp", ".rna", ".rni", ".rzi", ".rmi", ".rpi" };
    static const char *sat[] = { "", ".sat", ".satfinite" };
    for (size_t o = 0; o < sizeof fuzz_ops / sizeof *fuzz_ops; o++) {
        isa_op_t op = fuzz_ops[o];
        const isa_op_info_t *oi = &isa_ops[op];
        bool cvt = op == ISA_OP_CVT;
        size_t nt = cvt ? sizeof fuzz_ctypes / sizeof *fuzz_ctypes : sizeof fuzz_ftypes / sizeof *fuzz_ftypes;
        for (unsigned ip = 0; ip < (oi->groups & G_PREC ? 3u : 1u); ip++)
        for (unsigned ir = 0; ir < (oi->groups & G_ROUND ? (cvt ? 10u : 5u) : 1u); ir++)
        for (unsigned iz = 0; iz < (oi->groups & G_FTZ ? 2u : 1u); iz++)
        for (unsigned io = 0; io < (oi->groups & G_OOB ? 2u : 1u); io++)
        for (unsigned in = 0; in < (oi->groups & G_NAN ? 2u : 1u); in++)
        for (unsigned ix = 0; ix < (oi->groups & G_XORSIGN ? 2u : 1u); ix++)
        for (unsigned iu = 0; iu < (oi->groups & G_RELU ? 2u : 1u); iu++)
        for (unsigned is = 0; is < (oi->groups & G_SAT ? (cvt ? 3u : 2u) : 1u); is++)
        for (size_t t1 = 0; t1 < nt; t1++)
        for (size_t t2 = 0; t2 < (cvt ? nt : 1u); t2++) {
            char name[96];
            isa_type_t a = cvt ? fuzz_ctypes[t1] : fuzz_ftypes[t1];
            if (!(oi->types & (1ull << a)))
                continue;
            snprintf(name, sizeof name, "%s%s%s%s%s%s%s%s%s.%s%s%s", oi->mnemonic, prec[ip], rnd[ir],
                     iz ? ".ftz" : "", io ? ".oob" : "", in ? ".NaN" : "", ix ? ".xorsign.abs" : "", iu ? ".relu" : "",
                     sat[is], isa_types[a].text, cvt ? "." : "", cvt ? isa_types[fuzz_ctypes[t2]].text : "");
            if (candidate_valid(name))
                fn(name, ctx);
        }
    }
    enumerate_sm100(fn, ctx);
    enumerate_fresh(fn, ctx);
}
/*}=====================================================================*/

/*{=====================================================================
 * Recorded data: tests/fuzz/NAME.fz
 *   ptxfuzz 1
 *   variant NAME
 *   special COUNT            then the outputs, hex, 8 to a line
 *   chunks COUNT SIZE        then one line per chunk: c INDEX GPUDIGEST [EMUDIGEST MAXULP]
 *   bound ULP                (.approx variants: the asserted maximum ulp difference)
 * A digest is FNV-1a 64 of the chunk's output bytes.  For .approx variants that are not
 * bit-exact, EMUDIGEST and MAXULP record the emulator's output at measure time and its
 * largest difference from the GPU's in the chunk: replay checks the emulator still
 * produces exactly that output, so the measured bound still holds.
 *====================================================================*/
typedef struct {
    char     name[80];
    size_t   nspecial;
    uint8_t *special;           /* nspecial * dest width bytes */
    unsigned nchunks, chunk;
    uint64_t *gpu, *emu;        /* per chunk */
    int64_t  *ulp;              /* per chunk: measured max ulp, -1 when not measured */
    int64_t   bound;            /* -1: none (bit-exact required) */
} record_t;

static void record_free(record_t *r)
{
    free(r->special);
    free(r->gpu);
    free(r->emu);
    free(r->ulp);
    memset(r, 0, sizeof *r);
}

static bool record_load(const char *path, unsigned w, record_t *r)
{
    memset(r, 0, sizeof *r);
    r->bound = -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[512];
    bool ok = false;
    size_t got = 0;
    unsigned c = 0;
    enum { HDR, SPECIAL, CHUNKS } state = HDR;
    while (fgets(line, sizeof line, f)) {
        if (state == SPECIAL && got < r->nspecial) {
            for (char *p = strtok(line, " \n"); p && got < r->nspecial; p = strtok(NULL, " \n"))
                hex_parse(r->special + w * got++, w, p);
            continue;
        }
        if (sscanf(line, "variant %79s", r->name) == 1)
            continue;
        if (sscanf(line, "special %zu", &r->nspecial) == 1) {
            r->special = calloc(r->nspecial ? r->nspecial : 1, w);
            state = SPECIAL;
            continue;
        }
        if (sscanf(line, "chunks %u %u", &r->nchunks, &r->chunk) == 2) {
            r->gpu = calloc(r->nchunks + 1, 8);
            r->emu = calloc(r->nchunks + 1, 8);
            r->ulp = calloc(r->nchunks + 1, 8);
            state = CHUNKS;
            continue;
        }
        if (state == CHUNKS && line[0] == 'c' && c < r->nchunks) {
            unsigned idx;
            char g[40], e[40] = "";
            long long u = -1;
            int k = sscanf(line, "c %u %39s %39s %lld", &idx, g, e, &u);
            if (k < 2 || idx != c)
                goto out;
            r->gpu[c] = strtoull(g, NULL, 16);
            r->emu[c] = k >= 3 ? strtoull(e, NULL, 16) : 0;
            r->ulp[c] = k >= 4 ? u : -1;
            c++;
            continue;
        }
        long long b;
        if (sscanf(line, "bound %lld", &b) == 1)
            r->bound = b;
    }
    ok = r->name[0] && got == r->nspecial && c == r->nchunks && r->chunk == CHUNK;
out:
    fclose(f);
    if (!ok)
        record_free(r);
    return ok;
}

static bool record_save(const char *path, const record_t *r, unsigned w)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return false;
    fprintf(f, "ptxfuzz 1\nvariant %s\nspecial %zu\n", r->name, r->nspecial);
    for (size_t i = 0; i < r->nspecial; i++) {
        hex_print(f, r->special + w * i, w);
        fputc(i % 8 == 7 || i + 1 == r->nspecial ? '\n' : ' ', f);
    }
    fprintf(f, "chunks %u %u\n", r->nchunks, r->chunk);
    for (unsigned c = 0; c < r->nchunks; c++) {
        fprintf(f, "c %u %016llx", c, (unsigned long long)r->gpu[c]);
        if (r->ulp && r->ulp[c] >= 0)
            fprintf(f, " %016llx %lld", (unsigned long long)r->emu[c], (long long)r->ulp[c]);
        fputc('\n', f);
    }
    if (r->bound >= 0)
        fprintf(f, "bound %lld\n", (long long)r->bound);
    bool ok = fclose(f) == 0;
    return ok && rename(tmp, path) == 0;
}
/*}=====================================================================*/

/*{=====================================================================
 * ulp distance (.approx variants)
 *====================================================================*/
/* Position of float bits u (e exponent, m mantissa bits) on a line where adjacent
 * floats are 1 apart; NaNs, infinities and zeros give INT64_MIN. */
static int64_t ordinal(uint64_t u, unsigned e, unsigned m)
{
    uint64_t mag = u & ((1ull << (e + m)) - 1), emask = ((1ull << e) - 1) << m;
    if ((mag & emask) == emask || mag == 0)
        return INT64_MIN;
    return u >> (e + m) & 1 ? -(int64_t)mag : (int64_t)mag;
}
/* The distance in ulp between two results; a NaN, an infinity or a zero (of either sign)
 * on either side must match exactly, else the distance is INT64_MAX: the special-value
 * handling is never approximated. */
static int64_t ulp1(uint64_t x, uint64_t y, unsigned e, unsigned m)
{
    if (x == y)
        return 0;
    int64_t a = ordinal(x, e, m), b = ordinal(y, e, m);
    if (a == INT64_MIN || b == INT64_MIN)
        return INT64_MAX;
    return a > b ? a - b : b - a;
}
static int64_t ulp_diff(kind_t k, uint64_t x, uint64_t y)
{
    switch (k) {
    case K_F32: return ulp1(x, y, 8, 23);
    case K_F64: return ulp1(x, y, 11, 52);
    case K_F16: return ulp1(x, y, 5, 10);
    case K_BF16: return ulp1(x, y, 8, 7);
    case K_F16X2: case K_BF16X2: {
        unsigned e = k == K_F16X2 ? 5 : 8, m = k == K_F16X2 ? 10 : 7;
        int64_t a = ulp1(x & 0xffff, y & 0xffff, e, m), b = ulp1(x >> 16, y >> 16, e, m);
        return a > b ? a : b;
    }
    default: return x == y ? 0 : INT64_MAX;
    }
}
static int64_t max_ulp(kind_t k, const uint8_t *x, const uint8_t *y, size_t n)
{
    unsigned w = kind_bytes[k];
    int64_t worst = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t d = ulp_diff(k, get_le(x + w * i, w), get_le(y + w * i, w));
        if (d > worst)
            worst = d;
    }
    return worst;
}
/*}=====================================================================*/

/*{=====================================================================
 * Commands
 *====================================================================*/
typedef struct {
    const char *dir, *raw;
    int backend;
    unsigned nchunks;
    bool verbose;
} opts_t;

static void fz_path(char *buf, size_t size, const char *dir, const char *name, const char *ext)
{
    snprintf(buf, size, "%s/%s%s", dir, name, ext);
}

static void list_one(const char *name, void *ctx)
{
    (void)ctx;
    puts(name);
}

typedef struct { char **names; size_t n, cap; } names_t;
static void collect(const char *name, void *ctx)
{
    names_t *ns = ctx;
    if (ns->n == ns->cap)
        ns->names = realloc(ns->names, (ns->cap = ns->cap ? 2 * ns->cap : 256) * sizeof *ns->names);
    ns->names[ns->n++] = strdup(name);
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The recorded variants in dir (NAME.fz), sorted. */
static void recorded_names(const char *dir, names_t *ns)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".fz") == 0) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s", (int)(n - 3), e->d_name);
            collect(buf, ns);
        }
    }
    closedir(d);
    qsort(ns->names, ns->n, sizeof *ns->names, cmp_str);
}

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f);
}

/* record: run every vector of a variant on the backend (the GPU), keep the special
 * outputs whole and the random chunks' digests; with --raw, also write the full outputs
 * (NAME.bin), which measure and show read. */
static int cmd_record(const opts_t *o, names_t *ns)
{
    int bad = 0;
    for (size_t i = 0; i < ns->n; i++) {
        variant_t v;
        if (!variant_parse(ns->names[i], &v)) {
            fprintf(stderr, "ptxfuzz: %s: not a variant ptxfuzz can test\n", ns->names[i]);
            bad = 1;
            continue;
        }
        size_t nsp = variant_nspecial(&v), n = nsp + (size_t)o->nchunks * CHUNK;
        unsigned w = out_bytes(&v);
        uint8_t *out = malloc(n * w);
        char err[512];
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        isa_status_t st = variant_run(&v, o->backend, 0, n, out, err, sizeof err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (st != ISA_ST_OK) {
            printf("SKIP %s: %s\n", v.name, err);
            free(out);
            continue;
        }
        record_t r = { 0 };
        snprintf(r.name, sizeof r.name, "%s", v.name);
        r.nspecial = nsp;
        r.special = out;
        r.nchunks = o->nchunks;
        r.chunk = CHUNK;
        r.gpu = calloc(o->nchunks + 1, 8);
        r.bound = -1;
        for (unsigned c = 0; c < o->nchunks; c++)
            r.gpu[c] = fnv1a(out + (nsp + (size_t)c * CHUNK) * w, (size_t)CHUNK * w, 0xcbf29ce484222325ull);
        char path[4096];
        fz_path(path, sizeof path, o->dir, v.name, ".fz");
        if (!record_save(path, &r, w)) {
            fprintf(stderr, "ptxfuzz: cannot write %s\n", path);
            bad = 2;
        }
        if (o->raw) {
            /* Whole for .approx variants (measure needs them), else the specials and the
             * first two chunks (enough to look at a mismatch without the GPU). */
            size_t keep = v.approx || n < nsp + 2 * CHUNK ? n : nsp + 2 * CHUNK;
            fz_path(path, sizeof path, o->raw, v.name, ".bin");
            if (write_file(path, out, keep * w) != 0)
                fprintf(stderr, "ptxfuzz: cannot write %s\n", path);
        }
        printf("recorded %s: %zu vectors, %.3fs\n", v.name, n,
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        fflush(stdout);
        r.special = NULL;
        free(out);
        record_free(&r);
    }
    return bad;
}

static void print_vector(const variant_t *v, size_t idx, const uint8_t *in[4], size_t j)
{
    printf("  vector %zu:", idx);
    for (unsigned s = 0; s < v->nsrc; s++) {
        unsigned w = kind_bytes[v->sk[s]];
        printf(" %c=%0*llx", 'a' + s, (int)w * 2, (unsigned long long)get_le(in[s] + j * w, w));
    }
}

/* Replay one recorded variant on the emulator.  Returns 0 when it matches (or stays
 * within its recorded ulp bound), 1 on a mismatch, 3 when unsupported, 2 on errors. */
static int replay_one(const opts_t *o, const char *name, double *out_secs, size_t *out_vectors)
{
    variant_t v;
    if (!variant_parse(name, &v)) {
        printf("FAIL %s: not a variant ptxfuzz can test\n", name);
        return 2;
    }
    unsigned w = out_bytes(&v);
    char path[4096];
    fz_path(path, sizeof path, o->dir, name, ".fz");
    record_t r;
    if (!record_load(path, w, &r) || strcmp(r.name, name) != 0) {
        printf("FAIL %s: cannot read %s\n", name, path);
        return 2;
    }
    size_t n = r.nspecial + (size_t)r.nchunks * CHUNK;
    uint8_t *out = malloc(n * w);
    char err[512];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    isa_status_t st = variant_run(&v, BE_EMU, 0, n, out, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *out_secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    *out_vectors = n;
    int rc = 0;
    if (st != ISA_ST_OK) {
        printf("UNSUPPORTED %s: %s\n", name, err);
        rc = 3;
        goto done;
    }
    /* Specials: whole values. */
    size_t bad = 0, first = 0;
    int64_t sworst = 0;
    for (size_t i = 0; i < r.nspecial; i++) {
        if (memcmp(out + i * w, r.special + i * w, w) == 0)
            continue;
        int64_t d = v.approx ? ulp_diff(v.dk, get_le(out + i * w, w), get_le(r.special + i * w, w)) : INT64_MAX;
        if (d > sworst)
            sworst = d;
        if (r.bound >= 0 && d <= r.bound)
            continue;
        if (!bad++)
            first = i;
    }
    if (bad) {
        uint8_t *in[4] = { malloc(8), malloc(8), malloc(8), malloc(8) };
        variant_inputs(&v, first, 1, in);
        printf("FAIL %s: %zu of %zu special vectors differ; first:", name, bad, r.nspecial);
        print_vector(&v, first, (const uint8_t **)in, 0);
        printf(" got ");
        hex_print(stdout, out + first * w, w);
        printf(", GPU ");
        hex_print(stdout, r.special + first * w, w);
        printf("\n");
        for (unsigned s = 0; s < 4; s++)
            free(in[s]);
        rc = 1;
        goto done;
    }
    for (unsigned c = 0; c < r.nchunks; c++) {
        uint64_t h = fnv1a(out + (r.nspecial + (size_t)c * CHUNK) * w, (size_t)CHUNK * w, 0xcbf29ce484222325ull);
        if (h == r.gpu[c])
            continue;
        if (r.bound >= 0 && r.ulp[c] >= 0 && h == r.emu[c] && r.ulp[c] <= r.bound)
            continue;
        printf("FAIL %s: random chunk %u (vectors %zu..%zu) differs from the GPU's%s; see it with "
               "'tests/fuzz/show-chunk.sh %s %u' on the GPU\n", name, c, r.nspecial + (size_t)c * CHUNK,
               r.nspecial + (size_t)(c + 1) * CHUNK - 1,
               r.bound >= 0 ? " and from the output measured within the bound (run measure again)" : "",
               name, c);
        rc = 1;
        goto done;
    }
    if (o->verbose)
        printf("ok %s%s\n", name, r.bound >= 0 ? " (within its ulp bound)" : "");
done:
    free(out);
    record_free(&r);
    return rc;
}

static int cmd_replay(const opts_t *o, names_t *ns)
{
    size_t fails = 0, unsup = 0, total = 0;
    double secs = 0;
    for (size_t i = 0; i < ns->n; i++) {
        double s = 0;
        size_t nv = 0;
        int rc = replay_one(o, ns->names[i], &s, &nv);
        secs += s;
        total += nv;
        fails += rc == 1 || rc == 2;
        unsup += rc == 3;
    }
    printf("replayed %zu variants, %zu vectors in %.2fs (%.1f M vectors/s): %zu mismatching, %zu unsupported\n",
           ns->n, total, secs, secs > 0 ? (double)total / secs / 1e6 : 0.0, fails, unsup);
    return fails || unsup ? 1 : 0;
}

/* show: a chunk's vectors (chunk -1: the specials) with the outputs of the backend(s). */
static int cmd_show(const opts_t *o, const char *name, long chunk)
{
    variant_t v;
    if (!variant_parse(name, &v)) {
        fprintf(stderr, "ptxfuzz: %s: not a variant ptxfuzz can test\n", name);
        return 2;
    }
    size_t nsp = variant_nspecial(&v);
    size_t first = chunk < 0 ? 0 : nsp + (size_t)chunk * CHUNK, n = chunk < 0 ? nsp : CHUNK;
    unsigned w = out_bytes(&v);
    uint8_t *emu = malloc(n * w), *gpu = malloc(n * w), *in[4];
    for (unsigned s = 0; s < 4; s++)
        in[s] = malloc(n * 8);
    variant_inputs(&v, first, n, in);
    char err[512];
    bool he = false, hg = false;
    if (o->backend & BE_EMU) {
        he = variant_run(&v, BE_EMU, first, n, emu, err, sizeof err) == ISA_ST_OK;
        if (!he)
            printf("emulator: %s\n", err);
    }
    if (o->backend & BE_CUDA) {
        hg = variant_run(&v, BE_CUDA, first, n, gpu, err, sizeof err) == ISA_ST_OK;
        if (!hg)
            printf("GPU: %s\n", err);
    } else if (o->raw) {
        /* The GPU's outputs from a record --raw run, where it kept this chunk. */
        char path[4096];
        fz_path(path, sizeof path, o->raw, v.name, ".bin");
        FILE *f = fopen(path, "rb");
        hg = f && fseek(f, (long)(first * w), SEEK_SET) == 0 && fread(gpu, w, n, f) == n;
        if (f)
            fclose(f);
        if (!hg)
            printf("GPU: chunk not in %s\n", path);
    }
    size_t diffs = 0;
    for (size_t j = 0; j < n; j++) {
        bool differ = he && hg && memcmp(emu + j * w, gpu + j * w, w) != 0;
        diffs += differ;
        if (o->verbose || !(he && hg) || differ) {
            print_vector(&v, first + j, (const uint8_t **)in, j);
            if (he) {
                printf(" emu ");
                hex_print(stdout, emu + j * w, w);
            }
            if (hg) {
                printf(" gpu ");
                hex_print(stdout, gpu + j * w, w);
            }
            puts(differ ? "  <-- differs" : "");
        }
    }
    if (he && hg)
        printf("%s chunk %ld: %zu of %zu vectors differ\n", name, chunk, diffs, n);
    for (unsigned s = 0; s < 4; s++)
        free(in[s]);
    free(emu);
    free(gpu);
    return diffs ? 1 : 0;
}

/* measure: for a recorded .approx (or .full) variant whose GPU outputs are in --raw, run
 * the emulator, and record per chunk its digest and largest ulp difference, and the bound
 * (the largest over the chunks and the specials); refused when a NaN, an infinity or a
 * zero differs anywhere. */
static int cmd_measure(const opts_t *o, names_t *ns)
{
    int bad = 0;
    for (size_t i = 0; i < ns->n; i++) {
        variant_t v;
        if (!variant_parse(ns->names[i], &v) || !v.approx)
            continue;
        unsigned w = kind_bytes[v.dk];
        char path[4096];
        fz_path(path, sizeof path, o->dir, v.name, ".fz");
        record_t r;
        if (!record_load(path, w, &r))
            continue;
        size_t n = r.nspecial + (size_t)r.nchunks * CHUNK;
        uint8_t *gpu = malloc(n * w), *emu = malloc(n * w);
        char rpath[4096], err[512];
        fz_path(rpath, sizeof rpath, o->raw, v.name, ".bin");
        FILE *f = fopen(rpath, "rb");
        bool have = f && fread(gpu, w, n, f) == n;
        if (f)
            fclose(f);
        if (!have || variant_run(&v, BE_EMU, 0, n, emu, err, sizeof err) != ISA_ST_OK) {
            printf("not measured %s: %s\n", v.name, have ? err : "no raw GPU outputs");
            bad = 1;
        } else {
            int64_t worst = max_ulp(v.dk, emu, gpu, r.nspecial);
            for (unsigned c = 0; c < r.nchunks; c++) {
                size_t off = (r.nspecial + (size_t)c * CHUNK) * w;
                r.emu[c] = fnv1a(emu + off, (size_t)CHUNK * w, 0xcbf29ce484222325ull);
                r.ulp[c] = max_ulp(v.dk, emu + off, gpu + off, CHUNK);
                if (r.ulp[c] > worst)
                    worst = r.ulp[c];
            }
            if (worst == INT64_MAX) {
                /* A NaN, infinity or zero differs: no bound can cover that. */
                printf("not measured %s: a NaN, infinity or zero differs from the GPU's\n", v.name);
                bad = 1;
            } else {
                r.bound = worst;
                if (worst == 0)
                    for (unsigned c = 0; c < r.nchunks; c++)
                        r.ulp[c] = -1;
                if (worst == 0)
                    r.bound = -1;
                printf("measured %s: max %lld ulp\n", v.name, (long long)worst);
                if (!record_save(path, &r, w))
                    bad = 2;
            }
        }
        free(gpu);
        free(emu);
        record_free(&r);
    }
    return bad;
}

static void usage(FILE *f)
{
    fputs("usage: ptxfuzz list [--sm100]\n"
          "       ptxfuzz record [--dir DIR] [--raw DIR] [--backend cuda|emu] [--chunks N] [NAME...]\n"
          "       ptxfuzz replay [--dir DIR] [-v] [NAME...]\n"
          "       ptxfuzz show [--backend emu|cuda|both] [--raw DIR] [-v] NAME CHUNK   (CHUNK -1: the specials)\n"
          "       ptxfuzz kernel [--backend emu|cuda] NAME\n"
          "       ptxfuzz measure [--dir DIR] --raw DIR [NAME...]\n"
          "       ptxfuzz doc [--dir DIR]   (the verification status page, from the source root)\n", f);
}

/* Whether a variant needs sm_100 and is recorded through its sm_90 equivalent (doc). */
static bool via_sm90(const char *name)
{
    variant_t v;
    return variant_parse(name, &v) && v.sm100;
}
static void list_sm100(const char *name, void *ctx)
{
    if (via_sm90(name))
        list_one(name, ctx);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    opts_t o = { "tests/fuzz", NULL, BE_EMU, NCHUNKS, false };
    names_t ns = { 0 };
    bool sm100 = false;
    int i = 2;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] && !(argv[i][1] >= '0' && argv[i][1] <= '9'); i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0) {
            o.verbose = true;
        } else if (strcmp(a, "--sm100") == 0) {
            sm100 = true;
        } else if (i + 1 < argc && strcmp(a, "--dir") == 0) {
            o.dir = argv[++i];
        } else if (i + 1 < argc && strcmp(a, "--raw") == 0) {
            o.raw = argv[++i];
        } else if (i + 1 < argc && strcmp(a, "--chunks") == 0) {
            o.nchunks = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (i + 1 < argc && strcmp(a, "--backend") == 0) {
            const char *b = argv[++i];
            o.backend = strcmp(b, "cuda") == 0 ? BE_CUDA : strcmp(b, "both") == 0 ? BE_EMU | BE_CUDA : BE_EMU;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (strcmp(cmd, "list") == 0) {
        enumerate(sm100 ? list_sm100 : list_one, NULL);
        return 0;
    }
    if (strcmp(cmd, "doc") == 0)
        return fuzz_doc_write(stdout, o.dir, via_sm90);
    if (strcmp(cmd, "kernel") == 0) {
        variant_t v;
        if (argc - i != 1 || !variant_parse(argv[i], &v)) {
            usage(stderr);
            return 2;
        }
        fputs(variant_kernel(&v, o.backend == BE_CUDA), stdout);
        return 0;
    }
    if (strcmp(cmd, "show") == 0) {
        if (argc - i != 2) {
            usage(stderr);
            return 2;
        }
        return cmd_show(&o, argv[i], strtol(argv[i + 1], NULL, 10));
    }
    for (; i < argc; i++)
        collect(argv[i], &ns);
    if (strcmp(cmd, "record") == 0) {
        if (!ns.n)
            enumerate(collect, &ns);
        if (o.raw)
            mkdir(o.raw, 0777);
        mkdir(o.dir, 0777);
        return cmd_record(&o, &ns);
    }
    if (!ns.n)
        recorded_names(o.dir, &ns);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(&o, &ns);
    if (strcmp(cmd, "measure") == 0) {
        if (!o.raw) {
            usage(stderr);
            return 2;
        }
        return cmd_measure(&o, &ns);
    }
    usage(stderr);
    return 2;
}
/*}=====================================================================*/
