/* cfg.c: the control-flow graph of a function's body, for the analyses of pre-decoding
 * (reconvergence and yielding loops, reconv.c; contraction, core/contract.c).
 *
 * A block begins at the body's start, at each label and after each branch, call, ret,
 * exit and trap (and where the caller's extra leaders say); its successors are the
 * targets of its last instruction and, unless that instruction always leaves, the next
 * block.  With an exit node (number nb), ret, exit, trap, a branch to the end of the body
 * and falling off its end lead there; without one they lead nowhere.  With
 * EX_CFG_LANES_LEAVE, a guarded exit or ret leads only to the next block, and a
 * conditional forward branch to an unguarded one, or around one, only to where the other
 * lanes go: the lanes that leave are no path of the others (reconvergence; ptxas makes
 * these predicated EXITs and RETs).  Successors and
 * predecessors are compressed lists (ex_cfg_t). */
#include "exec/internal.h"

#include <stdlib.h>

static bool ends_block(const isa_instr_t *in)
{
    return in->op == ISA_OP_BRA || in->op == ISA_OP_BRX_IDX || in->op == ISA_OP_CALL || in->op == ISA_OP_RET ||
           in->op == ISA_OP_EXIT || in->op == ISA_OP_TRAP;
}

/* One successor of block b, the instruction at (n: the body's end) or the exit node. */
static void put(const ex_cfg_t *g, uint32_t at, uint32_t *out, uint32_t *n)
{
    if (at >= g->n && !g->exit)
        return;
    if (out)
        out[*n] = at >= g->n ? g->nb : g->bof[at];
    (*n)++;
}

/* Whether in takes lanes out of the body: exit, or ret (of a kernel: an exit; of a
 * function: the lanes wait after the call for the others, as ptxas's BSSY/BSYNC around
 * each CALL makes them, golden warp_call_fuzz_*). */
static bool ends_thread(const isa_instr_t *in)
{
    return in->op == ISA_OP_EXIT || in->op == ISA_OP_RET;
}

static int runs(const ex_cfg_t *g, const isa_func_t *fn, uint32_t at);

/* Whether the instruction at (n: the body's end) is an unguarded exit or ret: the block
 * there only takes lanes away. */
static bool leaves_at(const ex_cfg_t *g, const isa_func_t *fn, uint32_t at)
{
    return at < fn->ninstr && ends_thread(&fn->instrs[at]) && runs(g, fn, at) == 1;
}

/*{=====================================================================
 * Guards whose value is known (EX_CFG_FOLD)
 *
 * ptxas folds a comparison whose outcome the ranges of its operands decide before it lays
 * out branches and convergence barriers: '@p ret' after 'and.b32 r, x, 1; setp.ne.u32 p,
 * r, 2' is an unconditional RET in its SASS, and 'rem.u32 r, x, 7; setp.lt.u32 p, r, 13'
 * leaves no branch (goldens warp_fuzz_105, warp_call_fuzz_38).  Here: a guard set in the
 * same block by setp.cmp.{u32,s32,b32} of a register and an immediate, the register set in
 * that block before it by and.b32 with an immediate or rem.u32 by one.
 *====================================================================*/
static bool is_32(const isa_instr_t *in)
{
    return in->ntypes == 1 && (in->types[0] == ISA_T_U32 || in->types[0] == ISA_T_S32 || in->types[0] == ISA_T_B32);
}

/* The last instruction of [from, i) that writes r, or ISA_NONE. */
static uint32_t last_writer(const isa_func_t *fn, uint32_t from, uint32_t i, uint32_t r)
{
    for (uint32_t k = i; k-- > from;)
        if (ex_writes(fn, &fn->instrs[k], r))
            return k;
    return ISA_NONE;
}

/* The values register r may hold at instruction i of the block that starts at from: at
 * most hi, with no bit outside mask.  false: not known. */
static bool reg_range(const isa_func_t *fn, uint32_t from, uint32_t i, uint32_t r, uint32_t *hi, uint32_t *mask)
{
    uint32_t k = last_writer(fn, from, i, r);
    if (k == ISA_NONE)
        return false;
    const isa_instr_t *in = &fn->instrs[k];
    if (in->guard != ISA_NONE || in->nopd != 3 || !is_32(in))
        return false;
    const isa_operand_t *d = &fn->opds[in->opd], *a = d + 1, *b = d + 2;
    if (d->kind != ISA_OPD_REG || d->u.reg != r)
        return false;
    if (in->op == ISA_OP_AND && (a->kind == ISA_OPD_IMM || b->kind == ISA_OPD_IMM)) {
        *hi = *mask = (uint32_t)(b->kind == ISA_OPD_IMM ? b->imm : a->imm);
        return true;
    }
    if (in->op == ISA_OP_REM && in->types[0] == ISA_T_U32 && b->kind == ISA_OPD_IMM && (uint32_t)b->imm) {
        *hi = (uint32_t)b->imm - 1;
        *mask = UINT32_MAX >> __builtin_clz(*hi | 1);
        return true;
    }
    return false;
}

