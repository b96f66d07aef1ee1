/* graph.c: CUDA graphs and stream capture.  A graph is a set of nodes (kernel, copy, set,
 * host function, empty, child graph, event record and wait) with dependencies; an executable
 * graph is its nodes in an order that respects them, parameters copied; launching one runs
 * the nodes in that order (work runs when submitted, as everywhere in this driver).  While
 * a stream captures, the work submitted to it (and to the streams that join the capture
 * through events) becomes nodes of the capture's graph instead of running. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/driver/drv.h"

enum { DRV_GRAPH = 0x47524131, DRV_GEXEC = 0x47455831, DRV_NODE = 0x4e4f4431 };
enum { NODE_KERNEL = 0, NODE_MEMCPY = 1, NODE_MEMSET = 2, NODE_HOST = 3, NODE_GRAPH = 4, NODE_EMPTY = 5,
       NODE_WAIT_EVENT = 6, NODE_EVENT_RECORD = 7 };

typedef struct drv_graph drv_graph_t;
typedef struct drv_node {
    uint32_t          tag;
    int               type;
    drv_graph_t      *g;
    struct drv_node **deps;
    size_t            ndeps;
    struct {
        drv_func_t *f;
        unsigned    grid[3], block[3], shared;
        uint8_t    *params;
        size_t      psize;
    } k;
    CUDA_MEMCPY3D     copy;
    struct { CUdeviceptr dst; size_t pitch; unsigned value, es; size_t w, h; } set;
    struct { CUhostFn fn; void *user; } host;
    drv_graph_t      *child;
    drv_event_t      *event;
    struct drv_node  *origin;   /* in an executable graph: the node it was made from */
    bool              disabled; /* in an executable graph: cuGraphNodeSetEnabled */
} drv_node_t;

struct drv_graph {
    uint32_t     tag;
    drv_node_t **nodes;
    size_t       n, cap;
};

typedef struct {
    uint32_t     tag;
    drv_graph_t *g;        /* a private copy, nodes in execution order */
    unsigned long long flags;
} drv_gexec_t;

