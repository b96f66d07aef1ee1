/* program.c: a loaded program: the module's memory (globals with their initializers and
 * relocations, the constant bank, module-scope shared variables), the registered global
 * ranges, pre-decoded functions, and the check that an entry can run. */
#include "exec/internal.h"
#include "exec/tex/tex.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

/* Bytes of one initializer element for a variable of type t. */
static void init_store(ex_program_t *p, uint8_t *dst, const isa_var_t *v, const isa_init_t *e)
{
    unsigned bytes = v->type == ISA_T_NONE ? 8 : (isa_types[v->type].bits + 7) / 8;
    uint64_t val = (uint64_t)e->value;
    switch ((isa_initkind_t)e->kind) {
    case ISA_INIT_INT:
    case ISA_INIT_F64:
        if (e->kind == ISA_INIT_F64 && bytes == 4) {
            double d;
            memcpy(&d, &val, 8);
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            val = u;
        }
        break;
    case ISA_INIT_F32:
        if (bytes == 8) {
            uint32_t u = (uint32_t)val;
            float f;
            memcpy(&f, &u, 4);
            double d = f;
            memcpy(&val, &d, 8);
        }
        break;
    case ISA_INIT_SYM:
    case ISA_INIT_GENERIC:
        if (e->modsym) {
            const isa_var_t *t = &p->m->vars[e->sym];
            uint64_t a = p->global_addr[e->sym];
            if (e->kind == ISA_INIT_GENERIC) {
                switch (isa_spaces[t->space].window) {
                case ISA_SP_SHARED: a += EX_WIN_SHARED; break;
                case ISA_SP_CONST:  a += EX_WIN_CONST; break;
                default: break;
                }
            }
            val = a + (uint64_t)e->value;
        } else {
            val = EX_WIN_FUNC + e->sym;
        }
        break;
    default:
        val = 0;
        break;
    }
    memcpy(dst, &val, bytes > 8 ? 8 : bytes);
}

/* Lay out module variables as the H100's driver does (measured, tests/apps/module_layout):
 * the module's memory starts at a 2 MiB boundary with the .const bank (the variables at
 * their own alignment, in order), then, from the next 256-byte boundary, each .global
 * variable at a 256-byte boundary (or its larger alignment) in order of declaration,
 * used or not.  Kernels may touch the padding and the rest of the 2 MiB steps the
 * memory takes (zeros, as on the GPU: reading past the end of a __device__ table reads
 * the next variable); with the device's exact_bounds, only the variables themselves.
 * .shared variables get CTA offsets (extern unsized ones at the dynamic area, marked
 * UINT64_MAX until a launch knows where it is). */
#define MODULE_STEP   ((size_t)2 << 20)
#define GLOBAL_ALIGN  256u

/* Map the module's memory for kernels: whole, or variable by variable. */
static bool map_module(ex_program_t *p, uint64_t csize)
{
    if (!p->dev->exact_bounds) {
        p->mem_mapped = ex_device_map(p->dev, p->mem, p->mem_size) == ISA_ST_OK;
        return p->mem_mapped;
    }
    const isa_module_t *m = p->m;
    /* The constant bank is global memory too: a __constant__ variable's address (what
     * cudaGetSymbolAddress gives) can be read and written as global memory. */
    if (csize && ex_device_map(p->dev, p->consts, csize) != ISA_ST_OK)
        return false;
    for (uint32_t i = 0; i < m->nvar; i++)
        if (isa_spaces[m->vars[i].space].window == ISA_SP_GLOBAL && m->vars[i].size &&
            ex_device_map(p->dev, (void *)(uintptr_t)p->global_addr[i], m->vars[i].size) != ISA_ST_OK)
            return false;
    return true;
}

static void unmap_module(ex_program_t *p)
{
    if (!p->mem)
        return;
    if (p->mem_mapped) {
        ex_device_unmap(p->dev, p->mem);
        return;
    }
    /* exact: whatever was mapped (a failed layout stops part way) */
    if (p->consts_size)
        ex_device_unmap(p->dev, p->consts);
    if (p->global_addr)
        for (uint32_t i = 0; i < p->m->nvar; i++)
            if (isa_spaces[p->m->vars[i].space].window == ISA_SP_GLOBAL && p->m->vars[i].size)
                ex_device_unmap(p->dev, (void *)(uintptr_t)p->global_addr[i]);
}

