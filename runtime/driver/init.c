/* init.c: initialisation, versions, the device (one H100: runtime/h100_attrs.def, recorded
 * on the GPU), contexts (the primary one and explicit ones), limits, and the error strings. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/driver/drv.h"

drv_state_t drv = { .lock = PTHREAD_MUTEX_INITIALIZER };

static __thread drv_ctx_t *ctx_stack[64];
static __thread unsigned   ctx_depth;

double drv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

drv_ctx_t *drv_current(void) { return ctx_depth ? ctx_stack[ctx_depth - 1] : NULL; }

void drv_set_current(drv_ctx_t *c)
{
    if (ctx_depth)
        ctx_stack[ctx_depth - 1] = c;
    else if (c)
        ctx_stack[ctx_depth++] = c;
}

bool drv_ctx_valid(const drv_ctx_t *c) { return c && c->tag == DRV_CTX && !c->destroyed; }

CUresult drv_enter_device(void)
{
    CUresult r = drv_enter(NULL);
    return r == CUDA_ERROR_INVALID_CONTEXT ? CUDA_SUCCESS : r;
}

CUresult drv_enter_ctx(drv_ctx_t *c)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    CUresult jr = drv_join();     /* a launch still running ends first */
    if (jr)
        return jr;
    if (!c)
        c = drv_current();
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!drv_ctx_valid(c))
        return c && c->tag == DRV_CTX ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_ERROR_INVALID_CONTEXT;
    if (c->primary && !drv.primary_active)   /* reset or released, still current: measured */
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    return c->sticky;
}

CUresult drv_enter_for(drv_ctx_t *oc, drv_ctx_t **out)
{
    drv_ctx_t *c = drv_current();
    if (!c)
        c = oc;
    CUresult r = drv_enter_ctx(c);
    if (out)
        *out = c;
    return r;
}

CUresult drv_enter(drv_ctx_t **out)
{
    CUresult r = drv_enter_ctx(NULL);
    if (out)
        *out = drv_current();
    return r;
}

CUresult drv_unsupported(const char *fn)
{
    static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
    static const char *said[64];
    static unsigned nsaid;
    pthread_mutex_lock(&said_lock);
    bool known = false;
    for (unsigned i = 0; i < nsaid; i++)
        known |= strcmp(said[i], fn) == 0;
    if (!known) {
        fprintf(stderr, "ptxemu: %s is not supported by the emulator's driver (CUDA_ERROR_NOT_SUPPORTED)\n", fn);
        if (nsaid < 64)
            said[nsaid++] = fn;
    }
    pthread_mutex_unlock(&said_lock);
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult drv_fail(CUresult r, const char *fn, const char *fmt, ...)
{
    va_list ap;
    char text[512];
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "ptxemu: %s: %s\n", fn, text);
    const char *name = NULL;
    cuGetErrorName(r, &name);
    drv_log(0, "%s", text);
    drv_log(0, "Returning %d (%s) from %s", (int)r, name ? name : "?", fn);
    return r;
}

/*{=====================================================================
 * Initialisation and versions
 *====================================================================*/

/* PTXEMU_STATS (text or json): every launch's statistics (ptxrun --stats), on stderr or
 * appended to the file PTXEMU_STATS_FILE names. */
static struct { bool json; FILE *out; } stats;

static void stats_end(void *user, const ex_program_t *p, uint32_t entry, const ex_stats_t *st)
{
    (void)user;
    ex_stats_print(stats.out, p, entry, st, stats.json);
    fflush(stats.out);
}

static void stats_start(const char *mode)
{
    if (strcmp(mode, "text") != 0 && strcmp(mode, "json") != 0) {
        fprintf(stderr, "ptxemu: PTXEMU_STATS='%s' ignored: expected text or json\n", mode);
        return;
    }
    stats.json = mode[0] == 'j';
    stats.out = stderr;
    const char *path = getenv("PTXEMU_STATS_FILE");
    if (path && *path && !(stats.out = fopen(path, "a"))) {
        fprintf(stderr, "ptxemu: PTXEMU_STATS_FILE '%s': %s; statistics go to stderr\n", path, strerror(errno));
        stats.out = stderr;
    }
    ex_observer_t o = { NULL, stats_end, NULL };
    if (ex_device_observe(drv.dev, &o) == ISA_ST_OK)
        ex_device_set_stats(drv.dev, true);
}

