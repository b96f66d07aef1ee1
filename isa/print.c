/* print.c: writes a module back out as PTX text, in source order and laid out the
 * way nvcc does; the text parses back to the same IR (see isa_dump_module). */
#include "isa/isa.h"

#include <inttypes.h>
#include <string.h>

/* What an operand or a statement is printed against. */
typedef struct {
    FILE               *out;
    const isa_module_t *m;
    const isa_func_t   *f;      /* NULL at module scope */
} pr_t;

/*{=====================================================================
 * Names
 *====================================================================*/

/* A function-scope symbol: a body variable.  Indices past the body's variables
 * name the parameters and then the return parameters, in case the frontend
 * numbers them after the variables. */
static const char *func_sym_name(const isa_func_t *f, uint32_t idx)
{
    if (!f)
        return "?";
    if (idx < f->nvar)
        return f->vars[idx].name;
    idx -= f->nvar;
    if (idx < f->nparam)
        return f->params[idx].name;
    idx -= f->nparam;
    if (idx < f->nret)
        return f->rets[idx].name;
    return "?";
}

static const char *sym_name(const pr_t *p, uint32_t idx, bool modsym)
{
    if (modsym)
        return idx < p->m->nvar ? p->m->vars[idx].name : "?";
    return func_sym_name(p->f, idx);
}

static const char *reg_name(const pr_t *p, uint32_t idx)
{
    return p->f && idx < p->f->nreg ? p->f->regs[idx].name : "?";
}

static const char *func_name(const isa_module_t *m, uint32_t idx)
{
    return idx < m->nfunc ? m->funcs[idx].name : "?";
}

/* Linkage words, each followed by a space. */
static void print_linkage(FILE *out, unsigned link)
{
    if (link & ISA_LINK_VISIBLE) fputs(".visible ", out);
    if (link & ISA_LINK_EXTERN)  fputs(".extern ", out);
    if (link & ISA_LINK_WEAK)    fputs(".weak ", out);
    if (link & ISA_LINK_COMMON)  fputs(".common ", out);
}

static void print_indent(FILE *out, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++)
        fputc('\t', out);
}

/*}=====================================================================*/

/*{=====================================================================
 * Operands
 *====================================================================*/

/* "+off" after a symbol or register when the offset is non-zero; a negative one
 * is "+-4", the only form ptxas takes inside an address ("[%rd-4]" is a syntax
 * error there). */
static void print_offset(FILE *out, int64_t off)
{
    if (off != 0)
        fprintf(out, "+%" PRId64, off);
}

static void print_imm(FILE *out, const isa_operand_t *o)
{
    if (o->flags & ISA_OPDF_UNSIGNED)
        fprintf(out, "%" PRIu64 "U", (uint64_t)o->imm);
    else
        fprintf(out, "%" PRId64, o->imm);
}

static void print_operand(const pr_t *p, const isa_operand_t *o);

/* The pool elements first..first+count, separated by ", ". */
static void print_elems(const pr_t *p, uint32_t first, uint32_t count, const char *sep)
{
    for (uint32_t i = 0; i < count; i++) {
        if (i)
            fputs(sep, p->out);
        if (p->f && first + i < p->f->nopd)
            print_operand(p, &p->f->opds[first + i]);
        else
            fputc('?', p->out);
    }
}

static void print_addr(const pr_t *p, const isa_operand_t *o)
{
    FILE *out = p->out;
    fputc('[', out);
    if (o->flags & ISA_OPDF_ADDRLIST) {
        print_elems(p, o->u.first, o->count, ", ");
    } else if (o->base == ISA_OPD_REG) {
        fputs(reg_name(p, o->u.reg), out);
        print_offset(out, o->imm);
    } else if (o->base == ISA_OPD_SYM) {
        fputs(sym_name(p, o->u.sym, o->flags & ISA_OPDF_MODSYM), out);
        print_offset(out, o->imm);
    } else {
        fprintf(out, "%" PRId64, o->imm);
    }
    fputc(']', out);
}

