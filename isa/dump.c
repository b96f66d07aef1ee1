/* dump.c: a stable, readable dump of the lowered IR (ptxrun --dump-ir).  Two modules
 * are the same IR when their dumps are byte-identical; source locations are left out. */
#include "isa/isa.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    FILE               *out;
    const isa_module_t *m;
    const isa_func_t   *f;      /* NULL at module scope */
} dp_t;

/*{=====================================================================
 * Small pieces
 *====================================================================*/

static const char *space_str(unsigned sp)
{
    return sp < ISA_SP__COUNT ? isa_spaces[sp].text : "-";
}

static const char *type_str(unsigned t)
{
    return t < ISA_T__COUNT ? isa_types[t].text : "-";
}

static const char *func_name(const isa_module_t *m, uint32_t i)
{
    return i < m->nfunc ? m->funcs[i].name : "?";
}

/* Body variables, then parameters, then return parameters (see print.c). */
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
    return idx < f->nret ? f->rets[idx].name : "?";
}

static void dump_index(FILE *out, uint32_t i)
{
    if (i == ISA_NONE)
        fputc('-', out);
    else
        fprintf(out, "%" PRIu32, i);
}

/* Bits as words joined by '|', or "-". */
static void dump_bits(FILE *out, unsigned bits, const char *const *names, unsigned n)
{
    bool any = false;
    for (unsigned i = 0; i < n; i++)
        if (bits & (1u << i)) {
            fprintf(out, "%s%s", any ? "|" : "", names[i]);
            any = true;
        }
    if (!any)
        fputc('-', out);
}

static void dump_linkage(FILE *out, unsigned link)
{
    static const char *const names[] = { "visible", "extern", "weak", "common" };
    dump_bits(out, link, names, 4);
}

/*}=====================================================================*/

/*{=====================================================================
 * Variables
 *====================================================================*/

static void dump_init_elem(const dp_t *d, const isa_init_t *e)
{
    FILE *out = d->out;
    const char *sym = e->modsym ? (e->sym < d->m->nvar ? d->m->vars[e->sym].name : "?")
                                : func_name(d->m, e->sym);
    switch ((isa_initkind_t)e->kind) {
    case ISA_INIT_INT:
        fprintf(out, "int %" PRId64, e->value);
        break;
    case ISA_INIT_F32:
        fprintf(out, "f32 0f%08" PRIX32, (uint32_t)e->value);
        break;
    case ISA_INIT_F64:
        fprintf(out, "f64 0d%016" PRIX64, (uint64_t)e->value);
        break;
    case ISA_INIT_SYM:
        fprintf(out, "%s %s#%" PRIu32 "%+" PRId64, e->modsym ? "var" : "func", sym, e->sym, e->value);
        break;
    case ISA_INIT_GENERIC:
        fprintf(out, "generic(%s %s#%" PRIu32 ")%+" PRId64, e->modsym ? "var" : "func", sym,
                e->sym, e->value);
        break;
    case ISA_INIT_MASK:
        fprintf(out, "mask 0x%" PRIX64 "(%s %s#%" PRIu32 ")", (uint64_t)e->value,
                e->modsym ? "var" : "func", sym, e->sym);
        break;
    case ISA_INIT_FIELD_NAME:
        fprintf(out, "field %s = %s", d->m->strs[e->sym], d->m->strs[e->value]);
        break;
    case ISA_INIT_FIELD_INT:
        fprintf(out, "field %s = %" PRId64, d->m->strs[e->sym], e->value);
        break;
    default:
        fprintf(out, "?kind%u", (unsigned)e->kind);
        break;
    }
}

