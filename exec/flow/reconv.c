/* reconv.c: where the lanes of a warp meet again after a divergent branch, and which
 * loops give way to the rest of the warp.
 *
 * Reconvergence: the lanes that split at a conditional branch (or an indexed one) meet at
 * the branch's immediate post-dominator, the first instruction every path from the branch
 * to the function's end goes through, as the H100's convergence barriers make them (the
 * lanes that get there first wait for the others).  Post-dominators come from the
 * iterative algorithm over the blocks of the reversed flow graph, with one exit node
 * that ret, exit, trap and the end of the body lead to.  A branch whose paths meet only
 * at the exit (or that sits in a loop without exit) has no join.  Lanes that leave are
 * no path of the others: a guarded exit or ret, or a conditional forward branch to one or
 * around one, counts only where the remaining lanes go (ptxas makes them a predicated
 * EXIT or RET; the lanes leave every join), so the others still meet where they would
 * without it (goldens warp_fuzz_* and warp_call_fuzz_*: a loop with '@p ret' in its body
 * is waited for at its end).
 *
 * Yielding loops: a backward branch whose loop can end through a value another thread
 * may change meanwhile (a strong load: volatile, relaxed, acquire; an atomic; a call of
 * a function that reads such a value, where another function's result is followed
 * through its arguments;
 * the clock; followed through local memory, where a -G build keeps every variable) lets
 * the lanes waiting at a join run on each time it is taken, as the YIELD that ptxas
 * puts in such loops does on the H100: a lane that spins on a flag (or a lock) another
 * lane of its warp sets after the join terminates.  A loop that ends by its own
 * count, or on weak loads (a probe through a table), keeps the others waiting, however
 * long it runs (measured: a million iterations). */
#include "exec/internal.h"

#include <stdlib.h>
#include <string.h>

/* The instruction a label operand names (n: the end of the body). */
static uint32_t label_at(const isa_func_t *fn, const isa_operand_t *o)
{
    return fn->labels[o->u.label].instr;
}

/* The immediate post-dominator of every block (nb: the exit; ISA_NONE: the block cannot
 * reach the exit). */
static uint32_t *post_dominators(const ex_cfg_t *g)
{
    uint32_t nb = g->nb, nn = nb + 1;
    uint32_t *ipdom = malloc(nn * sizeof *ipdom), *num = malloc(nn * sizeof *num);
    uint32_t *order = malloc(nn * sizeof *order), *st = malloc(nn * sizeof *st), *edge = malloc(nn * sizeof *edge);
    if (!ipdom || !num || !order || !st || !edge) {
        free(ipdom);
        ipdom = NULL;
        goto out;
    }
    /* postorder of the reversed graph from the exit (its edges are the predecessors) */
    for (uint32_t b = 0; b < nn; b++)
        num[b] = ISA_NONE;
    uint32_t npo = 0, sp = 0;
    st[sp++] = nb;
    num[nb] = 0;
    edge[nb] = g->pred_at[nb];
    while (sp) {
        uint32_t v = st[sp - 1];
        if (edge[v] < g->pred_at[v + 1]) {
            uint32_t w = g->pred[edge[v]++];
            if (num[w] == ISA_NONE) {
                num[w] = 0;
                edge[w] = g->pred_at[w];
                st[sp++] = w;
            }
            continue;
        }
        sp--;
        order[npo++] = v;
    }
    for (uint32_t k = 0; k < npo; k++)
        num[order[k]] = k;            /* postorder number: the exit has the highest */
    for (uint32_t b = 0; b < nn; b++)
        ipdom[b] = ISA_NONE;
    ipdom[nb] = nb;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = npo - 1; k-- > 0;) {   /* reverse postorder, the exit skipped */
            uint32_t b = order[k], nd = ISA_NONE;
            for (uint32_t e = g->succ_at[b]; e < g->succ_at[b + 1]; e++) {
                uint32_t s = g->succ[e];
                if (ipdom[s] == ISA_NONE)
                    continue;
                if (nd == ISA_NONE) {
                    nd = s;
                    continue;
                }
                uint32_t x = s, y = nd;
                while (x != y) {
                    while (num[x] < num[y])
                        x = ipdom[x];
                    while (num[y] < num[x])
                        y = ipdom[y];
                }
                nd = x;
            }
            if (nd != ipdom[b]) {
                ipdom[b] = nd;
                changed = true;
            }
        }
    }