static void print_operand(const pr_t *p, const isa_operand_t *o)
{
    FILE *out = p->out;
    if (o->flags & ISA_OPDF_NEG)
        fputc('!', out);
    if (o->flags & ISA_OPDF_MINUS)
        fputc('-', out);
    switch ((isa_opdkind_t)o->kind) {
    case ISA_OPD_REG:
        fputs(reg_name(p, o->u.reg), out);
        if (o->sel) {
            char selbuf[8];
            fprintf(out, ".%s", isa_sel_text(o->sel, o->fsel, selbuf, sizeof selbuf));
        }
        if (o->flags & ISA_OPDF_REGOFF)
            fprintf(out, "+%" PRId64, o->imm);   /* %r2+1, %r2+-4: ptxas reads both */
        break;
    case ISA_OPD_SINK:
        fputc('_', out);
        break;
    case ISA_OPD_IMM:
        print_imm(out, o);
        break;
    case ISA_OPD_F32:
        fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
        break;
    case ISA_OPD_F64:
        fprintf(out, "0d%016" PRIX64, (uint64_t)o->imm);
        break;
    case ISA_OPD_SREG: {
        const isa_sreg_info_t *s = &isa_sregs[o->u.sreg.id];
        fputs(s->text, out);
        if (s->form == ISA_SRF_XYZ)
            fprintf(out, ".%c", "xyz"[o->u.sreg.comp % 3]);
        else if (s->form == ISA_SRF_INDEX32 || s->form == ISA_SRF_INDEX8)
            fprintf(out, "%u", (unsigned)o->u.sreg.comp);
        break;
    }
    case ISA_OPD_SYM:
        fputs(sym_name(p, o->u.sym, o->flags & ISA_OPDF_MODSYM), out);
        print_offset(out, o->imm);
        break;
    case ISA_OPD_FUNC:
        fputs(func_name(p->m, o->u.func), out);
        break;
    case ISA_OPD_LABEL:
        fputs(p->f && o->u.label < p->f->nlabel ? p->f->labels[o->u.label].name : "?", out);
        break;
    case ISA_OPD_ADDR:
        print_addr(p, o);
        break;
    case ISA_OPD_VEC:
        fputc('{', out);
        print_elems(p, o->u.first, o->count, ", ");
        fputc('}', out);
        break;
    case ISA_OPD_LIST:
        fputc('(', out);
        print_elems(p, o->u.first, o->count, ", ");
        fputc(')', out);
        break;
    case ISA_OPD_PROTO:
        fputs(p->f && o->u.proto < p->f->nproto ? p->f->protos[o->u.proto].name : "?", out);
        break;
    case ISA_OPD_BRTARGETS:
        fputs(p->f && o->u.idx < p->f->nbrt ? p->f->brts[o->u.idx].name : "?", out);
        break;
    case ISA_OPD_DUAL:
        print_elems(p, o->u.first, o->count, "|");
        break;
    }
}

static void print_instr(const pr_t *p, const isa_instr_t *in, unsigned depth)
{
    FILE *out = p->out;
    char name[256];
    print_indent(out, depth);
    if (in->guard != ISA_NONE)
        fprintf(out, "@%s%s ", in->guard_neg ? "!" : "", reg_name(p, in->guard));
    fputs(isa_instr_name(p->m, in, name, sizeof name), out);
    if (in->nopd) {
        fputs(" \t", out);
        print_elems(p, in->opd, in->nopd, ", ");
    }
    fputs(";\n", out);
}

/*}=====================================================================*/

/*{=====================================================================
 * Declarations
 *====================================================================*/

