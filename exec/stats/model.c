/* model.c: the statistics of a launch and the memory-hierarchy model that gives its
 * Nsight Compute metrics (docs/memory-model.md).  The rules below are the H100's as
 * measured under Nsight Compute (tests/stats/measured.csv):
 *   - a global ld, st, atom or red is one request per warp instruction, whatever its width;
 *   - a load's or store's sectors are the distinct 32-byte sectors its active lanes touch;
 *     an atomic's are, per distinct sector, the most lanes naming one address in it (lanes
 *     on one address are served one after another, different addresses of a sector at once);
 *   - shared memory serves 32 banks of 4 bytes per wavefront: an access of up to 4 bytes
 *     takes as many wavefronts as the most distinct words one bank holds; 8-byte accesses
 *     go by half warps and 16-byte ones by quarter warps, unless every lane of the warp (8
 *     bytes) or of the half warp (16 bytes) names one word (loads), or the groups of a load
 *     meet bank conflicts (then the whole warp is served at once: the busiest bank over all
 *     its lanes); the bank conflicts are the wavefronts beyond the ideal number, active
 *     lanes times bytes over 128 rounded up;
 *   - an SM's L1 caches the sectors of global loads (not those of .cg, .cv, .lu, volatile,
 *     .relaxed/.acquire at GPU or system scope, or .mmio loads); its capacity is what the
 *     shared-memory carveout leaves of 256 KiB;
 *   - the L2 hits a sector touched before in the launch (it starts cold: Nsight Compute
 *     flushes the caches before each measured launch); writes always hit; a read miss
 *     brings DRAM_FETCH bytes from DRAM;
 *   - what the L2 still holds dirty at the end is not written to DRAM during the launch.
 * The model is deterministic: a worker owns the SMs it runs CTAs for, in CTA order, and the
 * L2 knows only whether a sector was touched, which does not depend on the order. */
#include "exec/internal.h"

#include <stdlib.h>
#include <string.h>

const ex_metric_info_t ex_metrics[EX_MET__COUNT] = {
#define EX_METRIC(id, name, unit) { name, #unit },
#include "exec/stats/metrics.def"
#undef EX_METRIC
};

/*{=====================================================================
 * Per-instruction information
 *====================================================================*/
static bool has_mod(const isa_instr_t *in, unsigned id)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_MOD && in->sfx[i].id == id)
            return true;
    return false;
}

static unsigned instr_space(const isa_instr_t *in)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_SPACE)
            return isa_spaces[in->sfx[i].id].window;
    return ISA_SP_NONE;
}

/* Whether register r is read anywhere in fn (an atomic whose result nobody reads is a
 * reduction for the hardware: ptxas makes it one).  Every operand but a destination
 * (position d, e or p of the opcode's shape) counts as a read; so does every register of a
 * vector or a list, whatever its position. */
static bool reg_read(const isa_func_t *fn, uint32_t r)
{
    for (uint32_t i = 0; i < fn->ninstr; i++) {
        const isa_instr_t *in = &fn->instrs[i];
        if (in->guard == r)
            return true;
        const char *kinds = isa_shapes[isa_ops[in->op].shape].kinds;
        size_t nk = strlen(kinds);
        for (uint32_t k = 0; k < in->nopd; k++) {
            const isa_operand_t *o = &fn->opds[in->opd + k];
            char kc = nk ? kinds[k < nk ? k : nk - 1] : 'x';
            bool dest = kc == 'd' || kc == 'e' || kc == 'p';
            if (o->kind == ISA_OPD_REG && o->u.reg == r && !dest)
                return true;
            if (o->kind == ISA_OPD_ADDR && o->base == ISA_OPD_REG && o->u.reg == r)
                return true;
            if (o->kind != ISA_OPD_REG && o->kind != ISA_OPD_ADDR && o->count)
                for (uint32_t e = 0; e < o->count; e++) {
                    const isa_operand_t *q = &fn->opds[o->u.first + e];
                    if (q->kind == ISA_OPD_REG && q->u.reg == r)
                        return true;
                }
        }
    }
    return false;
}

static void sinfo_fill(const ex_func_t *f, uint32_t pc, ex_sinfo_t *si)
{
    const isa_func_t *fn = f->ir;
    const ex_insn_t *x = &f->code[pc];
    memset(si, 0, sizeof *si);
    if (!x->ir)
        return;
    const isa_instr_t *in = x->ir;
    const isa_op_info_t *op = &isa_ops[in->op];
    si->family = (uint8_t)op->family;
    si->branch = in->op == ISA_OP_BRA || in->op == ISA_OP_BRX_IDX;
    si->barrier = in->op == ISA_OP_BAR || in->op == ISA_OP_BARRIER;
    unsigned kind = in->op == ISA_OP_LD || in->op == ISA_OP_LDU ? EX_SK_LD
                  : in->op == ISA_OP_ST                         ? EX_SK_ST
                  : in->op == ISA_OP_ATOM                       ? EX_SK_ATOM
                  : in->op == ISA_OP_RED                        ? EX_SK_RED
                                                                : EX_SK_NONE;
    if (kind == EX_SK_NONE || !x->fn || (x->flags & EX_ADDR_PSYM) || in->ntypes < 1)
        return;
    unsigned sp = instr_space(in);
    if (sp != ISA_SP_NONE && sp != ISA_SP_GLOBAL && sp != ISA_SP_SHARED)
        return;
    unsigned vec = has_mod(in, ISA_M_V4) ? 4 : has_mod(in, ISA_M_V2) ? 2 : 1;
#ifdef ISA_M_V8
    if (has_mod(in, ISA_M_V8))
        vec = 8;
#endif
    unsigned eb = isa_types[in->types[0]].bits / 8;
    si->kind = (uint8_t)kind;
    si->space = (uint8_t)sp;
    si->bytes = (uint8_t)(eb * vec > 255 ? 255 : eb * vec);
    if (kind == EX_SK_ATOM && in->nopd > 0) {
        const isa_operand_t *d = &fn->opds[in->opd];
        if (d->kind == ISA_OPD_SINK || (d->kind == ISA_OPD_REG && !reg_read(fn, d->u.reg)))
            si->kind = EX_SK_RED;
    }
    if (kind == EX_SK_LD) {
        bool gpu_scope = has_mod(in, ISA_M_GPU) || has_mod(in, ISA_M_SYS);
        bool bypass = has_mod(in, ISA_M_CG) || has_mod(in, ISA_M_CV) || has_mod(in, ISA_M_LU) ||
                      has_mod(in, ISA_M_VOLATILE) || has_mod(in, ISA_M_MMIO) ||
                      ((has_mod(in, ISA_M_RELAXED) || has_mod(in, ISA_M_ACQUIRE)) && gpu_scope);
        si->l1 = bypass ? 0 : has_mod(in, ISA_M_L1_NO_ALLOCATE) ? 2 : 1;
    }
}

