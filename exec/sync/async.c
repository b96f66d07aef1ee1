/* async.c: asynchronous barriers (mbarrier) and asynchronous copies (cp.async and the
 * non-tensor cp.async.bulk).
 *
 * An mbarrier is a 64-bit object in shared memory with a phase, a pending and an expected
 * arrival count and a transaction count; a phase completes when its pending arrivals and
 * its transaction count both reach zero, and the next phase starts with the expected
 * count.  The object's bits are the H100's as far as they were measured
 * (tests/golden/mbarrier_state: docs/execution.md, "Asynchronous barriers and copies").
 * A CTA runs on one worker thread, so its shared memory is changed with plain accesses,
 * lane after lane.
 *
 * Asynchronous copies are done when they are issued: every later completion mechanism
 * (cp.async.wait_group, cp.async.mbarrier.arrive, the bulk copies' complete_tx on an
 * mbarrier, cp.async.bulk.wait_group) then finds them complete, which is one of the
 * executions the PTX memory model allows.  The waits that can fail (mbarrier.test_wait,
 * mbarrier.try_wait) let the other warps run before the warp goes on, so that a loop
 * polling a barrier spins no faster than the warps it waits for. */
#include "exec/internal.h"

#include <stdlib.h>
#include <string.h>

/*{=====================================================================
 * The mbarrier object.  Bits, from the most significant: the phase's parity (63), 2^20
 * minus the pending arrivals (43-62), minus the transaction count in 21 bits (21-41),
 * 2^20 minus the expected arrivals (1-20).  The state mbarrier.arrive returns is the
 * object before the arrival without its low 32 bits.
 *====================================================================*/
#define MB_MAX_COUNT ((1u << 20) - 1)
#define MB_MAX_TX    ((1 << 20) - 1)

typedef struct { unsigned phase, pending, expected; int32_t tx; } mb_t;

static mb_t mb_get(uint64_t v)
{
    mb_t m;
    m.phase = (unsigned)(v >> 63);
    m.pending = (unsigned)(((1u << 20) - ((v >> 43) & 0xfffff)) & 0xfffff);
    m.expected = (unsigned)(((1u << 20) - ((v >> 1) & 0xfffff)) & 0xfffff);
    uint32_t t = (uint32_t)((v >> 21) & 0x1fffff);
    int32_t neg = (int32_t)(t << 11) >> 11;   /* sign-extend 21 bits */
    m.tx = -neg;
    return m;
}

static uint64_t mb_put(mb_t m)
{
    return (uint64_t)(m.phase & 1) << 63 | (uint64_t)(((1u << 20) - m.pending) & 0xfffff) << 43 |
           (uint64_t)((uint32_t)(-m.tx) & 0x1fffff) << 21 | (uint64_t)(((1u << 20) - m.expected) & 0xfffff) << 1;
}

static inline uint64_t mb_state(uint64_t v) { return v & 0xffffffff00000000ull; }

/* The phase completes when nothing is pending. */
static void mb_settle(mb_t *m)
{
    if (m->pending == 0 && m->tx == 0) {
        m->phase ^= 1;
        m->pending = m->expected;
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Addresses: ex_pd_address's (exec/mem/mem.c), and the checks these instructions make.
 *====================================================================*/
static int as_fault(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, uint64_t a, ex_fault_kind_t kind, const char *what)
{
    w->fault_kind = (uint8_t)kind;
    w->fault_lane = (int)l;
    w->fault_addr = a;
    w->fault_what = what;
    w->fault_insn = x;
    return ISA_X_FAULT;
}

/* Host memory of bytes at a of space sp (a window, or EX_SP_GENERIC) that must be in
 * want (ISA_SP_SHARED or ISA_SP_GLOBAL; ISA_SP_NONE: either), aligned to align; NULL with
 * the fault recorded. */
static void *as_mem(ex_warp_t *w, unsigned l, unsigned sp, uint64_t a, unsigned bytes, unsigned align,
                    isa_space_t want, const isa_xinsn_t *x)
{
    if (a % align) {
        as_fault(w, x, l, a, EX_FAULT_MISALIGNED, "misaligned address");
        return NULL;
    }
    if (want == ISA_SP_NONE)   /* any space: the generic windows decide */
        return ex_mem(w, l, sp == EX_SP_GENERIC ? ISA_SP_NONE : (isa_space_t)sp, a, bytes, x);
    isa_space_t s = (isa_space_t)sp;
    if (sp == EX_SP_GENERIC) {
        s = (a & EX_WIN_MASK) == EX_WIN_SHARED ? ISA_SP_SHARED : (a & EX_WIN_MASK) == 0 ? ISA_SP_GLOBAL : ISA_SP_LOCAL;
        if (s == ISA_SP_SHARED)
            a -= EX_WIN_SHARED;
    }
    if (want != ISA_SP_NONE && s != want) {
        as_fault(w, x, l, a, EX_FAULT_ADDRESS,
                 want == ISA_SP_SHARED ? "address outside shared memory (the operand must be in .shared)"
                                       : "address outside global memory (the operand must be in .global)");
        return NULL;
    }
    /* shared memory of any CTA of the cluster, by the rank in the address */
    return ex_mem(w, l, s == ISA_SP_SHARED ? ISA_SP_SHARED_CLUSTER : s, a, bytes, x);
}
/*}=====================================================================*/

/*{=====================================================================
 * mbarrier.  x->o[0] the destination (state or predicate; ISA_NONE for none or the sink),
 * o[1] the address register, o[2] the count, transaction count, state or parity, o[3]
 * try_wait's suspend-time hint; x->imm the address offset, x->vec the address space,
 * x->flags: MB_B32 (a 32-bit address register), MB_* of the form.
 *====================================================================*/
#define MB_B32      0x01
#define MB_DROP     0x02   /* arrive_drop */
#define MB_NOCOMP   0x04   /* .noComplete */
#define MB_EXPECT   0x08   /* .expect_tx: o[2] is the transaction count, the arrival counts 1 */
#define MB_PARITY   0x10   /* test_wait/try_wait .parity */
#define MB_TRY      0x20   /* try_wait */
#define MB_SPIN     0x40   /* test_wait/try_wait in a loop only the phase's completion ends */

static inline uint64_t *mb_at(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, unsigned l)
{
    uint64_t a = ex_addr_lane(f, x->o[1], x->flags & MB_B32, x->imm, l);
    return as_mem(w, l, x->vec, a, 8, 8, ISA_SP_SHARED, x);
}

static inline uint32_t u32_lane(const uint8_t *f, uint32_t slot, unsigned l, uint32_t dflt)
{
    return slot == ISA_NONE ? dflt : ISA_SLOT(const uint32_t, f, slot)[l];
}

static int mb_init_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t *p = mb_at(w, f, x, l);
        if (!p)
            return ISA_X_FAULT;
        uint32_t n = u32_lane(f, x->o[2], l, 1);
        if (n < 1 || n > MB_MAX_COUNT) {
            snprintf(w->fault_buf, sizeof w->fault_buf, "mbarrier.init count %u outside 1..%u", n, MB_MAX_COUNT);
            return as_fault(w, x, l, 0, EX_FAULT_ILLEGAL, w->fault_buf);
        }
        *p = mb_put((mb_t){ .phase = 0, .pending = n, .expected = n, .tx = 0 });
    }
    return ISA_X_NEXT;
}

/* The object is no longer an mbarrier: its memory is free for other uses. */
static int mb_inval_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t *p = mb_at(w, f, x, l);
        if (!p)
            return ISA_X_FAULT;
        *p = 0;
    }
    return ISA_X_NEXT;
}

static int tx_fault(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, int64_t tx)
{
    snprintf(w->fault_buf, sizeof w->fault_buf, "mbarrier transaction count %lld outside -%d..%d", (long long)tx,
             MB_MAX_TX, MB_MAX_TX);
    return as_fault(w, x, l, 0, EX_FAULT_ILLEGAL, w->fault_buf);
}

/* complete_tx of bytes on the mbarrier at host address p (lane l's). */
static int mb_complete_tx(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, uint64_t *p, uint64_t bytes)
{
    mb_t b = mb_get(*p);
    int64_t t = (int64_t)b.tx - (int64_t)bytes;
    if (bytes > (uint64_t)MB_MAX_TX || t < -MB_MAX_TX)
        return tx_fault(w, x, l, t);
    b.tx = (int32_t)t;
    mb_settle(&b);
    *p = mb_put(b);
    return ISA_X_NEXT;
}

/* complete_tx of bytes on the mbarrier at shared address ma (any CTA of the cluster). */
static int mb_complete_at(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, uint64_t ma, uint64_t bytes)
{
    uint64_t *p = as_mem(w, l, ISA_SP_SHARED, ma, 8, 8, ISA_SP_SHARED, x);
    return p ? mb_complete_tx(w, x, l, p, bytes) : ISA_X_FAULT;
}

/* One lane's arrive-on (count arrivals, after adding tx to the transaction count). */
static int mb_arrive_lane(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, uint64_t *p, uint32_t count, int64_t tx,
                          bool drop, bool nocomplete)
{
    mb_t b = mb_get(*p);
    if (count < 1 || count > MB_MAX_COUNT) {
        snprintf(w->fault_buf, sizeof w->fault_buf, "mbarrier arrival count %u outside 1..%u", count, MB_MAX_COUNT);
        return as_fault(w, x, l, 0, EX_FAULT_ILLEGAL, w->fault_buf);
    }
    int64_t t = (int64_t)b.tx + tx;
    if (t < -MB_MAX_TX || t > MB_MAX_TX)
        return tx_fault(w, x, l, t);
    if (count > b.pending) {
        snprintf(w->fault_buf, sizeof w->fault_buf,
                 "mbarrier arrival of %u when %u arrivals are pending in the current phase (undefined)", count, b.pending);
        return as_fault(w, x, l, 0, EX_FAULT_ILLEGAL, w->fault_buf);
    }
    if (drop && count > b.expected) {
        snprintf(w->fault_buf, sizeof w->fault_buf,
                 "mbarrier.arrive_drop of %u when %u arrivals are expected per phase (undefined)", count, b.expected);
        return as_fault(w, x, l, 0, EX_FAULT_ILLEGAL, w->fault_buf);
    }
    b.tx = (int32_t)t;
    b.pending -= count;
    if (drop)
        b.expected -= count;
    if (nocomplete && b.pending == 0 && b.tx == 0)
        return as_fault(w, x, l, 0, EX_FAULT_ILLEGAL,
                        "mbarrier.arrive.noComplete completes the phase (undefined)");
    mb_settle(&b);
    *p = mb_put(b);
    return ISA_X_NEXT;
}

/* The lanes of one arrive on one barrier arrive together, as on the H100: each receives
 * the state of its barrier before the instruction, so the states are read first, then
 * the arrivals made in lane order.  The .noComplete forms arrive lane after lane, each
 * lane receiving the state after the lower lanes' arrivals (goldens mbar_fuzz). */
static int mb_arrive_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    bool expect = x->flags & MB_EXPECT;
    uint64_t *p[ISA_LANES];
    uint64_t st[ISA_LANES];
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (!(p[l] = mb_at(w, f, x, l)))
            return ISA_X_FAULT;
        st[l] = mb_state(*p[l]);
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (x->flags & MB_NOCOMP)
            st[l] = mb_state(*p[l]);
        uint32_t v = u32_lane(f, x->o[2], l, 1);
        int r = mb_arrive_lane(w, x, l, p[l], expect ? 1 : v, expect ? (int64_t)v : 0, x->flags & MB_DROP,
                               x->flags & MB_NOCOMP);
        if (r != ISA_X_NEXT)
            return r;
    }
    if (x->o[0] != ISA_NONE)
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            ISA_SLOT(uint64_t, f, x->o[0])[l] = st[l];
        }
    return ISA_X_NEXT;
}

/* expect_tx (aux 0) and complete_tx (aux 1). */
static int mb_tx_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t *p = mb_at(w, f, x, l);
        if (!p)
            return ISA_X_FAULT;
        uint32_t v = u32_lane(f, x->o[2], l, 0);
        mb_t b = mb_get(*p);
        int64_t t = (int64_t)b.tx + (x->aux ? -(int64_t)v : (int64_t)v);
        if (v > (uint32_t)MB_MAX_TX || t < -MB_MAX_TX || t > MB_MAX_TX)
            return tx_fault(w, x, l, v > (uint32_t)MB_MAX_TX ? (int64_t)v : t);
        b.tx = (int32_t)t;
        if (x->aux)
            mb_settle(&b);
        *p = mb_put(b);
    }
    return ISA_X_NEXT;
}

