/* inline.c: small device functions expanded into their callers at pre-decoding
 * (docs/execution.md, "Calls").  A call costs an activation, a frame and copies of its
 * arguments and results; the same work written in the caller costs nothing of that.  So
 * a direct call of a function that qualifies (a body of at most INL_MAX_BODY instructions
 * that calls nothing, has no .local, .shared or other storage of its own, takes no
 * parameter's address and has nothing refused) is replaced by the callee's body:
 *   - the callee's registers and labels become new ones of the caller; a .param parameter
 *     is the caller's .param variable that the call names (the caller's area is the
 *     callee's), a .reg parameter a new register with a mov from or to the call's one;
 *   - `ret` branches to the end of the body (the last one falls through); a guarded call
 *     branches around the body when its guard is false;
 *   - block-scope .param variables that no remaining call names and that are accessed by
 *     whole ld.param / st.param of 2, 4 or 8 bytes at fixed offsets become registers (one
 *     per field), the accesses movs;
 *   - the movs made so are propagated within their basic block: a copy of a value is
 *     replaced by the value where nothing writes it in between, a copy of a result by
 *     writing the result where it is computed (which may also read the register it then
 *     writes, as PTX allows: `mad.lo.s32 %r1, %r1, 3, 1`); the caller's own .reg results
 *     count as read where it returns, so a copy into one always stays (goldens
 *     calls_forward_ret and calls_fuzz_*, random call graphs from gen_calls.py).
 * The semantics stay those of the call: every path computes the same values, and lanes
 * that diverge in the callee reconverge at its end as they would at the return.  Two
 * things keep ptxas's contraction (contract.c) as it is for a call: the expanded body and
 * what follows it start basic blocks for the contraction plan (a call ends one), and a
 * mov whose source a float mul writes is never propagated, so no mul meets an add on the
 * other side of a call boundary. */
#include "exec/internal.h"

#include <stdlib.h>
#include <string.h>

#define INL_MAX_BODY  256       /* instructions of a callee that is expanded */
#define INL_MAX_FUNC  200000    /* instructions a caller may grow to */

/*{=====================================================================
 * Growing arrays
 *====================================================================*/
typedef struct {
    isa_instr_t     *in;  uint32_t nin, capin;
    isa_operand_t   *op;  uint32_t nop, capop;
    isa_reg_t       *rg;  uint32_t nrg, caprg;
    isa_var_t       *vr;  uint32_t nvr, capvr;
    isa_label_t     *lb;  uint32_t nlb, caplb;
    isa_dbgloc_t    *dg;  uint32_t ndg, capdg;
    isa_proto_t     *pr;  uint32_t npr, cappr;
    isa_brtargets_t *bt;  uint32_t nbt, capbt;
    uint8_t         *mk;  /* per instruction: a mov made here (propagated) */
    uint8_t         *ld;  /* per instruction: starts a block for the contraction plan */
    uint32_t         capmk, capld;
    bool             oom;
} bld_t;

static bool reserve(void **v, uint32_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap)
        return true;
    uint64_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    if (n > UINT32_MAX / 2)
        return false;
    void *p = realloc(*v, n * size);
    if (!p)
        return false;
    memset((char *)p + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    *v = p;
    *cap = (uint32_t)n;
    return true;
}
#define RESERVE(b, arr, cap, need) \
    ((b)->oom = (b)->oom || !reserve((void **)&(b)->arr, &(b)->cap, (need), sizeof *(b)->arr), !(b)->oom)

/* memcpy of n bytes, none when n is 0 (the arrays of an empty table may be NULL). */
static void copy_n(void *dst, const void *src, size_t n)
{
    if (n)
        memcpy(dst, src, n);
}

/* The caller's array src of n entries as b's first ones (arr, its count field, capacity). */
#define TAKE(b, arr, cnt, cap, src, n)                                                       \
    (RESERVE(b, arr, cap, (n)) ? (copy_n((b)->arr, (src), (size_t)(n) * sizeof *(src)), (b)->cnt = (n), true) : false)

static uint32_t push_opd(bld_t *b, isa_operand_t o)
{
    if (!RESERVE(b, op, capop, (uint64_t)b->nop + 1))
        return 0;
    b->op[b->nop] = o;
    return b->nop++;
}

/* Room for n instructions and the marks of n + 1. */
static bool room(bld_t *b, uint64_t n)
{
    return RESERVE(b, in, capin, n) && RESERVE(b, mk, capmk, n + 1) && RESERVE(b, ld, capld, n + 1);
}

static uint32_t push_instr(bld_t *b, const isa_instr_t *in, bool made)
{
    if (!room(b, (uint64_t)b->nin + 1))
        return 0;
    b->in[b->nin] = *in;
    b->mk[b->nin] = made;
    return b->nin++;
}

static uint32_t push_label(bld_t *b, uint32_t at)
{
    if (!RESERVE(b, lb, caplb, (uint64_t)b->nlb + 1))
        return 0;
    b->lb[b->nlb] = (isa_label_t){ .name = "$inlined", .instr = at, .scope = 0 };
    return b->nlb++;
}

static isa_type_t bits_type(unsigned bytes)
{
    return bytes == 2 ? ISA_T_B16 : bytes == 4 ? ISA_T_B32 : ISA_T_B64;
}

