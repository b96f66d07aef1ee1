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

/* A program of m on a device of its own, with two workers (freed with exu_program_free);
 * exu_program_calls: with every call kept as a call (instructions as in the IR). */
static inline ex_program_t *exu_program_cfg(const isa_module_t *m, bool no_inline)
{
    ex_device_config_t cfg = { .workers = 2, .no_inline = no_inline };
    ex_device_t *d = ex_device_new(&cfg);
    ck_assert_ptr_nonnull(d);
    ex_program_t *p = ex_program_new(d, m);
    ck_assert_ptr_nonnull(p);
    return p;
}
static inline ex_program_t *exu_program(const isa_module_t *m) { return exu_program_cfg(m, false); }
static inline ex_program_t *exu_program_calls(const isa_module_t *m) { return exu_program_cfg(m, true); }

static inline void exu_program_free(ex_program_t *p)
{
    ex_device_t *d = ex_program_device(p);
    ex_program_free(p);
    ex_device_free(d);
}

/* Map buf as global memory of p's device. */
static inline void exu_map(ex_program_t *p, void *buf, size_t nbytes)
{
    ck_assert_int_eq(ex_device_map(ex_program_device(p), buf, nbytes), ISA_ST_OK);
}

/* Launch and put the fault's report, if any, on d. */
static inline isa_status_t exu_launch(ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                                      size_t size, FILE *d)
{
    ex_stats_t st;
    isa_status_t r = ex_launch(p, entry, l, params, size, &st);
    if (st.fault.report && d)
        fputs(st.fault.report, d);
    ex_stats_clear(&st);
    return r;
}

/* Run the first entry of text over grid x block CTAs (shared bytes of dynamic shared
 * memory) with buf (nbytes, registered as global memory) as its parameter.  The
 * diagnostics go to *diag (malloc'd) when diag is given. */
static inline isa_status_t exu_run(const char *text, unsigned grid, unsigned block, unsigned shared, void *buf,
                                   size_t nbytes, char **diag)
{
    isa_module_t *m = exu_load(text);
    ex_program_t *p = exu_program(m);
    exu_map(p, buf, nbytes);
    uint64_t param = (uint64_t)(uintptr_t)buf;
    ex_launch_t l = { { grid, 1, 1 }, { block, 1, 1 }, shared, 2, 0, NULL, 0, false, { 0, 0, 0 }, false };
    size_t dlen = 0;
    char *dbuf = NULL;
    FILE *d = open_memstream(&dbuf, &dlen);
    uint32_t entry = 0;
    while (entry < m->nfunc && !m->funcs[entry].is_entry)
        entry++;
    isa_status_t st = exu_launch(p, entry, &l, &param, sizeof param, d);
    fclose(d);
    if (diag)
        *diag = dbuf;
    else
        free(dbuf);
    exu_program_free(p);
    isa_module_free(m);
    return st;
}

#endif
