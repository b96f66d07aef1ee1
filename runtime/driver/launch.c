/* launch.c: kernel launches (cuLaunchKernel with kernelParams or extra, cuLaunchKernelEx with
 * its attributes, cooperative launches) on the emulated device, started when they are
 * submitted and run by the device thread, which lets a long launch go on while the host
 * program runs; a kernel's fault becomes the context's sticky error.  Occupancy from the
 * machine table. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/driver/drv.h"
#include "runtime/driver/graph.h"

/* The CUresult a launch's refusal names in its message ("... (CUDA_ERROR_X)"). */
static CUresult named_error(const char *msg, CUresult dflt)
{
    const char *p = strstr(msg, "(CUDA_ERROR_");
    if (!p)
        return dflt;
    p++;
    static const struct { const char *name; CUresult r; } names[] = {
#define CU_ERR(name, value, text) { #name, name },
#include "runtime/driver/errors.def"
#undef CU_ERR
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        size_t n = strlen(names[i].name);
        if (strncmp(p, names[i].name, n) == 0 && p[n] == ')')
            return names[i].r;
    }
    return dflt;
}

/* The driver's error for a fault, and whether it is sticky (the context is then unusable). */
static CUresult fault_error(ex_fault_kind_t k, bool *sticky)
{
    *sticky = true;
    switch (k) {
    case EX_FAULT_ADDRESS:     return CUDA_ERROR_ILLEGAL_ADDRESS;
    case EX_FAULT_MISALIGNED:  return CUDA_ERROR_MISALIGNED_ADDRESS;
    case EX_FAULT_TRAP:        return CUDA_ERROR_LAUNCH_FAILED;
    case EX_FAULT_ASSERT:      return CUDA_ERROR_ASSERT;
    case EX_FAULT_STACK:       return CUDA_ERROR_LAUNCH_FAILED;
    case EX_FAULT_INVALID_PC:  return CUDA_ERROR_INVALID_PC;
    case EX_FAULT_ILLEGAL:     return CUDA_ERROR_ILLEGAL_INSTRUCTION;
    case EX_FAULT_SYNC:        return CUDA_ERROR_ILLEGAL_INSTRUCTION;
    case EX_FAULT_DEADLOCK:    return CUDA_ERROR_LAUNCH_TIMEOUT;
    case EX_FAULT_STOPPED:     return CUDA_ERROR_LAUNCH_TIMEOUT;
    case EX_FAULT_NOMEM:       *sticky = false; return CUDA_ERROR_OUT_OF_MEMORY;
    case EX_FAULT_UNSUPPORTED: *sticky = false; return CUDA_ERROR_NOT_SUPPORTED;
    case EX_FAULT_REFUSED:     *sticky = false; return CUDA_ERROR_INVALID_VALUE;
    case EX_FAULT_NONE:        *sticky = false; return CUDA_SUCCESS;
    }
    *sticky = false;
    return CUDA_ERROR_UNKNOWN;
}

/* What a launch's end means to the context: a fault's report on stderr, a sticky error
 * kept for the calls that follow (as the GPU's asynchronous error), or the error the call
 * returns (non-sticky). */
static CUresult launch_end(drv_ctx_t *c, const char *kname, isa_status_t st, ex_stats_t *stats, bool quiet)
{
    CUresult r = CUDA_SUCCESS;
    if (st != ISA_ST_OK) {
        bool sticky;
        CUresult e = fault_error(stats->fault.kind, &sticky);
        if (stats->fault.kind == EX_FAULT_REFUSED)
            e = named_error(stats->fault.what, e);
        if (quiet)
            ;
        else if (stats->fault.report)
            fputs(stats->fault.report, stderr);
        else
            fprintf(stderr, "ptxemu: kernel %s: %s\n", kname, stats->fault.what);
        if (sticky)
            c->sticky = e;
        else
            r = e;
    }
    ex_stats_clear(stats);
    return r;
}

