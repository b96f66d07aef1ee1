/* object.c: CUDA arrays, texture and surface objects, and the device's handle table
 * that kernels name them through.
 *
 * A handle is (generation << 32) | (slot + 1): slot 0 stays invalid, and a destroyed
 * object's slot gets a new generation, so a stale handle names nothing.  Lookups (every
 * tex/suld a warp runs) read the table without a lock; creation and destruction take the
 * table's lock.  A destroyed object is unlinked at once and freed when no launch runs,
 * as the allocation registry frees its replaced arrays (device.c). */
#include "exec/tex/tex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t fmt_bytes[EX_FMT__COUNT] = { 1, 2, 4, 1, 2, 4, 2, 4 };

unsigned ex_fmt_bytes(ex_fmt_t f) { return (unsigned)f < EX_FMT__COUNT ? fmt_bytes[f] : 0; }

static isa_status_t refuse(char *msg, size_t size, const char *what)
{
    if (msg && size)
        snprintf(msg, size, "%s", what);
    return ISA_ST_USAGE;
}

/*{=====================================================================
 * Arrays
 *====================================================================*/
isa_status_t ex_array_new(ex_device_t *d, const ex_array_desc_t *desc, ex_array_t **out, char *msg, size_t size)
{
    (void)d;
    *out = NULL;
    const ex_array_desc_t *q = desc;
    if ((unsigned)q->format >= EX_FMT__COUNT)
        return refuse(msg, size, "unknown element format");
    if (q->channels != 1 && q->channels != 2 && q->channels != 4)
        return refuse(msg, size, "an array has 1, 2 or 4 channels");
    if (q->width == 0 || (q->depth && !q->height && !(q->flags & EX_ARRAY_LAYERED)))
        return refuse(msg, size, "an array needs a width (and a height when it has a depth)");
    if (q->flags & ~(unsigned)(EX_ARRAY_LAYERED | EX_ARRAY_SURFACE | EX_ARRAY_CUBE))
        return refuse(msg, size, "unknown array flags");
    if (q->flags & EX_ARRAY_CUBE) {
        if (q->width != q->height || q->depth == 0 || q->depth % 6 ||
            (!(q->flags & EX_ARRAY_LAYERED) && q->depth != 6))
            return refuse(msg, size, "a cube map is square with 6 faces (6 per cube map when layered)");
    }
    if ((q->flags & EX_ARRAY_LAYERED) && q->depth == 0)
        return refuse(msg, size, "a layered array needs its number of layers");
    unsigned levels = q->levels ? q->levels : 1;
    uint32_t big = q->width;
    bool layered = q->flags & (EX_ARRAY_LAYERED | EX_ARRAY_CUBE);
    if (q->height > big)
        big = q->height;
    if (!layered && q->depth > big)
        big = q->depth;
    unsigned maxlv = 1;
    while ((big >> maxlv) != 0)
        maxlv++;
    if (levels > maxlv || levels > EX_TEX_MAX_LEVELS)
        return refuse(msg, size, "more mipmap levels than the array's size allows");
    ex_array_t *a = calloc(1, sizeof *a);
    if (!a)
        return ISA_ST_NOMEM;
    a->desc = *q;
    a->desc.levels = levels;
    size_t texel = (size_t)fmt_bytes[q->format] * q->channels, total = 0;
    for (unsigned l = 0; l < levels; l++) {
        uint32_t w = q->width >> l, h = q->height >> l, dd = layered ? q->depth : q->depth >> l;
        a->extent[l][0] = w ? w : 1;
        a->extent[l][1] = q->height ? (h ? h : 1) : 1;
        a->extent[l][2] = q->depth ? (dd ? dd : 1) : 1;
        a->level_off[l] = total;
        total += texel * a->extent[l][0] * a->extent[l][1] * a->extent[l][2];
        total = (total + 63) & ~(size_t)63;
    }
    a->bytes = total;
    a->data = calloc(1, total ? total : 1);
    if (!a->data) {
        free(a);
        return ISA_ST_NOMEM;
    }
    atomic_init(&a->refs, 1);
    *out = a;
    return ISA_ST_OK;
}

