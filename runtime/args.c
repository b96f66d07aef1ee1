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

/* Each buffer starts a 2 MiB page of its own, as the driver's allocations lie in 2 MiB
 * chunks: an address's bits within its page, which the statistics' L1 model hashes, are
 * then the same from run to run wherever the host maps the memory (docs/memory-model.md). */
#define RT_BUF_PAGE ((size_t)2 << 20)

static void *buf_alloc(size_t bytes)
{
    size_t n = (bytes + RT_BUF_ALIGN - 1) / RT_BUF_ALIGN * RT_BUF_ALIGN;
    if (!n)
        n = RT_BUF_ALIGN;
    void *p = aligned_alloc(RT_BUF_PAGE, (n + RT_BUF_PAGE - 1) / RT_BUF_PAGE * RT_BUF_PAGE);
    if (p)
        memset(p, 0, n);
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


/*{=====================================================================
 * Texture and surface arguments: tex.GEOM.FORMAT[SIZE]=INIT:OPTION:... (docs/user-guide.md)
 *====================================================================*/
uint64_t rt_tex_level_texels(const ex_array_desc_t *q, unsigned l)
{
    bool layered = q->flags & (EX_ARRAY_LAYERED | EX_ARRAY_CUBE);
    uint64_t w = q->width >> l, h = q->height >> l, d = layered ? q->depth : q->depth >> l;
    w = w ? w : 1;
    h = q->height ? (h ? h : 1) : 1;
    d = q->depth ? (d ? d : 1) : 1;
    return w * h * d;
}

uint64_t rt_tex_texels(const ex_array_desc_t *q)
{
    uint64_t n = 0;
    for (unsigned l = 0; l < (q->levels ? q->levels : 1); l++)
        n += rt_tex_level_texels(q, l);
    return n;
}

static const char *const geom_names[] = { "1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "lin", "pitch" };
/* Sizes each geometry is written with: [W], [W,H], [W,H,D], [W,LAYERS], [W,H,LAYERS],
 * [W] (a cube map's faces are W x W), [W,CUBES], [N], [W,H]. */
static const uint8_t geom_ndims[] = { 1, 2, 3, 2, 3, 1, 2, 1, 2 };

static bool parse_float_opt(const argctx_t *c, const char *s, float *out)
{
    const char *err;
    return rt_elem_parse(s, ISA_T_F32, out, &err) || fail(c, "'%s': %s", s, err);
}

static bool parse_addr(const argctx_t *c, const char *s, ex_addr_t *out)
{
    static const char *const names[] = { "wrap", "clamp", "mirror", "border" };
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *out = (ex_addr_t)i;
            return true;
        }
    return fail(c, "unknown address mode '%s' (wrap, clamp, mirror, border)", s);
}

/* One option of a texture or surface argument. */
static bool tex_option(const argctx_t *c, rt_buffer_t *b, char *o)
{
    rt_tex_t *t = &b->tex;
    ex_tex_desc_t *sd = &t->sampler;
    char *eq = strchr(o, '=');
    char *v = eq ? eq + 1 : NULL;
    if (eq)
        *eq = 0;
    if (!strcmp(o, "out") && !v) {
        b->out = true;
        return true;
    }
    if (!strcmp(o, "out")) {
        if (!*v)
            return fail(c, ":out= needs a path");
        if (b->out_path)
            return fail(c, ":out= given twice");
        b->out_path = strdup(v);
        return b->out_path || fail(c, "out of memory");
    }
    if (t->kind == RT_RES_SURF)
        return fail(c, "a surface takes no option '%s' (only :out)", o);
    if (!v && (!strcmp(o, "point") || !strcmp(o, "linear"))) {
        sd->filter = o[0] == 'l' ? EX_FILTER_LINEAR : EX_FILTER_POINT;
    } else if (!v && (!strcmp(o, "wrap") || !strcmp(o, "clamp") || !strcmp(o, "mirror") || !strcmp(o, "border"))) {
        ex_addr_t m = EX_ADDR_CLAMP;
        parse_addr(c, o, &m);
        sd->address[0] = sd->address[1] = sd->address[2] = m;
    } else if (!v && !strcmp(o, "norm")) {
        sd->flags |= EX_TEXF_NORMALIZED_COORDS;
    } else if (!v && !strcmp(o, "float")) {
        sd->flags &= ~(unsigned)EX_TEXF_READ_AS_INTEGER;
    } else if (!v && !strcmp(o, "srgb")) {
        sd->flags |= EX_TEXF_SRGB;
    } else if (v && !strcmp(o, "addr")) {
        char *p = v;
        for (unsigned k = 0; k < 3 && p; k++) {
            char *comma = strchr(p, ',');
            if (comma)
                *comma = 0;
            if (!parse_addr(c, p, &sd->address[k]))
                return false;
            for (unsigned j = k + 1; j < 3; j++)
                sd->address[j] = sd->address[k];
            p = comma ? comma + 1 : NULL;
        }
    } else if (v && !strcmp(o, "border")) {
        char *p = v;
        for (unsigned k = 0; k < 4; k++) {
            char *comma = strchr(p, ',');
            if (comma)
                *comma = 0;
            if (!parse_float_opt(c, p, &sd->border[k]))
                return false;
            if (!comma && k < 3)
                return fail(c, "border= takes four values R,G,B,A");
            p = comma ? comma + 1 : p;
        }
    } else if (v && !strcmp(o, "mip")) {
        if (strcmp(v, "point") && strcmp(v, "linear"))
            return fail(c, "mip= takes point or linear, not '%s'", v);
        sd->mip_filter = v[0] == 'l' ? EX_FILTER_LINEAR : EX_FILTER_POINT;
    } else if (v && !strcmp(o, "bias")) {
        return parse_float_opt(c, v, &sd->lod_bias);
    } else if (v && !strcmp(o, "minlod")) {
        return parse_float_opt(c, v, &sd->min_lod);
    } else if (v && !strcmp(o, "maxlod")) {
        return parse_float_opt(c, v, &sd->max_lod);
    } else if (v && (!strcmp(o, "levels") || !strcmp(o, "aniso") || !strcmp(o, "pitch"))) {
        uint64_t n = 0;
        const char *err = NULL;
        if (!rt_elem_parse(v, ISA_T_U32, &n, &err) || v[0] == '-')
            return fail(c, "%s='%s': %s", o, v, err ? err : "not a count");
        if (o[0] == 'l')
            t->array.levels = (unsigned)n;
        else if (o[0] == 'a')
            sd->max_aniso = (unsigned)n;
        else
            t->pitch = n;
    } else {
        return fail(c, "unknown texture option '%s'", o);
    }
    return true;
}

/* tex.GEOM.FORMAT[SIZE]=INIT:OPTIONS or surf.GEOM.FORMAT[SIZE]=INIT:out. */
static bool parse_texarg(const argctx_t *c, const char *text, rt_buffer_t *b)
{
    memset(b, 0, sizeof *b);
    rt_tex_t *t = &b->tex;
    char *s = strdup(text), *p;
    bool ok = false;
    if (!s)
        return fail(c, "out of memory");
    t->kind = s[0] == 't' ? RT_RES_TEX : RT_RES_SURF;
    p = s + (t->kind == RT_RES_TEX ? 4 : 5);
    char *dot = strchr(p, '.'), *br = strchr(p, '[');
    if (!dot || !br || dot > br) {
        fail(c, "expected %s.GEOMETRY.FORMAT[SIZE] in '%s'", t->kind == RT_RES_TEX ? "tex" : "surf", text);
        goto done;
    }
    *dot = 0;
    unsigned g = 0;
    while (g < 9 && strcmp(p, geom_names[g]))
        g++;
    if (g == 9 || (t->kind == RT_RES_SURF && g >= RT_G_LIN)) {
        fail(c, "unknown geometry '%s' (1d 2d 3d a1d a2d cube acube%s)", p, t->kind == RT_RES_TEX ? " lin pitch" : "");
        goto done;
    }
    t->geom = (rt_geom_t)g;
    /* FORMAT: u8 s8 u16 s16 u32 s32 f16 f32, then x1, x2 or x4 */
    char *fmt = dot + 1;
    *br = 0;
    static const char *const fnames[] = { "u8", "u16", "u32", "s8", "s16", "s32", "f16", "f32" };
    static const isa_type_t ftypes[] = { ISA_T_U8, ISA_T_U16, ISA_T_U32, ISA_T_S8, ISA_T_S16, ISA_T_S32, ISA_T_F16, ISA_T_F32 };
    char *xs = strchr(fmt, 'x');
    unsigned ch = 1;
    if (xs) {
        *xs = 0;
        ch = (unsigned)atoi(xs + 1);
        if (strcmp(xs + 1, "1") && strcmp(xs + 1, "2") && strcmp(xs + 1, "4")) {
            fail(c, "channels 'x%s': x1, x2 or x4", xs + 1);
            goto done;
        }
    }
    unsigned fi = 0;
    while (fi < 8 && strcmp(fmt, fnames[fi]))
        fi++;
    if (fi == 8) {
        fail(c, "unknown format '%s' (u8 s8 u16 s16 u32 s32 f16 f32, then x1 x2 x4)", fmt);
        goto done;
    }
    char *close = strchr(br + 1, ']');
    if (!close) {
        fail(c, "expected ']' in '%s'", text);
        goto done;
    }
    *close = 0;
    uint64_t dims[3] = { 0, 0, 0 };
    unsigned nd = 0;
    for (char *q = br + 1; q && nd < 3; nd++) {
        char *comma = strchr(q, ',');
        if (comma)
            *comma = 0;
        const char *err;
        if (!rt_elem_parse(q, ISA_T_U32, &dims[nd], &err) || q[0] == '-' || dims[nd] == 0) {
            fail(c, "bad size '%s'", q);
            goto done;
        }
        q = comma ? comma + 1 : NULL;
        if (q && nd == 2) {
            fail(c, "at most three sizes");
            goto done;
        }
    }
    if (nd != geom_ndims[g]) {
        fail(c, "%s.%s takes %u size%s", t->kind == RT_RES_TEX ? "tex" : "surf", geom_names[g], geom_ndims[g],
             geom_ndims[g] == 1 ? "" : "s");
        goto done;
    }
    ex_array_desc_t *q = &t->array;
    q->format = (ex_fmt_t)fi;
    q->channels = ch;
    q->levels = 1;
    switch (t->geom) {
    case RT_G_1D: case RT_G_LIN: q->width = (uint32_t)dims[0]; break;
    case RT_G_2D: case RT_G_PITCH: q->width = (uint32_t)dims[0]; q->height = (uint32_t)dims[1]; break;
    case RT_G_3D: q->width = (uint32_t)dims[0]; q->height = (uint32_t)dims[1]; q->depth = (uint32_t)dims[2]; break;
    case RT_G_A1D: q->width = (uint32_t)dims[0]; q->depth = (uint32_t)dims[1]; q->flags = EX_ARRAY_LAYERED; break;
    case RT_G_A2D: q->width = (uint32_t)dims[0]; q->height = (uint32_t)dims[1]; q->depth = (uint32_t)dims[2];
        q->flags = EX_ARRAY_LAYERED; break;
    case RT_G_CUBE: q->width = q->height = (uint32_t)dims[0]; q->depth = 6; q->flags = EX_ARRAY_CUBE; break;
    case RT_G_ACUBE: q->width = q->height = (uint32_t)dims[0]; q->depth = (uint32_t)(6 * dims[1]);
        q->flags = EX_ARRAY_CUBE | EX_ARRAY_LAYERED; break;
    }
    if (t->kind == RT_RES_SURF)
        q->flags |= EX_ARRAY_SURFACE;
    /* The sampler's defaults: point filtering, clamp, unnormalized coordinates, texels
     * read as they are stored, every mipmap level usable. */
    ex_tex_desc_t *sd = &t->sampler;
    sd->address[0] = sd->address[1] = sd->address[2] = EX_ADDR_CLAMP;
    sd->flags = EX_TEXF_READ_AS_INTEGER;
    sd->max_lod = -1;   /* resolved below */
    /* =INIT, then :options */
    char *rest = close + 1, *init = NULL;
    if (*rest == '=') {
        init = rest + 1;
        rest = strchr(init, ':');
        if (rest)
            *rest++ = 0;
        else
            rest = NULL;
    } else if (*rest == ':') {
        rest++;
    } else if (*rest) {
        fail(c, "unexpected '%s' after the size", rest);
        goto done;
    } else {
        rest = NULL;
    }
    while (rest) {
        char *colon = strchr(rest, ':');
        if (colon)
            *colon = 0;
        if (!tex_option(c, b, rest))
            goto done;
        rest = colon ? colon + 1 : NULL;
    }
    if (q->levels == 0 || (q->levels > 1 && (t->geom == RT_G_LIN || t->geom == RT_G_PITCH))) {
        fail(c, "levels=%u: %s", q->levels, q->levels ? "only arrays have mipmap levels" : "at least 1");
        goto done;
    }
    if (sd->max_lod < 0)
        sd->max_lod = (float)(q->levels - 1);
    if (t->geom == RT_G_PITCH) {
        uint64_t row = (uint64_t)q->width * ch * ex_fmt_bytes(q->format);
        if (!t->pitch)
            t->pitch = (row + 127) / 128 * 128;
        if (t->pitch < row) {
            fail(c, "pitch=%llu is less than a row (%llu bytes)", (unsigned long long)t->pitch, (unsigned long long)row);
            goto done;
        }
    } else if (t->pitch) {
        fail(c, "pitch= is for tex.pitch");
        goto done;
    }
    uint64_t texels = t->geom == RT_G_LIN || t->geom == RT_G_PITCH ? (uint64_t)q->width * (q->height ? q->height : 1)
                                                                    : rt_tex_texels(q);
    b->type = ftypes[fi];
    b->count = texels * ch;
    if (b->count > ((uint64_t)1 << 36)) {
        fail(c, "%llu elements is too large", (unsigned long long)b->count);
        goto done;
    }
    if (init)
        ok = buffer_init(c, b, true, init);
    else {
        b->bytes = b->count * elem_bytes(b->type);
        ok = (b->host = buf_alloc(b->bytes)) != NULL || fail(c, "out of memory");
    }
done:
    free(s);
    return ok;
}
/*}=====================================================================*/

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
        } else if (bt != ISA_T_NONE || !strncmp(text, "tex.", 4) || !strncmp(text, "surf.", 5)) {
            bool ptr = p->ndims == 0 && p->vec <= 1 && isa_types[p->type].bits == 64 &&
                       isa_types[p->type].cls != ISA_TC_FLOAT;
            ok = ptr ? (bt != ISA_T_NONE ? parse_buffer(&c, text, bt, &out->bufs[out->nbuf])
                                         : parse_texarg(&c, text, &out->bufs[out->nbuf]))
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

/* The module's .texref or .surfref named by argument text (NAME=tex... or NAME=surf...),
 * or ISA_NONE. */
static uint32_t ref_of(const isa_module_t *m, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq || (strncmp(eq + 1, "tex.", 4) != 0 && strncmp(eq + 1, "surf.", 5) != 0))
        return ISA_NONE;
    size_t n = (size_t)(eq - text);
    for (uint32_t i = 0; i < m->nvar; i++) {
        const isa_var_t *v = &m->vars[i];
        if (v->opaque && !(v->flags & ISA_VARF_FSCOPE) && strlen(v->name) == n && !strncmp(v->name, text, n))
            return i;
    }
    return ISA_NONE;
}