/* "<space> <name>: type=.. vec=.. ..." with every field but the location. */
static void dump_var(const dp_t *d, const isa_var_t *v)
{
    static const char *const flags[] = { "managed", "unified", "ptr", "unsized" };
    FILE *out = d->out;
    fprintf(out, "%s %s: type=%s", space_str(v->space), v->name, type_str(v->type));
    if (v->opaque)
        fprintf(out, " opaque=%s", v->opaque - 1u < ISA_D__COUNT ? isa_dirs[v->opaque - 1].text : "?");
    fprintf(out, " vec=%u align=%" PRIu32 " size=%" PRIu64 " dims=[", (unsigned)v->vec, v->align,
            v->size);
    for (unsigned i = 0; i < v->ndims && i < 4; i++)
        fprintf(out, "%s%" PRIu32, i ? "," : "", v->dims[i]);
    fputs("] linkage=", out);
    dump_linkage(out, v->linkage);
    fputs(" flags=", out);
    dump_bits(out, v->flags, flags, 4);
    if (v->attr_written)
        fputs(" attr", out);
    if (v->flags & ISA_VARF_PTR) {
        fprintf(out, " ptr=%s/%" PRIu32, space_str(v->ptr_space), v->ptr_align);
    }
    if (v->scope != ISA_NONE)
        fprintf(out, " scope=%" PRIu32, v->scope);
    if (v->ninit) {
        fputs(v->init_braced ? " init={" : " init=", out);
        for (uint32_t i = 0; i < v->ninit; i++) {
            if (i)
                fputs(", ", out);
            dump_init_elem(d, &v->init[i]);
        }
        if (v->init_braced)
            fputc('}', out);
    }
    fputc('\n', out);
}

static void dump_params(const dp_t *d, const char *what, const isa_var_t *vs, uint32_t n,
                        const char *indent)
{
    for (uint32_t i = 0; i < n; i++) {
        fprintf(d->out, "%s%s %" PRIu32 ": ", indent, what, i);
        dump_var(d, &vs[i]);
    }
}

/*}=====================================================================*/

/*{=====================================================================
 * Instructions
 *====================================================================*/

static void dump_operand(const dp_t *d, const isa_operand_t *o);

static void dump_elems(const dp_t *d, uint32_t first, uint32_t count, const char *sep)
{
    for (uint32_t i = 0; i < count; i++) {
        if (i)
            fputs(sep, d->out);
        if (first + i < d->f->nopd)
            dump_operand(d, &d->f->opds[first + i]);
        else
            fputs("?pool", d->out);
    }
}

static void dump_reg(const dp_t *d, uint32_t r)
{
    if (r < d->f->nreg)
        fprintf(d->out, "reg %s#%" PRIu32 ":%s", d->f->regs[r].name, r, type_str(d->f->regs[r].type));
    else
        fprintf(d->out, "reg ?#%" PRIu32, r);
}

static void dump_sym(const dp_t *d, uint32_t s, bool modsym)
{
    if (modsym)
        fprintf(d->out, "msym %s#%" PRIu32, s < d->m->nvar ? d->m->vars[s].name : "?", s);
    else
        fprintf(d->out, "sym %s#%" PRIu32, func_sym_name(d->f, s), s);
}

