/* pool.c: memory pools for stream-ordered allocation (cuMemAllocAsync,
 * cuMemAllocFromPoolAsync): the device's default pool, pools the program creates, the
 * device's current pool, and their attributes.  Allocation in stream order is at once
 * here (as cuMemAllocAsync), so a pool is the allocations made from it: used memory is
 * their sum, reserved memory the same (the emulator keeps nothing back for reuse), and the
 * release threshold and reuse policies are kept and read back.  Only pinned device memory
 * of the one device is emulated.  A pool made with the POSIX file descriptor handle type
 * can be shared with other processes: its allocations live in the device arena's memory
 * file (mem.c, drv_arena_share), its handle is a descriptor of that file and an exported
 * pointer names the place of the allocation in it; the importing process maps that
 * (ipc.c).  Measured on the H100 (tests/apps/ipc_pool.cu): only a pool's allocation itself
 * (its base) is exported, an imported pool allocates nothing, and importing a pool in the
 * process that made it succeeds. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/driver/drv.h"

CUresult cuMemFree_v2(CUdeviceptr dp);
CUresult cuMemAllocManaged(CUdeviceptr *dp, size_t n, unsigned int flags);

#define DRV_POOL 0x706f6f6cu

/* What a pool's allocations are: device memory, pinned host memory (a pool located on
 * the host), managed memory. */
enum { POOL_DEVICE, POOL_HOST, POOL_MANAGED };

typedef struct drv_pool {
    uint32_t tag;
    bool     is_default;
    int      kind;               /* POOL_DEVICE, POOL_HOST, POOL_MANAGED */
    bool     device_access;      /* a host pool: the device reads and writes its memory */
    int      reuse[3];           /* REUSE_FOLLOW_EVENT_DEPENDENCIES, _ALLOW_OPPORTUNISTIC, _ALLOW_INTERNAL_DEPENDENCIES */
    uint64_t threshold;          /* RELEASE_THRESHOLD */
    uint64_t used, used_high;    /* USED_MEM_CURRENT / _HIGH (RESERVED_MEM_* are the same) */
    uint64_t reserved_high;
    size_t   n, cap;             /* the allocations made from the pool */
    struct { uintptr_t base; size_t size; } *blk;
    int      handle_types;       /* CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR or none */
    int      fd;                 /* an imported pool: the exporter's memory file, else -1 */
    struct drv_pool *next;       /* every pool, the destroyed ones with allocations left too */
} drv_pool_t;

#define POSIX_FD  1              /* CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR */
#define PTR_MAGIC 0x4c4f4f50u    /* "POOL": an exported pointer */

/* CUmemPoolPtrExportData's 64 bytes: where the allocation is in the memory file. */
typedef struct {
    uint32_t magic, zero;
    uint64_t off, len, delta, size;
} ptr_data_t;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
/* The default pool of each kind, and each kind's current pool (the device's current pool
 * is the device kind's). */
static drv_pool_t managed_default = { .tag = DRV_POOL, .is_default = true, .kind = POOL_MANAGED,
                                      .reuse = { 1, 1, 1 }, .fd = -1 };
static drv_pool_t host_default = { .tag = DRV_POOL, .is_default = true, .kind = POOL_HOST, .reuse = { 1, 1, 1 },
                                   .fd = -1, .next = &managed_default };
static drv_pool_t default_pool = { .tag = DRV_POOL, .is_default = true, .kind = POOL_DEVICE, .reuse = { 1, 1, 1 },
                                   .fd = -1, .next = &host_default };
static drv_pool_t *current[3] = { &default_pool, &host_default, &managed_default };
#define current_pool current[POOL_DEVICE]
static drv_pool_t *pools = &default_pool;
static drv_pool_t *const defaults[3] = { &default_pool, &host_default, &managed_default };

static bool pool_ok(const drv_pool_t *p) { return p && p->tag == DRV_POOL; }

DRV_API CUresult cuDeviceGetDefaultMemPool(drv_pool_t **out, CUdevice d)
{
    CUresult r = drv_enter(NULL);
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *out = &default_pool;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetMemPool(drv_pool_t **out, CUdevice d)
{
    CUresult r = drv_enter(NULL);
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&pool_lock);
    *out = current_pool;
    pthread_mutex_unlock(&pool_lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceSetMemPool(CUdevice d, drv_pool_t *p)
{
    CUresult r = drv_enter(NULL);
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        return r;
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!pool_ok(p))
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&pool_lock);
    current_pool = p;
    pthread_mutex_unlock(&pool_lock);
    return CUDA_SUCCESS;
}