/*{=====================================================================
 * What ptxas widens.  ptxas merges loads (and stores) of one base register at constant
 * offsets into 32-, 64- and 128-bit accesses where it can prove the alignment, and Nsight
 * Compute counts its machine instructions; so the model counts such a group as the one
 * access ptxas makes.  Measured from the SASS of 53 patterns (docs/memory-model.md):
 * shared variables (static, and dynamic whatever their declared .align) lie 16-byte
 * aligned, a parameter's pointer or a .global variable proves nothing; the alignment of an
 * address is that of its terms (shifts, multiples, masks, sums); within one block and
 * between stores, barriers, fences and calls, plain unpredicated accesses of one base group
 * per aligned 16-byte window (merge_group).
 *====================================================================*/

/* Bits known zero at the bottom of each integer register (tz), over all its definitions:
 * 64 is unknown yet (no definition seen), 0 nothing known. */
static unsigned opd_tz(const isa_module_t *mod, const isa_func_t *fn, const uint8_t *tz, const isa_operand_t *o)
{
    switch (o->kind) {
    case ISA_OPD_REG: return o->sel == ISA_SEL_NONE ? tz[o->u.reg] : 0;
    case ISA_OPD_IMM: return o->imm ? (unsigned)__builtin_ctzll((uint64_t)o->imm) : 64;
    case ISA_OPD_SYM: {
        const isa_var_t *v = (o->flags & ISA_OPDF_MODSYM) ? &mod->vars[o->u.sym] : &fn->vars[o->u.sym];
        if (isa_spaces[v->space].window != ISA_SP_SHARED)
            return 0;
        unsigned off = o->imm ? (unsigned)__builtin_ctzll((uint64_t)o->imm) : 64;
        return off < 4 ? off : 4;
    }
    default: return 0;
    }
}

/* Where the alignment of an operand is looked up: the registers' over all their
 * definitions (tz), or (lead given) first the definition that reaches instruction pc from
 * earlier in its block, followed through depth more definitions. */
typedef struct {
    const isa_module_t *mod;
    const isa_func_t   *fn;
    const uint8_t      *tz;
    const uint8_t      *lead;     /* block starts, or NULL */
    int                 depth;
} tzctx_t;

static unsigned transfer(const tzctx_t *c, uint32_t pc);

static unsigned ctx_opd_tz(const tzctx_t *c, uint32_t pc, const isa_operand_t *o)
{
    unsigned v;
    if (o->kind == ISA_OPD_REG && o->sel == ISA_SEL_NONE && c->lead && c->depth > 0) {
        v = c->tz[o->u.reg];
        for (uint32_t q = pc; q-- > 0;) {
            const isa_instr_t *in = &c->fn->instrs[q];
            if (ex_writes(c->fn, in, o->u.reg)) {
                if (in->guard == ISA_NONE) {
                    tzctx_t d = *c;
                    d.depth--;
                    v = transfer(&d, q);
                }
                break;
            }
            if (c->lead[q])
                break;
        }
    } else {
        v = opd_tz(c->mod, c->fn, c->tz, o);
    }
    if (o->kind == ISA_OPD_REG && (o->flags & ISA_OPDF_REGOFF) && o->imm) {
        unsigned k = (unsigned)__builtin_ctzll((uint64_t)o->imm);
        v = v < k ? v : k;
    }
    return v;
}

/* The bits known zero at the bottom of what instruction pc writes (its first operand). */
static unsigned transfer(const tzctx_t *c, uint32_t pc)
{
    const isa_func_t *fn = c->fn;
    const isa_instr_t *in = &fn->instrs[pc];
    const isa_operand_t *o = &fn->opds[in->opd];
    const isa_operand_t *a = in->nopd > 1 ? o + 1 : NULL, *b = in->nopd > 2 ? o + 2 : NULL;
    unsigned v = 0;
    switch (in->op) {
    case ISA_OP_MOV:
    case ISA_OP_CVTA:
        v = a && a->kind != ISA_OPD_SREG ? ctx_opd_tz(c, pc, a) : 0;
        break;
    case ISA_OP_CVT:
        /* a zero- or sign-extension keeps the low bits */
        v = a && in->ntypes == 2 && isa_types[in->types[0]].bits >= isa_types[in->types[1]].bits &&
                    isa_types[in->types[1]].bits >= 32 ? ctx_opd_tz(c, pc, a) : 0;
        break;
    case ISA_OP_ADD:
    case ISA_OP_SUB:
    case ISA_OP_OR:
    case ISA_OP_XOR:
        if (a && b) {
            unsigned x = ctx_opd_tz(c, pc, a), y = ctx_opd_tz(c, pc, b);
            v = x < y ? x : y;
        }
        break;
    case ISA_OP_AND:
        if (a && b) {
            unsigned x = ctx_opd_tz(c, pc, a), y = ctx_opd_tz(c, pc, b);
            v = x > y ? x : y;
        }
        break;
    case ISA_OP_SHL:
        if (a && b && b->kind == ISA_OPD_IMM)
            v = ctx_opd_tz(c, pc, a) + (unsigned)(b->imm & 63);
        break;
    case ISA_OP_MUL:
    case ISA_OP_MAD:
        if (a && b && (has_mod(in, ISA_M_LO) || has_mod(in, ISA_M_WIDE))) {
            v = ctx_opd_tz(c, pc, a) + ctx_opd_tz(c, pc, b);
            if (in->op == ISA_OP_MAD) {
                unsigned k = in->nopd > 3 ? ctx_opd_tz(c, pc, o + 3) : 0;
                v = v < k ? v : k;
            }
        }
        break;
    default:
        break;
    }
    return v > 64 ? 64 : v;
}

