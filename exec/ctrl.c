/* ctrl.c: control-flow and synchronisation instructions.  Their handlers only report
 * what happened (branch, call, return, exit, barrier, trap); the warp loop in interp.c
 * acts on it, since it owns the lanes' program counters and the call stack. */
#include "exec/internal.h"

#include <stdatomic.h>

static int report_branch_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_BRANCH; }
static int report_ret_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_RET; }
static int report_exit_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_EXIT; }
static int report_trap_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_TRAP; }
static int report_call_f(void *w, uint8_t *f, const isa_xinsn_t *x, uint32_t m) { (void)w; (void)f; (void)x; (void)m; return ISA_X_CALL; }
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

static const isa_xdesc_t branch_d[1] = { { report_branch_f, { 0 } } };
static const isa_xdesc_t ret_d[1] = { { report_ret_f, { 0 } } };
static const isa_xdesc_t exit_d[1] = { { report_exit_f, { 0 } } };
static const isa_xdesc_t trap_d[1] = { { report_trap_f, { 0 } } };
static const isa_xdesc_t call_d[1] = { { report_call_f, { 0 } } };
static const isa_xdesc_t bar_d[1] = { { report_bar_f, { 0 } } };
static const isa_xdesc_t wsync_d[1] = { { report_wsync_f, { 0 } } };
static const isa_xdesc_t nop_d[1] = { { nop_f, { 0 } } };
static const isa_xdesc_t fence_d[1] = { { fence_f, { 0 } } };

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
    case ISA_OP_BARRIER: {
        /* bar.sync / barrier.sync a{, b} (and the .aligned forms) with a constant barrier id;
         * arrive and red are not implemented yet. */
        int mode = isa_instr_mod(in, ISA_G_MODE);
        if (mode != ISA_M_SYNCMOD || in->nopd < 1 || in->nopd > 2)
            return false;
        for (unsigned i = 0; i < in->nsfx; i++)
            if (in->sfx[i].kind != SFX_MOD || (in->sfx[i].id != (unsigned)mode && in->sfx[i].id != ISA_M_ALIGNEDM))
                return false;
        x->o[0] = ex_pd_operand(pd, &o[0], 4);
        x->o[1] = in->nopd == 2 ? ex_pd_operand(pd, &o[1], 4) : ISA_NONE;
        if (x->o[0] == ISA_NONE || (in->nopd == 2 && x->o[1] == ISA_NONE))
            return false;
        x->desc = bar_d;
        return true;
    }
    case ISA_OP_BAR_WARP_SYNC:
        if (in->nopd != 1)
            return false;
        x->o[0] = ex_pd_operand(pd, &o[0], 4);
        x->desc = wsync_d;
        return x->o[0] != ISA_NONE;
    case ISA_OP_CALL: {
        /* call{.uni} {(rets),} target, {(params)}{, proto}: direct calls through .param
         * lists are supported. */
        unsigned i = 0;
        if (i < in->nopd && o[i].kind == OPD_LIST)
            i++;
        if (i >= in->nopd || o[i].kind != OPD_FUNC)
            return false;
        const isa_func_t *callee = &f->mod->funcs[o[i].u.func];
        if (!callee->has_body)
            return false;             /* extern functions (vprintf, malloc...) come later */
        x->aux = o[i].u.func;
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
    case ISA_OP_PMEVENT:
    case ISA_OP_NANOSLEEP:
        x->desc = nop_d;
        return true;
    default:
        return false;
    }
}
