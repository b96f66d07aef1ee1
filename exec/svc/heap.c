/* heap.c: the device heap behind malloc and free.  One region of the device's heap size
 * (8 MiB by default, cudaLimitMallocHeapSize), reserved at the first malloc and mapped as
 * global memory, so that blocks outlive the launch until freed.  Blocks are 16-byte
 * aligned with a 16-byte header (size, a check word); freed blocks go to free lists by
 * size class (16-byte steps up to 4 KiB), larger ones to a first-fit list, and the rest
 * of the region is taken in order.  One lock per call of a warp (all its lanes), so a
 * warp-wide malloc takes the lock once. */
#include "exec/internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HDR        16u
#define MAGIC_USED 0x6d616c6cu   /* "mall" */
#define MAGIC_FREE 0x66726565u   /* "free" */
#define NCLASS     256           /* 16-byte classes up to 4096 bytes */

typedef struct blk {
    uint64_t    size;            /* bytes after the header */
    uint32_t    magic;
    uint32_t    pad;
} blk_t;

typedef struct free_blk {
    blk_t            h;
    struct free_blk *next;
} free_blk_t;

struct ex_heap {
    uint8_t    *base;
    uint64_t    size, top;       /* the region and the part handed out in order */
    free_blk_t *cls[NCLASS + 1]; /* [NCLASS]: larger blocks */
};

static uint64_t round16(uint64_t n) { return (n + 15) & ~15ull; }

/* The heap, made at first use; NULL when it cannot be. */
static ex_heap_t *heap_get(ex_device_t *d)
{
    if (d->heap)
        return d->heap;
    ex_heap_t *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->size = d->heap_size;
    void *m = mmap(NULL, h->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED || ex_device_map(d, m, h->size) != ISA_ST_OK) {
        if (m != MAP_FAILED)
            munmap(m, h->size);
        free(h);
        return NULL;
    }
    h->base = m;
    d->heap = h;
    return h;
}

void ex_heap_free_all(ex_device_t *d)
{
    ex_heap_t *h = d->heap;
    if (!h)
        return;
    ex_device_unmap(d, h->base);
    munmap(h->base, h->size);
    free(h);
    d->heap = NULL;
}

/* Under svc_lock: a block of n bytes (16-byte aligned), or 0. */
static uint64_t heap_alloc(ex_heap_t *h, uint64_t n)
{
    uint64_t need = round16(n ? n : 1);
    if (need > h->size)
        return 0;
    unsigned c = need / 16 <= NCLASS ? (unsigned)(need / 16) : NCLASS;
    blk_t *b = NULL;
    if (c < NCLASS && h->cls[c]) {
        free_blk_t *f = h->cls[c];
        h->cls[c] = f->next;
        b = &f->h;
    } else {
        /* first fit among the larger free blocks (for a large request) */
        for (free_blk_t **pp = &h->cls[NCLASS]; c == NCLASS && *pp; pp = &(*pp)->next) {
            if ((*pp)->h.size >= need) {
                b = &(*pp)->h;
                *pp = (*pp)->next;
                break;
            }
        }
        if (!b) {
            if (h->top + HDR + need > h->size)
                return 0;
            b = (blk_t *)(void *)(h->base + h->top);
            b->size = need;
            h->top += HDR + need;
        }
    }
    b->magic = MAGIC_USED;
    return (uint64_t)(uintptr_t)b + HDR;
}

/* Under svc_lock: free the block at a; false when a is no block of the heap in use. */
static bool heap_release(ex_heap_t *h, uint64_t a)
{
    if (!h || a < (uintptr_t)h->base + HDR || a >= (uintptr_t)h->base + h->top || (a & 15))
        return false;
    blk_t *b = (blk_t *)(uintptr_t)(a - HDR);
    if (b->magic != MAGIC_USED)
        return false;
    b->magic = MAGIC_FREE;
    free_blk_t *f = (free_blk_t *)b;
    unsigned c = b->size / 16 <= NCLASS ? (unsigned)(b->size / 16) : NCLASS;
    if (c < NCLASS) {
        f->next = h->cls[c];
        h->cls[c] = f;
    } else {
        f->next = h->cls[NCLASS];
        h->cls[NCLASS] = f;
    }
    return true;
}

void ex_svc_malloc(ex_device_t *d, const uint64_t *size, uint64_t *out, uint32_t mask)
{
    pthread_mutex_lock(&d->svc_lock);
    ex_heap_t *h = heap_get(d);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        out[l] = h ? heap_alloc(h, size[l]) : 0;
    }
    pthread_mutex_unlock(&d->svc_lock);
}

/* The first lane of mask whose pointer is no block in use (0xff: none). */
unsigned ex_svc_free(ex_device_t *d, const uint64_t *ptr, uint32_t mask)
{
    unsigned bad = 0xff;
    pthread_mutex_lock(&d->svc_lock);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (ptr[l] && !heap_release(d->heap, ptr[l]) && bad == 0xff)
            bad = l;
    }
    pthread_mutex_unlock(&d->svc_lock);
    return bad;
}