/* One instruction's writes (ex_each_write): its first operand, a register, gets what
 * transfer says; every other register it writes, nothing known. */
typedef struct {
    uint8_t *tz;
    uint32_t first;       /* the pool index of the instruction's first operand */
    unsigned v;           /* transfer's answer for it */
    bool     changed;
} tz_write_t;

static void tz_write(void *ctx, uint32_t reg, uint32_t opd)
{
    tz_write_t *w = ctx;
    unsigned v = opd == w->first ? w->v : 0;
    if (v < w->tz[reg]) {
        w->tz[reg] = (uint8_t)v;
        w->changed = true;
    }
}

static void align_analysis(const isa_module_t *mod, const isa_func_t *fn, uint8_t *tz)
{
    tzctx_t c = { mod, fn, tz, NULL, 0 };
    for (uint32_t r = 0; r < fn->nreg; r++)
        tz[r] = 64;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < fn->ninstr; i++) {
            const isa_instr_t *in = &fn->instrs[i];
            if (in->nopd == 0)
                continue;
            tz_write_t w = { tz, in->opd, 0, false };
            if (fn->opds[in->opd].kind == ISA_OPD_REG)
                w.v = transfer(&c, i);
            ex_each_write(fn, in, tz_write, &w);
            changed |= w.changed;
        }
    }
    /* registers never written (a device function's parameters' copies...) know nothing */
    for (uint32_t r = 0; r < fn->nreg; r++)
        if (tz[r] == 64)
            tz[r] = 0;
}

/* A plain load or store ptxas may merge: its place and its bytes (2, 4, or 8 for an
 * 8-byte scalar or a pair of 4-byte elements). */
typedef struct { uint32_t pc; int64_t off; unsigned bytes; } vec_member_t;

static unsigned merge_bytes(const isa_instr_t *in, const isa_operand_t *addr)
{
    if (in->guard != ISA_NONE || in->ntypes < 1 || has_mod(in, ISA_M_VOLATILE) || has_mod(in, ISA_M_RELAXED) ||
        has_mod(in, ISA_M_ACQUIRE) || has_mod(in, ISA_M_MMIO) || has_mod(in, ISA_M_V4))
        return 0;
#ifdef ISA_M_RELEASE
    if (has_mod(in, ISA_M_RELEASE))
        return 0;
#endif
#ifdef ISA_M_V8
    if (has_mod(in, ISA_M_V8))
        return 0;
#endif
    unsigned sp = instr_space(in);
    if (sp != ISA_SP_SHARED && sp != ISA_SP_NONE && sp != ISA_SP_GLOBAL)
        return 0;
    if (addr->kind != ISA_OPD_ADDR || (addr->base != ISA_OPD_REG && addr->base != ISA_OPD_SYM) ||
        (addr->flags & ISA_OPDF_ADDRLIST))
        return 0;
    unsigned eb = isa_types[in->types[0]].bits / 8;
    if (has_mod(in, ISA_M_V2))
        return eb == 4 ? 8 : 0;
    return eb == 2 || eb == 4 || eb == 8 ? eb : 0;
}

/* One merged access of those of the members [i, j) lying in [start, start + bytes): the
 * first of them in program order carries it, the others count nothing. */
static void merge_into(ex_sinfo_t *si, const vec_member_t *m, unsigned i, unsigned j, int64_t start, unsigned bytes)
{
    unsigned lead = UINT32_MAX, n = 0;
    for (unsigned k = i; k < j; k++)
        if (m[k].off >= start && m[k].off + (int64_t)m[k].bytes <= start + (int64_t)bytes) {
            n++;
            if (lead == UINT32_MAX || m[k].pc < m[lead].pc)
                lead = k;
        }
    if (n < 2)
        return;
    for (unsigned k = i; k < j; k++)
        if (k != lead && m[k].off >= start && m[k].off + (int64_t)m[k].bytes <= start + (int64_t)bytes)
            si[m[k].pc].kind = EX_SK_NONE;
    si[m[lead].pc].bytes = (uint8_t)bytes;
    si[m[lead].pc].adj = (int16_t)(start - m[lead].off);
}

/* Merge the members (one base, alignment 2^tz) as ptxas does, per 16-byte window from the
 * base (measured, docs/memory-model.md): 4- and 8-byte accesses (pairs of 4-byte elements
 * too) holding 3 or 4 words of a window become one 128-bit load (a store needs all 4), else
 * both words of an 8-byte half one 64-bit access; 2-byte accesses at most 64 bits: 3 or 4
 * halfwords of an 8-byte half one 64-bit load (a store all 4), else both halfwords of a
 * word one 32-bit access.  Bytes, windows mixing 2-byte with wider accesses, and accesses
 * off their own alignment are left alone. */