/* Instruction i's guard, in the block that starts at from: 1 always true, 0 never, -1 not
 * known (also 1 for no guard). */
static int guard_value(const isa_func_t *fn, uint32_t from, uint32_t i)
{
    const isa_instr_t *in = &fn->instrs[i];
    if (in->guard == ISA_NONE)
        return 1;
    uint32_t k = last_writer(fn, from, i, in->guard);
    if (k == ISA_NONE)
        return -1;
    const isa_instr_t *s = &fn->instrs[k];
    if (s->op != ISA_OP_SETP || s->guard != ISA_NONE || s->nopd != 3 || !is_32(s) ||
        isa_instr_mod(s, ISA_G_BOOLOP) >= 0)
        return -1;
    const isa_operand_t *d = &fn->opds[s->opd], *a = d + 1, *b = d + 2;
    uint32_t hi, mask;
    if (d->kind != ISA_OPD_REG || d->u.reg != in->guard || a->kind != ISA_OPD_REG || b->kind != ISA_OPD_IMM ||
        !reg_range(fn, from, k, a->u.reg, &hi, &mask))
        return -1;
    if (s->types[0] == ISA_T_S32 && (hi > INT32_MAX || b->imm < 0))   /* compared as unsigned below */
        return -1;
    uint32_t c = (uint32_t)b->imm;
    int v = -1;
    switch (isa_instr_mod(s, ISA_G_CMP)) {
    case ISA_M_EQ: v = c > hi || (c & ~mask) ? 0 : -1; break;
    case ISA_M_NE: v = c > hi || (c & ~mask) ? 1 : -1; break;
    case ISA_M_LT: case ISA_M_LO: v = hi < c ? 1 : c == 0 ? 0 : -1; break;
    case ISA_M_LE: case ISA_M_LS: v = hi <= c ? 1 : -1; break;
    case ISA_M_GT: case ISA_M_HI: v = hi <= c ? 0 : -1; break;
    case ISA_M_GE: case ISA_M_HS: v = hi < c ? 0 : c == 0 ? 1 : -1; break;
    default: break;
    }
    return v < 0 ? -1 : in->guard_neg ? !v : v;
}

/* Whether the instruction at (in its block) runs always, never or either way (-1). */
static int runs(const ex_cfg_t *g, const isa_func_t *fn, uint32_t at)
{
    if (fn->instrs[at].guard == ISA_NONE)
        return 1;
    return g->fold ? guard_value(fn, g->bstart[g->bof[at]], at) : -1;
}
/*}=====================================================================*/

/* Whether in, at self, is a branch around an exit or ret ('@!p bra L; ret; L:'). */
static bool around_leave(const ex_cfg_t *g, const isa_func_t *fn, const isa_instr_t *in, uint32_t self)
{
    return in->op == ISA_OP_BRA && in->nopd == 1 && fn->opds[in->opd].kind == ISA_OPD_LABEL &&
           fn->labels[fn->opds[in->opd].u.label].instr == self + 2 && leaves_at(g, fn, self + 1);
}

