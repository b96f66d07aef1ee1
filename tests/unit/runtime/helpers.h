/* helpers.h: shared by the runtime tests: a kernel signature from PTX text, and
 * argument parsing with its diagnostics captured. */
#ifndef RT_TEST_HELPERS_H
#define RT_TEST_HELPERS_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"
#include "runtime/rt.h"

/* A module with one entry whose parameter list is params ("" for none). */
static inline isa_module_t *rt_test_module(const char *params)
{
    char text[4096];
    snprintf(text, sizeof text, ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(%s)\n{\n\tret;\n}\n", params);
    isa_module_t *m = NULL;
    fe_options_t fo = { 0 };
    ck_assert_msg(fe_load_text("t.ptx", text, strlen(text), &fo, &m) == ISA_ST_OK, "%s", text);
    return m;
}

/* Parse argv against entry k of m; diagnostics into *out_diag (malloc'd). */
static inline isa_status_t rt_test_parse(const isa_module_t *m, int argc, const char **argv, rt_args_t *a,
                                         char **out_diag)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&buf, &len);
    isa_status_t st = rt_args_parse(&m->funcs[0], argc, (char **)argv, diag, a);
    fclose(diag);
    if (out_diag)
        *out_diag = buf;
    else
        free(buf);
    return st;
}

/* rt_args_print into a malloc'd string. */
static inline char *rt_test_print(const rt_args_t *a, rt_outfmt_t fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_int_eq(rt_args_print(a, fmt, out, stderr), ISA_ST_OK);
    fclose(out);
    return buf;
}

#endif