/* test_wait and try_wait: whether the phase named by a state (or, with .parity, the
 * phase of that parity) has completed.  The object's current phase is in progress, the
 * one before it complete. */
static int mb_wait_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint32_t done = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t *p = mb_at(w, f, x, l);
        if (!p)
            return ISA_X_FAULT;
        unsigned cur = (unsigned)(*p >> 63), want;
        if (x->flags & MB_PARITY)
            want = ISA_SLOT(const uint32_t, f, x->o[2])[l] & 1;
        else
            want = (unsigned)(ISA_SLOT(const uint64_t, f, x->o[2])[l] >> 63);
        if (want != cur)
            done |= 1u << l;
    }
    if (x->o[0] != ISA_NONE) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        *d = (*d & ~mask) | done;
    }
    /* Every runnable lane of the warp spinning where only the phase can end the loop:
     * the CTA's deadlock check counts such a warp as blocked (interp.c, cta_step). */
    w->mb_passed += done != 0;
    w->mb_stuck = done != mask && (x->flags & MB_SPIN) && mask == (w->alive & ~w->waiting);
    if (w->mb_stuck) {
        unsigned l = (unsigned)__builtin_ctz(mask & ~done);
        w->mb_wait = x;
        w->mb_obj = mb_at(w, f, x, l);
        w->mb_want = (x->flags & MB_PARITY) ? ISA_SLOT(const uint32_t, f, x->o[2])[l] & 1
                                            : (unsigned)(ISA_SLOT(const uint64_t, f, x->o[2])[l] >> 63);
    }
    return done == mask ? ISA_X_NEXT : ISA_X_YIELD;
}

void ex_mb_describe(const ex_warp_t *w, char *out, size_t size)
{
    const ex_cta_t *c = w->cta;
    mb_t b = mb_get(*w->mb_obj);
    uint64_t at = (uint64_t)((const uint8_t *)w->mb_obj - c->shared);
    snprintf(out, size, "spins on %s: phase parity %u of the mbarrier at shared 0x%llx never completes "
             "(%u of %u arrivals, %d tx bytes pending)",
             w->mb_wait->ir && w->mb_wait->ir->op == ISA_OP_MBARRIER_TRY_WAIT ? "mbarrier.try_wait"
                                                                               : "mbarrier.test_wait",
             w->mb_want, (unsigned long long)at, b.expected - b.pending, b.expected, b.tx);
}

/* An operand's value where the spin analysis knows it: an immediate, or a register in
 * known[0..nk). */
typedef struct { uint32_t reg; int64_t v; } spin_val_t;
static bool get_known(const spin_val_t *known, unsigned nk, const isa_operand_t *o, int64_t *out)
{
    if (o->kind == ISA_OPD_IMM) {
        *out = o->imm;
        return true;
    }
    if (o->kind != ISA_OPD_REG || o->sel || o->flags)
        return false;
    for (unsigned k = 0; k < nk; k++)
        if (known[k].reg == o->u.reg) {
            *out = known[k].v;
            return true;
        }
    return false;
}

/* Whether the code after the test_wait/try_wait at instruction i of fn, when the wait
 * fails, can only wait again: every path from it (each conditional branch taken both
 * ways, unless the wait's result decides it, through selp, setp, not, and, or, mov) runs
 * register operations without side effects, reads of clocks and special registers, and
 * nanosleep, and reaches an mbarrier wait (this one, or another: libcu++'s backoff loop)
 * before anything else.  Such a failed wait leaves the warp spinning until a phase
 * completes. */
enum { SPIN_MAXK = 16, SPIN_MAXSTATES = 64, SPIN_STEPS = 512, SPIN_VISITS = 4 };
typedef struct { uint32_t pc; unsigned nk; spin_val_t k[SPIN_MAXK]; } spin_state_t;

static bool same_known(const spin_state_t *x, const spin_state_t *y)
{
    if (x->nk != y->nk)
        return false;
    for (unsigned a = 0; a < x->nk; a++) {
        unsigned b = 0;
        while (b < y->nk && (y->k[b].reg != x->k[a].reg || y->k[b].v != x->k[a].v))
            b++;
        if (b == y->nk)
            return false;
    }
    return true;
}

/* Knowledge of register reg after an instruction: value v when ka, else none. */
static bool set_known(spin_state_t *st, uint32_t reg, bool ka, int64_t v)
{
    unsigned k = 0;
    while (k < st->nk && st->k[k].reg != reg)
        k++;
    if (!ka) {
        if (k < st->nk)
            st->k[k] = st->k[--st->nk];
        return true;
    }
    if (k == st->nk) {
        if (st->nk == SPIN_MAXK)
            return false;
        st->nk++;
    }
    st->k[k].reg = reg;
    st->k[k].v = v;
    return true;
}

static bool spin_only(const isa_func_t *fn, uint32_t i)
{
    const isa_operand_t *pd = &fn->opds[fn->instrs[i].opd];
    if (pd->kind != ISA_OPD_REG)
        return false;
    spin_state_t *stack = malloc(SPIN_MAXSTATES * sizeof *stack);
    spin_state_t *seen = malloc(SPIN_MAXSTATES * sizeof *seen);   /* the state each pc was explored with */
    uint8_t *visits = calloc(SPIN_MAXSTATES, 1);
    unsigned sp = 0, nseen = 0, steps = 0;
    bool ok = stack && seen && visits;
    if (ok) {
        stack[sp].pc = i + 1;
        stack[sp].nk = 0;
        set_known(&stack[sp++], pd->u.reg, true, 0);
    }
    while (ok && sp) {
        spin_state_t st = stack[--sp];
        for (;;) {
            if (++steps > SPIN_STEPS || st.pc >= fn->ninstr) {
                ok = false;
                break;
            }
            const isa_instr_t *in = &fn->instrs[st.pc];
            if (in->op == ISA_OP_MBARRIER_TEST_WAIT || in->op == ISA_OP_MBARRIER_TRY_WAIT)
                break;                /* waits again: this path is done */
            /* explored from here before with the same knowledge: done; with other
             * knowledge: again, a few times, with what both agree on */
            unsigned v = 0;
            while (v < nseen && seen[v].pc != st.pc)
                v++;
            if (v < nseen) {
                if (same_known(&seen[v], &st))
                    break;
                if (++visits[v] > SPIN_VISITS) {
                    ok = false;
                    break;
                }
                spin_state_t both = st;
                both.nk = 0;
                for (unsigned a = 0; a < st.nk; a++)
                    for (unsigned b = 0; b < seen[v].nk; b++)
                        if (seen[v].k[b].reg == st.k[a].reg && seen[v].k[b].v == st.k[a].v)
                            both.k[both.nk++] = st.k[a];
                st = both;
                seen[v] = st;
            } else {
                if (nseen == SPIN_MAXSTATES) {
                    ok = false;
                    break;
                }
                seen[nseen++] = st;
            }
            const isa_operand_t *o = &fn->opds[in->opd];
            int taken = 1;            /* the guard: 1 true, 0 false, -1 not known */
            if (in->guard != ISA_NONE) {
                int64_t g;
                isa_operand_t go = { 0 };
                go.kind = ISA_OPD_REG;
                go.u.reg = in->guard;
                taken = get_known(st.k, st.nk, &go, &g) ? (g != 0) != (bool)in->guard_neg : -1;
            }
            if (in->op == ISA_OP_BRA) {
                if (in->nopd != 1 || o->kind != ISA_OPD_LABEL) {
                    ok = false;
                    break;
                }
                uint32_t tgt = fn->labels[o->u.label].instr;
                if (taken < 0) {      /* both ways */
                    if (sp == SPIN_MAXSTATES) {
                        ok = false;
                        break;
                    }
                    stack[sp] = st;
                    stack[sp++].pc = tgt;
                    st.pc++;
                } else {
                    st.pc = taken ? tgt : st.pc + 1;
                }
                continue;
            }
            if (taken == 0) {
                st.pc++;
                continue;
            }
            int64_t a = 0, b = 0, r = 0;
            bool ka = false, kb = false, writes = true;
            isa_op_t op = (isa_op_t)in->op;
            isa_family_t fam = (isa_family_t)isa_ops[op].family;
            if (op == ISA_OP_NANOSLEEP) {
                writes = false;
            } else if (op == ISA_OP_SELP && in->nopd == 4 && get_known(st.k, st.nk, &o[3], &r)) {
                ka = get_known(st.k, st.nk, r ? &o[1] : &o[2], &a);
            } else if (op == ISA_OP_SETP && in->nopd == 3 && isa_instr_mod(in, ISA_G_BOOLOP) < 0 &&
                       (isa_instr_mod(in, ISA_G_CMP) == ISA_M_EQ || isa_instr_mod(in, ISA_G_CMP) == ISA_M_NE) &&
                       isa_types[in->types[0]].cls != ISA_TC_FLOAT) {
                ka = get_known(st.k, st.nk, &o[1], &a) && get_known(st.k, st.nk, &o[2], &b);
                a = ka && (isa_instr_mod(in, ISA_G_CMP) == ISA_M_EQ) == (a == b);
            } else if (op == ISA_OP_MOV && in->nopd == 2) {
                ka = get_known(st.k, st.nk, &o[1], &a);
            } else if (op == ISA_OP_NOT && in->nopd == 2 && in->types[0] == ISA_T_PRED) {
                ka = get_known(st.k, st.nk, &o[1], &a);
                a = !a;
            } else if ((op == ISA_OP_AND || op == ISA_OP_OR || op == ISA_OP_XOR) && in->nopd == 3 &&
                       in->types[0] == ISA_T_PRED) {
                ka = get_known(st.k, st.nk, &o[1], &a);
                kb = get_known(st.k, st.nk, &o[2], &b);
                if (op == ISA_OP_AND && ((ka && !a) || (kb && !b)))
                    ka = true, a = 0;
                else if (op == ISA_OP_OR && ((ka && a) || (kb && b)))
                    ka = true, a = 1;
                else
                    ka = ka && kb, a = op == ISA_OP_AND ? (a && b) : op == ISA_OP_OR ? (a || b) : ((a != 0) != (b != 0));
            } else if (fam != ISA_FAM_INT && fam != ISA_FAM_LOGIC && fam != ISA_FAM_CMP && fam != ISA_FAM_CVT &&
                       fam != ISA_FAM_MOV && fam != ISA_FAM_FP) {
                ok = false;           /* memory, synchronisation, control flow...: not only spinning */
                break;
            }
            if (writes) {
                /* a register operation: its destination(s) known as computed, or not */
                if (o[0].kind == ISA_OPD_REG) {
                    ok = set_known(&st, o[0].u.reg, ka && taken == 1, a);
                } else if (o[0].kind == ISA_OPD_DUAL || o[0].kind == ISA_OPD_VEC) {
                    for (uint32_t e = 0; e < o[0].count && ok; e++)
                        if (fn->opds[o[0].u.first + e].kind == ISA_OPD_REG)
                            ok = set_known(&st, fn->opds[o[0].u.first + e].u.reg, false, 0);
                } else if (o[0].kind != ISA_OPD_SINK) {
                    ok = false;
                }
                if (!ok)
                    break;
            }
            st.pc++;
        }
    }
    free(stack);
    free(seen);
    free(visits);
    return ok;
}

static int mb_pending_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        /* 2^20 minus the state's field, unmasked: a state whose field is 0 (one that
         * never came from an arrive, such as 0) gives 2^20 (golden mbar_fuzz) */
        uint64_t st = ISA_SLOT(const uint64_t, f, x->o[2])[l];
        ISA_SLOT(uint32_t, f, x->o[0])[l] = (1u << 20) - (uint32_t)((st >> 43) & 0xfffff);
    }
    return ISA_X_NEXT;
}

static const isa_xdesc_t mb_init_d[1] = { { mb_init_f, { 0 }, 0 } };
static const isa_xdesc_t mb_inval_d[1] = { { mb_inval_f, { 0 }, 0 } };
static const isa_xdesc_t mb_arrive_d[1] = { { mb_arrive_f, { 0 }, ISA_HON_SINK } };
static const isa_xdesc_t mb_tx_d[1] = { { mb_tx_f, { 0 }, 0 } };
static const isa_xdesc_t mb_wait_d[1] = { { mb_wait_f, { 0 }, ISA_HON_SINK } };
static const isa_xdesc_t mb_pending_d[1] = { { mb_pending_f, { 0 }, 0 } };

