/* drv.h: the inside of the emulator's CUDA driver (libcuda.so.1): one emulated H100 (the
 * runtime's device), its contexts, the allocations, modules and their functions, streams and
 * events.  Work submitted to a stream runs when it is submitted, in the calling thread, so
 * that every stream's order (and the legacy default stream's synchronisation with the
 * others) holds; what the kernels print reaches stdout at the synchronising calls, as on the
 * GPU.  A kernel's fault is reported on stderr at once and becomes the context's sticky
 * error, returned by the calls that follow (docs/driver.md). */
#ifndef PTXEMU_DRV_H
#define PTXEMU_DRV_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "runtime/driver/cu.h"
#include "runtime/rt.h"

#define DRV_API __attribute__((visibility("default")))

/* A function in a table of functions; DRV_SIZE(n): the size word a private table starts with. */
typedef void (*drv_fn_t)(void);
#define DRV_SIZE(n) ((drv_fn_t)(uintptr_t)((n) * sizeof(void *)))

/* Driver functions the driver itself calls. */
CUresult cuModuleLoadData(CUmodule *out, const void *image);
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice d);
CUresult cuGetErrorName(CUresult e, const char **s);
CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d);
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d);
CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f);
CUresult cuEventRecord(CUevent e, CUstream s);

/* Handle tags: the first word of every object the driver hands out. */
enum { DRV_CTX = 0x43545831, DRV_MODULE = 0x4d4f4431, DRV_FUNC = 0x46554e31, DRV_STREAM = 0x53545231,
       DRV_EVENT = 0x45564e31, DRV_LINK = 0x4c4e4b31 };

/* The attributes a stream keeps (CUstreamAttrID): the access policy window, the
 * synchronization policy, the memory synchronization domain and its map.  They have no
 * effect on the emulator; they are read back as set. */
#define DRV_SATTR_N 17
typedef struct { CUlaunchAttributeValue v[DRV_SATTR_N]; } drv_sattr_t;

typedef struct drv_ctx {
    uint32_t   tag;
    bool       primary;
    bool       destroyed;
    unsigned   flags;
    unsigned   refs;          /* primary: retains; other contexts: 1 */
    CUresult   sticky;        /* a kernel's fault: every call in the context returns it */
    uint64_t   stack_size;    /* CU_LIMIT_STACK_SIZE */
    size_t     sync_depth, pending_launches, l2_fetch, l2_persisting;   /* the other limits set */
    int        cache_config;
    int        shmem_config;
    drv_sattr_t null_attr;    /* the attributes of the NULL (legacy and per-thread) stream */
    struct cls { void *key, *value; void (*dtor)(CUcontext, void *, void *); struct cls *next; } *cls;
} drv_ctx_t;

typedef struct drv_func drv_func_t;
typedef struct drv_module {
    uint32_t      tag;
    drv_ctx_t    *ctx;
    isa_module_t *m;
    ex_program_t *p;
    char         *name;       /* what diagnostics call it */
    uint32_t      nfunc;
    drv_func_t  **funcs;      /* per IR function: its handle (made on first use) */
    uint32_t     *hw_local;   /* per IR function: the stack frame of its H100 code, in bytes
                                 (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), where the registers
                                 ptxas allocated are known (ex_entry_regs) */
    bool          kres_tried; /* ptxas was asked (module.c: drv_func_regs) */
    unsigned      maxrreg;    /* CU_JIT_MAX_REGISTERS it was loaded (or linked) with, or 0 */
} drv_module_t;

struct drv_func {
    uint32_t      tag;
    drv_module_t *mod;
    uint32_t      entry;
    uint32_t      max_dyn_shared;   /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
    int           carveout;
    int           cache_config;
    uint32_t      cluster[3];       /* CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_*: set at run time, or 0 */
    bool          nonportable;      /* CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED */
    int           cluster_policy;   /* CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE */
    uint32_t      params_size;
    uint32_t     *param_offset, *param_size;   /* per parameter */
    bool          checked, runnable;           /* ex_program_check_entry done, its answer */
    bool          may_wait;                    /* it may wait for the host (ex_entry_may_wait):
                                                  its launches run on the device thread */
};