/* mov.bN dst, src (N = 8 * bytes), located at like; its operands pushed. */
static isa_instr_t make_mov(bld_t *b, unsigned bytes, isa_operand_t dst, isa_operand_t src, const isa_instr_t *like,
                            uint32_t dbg)
{
    isa_instr_t in = { 0 };
    in.op = ISA_OP_MOV;
    in.nsfx = 1;
    in.sfx[0] = (isa_sfx_t){ .kind = ISA_SFX_TYPE, .id = (uint16_t)bits_type(bytes) };
    in.ntypes = 1;
    in.types[0] = (uint8_t)bits_type(bytes);
    in.guard = ISA_NONE;
    in.nopd = 2;
    in.opd = push_opd(b, dst);
    push_opd(b, src);
    in.dbg = dbg;
    in.loc = like->loc;
    in.mloc = like->mloc;
    return in;
}

static void push_mov(bld_t *b, unsigned bytes, isa_operand_t dst, isa_operand_t src, const isa_instr_t *like,
                     uint32_t dbg)
{
    isa_instr_t in = make_mov(b, bytes, dst, src, like, dbg);
    push_instr(b, &in, true);
}

/* ld.param.bN reg, [var] (load) or st.param.bN [var], reg, N the register's width, located
 * at like. */
static void push_access(bld_t *b, bool load, uint32_t var, isa_operand_t reg, const isa_instr_t *like)
{
    unsigned bytes = (unsigned)isa_var_size(&b->vr[var]);
    isa_instr_t in = { 0 };
    in.op = load ? ISA_OP_LD : ISA_OP_ST;
    in.nsfx = 2;
    in.sfx[0] = (isa_sfx_t){ .kind = ISA_SFX_SPACE, .group = ISA_G_SPACE, .id = ISA_SP_PARAM };
    in.sfx[1] = (isa_sfx_t){ .kind = ISA_SFX_TYPE, .id = (uint16_t)bits_type(bytes) };
    in.ntypes = 1;
    in.types[0] = (uint8_t)bits_type(bytes);
    in.guard = ISA_NONE;
    in.nopd = 2;
    isa_operand_t addr = { .kind = ISA_OPD_ADDR, .base = ISA_OPD_SYM, .u.sym = var, .loc = reg.loc };
    in.opd = push_opd(b, load ? reg : addr);
    push_opd(b, load ? addr : reg);
    in.dbg = like->dbg;
    in.loc = like->loc;
    in.mloc = like->mloc;
    push_instr(b, &in, false);
}

/* bra to label, under the guard given (ISA_NONE: always). */
static void push_bra(bld_t *b, uint32_t label, uint32_t guard, bool neg, const isa_instr_t *like, uint32_t dbg)
{
    isa_instr_t in = { 0 };
    in.op = ISA_OP_BRA;
    in.guard = guard;
    in.guard_neg = neg;
    in.nopd = 1;
    in.opd = push_opd(b, (isa_operand_t){ .kind = ISA_OPD_LABEL, .u.label = label, .loc = like->loc });
    in.dbg = dbg;
    in.loc = like->loc;
    in.mloc = like->mloc;
    push_instr(b, &in, false);
}
/*}=====================================================================*/

/*{=====================================================================
 * Which calls are expanded
 *====================================================================*/
static bool is_param(isa_space_t s) { return s != ISA_SP_NONE && isa_spaces[s].window == ISA_SP_PARAM; }

static unsigned reg_bytes(const isa_func_t *fn, uint32_t r)
{
    const isa_reg_t *g = &fn->regs[r];
    return g->type == ISA_T_PRED || g->vec > 1 ? 0 : (isa_types[g->type].bits + 7) / 8;
}

/* A plain scalar register operand of n bytes (no selector, negation or offset). */
static bool plain_reg(const isa_func_t *fn, const isa_operand_t *o, unsigned n)
{
    return o->kind == ISA_OPD_REG && o->sel == ISA_SEL_NONE && !o->flags && reg_bytes(fn, o->u.reg) == n;
}

/* The mentions of function variables (by a symbol, or as an address's base when addr)
 * by operand k of pool (and the operands it holds) into count. */
static void count_syms(const isa_operand_t *pool, uint32_t k, uint32_t *count, uint32_t nv, bool addr)
{
    const isa_operand_t *o = &pool[k];
    bool sym = o->kind == ISA_OPD_SYM || (addr && o->kind == ISA_OPD_ADDR && o->base == ISA_OPD_SYM &&
                                          !(o->flags & ISA_OPDF_ADDRLIST));
    if (sym && !(o->flags & ISA_OPDF_MODSYM) && o->u.sym < nv)
        count[o->u.sym]++;
    if (o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_LIST || o->kind == ISA_OPD_DUAL ||
        (o->kind == ISA_OPD_ADDR && (o->flags & ISA_OPDF_ADDRLIST)))
        for (uint32_t e = 0; e < o->count; e++)
            count_syms(pool, o->u.first + e, count, nv, addr);
}