/* A capture in progress: its graph and the streams that take part. */
struct drv_capture {
    drv_graph_t  *g;
    int           mode;
    unsigned long long id;
    drv_stream_t *origin;
    drv_stream_t *streams[64];
    unsigned      nstreams;
    bool          invalid;
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

typedef struct {
    CUfunction   func;
    unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    void       **kernelParams;
    void       **extra;
    CUkernel     kern;
    CUcontext    ctx;
} kernel_params_t;
typedef struct {
    CUdeviceptr  dst;
    size_t       pitch;
    unsigned int value, elementSize;
    size_t       width, height;
} memset_params_t;
typedef struct { CUhostFn fn; void *userData; } host_params_t;

/*{=====================================================================
 * Graphs and nodes
 *====================================================================*/

static bool graph_ok(const drv_graph_t *g) { return g && g->tag == DRV_GRAPH; }
static bool node_ok(const drv_node_t *n) { return n && n->tag == DRV_NODE; }

static void node_free(drv_node_t *n);
static void graph_free(drv_graph_t *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    g->tag = 0;
    free(g);
}

static void node_free(drv_node_t *n)
{
    free(n->deps);
    free(n->k.params);
    if (n->type == NODE_GRAPH)
        graph_free(n->child);
    n->tag = 0;
    free(n);
}

static drv_graph_t *graph_new(void)
{
    drv_graph_t *g = calloc(1, sizeof *g);
    if (g)
        g->tag = DRV_GRAPH;
    return g;
}

/* A new node of g after deps[0..ndeps). */
static CUresult add_node(drv_graph_t *g, int type, drv_node_t *const *deps, size_t ndeps, drv_node_t **out)
{
    if (!graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    if (ndeps && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < ndeps; i++)
        if (!node_ok(deps[i]) || deps[i]->g != g)
            return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *n = calloc(1, sizeof *n);
    if (!n || (ndeps && !(n->deps = malloc(ndeps * sizeof *n->deps)))) {
        free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (g->n == g->cap) {
        size_t c = g->cap ? 2 * g->cap : 16;
        drv_node_t **a = realloc(g->nodes, c * sizeof *a);
        if (!a) {
            free(n->deps);
            free(n);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        g->nodes = a;
        g->cap = c;
    }
    n->tag = DRV_NODE;
    n->type = type;
    n->g = g;
    if (ndeps)
        memcpy(n->deps, deps, ndeps * sizeof *deps);
    n->ndeps = ndeps;
    g->nodes[g->n++] = n;
    *out = n;
    return CUDA_SUCCESS;
}

/* The kernel node's own copy of the parameter block. */
static CUresult set_kernel(drv_node_t *n, drv_func_t *f, const unsigned grid[3], const unsigned block[3],
                           unsigned shared, void **params, void **extra)
{
    if (!f || f->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_VALUE;
    const isa_func_t *fn = &f->mod->m->funcs[f->entry];
    uint8_t *pb = calloc(1, f->params_size + 1);
    if (!pb)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (extra) {
        void *buf = NULL;
        size_t *sz = NULL;
        for (void **e = extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
            if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
                buf = e[1];
            else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE)
                sz = e[1];
        }
        if (!buf || !sz || *sz < f->params_size) {
            free(pb);
            return CUDA_ERROR_INVALID_VALUE;
        }
        memcpy(pb, buf, f->params_size);
    } else {
        if (fn->nparam && !params) {
            free(pb);
            return CUDA_ERROR_INVALID_VALUE;
        }
        for (uint32_t i = 0; i < fn->nparam; i++)
            memcpy(pb + f->param_offset[i], params[i], f->param_size[i]);
    }
    free(n->k.params);
    n->k.f = f;
    memcpy(n->k.grid, grid, sizeof n->k.grid);
    memcpy(n->k.block, block, sizeof n->k.block);
    n->k.shared = shared;
    n->k.params = pb;
    n->k.psize = f->params_size;
    return CUDA_SUCCESS;
}

static CUresult kernel_from(drv_node_t *n, const kernel_params_t *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ }, block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
    return set_kernel(n, p->func ? p->func : p->kern, grid, block, p->sharedMemBytes, p->kernelParams, p->extra);
}

DRV_API CUresult cuGraphCreate(void **out, unsigned int flags)
{
    if (!out || flags)
        return CUDA_ERROR_INVALID_VALUE;
    drv_graph_t *g = graph_new();
    if (!g)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *out = g;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphDestroy(void *g)
{
    if (!graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    graph_free(g);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddKernelNode_v2(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                         const kernel_params_t *p)
{
    if (!out || !p)
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *n;
    CUresult r = add_node(g, NODE_KERNEL, deps, ndeps, &n);
    if (r)
        return r;
    if ((r = kernel_from(n, p))) {
        g->n--;
        node_free(n);
        return r;
    }
    *out = n;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphAddKernelNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                      const kernel_params_t *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    kernel_params_t q = { 0 };   /* the first form has no kern and ctx */
    memcpy(&q, p, offsetof(kernel_params_t, kern));
    return cuGraphAddKernelNode_v2(out, g, deps, ndeps, &q);
}

DRV_API CUresult cuGraphKernelNodeSetParams_v2(drv_node_t *n, const kernel_params_t *p)
{
    if (!node_ok(n) || n->type != NODE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    return kernel_from(n, p);
}

DRV_API CUresult cuGraphKernelNodeGetParams_v2(drv_node_t *n, kernel_params_t *p)
{
    if (!node_ok(n) || n->type != NODE_KERNEL || !p)
        return CUDA_ERROR_INVALID_VALUE;
    memset(p, 0, sizeof *p);
    p->func = n->k.f;
    p->gridDimX = n->k.grid[0]; p->gridDimY = n->k.grid[1]; p->gridDimZ = n->k.grid[2];
    p->blockDimX = n->k.block[0]; p->blockDimY = n->k.block[1]; p->blockDimZ = n->k.block[2];
    p->sharedMemBytes = n->k.shared;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddMemcpyNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                      const CUDA_MEMCPY3D *c, CUcontext ctx)
{
    (void)ctx;
    if (!out || !c)
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *n;
    CUresult r = add_node(g, NODE_MEMCPY, deps, ndeps, &n);
    if (r)
        return r;
    n->copy = *c;
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphMemcpyNodeSetParams(drv_node_t *n, const CUDA_MEMCPY3D *c)
{
    if (!node_ok(n) || n->type != NODE_MEMCPY || !c)
        return CUDA_ERROR_INVALID_VALUE;
    n->copy = *c;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphMemcpyNodeGetParams(drv_node_t *n, CUDA_MEMCPY3D *c)
{
    if (!node_ok(n) || n->type != NODE_MEMCPY || !c)
        return CUDA_ERROR_INVALID_VALUE;
    *c = n->copy;
    return CUDA_SUCCESS;
}

static CUresult set_from(drv_node_t *n, const memset_params_t *p)
{
    if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
        return CUDA_ERROR_INVALID_VALUE;
    n->set.dst = p->dst;
    n->set.pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;
    n->set.value = p->value;
    n->set.es = p->elementSize;
    n->set.w = p->width;
    n->set.h = p->height;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddMemsetNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                      const memset_params_t *p, CUcontext ctx)
{
    (void)ctx;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *n;
    CUresult r = add_node(g, NODE_MEMSET, deps, ndeps, &n);
    if (r)
        return r;
    if ((r = set_from(n, p))) {
        g->n--;
        node_free(n);
        return r;
    }
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphMemsetNodeSetParams(drv_node_t *n, const memset_params_t *p)
{
    if (!node_ok(n) || n->type != NODE_MEMSET)
        return CUDA_ERROR_INVALID_VALUE;
    return set_from(n, p);
}

DRV_API CUresult cuGraphMemsetNodeGetParams(drv_node_t *n, memset_params_t *p)
{
    if (!node_ok(n) || n->type != NODE_MEMSET || !p)
        return CUDA_ERROR_INVALID_VALUE;
    p->dst = n->set.dst;
    p->pitch = n->set.pitch;
    p->value = n->set.value;
    p->elementSize = n->set.es;
    p->width = n->set.w;
    p->height = n->set.h;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddHostNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                    const host_params_t *p)
{
    if (!out || !p || !p->fn)
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *n;
    CUresult r = add_node(g, NODE_HOST, deps, ndeps, &n);
    if (r)
        return r;
    n->host.fn = p->fn;
    n->host.user = p->userData;
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphHostNodeSetParams(drv_node_t *n, const host_params_t *p)
{
    if (!node_ok(n) || n->type != NODE_HOST || !p || !p->fn)
        return CUDA_ERROR_INVALID_VALUE;
    n->host.fn = p->fn;
    n->host.user = p->userData;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphHostNodeGetParams(drv_node_t *n, host_params_t *p)
{
    if (!node_ok(n) || n->type != NODE_HOST || !p)
        return CUDA_ERROR_INVALID_VALUE;
    p->fn = n->host.fn;
    p->userData = n->host.user;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddEmptyNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    return add_node(g, NODE_EMPTY, deps, ndeps, out);
}

static drv_graph_t *graph_clone(const drv_graph_t *g);

DRV_API CUresult cuGraphAddChildGraphNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                          drv_graph_t *child)
{
    if (!out || !graph_ok(child))
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *n;
    CUresult r = add_node(g, NODE_GRAPH, deps, ndeps, &n);
    if (r)
        return r;
    if (!(n->child = graph_clone(child))) {
        g->n--;
        node_free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphChildGraphNodeGetGraph(drv_node_t *n, drv_graph_t **out)
{
    if (!node_ok(n) || n->type != NODE_GRAPH || !out)
        return CUDA_ERROR_INVALID_VALUE;
    *out = n->child;
    return CUDA_SUCCESS;
}

static CUresult add_event_node(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps, drv_event_t *e,
                               int type)
{
    if (!out || !e || e->tag != DRV_EVENT)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = add_node(g, type, deps, ndeps, out);
    if (!r)
        (*out)->event = e;
    return r;
}
DRV_API CUresult cuGraphAddEventRecordNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                           drv_event_t *e)
{
    return add_event_node(out, g, deps, ndeps, e, NODE_EVENT_RECORD);
}
DRV_API CUresult cuGraphAddEventWaitNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                         drv_event_t *e)
{
    return add_event_node(out, g, deps, ndeps, e, NODE_WAIT_EVENT);
}

DRV_API CUresult cuGraphNodeGetType(drv_node_t *n, int *type)
{
    if (!node_ok(n) || !type)
        return CUDA_ERROR_INVALID_VALUE;
    *type = n->type;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphGetNodes(drv_graph_t *g, drv_node_t **nodes, size_t *n)
{
    if (!graph_ok(g) || !n)
        return CUDA_ERROR_INVALID_VALUE;
    if (nodes) {
        size_t k = *n < g->n ? *n : g->n;
        memcpy(nodes, g->nodes, k * sizeof *nodes);
        for (size_t i = k; i < *n; i++)
            nodes[i] = NULL;
    }
    *n = g->n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphGetRootNodes(drv_graph_t *g, drv_node_t **nodes, size_t *n)
{
    if (!graph_ok(g) || !n)
        return CUDA_ERROR_INVALID_VALUE;
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        if (!g->nodes[i]->ndeps) {
            if (nodes && k < *n)
                nodes[k] = g->nodes[i];
            k++;
        }
    if (nodes)
        for (size_t i = k; i < *n; i++)
            nodes[i] = NULL;
    *n = k;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphNodeGetDependencies(drv_node_t *nd, drv_node_t **deps, size_t *n)
{
    if (!node_ok(nd) || !n)
        return CUDA_ERROR_INVALID_VALUE;
    if (deps)
        for (size_t i = 0; i < *n; i++)
            deps[i] = i < nd->ndeps ? nd->deps[i] : NULL;
    *n = nd->ndeps;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddDependencies(drv_graph_t *g, drv_node_t *const *from, drv_node_t *const *to, size_t n)
{
    if (!graph_ok(g) || (n && (!from || !to)))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < n; i++) {
        if (!node_ok(from[i]) || !node_ok(to[i]) || from[i]->g != g || to[i]->g != g || from[i] == to[i])
            return CUDA_ERROR_INVALID_VALUE;
        drv_node_t **d = realloc(to[i]->deps, (to[i]->ndeps + 1) * sizeof *d);
        if (!d)
            return CUDA_ERROR_OUT_OF_MEMORY;
        d[to[i]->ndeps++] = from[i];
        to[i]->deps = d;
    }
    return CUDA_SUCCESS;
}

/* Edge data (CUgraphEdgeData): ports and a type; the emulator's edges are all the default
 * kind, so the data reads as zero and only zero is accepted. */
typedef struct { unsigned char from_port, to_port, type, reserved[5]; } edge_data_t;

static bool edges_default(const edge_data_t *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++)
        if (e[i].from_port || e[i].to_port || e[i].type)
            return false;
    return true;
}

DRV_API CUresult cuGraphAddDependencies_v2(drv_graph_t *g, drv_node_t *const *from, drv_node_t *const *to,
                                           const edge_data_t *e, size_t n)
{
    if (!edges_default(e, n))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "edge data with ports or a type other than the default");
    return cuGraphAddDependencies(g, from, to, n);
}

DRV_API CUresult cuGraphRemoveDependencies(drv_graph_t *g, drv_node_t *const *from, drv_node_t *const *to, size_t n)
{
    if (!graph_ok(g) || (n && (!from || !to)))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < n; i++) {
        if (!node_ok(from[i]) || !node_ok(to[i]) || from[i]->g != g || to[i]->g != g)
            return CUDA_ERROR_INVALID_VALUE;
        size_t j = 0;
        while (j < to[i]->ndeps && to[i]->deps[j] != from[i])
            j++;
        if (j == to[i]->ndeps)
            return CUDA_ERROR_INVALID_VALUE;   /* no such edge */
        memmove(&to[i]->deps[j], &to[i]->deps[j + 1], (to[i]->ndeps - j - 1) * sizeof *to[i]->deps);
        to[i]->ndeps--;
    }
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphRemoveDependencies_v2(drv_graph_t *g, drv_node_t *const *from, drv_node_t *const *to,
                                              const edge_data_t *e, size_t n)
{
    if (!edges_default(e, n))
        return CUDA_ERROR_INVALID_VALUE;
    return cuGraphRemoveDependencies(g, from, to, n);
}

DRV_API CUresult cuGraphGetEdges_v2(drv_graph_t *g, drv_node_t **from, drv_node_t **to, edge_data_t *e, size_t *n)
{
    if (!graph_ok(g) || !n || (!from != !to))
        return CUDA_ERROR_INVALID_VALUE;
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        for (size_t j = 0; j < g->nodes[i]->ndeps; j++, k++)
            if (from && k < *n) {
                from[k] = g->nodes[i]->deps[j];
                to[k] = g->nodes[i];
                if (e)
                    memset(&e[k], 0, sizeof *e);
            }
    if (from) {
        for (size_t i = k; i < *n; i++) {
            from[i] = to[i] = NULL;
            if (e)
                memset(&e[i], 0, sizeof *e);
        }
        if (k > *n)
            return CUDA_ERROR_LOSSY_QUERY;   /* more edges than room: the first *n given */
    }
    *n = k;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphGetEdges(drv_graph_t *g, drv_node_t **from, drv_node_t **to, size_t *n)
{
    return cuGraphGetEdges_v2(g, from, to, NULL, n);
}

DRV_API CUresult cuGraphNodeGetDependencies_v2(drv_node_t *nd, drv_node_t **deps, edge_data_t *e, size_t *n)
{
    if (!node_ok(nd) || !n)
        return CUDA_ERROR_INVALID_VALUE;
    if (deps && e)
        memset(e, 0, *n * sizeof *e);
    if (deps && *n < nd->ndeps) {
        memcpy(deps, nd->deps, *n * sizeof *deps);
        return CUDA_ERROR_LOSSY_QUERY;
    }
    return cuGraphNodeGetDependencies(nd, deps, n);
}

DRV_API CUresult cuGraphNodeGetDependentNodes_v2(drv_node_t *nd, drv_node_t **out, edge_data_t *e, size_t *n)
{
    if (!node_ok(nd) || !n)
        return CUDA_ERROR_INVALID_VALUE;
    size_t k = 0;
    for (size_t i = 0; i < nd->g->n; i++)
        for (size_t j = 0; j < nd->g->nodes[i]->ndeps; j++)
            if (nd->g->nodes[i]->deps[j] == nd) {
                if (out && k < *n) {
                    out[k] = nd->g->nodes[i];
                    if (e)
                        memset(&e[k], 0, sizeof *e);
                }
                k++;
            }
    if (out) {
        for (size_t i = k; i < *n; i++)
            out[i] = NULL;
        if (k > *n)
            return CUDA_ERROR_LOSSY_QUERY;
    }
    *n = k;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphNodeGetDependentNodes(drv_node_t *nd, drv_node_t **out, size_t *n)
{
    return cuGraphNodeGetDependentNodes_v2(nd, out, NULL, n);
}

static CUresult event_of(drv_node_t *n, int type, drv_event_t **out)
{
    if (!node_ok(n) || n->type != type || !out)
        return CUDA_ERROR_INVALID_VALUE;
    *out = n->event;
    return CUDA_SUCCESS;
}
static CUresult set_event_of(drv_node_t *n, int type, drv_event_t *e)
{
    if (!node_ok(n) || n->type != type || !e || e->tag != DRV_EVENT)
        return CUDA_ERROR_INVALID_VALUE;
    n->event = e;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphEventRecordNodeGetEvent(drv_node_t *n, drv_event_t **e) { return event_of(n, NODE_EVENT_RECORD, e); }
DRV_API CUresult cuGraphEventWaitNodeGetEvent(drv_node_t *n, drv_event_t **e) { return event_of(n, NODE_WAIT_EVENT, e); }
DRV_API CUresult cuGraphEventRecordNodeSetEvent(drv_node_t *n, drv_event_t *e) { return set_event_of(n, NODE_EVENT_RECORD, e); }
DRV_API CUresult cuGraphEventWaitNodeSetEvent(drv_node_t *n, drv_event_t *e) { return set_event_of(n, NODE_WAIT_EVENT, e); }

DRV_API CUresult cuGraphKernelNodeSetParams(drv_node_t *n, const kernel_params_t *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    kernel_params_t q = { 0 };
    memcpy(&q, p, offsetof(kernel_params_t, kern));
    return cuGraphKernelNodeSetParams_v2(n, &q);
}
DRV_API CUresult cuGraphKernelNodeGetParams(drv_node_t *n, kernel_params_t *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    kernel_params_t q;
    CUresult r = cuGraphKernelNodeGetParams_v2(n, &q);
    if (!r)
        memcpy(p, &q, offsetof(kernel_params_t, kern));
    return r;
}

DRV_API CUresult cuGraphDestroyNode(drv_node_t *n)
{
    if (!node_ok(n))
        return CUDA_ERROR_INVALID_VALUE;
    drv_graph_t *g = n->g;
    for (size_t i = 0; i < g->n; i++) {
        drv_node_t *o = g->nodes[i];
        size_t k = 0;
        for (size_t j = 0; j < o->ndeps; j++)
            if (o->deps[j] != n)
                o->deps[k++] = o->deps[j];
        o->ndeps = k;
    }
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i] == n) {
            memmove(&g->nodes[i], &g->nodes[i + 1], (g->n - i - 1) * sizeof *g->nodes);
            g->n--;
            break;
        }
    node_free(n);
    return CUDA_SUCCESS;
}

/* A copy of g with its nodes in an order that respects the dependencies (Kahn); NULL when
 * memory runs out or g has a cycle. */
static drv_graph_t *graph_clone(const drv_graph_t *g)
{
    drv_graph_t *c = graph_new();
    size_t n = g->n;
    drv_node_t **order = malloc((n + 1) * sizeof *order), **copy = calloc(n + 1, sizeof *copy);
    size_t *left = calloc(n + 1, sizeof *left);
    bool ok = c && order && copy && left;
    size_t k = 0;
    for (size_t i = 0; ok && i < n; i++)
        left[i] = g->nodes[i]->ndeps;
    /* repeated passes: n is small in practice */
    bool *done = ok ? calloc(n + 1, 1) : NULL;
    ok = ok && done;
    while (ok && k < n) {
        size_t before = k;
        for (size_t i = 0; i < n; i++) {
            if (done[i])
                continue;
            bool ready = true;
            for (size_t j = 0; j < g->nodes[i]->ndeps && ready; j++) {
                const drv_node_t *d = g->nodes[i]->deps[j];
                for (size_t x = 0; x < n; x++)
                    if (g->nodes[x] == d && !done[x])
                        ready = false;
            }
            if (ready) {
                done[i] = true;
                order[k++] = g->nodes[i];
            }
        }
        if (k == before)
            ok = false;   /* a cycle */
    }
    for (size_t i = 0; ok && i < n; i++) {
        drv_node_t *o = order[i], *m = calloc(1, sizeof *m);
        if (!m) {
            ok = false;
            break;
        }
        *m = *o;
        m->origin = o;
        m->g = c;
        m->deps = NULL;
        m->ndeps = 0;
        m->k.params = NULL;
        m->child = NULL;
        copy[i] = m;
        c->nodes = realloc(c->nodes, (c->n + 1) * sizeof *c->nodes);   /* grown one by one: small graphs */
        if (!c->nodes) {
            free(m);
            ok = false;
            break;
        }
        c->nodes[c->n++] = m;
        if (o->k.params) {
            if (!(m->k.params = malloc(o->k.psize + 1)))
                ok = false;
            else
                memcpy(m->k.params, o->k.params, o->k.psize);
        }
        if (o->type == NODE_GRAPH && !(m->child = graph_clone(o->child)))
            ok = false;
        if (o->ndeps && ok) {
            if (!(m->deps = malloc(o->ndeps * sizeof *m->deps))) {
                ok = false;
            } else {
                for (size_t j = 0; j < o->ndeps; j++)
                    for (size_t x = 0; x < i; x++)
                        if (order[x] == o->deps[j])
                            m->deps[m->ndeps++] = copy[x];
            }
        }
    }
    free(order);
    free(copy);
    free(left);
    free(done);
    if (!ok) {
        graph_free(c);
        return NULL;
    }
    c->cap = c->n;
    return c;
}

DRV_API CUresult cuGraphNodeFindInClone(drv_node_t **out, drv_node_t *orig, drv_graph_t *clone)
{
    if (!out || !node_ok(orig) || !graph_ok(clone))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < clone->n; i++)
        if (clone->nodes[i]->origin == orig) {
            *out = clone->nodes[i];
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuGraphClone(drv_graph_t **out, drv_graph_t *g)
{
    if (!out || !graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    return (*out = graph_clone(g)) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/*{=====================================================================
 * Executable graphs
 *====================================================================*/

DRV_API CUresult cuGraphInstantiateWithFlags(drv_gexec_t **out, drv_graph_t *g, unsigned long long flags)
{
    (void)flags;
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out || !graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    drv_gexec_t *x = calloc(1, sizeof *x);
    if (!x)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (!(x->g = graph_clone(g))) {
        free(x);
        return CUDA_ERROR_INVALID_VALUE;
    }
    x->tag = DRV_GEXEC;
    x->flags = flags;
    *out = x;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphInstantiate_v2(drv_gexec_t **out, drv_graph_t *g, drv_node_t **err, char *log, size_t loglen)
{
    if (err)
        *err = NULL;
    if (log && loglen)
        log[0] = 0;
    return cuGraphInstantiateWithFlags(out, g, 0);
}
DRV_API CUresult cuGraphInstantiate(drv_gexec_t **out, drv_graph_t *g, drv_node_t **err, char *log, size_t loglen)
{
    return cuGraphInstantiate_v2(out, g, err, log, loglen);
}

typedef struct { unsigned long long flags; void *upload_stream; } inst_params_t;
DRV_API CUresult cuGraphInstantiateWithParams(drv_gexec_t **out, drv_graph_t *g, inst_params_t *p)
{
    return cuGraphInstantiateWithFlags(out, g, p ? p->flags : 0);
}

DRV_API CUresult cuGraphExecDestroy(drv_gexec_t *x)
{
    if (!x || x->tag != DRV_GEXEC)
        return CUDA_ERROR_INVALID_VALUE;
    graph_free(x->g);
    x->tag = 0;
    free(x);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphUpload(drv_gexec_t *x, CUstream s)
{
    if (!x || x->tag != DRV_GEXEC)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_stream_check(s);
}

static CUresult run_graph(drv_graph_t *g, CUstream s)
{
    for (size_t i = 0; i < g->n; i++) {
        drv_node_t *n = g->nodes[i];
        CUresult r = CUDA_SUCCESS;
        if (n->disabled)
            continue;
        switch (n->type) {
        case NODE_KERNEL: {
            size_t sz = n->k.psize;
            void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, n->k.params, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                              CU_LAUNCH_PARAM_END };
            r = drv_launch("cuGraphLaunch", n->k.f, n->k.grid, n->k.block, n->k.shared, s, NULL, extra, false, NULL);
            break;
        }
        case NODE_MEMCPY: r = drv_copy3d(&n->copy, s, false); break;
        case NODE_MEMSET: r = drv_set2d(n->set.dst, n->set.pitch, n->set.value, n->set.es, n->set.w, n->set.h, s); break;
        case NODE_HOST:
            drv_flush_output();
            n->host.fn(n->host.user);
            break;
        case NODE_GRAPH: r = run_graph(n->child, s); break;
        case NODE_EVENT_RECORD:
            if (n->event && n->event->tag == DRV_EVENT) {
                n->event->recorded = true;
                n->event->time = drv_now();
            }
            break;
        default: break;
        }
        if (r)
            return r;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphLaunch(drv_gexec_t *x, CUstream s)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!x || x->tag != DRV_GEXEC)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_stream_check(s)))
        return r;
    return run_graph(x->g, s);
}
DRV_API CUresult cuGraphLaunch_ptsz(drv_gexec_t *x, CUstream s) { return cuGraphLaunch(x, s); }

/* Updating an executable graph in place: its node of the same position takes the graph's
 * parameters (same topology required). */
typedef struct { int result; drv_node_t *errorNode, *errorFromNode; } update_info_t;
DRV_API CUresult cuGraphExecUpdate_v2(drv_gexec_t *x, drv_graph_t *g, update_info_t *info)
{
    if (!x || x->tag != DRV_GEXEC || !graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    drv_graph_t *c = graph_clone(g);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    bool same = c->n == x->g->n;
    for (size_t i = 0; same && i < c->n; i++)
        same = c->nodes[i]->type == x->g->nodes[i]->type && c->nodes[i]->ndeps == x->g->nodes[i]->ndeps;
    if (info) {
        memset(info, 0, sizeof *info);
        info->result = same ? 0 : 2;   /* CU_GRAPH_EXEC_UPDATE_SUCCESS, ..._ERROR_TOPOLOGY_CHANGED */
    }
    if (!same) {
        graph_free(c);
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
    for (size_t i = 0; i < c->n; i++)
        c->nodes[i]->origin = x->g->nodes[i]->origin;   /* the handles of the graph first instantiated */
    graph_free(x->g);
    x->g = c;
    return CUDA_SUCCESS;
}

typedef struct { int result; drv_node_t *errorNode, *errorFromNode; } update_info_v2_t;
DRV_API CUresult cuGraphExecUpdate(drv_gexec_t *x, drv_graph_t *g, drv_node_t **err_node, int *result)
{
    update_info_v2_t info;
    CUresult r = cuGraphExecUpdate_v2(x, g, (void *)&info);
    if (err_node)
        *err_node = info.errorNode;
    if (result)
        *result = info.result;
    return r;
}

DRV_API CUresult cuGraphExecGetFlags(drv_gexec_t *x, unsigned long long *flags)
{
    if (!x || x->tag != DRV_GEXEC || !flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = x->flags;
    return CUDA_SUCCESS;
}

/* Changing one node of an executable graph: the node made from n, of type type. */
static drv_node_t *exec_node(drv_gexec_t *x, drv_node_t *n, int type)
{
    if (!x || x->tag != DRV_GEXEC || !node_ok(n) || n->type != type)
        return NULL;
    for (size_t i = 0; i < x->g->n; i++)
        if (x->g->nodes[i]->origin == n)
            return x->g->nodes[i];
    return NULL;
}

DRV_API CUresult cuGraphExecKernelNodeSetParams_v2(drv_gexec_t *x, drv_node_t *n, const kernel_params_t *p)
{
    drv_node_t *m = exec_node(x, n, NODE_KERNEL);
    if (!m || !p)
        return CUDA_ERROR_INVALID_VALUE;
    if ((p->func ? p->func : p->kern) != m->k.f)
        return CUDA_ERROR_INVALID_VALUE;   /* the function of a kernel node cannot change */
    return kernel_from(m, p);
}
DRV_API CUresult cuGraphExecKernelNodeSetParams(drv_gexec_t *x, drv_node_t *n, const kernel_params_t *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    kernel_params_t q = { 0 };
    memcpy(&q, p, offsetof(kernel_params_t, kern));
    return cuGraphExecKernelNodeSetParams_v2(x, n, &q);
}
DRV_API CUresult cuGraphExecMemcpyNodeSetParams(drv_gexec_t *x, drv_node_t *n, const CUDA_MEMCPY3D *c, CUcontext ctx)
{
    (void)ctx;
    drv_node_t *m = exec_node(x, n, NODE_MEMCPY);
    if (!m || !c)
        return CUDA_ERROR_INVALID_VALUE;
    m->copy = *c;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphExecMemsetNodeSetParams(drv_gexec_t *x, drv_node_t *n, const memset_params_t *p, CUcontext ctx)
{
    (void)ctx;
    drv_node_t *m = exec_node(x, n, NODE_MEMSET);
    return m ? set_from(m, p) : CUDA_ERROR_INVALID_VALUE;
}
DRV_API CUresult cuGraphExecHostNodeSetParams(drv_gexec_t *x, drv_node_t *n, const host_params_t *p)
{
    drv_node_t *m = exec_node(x, n, NODE_HOST);
    if (!m || !p || !p->fn)
        return CUDA_ERROR_INVALID_VALUE;
    m->host.fn = p->fn;
    m->host.user = p->userData;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphExecEventRecordNodeSetEvent(drv_gexec_t *x, drv_node_t *n, drv_event_t *e)
{
    drv_node_t *m = exec_node(x, n, NODE_EVENT_RECORD);
    if (!m || !e || e->tag != DRV_EVENT)
        return CUDA_ERROR_INVALID_VALUE;
    m->event = e;
    return CUDA_SUCCESS;
}
/* Disabling a kernel, copy or set node of an executable graph: it does nothing until enabled. */
DRV_API CUresult cuGraphNodeSetEnabled(drv_gexec_t *x, drv_node_t *n, unsigned enabled)
{
    if (!node_ok(n) || (n->type != NODE_KERNEL && n->type != NODE_MEMCPY && n->type != NODE_MEMSET))
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *m = exec_node(x, n, n->type);
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    m->disabled = !enabled;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphNodeGetEnabled(drv_gexec_t *x, drv_node_t *n, unsigned *enabled)
{
    if (!node_ok(n) || !enabled || (n->type != NODE_KERNEL && n->type != NODE_MEMCPY && n->type != NODE_MEMSET))
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *m = exec_node(x, n, n->type);
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    *enabled = !m->disabled;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphExecEventWaitNodeSetEvent(drv_gexec_t *x, drv_node_t *n, drv_event_t *e)
{
    drv_node_t *m = exec_node(x, n, NODE_WAIT_EVENT);
    if (!m || !e || e->tag != DRV_EVENT)
        return CUDA_ERROR_INVALID_VALUE;
    m->event = e;
    return CUDA_SUCCESS;
}

/*{=====================================================================
 * Stream capture
 *====================================================================*/

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
    CUresult r = add_node(cap->g, type, (drv_node_t *const *)s->cdeps, s->ncdeps, &n);
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
                            void **params, void **extra)
{
    drv_node_t *n;
    CUresult r = capture_node(s, NODE_KERNEL, &n);
    return r ? r : set_kernel(n, f, grid, block, shared, params, extra);
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

/* Whether target is one of from[0..n) or an ancestor of one (a graph of at most max nodes). */
static bool reaches(drv_node_t *const *from, size_t n, const void *target, size_t max)
{
    drv_node_t **stack = malloc((max + 1) * sizeof *stack), **seen = malloc((max + 1) * sizeof *seen);
    size_t sp = 0, ns = 0;
    bool found = false;
    if (!stack || !seen) {
        free(stack);
        free(seen);
        return true;   /* cannot tell: do not refuse the capture */
    }
    for (size_t i = 0; i < n && sp <= max; i++)
        stack[sp++] = from[i];
    while (sp && !found) {
        drv_node_t *x = stack[--sp];
        if ((const void *)x == target) {
            found = true;
            break;
        }
        bool was = false;
        for (size_t i = 0; i < ns && !was; i++)
            was = seen[i] == x;
        if (was || ns > max)
            continue;
        seen[ns++] = x;
        for (size_t i = 0; i < x->ndeps && sp <= max; i++)
            stack[sp++] = x->deps[i];
    }
    free(stack);
    free(seen);
    return found;
}

DRV_API CUresult cuStreamBeginCapture_v2(CUstream s, int mode)
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
    drv_capture_t *cap = calloc(1, sizeof *cap);
    if (!cap || !(cap->g = graph_new())) {
        free(cap);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    static unsigned long long ids;
    cap->id = __atomic_add_fetch(&ids, 1, __ATOMIC_RELAXED);
    cap->mode = mode;
    cap->thread = pthread_self();
    capture_activate(cap, true);
    cap->origin = s;
    cap->streams[cap->nstreams++] = s;
    s->cap = cap;
    free(s->cdeps);
    s->cdeps = NULL;
    s->ncdeps = 0;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamBeginCapture(CUstream s) { return cuStreamBeginCapture_v2(s, 0); }
DRV_API CUresult cuStreamBeginCapture_ptsz(CUstream s) { return cuStreamBeginCapture_v2(s, 0); }
DRV_API CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, int mode) { return cuStreamBeginCapture_v2(s, mode); }

DRV_API CUresult cuStreamEndCapture(CUstream s, drv_graph_t **out)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || s->tag != DRV_STREAM)
        return CUDA_ERROR_ILLEGAL_STATE;
    drv_capture_t *cap = s->cap;
    if (!cap)
        return CUDA_ERROR_ILLEGAL_STATE;
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
            if (!reaches((drv_node_t *const *)s->cdeps, s->ncdeps, o->cdeps[j], cap->g->n))
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
    if (cap->invalid) {
        graph_free(cap->g);
        free(cap);
        *out = NULL;
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    }
    if (r) {
        graph_free(cap->g);
        free(cap);
        *out = NULL;
        return r;
    }
    *out = cap->g;
    free(cap);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamEndCapture_ptsz(CUstream s, drv_graph_t **out) { return cuStreamEndCapture(s, out); }

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