static bool layout_module(ex_program_t *p)
{
    const isa_module_t *m = p->m;
    p->global_addr = calloc(m->nvar + 1, sizeof *p->global_addr);
    if (!p->global_addr)
        return false;
    uint64_t gsize = 0, csize = 0, ssize = 0, lsize = 0;
    for (uint32_t i = 0; i < m->nvar; i++) {
        const isa_var_t *v = &m->vars[i];
        uint64_t a = isa_var_align(v), sz = v->size;
        switch (isa_spaces[v->space].window) {
        case ISA_SP_GLOBAL:
            gsize = align_up(gsize, a > GLOBAL_ALIGN ? a : GLOBAL_ALIGN);
            p->global_addr[i] = gsize;
            gsize += sz;
            break;
        case ISA_SP_CONST:  csize = align_up(csize, a); p->global_addr[i] = csize; csize += sz; break;
        case ISA_SP_LOCAL:  lsize = align_up(lsize, a); p->global_addr[i] = lsize; lsize += sz; break;
        case ISA_SP_SHARED:
            if (v->flags & ISA_VARF_UNSIZED) {
                p->global_addr[i] = UINT64_MAX;
            } else {
                ssize = align_up(ssize, a);
                p->global_addr[i] = ssize;
                ssize += sz;
            }
            break;
        default: break;
        }
    }
    p->consts_size = csize < UINT32_MAX ? (uint32_t)csize : UINT32_MAX;   /* refused at launch beyond 64 KB */
    lsize = align_up(lsize, 16);
    p->module_local = lsize < UINT32_MAX ? (uint32_t)lsize : UINT32_MAX & ~15u;  /* refused at launch */
    /* Function-scope shared variables follow, function by function (program-wide offsets,
     * fixed before pre-decoding, which takes functions callees first). */
    for (uint32_t fi = 0; fi < m->nfunc; fi++) {
        const isa_func_t *fn = &m->funcs[fi];
        if (!fn->has_body)
            continue;
        uint32_t *at = calloc(fn->nvar + 1, sizeof *at);
        if (!at)
            return false;
        p->funcs[fi].shared_at = at;
        for (uint32_t v = 0; v < fn->nvar; v++) {
            if (isa_spaces[fn->vars[v].space].window != ISA_SP_SHARED)
                continue;
            uint64_t a = isa_var_align(&fn->vars[v]);
            ssize = align_up(ssize, a ? a : 1);
            at[v] = ssize < UINT32_MAX ? (uint32_t)ssize : UINT32_MAX;
            ssize += isa_var_size(&fn->vars[v]);
        }
    }
    p->shared_static = ssize;
    uint64_t gbase = align_up(csize, GLOBAL_ALIGN);
    if (csize > (uint64_t)1 << 40 || gsize > (uint64_t)1 << 40)
        return false;
    /* (16 bytes beyond the end: vector reads of the last bytes stay in memory) */
    size_t len = (size_t)align_up(gbase + gsize + 16, MODULE_STEP);
    uint8_t *m0 = mmap(NULL, len + MODULE_STEP, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    if (m0 == MAP_FAILED)
        return false;
    /* at a 2 MiB boundary, the rest of the reservation given back */
    uint8_t *mem = (uint8_t *)align_up((uint64_t)(uintptr_t)m0, MODULE_STEP);
    if (mem > m0)
        munmap(m0, (size_t)(mem - m0));
    munmap(mem + len, MODULE_STEP - (size_t)(mem - m0));
    p->mem = mem;
    p->mem_size = len;
    p->consts = p->mem;
    for (uint32_t i = 0; i < m->nvar; i++)
        if (isa_spaces[m->vars[i].space].window == ISA_SP_GLOBAL)
            p->global_addr[i] += (uint64_t)(uintptr_t)p->mem + gbase;
    if (!map_module(p, csize))
        return false;
    for (uint32_t i = 0; i < m->nvar; i++)
        p->nrefs += m->vars[i].opaque && isa_spaces[m->vars[i].space].window == ISA_SP_GLOBAL;
    p->refs = calloc(p->nrefs + 1, sizeof *p->refs);
    if (!p->refs)
        return false;
    p->nrefs = 0;
    for (uint32_t i = 0; i < m->nvar; i++)       /* ascending: globals are laid out in order */
        if (m->vars[i].opaque && isa_spaces[m->vars[i].space].window == ISA_SP_GLOBAL)
            p->refs[p->nrefs++] = (struct ex_ref){ p->global_addr[i], p->global_addr[i] + m->vars[i].size, i };
    for (uint32_t i = 0; i < m->nvar; i++) {
        const isa_var_t *v = &m->vars[i];
        uint8_t *base = isa_spaces[v->space].window == ISA_SP_GLOBAL ? (uint8_t *)(uintptr_t)p->global_addr[i]
                      : isa_spaces[v->space].window == ISA_SP_CONST  ? p->consts + p->global_addr[i]
                      : NULL;
        if (!base || v->opaque)
            continue;
        unsigned eb = (isa_types[v->type].bits + 7) / 8;
        for (uint32_t k = 0; k < v->ninit; k++)
            init_store(p, base + (uint64_t)k * eb, v, &v->init[k]);
    }
    return true;
}

ex_device_t *ex_program_device(const ex_program_t *p) { return p->dev; }

void *ex_program_var_host(const ex_program_t *p, uint32_t var)
{
    if (var >= p->m->nvar)
        return NULL;
    switch (isa_spaces[p->m->vars[var].space].window) {
    case ISA_SP_GLOBAL: return (void *)(uintptr_t)p->global_addr[var];
    case ISA_SP_CONST:  return p->consts + p->global_addr[var];
    default:            return NULL;
    }
}

/* Pre-decode fi after the functions it calls directly (state: 1 under way, 2 done), with
 * the calls that qualify expanded (inline.c); a call back into a function under way
 * (recursion) stays a call. */
static bool predecode_tree(ex_program_t *p, uint32_t fi, uint8_t *state)
{
    const isa_func_t *fn = &p->m->funcs[fi];
    if (state[fi] || !fn->has_body)
        return true;
    state[fi] = 1;
    for (uint32_t k = 0; k < fn->nopd; k++)
        if (fn->opds[k].kind == ISA_OPD_FUNC && fn->opds[k].u.func < p->m->nfunc &&
            !predecode_tree(p, fn->opds[k].u.func, state))
            return false;
    ex_func_t *f = &p->funcs[fi];
    if (!p->dev->no_inline)
        f->ir_inl = ex_inline(p, fi, &f->inl_lead);
    state[fi] = 2;
    return ex_predecode(p, fi);
}

ex_program_t *ex_program_new(ex_device_t *d, const isa_module_t *m)
{
    ex_program_t *p = d ? calloc(1, sizeof *p) : NULL;
    if (!p)
        return NULL;
    p->dev = d;
    p->m = m;
    p->funcs = calloc(m->nfunc + 1, sizeof *p->funcs);
    p->entry_local = calloc(m->nfunc + 1, 1);
    p->entry_shared = calloc(m->nfunc + 1, sizeof *p->entry_shared);
    if (!p->funcs || !p->entry_local || !p->entry_shared || !layout_module(p)) {
        ex_program_free(p);
        return NULL;
    }
    uint8_t *state = calloc(m->nfunc + 1, 1);
    bool ok = state != NULL;
    for (uint32_t i = 0; ok && i < m->nfunc; i++)
        ok = predecode_tree(p, i, state);
    free(state);
    if (!ok) {                                               /* out of host memory */
        ex_program_free(p);
        return NULL;
    }
    /* Bake the addresses known now into the frame templates (local addresses as for a
     * frame at offset 0; frame_new moves them to each activation's frame, which starts
     * above the module-scope .local variables). */
    uint64_t dyn = (p->shared_static + 15u) & ~15ull;
    for (uint32_t i = 0; i < m->nfunc; i++) {
        ex_func_t *f = &p->funcs[i];
        for (uint32_t k = 0; k < f->nfixup; k++) {
            const ex_fixup_t *x = &f->fixups[k];
            uint64_t v = x->value;
            if (x->kind == FX_LOCAL || x->kind == FX_MLOCAL)
                v += EX_LOCAL_BASE;
            else if (x->kind == FX_SHARED && v == UINT64_MAX)
                v = dyn;
            else if (x->kind == FX_FUNC)
                v += EX_WIN_FUNC;
            for (unsigned l = 0; l < ISA_LANES; l++)
                memcpy(f->frame_init + x->slot + l * x->bytes, &v, x->bytes);
        }
    }
    return p;
}

void ex_program_free(ex_program_t *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; p->funcs && i < p->m->nfunc; i++) {
        ex_func_t *f = &p->funcs[i];
        for (uint32_t i = 0; f->code && i < f->ncode; i++)
            ex_tex_insn_free(&f->code[i]);
        free(f->code);
        free(f->frame_init);
        free(f->reg_slot);
        free(f->reg_width);
        free(f->opd_slot);
        free(f->formal);
        free(f->actual);
        free(f->var_slot);
        free(f->var_local);
        free(f->fixups);
        free(f->preadd);
        free(f->preadd_at);
        free(f->why);
        free(f->sinfo);
        free(f->join_at);
        free(f->yields);
        if (f->ir_own) {
            free(f->ir_own->opds);
            free(f->ir_own->regs);
            free(f->ir_own);
        }
        ex_inline_free(f->ir_inl);
        free(f->inl_lead);
        free(f->shared_at);
    }
    /* The workers' cached CTAs were made for this program's frames. */
    ex_device_t *d = p->dev;
    pthread_mutex_lock(&d->launch_lock);
    for (unsigned i = 0; i < EX_MAX_WORKERS; i++)
        if (d->wk[i].key_p == p)
            ex_worker_flush(&d->wk[i]);
    pthread_mutex_unlock(&d->launch_lock);
    unmap_module(p);
    free(p->funcs);
    free(p->entry_local);
    free(p->entry_shared);
    if (p->mem)
        munmap(p->mem, p->mem_size);
    free(p->global_addr);
    free(p->refs);
    free(p);
}

