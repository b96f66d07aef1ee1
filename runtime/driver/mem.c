/* mem.c: memory: device, pinned host, managed and registered host allocations (device
 * addresses are host addresses, each allocation mapped as the emulated device's global
 * memory), every cuMemcpy and cuMemset form (an array operand through array.c's
 * drv_array_span), pointer attributes. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/driver/drv.h"

#define DEV_MEM 85017493504ull   /* the H100's memory (runtime/h100_attrs.def) */
#define BIG     (1u << 20)       /* pinned host allocations this large come from mmap (zero, lazily) */
#define ARENA_FLAG 0x40000000u   /* drv_alloc_t.flags: an allocation of the device arena */
#define MMAP_FLAG  0x80000000u   /* drv_alloc_t.flags: a pinned host allocation of its own mmap */
#define POOL_FLAG  0x10000000u   /* drv_alloc_t.flags: pinned host memory of a pool located on the host */

static uint64_t in_use;

/*{=====================================================================
 * Device memory laid out as the H100's driver lays it out
 *
 * Measured on the H100 (tests/apps/oob_layout.cu): cudaMalloc rounds each allocation up to
 * 512 bytes.  One of at most 2 MiB goes to the smallest free block of the 2 MiB chunks
 * mapped so far that holds it (the lowest such block among equals); when none does, to a
 * new chunk, whose rest becomes a free block.  A larger one gets new chunks of its own,
 * the rest of the last one unused.  A freed allocation's block (or chunks) is free again:
 * the same size allocated next comes back at the same address.  A kernel's access anywhere in mapped
 * memory succeeds, reading a neighbour's data or zeros, and only an access outside it faults.
 * Programs rely on that without knowing (a stencil that reads the row before its first
 * array), so device and managed allocations here come from one reserved address range laid
 * out the same way, each run of new chunks mapped for kernels whole, with two mapped chunks
 * that are never allocated in front.  Freed memory stays mapped; its pages are returned to
 * the system and it reads as zero (so every allocation starts zero).  With
 * PTXEMU_EXACT_BOUNDS=1 (ptxrun --exact-bounds) each allocation is mapped for kernels
 * exactly instead, so that any access outside one faults.
 *====================================================================*/
#define CHUNK      ((size_t)2 << 20)
#define ARENA_SIZE ((size_t)256 << 30)
#define FRONT      2   /* chunks mapped in front of the first allocation */

typedef struct { uintptr_t addr; size_t len; } blk_t;
typedef struct { blk_t *b; size_t n, cap; } blk_list_t;   /* sorted by address, merged */

static struct {
    pthread_mutex_t lock;
    bool            ready, failed, exact;
    uint8_t        *base;
    size_t          size;       /* bytes reserved */
    size_t          top;        /* chunks mapped so far, the front included */
    blk_list_t      free;       /* free blocks of shared chunks */
    blk_list_t      regions;    /* freed runs of chunks of large allocations */
    int             memfd;      /* the memory file of chunks shared with other processes, or -1 */
    size_t          memfd_size;
    uint8_t        *shared;     /* per chunk: mapped from the memory file (drv_arena_share) */
} arena = { .lock = PTHREAD_MUTEX_INITIALIZER, .memfd = -1 };

static bool chunk_shared(uintptr_t a)
{
    return arena.shared && arena.shared[(a - (uintptr_t)arena.base) / CHUNK];
}

/* Return the pages [lo, hi) (page-aligned) to the system, reading zero again: a chunk
 * shared with other processes loses them from its memory file. */
static void pages_release(uintptr_t lo, uintptr_t hi)
{
    while (lo < hi) {
        uintptr_t end = (lo & ~(uintptr_t)(CHUNK - 1)) + CHUNK;
        if (end > hi)
            end = hi;
        madvise((void *)lo, end - lo, chunk_shared(lo) ? MADV_REMOVE : MADV_DONTNEED);
        lo = end;
    }
}

/* Reserve the range (once); false when it cannot be (allocations then fail). */
static bool arena_ready(void)
{
    if (arena.ready || arena.failed)
        return arena.ready;
    /* the largest of 256, 64, 16, 4 and 1 GiB the process may reserve (an address-space
     * limit, as under valgrind or ulimit -v, allows less) */
    void *m = MAP_FAILED;
    for (arena.size = ARENA_SIZE; m == MAP_FAILED && arena.size >= ((size_t)1 << 30); arena.size /= 4)
        m = mmap(NULL, arena.size + CHUNK, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        arena.failed = true;
        return false;
    }
    arena.size *= 4;   /* (the loop divided once more) */
    arena.base = (uint8_t *)(((uintptr_t)m + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1));
    arena.exact = ex_device_exact_bounds(drv.dev);   /* PTXEMU_EXACT_BOUNDS (runtime/emu.c) */
    if (mprotect(arena.base, FRONT * CHUNK, PROT_READ | PROT_WRITE) != 0 ||
        (!arena.exact && ex_device_map(drv.dev, arena.base, FRONT * CHUNK) != ISA_ST_OK)) {
        arena.failed = true;
        return false;
    }
    arena.top = FRONT;
    arena.ready = true;
    return true;
}

/* Insert the block [addr, addr + len) into l, merged with its neighbours; false when there
 * is no memory for the list (the block is then lost to later allocations). */
static bool blk_insert(blk_list_t *l, uintptr_t addr, size_t len)
{
    size_t i = 0;
    while (i < l->n && l->b[i].addr < addr)
        i++;
    bool left = i > 0 && l->b[i - 1].addr + l->b[i - 1].len == addr;
    bool right = i < l->n && addr + len == l->b[i].addr;
    if (left && right) {
        l->b[i - 1].len += len + l->b[i].len;
        memmove(&l->b[i], &l->b[i + 1], (l->n - i - 1) * sizeof *l->b);
        l->n--;
    } else if (left) {
        l->b[i - 1].len += len;
    } else if (right) {
        l->b[i].addr = addr;
        l->b[i].len += len;
    } else {
        if (l->n == l->cap) {
            size_t c = l->cap ? 2 * l->cap : 64;
            blk_t *f = realloc(l->b, c * sizeof *f);
            if (!f)
                return false;
            l->b = f;
            l->cap = c;
        }
        memmove(&l->b[i + 1], &l->b[i], (l->n - i) * sizeof *l->b);
        l->b[i] = (blk_t){ addr, len };
        l->n++;
    }
    return true;
}

/* Take sz bytes from the smallest block of l that holds them (the lowest among equals);
 * NULL when none does. */
static void *blk_take(blk_list_t *l, size_t sz)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < l->n; i++)
        if (l->b[i].len >= sz && (best == SIZE_MAX || l->b[i].len < l->b[best].len))
            best = i;
    if (best == SIZE_MAX)
        return NULL;
    blk_t *b = &l->b[best];
    void *p = (void *)b->addr;
    b->addr += sz;
    if (!(b->len -= sz)) {
        memmove(b, b + 1, (l->n - best - 1) * sizeof *b);
        l->n--;
    }
    return p;
}

/* sz bytes (a multiple of 512) of device memory, zero; NULL when there is no room. */
static void *arena_alloc(size_t sz)
{
    pthread_mutex_lock(&arena.lock);
    void *p = NULL;
    if (!arena_ready())
        goto out;
    size_t n = (sz + CHUNK - 1) / CHUNK;
    if ((p = blk_take(sz <= CHUNK ? &arena.free : &arena.regions, sz <= CHUNK ? sz : n * CHUNK)))
        goto out;
    if (n > arena.size / CHUNK - arena.top)
        goto out;
    uint8_t *c = arena.base + arena.top * CHUNK;
    if (mprotect(c, n * CHUNK, PROT_READ | PROT_WRITE) != 0)
        goto out;
    if (!arena.exact && ex_device_map(drv.dev, c, n * CHUNK) != ISA_ST_OK) {
        mprotect(c, n * CHUNK, PROT_NONE);
        goto out;
    }
    arena.top += n;
    if (sz < CHUNK)
        blk_insert(&arena.free, (uintptr_t)c + sz, CHUNK - sz);
    p = c;
out:
    pthread_mutex_unlock(&arena.lock);
    return p;
}