static void dump_operand(const dp_t *d, const isa_operand_t *o)
{
    FILE *out = d->out;
    const isa_func_t *f = d->f;
    if (o->flags & ISA_OPDF_NEG)
        fputc('!', out);
    if (o->flags & ISA_OPDF_MINUS)
        fputc('-', out);
    switch ((isa_opdkind_t)o->kind) {
    case ISA_OPD_REG:
        dump_reg(d, o->u.reg);
        if (o->sel) {
            char selbuf[8];
            fprintf(out, ".%s", isa_sel_text(o->sel, o->fsel, selbuf, sizeof selbuf));
        }
        if (o->flags & ISA_OPDF_REGOFF)
            fprintf(out, " +imm %" PRId64, o->imm);
        break;
    case ISA_OPD_SINK:
        fputc('_', out);
        break;
    case ISA_OPD_IMM:
        if (o->flags & ISA_OPDF_UNSIGNED)
            fprintf(out, "imm %" PRIu64 "U", (uint64_t)o->imm);
        else
            fprintf(out, "imm %" PRId64, o->imm);
        break;
    case ISA_OPD_F32:
        fprintf(out, "f32 0f%08" PRIX32, (uint32_t)o->imm);
        break;
    case ISA_OPD_F64:
        fprintf(out, "f64 0d%016" PRIX64, (uint64_t)o->imm);
        break;
    case ISA_OPD_SREG:
        fprintf(out, "sreg %s", o->u.sreg.id < ISA_SR__COUNT ? isa_sregs[o->u.sreg.id].text : "?");
        if (o->u.sreg.id < ISA_SR__COUNT && isa_sregs[o->u.sreg.id].form == ISA_SRF_XYZ)
            fprintf(out, ".%c", o->u.sreg.comp < 3 ? "xyz"[o->u.sreg.comp] : '?');
        else if (o->u.sreg.id < ISA_SR__COUNT && isa_sregs[o->u.sreg.id].form != ISA_SRF_SCALAR)
            fprintf(out, "%u", (unsigned)o->u.sreg.comp);
        break;
    case ISA_OPD_SYM:
        dump_sym(d, o->u.sym, o->flags & ISA_OPDF_MODSYM);
        if (o->imm)
            fprintf(out, "%+" PRId64, o->imm);
        break;
    case ISA_OPD_FUNC:
        fprintf(out, "func %s#%" PRIu32, func_name(d->m, o->u.func), o->u.func);
        break;
    case ISA_OPD_LABEL:
        fprintf(out, "label %s#%" PRIu32, o->u.label < f->nlabel ? f->labels[o->u.label].name : "?",
                o->u.label);
        break;
    case ISA_OPD_ADDR:
        fputs("addr[", out);
        if (o->flags & ISA_OPDF_ADDRLIST) {
            dump_elems(d, o->u.first, o->count, ", ");
        } else {
            if (o->base == ISA_OPD_REG)
                dump_reg(d, o->u.reg);
            else if (o->base == ISA_OPD_SYM)
                dump_sym(d, o->u.sym, o->flags & ISA_OPDF_MODSYM);
            if (o->base == ISA_OPD_REG || o->base == ISA_OPD_SYM) {
                if (o->imm)
                    fprintf(out, " %c %" PRIu64, o->imm < 0 ? '-' : '+',
                            o->imm < 0 ? -(uint64_t)o->imm : (uint64_t)o->imm);
            } else {
                fprintf(out, "imm %" PRId64, o->imm);
            }
        }
        fputc(']', out);
        break;
    case ISA_OPD_VEC:
        fputs("vec{", out);
        dump_elems(d, o->u.first, o->count, ", ");
        fputc('}', out);
        break;
    case ISA_OPD_LIST:
        fputs("list(", out);
        dump_elems(d, o->u.first, o->count, ", ");
        fputc(')', out);
        break;
    case ISA_OPD_PROTO:
        fprintf(out, "proto %s#%" PRIu32, o->u.proto < f->nproto ? f->protos[o->u.proto].name : "?",
                o->u.proto);
        break;
    case ISA_OPD_BRTARGETS:
        fprintf(out, "brt %s#%" PRIu32, o->u.idx < f->nbrt ? f->brts[o->u.idx].name : "?", o->u.idx);
        break;
    case ISA_OPD_DUAL:
        fputs("dual(", out);
        dump_elems(d, o->u.first, o->count, "|");
        fputc(')', out);
        break;
    default:
        fprintf(out, "?kind%u", (unsigned)o->kind);
        break;
    }
}

