/* interp.c: the warp loop and CTA scheduling.
 *
 * Scheduling policy (independent thread scheduling, as on sm_70+): every lane has its
 * own program counter.  A warp runs the group of lanes with the lowest program counter
 * (lanes with equal counters form one group and execute together), straight through
 * until a branch splits the group, a barrier or call stops it, or its lanes exit.  After
 * a split the lowest counter runs first, so lanes that branched over code wait at the
 * join point until the others catch up, and the warp reconverges; where the arms of a
 * forward branch stay inside its region, the arm with fewer lanes runs first and the
 * other is held back until it has arrived (join_defer), as on the H100.  A group that keeps
 * jumping backwards while other groups wait is preempted after EX_SPIN_LIMIT backward
 * jumps and the next group (by program counter, round robin) runs: a lane spinning on a
 * lock held by another lane of its warp lets that lane progress.  Warps of a CTA run in
 * turn, each for a quantum of instructions; CTAs run on worker threads.  Barriers count
 * arrival per warp (see internal.h); docs/execution.md describes the whole model. */
#include "exec/internal.h"
#include "exec/machine.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Warp instructions before the next warp of the CTA runs: few, so that a CTA's warps
 * advance together as on the SM's schedulers, which interleave them instruction by
 * instruction.  A program that reads a shared value after a barrier while another warp
 * overwrites it only after a long computation (a race the GPU's interleaving hides:
 * HeCBench's layernorm) then gets the GPU's result; run-to-the-barrier order gave another. */
#define EX_QUANTUM     32
/* With statistics on, warps take turns sooner, as the SM's schedulers interleave them: the
 * L1 then sees the accesses of a CTA's warps mixed (what decides its capacity misses). */
#define EX_STATS_QUANTUM 8
#define EX_SPIN_LIMIT  65536     /* backward jumps of one set of lanes before it yields */
#define EX_LOCAL_BYTES EX_M_LOCAL_BYTES /* local memory per thread, reserved, not allocated:
                                    the OS backs the pages a kernel touches */
#define EX_SLICE       (1u << 20) /* warp instructions of a resident CTA before the next one runs */
/* What a poll (ex_warp_t.polls) costs of the slice: a CTA that waits for another one
 * (cooperative groups' grid.sync, a flag, a lock) gives way after 256 polls instead of
 * spinning for the whole slice; the CTAs it waits for run sooner. */
#define EX_POLL_COST   (1u << 12)


/*{=====================================================================
 * Frames
 *====================================================================*/
/* A frame for f: registers are left undefined (as on the GPU); the constant area is
 * copied from the template (immediates, and the addresses ex_program_new baked in), with
 * the local-memory addresses moved to this activation's local frame.  buf, when given,
 * is reused. */
static uint8_t *frame_new(ex_warp_t *w, ex_func_t *f, uint32_t local_base, uint8_t *buf)
{
    uint8_t *fr = buf;
    uint32_t need = f->frame_size + 64;
    for (unsigned i = 0; !fr && i < sizeof w->fcache / sizeof *w->fcache; i++)
        if (w->fcache[i].p && w->fcache[i].cap >= need) {
            fr = w->fcache[i].p;
            w->fcache[i].p = NULL;
        }
    if (!fr)
        fr = malloc(need);
    if (!fr)
        return NULL;
    memcpy(fr + f->const_begin, f->frame_init + f->const_begin, f->frame_size - f->const_begin);
    /* The carry flag starts clear in each activation: an addc or subc before any .cc reads
     * 0 on the H100 (goldens carry_fuzz_*, whose programs begin so). */
    if (f->uses_cc)
        memset(fr + f->cc_slot, 0, 4 * ISA_LANES);
    uint32_t sbase = w->cta->shared_base;
    if (local_base == 0 && sbase == 0)
        return fr;
    for (uint32_t i = 0; i < f->nfixup; i++) {
        const ex_fixup_t *x = &f->fixups[i];
        uint64_t v;
        if (x->kind == FX_SHARED && sbase) {
            /* a shared address of a CTA of rank r in a cluster: r in bits 24-31 */
            v = sbase;
            if (x->bytes == 8) {
                uint64_t *d = (uint64_t *)(void *)(fr + x->slot);
                for (unsigned l = 0; l < ISA_LANES; l++)
                    d[l] += v;
            } else {
                uint32_t *d = (uint32_t *)(void *)(fr + x->slot);
                for (unsigned l = 0; l < ISA_LANES; l++)
                    d[l] += (uint32_t)v;
            }
            continue;
        }
        if (x->kind != FX_LOCAL || local_base == 0)
            continue;
        v = EX_LOCAL_BASE + local_base + x->value;
        if (x->bytes == 8) {
            uint64_t *d = (uint64_t *)(void *)(fr + x->slot);
            for (unsigned l = 0; l < ISA_LANES; l++)
                d[l] = v;
        } else {
            uint32_t *d = (uint32_t *)(void *)(fr + x->slot);
            for (unsigned l = 0; l < ISA_LANES; l++)
                d[l] = (uint32_t)v;
        }
    }
    return fr;
}

/* A call's frame (of function f) no longer used: kept for the warp's next calls, the
 * smallest kept one giving way; freed when the cache is full of larger ones. */
static void frame_drop(ex_warp_t *w, const ex_func_t *f, uint8_t *fr)
{
    uint32_t cap = f->frame_size + 64;
    unsigned n = sizeof w->fcache / sizeof *w->fcache, at = n;
    for (unsigned i = 0; i < n; i++)
        if (!w->fcache[i].p) {
            at = i;
            break;
        } else if (w->fcache[i].cap < cap && (at == n || w->fcache[i].cap < w->fcache[at].cap)) {
            at = i;
        }
    if (at == n) {
        free(fr);
        return;
    }
    free(w->fcache[at].p);
    w->fcache[at].p = fr;
    w->fcache[at].cap = cap;
}

static void frame_cache_free(ex_warp_t *w)
{
    for (unsigned i = 0; i < sizeof w->fcache / sizeof *w->fcache; i++) {
        free(w->fcache[i].p);
        w->fcache[i].p = NULL;
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Faults
 *====================================================================*/
/* "at FILE:LINE:COL: instruction", then sep and "source FILE:LINE:COL" when the PTX
 * carries .loc information for it, then a new line. */
static void print_loc(FILE *out, const isa_module_t *m, const isa_func_t *fn, const ex_insn_t *x, const char *sep)
{
    const isa_source_t *src = &m->srcs[x->ir->loc.file];
    unsigned line, col;
    isa_loc_linecol(src, x->ir->loc.begin, &line, &col);
    size_t b = x->ir->loc.begin, e = b;
    while (e < src->len && src->text[e] != '\n' && src->text[e] != ';')
        e++;
    fprintf(out, "at %s:%u:%u: %.*s", src->name, line, col, (int)(e - b), src->text + b);
    if (x->ir->dbg != ISA_NONE && x->ir->dbg < fn->ndbg) {
        const isa_dbgloc_t *d = &fn->dbg[x->ir->dbg];
        const char *file = "?";
        for (uint32_t i = 0; i < m->nfile; i++)
            if (m->files[i].index == d->file)
                file = m->files[i].name;
        fprintf(out, "%ssource %s:%u:%u", sep, file, d->line, d->col);
    }
    fputc('\n', out);
}

/* The function whose code holds instruction x (for its .loc records). */
static const isa_func_t *func_of(const ex_program_t *p, const ex_insn_t *x)
{
    for (uint32_t i = 0; i < p->m->nfunc; i++)
        if (p->funcs[i].code && x >= p->funcs[i].code && x < p->funcs[i].code + p->funcs[i].ncode)
            return p->funcs[i].ir;
    return &p->m->funcs[0];
}

/* A deadlock: every live warp of c, each group of its lanes (in each activation) with what
 * it waits for (exec/sync/wait.c) and where. */
static void report_waits(FILE *out, ex_program_t *p, ex_cta_t *c)
{
    if (c->cluster && c->cluster->n > 1)
        fprintf(out, "  warps of CTA (%u,%u,%u), rank %u of the cluster:\n", c->ctaid[0], c->ctaid[1], c->ctaid[2],
                c->rank);
    else
        fputs("  warps of the CTA:\n", out);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        for (uint32_t a = 0; a < w->depth; a++) {
            const ex_ctx_t *cx = &w->ctx[a];
            uint32_t left = ex_ctx_own(w, cx);
            while (left) {
                unsigned l = (unsigned)__builtin_ctz(left);
                uint32_t pc = cx->pc[l], g = 0;
                for (uint32_t k = left; k; k &= k - 1)
                    if (cx->pc[__builtin_ctz(k)] == pc && ((w->waiting >> __builtin_ctz(k)) & 1) ==
                                                             ((w->waiting >> l) & 1))
                        g |= k & -k;
                left &= ~g;
                char what[160];
                const ex_insn_t *x = ex_wait_describe(c, w, l, what, sizeof what);
                fprintf(out, "    warp %u lanes 0x%08x: %s, ", w->id, g, what);
                if (!x && pc < cx->fn->ncode)
                    x = &cx->fn->code[pc];
                if (x && x->ir)
                    print_loc(out, p->m, func_of(p, x), x, ", ");
                else
                    fputs("at the end of the function\n", out);
            }
        }
    }
}

/* The fault of warp w into f (its fields) and its report's first lines onto out. */
static void report_fault(ex_warp_t *w, ex_fault_t *f, FILE *out, const char *kernel)
{
    ex_cta_t *c = w->cta;
    const isa_module_t *m = c->p->m;
    unsigned l = w->fault_lane >= 0 ? (unsigned)w->fault_lane : 0;
    f->kind = (ex_fault_kind_t)w->fault_kind;
    f->kernel = kernel;
    f->has_thread = true;
    memcpy(f->cta, c->ctaid, sizeof f->cta);
    for (unsigned k = 0; k < 3; k++)
        f->thread[k] = w->tid[k][l];
    f->warp = w->id;
    f->lane = l;
    snprintf(f->what, sizeof f->what, "%s", w->fault_what ? w->fault_what : "fault");
    f->has_addr = w->fault_addr || (w->fault_what && strstr(w->fault_what, "address"));
    f->addr = w->fault_addr;
    fprintf(out, "ptxrun: error: kernel %s: CTA (%u,%u,%u) thread (%u,%u,%u): %s", kernel,
            c->ctaid[0], c->ctaid[1], c->ctaid[2], w->tid[0][l], w->tid[1][l], w->tid[2][l], f->what);
    if (f->has_addr)
        fprintf(out, " (address 0x%llx)", (unsigned long long)w->fault_addr);
    fputc('\n', out);
    const ex_insn_t *x = w->fault_insn;
    if (x && x->ir) {
        const isa_source_t *src = &m->srcs[x->ir->loc.file];
        f->file = src->name;
        isa_loc_linecol(src, x->ir->loc.begin, &f->line, &f->col);
        const isa_func_t *fn = func_of(c->p, x);
        if (x->ir->dbg != ISA_NONE && x->ir->dbg < fn->ndbg) {
            const isa_dbgloc_t *d = &fn->dbg[x->ir->dbg];
            f->src_file = "?";
            for (uint32_t i = 0; i < m->nfile; i++)
                if (m->files[i].index == d->file)
                    f->src_file = m->files[i].name;
            f->src_line = d->line;
            f->src_col = d->col;
        }
        fputs("  ", out);
        print_loc(out, m, fn, x, "\n  ");
    }
}

/*}=====================================================================*/

/*{=====================================================================
 * Calls
 *====================================================================*/
/* The parameters of callee whose address mov takes, from its new frame fr into their
 * places in its local frame (local_base), for the lanes of mask. */
static void param_copies(ex_warp_t *w, const ex_func_t *callee, const uint8_t *fr, uint32_t local_base, uint32_t mask)
{
    const isa_func_t *fn = callee->ir;
    for (uint32_t v = fn->nret; v < fn->nret + fn->nparam; v++) {
        if (callee->var_local[v] == ISA_NONE || callee->var_slot[v] == ISA_NONE)
            continue;
        uint32_t size = (uint32_t)isa_var_size(&fn->vars[v]), off = local_base + callee->var_local[v];
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            const uint8_t *src = fr + callee->var_slot[v] + (size_t)l * size;
            for (uint32_t b = 0; b < size; b++)
                *EX_LOCAL_AT(w->local, l, off + b) = src[b];
        }
    }
}

static int do_call(ex_warp_t *w, const ex_insn_t *x, uint32_t mask, uint32_t fi, uint32_t next_pc)
{
    ex_ctx_t *cx = ex_top(w);
    ex_program_t *p = w->cta->p;
    if (w->depth == EX_MAX_DEPTH)
        return ex_set_fault_k(w, x, mask, EX_FAULT_STACK, "call stack overflow"), W_FAULT;
    ex_func_t *callee = &p->funcs[fi];
    uint32_t local_base = w->local_top;
    if (callee->local_size) {
        /* The frame must stay below every calling lane's alloca stack (mem/stack.c). */
        uint32_t floor = w->local ? w->local_bytes : 0;
        if (w->sp) {
            const uint32_t *sp = w->sp[cx->sp_row];
            ISA_LANE_LOOP(mask, { floor = sp[l] < floor ? sp[l] : floor; });
        }
        if ((uint64_t)local_base + callee->local_size > floor)
            return ex_set_fault_k(w, x, mask, EX_FAULT_STACK, "local memory stack overflow"), W_FAULT;
    }
    uint8_t *fr = frame_new(w, callee, local_base, NULL);
    if (!fr)
        return ex_set_fault_k(w, x, mask, EX_FAULT_NOMEM, "out of host memory"), W_FAULT;
    /* Arguments: registers, .param areas or constants of the caller, per lane. */
    ex_call_args(cx, x, callee, fr, mask);
    if (callee->param_copies)
        param_copies(w, callee, fr, local_base, mask);
    w->local_top += callee->local_size;
    cx->inside |= mask;
    ex_ctx_t *nx = &w->ctx[w->depth++];
    memset(nx, 0, sizeof *nx);
    nx->fn = callee;
    nx->frame = fr;
    nx->members = mask;
    nx->parent = w->cur;
    nx->ret_pc = next_pc;
    nx->caller_members = mask;
    nx->call = x;
    nx->local_base = local_base;
    if (w->sp) {           /* the callee's stack starts at the caller's; its allocas go with it */
        nx->sp_row = (uint32_t)__builtin_ctzll(~w->sp_used);
        w->sp_used |= 1ull << nx->sp_row;
        memcpy(w->sp[nx->sp_row], w->sp[cx->sp_row], sizeof *w->sp);
    }
    return W_RUNNABLE;
}

static void join_settle(ex_warp_t *w, ex_ctx_t *cx);

/* Leave activation i once all its lanes have returned: copy return values into the
 * caller's registers or .param areas and resume the callers after the call.  Later
 * activations (made by other lanes while these waited) move down one place; the local
 * stack ends after the highest frame still in use. */
static void pop_ctx(ex_warp_t *w, uint32_t i)
{
    ex_ctx_t *cx = &w->ctx[i];
    ex_ctx_t *caller = &w->ctx[cx->parent];
    uint32_t back = cx->caller_members & w->alive;
    ex_call_rets(caller, cx, back);
    for (uint32_t m = back; m; m &= m - 1)
        caller->pc[__builtin_ctz(m)] = cx->ret_pc;
    caller->members &= ~(cx->caller_members & ~w->alive);
    caller->inside &= ~cx->caller_members;
    if (caller->njoin)
        join_settle(w, caller);
    frame_drop(w, cx->fn, cx->frame);
    w->sp_used &= ~(1ull << cx->sp_row);
    w->depth--;
    if (i < w->depth) {
        memmove(&w->ctx[i], &w->ctx[i + 1], (w->depth - i) * sizeof *w->ctx);
        for (uint32_t k = i; k < w->depth; k++)
            if (w->ctx[k].parent > i)
                w->ctx[k].parent--;
    }
    uint32_t top = w->ctx[0].local_base + w->ctx[0].fn->local_size;
    for (uint32_t k = 1; k < w->depth; k++) {
        uint32_t e = w->ctx[k].local_base + w->ctx[k].fn->local_size;
        top = e > top ? e : top;
    }
    w->local_top = top;
}
/*}=====================================================================*/

/*{=====================================================================
 * Reconvergence
 *====================================================================*/
/* Joins whose members have all arrived (or left: exited, returned) are done: their lanes
 * run on together.  (A yielding loop lets lanes past joins, after which a join made
 * later can sit above an older one: each is looked at.) */
static void join_settle(ex_warp_t *w, ex_ctx_t *cx)
{
    uint32_t live = cx->members & w->alive;
    for (uint32_t k = cx->njoin; k-- > 0;) {
        struct ex_join *j = &cx->join[k];
        j->members &= live;
        j->arrived &= live;
        if (j->members & ~j->arrived)
            continue;
        cx->parked &= ~j->arrived;
        cx->njoin--;
        if (cx->njoin > k)    /* usually the innermost: nothing to move, no call */
            memmove(j, j + 1, (cx->njoin - k) * sizeof *j);
        k = cx->njoin;        /* lanes that went on may complete another one: again */
    }
}

/* Lanes m of cx are at instruction pc: those that are members of a join there wait for
 * the others, and leave the joins nested inside it (their regions are behind them). */
static void join_arrive(ex_warp_t *w, ex_ctx_t *cx, uint32_t m, uint32_t pc)
{
    for (uint32_t k = cx->njoin; k-- > 0;) {
        struct ex_join *j = &cx->join[k];
        uint32_t a = j->members & m;
        if (j->pc == pc && a) {
            for (uint32_t q = k + 1; q < cx->njoin; q++)
                cx->join[q].members &= ~a;
            j->arrived |= a;
            cx->parked |= a;
            if (!(j->members & ~j->arrived) || (j->members & ~(cx->members & w->alive)))
                join_settle(w, cx);
            return;
        }
    }
}

/* Group g split at a branch whose paths meet at pc: its lanes meet there. */
static void join_push(ex_ctx_t *cx, uint32_t pc, uint32_t g)
{
    if (pc == ISA_NONE)
        return;
    if (cx->njoin) {
        const struct ex_join *t = &cx->join[cx->njoin - 1];
        if (t->pc == pc && !(g & ~t->members))
            return;          /* the same join again (a loop's exit, iteration after iteration) */
    }
    if (cx->njoin < EX_NJOIN)
        cx->join[cx->njoin++] = (struct ex_join){ pc, g, 0 };
}

/* The arm of the branch at from that runs second (lanes m) waits for the other arm, after
 * the arms deferred before it: last in first out (of a branch inside an arm, the other
 * arm runs before the outer branch's). */
static __attribute__((noinline, cold)) void join_defer(ex_ctx_t *cx, uint32_t m, uint32_t from)
{
    if (cx->ndefer < EX_NDEFER) {
        cx->defer[cx->ndefer++] = (struct ex_defer){ m, from };
    } else {
        struct ex_defer *d = &cx->defer[EX_NDEFER - 1];
        d->lanes |= m;
        d->from = from < d->from ? from : d->from;
    }
}

/* Lanes waiting at joins run on past them, as the GPU's YIELD lets lanes go on from a
 * convergence barrier: they leave those joins, which stay for the lanes still to come
 * (the released ones meet the others again at an outer join).  All of them (a loop
 * yields), or those of the innermost join that has any (nothing else can run).
 * Returns the lanes released. */
static uint32_t join_release(ex_ctx_t *cx, bool just)
{
    uint32_t freed = 0;
    if (!just)
        cx->ndefer = 0;
    for (uint32_t k = cx->njoin; k-- > 0;) {
        struct ex_join *j = &cx->join[k];
        j->members &= ~j->arrived;
        freed |= j->arrived;
        j->arrived = 0;
        if (just && freed)
            break;
    }
    cx->parked &= ~freed;
    return freed;
}

/* The first join counter after pc that group g may reach (UINT32_MAX: none). */
static inline uint32_t join_next(const ex_ctx_t *cx, uint32_t g, uint32_t pc)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t k = 0; k < cx->njoin; k++)
        if ((cx->join[k].members & g) && cx->join[k].pc > pc && cx->join[k].pc < best)
            best = cx->join[k].pc;
    return best;
}