/* The body to expand for a call of g from caller, or NULL when g does not qualify. */
static const isa_func_t *callee_body(const ex_program_t *p, uint32_t g, uint32_t caller)
{
    const isa_module_t *m = p->m;
    const ex_func_t *gf = &p->funcs[g];
    if (g == caller || g >= m->nfunc || !m->funcs[g].has_body || m->funcs[g].is_entry || !gf->code ||
        gf->unsupported || gf->local_size || gf->stack_ops || gf->param_copies)
        return NULL;
    const isa_func_t *b = gf->ir_inl ? gf->ir_inl : &m->funcs[g];
    if (b->ninstr > INL_MAX_BODY)
        return NULL;
    for (uint32_t i = 0; i < b->ninstr; i++)
        if (b->instrs[i].op == ISA_OP_CALL)
            return NULL;
    for (uint32_t v = 0; v < b->nvar; v++) {
        const isa_var_t *var = &b->vars[v];
        bool formal = v < b->nret + b->nparam;
        if (!is_param(var->space) && !(formal && var->space == ISA_SP_REG))
            return NULL;
        if (formal && var->space == ISA_SP_REG && (var->vec > 1 || var->type == ISA_T_PRED ||
                                                   (isa_types[var->type].bits != 16 && isa_types[var->type].bits != 32 &&
                                                    isa_types[var->type].bits != 64)))
            return NULL;
    }
    uint32_t *count = calloc(b->nvar + 1, sizeof *count);
    if (!count)
        return NULL;
    for (uint32_t i = 0; i < b->ninstr; i++)
        for (unsigned k = 0; k < b->instrs[i].nopd; k++)
            count_syms(b->opds, b->instrs[i].opd + k, count, b->nvar, false);
    bool taken = false;          /* a variable's address taken */
    for (uint32_t v = 0; v < b->nvar; v++)
        taken |= count[v] != 0;
    free(count);
    return taken ? NULL : b;
}

/* The call at caller's instruction in, when it is expanded: its lists' positions (-1:
 * none) and the callee's body. */
static const isa_func_t *site(const ex_program_t *p, uint32_t fi, const isa_instr_t *in, int *rets, int *args)
{
    const isa_func_t *f = &p->m->funcs[fi];
    if (in->op != ISA_OP_CALL || in->nopd == 0)
        return NULL;
    const isa_operand_t *o = &f->opds[in->opd];
    unsigned fpos = o[0].kind == ISA_OPD_LIST ? 1 : 0;
    if (fpos >= in->nopd || o[fpos].kind != ISA_OPD_FUNC)
        return NULL;
    *rets = fpos ? 0 : -1;
    *args = fpos + 1 < in->nopd && o[fpos + 1].kind == ISA_OPD_LIST ? (int)fpos + 1 : -1;
    if (in->nopd > fpos + 1 + (*args >= 0))
        return NULL;             /* a prototype or list of targets */
    const isa_func_t *b = callee_body(p, o[fpos].u.func, fi);
    if (!b || (*rets >= 0 ? o[*rets].count : 0) != b->nret || (*args >= 0 ? o[*args].count : 0) != b->nparam)
        return NULL;
    for (uint32_t v = 0; v < b->nret + b->nparam; v++) {
        const isa_operand_t *a = &f->opds[o[v < b->nret ? *rets : *args].u.first + (v < b->nret ? v : v - b->nret)];
        const isa_var_t *formal = &b->vars[v];
        if (formal->space == ISA_SP_REG) {
            if (!plain_reg(f, a, (isa_types[formal->type].bits + 7) / 8))
                return NULL;
        } else if (a->kind == ISA_OPD_REG) {
            uint64_t size = isa_var_size(formal);   /* a register's value through a .param area */
            if ((size != 2 && size != 4 && size != 8) || !plain_reg(f, a, (unsigned)size))
                return NULL;
        } else if (a->kind != ISA_OPD_SYM || (a->flags & ISA_OPDF_MODSYM) || a->u.sym < f->nret + f->nparam ||
                   !is_param(f->vars[a->u.sym].space) || isa_var_size(&f->vars[a->u.sym]) != isa_var_size(formal)) {
            return NULL;
        }
    }
    return b;
}
/*}=====================================================================*/

/*{=====================================================================
 * Expansion
 *====================================================================*/
