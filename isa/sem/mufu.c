/* mufu.c: the recorded tables of the multi-function unit (mufu.h), embedded compressed
 * (isa/sem/mufu/NAME.zst, written by tests/mufu/tables.py) and expanded on first use. */
#include "isa/sem/mufu.h"
#include "isa/sem/sem.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* The compressed tables, placed in the library by the assembler. */
#define MUFU_BLOB(name)                                                          \
    ".section .rodata\n.balign 16\n.hidden mufu_" name "\n.hidden mufu_" name "_end\n" \
    "mufu_" name ":\n.incbin \"isa/sem/mufu/" name ".zst\"\nmufu_" name "_end:\n.previous\n"
__asm__(MUFU_BLOB("rcp") MUFU_BLOB("rsq") MUFU_BLOB("sqrt") MUFU_BLOB("lg2") MUFU_BLOB("lg2m")
        MUFU_BLOB("ex2") MUFU_BLOB("sin") MUFU_BLOB("cos") MUFU_BLOB("h16") MUFU_BLOB("rcp64")
        MUFU_BLOB("rsq64") MUFU_BLOB("tanh") MUFU_BLOB("texs8")
        MUFU_BLOB("srgbcut"));
#define MUFU_EXTERN(name) \
    extern const unsigned char mufu_##name[], mufu_##name##_end[] __attribute__((visibility("hidden")));
MUFU_EXTERN(rcp) MUFU_EXTERN(rsq) MUFU_EXTERN(sqrt) MUFU_EXTERN(lg2) MUFU_EXTERN(lg2m)
MUFU_EXTERN(ex2) MUFU_EXTERN(sin) MUFU_EXTERN(cos) MUFU_EXTERN(h16) MUFU_EXTERN(rcp64)
MUFU_EXTERN(rsq64) MUFU_EXTERN(tanh) MUFU_EXTERN(texs8) MUFU_EXTERN(srgbcut)

static const struct {
    const char *name;
    const unsigned char *data, *end;
    uint32_t n;
} blobs[ISA_MUFU_NTABLES] = {
    [ISA_MUFU_RCP]    = { "rcp", mufu_rcp, mufu_rcp_end, 1u << 23 },
    [ISA_MUFU_RSQ]    = { "rsq", mufu_rsq, mufu_rsq_end, 1u << 24 },
    [ISA_MUFU_SQRT]   = { "sqrt", mufu_sqrt, mufu_sqrt_end, 1u << 24 },
    [ISA_MUFU_LG2]    = { "lg2", mufu_lg2, mufu_lg2_end, 1u << 23 },
    [ISA_MUFU_LG2M]   = { "lg2m", mufu_lg2m, mufu_lg2m_end, 1u << 23 },
    [ISA_MUFU_EX2]    = { "ex2", mufu_ex2, mufu_ex2_end, 1u << 23 },
    [ISA_MUFU_SIN]    = { "sin", mufu_sin, mufu_sin_end, 1u << 23 },
    [ISA_MUFU_COS]    = { "cos", mufu_cos, mufu_cos_end, 1u << 23 },
    [ISA_MUFU_H16]    = { "h16", mufu_h16, mufu_h16_end, 1u << 18 },
    [ISA_MUFU_RCP64H] = { "rcp64", mufu_rcp64, mufu_rcp64_end, 1u << 20 },
    [ISA_MUFU_RSQ64H] = { "rsq64", mufu_rsq64, mufu_rsq64_end, 1u << 21 },
    [ISA_MUFU_TANH]   = { "tanh", mufu_tanh, mufu_tanh_end, 6684672 },
    [ISA_MUFU_TEX_S8] = { "texs8", mufu_texs8, mufu_texs8_end, 65281 },
    [ISA_MUFU_TEX_SRGB] = { "srgbcut", mufu_srgbcut, mufu_srgbcut_end, 65536 },
};

const isa_mufu_tab_t *_Atomic isa_mufu_tabs[ISA_MUFU_NTABLES];
static pthread_mutex_t expand_lock = PTHREAD_MUTEX_INITIALIZER;

static _Noreturn void broken(const char *name, const char *why)
{
    fprintf(stderr, "ptxemu: internal error: the embedded table isa/sem/mufu/%s.zst %s\n", name, why);
    abort();
}

