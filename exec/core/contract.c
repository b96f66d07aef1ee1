/* contract.c: which mul ptxas fuses into which add or sub (docs/execution.md,
 * "Contraction").  ptxas fuses a mul and an add or sub of .f32, .f64, .f16 or .f16x2
 * without rounding modifiers into one fused multiply-add, working on values, not
 * registers (measured: the SASS ptxas 13 makes for sm_90, and the H100's results in
 * goldens fma_contract and fma_contract_flow):
 *   - the add's operand must be the mul's value on every path (a mul whose value meets
 *     another definition of the register, a guarded one included, is not fused);
 *   - every read of the mul's value must be such an add, or a neg whose value goes on to
 *     such adds (folded into the product's sign); one that stores it, or uses it twice
 *     as in m + m, keeps the mul unfused everywhere; reads by dead code (which ptxas
 *     deletes first) do not count;
 *   - the muls whose value goes to one add fuse first, then each add left takes a mul
 *     all of whose adds are free or took it, the one with fewer adds (see the plan);
 *   - in the add's basic block (no label, branch or call between) any mul fuses; across
 *     blocks only a mul one of whose operands is an immediate or a value SASS reads from
 *     the constant bank, a kernel parameter or a .const variable (ptxas moves it to the
 *     add: a mul before a loop fuses into the adds in it), and not one inside a loop that
 *     the add is outside of;
 *   - a source register written between the two, or the mul's own destination, still
 *     counts with the value it had at the mul (the mul then keeps copies of its sources).
 * The plan is made once per function, before its instructions are selected. */
#include "exec/internal.h"

#include <stdlib.h>
#include <string.h>

#define RD_NONE ISA_NONE          /* no single reaching definition */

/* The adds a mul's value goes to. */
typedef struct { uint32_t *at, n, cap; } ex_ulist_t;

typedef struct {
    const isa_func_t *fn;
    uint32_t  n, nreg;
    ex_cfg_t  c;                  /* the blocks, their successors and predecessors (flow/cfg.c) */
    uint32_t *def_at, *def;       /* instructions that may write register r, ascending */
    uint32_t *use_at, *use;       /* instructions that read register r, ascending */
    uint32_t *mark, stamp;        /* per block: visited in the walk numbered stamp */
    bool      oom;
    uint32_t *stack;              /* [nb] */
    uint8_t  *uses_memo;          /* per mul: 0 unknown, 1 its value goes to adds only, 2 not */
    ex_ulist_t *uses;             /* per mul: those adds (uses_memo 1); nuses entries */
    uint32_t  nuses;
    uint8_t  *cross_memo;         /* per mul: 0 unknown, 1 may fuse across blocks, 2 not */
    uint8_t  *dead_memo;          /* per instruction: 0 unknown, 1 dead code (dead_insn), 2 not */
    uint8_t  *mul_def;            /* per register: a mul that may fuse, or a neg, writes it */
    uint32_t **rd;                /* per register with several definitions: what each read of
                                     it (use[use_at[r] ..]) reads, made on first need */
    uint32_t *in, *work;          /* [nb] scratch of rd_table */
    uint8_t  *queued;             /* [nb] */
    uint32_t *body_at, *body;     /* natural loop l's blocks: body[body_at[l] .. body_at[l + 1]) */
    uint32_t *inloop_at, *inloop; /* block b's loops: inloop[inloop_at[b] .. inloop_at[b + 1]) */
} flow_t;

/*{=====================================================================
 * Operands: which registers an instruction reads and may write
 *====================================================================*/
static void each_in(const isa_func_t *fn, uint32_t k, ex_reg_fn f, void *c)
{
    const isa_operand_t *o = &fn->opds[k];
    switch (o->kind) {
    case ISA_OPD_REG:
        f(c, o->u.reg, k);
        return;
    case ISA_OPD_ADDR:
        if (o->flags & ISA_OPDF_ADDRLIST) {   /* [a, b, {c}] */
            for (uint32_t e = 0; e < o->count; e++)
                each_in(fn, o->u.first + e, f, c);
        } else if (o->base == ISA_OPD_REG) {
            f(c, o->u.reg, k);
        }
        return;
    case ISA_OPD_VEC: case ISA_OPD_LIST: case ISA_OPD_DUAL:
        for (uint32_t e = 0; e < o->count; e++)
            each_in(fn, o->u.first + e, f, c);
        return;
    default:
        return;
    }
}

void ex_each_read(const isa_func_t *fn, const isa_instr_t *in, ex_reg_fn f, void *c)
{
    if (in->guard != ISA_NONE)
        f(c, in->guard, ISA_NONE);
    isa_shape_t sh = isa_ops[in->op].shape;
    for (unsigned k = 0; k < in->nopd; k++) {
        char kind = isa_shape_kind(sh, k);
        const isa_operand_t *o = &fn->opds[in->opd + k];
        if ((kind == 'd' || kind == 'p') && (o->kind == ISA_OPD_REG || o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_DUAL ||
                                           o->kind == ISA_OPD_SINK))
            continue;
        each_in(fn, in->opd + k, f, c);
    }
}

