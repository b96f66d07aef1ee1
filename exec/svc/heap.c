/* heap.c: the device heap behind malloc and free.  One region of the device's heap size
 * (8 MiB by default, cudaLimitMallocHeapSize), reserved at the first malloc and mapped as
 * global memory, so that blocks outlive the launch until freed.  Blocks are 16-byte
 * aligned with a 16-byte header (their size, the size of the block before them, and a
 * check word that tells a block in use from a free one and from no block at all).  A freed
 * block merges with free neighbours, and one that reaches the unused end of the region
 * gives its bytes back to it, so the whole heap is reusable after frees in any order.  Free
 * blocks are kept in doubly linked lists by size class (16-byte steps up to 4 KiB, then
 * one list per power of two); a request takes the first block of its class or of the
 * next class that holds one (splitting off the rest), else the region's unused end.  One
 * lock per call of a warp (all its lanes), so a warp-wide malloc takes the lock once. */
#include "exec/internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HDR        16u
#define MIN_BLOCK  16u             /* the smallest payload: room for the free-list links */
#define MAGIC_USED 0x6d616c6cu     /* "mall" */
#define MAGIC_FREE 0x66726565u     /* "free" */
#define NSMALL     256             /* classes 1..256: payloads of 16..4096 bytes */
#define NCLASS     (NSMALL + 48)   /* then one class per power of two */
#define MAX_BLOCK  (0xffffffffull * 16 - HDR)   /* what prev16 can describe */

typedef struct blk {
    uint64_t    size;              /* bytes after the header */
    uint32_t    magic;
    uint32_t    prev16;            /* the size of the block before (header included) / 16; 0: first */
} blk_t;

typedef struct free_blk {
    blk_t            h;
    struct free_blk *next, *prev;
} free_blk_t;

struct ex_heap {
    uint8_t    *base;
    uint64_t    size, top;         /* the region and the part handed out so far */
    uint64_t    last;              /* offset of the block that ends at top (valid when top > 0) */
    free_blk_t *cls[NCLASS];
    uint64_t    nonempty[(NCLASS + 63) / 64];   /* bit c: cls[c] holds a block */
};

static uint64_t round16(uint64_t n) { return (n + 15) & ~15ull; }

static unsigned class_of(uint64_t size)
{
    if (size / 16 <= NSMALL)
        return (unsigned)(size / 16) - 1;
    unsigned lg = 63u - (unsigned)__builtin_clzll(size);   /* >= 12 */
    unsigned c = NSMALL + (lg - 12);
    return c < NCLASS ? c : NCLASS - 1;
}

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

static uint64_t off_of(const ex_heap_t *h, const blk_t *b) { return (uint64_t)((const uint8_t *)b - h->base); }
static blk_t *at(const ex_heap_t *h, uint64_t off) { return (blk_t *)(void *)(h->base + off); }

static void list_add(ex_heap_t *h, free_blk_t *f)
{
    unsigned c = class_of(f->h.size);
    f->h.magic = MAGIC_FREE;
    f->prev = NULL;
    f->next = h->cls[c];
    if (f->next)
        f->next->prev = f;
    h->cls[c] = f;
    h->nonempty[c / 64] |= 1ull << (c % 64);
}

static void list_remove(ex_heap_t *h, free_blk_t *f)
{
    if (f->prev) {
        f->prev->next = f->next;
    } else {
        unsigned c = class_of(f->h.size);
        if (!(h->cls[c] = f->next))
            h->nonempty[c / 64] &= ~(1ull << (c % 64));
    }
    if (f->next)
        f->next->prev = f->prev;
}

/* The block after b, or NULL when b ends at top. */
static blk_t *next_of(const ex_heap_t *h, const blk_t *b)
{
    uint64_t o = off_of(h, b) + HDR + b->size;
    return o < h->top ? at(h, o) : NULL;
}

/* Split block b (in use) so that it keeps need bytes, when the rest can be a block. */
static void split(ex_heap_t *h, blk_t *b, uint64_t need)
{
    if (b->size < need + HDR + MIN_BLOCK)
        return;
    blk_t *r = at(h, off_of(h, b) + HDR + need);
    r->size = b->size - need - HDR;
    r->prev16 = (uint32_t)((HDR + need) / 16);
    b->size = need;
    blk_t *n = next_of(h, r);
    if (n)
        n->prev16 = (uint32_t)((HDR + r->size) / 16);
    else
        h->last = off_of(h, r);
    list_add(h, (free_blk_t *)r);
}

/* The first class from c on that holds a block (NCLASS: none). */
static unsigned next_class(const ex_heap_t *h, unsigned c)
{
    for (unsigned w = c / 64; w < (NCLASS + 63) / 64; w++) {
        uint64_t bits = h->nonempty[w] & (w == c / 64 ? ~0ull << (c % 64) : ~0ull);
        if (bits)
            return w * 64 + (unsigned)__builtin_ctzll(bits);
    }
    return NCLASS;
}

/* Under svc_lock: a block of n bytes (16-byte aligned), or 0. */
static uint64_t heap_alloc(ex_heap_t *h, uint64_t n)
{
    uint64_t need = round16(n ? n : 1);
    if (need < MIN_BLOCK)
        need = MIN_BLOCK;
    if (need > h->size || need > MAX_BLOCK)
        return 0;
    blk_t *b = NULL;
    /* the exact small class, then any larger class (first fit within a power-of-two class) */
    for (unsigned c = next_class(h, class_of(need)); c < NCLASS && !b; c = next_class(h, c + 1))
        for (free_blk_t *f = h->cls[c]; f; f = f->next)
            if (f->h.size >= need) {
                list_remove(h, f);
                b = &f->h;
                break;
            }
    if (b) {
        b->magic = MAGIC_USED;
        split(h, b, need);
    } else {
        if (h->top + HDR + need > h->size)
            return 0;
        b = at(h, h->top);
        b->size = need;
        b->magic = MAGIC_USED;
        b->prev16 = h->top ? (uint32_t)((HDR + at(h, h->last)->size) / 16) : 0;
        h->last = h->top;
        h->top += HDR + need;
    }
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
    /* merge with a free block after it */
    blk_t *n = next_of(h, b);
    if (n && n->magic == MAGIC_FREE && b->size + HDR + n->size <= MAX_BLOCK) {
        list_remove(h, (free_blk_t *)n);
        n->magic = 0;
        b->size += HDR + n->size;
        blk_t *nn = next_of(h, b);
        if (nn)
            nn->prev16 = (uint32_t)((HDR + b->size) / 16);
        else
            h->last = off_of(h, b);
    }
    /* and with a free block before it */
    if (b->prev16) {
        blk_t *p = at(h, off_of(h, b) - (uint64_t)b->prev16 * 16);
        if (p->magic == MAGIC_FREE && p->size + HDR + b->size <= MAX_BLOCK) {
            list_remove(h, (free_blk_t *)p);
            b->magic = 0;
            p->size += HDR + b->size;
            b = p;
            blk_t *nn = next_of(h, b);
            if (nn)
                nn->prev16 = (uint32_t)((HDR + b->size) / 16);
            else
                h->last = off_of(h, b);
        }
    }
    /* a free block at the end goes back to the unused part */
    if (!next_of(h, b)) {
        h->top = off_of(h, b);
        b->magic = 0;
        if (h->top)
            h->last = h->top - (uint64_t)b->prev16 * 16;
        return true;
    }
    list_add(h, (free_blk_t *)b);
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