/* Free the arena allocation at p of sz bytes (as registered: its 512-byte room follows):
 * zero again, its whole pages returned to the system. */
static void arena_free(void *p, size_t sz)
{
    sz = (sz + 511) & ~(size_t)511;
    uintptr_t a = (uintptr_t)p, lo = (a + 4095) & ~(uintptr_t)4095, hi = (a + sz) & ~(uintptr_t)4095;
    pthread_mutex_lock(&arena.lock);
    if (hi > lo) {
        memset(p, 0, lo - a);
        pages_release(lo, hi);
        memset((void *)hi, 0, a + sz - hi);
    } else {
        memset(p, 0, sz);
    }
    if (sz <= CHUNK)
        blk_insert(&arena.free, a, sz);
    else
        blk_insert(&arena.regions, a, (sz + CHUNK - 1) & ~(CHUNK - 1));
    pthread_mutex_unlock(&arena.lock);
}

/* Whether allocations are mapped for kernels one by one (exact bounds). */
static bool arena_exact(void) { return arena.exact; }

/* Whether the page at p holds anything but zeros. */
static bool page_used(const uint8_t *p)
{
    const uint64_t *w = (const uint64_t *)p;
    uint64_t any = 0;
    for (size_t i = 0; i < 4096 / 8; i++)
        any |= w[i];
    return any != 0;
}

/* The memory file of shared chunks exists (the arena's lock held). */
static bool memfd_ready(void)
{
    if (arena.memfd >= 0)
        return true;
    if (!(arena.shared = calloc(arena.size / CHUNK, 1)))
        return false;
    if ((arena.memfd = memfd_create(DRV_MEMFD_NAME, MFD_CLOEXEC)) < 0) {
        free(arena.shared);
        arena.shared = NULL;
        return false;
    }
    return true;
}

/* The chunks holding the arena's [base, base + size) become pages of one memory file
 * (ptxemu's device memory, created on first use), mapped at the same addresses with the
 * same contents, so that other processes can map them too (ipc.c, pool.c).  A chunk stays
 * so; its freed pages leave the file.  (A kernel of another host thread writing the chunks
 * while they move would lose its writes: the programs export memory they have just
 * allocated.)  Where: the file, the offset and length of the chunks in it, and base's
 * offset in them; false when base is no arena memory or there is no memory file. */
bool drv_arena_share(uintptr_t base, size_t size, drv_share_t *out)
{
    pthread_mutex_lock(&arena.lock);
    bool ok = false;
    uintptr_t first = (uintptr_t)arena.base + FRONT * CHUNK, end = (uintptr_t)arena.base + arena.top * CHUNK;
    if (!arena.ready || base < first || base > end || size > end - base || !memfd_ready())
        goto out;
    uintptr_t lo = base & ~(uintptr_t)(CHUNK - 1), hi = (base + (size ? size : 1) + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1);
    size_t need = hi - (uintptr_t)arena.base;
    if (need > arena.memfd_size) {
        if (ftruncate(arena.memfd, (off_t)need) != 0)
            goto out;
        arena.memfd_size = need;
    }
    for (uintptr_t c = lo; c < hi; c += CHUNK) {
        if (chunk_shared(c))
            continue;
        off_t off = (off_t)(c - (uintptr_t)arena.base);
        for (size_t pg = 0; pg < CHUNK; pg += 4096)   /* pages never written stay holes */
            if (page_used((const uint8_t *)c + pg) &&
                pwrite(arena.memfd, (const void *)(c + pg), 4096, off + (off_t)pg) != 4096)
                goto out;
        if (mmap((void *)c, CHUNK, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, arena.memfd, off) == MAP_FAILED)
            goto out;
        arena.shared[(c - (uintptr_t)arena.base) / CHUNK] = 1;
    }
    out->fd = arena.memfd;
    out->off = lo - (uintptr_t)arena.base;
    out->len = hi - lo;
    out->delta = base - lo;
    ok = true;
out:
    pthread_mutex_unlock(&arena.lock);
    return ok;
}

/* The memory file of shared chunks (created if there is none yet), or -1. */
int drv_arena_memfd(void)
{
    pthread_mutex_lock(&arena.lock);
    int fd = arena_ready() && memfd_ready() ? arena.memfd : -1;
    pthread_mutex_unlock(&arena.lock);
    return fd;
}
/*}=====================================================================*/

/*{=====================================================================
 * The registry: allocations sorted by base
 *====================================================================*/