/* Of the ready lanes of cx, those no deferral holds back: the arm of a divergent branch
 * that runs second waits while lanes of the other arm are still between the branch and
 * the join (they arrived, left, or jumped out: a break).  When all the ready lanes are
 * held back (the first arm's lanes wait elsewhere: a barrier, a call), they run. */
static __attribute__((noinline, cold)) uint32_t join_undeferred(const ex_warp_t *w, ex_ctx_t *cx, uint32_t ready)
{
    uint32_t held = 0;
    for (uint32_t k = 0; k < cx->ndefer; k++)
        held |= cx->defer[k].lanes;
    while (cx->ndefer) {
        const struct ex_defer *d = &cx->defer[cx->ndefer - 1];
        uint32_t inside = 0, at = cx->fn->join_at[d->from];
        for (uint32_t m = cx->members & w->alive & ~cx->parked & ~held; m; m &= m - 1) {
            uint32_t q = cx->pc[__builtin_ctz(m)];
            inside |= q > d->from && q < at;
        }
        if (inside)
            break;
        cx->ndefer--;
        held = 0;
        for (uint32_t k = 0; k < cx->ndefer; k++)
            held |= cx->defer[k].lanes;
    }
    return ready & ~held ? ready & ~held : ready;
}

/* Whether group g is at a join it is a member of. */
static inline bool join_at(const ex_ctx_t *cx, uint32_t g, uint32_t pc)
{
    for (uint32_t k = 0; k < cx->njoin; k++)
        if ((cx->join[k].members & g) && cx->join[k].pc == pc)
            return true;
    return false;
}
/*}=====================================================================*/

