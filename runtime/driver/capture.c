/* capture.c: stream capture.  While a stream captures, the work submitted to it (and to the
 * streams that join the capture through events) becomes nodes of the capture's graph instead
 * of running; a capture may also add to an existing graph (cuStreamBeginCaptureToGraph). */
#include <stdlib.h>
#include <string.h>

#include "runtime/driver/graph.h"

/* A capture in progress: its graph and the streams that take part. */
struct drv_capture {
    drv_graph_t  *g;
    int           mode;
    unsigned long long id;
    drv_stream_t *origin;
    drv_stream_t *streams[64];
    unsigned      nstreams;
    bool          invalid;
    bool          to_graph;   /* into a graph the caller made (cuStreamBeginCaptureToGraph) */
    pthread_t     thread;     /* the thread that began it */
    struct drv_capture *next_active;
};

/* The captures in progress in the process. */
static drv_capture_t *active_captures;

/* A call that is not safe during a capture (an allocation, say): refused, and the captures
 * that forbid it invalidated, where this thread's mode says so: a global-mode thread may
 * not make it while it captures itself (unless relaxed) or another thread captures in
 * global mode; a thread-local one only while it captures itself; a relaxed one always may. */
CUresult drv_capture_unsafe(const char *fn)
{
    int mode = drv_thread_capture_mode();
    if (mode == 2 || !active_captures)
        return CUDA_SUCCESS;
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&drv.lock);
    for (drv_capture_t *c = active_captures; c; c = c->next_active) {
        bool own = pthread_equal(c->thread, pthread_self());
        if ((own && c->mode != 2) || (mode == 0 && !own && c->mode == 0)) {
            c->invalid = true;
            r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
        }
    }
    pthread_mutex_unlock(&drv.lock);
    if (r)
        drv_log(0, "%s is not permitted while a stream is being captured", fn);
    return r;
}

static void capture_activate(drv_capture_t *c, bool on)
{
    pthread_mutex_lock(&drv.lock);
    if (on) {
        c->next_active = active_captures;
        active_captures = c;
    } else {
        for (drv_capture_t **p = &active_captures; *p; p = &(*p)->next_active)
            if (*p == c) {
                *p = c->next_active;
                break;
            }
    }
    pthread_mutex_unlock(&drv.lock);
}

/*{=====================================================================
 * Stream capture
 *====================================================================*/

/* A synchronising call on a capturing stream (cuStreamSynchronize, cuStreamQuery): refused
 * and the capture invalidated, as the H100's driver does (tests/apps/graph.cu). */
CUresult drv_capture_sync(CUstream s, const char *fn)
{
    drv_capture_t *c = drv_capture_of(s);
    if (!c)
        return CUDA_SUCCESS;
    c->invalid = true;
    drv_log(0, "%s of a stream that is being captured is not permitted", fn);
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* Work the emulator cannot capture into a graph (what names it): the capture is
 * invalidated and the call refused, located. */
CUresult drv_capture_refuse(CUstream s, const char *fn, const char *what)
{
    drv_capture_t *c = drv_capture_of(s);
    if (!c)
        return CUDA_SUCCESS;
    c->invalid = true;
    return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "%s captured into a graph are not emulated (the capture is "
                    "invalidated)", what);
}

drv_capture_t *drv_capture_of(CUstream s)
{
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || s->tag != DRV_STREAM)
        return NULL;
    return s->cap;
}

/* The node a capturing stream's next work becomes: after the stream's current dependencies,
 * which it then replaces. */
static CUresult capture_node(CUstream s, int type, drv_node_t **out)
{
    drv_capture_t *cap = s->cap;
    drv_node_t *n;
    CUresult r = drv_graph_add_node(cap->g, type, (drv_node_t *const *)s->cdeps, s->ncdeps, &n);
    if (r) {
        cap->invalid = true;
        return r;
    }
    void **d = realloc(s->cdeps, sizeof *d);
    if (!d) {
        cap->invalid = true;
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    d[0] = n;
    s->cdeps = d;
    s->ncdeps = 1;
    *out = n;
    return CUDA_SUCCESS;
}

CUresult drv_capture_kernel(CUstream s, drv_func_t *f, const unsigned grid[3], const unsigned block[3], unsigned shared,
                            void **params, void **extra, drv_node_t **out)
{
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_KERNEL, &n);
    if (!r && out)
        *out = n;
    if (!r && (r = drv_node_set_kernel(n, f, grid, block, shared, params, extra)))
        s->cap->invalid = true;
    if (!r && s->priority) {   /* a captured kernel takes the stream's priority */
        CUlaunchAttributeValue v = { .priority = (unsigned)s->priority };
        r = drv_node_attr_set("cuLaunchKernel", n, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v);
    }
    return r;
}

