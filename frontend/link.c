/* link.c: the PTX linker: translation units, each loaded and checked on its own, become
 * one module in which every .extern resolves to a definition of another unit. */
#include "frontend/internal.h"

#include <stdlib.h>
#include <string.h>

/* The rules, from the PTX ISA 9.0 manual (11.6, linking directives), as nvlink applies them:
 *
 *  - A module-scope name with .visible, .weak, .common or .extern is global: every unit
 *    that names it means the same symbol.  A name without one of them is the unit's own
 *    (file scope); where two units use the same file-scope name, or a unit uses a global
 *    one for its own, the later unit's is renamed (NAME$K), so the units keep apart.  A
 *    function declared without a body is a reference to a global function, whatever its
 *    linkage.
 *  - .visible defines a symbol once: two .visible definitions are an error naming both.
 *  - .weak definitions yield to a .visible one; among several, the first unit's is kept.
 *  - .common variables (.global only) merge: the largest is kept; at most one may have an
 *    initializer, and it must be the largest.  A .visible definition beats .common ones
 *    (none of which may be larger), and a .common one beats .weak ones.
 *  - .extern declares a symbol defined elsewhere; its declarations must agree with the
 *    definition: functions in kind and parameters, variables in state space and at most
 *    the definition's size.  An .extern that is used but defined by no unit is an error,
 *    except for functions the runtime supplies (fe_options_t.provided: vprintf, malloc...)
 *    and unsized .extern .shared arrays (the launch's dynamic shared memory).  One that
 *    is not used is dropped.
 *  - The linked module takes the newest .version and .target of its units; their
 *    .address_size and .target options must agree.
 *  - An optional unit (an archive's member) is linked only when it defines a name that the
 *    units taken so far declare without defining; the members are tried in order. */

/*{=====================================================================
 * Names: string -> index, open addressing
 *====================================================================*/
typedef struct {
    const char **keys;
    uint32_t    *vals;
    uint32_t     cap, n;
} names_t;

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static uint32_t names_find(const names_t *t, const char *key)
{
    if (!t->cap)
        return ISA_NONE;
    for (uint32_t i = name_hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->keys[i])
            return ISA_NONE;
        if (strcmp(t->keys[i], key) == 0)
            return t->vals[i];
    }
}

/* Insert (or overwrite) key; false when out of memory.  key must outlive the table. */
static bool names_put(names_t *t, const char *key, uint32_t val)
{
    if (2 * (t->n + 1) > t->cap) {
        uint32_t nc = t->cap ? 2 * t->cap : 64;
        const char **nk = calloc(nc, sizeof *nk);
        uint32_t *nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return false;
        }
        for (uint32_t i = 0; i < t->cap; i++) {
            if (!t->keys[i])
                continue;
            uint32_t j = name_hash(t->keys[i]) & (nc - 1);
            while (nk[j])
                j = (j + 1) & (nc - 1);
            nk[j] = t->keys[i];
            nv[j] = t->vals[i];
        }
        free(t->keys);
        free(t->vals);
        t->keys = nk;
        t->vals = nv;
        t->cap = nc;
    }
    uint32_t i = name_hash(key) & (t->cap - 1);
    while (t->keys[i] && strcmp(t->keys[i], key) != 0)
        i = (i + 1) & (t->cap - 1);
    if (!t->keys[i])
        t->n++;
    t->keys[i] = key;
    t->vals[i] = val;
    return true;
}

static void names_free(names_t *t)
{
    free(t->keys);
    free(t->vals);
}
/*}=====================================================================*/

/*{=====================================================================
 * State
 *====================================================================*/

/* How strongly a unit defines a global symbol (the larger wins). */
typedef enum { DEF_NONE, DEF_WEAK, DEF_COMMON, DEF_STRONG } strength_t;

/* One global symbol: where it is first named, its winning definition, its use. */
typedef struct {
    const char *name;
    bool        is_func;
    uint8_t     strength;          /* strength_t of the definition so far */
    uint32_t    first_u, first_i;  /* the first declaration or definition */
    uint32_t    def_u, def_i;      /* the winning definition, ISA_NONE when none */
    uint32_t    init_u, init_i;    /* the .common declaration with an initializer */
    uint32_t    align;             /* variables: the largest alignment asked for */
    bool        used, keep;        /* used by kept code; in the result */
    isa_loc_t   use;               /* the first use (linked file numbering) */
    uint32_t    merged;            /* index in the linked module, ISA_NONE before */
    bool        def_emitted;       /* its defining item is in the linked module */
} gsym_t;

/* Per unit: each module variable's and function's global symbol (ISA_NONE: file scope),
 * the index of file-scope ones in the result, and offsets of what is renumbered. */
typedef struct {
    uint32_t    *vsym, *fsym;
    uint32_t    *vmap, *fmap;
    const char **vname, **fname;   /* file-scope names as they are in the result */
    uint32_t     src_base;         /* its sources' index in the result's srcs */
    uint32_t     file_base;        /* added to its .file numbers */
    uint32_t     str_base;         /* its strings' index in the result's strs */
} unit_t;

typedef struct {
    isa_module_t *const *u;
    unsigned      n;
    unit_t       *ut;
    isa_module_t *m;               /* the result */
    FILE         *diag;
    unsigned      nerr, max_errors;
    const char *const *provided;
    names_t       globals;         /* name -> index in g */
    names_t       taken;           /* every module-scope name of the result */
    gsym_t       *g;
    uint32_t      ng, capg;
    bool          nomem;
} link_t;

/* A unit's location in the result's numbering of sources. */
static isa_loc_t uloc(const link_t *L, uint32_t u, isa_loc_t at)
{
    at.file += L->ut[u].src_base;
    return at;
}

