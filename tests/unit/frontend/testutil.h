/* testutil.h: helpers shared by the frontend tests: load PTX from a string or a file
 * with diagnostics captured, and render a module through the printer or the dump. */
#ifndef PTXEMU_TESTUTIL_H
#define PTXEMU_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/fe.h"

/* Load text; *out_diag (malloc'd) receives the diagnostics.  Returns the module or NULL. */
static inline isa_module_t *tu_load(const char *name, const char *text, char **out_diag)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *d = open_memstream(&buf, &len);
    fe_options_t o = { 0 };
    o.diag = d;
    isa_module_t *m = NULL;
    fe_load_text(name, text, strlen(text), &o, &m);
    fclose(d);
    if (out_diag)
        *out_diag = buf;
    else
        free(buf);
    return m;
}

typedef void (*tu_render_fn)(FILE *, const isa_module_t *);

/* A module rendered to a malloc'd string. */
static inline char *tu_render(const isa_module_t *m, tu_render_fn fn)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, m);
    fclose(f);
    return buf;
}

/* Whole file into a malloc'd NUL-terminated string, or NULL. */
static inline char *tu_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* The source tree: tests run from anywhere; PTXEMU_SRCDIR names the checkout. */
static inline const char *tu_srcdir(void)
{
    const char *s = getenv("PTXEMU_SRCDIR");
    return s ? s : ".";
}

#endif
