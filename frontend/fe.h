/* fe.h: the public interface of libfrontend: PTX text in, checked IR (isa_module_t) out,
 * with located diagnostics ("file:line:col: error: message", the line, a caret). */
#ifndef PTXEMU_FE_H
#define PTXEMU_FE_H

#include <stdio.h>
#include "isa/isa.h"

typedef struct {
    FILE    *diag;        /* where diagnostics go; stderr when NULL */
    unsigned max_errors;  /* stop after this many errors; 20 when 0 */
    bool     no_check;    /* skip validation (parse and lower only) */
} fe_options_t;

/* Parse, lower and validate the PTX file at path.  On success *out_m holds the module
 * (free with isa_module_free).  On failure the diagnostics have been written and the
 * status is ISA_ST_SYNTAX (or ISA_ST_IO / ISA_ST_NOMEM); *out_m is NULL. */
isa_status_t fe_load_file(const char *path, const fe_options_t *opt, isa_module_t **out_m);

/* The same from text in memory; name is used in diagnostics.  The text is copied. */
isa_status_t fe_load_text(const char *name, const char *text, size_t len,
                          const fe_options_t *opt, isa_module_t **out_m);

/* Print one diagnostic at a location of a module's source, in the standard format
 * (used by later passes that find errors in a loaded module). */
void fe_diag_print(FILE *out, const isa_module_t *m, isa_loc_t loc, const char *severity,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