/*{=====================================================================
 * The device thread.  A launch of a kernel that may wait for the host (outside shared
 * memory a volatile load, a system-scope atom or acquire load; a nanosleep:
 * ex_entry_may_wait) runs on it; the others run on the calling thread, as a hand-over
 * costs a few microseconds.  The launching call waits up to LAUNCH_WAIT seconds: a launch
 * that ends by then returns as if it had run on the caller (its refusal, its fault's
 * report); a longer one goes on while the host program runs, as a GPU's launches are
 * asynchronous (a kernel may wait for what the host writes to mapped memory after the
 * launch: app test async_flag), and the driver call that comes next waits for it first
 * (drv_join).  So at most one launch goes on, and the driver's other work is never
 * concurrent with it.  At exit a launch still running is stopped (the GPU's context goes
 * with the process).
 *====================================================================*/
#define LAUNCH_WAIT 0.02
#define SPIN_SECONDS 50e-6   /* each side polls this long before it sleeps */

enum { DT_IDLE, DT_POSTED, DT_DONE };
static struct {
    pthread_mutex_t lock;
    pthread_cond_t  post_cv, done_cv;
    bool            started, failed;   /* the thread runs; it could not be made (launch inline) */
    _Atomic int     state;
    _Atomic int     stop;              /* set at exit: the running launch stops */
    _Atomic bool    detached;          /* the launching call returned before the launch ended */
    drv_event_t    *events[64];        /* recorded while it went on: completed at its end */
    unsigned        nevents;
    /* the launch */
    ex_program_t   *p;
    uint32_t        entry;
    ex_launch_t     l;
    uint8_t        *params;
    size_t          psize, pcap;
    drv_ctx_t      *ctx;
    const char     *kname;
    /* its end */
    isa_status_t    st;
    ex_stats_t      stats;
} dt = { .lock = PTHREAD_MUTEX_INITIALIZER, .post_cv = PTHREAD_COND_INITIALIZER,
         .done_cv = PTHREAD_COND_INITIALIZER };
static __thread bool on_device_thread;

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Poll for state want for SPIN_SECONDS; true when it came. */
static bool spin_for(int want)
{
    double end = 0;
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&dt.state, memory_order_acquire) == want)
            return true;
        cpu_relax();
        if ((i & 255) == 0) {
            double now = drv_now();
            if (end == 0)
                end = now + SPIN_SECONDS;
            else if (now >= end)
                return false;
        }
    }
}

static void *device_thread(void *arg)
{
    (void)arg;
    on_device_thread = true;
    for (;;) {
        if (!spin_for(DT_POSTED)) {
            pthread_mutex_lock(&dt.lock);
            while (atomic_load(&dt.state) != DT_POSTED)
                pthread_cond_wait(&dt.post_cv, &dt.lock);
            pthread_mutex_unlock(&dt.lock);
        }
        dt.st = ex_launch(dt.p, dt.entry, &dt.l, dt.params, dt.psize, &dt.stats);
        pthread_mutex_lock(&dt.lock);
        atomic_store_explicit(&dt.state, DT_DONE, memory_order_release);
        pthread_cond_broadcast(&dt.done_cv);
        pthread_mutex_unlock(&dt.lock);
    }
    return NULL;
}

/* Take the ended launch's result, free the thread for the next, complete the events
 * recorded behind it, and apply its end (called with dt.lock held; returns without). */
static CUresult finish(bool quiet)
{
    isa_status_t st = dt.st;
    ex_stats_t stats = dt.stats;
    drv_ctx_t *c = dt.ctx;
    const char *kname = dt.kname;
    memset(&dt.stats, 0, sizeof dt.stats);
    double now = drv_now();
    for (unsigned i = 0; i < dt.nevents; i++) {
        dt.events[i]->pending = false;
        dt.events[i]->recorded = true;
        dt.events[i]->time = now;
    }
    dt.nevents = 0;
    dt.detached = false;
    atomic_store_explicit(&dt.state, DT_IDLE, memory_order_release);
    pthread_cond_broadcast(&dt.done_cv);
    pthread_mutex_unlock(&dt.lock);
    return launch_end(c, kname, st, &stats, quiet);
}

