/* interp.c: the warp loop and CTA scheduling.
 *
 * Scheduling policy (independent thread scheduling, as on sm_70+): every lane has its
 * own program counter.  A warp runs the group of lanes with the lowest program counter
 * (lanes with equal counters form one group and execute together), straight through
 * until a branch splits the group, a barrier or call stops it, or its lanes exit.  After
 * a split the lowest counter runs first, so lanes that branched over code wait at the
 * join point until the others catch up, and the warp reconverges.  A group that keeps
 * jumping backwards while other groups wait is preempted after EX_SPIN_LIMIT backward
 * jumps and the next group (by program counter, round robin) runs: a lane spinning on a
 * lock held by another lane of its warp lets that lane progress.  Warps of a CTA run in
 * turn, each for a quantum of instructions; CTAs run on worker threads.  Barriers count
 * arrival per warp (see internal.h); docs/execution.md describes the whole model. */
#include "exec/internal.h"
#include "exec/machine.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define EX_QUANTUM     4096      /* warp instructions before the next warp of the CTA runs */
#define EX_SPIN_LIMIT  64        /* backward jumps of one group before it yields */
#define EX_LOCAL_BYTES EX_M_LOCAL_BYTES /* local memory per thread, reserved, not allocated:
                                    the OS backs the pages a kernel touches */
#define EX_SLICE       (1u << 20) /* warp instructions of a resident CTA before the next one runs */


/*{=====================================================================
 * Frames
 *====================================================================*/
/* A frame for f: registers are left undefined (as on the GPU); the constant area is
 * copied from the template (immediates, and the addresses ex_program_new baked in), with
 * the local-memory addresses moved to this activation's local frame.  buf, when given,
 * is reused. */
