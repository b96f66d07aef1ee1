/* stream.c: streams, events, host functions and callbacks.  Work runs when it is submitted
 * (a launch that may wait for the host can go on behind the host program: launch.c; the
 * queries answer without waiting for it, and an event recorded behind it completes when
 * it ends); otherwise every stream is idle: queries say so, waits return at once, an
 * event's time is when it was recorded.  The synchronising calls pass the kernels' output
 * on. */
#include <stdlib.h>
#include <string.h>

#include "runtime/driver/drv.h"

/* The kernels' printf output goes to stdout at the points where the GPU's driver passes it
 * on (launches, synchronisations, blocking copies, module loads and unloads).  While the
 * process exits, output no call synchronised with is dropped, as on the H100
 * (tests/apps/printf_exit.cu: NVIDIA's runtime unloads its modules at exit and the output
 * of a kernel never synchronised with does not appear); the emulator says how much. */
void drv_flush_output(void)
{
    if (!drv.dev)
        return;
    drv_join();
    if (!drv.exiting) {
        rt_flush_device_output(drv.dev, stdout, stderr);
        return;
    }
    size_t len = 0;
    uint64_t lost = 0;
    char *text = ex_device_printf_take(drv.dev, &len, &lost);
    if (text && len)
        fprintf(stderr, "ptxemu: %zu bytes of printf output of kernels not synchronised with before the program "
                "exited are dropped, as the GPU drops them\n", len);
    free(text);
    text = ex_device_assert_take(drv.dev, &len);
    if (text)
        fwrite(text, 1, len, stderr);
    free(text);
}

/* Registered at cuInit, after the runtime's own exit handler, so run before it. */
void drv_at_exit(void)
{
    drv.exiting = true;
    drv_join_at_exit();
}

/* A stream object: not NULL, nor the legacy or per-thread handles (which are no pointers). */
static bool stream_ok(const drv_stream_t *s)
{
    return s && s != CU_STREAM_LEGACY && s != CU_STREAM_PER_THREAD && s->tag == DRV_STREAM;
}

/* The context of a stream object (NULL for the NULL, legacy and per-thread streams). */
drv_ctx_t *drv_stream_ctx(CUstream s)
{
    return stream_ok(s) ? s->ctx : NULL;
}

