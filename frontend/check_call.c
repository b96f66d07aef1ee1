/* check_call.c: validation of call instructions: their operand forms, and the return and
 * argument lists against the callee's or the prototype's parameters, as ptxas checks them. */
#include "frontend/internal.h"

#include <stdio.h>

#define CERR(loc, ...) fe_error(c, fe_span_of(loc), __VA_ARGS__)

/* "a .b64 register", "the .param .b8 [8] 'x'", "an integer constant": what an element is. */
static const char *actual_text(const isa_func_t *f, const isa_operand_t *o, char *buf, size_t size)
{
    switch (o->kind) {
    case ISA_OPD_REG: {
        const isa_reg_t *r = &f->regs[o->u.reg];
        if (r->vec > 1)
            snprintf(buf, size, "register '%s' (.v%u .%s)", r->name, (unsigned)r->vec, isa_types[r->type].text);
        else
            snprintf(buf, size, "register '%s' (.%s)", r->name, isa_types[r->type].text);
        break;
    }
    case ISA_OPD_SYM: {
        const isa_var_t *v = &f->vars[o->u.sym];
        snprintf(buf, size, "'%s' (%llu bytes%s, .align %u)", v->name, (unsigned long long)isa_var_size(v),
                 v->ndims ? ", an array" : "", isa_var_align(v));
        break;
    }
    case ISA_OPD_IMM:
        snprintf(buf, size, "an integer constant");
        break;
    default:
        snprintf(buf, size, "a floating-point constant");
        break;
    }
    return buf;
}

/* ".param .b32 'a'", ".reg .v4 .u16 'in'", ".param .b8 [8] 'x'" */
static const char *formal_text(const isa_var_t *v, char *buf, size_t size)
{
    int n = snprintf(buf, size, ".%s", v->space == ISA_SP_REG ? "reg" : "param");
    if (v->align && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " .align %u", v->align);
    if (v->vec > 1 && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " .v%u", (unsigned)v->vec);
    if (n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " .%s", v->type != ISA_T_NONE ? isa_types[v->type].text : "?");
    for (unsigned i = 0; i < v->ndims && n > 0 && (size_t)n < size; i++)
        n += snprintf(buf + n, size - (size_t)n, "[%u]", v->dims[i]);
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " '%s'", v->name);
    return buf;
}

/* Why element o cannot pass formal v, or NULL when it can (ptxas, measured): sizes must be
 * equal and a predicate never passes; a register passes no array, and a .reg vector
 * parameter only a vector register of its shape (a vector register passes a scalar
 * parameter of its size); a .param variable passes a .param parameter of its size, both
 * arrays or both scalars, of the same alignment, or a .reg parameter of its size that is
 * no array; an integer type never passes a floating-point one nor the reverse (a bit type
 * passes both); a constant passes no array, an integer constant no scalar
 * floating-point parameter, and a floating-point constant no scalar integer one. */
static bool is_int(isa_type_t t)
{
    return isa_types[t].cls == ISA_TC_UINT || isa_types[t].cls == ISA_TC_SINT;
}

/* An integer and a floating-point type do not pass each other; a bit type passes both. */
static bool classes_differ(isa_type_t a, isa_type_t b)
{
    return (is_int(a) && isa_types[b].cls == ISA_TC_FLOAT) || (isa_types[a].cls == ISA_TC_FLOAT && is_int(b));
}

