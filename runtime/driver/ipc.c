/* ipc.c: memory and events shared between processes (cuIpcGetMemHandle, cuIpcOpenMemHandle,
 * cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle), and the mappings of
 * another process's memory that they and the pools' imports (pool.c) make.
 *
 * Device memory is host memory here, so sharing it is sharing pages: the chunks of the
 * device arena that hold an exported allocation move into one memory file (mem.c,
 * drv_arena_share) and stay at their addresses; a handle names the exporting process, its
 * file descriptor of that file and the place of the allocation in it, and the importing
 * process opens the file through /proc/PID/fd/FD and maps that part of it.  Both then see
 * one memory.  An event's work is done when it is recorded (stream.c), so an event opened
 * in another process is always complete, as on the GPU once the exporter's recorded work
 * has run.  Measured on the H100 (tests/apps/ipc.cu): a pointer inside an allocation
 * exports the whole allocation; pool memory, managed and host memory cannot be exported;
 * opening needs CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS; opening a handle again returns the same
 * pointer and counts; handles cannot be opened in the process that made them
 * (CUDA_ERROR_INVALID_CONTEXT). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/driver/drv.h"

#define MEM_MAGIC 0x4d435049u   /* "IPCM" */
#define EVT_MAGIC 0x45435049u   /* "IPCE" */

typedef struct { char reserved[64]; } ipc_handle_t;   /* CUipcMemHandle, CUipcEventHandle */

typedef struct {
    uint32_t magic;
    int32_t  pid, fd;            /* the exporting process and its descriptor of the memory file */
    uint32_t zero;
    uint64_t off, len, delta, size;   /* drv_share_t, and the allocation's size */
} mem_handle_t;

typedef struct {
    uint32_t magic;
    int32_t  pid;
    uint64_t id;
} evt_handle_t;

_Static_assert(sizeof(mem_handle_t) <= sizeof(ipc_handle_t) && sizeof(evt_handle_t) <= sizeof(ipc_handle_t),
               "an IPC handle has 64 bytes");

typedef struct ipc_map {
    uintptr_t       base;        /* the memory the program got */
    size_t          size;
    uint8_t        *map;         /* the mapping that holds it */
    size_t          len;
    int             pid;         /* a handle's (cuIpcOpenMemHandle): its process, else 0 */
    uint64_t        off, delta;
    unsigned        refs;
    struct ipc_map *next;
} ipc_map_t;

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static ipc_map_t *maps;

bool drv_memfd_is(int fd, const char *name)
{
    char path[64], link[128], want[96];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    snprintf(want, sizeof want, "/memfd:%s ", name);   /* (then "(deleted)") */
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n < 0)
        return false;
    link[n] = 0;
    return strncmp(link, want, strlen(want)) == 0;
}

static CUresult map_in(int fd, uint64_t off, uint64_t len, uint64_t delta, uint64_t size, ipc_map_t **out)
{
    if (!len || delta > len || size > len - delta)
        return CUDA_ERROR_INVALID_VALUE;
    ipc_map_t *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
    if (m == MAP_FAILED) {
        free(e);
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, "cuIpcOpenMemHandle", "the shared memory cannot be mapped (%s)",
                        strerror(errno));
    }
    e->map = m;
    e->len = len;
    e->base = (uintptr_t)m + delta;
    e->size = size;
    e->refs = 1;
    /* kernels reach the whole mapping, as the exporter's reach its chunks (exactly the
     * allocation with exact bounds) */
    bool exact = ex_device_exact_bounds(drv.dev);
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if (ex_device_map(drv.dev, exact ? (void *)e->base : m, exact ? size : len) == ISA_ST_OK) {
        if ((r = drv_alloc_add_ipc((void *)e->base, size)) != CUDA_SUCCESS)
            ex_device_unmap(drv.dev, exact ? (void *)e->base : m);
    }
    if (r) {
        munmap(m, len);
        free(e);
        return r;
    }
    pthread_mutex_lock(&ipc_lock);
    e->next = maps;
    maps = e;
    pthread_mutex_unlock(&ipc_lock);
    *out = e;
    return CUDA_SUCCESS;
}

CUresult drv_ipc_map(int fd, uint64_t off, uint64_t len, uint64_t delta, uint64_t size, void **out)
{
    ipc_map_t *e;
    CUresult r = map_in(fd, off, len, delta, size, &e);
    if (!r)
        *out = (void *)e->base;
    return r;
}

