/* ctrl.c: control-flow and synchronisation instructions.  Their handlers only report
 * what happened (branch, call, return, exit, barrier, trap); the warp loop in interp.c
 * acts on it, since it owns the lanes' program counters and the call stack. */
#include "exec/internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static int report_branch_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_BRANCH; }
static int report_ret_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_RET; }
static int report_exit_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_EXIT; }
static int report_trap_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_TRAP; }
static int report_bar_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_BARRIER; }
static int report_wsync_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_WARPSYNC; }
static int report_cbar_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_CLUSTER; }
static int nop_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_NEXT; }
/* Fences order this host thread's accesses against other workers' (other CTAs): a host
 * fence of the C11 order that select_fence chose (x->aux). */
static int fence_sc_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m)
{
    (void)w; (void)f; (void)x; (void)m;
    atomic_thread_fence(memory_order_seq_cst);
    return ISA_X_NEXT;
}
static int fence_acq_rel_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m)
{
    (void)w; (void)f; (void)x; (void)m;
    atomic_thread_fence(memory_order_acq_rel);
    return ISA_X_NEXT;
}
static int fence_acquire_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m)
{
    (void)w; (void)f; (void)x; (void)m;
    atomic_thread_fence(memory_order_acquire);
    return ISA_X_NEXT;
}
static int fence_release_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m)
{
    (void)w; (void)f; (void)x; (void)m;
    atomic_thread_fence(memory_order_release);
    return ISA_X_NEXT;
}


/*{=====================================================================
 * Fault reports from handlers
 *====================================================================*/
static int fault(ex_warp_t *w, const isa_xinsn_t *x, unsigned lane, uint64_t addr, const char *what)
{
    w->fault_kind = EX_FAULT_INVALID_PC;
    w->fault_lane = (int)lane;
    w->fault_addr = addr;
    w->fault_what = what;
    w->fault_insn = x;
    return ISA_X_FAULT;
}
/*}=====================================================================*/

/*{=====================================================================
 * brx.idx and indirect calls: per-lane targets into w->jump
 *====================================================================*/
/* brx.idx: lane l jumps to the index-th label of the .branchtargets list. */
static int brx_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const isa_func_t *fn = ex_top(w)->fn->ir;
    const isa_brtargets_t *t = &fn->brts[x->aux];
    const uint32_t *idx = ISA_SLOT(const uint32_t, f, x->o[0]);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (idx[l] >= t->count) {
            snprintf(w->fault_buf, sizeof w->fault_buf,
                     "brx.idx: index %u outside the %u targets of %s", idx[l], t->count, t->name);
            return fault(w, x, l, 0, w->fault_buf);
        }
        w->jump[l] = fn->labels[t->targets[idx[l]]].instr;
    }
    return ISA_X_BRANCH;
}

/* A call: direct calls only report; an indirect one resolves each lane's function
 * "address" (EX_WIN_FUNC + function index) and checks it against the prototype or the
 * .calltargets list. */
static int call_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    if (x->aux != EX_CALL_INDIRECT)
        return ISA_X_CALL;
    ex_program_t *p = w->cta->p;
    const isa_module_t *m = p->m;
    const isa_func_t *cf = ex_top(w)->fn->ir;
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        uint64_t a = x->width == 8 ? ISA_SLOT(const uint64_t, f, x->o[0])[l]
                                   : ISA_SLOT(const uint32_t, f, x->o[0])[l];
        uint64_t fi = a - EX_WIN_FUNC;
        if (a < EX_WIN_FUNC || fi >= m->nfunc)
            return fault(w, x, l, a, "indirect call to an address that is not a function");
        const isa_func_t *callee = &m->funcs[fi];
        if (!callee->has_body || !p->funcs[fi].code) {
            snprintf(w->fault_buf, sizeof w->fault_buf, "indirect call to %s, which has no body (not supported yet)",
                     callee->name);
            return fault(w, x, l, a, w->fault_buf);
        }
        if (x->vec == 1) {
            const isa_brtargets_t *t = &cf->brts[x->imm];
            uint32_t k = 0;
            while (k < t->count && t->targets[k] != fi)
                k++;
            if (k == t->count) {
                snprintf(w->fault_buf, sizeof w->fault_buf, "indirect call to %s, which is not in %s",
                         callee->name, t->name);
                return fault(w, x, l, a, w->fault_buf);
            }
        } else if (x->vec == 2) {
            const isa_proto_t *pr = &cf->protos[x->imm];
            bool same = pr->nret == callee->nret && pr->nparam == callee->nparam;
            for (uint32_t k = 0; same && k < pr->nret + pr->nparam; k++)
                same = isa_var_size(k < pr->nret ? &pr->rets[k] : &pr->params[k - pr->nret]) ==
                       isa_var_size(k < pr->nret ? &callee->rets[k] : &callee->params[k - pr->nret]);
            if (!same) {
                snprintf(w->fault_buf, sizeof w->fault_buf,
                         "indirect call to %s, whose parameters do not match prototype %s", callee->name, pr->name);
                return fault(w, x, l, a, w->fault_buf);
            }
        }
        w->jump[l] = (uint32_t)fi;
    }
    return ISA_X_CALL;
}
/*}=====================================================================*/

static const isa_xdesc_t branch_d[1] = { { report_branch_f, { 0 }, 0 } };
static const isa_xdesc_t ret_d[1] = { { report_ret_f, { 0 }, 0 } };
static const isa_xdesc_t exit_d[1] = { { report_exit_f, { 0 }, 0 } };
static const isa_xdesc_t trap_d[1] = { { report_trap_f, { 0 }, 0 } };

/* brkpt without a debugger: the H100 stops the kernel as trap does
 * (CUDA_ERROR_LAUNCH_FAILED, recorded: golden brkpt_launch). */
