/* vmm.c: virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap,
 * cuMemSetAccess, cuMemUnmap, cuMemRelease, cuMemAddressFree).  The host's virtual memory
 * does what the GPU's does: a reservation is an inaccessible anonymous mapping, a physical
 * allocation is a memory file, mapping it maps the file over the reservation (so one
 * allocation mapped twice is one memory at two addresses), and access made read-write
 * opens the pages and makes the range device memory for kernels.  Pinned device memory of
 * the one device, with read-write access; 2 MiB granularity, as the H100's. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/driver/drv.h"

#define VMM_GRAN  (2u << 20)
#define DRV_PHYS  0x70687973u
#define POSIX_FD  1              /* CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR */
#define PHYS_NAME "ptxemu-cuMemCreate"

typedef struct {
    uint32_t tag;
    int      fd;
    size_t   size;
    unsigned refs;        /* the handle's references, plus one per mapping */
    unsigned hrefs;       /* the handle's references (cuMemCreate, cuMemRetainAllocationHandle) */
    unsigned char  compression, rdma;   /* CUmemAllocationProp.allocFlags, as given */
    unsigned short usage;
    int            handle_types;        /* the handle types it may be exported as */
} vmm_phys_t;

typedef struct vmm_map {
    uintptr_t       va;
    size_t          size, offset;
    vmm_phys_t     *phys;
    bool            access;   /* read-write, and device memory */
    struct vmm_map *next;
} vmm_map_t;

typedef struct vmm_resv {
    uintptr_t        va;
    size_t           size;
    void            *map_base;   /* what mmap returned (alignment slack included) */
    size_t           map_size;
    struct vmm_resv *next;
} vmm_resv_t;

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static vmm_map_t *maps;
static vmm_resv_t *resvs;

/* CUmemAllocationProp: { type, requestedHandleTypes, location { type, id },
 * win32HandleMetaData, allocFlags { compressionType, gpuDirectRDMACapable, usage,
 * reserved[4] } }. */
typedef struct {
    int           type, handle_types;
    CUmemLocation loc;
    void         *win32;
    unsigned char compression, rdma;
    unsigned short usage;
    unsigned char reserved[4];
} alloc_prop_t;

static CUresult prop_check(const char *fn, const alloc_prop_t *p)
{
    if (!p || p->type != 1 /* PINNED */)
        return CUDA_ERROR_INVALID_VALUE;
    if (p->loc.type != 1 /* DEVICE */)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "allocations located other than on the device (location type %d) "
                        "are not emulated", p->loc.type);
    if (p->loc.id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (p->handle_types & ~POSIX_FD)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "shareable handle types other than a POSIX file descriptor "
                        "(%#x) are not emulated", (unsigned)p->handle_types);
    if (p->compression > 1)   /* CU_MEM_ALLOCATION_COMP_NONE or _GENERIC */
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemGetAllocationGranularity(size_t *g, const alloc_prop_t *prop, int option)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!g || (option != 0 && option != 1))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = prop_check(__func__, prop)))
        return r;
    *g = VMM_GRAN;   /* minimum and recommended alike */
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t align, CUdeviceptr addr,
                                     unsigned long long flags)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!ptr || size == 0 || size % VMM_GRAN || flags || (align & (align - 1)))
        return CUDA_ERROR_INVALID_VALUE;
    (void)addr;   /* a hint */
    if (align < VMM_GRAN)
        align = VMM_GRAN;
    size_t total = size + align;
    void *m = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return CUDA_ERROR_OUT_OF_MEMORY;
    vmm_resv_t *v = calloc(1, sizeof *v);
    if (!v) {
        munmap(m, total);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    v->map_base = m;
    v->map_size = total;
    v->va = ((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1);
    v->size = size;
    pthread_mutex_lock(&vmm_lock);
    v->next = resvs;
    resvs = v;
    pthread_mutex_unlock(&vmm_lock);
    *ptr = (CUdeviceptr)v->va;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    pthread_mutex_lock(&vmm_lock);
    for (vmm_resv_t **pp = &resvs; *pp; pp = &(*pp)->next) {
        vmm_resv_t *v = *pp;
        if (v->va != (uintptr_t)ptr || v->size != size)
            continue;
        for (vmm_map_t *m = maps; m; m = m->next)
            if (m->va >= v->va && m->va < v->va + v->size) {
                pthread_mutex_unlock(&vmm_lock);
                return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the range at %#llx is still mapped",
                                (unsigned long long)ptr);
            }
        *pp = v->next;
        munmap(v->map_base, v->map_size);
        free(v);
        pthread_mutex_unlock(&vmm_lock);
        return CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&vmm_lock);
    return CUDA_ERROR_INVALID_VALUE;
}