/* cuMemAllocAsync in a capturing stream: a memory alloc node of device memory. */
CUresult drv_capture_mem_alloc(CUstream s, size_t bytes, CUdeviceptr *out)
{
    if (s->cap->g->owner)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemAllocAsync", "memory nodes cannot be added to a graph that "
                        "belongs to a node");
    mem_alloc_params_t p = { .poolProps = { .allocType = 1, .location = { 1, 0 } }, .bytesize = bytes };
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_MEM_ALLOC, &n);
    if (!r && (r = drv_node_mem_alloc("cuMemAllocAsync", n, &p)))
        s->cap->invalid = true;
    if (!r)
        *out = p.dptr;
    return r;
}

/* cuMemFreeAsync in a capturing stream: a memory free node, of a graph allocation. */
CUresult drv_capture_mem_free(CUstream s, CUdeviceptr d)
{
    if (s->cap->g->owner)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemFreeAsync", "memory nodes cannot be added to a graph that "
                        "belongs to a node");
    if (!drv_gmem_at((uintptr_t)d))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemFreeAsync", "%#llx is no graph allocation: a captured free "
                        "frees memory that an allocation node (a captured cuMemAllocAsync) returned", d);
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_MEM_FREE, &n);
    if (!r && (r = drv_node_mem_free("cuMemFreeAsync", n, d)))
        s->cap->invalid = true;
    return r;
}

/* cuGraphLaunch in a capturing stream: a child graph node of a copy of the executable graph's graph. */
CUresult drv_capture_child(CUstream s, const drv_graph_t *g)
{
    if (drv_graph_has(g, MEM_NODES | COND_NODES))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, "cuGraphLaunch", "capturing the launch of a graph with memory or "
                        "conditional nodes is not emulated");
    drv_graph_t *c = drv_graph_clone(g);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_GRAPH, &n);
    if (r) {
        drv_graph_free(c);
        return r;
    }
    n->child = c;
    c->owner = n;
    return CUDA_SUCCESS;
}

CUresult drv_capture_copy(CUstream s, const CUDA_MEMCPY3D *c)
{
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_MEMCPY, &n);
    if (!r)
        n->copy = *c;
    return r;
}

CUresult drv_capture_set(CUstream s, CUdeviceptr d, size_t pitch, unsigned v, unsigned es, size_t w, size_t h)
{
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_MEMSET, &n);
    if (!r) {
        n->set.dst = d;
        n->set.pitch = pitch;
        n->set.value = v;
        n->set.es = es;
        n->set.w = w;
        n->set.h = h;
    }
    return r;
}

CUresult drv_capture_host(CUstream s, CUhostFn fn, void *user)
{
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_HOST, &n);
    if (!r) {
        n->host.fn = fn;
        n->host.user = user;
    }
    return r;
}

/* An event recorded in a capturing stream holds the stream's dependencies, for streams that
 * wait on it (they join the capture). */
CUresult drv_capture_record(CUstream s, drv_event_t *e)
{
    void **d = s->ncdeps ? malloc(s->ncdeps * sizeof *d) : NULL;
    if (s->ncdeps && !d)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (s->ncdeps)
        memcpy(d, s->cdeps, s->ncdeps * sizeof *d);
    free(e->cdeps);
    e->cdeps = d;
    e->ncdeps = s->ncdeps;
    e->cap = s->cap;
    return CUDA_SUCCESS;
}

CUresult drv_capture_wait(CUstream s, drv_event_t *e)
{
    drv_capture_t *cap = e->cap;
    if (s->cap && s->cap != cap)
        return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
    if (!s->cap) {
        if (cap->nstreams == 64)
            return CUDA_ERROR_OUT_OF_MEMORY;
        s->cap = cap;
        cap->streams[cap->nstreams++] = s;
        free(s->cdeps);
        s->cdeps = NULL;
        s->ncdeps = 0;
    }
    void **d = realloc(s->cdeps, (s->ncdeps + e->ncdeps + 1) * sizeof *d);
    if (!d)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < e->ncdeps; i++) {
        bool have = false;
        for (size_t j = 0; j < s->ncdeps; j++)
            have |= d[j] == e->cdeps[i];
        if (!have)
            d[s->ncdeps++] = e->cdeps[i];
    }
    s->cdeps = d;
    return CUDA_SUCCESS;
}

