/* internal.h: frontend internals shared by the scanner, the parser, the AST builders,
 * lowering and validation.  Not part of the public interface (fe.h). */
#ifndef PTXEMU_FE_INTERNAL_H
#define PTXEMU_FE_INTERNAL_H

#include <stdarg.h>
#include "frontend/fe.h"

/* A span of source bytes; the parser's location type. */
typedef struct { uint32_t begin, end; } fe_span_t;

/* A token's value: a slice of the source, plus the number for numeric tokens. */
typedef struct {
    const char *s;
    uint32_t    n;
    uint64_t    u;     /* INT value, F32/F64 bits */
    uint8_t     uflag; /* INT written with a U suffix */
} fe_tok_t;

/*{=====================================================================
 * AST: a generic tree.  Each node has a kind, a span, an optional text slice,
 * a number, and a list of children.  What the children of each kind are is
 * documented next to the kind.
 *====================================================================*/
typedef enum {
    N_MODULE,     /* kids: items */
    N_VERSION,    /* text: "9.0" */
    N_TARGET,     /* kids: N_NAME words */
    N_ADDRSIZE,   /* u: 32 or 64 */
    N_FILE,       /* u: index; kids: N_STR path, N_INT extras... */
    N_SECTION,    /* a skipped debug section */
    N_PRAGMA,     /* kids: N_STR... */
    N_ALIAS,      /* kids: N_NAME alias, N_NAME target */
    N_FUNC,       /* sub: 1 entry / 0 func; kids: N_WORDS, N_RETS, N_NAME, N_PARAMS, N_PERFS, N_BODY? */
    N_WORDS,      /* kids: N_WORD... */
    N_WORD,       /* text: ".align"; kids: optional N_INT argument or N_WORDS (parenthesised) */
    N_RETS,       /* kids: N_PARAM...; sub: 1 when the parentheses were written */
    N_PARAMS,     /* kids: N_PARAM...; sub: 1 when the parentheses were written */
    N_PARAM,      /* kids: N_WORDS, N_DTOR */
    N_PERFS,      /* kids: N_PERF... */
    N_PERF,       /* text: directive; kids: N_INT... */
    N_DECL,       /* kids: N_WORDS, N_DTOR... */
    N_DTOR,       /* text: name; sub: 1 for a range name<u>; kids: N_DIM..., then optional init */
    N_DIM,        /* sub: 1 when unsized "[]"; u: size */
    N_BODY,       /* kids: statements ("{ }" block) */
    N_LABEL,      /* text: name */
    N_INSTR,      /* text: dotted mnemonic; kids: optional N_GUARD, then operands */
    N_GUARD,      /* text: predicate; sub: 1 when negated */
    N_PROTO,      /* text: label; kids: N_RETS, N_NAME, N_PARAMS, N_PERFS */
    N_BRT,        /* text: label; sub: 1 for .calltargets; kids: N_NAME... */
    N_LOC,        /* kids: N_INT file, N_INT line, N_INT col; text: extras as written or empty */
    /* operands and initializer values */
    N_NAME,       /* text */
    N_NOT,        /* text: predicate */
    N_MINUS,      /* text: register (a negated source: -a) */
    N_DUAL,       /* kids: two N_NAME */
    N_INT,        /* u: value; sub: bit 0 when written with U, FE_PAREN when the whole
                     constant was written in parentheses (a call's list of one) */
    N_F32,        /* u: bits */
    N_F64,        /* u: bits */
    N_SYMOFF,     /* text: symbol; u: offset (int64) */
    N_ADDR,       /* kids: address items (N_NAME, N_SYMOFF, N_INT, N_VEC) */
    N_VEC,        /* kids: elements */
    N_LIST,       /* kids: N_NAME... (call parameter list) */
    N_GENERIC,    /* text: symbol; u: offset; initializer generic(sym)+off */
    N_INITLIST,   /* kids: values or nested N_INITLIST */
    N_FIELD,      /* text: field name; kids: N_NAME or N_INT value (sampler initializers) */
    N_STR         /* text: with its quotes */
} fe_nkind_t;

typedef struct fe_node {
    uint8_t         kind;
    uint8_t         sub;
    uint32_t        n;      /* text length */
    const char     *s;      /* text (points into the source) */
    uint64_t        u;
    fe_span_t       span;
    struct fe_node *kids, *tail, *next;
} fe_node_t;

/*}=====================================================================*/