out:
    free(num);
    free(order);
    free(st);
    free(edge);
    return ipdom;
}

static uint32_t call_of_result(const isa_func_t *fn, uint32_t v);
static uint32_t callee_of(const isa_func_t *fn, const isa_instr_t *in);

/* An instruction whose result may change without the thread's own registers changing:
 * a loop that ends on it may wait for another thread. */
static bool impure(const ex_program_t *p, const isa_func_t *fn, const isa_instr_t *in)
{
    switch (isa_ops[in->op].family) {
    case ISA_FAM_INT: case ISA_FAM_LOGIC: case ISA_FAM_FP: case ISA_FAM_HALF: case ISA_FAM_CMP:
    case ISA_FAM_CVT: case ISA_FAM_VIDEO: case ISA_FAM_MMA:
        return false;
    case ISA_FAM_MOV:
        for (unsigned k = 0; k < in->nopd; k++) {
            const isa_operand_t *o = &fn->opds[in->opd + k];
            if (o->kind == ISA_OPD_SREG &&
                (o->u.sreg.id == ISA_SR_CLOCK || o->u.sreg.id == ISA_SR_CLOCK_HI || o->u.sreg.id == ISA_SR_CLOCK64 ||
                 o->u.sreg.id == ISA_SR_GLOBALTIMER || o->u.sreg.id == ISA_SR_GLOBALTIMER_LO ||
                 o->u.sreg.id == ISA_SR_GLOBALTIMER_HI || o->u.sreg.id == ISA_SR_PM ||
                 (o->u.sreg.id >= ISA_SR_PM0_64 && o->u.sreg.id <= ISA_SR_PM7_64)))
                return true;
        }
        return false;
    case ISA_FAM_WARP:
        return false;        /* its members are all there, or it waits (and the joins give way) */
    case ISA_FAM_LDST: {
        /* Only a strong load (volatile, relaxed, acquire, mmio) may see another thread's
         * store from one iteration to the next: ptxas puts no YIELD in a loop that ends on
         * weak loads (a probe over a table) and the GPU keeps its lanes converged there. */
        if (in->op != ISA_OP_LD)
            return in->op != ISA_OP_CVTA && in->op != ISA_OP_ISSPACEP && in->op != ISA_OP_LDU;
        int sp = isa_instr_space(in, 0);
        if (sp == ISA_SP_PARAM && in->nopd == 2) {
            /* a call's result, read from the body's .param variable it went to: impure
             * unless the function is pure (pre-decoded before its callers) */
            const isa_operand_t *a = &fn->opds[in->opd + 1];
            if (a->kind != ISA_OPD_ADDR || a->base != ISA_OPD_SYM || (a->flags & ISA_OPDF_MODSYM) ||
                a->u.sym < fn->nret + fn->nparam)
                return false;
            uint32_t c = call_of_result(fn, a->u.sym);
            uint32_t callee = c == ISA_NONE ? ISA_NONE : callee_of(fn, &fn->instrs[c]);
            return callee >= p->m->nfunc || !p->funcs[callee].pure;
        }
        if (sp == ISA_SP_PARAM || sp == ISA_SP_CONST || sp == ISA_SP_LOCAL)
            return false;
        int sem = isa_instr_mod(in, ISA_G_SEM);
        return isa_instr_has(in, ISA_M_VOLATILE) || isa_instr_has(in, ISA_M_MMIO) ||
               (sem >= 0 && sem != ISA_M_WEAK);
    }
    default:
        return true;
    }
}

typedef struct { uint8_t *in; uint32_t nreg; bool grew; } slice_t;

/* The call of fn that writes its body's .param variable v (a result list names it), or
 * ISA_NONE. */
static uint32_t call_of_result(const isa_func_t *fn, uint32_t v)
{
    for (uint32_t i = 0; i < fn->ninstr; i++) {
        const isa_instr_t *in = &fn->instrs[i];
        if (in->op != ISA_OP_CALL || in->nopd == 0)
            continue;
        const isa_operand_t *o = &fn->opds[in->opd];
        if (o[0].kind != ISA_OPD_LIST)
            continue;
        for (uint32_t e = 0; e < o[0].count; e++) {
            const isa_operand_t *r = &fn->opds[o[0].u.first + e];
            if (r->kind == ISA_OPD_SYM && !(r->flags & ISA_OPDF_MODSYM) && r->u.sym == v)
                return i;
        }
    }
    return ISA_NONE;
}

