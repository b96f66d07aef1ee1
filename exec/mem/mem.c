/* mem.c: the memory spaces: translate an address of a space (or a generic address,
 * through the windows) to host memory, checking that the whole access lies in memory
 * the thread may use.  A failed check records the fault in the warp. */
#include "exec/internal.h"

#include <stdlib.h>

bool ex_global_ok(ex_program_t *p, uintptr_t a, size_t bytes)
{
    uint64_t lo, hi;
    return a + bytes >= a && ex_global_range(p, a, &lo, &hi) && a + bytes <= hi;
}

static void *fault(ex_warp_t *w, unsigned lane, uint64_t addr, const char *what, const ex_insn_t *in)
{
    w->fault_kind = EX_FAULT_ADDRESS;
    w->fault_lane = (int)lane;
    w->fault_addr = addr;
    w->fault_what = what;
    w->fault_insn = in;
    return NULL;
}

void *ex_mem(ex_warp_t *w, unsigned lane, isa_space_t sp, uint64_t addr, unsigned bytes, const ex_insn_t *in)
{
    ex_cta_t *c = w->cta;
    bool cta_only = sp == ISA_SP_SHARED || sp == ISA_SP_SHARED_CTA;   /* not ::cluster, not generic */
    if (sp == ISA_SP_NONE || sp == 0xff) {
        /* Generic: the window decides the space. */
        switch (addr & EX_WIN_MASK) {
        case EX_WIN_SHARED: sp = ISA_SP_SHARED; addr -= EX_WIN_SHARED; break;
        case EX_WIN_LOCAL:  sp = ISA_SP_LOCAL;  addr -= EX_WIN_LOCAL; break;
        case EX_WIN_PARAM:  sp = ISA_SP_PARAM;  addr -= EX_WIN_PARAM; break;
        case EX_WIN_CONST:  sp = ISA_SP_CONST;  addr -= EX_WIN_CONST; break;
        default:            sp = ISA_SP_GLOBAL; break;
        }
    }
    switch (isa_spaces[sp].window) {
    case ISA_SP_GLOBAL:
        if (!ex_global_ok(c->p, (uintptr_t)addr, bytes))
            return fault(w, lane, addr, "global address outside every allocation", in);
        return (void *)(uintptr_t)addr;
    case ISA_SP_SHARED: {
        /* Bits 24-31 of a shared address name the CTA of the cluster (its rank), as on the
         * H100: a CTA's own addresses carry its rank (symbols, cvta), mapa's another's. */
        uint32_t rank = (uint32_t)(addr >> 24) & 0xff;
        ex_cta_t *t = c;
        if (addr >> 32)
            return fault(w, lane, addr, "shared address beyond 32 bits", in);
        if (rank != c->rank) {
            if (cta_only) {
                /* measured (tests/apps/cluster_addr.cu): ld.shared::cta of another rank's
                 * address, or of the CTA's own offset without its rank, in a cluster */
                snprintf(w->fault_buf, sizeof w->fault_buf,
                         "a .shared::cta access to an address of CTA rank %u of the cluster, not this CTA's "
                         "(rank %u): an illegal instruction on the H100", rank, c->rank);
                fault(w, lane, addr, w->fault_buf, in);
                w->fault_kind = EX_FAULT_ILLEGAL;
                return NULL;
            }
            if (!c->cluster || rank >= c->cluster->n) {
                snprintf(w->fault_buf, sizeof w->fault_buf,
                         "shared::cluster address of CTA rank %u, outside the cluster (%u CTA%s)", rank,
                         c->cluster ? c->cluster->n : 1, c->cluster && c->cluster->n > 1 ? "s" : "");
                return fault(w, lane, addr, w->fault_buf, in);
            }
            t = c->cluster->cta[rank];
        }
        addr &= 0xffffff;
        if (addr > t->shared_size || bytes > t->shared_size - addr)
            return fault(w, lane, addr, "shared address outside the CTA's shared memory", in);
        return t->shared + addr;
    }
    case ISA_SP_LOCAL:
        if (addr < EX_LOCAL_BASE || addr - EX_LOCAL_BASE > w->local_bytes ||
            bytes > w->local_bytes - (addr - EX_LOCAL_BASE))
            return fault(w, lane, addr, "local address outside the thread's local memory", in);
        if (((addr - EX_LOCAL_BASE) & 15) + bytes > 16)   /* not one interleaved piece */
            return fault(w, lane, addr, "local access crossing a 16-byte boundary", in);
        return EX_LOCAL_AT(w->local, lane, addr - EX_LOCAL_BASE);
    case ISA_SP_CONST:
        if (addr > c->p->consts_size || bytes > c->p->consts_size - addr) {
            /* The H100 reads zeros outside the module's constants (past a __constant__
             * array, at a negative index, beyond 64 KB: measured); with exact bounds it
             * is a fault. */
            static const uint8_t zeros[64];
            if (c->p->dev->exact_bounds || bytes > sizeof zeros)
                return fault(w, lane, addr, "constant address outside the constant bank", in);
            return (void *)(uintptr_t)zeros;
        }
        return c->p->consts + addr;
    case ISA_SP_PARAM:
        if (addr > c->params_size || bytes > c->params_size - addr)
            return fault(w, lane, addr, "parameter address outside the kernel's parameters", in);
        return (void *)(c->params + addr);
    default:
        return fault(w, lane, addr, "access to an unsupported state space", in);
    }
}

bool ex_pd_address(void *pd, ex_func_t *f, const isa_operand_t *o, int spi, ex_addrop_t *a)
{
    if (o->kind != ISA_OPD_ADDR || (o->flags & ISA_OPDF_ADDRLIST))
        return false;
    a->off = o->imm;
    a->slot = ISA_NONE;
    a->b32 = false;
    a->space = spi < 0 ? EX_SP_GENERIC : (uint8_t)isa_spaces[spi].window;
    if (o->base == ISA_OPD_REG) {
        unsigned bw;
        a->slot = ex_reg_operand(f, o, &bw);
        if (a->slot == ISA_NONE || (bw != 4 && bw != 8))
            return false;
        a->b32 = bw == 4;
    } else if (o->base == ISA_OPD_SYM) {
        const isa_var_t *v = (o->flags & ISA_OPDF_MODSYM) ? &f->mod->vars[o->u.sym] : &f->ir->vars[o->u.sym];
        isa_space_t vw = isa_spaces[v->space].window;
        if (vw != ISA_SP_GLOBAL && vw != ISA_SP_SHARED)
            return false;
        isa_operand_t s = *o;
        s.kind = ISA_OPD_SYM;
        s.imm = 0;
        a->slot = ex_pd_operand(pd, &s, 8);
        if (a->slot == ISA_NONE)
            return false;
        if (a->space == EX_SP_GENERIC)
            a->space = (uint8_t)vw;   /* a generic access to a variable is one in its space */
        else if (a->space != vw)
            return false;
    } else if (o->base != ISA_OPD_IMM) {
        return false;
    }
    return a->space == EX_SP_GENERIC || a->space == ISA_SP_GLOBAL || a->space == ISA_SP_SHARED;
}