/* What the H100's driver does not run, and why (measured): the texture unit's refusals
 * (texinsn.c), and ld/st of .v8 vectors of 8- or 16-bit elements, which the checker takes
 * as ptxas 13 does but the driver's JIT does not run: a load makes cuModuleLoadData crash
 * (a segmentation fault), a store writes the first element alone (driver 580, an H200). */
static const char *refusal_of(const isa_module_t *m, const isa_func_t *fn, const isa_instr_t *in, ex_refusal_t *kind)
{
    const char *why = ex_tex_refusal(m, fn, in, kind);
    if (why || (in->op != ISA_OP_LD && in->op != ISA_OP_ST && in->op != ISA_OP_LDU) ||
        isa_instr_mod(in, ISA_G_VEC) != ISA_M_V8 || in->ntypes != 1 || isa_types[in->types[0]].bits > 16)
        return why;
    *kind = EX_REFUSAL_NONE;
    return in->op == ISA_OP_ST ? "a .v8 store of 8- or 16-bit elements writes only the first element on the H100 (the "
                                 "CUDA driver's JIT, driver 580, measured on an H200)"
                               : "a .v8 load of 8- or 16-bit elements makes the CUDA driver's JIT crash on the H100 (a "
                                 "segmentation fault in cuModuleLoadData, driver 580, measured on an H200; ptxas 13 "
                                 "compiles some such programs and crashes on others)";
}