isa_status_t rt_args_parse_module(const isa_module_t *m, uint32_t entry, int argc, char **argv, FILE *diag,
                                  rt_args_t *out)
{
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    uint32_t *refs = calloc((size_t)argc + 1, sizeof *refs);
    int npos = 0, nref = 0;
    if (!pos || !refs) {
        free(pos);
        free(refs);
        fprintf(diag, "ptxrun: error: out of memory\n");
        return ISA_ST_NOMEM;
    }
    for (int i = 0; i < argc; i++) {
        uint32_t v = ref_of(m, argv[i]);
        if (v == ISA_NONE)
            pos[npos++] = argv[i];
        else
            refs[nref++] = (uint32_t)i;
    }
    isa_status_t st = rt_args_parse(&m->funcs[entry], npos, pos, diag, out);
    if (st == ISA_ST_OK && nref) {
        rt_buffer_t *nb = realloc(out->bufs, (out->nbuf + (size_t)nref) * sizeof *nb);
        if (!nb) {
            fprintf(diag, "ptxrun: error: out of memory\n");
            st = ISA_ST_NOMEM;
        } else {
            out->bufs = nb;
        }
        for (int k = 0; k < nref && st == ISA_ST_OK; k++) {
            const char *text = argv[refs[k]];
            uint32_t vi = ref_of(m, text);
            const isa_var_t *v = &m->vars[vi];
            argctx_t c = { diag, (uint32_t)refs[k], v->name };
            rt_buffer_t *b = &out->bufs[out->nbuf];
            memset(b, 0, sizeof *b);
            bool tex = strncmp(strchr(text, '=') + 1, "tex.", 4) == 0;
            bool ok = parse_texarg(&c, strchr(text, '=') + 1, b);
            out->nbuf++;
            if (ok && v->opaque == ISA_D_SAMPLERREF + 1)
                ok = fail(&c, "%s is a .samplerref: its state is its initializer; only .texref and .surfref "
                          "variables are bound", v->name);
            else if (ok && v->opaque != (tex ? ISA_D_TEXREF : ISA_D_SURFREF) + 1)
                ok = fail(&c, "%s is a .%s: it takes a %s argument", v->name, isa_dirs[v->opaque - 1].text + 1,
                          v->opaque == ISA_D_TEXREF + 1 ? "tex." : "surf.");
            for (uint32_t j = 0; ok && j + 1 < out->nbuf; j++)
                if (out->bufs[j].ref == v->name)
                    ok = fail(&c, "%s is bound twice", v->name);
            b->ref = v->name;
            b->ref_var = vi;
            if (!ok)
                st = ISA_ST_USAGE;
        }
        if (st != ISA_ST_OK)
            rt_args_free(out);
    }
    free(pos);
    free(refs);
    return st;
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
    out->bufs = calloc(a->nbuf > np ? a->nbuf : np, sizeof *out->bufs);
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
