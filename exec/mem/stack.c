/* stack.c: the per-thread stack of local memory that alloca, stacksave and stackrestore
 * manage (PTX 7.3, sm_52): each lane's dynamic stack pointer, allocations below it, and
 * the located fault when they would run into the frames or out of local memory. */
#include "exec/internal.h"

/*{=====================================================================
 * The model.  A thread's local memory (w->local_bytes, 512 KiB) holds two stacks: the
 * frames of its activations (each function's .local variables, the depot) grow up from
 * offset 0, to w->local_top; the memory of alloca grows down from the top, as on the GPU
 * ("the stack grows down").  Each activation keeps every lane's stack pointer
 * (its row of w->sp): a call starts the callee's at the caller's, so that returning frees
 * whatever the callee allocated.  An alloca below w->local_top, or a frame above a
 * calling lane's stack pointer, is a stack overflow (EX_FAULT_STACK), reported with the
 * thread and the instruction; nothing is ever written past either stack.
 *
 * x->aux: the alignment (a power of two, at least 8) for alloca; x->width: 4 or 8, the
 * instruction type's bytes.
 *====================================================================*/
#define ALLOCA_MIN_ALIGN 8   /* "the minimum guaranteed alignment" (frame_align) */

static inline uint64_t lane_get(const uint8_t *f, uint32_t slot, unsigned w, unsigned l)
{
    return w == 4 ? ISA_SLOT(const uint32_t, f, slot)[l] : ISA_SLOT(const uint64_t, f, slot)[l];
}

static inline void lane_put(uint8_t *f, uint32_t slot, unsigned w, unsigned l, uint64_t v)
{
    if (w == 4)
        ISA_SLOT(uint32_t, f, slot)[l] = (uint32_t)v;
    else
        ISA_SLOT(uint64_t, f, slot)[l] = v;
}

static int stack_fault(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, uint64_t addr)
{
    ex_set_fault_k(w, x, 1u << l, EX_FAULT_STACK, w->fault_buf);
    w->fault_addr = addr;
    return ISA_X_FAULT;
}

/* alloca.type ptr, size{, align}: per lane, ptr = (sp - size) rounded down to the
 * alignment, which becomes the lane's stack pointer. */
static int alloca_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint32_t *spl = w->sp[ex_top(w)->sp_row];
    unsigned tw = x->width;
    uint64_t align = x->aux, floor = EX_LOCAL_BASE + (uint64_t)w->local_top;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        /* Aligned as a local address (EX_LOCAL_BASE + offset), which is what the program
         * sees, also for alignments beyond the window's base. */
        uint64_t size = lane_get(f, x->o[1], tw, l), sp = EX_LOCAL_BASE + (uint64_t)spl[l];
        if (size > sp || ((sp - size) & ~(align - 1)) < floor) {
            snprintf(w->fault_buf, sizeof w->fault_buf,
                     "local memory stack overflow: alloca of %llu bytes (aligned to %llu) does not fit in the "
                     "%u bytes of local memory per thread",
                     (unsigned long long)size, (unsigned long long)align, w->local_bytes);
            return stack_fault(w, x, l, 0);
        }
        sp = (sp - size) & ~(align - 1);
        spl[l] = (uint32_t)(sp - EX_LOCAL_BASE);
        lane_put(f, x->o[0], tw, l, sp);
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t alloca_d[1] = { { alloca_f, { 0 }, 0 } };

/* stacksave.type d: the lane's stack pointer, a local address. */
static int stacksave_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const uint32_t *spl = w->sp[ex_top(w)->sp_row];
    unsigned tw = x->width;
    ISA_LANE_LOOP(mask, { lane_put(f, x->o[0], tw, l, EX_LOCAL_BASE + (uint64_t)spl[l]); });
    return ISA_X_NEXT;
}
static const isa_xdesc_t stacksave_d[1] = { { stacksave_f, { 0 }, 0 } };

/* stackrestore.type a: the lane's stack pointer becomes a.  The manual leaves any value
 * not saved by stacksave undefined ("may cause corruption of stack pointer"); here one
 * that would put the stack into the frames, or above this activation's own stack (into
 * its caller's allocations), faults instead. */
static int stackrestore_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const ex_ctx_t *cx = ex_top(w);
    uint32_t *spl = w->sp[cx->sp_row];
    unsigned tw = x->width;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t a = lane_get(f, x->o[0], tw, l);
        uint64_t top = w->cur ? w->sp[w->ctx[cx->parent].sp_row][l] : w->local_bytes;
        if (a < EX_LOCAL_BASE + (uint64_t)w->local_top || a > EX_LOCAL_BASE + top) {
            snprintf(w->fault_buf, sizeof w->fault_buf,
                     "stackrestore to an address outside the thread's stack (between 0x%llx and 0x%llx)",
                     (unsigned long long)(EX_LOCAL_BASE + (uint64_t)w->local_top),
                     (unsigned long long)(EX_LOCAL_BASE + top));
            return stack_fault(w, x, l, a);
        }
        spl[l] = (uint32_t)(a - EX_LOCAL_BASE);
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t stackrestore_d[1] = { { stackrestore_f, { 0 }, 0 } };
/*}=====================================================================*/

/* A register operand of exactly w bytes per lane: its slot, or ISA_NONE. */
static uint32_t reg_of(const ex_func_t *f, const isa_operand_t *o, unsigned w)
{
    unsigned rw;
    if (o->kind != ISA_OPD_REG)
        return ISA_NONE;
    uint32_t s = ex_reg_operand(f, o, &rw);
    return rw == w ? s : ISA_NONE;
}

bool ex_select_stack(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    if ((in->op != ISA_OP_ALLOCA && in->op != ISA_OP_STACKSAVE && in->op != ISA_OP_STACKRESTORE) || in->ntypes != 1)
        return false;
    unsigned tw = isa_types[in->types[0]].bits / 8;
    if (tw != 4 && tw != 8)
        return false;
    x->width = (uint8_t)tw;
    switch ((isa_op_t)in->op) {
    case ISA_OP_ALLOCA: {
        if (in->nopd < 2 || in->nopd > 3)
            return false;
        uint64_t align = ALLOCA_MIN_ALIGN;
        if (in->nopd == 3) {
            /* The frontend checked it: a constant power of two up to 2^23. */
            if (o[2].kind != ISA_OPD_IMM || o[2].imm <= 0 || (o[2].imm & (o[2].imm - 1)))
                return false;
            if ((uint64_t)o[2].imm > align)
                align = (uint64_t)o[2].imm;
        }
        x->o[0] = reg_of(f, &o[0], tw);
        x->o[1] = o[1].kind == ISA_OPD_REG ? reg_of(f, &o[1], tw) : ex_pd_operand(pd, &o[1], tw);
        if (x->o[0] == ISA_NONE || x->o[1] == ISA_NONE)
            return false;
        x->aux = align;
        x->desc = alloca_d;
        break;
    }
    case ISA_OP_STACKSAVE:
        if (in->nopd != 1 || (x->o[0] = reg_of(f, &o[0], tw)) == ISA_NONE)
            return false;
        x->desc = stacksave_d;
        break;
    case ISA_OP_STACKRESTORE:
        if (in->nopd != 1 || (x->o[0] = reg_of(f, &o[0], tw)) == ISA_NONE)
            return false;
        x->desc = stackrestore_d;
        break;
    default:
        return false;
    }
    f->stack_ops = true;
    return true;
}