static const char *mismatch(const isa_func_t *f, const isa_operand_t *o, const isa_var_t *v)
{
    uint64_t fsize = isa_var_size(v);
    bool farray = v->ndims > 0;
    bool rpred = o->kind == ISA_OPD_REG && f->regs[o->u.reg].type == ISA_T_PRED;
    if (v->type == ISA_T_PRED && rpred && v->space == ISA_SP_REG)
        return "a predicate cannot be passed; ptxas takes one where the ABI is off, but the driver's JIT "
               "crashes on it and ptxas's code does not carry its value (measured on the H100)";
    if (v->type == ISA_T_PRED || rpred)
        return "a predicate cannot be passed";
    switch (o->kind) {
    case ISA_OPD_REG: {
        const isa_reg_t *r = &f->regs[o->u.reg];
        if (farray)
            return "a register cannot pass a .param array";
        if (v->vec > 1 && (r->vec != v->vec || isa_types[r->type].bits != isa_types[v->type].bits))
            return "a vector parameter takes a vector register of its shape";
        if (isa_types[r->type].bits / 8 * (r->vec > 1 ? r->vec : 1) != fsize)
            return "the sizes differ";
        if (r->vec <= 1 && v->vec <= 1 && classes_differ(r->type, v->type))
            return "an integer and a floating-point type";
        return NULL;
    }
    case ISA_OPD_SYM: {
        const isa_var_t *a = &f->vars[o->u.sym];
        if (v->space == ISA_SP_REG) {
            if (a->ndims)
                return "a .param array cannot pass a .reg parameter";
            if (isa_var_size(a) != fsize)
                return "the sizes differ";
            if (a->vec <= 1 && v->vec <= 1 && classes_differ(a->type, v->type))
                return "an integer and a floating-point type";
            return NULL;
        }
        if ((a->ndims > 0) != farray)
            return farray ? "a scalar cannot pass an array" : "an array cannot pass a scalar";
        if (isa_var_size(a) != fsize)
            return "the sizes differ";
        if (isa_var_align(a) != isa_var_align(v))
            return "the alignments differ";
        if (!farray && classes_differ(a->type, v->type))
            return "an integer and a floating-point type";
        return NULL;
    }
    case ISA_OPD_IMM:
        if (farray)
            return "a constant cannot pass an array";
        if (isa_types[v->type].cls == ISA_TC_FLOAT && v->vec <= 1)
            return "an integer constant cannot pass a floating-point parameter";
        return NULL;
    default:
        if (farray)
            return "a constant cannot pass an array";
        if (is_int(v->type) && v->vec <= 1)
            return "a floating-point constant cannot pass an integer parameter";
        return NULL;
    }
}

/* One list (the results or the arguments) against its formals. */
static void check_list(fe_ctx_t *c, const isa_func_t *f, const isa_operand_t *lst, const isa_var_t *formals,
                       uint32_t n, const char *callee, bool results, bool noabi)
{
    char ab[160], fb[160];
    const char *what = results ? "result" : "argument";
    for (uint32_t e = 0; e < lst->count && e < n; e++) {
        const isa_operand_t *o = &f->opds[lst->u.first + e];
        const isa_var_t *v = &formals[e];
        bool imm = o->kind == ISA_OPD_IMM || o->kind == ISA_OPD_F32 || o->kind == ISA_OPD_F64;
        if (o->kind == ISA_OPD_SINK) {
            if (!results)       /* a result may be dropped with '_' (ptxas) */
                CERR(o->loc, "'_' cannot be a call argument");
            continue;
        }
        if ((o->kind == ISA_OPD_REG && (o->sel || (o->flags & (ISA_OPDF_NEG | ISA_OPDF_MINUS)))) ||
            (o->kind == ISA_OPD_SYM && ((o->flags & ISA_OPDF_MODSYM) || f->vars[o->u.sym].space != ISA_SP_PARAM)) ||
            (o->kind != ISA_OPD_REG && o->kind != ISA_OPD_SYM && !imm)) {
            CERR(o->loc, "a call %s must be a register, a .param variable%s", what,
                 results ? "" : " or a constant");
            continue;
        }
        if (o->kind == ISA_OPD_SYM && o->u.sym < f->nret + f->nparam) {
            /* ptxas: "Formal parameter ... cannot be used as argument to call". */
            CERR(o->loc, "'%s' is a parameter of the calling function; a call %s must be a .param "
                 "variable declared in its body", f->vars[o->u.sym].name, what);
            continue;
        }
        if (imm && results) {
            CERR(o->loc, "a call result must be a register or a .param variable, not a constant");
            continue;
        }
        const char *why = mismatch(f, o, v);
        if (why)
            CERR(o->loc, "%s %u of the call to %s does not match its parameter %s: %s is given (%s)", what,
                 e + 1, callee, formal_text(v, fb, sizeof fb), actual_text(f, o, ab, sizeof ab), why);
        else if (!noabi && v->space == ISA_SP_REG && v->vec <= 1 && isa_types[v->type].bits <= 16 &&
                 (isa_types[v->type].cls == ISA_TC_UINT || isa_types[v->type].cls == ISA_TC_SINT))
            CERR(o->loc, "%s %u of the call to %s: an 8- or 16-bit integer .reg parameter (%s) is not "
                 "supported by the ABI (ptxas; .b8, .b16 and .f16 are)", what, e + 1, callee,
                 formal_text(v, fb, sizeof fb));
    }
}

/* The lists of a call against one signature. */
static void check_sig(fe_ctx_t *c, const isa_func_t *f, const isa_instr_t *in, const isa_operand_t *rets,
                      const isa_operand_t *args, const isa_var_t *frets, uint32_t nret,
                      const isa_var_t *fparams, uint32_t nparam, const char *callee, bool noabi)
{
    uint32_t nr = rets ? rets->count : 0, na = args ? args->count : 0;
    if (nr != nret || na != nparam) {
        CERR(in->loc, "the call to %s has %u result%s and %u argument%s; it takes %u and %u", callee, nr,
             nr == 1 ? "" : "s", na, na == 1 ? "" : "s", nret, nparam);
        return;
    }
    if (rets)
        check_list(c, f, rets, frets, nret, callee, true, noabi);
    if (args)
        check_list(c, f, args, fparams, nparam, callee, false, noabi);
}

