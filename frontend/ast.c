/* ast.c: AST builders called by the parser's actions.  Nodes live in the context's
 * AST arena; integer constant expressions are folded as they are built. */
#include "frontend/internal.h"
#include "ptx_parse.h"

#include <stdlib.h>
#include <string.h>

fe_node_t *fe_ast_new(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp)
{
    fe_node_t *n = isa_arena_alloc(c->ast, sizeof *n);
    if (!n) {
        fprintf(stderr, "ptxemu: out of memory\n");
        abort();
    }
    n->kind = (uint8_t)k;
    n->span = sp;
    return n;
}

fe_node_t *fe_ast_tok(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp, const fe_tok_t *t)
{
    fe_node_t *n = fe_ast_new(c, k, sp);
    n->s = t->s;
    n->n = t->n;
    n->u = t->u;
    return n;
}

fe_node_t *fe_ast_add(fe_node_t *parent, fe_node_t *kid)
{
    if (!kid)
        return parent;
    kid->next = NULL;
    if (parent->tail)
        parent->tail->next = kid;
    else
        parent->kids = kid;
    parent->tail = kid;
    return parent;
}

fe_node_t *fe_ast_list1(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp, fe_node_t *first)
{
    return fe_ast_add(fe_ast_new(c, k, sp), first);
}

fe_node_t *fe_ast_append(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp, fe_node_t *list, fe_node_t *kid)
{
    if (!list)
        list = fe_ast_new(c, k, sp);
    list->span.end = sp.end;
    return fe_ast_add(list, kid);
}

fe_node_t *fe_ast_int(fe_ctx_t *c, fe_span_t sp, uint64_t v, int uflag)
{
    fe_node_t *n = fe_ast_new(c, N_INT, sp);
    n->u = v;
    n->sub = (uint8_t)(uflag & 1);
    return n;
}

fe_node_t *fe_ast_unop(fe_ctx_t *c, fe_span_t sp, int op, fe_node_t *a)
{
    uint64_t x = a->u;
    switch (op) {
    case '-': x = (uint64_t)0 - x; break;
    case '~': x = ~x; break;
    case '!': x = !x; break;
    default: break;
    }
    return fe_ast_int(c, sp, x, a->sub);
}

fe_node_t *fe_ast_binop(fe_ctx_t *c, fe_span_t sp, int op, fe_node_t *a, fe_node_t *b)
{
    uint64_t x = a->u, y = b->u, r = 0;
    int uflag = (a->sub | b->sub) & 1;
    switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/':
    case '%':
        if (y == 0) {
            fe_error(c, b->span, "division by zero in constant expression");
            break;
        }
        if (uflag)
            r = op == '/' ? x / y : x % y;
        else if ((int64_t)x == INT64_MIN && (int64_t)y == -1)
            r = op == '/' ? x : 0;
        else
            r = (uint64_t)(op == '/' ? (int64_t)x / (int64_t)y : (int64_t)x % (int64_t)y);
        break;
    case SHL: r = y >= 64 ? 0 : x << y; break;
    case SHR: r = y >= 64 ? (uflag || (int64_t)x >= 0 ? 0 : ~0ull)
                          : uflag ? x >> y : (uint64_t)((int64_t)x >> y); break;
    case '&': r = x & y; break;
    case '^': r = x ^ y; break;
    case '|': r = x | y; break;
    case '<': r = uflag ? x < y : (int64_t)x < (int64_t)y; break;
    case '>': r = uflag ? x > y : (int64_t)x > (int64_t)y; break;
    case LE: r = uflag ? x <= y : (int64_t)x <= (int64_t)y; break;
    case GE: r = uflag ? x >= y : (int64_t)x >= (int64_t)y; break;
    case EQ: r = x == y; break;
    case NE: r = x != y; break;
    case ANDAND: r = x && y; break;
    case OROR: r = x || y; break;
    default: break;
    }
    return fe_ast_int(c, sp, r, uflag);
}

fe_node_t *fe_ast_cond(fe_ctx_t *c, fe_span_t sp, fe_node_t *cond, fe_node_t *a, fe_node_t *b)
{
    fe_node_t *r = cond->u ? a : b;
    return fe_ast_int(c, sp, r->u, a->sub | b->sub);
}

fe_node_t *fe_ast_fneg(fe_ctx_t *c, fe_span_t sp, fe_node_t *f)
{
    (void)c;
    f->u ^= f->kind == N_F32 ? 0x80000000ull : 0x8000000000000000ull;
    f->span = sp;
    return f;
}