typedef struct drv_capture drv_capture_t;   /* a stream capture in progress (graph.c) */

typedef struct drv_stream {
    uint32_t  tag;
    drv_ctx_t *ctx;
    unsigned  flags;
    int       priority;
    drv_capture_t *cap;       /* the capture the stream takes part in, or NULL */
    void    **cdeps;          /* while capturing: the graph nodes its next work depends on */
    size_t    ncdeps;
    drv_sattr_t attr;         /* cuStreamSetAttribute's values */
} drv_stream_t;

typedef struct drv_event {
    uint32_t  tag;
    drv_ctx_t *ctx;
    unsigned  flags;
    bool      recorded;
    bool      pending;        /* recorded behind a launch that goes on: it completes (and its
                                 time is taken) when that launch ends (drv_defer_event) */
    double    time;           /* seconds (CLOCK_MONOTONIC) when it was recorded */
    drv_capture_t *cap;       /* recorded in a capturing stream: that capture ... */
    void    **cdeps;          /* ... and the stream's dependencies then */
    size_t    ncdeps;
} drv_event_t;

/* Kinds of memory the driver hands out. */
typedef enum { DRV_MEM_DEVICE, DRV_MEM_HOST, DRV_MEM_MANAGED, DRV_MEM_REGISTERED, DRV_MEM_MODULE } drv_memkind_t;
typedef struct {
    uintptr_t     base;
    size_t        size;
    size_t        req;        /* the bytes asked for (size is rounded): the address range's size */
    drv_memkind_t kind;
    drv_ctx_t    *ctx;
    unsigned      flags;
    uint64_t      id;         /* CU_POINTER_ATTRIBUTE_BUFFER_ID */
    /* managed memory's advice and prefetches (kept per allocation; CUmemLocation type and
     * id, type 0 = none), answered by cuMemRangeGetAttribute */
    bool          read_mostly;
    int           pref_type, pref_id;
    int           pf_type, pf_id;
    unsigned      accessed_by;   /* bit 0: device 0, bit 1: the host */
} drv_alloc_t;

/* The driver's state. */
typedef struct {
    pthread_mutex_t lock;          /* guards what follows */
    bool            inited;
    bool            forked;   /* this process was forked after cuInit: nothing works (measured) */
    bool            exiting;     /* the process is running its exit handlers */
    ex_device_t    *dev;
    drv_ctx_t       primary;
    bool            primary_active;
    unsigned        primary_flags;
    drv_alloc_t    *allocs;        /* sorted by base */
    size_t          nalloc, calloc_;
    uint64_t        next_id;
    ex_launch_t     launch;        /* settings every launch starts from (PTXEMU_* environment) */
    FILE           *diag;          /* where the driver's messages go (stderr) */
    int             loading_mode;
} drv_state_t;

extern drv_state_t drv;

/* The current context of the calling thread (NULL: none). */
drv_ctx_t *drv_current(void);
void       drv_ctx_limits_default(drv_ctx_t *c);
void       drv_at_exit(void);
/* Wait for a launch that went on after its call returned (launch.c), and apply its end
 * (a fault's sticky error; a non-sticky error is returned, once).  Every driver call
 * does so first (drv_enter_ctx and the calls that need no context).  drv_join_at_exit
 * stops it first. */
CUresult   drv_join(void);
void       drv_join_at_exit(void);
/* Whether such a launch is still running: stream queries answer CUDA_ERROR_NOT_READY
 * without waiting, and an event recorded meanwhile completes when it ends
 * (drv_defer_event: false when it cannot be deferred; then record it after drv_join). */
bool       drv_launch_running(void);
bool       drv_defer_event(struct drv_event *e);
CUresult   drv_read_file(const char *path, char **out, size_t *len);
/* The PTX NVRTC made with the cubin image (size bytes, 0: as its ELF headers say), when
 * runtime/nvrtc's library is preloaded and handed that cubin out; else NULL. */