/* The call in (caller f) of body g, expanded at the end of b. */
static void expand(bld_t *b, const isa_func_t *f, const isa_instr_t *in, const isa_func_t *g, int rets, int args)
{
    const isa_operand_t *o = &f->opds[in->opd];
    uint32_t rb = b->nrg, ob = b->nop, lbase = b->nlb, dbase = b->ndg, pbase = b->npr, bbase = b->nbt;
    uint32_t *vm = malloc((g->nvar + 1) * sizeof *vm), *at = malloc((g->ninstr + 1) * sizeof *at);
    if (!vm || !at || !RESERVE(b, rg, caprg, (uint64_t)b->nrg + g->nreg) ||
        !RESERVE(b, op, capop, (uint64_t)b->nop + g->nopd) || !RESERVE(b, lb, caplb, (uint64_t)b->nlb + g->nlabel + 2) ||
        !RESERVE(b, dg, capdg, (uint64_t)b->ndg + g->ndbg) || !RESERVE(b, pr, cappr, (uint64_t)b->npr + g->nproto) ||
        !RESERVE(b, bt, capbt, (uint64_t)b->nbt + g->nbrt) || !RESERVE(b, vr, capvr, (uint64_t)b->nvr + g->nvar)) {
        b->oom = true;
        free(vm);
        free(at);
        return;
    }
    /* registers, variables, labels, .loc entries, prototypes and target lists */
    for (uint32_t r = 0; r < g->nreg; r++) {
        b->rg[b->nrg] = g->regs[r];
        b->rg[b->nrg++].decl = ISA_NONE;
    }
    for (uint32_t v = 0; v < g->nvar; v++) {
        if (v < g->nret + g->nparam) {
            const isa_operand_t *a = &f->opds[o[v < g->nret ? rets : args].u.first + (v < g->nret ? v : v - g->nret)];
            if (g->vars[v].space == ISA_SP_REG || a->kind == ISA_OPD_SYM) {
                vm[v] = g->vars[v].space == ISA_SP_REG ? ISA_NONE : a->u.sym;
                continue;
            }
        }
        vm[v] = b->nvr;
        b->vr[b->nvr] = g->vars[v];
        b->vr[b->nvr++].scope = 0;
    }
    b->nlb += g->nlabel;
    if (g->ndbg)
        memcpy(b->dg + b->ndg, g->dbg, g->ndbg * sizeof *g->dbg);
    b->ndg += g->ndbg;
    if (g->nproto)
        memcpy(b->pr + b->npr, g->protos, g->nproto * sizeof *g->protos);
    b->npr += g->nproto;
    for (uint32_t t = 0; t < g->nbrt; t++) {
        isa_brtargets_t bt = g->brts[t];
        bt.targets = malloc((bt.count + 1) * sizeof *bt.targets);
        if (!bt.targets) {
            b->oom = true;
            break;
        }
        for (uint32_t e = 0; e < bt.count; e++)
            bt.targets[e] = g->brts[t].targets[e] + (bt.calltargets ? 0 : lbase);
        b->bt[b->nbt++] = bt;
    }
    for (uint32_t k = 0; k < g->nopd; k++) {
        isa_operand_t x = g->opds[k];
        switch (x.kind) {
        case ISA_OPD_REG: x.u.reg += rb; break;
        case ISA_OPD_ADDR:
            if (x.flags & ISA_OPDF_ADDRLIST)
                x.u.first += ob;
            else if (x.base == ISA_OPD_REG)
                x.u.reg += rb;
            else if (x.base == ISA_OPD_SYM && !(x.flags & ISA_OPDF_MODSYM))
                x.u.sym = vm[x.u.sym];
            break;
        case ISA_OPD_LABEL: x.u.label += lbase; break;
        case ISA_OPD_VEC: case ISA_OPD_LIST: case ISA_OPD_DUAL: x.u.first += ob; break;
        case ISA_OPD_PROTO: x.u.proto += pbase; break;
        case ISA_OPD_BRTARGETS: x.u.idx += bbase; break;
        default: break;
        }
        b->op[b->nop++] = x;
    }
    /* a label at the body's end when a ret other than the last one, or a branch, goes there */
    bool jumps = false;
    for (uint32_t j = 0; j < g->ninstr; j++)
        jumps |= g->instrs[j].op == ISA_OP_RET && (j + 1 < g->ninstr || g->instrs[j].guard != ISA_NONE);
    for (uint32_t l = 0; l < g->nlabel; l++)
        jumps |= g->labels[l].instr >= g->ninstr;
    uint32_t skip = ISA_NONE, end = jumps ? push_label(b, 0) : ISA_NONE;
    /* a guarded call skips the body when its guard is false */
    if (in->guard != ISA_NONE) {
        skip = push_label(b, 0);
        push_bra(b, skip, in->guard, !in->guard_neg, in, in->dbg);
    }
    if (!room(b, (uint64_t)b->nin + 1)) {
        free(vm);
        free(at);
        return;
    }
    b->ld[b->nin] = 1;
    /* arguments into .reg parameters, and registers into the .param areas they are passed in */
    for (uint32_t v = g->nret; v < g->nret + g->nparam; v++)
        if (g->vars[v].space != ISA_SP_REG && f->opds[o[args].u.first + v - g->nret].kind == ISA_OPD_REG)
            push_access(b, false, vm[v], f->opds[o[args].u.first + v - g->nret], in);
        else if (g->vars[v].space == ISA_SP_REG)
            push_mov(b, (isa_types[g->vars[v].type].bits + 7) / 8,
                     (isa_operand_t){ .kind = ISA_OPD_REG, .u.reg = rb + isa_param_reg(g, v), .loc = in->loc },
                     f->opds[o[args].u.first + v - g->nret], in, in->dbg);
    /* the body: ret branches to its end, the last one falls through */
    for (uint32_t j = 0; j < g->ninstr; j++) {
        const isa_instr_t *s = &g->instrs[j];
        uint32_t guard = s->guard == ISA_NONE ? ISA_NONE : s->guard + rb;
        uint32_t dbg = s->dbg == ISA_NONE ? ISA_NONE : s->dbg + dbase;
        at[j] = b->nin;
        if (s->op == ISA_OP_RET) {
            if (j + 1 < g->ninstr || guard != ISA_NONE)
                push_bra(b, end, guard, s->guard_neg, s, dbg);
            continue;
        }
        isa_instr_t c = *s;
        c.opd += ob;
        c.guard = guard;
        c.dbg = dbg;
        push_instr(b, &c, false);
    }
    at[g->ninstr] = b->nin;
    for (uint32_t l = 0; l < g->nlabel; l++) {
        b->lb[lbase + l] = g->labels[l];
        b->lb[lbase + l].instr = at[g->labels[l].instr < g->ninstr ? g->labels[l].instr : g->ninstr];
        b->lb[lbase + l].scope = 0;
    }
    /* the end: results out of .reg parameters */
    if (end != ISA_NONE)
        b->lb[end].instr = b->nin;
    for (uint32_t v = 0; v < g->nret; v++)
        if (g->vars[v].space != ISA_SP_REG && f->opds[o[rets].u.first + v].kind == ISA_OPD_REG)
            push_access(b, true, vm[v], f->opds[o[rets].u.first + v], in);
        else if (g->vars[v].space == ISA_SP_REG)
            push_mov(b, (isa_types[g->vars[v].type].bits + 7) / 8, f->opds[o[rets].u.first + v],
                     (isa_operand_t){ .kind = ISA_OPD_REG, .u.reg = rb + isa_param_reg(g, v), .loc = in->loc },
                     in, in->dbg);
    if (skip != ISA_NONE)
        b->lb[skip].instr = b->nin;
    if (room(b, (uint64_t)b->nin + 1))
        b->ld[b->nin] = 1;
    free(vm);
    free(at);
}
/*}=====================================================================*/