/* PTXEMU_WORKERS, PTXEMU_TIMEOUT, PTXEMU_PRINTF_FIFO, PTXEMU_HEAP and PTXEMU_TIME_SLICE: what
 * ptxrun's -j, --timeout, --printf-fifo, --heap and the tests' time slice become for a
 * program it runs. */
static void read_environment(void)
{
    const char *s;
    if ((s = getenv("PTXEMU_STATS")) && *s)
        stats_start(s);
    if ((s = getenv("PTXEMU_WORKERS")) && *s)
        drv.launch.workers = (unsigned)strtoul(s, NULL, 10);
    if ((s = getenv("PTXEMU_TIMEOUT")) && *s)
        drv.launch.timeout = strtod(s, NULL);
    if ((s = getenv("PTXEMU_TIME_SLICE")) && *s)
        drv.launch.slice = strtoull(s, NULL, 10);
    if ((s = getenv("PTXEMU_PRINTF_FIFO")) && *s)
        ex_device_set_limit(drv.dev, EX_LIMIT_PRINTF_FIFO, strtoull(s, NULL, 10));
    if ((s = getenv("PTXEMU_HEAP")) && *s)
        ex_device_set_limit(drv.dev, EX_LIMIT_HEAP, strtoull(s, NULL, 10));
    drv.loading_mode = CU_MODULE_LAZY_LOADING;
    if ((s = getenv("CUDA_MODULE_LOADING")) && strcmp(s, "EAGER") == 0)
        drv.loading_mode = CU_MODULE_EAGER_LOADING;
}

/* A child forked after cuInit: on the H100 every call there, cuInit too, returns
 * CUDA_ERROR_NOT_INITIALIZED (app test fork_child; Numba detects forks by it).  The child
 * of fork + exec is a process of its own. */
static void forked_child(void)
{
    drv.inited = false;
    drv.forked = true;
}

DRV_API CUresult cuInit(unsigned int flags)
{
    if (drv.forked)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&drv.lock);
    CUresult r = CUDA_SUCCESS;
    if (!drv.inited) {
        atexit(drv_at_exit);
        pthread_atfork(NULL, NULL, forked_child);
        drv.dev = rt_device();
        if (!drv.dev) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            read_environment();
            drv.primary.tag = DRV_CTX;
            drv.primary.primary = true;
            drv.primary.stack_size = 1024;
            drv_ctx_limits_default(&drv.primary);
            drv.inited = true;
        }
    }
    pthread_mutex_unlock(&drv.lock);
    return r;
}

DRV_API CUresult cuDriverGetVersion(int *v)
{
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    *v = 13000;
    return CUDA_SUCCESS;
}

/*{=====================================================================
 * The device
 *====================================================================*/

static const struct { int attr; int value; CUresult r; } attrs[] = {
#define ATTR(name, num, value, r) { num, value, (CUresult)r },
#define DEVINFO(k, v)
#include "runtime/h100_attrs.def"
#undef ATTR
#undef DEVINFO
};
static const char  dev_name[] = "NVIDIA H100 80GB HBM3";
static const size_t dev_mem = 85017493504ull;
static const char  dev_uuid[] = "5dbcf4ad-7053-5658-c38a-388f741f8a0e";

static CUresult dev_ok(CUdevice d)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

DRV_API CUresult cuDeviceGetCount(int *n)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!n)
        return CUDA_ERROR_INVALID_VALUE;
    *n = 1;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!d)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "%s", dev_name);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    *bytes = dev_mem;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    *bytes = (unsigned)(dev_mem > UINT32_MAX ? UINT32_MAX : dev_mem);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++)
        if (attrs[i].attr == attr) {
            if (attrs[i].r)
                return attrs[i].r;
            *v = attrs[i].value;
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_VALUE;
}

