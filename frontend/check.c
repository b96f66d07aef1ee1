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
    return o->kind == OPD_REG ? &K->f->regs[o->u.reg] : NULL;
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
        if (o->kind == OPD_VEC) {
            for (uint32_t i = 0; i < o->count; i++)
                if (pool[o->u.first + i].kind != OPD_REG && pool[o->u.first + i].kind != OPD_SINK)
                    return false;
            return true;
        }
        return (o->kind == OPD_REG || o->kind == OPD_SINK) && !(o->flags & OPDF_NEG);
    case 'e':
        if (o->kind == OPD_DUAL)
            return kind_ok(K, 'd', &pool[o->u.first]) &&
                   (is_pred_reg(K, &pool[o->u.first + 1]) || pool[o->u.first + 1].kind == OPD_SINK);
        return kind_ok(K, 'd', o);
    case 'p':
        if (o->kind == OPD_DUAL)
            return kind_ok(K, 'p', &pool[o->u.first]) && kind_ok(K, 'p', &pool[o->u.first + 1]);
        return o->kind == OPD_SINK || (is_pred_reg(K, o) && !(o->flags & OPDF_NEG));
    case 's':
        if ((o->flags & OPDF_NEG) && !is_pred_reg(K, o))
            return false;
        switch (o->kind) {
        case OPD_REG: case OPD_IMM: case OPD_F32: case OPD_F64: case OPD_SREG:
        case OPD_SYM: case OPD_FUNC: case OPD_VEC: case OPD_SINK:
            return true;
        default:
            return false;
        }
    case 'q':
        return is_pred_reg(K, o) || o->kind == OPD_IMM;
    case 'a':
        return o->kind == OPD_ADDR;
    case 't':
        return o->kind == OPD_LABEL;
    case 'f':
        return o->kind == OPD_FUNC || o->kind == OPD_REG;
    case 'l':
        return o->kind == OPD_LIST;
    default:
        return true;
    }
}

/* Register-type compatibility with an instruction type, per the PTX operand type rules:
 * a bit-size type accepts any register of its size; integer types accept integer or
 * bit registers of their size; float types accept float or bit registers of their size;
 * "relaxed" (ld, st) also accepts wider registers: integer or bit ones for integer and
 * bit types, bit ones for float types (as ptxas does). */
static bool reg_type_ok(isa_type_t insn, isa_type_t reg, bool relaxed)
{
    const isa_type_info_t *ti = &isa_types[insn], *ri = &isa_types[reg];
    if (insn == ISA_T_PRED || reg == ISA_T_PRED)
        return insn == reg;
    if (ti->bits == ri->bits) {
        if (ti->cls == TC_BIT || ri->cls == TC_BIT)
            return true;
        bool ti_int = ti->cls == TC_UINT || ti->cls == TC_SINT;
        bool ri_int = ri->cls == TC_UINT || ri->cls == TC_SINT;
        if (ti_int && ri_int)
            return true;
        if (ti->cls == TC_FLOAT && ri->cls == TC_FLOAT)
            return insn == reg;
        return ti->cls == TC_PACKED || ri->cls == TC_PACKED;
    }
    if (relaxed && ri->bits > ti->bits) {
        if (ti->cls == TC_FLOAT || ti->cls == TC_PACKED)
            return ri->cls == TC_BIT;
        return ri->cls == TC_BIT || ri->cls == TC_UINT || ri->cls == TC_SINT;
    }
    return false;
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
    case ISA_OP_LD: slot = 0; relaxed = true; break;
    case ISA_OP_ST: slot = 1; relaxed = true; break;
    default:
        if (!(oi->flags & OF_DTYPE))
            return;
        if (isa_instr_mod(in, ISA_G_MULMODE) == ISA_M_WIDE)
            return;
        slot = 0;
    }
    const isa_operand_t *o = &K->f->opds[in->opd + slot];
    const isa_operand_t *elems = o;
    uint32_t n = 1;
    if (o->kind == OPD_VEC) {
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

static void check_instr(check_t *K, const isa_instr_t *in)
{
    const isa_op_info_t *oi = &isa_ops[in->op];
    char name[256];
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
        if (o->kind == OPD_SREG) {
            const isa_sreg_info_t *si = &isa_sregs[o->u.sreg.id];
            check_requirement(K, o->loc, si->text, si->sm, si->ptx);
        }
    }
    check_data_regs(K, in);
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
