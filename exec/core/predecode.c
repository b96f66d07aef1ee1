/* predecode.c: turn a function's IR into executable records, once: every register gets
 * a frame slot (32 lanes of its width; a predicate is one 32-bit lane mask), every
 * immediate a constant slot, every parameter area its place, and every instruction a
 * handler chosen for its exact types and modifiers. */
#include "exec/internal.h"
#include "exec/tex/tex.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define SLOT_ALIGN 64

/* Host memory running out while pre-decoding: every allocation here goes through pd_mem,
 * which jumps back to ex_predecode (the function is then not run, and the program refused
 * with ISA_ST_NOMEM), never leaving a NULL to be used. */
static _Thread_local jmp_buf *pd_oom;
static void *pd_mem(void *p)
{
    if (!p)
        longjmp(*pd_oom, 1);
    return p;
}
#define PD_MALLOC(n)     pd_mem(malloc(n))
#define PD_CALLOC(n, s)  pd_mem(calloc((n), (s)))
/* realloc into lvalue x: on failure x keeps its block (freed by the caller's cleanup) */
#define PD_REALLOC(x, n) ((x) = pd_mem(realloc((x), (n))))

typedef struct {
    ex_program_t *p;
    ex_func_t    *f;
    uint32_t      size;          /* frame bytes so far */
    uint8_t      *consts;        /* constant bytes, relative to const_begin */
    uint32_t      nconst, capconst;
    ex_fixup_t   *fix;
    uint32_t      nfix, capfix;
    ex_contract_t plan;          /* contraction (contract.c) */
    uint32_t     *kept;          /* per mul, the slots of the sources it keeps: [2 * j + s] */
} pd_t;

static uint32_t slot_new(pd_t *d, uint32_t bytes)
{
    uint32_t off = (d->size + SLOT_ALIGN - 1) & ~(uint32_t)(SLOT_ALIGN - 1);
    d->size = off + bytes;
    return off;
}

/* Bytes per lane of a register type (predicates are handled as masks). */
static unsigned type_width(isa_type_t t)
{
    unsigned b = isa_types[t].bits;
    return b <= 8 ? 1 : b <= 16 ? 2 : b <= 32 ? 4 : b <= 64 ? 8 : 16;
}

/* A constant slot: the value broadcast to 32 lanes, kept in the frame template. */
static uint32_t const_slot(pd_t *d, uint64_t v, unsigned w)
{
    uint32_t bytes = w * ISA_LANES;
    uint32_t off = (d->nconst + SLOT_ALIGN - 1) & ~(uint32_t)(SLOT_ALIGN - 1);
    if (off + bytes > d->capconst) {
        d->capconst = (off + bytes) * 2 + 1024;
        PD_REALLOC(d->consts, d->capconst);
    }
    for (unsigned l = 0; l < ISA_LANES; l++)
        memcpy(d->consts + off + l * w, &v, w);
    d->nconst = off + bytes;
    return off | 0x80000000u;          /* relocated past the registers at the end */
}

static uint32_t fixup_slot(pd_t *d, ex_fixkind_t kind, uint64_t value, unsigned w)
{
    /* In the constant area (so that a new frame copies it with the constants); the value
     * is filled in once the program knows its addresses. */
    uint32_t slot = const_slot(d, 0, w);
    if (d->nfix == d->capfix) {
        d->capfix = d->capfix ? d->capfix * 2 : 16;
        PD_REALLOC(d->fix, d->capfix * sizeof *d->fix);
    }
    ex_fixup_t *x = &d->fix[d->nfix++];
    x->slot = slot;
    x->kind = (uint8_t)kind;
    x->bytes = (uint8_t)w;
    x->value = value;
    return slot;
}

