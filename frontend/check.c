/* check.c: validation of the lowered IR against the PTX rules that the tables state:
 * type arity and type sets, operand counts and kinds (shapes.def), register and guard
 * types, labels and call targets, and the .target / .version each feature needs. */
#include "frontend/internal.h"

#include <string.h>

typedef struct {
    fe_ctx_t            *c;
    const isa_module_t  *m;
    const isa_func_t    *f;
    unsigned             sm_num;    /* the module's .target, ordered (0 when absent) */
    unsigned             ptx;       /* version as major*10+minor */
} check_t;

#define CERR(K, loc, ...) fe_error((K)->c, fe_span_of(loc), __VA_ARGS__)

/* ops.def and rules.def name targets as SM_<n> / PTX_<nn>. */
enum {
#define ISA_SM(id, text, num, ptx) id##_ = ISA_##id,
#define ISA_PTXV(id, maj, min) id##_ = ISA_##id,
#include "isa/targets.def"
#undef ISA_SM
#undef ISA_PTXV
};

static unsigned ptx_of(isa_ptxv_t v)
{
    return isa_ptxvs[v].major * 10 + isa_ptxvs[v].minor;
}

/* An "a"/"f" target (sm_90a) meets the requirement of its base (sm_90) and of
 * older targets; a requirement of sm_90a is met only by sm_90a itself or newer "a"s of
 * the same family.  Plain targets compare by number. */
static bool sm_meets(unsigned have, isa_sm_t need)
{
    unsigned want = isa_sms[need].num;
    if (want == 0 || have == 0)
        return true;
    if (want % 10 == 0)
        return have / 10 >= want / 10;
    return have / 10 == want / 10 && have % 10 != 0;
}

static void check_requirement(check_t *K, isa_loc_t loc, const char *what, isa_sm_t sm, isa_ptxv_t ptx)
{
    if (!sm_meets(K->sm_num, sm))
        CERR(K, loc, "%s requires .target %s or newer", what, isa_sms[sm].text);
    if (K->ptx && ptx_of(ptx) > K->ptx)
        CERR(K, loc, "%s requires PTX ISA version %u.%u or newer", what, isa_ptxvs[ptx].major,
             isa_ptxvs[ptx].minor);
}

static const isa_reg_t *reg_of(check_t *K, const isa_operand_t *o)
{
    return o->kind == ISA_OPD_REG ? &K->f->regs[o->u.reg] : NULL;
}

static bool is_pred_reg(check_t *K, const isa_operand_t *o)
{
    const isa_reg_t *r = reg_of(K, o);
    return r && r->type == ISA_T_PRED;
}

static const char *kind_name(char k)
{
    switch (k) {
    case 'd': return "a destination register";
    case 'e': return "a destination register (optionally with a predicate: d|p)";
    case 'p': return "a predicate destination";
    case 's': return "a source operand";
    case 'q': return "a predicate";
    case 'a': return "a memory address [..]";
    case 't': return "a label";
    case 'f': return "a function";
    case 'l': return "a parenthesised parameter list";
    default:  return "an operand";
    }
}

/* Whether an operand fits an operand-kind letter of shapes.def. */
static bool kind_ok(check_t *K, char k, const isa_operand_t *o)
{
    const isa_operand_t *pool = K->f->opds;
    switch (k) {
    case 'd':
        if (o->kind == ISA_OPD_VEC) {
            for (uint32_t i = 0; i < o->count; i++)
                if (pool[o->u.first + i].kind != ISA_OPD_REG && pool[o->u.first + i].kind != ISA_OPD_SINK)
                    return false;
            return true;
        }
        return (o->kind == ISA_OPD_REG || o->kind == ISA_OPD_SINK) &&
               !(o->flags & (ISA_OPDF_NEG | ISA_OPDF_MINUS | ISA_OPDF_REGOFF));
    case 'e':
        if (o->kind == ISA_OPD_DUAL)
            return kind_ok(K, 'd', &pool[o->u.first]) &&
                   (is_pred_reg(K, &pool[o->u.first + 1]) || pool[o->u.first + 1].kind == ISA_OPD_SINK);
        return kind_ok(K, 'd', o);
    case 'p':
        if (o->kind == ISA_OPD_DUAL)
            return kind_ok(K, 'p', &pool[o->u.first]) && kind_ok(K, 'p', &pool[o->u.first + 1]);
        return o->kind == ISA_OPD_SINK ||
               (is_pred_reg(K, o) && !(o->flags & (ISA_OPDF_NEG | ISA_OPDF_MINUS | ISA_OPDF_REGOFF)));
    case 's':
        if ((o->flags & ISA_OPDF_NEG) && !is_pred_reg(K, o))
            return false;
        switch (o->kind) {
        case ISA_OPD_REG: case ISA_OPD_IMM: case ISA_OPD_F32: case ISA_OPD_F64: case ISA_OPD_SREG:
        case ISA_OPD_SYM: case ISA_OPD_FUNC: case ISA_OPD_VEC: case ISA_OPD_SINK:
            return true;
        default:
            return false;
        }
    case 'q':
        return is_pred_reg(K, o) || o->kind == ISA_OPD_IMM;
    case 'a':
        return o->kind == ISA_OPD_ADDR;
    case 't':
        return o->kind == ISA_OPD_LABEL;
    case 'f':
        return o->kind == ISA_OPD_FUNC || o->kind == ISA_OPD_REG;
    case 'l':
        return o->kind == ISA_OPD_LIST;
    default:
        return true;
    }
}

/* Register-type compatibility with an instruction type, per the PTX operand type rules:
 * a bit-size type accepts any register of its size; integer types accept integer or
 * bit registers of their size; float types accept float or bit registers of their size;
 * a pair type (f16x2, u16x2) its own or bit registers, and a pair's register serves
 * integer instructions too;
 * "relaxed" (ld, st) also accepts wider registers: integer or bit ones for integer
 * types, bit ones for float types, and any for bit types (ld.b16 into an .f32 or an
 * .f16x2 register), as ptxas does. */
static bool reg_type_ok(isa_type_t insn, isa_type_t reg, bool relaxed)
{
    const isa_type_info_t *ti = &isa_types[insn], *ri = &isa_types[reg];
    if (insn == ISA_T_PRED || reg == ISA_T_PRED)
        return insn == reg;
    if (ti->bits == ri->bits) {
        if (ti->cls == ISA_TC_BIT || ri->cls == ISA_TC_BIT)
            return true;
        bool ti_int = ti->cls == ISA_TC_UINT || ti->cls == ISA_TC_SINT;
        bool ri_int = ri->cls == ISA_TC_UINT || ri->cls == ISA_TC_SINT;
        if (ti_int && ri_int)
            return true;
        if (ti->cls == ISA_TC_FLOAT && ri->cls == ISA_TC_FLOAT)
            return insn == reg;
        /* a pair (f16x2, u16x2) takes a bit register or its own; a pair's register also
         * serves integer instructions, as a bit register would (ptxas) */
        bool int_pair = insn == ISA_T_U16X2 || insn == ISA_T_S16X2;
        return insn == reg || (ri->cls == ISA_TC_PACKED && (ti_int || int_pair));
    }
    if (relaxed && ri->bits > ti->bits) {
        if (ti->cls == ISA_TC_BIT)
            return true;
        if (ti->cls == ISA_TC_FLOAT || ti->cls == ISA_TC_PACKED)
            return ri->cls == ISA_TC_BIT;
        return ri->cls == ISA_TC_BIT || ri->cls == ISA_TC_UINT || ri->cls == ISA_TC_SINT;
    }
    return false;
}

/* Twice as wide an integer type (mul.wide, mad.wide), or ISA_T__COUNT. */
static isa_type_t wide_type(isa_type_t t)
{
    return t == ISA_T_U16 ? ISA_T_U32 : t == ISA_T_S16 ? ISA_T_S32 : t == ISA_T_U32 ? ISA_T_U64
         : t == ISA_T_S32 ? ISA_T_S64 : ISA_T__COUNT;
}

/* The type a register source of an arithmetic, logic or comparison instruction carries
 * (ISA_T__COUNT when it is not checked here: shift counts, bit positions, predicates,
 * the families with operands of their own types); mad.wide's addend is twice as wide.  Mixed
 * precision (add.f32.f16 d, a, c; fma.f32.f16 d, a, b, c): the half sources take the
 * second type. */