/* The successors of block b into out (only counted when out is NULL). */
static uint32_t successors(const ex_cfg_t *g, const isa_func_t *fn, uint32_t b, uint32_t *out)
{
    const isa_instr_t *in = &fn->instrs[g->bstart[b + 1] - 1];
    uint32_t n = 0;
    bool falls = true;
    uint32_t self = g->bstart[b + 1] - 1;
    int run = runs(g, fn, self);
    /* With lanes leaving, an exit or ret written with a guard stays one that lanes may
     * take, and a branch around an unguarded one stays a branch, whatever folding says:
     * the lanes that leave are no path (golden warp_fuzz_162: an if / else whose one arm
     * always returns after folding still meets at its end on the H100). */
    if (g->lanes_leave && run >= 0 && in->guard != ISA_NONE &&
        (ends_thread(in) || (run == 0 && around_leave(g, fn, in, self))))
        run = -1;
    if (run == 0)                             /* a guard known false: the next block only */
        ;
    else if (in->op == ISA_OP_BRA || in->op == ISA_OP_BRX_IDX) {
        bool cond = run < 0, ahead = false;
        for (unsigned k = 0; k < in->nopd; k++) {
            const isa_operand_t *o = &fn->opds[in->opd + k];
            if (o->kind == ISA_OPD_LABEL) {
                uint32_t at = fn->labels[o->u.label].instr;
                ahead = at > self;
                /* with lanes leaving, a conditional forward branch to an exit or ret is
                 * that one guarded (ptxas's predicated EXIT/RET): no path of the others */
                if (!(g->lanes_leave && cond && ahead && leaves_at(g, fn, at)))
                    put(g, at, out, &n);
            } else if (o->kind == ISA_OPD_BRTARGETS) {
                const isa_brtargets_t *bt = &fn->brts[o->u.idx];
                for (uint32_t e = 0; e < bt->count; e++)
                    put(g, fn->labels[bt->targets[e]].instr, out, &n);
            }
        }
        falls = cond;
        /* ... and so is one around an exit or ret ('@!p bra L; ret; L:') */
        if (falls && g->lanes_leave && around_leave(g, fn, in, self))
            falls = false;
    } else if (in->op == ISA_OP_RET || in->op == ISA_OP_EXIT || in->op == ISA_OP_TRAP) {
        /* a guarded exit or ret, when lanes leave: only the next block (the lanes that
         * leave are no path of the others; ptxas's predicated EXIT/RET) */
        if (!(g->lanes_leave && run < 0 && ends_thread(in)))
            put(g, g->n, out, &n);
        falls = run < 0;
    }
    if (falls)
        put(g, g->bstart[b + 1], out, &n);   /* the next block, or off the end */
    return n;
}

bool ex_cfg_build(ex_cfg_t *g, const isa_func_t *fn, const uint8_t *extra, unsigned flags)
{
    uint32_t n = fn->ninstr;
    bool exit = flags & EX_CFG_EXIT;
    *g = (ex_cfg_t){ .n = n, .exit = exit, .lanes_leave = (flags & EX_CFG_LANES_LEAVE) != 0,
                     .fold = (flags & EX_CFG_FOLD) != 0 };
    uint8_t *lead = calloc(n + 1, 1);
    g->bof = malloc((n + 1) * sizeof *g->bof);
    if (!lead || !g->bof) {
        free(lead);
        return false;
    }
    if (n)
        lead[0] = 1;
    for (uint32_t k = 0; k < fn->nlabel; k++)
        if (fn->labels[k].instr < n)
            lead[fn->labels[k].instr] = 1;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (ends_block(&fn->instrs[i]) || (extra && extra[i + 1]))
            lead[i + 1] = 1;
    for (uint32_t i = 0; i < n; i++)
        g->nb += lead[i];
    uint32_t nb = g->nb, nodes = nb + exit;
    g->bstart = malloc((nb + 1) * sizeof *g->bstart);
    g->succ_at = calloc(nodes + 1, sizeof *g->succ_at);
    g->pred_at = calloc(nodes + 2, sizeof *g->pred_at);
    if (!g->bstart || !g->succ_at || !g->pred_at) {
        free(lead);
        return false;
    }
    for (uint32_t i = 0, b = 0; i < n; i++) {
        if (lead[i])
            g->bstart[b++] = i;
        g->bof[i] = b - 1;
    }
    g->bstart[nb] = n;
    free(lead);
    for (uint32_t b = 0; b < nb; b++)
        g->succ_at[b + 1] = g->succ_at[b] + successors(g, fn, b, NULL);
    if (exit)
        g->succ_at[nb + 1] = g->succ_at[nb];   /* the exit leads nowhere */
    uint32_t ne = g->succ_at[nb];
    g->succ = malloc((ne + 1) * sizeof *g->succ);
    g->pred = malloc((ne + 1) * sizeof *g->pred);
    if (!g->succ || !g->pred)
        return false;
    for (uint32_t b = 0; b < nb; b++)
        successors(g, fn, b, g->succ + g->succ_at[b]);
    /* predecessors: counted at [node + 2], summed, placed through [node + 1] */
    for (uint32_t e = 0; e < ne; e++)
        g->pred_at[g->succ[e] + 2]++;
    for (uint32_t v = 0; v < nodes; v++)
        g->pred_at[v + 2] += g->pred_at[v + 1];
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t e = g->succ_at[b]; e < g->succ_at[b + 1]; e++)
            g->pred[g->pred_at[g->succ[e] + 1]++] = b;
    return true;
}

void ex_cfg_free(ex_cfg_t *g)
{
    free(g->bof);
    free(g->bstart);
    free(g->succ_at);
    free(g->succ);
    free(g->pred_at);
    free(g->pred);
    *g = (ex_cfg_t){ 0 };
}
