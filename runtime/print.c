/* print.c: the results of a run: the :out buffers as text, hex or JSON, in parameter
 * order, and the :out=PATH buffers written as raw bytes. */
#include <string.h>

#include "runtime/rt.h"

/* One buffer as "argK TYPE[N]: v0 v1 ..." (text, hex) or a JSON member; a reference's
 * surface as "NAME TYPE[N]: ...". */
static void print_buffer(FILE *out, uint32_t k, const rt_buffer_t *b, rt_outfmt_t fmt, bool first)
{
    char label[80];
    if (b->ref)
        snprintf(label, sizeof label, "%s", b->ref);
    else
        snprintf(label, sizeof label, "arg%u", k);
    const char *tn = isa_types[b->type].text;
    unsigned eb = isa_types[b->type].bits / 8;
    char v[64];
    if (fmt == RT_OUT_JSON)
        fprintf(out, "%s  \"%s\": {\"type\": \"%s\", \"count\": %llu, \"values\": [", first ? "" : ",\n",
                label, tn, (unsigned long long)b->count);
    else
        fprintf(out, "%s %s[%llu]:", label, tn, (unsigned long long)b->count);
    for (uint64_t i = 0; i < b->count; i++) {
        rt_elem_format(v, sizeof v, b->type, (const uint8_t *)b->host + i * eb, fmt == RT_OUT_HEX);
        if (fmt != RT_OUT_JSON)
            fprintf(out, " %s", v);
        else if (strcmp(v, "nan") == 0 || strcmp(v, "inf") == 0 || strcmp(v, "-inf") == 0)
            fprintf(out, "%s\"%s\"", i ? ", " : "", v);   /* not JSON numbers */
        else
            fprintf(out, "%s%s", i ? ", " : "", v);
    }
    fputs(fmt == RT_OUT_JSON ? "]}" : "\n", out);
}

isa_status_t rt_buffer_write(const rt_buffer_t *b, uint32_t k, FILE *diag)
{
    if (!b->out_path)
        return ISA_ST_OK;
    FILE *f = fopen(b->out_path, "wb");
    bool ok = f && fwrite(b->host, 1, b->bytes, f) == b->bytes;
    if (f && fclose(f) != 0)
        ok = false;
    if (ok)
        return ISA_ST_OK;
    fprintf(diag, "ptxrun: error: argument %u: cannot write '%s'\n", k, b->out_path);
    return ISA_ST_IO;
}

isa_status_t rt_args_print(const rt_args_t *a, rt_outfmt_t fmt, FILE *out, FILE *diag)
{
    isa_status_t st = ISA_ST_OK;
    bool first = true;
    if (fmt == RT_OUT_JSON)
        fputs("{\n", out);
    for (uint32_t k = 0; k < a->nparam; k++) {
        if (a->param_buffer[k] < 0)
            continue;
        const rt_buffer_t *b = &a->bufs[a->param_buffer[k]];
        if (b->out) {
            print_buffer(out, k, b, fmt, first);
            first = false;
        }
        if (rt_buffer_write(b, k, diag) != ISA_ST_OK)
            st = ISA_ST_IO;
    }
    for (uint32_t i = 0; i < a->nbuf; i++) {
        const rt_buffer_t *b = &a->bufs[i];
        if (!b->ref)
            continue;
        if (b->out) {
            print_buffer(out, i, b, fmt, first);
            first = false;
        }
        if (rt_buffer_write(b, i, diag) != ISA_ST_OK)
            st = ISA_ST_IO;
    }
    if (fmt == RT_OUT_JSON)
        fputs(first ? "}\n" : "\n}\n", out);
    return st;
}