static void dump_instr(const dp_t *d, uint32_t idx)
{
    FILE *out = d->out;
    const isa_func_t *f = d->f;
    const isa_instr_t *in = &f->instrs[idx];
    fprintf(out, "    %" PRIu32 ": ", idx);
    if (in->guard != ISA_NONE) {
        fprintf(out, "@%s", in->guard_neg ? "!" : "");
        dump_reg(d, in->guard);
        fputc(' ', out);
    }
    fprintf(out, "%s sfx=[", in->op < ISA_OP__COUNT ? isa_ops[in->op].mnemonic : "?op");
    for (unsigned i = 0; i < in->nsfx && i < ISA_MAX_SFX; i++) {
        const isa_sfx_t *s = &in->sfx[i];
        const char *grp = s->group < ISA_G__COUNT ? isa_groups[s->group].name : "?";
        if (i)
            fputc(' ', out);
        switch ((isa_sfxkind_t)s->kind) {
        case ISA_SFX_TYPE:
            fprintf(out, "type:%s", type_str(s->id));
            break;
        case ISA_SFX_SPACE:
            fprintf(out, "space:%s(%s)", space_str(s->id), grp);
            break;
        case ISA_SFX_MOD:
            fprintf(out, "mod:%s(%s)", s->id < ISA_M__COUNT ? isa_mods[s->id].text : "?", grp);
            break;
        case ISA_SFX_SHAPE_TEXT:
            fprintf(out, "shape:%s", s->id < d->m->nstr ? d->m->strs[s->id] : "?");
            break;
        default:
            fprintf(out, "?sfx%u", (unsigned)s->kind);
            break;
        }
    }
    fputs("] opds=(", out);
    dump_elems(d, in->opd, in->nopd, ", ");
    fputc(')', out);
    if (in->dbg != ISA_NONE) {
        if (in->dbg < f->ndbg)
            fprintf(out, " dbg=%" PRIu32 ":%" PRIu32 ":%" PRIu32, f->dbg[in->dbg].file,
                    f->dbg[in->dbg].line, f->dbg[in->dbg].col);
        else
            fprintf(out, " dbg=?%" PRIu32, in->dbg);
    }
    fputc('\n', out);
}

/*}=====================================================================*/

/*{=====================================================================
 * Functions
 *====================================================================*/

/* The statement order as one line of tokens: I<n> (runs as I<a>-<b>), L label,
 * R regdecl, V var, D .loc, P pragma, C callprototype, B branchtargets, { and }. */
static void dump_stmts(const dp_t *d)
{
    static const char letters[] = { 'I', 'L', '{', '}', 'R', 'V', 'D', 'P', 'C', 'B' };
    const isa_func_t *f = d->f;
    FILE *out = d->out;
    fputs("  stmts:", out);
    for (uint32_t i = 0; i < f->nstmt; i++) {
        const isa_stmt_t *s = &f->stmts[i];
        char c = s->kind < sizeof letters ? letters[s->kind] : '?';
        if (s->kind == ISA_STMT_OPEN || s->kind == ISA_STMT_CLOSE) {
            fprintf(out, " %c", c);
            continue;
        }
        fprintf(out, " %c%" PRIu32, c, s->idx);
        if (s->kind == ISA_STMT_INSTR) {
            uint32_t j = i;
            while (j + 1 < f->nstmt && f->stmts[j + 1].kind == ISA_STMT_INSTR
                   && f->stmts[j + 1].idx == f->stmts[j].idx + 1)
                j++;
            if (j > i)
                fprintf(out, "-%" PRIu32, f->stmts[j].idx);
            i = j;
        }
    }
    fputc('\n', out);
}

/* Whether register i is the plain member of a range declaration that the
 * register r also belongs to: same declaration, type and width, and the name
 * "<range name><i - first>", so that a run of them can be dumped as one line. */
static bool in_range(const isa_func_t *f, uint32_t i, const isa_reg_t *r)
{
    const isa_reg_t *x = &f->regs[i];
    if (x->decl != r->decl || x->type != r->type || x->vec != r->vec || r->decl >= f->nregdecl)
        return false;
    const isa_regdecl_t *dc = &f->regdecls[r->decl];
    if (dc->count == 0 || i < dc->first)
        return false;
    char buf[256];
    snprintf(buf, sizeof buf, "%s%" PRIu32, dc->name, i - dc->first);
    return strcmp(buf, x->name) == 0;
}