void ex_each_write(const isa_func_t *fn, const isa_instr_t *in, ex_reg_fn f, void *c)
{
    isa_shape_t sh = isa_ops[in->op].shape;
    for (unsigned k = 0; k < in->nopd; k++) {
        char kind = isa_shape_kind(sh, k);
        if (kind == 's' || kind == 'q' || kind == 'a' || kind == 't')
            continue;
        const isa_operand_t *o = &fn->opds[in->opd + k];
        if (o->kind == ISA_OPD_REG)
            f(c, o->u.reg, in->opd + k);
        else if (o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_DUAL || o->kind == ISA_OPD_LIST)
            for (uint32_t e = 0; e < o->count; e++)
                if (fn->opds[o->u.first + e].kind == ISA_OPD_REG)
                    f(c, fn->opds[o->u.first + e].u.reg, o->u.first + e);
    }
}

typedef struct { uint32_t r, n; } count_t;
static void count_r(void *c, uint32_t reg, uint32_t opd) { (void)opd; count_t *k = c; k->n += reg == k->r; }

static uint32_t reads_of(const isa_func_t *fn, const isa_instr_t *in, uint32_t r)
{
    count_t k = { r, 0 };
    ex_each_read(fn, in, count_r, &k);
    return k.n;
}

bool ex_writes(const isa_func_t *fn, const isa_instr_t *in, uint32_t r)
{
    count_t k = { r, 0 };
    ex_each_write(fn, in, count_r, &k);
    return k.n != 0;
}

/* An instruction's registers, each once (reads or writes). */
typedef struct { uint32_t *r, n, cap; bool oom; } regs_t;
static void regs_add(void *c, uint32_t reg, uint32_t opd)
{
    (void)opd;
    regs_t *v = c;
    for (uint32_t k = 0; k < v->n; k++)
        if (v->r[k] == reg)
            return;
    if (v->n == v->cap) {
        uint32_t cap = v->cap * 2 + 16;
        uint32_t *r = realloc(v->r, cap * sizeof *r);
        if (!r) {
            v->oom = true;
            return;
        }
        v->r = r;
        v->cap = cap;
    }
    v->r[v->n++] = reg;
}

/* Lists kept by key in one array (predecessors by block, instructions by register...):
 * each item's key is counted in at[key + 2] (at has nkeys + 2 zeros); csr_start makes
 * at[key + 1] where key's items start; an item then goes to list[at[key + 1]++], after
 * which key's items are list[at[key] .. at[key + 1]). */
static void csr_start(uint32_t *at, uint32_t nkeys)
{
    for (uint32_t k = 0; k < nkeys; k++)
        at[k + 2] += at[k + 1];
}

/*}=====================================================================
 * Blocks
 *====================================================================*/
static bool flow_loops(flow_t *g);

static bool flow_build(flow_t *g, const isa_func_t *fn, const uint8_t *extra)
{
    uint32_t n = fn->ninstr;
    g->fn = fn;
    g->n = n;
    g->nreg = fn->nreg;
    if (!ex_cfg_build(&g->c, fn, extra, 0))
        return false;
    uint32_t nb = g->c.nb;
    g->mark = calloc(nb + 1, sizeof *g->mark);
    g->stack = malloc((nb + 1) * sizeof *g->stack);
    if (!g->mark || !g->stack)
        return false;
    /* per-register definitions and uses: counted, then placed */
    uint32_t nr = fn->nreg;
    g->def_at = calloc(nr + 2, sizeof *g->def_at);
    g->use_at = calloc(nr + 2, sizeof *g->use_at);
    if (!g->def_at || !g->use_at)
        return false;
    regs_t v = { 0 };
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            csr_start(g->def_at, nr);
            csr_start(g->use_at, nr);
            g->def = malloc((g->def_at[nr + 1] + 1) * sizeof *g->def);
            g->use = malloc((g->use_at[nr + 1] + 1) * sizeof *g->use);
            if (!g->def || !g->use)
                break;
        }
        for (uint32_t i = 0; i < n; i++) {
            for (int w = 0; w < 2; w++) {
                uint32_t *at = w ? g->def_at : g->use_at, *list = w ? g->def : g->use;
                v.n = 0;
                if (w)
                    ex_each_write(fn, &fn->instrs[i], regs_add, &v);
                else
                    ex_each_read(fn, &fn->instrs[i], regs_add, &v);
                for (uint32_t k = 0; k < v.n; k++)
                    if (v.r[k] < nr) {
                        if (pass)
                            list[at[v.r[k] + 1]++] = i;
                        else
                            at[v.r[k] + 2]++;
                    }
            }
        }
    }
    free(v.r);
    if (v.oom || !g->def || !g->use)
        return false;
    g->rd = calloc(nr + 1, sizeof *g->rd);
    g->in = malloc((nb + 1) * sizeof *g->in);
    g->work = malloc((nb + 1) * sizeof *g->work);
    g->queued = calloc(nb + 1, 1);
    return g->rd && g->in && g->work && g->queued && flow_loops(g);
}

static void flow_free(flow_t *g)
{
    ex_cfg_free(&g->c);
    free(g->def_at);
    free(g->def);
    free(g->use_at);
    free(g->use);
    free(g->mark);
    free(g->stack);
    free(g->uses_memo);
    if (g->uses)
        for (uint32_t j = 0; j < g->nuses; j++)
            free(g->uses[j].at);
    free(g->uses);
    free(g->cross_memo);
    free(g->dead_memo);
    free(g->mul_def);
    if (g->rd)
        for (uint32_t r = 0; r < g->nreg; r++)
            free(g->rd[r]);
    free(g->rd);
    free(g->in);
    free(g->work);
    free(g->queued);
    free(g->body_at);
    free(g->body);
    free(g->inloop_at);
    free(g->inloop);
}