/* The function a direct call names, or ISA_NONE (an indirect one). */
static uint32_t callee_of(const isa_func_t *fn, const isa_instr_t *in)
{
    for (unsigned k = 0; k < in->nopd; k++) {
        const isa_operand_t *o = &fn->opds[in->opd + k];
        if (o->kind == ISA_OPD_FUNC)
            return o->u.func;
        if (o->kind != ISA_OPD_LIST)
            return ISA_NONE;
    }
    return ISA_NONE;
}

/* Whether fn returns what its arguments alone decide: nothing in it reads a value another
 * thread may change, and it calls only functions of which that holds (pre-decoded first;
 * one still being pre-decoded, in a recursion, counts as impure).  ptxas expands such
 * small functions into the caller, where a loop on their result is a loop on their
 * arguments: no YIELD (warp_call_fuzz_419, _688: calls kept by --no-inline waited as the
 * H100 does not). */
static bool func_pure(const ex_program_t *p, const isa_func_t *fn)
{
    for (uint32_t i = 0; i < fn->ninstr; i++) {
        const isa_instr_t *x = &fn->instrs[i];
        if (x->op == ISA_OP_ST || x->op == ISA_OP_BRA || x->op == ISA_OP_RET || x->op == ISA_OP_EXIT)
            continue;
        if (x->op == ISA_OP_CALL) {
            uint32_t callee = callee_of(fn, x);
            if (callee >= p->m->nfunc || !p->funcs[callee].pure)
                return false;
            continue;
        }
        if (impure(p, fn, x))
            return false;
    }
    return true;
}

static void slice_add(void *c, uint32_t r, uint32_t opd)
{
    (void)opd;
    slice_t *s = c;
    if (r < s->nreg && !s->in[r]) {
        s->in[r] = 1;
        s->grew = true;
    }
}

typedef struct { uint8_t *in; uint32_t nreg; bool hit; } hit_t;

static void slice_hit(void *c, uint32_t r, uint32_t opd)
{
    (void)opd;
    hit_t *h = c;
    if (r < h->nreg && h->in[r])
        h->hit = true;
}

/* Whether block b of g leads out of the instructions [lo, hi]. */
static bool leaves(const ex_cfg_t *g, uint32_t b, uint32_t lo, uint32_t hi)
{
    for (uint32_t e = g->succ_at[b]; e < g->succ_at[b + 1]; e++) {
        uint32_t at = g->succ[e] == g->nb ? g->n : g->bstart[g->succ[e]];
        if (at < lo || at > hi)
            return true;
    }
    return false;
}

typedef struct { uint8_t *in; uint8_t *seen; uint32_t nreg; bool twice; } defs_t;

static void count_def(void *c, uint32_t r, uint32_t opd)
{
    (void)opd;
    defs_t *d = c;
    if (r < d->nreg && d->in[r]) {
        if (d->in[r] == 2)
            d->twice = true;
        d->in[r] = 2;
    }
}

/* Whether a register of the slice (in[r] set) is written by two instructions of
 * [lo, hi]; in[] is left as it was. */
static bool merges(const isa_func_t *fn, uint32_t lo, uint32_t hi, uint8_t *in)
{
    defs_t d = { in, NULL, fn->nreg, false };
    for (uint32_t i = lo; i <= hi && !d.twice; i++)
        ex_each_write(fn, &fn->instrs[i], count_def, &d);
    for (uint32_t r = 0; r < fn->nreg; r++)
        in[r] = in[r] != 0;
    return d.twice;
}

/* What call c of fn passes joins the slice: its register arguments, and the registers
 * stored into the .param variables it passes. */
static void call_args(const isa_func_t *fn, uint32_t c, slice_t *s)
{
    const isa_instr_t *in = &fn->instrs[c];
    for (unsigned k = 0; k < in->nopd; k++) {
        const isa_operand_t *o = &fn->opds[in->opd + k];
        if (o->kind != ISA_OPD_LIST || k == 0)
            continue;
        for (uint32_t e = 0; e < o->count; e++) {
            const isa_operand_t *a = &fn->opds[o->u.first + e];
            if (a->kind == ISA_OPD_REG) {
                slice_add(s, a->u.reg, ISA_NONE);
                continue;
            }
            if (a->kind != ISA_OPD_SYM || (a->flags & ISA_OPDF_MODSYM))
                continue;
            for (uint32_t i = 0; i < fn->ninstr; i++) {
                const isa_instr_t *st = &fn->instrs[i];
                if (st->op != ISA_OP_ST || isa_instr_space(st, 0) != ISA_SP_PARAM || st->nopd < 2)
                    continue;
                const isa_operand_t *d = &fn->opds[st->opd];
                if (d->kind == ISA_OPD_ADDR && d->base == ISA_OPD_SYM && !(d->flags & ISA_OPDF_MODSYM) &&
                    d->u.sym == a->u.sym)
                    ex_each_read(fn, st, slice_add, s);
            }
        }
    }
}