CUresult drv_stream_check(CUstream s)
{
    drv_join();
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
        return CUDA_SUCCESS;
    return stream_ok(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/*{=====================================================================
 * Streams
 *====================================================================*/

DRV_API CUresult cuStreamCreateWithPriority(CUstream *out, unsigned int flags, int priority)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    if (!out || (flags & ~1u))
        return CUDA_ERROR_INVALID_VALUE;
    drv_stream_t *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->tag = DRV_STREAM;
    s->ctx = c;
    s->flags = flags;
    s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority;   /* clamped to [greatest, least] */
    *out = s;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuStreamCreate(CUstream *out, unsigned int flags) { return cuStreamCreateWithPriority(out, flags, 0); }

DRV_API CUresult cuStreamDestroy_v2(CUstream s)
{
    CUresult r = drv_enter_for(drv_stream_ctx(s), NULL);
    if (r)
        return r;
    if (!stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    if (s->cap && (r = drv_capture_leave(s)))
        return r;
    s->tag = 0;
    free(s->cdeps);
    free(s);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamDestroy(CUstream s) { return cuStreamDestroy_v2(s); }

DRV_API CUresult cuStreamSynchronize(CUstream s)
{
    CUresult r = drv_stream_check(s);
    if (r || (r = drv_capture_sync(s, __func__)))
        return r;
    r = drv_enter_for(drv_stream_ctx(s), NULL);
    drv_flush_output();
    return r;
}
DRV_API CUresult cuStreamSynchronize_ptsz(CUstream s) { return cuStreamSynchronize(s); }

DRV_API CUresult cuStreamQuery(CUstream s)
{
    if (drv_launch_running() && (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || stream_ok(s)))
        return CUDA_ERROR_NOT_READY;     /* without waiting for it */
    CUresult r = drv_stream_check(s);
    if (r || (r = drv_capture_sync(s, __func__)))
        return r;
    return drv_enter_for(drv_stream_ctx(s), NULL);
}
DRV_API CUresult cuStreamQuery_ptsz(CUstream s) { return cuStreamQuery(s); }

DRV_API CUresult cuStreamGetPriority(CUstream s, int *p)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    *p = stream_ok(s) ? s->priority : 0;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamGetPriority_ptsz(CUstream s, int *p) { return cuStreamGetPriority(s, p); }

DRV_API CUresult cuStreamGetFlags(CUstream s, unsigned int *flags)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = stream_ok(s) ? s->flags : 0;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamGetFlags_ptsz(CUstream s, unsigned int *flags) { return cuStreamGetFlags(s, flags); }

DRV_API CUresult cuStreamGetId(CUstream s, unsigned long long *id)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!id)
        return CUDA_ERROR_INVALID_VALUE;
    *id = stream_ok(s) ? (unsigned long long)(uintptr_t)s : (unsigned long long)(uintptr_t)s;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamGetId_ptsz(CUstream s, unsigned long long *id) { return cuStreamGetId(s, id); }

DRV_API CUresult cuStreamGetCtx(CUstream s, CUcontext *c)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    *c = stream_ok(s) ? s->ctx : drv_current();
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamGetCtx_ptsz(CUstream s, CUcontext *c) { return cuStreamGetCtx(s, c); }

DRV_API CUresult cuStreamGetDevice(CUstream s, CUdevice *d)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!d)
        return CUDA_ERROR_INVALID_VALUE;
    *d = 0;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamGetDevice_ptsz(CUstream s, CUdevice *d) { return cuStreamGetDevice(s, d); }

bool drv_event_ok(const drv_event_t *e) { return e && e->tag == DRV_EVENT; }

DRV_API CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags)
{
    /* behind a launch that goes on, which everything after waits for anyway */
    if (drv_launch_running() && drv_event_ok(e) && !e->cap && flags <= 1 &&
        (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || stream_ok(s)) && !drv_capture_of(s))
        return CUDA_SUCCESS;
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!drv_event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    if (flags & ~1u)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_enter(NULL)))
        return r;
    if (e->cap && stream_ok(s))
        return drv_capture_wait(s, e);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int flags) { return cuStreamWaitEvent(s, e, flags); }

DRV_API CUresult cuStreamAddCallback(CUstream s, CUstreamCallback cb, void *user, unsigned int flags)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!cb || flags)
        return CUDA_ERROR_INVALID_VALUE;
    drv_ctx_t *c;
    r = drv_enter(&c);
    drv_flush_output();
    if (c || r == CUDA_SUCCESS)
        cb(s, r, user);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamAddCallback_ptsz(CUstream s, CUstreamCallback cb, void *user, unsigned int flags)
{
    return cuStreamAddCallback(s, cb, user, flags);
}

DRV_API CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *user)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_enter(NULL)))
        return r;
    if (drv_capture_of(s))
        return drv_capture_host(s, fn, user);
    drv_flush_output();
    fn(user);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *user) { return cuLaunchHostFunc(s, fn, user); }

DRV_API CUresult cuStreamAttachMemAsync(CUstream s, CUdeviceptr p, size_t n, unsigned int flags)
{
    (void)n;
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE)
        return CUDA_ERROR_INVALID_VALUE;
    const drv_alloc_t *a = drv_alloc_find((uintptr_t)p, 0);
    return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
DRV_API CUresult cuStreamAttachMemAsync_ptsz(CUstream s, CUdeviceptr p, size_t n, unsigned int flags)
{
    return cuStreamAttachMemAsync(s, p, n, flags);
}

/* Capture state (graph.c). */
DRV_API CUresult cuStreamIsCapturing(CUstream s, int *status)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_capture_info(s, status, NULL, NULL, NULL, NULL);
}
DRV_API CUresult cuStreamIsCapturing_ptsz(CUstream s, int *status) { return cuStreamIsCapturing(s, status); }