static void array_release(ex_array_t *a)
{
    if (a && atomic_fetch_sub(&a->refs, 1) == 1) {
        free(a->data);
        free(a);
    }
}

void ex_array_free(ex_array_t *a) { array_release(a); }

const ex_array_desc_t *ex_array_desc(const ex_array_t *a) { return &a->desc; }

void *ex_array_level(ex_array_t *a, unsigned level, uint32_t out_extent[3])
{
    if (level >= a->desc.levels)
        return NULL;
    memcpy(out_extent, a->extent[level], sizeof a->extent[level]);
    return a->data + a->level_off[level];
}
/*}=====================================================================*/

/*{=====================================================================
 * The handle table
 *====================================================================*/
bool ex_textab_new(ex_device_t *d)
{
    ex_textab_t *t = calloc(1, sizeof *t);
    if (!t)
        return false;
    pthread_mutex_init(&t->lock, NULL);
    d->tex = t;
    return true;
}

static void obj_free(ex_texobj_t *o)
{
    array_release(o->array);
    free(o);
}

void ex_textab_reclaim(ex_device_t *d)
{
    ex_textab_t *t = d->tex;
    if (!t || atomic_load(&d->launches) != 0)
        return;
    for (ex_texobj_t *o = atomic_exchange(&t->retired, NULL), *n; o; o = n) {
        n = o->next;
        obj_free(o);
    }
}

void ex_textab_free(ex_device_t *d)
{
    ex_textab_t *t = d->tex;
    if (!t)
        return;
    for (unsigned c = 0; c < (1u << EX_TEX_CHUNK_BITS); c++) {
        _Atomic(ex_texobj_t *) *ch = atomic_load(&t->chunk[c]);
        if (!ch)
            continue;
        for (unsigned i = 0; i < EX_TEX_CHUNK; i++) {
            ex_texobj_t *o = atomic_load(&ch[i]);
            if (o)
                obj_free(o);
        }
        free(ch);
    }
    for (ex_texobj_t *o = atomic_load(&t->retired), *n; o; o = n) {
        n = o->next;
        obj_free(o);
    }
    free(t->free);
    free(t->gen);
    pthread_mutex_destroy(&t->lock);
    free(t);
    d->tex = NULL;
}

/* Put o in a free slot and give it its handle (the table's lock held). */
static isa_status_t slot_take(ex_textab_t *t, ex_texobj_t *o)
{
    uint32_t idx;
    if (t->nfree) {
        idx = t->free[--t->nfree];
    } else {
        if (t->used == EX_TEX_CHUNK << EX_TEX_CHUNK_BITS)
            return ISA_ST_NOMEM;
        idx = t->used;
        uint32_t c = idx / EX_TEX_CHUNK;
        if (!atomic_load(&t->chunk[c])) {
            _Atomic(ex_texobj_t *) *ch = calloc(EX_TEX_CHUNK, sizeof *ch);
            if (!ch)
                return ISA_ST_NOMEM;
            atomic_store(&t->chunk[c], ch);
        }
        if (idx >= t->capgen) {
            uint32_t cap = t->capgen ? t->capgen * 2 : 256;
            uint32_t *g = realloc(t->gen, cap * sizeof *g);
            if (!g)
                return ISA_ST_NOMEM;
            memset(g + t->capgen, 0, (cap - t->capgen) * sizeof *g);
            t->gen = g;
            t->capgen = cap;
        }
        t->used++;
    }
    o->handle = (uint64_t)t->gen[idx] << 32 | (idx + 1);
    atomic_store_explicit(&atomic_load(&t->chunk[idx / EX_TEX_CHUNK])[idx % EX_TEX_CHUNK], o, memory_order_release);
    return ISA_ST_OK;
}