/* Whether the loop of instructions [lo, hi] (hi its backward branch) can end only through
 * an impure value: the registers its exits test, followed back through the loop's pure
 * instructions. */
static bool loop_yields(const ex_program_t *p, const ex_cfg_t *g, const isa_func_t *fn, uint32_t lo, uint32_t hi,
                        uint8_t *in)
{
    memset(in, 0, fn->nreg + 1);
    slice_t s = { in, fn->nreg, false };
    for (uint32_t i = lo; i <= hi; i++) {
        const isa_instr_t *x = &fn->instrs[i];
        bool exit = false;
        if (x->op == ISA_OP_BRA || x->op == ISA_OP_BRX_IDX) {
            exit = leaves(g, g->bof[i], lo, hi);
            if (x->op == ISA_OP_BRX_IDX && exit)
                ex_each_read(fn, x, slice_add, &s);
        } else if (x->op == ISA_OP_RET || x->op == ISA_OP_EXIT) {
            exit = true;
        }
        /* a call in the loop counts where the exits depend on it: its results (impure:
         * what it waits for is unknown); a loop that only calls keeps the others waiting
         * (golden warp_call_fuzz_30: a counted loop of calls in one arm, the other arm's
         * lanes wait at the join on the H100) */
        if (exit && x->guard != ISA_NONE)
            slice_add(&s, x->guard, ISA_NONE);
    }
    /* Follow the registers back; a register of the slice written at two places in the
     * loop takes its value from the path the loop went (a flag set in one arm): then
     * the conditions of every branch in the loop count too. */
    bool paths = false, locals = false;
    for (bool again = true; again;) {
        again = false;
        for (uint32_t i = lo; i <= hi; i++) {
            const isa_instr_t *x = &fn->instrs[i];
            hit_t h = { in, fn->nreg, false };
            ex_each_write(fn, x, slice_hit, &h);
            if (!h.hit)
                continue;
            if (impure(p, fn, x))
                return true;
            s.grew = false;
            ex_each_read(fn, x, slice_add, &s);
            if (x->op == ISA_OP_LD && isa_instr_space(x, 0) == ISA_SP_PARAM && x->nopd == 2) {
                /* a pure call's result: what the call passes decides it */
                const isa_operand_t *a = &fn->opds[x->opd + 1];
                if (a->kind == ISA_OPD_ADDR && a->base == ISA_OPD_SYM && !(a->flags & ISA_OPDF_MODSYM)) {
                    uint32_t c = call_of_result(fn, a->u.sym);
                    if (c != ISA_NONE)
                        call_args(fn, c, &s);
                }
            }
            if (x->guard != ISA_NONE)
                slice_add(&s, x->guard, ISA_NONE);
            if (!locals && x->op == ISA_OP_LD && isa_instr_space(x, 0) == ISA_SP_LOCAL) {
                /* a value kept in local memory (a -G build keeps every variable there):
                 * what the loop stores to local memory counts */
                locals = true;
                for (uint32_t j = lo; j <= hi; j++)
                    if (fn->instrs[j].op == ISA_OP_ST && isa_instr_space(&fn->instrs[j], 0) == ISA_SP_LOCAL)
                        ex_each_read(fn, &fn->instrs[j], slice_add, &s);
            }
            again |= s.grew;
        }
        if (!again && !paths && merges(fn, lo, hi, in)) {
            paths = true;
            s.grew = false;
            for (uint32_t i = lo; i <= hi; i++) {
                const isa_instr_t *x = &fn->instrs[i];
                if ((x->op == ISA_OP_BRA || x->op == ISA_OP_BRX_IDX) && x->guard != ISA_NONE)
                    slice_add(&s, x->guard, ISA_NONE);
                if (x->op == ISA_OP_BRX_IDX)
                    ex_each_read(fn, x, slice_add, &s);
            }
            again = s.grew;
        }
    }
    return false;
}