static size_t find_slot(uintptr_t p)   /* first allocation with base > p */
{
    size_t lo = 0, hi = drv.nalloc;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (drv.allocs[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* drv_alloc_add, with the size asked for (req) where the layout rounded it: what
 * cuMemGetAddressRange answers (measured: 1000 bytes, not the 1024 laid out; app test
 * addr_range). */
static CUresult alloc_add(void *base, size_t size, size_t req, drv_memkind_t kind, unsigned flags, bool map)
{
    if (map && ex_device_map(drv.dev, base, size) != ISA_ST_OK)
        return CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&drv.lock);
    if (drv.nalloc == drv.calloc_) {
        size_t n = drv.calloc_ ? drv.calloc_ * 2 : 64;
        drv_alloc_t *a = realloc(drv.allocs, n * sizeof *a);
        if (!a) {
            pthread_mutex_unlock(&drv.lock);
            if (map)
                ex_device_unmap(drv.dev, base);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        drv.allocs = a;
        drv.calloc_ = n;
    }
    size_t i = find_slot((uintptr_t)base);
    memmove(&drv.allocs[i + 1], &drv.allocs[i], (drv.nalloc - i) * sizeof *drv.allocs);
    drv.allocs[i] = (drv_alloc_t){ .base = (uintptr_t)base, .size = size, .req = req, .kind = kind,
                                   .ctx = drv_current(), .flags = flags, .id = ++drv.next_id };
    drv.nalloc++;
    if (kind == DRV_MEM_DEVICE || kind == DRV_MEM_MANAGED)
        in_use += size;
    pthread_mutex_unlock(&drv.lock);
    return CUDA_SUCCESS;
}

CUresult drv_alloc_add(void *base, size_t size, drv_memkind_t kind, unsigned flags, bool map)
{
    return alloc_add(base, size, size, kind, flags, map);
}

const drv_alloc_t *drv_alloc_find(uintptr_t p, size_t n)
{
    pthread_mutex_lock(&drv.lock);
    size_t i = find_slot(p);
    const drv_alloc_t *a = NULL;
    if (i > 0) {
        const drv_alloc_t *c = &drv.allocs[i - 1];
        if (p - c->base < c->size && n <= c->size - (p - c->base))
            a = c;
        else if (p == c->base + c->size && n == 0)
            a = c;
    }
    pthread_mutex_unlock(&drv.lock);
    return a;
}

static void release(const drv_alloc_t *a)
{
    switch (a->kind) {
    case DRV_MEM_DEVICE:
    case DRV_MEM_MANAGED:
    case DRV_MEM_HOST:
        if (a->flags & DRV_ALLOC_IPC) {   /* another process's memory, mapped here (ipc.c) */
            drv_ipc_unmap(a->base);
            break;
        }
        if (a->flags & ARENA_FLAG) {
            if (arena_exact())
                ex_device_unmap(drv.dev, (void *)a->base);
            arena_free((void *)a->base, a->size);
            break;
        }
        ex_device_unmap(drv.dev, (void *)a->base);
        if (a->flags & MMAP_FLAG)
            munmap((void *)a->base, a->size);
        else
            free((void *)a->base);
        break;
    case DRV_MEM_REGISTERED:
        ex_device_unmap(drv.dev, (void *)a->base);
        break;
    case DRV_MEM_MODULE:
        break;
    }
}

/* Remove the allocation at base of one of the kinds in mask; false if none. */
static bool remove_at(uintptr_t base, unsigned mask, drv_alloc_t *out)
{
    pthread_mutex_lock(&drv.lock);
    size_t i = find_slot(base);
    bool ok = i > 0 && drv.allocs[i - 1].base == base && (mask >> drv.allocs[i - 1].kind & 1);
    if (ok) {
        *out = drv.allocs[i - 1];
        memmove(&drv.allocs[i - 1], &drv.allocs[i], (drv.nalloc - i) * sizeof *drv.allocs);
        drv.nalloc--;
        if (out->kind == DRV_MEM_DEVICE || out->kind == DRV_MEM_MANAGED)
            in_use -= out->size;
    }
    pthread_mutex_unlock(&drv.lock);
    return ok;
}

void drv_alloc_remove_ctx(drv_ctx_t *c)
{
    for (;;) {
        drv_alloc_t a;
        bool found = false;
        pthread_mutex_lock(&drv.lock);
        for (size_t i = 0; i < drv.nalloc; i++)
            if (drv.allocs[i].ctx == c && drv.allocs[i].kind != DRV_MEM_MODULE) {
                a = drv.allocs[i];
                found = true;
                break;
            }
        pthread_mutex_unlock(&drv.lock);
        if (!found || !remove_at(a.base, ~0u, &a))
            return;
        release(&a);
    }
}

/*{=====================================================================
 * Allocation
 *====================================================================*/

/* Device memory that is no allocation (CUDA arrays, array.c) counts against the device's
 * memory as allocations do, for cuMemGetInfo and for running out. */
CUresult drv_mem_reserve(size_t n)
{
    pthread_mutex_lock(&drv.lock);
    bool ok = n <= DEV_MEM && in_use + n <= DEV_MEM;
    if (ok)
        in_use += n;
    pthread_mutex_unlock(&drv.lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

void drv_mem_unreserve(size_t n)
{
    pthread_mutex_lock(&drv.lock);
    in_use -= n < in_use ? n : in_use;
    pthread_mutex_unlock(&drv.lock);
}

static CUresult alloc(void **out, size_t n, drv_memkind_t kind, unsigned flags)
{
    CUresult r = drv_capture_unsafe("a memory allocation");
    if (r)
        return r;
    if (n > DEV_MEM || (kind != DRV_MEM_HOST && in_use + n > DEV_MEM))
        return CUDA_ERROR_OUT_OF_MEMORY;
    size_t sz = (n + 255) & ~(size_t)255;
    void *p;
    if (kind == DRV_MEM_DEVICE || kind == DRV_MEM_MANAGED) {
        /* 512-byte steps (CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT), as the H100 packs them */
        size_t room = (sz + 511) & ~(size_t)511;
        if (!(p = arena_alloc(room)))
            return CUDA_ERROR_OUT_OF_MEMORY;
        r = alloc_add(p, sz, n, kind, flags | ARENA_FLAG, arena_exact());
        if (r)
            arena_free(p, sz);
        else
            *out = p;
        return r;
    }
    if (sz >= BIG) {
        p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return CUDA_ERROR_OUT_OF_MEMORY;
        flags |= MMAP_FLAG;
    } else {
        /* aligned to CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, so that any allocation can be a
         * linear or pitched texture resource (as the GPU's allocations can) */
        size_t room = (sz + 511) & ~(size_t)511;
        p = aligned_alloc(512, room);
        if (!p)
            return CUDA_ERROR_OUT_OF_MEMORY;
        memset(p, 0, room);
    }
    r = alloc_add(p, sz, n, kind, flags, true);
    if (r) {
        if (flags & MMAP_FLAG)
            munmap(p, sz);
        else
            free(p);
        return r;
    }
    *out = p;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemAlloc_v2(CUdeviceptr *dp, size_t n)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!dp || n == 0)
        return CUDA_ERROR_INVALID_VALUE;
    void *p;
    if ((r = alloc(&p, n, DRV_MEM_DEVICE, 0)) == CUDA_SUCCESS)
        *dp = (CUdeviceptr)(uintptr_t)p;
    return r;
}

DRV_API CUresult cuMemAllocPitch_v2(CUdeviceptr *dp, size_t *pitch, size_t width, size_t height, unsigned elem)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!dp || !pitch || width == 0 || height == 0 || (elem != 4 && elem != 8 && elem != 16))
        return CUDA_ERROR_INVALID_VALUE;
    size_t pt = (width + 511) & ~(size_t)511;   /* CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: 32; pitch as the H100 gives it */
    void *p;
    if ((r = alloc(&p, pt * height, DRV_MEM_DEVICE, 0)) == CUDA_SUCCESS) {
        *dp = (CUdeviceptr)(uintptr_t)p;
        *pitch = pt;
    }
    return r;
}

DRV_API CUresult cuMemAllocManaged(CUdeviceptr *dp, size_t n, unsigned int flags)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!dp || n == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
        return CUDA_ERROR_INVALID_VALUE;
    void *p;
    if ((r = alloc(&p, n, DRV_MEM_MANAGED, flags)) == CUDA_SUCCESS)
        *dp = (CUdeviceptr)(uintptr_t)p;
    return r;
}

/* cuMemFree finds the allocation's context from the pointer: it needs no current one
 * (measured: Numba frees what is left after popping its context; app test ctx_current). */
DRV_API CUresult cuMemFree_v2(CUdeviceptr dp)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!dp)
        return CUDA_SUCCESS;
    if (drv_graph_mem_free(__func__, dp, &r))   /* an allocation of a graph's alloc node (graph_mem.c) */
        return r;
    drv_alloc_t a;
    unsigned kinds = 1u << DRV_MEM_DEVICE | 1u << DRV_MEM_MANAGED;
    const drv_alloc_t *f = drv_alloc_find((uintptr_t)dp, 0);
    if (f && f->base == (uintptr_t)dp && f->kind == DRV_MEM_HOST && (f->flags & POOL_FLAG))
        kinds |= 1u << DRV_MEM_HOST;   /* a host pool's allocation is freed as the device's are */
    if (!remove_at((uintptr_t)dp, kinds, &a))
        return CUDA_ERROR_INVALID_VALUE;
    release(&a);
    drv_pool_forget((uintptr_t)dp);
    return CUDA_SUCCESS;
}

/* An allocation of a pool located on the host: pinned host memory, freed with
 * cuMemFree(Async), that the device reaches at the same address only while the pool grants
 * it access (device is false: not yet). */
CUresult drv_mem_alloc_pool_host(CUdeviceptr *dp, size_t n, bool device)
{
    void *p;
    CUresult r = alloc(&p, n, DRV_MEM_HOST, CU_MEMHOSTALLOC_DEVICEMAP | POOL_FLAG);
    if (r)
        return r;
    if (!device)
        ex_device_unmap(drv.dev, p);
    *dp = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

/* A host pool's allocation at base becomes reachable by the device, or no longer. */
CUresult drv_mem_pool_host_access(uintptr_t base, bool device)
{
    const drv_alloc_t *a = drv_alloc_find(base, 0);
    if (!a || a->base != base || !(a->flags & POOL_FLAG))
        return CUDA_ERROR_INVALID_VALUE;
    size_t size = a->size;
    if (!device) {
        ex_device_unmap(drv.dev, (void *)base);
        return CUDA_SUCCESS;
    }
    return ex_device_map(drv.dev, (void *)base, size) == ISA_ST_OK ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

DRV_API CUresult cuMemHostAlloc(void **pp, size_t n, unsigned int flags)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!pp || (flags & ~7u))
        return CUDA_ERROR_INVALID_VALUE;
    if (n == 0) {
        *pp = NULL;
        return CUDA_ERROR_INVALID_VALUE;
    }
    return alloc(pp, n, DRV_MEM_HOST, flags);
}