/*{=====================================================================
 * The warp loop
 *====================================================================*/
/* Set the program counter of the lanes in m (a whole warp: one vectorisable store loop). */
static inline void set_pcs(ex_ctx_t *cx, uint32_t m, uint32_t v)
{
    if (m == ISA_FULL) {
        for (unsigned l = 0; l < ISA_LANES; l++)
            cx->pc[l] = v;
        return;
    }
    for (; m; m &= m - 1)
        cx->pc[__builtin_ctz(m)] = v;
}

static inline uint32_t guard_mask(const uint8_t *f, const ex_insn_t *x, uint32_t g)
{
    if (x->guard == ISA_NONE)
        return g;
    uint32_t p = *(const uint32_t *)(const void *)(f + x->guard);
    return g & (x->guard_neg ? ~p : p);
}

/* Run warp w for up to budget instructions; with stats, count each issued instruction
 * (ex_stats_insn).  Instantiated twice, so that the loop without statistics has no test
 * for them. */
static inline __attribute__((always_inline)) int warp_run_t(ex_warp_t *w, uint64_t budget, const bool stats)
{
    while (budget) {
        if (w->depth == 0)
            return W_DONE;
        /* The innermost activation with lanes ready to run (calls made by part of the
         * warp: when the callee's lanes wait, the caller's other lanes run).  An
         * activation whose lanes have all returned or exited is left first. */
        uint32_t ready = 0, i = w->depth;
        bool popped = false;
        while (i-- > 0) {
            ex_ctx_t *c = &w->ctx[i];
            if ((c->members & w->alive) == 0) {
                if (i == 0) {
                    w->depth = 0;
                    return W_DONE;
                }
                pop_ctx(w, i);
                popped = true;
                break;
            }
            ready = ex_ctx_own(w, c) & ~w->waiting & ~c->parked;
            if (ready)
                break;
        }
        if (popped)
            continue;
        if (ready && w->outward) {
            /* a loop in a call yielded: the lanes of its callers (another lane of the warp
             * may be what it waits for) run first */
            for (uint32_t k = i; k-- > 0;) {
                uint32_t r = ex_ctx_own(w, &w->ctx[k]) & ~w->waiting & ~w->ctx[k].parked;
                if (r) {
                    i = k;
                    ready = r;
                    break;
                }
            }
        }
        w->outward = false;
        if (!ready) {
            /* Nothing to run but lanes at joins, waiting for lanes that wait themselves
             * (at a barrier, bar.warp.sync, a collective): the innermost join gives way,
             * and its lanes run on to meet them there. */
            bool freed = false;
            for (uint32_t k = w->depth; k-- > 0 && !freed;)
                freed = join_release(&w->ctx[k], true) != 0;
            if (freed)
                continue;
            return W_BLOCKED;
        }
        w->cur = i;
        ex_ctx_t *cx = &w->ctx[i];
        if (__builtin_expect(cx->ndefer != 0, 0) && w->backjumps < EX_SPIN_LIMIT)
            ready = join_undeferred(w, cx, ready);
        /* The group with the lowest program counter (round robin past a spinning one). */
        uint32_t pc = UINT32_MAX, g = 0, second = 0;   /* second: set by the one-pass selection */
        bool resumed = w->res_ok && w->res_cur == i && w->res_ready == ready;
        w->res_ok = false;
        if (resumed) {
            /* the group the quantum's end interrupted, its lanes and the others unchanged */
            pc = w->res_pc;
            g = w->res_g;
        } else if (w->backjumps >= EX_SPIN_LIMIT) {
            /* The group that spun gives way: the other ready lanes' group with the lowest
             * counter past where it stopped, round robin (the lowest of them when none is
             * past it), so that every group of the warp gets its turn. */
            uint32_t cand = ready & ~w->last_g, after = UINT32_MAX;
            if (!cand)
                cand = ready;
            for (uint32_t m = cand; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                if (cx->pc[l] < pc)
                    pc = cx->pc[l];
                if (cx->pc[l] > w->last_pc && cx->pc[l] < after)
                    after = cx->pc[l];
            }
            if (after != UINT32_MAX)
                pc = after;
            w->backjumps = 0;
        } else if (ready == ISA_FULL) {
            /* Whole warp ready: branch-free passes the compiler vectorises; a converged
             * warp (lowest = highest) needs no group mask computed. */
            uint32_t top = 0;
            for (unsigned l = 0; l < ISA_LANES; l++) {
                pc = cx->pc[l] < pc ? cx->pc[l] : pc;
                top = cx->pc[l] > top ? cx->pc[l] : top;
            }
            if (pc == top)
                g = ISA_FULL;
        } else {
            second = UINT32_MAX;
            /* one pass: the lowest counter, its lanes, and the next counter (the join) */
            for (uint32_t m = ready; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                uint32_t q = cx->pc[l];
                if (q < pc) {
                    second = pc;
                    pc = q;
                    g = m & -m;
                } else if (q == pc) {
                    g |= m & -m;
                } else if (q < second) {
                    second = q;
                }
            }
        }
        if (g == ISA_FULL || resumed || second != 0) {
            /* converged, or resumed */
        } else if (ready == ISA_FULL) {
            for (unsigned l = 0; l < ISA_LANES; l++)
                g |= (uint32_t)(cx->pc[l] == pc) << l;
        } else {
            for (uint32_t m = ready; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                if (cx->pc[l] == pc)
                    g |= 1u << l;
            }
        }
        if (cx->njoin && !resumed && join_at(cx, g, pc)) {
            /* lanes that come to a join of theirs other than by running into it (after a
             * wait, a call, a nanosleep) wait there too */
            join_arrive(w, cx, g, pc);
            continue;
        }
        uint8_t *f = cx->frame;
        const ex_insn_t *code = cx->fn->code;
        bool others = g != ready;
        /* The next program counter at which other ready lanes wait: the group stops there,
         * so that the lanes run on together (they reconverge, as on the GPU, where
         * %activemask after an if shows the whole warp). */
        uint32_t join = resumed ? w->res_join : UINT32_MAX, ojoin = resumed ? w->res_ojoin : UINT32_MAX;
        if (second)
            ojoin = second;
        else if (others && !resumed)
            for (uint32_t m = ready & ~g; m; m &= m - 1) {
                uint32_t q = cx->pc[__builtin_ctz(m)];
                ojoin = q > pc && q < ojoin ? q : ojoin;
            }
        if (!resumed) {
            /* and it stops at the next join it meets the others at */
            join = ojoin;
            if (cx->njoin) {
                uint32_t e = join_next(cx, g, pc);
                join = e < join ? e : join;
            }
        }
        uint32_t g0 = g;
        uint64_t run = 0;
        bool qend = false;   /* the straight run stopped only because the quantum ended */
        /* Straight-line execution of group g. */
        for (;;) {
            const ex_insn_t *x = &code[pc];
            uint32_t mask = guard_mask(f, x, g);
            if (!x->fn)
                return ex_set_fault_k(w, x, g, EX_FAULT_ILLEGAL, "instruction without semantics"), W_FAULT;
            int st = ISA_X_NEXT;
            if (g != g0) {
                w->nlane_instr += run * (uint64_t)__builtin_popcount(g0);
                w->ninstr += run;
                run = 0;
                g0 = g;
            }
            run++;
            budget--;
            if (stats)
                ex_stats_insn(w, f, x, &cx->fn->sinfo[pc], g, mask);
            if (mask || x->desc == NULL)
                st = x->fn(w, f, x, mask);
            else if (x->fn == code[cx->fn->ncode - 1].fn && pc == cx->fn->ncode - 1)
                st = x->fn(w, f, x, g);
            if (st == ISA_X_NEXT) {
                pc++;
                if (pc != join) {
                    if (budget)
                        continue;
                    qend = true;
                }
                break;
            }
            if (st == ISA_X_BRANCH) {
                uint32_t tgt = x->target;
                if (tgt == ISA_NONE) {
                    /* brx.idx: per-lane targets; lanes that go elsewhere split off. */
                    tgt = w->jump[__builtin_ctz(mask)];
                    uint32_t same = 0;
                    for (uint32_t m = mask; m; m &= m - 1)
                        if (w->jump[__builtin_ctz(m)] == tgt)
                            same |= m & -m;
                    if (same != mask) {
                        for (uint32_t m = mask; m; m &= m - 1)
                            cx->pc[__builtin_ctz(m)] = w->jump[__builtin_ctz(m)];
                        uint32_t jp = cx->fn->join_at[pc], at = 0;
                        join_push(cx, jp, g);
                        for (uint32_t m = jp != ISA_NONE ? mask : 0; m; m &= m - 1)
                            at |= (uint32_t)(w->jump[__builtin_ctz(m)] == jp) << __builtin_ctz(m);
                        if (at)
                            join_arrive(w, cx, at, jp);
                        for (uint32_t m = cx->njoin > 1 ? mask & ~at : 0; m; m &= m - 1)
                            join_arrive(w, cx, m & -m, w->jump[__builtin_ctz(m)]);   /* an outer join */
                        g &= ~mask;
                        pc++;
                        break;
                    }
                }
                if (mask == g) {
                    if (tgt <= pc) {
                        /* A spin is backward jumps of one set of lanes (its groups may
                         * split and meet inside the loop): a group with another lane
                         * jumping back starts the count again (a warp's nested loops,
                         * group after group, are no spin). */
                        if (g & ~w->spin_g) {
                            w->backjumps = 0;
                            w->spin_g = g;
                        }
                        w->backjumps++;
                        if (cx->fn->yields[pc] &&
                            (others || cx->parked || (w->alive & ~ex_ctx_own(w, cx) & ~w->waiting))) {
                            /* a loop that may wait for other lanes yields, as the GPU's YIELD
                             * does: the lanes at the joins run on (the callers' too), and the
                             * next group is another one: of this activation, of an inner one
                             * (its lanes are preferred), or of a caller */
                            for (uint32_t k = 0; k < w->depth; k++)
                                join_release(&w->ctx[k], false);
                            w->backjumps = EX_SPIN_LIMIT;
                            w->outward = i > 0 && !others;
                            pc = tgt;
                            break;
                        }
                    }
                    /* A jump past the next counter where other lanes wait stops the group
                     * there: those lanes, now the lowest, run up to it, and the warp
                     * reconverges at the join as the GPU's does (an if/else whose first arm
                     * jumps over the second to their common end). */
                    bool past = others && tgt > ojoin && ojoin != UINT32_MAX;
                    pc = tgt;
                    if (cx->njoin) {
                        if (join_at(cx, g, pc))
                            break;
                        uint32_t e = join_next(cx, g, pc);
                        join = e < ojoin ? e : ojoin;
                    }
                    if (pc != join && !past && !(others && w->backjumps >= EX_SPIN_LIMIT)) {
                        if (budget)
                            continue;
                        qend = true;
                    }
                    break;
                }
                if (mask == 0) {
                    pc++;
                    if (pc != join) {
                        if (budget)
                            continue;
                        qend = true;
                    }
                    break;
                }
                /* Divergence: the taken lanes go to the target, the others fall through;
                 * they meet again at the branch's join.  The arm with fewer lanes runs
                 * first, the fall-through arm when they are as many, and the other arm
                 * after it, when the first has all arrived at the join (or left), as on
                 * the H100 (tickets of a shared atomic in the arms of random if/else
                 * nests: goldens warp_order_*, tests/golden/gen_order.py), where the arms
                 * stay inside the branch's region (reconv.c): the second arm is deferred
                 * (join_defer).  Elsewhere the lowest counter runs first. */
                for (uint32_t m = mask; m; m &= m - 1)
                    cx->pc[__builtin_ctz(m)] = tgt;
                join_push(cx, cx->fn->join_at[pc], g);
                if (cx->njoin)
                    join_arrive(w, cx, mask, tgt);
                if (cx->fn->yields[pc] & EX_ARMS_INSIDE) {
                    unsigned nt = (unsigned)__builtin_popcount(mask), nf = (unsigned)__builtin_popcount(g & ~mask);
                    join_defer(cx, nt < nf ? g & ~mask : mask, pc);
                }
                g &= ~mask;
                pc++;
                break;
            }
            if (st == ISA_X_YIELD) {
                /* nanosleep: on to the next instruction, after the other warps' turn */
                pc++;
                w->nlane_instr += run * (uint64_t)__builtin_popcount(g0);
                w->ninstr += run;
                set_pcs(cx, g, pc);
                return W_RUNNABLE;
            }
            if (st == ISA_X_FAULT)
                return W_FAULT;
            if (st == ISA_X_TRAP)
                return ex_set_fault_k(w, x, mask, EX_FAULT_TRAP, "trap instruction executed"), W_FAULT;
            if (st == ISA_X_EXIT || (st == ISA_X_RET && w->cur == 0)) {
                w->alive &= ~mask;
                cx->members &= ~mask;
                w->cta->exited += (uint32_t)__builtin_popcount(mask);
                ex_wait_exited(w);
                for (uint32_t k = 0; k < w->depth; k++)   /* the joins stop waiting for them */
                    if (w->ctx[k].njoin)
                        join_settle(w, &w->ctx[k]);
                g &= ~mask;
                if (!g)
                    break;
                pc++;
                if (pc != join) {
                    if (budget)
                        continue;
                    qend = true;
                }
                break;
            }
            if (st == ISA_X_RET) {
                cx->members &= ~mask;
                g &= ~mask;
                if (cx->njoin)
                    join_settle(w, cx);
                if (!g && !others && w->cur == w->depth - 1 && (cx->members & w->alive) == 0) {
                    /* The whole activation returned: leave it now, and run on in the caller
                     * when the returning lanes are all it has ready (what the selection
                     * above would pick next). */
                    uint32_t back = cx->caller_members & w->alive, parent = cx->parent, at = cx->ret_pc;
                    pop_ctx(w, w->cur);
                    ex_ctx_t *up = &w->ctx[parent];
                    if (parent != w->depth - 1 || back == 0 || (ex_ctx_own(w, up) & ~w->waiting) != back)
                        break;
                    w->cur = parent;
                    cx = up;
                    f = cx->frame;
                    code = cx->fn->code;
                    g = back;
                    pc = at;
                    /* the caller's joins (the call may end an arm: its return lands on one) */
                    ojoin = join = UINT32_MAX;
                    if (cx->njoin) {
                        if (join_at(cx, g, pc))
                            break;
                        join = join_next(cx, g, pc);
                    }
                    if (budget)
                        continue;
                    break;
                }
                if (!g)
                    break;
                pc++;
                if (pc != join) {
                    if (budget)
                        continue;
                    qend = true;
                }
                break;
            }
            if (st == ISA_X_CALL) {
                /* An indirect call runs the lanes that call the lowest lane's function;
                 * the others stay at the call and make theirs after it returns. */
                uint32_t fi = (uint32_t)x->aux, sub = mask;
                if (x->aux == EX_CALL_INDIRECT) {
                    fi = w->jump[__builtin_ctz(mask)];
                    sub = 0;
                    for (uint32_t m = mask; m; m &= m - 1)
                        if (w->jump[__builtin_ctz(m)] == fi)
                            sub |= m & -m;
                }
                set_pcs(cx, g, pc + 1);
                set_pcs(cx, mask & ~sub, pc);
                if (do_call(w, x, sub, fi, pc + 1) == W_FAULT)
                    return W_FAULT;
                if (sub == g && !others && budget) {
                    /* The whole group entered the callee, whose lanes are then all the warp
                     * has ready: run on there (what the selection above would pick next). */
                    w->cur = w->depth - 1;
                    cx = &w->ctx[w->cur];
                    f = cx->frame;
                    code = cx->fn->code;
                    pc = 0;
                    ojoin = join = UINT32_MAX;   /* a new activation: no joins, no other lanes */
                    continue;
                }
                g = 0;
                break;
            }
            if (ISA_X_IS_WAIT(st)) {
                /* A wait (exec/sync/wait.c): the lanes pass on, or block until woken. */
                int ws = ex_wait(w, f, x, mask, st);
                if (ws == EX_WAIT_FAULT)
                    return W_FAULT;
                if (ws == EX_WAIT_PASS) {
                    pc++;
                    if (pc != join) {
                        if (budget)
                            continue;
                        qend = true;
                    }
                    break;
                }
                set_pcs(cx, g, pc + 1);
                g = 0;
                break;
            }
            return ex_set_fault_k(w, x, mask, EX_FAULT_ILLEGAL, "unexpected handler status"), W_FAULT;
        }
        w->nlane_instr += run * (uint64_t)__builtin_popcount(g0);
        w->ninstr += run;
        set_pcs(cx, g, pc);
        if (cx->njoin && g)
            join_arrive(w, cx, g, pc);
        w->last_g = g;
        w->last_pc = pc;
        if (qend && g && pc < join && w->cur == i && !(cx->parked & g)) {
            /* the quantum ended inside a straight run short of the next counter where
             * other lanes wait: resume it next time if nothing changes about the lanes
             * ready to run (not after a split on the quantum's last instruction: the
             * lanes that branched off may now be the lowest, and a join was pushed) */
            w->res_ok = true;
            w->res_cur = i;
            w->res_g = g;
            w->res_pc = pc;
            w->res_join = join;
            w->res_ojoin = ojoin;
            w->res_ready = ex_ctx_own(w, cx) & ~w->waiting;
        }
    }
    return W_RUNNABLE;
}