/* ptxas compiles a module without the ABI when any of its functions returns several
 * values (a warning, "disabling ABI"); then 8- and 16-bit integer registers pass as .reg
 * parameters and results, which the ABI refuses (ptxas 13; golden call_noabi). */
static bool abi_off(const isa_module_t *m)
{
    for (uint32_t i = 0; i < m->nfunc; i++)
        if (m->funcs[i].nret > 1)
            return true;
    return false;
}

/* call{.uni} {(rets),} func{, (args)}   or   call{.uni} {(rets),} fptr{, (args)}, proto|flist */
void fe_check_call(fe_ctx_t *c, const isa_module_t *m, const isa_func_t *f, const isa_instr_t *in)
{
    const isa_operand_t *o = f->opds ? &f->opds[in->opd] : NULL;
    unsigned n = in->nopd, i = 0;
    if (n && o[0].kind == ISA_OPD_LIST)
        i = 1;
    if (i >= n) {
        CERR(in->loc, "'call' needs a function or a function address");
        return;
    }
    const isa_operand_t *tgt = &o[i];
    const isa_operand_t *rets = i ? &o[0] : NULL, *args = NULL, *sig = NULL;
    unsigned k = i + 1;
    if (k < n && o[k].kind == ISA_OPD_LIST)
        args = &o[k++];
    if (k < n && (o[k].kind == ISA_OPD_PROTO || (o[k].kind == ISA_OPD_SYM && (o[k].flags & ISA_OPDF_MODSYM) && tgt->kind == ISA_OPD_REG) ||
                  (o[k].kind == ISA_OPD_BRTARGETS && f->brts[o[k].u.idx].calltargets)))
        sig = &o[k++];
    if (k < n) {
        CERR(o[k].loc, "operand %u of 'call' must be %s", k + 1,
             args ? "a .callprototype or a .calltargets list"
                  : "a parenthesised argument list, a .callprototype or a .calltargets list");
        return;
    }
    const isa_var_t *frets, *fparams;
    uint32_t nret, nparam;
    char callee[300];
    if (tgt->kind == ISA_OPD_FUNC) {
        const isa_func_t *g = &m->funcs[tgt->u.func];
        if (sig) {
            CERR(sig->loc, "a direct call takes no .callprototype or .calltargets list");
            return;
        }
        frets = g->rets; nret = g->nret;
        fparams = g->params; nparam = g->nparam;
        snprintf(callee, sizeof callee, "'%s'", g->name);
    } else if (tgt->kind == ISA_OPD_REG && !tgt->sel) {
        const isa_reg_t *r = &f->regs[tgt->u.reg];
        if (r->type == ISA_T_PRED || r->vec > 1 || (isa_types[r->type].bits != 32 && isa_types[r->type].bits != 64)) {
            CERR(tgt->loc, "the address of an indirect call must be a 32- or 64-bit register");
            return;
        }
        if (!sig) {
            CERR(tgt->loc, "an indirect call needs a .callprototype or a .calltargets list");
            return;
        }
        if (sig->kind == ISA_OPD_SYM) {
            /* A table of function addresses (ptxas: "a .u32/.u64/.u8 array") in place of
             * the list: its functions are known only at run time; nothing to check here. */
            return;
        }
        if (sig->kind == ISA_OPD_PROTO) {
            const isa_proto_t *p = &f->protos[sig->u.proto];
            frets = p->rets; nret = p->nret;
            fparams = p->params; nparam = p->nparam;
            snprintf(callee, sizeof callee, "prototype '%s'", p->name);
        } else {
            /* Every function of the .calltargets list must take the call (ptxas). */
            const isa_brtargets_t *t = &f->brts[sig->u.idx];
            unsigned nerr0 = c->nerr;
            for (uint32_t j = 0; j < t->count && c->nerr == nerr0; j++) {
                const isa_func_t *g = &m->funcs[t->targets[j]];
                snprintf(callee, sizeof callee, "'%s' (of %s)", g->name, t->name);
                check_sig(c, f, in, rets, args, g->rets, g->nret, g->params, g->nparam, callee, abi_off(m));
            }
            return;
        }
    } else {
        CERR(tgt->loc, "operand %u of 'call' must be a function or a register holding its address", i + 1);
        return;
    }
    check_sig(c, f, in, rets, args, frets, nret, fparams, nparam, callee, abi_off(m));
}