DRV_API CUresult cuMemAllocHost_v2(void **pp, size_t n) { return cuMemHostAlloc(pp, n, 0); }

DRV_API CUresult cuMemFreeHost(void *p)   /* no current context needed, as cuMemFree */
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    drv_alloc_t a;
    const drv_alloc_t *f = p ? drv_alloc_find((uintptr_t)p, 0) : NULL;
    if (f && (f->flags & POOL_FLAG))
        return CUDA_ERROR_INVALID_VALUE;   /* a host pool's allocation: cuMemFree(Async) */
    if (!p || !remove_at((uintptr_t)p, 1u << DRV_MEM_HOST, &a))
        return CUDA_ERROR_INVALID_VALUE;
    release(&a);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dp, void *p, unsigned int flags)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!dp || flags)
        return CUDA_ERROR_INVALID_VALUE;
    const drv_alloc_t *a = drv_alloc_find((uintptr_t)p, 0);
    if (!a || (a->kind != DRV_MEM_HOST && a->kind != DRV_MEM_REGISTERED))
        return CUDA_ERROR_INVALID_VALUE;
    *dp = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemHostGetFlags(unsigned int *flags, void *p)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    const drv_alloc_t *a = drv_alloc_find((uintptr_t)p, 0);
    if (!flags || !a || (a->kind != DRV_MEM_HOST && a->kind != DRV_MEM_REGISTERED))
        return CUDA_ERROR_INVALID_VALUE;
    *flags = (a->flags & 0xffu) | CU_MEMHOSTALLOC_DEVICEMAP;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned int flags)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!p || n == 0 || (flags & ~0xfu))
        return CUDA_ERROR_INVALID_VALUE;
    if (drv_alloc_find((uintptr_t)p, 0) || drv_alloc_find((uintptr_t)p + n - 1, 0))
        return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    return drv_alloc_add(p, n, DRV_MEM_REGISTERED, flags, true);
}

DRV_API CUresult cuMemHostUnregister(void *p)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    drv_alloc_t a;
    if (!p || !remove_at((uintptr_t)p, 1u << DRV_MEM_REGISTERED, &a))
        return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    release(&a);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemGetInfo_v2(size_t *free_b, size_t *total)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!free_b || !total)
        return CUDA_ERROR_INVALID_VALUE;
    *total = DEV_MEM;
    pthread_mutex_lock(&drv.lock);
    *free_b = DEV_MEM - 541065216ull - in_use;   /* what a fresh context leaves on the H100 */
    pthread_mutex_unlock(&drv.lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr dp)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    /* every allocation, pinned and registered host memory too (app test addr_range) */
    const drv_alloc_t *a = drv_alloc_find((uintptr_t)dp, 1);
    if (!a)
        return CUDA_ERROR_NOT_FOUND;
    if (base)
        *base = a->base;
    if (size)
        *size = a->req;
    return CUDA_SUCCESS;
}

/* Stream-ordered allocation: in stream order is at once here. */
CUresult drv_mem_alloc_async(CUdeviceptr *dp, size_t n, CUstream s)
{
    CUresult r = drv_stream_check(s);
    if (!r && drv_capture_of(s))   /* a graph memory alloc node (graph.c) */
        return (r = drv_enter(NULL)) ? r : !dp || n == 0 ? CUDA_ERROR_INVALID_VALUE : drv_capture_mem_alloc(s, n, dp);
    return r ? r : cuMemAlloc_v2(dp, n);
}
/* From the device's current pool (pool.c). */
DRV_API CUresult cuMemAllocAsync(CUdeviceptr *dp, size_t n, CUstream s) { return drv_pool_alloc_current(dp, n, s); }
DRV_API CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dp, size_t n, CUstream s) { return cuMemAllocAsync(dp, n, s); }
DRV_API CUresult cuMemFreeAsync(CUdeviceptr dp, CUstream s)
{
    CUresult r = drv_stream_check(s);
    if (!r && drv_capture_of(s))   /* a graph memory free node (graph.c) */
        return (r = drv_enter(NULL)) ? r : drv_capture_mem_free(s, dp);
    return r ? r : cuMemFree_v2(dp);   /* a graph allocation's free too */
}
DRV_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr dp, CUstream s) { return cuMemFreeAsync(dp, s); }

/*{=====================================================================
 * Copies and sets
 *====================================================================*/

/* Device memory [p, p + n): an allocation (of any kind) holds it. */
static bool dev_ok(CUdeviceptr p, size_t n) { return n == 0 || drv_alloc_find((uintptr_t)p, n) != NULL; }

CUresult drv_copy(const char *fn, void *dst, const void *src, size_t n, bool dst_dev, bool src_dev, CUstream s,
                  bool sync)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (s && (r = drv_stream_check(s)))
        return r;
    bool cap = drv_capture_of(s) != NULL;
    if ((dst_dev && !dev_ok((uintptr_t)dst, n) && !(cap && drv_gmem_holds((uintptr_t)dst, n))) ||
        (src_dev && !dev_ok((uintptr_t)src, n) && !(cap && drv_gmem_holds((uintptr_t)src, n))))
        return CUDA_ERROR_INVALID_VALUE;
    if (cap) {
        CUDA_MEMCPY3D c;
        memset(&c, 0, sizeof c);
        bool unified = !dst_dev && !src_dev;
        c.dstMemoryType = dst_dev ? CU_MEMORYTYPE_DEVICE : unified ? CU_MEMORYTYPE_UNIFIED : CU_MEMORYTYPE_HOST;
        c.srcMemoryType = src_dev ? CU_MEMORYTYPE_DEVICE : unified ? CU_MEMORYTYPE_UNIFIED : CU_MEMORYTYPE_HOST;
        c.dstDevice = c.srcDevice = 0;
        if (c.dstMemoryType == CU_MEMORYTYPE_HOST)
            c.dstHost = dst;
        else
            c.dstDevice = (CUdeviceptr)(uintptr_t)dst;
        if (c.srcMemoryType == CU_MEMORYTYPE_HOST)
            c.srcHost = src;
        else
            c.srcDevice = (CUdeviceptr)(uintptr_t)src;
        c.WidthInBytes = n;
        c.Height = c.Depth = 1;
        return drv_capture_copy(s, &c);
    }
    if (n && (!dst || !src))
        return CUDA_ERROR_INVALID_VALUE;
    (void)fn;
    if (n)
        memmove(dst, src, n);
    if (sync)
        drv_flush_output();
    return CUDA_SUCCESS;
}