/*{=====================================================================
 * Rewriting: instructions deleted or replaced, labels and block marks following
 *====================================================================*/
/* Keep the instructions i with !del[i] (in order); labels and block marks of a deleted
 * instruction go to the next one kept. */
static void compact(bld_t *b, const uint8_t *del)
{
    uint32_t *at = malloc((b->nin + 1) * sizeof *at);
    if (!at) {
        b->oom = true;
        return;
    }
    uint32_t n = 0;
    uint8_t mark = 0;
    for (uint32_t i = 0; i < b->nin; i++) {
        at[i] = n;
        mark |= b->ld[i];
        if (del[i])
            continue;
        b->in[n] = b->in[i];
        b->mk[n] = b->mk[i];
        b->ld[n] = mark;
        mark = 0;
        n++;
    }
    at[b->nin] = n;
    b->ld[n] = mark;
    for (uint32_t l = 0; l < b->nlb; l++)
        b->lb[l].instr = at[b->lb[l].instr < b->nin ? b->lb[l].instr : b->nin];
    b->nin = n;
    free(at);
}

/* Whether instruction i starts a basic block: a label names it, or a transfer precedes it. */
static uint8_t *block_starts(const bld_t *b)
{
    uint8_t *s = calloc(b->nin + 1, 1);
    if (!s)
        return NULL;
    s[0] = 1;
    for (uint32_t l = 0; l < b->nlb; l++)
        if (b->lb[l].instr <= b->nin)
            s[b->lb[l].instr] = 1;
    for (uint32_t i = 0; i + 1 < b->nin; i++) {
        uint16_t op = b->in[i].op;
        if (op == ISA_OP_BRA || op == ISA_OP_BRX_IDX || op == ISA_OP_CALL || op == ISA_OP_RET || op == ISA_OP_EXIT ||
            op == ISA_OP_TRAP)
            s[i + 1] = 1;
    }
    return s;
}
/*}=====================================================================*/

/*{=====================================================================
 * .param variables as registers
 *====================================================================*/
typedef struct { uint32_t off, bytes, reg; } field_t;

/* Instruction in, when it is a whole ld.param / st.param of variable v (non-NULL: its
 * element bytes and count); its address operand's index in *addr. */
static bool param_access(const bld_t *b, const isa_func_t *view, const isa_instr_t *in, uint32_t *addr,
                         unsigned *bytes, unsigned *n)
{
    if ((in->op != ISA_OP_LD && in->op != ISA_OP_ST) || in->nopd != 2 || in->ntypes != 1)
        return false;
    int sp = isa_instr_space(in, 0), vm = isa_instr_mod(in, ISA_G_VEC);
    if (sp < 0 || !is_param((isa_space_t)sp) || in->nsfx != 2u + (vm >= 0))
        return false;
    unsigned w = isa_types[in->types[0]].bits / 8;
    unsigned cnt = vm < 0 ? 1 : vm == ISA_M_V2 ? 2 : vm == ISA_M_V4 ? 4 : 0;
    if ((w != 2 && w != 4 && w != 8) || cnt == 0)
        return false;
    bool load = in->op == ISA_OP_LD;
    const isa_operand_t *a = &b->op[in->opd + (load ? 1 : 0)], *d = &b->op[in->opd + (load ? 0 : 1)];
    if (a->kind != ISA_OPD_ADDR || a->base != ISA_OPD_SYM || (a->flags & ~ISA_OPDF_UNSIGNED) || a->imm < 0)
        return false;
    for (unsigned k = 0; k < cnt; k++) {
        const isa_operand_t *e = cnt == 1 ? d : &b->op[d->u.first + k];
        if (cnt > 1 && (d->kind != ISA_OPD_VEC || d->count != cnt))
            return false;
        bool ok = plain_reg(view, e, w) || (load && cnt > 1 && e->kind == ISA_OPD_SINK) ||
                  (!load && (e->kind == ISA_OPD_IMM || e->kind == ISA_OPD_F32 || e->kind == ISA_OPD_F64));
        if (!ok)
            return false;
    }
    *addr = in->opd + (load ? 1 : 0);
    *bytes = w;
    *n = cnt;
    return true;
}

/* A read-only view of b as a function (for the operand walkers). */
static isa_func_t view_of(const bld_t *b)
{
    isa_func_t v = { 0 };
    v.ninstr = b->nin;
    v.instrs = b->in;
    v.nopd = b->nop;
    v.opds = b->op;
    v.nreg = b->nrg;
    v.regs = b->rg;
    return v;
}

/* The block-scope .param variables (from first on) that no call names and only whole
 * accesses reach become registers, one per field. */