static int brkpt_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)f;
    ex_set_fault_k(wv, x, mask, EX_FAULT_TRAP, "brkpt executed (no debugger is attached)");
    return ISA_X_FAULT;
}
static const isa_xdesc_t brkpt_d[1] = { { brkpt_f, { 0 }, 0 } };

/* pmevent a / pmevent.mask m: each event of x->aux counted once per warp that runs it. */
static int pmevent_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)f;
    (void)mask;
    ex_device_t *d = ((ex_warp_t *)wv)->cta->p->dev;
    for (uint64_t m = x->aux; m; m &= m - 1)
        atomic_fetch_add_explicit(&d->pmevents[__builtin_ctzll(m)], 1, memory_order_relaxed);
    return ISA_X_NEXT;
}
static const isa_xdesc_t pmevent_d[1] = { { pmevent_f, { 0 }, 0 } };
/* nanosleep t: the warp sleeps the longest t of its lanes (at most 1 ms, as the manual
 * bounds it) on the emulated clock, which %clock64 then shows passed, and lets the other
 * warps run first; a back-off loop of nanosleep thus spins no faster than the warps it
 * waits for. */
static int nanosleep_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint64_t t = 0;
    if (x->o[0] == ISA_NONE)
        t = (uint64_t)x->imm;
    else
        for (uint32_t m = mask; m; m &= m - 1) {
            uint32_t v = ISA_SLOT(const uint32_t, f, x->o[0])[__builtin_ctz(m)];
            t = v > t ? v : t;
        }
    if (!mask)
        return ISA_X_NEXT;
    w->polls++;
    t = t > 1000000 ? 1000000 : t;
    uint64_t now = w->cta->clock_base + w->ninstr * 4;
    now = now > w->clock_last ? now : w->clock_last;
    w->clock_last = now + (t * EX_M_CLOCK_MHZ + 999) / 1000;
    return ISA_X_YIELD;
}
static const isa_xdesc_t nanosleep_d[1] = { { nanosleep_f, { 0 }, 0 } };
static const isa_xdesc_t call_d[1] = { { call_f, { 0 }, 0 } };
static const isa_xdesc_t brx_d[1] = { { brx_f, { 0 }, 0 } };
static const isa_xdesc_t bar_d[1] = { { report_bar_f, { 0 }, ISA_OPDF_NEG } };   /* bar.red's !c */
static const isa_xdesc_t wsync_d[1] = { { report_wsync_f, { 0 }, 0 } };
static const isa_xdesc_t cbar_d[1] = { { report_cbar_f, { 0 }, 0 } };
static const isa_xdesc_t nop_d[1] = { { nop_f, { 0 }, 0 } };
static const isa_xdesc_t fence_sc_d[1] = { { fence_sc_f, { 0 }, 0 } };
static const isa_xdesc_t fence_acq_rel_d[1] = { { fence_acq_rel_f, { 0 }, 0 } };
static const isa_xdesc_t fence_acquire_d[1] = { { fence_acquire_f, { 0 }, 0 } };
static const isa_xdesc_t fence_release_d[1] = { { fence_release_f, { 0 }, 0 } };

/* membar.{cta,gl,sys} (fence.sc on sm_70 and later); fence{.sem}.scope, whose .sem is
 * .acq_rel when absent; its restricted forms (.sync_restrict::*, .mbarrier_init) with the
 * order of their .sem, which orders every access and so also the ones they name;
 * fence.proxy and membar.proxy: the emulator has one path to memory for every proxy
 * (generic, async, tensormap, aliases), so a proxy fence orders like a thread fence:
 * .acq_rel for the bidirectional kinds, else its .release or .acquire (the address range
 * of the acquire form only narrows it).  The scope never weakens a host fence. */
static bool select_fence(ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int sem = isa_instr_mod(in, ISA_G_SEM);
    bool proxy = in->op == ISA_OP_FENCE_PROXY || in->op == ISA_OP_MEMBAR_PROXY;
    if (in->nopd != 0 && !(in->op == ISA_OP_FENCE_PROXY && in->nopd == 2 && o[0].kind == ISA_OPD_ADDR &&
                           !(o[0].flags & ISA_OPDF_ADDRLIST) && o[1].kind == ISA_OPD_IMM))
        return false;
    switch (sem) {
    case -1:
        x->desc = in->op == ISA_OP_MEMBAR ? fence_sc_d : fence_acq_rel_d;
        return true;
    case ISA_M_SC: x->desc = proxy ? NULL : fence_sc_d; break;
    case ISA_M_ACQ_REL: x->desc = fence_acq_rel_d; break;
    case ISA_M_ACQUIRE: x->desc = fence_acquire_d; break;
    case ISA_M_RELEASE: x->desc = fence_release_d; break;
    default: x->desc = NULL; break;
    }
    return x->desc != NULL;
}

/* bar{.cta}.sync / barrier{.cta}.sync{.aligned}  a{, b}
 * bar{.cta}.arrive / barrier{.cta}.arrive{.aligned}  a, b
 * bar{.cta}.red.popc.u32 / barrier{.cta}.red.popc{.aligned}.u32  d, a{, b}, {!}c
 * bar{.cta}.red.{and,or}.pred / barrier{.cta}.red.{and,or}{.aligned}.pred  p, a{, b}, {!}c
 * Slots: o[0] d, o[1] a (the id), o[2] b (the count) or ISA_NONE, o[3] c; flags 1: !c. */