static uint8_t *frame_new(ex_warp_t *w, ex_func_t *f, uint32_t local_base, uint8_t *buf)
{
    (void)w;
    uint8_t *fr = buf ? buf : malloc(f->frame_size + 64);
    if (!fr)
        return NULL;
    memcpy(fr + f->const_begin, f->frame_init + f->const_begin, f->frame_size - f->const_begin);
    if (local_base == 0)
        return fr;
    for (uint32_t i = 0; i < f->nfixup; i++) {
        const ex_fixup_t *x = &f->fixups[i];
        if (x->kind != FX_LOCAL)
            continue;
        uint64_t v = EX_LOCAL_BASE + local_base + x->value;
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

/* A deadlock: every live warp of c, each group of its lanes with what it waits for
 * (exec/sync/wait.c) and where. */
static void report_waits(FILE *out, const isa_module_t *m, ex_cta_t *c)
{
    fputs("  warps of the CTA:\n", out);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        if (w->depth == 0)
            continue;
        const ex_ctx_t *cx = ex_top(w);
        uint32_t left = cx->members & w->alive;
        while (left) {
            unsigned l = (unsigned)__builtin_ctz(left);
            uint32_t pc = cx->pc[l], g = 0;
            for (uint32_t k = left; k; k &= k - 1)
                if (cx->pc[__builtin_ctz(k)] == pc)
                    g |= k & -k;
            left &= ~g;
            char what[160];
            const ex_insn_t *x = ex_wait_describe(c, w, l, what, sizeof what);
            fprintf(out, "    warp %u lanes 0x%08x: %s, ", w->id, g, what);
            if (!x && pc < cx->fn->ncode)
                x = &cx->fn->code[pc];
            if (x && x->ir)
                print_loc(out, m, cx->fn->ir, x, ", ");
            else
                fputs("at the end of the function\n", out);
        }
    }
}

static void report_fault(ex_warp_t *w, FILE *diag, const char *kernel)
{
    ex_cta_t *c = w->cta;
    const isa_module_t *m = c->p->m;
    unsigned l = w->fault_lane >= 0 ? (unsigned)w->fault_lane : 0;
    fprintf(diag, "ptxrun: error: kernel %s: CTA (%u,%u,%u) thread (%u,%u,%u): %s", kernel,
            c->ctaid[0], c->ctaid[1], c->ctaid[2], w->tid[0][l], w->tid[1][l], w->tid[2][l],
            w->fault_what ? w->fault_what : "fault");
    if (w->fault_addr || (w->fault_what && strstr(w->fault_what, "address")))
        fprintf(diag, " (address 0x%llx)", (unsigned long long)w->fault_addr);
    fputc('\n', diag);
    const ex_insn_t *x = w->fault_insn;
    if (x && x->ir) {
        fputs("  ", diag);
        print_loc(diag, m, ex_top(w)->fn->ir, x, "\n  ");
    }
}

/*}=====================================================================*/

/*{=====================================================================
 * Calls
 *====================================================================*/
static int do_call(ex_warp_t *w, const ex_insn_t *x, uint32_t mask, uint32_t fi, uint32_t next_pc)
{
    ex_ctx_t *cx = ex_top(w);
    ex_program_t *p = w->cta->p;
    if (w->depth == EX_MAX_DEPTH)
        return ex_set_fault(w, x, mask, "call stack overflow");
    ex_func_t *callee = &p->funcs[fi];
    uint32_t local_base = w->local_top;
    if (callee->local_size && (!w->local || (uint64_t)local_base + callee->local_size > w->local_bytes))
        return ex_set_fault(w, x, mask, "local memory stack overflow");
    uint8_t *fr = frame_new(w, callee, local_base, NULL);
    if (!fr)
        return ex_set_fault(w, x, mask, "out of host memory");
    /* Arguments: registers, .param areas or constants of the caller, per lane. */
    ex_call_args(cx, x, callee, fr, mask);
    w->local_top += callee->local_size;
    ex_ctx_t *nx = &w->ctx[w->depth++];
    memset(nx, 0, sizeof *nx);
    nx->fn = callee;
    nx->frame = fr;
    nx->members = mask;
    nx->ret_pc = next_pc;
    nx->caller_members = mask;
    nx->call = x;
    nx->local_base = local_base;
    return W_RUNNABLE;
}

/* Leave the top activation once all its lanes have returned: copy return values into
 * the caller's registers or .param areas and resume the callers after the call. */
static void pop_ctx(ex_warp_t *w)
{
    ex_ctx_t *cx = ex_top(w);
    ex_ctx_t *caller = &w->ctx[w->depth - 2];
    uint32_t back = cx->caller_members & w->alive;
    ex_call_rets(caller, cx, back);
    for (uint32_t m = back; m; m &= m - 1)
        caller->pc[__builtin_ctz(m)] = cx->ret_pc;
    caller->members &= ~(cx->caller_members & ~w->alive);
    w->local_top = cx->local_base;
    free(cx->frame);
    w->depth--;
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

/* Run warp w for up to budget instructions. */
static int warp_run(ex_warp_t *w, uint64_t budget)
{
    while (budget) {
        if (w->depth == 0)
            return W_DONE;
        ex_ctx_t *cx = ex_top(w);
        uint32_t ready = cx->members & ~w->waiting & w->alive;
        if (cx->members == 0 || (cx->members & w->alive) == 0) {
            if (w->depth == 1) {
                w->depth = 0;
                return W_DONE;
            }
            pop_ctx(w);
            continue;
        }
        if (!ready)
            return W_BLOCKED;
        /* The group with the lowest program counter (round robin past a spinning one). */
        uint32_t pc = UINT32_MAX, g = 0;
        if (w->backjumps >= EX_SPIN_LIMIT) {
            uint32_t after = UINT32_MAX;
            for (uint32_t m = ready; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                if (cx->pc[l] < pc)
                    pc = cx->pc[l];
                if (cx->pc[l] > w->bar_pc && cx->pc[l] < after)
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
            for (uint32_t m = ready; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                if (cx->pc[l] < pc)
                    pc = cx->pc[l];
            }
        }
        if (g == ISA_FULL) {
            /* converged */
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
        w->bar_pc = pc;
        uint8_t *f = cx->frame;
        const ex_insn_t *code = cx->fn->code;
        bool others = g != ready;
        uint32_t g0 = g;
        uint64_t run = 0;
        /* Straight-line execution of group g. */
        for (;;) {
            const ex_insn_t *x = &code[pc];
            uint32_t mask = guard_mask(f, x, g);
            if (!x->fn)
                return ex_set_fault(w, x, g, "instruction without semantics");
            int st = ISA_X_NEXT;
            if (g != g0) {
                w->nlane_instr += run * (uint64_t)__builtin_popcount(g0);
                w->ninstr += run;
                run = 0;
                g0 = g;
            }
            run++;
            budget--;
            if (mask || x->desc == NULL)
                st = x->fn(w, f, x, mask);
            else if (x->fn == code[cx->fn->ncode - 1].fn && pc == cx->fn->ncode - 1)
                st = x->fn(w, f, x, g);
            if (st == ISA_X_NEXT) {
                pc++;
                if (budget)
                    continue;
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
                        g &= ~mask;
                        pc++;
                        break;
                    }
                }
                if (mask == g) {
                    if (tgt <= pc)
                        w->backjumps++;
                    pc = tgt;
                    if (budget && !(others && w->backjumps >= EX_SPIN_LIMIT))
                        continue;
                    break;
                }
                if (mask == 0) {
                    pc++;
                    if (budget)
                        continue;
                    break;
                }
                /* Divergence: the taken lanes go to the target, the others fall through. */
                for (uint32_t m = mask; m; m &= m - 1)
                    cx->pc[__builtin_ctz(m)] = tgt;
                g &= ~mask;
                pc++;
                break;
            }
            if (st == ISA_X_FAULT)
                return W_FAULT;
            if (st == ISA_X_TRAP)
                return ex_set_fault(w, x, mask, "trap instruction executed");
            if (st == ISA_X_EXIT || (st == ISA_X_RET && w->depth == 1)) {
                w->alive &= ~mask;
                cx->members &= ~mask;
                w->cta->exited += (uint32_t)__builtin_popcount(mask);
                ex_wait_exited(w);
                g &= ~mask;
                if (!g)
                    break;
                pc++;
                continue;
            }
            if (st == ISA_X_RET) {
                cx->members &= ~mask;
                g &= ~mask;
                if (!g)
                    break;
                pc++;
                continue;
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
                g = 0;
                break;
            }
            if (st == ISA_X_BARRIER || st == ISA_X_WARPSYNC) {
                /* A wait (exec/sync/wait.c): the lanes pass on, or block until woken. */
                int ws = ex_wait(w, f, x, mask, st);
                if (ws == EX_WAIT_FAULT)
                    return W_FAULT;
                if (ws == EX_WAIT_PASS) {
                    pc++;
                    continue;
                }
                set_pcs(cx, g, pc + 1);
                g = 0;
                break;
            }
            return ex_set_fault(w, x, mask, "unexpected handler status");
        }
        w->nlane_instr += run * (uint64_t)__builtin_popcount(g0);
        w->ninstr += run;
        set_pcs(cx, g, pc);
    }
    return W_RUNNABLE;
}
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
    FILE              *diag;
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
    atomic_uint        nworker;        /* workers started (each one's index: %smid) */
    uint64_t           gridid;
    uint64_t           slice;          /* warp instructions of a CTA's time slice */
    uint64_t           capacity;       /* CTAs that can be resident at once */
    bool               local;          /* the module uses .local: warps get local memory */
    _Alignas(64) atomic_uint_fast64_t resident;   /* CTAs resident now */
    char               nomem[160];     /* what host memory could not be had (under diag_lock) */
    /* Stopping (failed == L_STOPPED): the watchdog's state and the report of live warps. */
    int                stop_reason;    /* 1: the timeout, 2: the stop flag */
    FILE              *report;         /* open_memstream on report_buf, under diag_lock */
    char              *report_buf;
    size_t             report_len;
    pthread_mutex_t    wd_lock;
    pthread_cond_t     wd_cond;
    bool               wd_done;
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
    for (uint32_t i = 0; L->report && i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        if (w->depth == 0)
            continue;
        const ex_ctx_t *cx = ex_top(w);
        uint32_t left = cx->members & w->alive;
        while (left) {
            uint32_t pc = cx->pc[__builtin_ctz(left)], g = 0;
            for (uint32_t m = left; m; m &= m - 1)
                if (cx->pc[__builtin_ctz(m)] == pc)
                    g |= m & -m;
            left &= ~g;
            fprintf(L->report, "  CTA (%u,%u,%u) warp %u lanes 0x%08x%s: ", c->ctaid[0], c->ctaid[1], c->ctaid[2],
                    w->id, g, (g & w->waiting) ? " (waiting)" : "");
            const ex_insn_t *x = pc < cx->fn->ncode ? &cx->fn->code[pc] : NULL;
            if (x && x->ir)
                print_loc(L->report, L->p->m, cx->fn->ir, x, ", ");
            else
                fputs("at the end of the function\n", L->report);
        }
    }
    pthread_mutex_unlock(&L->diag_lock);
}

/* The watchdog of a launch with a timeout or a stop flag: sets failed to L_STOPPED at the
 * deadline or when the flag is set (checked every 20 ms), so that the workers, which
 * test failed once per scheduling round, stop. */
static void *watchdog(void *arg)
{
    launch_t *L = arg;
    const ex_launch_t *l = L->l;
    struct timespec now, end;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = l->timeout > 0 ? l->timeout : 0;
    end.tv_sec = now.tv_sec + (time_t)t;
    end.tv_nsec = now.tv_nsec + (long)((t - (double)(time_t)t) * 1e9);
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&L->wd_lock);
    while (!L->wd_done) {
        struct timespec wake = now;
        wake.tv_nsec += 20000000L;
        if (wake.tv_nsec >= 1000000000L) {
            wake.tv_sec++;
            wake.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&L->wd_cond, &L->wd_lock, &wake);
        if (L->wd_done)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int reason = l->stop && atomic_load(l->stop) ? 2
                   : t > 0 && (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) ? 1
                   : 0;
        if (reason) {
            int z = 0;
            if (atomic_compare_exchange_strong(&L->failed, &z, L_STOPPED))
                L->stop_reason = reason;
            break;
        }
    }
    pthread_mutex_unlock(&L->wd_lock);
    return NULL;
}