/* The address (in its own space) of a variable, as a fixup kind and offset. */
static bool var_address(pd_t *d, const isa_operand_t *o, ex_fixkind_t *kind, uint64_t *off)
{
    ex_program_t *p = d->p;
    if (o->flags & ISA_OPDF_MODSYM) {
        const isa_var_t *v = &p->m->vars[o->u.sym];
        switch (isa_spaces[v->space].window) {
        case ISA_SP_GLOBAL: *kind = FX_GLOBAL; break;
        case ISA_SP_CONST:  *kind = FX_CONST; break;
        case ISA_SP_SHARED: *kind = FX_SHARED; break;
        case ISA_SP_LOCAL:  *kind = FX_MLOCAL; break;
        default: return false;
        }
        *off = p->global_addr[o->u.sym];
        return true;
    }
    const isa_func_t *fn = d->f->ir;
    const isa_var_t *v = &fn->vars[o->u.sym];
    switch (isa_spaces[v->space].window) {
    case ISA_SP_LOCAL:
        *kind = FX_LOCAL;
        *off = d->f->var_local[o->u.sym];
        return true;
    case ISA_SP_SHARED:
        *kind = FX_SHARED;
        *off = d->f->var_local[o->u.sym];
        return true;
    case ISA_SP_PARAM:
        if (fn->is_entry && o->u.sym < fn->nparam) {
            *kind = FX_KPARAM;
            *off = d->f->var_local[o->u.sym];
            return true;
        }
        if (!fn->is_entry && d->f->var_local[o->u.sym] != ISA_NONE) {
            /* A function parameter whose address mov takes: its copy in the frame. */
            *kind = FX_LOCAL;
            *off = d->f->var_local[o->u.sym];
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* A register operand's frame slot and bytes per lane (0: a predicate mask, 0xfe: a whole
 * vector register).  A vector register of vec elements is vec consecutive element slots,
 * so its component (%v.x .. %v.w, %v.r .. %v.a) is the slot of that element, with the
 * element's width.  ISA_NONE for any other selector (the video ones), or a component
 * the register does not have. */
uint32_t ex_reg_operand(const ex_func_t *f, const isa_operand_t *o, unsigned *width)
{
    const isa_reg_t *reg = &f->ir->regs[o->u.reg];
    unsigned k;
    *width = f->reg_width[o->u.reg];
    if (o->sel == ISA_SEL_NONE)
        return f->reg_slot[o->u.reg];
    if (o->sel >= ISA_SEL_X && o->sel <= ISA_SEL_W)
        k = o->sel - ISA_SEL_X;
    else if (o->sel >= ISA_SEL_R && o->sel <= ISA_SEL_A)
        k = o->sel - ISA_SEL_R;
    else
        return ISA_NONE;
    if (reg->vec < 2 || k >= reg->vec)
        return ISA_NONE;
    *width = type_width(reg->type);
    return f->reg_slot[o->u.reg] + k * *width * ISA_LANES;
}

/* Bytes per lane of a register operand as ex_reg_operand gives it; 0xff for a selector
 * that is no vector component. */
unsigned ex_reg_width(const ex_func_t *f, const isa_operand_t *o)
{
    unsigned w;
    return ex_reg_operand(f, o, &w) == ISA_NONE ? 0xff : w;
}

/* The frame slot of a source operand that is a register or a constant; ISA_NONE when
 * the operand has another form.  w: bytes per lane wanted for constants. */
uint32_t ex_pd_operand(void *pdv, const isa_operand_t *o, unsigned w)
{
    pd_t *d = pdv;
    switch (o->kind) {
    case ISA_OPD_REG: {
        unsigned rw;
        return ex_reg_operand(d->f, o, &rw);
    }
    case ISA_OPD_IMM:
        return const_slot(d, (uint64_t)o->imm, w ? w : 4);
    case ISA_OPD_F32:
        /* An f32 literal in a 64-bit operand is its 32 bits zero-extended, not the value
         * converted: mov.f64 %fd, 0f3F800000 holds 0x000000003f800000 on the H100 (golden
         * f32_literal_f64: arithmetic, comparisons and stores all see that tiny double). */
        return const_slot(d, (uint32_t)o->imm, w == 8 ? 8 : 4);
    case ISA_OPD_F64:
        if (w == 4) {             /* a double literal used as f32: rounded to nearest */
            double x;
            uint64_t b = (uint64_t)o->imm;
            memcpy(&x, &b, 8);
            float f = (float)x;
            uint32_t u;
            memcpy(&u, &f, 4);
            return const_slot(d, u, 4);
        }
        return const_slot(d, (uint64_t)o->imm, 8);
    case ISA_OPD_SYM: {
        ex_fixkind_t k;
        uint64_t off;
        if (!var_address(d, o, &k, &off))
            return ISA_NONE;
        return fixup_slot(d, k, off + (uint64_t)o->imm, w == 4 ? 4 : 8);
    }
    case ISA_OPD_FUNC:
        return fixup_slot(d, FX_FUNC, o->u.func, 8);
    default:
        return ISA_NONE;
    }
}

/* Width a handler's operand slot has for operand i, given its descriptor. */
static bool widths_ok(pd_t *d, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_func_t *fn = d->f->ir;
    for (unsigned i = 0; i < in->nopd && i < 6; i++) {
        const isa_operand_t *o = &fn->opds[in->opd + i];
        unsigned want = x->desc->w[i];
        if (o->kind == ISA_OPD_DUAL && i == 0)
            continue;                 /* p|q: checked below */
        if (o->kind == ISA_OPD_SINK)
            continue;
        bool video = isa_ops[in->op].family == ISA_FAM_VIDEO;
        if (want == ISA_W_ANY) {
            if (o->kind == ISA_OPD_REG && ex_reg_width(d->f, o) == 0xff)
                return false;
            continue;
        }
        if (o->kind == ISA_OPD_REG) {
            /* Video selectors were checked and recorded by select_alu: the whole
             * register's width. */
            unsigned have = video && o->sel ? d->f->reg_width[o->u.reg] : ex_reg_width(d->f, o);
            if (want == ISA_W_PRED ? have != 0 : have != want)
                return false;
        } else if (want == ISA_W_PRED && o->kind != ISA_OPD_IMM) {
            return false;             /* a constant predicate has its slot (select_alu) */
        }
    }
    return true;
}

/* Pure register instructions: slots for every operand, then width checks. */
/*{=====================================================================
 * Contraction: the fused multiply-adds ptxas makes of a mul and an add or sub, as
 * contract.c plans them
 *====================================================================*/
/* The fused multiply-add with a negated operand: o[1] (bit 0 of vec) and/or o[3] (bit 1)
 * are copied with their signs flipped into o[4] and o[5], then the fma handler in imm
 * runs on them (width bytes per lane; aux stays the handler's). */
ISA_HOT static int fused_neg_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    const isa_xdesc_t *u = (const isa_xdesc_t *)(uintptr_t)x->imm;
    isa_xinsn_t y = *x;
    unsigned w = x->width;
    for (unsigned k = 0; k < 2; k++) {
        if (!(x->vec & (1u << k)))
            continue;
        uint32_t from = x->o[k ? 3 : 1], to = x->o[k ? 5 : 4];
        /* every lane's sign flipped (straight loops the compiler vectorises) */
        if (w == 8) {
            const uint64_t *a = ISA_SLOT(const uint64_t, f, from);
            uint64_t *d = ISA_SLOT(uint64_t, f, to);
            for (unsigned l = 0; l < ISA_LANES; l++)
                d[l] = a[l] ^ (1ull << 63);
        } else if (w == 4) {
            const uint32_t *a = ISA_SLOT(const uint32_t, f, from);
            uint32_t *d = ISA_SLOT(uint32_t, f, to), s = x->flags ? 0x80008000u : 0x80000000u;   /* flags: an f16x2 pair */
            for (unsigned l = 0; l < ISA_LANES; l++)
                d[l] = a[l] ^ s;
        } else {
            const uint16_t *a = ISA_SLOT(const uint16_t, f, from);
            uint16_t *d = ISA_SLOT(uint16_t, f, to);
            for (unsigned l = 0; l < ISA_LANES; l++)
                d[l] = (uint16_t)(a[l] ^ 0x8000u);
        }
        y.o[k ? 3 : 1] = to;
    }
    y.o[4] = y.o[5] = ISA_NONE;
    y.flags = 0;
    y.imm = 0;
    y.desc = u;
    return u->fn(wv, f, &y, mask);
}
static const isa_xdesc_t fused_neg_d[1] = { { fused_neg_f, { 0 }, 0 } };

/* A mul whose sources an add it is fused into reads after their registers may have
 * changed: it copies them (o[1] into o[3], o[2] into o[4], each unless ISA_NONE; target
 * bytes per lane) for its lanes, then runs its handler (in imm). */
ISA_HOT static int keep_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    const isa_xdesc_t *u = (const isa_xdesc_t *)(uintptr_t)x->imm;
    unsigned w = x->target;
    for (unsigned s = 0; s < 2; s++) {
        if (x->o[3 + s] == ISA_NONE)
            continue;
        uint8_t *to = f + x->o[3 + s];
        const uint8_t *from = f + x->o[1 + s];
        if (mask == ISA_FULL && w == 4)
            memcpy(to, from, 4 * ISA_LANES);      /* constant sizes: no call */
        else if (mask == ISA_FULL && w == 8)
            memcpy(to, from, 8 * ISA_LANES);
        else if (mask == ISA_FULL)
            memcpy(to, from, (size_t)w * ISA_LANES);
        else
            for (uint32_t m = mask; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                memcpy(to + l * w, from + l * w, w);
            }
    }
    isa_xinsn_t y = *x;
    y.o[3] = y.o[4] = ISA_NONE;
    y.imm = 0;
    y.target = 0;
    y.desc = u;
    return u->fn(wv, f, &y, mask);
}
static const isa_xdesc_t keep_d[1] = { { keep_f, { 0 }, 0 } };