static bool select_bar(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int mode = isa_instr_mod(in, ISA_G_MODE);
    int op = isa_instr_mod(in, ISA_G_ATOMOP);
    unsigned n = in->nopd, first = 0;
    if (mode == ISA_M_SYNCMOD && op < 0 && (n == 1 || n == 2)) {
        x->aux = EX_BAR_SYNC;
    } else if (mode == ISA_M_ARRIVE && op < 0 && n == 2) {
        x->aux = EX_BAR_ARRIVE;
    } else if (mode == ISA_M_RED && (n == 3 || n == 4) && in->ntypes == 1) {
        isa_type_t t = (isa_type_t)in->types[0];
        if (op == ISA_M_POPC && t == ISA_T_U32)
            x->aux = EX_BAR_POPC;
        else if (op == ISA_M_AND && t == ISA_T_PRED)
            x->aux = EX_BAR_AND;
        else if (op == ISA_M_OR && t == ISA_T_PRED)
            x->aux = EX_BAR_OR;
        else
            return false;
        unsigned dw, cw;
        if (o[0].kind != ISA_OPD_REG)
            return false;
        x->o[0] = ex_reg_operand(f, &o[0], &dw);
        if (x->o[0] == ISA_NONE || dw != (t == ISA_T_PRED ? 0 : 4))
            return false;
        const isa_operand_t *c = &o[n - 1];
        if (c->kind != ISA_OPD_REG)
            return false;
        x->o[3] = ex_reg_operand(f, c, &cw);
        if (x->o[3] == ISA_NONE || cw != 0)
            return false;
        x->flags = (c->flags & ISA_OPDF_NEG) ? 1 : 0;
        first = 1;
        n--;
    } else {
        return false;
    }
    for (unsigned i = first; i < n; i++) {
        const isa_operand_t *a = &o[i];
        if (a->kind == ISA_OPD_REG && ex_reg_width(f, a) != 4)
            return false;
        x->o[1 + i - first] = ex_pd_operand(pd, a, 4);
        if (x->o[1 + i - first] == ISA_NONE)
            return false;
    }
    x->desc = bar_d;
    return true;
}

/*{=====================================================================
 * Calls: arguments and results
 *====================================================================*/
static unsigned elem_bytes(isa_type_t t)
{
    unsigned b = isa_types[t].bits;
    return b <= 8 ? 1 : b <= 16 ? 2 : b <= 32 ? 4 : b <= 64 ? 8 : 16;
}

/* Parameter v (rets first) of a function with a body: its .param area or register. */
static ex_cloc_t formal_loc(const ex_func_t *fn, uint32_t v)
{
    uint32_t r = isa_param_reg(fn->ir, v);
    if (r == ISA_NONE)
        return (ex_cloc_t){ fn->var_slot[v], (uint32_t)isa_var_size(&fn->ir->vars[v]), 1 };
    const isa_reg_t *reg = &fn->ir->regs[r];
    return (ex_cloc_t){ fn->reg_slot[r], elem_bytes(reg->type), reg->vec > 1 ? reg->vec : 1 };
}

/* An element of a call's list in the caller: a register, a .param variable, or a
 * constant (pre-decoded into opd_slot; eb 0: the size of the formal it meets). */
static ex_cloc_t actual_loc(const ex_func_t *fn, uint32_t opd)
{
    const isa_operand_t *o = &fn->ir->opds[opd];
    if (o->kind == ISA_OPD_REG) {
        const isa_reg_t *reg = &fn->ir->regs[o->u.reg];
        return (ex_cloc_t){ fn->reg_slot[o->u.reg], elem_bytes(reg->type), reg->vec > 1 ? reg->vec : 1 };
    }
    if (o->kind == ISA_OPD_SYM)
        return (ex_cloc_t){ fn->var_slot[o->u.sym], (uint32_t)isa_var_size(&fn->ir->vars[o->u.sym]), 1 };
    return (ex_cloc_t){ fn->opd_slot[opd], 0, 1 };
}

void ex_call_locs(ex_func_t *f)
{
    const isa_func_t *fn = f->ir;
    for (uint32_t v = 0; v < fn->nret + fn->nparam; v++)
        f->formal[v] = formal_loc(f, v);
    /* the elements of every call's lists */
    for (uint32_t i = 0; i < fn->ninstr; i++) {
        const isa_instr_t *in = &fn->instrs[i];
        if (in->op != ISA_OP_CALL)
            continue;
        const isa_operand_t *o = &fn->opds[in->opd];
        for (unsigned k = 0; k < in->nopd; k++)
            if (o[k].kind == ISA_OPD_LIST)
                for (uint32_t e = 0; e < o[k].count; e++)
                    f->actual[o[k].u.first + e] = actual_loc(f, o[k].u.first + e);
    }
}
/* The element's location, a constant taking the formal's size. */
static inline ex_cloc_t actual_of(const ex_func_t *fn, uint32_t opd, uint32_t bytes)
{
    ex_cloc_t c = fn->actual[opd];
    if (c.eb == 0)
        c.eb = bytes;
    return c;
}

/* Copy a value between two frames for the lanes of mask (sizes were checked equal by
 * the frontend; the smaller one bounds the copy). */
static void cloc_copy(uint8_t *df, ex_cloc_t d, const uint8_t *sf, ex_cloc_t s, uint32_t mask)
{
    uint32_t n = d.eb * d.ne < s.eb * s.ne ? d.eb * d.ne : s.eb * s.ne;
    if (mask == ISA_FULL && d.ne == 1 && s.ne == 1 && d.eb == n && s.eb == n) {
        /* the lanes' values side by side (the usual sizes copied inline) */
        if (n == 4)
            memcpy(df + d.slot, sf + s.slot, 4 * ISA_LANES);
        else if (n == 8)
            memcpy(df + d.slot, sf + s.slot, 8 * ISA_LANES);
        else
            memcpy(df + d.slot, sf + s.slot, (size_t)n * ISA_LANES);
        return;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (d.ne == 1 && s.ne == 1) {
            memcpy(df + d.slot + l * d.eb, sf + s.slot + l * s.eb, n);
            continue;
        }
        for (uint32_t b = 0; b < n; b++)
            df[d.slot + (b / d.eb) * d.eb * ISA_LANES + l * d.eb + b % d.eb] =
                sf[s.slot + (b / s.eb) * s.eb * ISA_LANES + l * s.eb + b % s.eb];
    }
}