/* Fill o's geometry and levels from its resource; ISA_ST_USAGE with the reason. */
static isa_status_t resolve(ex_device_t *d, ex_texobj_t *o, char *msg, size_t size)
{
    const ex_res_desc_t *r = &o->res;
    switch (r->kind) {
    case EX_RES_ARRAY:
    case EX_RES_MIPMAP: {
        ex_array_t *a = r->array;
        if (!a)
            return refuse(msg, size, "no array");
        if (r->kind == EX_RES_MIPMAP ? r->level != 0 : r->level >= a->desc.levels)
            return refuse(msg, size, "no such level of the array");
        const ex_array_desc_t *q = &a->desc;
        o->fmt = q->format;
        o->ch = (uint8_t)q->channels;
        o->cube = q->flags & EX_ARRAY_CUBE;
        o->layered = (q->flags & EX_ARRAY_LAYERED) || o->cube;
        o->geo = q->height == 0 ? EX_GEO_1D : (q->depth == 0 || o->layered) ? EX_GEO_2D : EX_GEO_3D;
        o->layers = o->layered ? q->depth : 1;
        /* an ARRAY resource is one level (of a mipmapped array, the one it names) */
        unsigned first = r->kind == EX_RES_ARRAY ? r->level : 0;
        o->nlevels = r->kind == EX_RES_ARRAY ? 1 : q->levels;
        unsigned tb = fmt_bytes[q->format] * q->channels;
        for (unsigned l = 0; l < o->nlevels; l++) {
            ex_level_t *lv = &o->lv[l];
            lv->base = a->data + a->level_off[first + l];
            lv->w = a->extent[first + l][0];
            lv->h = a->extent[first + l][1];
            lv->d = a->extent[first + l][2];
            lv->row = (uint64_t)lv->w * tb;
            lv->slice = lv->row * lv->h;
        }
        atomic_fetch_add(&a->refs, 1);
        o->array = a;
        break;
    }
    case EX_RES_LINEAR:
    case EX_RES_PITCH2D: {
        if ((unsigned)r->format >= EX_FMT__COUNT || (r->channels != 1 && r->channels != 2 && r->channels != 4))
            return refuse(msg, size, "unknown format or channel count");
        unsigned tb = fmt_bytes[r->format] * r->channels;
        uint64_t bytes = r->kind == EX_RES_LINEAR ? r->bytes : r->pitch * r->height;
        uint64_t lo, hi;
        if (r->kind == EX_RES_PITCH2D &&
            (r->width == 0 || r->height == 0 || r->pitch < (uint64_t)r->width * tb))
            return refuse(msg, size, "a pitched resource needs a width, a height and a pitch of at least a row");
        if (bytes == 0 || !ex_device_lookup(d, r->addr, &lo, &hi) || r->addr + bytes > hi || r->addr + bytes < r->addr)
            return refuse(msg, size, "the resource's memory is not all in one allocation");
        o->fmt = r->format;
        o->ch = (uint8_t)r->channels;
        o->geo = r->kind == EX_RES_LINEAR ? EX_GEO_LINEAR : EX_GEO_2D;
        o->layers = 1;
        o->nlevels = 1;
        ex_level_t *lv = &o->lv[0];
        lv->base = (uint8_t *)(uintptr_t)r->addr;
        lv->w = r->kind == EX_RES_LINEAR ? (uint32_t)(r->bytes / tb < UINT32_MAX ? r->bytes / tb : UINT32_MAX) : r->width;
        lv->h = r->kind == EX_RES_LINEAR ? 1 : r->height;
        lv->d = 1;
        lv->row = r->kind == EX_RES_LINEAR ? r->bytes : r->pitch;
        lv->slice = lv->row * lv->h;
        break;
    }
    default:
        return refuse(msg, size, "unknown resource kind");
    }
    o->tb = (uint8_t)(fmt_bytes[o->fmt] * o->ch);
    o->norm = (o->tex.flags & EX_TEXF_NORMALIZED_COORDS) || o->cube;
    return ISA_ST_OK;
}

static isa_status_t create(ex_device_t *d, ex_texobj_t *o, uint64_t *out, char *msg, size_t size)
{
    isa_status_t st = resolve(d, o, msg, size);
    if (st != ISA_ST_OK) {
        obj_free(o);
        return st;
    }
    ex_textab_t *t = d->tex;
    pthread_mutex_lock(&t->lock);
    st = slot_take(t, o);
    pthread_mutex_unlock(&t->lock);
    if (st != ISA_ST_OK) {
        obj_free(o);
        return st;
    }
    *out = o->handle;
    return ISA_ST_OK;
}