/* The add or sub at instruction i as the fused multiply-add ptxas makes of it, if the
 * plan has one; a source the mul keeps is read from its copy. */
static bool select_fused(pd_t *d, uint32_t i, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_func_t *fn = d->f->ir;
    const ex_contract_t *plan = &d->plan;
    const uint32_t *kept = d->kept;
    uint32_t j = plan->mul[i];
    if (j == ISA_NONE || in->nsfx >= ISA_MAX_SFX)
        return false;
    unsigned k = plan->opd[i] & 3;
    isa_type_t t = (isa_type_t)in->types[0];
    const isa_operand_t *o1 = &fn->opds[in->opd + 1], *o2 = &fn->opds[in->opd + 2];
    /* fma.rn{.ftz}{.sat}.T d, a, b, c */
    isa_instr_t f2 = *in;
    f2.op = ISA_OP_FMA;
    f2.nopd = 4;
    f2.sfx[f2.nsfx++] = (isa_sfx_t){ .kind = ISA_SFX_MOD, .group = ISA_G_ROUND, .id = ISA_M_RN };
    if (!isa_sem_select(&f2, x))
        return false;
    const isa_instr_t *m = &fn->instrs[j];
    const isa_operand_t *a = &fn->opds[m->opd + 1], *b = &fn->opds[m->opd + 2];
    const isa_operand_t *c = k == 1 ? o2 : o1, *dd = &fn->opds[in->opd];
    unsigned w = type_width(t);
    if (dd->kind != ISA_OPD_REG || dd->sel || c->flags || (c->kind == ISA_OPD_REG && c->sel))
        return false;
    unsigned have;
    x->o[0] = ex_reg_operand(d->f, dd, &have);
    if (x->o[0] == ISA_NONE || have != w)
        return false;
    const isa_operand_t *src[3] = { a, b, c };
    for (unsigned s = 0; s < 3; s++) {
        if (src[s]->kind == ISA_OPD_REG && ex_reg_width(d->f, src[s]) != w)
            return false;
        x->o[1 + s] = s < 2 && (plan->keep[j] >> s & 1) ? kept[2 * j + s] : ex_pd_operand(d, src[s], w);
        if (x->o[1 + s] == ISA_NONE)
            return false;
    }
    /* sub: m - c is fma(a, b, -c); c - m is fma(-a, b, c); a negated m (-a*b through
     * negs) flips a's sign once more */
    unsigned neg = (in->op != ISA_OP_SUB ? 0 : k == 1 ? 2 : 1) ^ (plan->opd[i] >> 2 & 1);
    if (neg) {
        x->imm = (int64_t)(uintptr_t)x->desc;
        x->width = (uint8_t)w;
        x->vec = (uint8_t)neg;
        x->flags = t == ISA_T_F16X2;
        x->o[4] = slot_new(d, w * ISA_LANES);
        x->o[5] = slot_new(d, w * ISA_LANES);
        x->desc = fused_neg_d;
    }
    return true;
}
/*}=====================================================================*/