static isa_type_t src_type(const isa_instr_t *in, unsigned i)
{
    isa_type_t t0 = (isa_type_t)in->types[0], t1 = in->ntypes > 1 ? (isa_type_t)in->types[1] : t0;
    switch ((isa_op_t)in->op) {
    case ISA_OP_ADD: case ISA_OP_SUB:
        return in->ntypes == 2 && i == 1 ? t1 : t0;
    case ISA_OP_FMA:
        return in->ntypes == 2 && i < 3 ? t1 : t0;
    case ISA_OP_MAD:
        return i == 3 && isa_instr_mod(in, ISA_G_MULMODE) == ISA_M_WIDE ? wide_type(t0) : t0;
    case ISA_OP_SET:
        return i < 3 ? t1 : ISA_T__COUNT;
    case ISA_OP_SETP: case ISA_OP_SELP:
        return i < 3 ? t0 : ISA_T__COUNT;
    case ISA_OP_SLCT:
        return i < 3 ? t0 : t1;
    case ISA_OP_MUL: case ISA_OP_MUL24: case ISA_OP_MAD24: case ISA_OP_SAD: case ISA_OP_DIV:
    case ISA_OP_REM: case ISA_OP_ABS: case ISA_OP_NEG: case ISA_OP_MIN: case ISA_OP_MAX:
    case ISA_OP_ADDC: case ISA_OP_SUBC: case ISA_OP_MADC: case ISA_OP_POPC: case ISA_OP_CLZ:
    case ISA_OP_BFIND: case ISA_OP_BREV: case ISA_OP_RCP: case ISA_OP_SQRT: case ISA_OP_RSQRT:
    case ISA_OP_SIN: case ISA_OP_COS: case ISA_OP_LG2: case ISA_OP_EX2: case ISA_OP_TANH:
    case ISA_OP_COPYSIGN: case ISA_OP_TESTP: case ISA_OP_AND: case ISA_OP_OR: case ISA_OP_XOR:
    case ISA_OP_NOT: case ISA_OP_CNOT:
        return t0;
    default:
        return ISA_T__COUNT;
    }
}

/* The destination's type where check_data_regs does not check it (opcodes without a
 * destination of the instruction type, the .wide products), or ISA_T__COUNT. */
static isa_type_t dst_type(const isa_instr_t *in)
{
    isa_type_t t0 = (isa_type_t)in->types[0];
    switch ((isa_op_t)in->op) {
    case ISA_OP_MUL: case ISA_OP_MAD:
        return isa_instr_mod(in, ISA_G_MULMODE) == ISA_M_WIDE ? wide_type(t0) : ISA_T__COUNT;
    case ISA_OP_POPC: case ISA_OP_CLZ: case ISA_OP_BFIND:
        return ISA_T_U32;
    case ISA_OP_SET: case ISA_OP_SLCT: case ISA_OP_ADDC: case ISA_OP_SUBC: case ISA_OP_MADC:
    case ISA_OP_MUL24: case ISA_OP_MAD24: case ISA_OP_SAD:
        return isa_ops[in->op].flags & ISA_OF_DTYPE ? ISA_T__COUNT : t0;
    default:
        return ISA_T__COUNT;
    }
}

/* The type of operand i of the instructions whose operand types src_type leaves out, for
 * the check of constants (ISA_T__COUNT: not checked). */
static isa_type_t opd_type(const isa_instr_t *in, unsigned i)
{
    isa_type_t t0 = (isa_type_t)in->types[0], t1 = in->ntypes > 1 ? (isa_type_t)in->types[1] : t0;
    isa_type_t st = src_type(in, i);
    if (st != ISA_T__COUNT || i == 0)
        return st;
    switch ((isa_op_t)in->op) {
    case ISA_OP_MOV: case ISA_OP_ST: case ISA_OP_RED:
        return t0;
    case ISA_OP_ATOM:
        return i >= 2 ? t0 : ISA_T__COUNT;
    case ISA_OP_CVT:
        return isa_instr_mod(in, ISA_G_ROUND) == ISA_M_RS && i + 1 == in->nopd ? ISA_T__COUNT : t1;
    case ISA_OP_SHL: case ISA_OP_SHR:
        return i == 1 ? t0 : ISA_T_U32;
    case ISA_OP_BFE:
        return i == 1 ? t0 : ISA_T_U32;
    case ISA_OP_BFI:
        return i <= 2 ? t0 : ISA_T_U32;
    case ISA_OP_PRMT: case ISA_OP_SHFL:
        return ISA_T_B32;
    case ISA_OP_LOP3:
        return i <= 3 ? t0 : ISA_T__COUNT;
    case ISA_OP_SETP: case ISA_OP_SELP: case ISA_OP_SET:
        return ISA_T_PRED;          /* c, the predicate source */
    case ISA_OP_VOTE:
        return i + 1 == in->nopd && in->nopd == 3 ? ISA_T_U32 : ISA_T__COUNT;   /* membermask */
    default:
        return ISA_T__COUNT;
    }
}

/* A constant for an operand of type t (ptxas, measured over the instruction classes): a
 * floating-point operand takes no integer constant (mov.f32 %f1, 1 is refused: 1.0 or
 * 0f3F800000); an integer or predicate operand no floating-point one; a bit-size
 * operand takes an integer, or a float literal of its own width only: 0f for .b32,
 * 0d or a decimal (a double) for .b64, none for .b16 and .b8. */
static void check_const(check_t *K, const isa_operand_t *o, isa_type_t t)
{
    const isa_type_info_t *ti = &isa_types[t];
    bool flt = o->kind == ISA_OPD_F32 || o->kind == ISA_OPD_F64;
    const char *kind = o->kind == ISA_OPD_F32 ? "a 32-bit (0f) floating-point constant"
                     : o->kind == ISA_OPD_F64 ? "a 64-bit (0d or decimal) floating-point constant"
                                          : "an integer constant";
    bool bad;
    if (t == ISA_T_PRED || ti->cls == ISA_TC_UINT || ti->cls == ISA_TC_SINT)
        bad = flt;
    else if (ti->cls == ISA_TC_FLOAT)
        bad = o->kind == ISA_OPD_IMM;
    else if (ti->cls == ISA_TC_BIT)
        bad = flt && ti->bits != (o->kind == ISA_OPD_F32 ? 32u : 64u);
    else
        bad = false;
    if (bad)
        CERR(K, o->loc, "%s cannot be a .%s operand", kind, ti->text);
}

/* Register operands must fit their types (reg_type_ok), as ptxas requires: the sources
 * of the arithmetic, logic and comparison instructions (add.u32 %r1, %rd1, %r2 is
 * refused) and the destinations check_data_regs leaves (mul.wide.u32 %r1, ...); and an
 * f16, bf16 or pair operand is never an immediate (add.f16 %h1, %h2, 0x3c00 is refused,
 * and so is one of atom or red). */
static void check_opd_regs(check_t *K, const isa_instr_t *in)
{
    if (in->op == ISA_OP_BAR || in->op == ISA_OP_BARRIER) {
        /* the barrier id and thread count are integers (bar.sync 0f3F800000 is refused) */
        for (unsigned i = 0; i < in->nopd; i++) {
            const isa_operand_t *o = &K->f->opds[in->opd + i];
            if (o->kind == ISA_OPD_F32 || o->kind == ISA_OPD_F64)
                check_const(K, o, ISA_T_U32);
        }
    }
    if (in->ntypes == 0)
        return;
    for (unsigned i = 0; i < in->nopd; i++) {
        isa_type_t t = i == 0 ? dst_type(in) : src_type(in, i);
        const isa_operand_t *o = &K->f->opds[in->opd + i];
        const isa_reg_t *r = reg_of(K, o);
        /* cvt.f32.f16 %f1, 1: no immediate is a half source of cvt either */
        isa_type_t ht = t == ISA_T__COUNT && i > 0 && in->op == ISA_OP_CVT ? opd_type(in, i) : t;
        /* atom.add.noftz.f16x2 %r1, [a], 0x3c003c00: nor of atom and red (ptxas: "Arguments
         * mismatch"); their f32, f64 and integer operands may be immediates */
        if ((in->op == ISA_OP_ATOM || in->op == ISA_OP_RED) && o->kind != ISA_OPD_ADDR)
            ht = (isa_type_t)in->types[0];
        bool half = ht == ISA_T_F16 || ht == ISA_T_BF16 || ht == ISA_T_F16X2 || ht == ISA_T_BF16X2;
        if (half && (o->kind == ISA_OPD_IMM || o->kind == ISA_OPD_F32 || o->kind == ISA_OPD_F64)) {
            CERR(K, o->loc, "an immediate cannot be a .%s operand (move it into a register first)",
                 isa_types[ht].text);
            continue;
        }
        isa_type_t ct = opd_type(in, i);
        if (ct != ISA_T__COUNT && !half && (o->kind == ISA_OPD_IMM || o->kind == ISA_OPD_F32 || o->kind == ISA_OPD_F64))
            check_const(K, o, ct);
        /* A vector of st: each constant element as a scalar operand of the type (a bit
         * type takes only float literals of its width, an integer type none), and no
         * mixing of integer and floating-point constants among bit elements. */
        if (ct != ISA_T__COUNT && o->kind == ISA_OPD_VEC && in->op == ISA_OP_ST) {
            bool ints = false, flts = false;
            for (uint32_t k = 0; k < o->count; k++) {
                const isa_operand_t *e = &K->f->opds[o->u.first + k];
                ints |= e->kind == ISA_OPD_IMM;
                flts |= e->kind == ISA_OPD_F32 || e->kind == ISA_OPD_F64;
                if (e->kind == ISA_OPD_IMM || e->kind == ISA_OPD_F32 || e->kind == ISA_OPD_F64)
                    check_const(K, e, ct);
            }
            if (ints && flts && isa_types[ct].cls == ISA_TC_BIT)
                CERR(K, o->loc, "the elements of a vector operand cannot mix integer and floating-point constants");
        }
        if (t == ISA_T__COUNT || !r || r->vec > 1 || o->sel)
            continue;
        if (!reg_type_ok(t, r->type, false))
            CERR(K, o->loc, "register '%s' of type .%s does not match the operand type .%s", r->name,
                 isa_types[r->type].text, isa_types[t].text);
    }
}

