/* diag.c: the frontend's diagnostics: counted, capped, and printed in the one format
 * every tool uses (isa_diag_vprint). */
#include "frontend/internal.h"

#include <stdarg.h>
#include <string.h>

void fe_verror(fe_ctx_t *c, fe_span_t at, const char *fmt, va_list ap)
{
    if (c->stopped)
        return;
    isa_diag_vprint(c->diag, &c->m->srcs[c->file], at.begin, at.end, "error", fmt, ap);
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
    isa_diag_vprint(c->diag, &c->m->srcs[c->file], at.begin, at.end, "note", fmt, ap);
    va_end(ap);
}

void fe_diag_print(FILE *out, const isa_module_t *m, isa_loc_t loc, const char *severity,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    isa_diag_vprint(out, &m->srcs[loc.file], loc.begin, loc.end, severity, fmt, ap);
    va_end(ap);
}