/* The positions of a call's return list and argument list among its operands, or -1:
 * {(rets),} func{, (args)}{, proto|flist}. */
static void call_lists(const isa_instr_t *in, const isa_operand_t *o, int *out_rets, int *out_args)
{
    unsigned fpos = o[0].kind == ISA_OPD_LIST ? 1 : 0;
    *out_rets = fpos ? 0 : -1;
    *out_args = fpos + 1 < in->nopd && o[fpos + 1].kind == ISA_OPD_LIST ? (int)fpos + 1 : -1;
}

/* The arguments of call x in the caller's frame into the callee's new frame. */
void ex_call_args(const ex_ctx_t *caller, const ex_insn_t *x, const ex_func_t *callee, uint8_t *fr,
                  uint32_t mask)
{
    const isa_instr_t *in = x->ir;
    const isa_func_t *cf = caller->fn->ir;
    const isa_operand_t *o = &cf->opds[in->opd];
    int rets, args;
    call_lists(in, o, &rets, &args);
    if (args < 0)
        return;
    for (uint32_t e = 0; e < o[args].count && e < callee->ir->nparam; e++) {
        ex_cloc_t d = callee->formal[callee->ir->nret + e];
        ex_cloc_t s = actual_of(caller->fn, o[args].u.first + e, d.eb * d.ne);
        cloc_copy(fr, d, caller->frame, s, mask);
    }
}

/* The results of the callee (activation cx) into the caller's registers or .param
 * areas named by the call's return list, for the lanes of mask. */
void ex_call_rets(const ex_ctx_t *caller, const ex_ctx_t *cx, uint32_t mask)
{
    const isa_instr_t *in = cx->call->ir;
    const isa_func_t *cf = caller->fn->ir;
    const isa_operand_t *o = &cf->opds[in->opd];
    int rets, args;
    call_lists(in, o, &rets, &args);
    if (rets < 0)
        return;
    for (uint32_t e = 0; e < o[rets].count && e < cx->fn->ir->nret; e++) {
        if (cf->opds[o[rets].u.first + e].kind == ISA_OPD_SINK)
            continue;                 /* call (_), f: the result is dropped */
        ex_cloc_t s = cx->fn->formal[e];
        ex_cloc_t d = actual_of(caller->fn, o[rets].u.first + e, s.eb * s.ne);
        cloc_copy(caller->frame, d, cx->frame, s, mask);
    }
}

/* The bits a constant argument passes to a scalar formal (measured on an H100): the
 * constant's own bits, truncated or zero-extended to the formal's size (an integer, an
 * 0f literal's 32 bits, a double's 64), except that a double (1.5, 0d...) for an .f32
 * parameter is rounded to f32, and that a float literal for a parameter of 1 or 2 bytes
 * (.b8, .b16, .f16) passes 0.  So 0f3FC00000 reaches a .b64 parameter as 0x3FC00000,
 * and 1.5 a .b32 one as 0 (the low half of its double). */
static bool const_arg(const isa_operand_t *o, const isa_var_t *formal, uint64_t *out)
{
    if (formal->ndims || formal->vec > 1 || isa_var_size(formal) > 8)
        return false;
    *out = o->kind == ISA_OPD_F32 ? (uint64_t)(uint32_t)o->imm : (uint64_t)o->imm;
    if (o->kind != ISA_OPD_IMM && isa_var_size(formal) < 4)
        *out = 0;
    if (o->kind == ISA_OPD_F64 && formal->type == ISA_T_F32) {
        double v;
        memcpy(&v, out, 8);
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        *out = b;
    }
    return true;
}

/* Checks the elements of one list against the formals (rets or params) and gives each
 * constant its slot; false for a form pre-decoding has no rule for. */
/*{=====================================================================
 * Device services: calls to vprintf, malloc, free, __assertfail and cudaGraphSetConditional
 * (functions without a body) run on the host (exec/svc/), with the signatures nvcc declares.
 * cudaGraphSetConditional(handle, value) stores the 32-bit value at the global address
 * handle: the driver's conditional handles are the addresses of their values.
 *====================================================================*/
enum { SVC_VPRINTF, SVC_MALLOC, SVC_FREE, SVC_ASSERT, SVC_SETCOND, SVC_CDP_PBUF, SVC_CDP_LAUNCH, SVC_CDP_SCREATE,
       SVC_CDP_SDESTROY, SVC_CDP_LASTERR, SVC_CDP_PEEKERR, SVC_CDP_GETDEV, SVC_CDP_MALLOC, SVC_CDP_FREE,
       SVC_CDP_MEMCPY, SVC_CDP_MEMSET, SVC_CDP_ERRSTR };