CUresult drv_join(void)
{
    if (atomic_load_explicit(&dt.state, memory_order_acquire) == DT_IDLE || on_device_thread)
        return CUDA_SUCCESS;
    pthread_mutex_lock(&dt.lock);
    while (atomic_load(&dt.state) == DT_POSTED && dt.detached)
        pthread_cond_wait(&dt.done_cv, &dt.lock);
    if (atomic_load(&dt.state) != DT_DONE || !dt.detached) {
        /* idle, or another thread's launch that it waits for itself */
        pthread_mutex_unlock(&dt.lock);
        return CUDA_SUCCESS;
    }
    return finish(atomic_load(&dt.stop) != 0);   /* quiet when stopped at exit */
}

bool drv_launch_running(void)
{
    return atomic_load_explicit(&dt.state, memory_order_acquire) == DT_POSTED && atomic_load(&dt.detached);
}

bool drv_defer_event(drv_event_t *e)
{
    bool ok = false;
    pthread_mutex_lock(&dt.lock);
    if (atomic_load(&dt.state) != DT_IDLE && atomic_load(&dt.detached)) {
        for (unsigned i = 0; i < dt.nevents && !ok; i++)
            ok = dt.events[i] == e;
        if (!ok && dt.nevents < sizeof dt.events / sizeof *dt.events) {
            dt.events[dt.nevents++] = e;
            ok = true;
        }
        if (ok) {
            e->cap = NULL;
            e->pending = true;
        }
    }
    pthread_mutex_unlock(&dt.lock);
    return ok;
}

void drv_join_at_exit(void)
{
    if (atomic_load(&dt.state) != DT_IDLE && dt.detached)
        atomic_store(&dt.stop, 1);
    drv_join();
}

/* Run a launch (checked) on the calling thread. */
static CUresult run_here(drv_ctx_t *c, ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                         size_t psize, const char *kname)
{
    ex_stats_t stats;
    memset(&stats, 0, sizeof stats);
    isa_status_t st = ex_launch(p, entry, l, params, psize, &stats);
    return launch_end(c, kname, st, &stats, false);
}

/* Run a launch (checked): one that may wait for the host on the device thread, others
 * on the calling thread (a hand-over costs a few microseconds).  CUDA_SUCCESS when it
 * ended, or goes on detached, without a refusal or a non-sticky error; else that error. */
static CUresult run_launch(drv_ctx_t *c, bool may_wait, ex_program_t *p, uint32_t entry, const ex_launch_t *l,
                           const void *params, size_t psize, const char *kname)
{
    if (!may_wait)
        return run_here(c, p, entry, l, params, psize, kname);
    pthread_mutex_lock(&dt.lock);
    while (atomic_load(&dt.state) != DT_IDLE)    /* another thread's launch */
        pthread_cond_wait(&dt.done_cv, &dt.lock);
    if (!dt.started && !dt.failed) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&th, &at, device_thread, NULL) == 0)
            dt.started = true;
        else
            dt.failed = true;
        pthread_attr_destroy(&at);
    }
    if (dt.failed) {
        pthread_mutex_unlock(&dt.lock);
        return run_here(c, p, entry, l, params, psize, kname);
    }
    if (psize > dt.pcap) {
        uint8_t *np = realloc(dt.params, psize);
        if (!np) {
            pthread_mutex_unlock(&dt.lock);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        dt.params = np;
        dt.pcap = psize;
    }
    if (psize)
        memcpy(dt.params, params, psize);
    dt.p = p;
    dt.entry = entry;
    dt.l = *l;
    if (!dt.l.stop)
        dt.l.stop = &dt.stop;
    dt.psize = psize;
    dt.ctx = c;
    dt.kname = kname;
    dt.detached = false;
    memset(&dt.stats, 0, sizeof dt.stats);
    atomic_store_explicit(&dt.state, DT_POSTED, memory_order_release);
    pthread_cond_signal(&dt.post_cv);
    pthread_mutex_unlock(&dt.lock);
    bool ended = spin_for(DT_DONE);
    pthread_mutex_lock(&dt.lock);
    if (!ended) {
        double d = drv_now() + LAUNCH_WAIT;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        double until = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + LAUNCH_WAIT;
        ts.tv_sec = (time_t)until;
        ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
        while (atomic_load(&dt.state) == DT_POSTED && drv_now() < d)
            pthread_cond_timedwait(&dt.done_cv, &dt.lock, &ts);
        if (atomic_load(&dt.state) == DT_POSTED) {
            dt.detached = true;          /* it goes on; drv_join ends it */
            pthread_mutex_unlock(&dt.lock);
            return CUDA_SUCCESS;
        }
    }
    return finish(false);
}
/*}=====================================================================*/

