/* atom.c: the lane semantics of atom and red: one memory element's new value from its
 * old value and the operands, for every operation and element type.  The memory side
 * (addresses, host atomics, combining the lanes of a warp) is exec/mem/atomic.c's. */
#include "isa/sem/f32r.h"
#include "isa/sem/sem.h"

/* Hardware rules (recorded on the H100, tests/golden/atom_*):
 * - inc gives (old >= b) ? 0 : old + 1, dec gives (old == 0 || old > b) ? b : old - 1
 *   (the PTX manual's definitions);
 * - f32 add rounds to nearest; in global memory it flushes subnormal inputs and results
 *   to zero of their sign (the ftz variant), in shared memory it keeps them;
 * - f64, f16 and bf16 adds round to nearest and keep subnormals (.noftz);
 * - a NaN result: f32, f16 and bf16 give their canonical NaN (0x7fffffff, 0x7fff), as
 *   the ALU does; f64 propagates an operand's NaN, by rules that differ between global
 *   and shared memory (add_f64_global, add_f64);
 * - f16/bf16 min and max: a NaN operand yields the other operand, -0 is below +0;
 * - a packed x2 element applies the operation to each 16-bit half. */

#define LO16(x) ((uint16_t)(x))
#define HI16(x) ((uint16_t)((x) >> 16))
#define PACK16(lo, hi) ((uint64_t)(lo) | (uint64_t)(hi) << 16)

static uint64_t add_u32(uint64_t o, uint64_t b, uint64_t c) { (void)c; return (uint32_t)(o + b); }
static uint64_t add_u64(uint64_t o, uint64_t b, uint64_t c) { (void)c; return o + b; }
static uint64_t add_f32(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    return f32_bits(f32_canon(f32_of((uint32_t)o) + f32_of((uint32_t)b)));   /* the host's: to nearest */
}
static uint64_t add_f32_ftz(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    return f32_bits(f32_add_rn_ftz(f32_of((uint32_t)o), f32_of((uint32_t)b)));
}
/* f64 NaNs differ by memory (recorded): in shared memory the old value's NaN comes
 * first, then b's, each quieted (as the ALU's add.f64 with a first); in global memory b's
 * NaN first, then the old value's, each as it is (a signalling NaN stays one).  An
 * invalid sum (inf - inf) gives the default NaN in both. */
static uint64_t add_f64(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    double x = f64_of(o), y = f64_of(b);
    return f64_bits(f64_nan_ab(x, y, x + y));
}
static uint64_t add_f64_global(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    double x = f64_of(o), y = f64_of(b), r = x + y;
    if (y != y)
        return b;
    if (x != x)
        return o;
    return r != r ? F64_DEFAULT_NAN : f64_bits(r);
}
static uint64_t add_f16(uint64_t o, uint64_t b, uint64_t c) { (void)c; return isa_half_add(LO16(o), LO16(b), false); }
static uint64_t add_bf16(uint64_t o, uint64_t b, uint64_t c) { (void)c; return isa_half_add(LO16(o), LO16(b), true); }
static uint64_t add_f16x2(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    return PACK16(isa_half_add(LO16(o), LO16(b), false), isa_half_add(HI16(o), HI16(b), false));
}
static uint64_t add_bf16x2(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    return PACK16(isa_half_add(LO16(o), LO16(b), true), isa_half_add(HI16(o), HI16(b), true));
}

#define MINMAX_INT(NAME, T, OP)                                                                  \
    static uint64_t NAME(uint64_t o, uint64_t b, uint64_t c)                                     \
    {                                                                                            \
        (void)c;                                                                                 \
        T x = (T)o, y = (T)b;                                                                    \
        return (uint64_t)(T)(y OP x ? y : x);                                                    \
    }
MINMAX_INT(min_u32, uint32_t, <)
MINMAX_INT(max_u32, uint32_t, >)
MINMAX_INT(min_u64, uint64_t, <)
MINMAX_INT(max_u64, uint64_t, >)
/* Signed 32-bit results are kept zero-extended in the carrier. */
static uint64_t min_s32(uint64_t o, uint64_t b, uint64_t c) { (void)c; return (uint32_t)((int32_t)b < (int32_t)o ? b : o); }
static uint64_t max_s32(uint64_t o, uint64_t b, uint64_t c) { (void)c; return (uint32_t)((int32_t)b > (int32_t)o ? b : o); }
static uint64_t min_s64(uint64_t o, uint64_t b, uint64_t c) { (void)c; return (int64_t)b < (int64_t)o ? b : o; }
static uint64_t max_s64(uint64_t o, uint64_t b, uint64_t c) { (void)c; return (int64_t)b > (int64_t)o ? b : o; }

#define MINMAX_HALF(NAME, BF, MAX)                                                               \
    static uint64_t NAME(uint64_t o, uint64_t b, uint64_t c)                                     \
    {                                                                                            \
        (void)c;                                                                                 \
        return isa_half_minmax(LO16(o), LO16(b), BF, MAX);                                       \
    }                                                                                            \
    static uint64_t NAME##x2(uint64_t o, uint64_t b, uint64_t c)                                 \
    {                                                                                            \
        (void)c;                                                                                 \
        return PACK16(isa_half_minmax(LO16(o), LO16(b), BF, MAX),                                \
                      isa_half_minmax(HI16(o), HI16(b), BF, MAX));                               \
    }
