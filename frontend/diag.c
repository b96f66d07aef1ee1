/* diag.c: diagnostics in the one format every tool uses:
 *   file:line:col: error: message
 *    <the source line>
 *    ^~~~~ (under the offending span)
 * Line and column are computed only here, from byte offsets. */
#include "frontend/internal.h"

#include <stdarg.h>
#include <string.h>

static void print_at(FILE *out, const isa_source_t *src, fe_span_t sp, const char *sev,
                     const char *fmt, va_list ap)
{
    unsigned line, col;
    isa_loc_linecol(src, sp.begin, &line, &col);
    fprintf(out, "%s:%u:%u: %s: ", src->name, line, col, sev);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    /* The source line and an underline of the span (clipped to that line). */
    size_t b = sp.begin <= src->len ? sp.begin : src->len;
    size_t ls = b, le = b;
    while (ls > 0 && src->text[ls - 1] != '\n')
        ls--;
    while (le < src->len && src->text[le] != '\n')
        le++;
    if (le > ls && src->text[le - 1] == '\r')
        le--;
    fprintf(out, " %.*s\n ", (int)(le - ls), src->text + ls);
    for (size_t i = ls; i < b; i++)
        fputc(src->text[i] == '\t' ? '\t' : ' ', out);
    size_t e = sp.end > b ? (sp.end < le ? sp.end : le) : b + 1;
    fputc('^', out);
    for (size_t i = b + 1; i < e; i++)
        fputc('~', out);
    fputc('\n', out);
}

void fe_verror(fe_ctx_t *c, fe_span_t at, const char *fmt, va_list ap)
{
    if (c->stopped)
        return;
    print_at(c->diag, &c->m->srcs[c->file], at, "error", fmt, ap);
    if (++c->nerr >= c->max_errors) {
        fprintf(c->diag, "%s: too many errors, stopping\n", c->m->srcs[c->file].name);
        c->stopped = true;
    }
}

void fe_error(fe_ctx_t *c, fe_span_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fe_verror(c, at, fmt, ap);
    va_end(ap);
}

void fe_note(fe_ctx_t *c, fe_span_t at, const char *fmt, ...)
{
    if (c->stopped)
        return;
    va_list ap;
    va_start(ap, fmt);
    print_at(c->diag, &c->m->srcs[c->file], at, "note", fmt, ap);
    va_end(ap);
}

void fe_diag_print(FILE *out, const isa_module_t *m, isa_loc_t loc, const char *severity,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_at(out, &m->srcs[loc.file], fe_span_of(loc), severity, fmt, ap);
    va_end(ap);
}