/* A u32 source (register or constant) into *slot. */
static bool u32_src(void *pd, ex_func_t *f, const isa_operand_t *o, uint32_t *slot)
{
    if (o->kind == ISA_OPD_REG && ex_reg_width(f, o) != 4)
        return false;
    if (o->kind != ISA_OPD_REG && o->kind != ISA_OPD_IMM)
        return false;
    *slot = ex_pd_operand(pd, o, 4);
    return *slot != ISA_NONE;
}

static bool reg_of(ex_func_t *f, const isa_operand_t *o, unsigned width, uint32_t *slot)
{
    unsigned w;
    if (o->kind != ISA_OPD_REG)
        return false;
    *slot = ex_reg_operand(f, o, &w);
    return *slot != ISA_NONE && w == width;
}

static bool select_mbarrier(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int mode = isa_instr_mod(in, ISA_G_MODE), sem = isa_instr_mod(in, ISA_G_SEM);
    int scope = isa_instr_mod(in, ISA_G_SCOPE), spi = isa_instr_space(in, 0);
    unsigned known = 1u + (mode >= 0) + (sem >= 0) + (scope >= 0) + (spi >= 0) + (isa_instr_space(in, 1) >= 0);
    if (in->nsfx != known || (in->ntypes == 1 && in->types[0] != ISA_T_B64))
        return false;
    if (sem >= 0 && sem != ISA_M_RELAXED && sem != ISA_M_RELEASE && sem != ISA_M_ACQUIRE)
        return false;
    if (scope >= 0 && scope != ISA_M_CTA && scope != ISA_M_CLUSTER)
        return false;
    if (spi >= 0 && isa_spaces[spi].window != ISA_SP_SHARED)
        return false;
    bool cluster = spi == ISA_SP_SHARED_CLUSTER;
    x->vec = spi < 0 ? EX_SP_GENERIC : ISA_SP_SHARED;
    /* The address operand. */
    unsigned ai = in->op == ISA_OP_MBARRIER_INIT || in->op == ISA_OP_MBARRIER_INVAL || in->op == ISA_OP_MBARRIER_EXPECT_TX ||
                  in->op == ISA_OP_MBARRIER_COMPLETE_TX ? 0 : 1;
    if (in->op != ISA_OP_MBARRIER_PENDING_COUNT) {
        ex_addrop_t a;
        if (in->nopd <= ai || !ex_pd_address(pd, f, &o[ai], spi, &a) || a.space == ISA_SP_GLOBAL)
            return false;
        x->o[1] = a.slot;
        x->imm = a.off;
        x->vec = a.space;
        if (a.b32)
            x->flags |= MB_B32;
    }
    switch ((isa_op_t)in->op) {
    case ISA_OP_MBARRIER_INIT:
        if (in->nopd != 2 || mode >= 0 || sem >= 0 || scope >= 0 || cluster || !u32_src(pd, f, &o[1], &x->o[2]))
            return false;
        x->desc = mb_init_d;
        return true;
    case ISA_OP_MBARRIER_INVAL:
        if (in->nopd != 1 || mode >= 0 || sem >= 0 || scope >= 0 || cluster)
            return false;
        x->desc = mb_inval_d;
        return true;
    case ISA_OP_MBARRIER_EXPECT_TX:
    case ISA_OP_MBARRIER_COMPLETE_TX:
        if (in->nopd != 2 || mode >= 0 || (sem >= 0 && sem != ISA_M_RELAXED) || !u32_src(pd, f, &o[1], &x->o[2]))
            return false;
        x->aux = in->op == ISA_OP_MBARRIER_COMPLETE_TX;
        x->desc = mb_tx_d;
        return true;
    case ISA_OP_MBARRIER_ARRIVE:
    case ISA_OP_MBARRIER_ARRIVE_DROP:
        if (in->nopd < 2 || in->nopd > 3 || (sem >= 0 && sem != ISA_M_RELEASE && sem != ISA_M_RELAXED))
            return false;
        if (mode >= 0 && mode != ISA_M_NOCOMPLETE && mode != ISA_M_EXPECT_TX)
            return false;
        if (mode == ISA_M_EXPECT_TX && in->nopd != 3)
            return false;
        if (in->op == ISA_OP_MBARRIER_ARRIVE_DROP)
            x->flags |= MB_DROP;
        if (mode == ISA_M_NOCOMPLETE)
            x->flags |= MB_NOCOMP;
        if (mode == ISA_M_EXPECT_TX)
            x->flags |= MB_EXPECT;
        /* The state: a 64-bit register, or the sink (the only form on shared::cluster). */
        if (o[0].kind == ISA_OPD_SINK)
            x->o[0] = ISA_NONE;
        else if (cluster || !reg_of(f, &o[0], 8, &x->o[0]))
            return false;
        if (in->nopd == 3 && !u32_src(pd, f, &o[2], &x->o[2]))
            return false;
        x->desc = mb_arrive_d;
        return true;
    case ISA_OP_MBARRIER_TEST_WAIT:
    case ISA_OP_MBARRIER_TRY_WAIT: {
        bool tr = in->op == ISA_OP_MBARRIER_TRY_WAIT;
        if (in->nopd < 3 || in->nopd > 3u + tr || cluster || (sem >= 0 && sem != ISA_M_ACQUIRE && sem != ISA_M_RELAXED))
            return false;
        if (mode >= 0 && mode != ISA_M_PARITY)
            return false;
        if (mode == ISA_M_PARITY)
            x->flags |= MB_PARITY;
        if (tr)
            x->flags |= MB_TRY;
        if (o[0].kind == ISA_OPD_SINK)
            x->o[0] = ISA_NONE;
        else if (!reg_of(f, &o[0], 0, &x->o[0]))
            return false;
        if (mode == ISA_M_PARITY) {
            if (!u32_src(pd, f, &o[2], &x->o[2]))
                return false;
        } else if (!reg_of(f, &o[2], 8, &x->o[2])) {
            return false;
        }
        /* try_wait's suspend-time hint only bounds how long the hardware may wait. */
        if (in->nopd == 4 && !u32_src(pd, f, &o[3], &x->o[3]))
            return false;
        if (spin_only(f->ir, (uint32_t)(in - f->ir->instrs)))
            x->flags |= MB_SPIN;
        x->desc = mb_wait_d;
        return true;
    }
    case ISA_OP_MBARRIER_PENDING_COUNT:
        if (in->nopd != 2 || in->nsfx != 1 || !reg_of(f, &o[0], 4, &x->o[0]) || !reg_of(f, &o[1], 8, &x->o[2]))
            return false;
        x->desc = mb_pending_d;
        return true;
    default:
        return false;
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * cp.async{.ca,.cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}:
 * copied at issue; bytes of cp-size beyond src-size (all of them when ignore-src is
 * true) are zeros.  x->o[1] dst, o[4] src registers (flags CP_DB32, CP_SB32), x->imm the
 * dst offset, aux: the src offset (low 32 bits, signed), cp-size (bits 32-39); o[2] the
 * src-size or the ignore-src predicate (CP_IGNORE, CP_IGNORE_NEG).
 *
 * cp.async.mbarrier.arrive{.noinc}: the arrive-on happens when the thread's earlier
 * copies are complete, which they are; without .noinc the pending count is raised first,
 * so that the two cancel out.  commit_group and wait_group have nothing to wait for.
 *====================================================================*/
#define CP_DB32       0x01
#define CP_SB32       0x02
#define CP_IGNORE     0x04
#define CP_IGNORE_NEG 0x08

#define AS_LANES(mask, ...)                                                                      \
    for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {                                               \
        unsigned l = (unsigned)__builtin_ctz(m_);                                                \
        __VA_ARGS__;                                                                             \
    }
/* The common cp.async (no src-size, no ignore-src): every lane's source aligned in one
 * registered global range and its destination aligned in the CTA's own shared memory;
 * then the copies, without a lookup per lane.  false: the general path decides. */
static inline bool cp_async_fast(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask, unsigned size,
                                 int64_t soff)
{
    ex_cta_t *c = w->cta;
    uint64_t src[ISA_LANES], lo = UINT64_MAX, hi = 0, bits = 0, dhigh = 0;
    uint32_t dst[ISA_LANES], dhi = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t da = ex_addr_lane(f, x->o[1], x->flags & CP_DB32, x->imm, l) - c->shared_base;
        uint64_t sa = ex_addr_lane(f, x->o[4], x->flags & CP_SB32, soff, l);
        src[l] = sa;
        dst[l] = (uint32_t)da;
        bits |= sa | da;
        dhigh |= da >> 32;             /* below the CTA's base, or beyond 32 bits */
        lo = sa < lo ? sa : lo;
        hi = sa > hi ? sa : hi;
        dhi = (uint32_t)da > dhi ? (uint32_t)da : dhi;
    }
    if ((bits & ((uint64_t)size - 1)) || dhigh || (uint64_t)dhi + size > c->shared_size || !mask)
        return false;
    ex_grange_t *gc = &w->gcache[((uintptr_t)x / sizeof *x) % EX_GCACHE];
    if (!(lo >= gc->lo && hi + size <= gc->hi) &&
        (!ex_global_range(c->p, (uintptr_t)lo, &gc->lo, &gc->hi) || hi + size > gc->hi))
        return false;
    uint8_t *sm = c->shared;
    switch (size) {
    case 4:  AS_LANES(mask, memcpy(sm + dst[l], (const void *)(uintptr_t)src[l], 4)); break;
    case 8:  AS_LANES(mask, memcpy(sm + dst[l], (const void *)(uintptr_t)src[l], 8)); break;
    default: AS_LANES(mask, memmove(sm + dst[l], (const void *)(uintptr_t)src[l], 16)); break;
    }
    return true;
}

static int cp_async_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned size = (unsigned)(x->aux >> 32 & 0xff);
    int64_t soff = (int32_t)(uint32_t)x->aux;
    if (!(x->flags & CP_IGNORE) && x->o[2] == ISA_NONE && cp_async_fast(w, f, x, mask, size, soff))
        return ISA_X_NEXT;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t da = ex_addr_lane(f, x->o[1], x->flags & CP_DB32, x->imm, l);
        uint64_t sa = ex_addr_lane(f, x->o[4], x->flags & CP_SB32, soff, l);
        unsigned n = size;
        if (x->flags & CP_IGNORE) {
            bool ign = (ISA_SLOT(const uint32_t, f, x->o[2])[0] >> l) & 1;
            if (x->flags & CP_IGNORE_NEG)
                ign = !ign;
            n = ign ? 0 : size;
        } else if (x->o[2] != ISA_NONE) {
            uint32_t s = ISA_SLOT(const uint32_t, f, x->o[2])[l];
            if (s > size) {
                snprintf(w->fault_buf, sizeof w->fault_buf, "cp.async src-size %u larger than cp-size %u", s, size);
                return as_fault(w, x, l, sa, EX_FAULT_ILLEGAL, w->fault_buf);
            }
            n = s;
        }
        uint8_t *d = as_mem(w, l, ISA_SP_SHARED, da, size, size, ISA_SP_SHARED, x);
        if (!d)
            return ISA_X_FAULT;
        if (n) {
            const uint8_t *s = as_mem(w, l, ISA_SP_GLOBAL, sa, n, size, ISA_SP_GLOBAL, x);
            if (!s)
                return ISA_X_FAULT;
            memmove(d, s, n);
        }
        memset(d + n, 0, size - n);
    }
    return ISA_X_NEXT;
}

static int cp_mbarrier_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    if (!x->aux)
        return ISA_X_NEXT;          /* raised by one, then arrived on: no change */
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t *p = mb_at(w, f, x, l);
        if (!p)
            return ISA_X_FAULT;
        int r = mb_arrive_lane(w, x, l, p, 1, 0, false, false);
        if (r != ISA_X_NEXT)
            return r;
    }
    return ISA_X_NEXT;
}

static int cp_nop_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    (void)f;
    (void)x;
    (void)mask;
    return ISA_X_NEXT;
}

static const isa_xdesc_t cp_async_d[1] = { { cp_async_f, { 0 }, ISA_OPDF_NEG } };
static const isa_xdesc_t cp_mbarrier_d[1] = { { cp_mbarrier_f, { 0 }, 0 } };
static const isa_xdesc_t cp_nop_d[1] = { { cp_nop_f, { 0 }, 0 } };