DRV_API CUresult cuStreamGetCaptureInfo_v3(CUstream s, int *status, unsigned long long *id, void **graph,
                                           const void **deps, const void **edges, size_t *ndeps)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    if (edges)
        *edges = NULL;   /* no edge data: every dependency is a plain one */
    return drv_capture_info(s, status, id, graph, deps, ndeps);
}
DRV_API CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream s, int *status, unsigned long long *id, void **graph,
                                                const void **deps, const void **edges, size_t *ndeps)
{
    return cuStreamGetCaptureInfo_v3(s, status, id, graph, deps, edges, ndeps);
}
DRV_API CUresult cuStreamGetCaptureInfo_v2(CUstream s, int *status, unsigned long long *id, void **graph,
                                           const void **deps, size_t *ndeps)
{
    return cuStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, ndeps);
}
DRV_API CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream s, int *status, unsigned long long *id, void **graph,
                                                const void **deps, size_t *ndeps)
{
    return cuStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, ndeps);
}

/* This thread's capture interaction mode (CUstreamCaptureMode: 0 global, 1 thread-local,
 * 2 relaxed), which decides whether the calls that are not safe during a capture fail. */
static __thread int capture_mode;

DRV_API CUresult cuThreadExchangeStreamCaptureMode(int *mode)
{
    if (!mode || *mode < 0 || *mode > 2)
        return CUDA_ERROR_INVALID_VALUE;
    int old = capture_mode;
    capture_mode = *mode;
    *mode = old;
    return CUDA_SUCCESS;
}

int drv_thread_capture_mode(void) { return capture_mode; }

/*{=====================================================================
 * Events
 *====================================================================*/

