/* wait.c: the waiter.  Every kind of wait a warp's lanes can be in is kept here: a
 * handler that must wait returns a block status (ISA_X_BARRIER, ISA_X_WARPSYNC,
 * ISA_X_COLLECTIVE, ISA_X_CLUSTER), the warp loop hands the instruction to ex_wait, which records the
 * lanes' wait object (w->waiting, and per lane wait_bar: a barrier id, EX_WSYNC,
 * EX_WCOLL or EX_WCLUSTER, with wsync_mask, wait_insn and wait_frame) and either lets the lanes pass on
 * or blocks them; the events
 * that can wake lanes (another arrival, lanes exiting) call in here, and the waiter
 * clears the waiting bits of every lane that may proceed.  docs/execution.md describes
 * the states of a warp. */
#include "exec/internal.h"

#include <string.h>

/*{=====================================================================
 * CTA barriers (bar, barrier) and the warp-sync rendezvous (bar.warp.sync)
 *====================================================================*/
/* Warp w counts as arrived at barrier k once every live lane of it arrived there. */
static void warp_arrival(ex_cta_t *c, ex_warp_t *w, unsigned k)
{
    uint32_t a = w->bar_arrived[k];
    if (!a || (w->bar_counted & (1u << k)) || (w->alive & ~a))
        return;
    w->bar_counted |= 1u << k;
    c->bar[k].nwarps++;
}

/* Complete barrier k when enough warps arrived: b / 32 of them for a count b, else every
 * warp that still has live lanes.  The waiting lanes of the counted warps resume, and
 * those of a bar.red receive the reduction. */
static void barrier_check(ex_cta_t *c, unsigned k)
{
    ex_bar_t *b = &c->bar[k];
    uint32_t bit = 1u << k;
    if (b->nwarps == 0)
        return;
    if (b->expected) {
        if (b->nwarps * ISA_LANES < b->expected)
            return;
    } else {
        for (uint32_t i = 0; i < c->nwarps; i++)
            if (c->warps[i].alive && !(c->warps[i].bar_counted & bit))
                return;
    }
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ex_warp_t *w = &c->warps[i];
        if (!(w->bar_counted & bit))
            continue;
        /* The lanes that wait at barrier k: arrived there, and still waiting (a lane that
         * only arrived, with bar.arrive, may wait elsewhere since: check those). */
        uint32_t rel = w->waiting & w->bar_arrived[k];
        for (uint32_t m = rel & w->wait_other; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (w->wait_bar[l] != k)
                rel &= ~(1u << l);
        }
        w->waiting &= ~rel;
        for (uint32_t m = rel & w->red_lanes; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            const ex_insn_t *x = w->wait_insn[l];
            w->wait_insn[l] = NULL;           /* set only between a bar.red and its release */
            if (!x || x->aux < EX_BAR_POPC)
                continue;
            uint8_t *fr = w->wait_frame[l];
            if (x->aux == EX_BAR_POPC) {
                ISA_SLOT(uint32_t, fr, x->o[0])[l] = b->popc;
            } else {
                bool v = x->aux == EX_BAR_AND ? b->popc == b->nthreads : b->popc != 0;
                uint32_t *d = ISA_SLOT(uint32_t, fr, x->o[0]);
                *d = v ? *d | (1u << l) : *d & ~(1u << l);
            }
        }
        w->red_lanes &= ~rel;
        w->bar_arrived[k] = 0;
        w->bar_counted &= ~bit;
    }
    memset(b, 0, sizeof *b);
}

/* bar.warp.sync: release the waiting lanes whose masks' live lanes all wait at one (any)
 * whose mask names them in turn.  A lane that waits with a smaller mask does not stand in
 * for the full one: on the H100, lanes 16-31 passing __syncwarp(0xffff0000) leave lanes
 * 0-15 at __syncwarp(0xffffffff) until they reach a full one too. */
static void wsync_release(ex_warp_t *w)
{
    uint32_t at = 0, rel = 0;
    for (uint32_t m = w->waiting; m; m &= m - 1)
        if (w->wait_bar[__builtin_ctz(m)] == EX_WSYNC)
            at |= m & -m;
    for (uint32_t m = at; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t need = w->wsync_mask[l] & w->alive;
        if (need & ~at)
            continue;
        bool mutual = true;   /* (a lane outside its own mask, all giving one, waits for them alone) */
        for (uint32_t q = (w->wsync_mask[l] >> l & 1) ? need : 0; q && mutual; q &= q - 1)
            mutual = (w->wsync_mask[__builtin_ctz(q)] >> l) & 1;
        if (mutual)
            rel |= 1u << l;
    }
    w->waiting &= ~rel;
    for (uint32_t m = rel; m; m &= m - 1)
        w->wait_insn[__builtin_ctz(m)] = NULL;
}