static bool select_alu(pd_t *d, const isa_instr_t *in, ex_insn_t *x)
{
    if (!isa_sem_select(in, x))
        return false;
    const isa_func_t *fn = d->f->ir;
    for (unsigned i = 0; i < 6; i++)
        x->o[i] = ISA_NONE;
    for (unsigned i = 0; i < in->nopd && i < 6; i++) {
        const isa_operand_t *o = &fn->opds[in->opd + i];
        unsigned w = x->desc->w[i];
        if (in->op == ISA_OP_LOP3 && i == 4)
            continue;                 /* immLut goes to aux (below); o[4] is p of d|p */
        if (w == ISA_W_PRED)
            w = 4;
        if (w == ISA_W_ANY && in->ntypes > 0)
            w = type_width((isa_type_t)in->types[i == 0 ? 0 : in->ntypes - 1]);
        if (o->kind == ISA_OPD_SINK && i == 0) {
            x->o[0] = ISA_NONE;
            continue;
        }
        if (o->kind == ISA_OPD_DUAL && i == 0) {
            const isa_operand_t *pp = &fn->opds[o->u.first], *qq = pp + 1;
            if ((pp->kind != ISA_OPD_REG && pp->kind != ISA_OPD_SINK) || (qq->kind != ISA_OPD_REG && qq->kind != ISA_OPD_SINK))
                return false;
            unsigned pw = 0, qw = 0;
            x->o[0] = pp->kind == ISA_OPD_REG ? ex_reg_operand(d->f, pp, &pw) : ISA_NONE;
            x->o[4] = qq->kind == ISA_OPD_REG ? ex_reg_operand(d->f, qq, &qw) : ISA_NONE;
            /* setp's p|q: two predicates; lop3's d|p: d of the handler's width. */
            unsigned w0 = x->desc->w[0] == ISA_W_PRED ? 0 : x->desc->w[0];
            if ((pp->kind == ISA_OPD_REG && (x->o[0] == ISA_NONE || pw != w0)) ||
                (qq->kind == ISA_OPD_REG && (x->o[4] == ISA_NONE || qw != 0)))
                return false;
            continue;
        }
        if (o->kind == ISA_OPD_REG && (o->sel || (o->flags & ISA_OPDF_MINUS)) &&
            isa_ops[in->op].family == ISA_FAM_VIDEO) {
            /* A video operand's selectors (%r.b2, %r.h21, d.b310) or vmad's negation
             * (-%r): the whole register's slot, and what it carries in aux and imm for
             * the handler (widths_ok checks the register's width). */
            if ((o->flags & ISA_OPDF_NEG) || !isa_sem_video_opd(in, i, o->sel, o->fsel, o->flags & ISA_OPDF_MINUS, x))
                return false;
            x->o[i] = d->f->reg_slot[o->u.reg];
            continue;
        }
        if (o->flags & ISA_OPDF_MINUS)
            return false;             /* no other instruction negates a register operand */
        if (o->kind == ISA_OPD_IMM && w == 4 && x->desc->w[i] == ISA_W_PRED) {
            x->o[i] = const_slot(d, o->imm ? ISA_FULL : 0, 4);   /* a constant predicate */
            continue;
        }
        x->o[i] = ex_pd_operand(d, o, w);
        if (x->o[i] == ISA_NONE)
            return false;
        if (o->flags & ISA_OPDF_NEG)       /* !c (and lop3's !q): bit 0; !a: bit 1; !b: bit 2 */
            x->flags |= (uint8_t)(i == 3 || i == 5 ? 1 : 1 << (i == 1 ? 1 : 2));
    }
    /* Video handlers have no complemented operands (!a); vmad's -a, -b, -c is above. */
    if (isa_ops[in->op].family == ISA_FAM_VIDEO && x->flags)
        return false;
    /* The carry flag lives in a frame slot: the handlers of .cc, addc, subc and madc find
     * it in o[5]. */
    if (isa_instr_mod(in, ISA_G_CC) >= 0 || in->op == ISA_OP_ADDC || in->op == ISA_OP_SUBC ||
        in->op == ISA_OP_MADC) {
        x->o[5] = d->f->cc_slot;
        d->f->uses_cc = true;
    }
    /* lop3's lookup table is an immediate, in aux's low byte. */
    if (in->op == ISA_OP_LOP3) {
        const isa_operand_t *lut = &fn->opds[in->opd + 4];
        if (lut->kind != ISA_OPD_IMM)
            return false;
        x->aux = (x->aux & ~(uint64_t)0xff) | ((uint64_t)lut->imm & 0xff);
    }
    /* cvt adapts to its registers' widths; a float operand in a wider register (which
     * the frontend allows only where ptxas does) takes the handler for wide registers. */
    if (in->op == ISA_OP_CVT) {
        bool wide = false;
        for (unsigned i = 0; i < 2; i++) {
            const isa_operand_t *o = &fn->opds[in->opd + i];
            unsigned tw = type_width((isa_type_t)in->types[i]);
            unsigned w = o->kind == ISA_OPD_REG ? ex_reg_width(d->f, o) : tw;
            if (w == 0 || w > 8 || w < tw)
                return false;
            wide |= isa_types[in->types[i]].cls == ISA_TC_FLOAT && w != tw;
            x->aux |= (uint64_t)w << (i == 0 ? 4 : 0);
        }
        if (in->nopd == 3) {            /* cvt.f16x2.f32 d, a, b: b's width at bit 56 (NV_BW) */
            const isa_operand_t *o = &fn->opds[in->opd + 2];
            unsigned tw = type_width((isa_type_t)in->types[1]);
            unsigned w = o->kind == ISA_OPD_REG ? ex_reg_width(d->f, o) : tw;
            if (w == 0 || w > 8 || w < tw)
                return false;
            x->aux |= (uint64_t)w << 56;
        }
        if (wide && !isa_sem_cvt_wide(x))
            return false;
    }
    return widths_ok(d, in, x);
}