static bool is_node(drv_node_t *x, void *target) { return (void *)x == target; }

/* Whether target is one of from[0..n) or an ancestor of one. */
static bool reaches(drv_node_t *const *from, size_t n, const void *target)
{
    bool nomem;
    bool found = drv_node_ancestor(from, n, is_node, (void *)target, &nomem) != NULL;
    return found || nomem;   /* cannot tell: do not refuse the capture */
}

/* A capture begins in s: into a new graph, or into g after deps[0..ndeps) (to_graph). */
static CUresult begin_capture(CUstream s, int mode, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (s->tag != DRV_STREAM)
        return CUDA_ERROR_INVALID_HANDLE;
    if (s->cap)
        return CUDA_ERROR_ILLEGAL_STATE;
    if (mode < 0 || mode > 2)
        return CUDA_ERROR_INVALID_VALUE;
    if (g && (!drv_graph_ok(g) || (ndeps && !deps)))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < ndeps; i++)
        if (!drv_node_ok(deps[i]) || deps[i]->g != g)
            return CUDA_ERROR_INVALID_VALUE;
    drv_capture_t *cap = calloc(1, sizeof *cap);
    void **d = ndeps ? malloc(ndeps * sizeof *d) : NULL;
    if (!cap || (ndeps && !d) || !(cap->g = g ? g : drv_graph_new())) {
        free(cap);
        free(d);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    static unsigned long long ids;
    cap->id = __atomic_add_fetch(&ids, 1, __ATOMIC_RELAXED);
    cap->mode = mode;
    cap->to_graph = g != NULL;
    cap->thread = pthread_self();
    capture_activate(cap, true);
    cap->origin = s;
    cap->streams[cap->nstreams++] = s;
    s->cap = cap;
    free(s->cdeps);
    if (ndeps)
        memcpy(d, deps, ndeps * sizeof *d);
    s->cdeps = d;
    s->ncdeps = ndeps;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuStreamBeginCapture_v2(CUstream s, int mode) { return begin_capture(s, mode, NULL, NULL, 0); }
DRV_API CUresult cuStreamBeginCaptureToGraph(CUstream s, drv_graph_t *g, drv_node_t *const *deps,
                                             const edge_data_t *e, size_t ndeps, int mode)
{
    if (!drv_edges_default(e, ndeps))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "edge data with ports or a type other than the default");
    if (!g)
        return CUDA_ERROR_INVALID_VALUE;
    return begin_capture(s, mode, g, deps, ndeps);
}
DRV_API CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream s, drv_graph_t *g, drv_node_t *const *deps,
                                                  const edge_data_t *e, size_t ndeps, int mode)
{
    return cuStreamBeginCaptureToGraph(s, g, deps, e, ndeps, mode);
}
DRV_API CUresult cuStreamBeginCapture(CUstream s) { return cuStreamBeginCapture_v2(s, 0); }
DRV_API CUresult cuStreamBeginCapture_ptsz(CUstream s) { return cuStreamBeginCapture_v2(s, 0); }
DRV_API CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, int mode) { return cuStreamBeginCapture_v2(s, mode); }

DRV_API CUresult cuStreamEndCapture(CUstream s, drv_graph_t **out)
{
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || s->tag != DRV_STREAM)
        return CUDA_ERROR_ILLEGAL_STATE;
    drv_capture_t *cap = s->cap;
    if (!cap)
        return CUDA_ERROR_ILLEGAL_STATE;   /* also with out NULL (tests/apps/capture_join.cu) */
    /* The graph out may be NULL only for a capture into an existing graph (the caller
     * has it already). */
    drv_graph_t *unused;
    if (!out && !cap->to_graph)
        return CUDA_ERROR_INVALID_VALUE;
    if (!out)
        out = &unused;
    if (cap->origin != s)
        return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
    /* every other stream that joined must have been joined back into this one: its last
     * work is among the ancestors of the origin stream's */
    CUresult r = CUDA_SUCCESS;
    for (unsigned i = 0; i < cap->nstreams; i++) {
        drv_stream_t *o = cap->streams[i];
        if (o == s || o->tag != DRV_STREAM || o->cap != cap)
            continue;
        for (size_t j = 0; j < o->ncdeps && r == CUDA_SUCCESS; j++)
            if (!reaches((drv_node_t *const *)s->cdeps, s->ncdeps, o->cdeps[j]))
                r = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
        o->cap = NULL;
        free(o->cdeps);
        o->cdeps = NULL;
        o->ncdeps = 0;
    }
    capture_activate(cap, false);
    s->cap = NULL;
    free(s->cdeps);
    s->cdeps = NULL;
    s->ncdeps = 0;
    if (cap->invalid || r) {
        if (!cap->to_graph)   /* a graph captured into stays the caller's, with what it holds */
            drv_graph_free(cap->g);
        if (cap->invalid)
            r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
        free(cap);
        *out = NULL;
        return r;
    }
    *out = cap->g;
    free(cap);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamEndCapture_ptsz(CUstream s, drv_graph_t **out) { return cuStreamEndCapture(s, out); }

