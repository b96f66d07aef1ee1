/* lower.c: lowering from the AST to the IR: symbol resolution with block scopes,
 * register ranges, labels, declarations and initializers, instruction suffixes split
 * into types, spaces and modifiers by the ISA tables, and operands resolved. */
#include "frontend/internal.h"

#include <stdlib.h>
#include <string.h>

/*{=====================================================================
 * Growable arrays (heap while lowering; copied into the module arena at the end)
 *====================================================================*/
#define DA(T) struct { T *v; uint32_t n, cap; }

static void da_grow(void **v, uint32_t *cap, size_t elem)
{
    uint32_t nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*v, nc * elem);
    if (!p) {
        fprintf(stderr, "ptxemu: out of memory\n");
        abort();
    }
    *v = p;
    *cap = nc;
}
#define DA_PUSH(a) \
    (((a).n == (a).cap ? da_grow((void **)&(a).v, &(a).cap, sizeof *(a).v) : (void)0), \
     memset(&(a).v[(a).n], 0, sizeof *(a).v), &(a).v[(a).n++])
#define DA_FREE(a) (free((a).v), (a).v = NULL, (a).n = (a).cap = 0)

/* Copy a growable array into the arena; returns the arena copy. */
static void *da_commit(isa_arena_t *ar, const void *v, uint32_t n, size_t elem)
{
    if (n == 0)
        return NULL;
    void *p = isa_arena_alloc(ar, n * elem);
    memcpy(p, v, n * elem);
    return p;
}
#define DA_COMMIT(ar, a) da_commit(ar, (a).v, (a).n, sizeof *(a).v)
/*}=====================================================================*/

/*{=====================================================================
 * Scoped symbol table: chained hash; a scope is a mark in the entry stack,
 * and leaving it pops the entries declared since (restoring shadowed ones).
 *====================================================================*/
typedef enum { S_REG, S_VAR, S_MODVAR, S_FUNC, S_LABEL, S_PROTO, S_BRT } symkind_t;

typedef struct {
    const char *s;
    uint32_t    n, hash;
    uint8_t     kind;
    uint32_t    idx;
    uint32_t    depth;
    uint32_t    next;      /* next entry in the bucket, or ISA_NONE */
} sym_t;

typedef struct {
    uint32_t  *bucket;     /* nbucket heads (a power of two), grown with the entries */
    uint32_t   nbucket;
    DA(sym_t)  e;
    uint32_t   depth;
} symtab_t;

static uint32_t sym_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Rebuild the chains for nb buckets.  Entries are linked in declaration order, so each
 * chain again starts with the newest entry and a shadowing declaration is found first. */
static void symtab_rehash(symtab_t *t, uint32_t nb)
{
    uint32_t *b = malloc((size_t)nb * sizeof *b);
    if (!b)
        return;                  /* keep the current table: longer chains, same answers */
    memset(b, 0xff, (size_t)nb * sizeof *b);
    for (uint32_t i = 0; i < t->e.n; i++) {
        sym_t *e = &t->e.v[i];
        e->next = b[e->hash & (nb - 1)];
        b[e->hash & (nb - 1)] = i;
    }
    free(t->bucket);
    t->bucket = b;
    t->nbucket = nb;
}

static void symtab_init(symtab_t *t)
{
    t->bucket = NULL;
    t->nbucket = 0;
    symtab_rehash(t, 1u << 10);
}

static void symtab_free(symtab_t *t)
{
    free(t->bucket);
    t->bucket = NULL;
    DA_FREE(t->e);
}

#ifdef PTXEMU_TESTING
/* Chain steps taken by lookups: the tests check that a lookup stays constant time. */
unsigned long long fe_test_sym_probes;
#define SYM_PROBE() (fe_test_sym_probes++)
#else
#define SYM_PROBE() ((void)0)
#endif

static sym_t *sym_find(symtab_t *t, const char *s, size_t n)
{
    uint32_t h = sym_hash(s, n);
    for (uint32_t i = t->bucket[h & (t->nbucket - 1)]; i != ISA_NONE; i = t->e.v[i].next) {
        SYM_PROBE();
        if (t->e.v[i].hash == h && t->e.v[i].n == n && memcmp(t->e.v[i].s, s, n) == 0)
            return &t->e.v[i];
    }
    return NULL;
}

/* Declare; returns the clashing entry of the same scope when there is one.  The bucket
 * array doubles when the entries outnumber it, so that a declaration of millions of
 * registers (%r<4194304>) lowers in linear time. */
static sym_t *sym_add(symtab_t *t, const char *s, size_t n, symkind_t k, uint32_t idx)
{
    sym_t *old = sym_find(t, s, n);
    if (old && old->depth == t->depth)
        return old;
    uint32_t h = sym_hash(s, n);
    sym_t *e = DA_PUSH(t->e);
    e->s = s;
    e->n = (uint32_t)n;
    e->hash = h;
    e->kind = (uint8_t)k;
    e->idx = idx;
    e->depth = t->depth;
    if (t->e.n > t->nbucket && t->nbucket < (1u << 30)) {
        symtab_rehash(t, t->nbucket * 2);      /* links the new entry too */
        return NULL;
    }
    uint32_t b = h & (t->nbucket - 1);
    e->next = t->bucket[b];
    t->bucket[b] = t->e.n - 1;
    return NULL;
}

static uint32_t symtab_enter(symtab_t *t)
{
    t->depth++;
    return t->e.n;
}

static void symtab_leave(symtab_t *t, uint32_t mark)
{
    while (t->e.n > mark) {
        sym_t *e = &t->e.v[--t->e.n];
        t->bucket[e->hash & (t->nbucket - 1)] = e->next;
    }
    t->depth--;
}
/*}=====================================================================*/

typedef struct {
    uint8_t     linkage, flags, vec, opaque, attr;
    isa_space_t space, ptr_space;
    isa_type_t  type;
    uint32_t    align, ptr_align;
    fe_span_t   span;
} words_t;

/* Per-function lowering state. */
typedef struct {
    DA(isa_instr_t)     instrs;
    DA(isa_operand_t)   opds;
    DA(isa_regdecl_t)   regdecls;
    DA(isa_reg_t)       regs;
    DA(isa_var_t)       vars;
    DA(isa_label_t)     labels;
    DA(isa_scope_t)     scopes;
    DA(isa_dbgloc_t)    dbg;
    DA(isa_proto_t)     protos;
    DA(isa_brtargets_t) brts;
    DA(isa_pragma_t)    pragmas;
    DA(isa_stmt_t)      stmts;
    uint32_t            cur_dbg;
    uint32_t            scope;
} fstate_t;

typedef struct {
    fe_ctx_t          *c;
    isa_module_t      *m;
    symtab_t           syms;
    DA(isa_var_t)      vars;
    DA(isa_func_t)     funcs;
    DA(isa_item_t)     items;
    DA(isa_file_t)     files;
    DA(isa_alias_t)    aliases;
    DA(isa_pragma_t)   pragmas;
    DA(const char *)   targets;
    DA(const char *)   strs;
    DA(words_t)        declwords;    /* words of each module declaration, from pass 1 */
    DA(const fe_node_t *) modregs;   /* declarators of module-scope .reg variables (PTX < 3.0) */
    fe_node_t        **func_nodes;   /* AST node of each function's definition */
    fstate_t          *f;            /* the function being lowered */
    isa_func_t        *fn;
} lower_t;

#define ERR(L, sp, ...) fe_error((L)->c, (sp), __VA_ARGS__)

static const char *str_of(lower_t *L, const char *s, size_t n)
{
    return isa_arena_strndup(L->m->arena, s, n);
}

static isa_loc_t loc_of(lower_t *L, fe_span_t sp)
{
    return fe_loc_of(L->c, sp);
}

static void stmt_push(lower_t *L, isa_stmtkind_t k, uint32_t idx)
{
    isa_stmt_t *s = DA_PUSH(L->f->stmts);
    s->kind = (uint8_t)k;
    s->idx = idx;
}

/*{=====================================================================
 * Declaration words: ".visible .global .align 4 .v2 .f32", ".ptr.global.align 16"
 *====================================================================*/

static bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* A type the module's .version is too old to name (types.def's PTX column: .b128 needs
 * 8.3), in a declaration or as an instruction's type suffix. */
static void check_type_version(lower_t *L, fe_span_t sp, int t)
{
    const isa_ptxv_info_t *need = &isa_ptxvs[isa_types[t].ptx];
    unsigned have = L->m->ver_major * 10 + L->m->ver_minor;
    if (L->m->ver_major && have < need->major * 10 + need->minor)
        ERR(L, sp, "type .%s requires PTX ISA version %u.%u or newer", isa_types[t].text,
            need->major, need->minor);
}

/* A type declared where ptxas refuses it (types.def's DECL column): the alternate float
 * formats and the packed integer types name instruction types only, .pred lives in
 * .reg alone, and .f16x2 in every space but .param. */
static void check_type_decl(lower_t *L, fe_span_t sp, isa_type_t t, isa_space_t space)
{
    if (t == ISA_T_NONE)
        return;
    switch ((isa_tdecl_t)isa_types[t].decl) {
    case ISA_TD_ANY:
        return;
    case ISA_TD_NOPARAM:
        if (space != ISA_SP_PARAM)
            return;
        break;
    case ISA_TD_REG:
        if (space == ISA_SP_REG)
            return;
        break;
    case ISA_TD_NONE:
        break;
    }
    if (isa_types[t].decl == ISA_TD_NONE)
        ERR(L, sp, "type .%s cannot be declared: it names an instruction type only (use a .b register or variable of its width)",
            isa_types[t].text);
    else
        ERR(L, sp, "type .%s cannot be declared in .%s space", isa_types[t].text, isa_spaces[space].text);
}