static void phys_unref(vmm_phys_t *p)
{
    if (--p->refs == 0) {
        close(p->fd);
        p->tag = 0;
        free(p);
    }
}

DRV_API CUresult cuMemCreate(unsigned long long *h, size_t size, const alloc_prop_t *prop, unsigned long long flags)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!h || size == 0 || size % VMM_GRAN || flags)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = prop_check(__func__, prop)))
        return r;
    int fd = memfd_create(PHYS_NAME, MFD_CLOEXEC);
    if (fd < 0)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    vmm_phys_t *p = calloc(1, sizeof *p);
    if (!p) {
        close(fd);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    p->tag = DRV_PHYS;
    p->fd = fd;
    p->size = size;
    p->compression = prop->compression;   /* granted, as the H100 grants generic compression */
    p->rdma = prop->rdma;
    p->usage = prop->usage;
    p->handle_types = prop->handle_types;
    p->refs = p->hrefs = 1;
    *h = (unsigned long long)(uintptr_t)p;
    return CUDA_SUCCESS;
}

static vmm_phys_t *phys_of(unsigned long long h)
{
    vmm_phys_t *p = (vmm_phys_t *)(uintptr_t)h;
    return p && p->tag == DRV_PHYS && p->hrefs ? p : NULL;
}

/* The memory goes once no mapping uses it. */
DRV_API CUresult cuMemRelease(unsigned long long h)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    pthread_mutex_lock(&vmm_lock);
    vmm_phys_t *p = phys_of(h);
    if (!p) {
        pthread_mutex_unlock(&vmm_lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    p->hrefs--;
    phys_unref(p);
    pthread_mutex_unlock(&vmm_lock);
    return CUDA_SUCCESS;
}

static vmm_resv_t *resv_holding(uintptr_t va, size_t size)
{
    for (vmm_resv_t *v = resvs; v; v = v->next)
        if (va >= v->va && va - v->va <= v->size && size <= v->size - (va - v->va))
            return v;
    return NULL;
}

DRV_API CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, unsigned long long h, unsigned long long flags)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    uintptr_t va = (uintptr_t)ptr;
    pthread_mutex_lock(&vmm_lock);
    vmm_phys_t *p = phys_of(h);
    r = CUDA_ERROR_INVALID_VALUE;
    if (!p || flags || size == 0 || va % VMM_GRAN || size % VMM_GRAN || offset % VMM_GRAN || offset > p->size ||
        size > p->size - offset || !resv_holding(va, size))
        goto out;
    for (vmm_map_t *m = maps; m; m = m->next)
        if (va < m->va + m->size && m->va < va + size)
            goto out;   /* already mapped there */
    vmm_map_t *m = calloc(1, sizeof *m);
    if (!m) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
        goto out;
    }
    if (mmap((void *)va, size, PROT_NONE, MAP_SHARED | MAP_FIXED, p->fd, (off_t)offset) == MAP_FAILED) {
        free(m);
        r = CUDA_ERROR_OUT_OF_MEMORY;
        goto out;
    }
    m->va = va;
    m->size = size;
    m->offset = offset;
    m->phys = p;
    p->refs++;
    m->next = maps;
    maps = m;
    r = CUDA_SUCCESS;
out:
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