enum { LOC_DEVICE = 1, LOC_HOST, LOC_HOST_NUMA, LOC_HOST_NUMA_CURRENT };   /* CUmemLocationType */
enum { ALLOC_PINNED = 1, ALLOC_MANAGED };                                      /* CUmemAllocationType */

/* The kind of pool for memory at loc of allocation type t, or -1 (both as the H100's driver
 * checks them: a device other than 0 is CUDA_ERROR_INVALID_VALUE too). */
static int pool_kind(const CUmemLocation *loc, int t)
{
    if (!loc || (t != ALLOC_PINNED && t != ALLOC_MANAGED))
        return -1;
    switch (loc->type) {
    case LOC_DEVICE: if (loc->id != 0) return -1; break;
    case LOC_HOST: case LOC_HOST_NUMA_CURRENT: break;
    case LOC_HOST_NUMA: if (loc->id != 0) return -1; break;
    default: return -1;
    }
    return t == ALLOC_MANAGED ? POOL_MANAGED : loc->type == LOC_DEVICE ? POOL_DEVICE : POOL_HOST;
}

DRV_API CUresult cuMemGetDefaultMemPool(drv_pool_t **out, CUmemLocation *loc, int type)
{
    CUresult r = drv_enter(NULL);
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        return r;
    int k = pool_kind(loc, type);
    if (!out || k < 0)
        return CUDA_ERROR_INVALID_VALUE;
    *out = defaults[k];
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemGetMemPool(drv_pool_t **out, CUmemLocation *loc, int type)
{
    CUresult r = drv_enter(NULL);
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        return r;
    int k = pool_kind(loc, type);
    if (!out || k < 0)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&pool_lock);
    *out = current[k];
    pthread_mutex_unlock(&pool_lock);
    return CUDA_SUCCESS;
}

/* The pool becomes the current one of its location and type (a pool of another kind is
 * CUDA_ERROR_INVALID_VALUE, as a device pool for the host is on the H100). */
DRV_API CUresult cuMemSetMemPool(CUmemLocation *loc, int type, drv_pool_t *p)
{
    CUresult r = drv_enter(NULL);
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        return r;
    int k = pool_kind(loc, type);
    if (k < 0 || !pool_ok(p) || p->kind != k)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&pool_lock);
    current[k] = p;
    pthread_mutex_unlock(&pool_lock);
    return CUDA_SUCCESS;
}

/* CUmemPoolProps: { allocType, handleTypes, location { type, id }, win32SecurityAttributes,
 * maxSize, usage, reserved[54] }. */
typedef struct {
    int            alloc_type, handle_types;
    CUmemLocation  loc;
    void          *win32;
    size_t         max_size;
    unsigned short usage;
    unsigned char  reserved[54];
} pool_props_t;

DRV_API CUresult cuMemPoolCreate(drv_pool_t **out, const pool_props_t *props)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!out || !props || (props->alloc_type != ALLOC_PINNED && props->alloc_type != ALLOC_MANAGED))
        return CUDA_ERROR_INVALID_VALUE;
    if (props->loc.type == LOC_DEVICE && props->loc.id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    int kind = pool_kind(&props->loc, props->alloc_type);
    if (kind < 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (props->handle_types & ~POSIX_FD)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "pools with export handle types other than a POSIX file "
                        "descriptor (%#x) are not emulated", (unsigned)props->handle_types);
    if (props->handle_types && kind != POOL_DEVICE)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "exporting a pool of %s memory is not emulated (only "
                        "pools of device memory)", kind == POOL_HOST ? "host" : "managed");
    drv_pool_t *p = calloc(1, sizeof *p);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    p->tag = DRV_POOL;
    p->kind = kind;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->handle_types = props->handle_types;
    p->fd = -1;
    pthread_mutex_lock(&pool_lock);
    p->next = pools;
    pools = p;
    pthread_mutex_unlock(&pool_lock);
    *out = p;
    return CUDA_SUCCESS;
}

/* Destroying a pool with allocations outstanding: they stay valid until freed (as the
 * driver defers the release); the object goes once they are. */