static const struct {
    const char *name;
    uint8_t     nret, ret_bytes, nparam, pbytes[5];
} services[] = {
    [SVC_VPRINTF] = { "vprintf", 1, 4, 2, { 8, 8 } },
    [SVC_MALLOC]  = { "malloc", 1, 8, 1, { 8 } },
    [SVC_FREE]    = { "free", 0, 0, 1, { 8 } },
    [SVC_ASSERT]  = { "__assertfail", 0, 0, 5, { 8, 8, 4, 8, 8 } },
    [SVC_SETCOND] = { "cudaGraphSetConditional", 0, 0, 2, { 8, 4 } },
    /* the device runtime (dynamic parallelism, exec/svc/cdp.c) */
    [SVC_CDP_PBUF]     = { "__cudaCDP2GetParameterBufferV2", 1, 8, 4, { 8, 12, 12, 4 } },
    [SVC_CDP_LAUNCH]   = { "__cudaCDP2LaunchDeviceV2", 1, 4, 2, { 8, 8 } },
    [SVC_CDP_SCREATE]  = { "__cudaCDP2StreamCreateWithFlags", 1, 4, 2, { 8, 4 } },
    [SVC_CDP_SDESTROY] = { "__cudaCDP2StreamDestroy", 1, 4, 1, { 8 } },
    [SVC_CDP_LASTERR]  = { "__cudaCDP2GetLastError", 1, 4, 0, { 0 } },
    [SVC_CDP_PEEKERR]  = { "__cudaCDP2PeekAtLastError", 1, 4, 0, { 0 } },
    [SVC_CDP_GETDEV]   = { "__cudaCDP2GetDevice", 1, 4, 1, { 8 } },
    [SVC_CDP_MALLOC]   = { "__cudaCDP2Malloc", 1, 4, 2, { 8, 8 } },
    [SVC_CDP_FREE]     = { "__cudaCDP2Free", 1, 4, 1, { 8 } },
    [SVC_CDP_MEMCPY]   = { "__cudaCDP2MemcpyAsync", 1, 4, 5, { 8, 8, 8, 4, 8 } },
    [SVC_CDP_MEMSET]   = { "__cudaCDP2MemsetAsync", 1, 4, 4, { 8, 4, 8, 8 } },
    [SVC_CDP_ERRSTR]   = { "__cudaCDP2GetErrorString", 1, 8, 1, { 4 } },
};

const char *ex_service_name(unsigned i)
{
    return i < sizeof services / sizeof *services ? services[i].name : NULL;
}

/* The service callee is, or -1 (no such service, or another signature). */
static int service_of(const isa_func_t *callee)
{
    for (unsigned s = 0; s < sizeof services / sizeof *services; s++) {
        if (strcmp(callee->name, services[s].name) != 0)
            continue;
        if (callee->nret != services[s].nret || callee->nparam != services[s].nparam)
            return -1;
        if (callee->nret && isa_var_size(&callee->rets[0]) != services[s].ret_bytes)
            return -1;
        for (unsigned e = 0; e < callee->nparam; e++)
            if (isa_var_size(&callee->params[e]) != services[s].pbytes[e] || callee->params[e].vec > 1)
                return -1;
        return (int)s;
    }
    return -1;
}

/* Argument e of a service call for the lanes of mask into v[lane] (zero-extended). */
static void svc_args(const ex_func_t *fn, const uint8_t *fr, const isa_operand_t *args, unsigned e, unsigned bytes,
                     uint32_t mask, uint64_t *v)
{
    ex_cloc_t c = actual_of(fn, args->u.first + e, bytes);
    unsigned n = c.eb < bytes ? c.eb : bytes;
    const uint8_t *base = fr + c.slot;
    if (n == 8) {
        ISA_LANE_LOOP(mask, { memcpy(&v[l], base + l * 8, 8); });
        return;
    }
    ISA_LANE_LOOP(mask, { v[l] = 0; memcpy(&v[l], base + l * c.eb, n); });
}

static void svc_ret(const ex_func_t *fn, uint8_t *fr, const isa_operand_t *rets, unsigned bytes, unsigned l,
                    uint64_t v)
{
    if (fn->ir->opds[rets->u.first].kind == ISA_OPD_SINK)
        return;
    ex_cloc_t c = actual_of(fn, rets->u.first, bytes);
    memcpy(fr + c.slot + l * c.eb, &v, c.eb < bytes ? c.eb : bytes);
}