ISA_HOT static int warp_run(ex_warp_t *w, uint64_t budget) { return warp_run_t(w, budget, false); }
ISA_HOT static int warp_run_stats(ex_warp_t *w, uint64_t budget) { return warp_run_t(w, budget, true); }
/*}=====================================================================*/

/*{=====================================================================
 * CTAs and the launch
 *====================================================================*/
typedef struct {
    ex_program_t      *p;
    uint32_t           entry;
    const ex_launch_t *l;
    const uint8_t     *params;
    size_t             params_size;
    uint64_t           total;
    /* Written by the workers: each on its own cache line, so that a worker checking
     * `failed` (every scheduling round) does not miss in its cache whenever another one
     * takes a CTA or adds its counts. */
    unsigned           nthreads;       /* workers of this launch */
    _Alignas(64) atomic_uint_fast64_t next;
    _Alignas(64) atomic_int failed;
    _Alignas(64) atomic_uint_fast64_t thread_instrs;
    atomic_uint_fast64_t warp_instrs;
    _Alignas(64) pthread_mutex_t diag_lock;
    uint64_t           gridid;
    uint64_t           grid_ws;        /* a cooperative launch's grid workspace (%envreg1:%envreg2), or 0 */
    uint64_t           slice;          /* warp instructions of a CTA's time slice */
    uint64_t           capacity;       /* clusters that can be resident at once */
    uint32_t           csize;          /* CTAs per cluster (1 without clusters) */
    uint32_t           cdim[3];        /* the cluster's dimension */
    uint32_t           ngrid[3];       /* the grid in clusters */
    bool               explicit_cluster; /* the launch has clusters (%is_explicit_cluster) */
    bool               local;          /* the entry's call graph uses .local: warps get local memory */
    ex_smodel_t       *model;          /* statistics on: the launch's counts and memory model */
    ex_kids_t         *kids;           /* the grids its threads launch (dynamic parallelism) */
    _Alignas(64) atomic_uint_fast64_t resident;   /* clusters resident now */
    /* The first fault (under diag_lock): its fields and its report's text. */
    ex_fault_t         fault;
    FILE              *fault_out;      /* open_memstream on fault_buf */
    char              *fault_buf;
    size_t             fault_len;
    char               nomem[160];     /* what host memory could not be had (under diag_lock) */
    /* Stopping (failed == L_STOPPED): the deadline, why, and the report of live warps. */
    bool               watch;          /* a timeout or a stop flag is given */
    double             deadline;       /* CLOCK_MONOTONIC seconds */
    int                stop_reason;    /* 1: the timeout, 2: the stop flag */
    FILE              *report;         /* open_memstream on report_buf, under diag_lock */
    char              *report_buf;
    size_t             report_len;
} launch_t;