/* Report the instructions without semantics in fi and, once each, in the functions it
 * calls directly. */
static unsigned check_func(ex_program_t *p, uint32_t fi, uint8_t *seen, FILE *diag, ex_refusal_t *refusal)
{
    if (seen[fi])
        return 0;
    seen[fi] = 1;
    const isa_module_t *m = p->m;
    const ex_func_t *f = &p->funcs[fi];
    const isa_func_t *fn = f->ir ? f->ir : &m->funcs[fi];   /* the body pre-decoded (calls expanded) */
    unsigned n = 0;
    for (uint32_t i = 0; i < fn->ninstr; i++) {
        const isa_instr_t *in = &fn->instrs[i];
        if (!f->code || !f->code[i].fn) {
            char name[256];
            isa_instr_name(m, in, name, sizeof name);
            /* A call to a function without a body names it: an .extern function that no
             * linked unit defines, or a device-runtime function not provided. */
            const char *unresolved = NULL;
            for (uint32_t k = 0; in->op == ISA_OP_CALL && k < in->nopd; k++) {
                const isa_operand_t *o = &fn->opds[in->opd + k];
                if (o->kind == ISA_OPD_FUNC && !m->funcs[o->u.func].has_body)
                    unresolved = m->funcs[o->u.func].name;
            }
            if (unresolved) {
                bool service = false;
                for (unsigned s = 0; ex_service_name(s); s++)
                    service |= strcmp(ex_service_name(s), unresolved) == 0;
                if (diag && service)
                    isa_diag_print(diag, &m->srcs[in->mloc.file], in->mloc.begin, in->mloc.end, "error",
                                   "call of '%s', declared with another signature than the device runtime's",
                                   unresolved);
                else if (diag)
                    isa_diag_print(diag, &m->srcs[in->mloc.file], in->mloc.begin, in->mloc.end, "error",
                                   "call of '%s', which has no body: no linked unit defines it (--link UNIT.ptx), "
                                   "and it is not a device-runtime function the emulator provides", unresolved);
                n++;
                continue;
            }
            /* An operand form that no handler honours is named: "mov.pred with '!%p1'". */
            uint32_t why = f->why ? f->why[i] : ISA_NONE;
            if (why != ISA_NONE) {
                const isa_loc_t *ol = &fn->opds[why].loc;
                const char *t = m->srcs[ol->file].text + ol->begin;
                size_t len = strlen(name);
                snprintf(name + len, sizeof name - len, " with '%.*s'", (int)(ol->end - ol->begin), t);
            }
            ex_refusal_t kind;
            const char *refused = refusal_of(m, fn, in, &kind);
            if (refusal && kind > *refusal)
                *refusal = kind;
            if (diag && refused)
                isa_diag_print(diag, &m->srcs[in->mloc.file], in->mloc.begin, in->mloc.end, "error",
                               "%s is refused: %s", name, refused);
            else if (diag)
                isa_diag_print(diag, &m->srcs[in->mloc.file], in->mloc.begin, in->mloc.end, "error",
                               "%s is not supported yet", name);
            n++;
        }
        for (uint32_t k = 0; k < in->nopd; k++) {
            const isa_operand_t *o = &fn->opds[in->opd + k];
            if (o->kind == ISA_OPD_FUNC && m->funcs[o->u.func].has_body)
                n += check_func(p, o->u.func, seen, diag, refusal);
        }
    }
    return n;
}