/* The decoder of tables.py's format: fed the decompressed bytes piecewise. */
typedef struct {
    isa_mufu_tab_t *t;
    isa_mufu_block_t *blk;
    int8_t *off;
    uint32_t *wide;
    size_t nwide, capwide;
    uint32_t i, prev, blkv[16];
    unsigned char pend[5];          /* an escape whose bytes are still arriving */
    unsigned npend;
    uint8_t *res;                   /* a predicted table's residuals (mufu.h), else NULL */
    isa_mufu_table_t which;
    bool far;                       /* an entry of it further from the prediction than 2 bits hold */
    uint32_t cfirst, ccnt, cval[4096]; /* its entries not yet turned into residuals */
} decoder_t;

ISA_HOT static void predict_chunk(isa_mufu_table_t which, uint32_t i0, uint32_t cnt, uint32_t *pred);

/* The residuals of the entries collected in d->cval (a whole number of blocks). */
static void flush_residuals(decoder_t *d)
{
    static uint32_t pred[4096];           /* under expand_lock */
    uint32_t bad = 0;
    predict_chunk(d->which, d->cfirst, d->ccnt, pred);
    for (uint32_t k = 0; k < d->ccnt; k++) {
        uint32_t i = d->cfirst + k, r = d->cval[k] - pred[k] + 2;      /* -2..1 as 0..3 */
        bad |= r > 3;
        d->res[i >> 2] |= (uint8_t)(((r - 2) & 3) << ((i & 3) * 2));
    }
    /* the lookups' own prediction (mufu.h) must agree with this one */
    for (uint32_t k = 0; k < d->ccnt && k < 16; k++)
        bad |= pred[k] != isa_mufu_predict(d->which, d->cfirst + k);
    d->far |= bad != 0;
    d->ccnt = 0;
}

/* Block `first >> 4` of the table is complete with cnt entries in d->blkv: narrow (a base
 * and byte offsets) where its entries lie within a byte of the first, else whole. */
static void finish_block(decoder_t *d, uint32_t first, uint32_t cnt)
{
    if (d->res) {
        /* a predicted table keeps each entry's residual from the prediction only */
        if (d->ccnt == 0)
            d->cfirst = first;
        memcpy(d->cval + d->ccnt, d->blkv, cnt * sizeof *d->blkv);
        d->ccnt += cnt;
        if (d->ccnt == sizeof d->cval / sizeof *d->cval)
            flush_residuals(d);
        return;
    }
    uint32_t base = d->blkv[0];
    int32_t o[16] = { 0 };
    bool narrow = true;
    if (cnt == 16) {   /* every block but a last short one: a fixed count the compiler unrolls */
        int32_t lo = 0, hi = 0;
        for (uint32_t k = 0; k < 16; k++) {
            o[k] = (int32_t)(d->blkv[k] - base);
            lo = o[k] < lo ? o[k] : lo;
            hi = o[k] > hi ? o[k] : hi;
        }
        narrow = lo >= -128 && hi <= 127;
    } else {
        for (uint32_t k = 0; k < cnt; k++) {
            o[k] = (int32_t)(d->blkv[k] - base);
            narrow = narrow && o[k] >= -128 && o[k] <= 127;
        }
    }
    isa_mufu_block_t *b = &d->blk[first >> 4];
    b->base = base;
    if (narrow) {
        b->wide = ISA_MUFU_NARROW;
        int8_t *off = d->off + first;
        if (cnt == 16)
            for (uint32_t k = 0; k < 16; k++)
                off[k] = (int8_t)o[k];
        else
            for (uint32_t k = 0; k < cnt; k++)
                off[k] = (int8_t)o[k];
        return;
    }
    if (d->nwide + 16 > d->capwide) {
        d->capwide = d->capwide ? 2 * d->capwide : 4096;
        d->wide = realloc(d->wide, d->capwide * sizeof *d->wide);
        if (!d->wide) {
            fprintf(stderr, "ptxemu: out of memory expanding a multi-function-unit table\n");
            abort();
        }
    }
    b->wide = (uint32_t)d->nwide;
    memcpy(d->wide + d->nwide, d->blkv, cnt * sizeof *d->wide);
    d->nwide += 16;
}

static void put(decoder_t *d, uint32_t v)
{
    uint32_t i = d->i++;
    d->prev = v;
    d->blkv[i & 15] = v;
    if ((i & 15) == 15 || d->i == d->t->n)
        finish_block(d, i & ~15u, (i & 15) + 1);
}