/* Take away a mapping's device memory (and its pages: the reservation's again). */
static void map_close(vmm_map_t *m)
{
    if (m->access) {
        drv_alloc_remove_vmm(m->va);
        m->access = false;
    }
    mmap((void *)m->va, m->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

DRV_API CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    uintptr_t va = (uintptr_t)ptr;
    pthread_mutex_lock(&vmm_lock);
    bool any = false;
    for (vmm_map_t **pp = &maps; *pp;) {
        vmm_map_t *m = *pp;
        if (m->va >= va && m->va + m->size <= va + size) {
            map_close(m);
            *pp = m->next;
            phys_unref(m->phys);
            free(m);
            any = true;
        } else if (m->va < va + size && va < m->va + m->size) {
            pthread_mutex_unlock(&vmm_lock);
            return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the range cuts a mapping (%#llx, %zu bytes) in parts",
                            (unsigned long long)m->va, m->size);
        } else {
            pp = &m->next;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
    return any ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* CUmemAccessDesc: { location { type, id }, flags }. */
typedef struct { CUmemLocation loc; int flags; } access_desc_t;

DRV_API CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const access_desc_t *desc, size_t count)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!desc || !count)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) {
        if (desc[i].loc.type != 1 || desc[i].loc.id != 0)
            return CUDA_ERROR_INVALID_DEVICE;
        if (desc[i].flags != 3)
            return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "access other than read-write (flags %d) is not emulated",
                            desc[i].flags);
    }
    uintptr_t va = (uintptr_t)ptr;
    pthread_mutex_lock(&vmm_lock);
    /* The range must be mapped throughout. */
    size_t covered = 0;
    for (vmm_map_t *m = maps; m; m = m->next)
        if (m->va >= va && m->va + m->size <= va + size)
            covered += m->size;
    if (covered != size) {
        pthread_mutex_unlock(&vmm_lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (vmm_map_t *m = maps; m; m = m->next) {
        if (!(m->va >= va && m->va + m->size <= va + size) || m->access)
            continue;
        if (mprotect((void *)m->va, m->size, PROT_READ | PROT_WRITE) != 0 ||
            (r = drv_alloc_add_vmm((void *)m->va, m->size)) != CUDA_SUCCESS) {
            pthread_mutex_unlock(&vmm_lock);
            return r ? r : CUDA_ERROR_OUT_OF_MEMORY;
        }
        m->access = true;
    }
    pthread_mutex_unlock(&vmm_lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *loc, CUdeviceptr ptr)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!flags || !loc)
        return CUDA_ERROR_INVALID_VALUE;
    if (loc->type != 1 || loc->id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&vmm_lock);
    r = CUDA_ERROR_INVALID_VALUE;
    for (vmm_map_t *m = maps; m; m = m->next)
        if ((uintptr_t)ptr >= m->va && (uintptr_t)ptr < m->va + m->size) {
            *flags = m->access ? 3 : 0;
            r = CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

DRV_API CUresult cuMemRetainAllocationHandle(unsigned long long *h, void *addr)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    if (!h)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    r = CUDA_ERROR_INVALID_VALUE;
    for (vmm_map_t *m = maps; m; m = m->next)
        if ((uintptr_t)addr >= m->va && (uintptr_t)addr < m->va + m->size) {
            m->phys->refs++;
            m->phys->hrefs++;
            *h = (unsigned long long)(uintptr_t)m->phys;
            r = CUDA_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

DRV_API CUresult cuMemGetAllocationPropertiesFromHandle(alloc_prop_t *prop, unsigned long long h)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    pthread_mutex_lock(&vmm_lock);
    vmm_phys_t *p = phys_of(h);
    pthread_mutex_unlock(&vmm_lock);
    if (!prop || !p)
        return CUDA_ERROR_INVALID_VALUE;
    memset(prop, 0, sizeof *prop);
    prop->type = 1;
    prop->loc.type = 1;
    prop->loc.id = 0;
    prop->compression = p->compression;
    prop->rdma = p->rdma;
    prop->usage = p->usage;
    prop->handle_types = p->handle_types;
    return CUDA_SUCCESS;
}

/* Shared with other processes as a file descriptor of its memory file (the program passes
 * it on, over a socket or to a program it starts); an imported allocation may not be
 * exported again (measured: its properties name no handle type). */
DRV_API CUresult cuMemExportToShareableHandle(void *out, unsigned long long h, int type, unsigned long long flags)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    pthread_mutex_lock(&vmm_lock);
    vmm_phys_t *p = phys_of(h);
    int fd = p && out && !flags && type == POSIX_FD && (p->handle_types & type) ? dup(p->fd) : -2;
    pthread_mutex_unlock(&vmm_lock);
    if (fd == -2)
        return CUDA_ERROR_INVALID_VALUE;
    if (fd < 0)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, __func__, "no descriptor left (%s)", strerror(errno));
    *(int *)out = fd;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemImportFromShareableHandle(unsigned long long *h, void *handle, int type)
{
    CUresult r = drv_enter_device();
    if (r)
        return r;
    int fd = (int)(intptr_t)handle;
    if (!h || type != POSIX_FD)
        return CUDA_ERROR_INVALID_VALUE;
    struct stat st;
    if (!drv_memfd_is(fd, PHYS_NAME) || fstat(fd, &st) != 0 || st.st_size <= 0 || st.st_size % VMM_GRAN)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "descriptor %d is no exported allocation", fd);
    vmm_phys_t *p = calloc(1, sizeof *p);
    if (!p || (p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    p->tag = DRV_PHYS;
    p->size = (size_t)st.st_size;
    p->refs = p->hrefs = 1;
    *h = (unsigned long long)(uintptr_t)p;
    return CUDA_SUCCESS;
}