DRV_API CUresult cuEventCreate(CUevent *out, unsigned int flags)
{
    drv_ctx_t *c;
    CUresult r = drv_enter(&c);
    if (r)
        return r;
    if (!out || (flags & ~7u) || ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING)))
        return CUDA_ERROR_INVALID_VALUE;
    drv_event_t *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e->tag = DRV_EVENT;
    e->ctx = c;
    e->flags = flags;
    *out = e;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuEventDestroy_v2(CUevent e)
{
    drv_join();
    if (!drv_event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    e->tag = 0;
    free(e->cdeps);
    free(e);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuEventDestroy(CUevent e) { return cuEventDestroy_v2(e); }

DRV_API CUresult cuEventRecord(CUevent e, CUstream s)
{
    /* behind a launch that goes on: it completes when that ends */
    if (drv_launch_running() && drv_event_ok(e) &&
        (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || stream_ok(s)) && !drv_capture_of(s) &&
        drv_defer_event(e))
        return CUDA_SUCCESS;
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (!drv_event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    drv_ctx_t *sc = drv_stream_ctx(s);
    if ((r = drv_enter_for(sc ? sc : e->ctx, NULL)))
        return r;
    if (drv_capture_of(s))
        return drv_capture_record(s, e);
    e->cap = NULL;
    e->recorded = true;
    e->time = drv_now();
    return CUDA_SUCCESS;
}
DRV_API CUresult cuEventRecord_ptsz(CUevent e, CUstream s) { return cuEventRecord(e, s); }

/* An event recorded on a context captures all the work submitted to it: all of it is done
 * here when the call is made.  Waiting for one is then immediate. */
DRV_API CUresult cuCtxRecordEvent(CUcontext c, CUevent e)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!drv_ctx_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!drv_event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = drv_enter_for(c, NULL);
    if (r)
        return r;
    e->cap = NULL;
    e->recorded = true;
    e->time = drv_now();
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxWaitEvent(CUcontext c, CUevent e)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!drv_ctx_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!drv_event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    return drv_enter_for(c, NULL);
}
DRV_API CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned int flags)
{
    if (flags & ~1u)
        return CUDA_ERROR_INVALID_VALUE;
    return cuEventRecord(e, s);
}
DRV_API CUresult cuEventRecordWithFlags_ptsz(CUevent e, CUstream s, unsigned int flags)
{
    return cuEventRecordWithFlags(e, s, flags);
}

DRV_API CUresult cuEventQuery(CUevent e)
{
    if (!drv_event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    if (drv_launch_running())            /* recorded before it, or behind it (pending) */
        return e->pending ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
    return drv_enter_for(e->ctx, NULL);
}

DRV_API CUresult cuEventSynchronize(CUevent e)
{
    if (!drv_event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = drv_enter_for(e->ctx, NULL);
    drv_flush_output();
    return r;
}

DRV_API CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b)
{
    drv_join();
    if (!ms)
        return CUDA_ERROR_INVALID_VALUE;
    if (!drv_event_ok(a) || !drv_event_ok(b))
        return CUDA_ERROR_INVALID_HANDLE;
    if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!a->recorded || !b->recorded)
        return CUDA_ERROR_INVALID_HANDLE;
    *ms = (float)((b->time - a->time) * 1e3);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { return cuEventElapsedTime_v2(ms, a, b); }

/*{=====================================================================
 * Stream attributes (CUstreamAttrID): kept per stream and read back; the NULL stream's
 * are the context's.  The L2 access policy window and the rest have no effect here.
 *====================================================================*/

static CUresult stream_attrs(CUstream s, drv_sattr_t **out)
{
    CUresult r = drv_stream_check(s);
    if (r)
        return r;
    if (stream_ok(s)) {
        *out = &s->attr;
        return CUDA_SUCCESS;
    }
    drv_ctx_t *c;
    if ((r = drv_enter(&c)))
        return r;
    *out = &c->null_attr;
    return CUDA_SUCCESS;
}

static bool sattr_valid(int id)
{
    return id == CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW || id == CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY ||
           id == CU_LAUNCH_ATTRIBUTE_PRIORITY || id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP ||
           id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN || id == 16 /* NVLINK_UTIL_CENTRIC_SCHEDULING */;
}

DRV_API CUresult cuStreamSetAttribute(CUstream s, int id, const CUlaunchAttributeValue *v)
{
    drv_sattr_t *a;
    CUresult r = stream_attrs(s, &a);
    if (r)
        return r;
    if (!v || !sattr_valid(id))
        return CUDA_ERROR_INVALID_VALUE;
    CUlaunchAttributeValue w = *v;
    switch (id) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
        /* { base_ptr, num_bytes, hitRatio, hitProp, missProp } */
        struct { void *base; size_t bytes; float ratio; int hit, miss; } apw;
        memcpy(&apw, &w, sizeof apw);
        if (apw.bytes > (size_t)drv_attr_value(109 /* MAX_ACCESS_POLICY_WINDOW_SIZE */) ||
            !(apw.ratio >= 0.0f && apw.ratio <= 1.0f) || (unsigned)apw.hit > 2 || (unsigned)apw.miss > 2)
            return CUDA_ERROR_INVALID_VALUE;
        break;
    }
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY: {
        int pol;
        memcpy(&pol, &w, sizeof pol);
        if (pol < 1 || pol > 4)   /* CU_SYNC_POLICY_AUTO .. BLOCKING_SYNC */
            return CUDA_ERROR_INVALID_VALUE;
        break;
    }
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: {
        int p = (int)w.priority;
        p = p > 0 ? 0 : p < -5 ? -5 : p;   /* the device's range, as cuStreamCreateWithPriority */
        w.priority = (unsigned)p;
        if (stream_ok(s))
            s->priority = p;
        break;
    }
    default: break;
    }
    a->v[id] = w;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamSetAttribute_ptsz(CUstream s, int id, const CUlaunchAttributeValue *v)
{
    return cuStreamSetAttribute(s, id, v);
}

DRV_API CUresult cuStreamGetAttribute(CUstream s, int id, CUlaunchAttributeValue *v)
{
    drv_sattr_t *a;
    CUresult r = stream_attrs(s, &a);
    if (r)
        return r;
    if (!v || !sattr_valid(id))
        return CUDA_ERROR_INVALID_VALUE;
    *v = a->v[id];
    if (id == CU_LAUNCH_ATTRIBUTE_PRIORITY)
        v->priority = (unsigned)(stream_ok(s) ? s->priority : 0);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamGetAttribute_ptsz(CUstream s, int id, CUlaunchAttributeValue *v)
{
    return cuStreamGetAttribute(s, id, v);
}

DRV_API CUresult cuStreamCopyAttributes(CUstream dst, CUstream src)
{
    drv_sattr_t *d, *sa;
    CUresult r = stream_attrs(dst, &d);
    if (r || (r = stream_attrs(src, &sa)))
        return r;
    *d = *sa;
    if (stream_ok(dst))
        dst->priority = stream_ok(src) ? src->priority : 0;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src) { return cuStreamCopyAttributes(dst, src); }
/*}=====================================================================*/