static void feed(decoder_t *d, const unsigned char *p, size_t n, const char *name)
{
    size_t k = 0;
    while (k < n) {
        if (d->npend) {
            d->pend[d->npend++] = p[k++];
            if (d->npend == 5) {
                d->npend = 0;
                if (d->i >= d->t->n)
                    broken(name, "has more entries than it should");
                put(d, (uint32_t)d->pend[1] | (uint32_t)d->pend[2] << 8 |
                       (uint32_t)d->pend[3] << 16 | (uint32_t)d->pend[4] << 24);
            }
            continue;
        }
        if (p[k] == 0x80) {
            d->pend[d->npend++] = p[k++];
            continue;
        }
        /* a run of deltas: the common case, kept in registers */
        uint32_t i = d->i, prev = d->prev, lim = d->t->n;
        while (k < n && p[k] != 0x80) {
            if (i >= lim)
                broken(name, "has more entries than it should");
            prev += (uint32_t)(int32_t)(int8_t)p[k++];
            d->blkv[i & 15] = prev;
            i++;
            if ((i & 15) == 0 || i == lim)
                finish_block(d, (i - 1) & ~15u, ((i - 1) & 15) + 1);
        }
        d->i = i;
        d->prev = prev;
    }
}

/* The predictions of entries i0 .. i0 + cnt - 1 of a predicted table (mufu.h), built for
 * the host's vector units: expanding the three tables then costs about what decompressing
 * them does. */
ISA_HOT static void predict_chunk(isa_mufu_table_t which, uint32_t i0, uint32_t cnt, uint32_t *pred)
{
    switch (which) {
    case ISA_MUFU_RCP:
        for (uint32_t k = 0; k < cnt; k++)
            pred[k] = f32_bits(1.0f / f32_of(0x3f800000u + i0 + k));
        break;
    case ISA_MUFU_RSQ:
        for (uint32_t k = 0; k < cnt; k++)
            pred[k] = f32_bits((float)(1.0 / sqrt((double)f32_of(0x3f800000u + i0 + k))));
        break;
    default:
        for (uint32_t k = 0; k < cnt; k++)
            pred[k] = f32_bits(sqrtf(f32_of(0x3f800000u + i0 + k)));
        break;
    }
}

const isa_mufu_tab_t *isa_mufu_expand(isa_mufu_table_t which)
{
    pthread_mutex_lock(&expand_lock);
    const isa_mufu_tab_t *done = atomic_load_explicit(&isa_mufu_tabs[which], memory_order_acquire);
    if (done) {
        pthread_mutex_unlock(&expand_lock);
        return done;
    }
    const char *name = blobs[which].name;
    uint32_t n = blobs[which].n;
    isa_mufu_tab_t *t = calloc(1, sizeof *t);
    decoder_t d = { .t = t };
    t->n = n;
    d.which = which;
    if (isa_mufu_predicted(which)) {
        d.res = calloc((n + 3) / 4, 1);
        d.blk = (isa_mufu_block_t *)d.res;  /* only tested for NULL below */
        d.off = (int8_t *)d.res;
    } else {
        d.blk = calloc((n + 15) / 16, sizeof *d.blk);
        d.off = calloc(n, 1);
    }
    ZSTD_DStream *z = ZSTD_createDStream();
    unsigned char buf[1 << 16];
    if (!t || !d.blk || !d.off || !z) {
        fprintf(stderr, "ptxemu: out of memory expanding a multi-function-unit table\n");
        abort();
    }
    ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, 27);
    ZSTD_inBuffer in = { blobs[which].data, (size_t)(blobs[which].end - blobs[which].data), 0 };
    size_t r = 1;
    while (in.pos < in.size || r != 0) {
        ZSTD_outBuffer out = { buf, sizeof buf, 0 };
        r = ZSTD_decompressStream(z, &out, &in);
        if (ZSTD_isError(r))
            broken(name, ZSTD_getErrorName(r));
        feed(&d, buf, out.pos, name);
        if (in.pos == in.size && out.pos == 0 && r != 0)
            broken(name, "is truncated");
    }
    ZSTD_freeDStream(z);
    if (d.res && d.ccnt)
        flush_residuals(&d);
    if (d.i != n || d.npend)
        broken(name, "has fewer entries than it should");
    t->blk = d.blk;
    t->off = d.off;
    t->wide = d.wide;
    if (isa_mufu_predicted(which)) {
        if (d.far)
            broken(name, "is further from its prediction than two bits hold (or predicted differently at lookup)");
        t->blk = NULL;
        t->off = NULL;
        free(d.wide);
        t->wide = NULL;
        t->res = d.res;
    }
    atomic_store_explicit(&isa_mufu_tabs[which], t, memory_order_release);
    pthread_mutex_unlock(&expand_lock);
    return t;
}
