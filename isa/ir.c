/* ir.c: IR storage (arena, module) and small queries on IR objects.
 * Everything a module owns is allocated from its arena and freed at once. */
#include "isa/isa.h"

#include <stdlib.h>
#include <string.h>

/*{=====================================================================
 * Arena
 *====================================================================*/
typedef struct chunk {
    struct chunk *next;
    size_t        used, size;
    _Alignas(16) unsigned char data[];
} chunk_t;

struct isa_arena {
    chunk_t *head;
};

isa_arena_t *isa_arena_new(void)
{
    return calloc(1, sizeof(isa_arena_t));
}

void *isa_arena_alloc(isa_arena_t *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    chunk_t *c = a->head;
    if (!c || c->used + size > c->size) {
        size_t cap = size > 65536 ? size : 65536;
        c = malloc(sizeof(chunk_t) + cap);
        if (!c)
            return NULL;
        c->size = cap;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *isa_arena_strndup(isa_arena_t *a, const char *s, size_t n)
{
    char *p = isa_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

void isa_arena_adopt(isa_arena_t *dst, isa_arena_t *src)
{
    if (!src)
        return;
    chunk_t *last = src->head;
    while (last && last->next)
        last = last->next;
    if (last) {
        /* src's chunks go behind dst's current one, which keeps serving allocations. */
        if (dst->head) {
            last->next = dst->head->next;
            dst->head->next = src->head;
        } else {
            dst->head = src->head;
        }
    }
    free(src);
}

void isa_arena_free(isa_arena_t *a)
{
    if (!a)
        return;
    for (chunk_t *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}
/*}=====================================================================*/

isa_module_t *isa_module_new(void)
{
    isa_arena_t *a = isa_arena_new();
    if (!a)
        return NULL;
    isa_module_t *m = isa_arena_alloc(a, sizeof *m);
    if (!m) {
        isa_arena_free(a);
        return NULL;
    }
    m->arena = a;
    m->sm = ISA_SM_ANY;
    m->address_size = 64;
    return m;
}

void isa_module_free(isa_module_t *m)
{
    if (m)
        isa_arena_free(m->arena);
}

uint32_t isa_module_find_func(const isa_module_t *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfunc; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return i;
    return ISA_NONE;
}

void isa_loc_linecol(const isa_source_t *src, uint32_t off, unsigned *out_line, unsigned *out_col)
{
    unsigned line = 1, col = 1;
    if (off > src->len)
        off = (uint32_t)src->len;
    for (uint32_t i = 0; i < off; i++) {
        if (src->text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    *out_line = line;
    *out_col = col;
}

int isa_instr_mod(const isa_instr_t *in, isa_group_t g)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_MOD && in->sfx[i].group == g)
            return in->sfx[i].id;
    return -1;
}

int isa_instr_space(const isa_instr_t *in, unsigned nth)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_SPACE && nth-- == 0)
            return in->sfx[i].id;
    return -1;
}

bool isa_instr_has(const isa_instr_t *in, isa_mod_t m)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_MOD && in->sfx[i].id == m)
            return true;
    return false;
}

char *isa_instr_name(const isa_module_t *m, const isa_instr_t *in, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "%s", isa_ops[in->op].mnemonic);
    for (unsigned i = 0; i < in->nsfx && n < size; i++) {
        const isa_sfx_t *s = &in->sfx[i];
        const char *t = s->kind == ISA_SFX_TYPE  ? isa_types[s->id].text
                      : s->kind == ISA_SFX_SPACE ? isa_spaces[s->id].text
                      : s->kind == ISA_SFX_MOD   ? isa_mods[s->id].text
                      : m->strs[s->id];
        n += (size_t)snprintf(buf + n, size - n, ".%s", t);
    }
    return buf;
}

uint64_t isa_var_size(const isa_var_t *v)
{
    uint64_t elem = v->type == ISA_T_NONE ? 8 : (isa_types[v->type].bits + 7) / 8;
    uint64_t n = elem * (v->vec ? v->vec : 1);
    for (unsigned i = 0; i < v->ndims; i++)
        n *= v->dims[i];
    return n;
}

uint32_t isa_var_align(const isa_var_t *v)
{
    if (v->align)
        return v->align;
    uint32_t elem = v->type == ISA_T_NONE ? 8 : (isa_types[v->type].bits + 7) / 8;
    return elem * (v->vec ? v->vec : 1);
}

uint32_t isa_param_reg(const isa_func_t *f, uint32_t v)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < f->nret + f->nparam; i++) {
        const isa_var_t *p = i < f->nret ? &f->rets[i] : &f->params[i - f->nret];
        if (p->space != ISA_SP_REG)
            continue;
        if (i == v)
            return r;
        r++;
    }
    return ISA_NONE;
}