static void print_init_elem(const pr_t *p, const isa_init_t *e)
{
    FILE *out = p->out;
    switch ((isa_initkind_t)e->kind) {
    case ISA_INIT_INT:
        fprintf(out, "%" PRId64, e->value);
        break;
    case ISA_INIT_F32:
        fprintf(out, "0f%08" PRIX32, (uint32_t)e->value);
        break;
    case ISA_INIT_F64:
        fprintf(out, "0d%016" PRIX64, (uint64_t)e->value);
        break;
    case ISA_INIT_SYM:
        fputs(e->modsym ? sym_name(p, e->sym, true) : func_name(p->m, e->sym), out);
        print_offset(out, e->value);
        break;
    case ISA_INIT_GENERIC:
        fprintf(out, "generic(%s)", e->modsym ? sym_name(p, e->sym, true) : func_name(p->m, e->sym));
        print_offset(out, e->value);
        break;
    case ISA_INIT_MASK:
        fprintf(out, "0x%" PRIX64 "(%s)", (uint64_t)e->value,
                e->modsym ? sym_name(p, e->sym, true) : func_name(p->m, e->sym));
        break;
    case ISA_INIT_FIELD_NAME:
        fprintf(out, "%s = %s", p->m->strs[e->sym], p->m->strs[e->value]);
        break;
    case ISA_INIT_FIELD_INT:
        fprintf(out, "%s = %" PRId64, p->m->strs[e->sym], e->value);
        break;
    }
}

/* One brace level of a multi-dimensional initializer: dimension d, starting at
 * element *pos. */
static void print_init_level(const pr_t *p, const isa_var_t *v, unsigned d, uint32_t *pos)
{
    fputc('{', p->out);
    uint32_t n = v->dims[d];
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", p->out);
        if (d + 1 < v->ndims)
            print_init_level(p, v, d + 1, pos);
        else
            print_init_elem(p, &v->init[(*pos)++]);
    }
    fputc('}', p->out);
}

/* "= v" or "= {a, b, ...}", nested per dimension when the list is complete. */
static void print_init(const pr_t *p, const isa_var_t *v)
{
    if (v->ninit == 0)
        return;
    fputs(" = ", p->out);
    if (!v->init_braced && v->ninit == 1) {
        print_init_elem(p, &v->init[0]);
        return;
    }
    uint64_t total = 1;
    for (unsigned d = 0; d < v->ndims; d++)
        total *= v->dims[d];
    if (v->ndims > 1 && v->vec <= 1 && total == v->ninit) {
        uint32_t pos = 0;
        print_init_level(p, v, 0, &pos);
        return;
    }
    fputc('{', p->out);
    for (uint32_t i = 0; i < v->ninit; i++) {
        if (i)
            fputs(", ", p->out);
        print_init_elem(p, &v->init[i]);
    }
    fputc('}', p->out);
}

/* A variable, parameter or opaque handle declaration, without the ';':
 * linkage, space, attribute, alignment, vector, type (.ptr qualifiers of a
 * kernel parameter), name, dimensions, initializer. */
static void print_var(const pr_t *p, const isa_var_t *v)
{
    FILE *out = p->out;
    print_linkage(out, v->linkage);
    if (v->space != ISA_SP_NONE)
        fprintf(out, ".%s ", isa_spaces[v->space].text);
    if (v->flags & (ISA_VARF_MANAGED | ISA_VARF_UNIFIED))
        fprintf(out, ".attribute(%s%s%s) ", v->flags & ISA_VARF_MANAGED ? ".managed" : "",
                (v->flags & ISA_VARF_MANAGED) && (v->flags & ISA_VARF_UNIFIED) ? " " : "",
                v->flags & ISA_VARF_UNIFIED ? ".unified" : "");
    if (v->align)
        fprintf(out, ".align %" PRIu32 " ", v->align);
    if (v->vec > 1)
        fprintf(out, ".v%u ", (unsigned)v->vec);
    if (v->opaque)
        fprintf(out, "%s ", isa_dirs[v->opaque - 1].text);
    else if (v->type != ISA_T_NONE)
        fprintf(out, ".%s ", isa_types[v->type].text);
    if (v->flags & ISA_VARF_PTR) {
        fputs(".ptr ", out);
        if (v->ptr_space != ISA_SP_NONE)
            fprintf(out, ".%s ", isa_spaces[v->ptr_space].text);
        if (v->ptr_align)
            fprintf(out, ".align %" PRIu32 " ", v->ptr_align);
    }
    fputs(v->name, out);
    for (unsigned d = 0; d < v->ndims; d++) {
        if (v->dims[d] == 0 && (v->flags & ISA_VARF_UNSIZED))
            fputs("[]", out);
        else
            fprintf(out, "[%" PRIu32 "]", v->dims[d]);
    }
    print_init(p, v);
}