static unsigned check_entry(ex_program_t *p, uint32_t entry, FILE *diag, ex_refusal_t *refusal)
{
    uint8_t *seen = calloc(p->m->nfunc + 1, 1);
    if (!seen) {
        if (diag)
            fprintf(diag, "ptxrun: error: out of memory\n");
        return 1;
    }
    unsigned n = check_func(p, entry, seen, diag, refusal);
    /* Functions an indirect call may reach through a table of function addresses. */
    for (uint32_t v = 0; v < p->m->nvar; v++)
        for (uint32_t k = 0; k < p->m->vars[v].ninit; k++) {
            const isa_init_t *e = &p->m->vars[v].init[k];
            if ((e->kind == ISA_INIT_SYM || e->kind == ISA_INIT_GENERIC) && !e->modsym && p->m->funcs[e->sym].has_body)
                n += check_func(p, e->sym, seen, diag, refusal);
        }
    free(seen);
    return n;
}

/* The module's kernel parameters of opaque types, reported on diag (may be NULL): the
 * H100's driver does not load such a module at all, whether or not the parameter is used
 * (measured on an H200, driver 580: CUDA_ERROR_INVALID_IMAGE for .texref and .surfref
 * parameters, used or not, and .samplerref ones in texmode_independent; the module's other
 * kernels are lost with it). */