/*{=====================================================================
 * Register-plus-immediate sources (%r2+1, %rd1+-4): ptxas reads them as the register
 * plus the immediate in the register's width, wrapping (measured: tests/golden/regimm).
 * Each such operand is renamed to a pseudo-register of its own, so that every handler
 * reads it as a plain register; the instruction's handler is wrapped in preadd_f, which
 * computes the sums first.  Instructions without such operands are untouched.
 *====================================================================*/
static bool regoff_pool(const isa_func_t *fn)
{
    for (uint32_t i = 0; i < fn->nopd; i++)
        if ((fn->opds[i].flags & ISA_OPDF_REGOFF) && fn->opds[i].kind == ISA_OPD_REG)
            return true;
    return false;
}

/* A copy of the IR whose register-plus-immediate operands name pseudo-registers
 * (fn->nreg onwards, of their base register's type); NULL when there are none. */
static isa_func_t *regoff_rename(const isa_func_t *fn)
{
    if (!regoff_pool(fn))
        return NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < fn->nopd; i++)
        n += (fn->opds[i].flags & ISA_OPDF_REGOFF) && fn->opds[i].kind == ISA_OPD_REG;
    isa_func_t *c = PD_MALLOC(sizeof *c);
    *c = *fn;
    c->opds = PD_MALLOC(fn->nopd * sizeof *c->opds + 1);
    memcpy(c->opds, fn->opds, fn->nopd * sizeof *c->opds);
    c->regs = PD_MALLOC((fn->nreg + n) * sizeof *c->regs + 1);
    memcpy(c->regs, fn->regs, fn->nreg * sizeof *c->regs);
    for (uint32_t i = 0; i < fn->nopd; i++) {
        isa_operand_t *o = &c->opds[i];
        if (!(o->flags & ISA_OPDF_REGOFF) || o->kind != ISA_OPD_REG)
            continue;
        c->regs[c->nreg] = fn->regs[o->u.reg];
        o->u.reg = c->nreg++;
    }
    return c;
}

/* The sums of instruction in's register-plus-immediate operands (the pool entries at
 * [first, first + count), nested lists included) into d's list; false when one of them
 * has no integer register of 1 to 8 bytes (ptxas fails on float and predicate ones). */