isa_status_t ex_tex_create(ex_device_t *d, const ex_res_desc_t *r, const ex_tex_desc_t *td, uint64_t *out, char *msg,
                           size_t size)
{
    for (unsigned i = 0; i < 3; i++)
        if ((unsigned)td->address[i] > EX_ADDR_BORDER)
            return refuse(msg, size, "unknown address mode");
    if ((unsigned)td->filter > EX_FILTER_LINEAR || (unsigned)td->mip_filter > EX_FILTER_LINEAR)
        return refuse(msg, size, "unknown filter mode");
    ex_texobj_t *o = calloc(1, sizeof *o);
    if (!o)
        return ISA_ST_NOMEM;
    o->res = *r;
    o->tex = *td;
    /* 8- and 16-bit integers are read as normalized floats unless the sampler says
     * otherwise; 32-bit integers always as integers (the driver refuses normalized reads
     * of them, as it refuses linear filtering of integers read as integers). */
    ex_fmt_t f = r->kind == EX_RES_ARRAY || r->kind == EX_RES_MIPMAP ? (r->array ? r->array->desc.format : EX_FMT_F32)
                                                                      : r->format;
    bool small = f == EX_FMT_U8 || f == EX_FMT_S8 || f == EX_FMT_U16 || f == EX_FMT_S16;
    if (!small && !(f == EX_FMT_F16 || f == EX_FMT_F32) && !(td->flags & EX_TEXF_READ_AS_INTEGER)) {
        free(o);
        return refuse(msg, size, "32-bit integers cannot be read as normalized floats");
    }
    o->as_float = f == EX_FMT_F16 || f == EX_FMT_F32 || (small && !(td->flags & EX_TEXF_READ_AS_INTEGER));
    if (!o->as_float && (td->filter == EX_FILTER_LINEAR || td->mip_filter == EX_FILTER_LINEAR)) {
        free(o);
        return refuse(msg, size, "linear filtering needs texels read as floats");
    }
    if ((td->flags & EX_TEXF_SRGB) && !(f == EX_FMT_U8 && o->as_float)) {
        free(o);
        return refuse(msg, size, "sRGB needs 8-bit unsigned texels read as normalized floats");
    }
    return create(d, o, out, msg, size);
}

isa_status_t ex_surf_create(ex_device_t *d, const ex_res_desc_t *r, uint64_t *out, char *msg, size_t size)
{
    if (r->kind != EX_RES_ARRAY || !r->array)
        return refuse(msg, size, "a surface is made on an array (or one level of a mipmapped array)");
    /* an array made without EX_ARRAY_SURFACE takes a surface too, as on the H100
     * (tests/apps/surfaces.cu: cudaCreateSurfaceObject succeeds there) */
    ex_texobj_t *o = calloc(1, sizeof *o);
    if (!o)
        return ISA_ST_NOMEM;
    o->surface = true;
    o->res = *r;
    return create(d, o, out, msg, size);
}

isa_status_t ex_tex_destroy(ex_device_t *d, uint64_t h)
{
    ex_textab_t *t = d->tex;
    pthread_mutex_lock(&t->lock);
    ex_texobj_t *o = (ex_texobj_t *)ex_tex_lookup(d, h);
    if (!o) {
        pthread_mutex_unlock(&t->lock);
        return ISA_ST_USAGE;
    }
    uint32_t idx = (uint32_t)h - 1;
    if (t->nfree == t->capfree) {
        uint32_t cap = t->capfree ? t->capfree * 2 : 64;
        uint32_t *f = realloc(t->free, cap * sizeof *f);
        if (!f) {
            pthread_mutex_unlock(&t->lock);
            return ISA_ST_NOMEM;
        }
        t->free = f;
        t->capfree = cap;
    }
    atomic_store(&atomic_load(&t->chunk[idx / EX_TEX_CHUNK])[idx % EX_TEX_CHUNK], NULL);
    t->gen[idx]++;
    t->free[t->nfree++] = idx;
    o->next = atomic_load(&t->retired);
    atomic_store(&t->retired, o);
    ex_textab_reclaim(d);
    pthread_mutex_unlock(&t->lock);
    return ISA_ST_OK;
}
/*}=====================================================================*/