const char *drv_nvrtc_ptx(const void *image, size_t size);
int        drv_thread_capture_mode(void);
CUresult   drv_capture_unsafe(const char *fn);
CUresult   drv_preferred_cluster(const char *fn, const unsigned pref[3], const unsigned *cluster,
                                 const unsigned grid[3]);
CUresult   drv_capture_sync(CUstream s, const char *fn);
/* Work that cannot be captured (what: its name) on a capturing stream: the capture
 * invalidated, CUDA_ERROR_NOT_SUPPORTED said for fn; else CUDA_SUCCESS. */
CUresult   drv_capture_refuse(CUstream s, const char *fn, const char *what);
void       drv_set_current(drv_ctx_t *c);
/* The check at the start of every call that works in the current context: the driver is
 * initialised, a context is current, it has no sticky error.  CUDA_SUCCESS or why not. */
/* The device attribute attr (a CUdevice_attribute) of the emulated H100; 0 for an unknown one. */
int        drv_attr_value(int attr);
/* Stream-ordered allocation (mem.c) and the memory pools that count it (pool.c). */
CUresult   drv_mem_alloc_async(CUdeviceptr *dp, size_t n, CUstream s);
CUresult   drv_pool_alloc_current(CUdeviceptr *dp, size_t n, CUstream s);
void       drv_pool_forget(uintptr_t base);
/* Whether base is an allocation of a memory pool's (the default pool's too). */
bool       drv_pool_owns(uintptr_t base);
/* Virtual memory management's accessible mappings as device memory (mem.c, for vmm.c). */
CUresult   drv_alloc_add_vmm(void *base, size_t size);
void       drv_alloc_remove_vmm(uintptr_t base);

/* Memory shared with other processes (ipc.c, pool.c).  Arena chunks move into one memory
 * file when first shared (mem.c); another process maps len bytes of it from off, and the
 * memory it wants is delta bytes into them. */
#define DRV_MEMFD_NAME "ptxemu-device-memory"
#define DRV_ALLOC_IPC  0x20000000u   /* drv_alloc_t.flags: another process's memory, mapped here */
typedef struct { int fd; uint64_t off, len, delta; } drv_share_t;
bool       drv_arena_share(uintptr_t base, size_t size, drv_share_t *out);
int        drv_arena_memfd(void);
/* Whether p lies in an allocation of cuMemAlloc's: its base and size. */
bool       drv_alloc_is_arena(uintptr_t p, uintptr_t *base, size_t *size);
CUresult   drv_alloc_add_ipc(void *base, size_t size);
bool       drv_alloc_remove_ipc(uintptr_t base);
/* Map len bytes from off of the memory file fd and register size bytes delta bytes in as
 * device memory (the out pointer); undo it (the registry's release calls drv_ipc_unmap). */
CUresult   drv_ipc_map(int fd, uint64_t off, uint64_t len, uint64_t delta, uint64_t size, void **out);
void       drv_ipc_unmap(uintptr_t base);
/* Whether fd is a memory file of ptxemu's of that name (made by this or another process). */
bool       drv_memfd_is(int fd, const char *name);
CUresult   drv_enter(drv_ctx_t **out);
/* ... for a call on the device itself (memory pools, virtual memory management): the
 * driver initialised and no sticky error; a current context is not needed (NVIDIA's
 * runtime creates and imports pools before it makes one; the sample memMapIPCDrv creates
 * allocations after destroying its contexts). */
CUresult   drv_enter_device(void);
/* ... and for a call that names its context (NULL: the current one). */
CUresult   drv_enter_ctx(drv_ctx_t *c);
/* ... and for a call on an object of context oc (a stream's, an event's; NULL: none): the
 * current context, or oc when none is current (the H100's driver needs none there: app
 * test ctx_current); *out (when not NULL) the context taken. */