static bool regoff_sums(pd_t *d, const isa_func_t *orig, uint32_t first, uint32_t count,
                        ex_preadd_t **list, uint32_t *n, uint32_t *cap)
{
    ex_func_t *f = d->f;
    for (uint32_t i = first; i < first + count; i++) {
        const isa_operand_t *o = &f->ir->opds[i];
        if (o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_LIST || o->kind == ISA_OPD_DUAL ||
            (o->kind == ISA_OPD_ADDR && (o->flags & ISA_OPDF_ADDRLIST))) {
            if (!regoff_sums(d, orig, o->u.first, o->count, list, n, cap))
                return false;
            continue;
        }
        if (!(o->flags & ISA_OPDF_REGOFF) || o->kind != ISA_OPD_REG)
            continue;
        const isa_reg_t *base = &orig->regs[orig->opds[i].u.reg];
        isa_tclass_t cls = isa_types[base->type].cls;
        unsigned w = f->reg_width[o->u.reg];
        if ((cls != ISA_TC_BIT && cls != ISA_TC_UINT && cls != ISA_TC_SINT) || base->vec > 1 ||
            o->sel != ISA_SEL_NONE || w == 0 || w > 8)
            return false;
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 8;
            PD_REALLOC(*list, *cap * sizeof **list);
        }
        (*list)[(*n)++] = (ex_preadd_t){ .dst = f->reg_slot[o->u.reg],
                                         .src = f->reg_slot[orig->opds[i].u.reg],
                                         .w = (uint8_t)w, .imm = (uint64_t)o->imm };
    }
    return true;
}

#define PREADD_LOOP(T, a, f)                                                             \
    do {                                                                                 \
        T *d_ = ISA_SLOT(T, f, (a)->dst);                                                \
        const T *s_ = ISA_SLOT(const T, f, (a)->src);                                    \
        for (unsigned l = 0; l < ISA_LANES; l++)                                         \
            d_[l] = (T)(s_[l] + (T)(a)->imm);                                            \
    } while (0)

/* The wrapper of an instruction with register-plus-immediate sources. */
static int preadd_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    const ex_func_t *fn = ex_top((ex_warp_t *)wv)->fn;
    uint32_t i = (uint32_t)(x - fn->code);
    for (uint32_t k = fn->preadd_at[i]; k < fn->preadd_at[i + 1]; k++) {
        const ex_preadd_t *a = &fn->preadd[k];
        switch (a->w) {
        case 1: PREADD_LOOP(uint8_t, a, f); break;
        case 2: PREADD_LOOP(uint16_t, a, f); break;
        case 4: PREADD_LOOP(uint32_t, a, f); break;
        default: PREADD_LOOP(uint64_t, a, f); break;
        }
    }
    return x->desc->fn(wv, f, x, mask);
}
/*}=====================================================================*/

/*{=====================================================================
 * Operand forms: each handler's descriptor lists the forms it honours (isa_xdesc_t
 * .honours); an instruction with any other form is refused, never run without it.
 *====================================================================*/
/* The forms (honours bits) that operand o and its elements carry. */
static unsigned opd_forms(const isa_func_t *fn, const isa_operand_t *o)
{
    unsigned m = o->flags & (ISA_OPDF_NEG | ISA_OPDF_MINUS);
    if (o->kind == ISA_OPD_REG && o->sel >= ISA_SEL_B0)
        m |= ISA_HON_VSEL;
    if (o->kind == ISA_OPD_DUAL)
        m |= ISA_HON_DUAL;
    if (o->kind == ISA_OPD_SINK)
        m |= ISA_HON_SINK;
    if (o->kind == ISA_OPD_VEC || o->kind == ISA_OPD_DUAL)
        for (uint32_t k = 0; k < o->count; k++)
            m |= opd_forms(fn, &fn->opds[o->u.first + k]);
    return m;
}

/* The pool index of in's first operand with a form that x's handler does not honour, or
 * ISA_NONE.  The video family honours selectors and vmad's negations through
 * isa_sem_video_opd, which accepted each operand's before the handler was chosen. */
static uint32_t form_refused(const isa_func_t *fn, const isa_instr_t *in, const ex_insn_t *x)
{
    unsigned hon = x->desc->honours;
    if (isa_ops[in->op].family == ISA_FAM_VIDEO)
        hon |= ISA_OPDF_MINUS | ISA_HON_VSEL;
    for (unsigned i = 0; i < in->nopd; i++)
        if (opd_forms(fn, &fn->opds[in->opd + i]) & ~hon)
            return in->opd + i;
    return ISA_NONE;
}

/* Record that instruction i was refused because of operand opd's form. */
static void why_set(ex_func_t *f, uint32_t i, uint32_t opd)
{
    if (!f->why) {
        f->why = PD_MALLOC((f->ncode + 1) * sizeof *f->why);
        for (uint32_t k = 0; k <= f->ncode; k++)
            f->why[k] = ISA_NONE;
    }
    f->why[i] = opd;
}
/*}=====================================================================*/