DRV_API CUresult cuMemPoolDestroy(drv_pool_t *p)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!pool_ok(p) || p->is_default)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&pool_lock);
    if (current[p->kind] == p)
        current[p->kind] = defaults[p->kind];
    p->tag = 0;
    if (p->fd >= 0) {
        close(p->fd);
        p->fd = -1;
    }
    if (!p->n) {
        for (drv_pool_t **pp = &pools; *pp; pp = &(*pp)->next)
            if (*pp == p) {
                *pp = p->next;
                break;
            }
        free(p->blk);
        free(p);
    }
    pthread_mutex_unlock(&pool_lock);
    return CUDA_SUCCESS;
}

enum { ATTR_FOLLOW = 1, ATTR_OPPORTUNISTIC, ATTR_INTERNAL, ATTR_THRESHOLD, ATTR_RES_CUR, ATTR_RES_HIGH, ATTR_USED_CUR,
       ATTR_USED_HIGH };

DRV_API CUresult cuMemPoolSetAttribute(drv_pool_t *p, int attr, void *value)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!pool_ok(p) || !value)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&pool_lock);
    switch (attr) {
    case ATTR_FOLLOW: case ATTR_OPPORTUNISTIC: case ATTR_INTERNAL:
        p->reuse[attr - ATTR_FOLLOW] = *(const int *)value != 0;
        break;
    case ATTR_THRESHOLD:
        p->threshold = *(const uint64_t *)value;
        break;
    case ATTR_RES_HIGH: case ATTR_USED_HIGH:   /* only a reset to zero (to the current value) */
        if (*(const uint64_t *)value != 0)
            r = CUDA_ERROR_INVALID_VALUE;
        else if (attr == ATTR_RES_HIGH)
            p->reserved_high = p->used;
        else
            p->used_high = p->used;
        break;
    default:
        r = CUDA_ERROR_INVALID_VALUE;
        break;
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

DRV_API CUresult cuMemPoolGetAttribute(drv_pool_t *p, int attr, void *value)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!pool_ok(p) || !value)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&pool_lock);
    switch (attr) {
    case ATTR_FOLLOW: case ATTR_OPPORTUNISTIC: case ATTR_INTERNAL:
        *(int *)value = p->reuse[attr - ATTR_FOLLOW];
        break;
    case ATTR_THRESHOLD: *(uint64_t *)value = p->threshold; break;
    case ATTR_RES_CUR: case ATTR_USED_CUR: *(uint64_t *)value = p->used; break;
    case ATTR_RES_HIGH: *(uint64_t *)value = p->reserved_high; break;
    case ATTR_USED_HIGH: *(uint64_t *)value = p->used_high; break;
    default: r = CUDA_ERROR_INVALID_VALUE; break;
    }
    pthread_mutex_unlock(&pool_lock);
    return r;
}

/* Nothing is kept back for reuse: there is nothing to trim. */
DRV_API CUresult cuMemPoolTrimTo(drv_pool_t *p, size_t keep)
{
    (void)keep;
    CUresult r = drv_enter_device();
    return r ? r : pool_ok(p) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* CUmemAccessDesc: { location { type, id }, flags }.  The one device reads and writes
 * every pool of device and managed memory; a pool located on the host gives the device
 * access only once it is granted (the H100 faults on its memory before: app test
 * batch_mem), and the host always has it. */
typedef struct { CUmemLocation loc; int flags; } access_desc_t;
enum { ACCESS_NONE = 0, ACCESS_READ = 1, ACCESS_READWRITE = 3 };

DRV_API CUresult cuMemPoolSetAccess(drv_pool_t *p, const access_desc_t *map, size_t count)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!pool_ok(p) || (count && !map))
        return CUDA_ERROR_INVALID_VALUE;
    int device = -1;   /* a host pool's new device access: -1 unchanged, 0 none, 1 read and write */
    for (size_t i = 0; i < count; i++) {
        bool host_loc = map[i].loc.type == LOC_HOST || map[i].loc.type == LOC_HOST_NUMA ||
                        map[i].loc.type == LOC_HOST_NUMA_CURRENT;
        if (p->kind == POOL_HOST && host_loc) {
            if (map[i].flags != ACCESS_READWRITE)   /* the owner's access cannot be lowered */
                return CUDA_ERROR_INVALID_VALUE;
            continue;
        }
        if (map[i].loc.type != LOC_DEVICE || map[i].loc.id != 0)
            return CUDA_ERROR_INVALID_DEVICE;
        if (p->kind != POOL_HOST) {
            if (map[i].flags != ACCESS_READWRITE)   /* the owning device's access cannot be lowered */
                return CUDA_ERROR_INVALID_VALUE;
            continue;
        }
        if (map[i].flags == ACCESS_READ)
            return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "read-only access of the device to a pool of host "
                            "memory is not emulated (grant CU_MEM_ACCESS_FLAGS_PROT_READWRITE or none)");
        if (map[i].flags != ACCESS_NONE && map[i].flags != ACCESS_READWRITE)
            return CUDA_ERROR_INVALID_VALUE;
        device = map[i].flags == ACCESS_READWRITE;
    }
    if (device < 0)
        return CUDA_SUCCESS;
    pthread_mutex_lock(&pool_lock);
    p->device_access = device;
    for (size_t i = 0; i < p->n && !r; i++)
        r = drv_mem_pool_host_access(p->blk[i].base, device);
    pthread_mutex_unlock(&pool_lock);
    return r;
}