void drv_ipc_unmap(uintptr_t base)
{
    pthread_mutex_lock(&ipc_lock);
    ipc_map_t *e = NULL;
    for (ipc_map_t **pp = &maps; *pp; pp = &(*pp)->next)
        if ((*pp)->base == base) {
            e = *pp;
            *pp = e->next;
            break;
        }
    pthread_mutex_unlock(&ipc_lock);
    if (!e)
        return;
    ex_device_unmap(drv.dev, ex_device_exact_bounds(drv.dev) ? (void *)e->base : e->map);
    munmap(e->map, e->len);
    free(e);
}

/*{=====================================================================
 * Memory
 *====================================================================*/

DRV_API CUresult cuIpcGetMemHandle(ipc_handle_t *h, CUdeviceptr p)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    uintptr_t base;
    size_t size;
    if (!h || !drv_alloc_is_arena((uintptr_t)p, &base, &size) || drv_pool_owns(base))
        return CUDA_ERROR_INVALID_VALUE;
    drv_share_t sh;
    if (!drv_arena_share(base, size, &sh))
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, __func__, "the allocation at %#llx cannot be made shareable (%s)",
                        (unsigned long long)base, strerror(errno));
    mem_handle_t m = { .magic = MEM_MAGIC, .pid = getpid(), .fd = sh.fd, .off = sh.off, .len = sh.len,
                       .delta = sh.delta, .size = size };
    memset(h, 0, sizeof *h);
    memcpy(h->reserved, &m, sizeof m);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *out, ipc_handle_t h, unsigned int flags)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    mem_handle_t m;
    memcpy(&m, h.reserved, sizeof m);
    if (!out || flags != 1 /* CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS */ || m.magic != MEM_MAGIC || m.pid <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (m.pid == getpid())
        return CUDA_ERROR_INVALID_CONTEXT;
    pthread_mutex_lock(&ipc_lock);
    for (ipc_map_t *e = maps; e; e = e->next)
        if (e->pid == m.pid && e->off == m.off && e->delta == m.delta && e->refs) {
            e->refs++;
            *out = (CUdeviceptr)e->base;
            pthread_mutex_unlock(&ipc_lock);
            return CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&ipc_lock);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)m.pid, (int)m.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the memory of process %d cannot be opened (%s: %s)",
                        (int)m.pid, path, strerror(errno));
    if (!drv_memfd_is(fd, DRV_MEMFD_NAME)) {
        close(fd);
        return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "process %d holds no exported memory there (%s)",
                        (int)m.pid, path);
    }
    ipc_map_t *e;
    r = map_in(fd, m.off, m.len, m.delta, m.size, &e);
    close(fd);
    if (r)
        return r;
    pthread_mutex_lock(&ipc_lock);
    e->pid = m.pid;
    e->off = m.off;
    e->delta = m.delta;
    pthread_mutex_unlock(&ipc_lock);
    *out = (CUdeviceptr)e->base;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuIpcOpenMemHandle(CUdeviceptr *out, ipc_handle_t h, unsigned int flags)
{
    return cuIpcOpenMemHandle_v2(out, h, flags);
}

DRV_API CUresult cuIpcCloseMemHandle(CUdeviceptr p)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    pthread_mutex_lock(&ipc_lock);
    ipc_map_t *e = maps;
    while (e && !(e->base == (uintptr_t)p && e->pid && e->refs))
        e = e->next;
    bool last = e && --e->refs == 0;
    pthread_mutex_unlock(&ipc_lock);
    if (!e)
        return CUDA_ERROR_INVALID_VALUE;
    if (last)
        drv_alloc_remove_ipc((uintptr_t)p);
    return CUDA_SUCCESS;
}

/*{=====================================================================
 * Events
 *====================================================================*/

CUresult cuEventCreate(CUevent *out, unsigned int flags);

DRV_API CUresult cuIpcGetEventHandle(ipc_handle_t *h, CUevent e)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!h)
        return CUDA_ERROR_INVALID_VALUE;
    if (!drv_event_ok(e) || !(e->flags & CU_EVENT_INTERPROCESS))
        return CUDA_ERROR_INVALID_HANDLE;
    evt_handle_t v = { .magic = EVT_MAGIC, .pid = getpid(), .id = (uint64_t)(uintptr_t)e };
    memset(h, 0, sizeof *h);
    memcpy(h->reserved, &v, sizeof v);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuIpcOpenEventHandle(CUevent *out, ipc_handle_t h)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    evt_handle_t v;
    memcpy(&v, h.reserved, sizeof v);
    if (!out || v.magic != EVT_MAGIC || v.pid <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (v.pid == getpid())
        return CUDA_ERROR_INVALID_CONTEXT;
    return cuEventCreate(out, CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS);
}