int drv_attr_value(int attr)
{
    int v = 0;
    cuDeviceGetAttribute(&v, attr, 0);
    return v;
}

static void parse_uuid(CUuuid *u)
{
    unsigned k = 0;
    for (const char *s = dev_uuid; *s && k < 16; s++) {
        if (*s == '-')
            continue;
        unsigned hi = (unsigned)(s[0] <= '9' ? s[0] - '0' : s[0] - 'a' + 10);
        unsigned lo = (unsigned)(s[1] <= '9' ? s[1] - '0' : s[1] - 'a' + 10);
        u->bytes[k++] = (char)(hi << 4 | lo);
        s++;
    }
}

DRV_API CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!u)
        return CUDA_ERROR_INVALID_VALUE;
    parse_uuid(u);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuDeviceGetUuid_v2(CUuuid *u, CUdevice d) { return cuDeviceGetUuid(u, d); }

DRV_API CUresult cuDeviceGetLuid(char *luid, unsigned int *mask, CUdevice d)
{
    (void)luid, (void)mask, (void)d;
    return CUDA_ERROR_NOT_SUPPORTED;   /* Windows only, as on Linux drivers */
}

DRV_API CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    *major = 9;
    *minor = 0;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!id || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(id, (size_t)len, "%08X:%02X:%02X.0", (unsigned)drv_attr_value(50), (unsigned)drv_attr_value(33), (unsigned)drv_attr_value(34));
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetByPCIBusId(CUdevice *d, const char *id)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!d || !id)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned dom = 0, bus = 0, dv = 0;
    if (sscanf(id, "%x:%x:%x", &dom, &bus, &dv) != 3 && (dom = 0, sscanf(id, "%x:%x", &bus, &dv) != 2))
        return CUDA_ERROR_INVALID_VALUE;
    if (dom != (unsigned)drv_attr_value(50) || bus != (unsigned)drv_attr_value(33) || dv != (unsigned)drv_attr_value(34))
        return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *w, int format, unsigned channels, CUdevice d)
{
    (void)format, (void)channels;
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!w)
        return CUDA_ERROR_INVALID_VALUE;
    *w = (size_t)1 << 28;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetP2PAttribute(int *v, int attr, CUdevice a, CUdevice b)
{
    (void)attr, (void)v;
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    return a == 0 && b == 0 ? CUDA_ERROR_INVALID_DEVICE : CUDA_ERROR_INVALID_DEVICE;
}

/* Atomic operations (CUatomicOperation 0-12) the host may perform on memory the device
 * also updates: none on the H100 behind PCIe (measured: every capability word 0). */
DRV_API CUresult cuDeviceGetHostAtomicCapabilities(unsigned int *caps, const int *ops, unsigned int n, CUdevice d)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!caps || !ops || n == 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = dev_ok(d);
    if (r)
        return r;
    for (unsigned i = 0; i < n; i++)
        if (ops[i] < 0 || ops[i] > 12)
            return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++)
        caps[i] = 0;
    return CUDA_SUCCESS;
}

/* Between two devices: the one device is no peer of itself (as cuDeviceGetP2PAttribute). */
DRV_API CUresult cuDeviceGetP2PAtomicCapabilities(unsigned int *caps, const int *ops, unsigned int n, CUdevice a,
                                                  CUdevice b)
{
    (void)caps, (void)ops, (void)n, (void)a, (void)b;
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    return CUDA_ERROR_INVALID_DEVICE;
}

DRV_API CUresult cuDeviceCanAccessPeer(int *can, CUdevice a, CUdevice b)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!can)
        return CUDA_ERROR_INVALID_VALUE;
    if (a != 0 || b != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *can = 0;
    return CUDA_SUCCESS;
}

/* Peer access: the one device is no peer of itself, and every context is on it
 * (tests/apps/peer.cu, as the H100's driver answers with one device). */
