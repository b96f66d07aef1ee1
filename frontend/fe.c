/* fe.c: the frontend's entry points: read the text, parse, lower, validate. */
#include "frontend/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What a file that is not PTX text is, or NULL for text.  PTX is ASCII (comments and
 * strings may hold UTF-8), so a NUL byte or a run of control characters marks a binary;
 * the ELF and fatbin magic numbers name the usual mistake, a CUDA program given where
 * its PTX is expected.  Refusing here keeps the scanner from wading through megabytes of
 * machine code one error at a time. */
static const char *binary_kind(const unsigned char *t, size_t len)
{
    static const unsigned char elf[4] = { 0x7f, 'E', 'L', 'F' };
    static const unsigned char fatbin[4] = { 0x50, 0xed, 0x55, 0xba };
    if (len >= 4 && memcmp(t, elf, 4) == 0)
        return "an ELF file (a program, library or object; `ptxrun --extract-ptx FILE` prints "
               "the PTX a CUDA program embeds)";
    if (len >= 4 && memcmp(t, fatbin, 4) == 0)
        return "a CUDA fatbinary (`ptxrun --extract-ptx FILE` prints the PTX it holds)";
    if (memchr(t, 0, len))
        return "a binary file (it holds NUL bytes)";
    size_t n = len < 65536 ? len : 65536, ctl = 0;
    for (size_t i = 0; i < n; i++)
        ctl += (t[i] < 0x20 && t[i] != '\t' && t[i] != '\n' && t[i] != '\r' && t[i] != '\f' &&
                t[i] != '\v') || t[i] == 0x7f;
    if (ctl > 8 && ctl * 100 > n)
        return "a binary file (it holds control characters)";
    return NULL;
}

isa_status_t fe_load_text(const char *name, const char *text, size_t len,
                          const fe_options_t *opt, isa_module_t **out_m)
{
    *out_m = NULL;
    isa_module_t *m = isa_module_new();
    if (!m)
        return ISA_ST_NOMEM;
    m->srcs = isa_arena_alloc(m->arena, sizeof *m->srcs);
    char *copy = isa_arena_alloc(m->arena, len + 2);
    if (!m->srcs || !copy) {
        isa_module_free(m);
        return ISA_ST_NOMEM;
    }
    memcpy(copy, text, len);
    m->nsrc = 1;
    m->srcs[0].name = isa_arena_strndup(m->arena, name, strlen(name));
    m->srcs[0].text = copy;
    m->srcs[0].len = len;

    fe_ctx_t c = { 0 };
    c.m = m;
    c.file = 0;
    c.text = copy;
    c.len = len;
    c.ast = isa_arena_new();
    c.diag = opt && opt->diag ? opt->diag : stderr;
    c.max_errors = opt && opt->max_errors ? opt->max_errors : 20;
    if (!c.ast) {
        isa_module_free(m);
        return ISA_ST_NOMEM;
    }
    const char *kind = binary_kind((const unsigned char *)text, len);
    if (kind) {
        fprintf(c.diag, "%s: error: not PTX text: this is %s\n", name, kind);
        isa_arena_free(c.ast);
        isa_module_free(m);
        return ISA_ST_SYNTAX;
    }
    bool ok = fe_parse(&c) == 0 && c.root;
    if (ok)
        ok = fe_lower(&c);
    if (ok && !(opt && opt->no_check))
        ok = fe_check(&c);
    isa_arena_free(c.ast);
    if (!ok) {
        isa_module_free(m);
        return ISA_ST_SYNTAX;
    }
    *out_m = m;
    return ISA_ST_OK;
}

isa_status_t fe_load_file(const char *path, const fe_options_t *opt, isa_module_t **out_m)
{
    *out_m = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(opt && opt->diag ? opt->diag : stderr, "%s: error: cannot open: %s\n", path,
                strerror(errno));
        return ISA_ST_IO;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (!buf)
        return ISA_ST_NOMEM;
    if (err) {
        fprintf(opt && opt->diag ? opt->diag : stderr, "%s: error: read failed\n", path);
        free(buf);
        return ISA_ST_IO;
    }
    isa_status_t st = fe_load_text(path, buf, len, opt, out_m);
    free(buf);
    return st;
}