#define PTR(x) ((void *)(uintptr_t)(x))
DRV_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n) { return drv_copy(__func__, PTR(d), h, n, true, false, NULL, true); }
DRV_API CUresult cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n) { return drv_copy(__func__, h, PTR(d), n, false, true, NULL, true); }
DRV_API CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { return drv_copy(__func__, PTR(d), PTR(s), n, true, true, NULL, false); }
DRV_API CUresult cuMemcpy(CUdeviceptr d, CUdeviceptr s, size_t n) { return drv_copy(__func__, PTR(d), PTR(s), n, false, false, NULL, true); }
DRV_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *h, size_t n, CUstream s) { return drv_copy(__func__, PTR(d), h, n, true, false, s, false); }
DRV_API CUresult cuMemcpyDtoHAsync_v2(void *h, CUdeviceptr d, size_t n, CUstream s) { return drv_copy(__func__, h, PTR(d), n, false, true, s, false); }
DRV_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s) { return drv_copy(__func__, PTR(d), PTR(src), n, true, true, s, false); }
DRV_API CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s) { return drv_copy(__func__, PTR(d), PTR(src), n, false, false, s, false); }
DRV_API CUresult cuMemcpyPeer(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n)
{
    if (!drv_ctx_valid(dc) || !drv_ctx_valid(sc))
        return CUDA_ERROR_INVALID_CONTEXT;
    return drv_copy(__func__, PTR(d), PTR(s), n, true, true, NULL, true);
}
DRV_API CUresult cuMemcpyPeerAsync(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st)
{
    if (!drv_ctx_valid(dc) || !drv_ctx_valid(sc))
        return CUDA_ERROR_INVALID_CONTEXT;
    return drv_copy(__func__, PTR(d), PTR(s), n, true, true, st, false);
}
/* The per-thread default stream forms behave alike here. */
DRV_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr d, const void *h, size_t n) { return cuMemcpyHtoD_v2(d, h, n); }
DRV_API CUresult cuMemcpyDtoH_v2_ptds(void *h, CUdeviceptr d, size_t n) { return cuMemcpyDtoH_v2(h, d, n); }
DRV_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return cuMemcpyDtoD_v2(d, s, n); }
DRV_API CUresult cuMemcpy_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return cuMemcpy(d, s, n); }
DRV_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr d, const void *h, size_t n, CUstream s) { return cuMemcpyHtoDAsync_v2(d, h, n, s); }
DRV_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void *h, CUdeviceptr d, size_t n, CUstream s) { return cuMemcpyDtoHAsync_v2(h, d, n, s); }
DRV_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s) { return cuMemcpyDtoDAsync_v2(d, src, n, s); }
DRV_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return cuMemcpyAsync(d, s, n, st); }
DRV_API CUresult cuMemcpyPeer_ptds(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) { return cuMemcpyPeer(d, dc, s, sc, n); }
DRV_API CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st) { return cuMemcpyPeerAsync(d, dc, s, sc, n, st); }

/* One side of a 2D/3D copy: where it starts, how its rows and slices lie, and what
 * bounds it: device memory is checked against the registry, an array against its level's
 * extent (x and the width in bytes, LOD 0 as the driver API requires), host
 * memory not at all. */
typedef struct {
    char  *base;
    size_t pitch, height;     /* bytes per row, rows per slice */
    bool   dev;               /* device memory: the registry checks the extent */
    bool   array;
    drv_array_span_t span;    /* array: its level */
} side_t;

static CUresult side(const char *fn, int type, const void *host, CUdeviceptr dev, CUarray array, size_t pitch,
                     size_t height, size_t lod, size_t w, size_t h, side_t *out)
{
    memset(out, 0, sizeof *out);
    out->pitch = pitch ? pitch : w;
    out->height = height ? height : h;
    switch (type) {
    case CU_MEMORYTYPE_HOST:    out->base = (char *)host; return CUDA_SUCCESS;
    case CU_MEMORYTYPE_DEVICE:  out->base = PTR(dev); out->dev = true; return CUDA_SUCCESS;
    case CU_MEMORYTYPE_UNIFIED: out->base = PTR(dev); out->dev = drv_alloc_find((uintptr_t)dev, 0) != NULL; return CUDA_SUCCESS;
    case CU_MEMORYTYPE_ARRAY: {
        CUresult r = drv_array_span(array, fn, &out->span);
        if (r)
            return r;
        if (lod)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "an array's LOD in a copy must be 0 (copy to a level "
                            "of a mipmapped array through cuMipmappedArrayGetLevel)");
        out->base = (char *)out->span.base;
        out->pitch = out->span.row;
        out->height = out->span.rows;
        out->array = true;
        return CUDA_SUCCESS;
    }
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* Whether the box at (x bytes, y, z) of w bytes x h x d fits side s: ISA_ST_OK's analogue
 * for copies, with the reason said for an array. */
static CUresult side_fits(const char *fn, const side_t *s, size_t x, size_t y, size_t z, size_t w, size_t h, size_t d)
{
    if (s->array) {
        const drv_array_span_t *a = &s->span;
        /* byte offsets and widths need not be whole elements (the H100's driver copies
         * from byte 2 of a float array: tests/apps/arrays.cu) */
        if (x > a->row || w > a->row - x || y > a->rows || h > a->rows - y || z > a->slices || d > a->slices - z)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the copy (%zu bytes x %zu x %zu at %zu, %zu, %zu) "
                            "goes beyond the array (%zu bytes x %zu x %zu)", w, h, d, x, y, z, a->row, a->rows,
                            a->slices);
        return CUDA_SUCCESS;
    }
    if (!s->dev)
        return CUDA_SUCCESS;
    size_t off = (z * s->height + y) * s->pitch + x, ext = ((d - 1) * s->height + (h - 1)) * s->pitch + w;
    return dev_ok((uintptr_t)s->base + off, ext) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult drv_copy3d(const CUDA_MEMCPY3D *c, CUstream s, bool sync)
{
    static const char fn[] = "cuMemcpy3D";
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    if (s && (r = drv_stream_check(s)))
        return r;
    if (drv_capture_of(s))
        return drv_capture_copy(s, c);
    size_t w = c->WidthInBytes, h = c->Height ? c->Height : 1, d = c->Depth ? c->Depth : 1;
    side_t src, dst;
    if ((r = side(fn, c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcPitch, c->srcHeight,
                  c->srcLOD, w, h, &src)) ||
        (r = side(fn, c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstPitch, c->dstHeight,
                  c->dstLOD, w, h, &dst)))
        return r;
    if ((!src.array && c->srcPitch && c->srcPitch < w + c->srcXInBytes) ||
        (!dst.array && c->dstPitch && c->dstPitch < w + c->dstXInBytes))
        return CUDA_ERROR_INVALID_VALUE;
    if (w == 0 || c->Height == 0 || c->Depth == 0)
        return CUDA_SUCCESS;
    if ((r = side_fits(fn, &src, c->srcXInBytes, c->srcY, c->srcZ, w, h, d)) ||
        (r = side_fits(fn, &dst, c->dstXInBytes, c->dstY, c->dstZ, w, h, d)))
        return r;
    char *sp = src.base + (c->srcZ * src.height + c->srcY) * src.pitch + c->srcXInBytes;
    char *dp = dst.base + (c->dstZ * dst.height + c->dstY) * dst.pitch + c->dstXInBytes;
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++)
            memmove(dp + (z * dst.height + y) * dst.pitch, sp + (z * src.height + y) * src.pitch, w);
    if (sync)
        drv_flush_output();
    return CUDA_SUCCESS;
}

static void to3d(const CUDA_MEMCPY2D *c, CUDA_MEMCPY3D *o)
{
    memset(o, 0, sizeof *o);
    o->srcXInBytes = c->srcXInBytes; o->srcY = c->srcY; o->srcMemoryType = c->srcMemoryType;
    o->srcHost = c->srcHost; o->srcDevice = c->srcDevice; o->srcArray = c->srcArray; o->srcPitch = c->srcPitch;
    o->dstXInBytes = c->dstXInBytes; o->dstY = c->dstY; o->dstMemoryType = c->dstMemoryType;
    o->dstHost = c->dstHost; o->dstDevice = c->dstDevice; o->dstArray = c->dstArray; o->dstPitch = c->dstPitch;
    o->WidthInBytes = c->WidthInBytes; o->Height = c->Height; o->Depth = 1;
}

static CUresult copy2d(const CUDA_MEMCPY2D *c, CUstream s, bool sync)
{
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_MEMCPY3D t;
    to3d(c, &t);
    return drv_copy3d(&t, s, sync);
}