DRV_API CUresult cuMemPoolGetAccess(int *flags, drv_pool_t *p, const CUmemLocation *loc)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!flags || !pool_ok(p) || !loc)
        return CUDA_ERROR_INVALID_VALUE;
    if (p->kind == POOL_HOST &&
        (loc->type == LOC_HOST || loc->type == LOC_HOST_NUMA || loc->type == LOC_HOST_NUMA_CURRENT)) {
        *flags = ACCESS_READWRITE;
        return CUDA_SUCCESS;
    }
    if (loc->type != LOC_DEVICE || loc->id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&pool_lock);
    /* a managed pool answers none, though the device reaches its memory (measured) */
    *flags = p->kind == POOL_DEVICE || p->device_access ? ACCESS_READWRITE : ACCESS_NONE;
    pthread_mutex_unlock(&pool_lock);
    return CUDA_SUCCESS;
}

static CUresult pool_alloc(drv_pool_t *p, CUdeviceptr *dp, size_t n, CUstream s)
{
    if (p->fd >= 0)   /* an imported pool */
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r;
    if (p->kind != POOL_DEVICE) {
        /* host or managed memory, at once as the device's */
        if ((r = drv_stream_check(s)))
            return r;
        if (drv_capture_of(s))
            return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuMemAllocFromPoolAsync", "a graph's memory nodes allocate "
                            "device memory only (this pool's is %s memory)", p->kind == POOL_HOST ? "host" : "managed");
        if (!dp || n == 0)
            return CUDA_ERROR_INVALID_VALUE;
        pthread_mutex_lock(&pool_lock);
        bool device = p->device_access;
        pthread_mutex_unlock(&pool_lock);
        r = p->kind == POOL_HOST ? drv_mem_alloc_pool_host(dp, n, device)
                                 : cuMemAllocManaged(dp, n, 1 /* ATTACH_GLOBAL */);
    } else {
        r = drv_mem_alloc_async(dp, n, s);
    }
    if (r || drv_capture_of(s))
        return r;
    drv_share_t sh;
    if (p->handle_types && !drv_arena_share((uintptr_t)*dp, n, &sh)) {
        cuMemFree_v2(*dp);
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAllocFromPoolAsync", "no shareable memory for %zu bytes", n);
    }
    pthread_mutex_lock(&pool_lock);
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        void *nb = realloc(p->blk, cap * sizeof *p->blk);
        if (!nb) {
            pthread_mutex_unlock(&pool_lock);
            cuMemFree_v2(*dp);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        p->blk = nb;
        p->cap = cap;
    }
    p->blk[p->n].base = (uintptr_t)*dp;
    p->blk[p->n].size = n;
    p->n++;
    p->used += n;
    if (p->used > p->used_high)
        p->used_high = p->used;
    if (p->used > p->reserved_high)
        p->reserved_high = p->used;
    pthread_mutex_unlock(&pool_lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dp, size_t n, drv_pool_t *p, CUstream s)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!pool_ok(p))
        return CUDA_ERROR_INVALID_VALUE;
    return pool_alloc(p, dp, n, s);
}
DRV_API CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dp, size_t n, drv_pool_t *p, CUstream s)
{
    return cuMemAllocFromPoolAsync(dp, n, p, s);
}