static int svc_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const ex_func_t *fn = ex_top(w)->fn;
    const isa_operand_t *o = &fn->ir->opds[x->ir->opd];
    int rl, al;
    call_lists(x->ir, o, &rl, &al);
    const isa_operand_t *rets = rl >= 0 ? &o[rl] : NULL, *args = &o[al];
    ex_device_t *d = w->cta->p->dev;
    uint64_t a0[ISA_LANES], a1[ISA_LANES];
    switch (x->aux) {
    case SVC_VPRINTF:
        svc_args(fn, f, args, 0, 8, mask, a0);
        svc_args(fn, f, args, 1, 8, mask, a1);
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            int r = ex_svc_printf(w, l, x, a0[l], a1[l]);
            if (r == INT32_MIN)
                return ISA_X_FAULT;       /* an address of the format or an argument faulted */
            if (rets)
                svc_ret(fn, f, rets, 4, l, (uint32_t)r);
        }
        return ISA_X_NEXT;
    case SVC_MALLOC: {
        uint64_t p[ISA_LANES] = { 0 };
        svc_args(fn, f, args, 0, 8, mask, a0);
        ex_svc_malloc(d, a0, p, mask);
        for (uint32_t m = mask; m; m &= m - 1)
            if (rets)
                svc_ret(fn, f, rets, 8, (unsigned)__builtin_ctz(m), p[__builtin_ctz(m)]);
        return ISA_X_NEXT;
    }
    case SVC_FREE: {
        uint64_t *p = a0;
        svc_args(fn, f, args, 0, 8, mask, p);
        unsigned bad = ex_svc_free(d, p, mask);
        if (bad != 0xff) {
            w->fault_kind = EX_FAULT_ADDRESS;
            w->fault_lane = (int)bad;
            w->fault_addr = p[bad];
            w->fault_what = "free of an address that is no block malloc returned (or one already freed)";
            w->fault_insn = x;
            return ISA_X_FAULT;
        }
        return ISA_X_NEXT;
    }
    case SVC_ASSERT: {
        uint64_t a2[ISA_LANES], a3[ISA_LANES];
        svc_args(fn, f, args, 0, 8, mask, a0);
        svc_args(fn, f, args, 1, 8, mask, a1);
        svc_args(fn, f, args, 2, 4, mask, a2);
        svc_args(fn, f, args, 3, 8, mask, a3);
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (!ex_svc_assert(w, l, x, a0[l], a1[l], (uint32_t)a2[l], a3[l]))
                return ISA_X_FAULT;
        }
        w->fault_kind = EX_FAULT_ASSERT;
        w->fault_lane = (int)__builtin_ctz(mask);
        w->fault_addr = 0;
        w->fault_what = "assertion failed (__assertfail)";
        w->fault_insn = x;
        return ISA_X_FAULT;
    }
    case SVC_CDP_PBUF: {
        uint64_t a3[ISA_LANES];
        svc_args(fn, f, args, 0, 8, mask, a0);
        svc_args(fn, f, args, 3, 4, mask, a3);
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint32_t dims[2][3];
            for (unsigned e = 0; e < 2; e++) {
                ex_cloc_t c = actual_of(fn, args->u.first + 1 + e, 12);
                memset(dims[e], 0, sizeof dims[e]);
                memcpy(dims[e], f + c.slot + l * c.eb, c.eb < 12 ? c.eb : 12);
            }
            uint64_t buf = ex_cdp_param_buffer(w, a0[l], dims[0], dims[1], (uint32_t)a3[l]);
            if (rets)
                svc_ret(fn, f, rets, 8, l, buf);
        }
        return ISA_X_NEXT;
    }
    case SVC_CDP_LAUNCH:
        svc_args(fn, f, args, 0, 8, mask, a0);
        svc_args(fn, f, args, 1, 8, mask, a1);
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint32_t r = ex_cdp_launch(w, a0[l], a1[l]);
            if (r)
                w->cta->cdp_err = r;
            if (rets)
                svc_ret(fn, f, rets, 4, l, r);
        }
        return ISA_X_NEXT;
    case SVC_CDP_SCREATE:
    case SVC_CDP_GETDEV:
    case SVC_CDP_MALLOC:
        /* a stream handle (streams of a grid are ordered as one here), device 0, or a
         * block of the device heap, written where the first argument points */
        svc_args(fn, f, args, 0, 8, mask, a0);
        svc_args(fn, f, args, 1, 8, mask, a1);
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint64_t v = 0;
            unsigned bytes = x->aux == SVC_CDP_GETDEV ? 4 : 8;
            if (x->aux == SVC_CDP_SCREATE) {
                v = 0x100 + atomic_fetch_add(&d->cdp_streams, 1);
            } else if (x->aux == SVC_CDP_MALLOC) {
                uint64_t sz[ISA_LANES] = { 0 }, out[ISA_LANES] = { 0 };
                sz[l] = a1[l];
                ex_svc_malloc(d, sz, out, 1u << l);
                v = out[l];
            }
            void *h = ex_mem(w, l, ISA_SP_NONE, a0[l], bytes, x);
            if (!h)
                return ISA_X_FAULT;
            memcpy(h, &v, bytes);
            if (rets)
                svc_ret(fn, f, rets, 4, l, x->aux == SVC_CDP_MALLOC && !v ? 2u /* cudaErrorMemoryAllocation */ : 0u);
        }
        return ISA_X_NEXT;
    case SVC_CDP_SDESTROY:
    case SVC_CDP_FREE:
        svc_args(fn, f, args, 0, 8, mask, a0);
        if (x->aux == SVC_CDP_FREE) {
            unsigned bad = ex_svc_free(d, a0, mask);
            if (bad != 0xff) {
                w->fault_kind = EX_FAULT_ADDRESS;
                w->fault_lane = (int)bad;
                w->fault_addr = a0[bad];
                w->fault_what = "cudaFree in a kernel of an address that is no block its cudaMalloc returned";
                w->fault_insn = x;
                return ISA_X_FAULT;
            }
        }
        for (uint32_t m = mask; m; m &= m - 1)
            if (rets)
                svc_ret(fn, f, rets, 4, (unsigned)__builtin_ctz(m), 0);
        return ISA_X_NEXT;
    case SVC_CDP_MEMCPY:
    case SVC_CDP_MEMSET: {
        /* cudaMemcpyAsync(dst, src, count, kind, stream), cudaMemsetAsync(dst, value, count,
         * stream): queued in order with the grid's launches */
        bool set = x->aux == SVC_CDP_MEMSET;
        uint64_t a2[ISA_LANES], a3[ISA_LANES], a4[ISA_LANES];
        svc_args(fn, f, args, 0, 8, mask, a0);
        svc_args(fn, f, args, 1, set ? 4 : 8, mask, a1);
        svc_args(fn, f, args, 2, 8, mask, a2);
        svc_args(fn, f, args, 3, set ? 8 : 4, mask, a3);
        if (!set)
            svc_args(fn, f, args, 4, 8, mask, a4);
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint32_t r = set ? ex_cdp_copy(w, a0[l], 0, a2[l], true, (uint32_t)a1[l], a3[l])
                             : ex_cdp_copy(w, a0[l], a1[l], a2[l], false, 0, a4[l]);
            if (r)
                w->cta->cdp_err = r;
            if (rets)
                svc_ret(fn, f, rets, 4, l, r);
        }
        return ISA_X_NEXT;
    }
    case SVC_CDP_ERRSTR:
        svc_args(fn, f, args, 0, 4, mask, a0);
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (rets)
                svc_ret(fn, f, rets, 8, l, ex_cdp_error_string(d, (uint32_t)a0[l]));
        }
        return ISA_X_NEXT;
    case SVC_CDP_LASTERR:
    case SVC_CDP_PEEKERR: {
        /* the CTA's last device-runtime error (kept per CTA here) */
        uint32_t e = w->cta->cdp_err;
        if (x->aux == SVC_CDP_LASTERR)
            w->cta->cdp_err = 0;
        for (uint32_t m = mask; m; m &= m - 1)
            if (rets)
                svc_ret(fn, f, rets, 4, (unsigned)__builtin_ctz(m), e);
        return ISA_X_NEXT;
    }
    case SVC_SETCOND:
        svc_args(fn, f, args, 0, 8, mask, a0);
        svc_args(fn, f, args, 1, 4, mask, a1);
        for (uint32_t m = mask; m; m &= m - 1) {   /* racing calls: the last lane's value stays */
            unsigned l = (unsigned)__builtin_ctz(m);
            uint32_t *h = ex_mem(w, l, ISA_SP_GLOBAL, a0[l], 4, x);
            if (!h)
                return ISA_X_FAULT;
            __atomic_store_n(h, (uint32_t)a1[l], __ATOMIC_RELEASE);
        }
        return ISA_X_NEXT;
    }
    return ISA_X_FAULT;
}
static const isa_xdesc_t svc_d[1] = { { svc_f, { 0 }, ISA_HON_SINK } };
/*}=====================================================================*/