/* cvt's registers (ptxas, measured): a register narrower than its type is refused; a
 * wider one is accepted by the older conversions (integers, f16, f32, f64, f16x2 from
 * f32), but a conversion involving a newer format (bf16, bf16x2, tf32, the fp8/fp6/fp4
 * pairs and packs, ue8m0x2, or f16x2 as a source) takes every register at exactly its
 * type's width (cvt.f32.bf16 with a 64-bit destination is refused); the random bits of
 * .rs are a 32-bit register.  Besides, a register is a bit register, one of the type
 * itself, or an integer register for an integer type (a .f32 register does not hold a
 * tf32, nor a .u16 one an f16). */
static bool cvt_newer(isa_type_t t)
{
    switch (t) {
    case ISA_T_BF16: case ISA_T_BF16X2: case ISA_T_TF32: case ISA_T_E4M3X2: case ISA_T_E5M2X2:
    case ISA_T_E2M3X2: case ISA_T_E3M2X2: case ISA_T_E2M1X2: case ISA_T_UE8M0X2: case ISA_T_E4M3X4:
    case ISA_T_E5M2X4: case ISA_T_E2M3X4: case ISA_T_E3M2X4: case ISA_T_E2M1X4:
        return true;
    default:
        return false;
    }
}
static void check_cvt_reg(check_t *K, const isa_instr_t *in, unsigned slot, isa_type_t t, bool exact)
{
    const isa_reg_t *r = slot < in->nopd ? reg_of(K, &K->f->opds[in->opd + slot]) : NULL;
    if (!r || r->vec > 1 || r->type == ISA_T_PRED)
        return;
    unsigned have = isa_types[r->type].bits, want = isa_types[t].bits;
    char name[256];
    const isa_type_info_t *ti = &isa_types[t], *ri = &isa_types[r->type];
    bool ints = (ti->cls == ISA_TC_UINT || ti->cls == ISA_TC_SINT) && (ri->cls == ISA_TC_UINT || ri->cls == ISA_TC_SINT);
    if (ri->cls != ISA_TC_BIT && r->type != t && !ints) {
        CERR(K, K->f->opds[in->opd + slot].loc, "register '%s' of type .%s does not match the type .%s in '%s'",
             r->name, ri->text, ti->text, isa_instr_name(K->m, in, name, sizeof name));
        return;
    }
    if (exact ? have != want : have < want)
        CERR(K, K->f->opds[in->opd + slot].loc, "register '%s' of type .%s does not fit '%s': it needs %s%u bits",
             r->name, isa_types[r->type].text, isa_instr_name(K->m, in, name, sizeof name),
             exact ? "exactly " : "at least ", want);
}
static void check_cvt_regs(check_t *K, const isa_instr_t *in)
{
    if (in->op != ISA_OP_CVT || in->ntypes != 2)
        return;
    isa_type_t dt = (isa_type_t)in->types[0], st = (isa_type_t)in->types[1];
    bool exact = cvt_newer(dt) || cvt_newer(st) || st == ISA_T_F16X2;
    bool rs = isa_instr_mod(in, ISA_G_ROUND) == ISA_M_RS;
    unsigned nsrc = rs ? in->nopd - 2 : in->nopd - 1;   /* d, a{, b}{, rbits} */
    check_cvt_reg(K, in, 0, dt, exact);
    for (unsigned i = 1; i <= nsrc; i++)
        check_cvt_reg(K, in, i, st, exact);
    if (rs)
        check_cvt_reg(K, in, in->nopd - 1, ISA_T_B32, true);
}

/* The destination of simple one-type instructions (add.s32 d, a, b) must be a register
 * of the instruction's type; the same holds for ld destinations and st sources, with
 * the relaxed width rule. */
static void check_data_regs(check_t *K, const isa_instr_t *in)
{
    const isa_op_info_t *oi = &isa_ops[in->op];
    if (in->ntypes == 0 || in->nopd == 0)
        return;
    isa_type_t t = (isa_type_t)in->types[0];
    int slot = -1;
    bool relaxed = false;
    switch (in->op) {
    case ISA_OP_LD:
    case ISA_OP_LDU: slot = 0; relaxed = true; break;
    case ISA_OP_ST: slot = 1; relaxed = true; break;
    default:
        if (!(oi->flags & ISA_OF_DTYPE))
            return;
        if (isa_instr_mod(in, ISA_G_MULMODE) == ISA_M_WIDE)
            return;
        slot = 0;
    }
    const isa_operand_t *o = &K->f->opds[in->opd + slot];
    const isa_operand_t *elems = o;
    uint32_t n = 1;
    if (o->kind == ISA_OPD_VEC) {
        if (oi->family == ISA_FAM_MOV)
            return;             /* mov.b64 {a, b}, x unpacks into narrower registers */
        elems = &K->f->opds[o->u.first];
        n = o->count;
    }
    for (uint32_t i = 0; i < n; i++) {
        const isa_reg_t *r = reg_of(K, &elems[i]);
        if (!r || r->vec > 1)
            continue;
        if (!reg_type_ok(t, r->type, relaxed))
            CERR(K, elems[i].loc, "register '%s' of type .%s does not match the instruction type .%s",
                 r->name, isa_types[r->type].text, isa_types[t].text);
    }
}

/*{=====================================================================
 * Refinements from isa/rules.def
 *====================================================================*/

/* Space masks for the rules: one bit per spaces.def row, plus SPM_GENERIC for an
 * instruction that names no space (a generic address). */
enum {
#define ISA_SPACE(id, text, bits, win) SPM_##id = 1u << ISA_SP_##id,
#include "isa/spaces.def"
#undef ISA_SPACE
    SPM_GENERIC = 1u << ISA_SP__COUNT
};

/* Whether the nth type suffix is in a set; an absent suffix matches only ISA_TS_ALL
 * (the rows' "no condition"). */
static bool type_in(const isa_instr_t *in, unsigned nth, uint64_t types)
{
    if (nth >= in->ntypes)
        return types == ISA_TS_ALL || types == ISA_TM_NONE;
    return types >> in->types[nth] & 1;
}

static bool any_type_in(const isa_instr_t *in, uint64_t types)
{
    for (unsigned i = 0; i < in->ntypes; i++)
        if (types >> in->types[i] & 1)
            return true;
    return false;
}

static uint32_t space_mask(const isa_instr_t *in)
{
    uint32_t mask = 0;
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_SPACE)
            mask |= 1u << in->sfx[i].id;
    return mask ? mask : SPM_GENERIC;
}

/* Whether the instruction carries a modifier of one of the groups (G_ bits). */
static bool has_groups(const isa_instr_t *in, uint64_t groups)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if ((in->sfx[i].kind == ISA_SFX_MOD || in->sfx[i].kind == ISA_SFX_SPACE) && (groups >> in->sfx[i].group & 1))
            return true;
    return false;
}

/* "[legend] or [legend]" for a G_ mask, naming the groups in a diagnostic. */
static const char *groups_text(uint64_t groups, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (unsigned g = 0; g < ISA_G__COUNT && n < size; g++)
        if (groups >> g & 1)
            n += (size_t)snprintf(buf + n, size - n, "%s[%s]", n ? " or " : "", isa_groups[g].legend);
    return buf;
}

/* " with type .u32" / " with types .f32.f16" for a diagnostic. */
static const char *types_text(const isa_instr_t *in, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, in->ntypes > 1 ? " with types " : in->ntypes ? " with type " : "");
    for (unsigned i = 0; i < in->ntypes && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, ".%s", isa_types[in->types[i]].text);
    return buf;
}

static const char *space_text(const isa_instr_t *in)
{
    int sp = isa_instr_space(in, 0);
    return sp >= 0 ? isa_spaces[sp].text : "generic";
}

/* Where a modifier's validity depends on the types, the rows for one (opcode, group) or
 * (opcode, modifier) list the contexts where it is valid, and their union counts: each
 * suffix records whether some row spoke about it and whether one allowed it. */
typedef struct {
    bool grp_seen[ISA_MAX_SFX], grp_ok[ISA_MAX_SFX];
    bool mod_seen[ISA_MAX_SFX], mod_ok[ISA_MAX_SFX];
    bool pair_seen, pair_ok;
} allow_t;