DRV_API CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *c) { return copy2d(c, NULL, true); }
DRV_API CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *c) { return copy2d(c, NULL, true); }
DRV_API CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *c, CUstream s) { return copy2d(c, s, false); }
DRV_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *c) { return drv_copy3d(c, NULL, true); }
DRV_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *c, CUstream s) { return drv_copy3d(c, s, false); }
DRV_API CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *c) { return copy2d(c, NULL, true); }
DRV_API CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *c) { return copy2d(c, NULL, true); }
DRV_API CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *c, CUstream s) { return copy2d(c, s, false); }
DRV_API CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *c) { return drv_copy3d(c, NULL, true); }
DRV_API CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *c, CUstream s) { return drv_copy3d(c, s, false); }

/* cuMemcpy3DPeer: both contexts are on the one device, so it is cuMemcpy3D once they are
 * checked (an array side's context is ignored, as the driver API says). */
static CUresult copy3d_peer(const CUDA_MEMCPY3D_PEER *p, CUstream s, bool sync)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    if ((p->srcMemoryType != CU_MEMORYTYPE_ARRAY && p->srcContext && !drv_ctx_valid(p->srcContext)) ||
        (p->dstMemoryType != CU_MEMORYTYPE_ARRAY && p->dstContext && !drv_ctx_valid(p->dstContext)))
        return CUDA_ERROR_INVALID_CONTEXT;
    CUDA_MEMCPY3D c = {
        .srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcZ = p->srcZ, .srcLOD = p->srcLOD,
        .srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost, .srcDevice = p->srcDevice,
        .srcArray = p->srcArray, .srcPitch = p->srcPitch, .srcHeight = p->srcHeight,
        .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstZ = p->dstZ, .dstLOD = p->dstLOD,
        .dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstDevice = p->dstDevice,
        .dstArray = p->dstArray, .dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
        .WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = p->Depth };
    return drv_copy3d(&c, s, sync);
}
DRV_API CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *p) { return copy3d_peer(p, NULL, true); }
DRV_API CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *p) { return copy3d_peer(p, NULL, true); }
DRV_API CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *p, CUstream s) { return copy3d_peer(p, s, false); }
DRV_API CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *p, CUstream s) { return copy3d_peer(p, s, false); }

/* The copies of CUDA 2.0 between an array and linear memory: ByteCount bytes at a byte
 * offset into the array's first row (they are meant for 1D arrays), as one-row 3D copies. */
static CUresult copy_array(int dtype, void *dhost, CUdeviceptr ddev, CUarray da, size_t doff, int stype,
                           const void *shost, CUdeviceptr sdev, CUarray sa, size_t soff, size_t n, CUstream s,
                           bool sync)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.dstMemoryType = dtype, c.dstHost = dhost, c.dstDevice = ddev, c.dstArray = da;
    c.srcMemoryType = stype, c.srcHost = shost, c.srcDevice = sdev, c.srcArray = sa;
    if (dtype == CU_MEMORYTYPE_ARRAY)
        c.dstXInBytes = doff;
    if (stype == CU_MEMORYTYPE_ARRAY)
        c.srcXInBytes = soff;
    c.WidthInBytes = n;
    c.Height = c.Depth = 1;
    return drv_copy3d(&c, s, sync);
}
#define HOST CU_MEMORYTYPE_HOST
#define DEV  CU_MEMORYTYPE_DEVICE
#define ARR  CU_MEMORYTYPE_ARRAY
DRV_API CUresult cuMemcpyHtoA_v2(CUarray a, size_t off, const void *h, size_t n) { return copy_array(ARR, NULL, 0, a, off, HOST, h, 0, NULL, 0, n, NULL, true); }
DRV_API CUresult cuMemcpyAtoH_v2(void *h, CUarray a, size_t off, size_t n) { return copy_array(HOST, h, 0, NULL, 0, ARR, NULL, 0, a, off, n, NULL, true); }
DRV_API CUresult cuMemcpyDtoA_v2(CUarray a, size_t off, CUdeviceptr d, size_t n) { return copy_array(ARR, NULL, 0, a, off, DEV, NULL, d, NULL, 0, n, NULL, false); }
DRV_API CUresult cuMemcpyAtoD_v2(CUdeviceptr d, CUarray a, size_t off, size_t n) { return copy_array(DEV, NULL, d, NULL, 0, ARR, NULL, 0, a, off, n, NULL, false); }
DRV_API CUresult cuMemcpyAtoA_v2(CUarray da, size_t doff, CUarray sa, size_t soff, size_t n) { return copy_array(ARR, NULL, 0, da, doff, ARR, NULL, 0, sa, soff, n, NULL, false); }
DRV_API CUresult cuMemcpyHtoAAsync_v2(CUarray a, size_t off, const void *h, size_t n, CUstream s) { return copy_array(ARR, NULL, 0, a, off, HOST, h, 0, NULL, 0, n, s, false); }
DRV_API CUresult cuMemcpyAtoHAsync_v2(void *h, CUarray a, size_t off, size_t n, CUstream s) { return copy_array(HOST, h, 0, NULL, 0, ARR, NULL, 0, a, off, n, s, false); }
DRV_API CUresult cuMemcpyHtoA_v2_ptds(CUarray a, size_t off, const void *h, size_t n) { return cuMemcpyHtoA_v2(a, off, h, n); }
DRV_API CUresult cuMemcpyAtoH_v2_ptds(void *h, CUarray a, size_t off, size_t n) { return cuMemcpyAtoH_v2(h, a, off, n); }
DRV_API CUresult cuMemcpyDtoA_v2_ptds(CUarray a, size_t off, CUdeviceptr d, size_t n) { return cuMemcpyDtoA_v2(a, off, d, n); }
DRV_API CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr d, CUarray a, size_t off, size_t n) { return cuMemcpyAtoD_v2(d, a, off, n); }
DRV_API CUresult cuMemcpyAtoA_v2_ptds(CUarray da, size_t doff, CUarray sa, size_t soff, size_t n) { return cuMemcpyAtoA_v2(da, doff, sa, soff, n); }
DRV_API CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray a, size_t off, const void *h, size_t n, CUstream s) { return cuMemcpyHtoAAsync_v2(a, off, h, n, s); }
DRV_API CUresult cuMemcpyAtoHAsync_v2_ptsz(void *h, CUarray a, size_t off, size_t n, CUstream s) { return cuMemcpyAtoHAsync_v2(h, a, off, n, s); }
#undef HOST
#undef DEV
#undef ARR