static void scalarize(bld_t *b, uint32_t first)
{
    isa_func_t view = view_of(b);
    uint32_t nv = b->nvr;
    uint8_t *bad = calloc(nv + 1, 1);
    uint32_t *nf = calloc(nv + 1, sizeof *nf);
    field_t **fl = calloc(nv + 1, sizeof *fl);
    uint32_t *cap = calloc(nv + 1, sizeof *cap);
    if (!bad || !nf || !fl || !cap) {
        b->oom = true;
        goto out;
    }
    /* every mention of a variable by the instructions (call lists, addresses taken,
     * accesses); the whole accesses are taken off below */
    uint32_t *count = calloc(nv + 1, sizeof *count);
    if (!count) {
        b->oom = true;
        goto out;
    }
    for (uint32_t i = 0; i < b->nin; i++)
        for (unsigned k = 0; k < b->in[i].nopd; k++)
            count_syms(b->op, b->in[i].opd + k, count, nv, true);
    for (uint32_t i = 0; i < b->nin; i++) {
        uint32_t a;
        unsigned w, n;
        if (!param_access(b, &view, &b->in[i], &a, &w, &n))
            continue;
        uint32_t v = b->op[a].u.sym;
        if (v >= nv || v < first || !is_param(b->vr[v].space))
            continue;
        count[v]--;
        for (unsigned k = 0; k < n; k++) {
            uint64_t off = (uint64_t)b->op[a].imm + (uint64_t)k * w;
            if (off + w > isa_var_size(&b->vr[v])) {
                bad[v] |= 1;
                break;
            }
            uint32_t e = 0;
            while (e < nf[v] && !(fl[v][e].off == off && fl[v][e].bytes == w)) {
                if (off < fl[v][e].off + fl[v][e].bytes && fl[v][e].off < off + w)
                    bad[v] |= 1;     /* fields that overlap in part */
                e++;
            }
            if (e == nf[v]) {
                if (!reserve((void **)&fl[v], &cap[v], (uint64_t)nf[v] + 1, sizeof *fl[v])) {
                    b->oom = true;
                    free(count);
                    goto out;
                }
                fl[v][nf[v]++] = (field_t){ (uint32_t)off, w, ISA_NONE };
            }
        }
    }
    for (uint32_t v = first; v < nv; v++)
        if (count[v] == 0 && !(bad[v] & 1) && is_param(b->vr[v].space) && nf[v])
            bad[v] = 0;
        else
            bad[v] = 1;
    free(count);
    /* a register per field, the accesses as movs */
    for (uint32_t v = first; v < nv; v++)
        for (uint32_t e = 0; !bad[v] && e < nf[v]; e++) {
            if (!RESERVE(b, rg, caprg, (uint64_t)b->nrg + 1))
                goto out;
            b->rg[b->nrg] = (isa_reg_t){ .name = b->vr[v].name, .type = bits_type(fl[v][e].bytes), .vec = 1,
                                         .decl = ISA_NONE };
            fl[v][e].reg = b->nrg++;
        }
    /* the accesses rewritten: a scalar one becomes mov.bN in place, a vector one a mov
     * per element */
    uint32_t nin = b->nin, n = 0;
    isa_instr_t *oi = malloc(((size_t)nin * 4 + 1) * sizeof *oi);
    uint8_t *om = malloc((size_t)nin * 4 + 2), *ol = calloc((size_t)nin * 4 + 2, 1);
    uint32_t *at = malloc((nin + 1) * sizeof *at);
    if (!oi || !om || !ol || !at) {
        free(oi); free(om); free(ol); free(at);
        b->oom = true;
        goto out;
    }
    uint8_t mark = 0;
    for (uint32_t i = 0; i < nin; i++) {
        uint32_t a;
        unsigned w, cnt;
        at[i] = n;
        mark |= b->ld[i];
        view = view_of(b);
        isa_instr_t *in = &b->in[i];
        uint32_t v = ISA_NONE;
        if (param_access(b, &view, in, &a, &w, &cnt))
            v = b->op[a].u.sym;
        if (v == ISA_NONE || v < first || v >= nv || bad[v]) {
            ol[n] = mark;
            mark = 0;
            om[n] = b->mk[i];
            oi[n++] = *in;
            continue;
        }
        bool load = in->op == ISA_OP_LD;
        uint32_t data = in->opd + (load ? 0 : 1);
        for (unsigned k = 0; k < cnt; k++) {
            uint64_t off = (uint64_t)b->op[a].imm + (uint64_t)k * w;
            uint32_t e = 0;
            while (fl[v][e].off != off || fl[v][e].bytes != w)
                e++;
            isa_operand_t fo = { .kind = ISA_OPD_REG, .u.reg = fl[v][e].reg, .loc = b->op[a].loc };
            isa_operand_t el = cnt == 1 ? b->op[data] : b->op[b->op[data].u.first + k];
            if (el.kind == ISA_OPD_SINK)
                continue;
            isa_instr_t mv;
            if (cnt == 1) {
                /* in place: [dst, src] */
                b->op[in->opd] = load ? el : fo;
                b->op[in->opd + 1] = load ? fo : el;
                mv = *in;
                mv.op = ISA_OP_MOV;
                mv.nsfx = 1;
                mv.sfx[0] = (isa_sfx_t){ .kind = ISA_SFX_TYPE, .id = (uint16_t)bits_type(w) };
                mv.types[0] = (uint8_t)bits_type(w);
            } else {
                mv = make_mov(b, w, load ? el : fo, load ? fo : el, in, in->dbg);
                in = &b->in[i];   /* (the pool may have moved, the instructions not) */
                mv.guard = in->guard;
                mv.guard_neg = in->guard_neg;
            }
            ol[n] = mark;
            mark = 0;
            om[n] = 1;
            oi[n++] = mv;
        }
    }
    at[nin] = n;
    ol[n] = mark | b->ld[nin];
    for (uint32_t l = 0; l < b->nlb; l++)
        b->lb[l].instr = at[b->lb[l].instr < nin ? b->lb[l].instr : nin];
    free(b->in);
    free(b->mk);
    free(b->ld);
    free(at);
    b->in = oi;
    b->mk = om;
    b->ld = ol;
    b->nin = n;
    b->capin = nin * 4 + 1;
    b->capmk = b->capld = nin * 4 + 2;
    if (b->oom)
        goto out;
out:
    for (uint32_t v = 0; fl && v < nv; v++)
        free(fl[v]);
    free(fl);
    free(nf);
    free(cap);
    free(bad);
}
/*}=====================================================================*/