static void allow_group(allow_t *A, const isa_instr_t *in, isa_group_t g, bool ok)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if ((in->sfx[i].kind == ISA_SFX_MOD || in->sfx[i].kind == ISA_SFX_SPACE) && in->sfx[i].group == g) {
            A->grp_seen[i] = true;
            A->grp_ok[i] |= ok;
        }
}

static void allow_mod(allow_t *A, const isa_instr_t *in, isa_mod_t m, bool ok)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_MOD && in->sfx[i].id == m) {
            A->mod_seen[i] = true;
            A->mod_ok[i] |= ok;
        }
}

static const char *sfx_text(const isa_instr_t *in, unsigned i)
{
    return in->sfx[i].kind == ISA_SFX_SPACE ? isa_spaces[in->sfx[i].id].text : isa_mods[in->sfx[i].id].text;
}

/* Whether the first operand (the destination, or the d of d|p) is the sink '_'. */
static bool sink_first(const check_t *K, const isa_operand_t *o)
{
    return o->kind == ISA_OPD_SINK || (o->kind == ISA_OPD_DUAL && K->f->opds[o->u.first].kind == ISA_OPD_SINK);
}

static void check_rules(check_t *K, const isa_instr_t *in)
{
    char name[256], tt[64], gt[512], what[300];
    allow_t A;
    memset(&A, 0, sizeof A);
    const uint32_t sp = space_mask(in);
#define NAME() isa_instr_name(K->m, in, name, sizeof name)
#define IS(opc) (in->op == ISA_OP_##opc)
#define ISA_RULE_GROUP(opc, g, types)                                                         \
    if (IS(opc)) allow_group(&A, in, ISA_G_##g, type_in(in, 0, types));
#define ISA_RULE_MOD(opc, mod, types)                                                         \
    if (IS(opc)) allow_mod(&A, in, ISA_M_##mod, type_in(in, 0, types));
#define ISA_RULE_MOD2(opc, mod, t1, t2)                                                       \
    if (IS(opc)) allow_mod(&A, in, ISA_M_##mod, type_in(in, 0, t1) && type_in(in, 1, t2));
#define ISA_RULE_BAN(opc, mod)                                                                \
    if (IS(opc)) allow_mod(&A, in, ISA_M_##mod, false);
#define ISA_RULE_PAIR(opc, t1, t2)                                                            \
    if (IS(opc) && in->ntypes == 2) {                                                         \
        A.pair_seen = true;                                                                   \
        A.pair_ok |= type_in(in, 0, t1) && type_in(in, 1, t2);                                \
    }
#define ISA_RULE_NEED(opc, groups, types)                                                     \
    if (IS(opc) && type_in(in, 0, types) && !has_groups(in, groups))                          \
        CERR(K, in->mloc, "'%s' needs a modifier %s", NAME(), groups_text(groups, gt, sizeof gt));
#define ISA_RULE_NEED2(opc, groups, t1, t2)                                                   \
    if (IS(opc) && type_in(in, 0, t1) && type_in(in, 1, t2) && !has_groups(in, groups))      \
        CERR(K, in->mloc, "'%s' needs a modifier %s", NAME(), groups_text(groups, gt, sizeof gt));
#define ISA_RULE_REQUIRES(opc, mod, types, groups)                                            \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && type_in(in, 0, types) && !has_groups(in, groups)) \
        CERR(K, in->mloc, "'.%s' in '%s' needs a modifier %s", isa_mods[ISA_M_##mod].text, \
             NAME(), groups_text(groups, gt, sizeof gt));
#define ISA_RULE_REQUIRES_MOD(opc, mod, need)                                                 \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && !isa_instr_has(in, ISA_M_##need))        \
        CERR(K, in->mloc, "'.%s' in '%s' needs '.%s'", isa_mods[ISA_M_##mod].text, NAME(),     \
             isa_mods[ISA_M_##need].text);
#define ISA_RULE_EXCLUSIVE(opc, mod, other)                                                   \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && isa_instr_has(in, ISA_M_##other))        \
        CERR(K, in->mloc, "'.%s' cannot be combined with '.%s' in '%s'", isa_mods[ISA_M_##mod].text, \
             isa_mods[ISA_M_##other].text, NAME());
#define ISA_RULE_EXCLUSIVE_TYPES(opc, mod, other, types)                                      \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && isa_instr_has(in, ISA_M_##other) &&      \
        type_in(in, 0, types))                                                                \
        CERR(K, in->mloc, "'.%s' cannot be combined with '.%s' in '%s'", isa_mods[ISA_M_##mod].text, \
             isa_mods[ISA_M_##other].text, NAME());
#define ISA_RULE_EXCLUSIVE_GROUP(opc, mod, g)                                                 \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && isa_instr_mod(in, ISA_G_##g) >= 0)       \
        CERR(K, in->mloc, "'.%s' cannot be combined with '.%s' in '%s'", isa_mods[ISA_M_##mod].text, \
             isa_mods[isa_instr_mod(in, ISA_G_##g)].text, NAME());
#define ISA_RULE_OPERANDS(opc, n, types, sm, ptx)                                             \
    if (IS(opc) && in->nopd == (n)) {                                                         \
        if (!type_in(in, 0, types))                                                           \
            CERR(K, in->mloc, "'%s' with %u operands is not valid%s", NAME(), (unsigned)(n),  \
                 types_text(in, tt, sizeof tt));                                              \
        snprintf(what, sizeof what, "%s with %u operands", NAME(), (unsigned)(n));            \
        check_requirement(K, in->mloc, what, (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);           \
    }
#define ISA_RULE_NTYPES(opc, n, tmask)                                                        \
    if (IS(opc) && type_in(in, 0, tmask) && in->ntypes != (n))                                \
        CERR(K, in->mloc, "'%s' needs %u type suffixes with .%s, not %u", NAME(), (unsigned)(n), \
             isa_types[in->types[0]].text, in->ntypes);
#define ISA_RULE_OPERANDS_BAN(opc, n, mod)                                                    \
    if (IS(opc) && in->nopd == (n) && isa_instr_has(in, ISA_M_##mod))                         \
        CERR(K, in->mloc, "'.%s' is not valid for '%s' with %u operands", isa_mods[ISA_M_##mod].text, \
             NAME(), (unsigned)(n));
#define ISA_RULE_OPERANDS_REQUIRES_MOD(opc, n, mod, need)                                     \
    if (IS(opc) && in->nopd == (n) && isa_instr_has(in, ISA_M_##mod) && !isa_instr_has(in, ISA_M_##need)) \
        CERR(K, in->mloc, "'.%s' in '%s' with %u operands needs '.%s'", isa_mods[ISA_M_##mod].text, \
             NAME(), (unsigned)(n), isa_mods[ISA_M_##need].text);
#define ISA_RULE_SPACES(opc, spaces)                                                          \
    if (IS(opc) && !(sp & (spaces)))                                                          \
        CERR(K, in->mloc, "'%s' is not valid in the %s state space", NAME(), space_text(in));
#define ISA_RULE_MOD_SPACE(opc, mod, spaces)                                                  \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && !(sp & (spaces)))                        \
        CERR(K, in->mloc, "'.%s' is not valid for '%s' in the %s state space",                \
             isa_mods[ISA_M_##mod].text, NAME(), space_text(in));
#define ISA_RULE_GROUP_SPACE(opc, g, spaces)                                                  \
    if (IS(opc) && isa_instr_mod(in, ISA_G_##g) >= 0 && !(sp & (spaces)))                     \
        CERR(K, in->mloc, "'.%s' is not valid for '%s' in the %s state space",                \
             isa_mods[isa_instr_mod(in, ISA_G_##g)].text, NAME(), space_text(in));
#define ISA_RULE_RETIRED(opc, groups, smv, ptxv)                                             \
    if (IS(opc) && !has_groups(in, groups) && K->sm_num && K->sm_num / 10 >= isa_sms[smv##_].num / 10 && \
        K->ptx >= ptx_of((isa_ptxv_t)ptxv##_))                                                \
        CERR(K, in->mloc, "'%s' without a modifier %s is not valid on .target %s or newer " \
             "from PTX ISA version %u.%u", NAME(), groups_text(groups, gt, sizeof gt),         \
             isa_sms[smv##_].text, isa_ptxvs[ptxv##_].major, isa_ptxvs[ptxv##_].minor);
#define ISA_RULE_TYPE_TARGET(opc, types, sm, ptx)                                             \
    if (IS(opc) && any_type_in(in, types))                                                    \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);
#define ISA_RULE_PAIR_TARGET(opc, t1, t2, sm, ptx)                                            \
    if (IS(opc) && type_in(in, 0, t1) && type_in(in, 1, t2))                                  \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);
#define ISA_RULE_MOD_TARGET(opc, mod, sm, ptx)                                                \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod))                                            \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);
#define ISA_RULE_MOD_TYPE_TARGET(opc, mod, types, sm, ptx)                                    \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && type_in(in, 0, types))                   \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);
#define ISA_RULE_MOD_PAIR_TARGET(opc, mod, t1, t2, sm, ptx)                                   \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && type_in(in, 0, t1) && type_in(in, 1, t2)) \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);
#define ISA_RULE_MODS_TYPE_TARGET(opc, mod, other, types, sm, ptx)                            \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && isa_instr_has(in, ISA_M_##other) &&      \
        type_in(in, 0, types))                                                                \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);
#define ISA_RULE_FIRST_SPACE_TARGET(opc, spaces, smv, ptxv)                                   \
    if (IS(opc) && isa_instr_space(in, 0) >= 0 && ((1u << isa_instr_space(in, 0)) & (spaces))) \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)smv##_, (isa_ptxv_t)ptxv##_);
#define ISA_RULE_OPERANDS_TARGET_UNLESS(opc, n, mod, smv, ptxv)                               \
    if (IS(opc) && in->nopd == (n) && !isa_instr_has(in, ISA_M_##mod)) {                      \
        snprintf(what, sizeof what, "%s with %u operands", NAME(), (unsigned)(n));            \
        check_requirement(K, in->mloc, what, (isa_sm_t)smv##_, (isa_ptxv_t)ptxv##_);          \
    }
#define ISA_RULE_PRED_OPERAND_TARGET(opc, i, smv, ptxv)                                       \
    if (IS(opc) && in->nopd > (i) && is_pred_reg(K, &K->f->opds[in->opd + (i)])) {           \
        snprintf(what, sizeof what, "%s with a predicate operand %u", NAME(), (unsigned)(i) + 1); \
        check_requirement(K, in->mloc, what, (isa_sm_t)smv##_, (isa_ptxv_t)ptxv##_);          \
    }
#define ISA_RULE_PAIR_BELOW_TARGET(opc, t1, t2, smv, ptxv)                                    \
    if (IS(opc) && type_in(in, 0, t1) && type_in(in, 1, t2) && K->ptx &&                      \
        !sm_meets(K->sm_num, (isa_sm_t)smv##_) && ptx_of((isa_ptxv_t)ptxv##_) > K->ptx)      \
        CERR(K, in->mloc, "%s requires PTX ISA version %u.%u or newer on a .target older than %s", \
             NAME(), isa_ptxvs[ptxv##_].major, isa_ptxvs[ptxv##_].minor, isa_sms[smv##_].text);
#define ISA_RULE_SPACE_TARGET(opc, spaces, sm, ptx)                                           \
    if (IS(opc) && (sp & (spaces)))                                                           \
        check_requirement(K, in->mloc, NAME(), (isa_sm_t)sm##_, (isa_ptxv_t)ptx##_);
#define ISA_RULE_NOSINK(opc, mod)                                                             \
    if (IS(opc) && isa_instr_has(in, ISA_M_##mod) && in->nopd && sink_first(K, &K->f->opds[in->opd])) \
        CERR(K, K->f->opds[in->opd].loc, "the result of '%s' cannot be discarded with '_'", NAME());
#include "isa/rules.def"
#undef ISA_RULE_GROUP
#undef ISA_RULE_NOSINK
#undef ISA_RULE_MOD
#undef ISA_RULE_MOD2
#undef ISA_RULE_BAN
#undef ISA_RULE_PAIR
#undef ISA_RULE_NEED
#undef ISA_RULE_NEED2
#undef ISA_RULE_REQUIRES
#undef ISA_RULE_REQUIRES_MOD
#undef ISA_RULE_EXCLUSIVE
#undef ISA_RULE_EXCLUSIVE_TYPES
#undef ISA_RULE_EXCLUSIVE_GROUP
#undef ISA_RULE_OPERANDS
#undef ISA_RULE_OPERANDS_BAN
#undef ISA_RULE_NTYPES
#undef ISA_RULE_OPERANDS_REQUIRES_MOD
#undef ISA_RULE_SPACES
#undef ISA_RULE_MOD_SPACE
#undef ISA_RULE_GROUP_SPACE
#undef ISA_RULE_RETIRED
#undef ISA_RULE_TYPE_TARGET
#undef ISA_RULE_PAIR_TARGET
#undef ISA_RULE_MOD_TARGET
#undef ISA_RULE_MOD_TYPE_TARGET
#undef ISA_RULE_MOD_PAIR_TARGET
#undef ISA_RULE_MODS_TYPE_TARGET
#undef ISA_RULE_SPACE_TARGET
#undef ISA_RULE_PAIR_BELOW_TARGET
#undef ISA_RULE_FIRST_SPACE_TARGET
#undef ISA_RULE_OPERANDS_TARGET_UNLESS
#undef ISA_RULE_PRED_OPERAND_TARGET
#undef IS
    for (unsigned i = 0; i < in->nsfx; i++)
        if ((A.grp_seen[i] && !A.grp_ok[i]) || (A.mod_seen[i] && !A.mod_ok[i]))
            CERR(K, in->mloc, "'.%s' is not valid for '%s'%s", sfx_text(in, i), NAME(),
                 types_text(in, tt, sizeof tt));
    if (A.pair_seen && !A.pair_ok)
        CERR(K, in->mloc, "'%s': the type .%s is not valid with .%s", NAME(),
             isa_types[in->types[0]].text, isa_types[in->types[1]].text);
#undef NAME
}
/*}=====================================================================*/

/*{=====================================================================
 * Operand forms: negated sources, video selectors, lop3's predicate form
 *====================================================================*/

/* A negated register source (-a) is PTX for vmad alone: a and b negate the product
 * (so -a, -b is no negation), and the product and c cannot both be negated; .po
 * takes no negation (ptxas). */
static void check_minus(check_t *K, const isa_instr_t *in)
{
    char name[256];
    if (!in->nopd)
        return;   /* (opds may be NULL in a function without operands) */
    const isa_operand_t *o = &K->f->opds[in->opd];
    bool neg[4] = { false, false, false, false };
    const isa_operand_t *first = NULL;
    for (unsigned i = 0; i < in->nopd; i++)
        if (o[i].flags & ISA_OPDF_MINUS) {
            if (i < 4)
                neg[i] = true;
            if (!first)
                first = &o[i];
            if (in->op != ISA_OP_VMAD)
                CERR(K, o[i].loc, "operand negation is not allowed for '%s'",
                     isa_instr_name(K->m, in, name, sizeof name));
        }
    if (!first || in->op != ISA_OP_VMAD)
        return;
    bool prod = neg[1] != neg[2];
    if (prod && neg[3])
        CERR(K, o[3].loc, "'%s' negates either the product (a or b) or c, not both",
             isa_instr_name(K->m, in, name, sizeof name));
    else if ((prod || neg[3]) && isa_instr_has(in, ISA_M_PO))
        CERR(K, first->loc, "'.po' cannot be combined with operand negation in '%s'",
             isa_instr_name(K->m, in, name, sizeof name));
}

/* Digits of a multi-field selector, most significant (first written) first, strictly
 * descending: a SIMD destination mask (.b310). */
static bool sel_descending(unsigned sel, unsigned fsel, unsigned maxd)
{
    unsigned n = ISA_SEL_NDIGITS(sel), prev = 16;
    for (unsigned k = n; k-- > 0;) {
        unsigned d = (fsel >> (4 * k)) & 0xf;
        if (d > maxd || d >= prev)
            return false;
        prev = d;
    }
    return true;
}

/* Which selectors operand i (0 d, 1 a, 2 b, 3 c) of a video instruction takes, as
 * ptxas accepts them: the scalar forms one byte or half-word on d, a and b (none on
 * vmad's d); the 2-way SIMD forms a mask .h0, .h1 or .h10 on d and .hxy (digits 0-3)
 * on a and b; the 4-way forms a mask of descending bytes 0-3 on d and .bxyzw (digits
 * 0-7) on a and b; c never. */
static bool video_sel_ok(const isa_instr_t *in, unsigned i, unsigned sel, unsigned fsel)
{
    if (i >= 3)
        return false;
    switch ((isa_op_t)in->op) {
    case ISA_OP_VADD2: case ISA_OP_VSUB2: case ISA_OP_VAVRG2: case ISA_OP_VABSDIFF2:
    case ISA_OP_VMIN2: case ISA_OP_VMAX2: case ISA_OP_VSET2:
        if (i == 0)
            return sel == ISA_SEL_H0 || sel == ISA_SEL_H1 || (sel == ISA_SEL_HXY && fsel == 0x10);
        return sel == ISA_SEL_HXY;
    case ISA_OP_VADD4: case ISA_OP_VSUB4: case ISA_OP_VAVRG4: case ISA_OP_VABSDIFF4:
    case ISA_OP_VMIN4: case ISA_OP_VMAX4: case ISA_OP_VSET4:
        if (i == 0)
            return (sel >= ISA_SEL_B0 && sel <= ISA_SEL_B3) ||
                   (ISA_SEL_MULTI(sel) && sel != ISA_SEL_HXY && sel_descending(sel, fsel, 3));
        return sel == ISA_SEL_BXYZW;
    default:
        return sel >= ISA_SEL_B0 && sel <= ISA_SEL_H1 && !(i == 0 && in->op == ISA_OP_VMAD);
    }
}

static void check_selectors(check_t *K, const isa_instr_t *in)
{
    char name[256], sb[8];
    bool video = isa_ops[in->op].family == ISA_FAM_VIDEO;
    for (unsigned i = 0; i < in->nopd; i++) {
        const isa_operand_t *o = &K->f->opds[in->opd + i];
        if (o->kind != ISA_OPD_REG || o->sel < ISA_SEL_B0)
            continue;
        if (!video)
            CERR(K, o->loc, "video selector '.%s' is not allowed on an operand of '%s'",
                 isa_sel_text(o->sel, o->fsel, sb, sizeof sb), isa_instr_name(K->m, in, name, sizeof name));
        else if (!video_sel_ok(in, i, o->sel, o->fsel))
            CERR(K, o->loc, "video selector '.%s' is not valid on operand %u of '%s'",
                 isa_sel_text(o->sel, o->fsel, sb, sizeof sb), i + 1,
                 isa_instr_name(K->m, in, name, sizeof name));
    }
}

/* The sink '_' discards a result, so ptxas takes it only among destinations: as the
 * destination, or the d of d|p, where the opcode may discard its result (ISA_OF_SINKD; a
 * rule can take that back for a modifier, ISA_RULE_NOSINK), as the p of d|p unless p
 * must be a register (ISA_OF_PREDOUT), and as elements of a vector destination that has a
 * register among them (the vector's element type comes from it). */
static void check_sink(check_t *K, const isa_instr_t *in)
{
    const isa_op_info_t *oi = &isa_ops[in->op];
    const isa_operand_t *pool = K->f->opds;
    char name[256];
    for (unsigned i = 0; i < in->nopd; i++) {
        const isa_operand_t *o = &pool[in->opd + i];
        char k = isa_shape_kind(oi->shape, i);
        bool dest = k == 'd' || k == 'e' || k == 'p';
        if (!dest && k != 's' && k != 'q')
            continue;           /* opcode-specific shapes (tex, mma) and call lists: their own checks */
        if (o->kind == ISA_OPD_VEC) {
            unsigned sinks = 0;
            for (uint32_t j = 0; j < o->count; j++)
                sinks += pool[o->u.first + j].kind == ISA_OPD_SINK;
            if (sinks && !dest)
                CERR(K, o->loc, "'_' is not allowed as a source operand of '%s'",
                     isa_instr_name(K->m, in, name, sizeof name));
            else if (sinks && sinks == o->count)
                CERR(K, o->loc, "a vector destination of '%s' needs a register among its elements",
                     isa_instr_name(K->m, in, name, sizeof name));
            continue;
        }
        if (!dest) {
            if (o->kind == ISA_OPD_SINK)
                CERR(K, o->loc, "'_' is not allowed as a source operand of '%s'",
                     isa_instr_name(K->m, in, name, sizeof name));
            continue;
        }
        if (o->kind == ISA_OPD_DUAL && pool[o->u.first].kind == ISA_OPD_SINK &&
            pool[o->u.first + 1].kind == ISA_OPD_SINK)
            CERR(K, o->loc, "'_|_' discards both results of '%s'",
                 isa_instr_name(K->m, in, name, sizeof name));
        else if (sink_first(K, o) && !(oi->flags & ISA_OF_SINKD))
            CERR(K, o->loc, "the result of '%s' cannot be discarded with '_'",
                 isa_instr_name(K->m, in, name, sizeof name));
        else if (o->kind == ISA_OPD_DUAL && pool[o->u.first + 1].kind == ISA_OPD_SINK && (oi->flags & ISA_OF_PREDOUT))
            CERR(K, pool[o->u.first + 1].loc, "'%s' needs a predicate register as p of d|p, not '_'",
                 isa_instr_name(K->m, in, name, sizeof name));
    }
}

/* lop3 has two forms: d, a, b, c, immLut without a BoolOp, and d|p, a, b, c, immLut, q
 * with .and or .or (p = (d != 0) BoolOp q); immLut is a constant.  (p as '_' is
 * refused by check_sink: lop3 is ISA_OF_PREDOUT.) */
static void check_lop3(check_t *K, const isa_instr_t *in)
{
    char name[256];
    const isa_operand_t *o = K->f->opds ? &K->f->opds[in->opd] : NULL;
    bool boolop = isa_instr_mod(in, ISA_G_BOOLOP) >= 0;
    if (in->nopd >= 5 && o[4].kind != ISA_OPD_IMM)
        CERR(K, o[4].loc, "operand 5 of '%s' (immLut) must be a constant",
             isa_instr_name(K->m, in, name, sizeof name));
    if (boolop && in->nopd != 6)
        CERR(K, in->loc, "'%s' takes 6 operands (d|p, a, b, c, immLut, q), not %u",
             isa_instr_name(K->m, in, name, sizeof name), in->nopd);
    else if (!boolop && in->nopd != 5)
        CERR(K, in->loc, "'%s' with a predicate operand needs a BoolOp .and or .or",
             isa_instr_name(K->m, in, name, sizeof name));
    else if (boolop && (o[0].kind != ISA_OPD_DUAL || (K->f->opds[o[0].u.first + 1].kind != ISA_OPD_REG &&
                                                 K->f->opds[o[0].u.first + 1].kind != ISA_OPD_SINK)))
        CERR(K, o[0].loc, "operand 1 of '%s' must be d|p with a predicate register p",
             isa_instr_name(K->m, in, name, sizeof name));
    else if (!boolop && o[0].kind == ISA_OPD_DUAL)
        CERR(K, o[0].loc, "'%s' with a predicate destination needs a BoolOp .and or .or",
             isa_instr_name(K->m, in, name, sizeof name));
}

/* The stack instructions' operand forms, as ptxas checks them: alloca's alignment is a
 * constant power of two up to 2^23; stackrestore restores from a register. */
static void check_stack(check_t *K, const isa_instr_t *in)
{
    char name[256];
    const isa_operand_t *o = &K->f->opds[in->opd];
    if (in->op == ISA_OP_ALLOCA && in->nopd == 3) {
        if (o[2].kind != ISA_OPD_IMM)
            CERR(K, o[2].loc, "operand 3 of '%s' (the alignment) must be a constant",
                 isa_instr_name(K->m, in, name, sizeof name));
        else if (o[2].imm <= 0 || (o[2].imm & (o[2].imm - 1)))
            CERR(K, o[2].loc, "the alignment of '%s' must be a power of two",
                 isa_instr_name(K->m, in, name, sizeof name));
        else if (o[2].imm > (1 << 23))
            CERR(K, o[2].loc, "the alignment of '%s' must not exceed 2^23",
                 isa_instr_name(K->m, in, name, sizeof name));
    }
    if (in->op == ISA_OP_STACKRESTORE && in->nopd == 1 && o[0].kind != ISA_OPD_REG)
        CERR(K, o[0].loc, "operand 1 of '%s' must be a register",
             isa_instr_name(K->m, in, name, sizeof name));
}

/* tex.level's level of detail has the coordinates' type, as ptxas checks it ("Arguments
 * mismatch"): an f32 or b32 register or a float constant with .f32 coordinates, a
 * 32-bit integer register or an integer constant with .s32 ones. */
static void check_tex_lod(check_t *K, const isa_instr_t *in)
{
    char name[256];
    if (isa_instr_mod(in, ISA_G_MODE) != ISA_M_LEVEL || in->ntypes != 2 || in->nopd < 3)
        return;
    const isa_operand_t *o = &K->f->opds[in->opd + 2];
    bool icoord = in->types[1] == ISA_T_S32, ok;
    if (o->kind == ISA_OPD_REG) {
        isa_type_t rt = (isa_type_t)K->f->regs[o->u.reg].type;
        isa_tclass_t c = isa_types[rt].cls;
        ok = rt != ISA_T_PRED && isa_types[rt].bits == 32 &&
             (icoord ? c != ISA_TC_FLOAT : c == ISA_TC_FLOAT || c == ISA_TC_BIT);
    } else {
        ok = icoord ? o->kind == ISA_OPD_IMM : (o->kind == ISA_OPD_F32 || o->kind == ISA_OPD_F64);
    }
    if (!ok)
        CERR(K, o->loc, "the level of detail of '%s' must be %s, as its coordinates", isa_instr_name(K->m, in, name, sizeof name),
             icoord ? "a 32-bit integer" : "an f32");
}

/* createpolicy's three forms, as ptxas checks them:
 *   .range{.global}.prim{.sec}.b64  d, [a], primary-size, total-size   (a in a register or
 *       a variable; 32-bit sizes, primary <= total when both are constants)
 *   .fractional.prim{.sec}.b64  d{, fraction}   (a float constant in (0, 1], or a 32-bit
 *       register)
 *   .cvt.L2.b64  d, a   (a 64-bit access property)
 * with a secondary priority of .L2::evict_first or .L2::evict_unchanged. */
static void check_createpolicy(check_t *K, const isa_instr_t *in)
{
    char name[256];
    const isa_operand_t *o = &K->f->opds[in->opd];
    int mode = isa_instr_mod(in, ISA_G_MODE), prim = -1, sec = -1, sp = isa_instr_space(in, 0);
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_MOD && in->sfx[i].group == ISA_G_L2HINT)
            *(prim < 0 ? &prim : &sec) = in->sfx[i].id;
    isa_instr_name(K->m, in, name, sizeof name);
    if (mode != ISA_M_RANGE && mode != ISA_M_FRACTIONAL && mode != ISA_M_CVT) {
        CERR(K, in->mloc, "'%s' needs .range, .fractional or .cvt", name);
        return;
    }
    if (mode == ISA_M_CVT) {
        if (prim >= 0)
            CERR(K, in->mloc, "'%s' takes no L2 eviction priority", name);
        else if (!isa_instr_has(in, ISA_M_L2))
            CERR(K, in->mloc, "'%s' needs .L2", name);
        else if (sp >= 0)
            CERR(K, in->mloc, "'%s' takes no state space", name);
        else if (in->nopd != 2)
            CERR(K, in->loc, "'%s' takes 2 operands (d, access-property), not %u", name, in->nopd);
        else if (o[1].kind == ISA_OPD_REG && isa_types[K->f->regs[o[1].u.reg].type].bits != 64)
            CERR(K, o[1].loc, "operand 2 of '%s' (the access property) must be a 64-bit register", name);
        return;
    }
    if (isa_instr_mod(in, ISA_G_LEVEL) >= 0)
        CERR(K, in->mloc, "'%s' takes no .L2 beside its eviction priorities", name);
    else if (prim < 0)
        CERR(K, in->mloc, "'%s' needs an L2 eviction priority (.L2::evict_last, .L2::evict_normal, "
             ".L2::evict_first or .L2::evict_unchanged)", name);
    else if (sec >= 0 && sec != ISA_M_L2_EVICT_FIRST && sec != ISA_M_L2_EVICT_UNCHANGED)
        CERR(K, in->mloc, "the secondary priority of '%s' must be .L2::evict_first or .L2::evict_unchanged", name);
    else if (sp >= 0 && (mode == ISA_M_FRACTIONAL || sp != ISA_SP_GLOBAL))
        CERR(K, in->mloc, "'%s' takes %s", name, mode == ISA_M_FRACTIONAL ? "no state space" : "no state space but .global");
    else if (mode == ISA_M_FRACTIONAL) {
        if (in->nopd < 1 || in->nopd > 2)
            CERR(K, in->loc, "'%s' takes 1 or 2 operands (d{, fraction}), not %u", name, in->nopd);
        else if (in->nopd == 2 && (o[1].kind == ISA_OPD_F32 || o[1].kind == ISA_OPD_F64)) {
            double v;
            if (o[1].kind == ISA_OPD_F32) {
                float fv;
                uint32_t b = (uint32_t)o[1].imm;
                memcpy(&fv, &b, 4);
                v = fv;
            } else {
                uint64_t b = (uint64_t)o[1].imm;
                memcpy(&v, &b, 8);
            }
            if (!(v > 0 && v <= 1))
                CERR(K, o[1].loc, "the fraction of '%s' must lie in (0, 1]", name);
        } else if (in->nopd == 2 && !(o[1].kind == ISA_OPD_REG && !(o[1].flags & (ISA_OPDF_NEG | ISA_OPDF_MINUS)) &&
                                      K->f->regs[o[1].u.reg].type != ISA_T_PRED &&
                                      isa_types[K->f->regs[o[1].u.reg].type].bits == 32))
            CERR(K, o[1].loc, "operand 2 of '%s' (the fraction) must be a float constant or a 32-bit register", name);
    } else if (in->nopd != 4) {
        CERR(K, in->loc, "'%s' takes 4 operands (d, [a], primary-size, total-size), not %u", name, in->nopd);
    } else if (o[1].kind != ISA_OPD_ADDR || (o[1].base != ISA_OPD_REG && o[1].base != ISA_OPD_SYM)) {
        CERR(K, o[1].loc, "operand 2 of '%s' must be an address in a register or a variable", name);
    } else {
        for (unsigned k = 2; k < 4; k++)
            if (!(o[k].kind == ISA_OPD_IMM || (o[k].kind == ISA_OPD_REG && K->f->regs[o[k].u.reg].type != ISA_T_PRED &&
                                                isa_types[K->f->regs[o[k].u.reg].type].bits == 32)))
                CERR(K, o[k].loc, "operand %u of '%s' must be a 32-bit register or an integer constant", k + 1, name);
        if (o[2].kind == ISA_OPD_IMM && o[3].kind == ISA_OPD_IMM && (uint32_t)o[2].imm > (uint32_t)o[3].imm)
            CERR(K, o[2].loc, "the primary size of '%s' (%u) exceeds its total size (%u)", name, (uint32_t)o[2].imm,
                 (uint32_t)o[3].imm);
    }
}
/*}=====================================================================*/

/* The function variable an ld.param or st.param addresses ([name] or [name+imm]), or NULL. */
static const isa_operand_t *param_var(const check_t *K, const isa_instr_t *in)
{
    if ((in->op != ISA_OP_LD && in->op != ISA_OP_ST) || in->nopd < 2 || isa_instr_space(in, 0) != ISA_SP_PARAM)
        return NULL;
    const isa_operand_t *a = &K->f->opds[in->opd + (in->op == ISA_OP_LD ? 1 : 0)];
    if (a->kind != ISA_OPD_ADDR || a->base != ISA_OPD_SYM || (a->flags & (ISA_OPDF_MODSYM | ISA_OPDF_ADDRLIST)) ||
        a->u.sym >= K->f->nvar)
        return NULL;
    return a;
}

/* ld.param and st.param, as ptxas takes them: a .param variable the body declares (a
 * call's argument or result) is not accessed under a guard ("Illegal to predicate
 * instruction 'st.param' with operand 'arg0'"; the function's own parameters and a
 * kernel's may be); the function's own input parameters are not written ("Illegal to
 * write to function input parameter"), nor its result read ("Illegal to read function
 * return parameter"). */
static void check_param_access(check_t *K, const isa_instr_t *in)
{
    const isa_operand_t *a = param_var(K, in);
    if (!a)
        return;
    uint32_t v = a->u.sym, nret = K->f->nret, nparam = K->f->nparam;
    const char *var = K->f->vars[v].name;
    char name[256];
    isa_instr_name(K->m, in, name, sizeof name);
    if (in->guard != ISA_NONE && v >= nret + nparam)
        CERR(K, a->loc, "'%s' of '%s', a .param variable of the function's body, cannot be guarded (ptxas: "
             "\"Illegal to predicate instruction\"): branch around it", name, var);
    if (in->op == ISA_OP_ST && v >= nret && v < nret + nparam)
        CERR(K, a->loc, "'%s' writes '%s', an input parameter of the function (ptxas: \"Illegal to write to "
             "function input parameter\"): copy it to a register", name, var);
    if (in->op == ISA_OP_LD && v < nret)
        CERR(K, a->loc, "'%s' reads '%s', the function's result (ptxas: \"Illegal to read function return "
             "parameter\"): keep the value in a register", name, var);
}

/* ld and st with an L2 eviction priority (.L2::evict_first ...) move 256 bits: .v8 of a
 * 32-bit type or .v4 of a 64-bit one (ptxas: "Instruction 'ld' requires '.v8.b32/.v4.b64'
 * type with '.L2::evict_last'"); the sizes themselves need sm_100 (rules.def). */
static void check_l2_evict(check_t *K, const isa_instr_t *in)
{
    if ((in->op != ISA_OP_LD && in->op != ISA_OP_ST) || isa_instr_mod(in, ISA_G_L2HINT) < 0 || in->ntypes != 1)
        return;
    int v = isa_instr_mod(in, ISA_G_VEC);
    unsigned bits = isa_types[in->types[0]].bits;
    if ((v == ISA_M_V8 && bits == 32) || (v == ISA_M_V4 && bits == 64))
        return;
    char name[256];
    CERR(K, in->mloc, "'%s' needs .v8 of a 32-bit type or .v4 of a 64-bit type with an L2 eviction priority",
         isa_instr_name(K->m, in, name, sizeof name));
}

/* A vector ld, st or ldu moves at most 128 bits, but for the 256-bit forms (.v8 of a 32-bit
 * type, .v4 of a 64-bit one, sm_100: rules.def): ptxas: "Vector type too large, exceeds 128
 * bit limit" (.v8.u64, .v4 of .b128...). */
static void check_vector_size(check_t *K, const isa_instr_t *in)
{
    if ((in->op != ISA_OP_LD && in->op != ISA_OP_ST && in->op != ISA_OP_LDU) || in->ntypes != 1)
        return;
    int v = isa_instr_mod(in, ISA_G_VEC);
    unsigned n = v == ISA_M_V2 ? 2 : v == ISA_M_V4 ? 4 : v == ISA_M_V8 ? 8 : 1;
    unsigned bits = isa_types[in->types[0]].bits;
    if (n == 1 || n * bits <= 128 || (v == ISA_M_V8 && bits == 32) || (v == ISA_M_V4 && bits == 64))
        return;
    char name[256];
    CERR(K, in->mloc, "'%s' moves %u bits: a vector of more than 128 bits (ptxas: \"Vector type too large, exceeds "
         "128 bit limit\")", isa_instr_name(K->m, in, name, sizeof name), n * bits);
}

/* Operand forms of the barriers and asynchronous copies that ptxas refuses: an arrive on
 * another CTA's mbarrier (.shared::cluster) returns no state ('_'); bar.arrive and
 * barrier.arrive name the thread count; cp.async.cg copies 16 bytes; the group counts of
 * cp.async.wait_group and cp.async.bulk.wait_group are constants. */
static void check_async_forms(check_t *K, const isa_instr_t *in)
{
    char name[256];
    if (!in->nopd)
        return;                       /* (a body without operands has no operand pool) */
    const isa_operand_t *o = &K->f->opds[in->opd];
    if ((in->op == ISA_OP_MBARRIER_ARRIVE || in->op == ISA_OP_MBARRIER_ARRIVE_DROP) && in->nopd >= 2 &&
        isa_instr_space(in, 0) == ISA_SP_SHARED_CLUSTER && !sink_first(K, &o[0]))
        CERR(K, o[0].loc, "'%s' on another CTA's barrier (.shared::cluster) returns no state: write '_'",
             isa_instr_name(K->m, in, name, sizeof name));
    if ((in->op == ISA_OP_BAR || in->op == ISA_OP_BARRIER) && isa_instr_has(in, ISA_M_ARRIVE) && in->nopd < 2)
        CERR(K, in->mloc, "'%s' needs the number of threads (b)", isa_instr_name(K->m, in, name, sizeof name));
    if (in->op == ISA_OP_CP_ASYNC && isa_instr_has(in, ISA_M_CG) && in->nopd >= 3 && o[2].kind == ISA_OPD_IMM &&
        o[2].imm != 16)
        CERR(K, o[2].loc, "'%s' copies 16 bytes (cp-size 16)", isa_instr_name(K->m, in, name, sizeof name));
    if (in->op == ISA_OP_MATCH && isa_instr_has(in, ISA_M_ANY) && in->nopd >= 1 && o[0].kind == ISA_OPD_DUAL)
        CERR(K, o[0].loc, "'%s' has no predicate result (match.all has)", isa_instr_name(K->m, in, name, sizeof name));
    if (in->op == ISA_OP_CVTA && in->ntypes == 1)
        for (unsigned i = 0; i < 2 && i < in->nopd; i++)
            if (o[i].kind == ISA_OPD_REG && K->f->regs[o[i].u.reg].type != ISA_T_PRED &&
                isa_types[K->f->regs[o[i].u.reg].type].bits != isa_types[in->types[0]].bits) {
                CERR(K, o[i].loc, "'%s' takes %u-bit registers", isa_instr_name(K->m, in, name, sizeof name),
                     isa_types[in->types[0]].bits);
                break;
            }
    if ((in->op == ISA_OP_CP_ASYNC_WAIT_GROUP || in->op == ISA_OP_CP_ASYNC_BULK_WAIT_GROUP) && in->nopd >= 1 &&
        o[0].kind != ISA_OPD_IMM)
        CERR(K, o[0].loc, "the group count of '%s' must be a constant", isa_instr_name(K->m, in, name, sizeof name));
}

/* mov packing or unpacking a vector ({a, b}; no .vN) takes a .bN type: ptxas refuses mov.u32 /
 * mov.f32 / ... with a brace list ("Arguments mismatch for instruction 'mov'"). */
static void check_mov_vec(check_t *K, const isa_instr_t *in)
{
    if (in->op != ISA_OP_MOV || in->ntypes != 1 || isa_types[in->types[0]].cls == ISA_TC_BIT ||
        isa_instr_mod(in, ISA_G_VEC) >= 0)      /* mov.v4.u16 v, {a, b, c, d}: a vector register */
        return;
    for (unsigned i = 0; i < in->nopd; i++)
        if (K->f->opds[in->opd + i].kind == ISA_OPD_VEC) {
            char name[256];
            CERR(K, K->f->opds[in->opd + i].loc, "'%s' packs or unpacks a vector only with a .b16, .b32, .b64 "
                 "or .b128 type", isa_instr_name(K->m, in, name, sizeof name));
            return;
        }
}

static void check_instr(check_t *K, const isa_instr_t *in)
{
    const isa_op_info_t *oi = &isa_ops[in->op];
    char name[256];
    unsigned nerr0 = K->c->nerr;
#define NAME() isa_instr_name(K->m, in, name, sizeof name)

    check_requirement(K, in->mloc, oi->mnemonic, oi->sm, oi->ptx);

    if (in->ntypes < oi->tmin || in->ntypes > oi->tmax) {
        if (oi->tmin == oi->tmax)
            CERR(K, in->mloc, "'%s' needs %u type suffix%s, not %u", NAME(), oi->tmin,
                 oi->tmin == 1 ? "" : "es", in->ntypes);
        else
            CERR(K, in->mloc, "'%s' needs %u to %u type suffixes, not %u", NAME(), oi->tmin, oi->tmax,
                 in->ntypes);
    }
    for (unsigned i = 0; i < in->ntypes; i++)
        if (!(oi->types >> in->types[i] & 1))
            CERR(K, in->mloc, "type .%s is not valid for '%s'", isa_types[in->types[i]].text,
                 oi->mnemonic);

    const isa_shape_info_t *sh = &isa_shapes[oi->shape];
    if (in->nopd < sh->min || in->nopd > sh->max) {
        if (sh->min == sh->max)
            CERR(K, in->loc, "'%s' takes %u operand%s, not %u", NAME(), sh->min, sh->min == 1 ? "" : "s",
                 in->nopd);
        else
            CERR(K, in->loc, "'%s' takes %u to %u operands, not %u", NAME(), sh->min, sh->max, in->nopd);
        return;
    }
    for (unsigned i = 0; i < in->nopd; i++) {
        const isa_operand_t *o = &K->f->opds[in->opd + i];
        char k = isa_shape_kind(oi->shape, i);
        if (!kind_ok(K, k, o))
            CERR(K, o->loc, "operand %u of '%s' must be %s", i + 1, NAME(), kind_name(k));
        if (o->kind == ISA_OPD_SREG) {
            const isa_sreg_info_t *si = &isa_sregs[o->u.sreg.id];
            check_requirement(K, o->loc, si->text, si->sm, si->ptx);
        }
    }
    check_data_regs(K, in);
    check_minus(K, in);
    check_sink(K, in);
    check_selectors(K, in);
    if (in->op == ISA_OP_LOP3)
        check_lop3(K, in);
    if (in->op == ISA_OP_ALLOCA || in->op == ISA_OP_STACKRESTORE)
        check_stack(K, in);
    if (in->op == ISA_OP_CREATEPOLICY)
        check_createpolicy(K, in);
    if (in->op == ISA_OP_TEX)
        check_tex_lod(K, in);
    if (in->op == ISA_OP_CALL)
        fe_check_call(K->c, K->m, K->f, in);
    check_param_access(K, in);
    check_l2_evict(K, in);
    check_vector_size(K, in);
    check_async_forms(K, in);
    check_mov_vec(K, in);
    check_rules(K, in);
    if (K->c->nerr == nerr0) {      /* the registers of an otherwise valid instruction */
        check_cvt_regs(K, in);
        check_opd_regs(K, in);
    }
#undef NAME
}

static void check_func(check_t *K, const isa_func_t *f)
{
    K->f = f;
    for (uint32_t i = 0; i < f->ninstr && !K->c->stopped; i++)
        check_instr(K, &f->instrs[i]);
}

bool fe_check(fe_ctx_t *c)
{
    check_t K = { 0 };
    K.c = c;
    K.m = c->m;
    K.sm_num = c->m->sm != ISA_SM_ANY ? isa_sms[c->m->sm].num : 0;
    K.ptx = c->m->ver_major * 10 + c->m->ver_minor;
    unsigned nerr0 = c->nerr;
    for (uint32_t i = 0; i < c->m->nfunc && !c->stopped; i++)
        if (c->m->funcs[i].has_body)
            check_func(&K, &c->m->funcs[i]);
    return c->nerr == nerr0;
}
