/* args.c: kernel arguments from the command line: scalars read per the parameter's
 * declared type, new buffers with their initializers, and the parameter block. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

#define RT_BUF_ALIGN 256

/* The documented generator behind rand(SEED): splitmix64 (Steele, Lea, Flood 2014).
 * The state starts at SEED; each element takes one output. */
uint64_t rt_rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Where an error is reported: "ptxrun: error: argument K (NAME): message". */
typedef struct {
    FILE       *diag;
    unsigned    k;
    const char *name;
} argctx_t;

static bool fail(const argctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(const argctx_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(c->diag, "ptxrun: error: argument %u (%s): ", c->k, c->name);
    vfprintf(c->diag, fmt, ap);
    fputc('\n', c->diag);
    va_end(ap);
    return false;
}

/*{=====================================================================
 * Buffers: TYPE[N] | TYPE[N]=V | TYPE[N]=iota | TYPE[N]=iota(START,STEP)
 *          | TYPE[N]=rand(SEED) | TYPE[]=V0,V1,... | TYPE[]=@FILE, then :out or :out=PATH
 *====================================================================*/

static unsigned elem_bytes(isa_type_t t) { return isa_types[t].bits / 8; }

static void *buf_alloc(size_t bytes)
{
    size_t n = (bytes + RT_BUF_ALIGN - 1) / RT_BUF_ALIGN * RT_BUF_ALIGN;
    void *p = aligned_alloc(RT_BUF_ALIGN, n ? n : RT_BUF_ALIGN);
    if (p)
        memset(p, 0, n ? n : RT_BUF_ALIGN);
    return p;
}

/* Store a double into element i of b (floats round to nearest even). */
static void store_double(rt_buffer_t *b, uint64_t i, double v)
{
    uint8_t *p = (uint8_t *)b->host + i * elem_bytes(b->type);
    if (b->type == ISA_T_F64) {
        memcpy(p, &v, 8);
    } else if (b->type == ISA_T_F32) {
        float f = (float)v;
        memcpy(p, &f, 4);
    } else {
        uint16_t h = b->type == ISA_T_F16 ? rt_f16_from_f64(v) : rt_bf16_from_f64(v);
        memcpy(p, &h, 2);
    }
}

static bool is_float(isa_type_t t) { return isa_types[t].cls == ISA_TC_FLOAT; }

/* An iota(START,STEP) bound: an integer (any 64-bit value) or, for floats, a double. */
static bool parse_bound(const argctx_t *c, const char *s, isa_type_t t, int64_t *oi, double *od)
{
    const char *err = "not a number";
    if (is_float(t)) {
        double v;
        if (!rt_elem_parse(s, ISA_T_F64, &v, &err))
            return fail(c, "iota: '%s': %s", s, err);
        *od = v;
    } else {
        uint64_t v;
        if (!rt_elem_parse(s, ISA_T_B64, &v, &err))
            return fail(c, "iota: '%s': %s", s, err);
        *oi = (int64_t)v;
    }
    return true;
}

static bool read_file(const argctx_t *c, const char *path, uint8_t **out, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(c, "cannot read '%s'", path);
    size_t cap = 4096, len = 0, n;
    uint8_t *d = malloc(cap);
    while (d && (n = fread(d + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *nd = realloc(d, cap *= 2);
            if (!nd) {
                free(d);
                d = NULL;
            }
            d = nd;
        }
    }
    bool err = ferror(f);
    fclose(f);
    if (!d || err) {
        free(d);
        return fail(c, "cannot read '%s'", path);
    }
    *out = d;
    *out_len = len;
    return true;
}

/* Count the comma-separated items of s. */
static uint64_t count_items(const char *s)
{
    uint64_t n = 1;
    for (; *s; s++)
        n += *s == ',';
    return n;
}

/* Parse the text after "=" of a buffer argument into b (b->type set; b->count set
 * when [N] was given, else count_given is false). */
static bool buffer_init(const argctx_t *c, rt_buffer_t *b, bool count_given, char *init)
{
    isa_type_t t = b->type;
    unsigned eb = elem_bytes(t);
    const char *err = NULL;
    if (init[0] == '@') {
        uint8_t *data = NULL;
        size_t len = 0;
        if (!read_file(c, init + 1, &data, &len))
            return false;
        if (len % eb || (count_given && len != b->count * eb)) {
            free(data);
            return fail(c, "'%s' holds %zu bytes, not %s%llu %s elements", init + 1, len,
                        count_given ? "" : "a whole number of ",
                        count_given ? (unsigned long long)b->count : 0ull, isa_types[t].text);
        }
        b->count = len / eb;
        b->bytes = len;
        b->host = buf_alloc(len);
        if (b->host)
            memcpy(b->host, data, len);
        free(data);
        return b->host ? true : fail(c, "out of memory");
    }
    bool iota = strncmp(init, "iota", 4) == 0 && (init[4] == 0 || init[4] == '(');
    bool rnd = strncmp(init, "rand(", 5) == 0;
    uint64_t nitems = iota || rnd ? 1 : count_items(init);
    if (!count_given) {
        if (iota || rnd)
            return fail(c, "%s needs a count: %s[N]=%s", iota ? "iota" : "rand", isa_types[t].text,
                        init);
        b->count = nitems;
    } else if (nitems != 1 && nitems != b->count) {
        return fail(c, "%llu values for %llu elements", (unsigned long long)nitems,
                    (unsigned long long)b->count);
    }
    b->bytes = b->count * eb;
    if (!(b->host = buf_alloc(b->bytes)))
        return fail(c, "out of memory");
    uint8_t *host = b->host;
    if (iota) {
        int64_t i0 = 0, is = 1;
        double d0 = 0, ds = 1;
        if (init[4] == '(') {
            size_t n = strlen(init);
            char *comma = strchr(init, ',');
            if (init[n - 1] != ')' || !comma)
                return fail(c, "expected iota(START,STEP), got '%s'", init);
            init[n - 1] = 0;
            *comma = 0;
            if (!parse_bound(c, init + 5, t, &i0, &d0) || !parse_bound(c, comma + 1, t, &is, &ds))
                return false;
        }
        for (uint64_t i = 0; i < b->count; i++) {
            if (is_float(t)) {
                store_double(b, i, d0 + (double)i * ds);
            } else {
                uint64_t v = (uint64_t)i0 + i * (uint64_t)is;
                memcpy(host + i * eb, &v, eb);
            }
        }
        return true;
    }
    if (rnd) {
        size_t n = strlen(init);
        if (init[n - 1] != ')')
            return fail(c, "expected rand(SEED), got '%s'", init);
        init[n - 1] = 0;
        uint64_t seed;
        if (!rt_elem_parse(init + 5, ISA_T_U64, &seed, &err))
            return fail(c, "rand: seed '%s': %s", init + 5, err);
        /* Integers take the low bits; a float with p significand bits (f16 11, bf16 8,
         * f32 24, f64 53) takes the top p bits k and is k * 2^-(p-1) - 1, uniform in
         * [-1, 1) and exact in the type. */
        unsigned p = t == ISA_T_F16 ? 11 : t == ISA_T_BF16 ? 8 : t == ISA_T_F32 ? 24 : 53;
        for (uint64_t i = 0; i < b->count; i++) {
            uint64_t r = rt_rand_next(&seed);
            if (is_float(t))
                store_double(b, i, (double)(r >> (64 - p)) * ldexp(1.0, 1 - (int)p) - 1.0);
            else
                memcpy(host + i * eb, &r, eb);
        }
        return true;
    }
    /* One value (fills the buffer) or a list of exactly count values. */
    char *s = init;
    for (uint64_t i = 0; i < nitems; i++) {
        char *comma = strchr(s, ',');
        if (comma)
            *comma = 0;
        if (!rt_elem_parse(s, t, host + i * eb, &err))
            return fail(c, "value %llu '%s': %s", (unsigned long long)i, s, err);
        if (comma)
            s = comma + 1;
    }
    for (uint64_t i = 1; nitems == 1 && i < b->count; i++)
        memcpy(host + i * eb, host, eb);
    return true;
}

/* Whether text is buffer syntax: a buffer element type name then '['. */
static isa_type_t buffer_type(const char *text)
{
    const char *br = strchr(text, '[');
    if (!br)
        return ISA_T_NONE;
    int t = isa_type_lookup(text, (size_t)(br - text));
    return t >= 0 && rt_type_is_elem((isa_type_t)t) ? (isa_type_t)t : ISA_T_NONE;
}

static bool parse_buffer(const argctx_t *c, const char *text, isa_type_t t, rt_buffer_t *b)
{
    char *s = strdup(text);
    if (!s)
        return fail(c, "out of memory");
    bool ok = false;
    memset(b, 0, sizeof *b);
    b->type = t;
    char *br = strchr(s, '['), *close = strchr(br, ']');
    if (!close) {
        fail(c, "expected TYPE[N] in '%s'", text);
        goto done;
    }
    *close = 0;
    bool count_given = br + 1 != close;
    if (count_given) {
        const char *err;
        if (!rt_elem_parse(br + 1, ISA_T_U64, &b->count, &err) || br[1] == '-') {
            fail(c, "bad element count '%s'", br + 1);
            goto done;
        }
        if (b->count > ((uint64_t)1 << 40) / elem_bytes(t)) {
            fail(c, "element count %s is too large", br + 1);
            goto done;
        }
    }
    char *rest = close + 1;
    /* The :out suffix: after the initializer (an @FILE path may hold ':', so the last
     * ":out" that ends the text or is followed by '=' is taken). */
    char *out = NULL;
    for (char *p = strstr(rest, ":out"); p; p = strstr(p + 1, ":out"))
        if (p[4] == 0 || p[4] == '=')
            out = p;
    if (out) {
        b->out = true;
        if (out[4] == '=') {
            if (!out[5]) {
                fail(c, ":out= needs a path");
                goto done;
            }
            b->out_path = strdup(out + 5);
            b->out = false;
        }
        *out = 0;
    }
    if (*rest == '=') {
        if (!rest[1]) {
            fail(c, "nothing after '=' in '%s'", text);
            goto done;
        }
        ok = buffer_init(c, b, count_given, rest + 1);
    } else if (*rest) {
        fail(c, "unexpected '%s' after %s[...]", rest, isa_types[t].text);
    } else if (!count_given) {
        fail(c, "%s[] needs values (%s[]=V0,V1,...) or a count", isa_types[t].text, isa_types[t].text);
    } else {
        b->bytes = b->count * elem_bytes(t);
        ok = (b->host = buf_alloc(b->bytes)) != NULL || fail(c, "out of memory");
    }
done:
    free(s);
    return ok;
}
/*}=====================================================================*/

/*{=====================================================================
 * Scalars and by-value aggregates
 *====================================================================*/

/* An aggregate parameter (array, vector): "0x" and exactly 2*size hex digits (bytes
 * in memory order), or a comma list of at most size byte values (the rest is zero). */
static bool parse_bytes(const argctx_t *c, const char *text, uint8_t *dst, uint64_t size)
{
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X') && strlen(text + 2) == 2 * size) {
        bool hex = true;
        for (uint64_t i = 0; i < size && hex; i++) {
            int h = text[2 + 2 * i], l = text[3 + 2 * i];
            hex = strchr("0123456789abcdefABCDEF", h) && strchr("0123456789abcdefABCDEF", l);
            if (hex) {
                char two[3] = { (char)h, (char)l, 0 };
                dst[i] = (uint8_t)strtoul(two, NULL, 16);
            }
        }
        if (hex)
            return true;
    }
    if (count_items(text) > size)
        return fail(c, "%llu byte values for a %llu-byte parameter", (unsigned long long)count_items(text),
                    (unsigned long long)size);
    char *s = strdup(text), *p = s;
    if (!s)
        return fail(c, "out of memory");
    for (uint64_t i = 0; p; i++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        const char *err;
        if (!rt_elem_parse(p, ISA_T_B8, dst + i, &err)) {
            fail(c, "byte %llu '%s': %s (give byte values V0,V1,... or 0x and %llu hex digits)",
                 (unsigned long long)i, p, err, (unsigned long long)(2 * size));
            free(s);
            return false;
        }
        p = comma ? comma + 1 : NULL;
    }
    free(s);
    return true;
}
/*}=====================================================================*/

/* Layout: each parameter at the next offset aligned to its alignment. */
isa_status_t rt_args_parse(const isa_func_t *f, int argc, char **argv, FILE *diag, rt_args_t *out)
{
    memset(out, 0, sizeof *out);
    if ((uint32_t)argc != f->nparam) {
        fprintf(diag, "ptxrun: error: %s takes %u argument%s, %d given\n", f->name, f->nparam,
                f->nparam == 1 ? "" : "s", argc);
        for (uint32_t i = 0; i < f->nparam; i++) {
            const isa_var_t *p = &f->params[i];
            fprintf(diag, "  argument %u: %s .%s", i, p->name,
                    p->type != ISA_T_NONE ? isa_types[p->type].text : "opaque");
            if (p->ndims)
                fprintf(diag, "[%llu]", (unsigned long long)(isa_var_size(p) / (isa_types[p->type].bits / 8)));
            fputc('\n', diag);
        }
        return ISA_ST_USAGE;
    }
    out->nparam = f->nparam;
    out->param_offset = calloc(f->nparam ? f->nparam : 1, sizeof *out->param_offset);
    out->param_buffer = calloc(f->nparam ? f->nparam : 1, sizeof *out->param_buffer);
    out->bufs = calloc(f->nparam ? f->nparam : 1, sizeof *out->bufs);
    if (!out->param_offset || !out->param_buffer || !out->bufs) {
        fprintf(diag, "ptxrun: error: out of memory\n");
        rt_args_free(out);
        return ISA_ST_NOMEM;
    }
    size_t off = 0;
    for (uint32_t i = 0; i < f->nparam; i++) {
        uint32_t al = isa_var_align(&f->params[i]);
        off = (off + (al ? al : 1) - 1) / (al ? al : 1) * (al ? al : 1);
        out->param_offset[i] = (uint32_t)off;
        off += isa_var_size(&f->params[i]);
    }
    out->params_size = off;
    out->params = calloc(off ? off : 1, 1);
    if (!out->param_offset || !out->param_buffer || !out->bufs || !out->params) {
        fprintf(diag, "ptxrun: error: out of memory\n");
        rt_args_free(out);
        return ISA_ST_NOMEM;
    }
    for (uint32_t i = 0; i < f->nparam; i++) {
        const isa_var_t *p = &f->params[i];
        argctx_t c = { diag, i, p->name };
        uint8_t *dst = out->params + out->param_offset[i];
        uint64_t size = isa_var_size(p);
        const char *text = argv[i], *err;
        isa_type_t bt = buffer_type(text);
        bool ok;
        out->param_buffer[i] = -1;
        if (p->type == ISA_T_NONE) {
            ok = fail(&c, "opaque parameters (.texref, .samplerref, .surfref) are not supported");
        } else if (bt != ISA_T_NONE) {
            bool ptr = p->ndims == 0 && p->vec <= 1 && isa_types[p->type].bits == 64 &&
                       isa_types[p->type].cls != ISA_TC_FLOAT;
            ok = ptr ? parse_buffer(&c, text, bt, &out->bufs[out->nbuf])
                     : fail(&c, "a buffer needs a 64-bit integer parameter, not .%s%s",
                            isa_types[p->type].text, p->ndims ? "[...]" : "");
            if (ok) {
                uint64_t addr = (uint64_t)(uintptr_t)out->bufs[out->nbuf].host;
                memcpy(dst, &addr, 8);
                out->param_buffer[i] = (int32_t)out->nbuf++;
            } else if (ptr) {
                out->nbuf++;   /* freed with the rest */
            }
        } else if (p->ndims || p->vec > 1 || !rt_type_is_elem(p->type)) {
            ok = parse_bytes(&c, text, dst, size);
        } else {
            ok = rt_elem_parse(text, p->type, dst, &err) ||
                 fail(&c, "'%s' for .%s: %s", text, isa_types[p->type].text, err);
        }
        if (!ok) {
            rt_args_free(out);
            return ISA_ST_USAGE;
        }
    }
    return ISA_ST_OK;
}

void rt_args_free(rt_args_t *a)
{
    for (uint32_t i = 0; a->bufs && i < a->nbuf; i++) {
        free(a->bufs[i].host);
        free((char *)a->bufs[i].out_path);
    }
    free(a->bufs);
    free(a->params);
    free(a->param_offset);
    free(a->param_buffer);
    memset(a, 0, sizeof *a);
}

/* A comparison gives each side its own copy: a run may write any buffer. */
isa_status_t rt_args_copy(const rt_args_t *a, rt_args_t *out)
{
    memset(out, 0, sizeof *out);
    uint32_t np = a->nparam ? a->nparam : 1;
    out->nparam = a->nparam;
    out->params_size = a->params_size;
    out->params = malloc(a->params_size ? a->params_size : 1);
    out->param_offset = malloc(np * sizeof *out->param_offset);
    out->param_buffer = malloc(np * sizeof *out->param_buffer);
    out->bufs = calloc(np, sizeof *out->bufs);
    if (!out->params || !out->param_offset || !out->param_buffer || !out->bufs)
        goto fail;
    memcpy(out->params, a->params, a->params_size);
    memcpy(out->param_offset, a->param_offset, a->nparam * sizeof *out->param_offset);
    memcpy(out->param_buffer, a->param_buffer, a->nparam * sizeof *out->param_buffer);
    for (uint32_t i = 0; i < a->nbuf; i++) {
        rt_buffer_t *b = &out->bufs[i];
        *b = a->bufs[i];
        b->host = NULL;
        b->out_path = NULL;
        out->nbuf = i + 1;
        if (!(b->host = buf_alloc(b->bytes)) ||
            (a->bufs[i].out_path && !(b->out_path = strdup(a->bufs[i].out_path))))
            goto fail;
        memcpy(b->host, a->bufs[i].host, b->bytes);
    }
    for (uint32_t k = 0; k < a->nparam; k++)
        if (a->param_buffer[k] >= 0) {
            uint64_t addr = (uint64_t)(uintptr_t)out->bufs[a->param_buffer[k]].host;
            memcpy(out->params + a->param_offset[k], &addr, 8);
        }
    return ISA_ST_OK;
fail:
    rt_args_free(out);
    return ISA_ST_NOMEM;
}