CUresult   drv_enter_for(drv_ctx_t *oc, drv_ctx_t **out);
/* The context of a stream object (stream.c); NULL for the NULL, legacy, per-thread streams. */
drv_ctx_t *drv_stream_ctx(CUstream s);
bool       drv_ctx_valid(const drv_ctx_t *c);

/* Say once on stderr that a driver function is not implemented; CUDA_ERROR_NOT_SUPPORTED. */
CUresult   drv_unsupported(const char *fn);
/* Report an error in words on stderr ("ptxemu: cuFoo: ..."); returns r. */
/* The error log (logs.c): level 0 an error, 1 a warning. */
void       drv_vlog(int level, const char *source, const char *fmt, va_list ap);
void       drv_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
CUresult   drv_fail(CUresult r, const char *fn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The JIT's log buffers (CU_JIT_ERROR_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER and their sizes;
 * link.c): the buffer, its capacity, and the caller's option slot that learns how much was
 * written. */
typedef struct drv_jit_log { char *buf; size_t cap, used; void **size_slot; } drv_jit_log_t;
/* The log options among n JIT options (both logs emptied; CU_JIT_WALL_TIME answers 0). */
void       drv_jit_options(unsigned n, const int *opts, void **vals, drv_jit_log_t *err, drv_jit_log_t *info,
                           unsigned *maxrreg);
/* The first line of a linked image made with CU_JIT_MAX_REGISTERS N: this, then N. */
#define DRV_MAXRREG_MARK "// CU_JIT_MAX_REGISTERS "
/* Append text to a log (truncated to its capacity). */
void       drv_jit_log_put(drv_jit_log_t *g, const char *text);

/* Allocation registry (mem.c). */
CUresult   drv_alloc_add(void *base, size_t size, drv_memkind_t kind, unsigned flags, bool map);
/* The allocation holding [p, p + n) (n may be 0), or NULL. */
const drv_alloc_t *drv_alloc_find(uintptr_t p, size_t n);
void       drv_alloc_remove_ctx(drv_ctx_t *c);
/* Forget the registry entry at base without releasing its memory (module variables). */
void       drv_alloc_forget(uintptr_t base);

/* Device memory taken by what is not an allocation (arrays): CUDA_ERROR_OUT_OF_MEMORY
 * beyond the device's memory (mem.c). */
CUresult   drv_mem_reserve(size_t n);
void       drv_mem_unreserve(size_t n);

/* CUDA arrays (array.c).  A copy reaches an array's texels through its span: one level of
 * an array, rows of `row` bytes packed, `rows` rows per slice, `slices` slices (the depth
 * or the layers; 1 for a 1D or 2D array). */
typedef struct {
    uint8_t *base;
    size_t   row, rows, slices;
    unsigned elem;            /* bytes per element */
} drv_array_span_t;
/* The span of array a; CUDA_ERROR_INVALID_HANDLE (said on stderr, for fn) when a names no
 * live array. */
CUresult   drv_array_span(CUarray a, const char *fn, drv_array_span_t *out);
/* Destroy the arrays, mipmapped arrays, texture and surface objects of context c. */
void       drv_array_remove_ctx(drv_ctx_t *c);

/* Synchronisation points: the kernels' printf text goes to stdout, failed assertions'
 * messages to stderr (stream.c). */
void       drv_flush_output(void);

/* Streams: a handle is valid (NULL, the legacy and per-thread handles, or a live stream). */
CUresult   drv_stream_check(CUstream s);

/* Launch (launch.c). */
/* The registers ptxas allocated for f's entry (from the fatbin's SASS, else ptxas run once
 * on its module where the CUDA toolkit is installed), 0 when not known (module.c). */
uint32_t   drv_func_regs(drv_func_t *f);
CUresult   drv_launch(const char *fn, drv_func_t *f, const unsigned grid[3], const unsigned block[3],
                      unsigned shared, CUstream s, void **params, void **extra, bool cooperative,
                      const unsigned *cluster);
CUresult   drv_func_prepare(drv_func_t *f);
drv_func_t *drv_module_func(drv_module_t *m, uint32_t entry);

