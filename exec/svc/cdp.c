/* cdp.c: dynamic parallelism (CUDA's device runtime, CDP2, as nvcc -rdc lowers it): a
 * thread asks for a parameter buffer for a kernel (__cudaCDP2GetParameterBufferV2), writes
 * the arguments into it and launches (__cudaCDP2LaunchDeviceV2).  The launches of a grid
 * are kept in order (ex_kids_t) and run when the grid has finished, each child grid
 * followed by its own children, before the next (depth first), tail launches last: an
 * execution the programming model allows (a parent grid is complete only once its children
 * are; work in one stream runs in order; a tail launch runs after the grid and its other
 * work).  Parameter buffers come from chunks of host memory registered as device memory,
 * freed when the host's launch is done. */
#include "exec/internal.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define CDP_CHUNK (1u << 20)
#define CDP_PENDING_MAX 2048        /* cudaLimitDevRuntimePendingLaunchCount's default */

/* The device runtime's error codes (cudaError_t). */
enum { CDP_OK = 0, CDP_INVALID_VALUE = 1, CDP_INVALID_CONFIGURATION = 9, CDP_PENDING = 69 };

void ex_kids_init(ex_kids_t *k)
{
    memset(k, 0, sizeof *k);
    pthread_mutex_init(&k->lock, NULL);
}

void ex_kids_free(ex_kids_t *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->v[i].params);
    free(k->v);
    pthread_mutex_destroy(&k->lock);
    memset(k, 0, sizeof *k);
}

void ex_cdp_release(ex_device_t *d)
{
    struct ex_cdp_chunk *c = d->cdp_chunks;
    while (c) {
        struct ex_cdp_chunk *n = c->next;
        ex_device_unmap(d, c->mem);
        free(c->mem);
        free(c);
        c = n;
    }
    d->cdp_chunks = NULL;
}

/* The bytes of entry's parameters, as they are laid out for a launch. */
static size_t param_bytes(const ex_program_t *p, uint32_t entry)
{
    const ex_func_t *f = &p->funcs[entry];
    size_t n = 0;
    for (uint32_t v = 0; v < f->ir->nparam; v++) {
        size_t e = (size_t)f->var_local[v] + isa_var_size(&f->ir->vars[v]);
        n = e > n ? e : n;
    }
    return n;
}

/* A 64-byte aligned piece of registered memory (under d->svc_lock); 0 when none is had. */
static uint64_t chunk_alloc(ex_device_t *d, size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    struct ex_cdp_chunk *c = d->cdp_chunks;
    if (!c || c->used + bytes > c->size) {
        size_t size = bytes > CDP_CHUNK ? bytes : CDP_CHUNK;
        struct ex_cdp_chunk *n = calloc(1, sizeof *n);
        uint8_t *mem = n ? aligned_alloc(256, size) : NULL;
        if (!mem || ex_device_map(d, mem, size) != ISA_ST_OK) {
            free(mem);
            free(n);
            return 0;
        }
        memset(mem, 0, size);
        n->mem = mem;
        n->size = size;
        n->next = c;
        d->cdp_chunks = c = n;
    }
    uint64_t a = (uint64_t)(uintptr_t)c->mem + c->used;
    c->used += bytes;
    return a;
}

uint64_t ex_cdp_param_buffer(ex_warp_t *w, uint64_t func, const uint32_t grid[3], const uint32_t block[3],
                             uint32_t shared)
{
    ex_cta_t *c = w->cta;
    ex_program_t *p = c->p;
    ex_kids_t *k = c->kids;
    uint64_t fi = func - EX_WIN_FUNC;
    if (!k || (func & EX_WIN_MASK) != EX_WIN_FUNC || fi >= p->m->nfunc || !p->m->funcs[fi].is_entry ||
        !p->m->funcs[fi].has_body)
        return 0;
    size_t pb = param_bytes(p, (uint32_t)fi);
    ex_device_t *d = p->dev;
    pthread_mutex_lock(&d->svc_lock);
    uint64_t buf = chunk_alloc(d, pb ? pb : 1);
    pthread_mutex_unlock(&d->svc_lock);
    if (!buf)
        return 0;
    pthread_mutex_lock(&k->lock);
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 16;
        ex_kid_t *nv = realloc(k->v, cap * sizeof *nv);
        if (!nv) {
            pthread_mutex_unlock(&k->lock);
            return 0;
        }
        k->v = nv;
        k->cap = cap;
    }
    ex_kid_t *e = &k->v[k->n++];
    memset(e, 0, sizeof *e);
    e->entry = (uint32_t)fi;
    memcpy(e->grid, grid, sizeof e->grid);
    memcpy(e->block, block, sizeof e->block);
    e->shared = shared;
    e->buf = buf;
    e->psize = pb;
    pthread_mutex_unlock(&k->lock);
    return buf;
}