/* A fresh visit mark (wrapping: marks cleared). */
static uint32_t new_stamp(flow_t *g)
{
    if (++g->stamp == 0) {
        memset(g->mark, 0, (g->c.nb + 1) * sizeof *g->mark);
        g->stamp = 1;
    }
    return g->stamp;
}

/* The last instruction in [lo, hi) that may write r, or ISA_NONE. */
static uint32_t last_def_in(const flow_t *g, uint32_t r, uint32_t lo, uint32_t hi)
{
    uint32_t a = g->def_at[r], b = g->def_at[r + 1];
    while (a < b) {                   /* first def >= hi */
        uint32_t m = a + (b - a) / 2;
        if (g->def[m] < hi)
            a = m + 1;
        else
            b = m;
    }
    if (a == g->def_at[r] || g->def[a - 1] < lo)
        return ISA_NONE;
    return g->def[a - 1];
}

/*}=====================================================================
 * Reaching definitions
 *====================================================================*/
#define RD_TOP (ISA_NONE - 1)     /* not reached yet */

static uint32_t rd_merge(uint32_t x, uint32_t y)
{
    return x == RD_TOP ? y : y == RD_TOP || x == y ? x : RD_NONE;
}

/* What block b passes on of register r: its last definition, else what reaches it. */
static uint32_t rd_out(const flow_t *g, uint32_t r, uint32_t b)
{
    uint32_t d = last_def_in(g, r, g->c.bstart[b], g->c.bstart[b + 1]);
    if (d == ISA_NONE)
        return g->in[b];
    return g->fn->instrs[d].guard == ISA_NONE ? d : RD_NONE;
}

/* Register r's reaching definition at each of its reads (a worklist over the blocks: a
 * block's value only rises, unreached → one definition → several). */
static bool rd_table(flow_t *g, uint32_t r)
{
    uint32_t nu = g->use_at[r + 1] - g->use_at[r];
    uint32_t *t = malloc((nu + 1) * sizeof *t);
    if (!t)
        return false;
    uint32_t nb = g->c.nb, head = 0, tail = 0, cnt = 0;
    for (uint32_t b = 0; b < nb; b++) {
        g->in[b] = RD_TOP;
        g->queued[b] = 1;
        g->work[tail] = b;
        tail = (tail + 1) % nb;
        cnt++;
    }
    g->in[0] = RD_NONE;               /* the entry: undefined */
    while (cnt) {
        uint32_t b = g->work[head];
        head = (head + 1) % nb;
        cnt--;
        g->queued[b] = 0;
        uint32_t out = rd_out(g, r, b);
        if (out == RD_TOP)
            continue;
        for (uint32_t e = g->c.succ_at[b]; e < g->c.succ_at[b + 1]; e++) {
            uint32_t sb = g->c.succ[e], v = rd_merge(g->in[sb], out);
            if (v == g->in[sb])
                continue;
            g->in[sb] = v;
            if (!g->queued[sb]) {
                g->queued[sb] = 1;
                g->work[tail] = sb;
                tail = (tail + 1) % nb;
                cnt++;
            }
        }
    }
    for (uint32_t k = 0; k < nu; k++) {
        uint32_t u = g->use[g->use_at[r] + k], b = g->c.bof[u];
        uint32_t d = last_def_in(g, r, g->c.bstart[b], u);
        uint32_t v = d != ISA_NONE ? (g->fn->instrs[d].guard == ISA_NONE ? d : RD_NONE) : g->in[b];
        t[k] = v == RD_TOP ? RD_NONE : v;
    }
    g->rd[r] = t;
    return true;
}

/* The one instruction whose value of register r instruction i (which reads r) reads on
 * every path, or RD_NONE (several, a guarded one among them, or none on some path from
 * the entry). */