static bool needs_local(ex_program_t *p)
{
    for (uint32_t i = 0; i < p->m->nfunc; i++)
        if (p->funcs[i].local_size)
            return true;
    return false;
}

/* Make CTA number id resident in slot c: its warps at the entry; false when host
 * memory runs out (recorded). */
static bool cta_start(launch_t *L, ex_cta_t *c, uint64_t id, uint64_t clock)
{
    const ex_launch_t *l = L->l;
    c->ctaid[0] = (uint32_t)(id % l->grid[0]);
    c->ctaid[1] = (uint32_t)((id / l->grid[0]) % l->grid[1]);
    c->ctaid[2] = (uint32_t)(id / ((uint64_t)l->grid[0] * l->grid[1]));
    memset(c->bar, 0, sizeof c->bar);
    c->exited = 0;
    c->gridid = L->gridid;
    c->clock_base = clock;
    memset(c->shared, 0, c->shared_size);
    ex_func_t *ef = &L->p->funcs[L->entry];
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        w->cta = c;
        w->valid = w->waiting = w->bar_pc = 0;
        memset(w->bar_arrived, 0, sizeof w->bar_arrived);
        w->bar_counted = 0;
        w->red_lanes = w->wait_other = 0;
        w->clock_last = 0;
        w->fault_addr = 0;
        w->fault_what = NULL;
        w->fault_insn = NULL;
        w->id = i;
        if (w->tid_ready) {
            w->valid = w->tid_valid;      /* the same block shape: indices already known */
            goto tids_done;
        }
        /* Thread indices, x fastest, counted up without divisions (once per worker). */
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
        w->fault_lane = -1;
        w->ninstr = 0;
        w->nlane_instr = 0;
        w->backjumps = 0;
        w->depth = 1;
        w->local_top = ef->local_size;
        ex_ctx_t *cx = &w->ctx[0];
        memset(cx, 0, sizeof *cx);
        cx->fn = ef;
        if (!w->frame0)
            w->frame0 = malloc(ef->frame_size + 64);
        cx->frame = frame_new(w, ef, 0, w->frame0);
        cx->members = w->valid;
        if (!cx->frame) {
            out_of_memory(L, "a warp's registers", ef->frame_size + 64ull);
            return false;
        }
    }
    return true;
}