/* Copies and sets in stream s, as the cuMemcpy3D and cuMemsetD2D forms do them (mem.c). */
CUresult   drv_copy3d(const CUDA_MEMCPY3D *c, CUstream s, bool sync);
/* A linear copy of n bytes (mem.c); dst_dev/src_dev: that side must lie in an allocation. */
CUresult   drv_copy(const char *fn, void *dst, const void *src, size_t n, bool dst_dev, bool src_dev, CUstream s,
                    bool sync);
/* A memory location names the device or the host (CUDA_ERROR_INVALID_DEVICE, _VALUE). */
CUresult   drv_check_location(CUmemLocation loc);
/* Whether one managed allocation holds [d, d + n). */
bool       drv_managed_holds(CUdeviceptr d, size_t n);
/* Pinned host memory for a pool located on the host, reachable by the device or not yet,
 * and that reach granted or taken away (mem.c). */
CUresult   drv_mem_alloc_pool_host(CUdeviceptr *dp, size_t n, bool device);
CUresult   drv_mem_pool_host_access(uintptr_t base, bool device);
/* cuMemPrefetchAsync_v2. */
CUresult   drv_prefetch(CUdeviceptr d, size_t n, CUmemLocation loc, unsigned flags, CUstream s);
CUresult   drv_set2d(CUdeviceptr d, size_t pitch, uint32_t v, unsigned es, size_t width, size_t height, CUstream s);

/* Stream capture (graph.c): the capture stream s takes part in (NULL: none), and its work
 * recorded as graph nodes instead of running (a kernel's node into *out). */
struct drv_node;
drv_capture_t *drv_capture_of(CUstream s);
CUresult   drv_capture_kernel(CUstream s, drv_func_t *f, const unsigned grid[3], const unsigned block[3],
                              unsigned shared, void **params, void **extra, struct drv_node **out);
CUresult   drv_capture_copy(CUstream s, const CUDA_MEMCPY3D *c);
CUresult   drv_capture_set(CUstream s, CUdeviceptr d, size_t pitch, unsigned v, unsigned es, size_t w, size_t h);
CUresult   drv_capture_host(CUstream s, CUhostFn fn, void *user);
CUresult   drv_capture_record(CUstream s, drv_event_t *e);
CUresult   drv_capture_wait(CUstream s, drv_event_t *e);
/* cuMemAllocAsync and cuMemFreeAsync in a capturing stream: memory alloc and free nodes. */
CUresult   drv_capture_mem_alloc(CUstream s, size_t bytes, CUdeviceptr *out);
CUresult   drv_capture_mem_free(CUstream s, CUdeviceptr d);
/* cuMemFree(Async) of d: true if d is a graph allocation (graph_mem.c), *out the result. */
bool       drv_graph_mem_free(const char *fn, CUdeviceptr d, CUresult *out);
/* Whether [p, p + n) lies in a graph allocation's addresses (graph_mem.c): copies captured
 * into a graph may name memory that its alloc nodes will allocate. */
bool       drv_gmem_holds(uintptr_t p, size_t n);
/* A stream being destroyed leaves the capture it takes part in (capture.c). */
CUresult   drv_capture_leave(drv_stream_t *s);
CUresult   drv_capture_info(CUstream s, int *status, unsigned long long *id, void **graph, const void **deps,
                            size_t *ndeps);

double     drv_now(void);
/* Whether e is a live event (stream.c). */
bool       drv_event_ok(const drv_event_t *e);

/* Link PTX units (link.c): fe_link_texts with the device services as the functions the
 * runtime provides; optional (NULL: none) marks archive members; the diagnostics go to diag. */
isa_status_t drv_link_units(unsigned n, const char *const *names, const char *const *texts, const size_t *lens,
                            const bool *optional, FILE *diag, isa_module_t **out);
/* Link the device-runtime functions written in PTX into *m where it declares one
 * (fe_link_devrt, with the services as provided names). */
isa_status_t drv_link_devrt(isa_module_t **m, FILE *diag);

#endif