static uint32_t reaching(flow_t *g, uint32_t i, uint32_t r)
{
    const isa_func_t *fn = g->fn;
    uint32_t b = g->c.bof[i];
    uint32_t d = last_def_in(g, r, g->c.bstart[b], i);
    if (d != ISA_NONE)
        return fn->instrs[d].guard == ISA_NONE ? d : RD_NONE;
    uint32_t nd = g->def_at[r + 1] - g->def_at[r];
    if (nd == 0)
        return RD_NONE;
    if (nd == 1) {                    /* one definition in the function */
        d = g->def[g->def_at[r]];
        return fn->instrs[d].guard == ISA_NONE ? d : RD_NONE;
    }
    if (!g->rd[r] && !rd_table(g, r)) {
        g->oom = true;
        return RD_NONE;
    }
    uint32_t lo = g->use_at[r], hi = g->use_at[r + 1];
    while (lo < hi) {                 /* i's place among r's reads */
        uint32_t m = lo + (hi - lo) / 2;
        if (g->use[m] < i)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < g->use_at[r + 1] && g->use[lo] == i ? g->rd[r][lo - g->use_at[r]] : RD_NONE;
}

/*}=====================================================================
 * The mul, the add, and what lies between
 *====================================================================*/
static bool is_mod(const isa_instr_t *in, int group, int id) { return isa_instr_mod(in, group) == id; }

/* A mul ptxas may fuse: no guard, rounding modifier, .sat or .hi/.lo/.wide, a register
 * destination, register or immediate sources. */
static bool fusable_mul(const isa_func_t *fn, const isa_instr_t *m)
{
    if (m->op != ISA_OP_MUL || m->guard != ISA_NONE || m->nopd != 3 || m->ntypes != 1)
        return false;
    isa_type_t t = (isa_type_t)m->types[0];
    if ((t != ISA_T_F32 && t != ISA_T_F64 && t != ISA_T_F16 && t != ISA_T_F16X2) ||
        isa_instr_mod(m, ISA_G_ROUND) >= 0 || isa_instr_mod(m, ISA_G_SAT) >= 0 || isa_instr_mod(m, ISA_G_MULMODE) >= 0)
        return false;
    const isa_operand_t *md = &fn->opds[m->opd];
    if (md->kind != ISA_OPD_REG || md->sel)
        return false;
    for (unsigned s = 1; s < 3; s++) {
        const isa_operand_t *ms = &fn->opds[m->opd + s];
        if (ms->kind == ISA_OPD_REG ? ms->sel || ms->flags
                                    : ms->kind != ISA_OPD_IMM && ms->kind != ISA_OPD_F32 && ms->kind != ISA_OPD_F64)
            return false;
    }
    return true;
}

/* An add or sub that may take a mul of type t and ftz-ness ftz into one of its operands
 * (not m + m). */
static bool add_like(const isa_func_t *fn, const isa_instr_t *in, isa_type_t t, bool ftz)
{
    if ((in->op != ISA_OP_ADD && in->op != ISA_OP_SUB) || in->ntypes != 1 || in->types[0] != t || in->nopd != 3 ||
        isa_instr_mod(in, ISA_G_ROUND) >= 0 || is_mod(in, ISA_G_FTZ, ISA_M_FTZ) != ftz)
        return false;
    const isa_operand_t *o1 = &fn->opds[in->opd + 1], *o2 = &fn->opds[in->opd + 2];
    if (o1->kind == ISA_OPD_REG && o2->kind == ISA_OPD_REG && o1->u.reg == o2->u.reg)
        return false;
    return true;
}

/* Whether register s's value at instruction j is one SASS reads from the constant bank:
 * a kernel parameter (ld.param of the entry's parameter), a .const variable at a fixed
 * address (ld.const [sym+imm]), or a mov or neg of one (measured: fma_contract_const;
 * not a .const read at an address in a register, nor %ntid converted). */
static bool const_value(flow_t *g, uint32_t j, uint32_t s, unsigned depth)
{
    const isa_func_t *fn = g->fn;
    uint32_t d = reaching(g, j, s);
    if (d == RD_NONE || depth > 4)
        return false;
    const isa_instr_t *in = &fn->instrs[d];
    if (in->guard != ISA_NONE)
        return false;
    if ((in->op == ISA_OP_MOV || in->op == ISA_OP_NEG) && in->nopd == 2 && isa_instr_mod(in, ISA_G_FTZ) < 0) {
        const isa_operand_t *src = &fn->opds[in->opd + 1];
        if (in->op == ISA_OP_NEG && in->types[0] != ISA_T_F32 && in->types[0] != ISA_T_F64)
            return false;
        return src->kind == ISA_OPD_REG && !src->sel && !src->flags && const_value(g, d, src->u.reg, depth + 1);
    }
    if (in->op != ISA_OP_LD || in->nopd != 2)
        return false;
    int sp = isa_instr_space(in, 0);
    const isa_operand_t *a = &fn->opds[in->opd + 1];
    if (a->kind != ISA_OPD_ADDR || a->base != ISA_OPD_SYM || (a->flags & ISA_OPDF_ADDRLIST))
        return false;
    if (sp == ISA_SP_CONST)
        return (a->flags & ISA_OPDF_MODSYM) != 0;
    return fn->is_entry && (sp == ISA_SP_PARAM || sp == ISA_SP_PARAM_ENTRY) && !(a->flags & ISA_OPDF_MODSYM) &&
           a->u.sym < fn->nparam;
}

/* Whether mul j may fuse into adds in other blocks: one of its operands is an immediate
 * or a value from the constant bank. */
static bool cross_ok(flow_t *g, uint32_t j)
{
    if (g->cross_memo[j])
        return g->cross_memo[j] == 1;
    const isa_func_t *fn = g->fn;
    const isa_instr_t *m = &fn->instrs[j];
    bool ok = false;
    for (unsigned s = 1; s < 3 && !ok; s++) {
        const isa_operand_t *ms = &fn->opds[m->opd + s];
        ok = ms->kind != ISA_OPD_REG || const_value(g, j, ms->u.reg, 0);
    }
    g->cross_memo[j] = ok ? 1 : 2;
    return ok;
}

/* Whether the block of j lies in a loop that block bi is outside of (ptxas moves a mul
 * into a loop, never out of one).  Loops are natural loops, their blocks ascending. */
static bool loops_without(flow_t *g, uint32_t j, uint32_t bi)
{
    uint32_t bj = g->c.bof[j];
    for (uint32_t e = g->inloop_at[bj]; e < g->inloop_at[bj + 1]; e++) {
        uint32_t l = g->inloop[e], lo = g->body_at[l], hi = g->body_at[l + 1];
        while (lo < hi) {
            uint32_t m = lo + (hi - lo) / 2;
            if (g->body[m] < bi)
                lo = m + 1;
            else
                hi = m;
        }
        if (lo == g->body_at[l + 1] || g->body[lo] != bi)
            return true;
    }
    return false;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The natural loops: dominators by the iterative algorithm over reverse postorder, a loop
 * per block that back edges enter (the blocks that reach a back edge's tail without
 * passing the header), and for each block the loops holding it. */
static bool flow_loops(flow_t *g)
{
    uint32_t nb = g->c.nb;
    uint32_t *order = malloc(nb * sizeof *order), *num = malloc(nb * sizeof *num);
    uint32_t *idom = malloc(nb * sizeof *idom), *edge = malloc(nb * sizeof *edge), *st = malloc(nb * sizeof *st);
    uint32_t *mark = calloc(nb, sizeof *mark);
    uint32_t nl = 0, caplb = 0, nlb = 0, *lbody = NULL, *lhead = NULL, caph = 0;
    bool ok = order && num && idom && edge && st && mark;
    if (ok) {
        /* reverse postorder from the entry */
        uint32_t npo = 0, sp = 0;
        for (uint32_t b = 0; b < nb; b++)
            num[b] = ISA_NONE;
        st[sp++] = 0;
        num[0] = 0;
        edge[0] = g->c.succ_at[0];
        while (sp) {
            uint32_t v = st[sp - 1];
            if (edge[v] < g->c.succ_at[v + 1]) {
                uint32_t w = g->c.succ[edge[v]++];
                if (num[w] == ISA_NONE) {
                    num[w] = 0;
                    edge[w] = g->c.succ_at[w];
                    st[sp++] = w;
                }
                continue;
            }
            sp--;
            order[npo++] = v;
        }
        for (uint32_t k = 0; k < npo / 2; k++) {
            uint32_t t = order[k];
            order[k] = order[npo - 1 - k];
            order[npo - 1 - k] = t;
        }
        for (uint32_t k = 0; k < npo; k++)
            num[order[k]] = k;
        for (uint32_t b = 0; b < nb; b++)
            idom[b] = ISA_NONE;
        idom[0] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t k = 1; k < npo; k++) {
                uint32_t b = order[k], nd = ISA_NONE;
                for (uint32_t e = g->c.pred_at[b]; e < g->c.pred_at[b + 1]; e++) {
                    uint32_t p = g->c.pred[e];
                    if (idom[p] == ISA_NONE)
                        continue;
                    if (nd == ISA_NONE) {
                        nd = p;
                        continue;
                    }
                    uint32_t x = p, y = nd;
                    while (x != y) {
                        while (num[x] > num[y])
                            x = idom[x];
                        while (num[y] > num[x])
                            y = idom[y];
                    }
                    nd = x;
                }
                if (nd != idom[b]) {
                    idom[b] = nd;
                    changed = true;
                }
            }
        }
        /* the dominator tree's preorder and postorder numbers: h dominates t when
         * pre[h] <= pre[t] and post[t] <= post[h] (edge[] and mark[] reused) */
        uint32_t *pre = order, *post = edge;   /* order and edge are free now */
        uint32_t *kids_at = calloc(nb + 2, sizeof *kids_at), *kids = malloc(nb * sizeof *kids);
        if (!kids_at || !kids) {
            free(kids_at);
            free(kids);
            ok = false;
        } else {
            for (uint32_t b = 1; b < nb; b++)
                if (idom[b] != ISA_NONE)
                    kids_at[idom[b] + 2]++;
            csr_start(kids_at, nb);
            for (uint32_t b = 1; b < nb; b++)
                if (idom[b] != ISA_NONE)
                    kids[kids_at[idom[b] + 1]++] = b;
            uint32_t clock = 0;
            sp = 0;
            st[sp++] = 0;
            pre[0] = clock++;
            mark[0] = kids_at[0];         /* next child to visit */
            while (sp) {
                uint32_t v = st[sp - 1];
                if (mark[v] < kids_at[v + 1]) {
                    uint32_t w = kids[mark[v]++];
                    pre[w] = clock++;
                    mark[w] = kids_at[w];
                    st[sp++] = w;
                    continue;
                }
                sp--;
                post[v] = clock++;
            }
            free(kids_at);
            free(kids);
            memset(mark, 0, nb * sizeof *mark);
        }
        /* a loop per header */
        for (uint32_t h = 0; h < nb && ok; h++) {
            if (idom[h] == ISA_NONE)
                continue;
            uint32_t stamp = h + 1, n0 = nlb;
            sp = 0;
            for (uint32_t e = g->c.pred_at[h]; e < g->c.pred_at[h + 1]; e++) {
                uint32_t t = g->c.pred[e];
                if (idom[t] == ISA_NONE || pre[h] > pre[t] || post[t] > post[h] || mark[t] == stamp)
                    continue;             /* not a back edge (h does not dominate t), or seen */
                mark[t] = stamp;
                st[sp++] = t;
            }
            if (!sp)
                continue;
            if (mark[h] != stamp) {
                mark[h] = stamp;
                st[sp++] = h;             /* the header, whose predecessors are not followed */
            }
            while (ok && sp) {
                uint32_t v = st[--sp];
                if (nlb == caplb) {
                    caplb = caplb * 2 + 64;
                    uint32_t *body = realloc(lbody, caplb * sizeof *body);
                    if (!body) {
                        ok = false;
                        break;
                    }
                    lbody = body;
                }
                lbody[nlb++] = v;
                if (v == h)
                    continue;
                for (uint32_t e = g->c.pred_at[v]; e < g->c.pred_at[v + 1]; e++) {
                    uint32_t p = g->c.pred[e];
                    if (mark[p] != stamp && idom[p] != ISA_NONE) {
                        mark[p] = stamp;
                        st[sp++] = p;
                    }
                }
            }
            if (!ok)
                break;
            if (nl == caph) {
                caph = caph * 2 + 16;
                uint32_t *hh = realloc(lhead, caph * sizeof *hh);
                if (!hh) {
                    ok = false;
                    break;
                }
                lhead = hh;
            }
            lhead[nl++] = n0;
            qsort(lbody + n0, nlb - n0, sizeof *lbody, cmp_u32);
        }
    }
    if (ok) {
        g->body = lbody;
        lbody = NULL;
        g->body_at = malloc((nl + 1) * sizeof *g->body_at);
        g->inloop_at = calloc(nb + 2, sizeof *g->inloop_at);
        g->inloop = malloc((nlb + 1) * sizeof *g->inloop);
        ok = g->body_at && g->inloop_at && g->inloop;
        if (ok) {
            for (uint32_t l = 0; l < nl; l++)
                g->body_at[l] = lhead[l];
            g->body_at[nl] = nlb;
            for (uint32_t k = 0; k < nlb; k++)
                g->inloop_at[g->body[k] + 2]++;
            csr_start(g->inloop_at, nb);
            for (uint32_t l = 0; l < nl; l++)
                for (uint32_t k = g->body_at[l]; k < g->body_at[l + 1]; k++)
                    g->inloop[g->inloop_at[g->body[k] + 1]++] = l;
        }
    }
    free(lbody);
    free(lhead);
    free(order);
    free(num);
    free(idom);
    free(edge);
    free(st);
    free(mark);
    return ok;
}