static void merge_group(ex_sinfo_t *si, vec_member_t *m, unsigned n, unsigned tz, bool store)
{
    if (tz < 2 || n < 2)
        return;
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && m[j - 1].off > m[j].off; j--) {
            vec_member_t t = m[j];
            m[j] = m[j - 1];
            m[j - 1] = t;
        }
    for (unsigned i = 0; i < n;) {
        int64_t w0 = m[i].off - ((m[i].off % 16) + 16) % 16;
        unsigned j = i, hb = 0;   /* the window's halfwords that members hold */
        bool half = false, wide = false, ok = true;
        while (j < n && m[j].off < w0 + 16) {
            unsigned b = m[j].bytes;
            if (m[j].off % (int64_t)b || m[j].off + (int64_t)b > w0 + 16)
                ok = false;
            half |= b == 2;
            wide |= b != 2;
            hb |= ((1u << (b / 2)) - 1) << ((m[j].off - w0) / 2);
            j++;
        }
        if (ok && j - i >= 2 && !(half && wide)) {
            if (wide) {
                unsigned words = 0;
                for (unsigned w = 0; w < 4; w++)
                    words |= ((hb >> (2 * w)) & 3u) == 3u ? 1u << w : 0;
                unsigned nw = (unsigned)__builtin_popcount(words);
                if (tz >= 4 && (store ? nw == 4 : nw >= 3)) {
                    merge_into(si, m, i, j, w0, 16);
                } else if (tz >= 3) {
                    for (unsigned h = 0; h < 2; h++)
                        if (((words >> (2 * h)) & 3u) == 3u)
                            merge_into(si, m, i, j, w0 + 8 * h, 8);
                }
            } else {
                for (unsigned h = 0; h < 2; h++) {
                    unsigned q = (hb >> (4 * h)) & 15u, nq = (unsigned)__builtin_popcount(q);
                    if (tz >= 3 && (store ? nq == 4 : nq >= 3)) {
                        merge_into(si, m, i, j, w0 + 8 * h, 8);
                        continue;
                    }
                    for (unsigned w = 0; w < 2; w++)
                        if (((q >> (2 * w)) & 3u) == 3u)
                            merge_into(si, m, i, j, w0 + 8 * h + 4 * w, 4);
                }
            }
        }
        i = j;
    }
}

static bool vec_breaks(const isa_instr_t *in)
{
    switch (in->op) {
    case ISA_OP_BAR: case ISA_OP_BARRIER: case ISA_OP_BAR_WARP_SYNC: case ISA_OP_MEMBAR: case ISA_OP_FENCE:
    case ISA_OP_CALL: case ISA_OP_RET: case ISA_OP_EXIT: case ISA_OP_BRA: case ISA_OP_ATOM: case ISA_OP_RED:
        return true;
    default:
        return false;
    }
}

#define VEC_MAX 64
static void vectorise(const ex_func_t *f, ex_sinfo_t *si)
{
    const isa_func_t *fn = f->ir;
    if (!fn || !fn->ninstr || f->ncode < fn->ninstr || f->code[0].ir != &fn->instrs[0])
        return;
    uint8_t *tz = malloc(fn->nreg + 1);
    uint8_t *lead = calloc(fn->ninstr + 1, 1), *seen = calloc(fn->ninstr + 1, 1);
    if (!tz || !lead || !seen) {
        free(tz);
        free(lead);
        free(seen);
        return;
    }
    align_analysis(f->mod, fn, tz);
    for (uint32_t l = 0; l < fn->nlabel; l++)
        if (fn->labels[l].instr < fn->ninstr)
            lead[fn->labels[l].instr] = 1;
    /* segments: from a block start or a breaking instruction to the next; loads and
     * stores are merged separately, a store ending a run of loads and a load one of stores */
    for (int kind = EX_SK_LD; kind <= EX_SK_ST; kind++) {
        vec_member_t m[VEC_MAX];
        unsigned n = 0;
        uint32_t base;      /* the group's base register or variable */
        uint32_t i = 0;
        while (i <= fn->ninstr) {
            /* collect one segment [i, end) of accesses of `kind` */
            uint32_t end = i;
            while (end < fn->ninstr) {
                const isa_instr_t *in = &fn->instrs[end];
                if (end > i && lead[end])
                    break;
                if (vec_breaks(in)) {
                    end++;
                    break;
                }
                bool other = kind == EX_SK_LD ? in->op == ISA_OP_ST : (in->op == ISA_OP_LD || in->op == ISA_OP_LDU);
                if (other && end > i)
                    break;
                end++;
            }
            if (end == i)
                break;
            /* group the segment's mergeable accesses by base; each base taken once */
            for (uint32_t a = i; a < end; a++) {
                const isa_instr_t *ia = &fn->instrs[a];
                bool is_kind = kind == EX_SK_LD ? ia->op == ISA_OP_LD : ia->op == ISA_OP_ST;
                if (!is_kind || si[a].kind != kind || seen[a])
                    continue;
                const isa_operand_t *ad = &fn->opds[ia->opd + (kind == EX_SK_LD ? 1 : 0)];
                if (!merge_bytes(ia, ad))
                    continue;
                bool reg = ad->base == ISA_OPD_REG;
                base = reg ? ad->u.reg : ad->u.sym;
                /* the base's alignment where the group starts: its definition reaching there
                 * in the block (a register may be written again), else over all of them */
                tzctx_t at = { f->mod, fn, tz, lead, 8 };
                unsigned btz = reg ? ctx_opd_tz(&at, a, &(isa_operand_t){ .kind = ISA_OPD_REG, .u.reg = ad->u.reg })
                                   : opd_tz(f->mod, fn, tz, &(isa_operand_t){ .kind = ISA_OPD_SYM,
                                                 .flags = ad->flags, .u.sym = ad->u.sym });
                n = 0;
                for (uint32_t c = a; c < end && n < VEC_MAX; c++) {
                    const isa_instr_t *ic = &fn->instrs[c];
                    if (c > a && reg && ex_writes(fn, &fn->instrs[c - 1], base))
                        break;   /* the base changed */
                    bool k2 = kind == EX_SK_LD ? ic->op == ISA_OP_LD : ic->op == ISA_OP_ST;
                    if (!k2 || si[c].kind != kind)
                        continue;
                    const isa_operand_t *ac = &fn->opds[ic->opd + (kind == EX_SK_LD ? 1 : 0)];
                    unsigned mb = merge_bytes(ic, ac);
                    if (!mb || ac->base != ad->base || (reg ? ac->u.reg : ac->u.sym) != base ||
                        (!reg && (ac->flags & ISA_OPDF_MODSYM) != (ad->flags & ISA_OPDF_MODSYM)) ||
                        instr_space(ic) != instr_space(ia))
                        continue;
                    m[n++] = (vec_member_t){ c, ac->imm, mb };
                }
                for (unsigned k = 0; k < n; k++)
                    seen[m[k].pc] = 1;
                merge_group(si, m, n, btz, kind == EX_SK_ST);
            }
            i = end;
            if (end >= fn->ninstr)
                break;
        }
    }
    free(tz);
    free(lead);
    free(seen);
}

