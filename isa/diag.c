/* diag.c: diagnostics in the one format every tool uses:
 *   file:line:col: severity: message
 *    <the source line>
 *    ^~~~~ (under the offending span)
 * Line and column are computed only here, from byte offsets. */
#include "isa/isa.h"

#include <stdarg.h>
#include <stdbool.h>

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
    /* A very long line (minified or machine-made text) is shown as a window around the
     * span, marked with "..." where it is cut. */
    enum { WINDOW = 160, BEFORE = 60 };
    bool cut_l = false, cut_r = false;
    if (le - ls > WINDOW) {
        if (b - ls > BEFORE) {
            ls = b - BEFORE;
            cut_l = true;
        }
        if (le - ls > WINDOW) {
            le = ls + WINDOW;
            cut_r = true;
        }
    }
    fprintf(out, " %s%.*s%s\n %s", cut_l ? "..." : "", (int)(le - ls), src->text + ls,
            cut_r ? "..." : "", cut_l ? "   " : "");
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