/* Whether mul j may fuse into the add at i that reads its value: in the same block after
 * it, or across blocks by cross_ok's rule. */
static bool may_fuse_at(flow_t *g, uint32_t j, uint32_t i)
{
    if (g->c.bof[i] == g->c.bof[j] && i > j)
        return true;
    return cross_ok(g, j) && !loops_without(g, j, g->c.bof[i]);
}

/* The reads of register r that the value instruction d writes to it reaches, appended to
 * *hit (walking forward from d until r is written again); false when a guarded write
 * meets it (a select of the old and the new value) or memory runs out. */
static bool value_reads(flow_t *g, uint32_t d, uint32_t r, uint32_t **hit, uint32_t *nhit, uint32_t *cap)
{
    const isa_func_t *fn = g->fn;
    uint32_t st = new_stamp(g), sp = 0;
    uint32_t b = g->c.bof[d], from = d + 1;
    for (;;) {
        bool killed = false;
        for (uint32_t e = from; e < g->c.bstart[b + 1]; e++) {
            const isa_instr_t *u = &fn->instrs[e];
            if (reads_of(fn, u, r)) {
                if (*nhit == *cap) {
                    uint32_t nc = *cap * 2 + 8, *h = realloc(*hit, nc * sizeof *h);
                    if (!h) {
                        g->oom = true;
                        return false;
                    }
                    *hit = h;
                    *cap = nc;
                }
                (*hit)[(*nhit)++] = e;
            }
            if (ex_writes(fn, u, r)) {
                if (u->guard != ISA_NONE)
                    return false;
                killed = true;
                break;
            }
        }
        if (!killed)
            for (uint32_t e = g->c.succ_at[b]; e < g->c.succ_at[b + 1]; e++)
                if (g->mark[g->c.succ[e]] != st) {
                    g->mark[g->c.succ[e]] = st;
                    g->stack[sp++] = g->c.succ[e];
                }
        if (!sp)
            return true;
        b = g->stack[--sp];
        from = g->c.bstart[b];
    }
}