bool ex_stats_prepare(ex_program_t *p)
{
    for (uint32_t i = 0; i < p->m->nfunc; i++) {
        ex_func_t *f = &p->funcs[i];
        if (f->sinfo || !f->code)
            continue;
        ex_sinfo_t *s = calloc(f->ncode + 1, sizeof *s);
        if (!s)
            return false;
        for (uint32_t pc = 0; pc < f->ncode; pc++)
            sinfo_fill(f, pc, &s[pc]);
        vectorise(f, s);
        f->sinfo = s;
    }
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * The L1 of an SM: sets of EX_M_L1_WAYS lines of 128 bytes, each with the sectors it
 * holds, least recently used replaced.
 *====================================================================*/
typedef struct { uint64_t tag; uint32_t used; uint8_t valid; } l1_line_t;   /* valid: sector bits */
struct ex_l1 {
    l1_line_t *lines;     /* sets * ways; NULL until the SM runs a CTA */
    uint32_t   clock;
};

/* Look up sector s (an address >> 5): true for a hit.  A miss allocates (alloc). */
static bool l1_access(struct ex_l1 *c, uint32_t sets, uint64_t s, bool alloc)
{
    uint64_t line = s >> 2;
    uint8_t bit = (uint8_t)(1u << (s & 3));
    /* lines spread over the sets by a hash (as the hardware's index is: strided rows
     * do not pile into a few sets) of the address's bits within its 2 MiB page: device
     * memory comes in 2 MiB-aligned pieces (the driver's chunks, ptxrun's buffers), so the
     * counts do not depend on where the host maps it */
    uint64_t h = ((line & 0x3fff) * 0x9e3779b97f4a7c15ull) >> 32;
    l1_line_t *set = &c->lines[(h % sets) * EX_M_L1_WAYS];
    uint32_t now = ++c->clock;
    l1_line_t *victim = &set[0];
    for (unsigned wy = 0; wy < EX_M_L1_WAYS; wy++) {
        l1_line_t *e = &set[wy];
        if (e->valid && e->tag == line) {
            bool hit = e->valid & bit;
            if (alloc || hit) {
                e->valid |= bit;
                e->used = now;
            }
            return hit;
        }
        if (!e->valid || (victim->valid && e->used < victim->used))
            victim = e;
    }
    if (alloc) {
        victim->tag = line;
        victim->valid = bit;
        victim->used = now;
    }
    return false;
}
/*}=====================================================================*/

/*{=====================================================================
 * The L2: whether each sector was touched (and written) in the launch, in bitmaps of
 * 2 MiB of addresses, found through a two-level table over the 47-bit address space;
 * leaves are made on first use with a compare-and-swap, so that workers share it
 * without locks.
 *====================================================================*/
#define L2_LEAF_SHIFT 21                       /* 2 MiB per leaf */
#define L2_LEAF_SECTORS (1u << (L2_LEAF_SHIFT - 5))
#define L2_MID_BITS 13                         /* address bits 21..33 */
#define L2_TOP_BITS 14                         /* address bits 34..47 */
typedef struct {
    _Atomic uint64_t touched[L2_LEAF_SECTORS / 64];
    _Atomic uint64_t written[L2_LEAF_SECTORS / 64];
    _Atomic uint64_t fetched[L2_LEAF_SECTORS / 64 / 2];   /* DRAM_FETCH-byte pieces read */
    _Atomic uint64_t wpieces[L2_LEAF_SECTORS / 64 / 2];   /* DRAM_FETCH-byte pieces written */
} l2_leaf_t;
typedef struct { _Atomic(void *) leaf[1u << L2_MID_BITS]; } l2_mid_t;   /* l2_leaf_t */

struct ex_wstats {
    _Alignas(64) uint64_t family[ISA_FAM__COUNT];
    uint64_t branches, divergent, barriers;
    uint64_t n[EX_MET__COUNT];        /* the count metrics */
    uint64_t l1_lookups, l1_hits;
    uint64_t l2_hits, l2_lookups;     /* the launch's own L2 accesses */
    uint64_t dram_pieces;             /* DRAM_FETCH-byte pieces read (the L2's fills) */
    uint64_t written_pieces;          /* DRAM_FETCH-byte pieces written */
    uint64_t written, touched;        /* distinct sectors */
    struct ex_smodel *m;
    void *leaf;                       /* the L2 leaf used last, and its 2 MiB block + 1 */
    uint64_t leaf_key;
};

struct ex_smodel {
    uint32_t     l1_sets;
    unsigned     nworkers;
    ex_wstats_t *ws;                  /* [nworkers] */
    struct ex_l1 l1[EX_M_SMS];
    _Atomic(void *) top[1u << L2_TOP_BITS];   /* l2_mid_t */
};

/* The shared-memory carveouts of the H100, KiB (the driver picks the smallest that
 * holds the shared memory of the CTAs that can be resident on an SM). */
static const unsigned carveouts[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };

ex_smodel_t *ex_smodel_new(ex_program_t *p, uint32_t entry, const ex_launch_t *l, unsigned workers)
{
    ex_smodel_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->nworkers = workers;
    m->ws = aligned_alloc(64, ((workers * sizeof *m->ws) + 63) / 64 * 64);
    if (!m->ws) {
        free(m);
        return NULL;
    }
    memset(m->ws, 0, workers * sizeof *m->ws);
    for (unsigned i = 0; i < workers; i++)
        m->ws[i].m = m;
    uint64_t per_sm = ex_resident_ctas(p, entry, l) / EX_M_SMS;
    per_sm = per_sm ? per_sm : 1;
    uint64_t need = per_sm * (ex_entry_shared(p, entry) + l->shared_bytes + EX_M_CTA_SHARED_RESERVED);
    unsigned kib = carveouts[sizeof carveouts / sizeof *carveouts - 1];
    for (unsigned i = 0; i < sizeof carveouts / sizeof *carveouts; i++)
        if ((uint64_t)carveouts[i] * 1024 >= need) {
            kib = carveouts[i];
            break;
        }
    uint64_t l1 = EX_M_L1_BYTES - (uint64_t)kib * 1024;
    m->l1_sets = (uint32_t)(l1 / EX_M_L1_LINE / EX_M_L1_WAYS);
    if (!m->l1_sets)
        m->l1_sets = 1;
    return m;
}

ex_wstats_t *ex_smodel_worker(ex_smodel_t *m, unsigned worker) { return &m->ws[worker]; }

struct ex_l1 *ex_smodel_l1(ex_smodel_t *m, uint64_t cta)
{
    struct ex_l1 *c = &m->l1[cta % EX_M_SMS];
    if (!c->lines)
        c->lines = calloc((size_t)m->l1_sets * EX_M_L1_WAYS, sizeof *c->lines);
    return c->lines ? c : NULL;
}

/* The table entry in slot, made (zeroed, bytes long) by whichever worker gets there
 * first; NULL when host memory runs out. */
static void *l2_entry(_Atomic(void *) *slot, size_t bytes)
{
    void *e = atomic_load_explicit(slot, memory_order_acquire);
    if (e)
        return e;
    void *n = calloc(1, bytes), *want = NULL;
    if (!n)
        return NULL;
    if (atomic_compare_exchange_strong(slot, &want, n))
        return n;
    free(n);
    return want;
}

static l2_leaf_t *l2_leaf(ex_smodel_t *m, uint64_t addr)
{
    uint64_t t = (addr >> (L2_LEAF_SHIFT + L2_MID_BITS)) & ((1u << L2_TOP_BITS) - 1);
    uint64_t md = (addr >> L2_LEAF_SHIFT) & ((1u << L2_MID_BITS) - 1);
    l2_mid_t *mid = l2_entry(&m->top[t], sizeof *mid);
    return mid ? l2_entry(&mid->leaf[md], sizeof(l2_leaf_t)) : NULL;
}

/* One L2 access to sector s by the launch: a read (or an atomic), or a write. */
static void l2_access(ex_wstats_t *ws, uint64_t s, bool write)
{
    uint64_t key = s >> (L2_LEAF_SHIFT - 5);
    l2_leaf_t *leaf = ws->leaf_key == key + 1 ? ws->leaf : NULL;
    if (!leaf) {
        leaf = l2_leaf(ws->m, s << 5);
        ws->leaf = leaf;
        ws->leaf_key = leaf ? key + 1 : 0;
    }
    ws->l2_lookups++;
    if (!leaf) {
        ws->l2_hits += write;
        return;
    }
    uint32_t i = (uint32_t)(s & (L2_LEAF_SECTORS - 1));
    uint64_t bit = 1ull << (i & 63);
    uint32_t pi = i / (EX_M_DRAM_FETCH / EX_M_SECTOR);
    uint64_t pbit = 1ull << (pi & 63);
    bool first = false;
    if (!(atomic_load_explicit(&leaf->touched[i >> 6], memory_order_relaxed) & bit)) {
        uint64_t old = atomic_fetch_or_explicit(&leaf->touched[i >> 6], bit, memory_order_relaxed);
        first = !(old & bit);
    }
    ws->touched += first;
    if (write) {
        if (!(atomic_load_explicit(&leaf->written[i >> 6], memory_order_relaxed) & bit)) {
            uint64_t w = atomic_fetch_or_explicit(&leaf->written[i >> 6], bit, memory_order_relaxed);
            ws->written += !(w & bit);
            uint64_t wp = atomic_fetch_or_explicit(&leaf->wpieces[pi >> 6], pbit, memory_order_relaxed);
            ws->written_pieces += !(wp & pbit);
        }
        ws->l2_hits++;
        return;
    }
    if (!first) {
        ws->l2_hits++;
        return;
    }
    /* the DRAM piece that holds the sector, read once */
    uint64_t pold = atomic_fetch_or_explicit(&leaf->fetched[pi >> 6], pbit, memory_order_relaxed);
    ws->dram_pieces += !(pold & pbit);
}

void ex_smodel_finish(ex_smodel_t *m, ex_launch_stats_t *out)
{
    ex_wstats_t t;
    memset(&t, 0, sizeof t);
    for (unsigned i = 0; i < m->nworkers; i++) {
        const ex_wstats_t *w = &m->ws[i];
        for (unsigned k = 0; k < ISA_FAM__COUNT; k++)
            t.family[k] += w->family[k];
        for (unsigned k = 0; k < EX_MET__COUNT; k++)
            t.n[k] += w->n[k];
        t.branches += w->branches;
        t.divergent += w->divergent;
        t.barriers += w->barriers;
        t.l1_lookups += w->l1_lookups;
        t.l1_hits += w->l1_hits;
        t.l2_hits += w->l2_hits;
        t.l2_lookups += w->l2_lookups;
        t.dram_pieces += w->dram_pieces;
        t.written_pieces += w->written_pieces;
        t.written += w->written;
        t.touched += w->touched;
    }
    if (out) {
        memcpy(out->family, t.family, sizeof out->family);
        out->branches = t.branches;
        out->divergent = t.divergent;
        out->barriers = t.barriers;
        for (unsigned k = 0; k < EX_MET__COUNT; k++)
            out->metric[k] = (double)t.n[k];
        out->metric[EX_MET_GLD_HIT] = t.l1_lookups ? 100.0 * (double)t.l1_hits / (double)t.l1_lookups : 0;
        /* The L2's sectors as Nsight Compute counts them (measured): the launch's own
         * accesses; one more, a miss, per DRAM_FETCH-byte piece read from DRAM (the fill);
         * one more, a hit, per piece written, and per two sectors of atomics; and the
         * traffic every launch has. */
        double extra = (double)t.written_pieces + (double)(t.n[EX_MET_GATOM_SEC] + t.n[EX_MET_GRED_SEC]) / 2;
        double hits = (double)t.l2_hits + extra + EX_M_LAUNCH_L2_HITS;
        double all = (double)t.l2_lookups + (double)t.dram_pieces + extra + EX_M_LAUNCH_L2_SECTORS;
        out->metric[EX_MET_L2_HIT] = 100.0 * hits / all;
        out->metric[EX_MET_DRAM_RD] = (double)t.dram_pieces * EX_M_DRAM_FETCH + EX_M_LAUNCH_DRAM_READ;
        /* Dirty data leaves the L2 for DRAM during the launch only when the launch's data
         * does not fit: what stays is the written share of half the L2 (two partitions;
         * docs/memory-model.md). */
        double wb = (double)t.written * EX_M_SECTOR, all_b = (double)t.touched * EX_M_SECTOR;
        double keep = (double)EX_M_L2_BYTES / 2;
        out->metric[EX_MET_DRAM_WR] = all_b > keep ? wb - keep * wb / all_b : 0;
    }
    for (unsigned i = 0; i < EX_M_SMS; i++)
        free(m->l1[i].lines);
    for (unsigned t2 = 0; t2 < (1u << L2_TOP_BITS); t2++) {
        l2_mid_t *mid = atomic_load(&m->top[t2]);
        if (!mid)
            continue;
        for (unsigned k = 0; k < (1u << L2_MID_BITS); k++)
            free(atomic_load(&mid->leaf[k]));
        free(mid);
    }
    free(m->ws);
    free(m);
}
/*}=====================================================================*/

/*{=====================================================================
 * Counting an instruction
 *====================================================================*/
/* Sort v[0..n) by insertion: the lanes' addresses mostly come in order already, which it
 * passes in one sweep; returns n. */
static unsigned sort_only(uint64_t *v, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        uint64_t t = v[i];
        unsigned j = i;
        for (; j > 0 && v[j - 1] > t; j--)
            v[j] = v[j - 1];
        v[j] = t;
    }
    return n;
}

