/* args_fuzz.c: fuzz harness for ptxrun's argument parser (runtime/args.c).  The input is
 * a list of argument strings, one a line, parsed against a fixed kernel signature with
 * several parameter types; the parsed buffers are printed in every output format.
 * Inputs that name a file (@FILE) or ask for buffers over 64 Ki elements are skipped:
 * the first reads the machine's files, the second only measures memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/fe.h"
#include "runtime/rt.h"

static const char kernel[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 a, .param .f32 b, .param .s16 c, .param .align 4 .b8 d[12],\n"
    "  .param .f16 e, .param .u64 f, .param .f64 g, .param .b32 h)\n{\n  ret;\n}\n";

#define MAX_ARGS 16
#define MAX_ELEMS ((uint64_t)1 << 16)

static FILE *null_out(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

static const isa_func_t *entry(void)
{
    static isa_module_t *m;
    if (!m) {
        fe_options_t o = { 0 };
        if (fe_load_text("args_fuzz.ptx", kernel, sizeof kernel - 1, &o, &m) != ISA_ST_OK)
            abort();
    }
    return &m->funcs[0];
}

/* Every [N] of the input within MAX_ELEMS (as the parser reads N). */
static bool small_counts(const char *s)
{
    for (const char *br = strchr(s, '['); br; br = strchr(br + 1, '[')) {
        const char *close = strchr(br, ']');
        if (!close)
            return true;
        char n[64];
        size_t len = (size_t)(close - br - 1);
        if (len == 0)
            continue;
        if (len >= sizeof n)
            return false;
        memcpy(n, br + 1, len);
        n[len] = 0;
        uint64_t v;
        const char *err;
        if (rt_elem_parse(n, ISA_T_U64, &v, &err) && v > MAX_ELEMS)
            return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    if (strlen(text) != size || strchr(text, '@') || !small_counts(text)) {
        free(text);
        return 0;
    }
    char *argv[MAX_ARGS];
    int argc = 0;
    for (char *p = text; p && argc < MAX_ARGS;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        argv[argc++] = p;
        p = nl ? nl + 1 : NULL;
    }
    rt_args_t a;
    if (rt_args_parse(entry(), argc, argv, null_out(), &a) == ISA_ST_OK) {
        for (uint32_t i = 0; i < a.nbuf; i++) {
            free((char *)a.bufs[i].out_path);   /* print, never write files */
            a.bufs[i].out_path = NULL;
            a.bufs[i].out = true;
        }
        rt_args_print(&a, RT_OUT_TEXT, null_out(), null_out());
        rt_args_print(&a, RT_OUT_HEX, null_out(), null_out());
        rt_args_print(&a, RT_OUT_JSON, null_out(), null_out());
        rt_args_t c;
        if (rt_args_copy(&a, &c) == ISA_ST_OK)
            rt_args_free(&c);
        rt_args_free(&a);
    }
    free(text);
    return 0;
}