/* Whether instruction u is code ptxas deletes before it fuses: a computation on registers
 * (integer, logic, floating point, comparison, conversion, video, mov) no read of whose
 * results is left, other such dead code aside (looked for a few instructions deep).  A
 * mul whose value also goes to one is fused all the same (pending fp_fuzz_93: the
 * product read by an fma whose result is overwritten unread). */
static bool dead_insn(flow_t *g, uint32_t u, unsigned depth)
{
    if (g->dead_memo[u])
        return g->dead_memo[u] == 1;
    const isa_func_t *fn = g->fn;
    const isa_instr_t *in = &fn->instrs[u];
    switch (isa_ops[in->op].family) {
    case ISA_FAM_INT: case ISA_FAM_LOGIC: case ISA_FAM_FP: case ISA_FAM_HALF: case ISA_FAM_CMP:
    case ISA_FAM_CVT: case ISA_FAM_VIDEO: case ISA_FAM_MOV:
        break;
    default:
        g->dead_memo[u] = 2;
        return false;
    }
    if (depth > 4)
        return false;
    regs_t w = { 0 };
    ex_each_write(fn, in, regs_add, &w);
    g->dead_memo[u] = 2;                /* while it is looked at (a cycle keeps it) */
    bool dead = w.n && !w.oom;
    uint32_t *hit = NULL, nhit = 0, cap = 0;
    for (uint32_t k = 0; k < w.n && dead; k++) {
        nhit = 0;
        if (w.r[k] >= fn->nreg || !value_reads(g, u, w.r[k], &hit, &nhit, &cap))
            dead = false;
        for (uint32_t h = 0; h < nhit && dead; h++)
            dead = hit[h] != u && dead_insn(g, hit[h], depth + 1);
    }
    free(hit);
    free(w.r);
    g->dead_memo[u] = dead ? 1 : 2;
    return dead;
}

