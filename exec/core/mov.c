/* mov.c: data movement between registers: copies (registers, immediates, addresses of
 * variables and functions), special registers, vector pack/unpack
 * (mov.b64 {lo, hi}, x and mov.b32 x, {lo, hi}), and whole vector registers
 * (mov.v4.f32 v, w).  A vector register's component (%v.x) is a register of its own. */
#include "exec/internal.h"
#include "exec/machine.h"

#include <string.h>
#include <time.h>

#define EX_NSM      EX_M_SMS       /* %nsmid */
#define EX_SM_WARPS EX_M_SM_WARPS  /* warp slots of one SM (%nwarpid) */

/* A whole-slot copy of w bytes per lane. */
ISA_HOT static int copy_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    unsigned w = x->width;
    uint8_t *d = f + x->o[0];
    const uint8_t *s = f + x->o[1];
    if (w == 4) {
        uint32_t *dd = (uint32_t *)(void *)d;
        const uint32_t *ss = (const uint32_t *)(const void *)s;
        ISA_LANE_LOOP(mask, { dd[l] = ss[l]; });
    } else if (w == 8) {
        uint64_t *dd = (uint64_t *)(void *)d;
        const uint64_t *ss = (const uint64_t *)(const void *)s;
        ISA_LANE_LOOP(mask, { dd[l] = ss[l]; });
    } else if (w == 2) {
        uint16_t *dd = (uint16_t *)(void *)d;
        const uint16_t *ss = (const uint16_t *)(const void *)s;
        ISA_LANE_LOOP(mask, { dd[l] = ss[l]; });
    } else {
        ISA_LANE_LOOP(mask, { memcpy(d + l * w, s + l * w, w); });
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t copy_d[1] = { { copy_f, { 0 }, 0 } };

/* A vector register's copy: x->vec element slots of x->width bytes, one after another. */
ISA_HOT static int vcopy_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    isa_xinsn_t e = *x;
    for (unsigned k = 0; k < x->vec; k++) {
        e.o[0] = x->o[0] + k * x->width * ISA_LANES;
        e.o[1] = x->o[1] + k * x->width * ISA_LANES;
        copy_f(wv, f, &e, mask);
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t vcopy_d[1] = { { vcopy_f, { 0 }, 0 } };

ISA_HOT static int copy_pred_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint32_t a = *ISA_SLOT(uint32_t, f, x->o[1]);
    uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
    *d = (*d & ~mask) | (a & mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t copy_pred_d[1] = { { copy_pred_f, { 0 }, 0 } };

/* mov.pred d, !a */
ISA_HOT static int copy_not_pred_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint32_t a = ~*ISA_SLOT(uint32_t, f, x->o[1]);
    uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
    *d = (*d & ~mask) | (a & mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t copy_not_pred_d[1] = { { copy_not_pred_f, { 0 }, ISA_OPDF_NEG } };

/* mov.pred d, %is_explicit_cluster (x->flags: negated) */
ISA_HOT static int explicit_cluster_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint32_t a = w->cta->explicit_cluster ? ISA_FULL : 0;
    if (x->flags)
        a = ~a;
    uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
    *d = (*d & ~mask) | (a & mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t explicit_cluster_d[1] = { { explicit_cluster_f, { 0 }, 0 } };

/* Special registers, read per lane from the warp and its CTA. */
static inline void sreg_store(uint8_t *f, const isa_xinsn_t *x, unsigned l, uint64_t v)
{
    if (x->width == 8)
        ISA_SLOT(uint64_t, f, x->o[0])[l] = v;
    else if (x->width == 2)
        ISA_SLOT(uint16_t, f, x->o[0])[l] = (uint16_t)v;
    else
        ISA_SLOT(uint32_t, f, x->o[0])[l] = (uint32_t)v;
}

ISA_HOT static int sreg_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    ex_cta_t *c = w->cta;
    const ex_launch_t *L = c->l;
    unsigned comp = (unsigned)(x->aux >> 16);
    isa_sreg_t id = (isa_sreg_t)(x->aux & 0xffff);
    uint64_t v = 0;
    switch (id) {
    case ISA_SR_TID:
        if (x->width == 4) {
            uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
            const uint32_t *t = w->tid[comp];
            ISA_LANE_LOOP(mask, { d[l] = t[l]; });
            return ISA_X_NEXT;
        }
        ISA_LANE_LOOP(mask, { sreg_store(f, x, l, w->tid[comp][l]); });
        return ISA_X_NEXT;
    case ISA_SR_LANEID:      ISA_LANE_LOOP(mask, { sreg_store(f, x, l, l); }); return ISA_X_NEXT;
    case ISA_SR_LANEMASK_EQ: ISA_LANE_LOOP(mask, { sreg_store(f, x, l, 1u << l); }); return ISA_X_NEXT;
    case ISA_SR_LANEMASK_LT: ISA_LANE_LOOP(mask, { sreg_store(f, x, l, (1u << l) - 1); }); return ISA_X_NEXT;
    case ISA_SR_LANEMASK_LE: ISA_LANE_LOOP(mask, { sreg_store(f, x, l, (uint32_t)((2ull << l) - 1)); }); return ISA_X_NEXT;
    case ISA_SR_LANEMASK_GT: ISA_LANE_LOOP(mask, { sreg_store(f, x, l, ~(uint32_t)((2ull << l) - 1)); }); return ISA_X_NEXT;
    case ISA_SR_LANEMASK_GE: ISA_LANE_LOOP(mask, { sreg_store(f, x, l, ~((1u << l) - 1)); }); return ISA_X_NEXT;
    case ISA_SR_NTID:   v = L->block[comp]; break;
    case ISA_SR_CTAID:  v = c->ctaid[comp]; break;
    case ISA_SR_NCTAID: v = L->grid[comp]; break;
    /* Clusters (a launch without them has clusters of one CTA). */
    case ISA_SR_CLUSTERID:       v = c->clusterid[comp]; break;
    case ISA_SR_NCLUSTERID:      v = L->grid[comp] / c->cdim[comp]; break;
    case ISA_SR_CLUSTER_CTAID:   v = c->cluster_ctaid[comp]; break;
    case ISA_SR_CLUSTER_CTARANK: v = c->rank; break;
    case ISA_SR_CLUSTER_NCTAID:  v = c->cdim[comp]; break;
    case ISA_SR_CLUSTER_NCTARANK: v = c->cluster->n; break;
    case ISA_SR_IS_EXPLICIT_CLUSTER: v = c->explicit_cluster; break;
    /* The machine: each host worker is one SM of an H100/H200 (132 SMs, 64 warp slots);
     * a warp's slot is its index in the CTA. */
    case ISA_SR_WARPID:  v = w->id; break;
    case ISA_SR_NWARPID: v = EX_SM_WARPS; break;
    case ISA_SR_SMID:    v = c->worker % EX_NSM; break;
    case ISA_SR_NSMID:   v = EX_NSM; break;
    case ISA_SR_GRIDID:  v = c->gridid; break;
    /* Shared memory, with the sizes an H100/H200 reports: the total rounded up to
     * 128 bytes, the aggregate including the 1 KiB the system reserves. */
    case ISA_SR_DYNAMIC_SMEM_SIZE: v = L->shared_bytes; break;
    case ISA_SR_TOTAL_SMEM_SIZE: v = ((uint64_t)c->p->shared_static + L->shared_bytes + 127) & ~127ull; break;
    case ISA_SR_AGGR_SMEM_SIZE: v = (uint64_t)c->p->shared_static + L->shared_bytes + EX_M_CTA_SHARED_RESERVED; break;
    case ISA_SR_RESERVED_SMEM_OFFSET_BEGIN: v = 0; break;
    case ISA_SR_RESERVED_SMEM_OFFSET_END: v = 0x120; break;
    case ISA_SR_RESERVED_SMEM_OFFSET_CAP: v = 0x400; break;
    case ISA_SR_RESERVED_SMEM_OFFSET_0: case ISA_SR_RESERVED_SMEM_OFFSET_1: v = 0; break;
    /* Time: %clock64 counts 4 cycles per warp instruction on the worker's clock and
     * strictly increases from read to read; %globaltimer is the host's real time. */
    case ISA_SR_CLOCK: case ISA_SR_CLOCK_HI: case ISA_SR_CLOCK64: {
        uint64_t now = c->clock_base + w->ninstr * 4;
        if (now <= w->clock_last)
            now = w->clock_last + 1;
        w->clock_last = now;
        v = id == ISA_SR_CLOCK ? (uint32_t)now : id == ISA_SR_CLOCK_HI ? now >> 32 : now;
        break;
    }
    case ISA_SR_GLOBALTIMER: case ISA_SR_GLOBALTIMER_LO: case ISA_SR_GLOBALTIMER_HI: {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        v = id == ISA_SR_GLOBALTIMER_LO ? (uint32_t)ns : id == ISA_SR_GLOBALTIMER_HI ? ns >> 32 : ns;
        break;
    }
    /* The driver's environment: a cooperative launch's grid workspace in %envreg1 (high
     * half of its address) and %envreg2 (low half); every other one reads 0. */
    case ISA_SR_ENVREG:
        v = comp == 1 ? c->grid_ws >> 32 : comp == 2 ? (uint32_t)c->grid_ws : 0;
        break;
    /* No profiler counters: they read 0, as on a GPU where no profiler configured them. */
    case ISA_SR_PM:
    case ISA_SR_PM0_64: case ISA_SR_PM1_64: case ISA_SR_PM2_64: case ISA_SR_PM3_64:
    case ISA_SR_PM4_64: case ISA_SR_PM5_64: case ISA_SR_PM6_64: case ISA_SR_PM7_64:
        v = 0;
        break;
    case ISA_SR_CURRENT_GRAPH_EXEC: v = 0; break;   /* not launched from a CUDA graph */
    default: v = 0; break;   /* not reached: every row of isa/sregs.def has a case above */
    }
    if (x->width == 4) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { d[l] = (uint32_t)v; });
    } else {
        ISA_LANE_LOOP(mask, { sreg_store(f, x, l, v); });
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t sreg_d[1] = { { sreg_f, { 0 }, 0 } };

/* Pack (aux 0) or unpack (aux 1) x->vec elements of x->width bytes. */
ISA_HOT static int pack_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    unsigned n = x->vec, ew = x->width, tw = n * ew;
    /* The common pairs as straight loops (mov.b64 {lo, hi} and back, mov.b32 of two
     * halves): the low element is the first. */
#define PACK2(ET, WT)                                                                        \
    do {                                                                                     \
        if (x->aux == 0) {                                                                   \
            const ET *a = ISA_SLOT(const ET, f, x->o[1]), *b = ISA_SLOT(const ET, f, x->o[2]); \
            WT *d = ISA_SLOT(WT, f, x->o[0]);                                                \
            ISA_LANE_LOOP(mask, { d[l] = (WT)a[l] | (WT)((WT)b[l] << (8 * sizeof(ET))); });  \
        } else {                                                                             \
            const WT *s = ISA_SLOT(const WT, f, x->o[2]);                                    \
            if (x->o[0] != ISA_NONE) {                                                       \
                ET *d = ISA_SLOT(ET, f, x->o[0]);                                            \
                ISA_LANE_LOOP(mask, { d[l] = (ET)s[l]; });                                   \
            }                                                                                \
            if (x->o[1] != ISA_NONE) {                                                       \
                ET *d = ISA_SLOT(ET, f, x->o[1]);                                            \
                ISA_LANE_LOOP(mask, { d[l] = (ET)(s[l] >> (8 * sizeof(ET))); });             \
            }                                                                                \
        }                                                                                    \
        return ISA_X_NEXT;                                                                   \
    } while (0)
    if (n == 2 && ew == 4)
        PACK2(uint32_t, uint64_t);
    if (n == 2 && ew == 2)
        PACK2(uint16_t, uint32_t);
#undef PACK2
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint8_t whole[16];
        if (x->aux == 0) {
            for (unsigned k = 0; k < n; k++)
                memcpy(whole + k * ew, f + x->o[1 + k] + l * ew, ew);
            memcpy(f + x->o[0] + l * tw, whole, tw);
        } else {
            memcpy(whole, f + x->o[n] + l * tw, tw);
            for (unsigned k = 0; k < n; k++)
                if (x->o[k] != ISA_NONE)
                    memcpy(f + x->o[k] + l * ew, whole + k * ew, ew);
        }
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t pack_d[1] = { { pack_f, { 0 }, ISA_HON_SINK } };

/* mov.vN between element lists (a brace list or a whole vector register on either
 * side): x->vec elements of x->width bytes; sources in o[0..3] (constants among them:
 * relocated like every operand slot), destinations in o[4], o[5] and the two halves of
 * aux (ISA_NONE: a sink).  Every source is read before any destination is written, so
 * {a, b} = {b, a} swaps. */
ISA_HOT static int vmove_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    unsigned n = x->vec, ew = x->width;
    uint32_t dst[4] = { x->o[4], x->o[5], (uint32_t)x->aux, (uint32_t)(x->aux >> 32) };
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint8_t v[4][8];
        for (unsigned k = 0; k < n; k++)
            memcpy(v[k], f + x->o[k] + l * ew, ew);
        for (unsigned k = 0; k < n; k++)
            if (dst[k] != ISA_NONE)
                memcpy(f + dst[k] + l * ew, v[k], ew);
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t vmove_d[1] = { { vmove_f, { 0 }, ISA_HON_SINK } };

/* Bytes per lane of a register operand (a vector component's element width), 0xff
 * for other operands. */
static unsigned width_of(ex_func_t *f, const isa_operand_t *o)
{
    return o->kind == ISA_OPD_REG ? ex_reg_width(f, o) : 0xff;
}

/* The slot of a register operand whose width was checked with width_of. */
static uint32_t slot_of(ex_func_t *f, const isa_operand_t *o)
{
    unsigned w;
    return ex_reg_operand(f, o, &w);
}

/* The elements of o as a list of n slots of ew bytes: a brace list (registers of ew
 * bytes, constants among sources, sinks among destinations) or a whole vector
 * register (its components); 0 for any other form or another count. */
static unsigned elems_of(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned ew, bool dst, uint32_t *slots)
{
    if (o->kind == ISA_OPD_VEC) {
        if (o->count > 4)
            return 0;
        for (unsigned k = 0; k < o->count; k++) {
            const isa_operand_t *e = &f->ir->opds[o->u.first + k];
            if (e->kind == ISA_OPD_SINK && dst) {
                slots[k] = ISA_NONE;
                continue;
            }
            if (e->kind == ISA_OPD_REG ? width_of(f, e) != ew : dst)
                return 0;
            if ((slots[k] = ex_pd_operand(pd, e, ew)) == ISA_NONE)
                return 0;
        }
        return o->count;
    }
    if (o->kind != ISA_OPD_REG || o->sel || width_of(f, o) != 0xfe)
        return 0;
    const isa_reg_t *r = &f->ir->regs[o->u.reg];
    if (r->vec < 2 || r->vec > 4)
        return 0;
    for (unsigned k = 0; k < r->vec; k++) {
        isa_operand_t c = *o;
        c.sel = (uint8_t)(ISA_SEL_X + k);
        if (width_of(f, &c) != ew || (slots[k] = slot_of(f, &c)) == ISA_NONE)
            return 0;
    }
    return r->vec;
}

bool ex_select_mov(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    if (in->op != ISA_OP_MOV || in->ntypes != 1 || in->nopd != 2)
        return false;
    const isa_operand_t *d = &f->ir->opds[in->opd], *a = d + 1;
    isa_type_t t = (isa_type_t)in->types[0];
    unsigned tw = isa_types[t].bits / 8;
    if (t == ISA_T_PRED) {
        if (width_of(f, d) != 0)
            return false;
        x->o[0] = slot_of(f, d);
        if (a->kind == ISA_OPD_IMM) {
            x->o[1] = ex_pd_operand(pd, a, 4);
            /* A predicate constant is a lane mask: all ones for true. */
            if (a->imm)
                x->o[1] = ex_pd_operand(pd, &(isa_operand_t){ .kind = ISA_OPD_IMM, .imm = -1 }, 4);
        } else if (a->kind == ISA_OPD_SREG && a->u.sreg.id == ISA_SR_IS_EXPLICIT_CLUSTER) {
            x->flags = (a->flags & ISA_OPDF_NEG) != 0;
            x->desc = explicit_cluster_d;
            return true;
        } else if (a->kind == ISA_OPD_REG && width_of(f, a) == 0) {
            x->o[1] = slot_of(f, a);
        } else {
            return false;
        }
        x->desc = (a->flags & ISA_OPDF_NEG) ? copy_not_pred_d : copy_pred_d;
        return x->o[1] != ISA_NONE;
    }
    int vm = isa_instr_mod(in, ISA_G_VEC);
    if (vm >= 0 && (d->kind == ISA_OPD_VEC || a->kind == ISA_OPD_VEC)) {
        /* mov.v2/.v4 between brace lists and whole vector registers, element by element */
        unsigned n = vm == ISA_M_V2 ? 2 : vm == ISA_M_V4 ? 4 : 0;
        uint32_t ds[4], as[4];
        if (n == 0 || elems_of(pd, f, d, tw, true, ds) != n || elems_of(pd, f, a, tw, false, as) != n)
            return false;
        for (unsigned k = 0; k < 4; k++)
            x->o[k] = k < n ? as[k] : ISA_NONE;
        x->o[4] = ds[0];
        x->o[5] = ds[1];
        x->aux = n > 2 ? ds[2] | (uint64_t)ds[3] << 32 : 0;
        x->vec = (uint8_t)n;
        x->width = (uint8_t)tw;
        x->desc = vmove_d;
        return true;
    }
    if (vm < 0 && tw >= 4 && (width_of(f, d) == 0xfe || width_of(f, a) == 0xfe) &&
        (d->kind == ISA_OPD_REG && a->kind == ISA_OPD_REG)) {
        /* mov.b32/.b64/.b128 packing a whole vector register's components into a scalar
         * or unpacking one into them, as with a brace list */
        bool unpack = width_of(f, d) == 0xfe;
        const isa_operand_t *v = unpack ? d : a, *s = unpack ? a : d;
        const isa_reg_t *r = &f->ir->regs[v->u.reg];
        uint32_t sl[4];
        if (r->vec < 2 || r->vec > 4 || tw % r->vec || width_of(f, s) != tw ||
            elems_of(pd, f, v, tw / r->vec, unpack, sl) != r->vec)
            return false;
        unsigned n = r->vec;
        x->vec = (uint8_t)n;
        x->width = (uint8_t)(tw / n);
        x->aux = unpack;
        for (unsigned k = 0; k < n; k++)
            x->o[unpack ? k : 1 + k] = sl[k];
        x->o[unpack ? n : 0] = slot_of(f, s);
        x->desc = pack_d;
        return x->o[unpack ? n : 0] != ISA_NONE;
    }
    if (d->kind == ISA_OPD_VEC || a->kind == ISA_OPD_VEC) {
        const isa_operand_t *v = d->kind == ISA_OPD_VEC ? d : a, *s = d->kind == ISA_OPD_VEC ? a : d;
        unsigned n = v->count;
        if (n < 2 || n > 4 || tw % n || width_of(f, s) != tw)
            return false;
        unsigned ew = tw / n;
        x->vec = (uint8_t)n;
        x->width = (uint8_t)ew;
        x->aux = d->kind == ISA_OPD_VEC;
        for (unsigned k = 0; k < n; k++) {
            const isa_operand_t *e = &f->ir->opds[v->u.first + k];
            uint32_t slot;
            if (e->kind == ISA_OPD_SINK && x->aux) {
                slot = ISA_NONE;
            } else {
                if (e->kind == ISA_OPD_REG && width_of(f, e) != ew)
                    return false;
                slot = ex_pd_operand(pd, e, ew);
                if (slot == ISA_NONE)
                    return false;
            }
            x->o[x->aux ? k : 1 + k] = slot;
        }
        x->o[x->aux ? n : 0] = slot_of(f, s);
        x->desc = pack_d;
        return true;
    }
    if (vm >= 0) {
        /* mov.v2/.v4 between whole vector registers of that shape: every component. */
        unsigned n = vm == ISA_M_V2 ? 2 : vm == ISA_M_V4 ? 4 : 0;
        if (d->kind != ISA_OPD_REG || a->kind != ISA_OPD_REG || width_of(f, d) != 0xfe ||
            width_of(f, a) != 0xfe)
            return false;
        const isa_reg_t *rd = &f->ir->regs[d->u.reg], *ra = &f->ir->regs[a->u.reg];
        if (n == 0 || rd->vec != n || ra->vec != n)
            return false;
        isa_operand_t cd = *d, ca = *a;
        cd.sel = ca.sel = ISA_SEL_X;
        unsigned ew = width_of(f, &cd);
        if (ew != tw || width_of(f, &ca) != ew)
            return false;
        x->o[0] = slot_of(f, &cd);
        x->o[1] = slot_of(f, &ca);
        x->width = (uint8_t)ew;
        x->vec = rd->vec;
        x->desc = vcopy_d;
        return true;
    }
    if (width_of(f, d) != tw)
        return false;
    x->o[0] = slot_of(f, d);
    x->width = (uint8_t)tw;
    if (a->kind == ISA_OPD_SREG) {
        x->aux = a->u.sreg.id | (uint64_t)a->u.sreg.comp << 16;
        x->desc = sreg_d;
        return tw == 2 || tw == 4 || tw == 8;
    }
    if (a->kind == ISA_OPD_REG && width_of(f, a) != tw)
        return false;
    x->o[1] = ex_pd_operand(pd, a, tw);
    x->desc = copy_d;
    return x->o[1] != ISA_NONE;
}