enum { L_FAULT = 1, L_STOPPED = 2 };   /* launch_t.failed */

/* Record that host memory ran out (the first time), to be reported by ex_launch. */
static void out_of_memory(launch_t *L, const char *what, uint64_t bytes)
{
    pthread_mutex_lock(&L->diag_lock);
    if (!L->nomem[0])
        snprintf(L->nomem, sizeof L->nomem, "out of host memory: %s (%llu bytes)", what,
                 (unsigned long long)bytes);
    pthread_mutex_unlock(&L->diag_lock);
    int z = 0;
    atomic_compare_exchange_strong(&L->failed, &z, L_FAULT);
}

/* A stopped launch: one line per live warp of CTA c (each group of lanes at its program
 * counter) into the report. */
static void report_live(launch_t *L, ex_cta_t *c)
{
    pthread_mutex_lock(&L->diag_lock);
    if (!L->report)
        L->report = open_memstream(&L->report_buf, &L->report_len);
    for (uint32_t i = 0; L->report && i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        for (uint32_t a = 0; a < w->depth; a++) {
            const ex_ctx_t *cx = &w->ctx[a];
            uint32_t left = ex_ctx_own(w, cx);
            while (left) {
                uint32_t pc = cx->pc[__builtin_ctz(left)], g = 0;
                for (uint32_t m = left; m; m &= m - 1)
                    if (cx->pc[__builtin_ctz(m)] == pc)
                        g |= m & -m;
                left &= ~g;
                fprintf(L->report, "  CTA (%u,%u,%u) warp %u lanes 0x%08x%s: ", c->ctaid[0], c->ctaid[1],
                        c->ctaid[2], w->id, g, (g & w->waiting) ? " (waiting)" : "");
                const ex_insn_t *x = pc < cx->fn->ncode ? &cx->fn->code[pc] : NULL;
                if (x && x->ir)
                    print_loc(L->report, L->p->m, cx->fn->ir, x, ", ");
                else
                    fputs("at the end of the function\n", L->report);
            }
        }
    }
    pthread_mutex_unlock(&L->diag_lock);
}

/* A launch with a timeout or a stop flag: the workers look at the clock and the flag
 * once per scheduling round of a CTA (a few thousand warp instructions) and stop the
 * launch (failed = L_STOPPED) at the deadline or when the flag is set. */
static void launch_watch(launch_t *L)
{
    const ex_launch_t *l = L->l;
    int reason = 0;
    if (l->stop && atomic_load_explicit(l->stop, memory_order_relaxed))
        reason = 2;
    else if (l->timeout > 0) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)now.tv_sec + (double)now.tv_nsec * 1e-9 >= L->deadline)
            reason = 1;
    }
    int z = 0;
    if (reason && atomic_compare_exchange_strong(&L->failed, &z, L_STOPPED))
        L->stop_reason = reason;
}

/* Make the CTA ctaid resident in slot c, rank rank of cluster clu: its warps at the
 * entry; false when host memory runs out (recorded). */
static bool cta_start(launch_t *L, ex_cta_t *c, const uint32_t cl[3], const uint32_t in[3], uint32_t rank,
                      ex_cluster_t *clu, uint64_t clock)
{
    const ex_launch_t *l = L->l;
    for (unsigned k = 0; k < 3; k++) {
        c->ctaid[k] = cl[k] * L->cdim[k] + in[k];
        c->clusterid[k] = cl[k];
        c->cluster_ctaid[k] = in[k];
    }
    const uint32_t *ctaid = c->ctaid;
    c->rank = rank;
    c->shared_base = rank << 24;
    c->kids = L->kids;
    c->cdp_err = 0;
    memcpy(c->cdim, L->cdim, sizeof c->cdim);
    c->explicit_cluster = L->explicit_cluster;
    c->cluster = clu;
    memset(c->bar, 0, sizeof c->bar);
    c->exited = 0;
    c->gridid = L->gridid;
    c->grid_ws = L->grid_ws;
    c->clock_base = clock;
    if (L->model) {
        uint64_t id = ((uint64_t)ctaid[2] * l->grid[1] + ctaid[1]) * l->grid[0] + ctaid[0];
        c->ws = ex_smodel_worker(L->model, c->worker);
        c->l1 = ex_smodel_l1(L->model, id);
    }
    memset(c->shared, 0, c->shared_size);
    ex_func_t *ef = &L->p->funcs[L->entry];
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        w->cta = c;
        w->valid = w->waiting = 0;
        memset(w->bar_arrived, 0, sizeof w->bar_arrived);
        w->bar_counted = 0;
        w->red_lanes = w->wait_other = 0;
        w->cbar_arrived = 0;
        w->clock_last = 0;
        w->fault_addr = 0;
        w->fault_what = NULL;
        w->fault_insn = NULL;
        w->fault_kind = EX_FAULT_NONE;
        w->id = i;
        if (w->tid_ready) {
            w->valid = w->tid_valid;      /* the same block shape: indices already known */
            goto tids_done;
        }
        /* Thread indices, x fastest, counted up without divisions (once per slot). */
        uint32_t t0 = i * ISA_LANES;
        uint32_t tx = t0 % l->block[0], ty = (t0 / l->block[0]) % l->block[1];
        uint32_t tz = t0 / (l->block[0] * l->block[1]);
        for (unsigned ln = 0; ln < ISA_LANES && t0 + ln < c->nthreads; ln++) {
            w->valid |= 1u << ln;
            w->tid[0][ln] = tx;
            w->tid[1][ln] = ty;
            w->tid[2][ln] = tz;
            if (++tx == l->block[0]) {
                tx = 0;
                if (++ty == l->block[1]) {
                    ty = 0;
                    tz++;
                }
            }
        }
        w->tid_valid = w->valid;
        w->tid_ready = 1;
    tids_done:
        w->alive = w->valid;
        w->cbar_live = w->valid;
        w->fault_lane = -1;
        w->res_ok = false;
        w->outward = false;
        w->ninstr = 0;
        w->nlane_instr = 0;
        w->backjumps = 0;
        w->spin_g = 0;
        w->last_g = w->last_pc = 0;
        w->mb_stuck = false;
        w->depth = 1;
        w->cur = 0;
        w->local_top = L->p->module_local + ef->local_size;
        ex_ctx_t *cx = &w->ctx[0];
        memset(cx, 0, sizeof *cx);
        cx->fn = ef;
        cx->local_base = L->p->module_local;
        if (w->sp) {
            for (unsigned ln = 0; ln < ISA_LANES; ln++)
                w->sp[0][ln] = w->local_bytes;
            w->sp_used = 1;
        }
        if (!w->frame0)
            w->frame0 = malloc(ef->frame_size + 64);
        if (w->frame0 && w->frame0_fn == ef && w->frame0_sbase == w->cta->shared_base) {
            /* the slot's CTA before ran the same entry: the constant area is as
             * frame_new leaves it (no handler writes it); only the carry starts clear */
            cx->frame = w->frame0;
            if (ef->uses_cc)
                memset(cx->frame + ef->cc_slot, 0, 4 * ISA_LANES);
        } else {
            cx->frame = frame_new(w, ef, L->p->module_local, w->frame0);
            w->frame0_fn = cx->frame ? ef : NULL;
            w->frame0_sbase = w->cta->shared_base;
        }
        cx->members = w->valid;
        if (!cx->frame) {
            out_of_memory(L, "a warp's registers", ef->frame_size + 64ull);
            return false;
        }
    }
    return true;
}

enum { CTA_FAILED = -1, CTA_RUNNING, CTA_DONE };

/* Record the first fault of the launch: w's, and for a deadlock what every warp of its
 * CTA waits for. */