/*{=====================================================================
 * Propagating the movs made
 *====================================================================*/
typedef struct { uint32_t reg, n, *at, cap; bool oom; } hits_t;

static void hit(void *c, uint32_t reg, uint32_t opd)
{
    hits_t *h = c;
    if (reg != h->reg)
        return;
    if (opd == ISA_NONE) {       /* as a guard: not renamed */
        h->oom = true;
        return;
    }
    if (!reserve((void **)&h->at, &h->cap, (uint64_t)h->n + 1, sizeof *h->at)) {
        h->oom = true;
        return;
    }
    h->at[h->n++] = opd;
}

typedef struct { uint32_t *nrd, *nwr; } tally_t;
static void tally_rd(void *c, uint32_t reg, uint32_t opd) { (void)opd; ((tally_t *)c)->nrd[reg]++; }
static void tally_wr(void *c, uint32_t reg, uint32_t opd) { (void)opd; ((tally_t *)c)->nwr[reg]++; }

/* Per register: a float mul may write it (a value contraction may fuse). */
typedef struct { uint8_t *mulw; } mulw_t;
static void mark_mulw(void *c, uint32_t reg, uint32_t opd) { (void)opd; ((mulw_t *)c)->mulw[reg] = 1; }

static void mul_written(const isa_func_t *v, uint8_t *mulw)
{
    mulw_t m = { mulw };
    for (uint32_t i = 0; i < v->ninstr; i++) {
        const isa_instr_t *in = &v->instrs[i];
        if (in->op != ISA_OP_MUL || in->ntypes == 0)
            continue;
        isa_tclass_t cls = isa_types[in->types[0]].cls;
        if (cls == ISA_TC_FLOAT || cls == ISA_TC_PACKED)
            ex_each_write(v, in, mark_mulw, &m);
    }
}

static uint32_t count_mentions(const isa_func_t *v, const isa_instr_t *in, uint32_t r, bool write)
{
    hits_t h = { .reg = r };
    (write ? ex_each_write : ex_each_read)(v, in, hit, &h);
    free(h.at);
    return h.oom ? UINT32_MAX : h.n;
}

/* Propagate the movs made in b, the body of f. */
static bool propagate(bld_t *b, const isa_func_t *f)
{
    isa_func_t v = view_of(b);
    uint32_t *nrd = calloc(b->nrg + 1, sizeof *nrd), *nwr = calloc(b->nrg + 1, sizeof *nwr);
    uint8_t *start = block_starts(b), *del = calloc(b->nin + 1, 1), *mulw = calloc(b->nrg + 1, 1);
    bool changed = false;
    if (!nrd || !nwr || !start || !del || !mulw) {
        b->oom = true;
        goto out;
    }
    tally_t t = { nrd, nwr };
    for (uint32_t i = 0; i < b->nin; i++) {
        ex_each_read(&v, &b->in[i], tally_rd, &t);
        ex_each_write(&v, &b->in[i], tally_wr, &t);
    }
    /* f's .reg results are read where it returns: a copy into one is never deleted, nor a
     * value moved out of one (its reads never all lie in one block) */
    for (uint32_t r = 0; r < f->nret; r++)
        if (f->rets[r].space == ISA_SP_REG) {
            uint32_t reg = isa_param_reg(f, r);
            if (reg < b->nrg)
                nrd[reg]++;
        }
    mul_written(&v, mulw);
    for (uint32_t i = 0; i < b->nin; i++) {
        isa_instr_t *mv = &b->in[i];
        if (!b->mk[i] || del[i] || mv->op != ISA_OP_MOV || mv->guard != ISA_NONE)
            continue;
        unsigned w = isa_types[mv->types[0]].bits / 8;
        isa_operand_t *d = &b->op[mv->opd], *s = &b->op[mv->opd + 1];
        if (!plain_reg(&v, d, w) || !plain_reg(&v, s, w) || d->u.reg == s->u.reg)
            continue;
        uint32_t D = d->u.reg, S = s->u.reg;
        if (mulw[S])
            continue;            /* contraction sees the value through this copy only */
        /* forward: D's reads (all in this block, before S changes) read S */
        if (nwr[D] == 1) {
            hits_t h = { .reg = D };
            bool ok = true;
            uint32_t j = i + 1;
            for (; j < b->nin && h.n < nrd[D] && ok; j++) {
                if (start[j]) {
                    ok = false;
                    break;
                }
                if (!del[j]) {
                    uint32_t before = h.n;
                    ex_each_read(&v, &b->in[j], hit, &h);
                    if (h.oom || (h.n > before && count_mentions(&v, &b->in[j], D, true)))
                        ok = false;
                    else if (count_mentions(&v, &b->in[j], S, true) && h.n < nrd[D])
                        ok = false;   /* S changes before D's last read */
                }
            }
            if (ok && h.n == nrd[D]) {
                for (uint32_t k = 0; k < h.n; k++)
                    b->op[h.at[k]].u.reg = S;
                nrd[S] += h.n - 1;
                nrd[D] = 0;
                nwr[D] = 0;
                del[i] = 1;
                changed = true;
                free(h.at);
                continue;
            }
            free(h.at);
        }
        /* backward: the instruction computing S (in this block) writes D instead */
        if (nwr[S] == 1 && nrd[S] == 1 && !start[i]) {
            uint32_t j = i;
            bool ok = true;
            while (j-- > 0) {
                if (!del[j] && count_mentions(&v, &b->in[j], S, true))
                    break;
                if (start[j]) {
                    ok = false;
                    break;
                }
                if (del[j])
                    continue;
                if (count_mentions(&v, &b->in[j], D, false) || count_mentions(&v, &b->in[j], D, true)) {
                    ok = false;
                    break;
                }
            }
            if (!ok || j == UINT32_MAX || del[j])
                continue;
            isa_instr_t *def = &b->in[j];
            hits_t h = { .reg = S };
            ex_each_write(&v, def, hit, &h);
            bool plain = !h.oom && h.n == 1 && def->guard == ISA_NONE && def->op != ISA_OP_CALL &&
                         h.at[0] >= def->opd && h.at[0] < def->opd + def->nopd &&
                         isa_shape_kind(isa_ops[def->op].shape, h.at[0] - def->opd) == 'd' &&
                         plain_reg(&v, &b->op[h.at[0]], w) && !count_mentions(&v, def, D, true);
            if (plain) {
                b->op[h.at[0]].u.reg = D;
                nwr[S] = 0;
                nrd[S] = 0;
                del[i] = 1;
                changed = true;
            }
            free(h.at);
        }
    }
    if (changed)
        compact(b, del);
out:
    free(nrd);
    free(nwr);
    free(start);
    free(del);
    free(mulw);
    return changed && !b->oom;
}
/*}=====================================================================*/