DRV_API CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    if (!drv_ctx_valid(peer))
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
}

DRV_API CUresult cuCtxDisablePeerAccess(CUcontext peer)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!drv_ctx_valid(peer))
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

/*{=====================================================================
 * Contexts
 *====================================================================*/

DRV_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&drv.lock);
    drv.primary.refs++;
    if (!drv.primary_active) {
        drv.primary_active = true;
        drv.primary.destroyed = false;
        drv.primary.flags = drv.primary_flags;
    }
    pthread_mutex_unlock(&drv.lock);
    *pctx = &drv.primary;
    return CUDA_SUCCESS;
}

static void ctx_teardown(drv_ctx_t *c)
{
    drv_flush_output();
    for (struct cls *e = c->cls, *n; e; e = n) {
        n = e->next;
        if (e->dtor)
            e->dtor(c, e->key, e->value);
        free(e);
    }
    c->cls = NULL;
    drv_array_remove_ctx(c);
    drv_alloc_remove_ctx(c);
    c->sticky = CUDA_SUCCESS;
}

DRV_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
    drv_join();
    CUresult r = dev_ok(d);
    if (r)
        return r;
    pthread_mutex_lock(&drv.lock);
    if (!drv.primary.refs) {
        pthread_mutex_unlock(&drv.lock);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    bool last = --drv.primary.refs == 0;
    pthread_mutex_unlock(&drv.lock);
    if (last) {
        ctx_teardown(&drv.primary);
        drv.primary_active = false;
    }
    return CUDA_SUCCESS;
}
DRV_API CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return cuDevicePrimaryCtxRelease_v2(d); }

DRV_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice d)
{
    drv_join();
    CUresult r = dev_ok(d);
    if (r)
        return r;
    ctx_teardown(&drv.primary);
    pthread_mutex_lock(&drv.lock);
    drv.primary_active = false;   /* its retains still count (measured: app test ctx_current) */
    drv.primary_flags = 0;
    pthread_mutex_unlock(&drv.lock);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuDevicePrimaryCtxReset(CUdevice d) { return cuDevicePrimaryCtxReset_v2(d); }

DRV_API CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned int *flags, int *active)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = drv.primary_flags;
    *active = drv.primary_active;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned int flags)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (flags & ~0x1fu)
        return CUDA_ERROR_INVALID_VALUE;
    drv.primary_flags = flags;
    drv.primary.flags = flags;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice d, unsigned int flags)
{
    if (drv.primary_active)
        return CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE;
    return cuDevicePrimaryCtxSetFlags_v2(d, flags);
}

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice d)
{
    CUresult r = dev_ok(d);
    if (r)
        return r;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    drv_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    c->tag = DRV_CTX;
    c->flags = flags;
    c->refs = 1;
    c->stack_size = 1024;
    drv_ctx_limits_default(c);
    if (ctx_depth < 64)
        ctx_stack[ctx_depth++] = c;
    *pctx = c;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice d) { return ctx_create(pctx, flags, d); }
DRV_API CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice d) { return ctx_create(pctx, flags, d); }
DRV_API CUresult cuCtxCreate_v3(CUcontext *pctx, void *params, int n, unsigned int flags, CUdevice d)
{
    if (n > 0 || params)
        return drv_unsupported("cuCtxCreate_v3 (execution affinity)");
    return ctx_create(pctx, flags, d);
}
DRV_API CUresult cuCtxCreate_v4(CUcontext *pctx, void *params, unsigned int flags, CUdevice d)
{
    /* CUctxCreateParams: { execAffinityParams, numExecAffinityParams, cigParams }.  Empty
     * ones (what CUDA 13's samples pass) ask for an ordinary context. */
    struct { void *affinity; int naffinity; void *cig; } *cp = params;
    if (cp && (cp->naffinity < 0 || (cp->naffinity > 0 && !cp->affinity)))
        return CUDA_ERROR_INVALID_VALUE;
    if (cp && cp->naffinity > 0)
        return drv_unsupported("cuCtxCreate_v4 (execution affinity)");
    if (cp && cp->cig)
        return drv_unsupported("cuCtxCreate_v4 (CUDA in graphics contexts)");
    return ctx_create(pctx, flags, d);
}