/* Sort v[0..n) and drop repeats: the number of distinct values. */
static unsigned uniq(uint64_t *v, unsigned n)
{
    if (n < 2)
        return n;
    sort_only(v, n);
    unsigned k = 1;
    for (unsigned i = 1; i < n; i++)
        if (v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* Wavefronts of the shared-memory words (4-byte word indices) w[0..n): the most distinct
 * words a bank holds. */
static unsigned bank_wavefronts(uint64_t *w, unsigned n)
{
    /* First the common cases in one pass: every bank holds at most one word (each word
     * of it read by any number of lanes). */
    uint64_t at[EX_M_SHARED_BANKS];
    uint32_t used = 0;
    bool one = true;
    for (unsigned i = 0; i < n && one; i++) {
        unsigned b = (unsigned)(w[i] % EX_M_SHARED_BANKS);
        if (!(used >> b & 1)) {
            used |= 1u << b;
            at[b] = w[i];
        } else {
            one = at[b] == w[i];
        }
    }
    if (one)
        return n ? 1 : 0;
    n = uniq(w, n);
    unsigned per[EX_M_SHARED_BANKS] = { 0 }, most = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned b = (unsigned)(w[i] % EX_M_SHARED_BANKS);
        if (++per[b] > most)
            most = per[b];
    }
    return most;
}

/* A shared-memory access of bytes per lane at offsets a[l] of the lanes in mask. */
static void shared_access(ex_wstats_t *ws, const uint64_t *a, uint32_t mask, unsigned bytes, bool store)
{
    uint64_t w[ISA_LANES * 8];
    unsigned wf = 0, active = (unsigned)__builtin_popcount(mask);
    unsigned size = bytes < 4 ? 4 : bytes;
    if (size <= 4) {
        unsigned n = 0;
        for (uint32_t m = mask; m; m &= m - 1)
            w[n++] = a[__builtin_ctz(m)] >> 2;
        wf = bank_wavefronts(w, n);
    } else {
        /* lanes in groups that move 128 bytes each: 16 lanes of 8 bytes, 8 of 16 (wider
         * accesses as several of 16) */
        unsigned chunk = size > 16 ? 16 : size, pieces = size / chunk;
        unsigned group = 128 / chunk;
        bool conflict = false;
        for (unsigned pc = 0; pc < pieces; pc++) {
            /* pairs of groups whose lanes all name one word go as one wavefront (loads; a
             * 16-byte store goes by its groups, measured, and an 8-byte one alike) */
            for (unsigned pair = 0; pair < ISA_LANES; pair += 2 * group) {
                uint32_t pm = mask & (uint32_t)(((2ull * group == 32) ? 0xffffffffull : ((1ull << (2 * group)) - 1)) << pair);
                if (!pm)
                    continue;
                uint64_t first = a[__builtin_ctz(pm)] / chunk;
                bool one = !store;
                for (uint32_t m = pm; m && one; m &= m - 1)
                    one = a[__builtin_ctz(m)] / chunk == first;
                if (one) {
                    wf++;
                    continue;
                }
                for (unsigned g0 = pair; g0 < pair + 2 * group; g0 += group) {
                    uint32_t gm = pm & (uint32_t)(((1ull << group) - 1) << g0);
                    unsigned n = 0;
                    for (uint32_t m = gm; m; m &= m - 1) {
                        uint64_t base = (a[__builtin_ctz(m)] + pc * chunk) >> 2;
                        for (unsigned k = 0; k < chunk / 4; k++)
                            w[n++] = base + k;
                    }
                    if (n) {
                        unsigned g = bank_wavefronts(w, n);
                        conflict |= g > 1;
                        wf += g;
                    }
                }
            }
        }
        if (conflict && !store) {
            /* A load whose groups meet bank conflicts is served for the whole warp at
             * once: as many wavefronts as the most distinct words of one bank over all the
             * lanes (measured: scattered 8- and 16-byte loads of 17 to 25 lanes, where
             * groups apart gave 38 and 68 wavefronts for the H100's 21 and 21). */
            unsigned n = 0;
            for (uint32_t m = mask; m; m &= m - 1) {
                uint64_t base = a[__builtin_ctz(m)] >> 2;
                for (unsigned k = 0; k < size / 4; k++)
                    w[n++] = base + k;
            }
            unsigned whole = bank_wavefronts(w, n);
            wf = whole < wf ? whole : wf;
        }
    }
    unsigned ideal = (active * size + 127) / 128;
    ws->n[store ? EX_MET_SST_WF : EX_MET_SLD_WF] += wf;
    ws->n[store ? EX_MET_SST_BC : EX_MET_SLD_BC] += wf > ideal ? wf - ideal : 0;
}

/* A global access of bytes per lane at addresses a[l] of the lanes in mask. */
static void global_access(ex_wstats_t *ws, struct ex_l1 *l1, const ex_sinfo_t *si, const uint64_t *a, uint32_t mask)
{
    uint64_t s[ISA_LANES * 2];
    unsigned n = 0, bytes = si->bytes ? si->bytes : 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t x = a[__builtin_ctz(m)];
        for (uint64_t q = x >> 5; q <= (x + bytes - 1) >> 5 && n < ISA_LANES * 2; q++)
            s[n++] = q;
    }
    switch (si->kind) {
    case EX_SK_LD: {
        n = uniq(s, n);
        ws->n[EX_MET_GLD_REQ]++;
        ws->n[EX_MET_GLD_SEC] += n;
        uint32_t sets = ws->m->l1_sets;
        for (unsigned i = 0; i < n; i++) {
            bool hit = false;
            if (si->l1 && l1) {
                ws->l1_lookups++;
                hit = l1_access(l1, sets, s[i], si->l1 == 1);
                ws->l1_hits += hit;
            } else {
                ws->l1_lookups++;
            }
            if (!hit) {
                ws->n[EX_MET_L2_READ]++;
                l2_access(ws, s[i], false);
            }
        }
        break;
    }
    case EX_SK_ST:
        n = uniq(s, n);
        ws->n[EX_MET_GST_REQ]++;
        ws->n[EX_MET_GST_SEC] += n;
        ws->n[EX_MET_L2_WRITE] += n;
        for (unsigned i = 0; i < n; i++)
            l2_access(ws, s[i], true);
        break;
    default: {
        /* per sector, the most lanes on one address */
        uint64_t ad[ISA_LANES];
        unsigned na = 0;
        for (uint32_t m = mask; m; m &= m - 1)
            ad[na++] = a[__builtin_ctz(m)];
        na = sort_only(ad, na);
        uint64_t sectors = 0;
        unsigned run = 0, most = 0;
        for (unsigned i = 0; i < na; i++) {
            bool same_sector = i > 0 && ad[i] >> 5 == ad[i - 1] >> 5;
            if (i > 0 && !same_sector) {
                sectors += most;
                l2_access(ws, ad[i - 1] >> 5, false);
                most = 0;
            }
            run = i > 0 && ad[i] == ad[i - 1] ? run + 1 : 1;
            most = run > most ? run : most;
        }
        if (na) {
            sectors += most;
            l2_access(ws, ad[na - 1] >> 5, false);
        }
        bool red = si->kind == EX_SK_RED;
        ws->n[red ? EX_MET_GRED_REQ : EX_MET_GATOM_REQ]++;
        ws->n[red ? EX_MET_GRED_SEC : EX_MET_GATOM_SEC] += sectors;
        ws->n[red ? EX_MET_L2_RED : EX_MET_L2_ATOM] += sectors;
        break;
    }
    }
}