/* cuStreamDestroy of a stream that takes part in a capture: a stream other than the origin
 * whose work was joined back into the origin stream leaves the capture (the graph keeps
 * its nodes); any other is refused. */
CUresult drv_capture_leave(drv_stream_t *s)
{
    drv_capture_t *cap = s->cap;
    drv_stream_t *o = cap->origin;
    if (o == s)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    for (size_t j = 0; j < s->ncdeps; j++)
        if (!reaches((drv_node_t *const *)o->cdeps, o->ncdeps, s->cdeps[j]))
            return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    for (unsigned i = 0; i < cap->nstreams; i++)
        if (cap->streams[i] == s) {
            cap->streams[i] = cap->streams[--cap->nstreams];
            break;
        }
    s->cap = NULL;
    free(s->cdeps);
    s->cdeps = NULL;
    s->ncdeps = 0;
    return CUDA_SUCCESS;
}

CUresult drv_capture_info(CUstream s, int *status, unsigned long long *id, void **graph, const void **deps, size_t *ndeps)
{
    drv_capture_t *cap = drv_capture_of(s);
    *status = cap ? (cap->invalid ? CU_STREAM_CAPTURE_STATUS_INVALIDATED : CU_STREAM_CAPTURE_STATUS_ACTIVE)
                  : CU_STREAM_CAPTURE_STATUS_NONE;
    if (id)
        *id = cap ? cap->id : 0;
    if (graph)
        *graph = cap ? cap->g : NULL;
    if (deps)
        *deps = cap ? (const void *)s->cdeps : NULL;
    if (ndeps)
        *ndeps = cap ? s->ncdeps : 0;
    return CUDA_SUCCESS;
}

/* The dependencies of a capturing stream's next work: nodes of the capture's graph added to
 * them (flags CU_STREAM_ADD_CAPTURE_DEPENDENCIES, 0) or in their place (_SET_, 1). */
DRV_API CUresult cuStreamUpdateCaptureDependencies(CUstream s, drv_node_t **deps, size_t n, unsigned flags)
{
    drv_capture_t *cap = drv_capture_of(s);
    if (s && s != CU_STREAM_LEGACY && s != CU_STREAM_PER_THREAD && s->tag != DRV_STREAM)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!cap)
        return CUDA_ERROR_ILLEGAL_STATE;
    if (flags > 1 || (n && !deps))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < n; i++)
        if (!drv_node_ok(deps[i]) || deps[i]->g != cap->g)
            return CUDA_ERROR_INVALID_VALUE;
    size_t keep = flags == 1 ? 0 : s->ncdeps;
    void **d = malloc((keep + n + 1) * sizeof *d);
    if (!d)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (keep)
        memcpy(d, s->cdeps, keep * sizeof *d);
    size_t k = keep;
    for (size_t i = 0; i < n; i++) {
        bool have = false;
        for (size_t j = 0; j < k && !have; j++)
            have = d[j] == deps[i];
        if (!have)
            d[k++] = deps[i];
    }
    free(s->cdeps);
    s->cdeps = d;
    s->ncdeps = k;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamUpdateCaptureDependencies_v2(CUstream s, drv_node_t **deps, const edge_data_t *e, size_t n,
                                                      unsigned flags)
{
    if (!drv_edges_default(e, n))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "edge data with ports or a type other than the default");
    return cuStreamUpdateCaptureDependencies(s, deps, n, flags);
}
DRV_API CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream s, drv_node_t **deps, size_t n, unsigned flags)
{
    return cuStreamUpdateCaptureDependencies(s, deps, n, flags);
}
DRV_API CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream s, drv_node_t **deps, const edge_data_t *e,
                                                           size_t n, unsigned flags)
{
    return cuStreamUpdateCaptureDependencies_v2(s, deps, e, n, flags);
}