/* A neg that passes a mul's value of type t and ftz-ness ftz on (ptxas folds it into the
 * product's sign): unguarded, of that type, register to register, flushing only what the
 * mul flushed already. */
static bool neg_like(const isa_func_t *fn, const isa_instr_t *in, isa_type_t t, bool ftz)
{
    if (in->op != ISA_OP_NEG || in->guard != ISA_NONE || in->nopd != 2 || in->ntypes != 1 || in->types[0] != t ||
        (is_mod(in, ISA_G_FTZ, ISA_M_FTZ) && !ftz))
        return false;
    const isa_operand_t *d = &fn->opds[in->opd], *s = &fn->opds[in->opd + 1];
    return d->kind == ISA_OPD_REG && !d->sel && s->kind == ISA_OPD_REG && !s->sel && !s->flags;
}

/* Appends to g->uses[j] the adds that the value instruction d (mul j, or a neg of its
 * value) writes to r reaches, through further negs; false when a read of it is anything
 * else, reads it twice (m + m, m - -m), or may not take mul j there. */
static bool collect_uses(flow_t *g, uint32_t j, uint32_t d, uint32_t r, unsigned depth)
{
    const isa_func_t *fn = g->fn;
    const isa_instr_t *m = &fn->instrs[j];
    isa_type_t t = (isa_type_t)m->types[0];
    bool ftz = is_mod(m, ISA_G_FTZ, ISA_M_FTZ);
    uint32_t *hit = NULL, nhit = 0, cap = 0;
    bool ok = value_reads(g, d, r, &hit, &nhit, &cap);
    for (uint32_t k = 0; ok && k < nhit; k++) {
        uint32_t u = hit[k];
        const isa_instr_t *ui = &fn->instrs[u];
        if (dead_insn(g, u, 0))
            continue;                     /* ptxas deletes it first */
        if (reads_of(fn, ui, r) != 1 || reaching(g, u, r) != d) {
            ok = false;
        } else if (add_like(fn, ui, t, ftz)) {
            ex_ulist_t *L = &g->uses[j];
            for (uint32_t q = 0; q < L->n && ok; q++)
                ok = L->at[q] != u;
            if (ok && !may_fuse_at(g, j, u))
                ok = false;
            if (ok && L->n == L->cap) {
                uint32_t nc = L->cap * 2 + 4, *a = realloc(L->at, nc * sizeof *a);
                if (!a) {
                    g->oom = true;
                    ok = false;
                } else {
                    L->at = a;
                    L->cap = nc;
                }
            }
            if (ok)
                L->at[L->n++] = u;
        } else if (neg_like(fn, ui, t, ftz) && depth < 8) {
            ok = collect_uses(g, j, u, fn->opds[ui->opd].u.reg, depth + 1);
        } else {
            ok = false;
        }
    }
    free(hit);
    return ok;
}

/* How many adds may take mul j (through negs of its value): 0 when some read of its
 * value is anything else. */
static uint32_t fusable_uses(flow_t *g, uint32_t j)
{
    if (g->uses_memo[j])
        return g->uses_memo[j] == 1 ? g->uses[j].n : 0;
    bool ok = collect_uses(g, j, j, g->fn->opds[g->fn->instrs[j].opd].u.reg, 0) && g->uses[j].n;
    g->uses_memo[j] = ok ? 1 : 2;
    return ok ? g->uses[j].n : 0;
}

/* The mul that operand k of the add at i holds the value of, directly or through negs
 * (*neg: an odd number of them), if ptxas may fuse it there; else ISA_NONE. */
static uint32_t fused_mul(flow_t *g, uint32_t i, unsigned k, bool *neg)
{
    const isa_func_t *fn = g->fn;
    const isa_instr_t *add = &fn->instrs[i];
    const isa_operand_t *o = &fn->opds[add->opd + k];
    if (o->kind != ISA_OPD_REG || o->sel || o->flags || o->u.reg >= g->nreg)
        return ISA_NONE;
    uint32_t reg = o->u.reg, at = i, j = ISA_NONE;
    *neg = false;
    for (unsigned depth = 0; depth < 9 && j == ISA_NONE; depth++) {
        if (!g->mul_def[reg])
            return ISA_NONE;          /* neither a mul nor a neg writes this register */
        uint32_t d = reaching(g, at, reg);
        if (d == RD_NONE)
            return ISA_NONE;
        const isa_instr_t *in = &fn->instrs[d];
        if (in->op == ISA_OP_MUL) {
            j = d;
        } else if (in->op == ISA_OP_NEG && fn->opds[in->opd + 1].kind == ISA_OPD_REG) {
            reg = fn->opds[in->opd + 1].u.reg;
            at = d;
            *neg = !*neg;
        } else {
            return ISA_NONE;
        }
    }
    if (j == ISA_NONE)
        return ISA_NONE;
    const isa_instr_t *m = &fn->instrs[j];
    if (!fusable_mul(fn, m) || m->types[0] != add->types[0] ||
        is_mod(m, ISA_G_FTZ, ISA_M_FTZ) != is_mod(add, ISA_G_FTZ, ISA_M_FTZ) || fn->opds[m->opd].u.reg != reg)
        return ISA_NONE;
    if (!fusable_uses(g, j))          /* may_fuse_at checked for each of its adds */
        return ISA_NONE;
    const ex_ulist_t *L = &g->uses[j];
    for (uint32_t q = 0; q < L->n; q++)
        if (L->at[q] == i)
            return j;
    return ISA_NONE;
}