/* Warp collectives: the lanes waiting at one with the same qualifiers and member mask
 * form a rendezvous; once every live lane of the mask is in it, the collective runs for
 * all of them (each at its own instruction and frame) and they resume. */
static void coll_release(ex_warp_t *w)
{
    uint32_t left = 0;
    for (uint32_t m = w->waiting; m; m &= m - 1)
        if (w->wait_bar[__builtin_ctz(m)] == EX_WCOLL)
            left |= m & -m;
    while (left) {
        unsigned l = (unsigned)__builtin_ctz(left);
        uint32_t mm = w->wsync_mask[l], grp = 0;
        uint64_t key = w->wait_insn[l]->aux;
        for (uint32_t m = left; m; m &= m - 1) {
            unsigned k = (unsigned)__builtin_ctz(m);
            if (w->wsync_mask[k] == mm && w->wait_insn[k]->aux == key)
                grp |= 1u << k;
        }
        left &= ~grp;
        if (mm & w->alive & ~grp)
            continue;
        ex_coll_exec(w, grp, w->wait_insn, w->wait_frame);
        w->waiting &= ~grp;
        for (uint32_t m = grp; m; m &= m - 1)
            w->wait_insn[__builtin_ctz(m)] = NULL;
    }
}

/*{=====================================================================
 * The cluster barrier (barrier.cluster): arrivals are counted per thread over the
 * cluster's CTAs; it completes when every thread that has not exited arrived, releases
 * the threads waiting at it and begins its next phase.  A thread waits only while its
 * arrival's phase is incomplete (a wait without an arrival passes).
 *====================================================================*/
static void cluster_complete(ex_cluster_t *cl)
{
    cl->phase++;
    cl->pending = cl->live;
    for (uint32_t k = 0; k < cl->n; k++) {
        ex_cta_t *c = cl->cta[k];
        for (uint32_t i = 0; i < c->nwarps; i++) {
            ex_warp_t *w = &c->warps[i];
            w->cbar_arrived = 0;
            uint32_t rel = 0;
            for (uint32_t m = w->waiting; m; m &= m - 1)
                if (w->wait_bar[__builtin_ctz(m)] == EX_WCLUSTER)
                    rel |= m & -m;
            w->waiting &= ~rel;
        }
    }
}

static int wait_cluster(ex_warp_t *w, const ex_insn_t *x, uint32_t mask)
{
    ex_cluster_t *cl = w->cta->cluster;
    if (x->aux == EX_CBAR_ARRIVE) {
        uint32_t now = mask & ~w->cbar_arrived & w->cbar_live;
        w->cbar_arrived |= now;
        cl->pending -= (uint32_t)__builtin_popcount(now);
        if (cl->pending == 0)
            cluster_complete(cl);
        return EX_WAIT_PASS;
    }
    uint32_t wait = mask & w->cbar_arrived;
    if (!wait)
        return EX_WAIT_PASS;
    w->waiting |= wait;
    for (uint32_t m = wait; m; m &= m - 1)
        w->wait_bar[__builtin_ctz(m)] = EX_WCLUSTER;
    return EX_WAIT_BLOCK;
}

/* Lanes of w exited: the cluster barrier no longer waits for them. */
static void cluster_exited(ex_warp_t *w)
{
    ex_cluster_t *cl = w->cta->cluster;
    uint32_t gone = w->cbar_live & ~w->alive;
    if (!gone || !cl)
        return;
    w->cbar_live &= ~gone;
    cl->live -= (uint32_t)__builtin_popcount(gone);
    cl->pending -= (uint32_t)__builtin_popcount(gone & ~w->cbar_arrived);
    if (cl->pending == 0 && cl->live)
        cluster_complete(cl);
}
/*}=====================================================================*/

/* Lanes of w exited: the warp may now count as arrived, barriers may complete, and
 * bar.warp.sync no longer waits for them. */
void ex_wait_exited(ex_warp_t *w)
{
    ex_cta_t *c = w->cta;
    cluster_exited(w);
    for (unsigned k = 0; k < EX_NBAR; k++)
        if (w->bar_arrived[k])
            warp_arrival(c, w, k);
    for (unsigned k = 0; k < EX_NBAR; k++)
        if (c->bar[k].nwarps)
            barrier_check(c, k);
    if (w->waiting) {
        wsync_release(w);
        coll_release(w);
    }
}