/* Set n elements of size es (1, 2, 4) at d, rows of width elements `pitch` bytes apart. */
CUresult drv_set2d(CUdeviceptr d, size_t pitch, uint32_t v, unsigned es, size_t width, size_t height, CUstream s)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (s && (r = drv_stream_check(s)))
        return r;
    if (drv_capture_of(s))
        return drv_capture_set(s, d, pitch, v, es, width, height);
    if (width == 0 || height == 0)
        return CUDA_SUCCESS;
    if (height > 1 && pitch < width * es)
        return CUDA_ERROR_INVALID_VALUE;
    if ((uintptr_t)d % es || (height > 1 && pitch % es))
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_ok(d, (height - 1) * pitch + width * es))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t y = 0; y < height; y++) {
        uint8_t *row = (uint8_t *)PTR(d) + y * pitch;
        if (es == 1)
            memset(row, (int)(v & 0xff), width);
        else if (es == 2)
            for (size_t i = 0; i < width; i++) { uint16_t x = (uint16_t)v; memcpy(row + 2 * i, &x, 2); }
        else
            for (size_t i = 0; i < width; i++) memcpy(row + 4 * i, &v, 4);
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { return drv_set2d(d, n, v, 1, n, 1, NULL); }
DRV_API CUresult cuMemsetD16_v2(CUdeviceptr d, unsigned short v, size_t n) { return drv_set2d(d, 2 * n, v, 2, n, 1, NULL); }
DRV_API CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned int v, size_t n) { return drv_set2d(d, 4 * n, v, 4, n, 1, NULL); }
DRV_API CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { return drv_set2d(d, n, v, 1, n, 1, s); }
DRV_API CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) { return drv_set2d(d, 2 * n, v, 2, n, 1, s); }
DRV_API CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s) { return drv_set2d(d, 4 * n, v, 4, n, 1, s); }
DRV_API CUresult cuMemsetD2D8_v2(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) { return drv_set2d(d, p, v, 1, w, h, NULL); }
DRV_API CUresult cuMemsetD2D16_v2(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) { return drv_set2d(d, p, v, 2, w, h, NULL); }
DRV_API CUresult cuMemsetD2D32_v2(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) { return drv_set2d(d, p, v, 4, w, h, NULL); }
DRV_API CUresult cuMemsetD2D8Async(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream s) { return drv_set2d(d, p, v, 1, w, h, s); }
DRV_API CUresult cuMemsetD2D16Async(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream s) { return drv_set2d(d, p, v, 2, w, h, s); }
DRV_API CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream s) { return drv_set2d(d, p, v, 4, w, h, s); }
DRV_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr d, unsigned char v, size_t n) { return cuMemsetD8_v2(d, v, n); }
DRV_API CUresult cuMemsetD16_v2_ptds(CUdeviceptr d, unsigned short v, size_t n) { return cuMemsetD16_v2(d, v, n); }
DRV_API CUresult cuMemsetD32_v2_ptds(CUdeviceptr d, unsigned int v, size_t n) { return cuMemsetD32_v2(d, v, n); }
DRV_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { return cuMemsetD8Async(d, v, n, s); }
DRV_API CUresult cuMemsetD16Async_ptsz(CUdeviceptr d, unsigned short v, size_t n, CUstream s) { return cuMemsetD16Async(d, v, n, s); }
DRV_API CUresult cuMemsetD32Async_ptsz(CUdeviceptr d, unsigned int v, size_t n, CUstream s) { return cuMemsetD32Async(d, v, n, s); }
DRV_API CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) { return cuMemsetD2D8_v2(d, p, v, w, h); }
DRV_API CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) { return cuMemsetD2D16_v2(d, p, v, w, h); }
DRV_API CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) { return cuMemsetD2D32_v2(d, p, v, w, h); }
DRV_API CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream s) { return cuMemsetD2D8Async(d, p, v, w, h, s); }
DRV_API CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream s) { return cuMemsetD2D16Async(d, p, v, w, h, s); }
DRV_API CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream s) { return cuMemsetD2D32Async(d, p, v, w, h, s); }

/* Managed memory hints: the emulator's memory is one, so they change no result; they check
 * their operands as the driver does and are remembered (per allocation) for
 * cuMemRangeGetAttribute.  Locations are CUmemLocation {type, id}: 1 a device, 2 the host,
 * 3 a host NUMA node, 4 the current host NUMA node. */
enum { LOC_NONE, LOC_DEVICE, LOC_HOST, LOC_HOST_NUMA, LOC_HOST_NUMA_CURRENT };
enum { CPU_DEVICE = -1, INVALID_DEVICE = -2 };

CUresult drv_check_location(CUmemLocation loc)
{
    switch (loc.type) {
    case LOC_DEVICE: return loc.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
    case LOC_HOST: case LOC_HOST_NUMA: case LOC_HOST_NUMA_CURRENT: return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

static CUmemLocation device_location(CUdevice dev)
{
    CUmemLocation l = { dev == CPU_DEVICE ? LOC_HOST : LOC_DEVICE, dev == CPU_DEVICE ? 0 : dev };
    return l;
}

/* The managed allocation holding [d, d+n), locked; NULL (unlocked) when there is none. */
static drv_alloc_t *managed_range(CUdeviceptr d, size_t n)
{
    pthread_mutex_lock(&drv.lock);
    size_t i = find_slot((uintptr_t)d);
    if (i > 0) {
        drv_alloc_t *c = &drv.allocs[i - 1];
        if (c->kind == DRV_MEM_MANAGED && (uintptr_t)d - c->base < c->size && n <= c->size - ((uintptr_t)d - c->base))
            return c;
    }
    pthread_mutex_unlock(&drv.lock);
    return NULL;
}

bool drv_managed_holds(CUdeviceptr d, size_t n)
{
    drv_alloc_t *a = managed_range(d, n);
    if (a)
        pthread_mutex_unlock(&drv.lock);
    return a != NULL;
}

CUresult drv_prefetch(CUdeviceptr d, size_t n, CUmemLocation loc, unsigned flags, CUstream s)
{
    CUresult r = drv_enter(NULL);
    if (r || (r = drv_stream_check(s)))
        return r;
    if (flags || !n)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_check_location(loc)))
        return r;
    drv_alloc_t *a = managed_range(d, n);
    if (!a)
        return CUDA_ERROR_INVALID_VALUE;
    a->pf_type = loc.type == LOC_DEVICE ? LOC_DEVICE : LOC_HOST;
    a->pf_id = loc.type == LOC_DEVICE ? loc.id : 0;
    pthread_mutex_unlock(&drv.lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemPrefetchAsync(CUdeviceptr d, size_t n, CUdevice dev, CUstream s)
{
    return drv_prefetch(d, n, device_location(dev), 0, s);
}
DRV_API CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr d, size_t n, CUdevice dev, CUstream s) { return cuMemPrefetchAsync(d, n, dev, s); }
DRV_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr d, size_t n, CUmemLocation loc, unsigned flags, CUstream s)
{
    return drv_prefetch(d, n, loc, flags, s);
}
DRV_API CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr d, size_t n, CUmemLocation loc, unsigned flags, CUstream s)
{
    return drv_prefetch(d, n, loc, flags, s);
}

enum { ADV_SET_READ_MOSTLY = 1, ADV_UNSET_READ_MOSTLY, ADV_SET_PREFERRED, ADV_UNSET_PREFERRED, ADV_SET_ACCESSED_BY,
       ADV_UNSET_ACCESSED_BY };