static void lower_words(lower_t *L, const fe_node_t *ws, words_t *w)
{
    memset(w, 0, sizeof *w);
    w->space = ISA_SP_NONE;
    w->ptr_space = ISA_SP_NONE;
    w->type = ISA_T_NONE;
    w->vec = 1;
    w->span = ws->span;
    bool ptr = false;
    for (const fe_node_t *k = ws->kids; k; k = k->next) {
        const char *s = k->s + 1;
        size_t n = k->n - 1;
        int d = isa_dir_lookup(k->s, k->n), v;
        if (d >= 0 && isa_dirs[d].cls == ISA_DC_WORD) {
            switch ((isa_dir_t)d) {
            case ISA_D_VISIBLE: w->linkage |= ISA_LINK_VISIBLE; break;
            case ISA_D_EXTERN:  w->linkage |= ISA_LINK_EXTERN; break;
            case ISA_D_WEAK:    w->linkage |= ISA_LINK_WEAK; break;
            case ISA_D_COMMON:  w->linkage |= ISA_LINK_COMMON; break;
            case ISA_D_PTR:     ptr = true; w->flags |= ISA_VARF_PTR; break;
            case ISA_D_ALIGN:
                if (!k->kids || k->kids->kind != N_INT || !pow2(k->kids->u) || k->kids->u > (1u << 30)) {
                    ERR(L, k->span, ".align needs a power-of-two byte count");
                    break;
                }
                if (ptr)
                    w->ptr_align = (uint32_t)k->kids->u;
                else
                    w->align = (uint32_t)k->kids->u;
                break;
            case ISA_D_ATTRIBUTE:
                w->attr = 1;
                if (!k->kids || k->kids->kind != N_WORDS) {
                    ERR(L, k->span, ".attribute needs a parenthesised attribute list");
                    break;
                }
                for (const fe_node_t *a = k->kids->kids; a; a = a->next) {
                    int ad = isa_dir_lookup(a->s, a->n);
                    if (ad == ISA_D_MANAGED)
                        w->flags |= ISA_VARF_MANAGED;
                    else if (ad == ISA_D_UNIFIED)
                        w->flags |= ISA_VARF_UNIFIED;
                    else
                        ERR(L, a->span, "unknown attribute '%.*s'", (int)a->n, a->s);
                }
                break;
            case ISA_D_TEXREF:     w->opaque = ISA_D_TEXREF + 1; break;
            case ISA_D_SAMPLERREF: w->opaque = ISA_D_SAMPLERREF + 1; break;
            case ISA_D_SURFREF:    w->opaque = ISA_D_SURFREF + 1; break;
            default:
                ERR(L, k->span, "directive '%.*s' is not valid in a declaration", (int)k->n, k->s);
            }
            if (d != ISA_D_ALIGN && d != ISA_D_ATTRIBUTE && k->kids)
                ERR(L, k->kids->span, "unexpected argument to '%.*s'", (int)k->n, k->s);
            continue;
        }
        if (k->kids)
            ERR(L, k->kids->span, "unexpected argument to '%.*s'", (int)k->n, k->s);
        if ((v = isa_space_lookup(s, n)) >= 0) {
            if (ptr) {
                w->ptr_space = (isa_space_t)v;
            } else {
                if (w->space != ISA_SP_NONE)
                    ERR(L, k->span, "more than one state space in a declaration");
                w->space = (isa_space_t)v;
            }
        } else if ((v = isa_type_lookup(s, n)) >= 0) {
            if (w->type != ISA_T_NONE)
                ERR(L, k->span, "more than one type in a declaration");
            check_type_version(L, k->span, v);
            w->type = (isa_type_t)v;
        } else if ((v = isa_mod_lookup(s, n)) == ISA_M_V2 || v == ISA_M_V4 || v == ISA_M_V8) {
            w->vec = v == ISA_M_V2 ? 2 : v == ISA_M_V4 ? 4 : 8;
        } else {
            ERR(L, k->span, "unknown directive '%.*s'", (int)k->n, k->s);
        }
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Variables and initializers
 *====================================================================*/

/* Flatten an initializer into elements; a nested list at nesting level d fills
 * exactly one element of dimension d (zero-padded), so 2-D arrays keep their layout. */
typedef DA(isa_init_t) initvec_t;
static void lower_init_value(lower_t *L, const fe_node_t *v, initvec_t *out);

static uint64_t init_span_elems(const isa_var_t *var, unsigned level)
{
    uint64_t n = var->vec > 1 ? var->vec : 1;
    for (unsigned i = level; i < var->ndims; i++)
        n *= var->dims[i] ? var->dims[i] : 1;
    return n;
}

static void lower_init_list(lower_t *L, const isa_var_t *var, const fe_node_t *list,
                            unsigned level, initvec_t *out)
{
    for (const fe_node_t *k = list->kids; k; k = k->next) {
        if (k->kind == N_INITLIST) {
            uint32_t start = out->n;
            lower_init_list(L, var, k, level + 1, out);
            uint64_t want = init_span_elems(var, level + 1);
            if (out->n - start > want)
                ERR(L, k->span, "too many initializers");
            while (out->n - start < want)
                DA_PUSH(*out)->kind = ISA_INIT_INT;
        } else {
            lower_init_value(L, k, out);
        }
    }
}

static void lower_init_value(lower_t *L, const fe_node_t *v, initvec_t *out)
{
    isa_init_t *e = DA_PUSH(*out);
    switch (v->kind) {
    case N_INT: e->kind = ISA_INIT_INT; e->value = (int64_t)v->u; return;
    case N_F32: e->kind = ISA_INIT_F32; e->value = (int64_t)v->u; return;
    case N_F64: e->kind = ISA_INIT_F64; e->value = (int64_t)v->u; return;
    case N_FIELD:
        e->sym = L->strs.n;
        *DA_PUSH(L->strs) = str_of(L, v->s, v->n);
        if (v->kids->kind == N_NAME) {
            e->kind = ISA_INIT_FIELD_NAME;
            e->value = L->strs.n;
            *DA_PUSH(L->strs) = str_of(L, v->kids->s, v->kids->n);
        } else {
            e->kind = ISA_INIT_FIELD_INT;
            e->value = (int64_t)v->kids->u;
        }
        return;
    case N_NAME:
    case N_SYMOFF:
    case N_GENERIC: {
        sym_t *s = sym_find(&L->syms, v->s, v->n);
        e->kind = v->kind == N_GENERIC ? ISA_INIT_GENERIC : ISA_INIT_SYM;
        e->value = v->kind == N_NAME ? 0 : (int64_t)v->u;
        if (!s || (s->kind != S_MODVAR && s->kind != S_FUNC)) {
            ERR(L, v->span, "initializer refers to unknown symbol '%.*s'", (int)v->n, v->s);
            return;
        }
        e->modsym = s->kind == S_MODVAR;
        e->sym = s->idx;
        if (e->kind == ISA_INIT_GENERIC && !e->modsym)
            ERR(L, v->span, "generic() needs a variable, not a function");
        return;
    }
    default:
        ERR(L, v->span, "invalid initializer");
    }
}

/* Fill a variable from declaration words and a declarator (name, dims, init). */
static void lower_var(lower_t *L, isa_var_t *var, const words_t *w, const fe_node_t *dt,
                      bool module_scope)
{
    var->name = str_of(L, dt->s, dt->n);
    var->space = w->space;
    var->type = w->type;
    var->opaque = w->opaque;
    var->vec = w->vec;
    var->linkage = w->linkage;
    var->flags = w->flags;
    var->attr_written = w->attr;
    var->align = w->align;
    var->ptr_space = w->ptr_space;
    var->ptr_align = w->ptr_align;
    var->loc = loc_of(L, dt->span);
    var->scope = module_scope ? ISA_NONE : L->f->scope;
    if (w->space == ISA_SP_TEX) {
        /* ".tex .u32 t;" of PTX before 1.5 (as nvcc of CUDA 3 still wrote for sm_1x): a
         * texture reference, what ".global .texref t;" declares since (ptxas 13 takes it
         * only there, and only of .u32 or .u64) */
        if (L->m->ver_major * 10 + L->m->ver_minor >= 15)
            ERR(L, w->span, "'.tex' declares a texture reference only before PTX ISA 1.5: declare '.global .texref %.*s'",
                (int)dt->n, dt->s);
        else if ((w->type != ISA_T_U32 && w->type != ISA_T_U64) || w->opaque || dt->kids || !module_scope)
            ERR(L, w->span, "a '.tex' texture reference is a module's .u32 or .u64 variable, not an array");
        var->space = ISA_SP_GLOBAL;
        var->type = ISA_T_NONE;
        var->opaque = ISA_D_TEXREF + 1;
        var->size = isa_var_size(var);
        return;
    }
    if (w->space != ISA_SP_NONE)
        check_type_decl(L, w->span, w->type, w->space);
    if (w->opaque == ISA_D_SAMPLERREF + 1) {
        /* a sampler of its own exists only in independent mode (ptxas: "Instruction or
         * declaration violates .target texmode_unified setting") */
        bool independent = false;
        for (uint32_t i = 0; i < L->targets.n; i++)
            independent |= strcmp(L->targets.v[i], "texmode_independent") == 0;
        if (!independent)
            ERR(L, dt->span, "a .samplerref needs .target texmode_independent (under the default texmode_unified a "
                "texture reference carries its sampler)");
    }
    if (w->type == ISA_T_NONE && !w->opaque)
        ERR(L, w->span, "declaration of '%.*s' has no type", (int)dt->n, dt->s);
    if (w->type != ISA_T_NONE && w->opaque)
        ERR(L, w->span, "declaration of '%.*s' has two types", (int)dt->n, dt->s);
    if (dt->sub)
        ERR(L, dt->span, "a register range '<N>' is only valid in a .reg declaration");
    const fe_node_t *init = NULL;
    for (const fe_node_t *k = dt->kids; k; k = k->next) {
        if (k->kind != N_DIM) {
            init = k;
            break;
        }
        if (var->ndims == 4) {
            ERR(L, k->span, "more than four array dimensions");
            continue;
        }
        if (k->sub) {
            if (var->ndims != 0)
                ERR(L, k->span, "only the first array dimension may be unsized");
            var->flags |= ISA_VARF_UNSIZED;
            var->dims[var->ndims++] = 0;
        } else {
            if (k->u == 0 || k->u > 0xffffffffu)
                ERR(L, k->span, "array dimension must be between 1 and 2^32-1");
            var->dims[var->ndims++] = (uint32_t)k->u;
        }
    }
    if (init) {
        initvec_t out = { 0 };
        if (init->kind == N_INITLIST) {
            var->init_braced = 1;
            lower_init_list(L, var, init, 0, &out);
        } else {
            lower_init_value(L, init, &out);
        }
        if ((var->flags & ISA_VARF_UNSIZED) && var->ndims == 1) {
            uint64_t per = init_span_elems(var, 1);
            var->dims[0] = (uint32_t)((out.n + per - 1) / per);
            var->flags &= (uint8_t)~ISA_VARF_UNSIZED;
        }
        uint64_t total = init_span_elems(var, 0);
        if (var->opaque) {
            for (uint32_t i = 0; i < out.n; i++)
                if (out.v[i].kind != ISA_INIT_FIELD_NAME && out.v[i].kind != ISA_INIT_FIELD_INT)
                    ERR(L, init->span, "a %s initializer is a list of 'field = value'",
                        isa_dirs[var->opaque - 1].text);
        } else if (out.n > total)
            ERR(L, init->span, "too many initializers for '%s' (%u for %llu elements)", var->name,
                out.n, (unsigned long long)total);
        for (uint32_t i = 0; i < out.n && !var->opaque; i++)
            if (out.v[i].kind == ISA_INIT_FIELD_NAME || out.v[i].kind == ISA_INIT_FIELD_INT)
                ERR(L, init->span, "'field = value' initializers are only for .samplerref and .texref");
        if (var->space != ISA_SP_GLOBAL && var->space != ISA_SP_CONST)
            ERR(L, init->span, "only .global and .const variables may have initializers");
        var->ninit = out.n;
        var->init = DA_COMMIT(L->m->arena, out);
        DA_FREE(out);
    }
    var->size = (var->flags & ISA_VARF_UNSIZED) ? 0 : isa_var_size(var);
}
/*}=====================================================================*/

/* An unsized array that is not .extern and has no initializer to size it: ptxas refuses
 * it ("Non-external variable 'x' has incomplete type"). */
static void check_complete(lower_t *L, const isa_var_t *v, const fe_node_t *dt)
{
    if ((v->flags & ISA_VARF_UNSIZED) && !(v->linkage & ISA_LINK_EXTERN))
        ERR(L, dt->span, "'%s' is an array of no size: declare it .extern (storage defined elsewhere, or "
            "dynamic .shared memory) or give it a size or an initializer", v->name);
}

/*{=====================================================================
 * Functions: headers
 *====================================================================*/
/* Parameters in .param or .reg space (ptxas): an .entry takes only .param ones; a .param
 * parameter is no vector (.v2/.v4: "cannot be allocated in .param state space"); a .reg
 * one is no array. */
static isa_var_t *lower_params(lower_t *L, const fe_node_t *list, uint32_t *out_n, bool entry)
{
    DA(isa_var_t) ps = { 0 };
    for (const fe_node_t *p = list->kids; p; p = p->next) {
        words_t w;
        lower_words(L, p->kids, &w);
        if (w.space == ISA_SP_NONE)
            w.space = ISA_SP_PARAM;
        if (w.space != ISA_SP_PARAM && w.space != ISA_SP_REG)
            ERR(L, p->kids->span, "a parameter must be in .param or .reg space");
        else if (entry && w.space != ISA_SP_PARAM)
            ERR(L, p->kids->span, "an .entry parameter must be in .param space");
        if (w.linkage)
            ERR(L, p->kids->span, "linkage is not valid on a parameter");
        isa_var_t *v = DA_PUSH(ps);
        lower_var(L, v, &w, p->kids->next, true);
        if (v->space == ISA_SP_PARAM && v->vec > 1)
            ERR(L, p->kids->span, "a .param parameter cannot be a vector (.v%u)", (unsigned)v->vec);
        if (entry && (v->flags & ISA_VARF_UNSIZED))
            ERR(L, p->kids->next->span, "an .entry parameter cannot be an array of no size");
        if (v->space == ISA_SP_REG && (v->ndims || v->align || v->opaque))
            ERR(L, p->kids->next->span, "a .reg parameter cannot be an array, aligned or opaque");
    }
    *out_n = ps.n;
    isa_var_t *r = DA_COMMIT(L->m->arena, ps);
    DA_FREE(ps);
    return r;
}

/* Several return parameters must all be .reg ones (ptxas). */
static void check_rets(lower_t *L, const fe_node_t *list, const isa_var_t *rets, uint32_t n)
{
    const fe_node_t *p = list->kids;
    for (uint32_t i = 0; i < n && n > 1 && p; i++, p = p->next)
        if (rets[i].space != ISA_SP_REG) {
            ERR(L, p->span, "several return parameters must all be in .reg space");
            break;
        }
}

static isa_perf_t *lower_perfs(lower_t *L, const fe_node_t *perfs, uint32_t *out_n, uint8_t *noreturn)
{
    DA(isa_perf_t) v = { 0 };
    for (const fe_node_t *p = perfs->kids; p; p = p->next) {
        isa_perf_t *e = DA_PUSH(v);
        e->id = (isa_dir_t)isa_dir_lookup(p->s, p->n);
        if (e->id == ISA_D_NORETURN && noreturn)
            *noreturn = 1;
        if (p->kids) {
            for (const fe_node_t *i = p->kids->kids; i; i = i->next) {
                if (e->n == 3) {
                    ERR(L, i->span, "too many values for '%.*s'", (int)p->n, p->s);
                    break;
                }
                if (i->u > 0xffffffffu)
                    ERR(L, i->span, "value out of range");
                else if (i->u == 0 && (e->id == ISA_D_MAXNTID || e->id == ISA_D_REQNTID ||
                                       e->id == ISA_D_MAXNREG || e->id == ISA_D_MINNCTAPERSM))
                    ERR(L, i->span, "'%.*s' needs positive values, not 0", (int)p->n, p->s);
                e->v[e->n++] = (uint32_t)i->u;
            }
        }
    }
    *out_n = v.n;
    isa_perf_t *r = DA_COMMIT(L->m->arena, v);
    DA_FREE(v);
    return r;
}

static bool same_sig(const isa_var_t *a, uint32_t na, const isa_var_t *b, uint32_t nb)
{
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (a[i].type != b[i].type || a[i].vec != b[i].vec || a[i].size != b[i].size)
            return false;
    return true;
}

/* Pass 1 for a function: declare it (or merge with an earlier prototype). */
static void declare_func(lower_t *L, fe_node_t *fn)
{
    fe_node_t *words = fn->kids, *rets = words->next, *name = rets->next;
    fe_node_t *params = name->next, *perfs = params->next, *body = perfs->next;
    words_t w;
    lower_words(L, words, &w);
    if (w.space != ISA_SP_NONE || w.type != ISA_T_NONE || w.align || w.flags || w.opaque)
        ERR(L, words->span, "only linkage directives may precede .entry or .func");
    if (fn->sub && rets->sub)
        ERR(L, rets->span, "an .entry has no return parameters");

    isa_func_t nf = { 0 };
    nf.name = str_of(L, name->s, name->n);
    nf.is_entry = fn->sub;
    nf.linkage = w.linkage;
    nf.has_body = body != NULL;
    nf.loc = loc_of(L, name->span);
    nf.rets = lower_params(L, rets, &nf.nret, false);
    nf.params = lower_params(L, params, &nf.nparam, nf.is_entry);
    check_rets(L, rets, nf.rets, nf.nret);
    nf.perf = lower_perfs(L, perfs, &nf.nperf, &nf.noreturn);
    if (nf.is_entry && nf.noreturn)
        ERR(L, perfs->span, ".noreturn is only valid on a .func");

    sym_t *s = sym_find(&L->syms, name->s, name->n);
    if (s && s->kind != S_FUNC) {
        ERR(L, name->span, "'%.*s' is already declared as a variable", (int)name->n, name->s);
        return;
    }
    if (s) {
        isa_func_t *old = &L->funcs.v[s->idx];
        if (old->has_body && body) {
            ERR(L, name->span, "redefinition of function '%s'", nf.name);
            return;
        }
        if (old->is_entry != nf.is_entry || !same_sig(old->rets, old->nret, nf.rets, nf.nret) ||
            !same_sig(old->params, old->nparam, nf.params, nf.nparam)) {
            ERR(L, name->span, "declaration of '%s' does not match its earlier declaration", nf.name);
            return;
        }
        if (body) {
            /* The definition takes over; the earlier declaration prints as a prototype. */
            uint8_t dl = old->linkage;
            *old = nf;
            old->decl_linkage = dl;
            L->func_nodes[s->idx] = fn;
            for (uint32_t i = 0; i < L->items.n; i++)
                if (L->items.v[i].kind == ISA_ITEM_FUNC && L->items.v[i].idx == s->idx)
                    L->items.v[i].kind = ISA_ITEM_FUNCDECL;
            isa_item_t *it = DA_PUSH(L->items);
            it->kind = ISA_ITEM_FUNC;
            it->idx = s->idx;
        }
        return;
    }
    uint32_t idx = L->funcs.n;
    *DA_PUSH(L->funcs) = nf;
    L->func_nodes = realloc(L->func_nodes, L->funcs.cap * sizeof *L->func_nodes);
    L->func_nodes[idx] = body ? fn : NULL;
    sym_add(&L->syms, name->s, name->n, S_FUNC, idx);
    isa_item_t *it = DA_PUSH(L->items);
    it->kind = ISA_ITEM_FUNC;
    it->idx = idx;
}
/*}=====================================================================*/

/*{=====================================================================
 * Operands
 *====================================================================*/

/* Resolve a special register name such as "%tid.x", "%envreg3", "%clock64". */
static bool lower_sreg(lower_t *L, const fe_node_t *n, isa_operand_t *o)
{
    const char *s = n->s;
    size_t len = n->n, base = 0;
    while (base < len && s[base] != '.')
        base++;
    int id = isa_sreg_lookup(s, base);
    unsigned index = 0;
    if (id < 0) {
        /* An indexed register: name followed by its decimal index. */
        size_t d = base;
        while (d > 1 && s[d - 1] >= '0' && s[d - 1] <= '9')
            d--;
        if (d == base || (id = isa_sreg_lookup(s, d)) < 0)
            return false;
        const isa_sreg_info_t *si = &isa_sregs[id];
        if (si->form != ISA_SRF_INDEX32 && si->form != ISA_SRF_INDEX8)
            return false;
        if (base - d > 2)
            return false;
        for (size_t i = d; i < base; i++)
            index = index * 10 + (unsigned)(s[i] - '0');
        unsigned lim = si->form == ISA_SRF_INDEX32 ? 32 : 8;
        if (index >= lim) {
            ERR(L, n->span, "%s index must be below %u", si->text, lim);
            return true;
        }
    } else if (isa_sregs[id].form == ISA_SRF_INDEX32 || isa_sregs[id].form == ISA_SRF_INDEX8) {
        ERR(L, n->span, "%s needs an index", isa_sregs[id].text);
        return true;
    }
    const isa_sreg_info_t *si = &isa_sregs[id];
    o->kind = ISA_OPD_SREG;
    o->u.sreg.id = (uint16_t)id;
    o->u.sreg.comp = (uint16_t)index;
    if (si->form == ISA_SRF_XYZ) {
        if (base + 2 != len || (s[base + 1] != 'x' && s[base + 1] != 'y' && s[base + 1] != 'z')) {
            ERR(L, n->span, "%s needs a component .x, .y or .z", si->text);
            return true;
        }
        o->u.sreg.comp = (uint16_t)(s[base + 1] - 'x');
    } else if (base != len) {
        ERR(L, n->span, "%s has no components", si->text);
    }
    return true;
}

/* A SIMD video selector of several fields, t[0..tn) after the dot: ".h" and two half-word
 * digits 0-3, or ".b" and two to four byte digits 0-7 (ptxas knows exactly these, and
 * the single digits, as video selectors).  Returns false when t is not of that form;
 * a form ptxas knows but no operand accepts (".b7", ".h2") is reported here. */
static bool lower_multisel(lower_t *L, const fe_node_t *n, const char *t, size_t tn, isa_operand_t *o)
{
    if (tn < 2 || (t[0] != 'h' && t[0] != 'b'))
        return false;
    unsigned maxd = t[0] == 'h' ? 3 : 7, maxn = t[0] == 'h' ? 2 : 4, fsel = 0;
    for (size_t i = 1; i < tn; i++) {
        if (t[i] < '0' || t[i] > '9')
            return false;
        if ((unsigned)(t[i] - '0') > maxd || tn - 1 > maxn) {
            ERR(L, n->span, "unknown video selector '.%.*s'", (int)tn, t);
            o->kind = ISA_OPD_SINK;
            return true;
        }
        fsel = fsel << 4 | (unsigned)(t[i] - '0');
    }
    o->kind = ISA_OPD_REG;
    if (tn == 2) {
        ERR(L, n->span, "video selector '.%.*s' is not valid on any operand", (int)tn, t);
        o->kind = ISA_OPD_SINK;
        return true;
    }
    o->sel = (uint8_t)(t[0] == 'h' ? ISA_SEL_HXY : ISA_SEL_BXY + (tn - 3));
    o->fsel = (uint16_t)fsel;
    return true;
}

/* Whether n names a module-scope .reg variable: one declared, or one of a range (%ra<17>:
 * %ra0 .. %ra16). */
static bool module_reg(const lower_t *L, const fe_node_t *n)
{
    for (uint32_t i = 0; i < L->modregs.n; i++) {
        const fe_node_t *dt = L->modregs.v[i];
        if (n->n < dt->n || memcmp(n->s, dt->s, dt->n) != 0)
            continue;
        if (!dt->sub && n->n == dt->n)
            return true;
        if (dt->sub && n->n > dt->n && n->n - dt->n <= 9) {
            uint64_t k = 0;
            size_t j = dt->n;
            while (j < n->n && n->s[j] >= '0' && n->s[j] <= '9')
                k = k * 10 + (uint64_t)(n->s[j++] - '0');
            if (j == n->n && k < dt->u && (n->s[dt->n] != '0' || n->n == dt->n + 1))
                return true;
        }
    }
    return false;
}

static void lower_name(lower_t *L, const fe_node_t *n, isa_operand_t *o)
{
    if (n->n == 1 && n->s[0] == '_') {
        o->kind = ISA_OPD_SINK;
        return;
    }
    if (n->n == 7 && memcmp(n->s, "WARP_SZ", 7) == 0) {
        o->kind = ISA_OPD_IMM;
        o->imm = 32;
        return;
    }
    sym_t *s = sym_find(&L->syms, n->s, n->n);
    if (s) {
        switch ((symkind_t)s->kind) {
        case S_REG:    o->kind = ISA_OPD_REG; o->u.reg = s->idx; return;
        case S_VAR:    o->kind = ISA_OPD_SYM; o->u.sym = s->idx; return;
        case S_MODVAR: o->kind = ISA_OPD_SYM; o->u.sym = s->idx; o->flags |= ISA_OPDF_MODSYM; return;
        case S_FUNC:   o->kind = ISA_OPD_FUNC; o->u.func = s->idx; return;
        case S_LABEL:  o->kind = ISA_OPD_LABEL; o->u.label = s->idx; return;
        case S_PROTO:  o->kind = ISA_OPD_PROTO; o->u.proto = s->idx; return;
        case S_BRT:    o->kind = ISA_OPD_BRTARGETS; o->u.idx = s->idx; return;
        }
    }
    if (n->s[0] == '%' && lower_sreg(L, n, o))
        return;
    /* A register with a component or selector: %v1.x, %r2.b3, %r5.h1, %r1.h32, %r2.b7654. */
    for (uint32_t dot = n->n; dot-- > 1;) {
        if (n->s[dot] != '.')
            continue;
        sym_t *r = sym_find(&L->syms, n->s, dot);
        if (r && r->kind == S_REG) {
            const char *t = n->s + dot + 1;
            size_t tn = n->n - dot - 1;
            for (int sel = ISA_SEL_X; sel <= ISA_SEL_H1; sel++) {
                if (strlen(isa_sel_names[sel]) == tn && memcmp(isa_sel_names[sel], t, tn) == 0) {
                    o->kind = ISA_OPD_REG;
                    o->u.reg = r->idx;
                    o->sel = (uint8_t)sel;
                    return;
                }
            }
            if (lower_multisel(L, n, t, tn, o)) {
                o->u.reg = r->idx;
                return;
            }
        }
        break;
    }
    o->kind = ISA_OPD_SINK;
    if (module_reg(L, n)) {
        ERR(L, n->span, "'%.*s' is a module-scope .reg variable (PTX before 3.0): using one is not supported yet",
            (int)n->n, n->s);
        return;
    }
    ERR(L, n->span, "undefined identifier '%.*s'", (int)n->n, n->s);
}

static uint32_t opd_reserve(lower_t *L, uint32_t count)
{
    uint32_t first = L->f->opds.n;
    for (uint32_t i = 0; i < count; i++)
        DA_PUSH(L->f->opds);
    return first;
}

static uint32_t count_kids(const fe_node_t *n)
{
    uint32_t c = 0;
    for (const fe_node_t *k = n ? n->kids : NULL; k; k = k->next)
        c++;
    return c;
}

static void lower_opnd(lower_t *L, const fe_node_t *n, uint32_t slot);

static void lower_elems(lower_t *L, const fe_node_t *n, uint32_t slot, uint8_t kind)
{
    uint32_t cnt = count_kids(n);
    uint32_t first = opd_reserve(L, cnt);
    uint32_t i = 0;
    for (const fe_node_t *k = n->kids; k; k = k->next)
        lower_opnd(L, k, first + i++);
    isa_operand_t *o = &L->f->opds.v[slot];
    o->kind = kind;
    o->u.first = first;
    o->count = cnt;
}

static void lower_opnd(lower_t *L, const fe_node_t *n, uint32_t slot)
{
    isa_operand_t tmp = { 0 };
    tmp.loc = loc_of(L, n->span);
    switch (n->kind) {
    case N_NAME:
        lower_name(L, n, &tmp);
        break;
    case N_NOT:
        lower_name(L, n, &tmp);
        if (tmp.kind != ISA_OPD_REG)
            ERR(L, n->span, "'!' applies to a predicate register");
        tmp.flags |= ISA_OPDF_NEG;
        break;
    case N_MINUS:
        lower_name(L, n, &tmp);
        if (tmp.kind != ISA_OPD_REG && tmp.kind != ISA_OPD_SINK)
            ERR(L, n->span, "'-' applies to a register");
        tmp.flags |= ISA_OPDF_MINUS;
        break;
    case N_INT:
        tmp.kind = ISA_OPD_IMM;
        tmp.imm = (int64_t)n->u;
        if (n->sub & 1)
            tmp.flags |= ISA_OPDF_UNSIGNED;
        break;
    case N_F32: tmp.kind = ISA_OPD_F32; tmp.imm = (int64_t)n->u; break;
    case N_F64: tmp.kind = ISA_OPD_F64; tmp.imm = (int64_t)n->u; break;
    case N_SYMOFF: {
        fe_node_t nm = *n;
        nm.kind = N_NAME;
        lower_name(L, &nm, &tmp);
        if (tmp.kind != ISA_OPD_SYM && tmp.kind != ISA_OPD_REG)
            ERR(L, n->span, "'%.*s+offset' needs a variable or a register", (int)n->n, n->s);
        tmp.imm = (int64_t)n->u;
        if (tmp.kind == ISA_OPD_REG)
            tmp.flags |= ISA_OPDF_REGOFF;   /* a source register plus an immediate: %r2+1 */
        break;
    }
    case N_ADDR: {
        tmp.kind = ISA_OPD_ADDR;
        const fe_node_t *a = n->kids;
        if (a && !a->next && a->kind != N_VEC) {
            isa_operand_t b = { 0 };
            if (a->kind == N_INT) {
                tmp.base = ISA_OPD_IMM;
                tmp.imm = (int64_t)a->u;
            } else {
                fe_node_t nm = *a;
                nm.kind = N_NAME;
                lower_name(L, &nm, &b);
                tmp.imm = a->kind == N_SYMOFF ? (int64_t)a->u : 0;
                if (b.kind == ISA_OPD_REG) {
                    tmp.base = ISA_OPD_REG;
                    tmp.u.reg = b.u.reg;
                } else if (b.kind == ISA_OPD_SYM) {
                    tmp.base = ISA_OPD_SYM;
                    tmp.u.sym = b.u.sym;
                    tmp.flags |= b.flags & ISA_OPDF_MODSYM;
                } else if (b.kind != ISA_OPD_SINK || !L->c->nerr) {
                    ERR(L, a->span, "an address must be a register, a variable or a constant");
                }
            }
            break;
        }
        L->f->opds.v[slot] = tmp;
        lower_elems(L, n, slot, ISA_OPD_ADDR);
        L->f->opds.v[slot].flags |= ISA_OPDF_ADDRLIST;
        return;
    }
    case N_VEC:
        L->f->opds.v[slot] = tmp;
        lower_elems(L, n, slot, ISA_OPD_VEC);
        return;
    case N_LIST:
        L->f->opds.v[slot] = tmp;
        lower_elems(L, n, slot, ISA_OPD_LIST);
        return;
    case N_DUAL:
        L->f->opds.v[slot] = tmp;
        lower_elems(L, n, slot, ISA_OPD_DUAL);
        return;
    default:
        ERR(L, n->span, "invalid operand");
        tmp.kind = ISA_OPD_SINK;
    }
    L->f->opds.v[slot] = tmp;
}
/*}=====================================================================*/

/*{=====================================================================
 * Instructions: opcode and suffixes
 *====================================================================*/
/* Add modifier x before the instruction's first type suffix (as PTX writes them). */
static void sfx_insert(isa_instr_t *in, isa_sfx_t x)
{
    if (in->nsfx == ISA_MAX_SFX)
        return;
    unsigned at = 0;
    while (at < in->nsfx && in->sfx[at].kind != ISA_SFX_TYPE)
        at++;
    memmove(&in->sfx[at + 1], &in->sfx[at], (in->nsfx - at) * sizeof *in->sfx);
    in->sfx[at] = x;
    in->nsfx++;
}

/* A module of .target sm_10 to sm_13 keeps the single-precision semantics of those GPUs,
 * as the H100 runs such PTX (measured on an H200, NVIDIA's sample matrixMulDynlinkJIT
 * loads PTX of .target sm_10): every .f32 instruction that may flush subnormals does
 * (.ftz implied: add, sub, mul, mad, div, min, max, sqrt, abs, neg, setp measured), and
 * mad.f32 without a rounding modifier, which only those targets allow, is mad.rn.f32 (one
 * rounding: fused, as the manual says such code is JIT-compiled for newer GPUs). */
static void legacy_f32(isa_instr_t *in)
{
    bool f32 = false, rnd = false, ftz = false;
    for (unsigned i = 0; i < in->nsfx; i++) {
        const isa_sfx_t *x = &in->sfx[i];
        f32 |= x->kind == ISA_SFX_TYPE && x->id == ISA_T_F32;
        rnd |= x->kind == ISA_SFX_MOD && x->group == ISA_G_ROUND;
        ftz |= x->kind == ISA_SFX_MOD && x->group == ISA_G_FTZ;
    }
    if (!f32)
        return;
    static const uint16_t flush[] = { ISA_OP_ADD, ISA_OP_SUB, ISA_OP_MUL, ISA_OP_MAD, ISA_OP_FMA, ISA_OP_DIV,
                                      ISA_OP_ABS, ISA_OP_NEG, ISA_OP_MIN, ISA_OP_MAX, ISA_OP_SQRT, ISA_OP_RCP,
                                      ISA_OP_RSQRT, ISA_OP_EX2, ISA_OP_LG2, ISA_OP_SIN, ISA_OP_COS, ISA_OP_SETP,
                                      ISA_OP_SET, ISA_OP_CVT, ISA_OP_SLCT };
    bool flushes = false;
    for (size_t i = 0; i < sizeof flush / sizeof *flush; i++)
        flushes |= in->op == flush[i];
    if (in->op == ISA_OP_MAD && !rnd && in->ntypes == 1)
        sfx_insert(in, (isa_sfx_t){ ISA_SFX_MOD, ISA_G_ROUND, ISA_M_RN });
    if (flushes && !ftz && (isa_ops[in->op].groups & ISA_GM(FTZ)))
        sfx_insert(in, (isa_sfx_t){ ISA_SFX_MOD, ISA_G_FTZ, ISA_M_FTZ });
}

/* A special register read by an instruction other than mov (old PTX converts %tid.x
 * directly, as in cvt.u32.u16 %r1, %tid.x, which ptxas takes): it is read into a register of
 * its own by a mov just before, and the instruction reads that register. */
static void sreg_through_mov(lower_t *L, const isa_instr_t *user, uint32_t slot)
{
    fstate_t *F = L->f;
    isa_operand_t sr = F->opds.v[slot];
    isa_type_t t = isa_sregs[sr.u.sreg.id].type;
    char name[40];
    snprintf(name, sizeof name, "%%__sreg%u", F->regs.n);
    isa_regdecl_t *d = DA_PUSH(F->regdecls);
    uint32_t di = F->regdecls.n - 1;
    *d = (isa_regdecl_t){ .name = str_of(L, name, strlen(name)), .type = t, .vec = 1, .first = F->regs.n,
                          .scope = F->scope, .loc = user->loc };
    stmt_push(L, ISA_STMT_REGDECL, di);
    isa_reg_t *r = DA_PUSH(F->regs);
    *r = (isa_reg_t){ .name = F->regdecls.v[di].name, .type = t, .vec = 1, .decl = di };
    uint32_t reg = F->regs.n - 1;
    isa_instr_t mv = { 0 };
    mv.op = ISA_OP_MOV;
    mv.guard = ISA_NONE;
    mv.dbg = user->dbg;
    mv.loc = user->loc;
    mv.mloc = user->mloc;
    mv.nsfx = 1;
    mv.sfx[0] = (isa_sfx_t){ ISA_SFX_TYPE, 0, (uint16_t)t };
    mv.ntypes = 1;
    mv.types[0] = (uint8_t)t;
    mv.nopd = 2;
    mv.opd = opd_reserve(L, 2);
    F->opds.v[mv.opd] = (isa_operand_t){ .kind = ISA_OPD_REG, .u.reg = reg, .loc = sr.loc };
    F->opds.v[mv.opd + 1] = sr;
    *DA_PUSH(F->instrs) = mv;
    stmt_push(L, ISA_STMT_INSTR, F->instrs.n - 1);
    F->opds.v[slot] = (isa_operand_t){ .kind = ISA_OPD_REG, .u.reg = reg, .loc = sr.loc };
}

static void lower_instr(lower_t *L, const fe_node_t *n)
{
    fstate_t *F = L->f;
    isa_instr_t in = { 0 };
    in.guard = ISA_NONE;
    in.dbg = F->cur_dbg;
    in.loc = loc_of(L, n->span);
    uint32_t mbeg = (uint32_t)(n->s - L->c->text);
    fe_span_t msp = { mbeg, mbeg + n->n };
    in.mloc = loc_of(L, msp);

    size_t mlen = 0;
    int op = isa_op_lookup(n->s, n->n, &mlen);
    bool bad = false;
    if (op < 0) {
        size_t first = 0;
        while (first < n->n && n->s[first] != '.')
            first++;
        fe_span_t fsp = { mbeg, mbeg + (uint32_t)first };
        ERR(L, fsp, "unknown instruction '%.*s'", (int)first, n->s);
        bad = true;
    } else {
        in.op = (uint16_t)op;
        const isa_op_info_t *oi = &isa_ops[op];
        uint8_t gcount[ISA_G__COUNT] = { 0 };
        size_t p = mlen;
        while (p < n->n && !bad) {
            size_t b = p + 1, e = b;
            while (e < n->n && n->s[e] != '.')
                e++;
            fe_span_t csp = { mbeg + (uint32_t)p, mbeg + (uint32_t)e };
            const char *cs = n->s + b;
            size_t cn = e - b;
            p = e;
            if (in.nsfx == ISA_MAX_SFX) {
                ERR(L, csp, "too many suffixes");
                bad = true;
                break;
            }
            isa_sfx_t *sx = &in.sfx[in.nsfx];
            int v;
            if ((v = isa_type_lookup(cs, cn)) >= 0) {
                if (in.ntypes == sizeof in.types) {
                    ERR(L, csp, "too many type suffixes");
                    bad = true;
                    break;
                }
                check_type_version(L, csp, v);
                sx->kind = ISA_SFX_TYPE;
                sx->id = (uint16_t)v;
                in.types[in.ntypes++] = (uint8_t)v;
            } else if ((v = isa_space_lookup(cs, cn)) >= 0) {
                if (!(oi->groups & ISA_GM(SPACE)) || gcount[ISA_G_SPACE] >= isa_groups[ISA_G_SPACE].maxn) {
                    ERR(L, csp, "state space '.%.*s' is not valid for '%s'", (int)cn, cs, oi->mnemonic);
                    bad = true;
                    break;
                }
                gcount[ISA_G_SPACE]++;
                sx->kind = ISA_SFX_SPACE;
                sx->group = ISA_G_SPACE;
                sx->id = (uint16_t)v;
            } else if ((v = isa_mod_lookup(cs, cn)) >= 0) {
                uint64_t cand = isa_mods[v].groups & oi->groups;
                int g = -1;
                for (int i = 0; i < ISA_G__COUNT && g < 0; i++)
                    if ((cand >> i & 1) && gcount[i] < isa_groups[i].maxn)
                        g = i;
                if (g < 0) {
                    if (cand)
                        ERR(L, csp, "'.%.*s' conflicts with an earlier modifier of '%s'", (int)cn, cs,
                            oi->mnemonic);
                    else
                        ERR(L, csp, "modifier '.%.*s' is not valid for '%s'", (int)cn, cs, oi->mnemonic);
                    bad = true;
                    break;
                }
                gcount[g]++;
                sx->kind = ISA_SFX_MOD;
                sx->group = (uint8_t)g;
                sx->id = (uint16_t)v;
            } else {
                ERR(L, csp, "unknown modifier '.%.*s' in '%.*s'", (int)cn, cs, (int)n->n, n->s);
                bad = true;
                break;
            }
            in.nsfx++;
        }
    }

    /* Guard and operands. */
    const fe_node_t *k = n->kids;
    if (k && k->kind == N_GUARD) {
        isa_operand_t g = { 0 };
        fe_node_t nm = *k;
        nm.kind = N_NAME;
        lower_name(L, &nm, &g);
        if (g.kind == ISA_OPD_REG && F->regs.v[g.u.reg].type == ISA_T_PRED)
            in.guard = g.u.reg;
        else if (g.kind == ISA_OPD_REG)
            ERR(L, k->span, "guard '%s' is not a predicate register", F->regs.v[g.u.reg].name);
        else if (g.kind != ISA_OPD_SINK || !L->c->nerr)
            ERR(L, k->span, "a guard must be a predicate register");
        in.guard_neg = k->sub;
        k = k->next;
    }
    uint32_t cnt = 0;
    for (const fe_node_t *q = k; q; q = q->next)
        cnt++;
    if (cnt > 255) {
        ERR(L, n->span, "too many operands");
        return;
    }
    in.nopd = (uint8_t)cnt;
    in.opd = opd_reserve(L, cnt);
    uint32_t i = 0;
    for (const fe_node_t *q = k; q; q = q->next, i++) {
        if (!bad && in.op == ISA_OP_CALL && q->kind == N_INT && (q->sub & FE_PAREN)) {
            /* call (r), f, (41): a parenthesised constant is a list of one argument. */
            fe_node_t one = *q;
            one.sub &= (uint8_t)~FE_PAREN;
            one.next = NULL;
            fe_node_t lst = { .kind = N_LIST, .span = q->span, .kids = &one, .tail = &one };
            lower_opnd(L, &lst, in.opd + i);
            continue;
        }
        lower_opnd(L, q, in.opd + i);
    }
    if (bad)
        return;
    if (L->m->sm != ISA_SM_ANY && ISA_SM_ORDER(L->m->sm) < ISA_SM_ORDER(ISA_SM_20))
        legacy_f32(&in);
    for (uint32_t k = 0; in.op != ISA_OP_MOV && k < in.nopd; k++)
        if (F->opds.v[in.opd + k].kind == ISA_OPD_SREG)
            sreg_through_mov(L, &in, in.opd + k);
    *DA_PUSH(F->instrs) = in;
    stmt_push(L, ISA_STMT_INSTR, F->instrs.n - 1);
}
/*}=====================================================================*/

/*{=====================================================================
 * Function bodies
 *====================================================================*/
static void declare_regs(lower_t *L, const words_t *w, const fe_node_t *dt)
{
    fstate_t *F = L->f;
    if (w->linkage || w->align || w->flags || w->opaque)
        ERR(L, w->span, "a .reg declaration takes only a type and a vector width");
    if (w->type == ISA_T_NONE) {
        ERR(L, w->span, "a .reg declaration needs a type");
        return;
    }
    check_type_decl(L, w->span, w->type, ISA_SP_REG);
    for (const fe_node_t *k = dt->kids; k; k = k->next) {
        ERR(L, k->span, "registers cannot be arrays or have initializers");
        break;
    }
    isa_regdecl_t *d = DA_PUSH(F->regdecls);
    uint32_t di = F->regdecls.n - 1;
    d->name = str_of(L, dt->s, dt->n);
    d->type = w->type;
    d->vec = w->vec;
    d->count = dt->sub ? (uint32_t)dt->u : 0;
    d->first = F->regs.n;
    d->scope = F->scope;
    d->loc = loc_of(L, dt->span);
    stmt_push(L, ISA_STMT_REGDECL, di);
    if (dt->sub && (dt->u == 0 || dt->u > (1u << 24))) {
        ERR(L, dt->span, "register range count must be between 1 and 2^24");
        d->count = 1;
    }
    uint32_t n = d->count ? d->count : 1;
    for (uint32_t i = 0; i < n; i++) {
        isa_reg_t *r = DA_PUSH(F->regs);
        r->type = w->type;
        r->vec = w->vec;
        r->decl = di;
        if (dt->sub) {
            /* "%r" and the index, without snprintf: a range may hold millions. */
            char small[96], dig[10], *buf = dt->n + 10 <= sizeof small ? small : malloc(dt->n + 10);
            size_t len = dt->n, nd = 0;
            uint32_t v = i;
            if (!buf) {
                ERR(L, dt->span, "out of memory");
                return;
            }
            memcpy(buf, dt->s, len);
            do
                dig[nd++] = (char)('0' + v % 10);
            while ((v /= 10) != 0);
            while (nd)
                buf[len++] = dig[--nd];
            r->name = str_of(L, buf, len);
            if (buf != small)
                free(buf);
        } else {
            r->name = F->regdecls.v[di].name;
        }
        if (sym_add(&L->syms, r->name, strlen(r->name), S_REG, F->regs.n - 1))
            ERR(L, dt->span, "redeclaration of '%s' in the same scope", r->name);
    }
}

static void lower_body_decl(lower_t *L, const fe_node_t *decl)
{
    fstate_t *F = L->f;
    words_t w;
    lower_words(L, decl->kids, &w);
    for (const fe_node_t *dt = decl->kids->next->kids; dt; dt = dt->next) {
        if (w.space == ISA_SP_REG) {
            declare_regs(L, &w, dt);
            continue;
        }
        if (w.space == ISA_SP_NONE) {
            ERR(L, w.span, "declaration needs a state space");
            return;
        }
        isa_var_t *v = DA_PUSH(F->vars);
        lower_var(L, v, &w, dt, false);
        if (w.space != ISA_SP_PARAM)
            check_complete(L, v, dt);
        stmt_push(L, ISA_STMT_VAR, F->vars.n - 1);
        symkind_t kind = S_VAR;
        uint32_t idx = F->vars.n - 1;
        if (isa_spaces[w.space].window == ISA_SP_GLOBAL || isa_spaces[w.space].window == ISA_SP_CONST) {
            /* A function-scope .global/.const variable (static storage, as ptxas takes
             * it): its storage is a module variable only this scope names; the body keeps
             * the declaration for printing. */
            isa_var_t *mv = DA_PUSH(L->vars);
            *mv = F->vars.v[idx];
            mv->scope = ISA_NONE;
            mv->flags |= ISA_VARF_FSCOPE;
            kind = S_MODVAR;
            idx = L->vars.n - 1;
        }
        if (sym_add(&L->syms, dt->s, dt->n, kind, idx))
            ERR(L, dt->span, "redeclaration of '%.*s' in the same scope", (int)dt->n, dt->s);
    }
}

static void lower_block(lower_t *L, const fe_node_t *blk, bool body);

static void lower_stmt(lower_t *L, const fe_node_t *s)
{
    fstate_t *F = L->f;
    switch (s->kind) {
    case N_DECL:
        lower_body_decl(L, s);
        break;
    case N_LABEL: {
        sym_t *e = sym_find(&L->syms, s->s, s->n);
        if (e && e->kind == S_LABEL) {
            F->labels.v[e->idx].instr = F->instrs.n;
            stmt_push(L, ISA_STMT_LABEL, e->idx);
        }
        break;
    }
    case N_INSTR:
        lower_instr(L, s);
        break;
    case N_BODY:
        lower_block(L, s, false);
        break;
    case N_LOC: {
        isa_dbgloc_t *d = DA_PUSH(F->dbg);
        d->file = (uint32_t)s->kids->u;
        d->line = (uint32_t)s->kids->next->u;
        d->col = (uint32_t)s->kids->next->next->u;
        F->cur_dbg = F->dbg.n - 1;
        stmt_push(L, ISA_STMT_DBG, F->dbg.n - 1);
        break;
    }
    case N_PRAGMA: {
        isa_pragma_t *p = DA_PUSH(F->pragmas);
        p->text = str_of(L, L->c->text + s->kids->span.begin, s->tail->span.end - s->kids->span.begin);
        p->instr = F->instrs.n;
        p->scope = F->scope;
        stmt_push(L, ISA_STMT_PRAGMA, F->pragmas.n - 1);
        break;
    }
    case N_PROTO: {
        sym_t *e = sym_find(&L->syms, s->s, s->n);
        if (!e || e->kind != S_PROTO)
            break;
        isa_proto_t *p = &F->protos.v[e->idx];
        const fe_node_t *rets = s->kids, *nm = rets->next, *params = nm->next, *perfs = params->next;
        p->rets = lower_params(L, rets, &p->nret, false);
        p->params = lower_params(L, params, &p->nparam, false);
        check_rets(L, rets, p->rets, p->nret);
        uint32_t np;
        lower_perfs(L, perfs, &np, &p->noreturn);
        if (!(nm->n == 1 && nm->s[0] == '_'))
            ERR(L, nm->span, "a .callprototype is written with '_' in place of the function name");
        p->instr = F->instrs.n;
        p->scope = F->scope;
        stmt_push(L, ISA_STMT_PROTO, e->idx);
        break;
    }
    case N_BRT: {
        sym_t *e = sym_find(&L->syms, s->s, s->n);
        if (!e || e->kind != S_BRT)
            break;
        isa_brtargets_t *b = &F->brts.v[e->idx];
        b->calltargets = s->sub;
        b->count = count_kids(s->kids);
        b->targets = isa_arena_alloc(L->m->arena, b->count * sizeof *b->targets);
        uint32_t i = 0;
        for (const fe_node_t *t = s->kids->kids; t; t = t->next, i++) {
            sym_t *ts = sym_find(&L->syms, t->s, t->n);
            symkind_t want = s->sub ? S_FUNC : S_LABEL;
            if (!ts || ts->kind != want)
                ERR(L, t->span, "'%.*s' is not a %s", (int)t->n, t->s, s->sub ? "function" : "label");
            else
                b->targets[i] = ts->idx;
        }
        b->instr = F->instrs.n;
        b->scope = F->scope;
        stmt_push(L, ISA_STMT_BRT, e->idx);
        break;
    }
    case N_SECTION:   /* a statement that failed to parse */
        break;
    default:
        ERR(L, s->span, "unexpected statement");
    }
}

/* A block: its labels, prototypes and branch-target lists are visible throughout it
 * (labels may be used before they appear), so they are declared first. */
static void lower_block(lower_t *L, const fe_node_t *blk, bool body)
{
    fstate_t *F = L->f;
    uint32_t mark = symtab_enter(&L->syms);
    uint32_t parent = F->scope;
    isa_scope_t *sc = DA_PUSH(F->scopes);
    sc->parent = body ? ISA_NONE : parent;
    sc->begin = F->instrs.n;
    F->scope = F->scopes.n - 1;
    if (!body)
        stmt_push(L, ISA_STMT_OPEN, F->scope);
    for (const fe_node_t *s = blk->kids; s; s = s->next) {
        symkind_t k;
        if (s->kind == N_LABEL)
            k = S_LABEL;
        else if (s->kind == N_PROTO)
            k = S_PROTO;
        else if (s->kind == N_BRT)
            k = S_BRT;
        else
            continue;
        uint32_t idx;
        if (k == S_LABEL) {
            isa_label_t *l = DA_PUSH(F->labels);
            l->name = str_of(L, s->s, s->n);
            l->scope = F->scope;
            l->loc = loc_of(L, s->span);
            idx = F->labels.n - 1;
        } else if (k == S_PROTO) {
            isa_proto_t *p = DA_PUSH(F->protos);
            p->name = str_of(L, s->s, s->n);
            idx = F->protos.n - 1;
        } else {
            isa_brtargets_t *b = DA_PUSH(F->brts);
            b->name = str_of(L, s->s, s->n);
            idx = F->brts.n - 1;
        }
        fe_span_t nsp = { s->span.begin, s->span.begin + s->n };
        if (sym_add(&L->syms, s->s, s->n, k, idx))
            ERR(L, nsp, "redefinition of '%.*s'", (int)s->n, s->s);
    }
    for (const fe_node_t *s = blk->kids; s && !L->c->stopped; s = s->next)
        lower_stmt(L, s);
    F->scopes.v[F->scope].end = F->instrs.n;
    if (!body)
        stmt_push(L, ISA_STMT_CLOSE, F->scope);
    F->scope = parent;
    symtab_leave(&L->syms, mark);
}

static void lower_func_body(lower_t *L, uint32_t fi, const fe_node_t *fn)
{
    fstate_t F;
    memset(&F, 0, sizeof F);
    F.cur_dbg = ISA_NONE;
    L->f = &F;
    isa_func_t *f = &L->funcs.v[fi];
    L->fn = f;
    const fe_node_t *rets = fn->kids->next, *params = rets->next->next;
    const fe_node_t *body = params->next->next;
    uint32_t mark = symtab_enter(&L->syms);
    /* Parameters are visible in the body: the first variables, rets first; a .reg one
     * is also a register (the function's first registers, isa_param_reg). */
    for (uint32_t i = 0; i < f->nret + f->nparam; i++) {
        isa_var_t *v = DA_PUSH(F.vars);
        *v = i < f->nret ? f->rets[i] : f->params[i - f->nret];
        v->scope = 0;
        uint32_t kind = S_VAR, idx = F.vars.n - 1;
        if (v->space == ISA_SP_REG) {
            isa_reg_t *r = DA_PUSH(F.regs);
            r->name = v->name;
            r->type = v->type;
            r->vec = v->vec;
            r->decl = ISA_NONE;
            kind = S_REG;
            idx = F.regs.n - 1;
        }
        if (sym_add(&L->syms, v->name, strlen(v->name), kind, idx) && i >= f->nret)
            ERR(L, fe_span_of(v->loc), "duplicate parameter name '%s'", v->name);
    }
    lower_block(L, body, true);
    symtab_leave(&L->syms, mark);
    for (uint32_t i = 0; i < F.labels.n; i++)
        if (F.labels.v[i].instr > F.instrs.n)
            F.labels.v[i].instr = F.instrs.n;

    isa_arena_t *ar = L->m->arena;
    f = &L->funcs.v[fi];
    f->ninstr = F.instrs.n;     f->instrs = DA_COMMIT(ar, F.instrs);
    f->nopd = F.opds.n;         f->opds = DA_COMMIT(ar, F.opds);
    f->nregdecl = F.regdecls.n; f->regdecls = DA_COMMIT(ar, F.regdecls);
    f->nreg = F.regs.n;         f->regs = DA_COMMIT(ar, F.regs);
    f->nvar = F.vars.n;         f->vars = DA_COMMIT(ar, F.vars);
    f->nlabel = F.labels.n;     f->labels = DA_COMMIT(ar, F.labels);
    f->nscope = F.scopes.n;     f->scopes = DA_COMMIT(ar, F.scopes);
    f->ndbg = F.dbg.n;          f->dbg = DA_COMMIT(ar, F.dbg);
    f->nproto = F.protos.n;     f->protos = DA_COMMIT(ar, F.protos);
    f->nbrt = F.brts.n;         f->brts = DA_COMMIT(ar, F.brts);
    f->npragma = F.pragmas.n;   f->pragmas = DA_COMMIT(ar, F.pragmas);
    f->nstmt = F.stmts.n;       f->stmts = DA_COMMIT(ar, F.stmts);
    DA_FREE(F.instrs); DA_FREE(F.opds); DA_FREE(F.regdecls); DA_FREE(F.regs);
    DA_FREE(F.vars); DA_FREE(F.labels); DA_FREE(F.scopes); DA_FREE(F.dbg);
    DA_FREE(F.protos); DA_FREE(F.brts); DA_FREE(F.pragmas); DA_FREE(F.stmts);
    L->f = NULL;
    L->fn = NULL;
}
/*}=====================================================================*/

/*{=====================================================================
 * Module
 *====================================================================*/
static void lower_version(lower_t *L, const fe_node_t *n)
{
    unsigned maj = 0, min = 0;
    size_t i = 0;
    while (i < n->n && n->s[i] >= '0' && n->s[i] <= '9')
        maj = maj * 10 + (unsigned)(n->s[i++] - '0');
    if (i < n->n && n->s[i] == '.')
        for (i++; i < n->n && n->s[i] >= '0' && n->s[i] <= '9'; i++)
            min = min * 10 + (unsigned)(n->s[i] - '0');
    if (i != n->n || maj == 0)
        ERR(L, n->span, "malformed PTX ISA version '%.*s'", (int)n->n, n->s);
    else if (maj > 9 || (maj == 9 && min > 0))
        ERR(L, n->span, "PTX ISA version %u.%u is not supported (the newest supported is 9.0)", maj, min);
    L->m->ver_major = maj;
    L->m->ver_minor = min;
}

static void lower_target(lower_t *L, const fe_node_t *n)
{
    bool unknown = false;
    for (const fe_node_t *w = n->kids; w; w = w->next) {
        /* "debug" is checked but not kept: it says the module carries DWARF
         * sections, and the scanner skips those (ptxas refuses the option without
         * them, so a printed module must not repeat it). */
        if (!(w->n == 5 && memcmp(w->s, "debug", 5) == 0))
            *DA_PUSH(L->targets) = str_of(L, w->s, w->n);
        int sm = isa_sm_lookup(w->s, w->n);
        if (sm > 0) {
            if (L->m->sm != ISA_SM_ANY)
                ERR(L, w->span, "more than one architecture in .target");
            L->m->sm = (isa_sm_t)sm;
            /* Each target needs a minimum .version (targets.def); .version comes first. */
            const isa_ptxv_info_t *need = &isa_ptxvs[isa_sms[sm].ptx];
            unsigned have = L->m->ver_major * 10 + L->m->ver_minor;
            if (L->m->ver_major && have < need->major * 10 + need->minor)
                ERR(L, w->span, "PTX ISA version %u.%u does not support .target %s (it needs %u.%u or newer)",
                    L->m->ver_major, L->m->ver_minor, isa_sms[sm].text, need->major, need->minor);
            continue;
        }
        static const char *const opts[] = { "debug", "texmode_unified", "texmode_independent",
                                            "map_f64_to_f32" };
        bool ok = false;
        for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
            if (strlen(opts[i]) == w->n && memcmp(opts[i], w->s, w->n) == 0)
                ok = true;
        if (!ok) {
            ERR(L, w->span, "unknown target '%.*s'", (int)w->n, w->s);
            unknown = true;
        }
    }
    /* ptxas: "Target architecture not defined": options alone name no target. */
    if (L->m->sm == ISA_SM_ANY && !unknown)
        ERR(L, n->span, ".target names no architecture (sm_XX), only options");
}

static void lower_module_decl(lower_t *L, const fe_node_t *decl)
{
    words_t *wp = DA_PUSH(L->declwords);
    lower_words(L, decl->kids, wp);
    words_t w = *wp;
    if (w.space == ISA_SP_NONE) {
        ERR(L, w.span, "a module-scope declaration needs a state space");
        return;
    }
    /* .local and .reg at module scope are PTX before 3.0 (ptxas refuses them from 3.0: "not
     * allowed with ABI"); .param never. */
    if (w.space == ISA_SP_REG && L->m->ver_major * 10 + L->m->ver_minor < 30) {
        /* nvcc of CUDA 1-3 and OptiX declare some (%ra<17>) and use none: the declaration
         * is taken, a use refused where it is (lower_name) */
        for (const fe_node_t *dt = decl->kids->next->kids; dt; dt = dt->next)
            *DA_PUSH(L->modregs) = dt;
        return;
    }
    if (w.space == ISA_SP_REG || w.space == ISA_SP_PARAM) {
        ERR(L, w.span, "'.%s' variables cannot be declared at module scope%s", isa_spaces[w.space].text,
            w.space == ISA_SP_REG ? " (ptxas: \"Module-scoped variables in .reg state space are not allowed with "
                                    "ABI\"; PTX before 3.0 has them)" : "");
        return;
    }
    for (const fe_node_t *dt = decl->kids->next->kids; dt; dt = dt->next) {
        isa_var_t *v = DA_PUSH(L->vars);
        v->name = str_of(L, dt->s, dt->n);
        v->loc = loc_of(L, dt->span);
        uint32_t idx = L->vars.n - 1;
        sym_t *old = sym_add(&L->syms, dt->s, dt->n, S_MODVAR, idx);
        if (old)
            ERR(L, dt->span, "redefinition of '%.*s'", (int)dt->n, dt->s);
        isa_item_t *it = DA_PUSH(L->items);
        it->kind = ISA_ITEM_VAR;
        it->idx = idx;
    }
}

/* Pass 2 for declarations: types, dimensions and initializers (which may refer to
 * symbols declared later in the module). */
static void lower_module_decl2(lower_t *L, const fe_node_t *decl, uint32_t di, uint32_t *vi)
{
    words_t w = L->declwords.v[di];
    if (w.space == ISA_SP_NONE || w.space == ISA_SP_REG || w.space == ISA_SP_PARAM)
        return;
    for (const fe_node_t *dt = decl->kids->next->kids; dt; dt = dt->next) {
        isa_var_t *v = &L->vars.v[(*vi)++];
        lower_var(L, v, &w, dt, true);
        check_complete(L, v, dt);
        if (w.space == ISA_SP_LOCAL && L->m->ver_major * 10 + L->m->ver_minor >= 30)
            ERR(L, dt->span, "a module-scope .local variable needs PTX ISA before 3.0 (ptxas: \"Module-scoped "
                "variables in .local state space are not allowed with ABI\"): declare it in the function");
    }
}

bool fe_lower(fe_ctx_t *c)
{
    lower_t *L = calloc(1, sizeof *L);
    if (!L)
        return false;
    L->c = c;
    L->m = c->m;
    symtab_init(&L->syms);
    isa_module_t *m = c->m;
    const fe_node_t *root = c->root;
    bool have_version = false, have_target = false, version_missing = false;

    /* Pass 1: header directives, and every module-scope name. */
    unsigned nerr0 = c->nerr;
    for (const fe_node_t *it = root->kids; it; it = it->next) {
        if (!have_version && !version_missing && it->kind != N_VERSION && it->kind != N_SECTION) {
            ERR(L, it->span, "a PTX module must begin with a .version directive");
            version_missing = true;
        }
        switch (it->kind) {
        case N_VERSION:
            if (have_version)
                ERR(L, it->span, "duplicate .version directive");
            if (version_missing)
                break;
            have_version = true;
            lower_version(L, it);
            break;
        case N_TARGET:
            if (have_target)
                ERR(L, it->span, "duplicate .target directive");
            have_target = true;
            lower_target(L, it);
            break;
        case N_ADDRSIZE:
            if (it->u != 32 && it->u != 64)
                ERR(L, it->span, ".address_size must be 32 or 64");
            m->address_size = (unsigned)it->u;
            m->address_size_loc = loc_of(L, it->span);
            break;
        case N_FILE: {
            isa_file_t *f = DA_PUSH(L->files);
            f->index = (uint32_t)it->u;
            const fe_node_t *p = it->kids;
            f->name = str_of(L, p->s + 1, p->n - 2);
            if (p->next)
                for (const fe_node_t *x = p->next->kids; x && f->nextra < 2; x = x->next)
                    f->extra[f->nextra++] = x->u;
            isa_item_t *ii = DA_PUSH(L->items);
            ii->kind = ISA_ITEM_FILE;
            ii->idx = L->files.n - 1;
            break;
        }
        case N_PRAGMA: {
            isa_pragma_t *p = DA_PUSH(L->pragmas);
            p->text = str_of(L, c->text + it->kids->span.begin, it->tail->span.end - it->kids->span.begin);
            p->instr = ISA_NONE;
            isa_item_t *ii = DA_PUSH(L->items);
            ii->kind = ISA_ITEM_PRAGMA;
            ii->idx = L->pragmas.n - 1;
            break;
        }
        case N_ALIAS: {
            isa_alias_t *a = DA_PUSH(L->aliases);
            a->alias = str_of(L, it->kids->s, it->kids->n);
            a->target = str_of(L, it->tail->s, it->tail->n);
            isa_item_t *ii = DA_PUSH(L->items);
            ii->kind = ISA_ITEM_ALIAS;
            ii->idx = L->aliases.n - 1;
            break;
        }
        case N_DECL:
            lower_module_decl(L, it);
            break;
        case N_FUNC:
            if (!have_target) {
                ERR(L, it->span, "a .target directive must come before the first function");
                have_target = true;
            }
            declare_func(L, (fe_node_t *)it);
            break;
        case N_SECTION:
            break;
        default:
            ERR(L, it->span, "unexpected item at module scope");
        }
    }
    /* ptxas: "Missing .version directive" / "Missing .target directive at start of file". */
    if (!have_version && root->kids == NULL)
        ERR(L, root->span, "empty PTX module (no .version directive)");
    else if (!have_version && !version_missing)
        ERR(L, root->span, "a PTX module must begin with a .version directive (this one has none)");
    else if (have_version && !have_target)
        ERR(L, root->span, "a PTX module needs a .target directive after .version (this one has none)");

    /* Pass 2: variable details and initializers, then function bodies. */
    uint32_t vi = 0, di = 0;
    for (const fe_node_t *it = root->kids; it; it = it->next)
        if (it->kind == N_DECL)
            lower_module_decl2(L, it, di++, &vi);
    for (uint32_t fi = 0; fi < L->funcs.n && !c->stopped; fi++)
        if (L->func_nodes[fi])
            lower_func_body(L, fi, L->func_nodes[fi]);
    /* Aliases name functions. */
    for (uint32_t i = 0; i < L->aliases.n; i++) {
        const isa_alias_t *a = &L->aliases.v[i];
        if (!sym_find(&L->syms, a->alias, strlen(a->alias)) ||
            !sym_find(&L->syms, a->target, strlen(a->target)))
            ERR(L, root->span, ".alias %s, %s refers to an undeclared function", a->alias, a->target);
    }

    isa_arena_t *ar = m->arena;
    m->ntarget = L->targets.n; m->targets = DA_COMMIT(ar, L->targets);
    m->nstr = L->strs.n;       m->strs = DA_COMMIT(ar, L->strs);
    m->nfile = L->files.n;     m->files = DA_COMMIT(ar, L->files);
    m->nvar = L->vars.n;       m->vars = DA_COMMIT(ar, L->vars);
    m->nfunc = L->funcs.n;     m->funcs = DA_COMMIT(ar, L->funcs);
    m->nalias = L->aliases.n;  m->aliases = DA_COMMIT(ar, L->aliases);
    m->npragma = L->pragmas.n; m->pragmas = DA_COMMIT(ar, L->pragmas);
    m->nitem = L->items.n;     m->items = DA_COMMIT(ar, L->items);
    DA_FREE(L->targets); DA_FREE(L->strs); DA_FREE(L->declwords); DA_FREE(L->modregs); DA_FREE(L->files); DA_FREE(L->vars); DA_FREE(L->funcs);
    DA_FREE(L->aliases); DA_FREE(L->pragmas); DA_FREE(L->items); symtab_free(&L->syms);
    free(L->func_nodes);
    free(L);
    return c->nerr == nerr0;
}
/*}=====================================================================*/