enum { CTA_FAILED = -1, CTA_RUNNING, CTA_DONE };

/* Run the warps of resident CTA c in turn, each for a quantum, until the CTA finishes
 * or slice warp instructions have run: CTA_DONE, CTA_RUNNING (the slice is used up), or
 * CTA_FAILED (a fault or deadlock, reported, or the launch failed or stopped elsewhere). */
static int cta_step(launch_t *L, ex_cta_t *c, uint64_t slice)
{
    uint32_t live = c->nwarps;
    uint64_t spent = 0;
    bool ok = true;
    while (live && ok && spent < slice) {
        bool progress = false;
        live = 0;
        for (uint32_t i = 0; i < c->nwarps && ok; i++) {
            ex_warp_t *w = &c->warps[i];
            if (w->depth == 0)
                continue;
            uint64_t before = w->ninstr;
            uint32_t wait_before = w->waiting;
            int st = warp_run(w, EX_QUANTUM);
            spent += w->ninstr - before;
            if (w->ninstr != before || w->waiting != wait_before)
                progress = true;
            if (st == W_FAULT) {
                int z = 0;
                if (atomic_compare_exchange_strong(&L->failed, &z, L_FAULT)) {
                    pthread_mutex_lock(&L->diag_lock);
                    report_fault(w, L->diag, L->p->m->funcs[L->entry].name);
                    pthread_mutex_unlock(&L->diag_lock);
                }
                ok = false;
            } else if (st != W_DONE) {
                live++;
            }
        }
        if (ok && live && !progress) {
            int z = 0;
            if (atomic_compare_exchange_strong(&L->failed, &z, L_FAULT)) {
                ex_warp_t *w = &c->warps[0];
                for (uint32_t i = 0; i < c->nwarps; i++)
                    if (c->warps[i].depth)
                        w = &c->warps[i];
                ex_wait_deadlock(c, w);
                pthread_mutex_lock(&L->diag_lock);
                report_fault(w, L->diag, L->p->m->funcs[L->entry].name);
                report_waits(L->diag, L->p->m, c);
                pthread_mutex_unlock(&L->diag_lock);
            }
            ok = false;
        }
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
        free(c->warps[i].frame0);
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
        while (w->depth > 1)
            free(w->ctx[--w->depth].frame);
        w->depth = 0;
    }
    atomic_fetch_add(&L->thread_instrs, ti);
    atomic_fetch_add(&L->warp_instrs, wi);
    *clock = t + 1 > *clock ? t + 1 : *clock;
}