static void launch_fault(launch_t *L, ex_warp_t *w, bool deadlock)
{
    int z = 0;
    if (!atomic_compare_exchange_strong(&L->failed, &z, L_FAULT))
        return;
    pthread_mutex_lock(&L->diag_lock);
    L->fault_out = open_memstream(&L->fault_buf, &L->fault_len);
    if (L->fault_out) {
        const char *kernel = L->p->m->funcs[L->entry].name;
        report_fault(w, &L->fault, L->fault_out, kernel);
        if (deadlock) {
            L->fault.kind = EX_FAULT_DEADLOCK;
            ex_cluster_t *cl = w->cta->cluster;
            if (cl && cl->n > 1)
                for (uint32_t r = 0; r < cl->n; r++)   /* the cluster's CTAs wait together */
                    report_waits(L->fault_out, L->p, cl->cta[r]);
            else
                report_waits(L->fault_out, L->p, w->cta);
        }
    }
    pthread_mutex_unlock(&L->diag_lock);
}

/* Run the warps of the resident cluster u (its n CTAs) in turn, each for a quantum, until
 * the cluster finishes or slice warp instructions have run: CTA_DONE, CTA_RUNNING (the
 * slice is used up), or CTA_FAILED (a fault or deadlock, recorded, or the launch failed
 * or stopped elsewhere).  A cluster runs on one worker, so that its CTAs reach each
 * other's shared memory and wait at the cluster barrier without host locks. */
static int cta_step(launch_t *L, ex_cta_t **u, uint32_t n, uint64_t slice)
{
    uint32_t live = 1;
    uint64_t spent = 0;
    bool ok = true;
    while (live && ok && spent < slice) {
        bool progress = false;
        live = 0;
        for (uint32_t k = 0; k < n && ok; k++) {
            ex_cta_t *c = u[k];
            for (uint32_t i = 0; i < c->nwarps && ok; i++) {
                ex_warp_t *w = &c->warps[i];
                if (w->depth == 0)
                    continue;
                uint64_t before = w->ninstr, polls_before = w->polls;
                uint32_t wait_before = w->waiting;
                bool stuck_before = w->mb_stuck;
                uint32_t passed_before = w->mb_passed;
                int st = L->model ? warp_run_stats(w, EX_STATS_QUANTUM) : warp_run(w, EX_QUANTUM);
                spent += w->ninstr - before + (w->polls - polls_before) * EX_POLL_COST;
                /* a warp that only went round a loop waiting for an mbarrier phase (and
                 * did so before, no wait letting it on) changed nothing: blocked, as far
                 * as progress goes */
                bool spun = stuck_before && w->mb_stuck && w->mb_passed == passed_before;
                if ((w->ninstr != before && !spun) || w->waiting != wait_before)
                    progress = true;
                if (st == W_FAULT) {
                    launch_fault(L, w, false);
                    ok = false;
                } else if (st != W_DONE) {
                    live++;
                }
            }
        }
        if (ok && live && !progress) {
            ex_warp_t *w = NULL;
            for (uint32_t k = 0; k < n; k++)
                for (uint32_t i = 0; i < u[k]->nwarps; i++)
                    if (u[k]->warps[i].depth)
                        w = &u[k]->warps[i];
            ex_wait_deadlock(w->cta, w);
            launch_fault(L, w, true);
            ok = false;
        }
        if (L->watch)
            launch_watch(L);
        if (atomic_load(&L->failed))
            ok = false;
    }
    return !ok ? CTA_FAILED : live ? CTA_RUNNING : CTA_DONE;
}

static void cta_free(ex_cta_t *c)
{
    for (uint32_t i = 0; c->warps && i < c->nwarps; i++) {
        if (c->warps[i].local)
            munmap(c->warps[i].local, (size_t)ISA_LANES * EX_LOCAL_BYTES);
        free(c->warps[i].sp);
        free(c->warps[i].frame0);
        frame_cache_free(&c->warps[i]);
    }
    free(c->warps);
    free(c->shared);
    free(c);
}

/* Account for the CTA in slot c (finished, or left when the launch failed) and free
 * its call frames; the worker's clock (its "SM's") runs on past every value read. */
static void cta_finish(launch_t *L, ex_cta_t *c, uint64_t *clock)
{
    uint64_t ti = 0, wi = 0, t = c->clock_base;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        ti += w->nlane_instr;
        wi += w->ninstr;
        uint64_t e = c->clock_base + w->ninstr * 4;
        t = e > t ? e : t;
        t = w->clock_last > t ? w->clock_last : t;
        while (w->depth > 1) {
            w->depth--;
            frame_drop(w, w->ctx[w->depth].fn, w->ctx[w->depth].frame);
        }
        w->depth = 0;
    }
    atomic_fetch_add(&L->thread_instrs, ti);
    atomic_fetch_add(&L->warp_instrs, wi);
    *clock = t + 1 > *clock ? t + 1 : *clock;
}

/* A slot for resident CTAs of the launch: warps, shared memory, local memory.  NULL
 * when host memory runs out (recorded). */
static ex_cta_t *cta_alloc(launch_t *L)
{
    const ex_launch_t *l = L->l;
    ex_cta_t *c = calloc(1, sizeof *c);
    if (!c) {
        out_of_memory(L, "a CTA", sizeof *c);
        return NULL;
    }
    /* Sizes in 64 bits: ex_launch_check bounded the block (1024 threads) and the
     * entry's shared memory; the module's may be larger (every entry's variables). */
    uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t shared = (((uint64_t)L->p->shared_static + 15) & ~15ull) + l->shared_bytes;
    c->nthreads = (uint32_t)nthreads;
    c->nwarps = (uint32_t)((nthreads + ISA_LANES - 1) / ISA_LANES);
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    c->shared_size = (uint32_t)shared;
    c->shared = shared < UINT32_MAX - 16 ? calloc(1, shared + 16) : NULL;
    bool ok = true;
    if (!c->warps) {
        out_of_memory(L, "the warps of a CTA", (uint64_t)c->nwarps * sizeof *c->warps);
        ok = false;
    } else if (!c->shared) {
        out_of_memory(L, "a CTA's shared memory", shared + 16);
        ok = false;
    }
    /* Local memory: EX_LOCAL_BYTES per lane, reserved; pages are backed when touched,
     * and kept (not cleared) while the slot is reused. */
    for (uint32_t i = 0; ok && L->local && i < c->nwarps; i++) {
        void *m = mmap(NULL, (size_t)ISA_LANES * EX_LOCAL_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) {
            out_of_memory(L, "address space for a warp's local memory", (uint64_t)ISA_LANES * EX_LOCAL_BYTES);
            ok = false;
            break;
        }
        c->warps[i].local_bytes = EX_LOCAL_BYTES;
        c->warps[i].local = m;
        c->warps[i].sp = malloc(EX_MAX_DEPTH * sizeof *c->warps[i].sp);
        if (!c->warps[i].sp) {
            out_of_memory(L, "a warp's stack pointers", EX_MAX_DEPTH * sizeof *c->warps[i].sp);
            ok = false;
            break;
        }
    }
    if (!ok) {
        cta_free(c);
        return NULL;
    }
    return c;
}

void ex_worker_flush(ex_worker_t *wk)
{
    for (uint32_t i = 0; i < wk->nslot; i++)
        cta_free(wk->slot[i]);
    free(wk->slot);
    wk->slot = NULL;
    wk->nslot = 0;
    wk->key_p = NULL;
}

/* The worker's slots serve this launch: reused when they were made for the same
 * program, entry, block shape, shared size and local memory, else freed. */
static void worker_bind(launch_t *L, ex_worker_t *wk)
{
    const ex_launch_t *l = L->l;
    bool same = wk->key_p == L->p && wk->key_entry == L->entry && wk->key_shared == l->shared_bytes &&
                wk->key_local == L->local && memcmp(wk->key_block, l->block, sizeof wk->key_block) == 0;
    if (!same) {
        ex_worker_flush(wk);
        wk->key_p = L->p;
        wk->key_entry = L->entry;
        wk->key_shared = l->shared_bytes;
        wk->key_local = L->local;
        memcpy(wk->key_block, l->block, sizeof wk->key_block);
    }
    for (uint32_t i = 0; i < wk->nslot; i++) {
        ex_cta_t *c = wk->slot[i];
        c->p = L->p;
        c->l = l;
        c->params = L->params;
        c->params_size = L->params_size;
        c->worker = wk->index;
        for (uint32_t k = 0; k < c->nwarps; k++)
            memset(c->warps[k].gcache, 0, sizeof c->warps[k].gcache);
    }
}

/* A new slot for the worker (its per-launch fields set); NULL when memory runs out. */
static ex_cta_t *worker_grow(launch_t *L, ex_worker_t *wk)
{
    ex_cta_t **ns = realloc(wk->slot, (wk->nslot + 1) * sizeof *wk->slot);
    if (!ns) {
        out_of_memory(L, "the resident CTAs of a worker", (wk->nslot + 1) * sizeof *wk->slot);
        return NULL;
    }
    wk->slot = ns;
    ex_cta_t *c = cta_alloc(L);
    if (!c)
        return NULL;
    c->p = L->p;
    c->l = L->l;
    c->params = L->params;
    c->params_size = L->params_size;
    c->worker = wk->index;
    wk->slot[wk->nslot++] = c;
    return c;
}

/* Make cluster number id resident in the n slots u: its CTAs by rank, x fastest, and
 * its barrier; false when host memory runs out (recorded). */
static bool unit_start(launch_t *L, ex_cta_t **u, uint64_t id, uint64_t clock)
{
    uint32_t n = L->csize;
    const uint32_t *ng = L->ngrid;
    uint32_t cl[3] = { (uint32_t)(id % ng[0]), (uint32_t)((id / ng[0]) % ng[1]),
                       (uint32_t)(id / ((uint64_t)ng[0] * ng[1])) };
    ex_cluster_t *clu = &u[0]->clu;
    clu->n = n;
    clu->live = clu->pending = 0;
    clu->phase = 0;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t in[3] = { 0, 0, 0 };
        if (n > 1) {
            in[0] = r % L->cdim[0];
            in[1] = (r / L->cdim[0]) % L->cdim[1];
            in[2] = r / (L->cdim[0] * L->cdim[1]);
        }
        clu->cta[r] = u[r];
        if (!cta_start(L, u[r], cl, in, L->explicit_cluster ? r : 0, clu, clock))
            return false;
        clu->live += u[r]->nthreads;
    }
    clu->pending = clu->live;
    return true;
}