/* "(.param .b32 a, .param .b32 b)"; one parameter a line when multiline. */
static void print_params(const pr_t *p, const isa_var_t *vs, uint32_t n, bool multiline)
{
    FILE *out = p->out;
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) {
        if (multiline)
            fputs(i ? ",\n\t" : "\n\t", out);
        else if (i)
            fputs(", ", out);
        print_var(p, &vs[i]);
    }
    if (multiline && n)
        fputc('\n', out);
    fputc(')', out);
}

static void print_regdecl(const pr_t *p, const isa_regdecl_t *r)
{
    FILE *out = p->out;
    fputs(".reg ", out);
    if (r->vec > 1)
        fprintf(out, ".v%u ", (unsigned)r->vec);
    fprintf(out, ".%s \t%s", isa_types[r->type].text, r->name);
    if (r->count)
        fprintf(out, "<%" PRIu32 ">", r->count);
    fputs(";\n", out);
}

static void print_proto(const pr_t *p, const isa_proto_t *pt)
{
    FILE *out = p->out;
    fprintf(out, "%s: .callprototype ", pt->name);
    if (pt->nret) {
        print_params(p, pt->rets, pt->nret, false);
        fputc(' ', out);
    }
    fputs("_ ", out);
    print_params(p, pt->params, pt->nparam, false);
    if (pt->noreturn)
        fputs(" .noreturn", out);
    fputs(";\n", out);
}

static void print_brt(const pr_t *p, const isa_brtargets_t *b)
{
    FILE *out = p->out;
    fprintf(out, "%s: %s ", b->name, b->calltargets ? ".calltargets" : ".branchtargets");
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t t = b->targets[i];
        const char *n = b->calltargets ? func_name(p->m, t)
                      : t < p->f->nlabel ? p->f->labels[t].name : "?";
        fprintf(out, "%s%s", i ? ", " : "", n);
    }
    fputs(";\n", out);
}

static void print_dbg(const pr_t *p, const isa_dbgloc_t *d)
{
    fprintf(p->out, ".loc %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", d->file, d->line, d->col);
}

/*}=====================================================================*/

/*{=====================================================================
 * Functions and the module
 *====================================================================*/

static void print_body(const pr_t *p)
{
    const isa_func_t *f = p->f;
    FILE *out = p->out;
    unsigned depth = 1;
    fputs("{\n", out);
    for (uint32_t i = 0; i < f->nstmt; i++) {
        uint32_t k = f->stmts[i].idx;
        switch ((isa_stmtkind_t)f->stmts[i].kind) {
        case ISA_STMT_INSTR:
            print_instr(p, &f->instrs[k], depth);
            break;
        case ISA_STMT_LABEL:
            fprintf(out, "%s:\n", f->labels[k].name);
            break;
        case ISA_STMT_OPEN:
            print_indent(out, depth++);
            fputs("{\n", out);
            break;
        case ISA_STMT_CLOSE:
            if (depth > 1)
                depth--;
            print_indent(out, depth);
            fputs("}\n", out);
            break;
        case ISA_STMT_REGDECL:
            print_indent(out, depth);
            print_regdecl(p, &f->regdecls[k]);
            break;
        case ISA_STMT_VAR:
            print_indent(out, depth);
            print_var(p, &f->vars[k]);
            fputs(";\n", out);
            break;
        case ISA_STMT_DBG:
            print_indent(out, depth);
            print_dbg(p, &f->dbg[k]);
            break;
        case ISA_STMT_PRAGMA:
            print_indent(out, depth);
            fprintf(out, ".pragma %s;\n", f->pragmas[k].text);
            break;
        case ISA_STMT_PROTO:
            print_indent(out, depth);
            print_proto(p, &f->protos[k]);
            break;
        case ISA_STMT_BRT:
            print_indent(out, depth);
            print_brt(p, &f->brts[k]);
            break;
        }
    }
    fputs("}\n", out);
}