/* Per-load context: the module under construction, the AST arena, diagnostics. */
typedef struct fe_ctx {
    isa_module_t *m;
    uint32_t      file;       /* index of the source being parsed in m->srcs */
    const char   *text;
    size_t        len;
    isa_arena_t  *ast;        /* AST nodes; freed after lowering */
    fe_node_t    *root;
    FILE         *diag;
    unsigned      nerr, max_errors;
    bool          stopped;    /* too many errors */
    uint32_t      lexoff;     /* scanner position in text */
    uint32_t      sect_begin; /* scanner state inside a skipped .section block */
    int           sect_depth;
    uint32_t      lex_err_at;  /* offset of the last scanner error + 1 (0: none) */
} fe_ctx_t;

/* Diagnostics (diag.c). */
void fe_error(fe_ctx_t *c, fe_span_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fe_verror(fe_ctx_t *c, fe_span_t at, const char *fmt, va_list ap);
void fe_note(fe_ctx_t *c, fe_span_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* AST builders (ast.c): every parser action is a call to one of these. */
fe_node_t *fe_ast_new(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp);
fe_node_t *fe_ast_tok(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp, const fe_tok_t *t);
fe_node_t *fe_ast_add(fe_node_t *parent, fe_node_t *kid);       /* returns parent */
fe_node_t *fe_ast_list1(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp, fe_node_t *first);
#define FE_PAREN 2
fe_node_t *fe_ast_int(fe_ctx_t *c, fe_span_t sp, uint64_t v, int uflag);
fe_node_t *fe_ast_unop(fe_ctx_t *c, fe_span_t sp, int op, fe_node_t *a);
fe_node_t *fe_ast_binop(fe_ctx_t *c, fe_span_t sp, int op, fe_node_t *a, fe_node_t *b);
fe_node_t *fe_ast_cond(fe_ctx_t *c, fe_span_t sp, fe_node_t *cond, fe_node_t *a, fe_node_t *b);
fe_node_t *fe_ast_fneg(fe_ctx_t *c, fe_span_t sp, fe_node_t *f);
fe_node_t *fe_ast_decimal(fe_ctx_t *c, fe_span_t sp, const fe_tok_t *t);
fe_node_t *fe_ast_symoff(fe_ctx_t *c, fe_span_t sp, fe_nkind_t k, const fe_tok_t *sym, int sign, fe_node_t *off);
fe_node_t *fe_ast_func(fe_ctx_t *c, fe_span_t sp, fe_node_t *words, int entry, fe_node_t *rets,
                       const fe_tok_t *name, fe_span_t namesp, fe_node_t *params, fe_node_t *perfs,
                       fe_node_t *body);
fe_node_t *fe_ast_proto(fe_ctx_t *c, fe_span_t sp, const fe_tok_t *label, fe_node_t *rets,
                        const fe_tok_t *name, fe_span_t namesp, fe_node_t *params, fe_node_t *perfs);
fe_node_t *fe_ast_instr(fe_ctx_t *c, fe_span_t sp, fe_node_t *guard, const fe_tok_t *mn,
                        fe_node_t *opnds);
fe_node_t *fe_ast_dtor(fe_ctx_t *c, fe_span_t sp, const fe_tok_t *name, fe_node_t *range,
                       fe_node_t *dims, fe_node_t *init);
fe_node_t *fe_ast_loc(fe_ctx_t *c, fe_span_t sp, fe_node_t *a, fe_node_t *b, fe_node_t *d,
                      fe_span_t extra);
/* Append b's kids to a list node a; returns a (NULL-safe: a NULL list becomes a new one). */
fe_node_t *fe_ast_append(fe_ctx_t *c, fe_nkind_t k, fe_span_t sp, fe_node_t *list, fe_node_t *kid);

/* Parse text into c->root (ptx_parse.y).  Returns the number of syntax errors. */
int fe_parse(fe_ctx_t *c);

/* Lower the AST into c->m (lower.c).  Returns false on errors (reported). */
bool fe_lower(fe_ctx_t *c);

/* Validate the lowered module (check.c).  Returns false on errors (reported). */
bool fe_check(fe_ctx_t *c);
/* Validate one call instruction's operands and lists (check_call.c). */
void fe_check_call(fe_ctx_t *c, const isa_module_t *m, const isa_func_t *f, const isa_instr_t *in);

/* Span of an IR location / IR location of a span in the current file. */
static inline fe_span_t fe_span_of(isa_loc_t l) { fe_span_t s = { l.begin, l.end }; return s; }
static inline isa_loc_t fe_loc_of(const fe_ctx_t *c, fe_span_t s)
{
    isa_loc_t l = { c->file, s.begin, s.end };
    return l;
}

/* Node text as a NUL-terminated copy in the module arena. */
const char *fe_node_str(fe_ctx_t *c, const fe_node_t *n);

#endif