/* A group of lanes (mask, of group g) executes a barrier instruction. */
static int wait_barrier(ex_warp_t *w, uint8_t *f, const ex_insn_t *x, uint32_t mask)
{
    ex_cta_t *c = w->cta;
    unsigned l0 = (unsigned)__builtin_ctz(mask);
    uint32_t id = ISA_SLOT(const uint32_t, f, x->o[1])[l0];
    uint32_t cnt = x->o[2] == ISA_NONE ? 0 : ISA_SLOT(const uint32_t, f, x->o[2])[l0];
    if (id >= EX_NBAR) {
        snprintf(w->fault_buf, sizeof w->fault_buf, "barrier id %u outside 0..15", id);
        return ex_set_fault(w, x, mask, w->fault_buf), W_FAULT;
    }
    if (x->o[2] != ISA_NONE && (cnt == 0 || cnt % ISA_LANES)) {
        snprintf(w->fault_buf, sizeof w->fault_buf,
                 "barrier thread count %u is not a positive multiple of the warp size", cnt);
        return ex_set_fault(w, x, mask, w->fault_buf), W_FAULT;
    }
    ex_bar_t *b = &c->bar[id];
    b->expected = cnt;
    if (x->aux >= EX_BAR_POPC) {
        uint32_t pv = *ISA_SLOT(const uint32_t, f, x->o[3]);
        if (x->flags & 1)
            pv = ~pv;
        b->popc += (uint32_t)__builtin_popcount(mask & pv);
        b->nthreads += (uint32_t)__builtin_popcount(mask);
    }
    w->bar_arrived[id] |= mask;
    if (x->aux != EX_BAR_ARRIVE) {
        w->waiting |= mask;
        if (mask == ISA_FULL) {
            memset(w->wait_bar, (int)id, sizeof w->wait_bar);
        } else {
            for (uint32_t m = mask; m; m &= m - 1)
                w->wait_bar[__builtin_ctz(m)] = (uint8_t)id;
        }
        /* Only a reduction needs to know where its result goes on release. */
        if (x->aux >= EX_BAR_POPC) {
            w->red_lanes |= mask;
            for (uint32_t m = mask; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                w->wait_insn[l] = x;
                w->wait_frame[l] = f;
            }
        }
    } else {
        w->wait_other |= mask;          /* arrived without waiting: may wait elsewhere later */
    }
    warp_arrival(c, w, id);
    barrier_check(c, id);
    return x->aux == EX_BAR_ARRIVE ? EX_WAIT_PASS : EX_WAIT_BLOCK;
}

/* bar.warp.sync: the named live lanes must all arrive (at any bar.warp.sync); exited
 * lanes are not waited for. */
static int wait_warpsync(ex_warp_t *w, uint8_t *f, const ex_insn_t *x, uint32_t mask)
{
    const uint32_t *mm = ISA_SLOT(const uint32_t, f, x->o[0]);
    uint32_t out = ex_mask_outcasts(mm, mask);
    if (out) {
        snprintf(w->fault_buf, sizeof w->fault_buf, "illegal instruction: lane %u is not in its member mask "
                 "0x%08x, and the lanes' masks differ (the H100 stops the kernel)", (unsigned)__builtin_ctz(out),
                 mm[__builtin_ctz(out)]);
        return ex_set_fault(w, x, out, w->fault_buf), W_FAULT;
    }
    bool others_wait = false;
    for (uint32_t m = w->waiting; m && !others_wait; m &= m - 1)
        others_wait = w->wait_bar[__builtin_ctz(m)] == EX_WSYNC;
    if (!others_wait) {
        /* every lane's live members are here (each lane gives its own mask: lanes with
         * different masks, each holding itself, pass together) */
        bool all = true;
        for (uint32_t m = mask; m && all; m &= m - 1)
            all = !(mm[__builtin_ctz(m)] & w->valid & w->alive & ~mask);
        if (all)
            return EX_WAIT_PASS;
    }
    w->waiting |= mask;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        w->wait_bar[l] = EX_WSYNC;
        w->wsync_mask[l] = mm[l] & w->valid;
        w->wait_insn[l] = x;
        w->wait_frame[l] = f;
    }
    wsync_release(w);
    return EX_WAIT_BLOCK;
}

/* A warp collective whose members are not all here (or whose lanes give different
 * masks): each lane waits with its own mask; those whose rendezvous is complete run it
 * and go on. */
static int wait_collective(ex_warp_t *w, uint8_t *f, const ex_insn_t *x, uint32_t mask)
{
    const uint32_t *mm = ISA_SLOT(const uint32_t, f, x->o[5]);
    w->waiting |= mask;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        w->wait_bar[l] = EX_WCOLL;
        w->wsync_mask[l] = mm[l];
        w->wait_insn[l] = x;
        w->wait_frame[l] = f;
    }
    coll_release(w);
    return w->waiting & mask ? EX_WAIT_BLOCK : EX_WAIT_PASS;
}