CUresult drv_func_prepare(drv_func_t *f)
{
    if (!f->checked) {
        unsigned n = ex_program_check_entry(f->mod->p, f->entry, stderr);
        f->runnable = n == 0;
        f->may_wait = ex_entry_may_wait(f->mod->p, f->entry);
        f->checked = true;
    }
    if (!f->runnable)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuLaunchKernel",
                        "kernel %s uses instructions the emulator does not support yet (listed above)",
                        f->mod->m->funcs[f->entry].name);
    return CUDA_SUCCESS;
}

CUresult drv_launch(const char *fn, drv_func_t *f, const unsigned grid[3], const unsigned block[3], unsigned shared,
                    CUstream s, void **params, void **extra, bool cooperative, const unsigned *cluster)
{
    drv_ctx_t *c;
    CUresult r = drv_enter_for(drv_stream_ctx(s), &c);
    if (r)
        return r;
    if (!f || f->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_HANDLE;
    if ((r = drv_stream_check(s)))
        return r;
    if (f->mod->ctx && f->mod->ctx != c && !f->mod->ctx->primary)
        return CUDA_ERROR_INVALID_HANDLE;
    const isa_func_t *fn_ir = &f->mod->m->funcs[f->entry];
    const char *kname = fn_ir->name;
    if (drv_capture_of(s)) {
        if (cooperative)
            return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "kernel %s: a cooperative launch in a stream capture is not "
                            "supported yet", kname);
        drv_node_t *node = NULL;
        CUresult cr = drv_capture_kernel(s, f, grid, block, shared, params, extra, &node);
        if (!cr && cluster) {   /* the cluster dimension becomes the node's attribute */
            CUlaunchAttributeValue v;
            memset(&v, 0, sizeof v);
            v.clusterDim.x = cluster[0];
            v.clusterDim.y = cluster[1];
            v.clusterDim.z = cluster[2];
            cr = drv_node_attr_set(fn, node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v);
        }
        return cr;
    }
    /* The parameter block. */
    uint8_t stackbuf[512];
    uint8_t *pb = stackbuf;
    size_t psize = f->params_size;
    if (params && extra)
        return CUDA_ERROR_INVALID_VALUE;
    void *extra_buf = NULL;   /* the caller's buffer, used in place */
    if (extra) {
        void *buf = NULL;
        size_t *sz = NULL;
        for (void **e = extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
            if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
                buf = e[1];
            else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE)
                sz = e[1];
            else
                return CUDA_ERROR_INVALID_VALUE;
        }
        if (!buf || !sz)
            return CUDA_ERROR_INVALID_VALUE;
        /* as the H100's driver answers (tests/apps/drvapi.cu): a larger buffer is more than
         * the kernel's parameter space holds; a smaller one is taken, the parameters beyond
         * it read as zeros here (the GPU's are undefined) */
        if (*sz > psize)
            return drv_fail(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, fn, "kernel %s: a %zu-byte parameter buffer for %zu "
                            "bytes of parameters", kname, *sz, psize);
        if (*sz < psize) {
            if (psize > sizeof stackbuf && !(pb = calloc(1, psize)))
                return CUDA_ERROR_OUT_OF_MEMORY;
            if (pb == stackbuf)
                memset(pb, 0, psize);
            memcpy(pb, buf, *sz);
        } else {
            pb = extra_buf = buf;
        }
    } else {
        if (psize > sizeof stackbuf && !(pb = calloc(1, psize)))
            return CUDA_ERROR_OUT_OF_MEMORY;
        if (psize <= sizeof stackbuf)
            memset(pb, 0, psize);
        if (fn_ir->nparam && !params) {
            if (pb != stackbuf)
                free(pb);
            return CUDA_ERROR_INVALID_VALUE;
        }
        for (uint32_t i = 0; i < fn_ir->nparam; i++)
            memcpy(pb + f->param_offset[i], params[i], f->param_size[i]);
    }
    /* Dynamic shared memory beyond what the function was opted in to. */
    if (shared > f->max_dyn_shared) {
        r = drv_fail(CUDA_ERROR_INVALID_VALUE, fn,
                     "kernel %s: %u bytes of dynamic shared memory, more than the %u the function allows "
                     "(cuFuncSetAttribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES raises it)",
                     kname, shared, f->max_dyn_shared);
        goto out;
    }
    if ((r = drv_func_prepare(f)))
        goto out;
    ex_launch_t l = drv.launch;
    for (int d = 0; d < 3; d++) {
        l.grid[d] = grid[d];
        l.block[d] = block[d];
    }
    l.shared_bytes = shared;
    l.cooperative = cooperative;
    /* Clusters: the launch's dimension, else the one set on the function at run time
     * (else the entry's .reqnctapercluster, which ex_launch reads). */
    const unsigned *cd = cluster ? cluster : (f->cluster[0] | f->cluster[1] | f->cluster[2]) ? f->cluster : NULL;
    for (int d = 0; cd && d < 3; d++)
        l.cluster[d] = cd[d];
    l.cluster_nonportable = f->nonportable;
    /* a block of more than 256 threads, or a cooperative grid, may exceed what the
     * registers allow: learn them (a CTA has room for 8 warps of 255 registers) */
    if ((uint64_t)l.block[0] * l.block[1] * l.block[2] > 256 || cooperative)
        drv_func_regs(f);
    char msg[512];
    isa_status_t st = ex_launch_check(f->mod->p, f->entry, &l, msg, sizeof msg);
    if (st != ISA_ST_OK) {
        r = drv_fail(named_error(msg, CUDA_ERROR_INVALID_VALUE), fn, "kernel %s: %s", kname, msg);
        goto out;
    }
    drv_flush_output();
    r = run_launch(c, f->may_wait, f->mod->p, f->entry, &l, pb, psize, kname);