/* A slot for resident CTAs of the launch: warps, shared memory, local memory.  NULL
 * when host memory runs out (recorded). */
static ex_cta_t *cta_alloc(launch_t *L, uint32_t worker_index)
{
    const ex_launch_t *l = L->l;
    ex_cta_t *c = calloc(1, sizeof *c);
    if (!c) {
        out_of_memory(L, "a CTA", sizeof *c);
        return NULL;
    }
    c->p = L->p;
    c->l = l;
    c->params = L->params;
    c->params_size = L->params_size;
    /* Sizes in 64 bits: ex_launch_check bounded the block (1024 threads) and the
     * entry's shared memory; the module's may be larger (every entry's variables). */
    uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t shared = (((uint64_t)L->p->shared_static + 15) & ~15ull) + l->shared_bytes;
    c->nthreads = (uint32_t)nthreads;
    c->worker = worker_index;
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
    /* Local memory: EX_LOCAL_BYTES per lane, reserved; pages are backed when touched. */
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
    }
    if (!ok) {
        cta_free(c);
        return NULL;
    }
    return c;
}

/* The next CTA number for this worker into *out; false when none is left.  CTAs are
 * taken a few at a time (fewer trips to the shared counter), fewer towards the end so
 * that the workers finish together. */
static bool take_cta(launch_t *L, uint64_t *id, uint64_t *end, uint64_t *out)
{
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

/* A worker (an "SM"): it hosts resident CTAs, runs one until it finishes or its time
 * slice is used up, and then turns to the next.  When a slice runs out and the GPU has
 * room (L->capacity resident CTAs in all), a new CTA becomes resident beside the others,
 * so that a CTA waiting for another one (a flag in global memory) lets it run; when a
 * CTA finishes, the next CTA of the grid takes its slot. */
static void *worker(void *arg)
{
    launch_t *L = arg;
    uint32_t index = atomic_fetch_add(&L->nworker, 1);
    ex_cta_t **slot = NULL;           /* [0, nres): resident; [nres, nslot): spare */
    uint32_t nres = 0, nslot = 0, cur = 0;
    uint64_t id = 0, end = 0, clock = 0, next;
    for (;;) {
        if (atomic_load(&L->failed))
            break;
        bool admit = nres == 0;
        if (!admit) {
            ex_cta_t *c = slot[cur];
            int r = cta_step(L, c, L->slice);
            if (r == CTA_FAILED)
                break;
            if (r == CTA_DONE) {
                cta_finish(L, c, &clock);
                if (take_cta(L, &id, &end, &next)) {
                    if (!cta_start(L, c, next, clock))
                        break;
                    continue;
                }
                atomic_fetch_sub(&L->resident, 1);
                slot[cur] = slot[--nres];
                slot[nres] = c;
                if (cur >= nres)
                    cur = 0;
                continue;
            }
            /* The slice is used up: one more CTA becomes resident if there is room. */
            admit = atomic_fetch_add(&L->resident, 1) < L->capacity;
            if (!admit) {
                atomic_fetch_sub(&L->resident, 1);
                cur = (cur + 1) % nres;
                continue;
            }
        } else {
            atomic_fetch_add(&L->resident, 1);
        }
        if (!take_cta(L, &id, &end, &next)) {
            atomic_fetch_sub(&L->resident, 1);
            if (nres == 0)
                break;
            cur = (cur + 1) % nres;
            continue;
        }
        if (nres == nslot) {
            ex_cta_t **ns = realloc(slot, (nslot + 1) * sizeof *slot);
            ex_cta_t *c = ns ? cta_alloc(L, index) : NULL;
            if (ns)
                slot = ns;
            if (!c) {
                if (!ns)
                    out_of_memory(L, "the resident CTAs of a worker", (nslot + 1) * sizeof *slot);
                atomic_fetch_sub(&L->resident, 1);
                break;
            }
            slot[nslot++] = c;
        }
        if (!cta_start(L, slot[nres], next, clock)) {
            atomic_fetch_sub(&L->resident, 1);
            break;
        }
        cur = nres++;
    }
    /* A stopped launch reports where every resident CTA's warps were. */
    bool stopped = atomic_load(&L->failed) == L_STOPPED;
    for (uint32_t i = 0; i < nres; i++) {
        if (stopped)
            report_live(L, slot[i]);
        cta_finish(L, slot[i], &clock);
    }
    for (uint32_t i = 0; i < nslot; i++)
        cta_free(slot[i]);
    free(slot);
    return NULL;
}

isa_status_t ex_launch(ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                       size_t params_size, FILE *diag, ex_stats_t *out_stats)
{
    launch_t L;
    memset(&L, 0, sizeof L);
    L.p = p;
    L.entry = entry;
    L.l = l;
    L.params = params;
    L.params_size = params_size;
    L.diag = diag ? diag : stderr;
    L.total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (out_stats)
        out_stats->stop_report = NULL;
    if (p->funcs[entry].unsupported) {
        ex_program_check_entry(p, entry, L.diag);
        return ISA_ST_UNSUPPORTED;
    }
    char msg[256];
    isa_status_t cst = ex_launch_check(p, entry, l, msg, sizeof msg);
    if (cst != ISA_ST_OK) {
        fprintf(L.diag, "ptxrun: error: kernel %s: launch refused: %s\n", p->m->funcs[entry].name, msg);
        return cst;
    }
    pthread_mutex_init(&L.diag_lock, NULL);
    L.gridid = atomic_fetch_add(&p->nlaunch, 1) + 1;
    /* A watchdog thread when the launch can be stopped (timeout, stop flag). */
    pthread_t wd;
    bool has_wd = false;
    if (l->timeout > 0 || l->stop) {
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&L.wd_cond, &ca);
        pthread_condattr_destroy(&ca);
        pthread_mutex_init(&L.wd_lock, NULL);
        L.report = open_memstream(&L.report_buf, &L.report_len);
        has_wd = pthread_create(&wd, NULL, watchdog, &L) == 0;
        if (!has_wd) {
            fprintf(L.diag, "ptxrun: error: cannot start the thread that watches the time limit\n");
            if (L.report)
                fclose(L.report);
            free(L.report_buf);
            pthread_cond_destroy(&L.wd_cond);
            pthread_mutex_destroy(&L.wd_lock);
            pthread_mutex_destroy(&L.diag_lock);
            return ISA_ST_NOMEM;
        }
    }
    unsigned n = l->workers;
    if (n == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (unsigned)c : 1;
    }
    if (n > L.total)
        n = (unsigned)L.total;
    L.nthreads = n;
    L.slice = l->slice ? l->slice : EX_SLICE;
    L.capacity = ex_resident_ctas(p, entry, l);
    L.local = needs_local(p);
    if (n <= 1) {
        worker(&L);
    } else {
        /* n - 1 more threads; the calling thread is a worker too. */
        pthread_t *th = calloc(n, sizeof *th);
        unsigned started = 0;
        for (unsigned i = 0; th && i + 1 < n; i++)
            if (pthread_create(&th[i], NULL, worker, &L) == 0)
                started++;
            else
                break;
        worker(&L);
        for (unsigned i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        free(th);
    }
    isa_status_t st = atomic_load(&L.failed) ? ISA_ST_FAULT : ISA_ST_OK;
    if (has_wd) {
        pthread_mutex_lock(&L.wd_lock);
        L.wd_done = true;
        pthread_cond_signal(&L.wd_cond);
        pthread_mutex_unlock(&L.wd_lock);
        pthread_join(wd, NULL);
        pthread_cond_destroy(&L.wd_cond);
        pthread_mutex_destroy(&L.wd_lock);
        char *rep = NULL;
        if (L.report) {
            fclose(L.report);
            if (atomic_load(&L.failed) == L_STOPPED) {
                /* The first line says why; the live warps follow. */
                size_t n = L.report_len + 256;
                rep = malloc(n);
                if (rep) {
                    int k = L.stop_reason == 1
                        ? snprintf(rep, n, "ptxrun: error: kernel %s: stopped after the time limit of %g s; "
                                   "live warps:\n", p->m->funcs[entry].name, l->timeout)
                        : snprintf(rep, n, "ptxrun: error: kernel %s: stopped by an interrupt; live warps:\n",
                                   p->m->funcs[entry].name);
                    if (L.report_len)
                        memcpy(rep + k, L.report_buf, L.report_len + 1);
                    else   /* stopped between two CTAs */
                        snprintf(rep + k, n - (size_t)k, "  (none: the workers were between CTAs)\n");
                }
            }
            free(L.report_buf);
        }
        if (out_stats)
            out_stats->stop_report = rep;
        else
            free(rep);
    }
    if (L.nomem[0]) {
        fprintf(L.diag, "ptxrun: error: kernel %s: %s\n", p->m->funcs[entry].name, L.nomem);
        st = ISA_ST_NOMEM;
    }
    pthread_mutex_destroy(&L.diag_lock);
    if (out_stats) {
        out_stats->thread_instrs = atomic_load(&L.thread_instrs);
        out_stats->warp_instrs = atomic_load(&L.warp_instrs);
    }
    return st;
}
/*}=====================================================================*/