/* A cache policy operand: a 64-bit register (a hint that changes no result). */
static bool policy_ok(ex_func_t *f, const isa_operand_t *o)
{
    uint32_t s;
    return reg_of(f, o, 8, &s);
}

static bool select_cp_async(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int cache = isa_instr_mod(in, ISA_G_CACHE), pf = isa_instr_mod(in, ISA_G_PREFETCH);
    bool hint = isa_instr_has(in, ISA_M_L2_CACHE_HINT);
    int s0 = isa_instr_space(in, 0), s1 = isa_instr_space(in, 1);
    unsigned known = (cache >= 0) + (pf >= 0) + hint + (s0 >= 0) + (s1 >= 0);
    if (in->nsfx != known || (cache != ISA_M_CA && cache != ISA_M_CG) || s0 < 0 || s1 != ISA_SP_GLOBAL ||
        (s0 != ISA_SP_SHARED && s0 != ISA_SP_SHARED_CTA))
        return false;
    unsigned n = in->nopd - hint;
    if (n < 3 || n > 4 || (hint && !policy_ok(f, &o[in->nopd - 1])))
        return false;
    ex_addrop_t d, s;
    if (!ex_pd_address(pd, f, &o[0], s0, &d) || !ex_pd_address(pd, f, &o[1], s1, &s) || d.space != ISA_SP_SHARED ||
        s.space != ISA_SP_GLOBAL || s.off != (int32_t)s.off)
        return false;
    if (o[2].kind != ISA_OPD_IMM || (o[2].imm != 4 && o[2].imm != 8 && o[2].imm != 16) ||
        (cache == ISA_M_CG && o[2].imm != 16))
        return false;
    x->o[1] = d.slot;
    x->imm = d.off;
    x->o[4] = s.slot;
    x->flags |= (d.b32 ? CP_DB32 : 0) | (s.b32 ? CP_SB32 : 0);
    x->aux = (uint64_t)(uint32_t)(int32_t)s.off | (uint64_t)o[2].imm << 32;
    x->o[2] = ISA_NONE;
    if (n == 4) {
        const isa_operand_t *z = &o[3];
        if (z->kind == ISA_OPD_REG && ex_reg_width(f, z) == 0) {
            uint32_t slot;
            if (!reg_of(f, z, 0, &slot))
                return false;
            x->o[2] = slot;
            x->flags |= CP_IGNORE | ((z->flags & ISA_OPDF_NEG) ? CP_IGNORE_NEG : 0);
        } else if (!(z->flags & ISA_OPDF_NEG) && u32_src(pd, f, z, &x->o[2])) {
            if (z->kind == ISA_OPD_IMM && (uint64_t)z->imm > (uint64_t)o[2].imm)
                return false;     /* a constant src-size larger than cp-size */
        } else {
            return false;
        }
    }
    x->desc = cp_async_d;
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * cp.async.bulk (not .tensor): size bytes (a multiple of 16, 16-byte aligned addresses)
 * copied at issue, lane after lane:
 *   .shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
 *     (also .shared::cta as the destination; .multicast::cluster to the one CTA of the
 *     cluster when its mask names it): then complete_tx of size on the mbarrier;
 *   .shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar];
 *   .global.shared::cta.bulk_group [dst], [src], size (with .cp_mask, a byte mask).
 * x->o[1] dst, o[4] src, o[5] mbar registers (flags BK_DB32, BK_SB32, BK_MB32), o[2]
 * the size, o[3] the byte mask or the CTA mask; x->imm the dst offset; aux: the src
 * offset (low 32 bits), the mbar offset (high 32 bits); x->vec: BK_G2S, BK_S2S, BK_S2G;
 * x->width: the dst space (ISA_SP_SHARED or ISA_SP_GLOBAL).
 *====================================================================*/
#define BK_DB32  0x01
#define BK_SB32  0x02
#define BK_MB32  0x04
#define BK_MCAST 0x08
#define BK_MASK  0x10
enum { BK_G2S, BK_S2S, BK_S2G };

/* The CTAs a multicast copy delivers to: the mask's ranks that the cluster has (a mask
 * names up to 16 CTAs); a copy that is not multicast goes to its address's CTA. */
static uint32_t mcast_ranks(ex_warp_t *w, uint16_t ctamask)
{
    uint32_t n = w->cta->cluster ? w->cta->cluster->n : 1;
    return ctamask & (uint32_t)((1ull << n) - 1);
}
/* The same shared::cluster address in the CTA of rank r. */
static inline uint64_t rank_addr(uint64_t a, unsigned r)
{
    return (a & ~0xff000000ull) | (uint64_t)r << 24;
}

static int bulk_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t size = ISA_SLOT(const uint32_t, f, x->o[2])[l];
        uint64_t da = ex_addr_lane(f, x->o[1], x->flags & BK_DB32, x->imm, l);
        uint64_t sa = ex_addr_lane(f, x->o[4], x->flags & BK_SB32, (int32_t)(uint32_t)x->aux, l);
        if (size % 16) {
            snprintf(w->fault_buf, sizeof w->fault_buf, "cp.async.bulk size %u is not a multiple of 16", size);
            return as_fault(w, x, l, sa, EX_FAULT_ILLEGAL, w->fault_buf);
        }
        bool s2g = x->vec == BK_S2G, mc = x->flags & BK_MCAST;
        const uint8_t *s = NULL;
        if (size) {
            s = as_mem(w, l, x->vec == BK_G2S ? ISA_SP_GLOBAL : ISA_SP_SHARED, sa, size, 16,
                       x->vec == BK_G2S ? ISA_SP_GLOBAL : ISA_SP_SHARED, x);
            if (!s)
                return ISA_X_FAULT;
        }
        uint32_t ranks = mc ? mcast_ranks(w, ISA_SLOT(const uint16_t, f, x->o[3])[l]) : 1;
        for (; ranks; ranks &= ranks - 1) {
            uint64_t dr = mc ? rank_addr(da, (unsigned)__builtin_ctz(ranks)) : da;
            if (size) {
                uint8_t *d = as_mem(w, l, s2g ? ISA_SP_GLOBAL : ISA_SP_SHARED, dr, size, 16,
                                    s2g ? ISA_SP_GLOBAL : ISA_SP_SHARED, x);
                if (!d)
                    return ISA_X_FAULT;
                if (x->flags & BK_MASK) {
                    uint16_t bm = ISA_SLOT(const uint16_t, f, x->o[3])[l];
                    for (uint32_t i = 0; i < size; i++)
                        if ((bm >> (i % 16)) & 1)
                            d[i] = s[i];
                } else {
                    memmove(d, s, size);
                }
            }
            if (!s2g) {
                uint64_t ma = ex_addr_lane(f, x->o[5], x->flags & BK_MB32, (int32_t)(uint32_t)(x->aux >> 32), l);
                if (mc)
                    ma = rank_addr(ma, (unsigned)__builtin_ctz(ranks));
                int r = mb_complete_at(w, x, l, ma, size);
                if (r != ISA_X_NEXT)
                    return r;
            }
        }
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t bulk_d[1] = { { bulk_f, { 0 }, 0 } };