out:
    if (pb != stackbuf && (!extra || pb != extra_buf))
        free(pb);
    return r;
}

DRV_API CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, unsigned shared, CUstream s, void **params, void **extra)
{
    unsigned g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
    return drv_launch(__func__, f, g, b, shared, s, params, extra, false, NULL);
}
DRV_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                     unsigned bz, unsigned shared, CUstream s, void **params, void **extra)
{
    return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, s, params, extra);
}

DRV_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                           unsigned by, unsigned bz, unsigned shared, CUstream s, void **params)
{
    unsigned g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
    return drv_launch(__func__, f, g, b, shared, s, params, NULL, true, NULL);
}
DRV_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                unsigned by, unsigned bz, unsigned shared, CUstream s, void **params)
{
    return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shared, s, params);
}

/* An event a launch records (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, _LAUNCH_COMPLETION_EVENT):
 * on the H100 a null event is CUDA_ERROR_INVALID_HANDLE and CU_EVENT_RECORD_EXTERNAL
 * CUDA_ERROR_ILLEGAL_STATE (app test launch_attrs). */
static CUresult launch_event_check(CUevent e, int flags)
{
    if (!drv_event_ok(e))
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, "cuLaunchKernelEx", "the launch attribute's event is not an event");
    if (flags & 1)
        return drv_fail(CUDA_ERROR_ILLEGAL_STATE, "cuLaunchKernelEx",
                        "a launch attribute's event cannot be recorded as external (CU_EVENT_RECORD_EXTERNAL)");
    if (flags & ~1)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* A preferred cluster dimension (CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION) as the
 * H100 checks it: only with a cluster dimension (cluster; NULL: none), a multiple of it in
 * x and y that divides the grid, the same z (app test launch_attrs).  The device may launch
 * regular clusters instead, and the emulator always does. */