/* cuMemAllocAsync allocates from the device's current pool. */
CUresult drv_pool_alloc_current(CUdeviceptr *dp, size_t n, CUstream s)
{
    pthread_mutex_lock(&pool_lock);
    drv_pool_t *p = current_pool;
    pthread_mutex_unlock(&pool_lock);
    return pool_alloc(p, dp, n, s);
}

/* An allocation at base is freed: the pool it came from no longer counts it (and a
 * destroyed pool goes with its last allocation). */
void drv_pool_forget(uintptr_t base)
{
    pthread_mutex_lock(&pool_lock);
    for (drv_pool_t **pp = &pools; *pp; pp = &(*pp)->next) {
        drv_pool_t *p = *pp;
        for (size_t i = p->n; i-- > 0;)
            if (p->blk[i].base == base) {
                p->used -= p->blk[i].size;
                p->blk[i] = p->blk[--p->n];
                if (!p->n && p->tag != DRV_POOL) {
                    *pp = p->next;
                    free(p->blk);
                    free(p);
                }
                pthread_mutex_unlock(&pool_lock);
                return;
            }
    }
    pthread_mutex_unlock(&pool_lock);
}

/* The pool whose allocation has its base at p (NULL: none); the pool lock held. */
static drv_pool_t *owner(uintptr_t p, size_t *size)
{
    for (drv_pool_t *q = pools; q; q = q->next)
        for (size_t i = 0; i < q->n; i++)
            if (q->blk[i].base == p) {
                *size = q->blk[i].size;
                return q;
            }
    return NULL;
}

bool drv_pool_owns(uintptr_t base)
{
    size_t size;
    pthread_mutex_lock(&pool_lock);
    bool r = owner(base, &size) != NULL;
    pthread_mutex_unlock(&pool_lock);
    return r;
}

/*{=====================================================================
 * Pools shared with other processes
 *====================================================================*/

DRV_API CUresult cuMemPoolExportToShareableHandle(void *out, drv_pool_t *p, int type, unsigned long long flags)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!out || !pool_ok(p) || flags || type != POSIX_FD || !(p->handle_types & type) || p->fd >= 0)
        return CUDA_ERROR_INVALID_VALUE;
    int fd = drv_arena_memfd();
    int d = fd < 0 ? -1 : dup(fd);   /* inherited by programs the process starts, as a descriptor is */
    if (d < 0)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, __func__, "no memory file to share");
    *(int *)out = d;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemPoolImportFromShareableHandle(drv_pool_t **out, void *handle, int type, unsigned long long flags)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    int fd = (int)(intptr_t)handle;
    if (!out || flags || type != POSIX_FD)
        return CUDA_ERROR_INVALID_VALUE;
    if (!drv_memfd_is(fd, DRV_MEMFD_NAME))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "descriptor %d is no pool's exported handle", fd);
    drv_pool_t *p = calloc(1, sizeof *p);
    if (!p || (p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    p->tag = DRV_POOL;
    p->kind = POOL_DEVICE;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->handle_types = type;
    pthread_mutex_lock(&pool_lock);
    p->next = pools;
    pools = p;
    pthread_mutex_unlock(&pool_lock);
    *out = p;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemPoolExportPointer(void *out, CUdeviceptr ptr)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    size_t size = 0;
    pthread_mutex_lock(&pool_lock);
    drv_pool_t *p = out ? owner((uintptr_t)ptr, &size) : NULL;
    bool ok = p && p->handle_types;
    pthread_mutex_unlock(&pool_lock);
    drv_share_t sh;
    if (!ok || !drv_arena_share((uintptr_t)ptr, size, &sh))
        return CUDA_ERROR_INVALID_VALUE;
    ptr_data_t d = { .magic = PTR_MAGIC, .off = sh.off, .len = sh.len, .delta = sh.delta, .size = size };
    memset(out, 0, 64);
    memcpy(out, &d, sizeof d);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemPoolImportPointer(CUdeviceptr *out, drv_pool_t *p, const void *data)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    ptr_data_t d;
    if (!out || !data || !pool_ok(p) || p->fd < 0)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(&d, data, sizeof d);
    if (d.magic != PTR_MAGIC)
        return CUDA_ERROR_INVALID_VALUE;
    void *m;
    if ((r = drv_ipc_map(p->fd, d.off, d.len, d.delta, d.size, &m)))
        return r;
    *out = (CUdeviceptr)(uintptr_t)m;
    return CUDA_SUCCESS;
}