void ex_stats_insn(ex_warp_t *w, const uint8_t *f, const ex_insn_t *x, const ex_sinfo_t *si, uint32_t g,
                   uint32_t mask)
{
    ex_cta_t *c = w->cta;
    ex_wstats_t *ws = c->ws;
    ws->family[si->family]++;
    if (si->branch) {
        ws->branches++;
        ws->divergent += mask != 0 && mask != g;
    }
    ws->barriers += si->barrier;
    if (!si->kind || !mask)
        return;
    uint64_t a[ISA_LANES];
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t v = (uint64_t)x->imm + (uint64_t)(int64_t)si->adj;
        if (x->o[4] != ISA_NONE) {
            if (x->flags & EX_ADDR_BASE32)
                v = (uint32_t)(ISA_SLOT(const uint32_t, f, x->o[4])[l] + (uint32_t)v);   /* wraps at 32 bits */
            else
                v += ISA_SLOT(const uint64_t, f, x->o[4])[l];
        }
        a[l] = v;
    }
    /* Lanes by space: a generic address goes by its window. */
    uint32_t glob = 0, shar = 0;
    if (si->space == ISA_SP_GLOBAL)
        glob = mask;
    else if (si->space == ISA_SP_SHARED)
        shar = mask;
    else
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint64_t win = a[l] & EX_WIN_MASK;
            if (win == EX_WIN_SHARED) {
                a[l] -= EX_WIN_SHARED;
                shar |= 1u << l;
            } else if (win == 0) {
                glob |= 1u << l;
            }
        }
    if (glob)
        global_access(ws, c->l1, si, a, glob);
    if (shar && (si->kind == EX_SK_LD || si->kind == EX_SK_ST))
        shared_access(ws, a, shar, si->bytes, si->kind == EX_SK_ST);
}
/*}=====================================================================*/