static unsigned check_params(const ex_program_t *p, FILE *diag)
{
    const isa_module_t *m = p->m;
    unsigned n = 0;
    for (uint32_t fi = 0; fi < m->nfunc; fi++) {
        const isa_func_t *fn = &m->funcs[fi];
        for (uint32_t i = 0; fn->is_entry && i < fn->nparam; i++) {
            const isa_var_t *v = &fn->params[i];
            if (!v->opaque)
                continue;
            n++;
            if (diag)
                isa_diag_print(diag, &m->srcs[v->loc.file], v->loc.begin, v->loc.end, "error",
                               "kernel parameter '%s' of type %s is refused: the CUDA driver does not load a module "
                               "whose kernels take .texref, .surfref or .samplerref parameters "
                               "(CUDA_ERROR_INVALID_IMAGE; measured on an H200, driver 580): pass the object's "
                               "handle in a .u64 parameter", v->name, isa_dirs[v->opaque - 1].text);
        }
    }
    return n;
}

/* A 32-bit module, reported on diag (may be NULL): ptxas refuses 32-bit addressing for
 * sm_90 and newer ("32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on
 * sm_90 or higher architectures": the H100's driver, CUDA_ERROR_INVALID_PTX, measured on
 * an H200, driver 580), whatever the module's .target. */
static unsigned check_address_size(const ex_program_t *p, FILE *diag)
{
    const isa_module_t *m = p->m;
    if (m->address_size != 32)
        return 0;
    if (diag)
        isa_diag_print(diag, &m->srcs[m->address_size_loc.file], m->address_size_loc.begin, m->address_size_loc.end,
                       "error", "32-bit addressing (.address_size 32) is refused: ptxas does not compile 32-bit "
                       "modules for sm_90 or newer (CUDA_ERROR_INVALID_PTX on the H100)");
    return 1;
}

unsigned ex_program_check_entry(ex_program_t *p, uint32_t entry, FILE *diag)
{
    unsigned n = check_address_size(p, diag);
    if (n)
        return n;
    n = check_params(p, diag);   /* the module does not load: only that is said */
    return n ? n : check_entry(p, entry, diag, NULL);
}

ex_refusal_t ex_program_entry_refusal(ex_program_t *p, uint32_t entry)
{
    ex_refusal_t r = EX_REFUSAL_NONE;
    check_entry(p, entry, NULL, &r);
    return r;
}

ex_refusal_t ex_program_refusal(ex_program_t *p, FILE *diag)
{
    const isa_module_t *m = p->m;
    if (check_address_size(p, diag))
        return EX_REFUSAL_INVALID_PTX;
    if (check_params(p, diag))
        return EX_REFUSAL_INVALID_IMAGE;
    ex_refusal_t worst = EX_REFUSAL_NONE;
    for (int pass = 0; pass < 2; pass++)        /* find the worst kind, then report it */
        for (uint32_t fi = 0; fi < m->nfunc; fi++) {
            const isa_func_t *fn = &m->funcs[fi];
            for (uint32_t i = 0; fn->has_body && i < fn->ninstr; i++) {
                const isa_instr_t *in = &fn->instrs[i];
                ex_refusal_t kind;
                const char *why = refusal_of(m, fn, in, &kind);
                if (!why)
                    continue;
                if (pass == 0 && kind > worst)
                    worst = kind;
                if (pass == 1 && kind == worst && diag) {
                    char name[256];
                    isa_instr_name(m, in, name, sizeof name);
                    isa_diag_print(diag, &m->srcs[in->mloc.file], in->mloc.begin, in->mloc.end, "error",
                                   "%s is refused: %s", name, why);
                }
            }
        }
    return worst;
}