MINMAX_HALF(min_f16, false, false)
MINMAX_HALF(max_f16, false, true)
MINMAX_HALF(min_bf16, true, false)
MINMAX_HALF(max_bf16, true, true)

static uint64_t inc_u32(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    return (uint32_t)o >= (uint32_t)b ? 0 : (uint32_t)o + 1;
}
static uint64_t dec_u32(uint64_t o, uint64_t b, uint64_t c)
{
    (void)c;
    return (uint32_t)o == 0 || (uint32_t)o > (uint32_t)b ? (uint32_t)b : (uint32_t)o - 1;
}
static uint64_t and_b(uint64_t o, uint64_t b, uint64_t c) { (void)c; return o & b; }
static uint64_t or_b(uint64_t o, uint64_t b, uint64_t c) { (void)c; return o | b; }
static uint64_t xor_b(uint64_t o, uint64_t b, uint64_t c) { (void)c; return o ^ b; }
static uint64_t exch_b(uint64_t o, uint64_t b, uint64_t c) { (void)o; (void)c; return b; }
static uint64_t cas_b(uint64_t o, uint64_t b, uint64_t c) { return o == b ? c : o; }

/* The table isa_sem_atom indexes; entry 0 is "none". */
const isa_atom_fn_t isa_atom_fns[] = {
    NULL,
    add_u32, add_u64, add_f32, add_f32_ftz, add_f64, add_f64_global, add_f16, add_bf16, add_f16x2, add_bf16x2,
    min_u32, max_u32, min_s32, max_s32, min_u64, max_u64, min_s64, max_s64,
    min_f16, max_f16, min_bf16, max_bf16, min_f16x2, max_f16x2, min_bf16x2, max_bf16x2,
    inc_u32, dec_u32, and_b, or_b, xor_b, exch_b, cas_b,
};
enum {
    A_NONE,
    A_ADD_U32, A_ADD_U64, A_ADD_F32, A_ADD_F32_FTZ, A_ADD_F64, A_ADD_F64_GLOBAL, A_ADD_F16, A_ADD_BF16, A_ADD_F16X2, A_ADD_BF16X2,
    A_MIN_U32, A_MAX_U32, A_MIN_S32, A_MAX_S32, A_MIN_U64, A_MAX_U64, A_MIN_S64, A_MAX_S64,
    A_MIN_F16, A_MAX_F16, A_MIN_BF16, A_MAX_BF16, A_MIN_F16X2, A_MAX_F16X2, A_MIN_BF16X2, A_MAX_BF16X2,
    A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_COUNT
};
_Static_assert(sizeof isa_atom_fns / sizeof isa_atom_fns[0] == A_COUNT, "atom table and its ids differ");

unsigned isa_sem_atom(unsigned op, isa_type_t t, bool global)
{
    unsigned bits = isa_types[t].bits;
    isa_tclass_t cls = isa_types[t].cls;
    bool sgn = cls == ISA_TC_SINT;
    switch (op) {
    case ISA_M_ADD:
        switch (t) {
        case ISA_T_U32: case ISA_T_S32: return A_ADD_U32;
        case ISA_T_U64: return A_ADD_U64;
        case ISA_T_F32: return global ? A_ADD_F32_FTZ : A_ADD_F32;
        case ISA_T_F64: return global ? A_ADD_F64_GLOBAL : A_ADD_F64;
        case ISA_T_F16: return A_ADD_F16;
        case ISA_T_BF16: return A_ADD_BF16;
        case ISA_T_F16X2: return A_ADD_F16X2;
        case ISA_T_BF16X2: return A_ADD_BF16X2;
        default: return A_NONE;
        }
    case ISA_M_MIN:
    case ISA_M_MAX: {
        bool max = op == ISA_M_MAX;
        switch (t) {
        case ISA_T_U32: case ISA_T_S32: return sgn ? (max ? A_MAX_S32 : A_MIN_S32) : (max ? A_MAX_U32 : A_MIN_U32);
        case ISA_T_U64: case ISA_T_S64: return sgn ? (max ? A_MAX_S64 : A_MIN_S64) : (max ? A_MAX_U64 : A_MIN_U64);
        case ISA_T_F16: return max ? A_MAX_F16 : A_MIN_F16;
        case ISA_T_BF16: return max ? A_MAX_BF16 : A_MIN_BF16;
        case ISA_T_F16X2: return max ? A_MAX_F16X2 : A_MIN_F16X2;
        case ISA_T_BF16X2: return max ? A_MAX_BF16X2 : A_MIN_BF16X2;
        default: return A_NONE;
        }
    }
    case ISA_M_INC: return t == ISA_T_U32 ? A_INC : A_NONE;
    case ISA_M_DEC: return t == ISA_T_U32 ? A_DEC : A_NONE;
    case ISA_M_AND: return cls == ISA_TC_BIT && (bits == 32 || bits == 64) ? A_AND : A_NONE;
    case ISA_M_OR: return cls == ISA_TC_BIT && (bits == 32 || bits == 64) ? A_OR : A_NONE;
    case ISA_M_XOR: return cls == ISA_TC_BIT && (bits == 32 || bits == 64) ? A_XOR : A_NONE;
    case ISA_M_EXCH: return cls == ISA_TC_BIT && (bits == 32 || bits == 64) ? A_EXCH : A_NONE;
    case ISA_M_CAS: return cls == ISA_TC_BIT && (bits == 16 || bits == 32 || bits == 64) ? A_CAS : A_NONE;
    default: return A_NONE;
    }
}