static bool select_list(void *pd, ex_func_t *f, const isa_operand_t *lst, const isa_var_t *formals,
                        uint32_t nformal, bool results)
{
    if (lst->count != nformal)
        return false;
    for (uint32_t e = 0; e < lst->count; e++) {
        uint32_t k = lst->u.first + e;
        const isa_operand_t *p = &f->ir->opds[k];
        uint64_t bits;
        switch (p->kind) {
        case ISA_OPD_REG:
            if (p->sel || p->flags || f->reg_width[p->u.reg] == 0)
                return false;
            /* A scalar result into a vector register: the H100 left .y 0 where a copy
             * of the bytes would not; not modelled. */
            if (results && f->ir->regs[p->u.reg].vec > 1 && formals[e].vec <= 1)
                return false;
            break;
        case ISA_OPD_SYM:
            if ((p->flags & ISA_OPDF_MODSYM) || f->var_slot[p->u.sym] == ISA_NONE)
                return false;
            break;
        case ISA_OPD_IMM: case ISA_OPD_F32: case ISA_OPD_F64: {
            if (results || !const_arg(p, &formals[e], &bits))
                return false;
            isa_operand_t c = { .kind = ISA_OPD_IMM, .imm = (int64_t)bits };
            f->opd_slot[k] = ex_pd_operand(pd, &c, (unsigned)isa_var_size(&formals[e]));
            break;
        }
        case ISA_OPD_SINK:
            if (!results)
                return false;
            break;
        default:
            return false;
        }
        if (formals[e].space == ISA_SP_REG && formals[e].type == ISA_T_PRED)
            return false;
    }
    return true;
}

/* call{.uni} {(rets),} func{, (params)}   and   call{.uni} {(rets),} fptr{, (params)}, flist|proto
 * Arguments and results are registers, .param variables or (arguments) constants, of
 * the callee's .param or .reg parameters.  A direct call keeps the callee index in
 * aux; an indirect one has o[0] the address register, width its bytes, and vec 1 with
 * imm the .calltargets list or vec 2 with imm the .callprototype.  Calls to functions
 * without a body (vprintf, malloc...) are not supported yet. */
static bool select_call(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    unsigned i = 0;
    if (i < in->nopd && o[i].kind == ISA_OPD_LIST)
        i++;
    if (i >= in->nopd)
        return false;
    /* The signature the lists are checked against: the callee's, the prototype's, or
     * that of the first function of the .calltargets list. */
    const isa_var_t *rets = NULL, *params = NULL;
    uint32_t nret = 0, nparam = 0;
    if (o[i].kind == ISA_OPD_FUNC) {
        const isa_func_t *callee = &f->mod->funcs[o[i].u.func];
        if (!callee->has_body) {
            int svc = service_of(callee);
            bool has_rets = i == 1, has_args = i + 1 < in->nopd && o[i + 1].kind == ISA_OPD_LIST;
            if (svc < 0 || !has_args || (services[svc].nret && !has_rets) ||
                !select_list(pd, f, has_rets ? &o[0] : &(isa_operand_t){ .kind = ISA_OPD_LIST }, callee->rets,
                             callee->nret, true) ||
                !select_list(pd, f, &o[i + 1], callee->params, callee->nparam, false))
                return false;
            x->aux = (uint64_t)svc;
            x->desc = svc_d;
            return true;
        }
        x->aux = o[i].u.func;
        rets = callee->rets; nret = callee->nret;
        params = callee->params; nparam = callee->nparam;
    } else if (o[i].kind == ISA_OPD_REG && !o[i].sel &&
               (ex_reg_width(f, &o[i]) == 8 || ex_reg_width(f, &o[i]) == 4)) {
        const isa_operand_t *last = &o[in->nopd - 1];
        unsigned rw;
        x->aux = EX_CALL_INDIRECT;
        x->o[0] = ex_reg_operand(f, &o[i], &rw);
        x->width = (uint8_t)rw;
        if (last->kind == ISA_OPD_BRTARGETS && f->ir->brts[last->u.idx].calltargets &&
            f->ir->brts[last->u.idx].count) {
            x->vec = 1;
            x->imm = last->u.idx;
            const isa_func_t *t0 = &f->mod->funcs[f->ir->brts[last->u.idx].targets[0]];
            rets = t0->rets; nret = t0->nret;
            params = t0->params; nparam = t0->nparam;
        } else if (last->kind == ISA_OPD_PROTO) {
            x->vec = 2;
            x->imm = last->u.proto;
            const isa_proto_t *pr = &f->ir->protos[last->u.proto];
            rets = pr->rets; nret = pr->nret;
            params = pr->params; nparam = pr->nparam;
        } else {
            return false;
        }
    } else {
        return false;
    }
    bool has_rets = i == 1, has_args = i + 1 < in->nopd && o[i + 1].kind == ISA_OPD_LIST;
    if (!select_list(pd, f, has_rets ? &o[0] : &(isa_operand_t){ .kind = ISA_OPD_LIST }, rets, nret, true) ||
        !select_list(pd, f, has_args ? &o[i + 1] : &(isa_operand_t){ .kind = ISA_OPD_LIST }, params, nparam, false))
        return false;
    x->desc = call_d;
    return true;
}
/*}=====================================================================*/