/* Lay out the function: register slots, parameter areas, local and shared variables. */
static void layout(pd_t *d)
{
    ex_func_t *f = d->f;
    const isa_func_t *fn = f->ir;
    f->reg_slot = PD_CALLOC(fn->nreg + 1, sizeof *f->reg_slot);
    f->reg_width = PD_CALLOC(fn->nreg + 1, 1);
    for (uint32_t r = 0; r < fn->nreg; r++) {
        const isa_reg_t *reg = &fn->regs[r];
        unsigned w = reg->type == ISA_T_PRED ? 0 : type_width(reg->type);
        /* A vector register: vec element slots, component k at slot + k * w * 32. */
        f->reg_width[r] = (uint8_t)(reg->vec > 1 ? 0xfe : w);
        f->reg_slot[r] = slot_new(d, w ? w * ISA_LANES * (reg->vec ? reg->vec : 1) : 4);
    }
    f->cc_slot = slot_new(d, 4 * ISA_LANES);
    f->var_slot = PD_CALLOC(fn->nvar + 1, sizeof *f->var_slot);
    f->var_local = PD_CALLOC(fn->nvar + 1, sizeof *f->var_local);
    uint64_t local = 0;                /* 64 bits: a frame beyond 4 GiB is refused, not wrapped */
    uint32_t kparam = 0;
    for (uint32_t v = 0; v < fn->nvar; v++) {
        const isa_var_t *var = &fn->vars[v];
        uint64_t size = isa_var_size(var);
        uint32_t align = isa_var_align(var);
        if (!align)
            align = 1;
        f->var_slot[v] = ISA_NONE;
        f->var_local[v] = ISA_NONE;
        switch (isa_spaces[var->space].window) {
        case ISA_SP_PARAM:
            if (fn->is_entry && v < fn->nparam) {
                kparam = (kparam + align - 1) & ~(align - 1);
                f->var_local[v] = kparam;
                kparam += (uint32_t)size;
            } else {
                /* A per-lane parameter area in the frame: lane l at slot + l * size. */
                f->var_slot[v] = slot_new(d, (uint32_t)size * ISA_LANES);
            }
            break;
        case ISA_SP_LOCAL:
            local = (local + align - 1) & ~(uint64_t)(align - 1);
            f->var_local[v] = local < UINT32_MAX ? (uint32_t)local : UINT32_MAX;
            local += size;
            break;
        case ISA_SP_SHARED:
            /* Function-scope shared variables have program-wide offsets (program.c); an
             * expanded callee brings none. */
            f->var_local[v] = f->shared_at ? f->shared_at[v] : UINT32_MAX;
            break;
        default:
            break;
        }
    }
    /* "If the address of a device function parameter is moved to a register, the
     * parameter will be copied onto the stack and the address will be in the local state
     * space": such an input parameter gets a place in the local frame, which each call
     * fills from the argument (do_call); ld.param still reads the argument. */
    for (uint32_t i = 0; !fn->is_entry && i < fn->ninstr; i++) {
        const isa_instr_t *in = &fn->instrs[i];
        if (in->op != ISA_OP_MOV || in->nopd != 2)
            continue;
        const isa_operand_t *o = &fn->opds[in->opd + 1];
        if (o->kind != ISA_OPD_SYM || (o->flags & ISA_OPDF_MODSYM))
            continue;
        uint32_t v = o->u.sym;
        if (v < fn->nret || v >= fn->nret + fn->nparam || f->var_slot[v] == ISA_NONE || f->var_local[v] != ISA_NONE)
            continue;
        uint32_t align = isa_var_align(&fn->vars[v]);
        align = align < 16 ? 16 : align;
        local = (local + align - 1) & ~(uint64_t)(align - 1);
        f->var_local[v] = local < UINT32_MAX ? (uint32_t)local : UINT32_MAX;
        local += isa_var_size(&fn->vars[v]);
        f->param_copies++;
    }
    local = (local + 15) & ~15ull;
    f->local_size = local < UINT32_MAX ? (uint32_t)local : UINT32_MAX & ~15u;   /* refused at launch */
}