DRV_API CUresult cuCtxDestroy_v2(CUcontext c)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    drv_join();
    if (!c || c->tag != DRV_CTX || c->destroyed)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (c->primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    ctx_teardown(c);
    c->destroyed = true;   /* the object stays: later calls with it say it is destroyed */
    for (unsigned i = 0; i < ctx_depth; i++)
        if (ctx_stack[i] == c) {
            memmove(&ctx_stack[i], &ctx_stack[i + 1], (ctx_depth - i - 1) * sizeof *ctx_stack);
            ctx_depth--;
            i--;
        }
    return CUDA_SUCCESS;
}
DRV_API CUresult cuCtxDestroy(CUcontext c) { return cuCtxDestroy_v2(c); }

DRV_API CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = drv_current();
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSetCurrent(CUcontext c)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (c && (c->tag != DRV_CTX || c->destroyed))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!c && ctx_depth)
        ctx_depth--;
    else
        drv_set_current(c);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxPushCurrent_v2(CUcontext c)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!c || c->tag != DRV_CTX || c->destroyed)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (ctx_depth >= 64)
        return CUDA_ERROR_OUT_OF_MEMORY;
    ctx_stack[ctx_depth++] = c;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuCtxPushCurrent(CUcontext c) { return cuCtxPushCurrent_v2(c); }

DRV_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!ctx_depth)
        return CUDA_ERROR_INVALID_CONTEXT;
    drv_ctx_t *c = ctx_stack[--ctx_depth];
    if (pctx)
        *pctx = c;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuCtxPopCurrent(CUcontext *pctx) { return cuCtxPopCurrent_v2(pctx); }

/* Getters answer in a context with a sticky error too. */
static CUresult enter_getter(drv_ctx_t **out)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (out)
        *out = c;
    return r && c && r == c->sticky ? CUDA_SUCCESS : r;
}