isa_func_t *ex_inline(const ex_program_t *p, uint32_t fi, uint8_t **lead)
{
    const isa_func_t *f = &p->m->funcs[fi];
    *lead = NULL;
    if (!f->has_body)
        return NULL;
    int rets, args;
    uint64_t grown = f->ninstr;
    bool any = false;
    for (uint32_t i = 0; i < f->ninstr; i++) {
        const isa_func_t *g = site(p, fi, &f->instrs[i], &rets, &args);
        if (g && grown + g->ninstr + 8 <= INL_MAX_FUNC) {
            grown += g->ninstr + 8;
            any = true;
        }
    }
    if (!any)
        return NULL;
    bld_t b = { 0 };
    uint32_t *at = malloc((f->ninstr + 1) * sizeof *at);
    if (!at || !TAKE(&b, op, nop, capop, f->opds, f->nopd) || !TAKE(&b, rg, nrg, caprg, f->regs, f->nreg) ||
        !TAKE(&b, vr, nvr, capvr, f->vars, f->nvar) || !TAKE(&b, lb, nlb, caplb, f->labels, f->nlabel) ||
        !TAKE(&b, dg, ndg, capdg, f->dbg, f->ndbg) || !TAKE(&b, pr, npr, cappr, f->protos, f->nproto) ||
        !RESERVE(&b, bt, capbt, f->nbrt))
        goto fail;
    for (uint32_t t = 0; t < f->nbrt; t++) {
        b.bt[t] = f->brts[t];
        b.bt[t].targets = malloc((f->brts[t].count + 1) * sizeof *b.bt[t].targets);
        if (!b.bt[t].targets)
            goto fail;
        copy_n(b.bt[t].targets, f->brts[t].targets, f->brts[t].count * sizeof *f->brts[t].targets);
        b.nbt = t + 1;
    }
    grown = f->ninstr;
    for (uint32_t i = 0; i < f->ninstr && !b.oom; i++) {
        const isa_instr_t *in = &f->instrs[i];
        at[i] = b.nin;
        const isa_func_t *g = site(p, fi, in, &rets, &args);
        if (g && grown + g->ninstr + 8 <= INL_MAX_FUNC) {
            grown += g->ninstr + 8;
            expand(&b, f, in, g, rets, args);
        } else {
            push_instr(&b, in, false);
        }
    }
    at[f->ninstr] = b.nin;
    if (b.oom || !RESERVE(&b, mk, capmk, (uint64_t)b.nin + 2))
        goto fail;
    for (uint32_t l = 0; l < f->nlabel; l++)
        b.lb[l].instr = at[f->labels[l].instr < f->ninstr ? f->labels[l].instr : f->ninstr];
    scalarize(&b, f->nret + f->nparam);
    for (unsigned round = 0; round < 8 && !b.oom && propagate(&b, f); round++)
        ;
    if (b.oom)
        goto fail;
    isa_func_t *c = calloc(1, sizeof *c);
    if (!c)
        goto fail;
    *c = *f;
    c->ninstr = b.nin;   c->instrs = b.in;
    c->nopd = b.nop;     c->opds = b.op;
    c->nreg = b.nrg;     c->regs = b.rg;
    c->nvar = b.nvr;     c->vars = b.vr;
    c->nlabel = b.nlb;   c->labels = b.lb;
    c->ndbg = b.ndg;     c->dbg = b.dg;
    c->nproto = b.npr;   c->protos = b.pr;
    c->nbrt = b.nbt;     c->brts = b.bt;
    c->nscope = 0;       c->scopes = NULL;     /* printing and name lookup only */
    c->npragma = 0;      c->pragmas = NULL;
    c->nstmt = 0;        c->stmts = NULL;
    free(b.mk);
    free(at);
    *lead = b.ld;
    return c;
fail:
    free(at);
    for (uint32_t t = 0; t < b.nbt; t++)
        free(b.bt[t].targets);
    free(b.in); free(b.op); free(b.rg); free(b.vr); free(b.lb); free(b.dg); free(b.pr); free(b.bt);
    free(b.mk); free(b.ld);
    return NULL;
}

void ex_inline_free(isa_func_t *f)
{
    if (!f)
        return;
    for (uint32_t t = 0; t < f->nbrt; t++)
        free(f->brts[t].targets);
    free(f->instrs); free(f->opds); free(f->regs); free(f->vars); free(f->labels); free(f->dbg);
    free(f->protos); free(f->brts);
    free(f);
}