/* The next CTA number for this worker into *out; false when none is left.  CTAs are
 * taken a few at a time (fewer trips to the shared counter), fewer towards the end so
 * that the workers finish together. */
static bool take_cta(launch_t *L, ex_worker_t *wk, uint64_t *id, uint64_t *end, uint64_t *out)
{
    if (L->model) {
        /* Statistics: the worker runs the CTAs of the SMs it owns (SM s holds the CTAs whose
         * index is s modulo the SMs; worker k owns the SMs s with s mod workers = k), in
         * order, so that each SM's L1 sees the same accesses for any number of workers. */
        for (uint64_t i = *id; i < L->total; i++)
            if ((i % EX_M_SMS) % L->nthreads == wk->index) {
                *out = i;
                *id = i + 1;
                return true;
            }
        *id = L->total;
        return false;
    }
    if (*id == *end) {
        uint64_t left = L->total - atomic_load(&L->next);
        uint64_t batch = left / (4 * L->nthreads + 1);
        batch = batch < 1 ? 1 : batch > 16 ? 16 : batch;
        *id = atomic_fetch_add(&L->next, batch);
        if (*id >= L->total) {
            *end = *id;
            return false;
        }
        *end = *id + batch < L->total ? *id + batch : L->total;
    }
    *out = (*id)++;
    return true;
}

/* A worker (an "SM"): it hosts resident clusters (of one CTA without clusters), runs one
 * until it finishes or its time slice is used up, and then turns to the next.  When a
 * slice runs out and the GPU has room (L->capacity resident clusters in all), a new
 * cluster becomes resident beside the others, so that a CTA waiting for another one (a
 * flag in global memory) lets it run; when a cluster finishes, the next cluster of the
 * grid takes its slots.  The worker's slots [0, nres * csize) are resident (cluster u in
 * [u * csize, u * csize + csize)), the rest spare; they stay with the worker after the
 * launch. */
static void worker_run(void *job, ex_worker_t *wk)
{
    launch_t *L = job;
    worker_bind(L, wk);
    const uint32_t K = L->csize;
    uint32_t nres = 0, cur = 0;
    uint64_t id = 0, end = 0, clock = 0, next;
    for (;;) {
        if (atomic_load(&L->failed))
            break;
        bool admit = nres == 0;
        if (!admit) {
            ex_cta_t **u = &wk->slot[cur * K];
            int r = cta_step(L, u, K, L->slice);
            if (r == CTA_FAILED)
                break;
            if (r == CTA_DONE) {
                for (uint32_t k = 0; k < K; k++)
                    cta_finish(L, u[k], &clock);
                if (take_cta(L, wk, &id, &end, &next)) {
                    if (!unit_start(L, u, next, clock))
                        break;
                    continue;
                }
                atomic_fetch_sub(&L->resident, 1);
                nres--;
                for (uint32_t k = 0; k < K; k++) {
                    ex_cta_t *t = wk->slot[cur * K + k];
                    wk->slot[cur * K + k] = wk->slot[nres * K + k];
                    wk->slot[nres * K + k] = t;
                }
                if (cur >= nres)
                    cur = 0;
                continue;
            }
            /* The slice is used up: one more cluster becomes resident if there is room. */
            admit = atomic_fetch_add(&L->resident, 1) < L->capacity;
            if (!admit) {
                atomic_fetch_sub(&L->resident, 1);
                cur = (cur + 1) % nres;
                continue;
            }
        } else {
            atomic_fetch_add(&L->resident, 1);
        }
        if (!take_cta(L, wk, &id, &end, &next)) {
            atomic_fetch_sub(&L->resident, 1);
            if (nres == 0)
                break;
            cur = (cur + 1) % nres;
            continue;
        }
        bool grown = true;
        while (grown && (nres + 1) * K > wk->nslot)
            grown = worker_grow(L, wk) != NULL;
        if (!grown) {
            atomic_fetch_sub(&L->resident, 1);
            break;
        }
        if (!unit_start(L, &wk->slot[nres * K], next, clock)) {
            atomic_fetch_sub(&L->resident, 1);
            break;
        }
        cur = nres++;
    }
    /* A stopped launch reports where every resident CTA's warps were. */
    bool stopped = atomic_load(&L->failed) == L_STOPPED;
    for (uint32_t i = 0; i < nres * K; i++) {
        if (stopped)
            report_live(L, wk->slot[i]);
        cta_finish(L, wk->slot[i], &clock);
    }
}

/* Whether function fi or a function its call graph reaches (an indirect call may reach any
 * function with a body) is one for which has holds; seen marks the functions visited. */
static bool graph_has(const ex_program_t *p, uint32_t fi, uint8_t *seen, bool (*has)(const ex_program_t *, uint32_t))
{
    if (seen[fi])
        return false;
    seen[fi] = 1;
    if (has(p, fi))
        return true;
    const isa_func_t *fn = &p->m->funcs[fi];
    for (uint32_t i = 0; i < fn->ninstr; i++) {
        const isa_instr_t *in = &fn->instrs[i];
        if (in->op != ISA_OP_CALL)
            continue;
        bool direct = false;
        for (uint32_t k = 0; k < in->nopd; k++) {
            const isa_operand_t *o = &fn->opds[in->opd + k];
            if (o->kind == ISA_OPD_FUNC) {
                direct = true;
                if (p->m->funcs[o->u.func].has_body && graph_has(p, o->u.func, seen, has))
                    return true;
                break;
            }
        }
        if (!direct)
            for (uint32_t f = 0; f < p->m->nfunc; f++)
                if (p->m->funcs[f].has_body && graph_has(p, f, seen, has))
                    return true;
    }
    return false;
}

static bool func_local(const ex_program_t *p, uint32_t fi)
{
    return p->funcs[fi].local_size || p->funcs[fi].stack_ops;
}

bool ex_entry_uses_local(ex_program_t *p, uint32_t entry)
{
    if (p->module_local)
        return true;
    if (p->entry_local[entry] == 0) {
        uint8_t *seen = calloc(p->m->nfunc + 1, 1);
        bool yes = !seen || graph_has(p, entry, seen, func_local);
        free(seen);
        p->entry_local[entry] = yes ? 2 : 1;
    }
    return p->entry_local[entry] == 2;
}

/* Whether an instruction may read what the host writes while the kernel runs, as a
 * polling loop does: outside .shared, .param, .const and .local, a volatile, mmio or .cv
 * load, a relaxed or acquire load of system scope, an atom of system scope; or a
 * nanosleep (a polling loop's pause).  Device-scope ones (a scan's look-back) do not
 * count: the host cannot take part in those. */
static bool insn_may_wait(const isa_instr_t *in)
{
    if (in->op == ISA_OP_NANOSLEEP)
        return true;
    if (in->op != ISA_OP_LD && in->op != ISA_OP_LDU && in->op != ISA_OP_ATOM)
        return false;
    int sp = isa_instr_space(in, 0);
    if (sp == ISA_SP_SHARED || sp == ISA_SP_PARAM || sp == ISA_SP_CONST || sp == ISA_SP_LOCAL)
        return false;
    bool sys = isa_instr_mod(in, ISA_G_SCOPE) == ISA_M_SYS;
    if (in->op == ISA_OP_ATOM)
        return sys;
    int sem = isa_instr_mod(in, ISA_G_SEM);
    return isa_instr_has(in, ISA_M_VOLATILE) || isa_instr_has(in, ISA_M_MMIO) || isa_instr_has(in, ISA_M_CV) ||
           (sys && sem >= 0 && sem != ISA_M_WEAK);
}

static bool func_may_wait(const ex_program_t *p, uint32_t fi)
{
    const isa_func_t *fn = &p->m->funcs[fi];
    for (uint32_t i = 0; i < fn->ninstr; i++)
        if (insn_may_wait(&fn->instrs[i]))
            return true;
    return false;
}

bool ex_entry_may_wait(const ex_program_t *p, uint32_t entry)
{
    uint8_t *seen = calloc(p->m->nfunc + 1, 1);
    bool yes = !seen || graph_has(p, entry, seen, func_may_wait);
    free(seen);
    return yes;
}

/* A failed launch's fault without a thread (refused, unsupported, out of memory). */
static isa_status_t launch_error(ex_stats_t *out, ex_fault_kind_t kind, const char *kernel, isa_status_t st,
                                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static isa_status_t launch_error(ex_stats_t *out, ex_fault_kind_t kind, const char *kernel, isa_status_t st,
                                 const char *fmt, ...)
{
    ex_fault_t *f = &out->fault;
    f->kind = kind;
    f->kernel = kernel;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->what, sizeof f->what, fmt, ap);
    va_end(ap);
    if (!f->report) {
        size_t n = strlen(f->what) + strlen(kernel) + 64;
        f->report = malloc(n);
        if (f->report)
            snprintf(f->report, n, "ptxrun: error: kernel %s: %s\n", kernel, f->what);
    }
    return st;
}

void ex_stats_clear(ex_stats_t *st)
{
    if (!st)
        return;
    free(st->fault.report);
    free(st->detail);
    memset(st, 0, sizeof *st);
}

/* Run one grid (under the device's launch lock): its faults and counts into out, the
 * grids its threads launch into kids. */