static bool select_bulk(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int s0 = isa_instr_space(in, 0), s1 = isa_instr_space(in, 1), comp = isa_instr_mod(in, ISA_G_COMPLETION);
    int mc = isa_instr_mod(in, ISA_G_MULTICAST), mode = isa_instr_mod(in, ISA_G_MODE);
    bool hint = isa_instr_has(in, ISA_M_L2_CACHE_HINT);
    unsigned known = (s0 >= 0) + (s1 >= 0) + (comp >= 0) + (mc >= 0) + (mode >= 0) + hint;
    if (in->nsfx != known || s0 < 0 || s1 < 0 || comp < 0 || isa_instr_space(in, 2) >= 0)
        return false;
    bool dsh = s0 == ISA_SP_SHARED_CLUSTER || s0 == ISA_SP_SHARED_CTA;
    if (dsh && s1 == ISA_SP_GLOBAL && comp == ISA_M_MBARRIER_COMPLETE_TX_BYTES && mode < 0) {
        x->vec = BK_G2S;
        if (mc >= 0)
            x->flags |= BK_MCAST;
    } else if (s0 == ISA_SP_SHARED_CLUSTER && s1 == ISA_SP_SHARED_CTA && comp == ISA_M_MBARRIER_COMPLETE_TX_BYTES &&
               mc < 0 && mode < 0 && !hint) {
        x->vec = BK_S2S;
    } else if (s0 == ISA_SP_GLOBAL && s1 == ISA_SP_SHARED_CTA && comp == ISA_M_BULK_GROUP && mc < 0 &&
               (mode < 0 || mode == ISA_M_CP_MASK)) {
        x->vec = BK_S2G;
        if (mode == ISA_M_CP_MASK)
            x->flags |= BK_MASK;
    } else {
        return false;
    }
    /* Operands: [dst], [src], size, then [mbar] (to shared), the CTA mask (multicast),
     * the policy (hint), the byte mask (cp_mask). */
    unsigned want = 3u + (x->vec != BK_S2G) + (mc >= 0) + hint + ((x->flags & BK_MASK) != 0);
    if (in->nopd != want)
        return false;
    ex_addrop_t d, s;
    if (!ex_pd_address(pd, f, &o[0], s0, &d) || !ex_pd_address(pd, f, &o[1], s1, &s) || s.off != (int32_t)s.off)
        return false;
    if (!u32_src(pd, f, &o[2], &x->o[2]))
        return false;
    unsigned k = 3;
    if (x->vec != BK_S2G) {
        ex_addrop_t mb;
        if (!ex_pd_address(pd, f, &o[k++], ISA_SP_SHARED, &mb) || mb.space != ISA_SP_SHARED || mb.off != (int32_t)mb.off)
            return false;
        x->o[5] = mb.slot;
        x->flags |= mb.b32 ? BK_MB32 : 0;
        x->aux = (uint64_t)(uint32_t)(int32_t)mb.off << 32;
    }
    if (mc >= 0 && (o[k].kind != ISA_OPD_REG || ex_reg_width(f, &o[k]) != 2 || !reg_of(f, &o[k++], 2, &x->o[3])))
        return false;
    if (hint && !policy_ok(f, &o[k++]))
        return false;
    if ((x->flags & BK_MASK) && (o[k].kind != ISA_OPD_REG || !reg_of(f, &o[k++], 2, &x->o[3])))
        return false;
    x->o[1] = d.slot;
    x->imm = d.off;
    x->o[4] = s.slot;
    x->flags |= (d.b32 ? BK_DB32 : 0) | (s.b32 ? BK_SB32 : 0);
    x->aux |= (uint32_t)(int32_t)s.off;
    x->desc = bulk_d;
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * cp.async.bulk.tensor (tile mode): a box of a tensor map's tensor copied between global
 * and shared memory at issue, lane after lane:
 *   .Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [map, {c...}], [mbar]
 *     (also .shared::cta as the destination; .multicast::cluster to the CTAs of the
 *     cluster its mask names): elements outside the tensor read zero (the NaN fill's
 *     pattern with it), then complete_tx of the box's bytes on each one's mbarrier;
 *   .Nd.global.shared::cta.tile.bulk_group [map, {c...}], [src]: elements outside the
 *     tensor are not written, but for those sharing a 16-byte piece with one inside.
 * The box is boxDim[0] elements along dimension 0 and boxDim[i] / elementStrides[i]
 * (rounded up) along dimension i > 0, every elementStrides[i]-th from coordinate c[i]; in
 * shared memory rows of dimension 0 one after another, each padded to the swizzle's span
 * when the map has one, whose 16-byte chunks the swizzle exchanges by the XOR of address
 * bits 4-6 with bits 7-9 (128B; bits 4-5 and 7-8 for 64B, bit 4 and bit 7 for 32B).  All
 * as measured on the H100 (app test tma_fuzz).
 * x->o[1] the shared address (dst or src), o[4] the map's address register, o[5] the
 * mbarrier's; x->target the coordinates' pool index, x->vec the rank; aux: bit 0 store,
 * bit 1 multicast (o[3] the CTA mask), bits 8-15 the flags of the 32-bit address registers.
 *====================================================================*/
#define TM_STORE 0x1
#define TM_MCAST 0x2
#define TM_IM2COL 0x4
#define TM_REDUCE 0x8   /* cp.reduce.async.bulk.tensor: bits 16-31 the operation (ATOMOP) */

/* One element of memory q (eb bytes) combined with b by fn, atomically as red does. */
static bool cas_elem(uint8_t *q, unsigned eb, isa_atom_fn_t fn, uint64_t b)
{
    switch (eb) {
    case 2: {
        uint16_t old = __atomic_load_n((uint16_t *)q, __ATOMIC_RELAXED), nw;
        do
            nw = (uint16_t)fn(old, b, 0);
        while (!__atomic_compare_exchange_n((uint16_t *)q, &old, nw, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
        return true;
    }
    case 4: {
        uint32_t old = __atomic_load_n((uint32_t *)q, __ATOMIC_RELAXED), nw;
        do
            nw = (uint32_t)fn(old, b, 0);
        while (!__atomic_compare_exchange_n((uint32_t *)q, &old, nw, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
        return true;
    }
    case 8: {
        uint64_t old = __atomic_load_n((uint64_t *)q, __ATOMIC_RELAXED), nw;
        do
            nw = fn(old, b, 0);
        while (!__atomic_compare_exchange_n((uint64_t *)q, &old, nw, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
        return true;
    }
    default:
        return false;
    }
}

/* An element outside the tensor: zero, or with the NaN fill the 16-bit pattern 0x7ff7
 * repeated, whatever the element type (measured: f16 0x7ff7, f32 0x7ff77ff7, f64
 * 0x7ff77ff77ff77ff7). */
static void oob_fill(uint8_t *sp, const ex_tensormap_t *t)
{
    for (unsigned i = 0; i < t->esize; i++)
        sp[i] = t->oob_nan ? (i & 1 ? 0x7f : 0xf7) : 0;
}

/* One element read from the tensor into shared memory.  The TF32 types (with or without
 * _FTZ; also a map made with one whose type tensormap.replace changed to f32) round the
 * f32 to TF32's 10 fraction bits, to nearest even, and a NaN becomes
 * 0x7fffe000 (measured on random data and edge values; subnormals stay, also with _FTZ);
 * the other types copy their bits. */
static void load_elem(uint8_t *sp, const uint8_t *gp, const ex_tensormap_t *t)
{
    memcpy(sp, gp, t->esize);
    if (!t->tf32)
        return;
    uint32_t u;
    memcpy(&u, sp, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        u = 0x7fffe000u;
    else if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0xfffu + ((u >> 13) & 1)) & ~0x1fffu;
    memcpy(sp, &u, 4);
}

/* The shared memory a load writes: the box at shared address sa in each CTA of ranks (a
 * multicast; otherwise sa's own CTA), extent bytes from sa there. */
typedef struct {
    uint8_t *p[16];
    unsigned n;
} tm_dst_t;

static int tm_dests(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, uint64_t sa, uint64_t extent, uint32_t ranks,
                    bool mc, tm_dst_t *d)
{
    d->n = 0;
    for (; ranks && d->n < 16; ranks &= ranks - 1) {
        uint64_t a = mc ? rank_addr(sa, (unsigned)__builtin_ctz(ranks)) : sa;
        uint8_t *o = as_mem(w, l, ISA_SP_SHARED, a, (unsigned)extent, 128, ISA_SP_SHARED, x);
        if (!o)
            return ISA_X_FAULT;
        d->p[d->n++] = o;
    }
    return ISA_X_NEXT;
}

/* complete_tx of a load's bytes on the mbarrier of each CTA of ranks. */
static int tm_complete(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, unsigned l, uint64_t bytes, uint32_t ranks,
                       bool mc, unsigned b32)
{
    for (; ranks; ranks &= ranks - 1) {
        uint64_t mba = ex_addr_lane(f, x->o[5], b32 & 4, (int32_t)(uint32_t)(x->aux >> 32), l);
        if (mc)
            mba = rank_addr(mba, (unsigned)__builtin_ctz(ranks));
        int rr = mb_complete_at(w, x, l, mba, bytes);
        if (rr != ISA_X_NEXT)
            return rr;
    }
    return ISA_X_NEXT;
}

/* The offset from the box's start of byte b of its row r in shared memory: rows lie at
 * multiples of pitch; a swizzle (smask: the address bits 7.. it reads) exchanges 16-byte
 * chunks by the XOR of address bits 4.. with bits 7.., of the shared-window offset sbase
 * of the box plus the offset. */
static inline uint64_t tm_offset(uint64_t sbase, uint64_t r, uint64_t pitch, uint64_t b, unsigned smask)
{
    uint64_t so = sbase + r * pitch + b;
    return (so ^ (((so >> 7) & smask) << 4)) - sbase;
}

/* The bytes between rows of a box of rowb bytes a row in shared memory: with a swizzle
 * each row is padded to the swizzle's span (measured: a 16-byte row of a 128-byte swizzle
 * lies every 128 bytes, the padding left as it was), otherwise rows are dense. */
static inline uint64_t tm_pitch(const ex_tensormap_t *t, uint64_t rowb)
{
    return t->swizzle ? 16u << t->swizzle : rowb;
}

/* One lane's im2col load (as measured on the H100, app test tma_im2col): the position
 * starts at the coordinates' spatial part; each pixel reads the channels c[0] .. c[0] +
 * channels - 1 of the image c[rank - 1] at the position plus the im2col offsets; the
 * position then steps along dimension 1 by its element stride, and past dims + upper it
 * returns to lower and steps dimension 2, and so on, then the next image.  Elements outside
 * the tensor read zero (NaN with the NaN fill).  Pixels are rows of shared memory, padded
 * and swizzled as tile mode's rows. */
static int im2col_lane(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, const ex_func_t *fn, unsigned l,
                       const ex_tensormap_t *t, uint32_t ranks, bool mc, unsigned b32)
{
    unsigned ns = t->rank - 2u;
    int64_t c[5] = { 0 }, pos[3] = { 0 }, off[3] = { 0 };
    for (unsigned i = 0; i < t->rank; i++)
        c[i] = (int32_t)ISA_SLOT(const uint32_t, f, fn->opd_slot[x->target + i])[l];
    for (unsigned i = 0; i < ns; i++) {
        pos[i] = c[1 + i];
        off[i] = (int16_t)ISA_SLOT(const uint16_t, f, fn->opd_slot[x->o[2] + i])[l];
    }
    /* A start outside the bounding box (lower .. dims - 1 + upper) of a spatial dimension
     * is an illegal instruction (measured on random maps: 522 of 522, none inside). */
    for (unsigned i = 0; i < ns; i++)
        if (pos[i] < t->lower[i] || pos[i] > (int64_t)t->dims[1 + i] - 1 + t->upper[i]) {
            snprintf(w->fault_buf, sizeof w->fault_buf,
                     "cp.async.bulk.tensor .im2col starting at %lld in dimension %u, outside the map's bounding box "
                     "%d .. %lld",
                     (long long)pos[i], 1 + i, t->lower[i], (long long)t->dims[1 + i] - 1 + t->upper[i]);
            return as_fault(w, x, l, ex_addr_lane(f, x->o[4], b32 & 1, 0, l), EX_FAULT_ILLEGAL, w->fault_buf);
        }
    int64_t img = c[t->rank - 1];
    uint64_t rowb = (uint64_t)t->channels * t->esize, pitch = tm_pitch(t, rowb);
    uint64_t total = rowb * t->pixels, extent = t->swizzle ? pitch * t->pixels : total;
    uint64_t sa = ex_addr_lane(f, x->o[1], b32 & 2, x->imm, l);
    if (ranks == 0)
        return ISA_X_NEXT;
    tm_dst_t d;
    if (tm_dests(w, x, l, sa, extent, ranks, mc, &d) != ISA_X_NEXT)
        return ISA_X_FAULT;
    uint64_t sbase = (mc ? rank_addr(sa, (unsigned)__builtin_ctz(ranks)) : sa) & 0xffffff;
    unsigned smask = t->swizzle ? (1u << t->swizzle) - 1 : 0;
    for (unsigned p = 0; p < t->pixels; p++) {
        bool in = img >= 0 && (uint64_t)img < t->dims[t->rank - 1];
        uint64_t poff = (uint64_t)img * t->strides[t->rank - 2];
        for (unsigned i = 0; i < ns && in; i++) {
            int64_t g = pos[i] + off[i];
            in = g >= 0 && (uint64_t)g < t->dims[1 + i];
            poff += (uint64_t)g * t->strides[i];
        }
        for (unsigned k = 0; k < t->channels; k++) {
            uint64_t so = tm_offset(sbase, p, pitch, (uint64_t)k * t->esize, smask);
            int64_t ch = c[0] + k;
            const uint8_t *gp = NULL;
            if (in && ch >= 0 && (uint64_t)ch < t->dims[0]) {
                gp = as_mem(w, l, ISA_SP_GLOBAL, t->addr + poff + (uint64_t)ch * t->esize, t->esize, t->esize,
                            ISA_SP_GLOBAL, x);
                if (!gp)
                    return ISA_X_FAULT;
            }
            for (unsigned j = 0; j < d.n; j++)
                if (gp)
                    load_elem(d.p[j] + so, gp, t);
                else
                    oob_fill(d.p[j] + so, t);
        }
        /* the next position: dimension 1 first, wrapping through lower .. dims - 1 + upper */
        unsigned i = 0;
        for (;;) {
            if (i == ns) {
                img += t->estr[t->rank - 1];
                break;
            }
            pos[i] += t->estr[1 + i];
            if (pos[i] <= (int64_t)t->dims[1 + i] - 1 + t->upper[i])
                break;
            pos[i] = t->lower[i];
            i++;
        }
    }
    return tm_complete(w, f, x, l, total, ranks, mc, b32);
}

/* The element type of a tensor reduction with operation op on a map of data type dt, or
 * ISA_T_NONE where the H100 raises an illegal instruction (measured, app test tma_fuzz):
 * add on u32, s32, u64 and every float type, the TF32 and FTZ ones as f32; min and max on
 * u32, s32, u64, s64, f16, bf16; inc and dec on u32; and, or, xor on u32, s32, u64. */
static isa_type_t tm_red_type(unsigned op, unsigned dt)
{
    static const isa_type_t add[13] = { ISA_T_NONE, ISA_T_NONE, ISA_T_U32, ISA_T_S32, ISA_T_U64, ISA_T_NONE, ISA_T_F16,
                                        ISA_T_F32, ISA_T_F64, ISA_T_BF16, ISA_T_F32, ISA_T_F32, ISA_T_F32 };
    static const isa_type_t minmax[13] = { ISA_T_NONE, ISA_T_NONE, ISA_T_U32, ISA_T_S32, ISA_T_U64, ISA_T_S64, ISA_T_F16,
                                           ISA_T_NONE, ISA_T_NONE, ISA_T_BF16, ISA_T_NONE, ISA_T_NONE, ISA_T_NONE };
    if (dt >= 13)
        return ISA_T_NONE;
    switch (op) {
    case ISA_M_ADD:
        return add[dt];
    case ISA_M_MIN:
    case ISA_M_MAX:
        return minmax[dt];
    case ISA_M_INC:
    case ISA_M_DEC:
        return dt == 2 ? ISA_T_U32 : ISA_T_NONE;
    case ISA_M_AND:
    case ISA_M_OR:
    case ISA_M_XOR:
        return dt == 2 || dt == 3 ? ISA_T_B32 : dt == 4 ? ISA_T_B64 : ISA_T_NONE;
    default:
        return ISA_T_NONE;
    }
}

/* What is wrong with a tensor map's fields (which tensormap.replace may have set to
 * anything), or NULL; sets its element size from its data type. */
static const char *tm_invalid(ex_tensormap_t *t)
{
    t->esize = (uint8_t)ex_tmap_esize(t->dtype);
    if (!t->esize)
        return "element type is not one of sm_90's (the packed sub-byte types are not emulated)";
    /* measured: a map made with a TF32 type whose type tensormap.replace changed is an
     * illegal instruction on the H100 unless it is f32 or its _FTZ form, which then load
     * rounded to TF32 */
    if (t->tf32 && t->dtype != 7 && t->dtype < 10)
        return "element type was changed from TF32 to one the H100 refuses";
    if (t->rank < 1 || t->rank > 5)
        return "rank is not 1 to 5";
    if (t->interleave)
        return "layout is interleaved (not emulated)";
    if (t->swizzle > 3)
        return "swizzle mode is not one of sm_90's";
    if (t->oob_nan > 1)
        return "fill mode is not zero or NaN";
    for (unsigned i = 0; i < t->rank; i++) {
        if (!t->im2col && (t->box[i] < 1 || t->box[i] > 256))
            return "box dimension is not 1 to 256";
        if (t->estr[i] < 1 || t->estr[i] > 8)
            return "element stride is not 1 to 8";
        if (t->dims[i] < 1)
            return "global dimension is 0";
    }
    return NULL;
}

static int tensor_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const ex_func_t *fn = ex_top(w)->fn;
    bool store = x->aux & TM_STORE;
    unsigned b32 = (unsigned)(x->aux >> 8) & 0xff;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t ma = ex_addr_lane(f, x->o[4], b32 & 1, 0, l);
        const ex_tensormap_t *tp = as_mem(w, l, EX_SP_GENERIC, ma, sizeof *tp, 64, ISA_SP_NONE, x);
        if (!tp)
            return ISA_X_FAULT;
        ex_tensormap_t t;
        memcpy(&t, tp, sizeof t);
        if (t.magic != EX_TMAP_MAGIC)
            return as_fault(w, x, l, ma, EX_FAULT_ILLEGAL, "the operand is no tensor map (cuTensorMapEncodeTiled makes them)");
        const char *bad = tm_invalid(&t);
        if (bad) {
            snprintf(w->fault_buf, sizeof w->fault_buf, "a tensor map whose %s (as tensormap.replace wrote it)", bad);
            return as_fault(w, x, l, ma, EX_FAULT_ILLEGAL, w->fault_buf);
        }
        if (t.rank != x->vec) {
            snprintf(w->fault_buf, sizeof w->fault_buf, "a tensor map of rank %u used by a .%ud copy", t.rank, x->vec);
            return as_fault(w, x, l, ma, EX_FAULT_ILLEGAL, w->fault_buf);
        }
        bool mc = x->aux & TM_MCAST;
        uint32_t ranks = mc ? mcast_ranks(w, ISA_SLOT(const uint16_t, f, x->o[3])[l]) : 1;
        bool deliver = ranks != 0;
        isa_atom_fn_t red_fn = NULL;
        if (x->aux & TM_REDUCE) {
            unsigned op = (unsigned)(x->aux >> 16) & 0xffff;
            isa_type_t et = tm_red_type(op, t.dtype);
            /* f32 adds keep subnormals, as shared memory's atom does, but those of the _FTZ
             * types flush them as global memory's (measured) */
            bool ftz = t.dtype == 10 || t.dtype == 12;
            unsigned fi = et != ISA_T_NONE ? isa_sem_atom(op, et, et != ISA_T_F32 || ftz) : 0;
            if (!fi) {
                snprintf(w->fault_buf, sizeof w->fault_buf,
                         "cp.reduce.async.bulk.tensor .%s on a tensor map of data type %u (the H100 has no such reduction)",
                         isa_mods[op].text, t.dtype);
                return as_fault(w, x, l, ma, EX_FAULT_ILLEGAL, w->fault_buf);
            }
            red_fn = isa_atom_fns[fi];
        }
        if (((x->aux & TM_IM2COL) != 0) != (t.im2col != 0))
            return as_fault(w, x, l, ma, EX_FAULT_ILLEGAL, t.im2col ? "an im2col tensor map used by a tile-mode copy"
                                                                     : "a tiled tensor map used by an im2col copy");
        if (t.im2col) {
            int r = im2col_lane(w, f, x, fn, l, &t, ranks, mc, b32);
            if (r != ISA_X_NEXT)
                return r;
            continue;
        }
        int64_t c[5] = { 0 };
        uint64_t n[5] = { 1, 1, 1, 1, 1 };
        for (unsigned i = 0; i < t.rank; i++) {
            c[i] = (int32_t)ISA_SLOT(const uint32_t, f, fn->opd_slot[x->target + i])[l];
            n[i] = (t.box[i] + t.estr[i] - 1) / t.estr[i];
        }
        /* The innermost element stride is not used: boxDim[0] elements in a row (measured
         * with strides 2 to 8, loads, stores and reductions). */
        n[0] = t.box[0];
        /* A store's or reduction's box must not start before the tensor (measured: app test
         * tma_reduce, boxes at (-4, -2) and (4, -2) are illegal instructions on the H100). */
        if (store)
            for (unsigned i = 0; i < t.rank; i++)
                if (c[i] < 0) {
                    snprintf(w->fault_buf, sizeof w->fault_buf,
                             "%s box at coordinate %lld of dimension %u, before the tensor",
                             red_fn ? "cp.reduce.async.bulk.tensor" : "cp.async.bulk.tensor store", (long long)c[i], i);
                    return as_fault(w, x, l, ma, EX_FAULT_ILLEGAL, w->fault_buf);
                }
        /* The H100 raises an illegal instruction for a box whose innermost coordinate is
         * not at a 16-byte boundary (tests/apps/tma.cu: x = -3 and x = 29 of f32 maps). */
        if ((c[0] * t.esize) % 16) {
            snprintf(w->fault_buf, sizeof w->fault_buf,
                     "cp.async.bulk.tensor box at innermost coordinate %lld: %lld bytes, not a multiple of 16",
                     (long long)c[0], (long long)(c[0] * t.esize));
            return as_fault(w, x, l, ma, EX_FAULT_ILLEGAL, w->fault_buf);
        }
        /* Rows of n[0] elements, padded to the swizzle's span; the bytes the mbarrier
         * receives are the rows' own. */
        uint64_t rows = n[1] * n[2] * n[3] * n[4], rowb = n[0] * t.esize, pitch = tm_pitch(&t, rowb);
        uint64_t total = rows * rowb, extent = t.swizzle ? rows * pitch : total;
        /* A store or reduction writes whole 16-byte pieces of a row: elements past the
         * tensor's innermost extent that share a piece with one inside are written too
         * (measured: 3 bytes of a u8 tensor take a box's first 16; 5 f32 its first 8). */
        uint64_t lim0 = store ? (t.dims[0] * t.esize + 15) / 16 * 16 / t.esize : t.dims[0];
        uint64_t sa = ex_addr_lane(f, x->o[1], b32 & 2, x->imm, l);
        tm_dst_t d = { .n = 0 };
        if (store) {   /* shared memory is checked element by element below */
            if (!as_mem(w, l, ISA_SP_SHARED, sa, 1, 128, ISA_SP_SHARED, x))
                return ISA_X_FAULT;
        } else if (!deliver) {
            continue;
        } else if (tm_dests(w, x, l, sa, extent, ranks, mc, &d) != ISA_X_NEXT) {
            return ISA_X_FAULT;
        }
        uint64_t sbase = (mc && deliver ? rank_addr(sa, (unsigned)__builtin_ctz(ranks)) : sa) & 0xffffff;
        unsigned smask = t.swizzle ? (1u << t.swizzle) - 1 : 0;
        uint64_t k[5];
        for (k[4] = 0; k[4] < n[4]; k[4]++)
            for (k[3] = 0; k[3] < n[3]; k[3]++)
                for (k[2] = 0; k[2] < n[2]; k[2]++)
                    for (k[1] = 0; k[1] < n[1]; k[1]++)
                        for (k[0] = 0; k[0] < n[0]; k[0]++) {
                            uint64_t row = ((k[4] * n[3] + k[3]) * n[2] + k[2]) * n[1] + k[1];
                            uint64_t so = tm_offset(sbase, row, pitch, k[0] * t.esize, smask);
                            bool in = true;
                            uint64_t off = 0;
                            for (unsigned i = 0; i < t.rank; i++) {
                                int64_t g = c[i] + (int64_t)(k[i] * (i ? t.estr[i] : 1));
                                if (g < 0 || (uint64_t)g >= (i ? t.dims[i] : lim0))
                                    in = false;
                                off += i == 0 ? (uint64_t)g * t.esize : (uint64_t)g * t.strides[i - 1];
                            }
                            if (!in) {
                                for (unsigned j = 0; j < d.n && !store; j++)
                                    oob_fill(d.p[j] + so, &t);
                                continue;
                            }
                            uint8_t *gp = as_mem(w, l, ISA_SP_GLOBAL, t.addr + off, t.esize, t.esize, ISA_SP_GLOBAL, x);
                            if (!gp)
                                return ISA_X_FAULT;
                            if (store) {
                                /* only the elements it writes are read: a box whose padded
                                 * rows pass the end of shared memory stores what lies inside
                                 * the tensor (measured) */
                                const uint8_t *sp = as_mem(w, l, ISA_SP_SHARED, sa + so, t.esize, 1, ISA_SP_SHARED, x);
                                if (!sp)
                                    return ISA_X_FAULT;
                                if (red_fn) {
                                    uint64_t b = 0;
                                    memcpy(&b, sp, t.esize);
                                    cas_elem(gp, t.esize, red_fn, b);
                                } else {
                                    memcpy(gp, sp, t.esize);
                                }
                            } else {
                                for (unsigned j = 0; j < d.n; j++)
                                    load_elem(d.p[j] + so, gp, &t);
                            }
                        }
        if (!store) {
            int rr = tm_complete(w, f, x, l, total, ranks, mc, b32);
            if (rr != ISA_X_NEXT)
                return rr;
        }
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t tensor_d[1] = { { tensor_f, { 0 }, 0 } };

/* The [map, {c...}] operand: the map's address register (64 bits, or 32) and rank
 * coordinates (32-bit registers or constants). */
static bool tmap_operand(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned rank, ex_insn_t *x, unsigned *b32)
{
    if (o->kind != ISA_OPD_ADDR || !(o->flags & ISA_OPDF_ADDRLIST) || o->count != 2)
        return false;
    const isa_operand_t *e0 = &f->ir->opds[o->u.first], *e1 = e0 + 1;
    unsigned w;
    if (e0->kind == ISA_OPD_REG) {
        x->o[4] = ex_reg_operand(f, e0, &w);
        if (x->o[4] == ISA_NONE || (w != 8 && w != 4))
            return false;
        *b32 |= w == 4 ? 1 : 0;
    } else if (e0->kind == ISA_OPD_SYM || (e0->kind == ISA_OPD_ADDR && e0->base == ISA_OPD_SYM)) {
        isa_operand_t s = *e0;
        s.kind = ISA_OPD_SYM;
        s.imm = 0;
        x->o[4] = ex_pd_operand(pd, &s, 8);
        if (x->o[4] == ISA_NONE)
            return false;
    } else {
        return false;
    }
    if (e1->kind != ISA_OPD_VEC || e1->count != rank)
        return false;
    for (unsigned k = 0; k < rank; k++) {
        const isa_operand_t *c = &f->ir->opds[e1->u.first + k];
        if (c->kind == ISA_OPD_REG && ex_reg_width(f, c) != 4)
            return false;
        uint32_t slot = (c->kind == ISA_OPD_REG || c->kind == ISA_OPD_IMM) ? ex_pd_operand(pd, c, 4) : ISA_NONE;
        if (slot == ISA_NONE)
            return false;
        f->opd_slot[e1->u.first + k] = slot;
    }
    x->target = e1->u.first;
    x->vec = (uint8_t)rank;
    return true;
}

static bool select_tensor(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int geom = isa_instr_mod(in, ISA_G_GEOM), lm = isa_instr_mod(in, ISA_G_LOADMODE);
    int comp = isa_instr_mod(in, ISA_G_COMPLETION), mc = isa_instr_mod(in, ISA_G_MULTICAST);
    int s0 = isa_instr_space(in, 0), s1 = isa_instr_space(in, 1);
    bool hint = isa_instr_has(in, ISA_M_L2_CACHE_HINT);
    bool red = in->op == ISA_OP_CP_REDUCE_ASYNC_BULK_TENSOR;
    int rop = isa_instr_mod(in, ISA_G_ATOMOP);
    unsigned known = (geom >= 0) + (lm >= 0) + (comp >= 0) + (mc >= 0) + (s0 >= 0) + (s1 >= 0) + hint + (rop >= 0);
    if (lm < 0)
        lm = ISA_M_TILE;   /* the load mode defaults to tile */
    if (in->nsfx != known || (lm != ISA_M_TILE && lm != ISA_M_IM2COL) || s0 < 0 || s1 < 0 ||
        isa_instr_space(in, 2) >= 0 || (red != (rop >= 0)) || (red && (lm != ISA_M_TILE || rop == ISA_M_CAS ||
        rop == ISA_M_EXCH)))
        return false;
    bool im2col = lm == ISA_M_IM2COL;
    unsigned rank = geom == ISA_M_GEOM_1D ? 1 : geom == ISA_M_GEOM_2D ? 2 : geom == ISA_M_GEOM_3D ? 3
                  : geom == ISA_M_GEOM_4D ? 4 : geom == ISA_M_GEOM_5D ? 5 : 0;
    if (!rank || (im2col && rank < 3))
        return false;
    unsigned b32 = 0;
    bool store;
    if ((s0 == ISA_SP_SHARED_CLUSTER || s0 == ISA_SP_SHARED_CTA) && s1 == ISA_SP_GLOBAL &&
        comp == ISA_M_MBARRIER_COMPLETE_TX_BYTES) {
        store = false;
    } else if (s0 == ISA_SP_GLOBAL && s1 == ISA_SP_SHARED_CTA && comp == ISA_M_BULK_GROUP && mc < 0 && !im2col) {
        store = true;
    } else if (red) {
        return false;
    } else {
        return false;
    }
    unsigned want = store ? 2u + hint : 3u + im2col + (mc >= 0) + hint;
    if (in->nopd != want)
        return false;
    ex_addrop_t sa;
    if (!tmap_operand(pd, f, &o[store ? 0 : 1], rank, x, &b32) ||
        !ex_pd_address(pd, f, &o[store ? 1 : 0], ISA_SP_SHARED, &sa) || sa.space != ISA_SP_SHARED)
        return false;
    x->o[1] = sa.slot;
    x->imm = sa.off;
    b32 |= sa.b32 ? 2 : 0;
    unsigned k = 2;
    if (!store) {
        ex_addrop_t mb;
        if (!ex_pd_address(pd, f, &o[k++], ISA_SP_SHARED, &mb) || mb.space != ISA_SP_SHARED || mb.off != (int32_t)mb.off)
            return false;
        x->o[5] = mb.slot;
        b32 |= mb.b32 ? 4 : 0;
        x->aux = (uint64_t)(uint32_t)(int32_t)mb.off << 32;
        if (im2col) {
            /* {off...}: rank - 2 16-bit offsets, their slots in the pool from o[2] */
            const isa_operand_t *v = &o[k++];
            if (v->kind != ISA_OPD_VEC || v->count != rank - 2)
                return false;
            for (unsigned i = 0; i < rank - 2; i++) {
                const isa_operand_t *e = &f->ir->opds[v->u.first + i];
                uint32_t slot = e->kind == ISA_OPD_REG && ex_reg_width(f, e) == 2 ? ex_pd_operand(pd, e, 2)
                              : e->kind == ISA_OPD_IMM ? ex_pd_operand(pd, e, 2) : ISA_NONE;
                if (slot == ISA_NONE)
                    return false;
                f->opd_slot[v->u.first + i] = slot;
            }
            x->o[2] = v->u.first;
            x->aux |= TM_IM2COL;
        }
        if (mc >= 0) {
            uint32_t slot;
            if (o[k].kind != ISA_OPD_REG || !reg_of(f, &o[k++], 2, &slot))
                return false;
            x->o[3] = slot;
            x->aux |= TM_MCAST;
        }
    } else {
        x->aux = TM_STORE;
        if (red)   /* the element function comes from the map's data type, when it runs */
            x->aux |= TM_REDUCE | (uint64_t)(unsigned)rop << 16;
    }
    if (hint && !policy_ok(f, &o[k++]))
        return false;
    x->aux |= (uint64_t)b32 << 8;
    x->desc = tensor_d;
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * cp.reduce.async.bulk (not .tensor): size bytes of elements of shared memory reduced
 * into global memory (.bulk_group) at issue, element after element with the atom/red
 * element functions (isa_atom_fns) in a host compare-and-swap per element, as red does.
 * The form into shared::cluster memory (.mbarrier::complete_tx::bytes) is an illegal
 * instruction on the H100 in a launch without clusters (measured), and so here: the
 * emulator's clusters have one CTA.  x->o[1] dst, o[4] src, o[5] mbar registers (flags
 * BK_*32), o[2] the size; x->imm the dst offset; aux: the src offset (low 32 bits), the
 * mbar offset (high 32 bits); x->width the element bytes, x->target the element
 * function's index, x->vec 1 for a global destination.
 *====================================================================*/
static int reduce_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned eb = x->width;
    isa_atom_fn_t fn = isa_atom_fns[x->target];
    if (!x->vec && !w->cta->explicit_cluster)   /* measured: golden bulk_reduce's notes */
        return as_fault(w, x, (unsigned)__builtin_ctz(mask), 0, EX_FAULT_ILLEGAL,
                        "cp.reduce.async.bulk into shared::cluster memory in a launch without clusters (an illegal "
                        "instruction on the H100)");
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t size = ISA_SLOT(const uint32_t, f, x->o[2])[l];
        uint64_t da = ex_addr_lane(f, x->o[1], x->flags & BK_DB32, x->imm, l);
        uint64_t sa = ex_addr_lane(f, x->o[4], x->flags & BK_SB32, (int32_t)(uint32_t)x->aux, l);
        if (size % 16) {
            snprintf(w->fault_buf, sizeof w->fault_buf, "cp.reduce.async.bulk size %u is not a multiple of 16", size);
            return as_fault(w, x, l, sa, EX_FAULT_ILLEGAL, w->fault_buf);
        }
        if (!size)
            continue;
        isa_space_t ds = x->vec ? ISA_SP_GLOBAL : ISA_SP_SHARED;
        uint8_t *d = size ? as_mem(w, l, ds, da, size, 16, ds, x) : NULL;
        if (size && !d)
            return ISA_X_FAULT;
        const uint8_t *s = size ? as_mem(w, l, ISA_SP_SHARED, sa, size, 16, ISA_SP_SHARED, x) : NULL;
        if (size && !s)
            return ISA_X_FAULT;
        for (uint32_t i = 0; i < size; i += eb) {
            uint64_t b = 0;
            memcpy(&b, s + i, eb);
            cas_elem(d + i, eb, fn, b);
        }
        if (!x->vec) {
            /* into another CTA's shared memory: complete_tx on its mbarrier */
            uint64_t ma = ex_addr_lane(f, x->o[5], x->flags & BK_MB32, (int32_t)(uint32_t)(x->aux >> 32), l);
            int r = mb_complete_at(w, x, l, ma, size);
            if (r != ISA_X_NEXT)
                return r;
        }
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t reduce_d[1] = { { reduce_f, { 0 }, 0 } };

static bool select_reduce(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int s0 = isa_instr_space(in, 0), s1 = isa_instr_space(in, 1), comp = isa_instr_mod(in, ISA_G_COMPLETION);
    int op = isa_instr_mod(in, ISA_G_ATOMOP), ftz = isa_instr_mod(in, ISA_G_FTZ);
    bool hint = isa_instr_has(in, ISA_M_L2_CACHE_HINT);
    unsigned known = 1u + (s0 >= 0) + (s1 >= 0) + (comp >= 0) + (op >= 0) + (ftz >= 0) + hint;
    if (in->nsfx != known || in->ntypes != 1 || op < 0 || (ftz >= 0 && ftz != ISA_M_NOFTZ) || s1 != ISA_SP_SHARED_CTA ||
        isa_instr_space(in, 2) >= 0)
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    unsigned eb = isa_types[t].bits / 8;
    bool glob;
    if (s0 == ISA_SP_GLOBAL && comp == ISA_M_BULK_GROUP)
        glob = true;
    else if (s0 == ISA_SP_SHARED_CLUSTER && comp == ISA_M_MBARRIER_COMPLETE_TX_BYTES && !hint)
        glob = false;
    else
        return false;
    if (op == ISA_M_CAS || op == ISA_M_EXCH || (eb != 2 && eb != 4 && eb != 8))
        return false;
    unsigned fi = isa_sem_atom((unsigned)op, t, glob);
    if (!fi)
        return false;
    if (in->nopd != 3u + !glob + hint)
        return false;
    ex_addrop_t d, s;
    if (!ex_pd_address(pd, f, &o[0], s0, &d) || !ex_pd_address(pd, f, &o[1], s1, &s) || s.off != (int32_t)s.off ||
        !u32_src(pd, f, &o[2], &x->o[2]))
        return false;
    x->aux = (uint32_t)(int32_t)s.off;
    if (!glob) {
        ex_addrop_t mb;
        if (!ex_pd_address(pd, f, &o[3], ISA_SP_SHARED, &mb) || mb.space != ISA_SP_SHARED || mb.off != (int32_t)mb.off)
            return false;
        x->o[5] = mb.slot;
        x->flags |= mb.b32 ? BK_MB32 : 0;
        x->aux |= (uint64_t)(uint32_t)(int32_t)mb.off << 32;
    }
    if (hint && !policy_ok(f, &o[in->nopd - 1]))
        return false;
    x->o[1] = d.slot;
    x->imm = d.off;
    x->o[4] = s.slot;
    x->flags |= (d.b32 ? BK_DB32 : 0) | (s.b32 ? BK_SB32 : 0);
    x->width = (uint8_t)eb;
    x->target = fi;
    x->vec = glob;
    x->desc = reduce_d;
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * st.async and red.async into shared::cluster memory (usually another CTA's), each
 * completing its bytes on an mbarrier of the destination's CTA:
 *   st.async{.weak}{.shared::cluster}.mbarrier::complete_tx::bytes{.v2,.v4}.type [a], b, [mbar]
 *   red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
 * x->o[1] the address, o[5] the mbarrier's (flags BK_DB32, BK_MB32), the data in o[0],
 * o[2], o[3], o[4] (st.async's elements; red.async's operand in o[2]); x->imm the address
 * offset, aux the mbarrier's (low 32 bits); x->width the element bytes, x->vec the
 * elements; x->target red.async's element function (isa_atom_fns).
 *====================================================================*/
static const uint8_t sa_data[4] = { 0, 2, 3, 4 };

static int st_async_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned eb = x->width, n = x->vec;
    bool red = x->target != 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t a = ex_addr_lane(f, x->o[1], x->flags & BK_DB32, x->imm, l);
        uint8_t *d = as_mem(w, l, ISA_SP_SHARED, a, eb * n, eb * n, ISA_SP_SHARED, x);
        if (!d)
            return ISA_X_FAULT;
        for (unsigned k = 0; k < n; k++) {
            const uint8_t *v = f + x->o[sa_data[k]] + (size_t)l * eb;
            if (red) {
                uint64_t b = 0;
                memcpy(&b, v, eb);
                cas_elem(d, eb, isa_atom_fns[x->target], b);
            } else {
                memcpy(d + k * eb, v, eb);
            }
        }
        uint64_t ma = ex_addr_lane(f, x->o[5], x->flags & BK_MB32, (int32_t)(uint32_t)x->aux, l);
        int r = mb_complete_at(w, x, l, ma, eb * n);
        if (r != ISA_X_NEXT)
            return r;
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_async_d[1] = { { st_async_f, { 0 }, 0 } };

static bool select_st_async(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    bool red = in->op == ISA_OP_RED_ASYNC;
    int sp = isa_instr_space(in, 0), comp = isa_instr_mod(in, ISA_G_COMPLETION), sem = isa_instr_mod(in, ISA_G_SEM);
    int scope = isa_instr_mod(in, ISA_G_SCOPE), vm = isa_instr_mod(in, ISA_G_VEC), op = isa_instr_mod(in, ISA_G_ATOMOP);
    if (in->ntypes != 1 || in->nopd != 3 || comp != ISA_M_MBARRIER_COMPLETE_TX_BYTES ||
        (sp >= 0 && sp != ISA_SP_SHARED_CLUSTER) || isa_instr_has(in, ISA_M_MMIO))
        return false;
    if (red ? (sem != ISA_M_RELAXED || scope != ISA_M_CLUSTER || op < 0 || vm >= 0)
            : ((sem >= 0 && sem != ISA_M_WEAK) || scope >= 0))
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    unsigned eb = isa_types[t].bits / 8;
    unsigned n = vm == ISA_M_V2 ? 2 : vm == ISA_M_V4 ? 4 : vm < 0 ? 1 : 0;
    if (n == 0 || (eb != 4 && eb != 8) || (n == 4 && eb != 4))
        return false;
    if (red) {
        if (op == ISA_M_CAS || op == ISA_M_EXCH || !(x->target = isa_sem_atom((unsigned)op, t, false)))
            return false;
    }
    ex_addrop_t a, mb;
    if (!ex_pd_address(pd, f, &o[0], ISA_SP_SHARED_CLUSTER, &a) || a.space != ISA_SP_SHARED ||
        !ex_pd_address(pd, f, &o[2], ISA_SP_SHARED_CLUSTER, &mb) || mb.space != ISA_SP_SHARED ||
        mb.off != (int32_t)mb.off)
        return false;
    const isa_operand_t *e = &o[1];
    if (n > 1) {
        if (o[1].kind != ISA_OPD_VEC || o[1].count != n)
            return false;
        e = &f->ir->opds[o[1].u.first];
    }
    for (unsigned k = 0; k < n; k++) {
        if (e[k].kind == ISA_OPD_REG && ex_reg_width(f, &e[k]) != eb)
            return false;
        if ((x->o[sa_data[k]] = ex_pd_operand(pd, &e[k], eb)) == ISA_NONE)
            return false;
    }
    x->o[1] = a.slot;
    x->imm = a.off;
    x->o[5] = mb.slot;
    x->aux = (uint32_t)(int32_t)mb.off;
    x->flags |= (a.b32 ? BK_DB32 : 0) | (mb.b32 ? BK_MB32 : 0);
    x->width = (uint8_t)eb;
    x->vec = (uint8_t)n;
    x->desc = st_async_d;
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * tensormap.replace.tile.field{.global,.shared::cta}.b1024.{b32,b64} [addr]{, ord}, new_val
 * sets one field of the tensor map at addr (generic without a space), lane after lane, in
 * the emulator's layout (ex_tensormap_t): the global address, the rank (new_val + 1),
 * boxDim, globalDim, globalStrides (bytes; ord 0 is dimension 1's) or elementStrides of
 * dimension ord, the element type (PTX's numbering, which is not the driver's), the
 * interleave layout, the swizzle mode, the fill mode.  The memory need not hold a map
 * already (code generators zero 128 bytes and replace every field); a copy checks the
 * fields when it reads the map.  x->o[1] the address, x->imm its offset, x->o[2] new_val,
 * x->target the field (a QUERY modifier), x->aux ord, x->vec the address's space, x->flags
 * TR_B32 (a 32-bit address register).
 *
 * tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 * [dst], [src], 128 copies a map from shared to global memory, then a release fence.
 * x->o[1]/imm the destination, o[3]/aux the source, flags TR_B32, TR_SB32.
 *====================================================================*/
#define TR_B32  0x01
#define TR_SB32 0x02

/* elemtype's values (PTX) as CUtensorMapDataType: .f32.ftz, .f64 and .bf16 move. */
static const uint8_t tr_elemtype[13] = { 0, 1, 2, 3, 4, 5, 6, 7, 10, 8, 9, 11, 12 };

static int tmap_replace_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned ord = (unsigned)x->aux;
    bool wide = x->target == ISA_M_GLOBAL_ADDRESS || x->target == ISA_M_GLOBAL_STRIDE;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t a = ex_addr_lane(f, x->o[1], x->flags & TR_B32, x->imm, l);
        ex_tensormap_t *p = as_mem(w, l, x->vec, a, sizeof *p, 64, x->vec == EX_SP_GENERIC ? ISA_SP_NONE : x->vec, x);
        if (!p)
            return ISA_X_FAULT;
        uint64_t v = wide ? ISA_SLOT(const uint64_t, f, x->o[2])[l] : ISA_SLOT(const uint32_t, f, x->o[2])[l];
        if (x->target == ISA_M_GLOBAL_STRIDE && ord == 4)   /* ptxas takes it; no map has it */
            return as_fault(w, x, l, a, EX_FAULT_ILLEGAL,
                            "tensormap.replace .global_stride of ordinal 4: a map has 4 strides (dimension 1's is "
                            "ordinal 0)");
        ex_tensormap_t t;
        memcpy(&t, p, sizeof t);
        t.magic = EX_TMAP_MAGIC;
        switch (x->target) {
        case ISA_M_GLOBAL_ADDRESS: t.addr = v; break;
        case ISA_M_RANK: t.rank = (uint8_t)(v + 1 > 255 ? 0 : v + 1); break;
        case ISA_M_BOX_DIM: t.box[ord] = (uint16_t)(v > 0xffff ? 0 : v); break;
        case ISA_M_GLOBAL_DIM: t.dims[ord] = v; break;
        case ISA_M_GLOBAL_STRIDE: t.strides[ord] = v; break;
        case ISA_M_ELEMENT_STRIDE: t.estr[ord] = (uint8_t)(v > 255 ? 0 : v); break;
        case ISA_M_ELEMTYPE:
            t.dtype = v < 13 ? tr_elemtype[v] : (uint8_t)(v < 255 ? v : 255);
            t.tf32 |= t.dtype == 11 || t.dtype == 12;   /* another type does not clear it */
            break;
        case ISA_M_INTERLEAVE_LAYOUT: t.interleave = (uint8_t)(v < 255 ? v : 255); break;
        case ISA_M_SWIZZLE_MODE: t.swizzle = (uint8_t)(v < 255 ? v : 255); break;
        default: t.oob_nan = (uint8_t)(v < 255 ? v : 255); break;   /* fill_mode */
        }
        t.esize = (uint8_t)ex_tmap_esize(t.dtype);
        memcpy(p, &t, sizeof t);
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t tmap_replace_d[1] = { { tmap_replace_f, { 0 }, 0 } };

static bool select_tmap_replace(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int field = isa_instr_mod(in, ISA_G_QUERY), lm = isa_instr_mod(in, ISA_G_LOADMODE), sp = isa_instr_space(in, 0);
    bool ordinal = field == ISA_M_BOX_DIM || field == ISA_M_GLOBAL_DIM || field == ISA_M_GLOBAL_STRIDE ||
                   field == ISA_M_ELEMENT_STRIDE;
    bool wide = field == ISA_M_GLOBAL_ADDRESS || field == ISA_M_GLOBAL_STRIDE;
    if (lm != ISA_M_TILE || field < 0 || field == ISA_M_SWIZZLE_ATOMICITY || in->ntypes != 2 ||
        in->types[1] != (wide ? ISA_T_B64 : ISA_T_B32) || in->nopd != (ordinal ? 3u : 2u))
        return false;
    if (ordinal && (o[1].kind != ISA_OPD_IMM || o[1].imm < 0 || o[1].imm >= 5))
        return false;
    ex_addrop_t a;
    if (!ex_pd_address(pd, f, &o[0], sp, &a))
        return false;
    const isa_operand_t *v = &o[ordinal ? 2 : 1];
    if (v->kind == ISA_OPD_REG && ex_reg_width(f, v) != (wide ? 8u : 4u))
        return false;
    if ((x->o[2] = ex_pd_operand(pd, v, wide ? 8 : 4)) == ISA_NONE)
        return false;
    x->o[1] = a.slot;
    x->imm = a.off;
    x->vec = a.space;
    x->flags |= a.b32 ? TR_B32 : 0;
    x->target = (uint32_t)field;
    x->aux = ordinal ? (uint64_t)o[1].imm : 0;
    x->desc = tmap_replace_d;
    return true;
}

static int tmap_cp_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t da = ex_addr_lane(f, x->o[1], x->flags & TR_B32, x->imm, l);
        uint64_t sa = ex_addr_lane(f, x->o[3], x->flags & TR_SB32, (int64_t)x->aux, l);
        uint8_t *d = as_mem(w, l, ISA_SP_GLOBAL, da, 128, 64, ISA_SP_GLOBAL, x);
        if (!d)
            return ISA_X_FAULT;
        const uint8_t *s = as_mem(w, l, ISA_SP_SHARED, sa, 128, 64, ISA_SP_SHARED, x);
        if (!s)
            return ISA_X_FAULT;
        memmove(d, s, 128);
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return ISA_X_NEXT;
}
static const isa_xdesc_t tmap_cp_d[1] = { { tmap_cp_f, { 0 }, 0 } };

static bool select_tmap_cp(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    ex_addrop_t d, s;
    if (in->nopd != 3 || o[2].kind != ISA_OPD_IMM || o[2].imm != 128 || isa_instr_space(in, 0) != ISA_SP_GLOBAL ||
        isa_instr_space(in, 1) != ISA_SP_SHARED_CTA || isa_instr_mod(in, ISA_G_SEM) != ISA_M_RELEASE)
        return false;
    if (!ex_pd_address(pd, f, &o[0], ISA_SP_GLOBAL, &d) || d.space != ISA_SP_GLOBAL ||
        !ex_pd_address(pd, f, &o[1], ISA_SP_SHARED_CTA, &s) || s.space != ISA_SP_SHARED)
        return false;
    x->o[1] = d.slot;
    x->imm = d.off;
    x->o[3] = s.slot;
    x->aux = (uint64_t)s.off;
    x->flags |= (d.b32 ? TR_B32 : 0) | (s.b32 ? TR_SB32 : 0);
    x->desc = tmap_cp_d;
    return true;
}
/*}=====================================================================*/

bool ex_select_async(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    bool ok;
    switch ((isa_op_t)in->op) {
    case ISA_OP_MBARRIER_INIT: case ISA_OP_MBARRIER_INVAL: case ISA_OP_MBARRIER_ARRIVE:
    case ISA_OP_MBARRIER_ARRIVE_DROP: case ISA_OP_MBARRIER_EXPECT_TX: case ISA_OP_MBARRIER_COMPLETE_TX:
    case ISA_OP_MBARRIER_TEST_WAIT: case ISA_OP_MBARRIER_TRY_WAIT: case ISA_OP_MBARRIER_PENDING_COUNT:
        ok = select_mbarrier(pd, f, in, x);
        break;
    case ISA_OP_CP_ASYNC:
        ok = select_cp_async(pd, f, in, x);
        break;
    case ISA_OP_ST_ASYNC:
    case ISA_OP_RED_ASYNC:
        ok = select_st_async(pd, f, in, x);
        break;
    case ISA_OP_CP_ASYNC_MBARRIER_ARRIVE: {
        int mode = isa_instr_mod(in, ISA_G_MODE), spi = isa_instr_space(in, 0);
        ex_addrop_t a;
        ok = in->ntypes == 1 && in->types[0] == ISA_T_B64 && in->nsfx == 1u + (mode >= 0) + (spi >= 0) && (mode < 0 || mode == ISA_M_NOINC) &&
             in->nopd == 1 && (spi < 0 || spi == ISA_SP_SHARED || spi == ISA_SP_SHARED_CTA) &&
             ex_pd_address(pd, f, &o[0], spi, &a) && a.space != ISA_SP_GLOBAL;
        if (ok) {
            x->o[1] = a.slot;
            x->imm = a.off;
            x->vec = a.space;
            x->flags |= a.b32 ? MB_B32 : 0;
            x->aux = mode == ISA_M_NOINC;
            x->desc = cp_mbarrier_d;
        }
        break;
    }
    case ISA_OP_CP_ASYNC_COMMIT_GROUP:
    case ISA_OP_CP_ASYNC_WAIT_ALL:
    case ISA_OP_CP_ASYNC_BULK_COMMIT_GROUP:
        ok = in->nopd == 0 && in->nsfx == 0;
        x->desc = cp_nop_d;
        break;
    case ISA_OP_CP_ASYNC_WAIT_GROUP:
    case ISA_OP_CP_ASYNC_BULK_WAIT_GROUP: {
        int mode = isa_instr_mod(in, ISA_G_MODE);
        ok = in->nopd == 1 && o[0].kind == ISA_OPD_IMM && o[0].imm >= 0 && in->nsfx == (unsigned)(mode >= 0) &&
             (mode < 0 || (mode == ISA_M_READ && in->op == ISA_OP_CP_ASYNC_BULK_WAIT_GROUP));
        x->desc = cp_nop_d;
        break;
    }
    case ISA_OP_CP_ASYNC_BULK:
        ok = select_bulk(pd, f, in, x);
        break;
    case ISA_OP_CP_ASYNC_BULK_TENSOR:
    case ISA_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
        ok = select_tensor(pd, f, in, x);
        break;
    case ISA_OP_CP_REDUCE_ASYNC_BULK:
        ok = select_reduce(pd, f, in, x);
        break;
    case ISA_OP_TENSORMAP_REPLACE:
        ok = select_tmap_replace(pd, f, in, x);
        break;
    case ISA_OP_TENSORMAP_CP_FENCEPROXY:
        ok = select_tmap_cp(pd, f, in, x);
        break;
    default:
        return false;
    }
    if (!ok)
        ex_insn_unselect(x);
    return ok;
}
