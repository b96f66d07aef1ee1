/* ctrl.c: control-flow and synchronisation instructions.  Their handlers only report
 * what happened (branch, call, return, exit, barrier, trap); the warp loop in interp.c
 * acts on it, since it owns the lanes' program counters and the call stack. */
#include "exec/internal.h"

#include <stdatomic.h>
#include <stdio.h>

static int report_branch_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_BRANCH; }
static int report_ret_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_RET; }
static int report_exit_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_EXIT; }
static int report_trap_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_TRAP; }
static int report_bar_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_BARRIER; }
static int report_wsync_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_WARPSYNC; }
static int nop_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_NEXT; }
/* Fences order this host thread's accesses against other workers' (other CTAs). */
static int fence_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m)
{
    (void)w; (void)f; (void)x; (void)m;
    atomic_thread_fence(memory_order_seq_cst);
    return ISA_X_NEXT;
}


/*{=====================================================================
 * Fault reports from handlers
 *====================================================================*/
static int fault(ex_warp_t *w, const isa_xinsn_t *x, unsigned lane, uint64_t addr, const char *what)
{
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
            if (pr->nret != callee->nret || pr->nparam != callee->nparam) {
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

static const isa_xdesc_t branch_d[1] = { { report_branch_f, { 0 } } };
static const isa_xdesc_t ret_d[1] = { { report_ret_f, { 0 } } };
static const isa_xdesc_t exit_d[1] = { { report_exit_f, { 0 } } };
static const isa_xdesc_t trap_d[1] = { { report_trap_f, { 0 } } };
static const isa_xdesc_t call_d[1] = { { call_f, { 0 } } };
static const isa_xdesc_t brx_d[1] = { { brx_f, { 0 } } };
static const isa_xdesc_t bar_d[1] = { { report_bar_f, { 0 } } };
static const isa_xdesc_t wsync_d[1] = { { report_wsync_f, { 0 } } };
static const isa_xdesc_t nop_d[1] = { { nop_f, { 0 } } };
static const isa_xdesc_t fence_d[1] = { { fence_f, { 0 } } };

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
        if (o[0].kind != OPD_REG)
            return false;
        x->o[0] = ex_reg_operand(f, &o[0], &dw);
        if (x->o[0] == ISA_NONE || dw != (t == ISA_T_PRED ? 0 : 4))
            return false;
        const isa_operand_t *c = &o[n - 1];
        if (c->kind != OPD_REG)
            return false;
        x->o[3] = ex_reg_operand(f, c, &cw);
        if (x->o[3] == ISA_NONE || cw != 0)
            return false;
        x->flags = (c->flags & OPDF_NEG) ? 1 : 0;
        first = 1;
        n--;
    } else {
        return false;
    }
    for (unsigned i = first; i < n; i++) {
        const isa_operand_t *a = &o[i];
        if (a->kind == OPD_REG && ex_reg_width(f, a) != 4)
            return false;
        x->o[1 + i - first] = ex_pd_operand(pd, a, 4);
        if (x->o[1 + i - first] == ISA_NONE)
            return false;
    }
    x->desc = bar_d;
    return true;
}

/* call{.uni} {(rets),} func{, (params)}   and   call{.uni} {(rets),} fptr{, (params)}, flist|proto
 * Arguments and results are .param variables.  A direct call keeps the callee index in
 * aux; an indirect one has o[0] the address register, width its bytes, and vec 1 with
 * imm the .calltargets list or vec 2 with imm the .callprototype.  Calls to functions
 * without a body (vprintf, malloc...) are not supported yet. */
static bool select_call(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    (void)pd;
    const isa_operand_t *o = &f->ir->opds[in->opd];
    unsigned i = 0;
    if (i < in->nopd && o[i].kind == OPD_LIST)
        i++;
    if (i >= in->nopd)
        return false;
    if (o[i].kind == OPD_FUNC) {
        const isa_func_t *callee = &f->mod->funcs[o[i].u.func];
        if (!callee->has_body)
            return false;
        x->aux = o[i].u.func;
    } else if (o[i].kind == OPD_REG &&
               (ex_reg_width(f, &o[i]) == 8 || ex_reg_width(f, &o[i]) == 4)) {
        const isa_operand_t *last = &o[in->nopd - 1];
        unsigned rw;
        x->aux = EX_CALL_INDIRECT;
        x->o[0] = ex_reg_operand(f, &o[i], &rw);
        x->width = (uint8_t)rw;
        if (last->kind == OPD_BRTARGETS && f->ir->brts[last->u.idx].calltargets) {
            x->vec = 1;
            x->imm = last->u.idx;
        } else if (last->kind == OPD_PROTO) {
            x->vec = 2;
            x->imm = last->u.proto;
        } else {
            return false;
        }
    } else {
        return false;
    }
    for (unsigned k = 0; k < in->nopd; k++)
        if (o[k].kind == OPD_LIST)
            for (uint32_t e = 0; e < o[k].count; e++) {
                const isa_operand_t *p = &f->ir->opds[o[k].u.first + e];
                if (p->kind != OPD_SYM || (p->flags & OPDF_MODSYM) || f->var_slot[p->u.sym] == ISA_NONE)
                    return false;
            }
    x->desc = call_d;
    return true;
}

bool ex_select_ctrl(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    if (!in) {
        x->desc = ret_d;              /* the end of a body */
        return true;
    }
    const isa_operand_t *o = &f->ir->opds[in->opd];
    switch ((isa_op_t)in->op) {
    case ISA_OP_BRA:
        if (in->nopd != 1 || o->kind != OPD_LABEL)
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
        x->desc = fence_d;
        return true;
    case ISA_OP_BAR:
    case ISA_OP_BARRIER:
        return select_bar(pd, f, in, x);
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
        if (in->nopd != 2 || o[1].kind != OPD_BRTARGETS || f->ir->brts[o[1].u.idx].calltargets)
            return false;
        x->o[0] = ex_pd_operand(pd, &o[0], 4);
        if (x->o[0] == ISA_NONE || (o[0].kind == OPD_REG && ex_reg_width(f, &o[0]) != 4))
            return false;
        x->aux = o[1].u.idx;
        x->target = ISA_NONE;          /* per-lane targets in w->jump */
        x->desc = brx_d;
        return true;
    case ISA_OP_PMEVENT:
    case ISA_OP_NANOSLEEP:
        x->desc = nop_d;
        return true;
    default:
        return false;
    }
}