uint32_t ex_cdp_launch(ex_warp_t *w, uint64_t buf, uint64_t stream)
{
    ex_cta_t *c = w->cta;
    ex_kids_t *k = c->kids;
    if (!k)
        return CDP_INVALID_VALUE;
    pthread_mutex_lock(&k->lock);
    ex_kid_t *e = NULL;
    for (size_t i = k->n; i-- > 0;)
        if (k->v[i].buf == buf && !k->v[i].launched) {
            e = &k->v[i];
            break;
        }
    uint32_t r = CDP_OK;
    if (!e) {
        r = CDP_INVALID_VALUE;             /* no buffer of GetParameterBuffer */
    } else if (k->launched >= CDP_PENDING_MAX) {
        r = CDP_PENDING;
    } else {
        ex_launch_t l = *c->l;
        memcpy(l.grid, e->grid, sizeof l.grid);
        memcpy(l.block, e->block, sizeof l.block);
        l.shared_bytes = e->shared;
        l.cooperative = false;
        memset(l.cluster, 0, sizeof l.cluster);
        char msg[256];
        if (ex_launch_check(c->p, e->entry, &l, msg, sizeof msg) != ISA_ST_OK) {
            r = CDP_INVALID_CONFIGURATION;
        } else if (e->psize && !(e->params = malloc(e->psize))) {
            r = CDP_INVALID_VALUE;
        } else {
            memcpy(e->params, (const void *)(uintptr_t)buf, e->psize);
            e->launched = 1;
            e->tail = stream == EX_CDP_TAIL_LAUNCH;
            k->launched++;
        }
    }
    pthread_mutex_unlock(&k->lock);
    return r;
}

uint32_t ex_cdp_copy(ex_warp_t *w, uint64_t dst, uint64_t src, uint64_t bytes, bool set, uint32_t value,
                     uint64_t stream)
{
    ex_kids_t *k = w->cta->kids;
    if (!k)
        return CDP_INVALID_VALUE;
    pthread_mutex_lock(&k->lock);
    uint32_t r = CDP_OK;
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 16;
        ex_kid_t *nv = realloc(k->v, cap * sizeof *nv);
        if (!nv)
            r = CDP_INVALID_VALUE;
        else {
            k->v = nv;
            k->cap = cap;
        }
    }
    if (r == CDP_OK) {
        ex_kid_t *e = &k->v[k->n++];
        memset(e, 0, sizeof *e);
        e->op = set ? EX_KID_SET : EX_KID_COPY;
        e->buf = dst;
        e->grid[0] = (uint32_t)src;
        e->grid[1] = (uint32_t)(src >> 32);
        e->psize = bytes;
        e->shared = value;
        e->launched = 1;
        e->tail = stream == EX_CDP_TAIL_LAUNCH;
        k->launched++;
    }
    pthread_mutex_unlock(&k->lock);
    return r;
}

bool ex_cdp_run_copy(ex_program_t *p, const ex_kid_t *e, char *msg, size_t size)
{
    uint64_t src = (uint64_t)e->grid[0] | (uint64_t)e->grid[1] << 32;
    if (!e->psize)
        return true;
    if (!ex_global_ok(p, (uintptr_t)e->buf, e->psize)) {
        snprintf(msg, size, "%s in a kernel to 0x%llx (%zu bytes), outside every allocation",
                 e->op == EX_KID_SET ? "cudaMemsetAsync" : "cudaMemcpyAsync", (unsigned long long)e->buf, e->psize);
        return false;
    }
    if (e->op == EX_KID_SET) {
        /* measured (app test cdp): the H100's device runtime writes zeros, whatever the
         * value (0x7f, 0x22 and 0x33 tried), and returns cudaSuccess */
        memset((void *)(uintptr_t)e->buf, 0, e->psize);
        return true;
    }
    if (!ex_global_ok(p, (uintptr_t)src, e->psize)) {
        snprintf(msg, size, "cudaMemcpyAsync in a kernel from 0x%llx (%zu bytes), outside every allocation",
                 (unsigned long long)src, e->psize);
        return false;
    }
    memmove((void *)(uintptr_t)e->buf, (const void *)(uintptr_t)src, e->psize);
    return true;
}

/* cudaGetErrorString in a kernel: the runtime's text for the device runtime's codes, in
 * registered memory the kernel can read (kept until the host's launch is done). */
uint64_t ex_cdp_error_string(ex_device_t *d, uint32_t err)
{
    static const struct { uint32_t code; const char *text; } texts[] = {
        { CDP_OK, "no error" },
        { CDP_INVALID_VALUE, "invalid argument" },
        { 2, "out of memory" },
        { CDP_INVALID_CONFIGURATION, "invalid configuration argument" },
        { CDP_PENDING, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount" },
    };
    const char *t = "unrecognized error code";
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        if (texts[i].code == err)
            t = texts[i].text;
    pthread_mutex_lock(&d->svc_lock);
    uint64_t a = chunk_alloc(d, strlen(t) + 1);
    if (a)
        memcpy((void *)(uintptr_t)a, t, strlen(t) + 1);
    pthread_mutex_unlock(&d->svc_lock);
    return a;
}