CUresult drv_preferred_cluster(const char *fn, const unsigned pref[3], const unsigned *cluster, const unsigned grid[3])
{
    bool ok = cluster && pref[2] == cluster[2];
    for (unsigned k = 0; ok && k < 2; k++)
        ok = cluster[k] && pref[k] && pref[k] % cluster[k] == 0 && grid[k] % pref[k] == 0;
    if (!ok)
        return drv_fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, fn,
                        "preferred cluster dimension %ux%ux%u: it needs a cluster dimension, a multiple of it in x "
                        "and y dividing the grid, and the same z", pref[0], pref[1], pref[2]);
    return CUDA_SUCCESS;
}

/* The launch attributes, as the H100's driver takes them (app tests launch_attrs, pdl,
 * clusters).  Launches run in stream order to completion, so an event a launch records
 * (when all blocks trigger it, or when the last block has started) is recorded on the
 * stream after the launch: no earlier than on the GPU, and what waits on it sees every
 * write of the kernel. */
DRV_API CUresult cuLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
{
    if (!cfg)
        return CUDA_ERROR_INVALID_VALUE;
    bool coop = false, clustered = false, preferred = false;
    unsigned cluster[3] = { 1, 1, 1 }, pref[3] = { 1, 1, 1 };
    CUevent record[2];
    unsigned nrecord = 0;
    CUresult r;
    for (unsigned i = 0; i < cfg->numAttrs; i++) {
        const CUlaunchAttribute *a = &cfg->attrs[i];
        switch (a->id) {
        case CU_LAUNCH_ATTRIBUTE_IGNORE: break;
        case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: coop = a->value.cooperative != 0; break;
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
            cluster[0] = a->value.clusterDim.x;
            cluster[1] = a->value.clusterDim.y;
            cluster[2] = a->value.clusterDim.z;
            clustered = true;
            break;
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
            pref[0] = a->value.preferredClusterDim.x;
            pref[1] = a->value.preferredClusterDim.y;
            pref[2] = a->value.preferredClusterDim.z;
            preferred = true;
            break;
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
            if ((r = launch_event_check(a->value.programmaticEvent.event, a->value.programmaticEvent.flags)))
                return r;
            if (nrecord < 2)
                record[nrecord++] = a->value.programmaticEvent.event;
            break;
        case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
            if ((r = launch_event_check(a->value.launchCompletionEvent.event, a->value.launchCompletionEvent.flags)))
                return r;
            if (nrecord < 2)
                record[nrecord++] = a->value.launchCompletionEvent.event;
            break;
        /* graphs only: the H100 refuses it on a launch, whatever its value */
        case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
            return CUDA_ERROR_NOT_SUPPORTED;
        case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
            if (a->value.nvlinkUtilCentricScheduling > 1)
                return CUDA_ERROR_INVALID_VALUE;
            break;
        /* scheduling and caching hints: no effect on results */
        case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        case CU_LAUNCH_ATTRIBUTE_PRIORITY:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
            break;
        default: /* 15 and past 16 (measured: 15, 99) */
            return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "launch attribute %d does not exist", a->id);
        }
    }
    unsigned g[3] = { cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ };
    unsigned b[3] = { cfg->blockDimX, cfg->blockDimY, cfg->blockDimZ };
    if (preferred && (r = drv_preferred_cluster(__func__, pref, clustered ? cluster : NULL, g)))
        return r;
    r = drv_launch(__func__, f, g, b, cfg->sharedMemBytes, cfg->hStream, params, extra, coop,
                   clustered ? cluster : NULL);
    for (unsigned i = 0; !r && i < nrecord; i++)
        r = cuEventRecord(record[i], cfg->hStream);
    return r;
}
DRV_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
{
    return cuLaunchKernelEx(cfg, f, params, extra);
}