static CUresult advise(CUdeviceptr d, size_t n, int advice, CUmemLocation loc)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (advice < ADV_SET_READ_MOSTLY || advice > ADV_UNSET_ACCESSED_BY || !n)
        return CUDA_ERROR_INVALID_VALUE;
    bool needs_loc = advice == ADV_SET_PREFERRED || advice == ADV_SET_ACCESSED_BY || advice == ADV_UNSET_ACCESSED_BY;
    if (needs_loc && (r = drv_check_location(loc)))
        return r;
    drv_alloc_t *a = managed_range(d, n);
    if (!a)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned bit = loc.type == LOC_DEVICE ? 1u : 2u;
    switch (advice) {
    case ADV_SET_READ_MOSTLY: a->read_mostly = true; break;
    case ADV_UNSET_READ_MOSTLY: a->read_mostly = false; break;
    case ADV_SET_PREFERRED:
        a->pref_type = loc.type == LOC_DEVICE ? LOC_DEVICE : LOC_HOST;
        a->pref_id = loc.type == LOC_DEVICE ? loc.id : 0;
        break;
    case ADV_UNSET_PREFERRED: a->pref_type = LOC_NONE, a->pref_id = 0; break;
    case ADV_SET_ACCESSED_BY: a->accessed_by |= bit; break;
    case ADV_UNSET_ACCESSED_BY: a->accessed_by &= ~bit; break;
    }
    pthread_mutex_unlock(&drv.lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemAdvise(CUdeviceptr d, size_t n, int advice, CUdevice dev)
{
    return advise(d, n, advice, device_location(dev));
}
DRV_API CUresult cuMemAdvise_v2(CUdeviceptr d, size_t n, int advice, CUmemLocation loc) { return advise(d, n, advice, loc); }

/* CUmem_range_attribute */
enum { RA_READ_MOSTLY = 1, RA_PREFERRED_LOCATION, RA_ACCESSED_BY, RA_LAST_PREFETCH_LOCATION, RA_PREFERRED_LOCATION_TYPE,
       RA_PREFERRED_LOCATION_ID, RA_LAST_PREFETCH_LOCATION_TYPE, RA_LAST_PREFETCH_LOCATION_ID };

static int as_device(int type, int id) { return type == LOC_DEVICE ? id : type == LOC_NONE ? INVALID_DEVICE : CPU_DEVICE; }

DRV_API CUresult cuMemRangeGetAttribute(void *data, size_t size, int attribute, CUdeviceptr d, size_t n)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!data || !n)
        return CUDA_ERROR_INVALID_VALUE;
    if (attribute == RA_ACCESSED_BY ? size == 0 || size % 4 : size != 4)
        return CUDA_ERROR_INVALID_VALUE;
    if (attribute < RA_READ_MOSTLY || attribute > RA_LAST_PREFETCH_LOCATION_ID)
        return CUDA_ERROR_INVALID_VALUE;
    drv_alloc_t *a = managed_range(d, n);
    if (!a)
        return CUDA_ERROR_INVALID_VALUE;
    int *o = data;
    switch (attribute) {
    case RA_READ_MOSTLY: *o = a->read_mostly; break;
    case RA_PREFERRED_LOCATION: *o = as_device(a->pref_type, a->pref_id); break;
    case RA_ACCESSED_BY: {
        size_t k = 0, m = size / 4;
        if ((a->accessed_by & 1) && k < m)
            o[k++] = 0;
        if ((a->accessed_by & 2) && k < m)
            o[k++] = CPU_DEVICE;
        while (k < m)
            o[k++] = INVALID_DEVICE;
        break;
    }
    case RA_LAST_PREFETCH_LOCATION: *o = as_device(a->pf_type, a->pf_id); break;
    case RA_PREFERRED_LOCATION_TYPE: *o = a->pref_type; break;
    case RA_PREFERRED_LOCATION_ID: *o = a->pref_type == LOC_DEVICE ? a->pref_id : a->pref_type ? 0 : INVALID_DEVICE; break;
    case RA_LAST_PREFETCH_LOCATION_TYPE: *o = a->pf_type; break;
    case RA_LAST_PREFETCH_LOCATION_ID: *o = a->pf_type == LOC_DEVICE ? a->pf_id : a->pf_type ? 0 : INVALID_DEVICE; break;
    }
    pthread_mutex_unlock(&drv.lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemRangeGetAttributes(void **data, size_t *sizes, int *attributes, size_t nattr, CUdeviceptr d,
                                         size_t n)
{
    if (!data || !sizes || !attributes || !nattr)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < nattr; i++) {
        CUresult r = cuMemRangeGetAttribute(data[i], sizes[i], attributes[i], d, n);
        if (r)
            return r;
    }
    return CUDA_SUCCESS;
}

/*{=====================================================================
 * Pointer attributes
 *====================================================================*/

static CUresult attr(void *data, int which, CUdeviceptr p, bool lenient)
{
    const drv_alloc_t *a = drv_alloc_find((uintptr_t)p, 0);
    if (a && (uintptr_t)p == a->base + a->size)
        a = NULL;
    bool managed = a && a->kind == DRV_MEM_MANAGED;
    bool hostmem = a && (a->kind == DRV_MEM_HOST || a->kind == DRV_MEM_REGISTERED);
    if (!a && !lenient)
        return CUDA_ERROR_INVALID_VALUE;
    switch (which) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = a ? a->ctx : NULL; break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = !a ? 0 : hostmem ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        if (!a)
            return CUDA_ERROR_INVALID_VALUE;
        *(CUdeviceptr *)data = p; break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        /* memory the driver does not know is host memory to cuPointerGetAttributes: the
         * H100's driver gives the pointer itself (tests/apps/props.cu) */
        if (a ? !hostmem && !managed : !lenient)
            return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = PTR(p); break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        *(int *)data = 1; break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = a ? a->id : 0; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(int *)data = managed; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = a ? 0 : -2; break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
        *(int *)data = a && a->kind == DRV_MEM_DEVICE; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *(CUdeviceptr *)data = a ? a->base : 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)data = a ? a->req : 0; break;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(int *)data = a != NULL; break;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        *(unsigned long long *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
        *(int *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        *(unsigned *)data = a ? 3 : 0; break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(void **)data = NULL; break;
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
        *(size_t *)data = a ? a->size : 0; break;
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        *(void **)data = a ? (void *)a->base : NULL; break;
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        *(unsigned long long *)data = a ? a->id : 0; break;
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
        *(int *)data = 0; break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuPointerGetAttribute(void *data, int which, CUdeviceptr p)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    return attr(data, which, p, false);
}

DRV_API CUresult cuPointerGetAttributes(unsigned int n, int *which, void **data, CUdeviceptr p)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!which || !data)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) {
        if (!data[i])
            continue;
        CUresult r = attr(data[i], which[i], p, true);
        if (r == CUDA_ERROR_INVALID_VALUE && which[i] >= CU_POINTER_ATTRIBUTE_CONTEXT &&
            which[i] <= CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE) {
            memset(data[i], 0, 8);   /* an attribute that does not apply to p reads as zero */
            continue;
        }
        if (r)
            return r;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuPointerSetAttribute(const void *value, int which, CUdeviceptr p)
{
    (void)value;
    if (which != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_alloc_find((uintptr_t)p, 0) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* Forget the registry entry at base without releasing its memory (module variables). */
void drv_alloc_forget(uintptr_t base)
{
    drv_alloc_t a;
    remove_at(base, 1u << DRV_MEM_MODULE, &a);
}

/* A mapping of virtual memory management made accessible (vmm.c): device memory for
 * kernels, in the registry as memory the driver does not free itself. */
CUresult drv_alloc_add_vmm(void *base, size_t size)
{
    if (ex_device_map(drv.dev, base, size) != ISA_ST_OK)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = drv_alloc_add(base, size, DRV_MEM_MODULE, 0, false);
    if (r)
        ex_device_unmap(drv.dev, base);
    return r;
}

/* Memory of another process mapped here (ipc.c): device memory, released through
 * drv_ipc_unmap when freed or closed. */
CUresult drv_alloc_add_ipc(void *base, size_t size)
{
    return drv_alloc_add(base, size, DRV_MEM_DEVICE, DRV_ALLOC_IPC, false);
}

/* Close the mapping at base that drv_alloc_add_ipc registered; false if there is none. */
bool drv_alloc_remove_ipc(uintptr_t base)
{
    drv_alloc_t a;
    if (!remove_at(base, 1u << DRV_MEM_DEVICE, &a))
        return false;
    release(&a);
    return true;
}

/* Whether p lies in an allocation of cuMemAlloc's: its base and size. */
bool drv_alloc_is_arena(uintptr_t p, uintptr_t *base, size_t *size)
{
    const drv_alloc_t *a = drv_alloc_find(p, 0);
    if (!a || a->kind != DRV_MEM_DEVICE || !(a->flags & ARENA_FLAG))
        return false;
    *base = a->base;
    *size = a->size;
    return true;
}

void drv_alloc_remove_vmm(uintptr_t base)
{
    drv_alloc_forget(base);
    ex_device_unmap(drv.dev, (void *)base);
}