static void dump_func(const dp_t *d, uint32_t fi)
{
    static const char *const kinds[] = { "branchtargets", "calltargets" };
    FILE *out = d->out;
    const isa_func_t *f = d->f;
    fprintf(out, "\n%s %" PRIu32 " %s: linkage=", f->is_entry ? "entry" : "func", fi, f->name);
    dump_linkage(out, f->linkage);
    fputs(" decl_linkage=", out);
    dump_linkage(out, f->decl_linkage);
    fprintf(out, " body=%u noreturn=%u\n", (unsigned)f->has_body, (unsigned)f->noreturn);
    dump_params(d, "ret", f->rets, f->nret, "  ");
    dump_params(d, "param", f->params, f->nparam, "  ");
    for (uint32_t i = 0; i < f->nperf; i++) {
        const isa_perf_t *p = &f->perf[i];
        fprintf(out, "  perf %s", p->id < ISA_D__COUNT ? isa_dirs[p->id].text : "?");
        for (uint32_t j = 0; j < p->n && j < 3; j++)
            fprintf(out, "%s%" PRIu32, j ? ", " : " ", p->v[j]);
        fputc('\n', out);
    }
    if (!f->has_body)
        return;
    for (uint32_t i = 0; i < f->nregdecl; i++) {
        const isa_regdecl_t *r = &f->regdecls[i];
        fprintf(out, "  regdecl %" PRIu32 ": %s", i, r->name);
        if (r->count)
            fprintf(out, "<%" PRIu32 ">", r->count);
        fprintf(out, " %s vec=%u first=%" PRIu32 " scope=%" PRIu32 "\n", type_str(r->type),
                (unsigned)r->vec, r->first, r->scope);
    }
    for (uint32_t i = 0, j; i < f->nreg; i = j + 1) {
        const isa_reg_t *r = &f->regs[i];
        for (j = i; j + 1 < f->nreg && in_range(f, j + 1, r); j++)
            ;
        if (!in_range(f, i, r))
            j = i;
        if (j > i)
            fprintf(out, "  regs %" PRIu32 "-%" PRIu32 ": %s..%s", i, j, r->name, f->regs[j].name);
        else
            fprintf(out, "  reg %" PRIu32 ": %s", i, r->name);
        fprintf(out, " %s vec=%u decl=%" PRIu32 "\n", type_str(r->type), (unsigned)r->vec, r->decl);
    }
    for (uint32_t i = 0; i < f->nvar; i++) {
        fprintf(out, "  var %" PRIu32 ": ", i);
        dump_var(d, &f->vars[i]);
    }
    for (uint32_t i = 0; i < f->nlabel; i++)
        fprintf(out, "  label %" PRIu32 ": %s -> instr %" PRIu32 " scope %" PRIu32 "\n", i,
                f->labels[i].name, f->labels[i].instr, f->labels[i].scope);
    for (uint32_t i = 0; i < f->nscope; i++) {
        fprintf(out, "  scope %" PRIu32 ": parent=", i);
        dump_index(out, f->scopes[i].parent);
        fprintf(out, " instrs=[%" PRIu32 ", %" PRIu32 ")\n", f->scopes[i].begin, f->scopes[i].end);
    }
    for (uint32_t i = 0; i < f->nproto; i++) {
        const isa_proto_t *p = &f->protos[i];
        fprintf(out, "  proto %" PRIu32 ": %s noreturn=%u at instr %" PRIu32 " scope %" PRIu32 "\n",
                i, p->name, (unsigned)p->noreturn, p->instr, p->scope);
        dump_params(d, "ret", p->rets, p->nret, "    ");
        dump_params(d, "param", p->params, p->nparam, "    ");
    }
    for (uint32_t i = 0; i < f->nbrt; i++) {
        const isa_brtargets_t *b = &f->brts[i];
        fprintf(out, "  brt %" PRIu32 ": %s %s [", i, b->name, kinds[b->calltargets ? 1 : 0]);
        for (uint32_t j = 0; j < b->count; j++) {
            uint32_t t = b->targets[j];
            const char *n = b->calltargets ? func_name(d->m, t)
                          : t < f->nlabel ? f->labels[t].name : "?";
            fprintf(out, "%s%s#%" PRIu32, j ? ", " : "", n, t);
        }
        fprintf(out, "] at instr %" PRIu32 " scope %" PRIu32 "\n", b->instr, b->scope);
    }
    for (uint32_t i = 0; i < f->npragma; i++) {
        fprintf(out, "  pragma %" PRIu32 ": %s at instr ", i, f->pragmas[i].text);
        dump_index(out, f->pragmas[i].instr);
        fprintf(out, " scope %" PRIu32 "\n", f->pragmas[i].scope);
    }
    for (uint32_t i = 0; i < f->ndbg; i++) {
        const isa_dbgloc_t *g = &f->dbg[i];
        fprintf(out, "  dbg %" PRIu32 ": file %" PRIu32 " line %" PRIu32 " col %" PRIu32 "\n", i,
                g->file, g->line, g->col);
    }
    dump_stmts(d);
    /* The code, with label names on their own lines for reading. */
    fprintf(out, "  code: %" PRIu32 " instrs\n", f->ninstr);
    uint32_t l = 0;
    for (uint32_t i = 0; i <= f->ninstr; i++) {
        for (; l < f->nlabel && f->labels[l].instr <= i; l++)
            fprintf(out, "   %s:\n", f->labels[l].name);
        if (i < f->ninstr)
            dump_instr(d, i);
    }
}