/* A decimal floating-point literal is a double (PTX reads "1.5" as an f64 constant). */
fe_node_t *fe_ast_decimal(fe_ctx_t *c, fe_span_t sp, const fe_tok_t *t)
{
    char buf[64];
    size_t n = t->n < sizeof buf - 1 ? t->n : sizeof buf - 1;
    memcpy(buf, t->s, n);
    buf[n] = 0;
    double d = strtod(buf, NULL);
    fe_node_t *node = fe_ast_new(c, N_F64, sp);
    memcpy(&node->u, &d, sizeof d);
    node->s = t->s;
    node->n = t->n;
    return node;
}

fe_node_t *fe_ast_symoff(fe_ctx_t *c, fe_span_t sp, fe_nkind_t k, const fe_tok_t *sym, int sign,
                         fe_node_t *off)
{
    fe_node_t *n = fe_ast_new(c, k, sp);
    n->s = sym->s;
    n->n = sym->n;
    if (k == N_GENERIC) {
        /* off is the operator name node, with the offset expression as its kid. */
        if (off->n != 7 || memcmp(off->s, "generic", 7) != 0)
            fe_error(c, off->span, "unknown initializer operator '%.*s' (expected generic)",
                     (int)off->n, off->s);
        n->u = off->kids ? off->kids->u : 0;
        return n;
    }
    n->u = sign < 0 ? (uint64_t)0 - off->u : off->u;
    return n;
}

fe_node_t *fe_ast_func(fe_ctx_t *c, fe_span_t sp, fe_node_t *words, int entry, fe_node_t *rets,
                       const fe_tok_t *name, fe_span_t namesp, fe_node_t *params, fe_node_t *perfs,
                       fe_node_t *body)
{
    fe_node_t *f = fe_ast_new(c, N_FUNC, sp);
    f->sub = (uint8_t)entry;
    fe_ast_add(f, words);
    fe_ast_add(f, rets ? rets : fe_ast_new(c, N_RETS, namesp));
    fe_ast_add(f, fe_ast_tok(c, N_NAME, namesp, name));
    fe_ast_add(f, params);
    fe_ast_add(f, perfs);
    fe_ast_add(f, body);
    return f;
}

fe_node_t *fe_ast_proto(fe_ctx_t *c, fe_span_t sp, const fe_tok_t *label, fe_node_t *rets,
                        const fe_tok_t *name, fe_span_t namesp, fe_node_t *params, fe_node_t *perfs)
{
    fe_node_t *p = fe_ast_tok(c, N_PROTO, sp, label);
    fe_ast_add(p, rets);
    fe_ast_add(p, fe_ast_tok(c, N_NAME, namesp, name));
    fe_ast_add(p, params);
    fe_ast_add(p, perfs);
    return p;
}

fe_node_t *fe_ast_instr(fe_ctx_t *c, fe_span_t sp, fe_node_t *guard, const fe_tok_t *mn,
                        fe_node_t *opnds)
{
    fe_node_t *in = fe_ast_tok(c, N_INSTR, sp, mn);
    fe_ast_add(in, guard);
    if (opnds && opnds->kids) {
        if (in->tail)
            in->tail->next = opnds->kids;
        else
            in->kids = opnds->kids;
        in->tail = opnds->tail;
    }
    return in;
}

fe_node_t *fe_ast_dtor(fe_ctx_t *c, fe_span_t sp, const fe_tok_t *name, fe_node_t *range,
                       fe_node_t *dims, fe_node_t *init)
{
    fe_node_t *d = fe_ast_tok(c, N_DTOR, sp, name);
    d->u = 0;
    if (range) {
        d->sub = 1;
        d->u = range->u;
    }
    if (dims) {
        for (fe_node_t *k = dims->kids, *nx; k; k = nx) {
            nx = k->next;
            fe_ast_add(d, k);
        }
    }
    fe_ast_add(d, init);
    return d;
}

fe_node_t *fe_ast_loc(fe_ctx_t *c, fe_span_t sp, fe_node_t *a, fe_node_t *b, fe_node_t *d,
                      fe_span_t extra)
{
    fe_node_t *l = fe_ast_new(c, N_LOC, sp);
    fe_ast_add(l, a);
    fe_ast_add(l, b);
    fe_ast_add(l, d);
    if (extra.end > extra.begin) {
        l->s = c->text + extra.begin;
        l->n = extra.end - extra.begin;
    }
    return l;
}

const char *fe_node_str(fe_ctx_t *c, const fe_node_t *n)
{
    return isa_arena_strndup(c->m->arena, n->s ? n->s : "", n->s ? n->n : 0);
}