/* "name:line:col" of a location (result numbering) into buf. */
static const char *where(const link_t *L, isa_loc_t at, char *buf, size_t size)
{
    const isa_source_t *src = &L->m->srcs[at.file];
    unsigned line, col;
    isa_loc_linecol(src, at.begin, &line, &col);
    snprintf(buf, size, "%s:%u:%u", src->name, line, col);
    return buf;
}

static void lk_error(link_t *L, isa_loc_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void lk_error(link_t *L, isa_loc_t at, const char *fmt, ...)
{
    if (L->nerr++ >= L->max_errors)
        return;
    va_list ap;
    va_start(ap, fmt);
    isa_diag_vprint(L->diag, &L->m->srcs[at.file], at.begin, at.end, "error", fmt, ap);
    va_end(ap);
}

/* Where a directive (".address_size") first appears in unit u's text, for errors about
 * what the IR keeps without a location. */
static isa_loc_t dir_loc(const link_t *L, uint32_t u, const char *dir)
{
    const isa_source_t *src = &L->m->srcs[L->ut[u].src_base];
    const char *p = strstr(src->text, dir);
    isa_loc_t at = { L->ut[u].src_base, 0, 0 };
    if (p) {
        at.begin = (uint32_t)(p - src->text);
        at.end = at.begin + (uint32_t)strlen(dir);
    }
    return at;
}

static const isa_var_t *gvar(const link_t *L, uint32_t u, uint32_t i) { return &L->u[u]->vars[i]; }
static const isa_func_t *gfunc(const link_t *L, uint32_t u, uint32_t i) { return &L->u[u]->funcs[i]; }
/*}=====================================================================*/

/*{=====================================================================
 * Resolution
 *====================================================================*/
#define LINK_GLOBAL (ISA_LINK_VISIBLE | ISA_LINK_EXTERN | ISA_LINK_WEAK | ISA_LINK_COMMON)

static bool var_is_global(const isa_var_t *v) { return (v->linkage & LINK_GLOBAL) != 0; }
static bool func_is_global(const isa_func_t *f) { return (f->linkage & LINK_GLOBAL) || !f->has_body; }

/* The global symbol of name, made on first sight. */
static uint32_t gsym_get(link_t *L, const char *name, bool is_func, uint32_t u, uint32_t i)
{
    uint32_t k = names_find(&L->globals, name);
    if (k != ISA_NONE)
        return k;
    if (L->ng == L->capg) {
        uint32_t nc = L->capg ? 2 * L->capg : 64;
        gsym_t *ng = realloc(L->g, nc * sizeof *ng);
        if (!ng) {
            L->nomem = true;
            return ISA_NONE;
        }
        L->g = ng;
        L->capg = nc;
    }
    gsym_t *g = &L->g[L->ng];
    memset(g, 0, sizeof *g);
    g->name = name;
    g->is_func = is_func;
    g->first_u = u;
    g->first_i = i;
    g->def_u = g->def_i = g->init_u = g->init_i = ISA_NONE;
    g->merged = ISA_NONE;
    if (!names_put(&L->globals, name, L->ng)) {
        L->nomem = true;
        return ISA_NONE;
    }
    return L->ng++;
}

static isa_loc_t gsym_first_loc(const link_t *L, const gsym_t *g)
{
    return uloc(L, g->first_u, g->is_func ? gfunc(L, g->first_u, g->first_i)->loc
                                          : gvar(L, g->first_u, g->first_i)->loc);
}

/* A function or variable named both ways. */
static bool kind_agrees(link_t *L, const gsym_t *g, bool is_func, isa_loc_t at)
{
    if (g->is_func == is_func)
        return true;
    char buf[512];
    lk_error(L, at, "'%s' is a %s here but a %s at %s", g->name, is_func ? "function" : "variable",
             is_func ? "variable" : "function", where(L, gsym_first_loc(L, g), buf, sizeof buf));
    return false;
}

static bool same_params(const isa_var_t *a, uint32_t na, const isa_var_t *b, uint32_t nb)
{
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (a[i].space != b[i].space || a[i].type != b[i].type || a[i].vec != b[i].vec ||
            isa_var_size(&a[i]) != isa_var_size(&b[i]))
            return false;
    return true;
}

static void resolve_var(link_t *L, uint32_t u, uint32_t i)
{
    const isa_var_t *v = gvar(L, u, i);
    isa_loc_t at = uloc(L, u, v->loc);
    uint32_t k = gsym_get(L, v->name, false, u, i);
    L->ut[u].vsym[i] = k;
    if (k == ISA_NONE)
        return;
    gsym_t *g = &L->g[k];
    char buf[512];
    if (!kind_agrees(L, g, false, at))
        return;
    const isa_var_t *first = gvar(L, g->first_u, g->first_i);
    if (first->space != v->space) {
        lk_error(L, at, "'%s' is declared in .%s here but in .%s at %s", v->name, isa_spaces[v->space].text,
                 isa_spaces[first->space].text, where(L, gsym_first_loc(L, g), buf, sizeof buf));
        return;
    }
    if (isa_var_align(v) > g->align)
        g->align = isa_var_align(v);
    if (v->linkage & ISA_LINK_EXTERN)
        return;   /* a declaration */
    if (v->linkage & ISA_LINK_VISIBLE) {
        if (g->strength == DEF_STRONG) {
            lk_error(L, at, "duplicate definition of '%s': it is also defined (.visible) at %s", v->name,
                     where(L, uloc(L, g->def_u, gvar(L, g->def_u, g->def_i)->loc), buf, sizeof buf));
            return;
        }
        g->strength = DEF_STRONG;
        g->def_u = u;
        g->def_i = i;
    } else if (v->linkage & ISA_LINK_COMMON) {
        if (v->space != ISA_SP_GLOBAL || v->opaque) {
            lk_error(L, at, "'.common' applies to .global variables of a plain type only ('%s')", v->name);
            return;
        }
        if (v->ninit) {
            if (g->init_u != ISA_NONE) {
                lk_error(L, at, "'%s' is a .common variable with initializers in two units: here and at %s",
                         v->name, where(L, uloc(L, g->init_u, gvar(L, g->init_u, g->init_i)->loc), buf, sizeof buf));
                return;
            }
            g->init_u = u;
            g->init_i = i;
        }
        if (g->strength < DEF_COMMON ||
            (g->strength == DEF_COMMON && v->size > gvar(L, g->def_u, g->def_i)->size)) {
            g->strength = DEF_COMMON;
            g->def_u = u;
            g->def_i = i;
        }
    } else if (g->strength < DEF_WEAK) {   /* .weak: the first one, unless a stronger comes */
        g->strength = DEF_WEAK;
        g->def_u = u;
        g->def_i = i;
    }
}

static void resolve_func(link_t *L, uint32_t u, uint32_t i)
{
    const isa_func_t *f = gfunc(L, u, i);
    isa_loc_t at = uloc(L, u, f->loc);
    uint32_t k = gsym_get(L, f->name, true, u, i);
    L->ut[u].fsym[i] = k;
    if (k == ISA_NONE)
        return;
    gsym_t *g = &L->g[k];
    char buf[512];
    if (!kind_agrees(L, g, true, at))
        return;
    const isa_func_t *first = gfunc(L, g->first_u, g->first_i);
    if (first->is_entry != f->is_entry || !same_params(first->rets, first->nret, f->rets, f->nret) ||
        !same_params(first->params, first->nparam, f->params, f->nparam)) {
        lk_error(L, at, "declaration of '%s' does not match its declaration at %s (kind or parameters differ)",
                 f->name, where(L, gsym_first_loc(L, g), buf, sizeof buf));
        return;
    }
    if (f->linkage & ISA_LINK_COMMON) {
        lk_error(L, at, "'.common' applies to .global variables only, not to the function '%s'", f->name);
        return;
    }
    if (!f->has_body)
        return;   /* a declaration */
    if (f->linkage & ISA_LINK_WEAK) {
        if (g->strength < DEF_WEAK) {
            g->strength = DEF_WEAK;
            g->def_u = u;
            g->def_i = i;
        }
        return;
    }
    if (g->strength == DEF_STRONG) {
        lk_error(L, at, "duplicate definition of function '%s': it is also defined at %s", f->name,
                 where(L, uloc(L, g->def_u, gfunc(L, g->def_u, g->def_i)->loc), buf, sizeof buf));
        return;
    }
    g->strength = DEF_STRONG;
    g->def_u = u;
    g->def_i = i;
}

/* After every unit is seen: a .common initializer must be the largest, and no declaration
 * may be larger than the definition it resolves to. */
static void check_sizes(link_t *L)
{
    char buf[512];
    for (uint32_t k = 0; k < L->ng; k++) {
        gsym_t *g = &L->g[k];
        if (g->is_func || g->def_u == ISA_NONE || g->init_u == ISA_NONE || g->strength != DEF_COMMON)
            continue;
        const isa_var_t *iv = gvar(L, g->init_u, g->init_i), *dv = gvar(L, g->def_u, g->def_i);
        if (iv->size < dv->size)
            lk_error(L, uloc(L, g->init_u, iv->loc),
                     "the initialized .common variable '%s' (%llu bytes) must be the largest, but %s declares "
                     "%llu bytes", g->name, (unsigned long long)iv->size,
                     where(L, uloc(L, g->def_u, dv->loc), buf, sizeof buf), (unsigned long long)dv->size);
        else {
            g->def_u = g->init_u;
            g->def_i = g->init_i;
        }
    }
    for (uint32_t u = 0; u < L->n; u++)
        for (uint32_t i = 0; i < L->u[u]->nvar; i++) {
            uint32_t k = L->ut[u].vsym[i];
            if (k == ISA_NONE || L->g[k].is_func || L->g[k].def_u == ISA_NONE)
                continue;
            const gsym_t *g = &L->g[k];
            const isa_var_t *v = gvar(L, u, i), *dv = gvar(L, g->def_u, g->def_i);
            if (v != dv && v->size > dv->size && !(v->flags & ISA_VARF_UNSIZED))
                lk_error(L, uloc(L, u, v->loc), "'%s' is declared with %llu bytes here, but its definition at %s "
                         "has %llu", v->name, (unsigned long long)v->size,
                         where(L, uloc(L, g->def_u, dv->loc), buf, sizeof buf), (unsigned long long)dv->size);
        }
}
/*}=====================================================================*/

/*{=====================================================================
 * Uses: which global symbols the kept code names (an unused .extern is dropped, a
 * used one needs a definition)
 *====================================================================*/
static void use_sym(link_t *L, uint32_t u, bool is_func, uint32_t i, isa_loc_t at)
{
    const isa_module_t *um = L->u[u];
    if (i >= (is_func ? um->nfunc : um->nvar))
        return;
    uint32_t k = is_func ? L->ut[u].fsym[i] : L->ut[u].vsym[i];
    if (k == ISA_NONE || L->g[k].used)
        return;
    L->g[k].used = true;
    L->g[k].use = uloc(L, u, at);
}

static void use_inits(link_t *L, uint32_t u, const isa_var_t *v)
{
    for (uint32_t e = 0; e < v->ninit; e++)
        if (v->init[e].kind == ISA_INIT_SYM || v->init[e].kind == ISA_INIT_GENERIC)
            use_sym(L, u, !v->init[e].modsym, v->init[e].sym, v->loc);
}

static bool func_kept(const link_t *L, uint32_t u, uint32_t i)
{
    uint32_t k = L->ut[u].fsym[i];
    return k == ISA_NONE || (L->g[k].def_u == u && L->g[k].def_i == i);
}

static bool var_kept(const link_t *L, uint32_t u, uint32_t i)
{
    uint32_t k = L->ut[u].vsym[i];
    return k == ISA_NONE || (L->g[k].def_u == u && L->g[k].def_i == i);
}

static void find_uses(link_t *L)
{
    for (uint32_t u = 0; u < L->n; u++) {
        const isa_module_t *um = L->u[u];
        for (uint32_t i = 0; i < um->nvar; i++)
            if (var_kept(L, u, i))
                use_inits(L, u, &um->vars[i]);
        for (uint32_t i = 0; i < um->nfunc; i++) {
            const isa_func_t *f = &um->funcs[i];
            if (!f->has_body || !func_kept(L, u, i))
                continue;
            for (uint32_t o = 0; o < f->nopd; o++) {
                const isa_operand_t *op = &f->opds[o];
                if (op->kind == ISA_OPD_FUNC)
                    use_sym(L, u, true, op->u.func, op->loc);
                else if ((op->kind == ISA_OPD_SYM || (op->kind == ISA_OPD_ADDR && op->base == ISA_OPD_SYM &&
                                                       !(op->flags & ISA_OPDF_ADDRLIST))) &&
                         (op->flags & ISA_OPDF_MODSYM))
                    use_sym(L, u, false, op->u.sym, op->loc);
            }
            for (uint32_t b = 0; b < f->nbrt; b++)
                if (f->brts[b].calltargets)
                    for (uint32_t t = 0; t < f->brts[b].count; t++)
                        use_sym(L, u, true, f->brts[b].targets[t], f->loc);
            for (uint32_t v = 0; v < f->nvar; v++)
                use_inits(L, u, &f->vars[v]);
        }
        for (uint32_t a = 0; a < um->nalias; a++) {
            uint32_t t = isa_module_find_func(um, um->aliases[a].target);
            uint32_t s = isa_module_find_func(um, um->aliases[a].alias);
            isa_loc_t at = dir_loc(L, u, ".alias");
            at.file -= L->ut[u].src_base;   /* use_sym takes the unit's numbering */
            if (t != ISA_NONE)
                use_sym(L, u, true, t, at);
            if (s != ISA_NONE)
                use_sym(L, u, true, s, at);
        }
    }
}

static bool is_provided(const link_t *L, const char *name)
{
    for (const char *const *p = L->provided; p && *p; p++)
        if (strcmp(*p, name) == 0)
            return true;
    return false;
}

static int by_use(const void *a, const void *b, void *ctx)
{
    const gsym_t *g = ctx;
    const isa_loc_t *x = &g[*(const uint32_t *)a].use, *y = &g[*(const uint32_t *)b].use;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Which symbols the result holds; a used one that nothing defines is an error (reported in
 * the order of the uses). */
static void decide_kept(link_t *L)
{
    char buf[512];
    uint32_t *undef = malloc((L->ng + 1) * sizeof *undef), nu = 0;
    if (!undef) {
        L->nomem = true;
        return;
    }
    for (uint32_t k = 0; k < L->ng; k++) {
        gsym_t *g = &L->g[k];
        if (g->def_u != ISA_NONE) {
            g->keep = true;
            continue;
        }
        if (!g->used)
            continue;
        const isa_var_t *v = g->is_func ? NULL : gvar(L, g->first_u, g->first_i);
        if (g->is_func ? is_provided(L, g->name)
                       : v->space == ISA_SP_SHARED && (v->flags & ISA_VARF_UNSIZED)) {
            g->keep = true;   /* a device service, or the dynamic shared memory */
            continue;
        }
        undef[nu++] = k;
    }
    qsort_r(undef, nu, sizeof *undef, by_use, L->g);
    for (uint32_t i = 0; i < nu; i++) {
        const gsym_t *g = &L->g[undef[i]];
        lk_error(L, g->use, "undefined reference to %s '%s': no unit defines it (declared at %s)",
                 g->is_func ? "function" : "variable", g->name, where(L, gsym_first_loc(L, g), buf, sizeof buf));
    }
    free(undef);
}
/*}=====================================================================*/

/*{=====================================================================
 * Names of file-scope symbols in the result
 *====================================================================*/

/* name, or name$K for the smallest K that is not taken; NULL when out of memory. */
static const char *unique_name(link_t *L, const char *name)
{
    if (names_find(&L->taken, name) == ISA_NONE)
        return name;
    size_t n = strlen(name) + 16;
    char *buf = isa_arena_alloc(L->m->arena, n);
    if (!buf)
        return NULL;
    for (unsigned k = 1;; k++) {
        snprintf(buf, n, "%s$%u", name, k);
        if (names_find(&L->taken, buf) == ISA_NONE)
            return buf;
    }
}

static void name_locals(link_t *L)
{
    for (uint32_t k = 0; k < L->ng && !L->nomem; k++)
        L->nomem = !names_put(&L->taken, L->g[k].name, 0);
    for (uint32_t u = 0; u < L->n && !L->nomem; u++) {
        const isa_module_t *um = L->u[u];
        unit_t *t = &L->ut[u];
        for (uint32_t i = 0; i < um->nvar && !L->nomem; i++)
            if (t->vsym[i] == ISA_NONE) {
                t->vname[i] = unique_name(L, um->vars[i].name);
                L->nomem = !t->vname[i] || !names_put(&L->taken, t->vname[i], 0);
            }
        for (uint32_t i = 0; i < um->nfunc && !L->nomem; i++)
            if (t->fsym[i] == ISA_NONE) {
                t->fname[i] = unique_name(L, um->funcs[i].name);
                L->nomem = !t->fname[i] || !names_put(&L->taken, t->fname[i], 0);
            }
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Building the result
 *====================================================================*/
typedef struct {
    uint32_t *vsrc, *fsrc;   /* the unit each variable and function of the result comes from */
} origin_t;

static isa_item_t *push_item(link_t *L, isa_itemkind_t kind, uint32_t idx)
{
    isa_item_t *it = &L->m->items[L->m->nitem++];
    it->kind = (uint8_t)kind;
    it->idx = idx;
    return it;
}

static void emit_var(link_t *L, origin_t *o, uint32_t u, uint32_t i)
{
    isa_module_t *m = L->m;
    uint32_t k = L->ut[u].vsym[i];
    if (k == ISA_NONE) {
        uint32_t mi = m->nvar++;
        m->vars[mi] = L->u[u]->vars[i];
        m->vars[mi].name = L->ut[u].vname[i];
        o->vsrc[mi] = u;
        L->ut[u].vmap[i] = mi;
        push_item(L, ISA_ITEM_VAR, mi);
        return;
    }
    gsym_t *g = &L->g[k];
    if (!g->keep || g->merged != ISA_NONE)
        return;
    uint32_t du = g->def_u != ISA_NONE ? g->def_u : g->first_u, di = g->def_u != ISA_NONE ? g->def_i : g->first_i;
    uint32_t mi = m->nvar++;
    m->vars[mi] = L->u[du]->vars[di];
    if (g->align > isa_var_align(&m->vars[mi]))
        m->vars[mi].align = g->align;
    o->vsrc[mi] = du;
    g->merged = mi;
    push_item(L, ISA_ITEM_VAR, mi);
}

/* A function item: file-scope ones as they are; a global one is declared where it is
 * first named and defined where its winning definition is. */
static void emit_func(link_t *L, origin_t *o, uint32_t u, const isa_item_t *it)
{
    isa_module_t *m = L->m;
    uint32_t i = it->idx, k = L->ut[u].fsym[i];
    if (k == ISA_NONE) {
        if (L->ut[u].fmap[i] == ISA_NONE) {
            uint32_t mi = m->nfunc++;
            m->funcs[mi] = L->u[u]->funcs[i];
            m->funcs[mi].name = L->ut[u].fname[i];
            o->fsrc[mi] = u;
            L->ut[u].fmap[i] = mi;
        }
        push_item(L, (isa_itemkind_t)it->kind, L->ut[u].fmap[i]);
        return;
    }
    gsym_t *g = &L->g[k];
    if (!g->keep || g->def_emitted)
        return;
    bool is_def = g->def_u == u && g->def_i == i && it->kind == ISA_ITEM_FUNC;
    if (g->merged != ISA_NONE && !is_def)
        return;
    if (g->merged == ISA_NONE) {
        uint32_t du = g->def_u != ISA_NONE ? g->def_u : g->first_u;
        uint32_t di = g->def_u != ISA_NONE ? g->def_i : g->first_i;
        uint32_t mi = m->nfunc++;
        isa_func_t *f = &m->funcs[mi];
        *f = L->u[du]->funcs[di];
        if (!f->decl_linkage)
            f->decl_linkage = f->linkage;
        o->fsrc[mi] = du;
        g->merged = mi;
    }
    if (is_def || g->def_u == ISA_NONE) {
        g->def_emitted = true;
        push_item(L, ISA_ITEM_FUNC, g->merged);
    } else {
        push_item(L, ISA_ITEM_FUNCDECL, g->merged);
    }
}

static uint32_t map_var(const link_t *L, uint32_t u, uint32_t i)
{
    if (i >= L->u[u]->nvar)
        return ISA_NONE;
    uint32_t k = L->ut[u].vsym[i];
    return k == ISA_NONE ? L->ut[u].vmap[i] : L->g[k].merged;
}

static uint32_t map_func(const link_t *L, uint32_t u, uint32_t i)
{
    if (i >= L->u[u]->nfunc)
        return ISA_NONE;
    uint32_t k = L->ut[u].fsym[i];
    return k == ISA_NONE ? L->ut[u].fmap[i] : L->g[k].merged;
}

/* A function's or a variable's references in the result's numbering.  Returns false
 * when one has no place in the result (an internal inconsistency, reported). */
static bool patch_inits(link_t *L, uint32_t u, isa_var_t *v)
{
    bool ok = true;
    for (uint32_t e = 0; e < v->ninit; e++) {
        isa_init_t *x = &v->init[e];
        if (x->kind == ISA_INIT_SYM || x->kind == ISA_INIT_GENERIC) {
            x->sym = x->modsym ? map_var(L, u, x->sym) : map_func(L, u, x->sym);
            ok &= x->sym != ISA_NONE;
        } else if (x->kind == ISA_INIT_FIELD_NAME || x->kind == ISA_INIT_FIELD_INT) {
            x->sym += L->ut[u].str_base;
            if (x->kind == ISA_INIT_FIELD_NAME)
                x->value += L->ut[u].str_base;
        }
    }
    v->loc = uloc(L, u, v->loc);
    return ok;
}

static void patch_params(link_t *L, uint32_t u, isa_var_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        v[i].loc = uloc(L, u, v[i].loc);
}

static bool patch_func(link_t *L, uint32_t u, isa_func_t *f)
{
    bool ok = true;
    f->loc = uloc(L, u, f->loc);
    patch_params(L, u, f->rets, f->nret);
    patch_params(L, u, f->params, f->nparam);
    if (!f->has_body)
        return true;
    for (uint32_t i = 0; i < f->ninstr; i++) {
        isa_instr_t *in = &f->instrs[i];
        in->loc = uloc(L, u, in->loc);
        in->mloc = uloc(L, u, in->mloc);
        for (uint32_t s = 0; s < in->nsfx; s++)
            if (in->sfx[s].kind == ISA_SFX_SHAPE_TEXT)
                in->sfx[s].id = (uint16_t)(in->sfx[s].id + L->ut[u].str_base);
    }
    for (uint32_t o = 0; o < f->nopd; o++) {
        isa_operand_t *op = &f->opds[o];
        op->loc = uloc(L, u, op->loc);
        if (op->kind == ISA_OPD_FUNC) {
            op->u.func = map_func(L, u, op->u.func);
            ok &= op->u.func != ISA_NONE;
        } else if ((op->kind == ISA_OPD_SYM || (op->kind == ISA_OPD_ADDR && op->base == ISA_OPD_SYM &&
                                                 !(op->flags & ISA_OPDF_ADDRLIST))) &&
                   (op->flags & ISA_OPDF_MODSYM)) {
            op->u.sym = map_var(L, u, op->u.sym);
            ok &= op->u.sym != ISA_NONE;
        }
    }
    for (uint32_t i = 0; i < f->nregdecl; i++)
        f->regdecls[i].loc = uloc(L, u, f->regdecls[i].loc);
    for (uint32_t i = 0; i < f->nvar; i++)
        ok &= patch_inits(L, u, &f->vars[i]);
    for (uint32_t i = 0; i < f->nlabel; i++)
        f->labels[i].loc = uloc(L, u, f->labels[i].loc);
    for (uint32_t i = 0; i < f->ndbg; i++)
        f->dbg[i].file += L->ut[u].file_base;
    for (uint32_t i = 0; i < f->nproto; i++) {
        patch_params(L, u, f->protos[i].rets, f->protos[i].nret);
        patch_params(L, u, f->protos[i].params, f->protos[i].nparam);
    }
    for (uint32_t b = 0; b < f->nbrt; b++)
        if (f->brts[b].calltargets)
            for (uint32_t t = 0; t < f->brts[b].count; t++) {
                f->brts[b].targets[t] = map_func(L, u, f->brts[b].targets[t]);
                ok &= f->brts[b].targets[t] != ISA_NONE;
            }
    return ok;
}

/* The result's name of unit u's function called name (aliases name functions). */
static const char *func_name_in(const link_t *L, uint32_t u, const char *name)
{
    uint32_t i = isa_module_find_func(L->u[u], name);
    if (i == ISA_NONE)
        return name;
    return L->ut[u].fsym[i] == ISA_NONE ? L->ut[u].fname[i] : name;
}

/* The header of the result: the newest .version and .target; one .address_size and
 * one set of .target options. */
static void link_header(link_t *L)
{
    isa_module_t *m = L->m;
    uint32_t best = 0;
    char buf[512];
    for (uint32_t u = 0; u < L->n; u++) {
        const isa_module_t *um = L->u[u];
        unsigned v = um->ver_major * 100 + um->ver_minor, mv = m->ver_major * 100 + m->ver_minor;
        if (v > mv) {
            m->ver_major = um->ver_major;
            m->ver_minor = um->ver_minor;
        }
        if (um->address_size != L->u[0]->address_size)
            lk_error(L, dir_loc(L, u, ".address_size"), ".address_size %u differs from %u in %s", um->address_size,
                     L->u[0]->address_size, where(L, dir_loc(L, 0, ".address_size"), buf, sizeof buf));
        if (ISA_SM_ORDER(um->sm) > ISA_SM_ORDER(L->u[best]->sm))
            best = u;
        /* The words other than the architecture (texmode_..., map_f64_to_f32) must agree. */
        const isa_module_t *u0 = L->u[0];
        bool same = true;
        for (uint32_t a = 0, b = 0; same;) {
            while (a < um->ntarget && isa_sm_lookup(um->targets[a], strlen(um->targets[a])) > 0)
                a++;
            while (b < u0->ntarget && isa_sm_lookup(u0->targets[b], strlen(u0->targets[b])) > 0)
                b++;
            if (a == um->ntarget || b == u0->ntarget) {
                same = a == um->ntarget && b == u0->ntarget;
                break;
            }
            same = strcmp(um->targets[a++], u0->targets[b++]) == 0;
        }
        if (!same)
            lk_error(L, dir_loc(L, u, ".target"), ".target options differ from those of %s",
                     where(L, dir_loc(L, 0, ".target"), buf, sizeof buf));
    }
    m->sm = L->u[best]->sm;
    m->ntarget = L->u[best]->ntarget;
    m->targets = L->u[best]->targets;
    m->address_size = L->u[0]->address_size;
    m->address_size_loc = uloc(L, 0, L->u[0]->address_size_loc);
}

static bool build(link_t *L)
{
    isa_module_t *m = L->m;
    isa_arena_t *ar = m->arena;
    uint32_t nv = 0, nf = 0, nit = 0, nfile = 0, npr = 0, nal = 0, nstr = 0;
    for (uint32_t u = 0; u < L->n; u++) {
        const isa_module_t *um = L->u[u];
        nv += um->nvar;
        nf += um->nfunc;
        nit += um->nitem;
        nfile += um->nfile;
        npr += um->npragma;
        nal += um->nalias;
        nstr += um->nstr;
    }
    m->vars = isa_arena_alloc(ar, (nv + 1) * sizeof *m->vars);
    m->funcs = isa_arena_alloc(ar, (nf + 1) * sizeof *m->funcs);
    m->items = isa_arena_alloc(ar, (nit + 1) * sizeof *m->items);
    m->files = isa_arena_alloc(ar, (nfile + 1) * sizeof *m->files);
    m->pragmas = isa_arena_alloc(ar, (npr + 1) * sizeof *m->pragmas);
    m->aliases = isa_arena_alloc(ar, (nal + 1) * sizeof *m->aliases);
    m->strs = isa_arena_alloc(ar, (nstr + 1) * sizeof *m->strs);
    origin_t o = { calloc(nv + 1, sizeof *o.vsrc), calloc(nf + 1, sizeof *o.fsrc) };
    bool ok = m->vars && m->funcs && m->items && m->files && m->pragmas && m->aliases && m->strs && o.vsrc &&
              o.fsrc;
    if (!ok || nstr > UINT16_MAX) {
        free(o.vsrc);
        free(o.fsrc);
        if (ok)
            lk_error(L, dir_loc(L, 0, ".version"), "the units hold %u shape names together; at most %u can be linked",
                     nstr, UINT16_MAX);
        else
            L->nomem = true;
        return false;
    }
    for (uint32_t u = 0; u < L->n; u++) {
        const isa_module_t *um = L->u[u];
        unit_t *t = &L->ut[u];
        t->str_base = m->nstr;
        for (uint32_t s = 0; s < um->nstr; s++)
            m->strs[m->nstr++] = um->strs[s];
        uint32_t maxfile = 0;
        for (uint32_t x = 0; x < um->nitem; x++) {
            const isa_item_t *it = &um->items[x];
            switch ((isa_itemkind_t)it->kind) {
            case ISA_ITEM_VAR:
                emit_var(L, &o, u, it->idx);
                break;
            case ISA_ITEM_FUNC:
            case ISA_ITEM_FUNCDECL:
                emit_func(L, &o, u, it);
                break;
            case ISA_ITEM_FILE: {
                isa_file_t *fl = &m->files[m->nfile];
                *fl = um->files[it->idx];
                if (fl->index > maxfile)
                    maxfile = fl->index;
                fl->index += t->file_base;
                push_item(L, ISA_ITEM_FILE, m->nfile++);
                break;
            }
            case ISA_ITEM_PRAGMA:
                m->pragmas[m->npragma] = um->pragmas[it->idx];
                push_item(L, ISA_ITEM_PRAGMA, m->npragma++);
                break;
            case ISA_ITEM_ALIAS: {
                isa_alias_t *a = &m->aliases[m->nalias];
                a->alias = func_name_in(L, u, um->aliases[it->idx].alias);
                a->target = func_name_in(L, u, um->aliases[it->idx].target);
                push_item(L, ISA_ITEM_ALIAS, m->nalias++);
                break;
            }
            }
        }
        if (u + 1 < L->n)
            L->ut[u + 1].file_base = t->file_base + maxfile;
    }
    for (uint32_t i = 0; i < m->nvar; i++)
        ok &= patch_inits(L, o.vsrc[i], &m->vars[i]);
    for (uint32_t i = 0; i < m->nfunc; i++)
        ok &= patch_func(L, o.fsrc[i], &m->funcs[i]);
    free(o.vsrc);
    free(o.fsrc);
    if (!ok)
        lk_error(L, dir_loc(L, 0, ".version"), "internal error: a reference has no place in the linked module");
    return ok;
}
/*}=====================================================================*/

/*{=====================================================================
 * Entry points
 *====================================================================*/

static void link_free(link_t *L)
{
    for (uint32_t u = 0; L->ut && u < L->n; u++) {
        unit_t *t = &L->ut[u];
        free(t->vsym);
        free(t->fsym);
        free(t->vmap);
        free(t->fmap);
        free(t->vname);
        free(t->fname);
    }
    free(L->ut);
    free(L->g);
    names_free(&L->globals);
    names_free(&L->taken);
}

static bool link_units(link_t *L)
{
    isa_module_t *m = L->m;
    uint32_t nsrc = 0;
    for (uint32_t u = 0; u < L->n; u++)
        nsrc += L->u[u]->nsrc;
    m->srcs = isa_arena_alloc(m->arena, (nsrc + 1) * sizeof *m->srcs);
    L->ut = calloc(L->n, sizeof *L->ut);
    if (!m->srcs || !L->ut)
        return false;
    for (uint32_t u = 0; u < L->n; u++) {
        const isa_module_t *um = L->u[u];
        unit_t *t = &L->ut[u];
        t->src_base = m->nsrc;
        for (uint32_t s = 0; s < um->nsrc; s++)
            m->srcs[m->nsrc++] = um->srcs[s];
        t->vsym = malloc((um->nvar + 1) * sizeof *t->vsym);
        t->vmap = malloc((um->nvar + 1) * sizeof *t->vmap);
        t->fsym = malloc((um->nfunc + 1) * sizeof *t->fsym);
        t->fmap = malloc((um->nfunc + 1) * sizeof *t->fmap);
        t->vname = calloc(um->nvar + 1, sizeof *t->vname);
        t->fname = calloc(um->nfunc + 1, sizeof *t->fname);
        if (!t->vsym || !t->vmap || !t->fsym || !t->fmap || !t->vname || !t->fname)
            return false;
        memset(t->vsym, 0xff, (um->nvar + 1) * sizeof *t->vsym);
        memset(t->vmap, 0xff, (um->nvar + 1) * sizeof *t->vmap);
        memset(t->fsym, 0xff, (um->nfunc + 1) * sizeof *t->fsym);
        memset(t->fmap, 0xff, (um->nfunc + 1) * sizeof *t->fmap);
    }
    link_header(L);
    for (uint32_t u = 0; u < L->n && !L->nomem; u++) {
        const isa_module_t *um = L->u[u];
        for (uint32_t i = 0; i < um->nvar && !L->nomem; i++)
            if (var_is_global(&um->vars[i]))
                resolve_var(L, u, i);
        for (uint32_t i = 0; i < um->nfunc && !L->nomem; i++)
            if (func_is_global(&um->funcs[i]))
                resolve_func(L, u, i);
    }
    if (L->nomem || L->nerr)
        return !L->nomem;
    check_sizes(L);
    find_uses(L);
    decide_kept(L);
    if (L->nerr)
        return true;
    name_locals(L);
    if (L->nomem)
        return false;
    build(L);
    return !L->nomem;
}

/* Which units to link: every required one, and each optional one (an archive's member) that
 * defines a global name the units taken so far declare without a definition, until no more
 * is needed, as a linker takes members from an archive. */
static bool select_units(link_t *L, const bool *optional, bool *take)
{
    names_t defined = { 0 }, need = { 0 };
    bool ok = true, changed = true;
    for (uint32_t u = 0; u < L->n; u++)
        take[u] = !optional[u];
    while (ok && changed) {
        changed = false;
        names_free(&defined);
        names_free(&need);
        memset(&defined, 0, sizeof defined);
        memset(&need, 0, sizeof need);
        for (uint32_t u = 0; u < L->n && ok; u++) {
            const isa_module_t *um = L->u[u];
            for (uint32_t i = 0; take[u] && i < um->nvar && ok; i++)
                if (var_is_global(&um->vars[i]) && !(um->vars[i].linkage & ISA_LINK_EXTERN))
                    ok = names_put(&defined, um->vars[i].name, 0);
            for (uint32_t i = 0; take[u] && i < um->nfunc && ok; i++)
                if (func_is_global(&um->funcs[i]) && um->funcs[i].has_body)
                    ok = names_put(&defined, um->funcs[i].name, 0);
        }
        for (uint32_t u = 0; u < L->n && ok; u++) {
            const isa_module_t *um = L->u[u];
            for (uint32_t i = 0; take[u] && i < um->nvar && ok; i++)
                if ((um->vars[i].linkage & ISA_LINK_EXTERN) && names_find(&defined, um->vars[i].name) == ISA_NONE)
                    ok = names_put(&need, um->vars[i].name, 0);
            for (uint32_t i = 0; take[u] && i < um->nfunc && ok; i++)
                if (!um->funcs[i].has_body && names_find(&defined, um->funcs[i].name) == ISA_NONE &&
                    !is_provided(L, um->funcs[i].name))
                    ok = names_put(&need, um->funcs[i].name, 0);
        }
        for (uint32_t u = 0; u < L->n && ok && !changed; u++) {
            const isa_module_t *um = L->u[u];
            if (take[u])
                continue;
            for (uint32_t i = 0; i < um->nvar && !take[u]; i++)
                take[u] = var_is_global(&um->vars[i]) && !(um->vars[i].linkage & ISA_LINK_EXTERN) &&
                          names_find(&need, um->vars[i].name) != ISA_NONE;
            for (uint32_t i = 0; i < um->nfunc && !take[u]; i++)
                take[u] = func_is_global(&um->funcs[i]) && um->funcs[i].has_body &&
                          names_find(&need, um->funcs[i].name) != ISA_NONE;
            changed = take[u];
        }
    }
    names_free(&defined);
    names_free(&need);
    return ok;
}

isa_status_t fe_link(isa_module_t *const *units, unsigned n, const bool *optional, const fe_options_t *opt,
                     isa_module_t **out_m)
{
    *out_m = NULL;
    isa_module_t *m = isa_module_new();
    if (!m) {
        for (unsigned u = 0; u < n; u++)
            isa_module_free(units[u]);
        return ISA_ST_NOMEM;
    }
    /* The result owns the units' memory from here on: their code, strings and sources. */
    for (unsigned u = 0; u < n; u++)
        isa_arena_adopt(m->arena, units[u]->arena);
    link_t L = { 0 };
    L.u = units;
    L.n = n;
    L.m = m;
    L.diag = opt && opt->diag ? opt->diag : stderr;
    L.max_errors = opt && opt->max_errors ? opt->max_errors : 20;
    L.provided = opt ? opt->provided : NULL;
    if (n == 0) {
        fprintf(L.diag, "error: nothing to link (no PTX units)\n");
        isa_module_free(m);
        return ISA_ST_USAGE;
    }
    /* Optional units that nothing needs are left out (their memory goes with the result's). */
    isa_module_t **taken = NULL;
    bool *take = NULL, ok = true;
    if (optional) {
        taken = malloc(n * sizeof *taken);
        take = malloc(n * sizeof *take);
        ok = taken && take && select_units(&L, optional, take);
        unsigned k = 0;
        for (unsigned u = 0; ok && u < n; u++)
            if (take[u])
                taken[k++] = units[u];
        L.u = taken;
        L.n = k;
        if (ok && k == 0) {
            fprintf(L.diag, "error: nothing to link (no unit is needed)\n");
            free(taken);
            free(take);
            isa_module_free(m);
            return ISA_ST_USAGE;
        }
    }
    ok = ok && link_units(&L);
    link_free(&L);
    free(taken);
    free(take);
    if (!ok || L.nerr) {
        isa_module_free(m);
        return ok ? ISA_ST_SYNTAX : ISA_ST_NOMEM;
    }
    *out_m = m;
    return ISA_ST_OK;
}

isa_status_t fe_link_texts(unsigned n, const char *const *names, const char *const *texts, const size_t *lens,
                           const bool *optional, const fe_options_t *opt, isa_module_t **out_m)
{
    *out_m = NULL;
    isa_module_t **units = calloc(n + 1, sizeof *units);
    bool *opt_loaded = calloc(n + 1, sizeof *opt_loaded);
    if (!units || !opt_loaded) {
        free(units);
        free(opt_loaded);
        return ISA_ST_NOMEM;
    }
    isa_status_t st = ISA_ST_OK;
    unsigned loaded = 0;
    for (unsigned u = 0; u < n; u++) {
        /* Every unit is loaded, so that all of their errors are reported at once. */
        isa_status_t s = fe_load_text(names[u], texts[u], lens[u], opt, &units[loaded]);
        if (s == ISA_ST_OK)
            opt_loaded[loaded++] = optional && optional[u];
        else if (st == ISA_ST_OK || s == ISA_ST_NOMEM)
            st = s;
    }
    if (st == ISA_ST_OK)
        st = fe_link(units, loaded, optional ? opt_loaded : NULL, opt, out_m);
    else
        for (unsigned u = 0; u < loaded; u++)
            isa_module_free(units[u]);
    free(units);
    free(opt_loaded);
    return st;
}
/*}=====================================================================*/