static isa_status_t launch_grid(ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                                size_t params_size, ex_stats_t *out, ex_kids_t *kids)
{
    ex_device_t *d = p->dev;
    const char *kernel = p->m->funcs[entry].name;
    launch_t *L = aligned_alloc(64, (sizeof *L + 63) / 64 * 64);
    if (!L)
        return launch_error(out, EX_FAULT_NOMEM, kernel, ISA_ST_NOMEM, "out of host memory");
    memset(L, 0, sizeof *L);
    L->p = p;
    L->entry = entry;
    L->l = l;
    L->params = params;
    L->params_size = params_size;
    L->kids = kids;
    L->explicit_cluster = ex_launch_cluster(p, entry, l, L->cdim);
    L->csize = L->cdim[0] * L->cdim[1] * L->cdim[2];
    for (unsigned k = 0; k < 3; k++)
        L->ngrid[k] = l->grid[k] / L->cdim[k];
    L->total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] / L->csize;   /* clusters */
    pthread_mutex_init(&L->diag_lock, NULL);
    L->gridid = atomic_fetch_add(&d->nlaunch, 1) + 1;
    /* A cooperative launch's grid workspace: zeroed global memory whose address the driver
     * passes in %envreg1 (high half) and %envreg2 (low half); grid_group::sync counts its
     * arrivals in it.  Other launches see 0 there, and grid_group::sync traps. */
    uint8_t *ws = NULL;
    if (l->cooperative) {
        ws = aligned_alloc(64, EX_GRID_WS);
        if (!ws || (memset(ws, 0, EX_GRID_WS), ex_device_map(d, ws, EX_GRID_WS)) != ISA_ST_OK) {
            free(ws);
            free(L);
            return launch_error(out, EX_FAULT_NOMEM, kernel, ISA_ST_NOMEM, "out of host memory");
        }
        L->grid_ws = (uint64_t)(uintptr_t)ws;
    }
    ex_device_launch_begin(d);
    isa_status_t st = ISA_ST_OK;
    if (l->timeout > 0 || l->stop) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        L->watch = true;
        L->deadline = (double)now.tv_sec + (double)now.tv_nsec * 1e-9 + (l->timeout > 0 ? l->timeout : 0);
    }
    unsigned n = !l->workers ? d->nworkers : l->workers < EX_MAX_WORKERS ? l->workers : EX_MAX_WORKERS;
    if (n > L->total)
        n = (unsigned)L->total;
    L->nthreads = n;
    L->slice = l->slice ? l->slice : EX_SLICE;
    L->capacity = L->explicit_cluster ? ex_resident_clusters(p, entry, l, L->csize) : ex_resident_ctas(p, entry, l);
    L->capacity = L->capacity ? L->capacity : 1;
    L->local = ex_entry_uses_local(p, entry);
    struct timespec t0, t1;
    uint64_t pm0[16];
    if (d->stats) {
        out->detail = calloc(1, sizeof *out->detail);
        if (!out->detail || !ex_stats_prepare(p) || !(L->model = ex_smodel_new(p, entry, l, n)))
            out_of_memory(L, "the statistics of the launch", sizeof *out->detail);
        for (unsigned i = 0; i < 16; i++)
            pm0[i] = atomic_load(&d->pmevents[i]);
        clock_gettime(CLOCK_MONOTONIC, &t0);
    }
    ex_device_run(d, n, worker_run, L);
    if (d->stats && out->detail) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ex_launch_stats_t *ds = out->detail;
        ds->wall_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        memcpy(ds->grid, l->grid, sizeof ds->grid);
        memcpy(ds->block, l->block, sizeof ds->block);
        ds->shared_bytes = l->shared_bytes;
        for (unsigned i = 0; i < 16; i++)
            ds->pmevents[i] = atomic_load(&d->pmevents[i]) - pm0[i];
    }
    if (L->model)
        ex_smodel_finish(L->model, out->detail);
    st = atomic_load(&L->failed) ? ISA_ST_FAULT : ISA_ST_OK;
    if (L->watch) {
        if (L->report)
            fclose(L->report);
        if (atomic_load(&L->failed) == L_STOPPED) {
            /* The first line says why; the live warps follow. */
            ex_fault_t *f = &out->fault;
            f->kind = EX_FAULT_STOPPED;
            f->kernel = kernel;
            if (L->stop_reason == 1)
                snprintf(f->what, sizeof f->what, "stopped after the time limit of %g s", l->timeout);
            else
                snprintf(f->what, sizeof f->what, "stopped by an interrupt");
            size_t k = L->report_len + 512;
            f->report = malloc(k);
            if (f->report)
                snprintf(f->report, k, "ptxrun: error: kernel %s: %s; live warps:\n%s", kernel, f->what,
                         L->report_len ? L->report_buf : "  (none: the workers were between CTAs)\n");
        }
        free(L->report_buf);
    }
    if (L->fault_out)
        fclose(L->fault_out);
    L->fault_out = NULL;
    if (L->nomem[0]) {
        free(out->fault.report);
        out->fault.report = NULL;
        launch_error(out, EX_FAULT_NOMEM, kernel, ISA_ST_NOMEM, "%s", L->nomem);
        st = ISA_ST_NOMEM;
    } else if (atomic_load(&L->failed) == L_FAULT) {
        out->fault = L->fault;
        out->fault.report = L->fault_buf;
        L->fault_buf = NULL;
    }
    free(L->fault_buf);
    out->thread_instrs = atomic_load(&L->thread_instrs);
    out->warp_instrs = atomic_load(&L->warp_instrs);
    if (ws) {
        ex_device_unmap(d, ws);
        free(ws);
    }
    ex_device_launch_end(d);
    pthread_mutex_destroy(&L->diag_lock);
    free(L);
    return st;
}

#define EX_CDP_DEPTH 24   /* the device runtime's greatest nesting depth */

/* The grids that a grid's threads launched (dynamic parallelism), in launch order with the
 * tail launches last, each followed by its own (depth first): an order the programming
 * model allows.  A fault in any of them is the launch's. */
static isa_status_t launch_kids(ex_program_t *p, const ex_launch_t *parent, ex_kids_t *k, ex_stats_t *out,
                                unsigned depth)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < k->n; i++) {
            ex_kid_t *e = &k->v[i];
            if (!e->launched || e->tail != pass)
                continue;
            if (e->op != EX_KID_GRID) {
                char msg[200];
                if (!ex_cdp_run_copy(p, e, msg, sizeof msg))
                    return launch_error(out, EX_FAULT_ADDRESS, "(a copy a kernel queued)", ISA_ST_FAULT, "%s", msg);
                continue;
            }
            const char *kernel = p->m->funcs[e->entry].name;
            if (depth >= EX_CDP_DEPTH)
                return launch_error(out, EX_FAULT_ILLEGAL, kernel, ISA_ST_FAULT, "a launch from a kernel %u levels "
                                    "deep, beyond the device runtime's %u", depth + 1, EX_CDP_DEPTH);
            ex_launch_t l = *parent;
            memcpy(l.grid, e->grid, sizeof l.grid);
            memcpy(l.block, e->block, sizeof l.block);
            l.shared_bytes = e->shared;
            l.cooperative = false;
            memset(l.cluster, 0, sizeof l.cluster);
            ex_kids_t sub;
            ex_kids_init(&sub);
            ex_stats_t so;
            memset(&so, 0, sizeof so);
            isa_status_t st = p->funcs[e->entry].unsupported
                ? launch_error(&so, EX_FAULT_UNSUPPORTED, kernel, ISA_ST_UNSUPPORTED, "launched from a kernel, it uses "
                               "instructions that are not supported yet")
                : launch_grid(p, e->entry, &l, e->params, e->psize, &so, &sub);
            if (st == ISA_ST_OK)
                st = launch_kids(p, &l, &sub, &so, depth + 1);   /* adds its grids' counts to so */
            out->thread_instrs += so.thread_instrs;
            out->warp_instrs += so.warp_instrs;
            ex_kids_free(&sub);
            if (st != ISA_ST_OK) {
                free(out->fault.report);
                free(out->detail);
                so.thread_instrs = out->thread_instrs;
                so.warp_instrs = out->warp_instrs;
                *out = so;
                return st;
            }
            free(so.fault.report);
            free(so.detail);
        }
    return ISA_ST_OK;
}

isa_status_t ex_launch(ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                       size_t params_size, ex_stats_t *out)
{
    ex_stats_t scratch;
    if (!out)
        out = &scratch;
    memset(out, 0, sizeof *out);
    const char *kernel = p->m->funcs[entry].name;
    if (p->funcs[entry].unsupported) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            ex_program_check_entry(p, entry, f);
            fclose(f);
        }
        out->fault.kind = EX_FAULT_UNSUPPORTED;
        out->fault.kernel = kernel;
        snprintf(out->fault.what, sizeof out->fault.what, "the kernel uses instructions that are not supported yet");
        out->fault.report = buf;
        if (out == &scratch)
            ex_stats_clear(out);
        return ISA_ST_UNSUPPORTED;
    }
    char msg[256];
    isa_status_t cst = ex_launch_check(p, entry, l, msg, sizeof msg);
    if (cst != ISA_ST_OK) {
        launch_error(out, EX_FAULT_REFUSED, kernel, cst, "launch refused: %s", msg);
        if (out == &scratch)
            ex_stats_clear(out);
        return cst;
    }
    ex_device_t *d = p->dev;
    pthread_mutex_lock(&d->launch_lock);
    for (unsigned i = 0; i < d->nobs; i++)
        if (d->obs[i].begin)
            d->obs[i].begin(d->obs[i].user, p, entry);
    ex_kids_t kids;
    ex_kids_init(&kids);
    isa_status_t st = launch_grid(p, entry, l, params, params_size, out, &kids);
    if (st == ISA_ST_OK && kids.launched)
        st = launch_kids(p, l, &kids, out, 1);
    ex_kids_free(&kids);
    ex_cdp_release(d);
    for (unsigned i = 0; i < d->nobs; i++)
        if (d->obs[i].end)
            d->obs[i].end(d->obs[i].user, p, entry, out);
    pthread_mutex_unlock(&d->launch_lock);
    if (out == &scratch)
        ex_stats_clear(out);
    return st;
}
/*}=====================================================================*/