/*{=====================================================================
 * Occupancy: resident CTAs per SM from the machine table (ex_resident_ctas over 132 SMs).
 *====================================================================*/

static int blocks_per_sm(drv_func_t *f, int block, size_t shared)
{
    drv_func_regs(f);
    ex_launch_t l = { .grid = { 1, 1, 1 }, .block = { (uint32_t)block, 1, 1 }, .shared_bytes = (uint32_t)shared };
    return (int)(ex_resident_ctas(f->mod->p, f->entry, &l) / 132);
}

DRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, CUfunction f, int block, size_t shared,
                                                                      unsigned flags)
{
    (void)flags;
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!n || block <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_HANDLE;
    *n = block > 1024 ? 0 : blocks_per_sm(f, block, shared);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t shared)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, block, shared, 0);
}

DRV_API CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block, CUfunction f,
                                                           CUoccupancyB2DSize shared_of, size_t shared, int limit,
                                                           unsigned flags)
{
    (void)flags;
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!min_grid || !block)
        return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_HANDLE;
    int maxt = 1024, best = 0, best_b = 32;
    if (cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f))
        maxt = 1024;
    if (limit > 0 && limit < maxt)
        maxt = limit;
    for (int b = maxt / 32 * 32; b >= 32; b -= 32) {
        size_t sh = shared_of ? shared_of(b) : shared;
        int warps = blocks_per_sm(f, b, sh) * b;
        if (warps > best) {
            best = warps;
            best_b = b;
        }
    }
    *block = best_b;
    size_t sh = shared_of ? shared_of(best_b) : shared;
    *min_grid = blocks_per_sm(f, best_b, sh) * 132;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f, CUoccupancyB2DSize shared_of,
                                                  size_t shared, int limit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block, f, shared_of, shared, limit, 0);
}

/* A launch configuration's shape for the cluster occupancy calculators; with want_cluster,
 * its cluster dimension (the attribute's, else the function's) into cd. */
