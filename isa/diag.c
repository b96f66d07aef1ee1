/* diag.c: diagnostics in the one format every tool uses:
 *   file:line:col: severity: message
 *    <the source line>
 *    ^~~~~ (under the offending span)
 * Line and column are computed only here, from byte offsets. */
#include "isa/isa.h"

#include <stdarg.h>

void isa_diag_vprint(FILE *out, const isa_source_t *src, uint32_t begin, uint32_t end,
                     const char *sev, const char *fmt, va_list ap)
{
    unsigned line, col;
    isa_loc_linecol(src, begin, &line, &col);
    fprintf(out, "%s:%u:%u: %s: ", src->name, line, col, sev);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    /* The source line and an underline of the span (clipped to that line). */
    size_t b = begin <= src->len ? begin : src->len;
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
    size_t e = end > b ? (end < le ? end : le) : b + 1;
    fputc('^', out);
    for (size_t i = b + 1; i < e; i++)
        fputc('~', out);
    fputc('\n', out);
}

void isa_diag_print(FILE *out, const isa_source_t *src, uint32_t begin, uint32_t end, const char *sev,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    isa_diag_vprint(out, src, begin, end, sev, fmt, ap);
    va_end(ap);
}