/* Whether a source of mul j may hold another value when the add at i runs. */
static unsigned sources_change(flow_t *g, uint32_t j, uint32_t i)
{
    const isa_func_t *fn = g->fn;
    const isa_instr_t *m = &fn->instrs[j];
    uint32_t r = fn->opds[m->opd].u.reg;
    unsigned bits = 0;
    for (unsigned s = 1; s < 3; s++) {
        const isa_operand_t *ms = &fn->opds[m->opd + s];
        if (ms->kind != ISA_OPD_REG)
            continue;
        if (g->c.bof[i] != g->c.bof[j] || i < j || ms->u.reg == r ||
            last_def_in(g, ms->u.reg, j + 1, i) != ISA_NONE)
            bits |= 1u << (s - 1);    /* across blocks: kept whatever lies between */
    }
    return bits;
}

/*}=====================================================================
 * The plan
 *====================================================================*/
bool ex_contract_plan(const isa_func_t *fn, const uint8_t *lead, ex_contract_t *c)
{
    memset(c, 0, sizeof *c);
    uint32_t n = fn->ninstr;
    c->mul = malloc((n + 1) * sizeof *c->mul);
    c->opd = calloc(n + 1, 1);
    c->keep = calloc(n + 1, 1);
    if (!c->mul || !c->opd || !c->keep) {
        ex_contract_free(c);
        return false;
    }
    for (uint32_t i = 0; i <= n; i++)
        c->mul[i] = ISA_NONE;
    bool any = false;
    for (uint32_t i = 0; i < n && !any; i++)
        any = fn->instrs[i].op == ISA_OP_MUL;
    if (!any || !n)
        return true;
    flow_t g = { 0 };
    g.uses_memo = calloc(n + 1, 1);
    g.uses = calloc(n + 1, sizeof *g.uses);
    g.nuses = n + 1;
    g.cross_memo = calloc(n + 1, 1);
    g.dead_memo = calloc(n + 1, 1);
    g.mul_def = calloc(fn->nreg + 1, 1);
    if (!g.uses_memo || !g.uses || !g.cross_memo || !g.dead_memo || !g.mul_def || !flow_build(&g, fn, lead)) {
        flow_free(&g);
        ex_contract_free(c);
        return false;
    }
    for (uint32_t j = 0; j < n; j++) {
        const isa_instr_t *in = &fn->instrs[j];
        if ((fusable_mul(fn, in) || (in->op == ISA_OP_NEG && in->nopd == 2)) &&
            fn->opds[in->opd].kind == ISA_OPD_REG && fn->opds[in->opd].u.reg < fn->nreg)
            g.mul_def[fn->opds[in->opd].u.reg] = 1;
    }
    /* Which mul each add takes (measured: the SASS ptxas 13 makes of 600 random
     * straight-line programs, every mul with its own immediate; goldens
     * contract_fuzz_*).  First, in program order, each add takes a mul whose value
     * goes to it alone (its first operand's, else its second's).  Then, in program order,
     * each add left takes a mul each of whose adds is still free or took it already,
     * the one with fewer adds (a tie: the first operand's); a mul some of whose adds
     * took another stays a multiply for those, and for the rest. */
    for (unsigned pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            const isa_instr_t *in = &fn->instrs[i];
            if (c->mul[i] != ISA_NONE || (in->op != ISA_OP_ADD && in->op != ISA_OP_SUB) || in->ntypes != 1 ||
                in->nopd != 3 || isa_instr_mod(in, ISA_G_ROUND) >= 0)
                continue;
            isa_type_t t = (isa_type_t)in->types[0];
            if (t != ISA_T_F32 && t != ISA_T_F64 && t != ISA_T_F16 && t != ISA_T_F16X2)
                continue;
            const isa_operand_t *o1 = &fn->opds[in->opd + 1], *o2 = &fn->opds[in->opd + 2];
            if (o1->kind == ISA_OPD_REG && o2->kind == ISA_OPD_REG && o1->u.reg == o2->u.reg)
                continue;                 /* m + m: not fused (measured) */
            uint32_t best = ISA_NONE, bn = 0;
            unsigned bk = 0;
            bool bneg = false;
            for (unsigned k = 1; k < 3; k++) {
                bool neg;
                uint32_t j = fused_mul(&g, i, k, &neg);
                if (j == ISA_NONE)
                    continue;
                const ex_ulist_t *L = &g.uses[j];
                if (pass == 0 && L->n != 1)
                    continue;
                bool free = true;
                for (uint32_t q = 0; q < L->n && free; q++)
                    free = c->mul[L->at[q]] == ISA_NONE || c->mul[L->at[q]] == j;
                if (free && (best == ISA_NONE || L->n < bn)) {
                    best = j;
                    bn = L->n;
                    bk = k;
                    bneg = neg;
                }
            }
            if (best == ISA_NONE || dead_insn(&g, i, 0))
                continue;                 /* nothing to take, or deleted by ptxas */
            c->mul[i] = best;
            c->opd[i] = (uint8_t)(bk | (bneg ? 4 : 0));
            c->keep[best] |= (uint8_t)sources_change(&g, best, i);
        }
    bool oom = g.oom;
    flow_free(&g);
    if (oom)
        ex_contract_free(c);
    return !oom;
}

void ex_contract_free(ex_contract_t *c)
{
    free(c->mul);
    free(c->opd);
    free(c->keep);
    memset(c, 0, sizeof *c);
}