static CUresult occ_launch(drv_func_t *f, const CUlaunchConfig *cfg, ex_launch_t *l, bool want_cluster)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!f || f->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!cfg)
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_regs(f);
    memset(l, 0, sizeof *l);
    l->grid[0] = cfg->gridDimX ? cfg->gridDimX : 1;
    l->grid[1] = cfg->gridDimY ? cfg->gridDimY : 1;
    l->grid[2] = cfg->gridDimZ ? cfg->gridDimZ : 1;
    l->block[0] = cfg->blockDimX;
    l->block[1] = cfg->blockDimY;
    l->block[2] = cfg->blockDimZ;
    l->shared_bytes = cfg->sharedMemBytes;
    l->cluster_nonportable = f->nonportable;
    uint64_t threads = (uint64_t)cfg->blockDimX * cfg->blockDimY * cfg->blockDimZ;
    if (threads == 0 || threads > 1024 || cfg->sharedMemBytes > f->max_dyn_shared)
        return CUDA_ERROR_INVALID_VALUE;
    if (!want_cluster)
        return CUDA_SUCCESS;
    for (unsigned i = 0; i < cfg->numAttrs; i++)
        if (cfg->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            l->cluster[0] = cfg->attrs[i].value.clusterDim.x;
            l->cluster[1] = cfg->attrs[i].value.clusterDim.y;
            l->cluster[2] = cfg->attrs[i].value.clusterDim.z;
        }
    /* A dimension beside the entry's .reqnctapercluster must be it (measured: app test
     * cluster_occupancy); without any dimension the answer is 0 clusters (l->cluster 0). */
    uint32_t cd[3];
    bool given = l->cluster[0] | l->cluster[1] | l->cluster[2];
    l->cluster[0] = l->cluster[1] = l->cluster[2] = 0;
    if (ex_launch_cluster(f->mod->p, f->entry, l, cd) && given) {
        for (unsigned k = 0; k < 3; k++)
            for (unsigned i = 0; i < cfg->numAttrs; i++)
                if (cfg->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
                    (&cfg->attrs[i].value.clusterDim.x)[k] != cd[k])
                    return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    } else if (given) {
        for (unsigned i = 0; i < cfg->numAttrs; i++)
            if (cfg->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
                cd[0] = cfg->attrs[i].value.clusterDim.x;
                cd[1] = cfg->attrs[i].value.clusterDim.y;
                cd[2] = cfg->attrs[i].value.clusterDim.z;
            }
    } else if (f->cluster[0] | f->cluster[1] | f->cluster[2]) {
        memcpy(cd, f->cluster, sizeof cd);
    } else if (!ex_launch_cluster(f->mod->p, f->entry, l, cd)) {
        cd[0] = cd[1] = cd[2] = 0;
    }
    memcpy(l->cluster, cd, sizeof cd);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuOccupancyMaxActiveClusters(int *n, CUfunction f, const CUlaunchConfig *cfg)
{
    ex_launch_t l;
    CUresult r = occ_launch(f, cfg, &l, true);
    if (r)
        return r;
    if (!n)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t size = (uint64_t)l.cluster[0] * l.cluster[1] * l.cluster[2];
    if (size == 0 && !(l.cluster[0] | l.cluster[1] | l.cluster[2])) {
        *n = 0;   /* no cluster dimension anywhere */
        return CUDA_SUCCESS;
    }
    /* With the non-portable size allowed, the H100 answers sizes up to 32 (cuBLAS asks for
     * 17 to 32: 2 clusters of 17 and 18 CTAs, none larger; tests/driver/logs/cublas_sgemm.log),
     * though a launch takes at most 16. */
    if (size == 0 || size > (f->nonportable ? 32u : 8u))
        return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    *n = (int)ex_resident_clusters(f->mod->p, f->entry, &l, (uint32_t)size);
    return CUDA_SUCCESS;
}

/* The largest cluster (up to 8 CTAs, 16 where the function allows the non-portable size)
 * of which one can be resident (the H100 answers 16 with the non-portable size opted in). */
DRV_API CUresult cuOccupancyMaxPotentialClusterSize(int *n, CUfunction f, const CUlaunchConfig *cfg)
{
    ex_launch_t l;
    CUresult r = occ_launch(f, cfg, &l, false);
    if (r)
        return r;
    if (!n)
        return CUDA_ERROR_INVALID_VALUE;
    int best = 0;
    for (uint32_t s = f->nonportable ? 16 : 8; s >= 1 && !best; s--)
        if (ex_resident_clusters(f->mod->p, f->entry, &l, s) > 0)
            best = (int)s;
    *n = best;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *out, CUfunction f, int blocks, int block)
{
    if (!out || blocks <= 0 || block <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_HANDLE;
    uint64_t per_sm = 233472, stat = ex_entry_shared(f->mod->p, f->entry);
    uint64_t each = per_sm / (uint64_t)blocks;
    each = each > 1024 ? each - 1024 : 0;   /* the 1 KB the H100 reserves per CTA */
    each = each > stat ? each - stat : 0;
    *out = each > f->max_dyn_shared ? f->max_dyn_shared : each;   /* what a launch of f may ask for */
    return CUDA_SUCCESS;
}