DRV_API CUresult cuCtxGetDevice(CUdevice *d)
{
    CUresult r = enter_getter(NULL);
    if (r)
        return r;
    if (!d)
        return CUDA_ERROR_INVALID_VALUE;
    *d = 0;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetDevice_v2(CUdevice *d, CUcontext c)
{
    if (!c)
        return cuCtxGetDevice(d);
    if (!drv_ctx_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!d)
        return CUDA_ERROR_INVALID_VALUE;
    *d = 0;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetFlags(unsigned int *flags)
{
    drv_ctx_t *c;
    CUresult r = enter_getter(&c);
    if (r)
        return r;
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = c->flags;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSetFlags(unsigned int flags)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    c->flags = flags;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetId(CUcontext c, unsigned long long *id)
{
    if (!c)
        c = drv_current();
    if (!drv_ctx_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!id)
        return CUDA_ERROR_INVALID_VALUE;
    *id = c->primary ? 1 : (unsigned long long)(uintptr_t)c;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetApiVersion(CUcontext c, unsigned int *v)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    if (c && !drv_ctx_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    *v = 3020;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSynchronize(void)
{
    CUresult r = drv_capture_unsafe(__func__);   /* refused during a capture, as recorded (tests/apps/graph.cu) */
    if (r)
        return r;
    r = drv_enter(NULL);
    drv_flush_output();
    return r;
}

DRV_API CUresult cuCtxSynchronize_v2(CUcontext c)
{
    CUresult r = drv_capture_unsafe(__func__);
    if (r)
        return r;
    r = drv_enter_ctx(c);
    drv_flush_output();
    return r;
}

void drv_ctx_limits_default(drv_ctx_t *c)
{
    c->sync_depth = 2;
    c->pending_launches = 2048;
    c->l2_fetch = 64;
    c->l2_persisting = 0;
}

DRV_API CUresult cuCtxGetLimit(size_t *v, int limit)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    switch (limit) {
    case CU_LIMIT_STACK_SIZE:       *v = c->stack_size; break;
    case CU_LIMIT_PRINTF_FIFO_SIZE: *v = ex_device_limit(drv.dev, EX_LIMIT_PRINTF_FIFO); break;
    case CU_LIMIT_MALLOC_HEAP_SIZE: *v = ex_device_limit(drv.dev, EX_LIMIT_HEAP); break;
    case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: *v = c->sync_depth; break;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *v = c->pending_launches; break;
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY: *v = c->l2_fetch; break;
    case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: *v = c->l2_persisting; break;
    case CU_LIMIT_SHMEM_SIZE: *v = 232448; break;
    default: return CUDA_ERROR_INVALID_VALUE;   /* as the H100's driver answers (tests/apps/err_api.cu) */
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSetLimit(int limit, size_t v)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    switch (limit) {
    case CU_LIMIT_STACK_SIZE: c->stack_size = v; return CUDA_SUCCESS;
    case CU_LIMIT_PRINTF_FIFO_SIZE:
        return ex_device_set_limit(drv.dev, EX_LIMIT_PRINTF_FIFO, v) == ISA_ST_OK ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_LIMIT_MALLOC_HEAP_SIZE:
        return ex_device_set_limit(drv.dev, EX_LIMIT_HEAP, v) == ISA_ST_OK ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: c->sync_depth = v; return CUDA_SUCCESS;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: c->pending_launches = v; return CUDA_SUCCESS;
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
        if (v > 128)
            return CUDA_ERROR_INVALID_VALUE;
        c->l2_fetch = v;
        return CUDA_SUCCESS;
    case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
        c->l2_persisting = v > 32768000 ? 32768000 : v;   /* at most persistingL2CacheMaxSize */
        return CUDA_SUCCESS;
    case CU_LIMIT_SHMEM_SIZE: return CUDA_ERROR_UNSUPPORTED_LIMIT;
    default: return CUDA_ERROR_INVALID_VALUE;   /* as the H100's driver answers (tests/apps/err_api.cu) */
    }
}

DRV_API CUresult cuCtxGetCacheConfig(int *cfg)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    if (!cfg)
        return CUDA_ERROR_INVALID_VALUE;
    *cfg = c->cache_config;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSetCacheConfig(int cfg)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    if (cfg < 0 || cfg > 3)
        return CUDA_ERROR_INVALID_VALUE;
    c->cache_config = cfg;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetSharedMemConfig(int *cfg)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    if (!cfg)
        return CUDA_ERROR_INVALID_VALUE;
    *cfg = c->shmem_config;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxSetSharedMemConfig(int cfg)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    if (cfg < 0 || cfg > 2)
        return CUDA_ERROR_INVALID_VALUE;
    c->shmem_config = cfg;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxResetPersistingL2Cache(void) { return drv_enter(NULL); }

/*{=====================================================================
 * Error strings
 *====================================================================*/

DRV_API CUresult cuGetErrorName(CUresult e, const char **s)
{
    if (!s)
        return CUDA_ERROR_INVALID_VALUE;
    switch (e) {
#define CU_ERR(name, value, text) case name: *s = #name; return CUDA_SUCCESS;
#include "runtime/driver/errors.def"
#undef CU_ERR
    }
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuGetErrorString(CUresult e, const char **s)
{
    if (!s)
        return CUDA_ERROR_INVALID_VALUE;
    switch (e) {
#define CU_ERR(name, value, text) case name: *s = text; return CUDA_SUCCESS;
#include "runtime/driver/errors.def"
#undef CU_ERR
    default:
        *s = NULL;
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* The profiler control API: without a profiler attached the real driver accepts these and
 * does nothing; the emulator has none attached (its statistics are PTXEMU_STATS). */
DRV_API CUresult cuProfilerStart(void) { return drv_enter(NULL); }
DRV_API CUresult cuProfilerStop(void) { return drv_enter(NULL); }