/*}=====================================================================*/

/*{=====================================================================
 * The module
 *====================================================================*/

static void dump_item(dp_t *d, uint8_t kind, uint32_t idx)
{
    const isa_module_t *m = d->m;
    FILE *out = d->out;
    switch ((isa_itemkind_t)kind) {
    case ISA_ITEM_VAR:
        fprintf(out, "var %" PRIu32 ": ", idx);
        d->f = NULL;
        dump_var(d, &m->vars[idx]);
        break;
    case ISA_ITEM_FUNC:
        d->f = &m->funcs[idx];
        dump_func(d, idx);
        d->f = NULL;
        break;
    case ISA_ITEM_FUNCDECL:
        fprintf(out, "funcdecl %s (%s %" PRIu32 ") linkage=", m->funcs[idx].name,
                m->funcs[idx].is_entry ? "entry" : "func", idx);
        dump_linkage(out, m->funcs[idx].decl_linkage);
        fputc('\n', out);
        break;
    case ISA_ITEM_FILE: {
        const isa_file_t *fl = &m->files[idx];
        fprintf(out, "file %" PRIu32 " %s extra=[", fl->index, fl->name);
        for (uint32_t i = 0; i < fl->nextra && i < 2; i++)
            fprintf(out, "%s%" PRIu64, i ? ", " : "", fl->extra[i]);
        fputs("]\n", out);
        break;
    }
    case ISA_ITEM_PRAGMA:
        fprintf(out, "pragma %s\n", m->pragmas[idx].text);
        break;
    case ISA_ITEM_ALIAS:
        fprintf(out, "alias %s -> %s\n", m->aliases[idx].alias, m->aliases[idx].target);
        break;
    default:
        fprintf(out, "?item%u %" PRIu32 "\n", (unsigned)kind, idx);
        break;
    }
}

void isa_dump_module(FILE *out, const isa_module_t *m)
{
    dp_t d = { out, m, NULL };
    fprintf(out, "version %u.%u\ntarget", m->ver_major, m->ver_minor);
    for (uint32_t i = 0; i < m->ntarget; i++)
        fprintf(out, "%s%s", i ? ", " : " ", m->targets[i]);
    fprintf(out, " (sm=%s)\naddress_size %u\n",
            (unsigned)m->sm < ISA_SM__COUNT ? isa_sms[m->sm].text : "?", m->address_size);

    /* Items in source order; then anything no item lists, so that nothing is missed. */
    uint32_t counts[] = { m->nvar, m->nfunc, m->nfunc, m->nfile, m->npragma, m->nalias };
    bool *seen[6] = { 0 };
    for (unsigned k = 0; k < 6; k++)
        seen[k] = calloc(counts[k] + 1, 1);
    for (uint32_t i = 0; i < m->nitem; i++) {
        const isa_item_t *it = &m->items[i];
        if (it->kind < 6 && it->idx < counts[it->kind]) {
            if (seen[it->kind])
                seen[it->kind][it->idx] = true;
            dump_item(&d, it->kind, it->idx);
        } else {
            fprintf(out, "?item%u %" PRIu32 "\n", (unsigned)it->kind, it->idx);
        }
    }
    for (unsigned k = 0; k < 6; k++) {
        if (k == ISA_ITEM_FUNCDECL)
            continue;
        for (uint32_t i = 0; i < counts[k]; i++)
            if (seen[k] && !seen[k][i]) {
                fputs("unlisted ", out);
                dump_item(&d, (uint8_t)k, i);
            }
    }
    for (unsigned k = 0; k < 6; k++)
        free(seen[k]);
}

/*}=====================================================================*/