int ex_wait(ex_warp_t *w, uint8_t *f, const ex_insn_t *x, uint32_t mask, int st)
{
    int r = st == ISA_X_BARRIER ? wait_barrier(w, f, x, mask)
          : st == ISA_X_WARPSYNC ? wait_warpsync(w, f, x, mask)
          : st == ISA_X_CLUSTER ? wait_cluster(w, x, mask)
          : wait_collective(w, f, x, mask);
    return r == W_FAULT ? EX_WAIT_FAULT : r;
}
/*}=====================================================================*/

/*{=====================================================================
 * Deadlock reports
 *====================================================================*/
const ex_insn_t *ex_wait_describe(ex_cta_t *c, ex_warp_t *w, unsigned l, char *out, size_t size)
{
    if (!(w->waiting & (1u << l))) {
        if (w->mb_stuck) {
            ex_mb_describe(w, out, size);
            return w->mb_wait;
        }
        snprintf(out, size, "runnable");
        return NULL;
    }
    const ex_ctx_t *cx = ex_lane_ctx(w, l);
    const ex_insn_t *x = w->wait_insn[l] ? w->wait_insn[l]
                       : cx && cx->pc[l] > 0 ? &cx->fn->code[cx->pc[l] - 1] : NULL;
    if (w->wait_bar[l] == EX_WSYNC) {
        snprintf(out, size, "waits at bar.warp.sync for lanes 0x%08x", w->wsync_mask[l]);
        return x;
    }
    if (w->wait_bar[l] == EX_WCOLL) {
        char name[64];
        isa_instr_name(c->p->m, x->ir, name, sizeof name);
        snprintf(out, size, "waits at %s for lanes 0x%08x", name, w->wsync_mask[l]);
        return x;
    }
    if (w->wait_bar[l] == EX_WCLUSTER) {
        const ex_cluster_t *cl = c->cluster;
        snprintf(out, size, "waits at barrier.cluster: %u of %u threads of the cluster (%u CTAs) arrived",
                 cl->live - cl->pending, cl->live, cl->n);
        return x;
    }
    unsigned k = w->wait_bar[l];
    const ex_bar_t *b = &c->bar[k];
    uint32_t live = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        live += c->warps[i].alive != 0;
    uint32_t want = b->expected ? b->expected / ISA_LANES : live;
    snprintf(out, size, "waits at barrier %u: %u of %u warps arrived", k, b->nwarps, want);
    return x;
}

/* The report of a CTA in which no warp can progress: what the waiting lanes of w wait for. */
void ex_wait_deadlock(ex_cta_t *c, ex_warp_t *w)
{
    unsigned l = w->waiting ? (unsigned)__builtin_ctz(w->waiting) : 0;
    w->fault_lane = (int)l;
    w->fault_insn = NULL;
    if (w->waiting) {
        /* A waiting lane resumes after its barrier: the barrier is the instruction before. */
        const ex_ctx_t *cx = ex_lane_ctx(w, l);
        w->fault_insn = w->wait_insn[l] ? w->wait_insn[l]
                      : cx && cx->pc[l] > 0 ? &cx->fn->code[cx->pc[l] - 1] : NULL;
    }
    if (!w->waiting && w->mb_stuck) {
        char what[150];
        ex_mb_describe(w, what, sizeof what);
        w->fault_insn = w->mb_wait;
        w->fault_lane = (int)__builtin_ctz(w->alive);
        snprintf(w->fault_buf, sizeof w->fault_buf, "deadlock: no thread can progress (%s)", what);
        w->fault_what = w->fault_buf;
        return;
    }
    if (!w->waiting) {
        w->fault_what = "deadlock: no thread of the CTA can progress";
        return;
    }
    if (w->wait_bar[l] == EX_WSYNC || w->wait_bar[l] == EX_WCOLL) {
        char name[64] = "bar.warp.sync";
        if (w->wait_bar[l] == EX_WCOLL)
            isa_instr_name(c->p->m, w->fault_insn->ir, name, sizeof name);
        snprintf(w->fault_buf, sizeof w->fault_buf,
                 "deadlock: %s waits for lanes of mask 0x%08x that never arrive (waiting: 0x%08x)",
                 name, w->wsync_mask[l], w->waiting);
    } else {
        char what[100];
        ex_wait_describe(c, w, l, what, sizeof what);
        snprintf(w->fault_buf, sizeof w->fault_buf,
                 "deadlock: every remaining thread waits at a barrier that cannot complete (%s)", what + 9);
    }
    w->fault_what = w->fault_buf;
}

/*}=====================================================================*/