bool ex_select_ctrl(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    if (!in) {
        x->desc = ret_d;              /* the end of a body */
        return true;
    }
    const isa_operand_t *o = &f->ir->opds[in->opd];
    switch ((isa_op_t)in->op) {
    case ISA_OP_BRA:
        if (in->nopd != 1 || o->kind != ISA_OPD_LABEL)
            return false;
        x->target = f->ir->labels[o->u.label].instr;
        x->desc = branch_d;
        return true;
    case ISA_OP_RET:
        x->desc = ret_d;
        return true;
    case ISA_OP_EXIT:
        x->desc = exit_d;
        return true;
    case ISA_OP_TRAP:
        x->desc = trap_d;
        return true;
    case ISA_OP_MEMBAR:
    case ISA_OP_FENCE:
    case ISA_OP_FENCE_PROXY:
    case ISA_OP_MEMBAR_PROXY:
        return select_fence(f, in, x);
    case ISA_OP_BAR:
    case ISA_OP_BARRIER:
        return select_bar(pd, f, in, x);
    case ISA_OP_BARRIER_CLUSTER: {
        /* barrier.cluster.arrive{.release,.relaxed}{.aligned}, .wait{.acquire}{.aligned}: the
         * waiter (exec/sync/wait.c) counts the arrivals; x->aux: EX_CBAR_ARRIVE or _WAIT. */
        int mode = isa_instr_mod(in, ISA_G_MODE), sem = isa_instr_mod(in, ISA_G_SEM);
        if (in->nopd != 0)
            return false;
        if (mode == ISA_M_ARRIVE && (sem < 0 || sem == ISA_M_RELEASE || sem == ISA_M_RELAXED))
            x->aux = EX_CBAR_ARRIVE;
        else if (mode == ISA_M_WAIT && (sem < 0 || sem == ISA_M_ACQUIRE))
            x->aux = EX_CBAR_WAIT;
        else
            return false;
        x->desc = cbar_d;
        return true;
    }
    case ISA_OP_BAR_WARP_SYNC:
        if (in->nopd != 1)
            return false;
        x->o[0] = ex_pd_operand(pd, &o[0], 4);
        x->desc = wsync_d;
        return x->o[0] != ISA_NONE;
    case ISA_OP_CALL:
        return select_call(pd, f, in, x);
    case ISA_OP_BRX_IDX:
        /* brx.idx{.uni} index, tlist: the targets are looked up when it runs. */
        if (in->nopd != 2 || o[1].kind != ISA_OPD_BRTARGETS || f->ir->brts[o[1].u.idx].calltargets)
            return false;
        x->o[0] = ex_pd_operand(pd, &o[0], 4);
        if (x->o[0] == ISA_NONE || (o[0].kind == ISA_OPD_REG && ex_reg_width(f, &o[0]) != 4))
            return false;
        x->aux = o[1].u.idx;
        x->target = ISA_NONE;          /* per-lane targets in w->jump */
        x->desc = brx_d;
        return true;
    case ISA_OP_BRKPT:
        x->desc = brkpt_d;
        return true;
    case ISA_OP_SETMAXNREG: {
        /* setmaxnreg.{inc,dec}.sync.aligned.u32 n: a warpgroup's register budget, 24 to 256
         * in multiples of 8 (the manual's rule); registers are not a limited resource here,
         * so it changes nothing else. */
        int mode = isa_instr_mod(in, ISA_G_MODE);
        if (in->nopd != 1 || o[0].kind != ISA_OPD_IMM || o[0].imm < 24 || o[0].imm > 256 || o[0].imm % 8 ||
            (mode != ISA_M_INC && mode != ISA_M_DEC))
            return false;
        x->desc = nop_d;
        return true;
    }
    case ISA_OP_PMEVENT: {
        if (in->nopd != 1 || o[0].kind != ISA_OPD_IMM)
            return false;
        uint64_t v = (uint64_t)o[0].imm;
        bool m = isa_instr_has(in, ISA_M_MASK);
        if (m ? v > 0xffff : v > 15)
            return false;
        x->aux = m ? v : 1ull << v;
        x->desc = pmevent_d;
        return true;
    }
    case ISA_OP_NANOSLEEP:
        if (in->nopd != 1)
            return false;
        x->o[0] = ISA_NONE;
        if (o[0].kind == ISA_OPD_IMM) {
            x->imm = o[0].imm;
        } else {
            x->o[0] = ex_pd_operand(pd, &o[0], 4);
            if (x->o[0] == ISA_NONE || ex_reg_width(f, &o[0]) != 4)
                return false;
        }
        x->desc = nanosleep_d;
        return true;
    /* Programmatic dependent launch: a grid of a stream starts after the grids before it
     * in the stream have ended (and their memory is visible), so .wait has nothing to wait
     * for and .launch_dependents (a scheduling hint) nothing to allow early. */
    case ISA_OP_GRIDDEPCONTROL: {
        int mode = isa_instr_mod(in, ISA_G_MODE);
        if (in->nopd != 0 || in->nsfx != 1 || (mode != ISA_M_LAUNCH_DEPENDENTS && mode != ISA_M_WAIT))
            return false;
        x->desc = nop_d;
        return true;
    }
    /* Cache management runs and changes no result (the statistics will model it): a
     * prefetch of any address never faults, as on the GPU. */
    case ISA_OP_PREFETCH:
    case ISA_OP_PREFETCHU:
    case ISA_OP_APPLYPRIORITY:
    case ISA_OP_DISCARD:
    case ISA_OP_CP_ASYNC_BULK_PREFETCH:
    case ISA_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
        x->desc = nop_d;
        return true;
    default:
        return false;
    }
}
