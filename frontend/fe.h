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
    /* fe_link: the functions the runtime supplies (vprintf, malloc...), a NULL-terminated
     * list; a used .extern .func of one of these names may stay without a definition. */
    const char *const *provided;
} fe_options_t;

/* Parse, lower and validate the PTX file at path.  On success *out_m holds the module
 * (free with isa_module_free).  On failure the diagnostics have been written and the
 * status is ISA_ST_SYNTAX (or ISA_ST_IO / ISA_ST_NOMEM); *out_m is NULL. */
isa_status_t fe_load_file(const char *path, const fe_options_t *opt, isa_module_t **out_m);

/* The same from text in memory; name is used in diagnostics.  The text is copied. */
isa_status_t fe_load_text(const char *name, const char *text, size_t len,
                          const fe_options_t *opt, isa_module_t **out_m);

/* Link translation units (link.c): each .extern function or variable resolves to the
 * .visible definition of its name in another unit, else to a .common one (the largest),
 * else to the first unit's .weak one; file-scope names of different units are kept apart
 * (a later unit's is renamed NAME$K).  The units are consumed: on success *out_m holds
 * them, merged (their sources keep their names, so later diagnostics name the unit);
 * otherwise they are freed, the errors ("unit:line:col: error: ...": two definitions of
 * one name, an undefined used name, declarations that disagree) have been written to
 * opt->diag, and the status is ISA_ST_SYNTAX (ISA_ST_NOMEM, or ISA_ST_USAGE for n == 0). */
/* optional (NULL: none) marks units that are linked only when needed, as an archive's
 * members are: when one defines a name that the units taken so far declare but do not
 * define. */
isa_status_t fe_link(isa_module_t *const *units, unsigned n, const bool *optional, const fe_options_t *opt,
                     isa_module_t **out_m);

/* Load n PTX texts (names[i] for their diagnostics), then link them. */
isa_status_t fe_link_texts(unsigned n, const char *const *names, const char *const *texts, const size_t *lens,
                           const bool *optional, const fe_options_t *opt, isa_module_t **out_m);

/* devrt.c: when *m declares, without a body, a device-runtime function the emulator writes
 * in PTX (the cooperative-group calls of libcudadevrt: cudaCGSynchronize...), link that
 * unit into it (*m replaced by the linked module; NULL, with the errors written, when the
 * link fails); otherwise leave *m as it is. */
isa_status_t fe_link_devrt(isa_module_t **m, const fe_options_t *opt);
/* The names of those functions, i = 0, 1, ... (NULL past the last): a link of units that
 * calls them takes them as provided, then fe_link_devrt defines them. */
const char *fe_devrt_name(unsigned i);

/* Print one diagnostic at a location of a module's source, in the standard format
 * (used by later passes that find errors in a loaded module). */
void fe_diag_print(FILE *out, const isa_module_t *m, isa_loc_t loc, const char *severity,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