/* Whether the arms of the forward branch at t stay between it and its join j: no exit,
 * return, call or trap there, and no branch out of the region (a break, a continue).  The
 * arm with fewer lanes then runs first and the other waits (interp.c); elsewhere lanes run
 * lowest counter first, which is what the H100 showed there (goldens warp_fuzz_*,
 * warp_call_fuzz_*).  Not in a body with expanded calls either (inline.c): the order
 * there did not always match the H100's activations (5 of the warp_call_fuzz goldens). */
static bool arms_inside(const isa_module_t *m, const isa_func_t *fn, uint32_t t, uint32_t j)
{
    const isa_instr_t *br = &fn->instrs[t];
    uint32_t tgt = UINT32_MAX;
    for (unsigned k = 0; k < br->nopd; k++)
        if (fn->opds[br->opd + k].kind == ISA_OPD_LABEL)
            tgt = label_at(fn, &fn->opds[br->opd + k]);
    if (tgt <= t || tgt > j || j - t > 4096)
        return false;
    for (uint32_t i = t + 1; i < j; i++) {
        const isa_instr_t *x = &fn->instrs[i];
        switch ((isa_op_t)x->op) {
        case ISA_OP_EXIT: case ISA_OP_RET: case ISA_OP_TRAP: case ISA_OP_BRX_IDX:
            return false;
        case ISA_OP_CALL: {        /* a device service (vprintf, malloc) is no call */
            uint32_t c = callee_of(fn, x);
            if (c == ISA_NONE || m->funcs[c].has_body)
                return false;
            break;
        }
        case ISA_OP_BRA:
            for (unsigned k = 0; k < x->nopd; k++) {
                const isa_operand_t *o = &fn->opds[x->opd + k];
                if (o->kind == ISA_OPD_LABEL && (label_at(fn, o) <= t || label_at(fn, o) > j))
                    return false;
            }
            break;
        default:
            break;
        }
    }
    return true;
}

bool ex_reconv_plan(const ex_program_t *p, ex_func_t *f)
{
    const isa_func_t *fn = f->ir;
    uint32_t n = fn->ninstr;
    f->join_at = malloc((n + 1) * sizeof *f->join_at);
    f->yields = calloc(n + 1, 1);
    uint8_t *in = malloc(fn->nreg + 1);
    /* joins over the graph where lanes that leave are no path; loops over the whole one
     * (a spin that ends by returning still ends) */
    ex_cfg_t g = { 0 }, gl = { 0 };
    uint32_t *ipdom = NULL;
    bool ok = f->join_at && f->yields && in && ex_cfg_build(&g, fn, NULL, EX_CFG_EXIT | EX_CFG_FOLD) &&
              ex_cfg_build(&gl, fn, NULL, EX_CFG_EXIT | EX_CFG_LANES_LEAVE | EX_CFG_FOLD) && gl.nb == g.nb &&
              (ipdom = post_dominators(&gl));
    if (ok) {
        for (uint32_t i = 0; i <= n; i++)
            f->join_at[i] = ISA_NONE;
        for (uint32_t b = 0; b < g.nb; b++) {
            uint32_t t = g.bstart[b + 1] - 1;
            const isa_instr_t *x = &fn->instrs[t];
            if ((x->op == ISA_OP_BRA && x->guard != ISA_NONE) || x->op == ISA_OP_BRX_IDX)
                if (ipdom[b] != ISA_NONE && ipdom[b] < g.nb)
                    f->join_at[t] = g.bstart[ipdom[b]];
            if (x->op == ISA_OP_BRA && f->join_at[t] != ISA_NONE && !f->ir_inl &&
                arms_inside(p->m, fn, t, f->join_at[t]))
                f->yields[t] |= EX_ARMS_INSIDE;
            if (x->op == ISA_OP_BRA)
                for (unsigned k = 0; k < x->nopd; k++) {
                    const isa_operand_t *o = &fn->opds[x->opd + k];
                    if (o->kind == ISA_OPD_LABEL && label_at(fn, o) <= t && loop_yields(p, &g, fn, label_at(fn, o), t, in))
                        f->yields[t] |= 1;
                }
        }
    }
    f->pure = ok && func_pure(p, fn);
    free(ipdom);
    free(in);
    ex_cfg_free(&g);
    ex_cfg_free(&gl);
    if (!ok) {
        free(f->join_at);
        free(f->yields);
        f->join_at = NULL;
        f->yields = NULL;
    }
    return ok;
}