/* A function header, then its body or ';'.  A prototype item (decl) prints the
 * header alone with the linkage written on the prototype. */
static void print_func(const pr_t *p, bool decl)
{
    const isa_func_t *f = p->f;
    FILE *out = p->out;
    print_linkage(out, decl ? f->decl_linkage : f->linkage);
    fputs(f->is_entry ? ".entry " : ".func ", out);
    if (!f->is_entry && f->nret) {
        print_params(p, f->rets, f->nret, false);
        fputc(' ', out);
    }
    fputs(f->name, out);
    if (f->is_entry || f->nparam)
        print_params(p, f->params, f->nparam, true);
    fputc('\n', out);
    bool noreturn_done = false;
    for (uint32_t i = 0; i < f->nperf; i++) {
        const isa_perf_t *pf = &f->perf[i];
        fputs(isa_dirs[pf->id].text, out);
        for (uint32_t j = 0; j < pf->n && j < 3; j++)
            fprintf(out, "%s%" PRIu32, j ? ", " : " ", pf->v[j]);
        fputc('\n', out);
        noreturn_done |= pf->id == ISA_D_NORETURN;
    }
    if (f->noreturn && !noreturn_done)
        fputs(".noreturn\n", out);
    if (decl || !f->has_body)
        fputs(";\n", out);
    else
        print_body(p);
}

static void print_file(FILE *out, const isa_file_t *fl)
{
    fprintf(out, ".file %" PRIu32 " ", fl->index);
    if (fl->name[0] == '"') {
        fputs(fl->name, out);
    } else {
        fputc('"', out);
        for (const char *s = fl->name; *s; s++) {
            if (*s == '"' || *s == '\\')
                fputc('\\', out);
            fputc(*s, out);
        }
        fputc('"', out);
    }
    for (uint32_t i = 0; i < fl->nextra && i < 2; i++)
        fprintf(out, ", %" PRIu64, fl->extra[i]);
    fputc('\n', out);
}

void isa_print_module(FILE *out, const isa_module_t *m)
{
    pr_t p = { out, m, NULL };
    if (m->ver_major || m->ver_minor)
        fprintf(out, ".version %u.%u\n", m->ver_major, m->ver_minor);
    if (m->ntarget) {
        fputs(".target ", out);
        for (uint32_t i = 0; i < m->ntarget; i++)
            fprintf(out, "%s%s", i ? ", " : "", m->targets[i]);
        fputc('\n', out);
    }
    fprintf(out, ".address_size %u\n", m->address_size);

    int prev = -1;
    for (uint32_t i = 0; i < m->nitem; i++) {
        const isa_item_t *it = &m->items[i];
        /* A blank line around functions and between runs of different kinds. */
        if (it->kind != prev || it->kind == ISA_ITEM_FUNC || it->kind == ISA_ITEM_FUNCDECL)
            fputc('\n', out);
        prev = it->kind;
        switch ((isa_itemkind_t)it->kind) {
        case ISA_ITEM_VAR:
            p.f = NULL;
            print_var(&p, &m->vars[it->idx]);
            fputs(";\n", out);
            break;
        case ISA_ITEM_FUNC:
        case ISA_ITEM_FUNCDECL:
            p.f = &m->funcs[it->idx];
            print_func(&p, it->kind == ISA_ITEM_FUNCDECL);
            p.f = NULL;
            break;
        case ISA_ITEM_FILE:
            print_file(out, &m->files[it->idx]);
            break;
        case ISA_ITEM_PRAGMA:
            fprintf(out, ".pragma %s;\n", m->pragmas[it->idx].text);
            break;
        case ISA_ITEM_ALIAS:
            fprintf(out, ".alias %s, %s;\n", m->aliases[it->idx].alias, m->aliases[it->idx].target);
            break;
        }
    }
}

/*}=====================================================================*/