bool ex_predecode(ex_program_t *p, uint32_t fi)
{
    ex_func_t *f = &p->funcs[fi];
    const isa_func_t *fn = f->ir_inl ? f->ir_inl : &p->m->funcs[fi];
    pd_t d = { 0 };
    pd_t *volatile dp = &d;
    jmp_buf jb, *prev = pd_oom;
    pd_oom = &jb;
    if (setjmp(jb)) {   /* out of host memory: what the function holds goes with the program */
        pd_oom = prev;
        free(dp->consts);
        free(dp->fix);
        ex_contract_free(&dp->plan);
        free(dp->kept);
        return false;
    }
    d.p = p;
    d.f = f;
    f->ir_own = regoff_rename(fn);
    f->ir = f->ir_own ? f->ir_own : fn;
    f->mod = p->m;
    layout(&d);
    f->opd_slot = PD_MALLOC((fn->nopd + 1) * sizeof *f->opd_slot);
    for (uint32_t i = 0; i < fn->nopd; i++)
        f->opd_slot[i] = ISA_NONE;
    f->ncode = fn->ninstr + 1;
    f->code = PD_CALLOC(f->ncode, sizeof *f->code);
    ex_preadd_t *pa = NULL;
    uint32_t npa = 0, cappa = 0;
    if (f->ir_own)
        f->preadd_at = PD_CALLOC(fn->ninstr + 2, sizeof *f->preadd_at);
    /* contraction, planned on the IR pre-decoding reads (with renamed registers); the
     * copies of sources some muls keep get their slots first (adds may come before their
     * mul in the body) */
    if (!ex_contract_plan(f->ir, f->inl_lead, &d.plan))
        pd_mem(NULL);
    d.kept = PD_MALLOC((2 * (size_t)fn->ninstr + 2) * sizeof *d.kept);
    for (uint32_t j = 0; j < fn->ninstr; j++)
        for (unsigned s = 0; s < 2; s++)
            d.kept[2 * j + s] = d.plan.keep[j] >> s & 1
                                  ? slot_new(&d, type_width((isa_type_t)f->ir->instrs[j].types[0]) * ISA_LANES)
                                  : ISA_NONE;
    for (uint32_t i = 0; i < fn->ninstr; i++) {
        const isa_instr_t *in = &fn->instrs[i];
        ex_insn_t *x = &f->code[i];
        x->ir = in;
        x->guard = in->guard == ISA_NONE ? ISA_NONE : f->reg_slot[in->guard];
        x->guard_neg = in->guard_neg;
        for (unsigned k = 0; k < 6; k++)
            x->o[k] = ISA_NONE;
        bool sums = true;
        uint32_t pa0 = npa;
        if (f->ir_own) {
            sums = regoff_sums(&d, fn, in->opd, in->nopd, &pa, &npa, &cappa);
            f->preadd_at[i] = pa0;
            f->preadd_at[i + 1] = npa;
        }
        bool ok = sums && (select_fused(&d, i, in, x) || ex_select_ctrl(&d, f, in, x) || ex_select_mem(&d, f, in, x) ||
                           ex_select_atom(&d, f, in, x) ||
                           ex_select_mov(&d, f, in, x) || ex_select_warp(&d, f, in, x) ||
                           ex_select_tex(&d, f, in, x) || ex_select_async(&d, f, in, x) ||
                           ex_select_wmma(&d, f, in, x) ||
                           select_alu(&d, in, x));
        if (!sums) {
            for (unsigned k = 0; k < in->nopd; k++)
                if (fn->opds[in->opd + k].flags & ISA_OPDF_REGOFF) {
                    why_set(f, i, in->opd + k);
                    break;
                }
        } else if (ok && x->desc) {
            uint32_t bad = form_refused(f->ir, in, x);
            if (bad != ISA_NONE) {
                why_set(f, i, bad);
                ok = false;
            }
        }
        if (!ok || !x->desc) {
            if (x->desc)
                ex_tex_insn_free(x);   /* a texture instruction refused for an operand form */
            x->desc = NULL;
            x->fn = NULL;
            f->unsupported++;
        } else {
            if (d.plan.keep[i]) {
                /* a mul keeping copies of its sources (keep_f) */
                x->imm = (int64_t)(uintptr_t)x->desc;
                x->target = type_width((isa_type_t)in->types[0]);
                x->o[3] = d.kept[2 * i];
                x->o[4] = d.kept[2 * i + 1];
                x->desc = keep_d;
            }
            x->fn = npa > pa0 ? preadd_f : x->desc->fn;
        }
    }
    ex_contract_free(&d.plan);
    free(d.kept);
    d.kept = NULL;
    if (f->ir_own)
        f->preadd_at[fn->ninstr + 1] = npa;
    f->preadd = pa;
    /* Falling off the end of a body ends the thread as ret would. */
    ex_select_ctrl(&d, f, NULL, &f->code[fn->ninstr]);
    f->code[fn->ninstr].fn = f->code[fn->ninstr].desc->fn;
    f->code[fn->ninstr].guard = ISA_NONE;
    /* Constants go after the registers; relocate the marked slot offsets. */
    f->const_begin = (d.size + SLOT_ALIGN - 1) & ~(uint32_t)(SLOT_ALIGN - 1);
    f->frame_size = f->const_begin + d.nconst;
    for (uint32_t i = 0; i < fn->ninstr; i++)
        for (unsigned k = 0; k < 6; k++)
            if (f->code[i].o[k] != ISA_NONE && (f->code[i].o[k] & 0x80000000u))
                f->code[i].o[k] = f->const_begin + (f->code[i].o[k] & 0x7fffffffu);
    for (uint32_t i = 0; i < fn->nopd; i++)
        if (f->opd_slot[i] != ISA_NONE && (f->opd_slot[i] & 0x80000000u))
            f->opd_slot[i] = f->const_begin + (f->opd_slot[i] & 0x7fffffffu);
    for (uint32_t i = 0; i < fn->ninstr; i++)
        if (f->code[i].guard != ISA_NONE && (f->code[i].guard & 0x80000000u))
            f->code[i].guard = f->const_begin + (f->code[i].guard & 0x7fffffffu);
    for (uint32_t i = 0; i < d.nfix; i++)
        d.fix[i].slot = f->const_begin + (d.fix[i].slot & 0x7fffffffu);
    f->formal = PD_CALLOC(fn->nret + fn->nparam + 1, sizeof *f->formal);
    f->actual = PD_CALLOC(fn->nopd + 1, sizeof *f->actual);
    ex_call_locs(f);
    f->frame_init = PD_CALLOC(1, f->frame_size + 64);
    if (d.nconst)
        memcpy(f->frame_init + f->const_begin, d.consts, d.nconst);
    free(d.consts);
    f->fixups = d.fix;
    f->nfixup = d.nfix;
    pd_oom = prev;
    return ex_reconv_plan(p, f);
}
