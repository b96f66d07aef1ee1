/* exutil.h: the exec tests' helpers: load PTX text (failing the test with the
 * diagnostics if it does not load) and launch its first entry on one caller-owned
 * global buffer, passed as the only parameter. */
#ifndef PTXEMU_TESTS_EXUTIL_H
#define PTXEMU_TESTS_EXUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "tests/unit/frontend/testutil.h"

static inline isa_module_t *exu_load(const char *text)
{
    char *diag = NULL;
    isa_module_t *m = tu_load("t.ptx", text, &diag);
    ck_assert_msg(m != NULL, "%s", diag);
    free(diag);
    return m;
}

/* Run the first entry of text over grid x block CTAs (shared bytes of dynamic shared
 * memory) with buf (nbytes, registered as global memory) as its parameter.  The
 * diagnostics go to *diag (malloc'd) when diag is given. */
static inline isa_status_t exu_run(const char *text, unsigned grid, unsigned block, unsigned shared, void *buf,
                                   size_t nbytes, char **diag)
{
    isa_module_t *m = exu_load(text);
    ex_program_t *p = ex_program_new(m);
    ex_program_add_global(p, buf, nbytes);
    uint64_t param = (uint64_t)(uintptr_t)buf;
    ex_launch_t l = { { grid, 1, 1 }, { block, 1, 1 }, shared, 2, 0, NULL, 0, false };
    size_t dlen = 0;
    char *dbuf = NULL;
    FILE *d = open_memstream(&dbuf, &dlen);
    uint32_t entry = 0;
    while (entry < m->nfunc && !m->funcs[entry].is_entry)
        entry++;
    isa_status_t st = ex_launch(p, entry, &l, &param, sizeof param, d, NULL);
    fclose(d);
    if (diag)
        *diag = dbuf;
    else
        free(dbuf);
    ex_program_free(p);
    isa_module_free(m);
    return st;
}

#endif
