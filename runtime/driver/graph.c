/* graph.c: CUDA graphs and their nodes: kernel, copy, set, host function, empty, child graph,
 * event record and wait, memory allocation and free, conditional; dependencies, clones, the
 * generic node API (cuGraphAddNode, cuGraphNodeSetParams), kernel node attributes and DOT
 * output.  Executable graphs are in graph_exec.c, stream capture in capture.c, graph memory,
 * user objects and conditional handles in graph_mem.c. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/driver/graph.h"

/*{=====================================================================
 * Graphs and nodes
 *====================================================================*/

bool drv_graph_ok(const drv_graph_t *g) { return g && g->tag == DRV_GRAPH; }
bool drv_node_ok(const drv_node_t *n) { return n && n->tag == DRV_NODE; }

static void node_free(drv_node_t *n);

/* A graph and what it holds: its nodes, its references to user objects, the conditional
 * handles made for it; an executable graph made from it no longer counts against it. */
void drv_graph_free(drv_graph_t *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    if (g->inst)
        g->inst->from = NULL;
    drv_gmem_forget_graph(g);
    drv_graph_urefs_drop(g);
    drv_graph_conds_drop(g);
    g->tag = 0;
    free(g);
}

static void node_free(drv_node_t *n)
{
    free(n->deps);
    free(n->k.params);
    free(n->k.attr);
    if (n->type == NODE_GRAPH)
        drv_graph_free(n->child);
    if (n->mem)
        drv_gmem_unref(n->mem);
    if (n->type == NODE_CONDITIONAL) {
        for (unsigned i = 0; n->cond.body && i < n->cond.size; i++)
            drv_graph_free(n->cond.body[i]);
        free(n->cond.body);
        if (n->cond.h)
            drv_cond_unref(n->cond.h);
    }
    n->tag = 0;
    free(n);
}

drv_graph_t *drv_graph_new(void)
{
    drv_graph_t *g = calloc(1, sizeof *g);
    if (g)
        g->tag = DRV_GRAPH;
    return g;
}

bool drv_graph_has(const drv_graph_t *g, unsigned mask)
{
    for (size_t i = 0; i < g->n; i++) {
        const drv_node_t *n = g->nodes[i];
        if (mask >> n->type & 1)
            return true;
        if (n->type == NODE_GRAPH && drv_graph_has(n->child, mask))
            return true;
        for (unsigned b = 0; n->type == NODE_CONDITIONAL && b < n->cond.size; b++)
            if (drv_graph_has(n->cond.body[b], mask))
                return true;
    }
    return false;
}

/* Whether a node of type may go into g: a conditional node's body holds only kernel, copy,
 * set, empty, child-graph and conditional nodes (cuda.h, CUDA_CONDITIONAL_NODE_PARAMS). */
static CUresult type_allowed(const char *fn, const drv_graph_t *g, int type)
{
    static const unsigned body_ok = 1u << NODE_KERNEL | 1u << NODE_MEMCPY | 1u << NODE_MEMSET | 1u << NODE_EMPTY |
                                    1u << NODE_GRAPH | 1u << NODE_CONDITIONAL;
    for (const drv_graph_t *b = g; b->owner; b = b->owner->g)
        if (b->owner->type == NODE_CONDITIONAL && !(body_ok >> type & 1))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a conditional node's body graph may hold only kernel, "
                            "memcpy, memset, empty, child graph and conditional nodes (this is node type %d)", type);
    return CUDA_SUCCESS;
}

/* A new node of g after deps[0..ndeps). */
CUresult drv_graph_add_node(drv_graph_t *g, int type, drv_node_t *const *deps, size_t ndeps, drv_node_t **out)
{
    if (!drv_graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    if (ndeps && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < ndeps; i++) {
        if (!drv_node_ok(deps[i]) || deps[i]->g != g)
            return CUDA_ERROR_INVALID_VALUE;
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return CUDA_ERROR_INVALID_VALUE;   /* "dependencies may not have any duplicate entries" */
    }
    CUresult r = type_allowed("cuGraphAddNode", g, type);
    if (r)
        return r;
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

void drv_graph_drop_last(drv_graph_t *g)
{
    node_free(g->nodes[--g->n]);
}

/* The kernel node's own copy of the parameter block. */
CUresult drv_node_set_kernel(drv_node_t *n, drv_func_t *f, const unsigned grid[3], const unsigned block[3],
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

CUresult drv_node_kernel_from(drv_node_t *n, const kernel_params_t *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ }, block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
    return drv_node_set_kernel(n, p->func ? p->func : p->kern, grid, block, p->sharedMemBytes, p->kernelParams, p->extra);
}

DRV_API CUresult cuGraphCreate(void **out, unsigned int flags)
{
    if (!out || flags)
        return CUDA_ERROR_INVALID_VALUE;
    drv_graph_t *g = drv_graph_new();
    if (!g)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *out = g;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphDestroy(drv_graph_t *g)
{
    if (!drv_graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    if (g->owner)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the graph belongs to a node (a child graph moved into "
                        "its parent, or a conditional node's body): it goes with its node");
    drv_graph_free(g);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddKernelNode_v2(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                         const kernel_params_t *p)
{
    if (!out || !p)
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *n;
    CUresult r = drv_graph_add_node(g, NODE_KERNEL, deps, ndeps, &n);
    if (r)
        return r;
    if ((r = drv_node_kernel_from(n, p))) {
        drv_graph_drop_last(g);
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
    if (!drv_node_ok(n) || n->type != NODE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_node_kernel_from(n, p);
}

DRV_API CUresult cuGraphKernelNodeGetParams_v2(drv_node_t *n, kernel_params_t *p)
{
    if (!drv_node_ok(n) || n->type != NODE_KERNEL || !p)
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
    CUresult r = drv_graph_add_node(g, NODE_MEMCPY, deps, ndeps, &n);
    if (r)
        return r;
    n->copy = *c;
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphMemcpyNodeSetParams(drv_node_t *n, const CUDA_MEMCPY3D *c)
{
    if (!drv_node_ok(n) || n->type != NODE_MEMCPY || !c)
        return CUDA_ERROR_INVALID_VALUE;
    n->copy = *c;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphMemcpyNodeGetParams(drv_node_t *n, CUDA_MEMCPY3D *c)
{
    if (!drv_node_ok(n) || n->type != NODE_MEMCPY || !c)
        return CUDA_ERROR_INVALID_VALUE;
    *c = n->copy;
    return CUDA_SUCCESS;
}

CUresult drv_node_set_from(drv_node_t *n, const memset_params_t *p)
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
    CUresult r = drv_graph_add_node(g, NODE_MEMSET, deps, ndeps, &n);
    if (r)
        return r;
    if ((r = drv_node_set_from(n, p))) {
        drv_graph_drop_last(g);
        return r;
    }
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphMemsetNodeSetParams(drv_node_t *n, const memset_params_t *p)
{
    if (!drv_node_ok(n) || n->type != NODE_MEMSET)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_node_set_from(n, p);
}

DRV_API CUresult cuGraphMemsetNodeGetParams(drv_node_t *n, memset_params_t *p)
{
    if (!drv_node_ok(n) || n->type != NODE_MEMSET || !p)
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
    CUresult r = drv_graph_add_node(g, NODE_HOST, deps, ndeps, &n);
    if (r)
        return r;
    n->host.fn = p->fn;
    n->host.user = p->userData;
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphHostNodeSetParams(drv_node_t *n, const host_params_t *p)
{
    if (!drv_node_ok(n) || n->type != NODE_HOST || !p || !p->fn)
        return CUDA_ERROR_INVALID_VALUE;
    n->host.fn = p->fn;
    n->host.user = p->userData;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphHostNodeGetParams(drv_node_t *n, host_params_t *p)
{
    if (!drv_node_ok(n) || n->type != NODE_HOST || !p)
        return CUDA_ERROR_INVALID_VALUE;
    p->fn = n->host.fn;
    p->userData = n->host.user;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddEmptyNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_graph_add_node(g, NODE_EMPTY, deps, ndeps, out);
}

/* A child graph node running child: a clone of it, or child itself moved in (then owned by
 * the node).  A graph with memory nodes goes in only moved, one with conditional nodes not
 * at all (cuda.h, CUDA_CHILD_GRAPH_NODE_PARAMS). */
static CUresult add_child(const char *fn, drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                          drv_graph_t *child, int ownership)
{
    if (!out || !drv_graph_ok(child) || (ownership != 0 && ownership != 1) || child == g)
        return CUDA_ERROR_INVALID_VALUE;
    if (drv_graph_has(child, COND_NODES))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a graph with conditional nodes cannot be a child graph");
    if (ownership == 0 && drv_graph_has(child, MEM_NODES))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a graph with memory alloc or free nodes can be a child graph "
                        "only moved in (CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE)");
    if (ownership == 1 && (child->owner || child->inst))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a graph %s cannot be moved into a node",
                        child->owner ? "that belongs to a node" : "with an executable graph");
    for (const drv_graph_t *a = g; ownership == 1 && a->owner; a = a->owner->g)
        if (a == child)
            return CUDA_ERROR_INVALID_VALUE;   /* a graph inside itself */
    drv_node_t *n;
    CUresult r = drv_graph_add_node(g, NODE_GRAPH, deps, ndeps, &n);
    if (r)
        return r;
    if (ownership == 1) {
        n->child = child;
        n->moved = true;
    } else if (!(n->child = drv_graph_clone(child))) {
        drv_graph_drop_last(g);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    n->child->owner = n;
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddChildGraphNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                          drv_graph_t *child)
{
    return add_child(__func__, out, g, deps, ndeps, child, 0);
}

DRV_API CUresult cuGraphChildGraphNodeGetGraph(drv_node_t *n, drv_graph_t **out)
{
    if (!drv_node_ok(n) || n->type != NODE_GRAPH || !out)
        return CUDA_ERROR_INVALID_VALUE;
    *out = n->child;
    return CUDA_SUCCESS;
}

static CUresult add_event_node(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps, drv_event_t *e,
                               int type)
{
    if (!out || !e || e->tag != DRV_EVENT)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_graph_add_node(g, type, deps, ndeps, out);
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
    if (!drv_node_ok(n) || !type)
        return CUDA_ERROR_INVALID_VALUE;
    *type = n->type;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphGetNodes(drv_graph_t *g, drv_node_t **nodes, size_t *n)
{
    if (!drv_graph_ok(g) || !n)
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
    if (!drv_graph_ok(g) || !n)
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
    if (!drv_node_ok(nd) || !n)
        return CUDA_ERROR_INVALID_VALUE;
    if (deps)
        for (size_t i = 0; i < *n; i++)
            deps[i] = i < nd->ndeps ? nd->deps[i] : NULL;
    *n = nd->ndeps;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddDependencies(drv_graph_t *g, drv_node_t *const *from, drv_node_t *const *to, size_t n)
{
    if (!drv_graph_ok(g) || (n && (!from || !to)))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < n; i++) {
        if (!drv_node_ok(from[i]) || !drv_node_ok(to[i]) || from[i]->g != g || to[i]->g != g || from[i] == to[i])
            return CUDA_ERROR_INVALID_VALUE;
        drv_node_t **d = realloc(to[i]->deps, (to[i]->ndeps + 1) * sizeof *d);
        if (!d)
            return CUDA_ERROR_OUT_OF_MEMORY;
        d[to[i]->ndeps++] = from[i];
        to[i]->deps = d;
    }
    return CUDA_SUCCESS;
}

bool drv_edges_default(const edge_data_t *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++)
        if (e[i].from_port || e[i].to_port || e[i].type)
            return false;
    return true;
}

DRV_API CUresult cuGraphAddDependencies_v2(drv_graph_t *g, drv_node_t *const *from, drv_node_t *const *to,
                                           const edge_data_t *e, size_t n)
{
    if (!drv_edges_default(e, n))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "edge data with ports or a type other than the default");
    return cuGraphAddDependencies(g, from, to, n);
}

/* Nodes and edges of a graph with memory nodes cannot be deleted (cuda.h, cuGraphAddMemAllocNode). */
static CUresult deletable(const char *fn, const drv_graph_t *g)
{
    if (drv_graph_has(g, MEM_NODES))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "nodes and edges of a graph with memory alloc or free nodes "
                        "cannot be deleted");
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphRemoveDependencies(drv_graph_t *g, drv_node_t *const *from, drv_node_t *const *to, size_t n)
{
    if (!drv_graph_ok(g) || (n && (!from || !to)))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = deletable(__func__, g);
    if (r)
        return r;
    for (size_t i = 0; i < n; i++) {
        if (!drv_node_ok(from[i]) || !drv_node_ok(to[i]) || from[i]->g != g || to[i]->g != g)
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
    if (!drv_edges_default(e, n))
        return CUDA_ERROR_INVALID_VALUE;
    return cuGraphRemoveDependencies(g, from, to, n);
}

DRV_API CUresult cuGraphGetEdges_v2(drv_graph_t *g, drv_node_t **from, drv_node_t **to, edge_data_t *e, size_t *n)
{
    if (!drv_graph_ok(g) || !n || (!from != !to))
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
    if (!drv_node_ok(nd) || !n)
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
    if (!drv_node_ok(nd) || !n)
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
    if (!drv_node_ok(n) || n->type != type || !out)
        return CUDA_ERROR_INVALID_VALUE;
    *out = n->event;
    return CUDA_SUCCESS;
}
static CUresult set_event_of(drv_node_t *n, int type, drv_event_t *e)
{
    if (!drv_node_ok(n) || n->type != type || !e || e->tag != DRV_EVENT)
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
    if (!drv_node_ok(n))
        return CUDA_ERROR_INVALID_VALUE;
    drv_graph_t *g = n->g;
    CUresult r = deletable(__func__, g);
    if (r)
        return r;
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

/* What node o owns, copied into m (a copy of o whose owned pointers are NULL): the parameter
 * block, the attributes, a child graph or conditional bodies (cloned), and references to
 * the graph allocation or conditional handle it shares with o. */
static bool copy_node_data(drv_node_t *m, const drv_node_t *o)
{
    if (o->k.params) {
        if (!(m->k.params = malloc(o->k.psize + 1)))
            return false;
        memcpy(m->k.params, o->k.params, o->k.psize);
    }
    if (o->k.attr) {
        if (!(m->k.attr = malloc(NODE_NATTR * sizeof *m->k.attr)))
            return false;
        memcpy(m->k.attr, o->k.attr, NODE_NATTR * sizeof *m->k.attr);
    }
    if (o->type == NODE_GRAPH) {
        if (!(m->child = drv_graph_clone(o->child)))
            return false;
        m->child->owner = m;
    }
    if (o->mem) {   /* memory alloc and free nodes */
        m->mem = o->mem;
        drv_gmem_ref(m->mem);
    }
    if (o->type == NODE_CONDITIONAL) {
        m->cond.h = o->cond.h;
        drv_cond_ref(m->cond.h);
        if (!(m->cond.body = calloc(o->cond.size, sizeof *m->cond.body)))
            return false;
        for (unsigned b = 0; b < o->cond.size; b++) {
            if (!(m->cond.body[b] = drv_graph_clone(o->cond.body[b])))
                return false;
            m->cond.body[b]->owner = m;
        }
    }
    return true;
}

/* A copy of g with its nodes in an order that respects the dependencies (Kahn) and its
 * references to user objects; NULL when memory runs out or g has a cycle. */
drv_graph_t *drv_graph_clone(const drv_graph_t *g)
{
    drv_graph_t *c = drv_graph_new();
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
        m->k.attr = NULL;
        m->child = NULL;
        m->mem = NULL;
        m->cond.h = NULL;
        m->cond.body = NULL;
        copy[i] = m;
        drv_node_t **grown = realloc(c->nodes, (c->n + 1) * sizeof *c->nodes);   /* one by one: small graphs */
        if (!grown) {
            free(m);
            ok = false;
            break;
        }
        c->nodes = grown;
        c->nodes[c->n++] = m;
        ok = copy_node_data(m, o);
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
    if (ok && drv_graph_urefs_copy(c, g))
        ok = false;
    if (!ok) {
        drv_graph_free(c);
        return NULL;
    }
    c->cap = c->n;
    return c;
}

DRV_API CUresult cuGraphNodeFindInClone(drv_node_t **out, drv_node_t *orig, drv_graph_t *clone)
{
    if (!out || !drv_node_ok(orig) || !drv_graph_ok(clone))
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
    if (!out || !drv_graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    if (drv_graph_has(g, MEM_NODES | COND_NODES))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "a graph with memory alloc, free or conditional nodes "
                        "cannot be cloned");
    return (*out = drv_graph_clone(g)) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}


/*{=====================================================================
 * Memory alloc and free nodes (their allocations: graph_mem.c)
 *====================================================================*/

drv_node_t *drv_node_ancestor(drv_node_t *const *from, size_t n, bool (*pred)(drv_node_t *, void *), void *arg,
                              bool *nomem)
{
    size_t cap = n + 16, top = 0, nseen = 0;
    drv_node_t **stack = malloc(cap * sizeof *stack), **seen = malloc(cap * sizeof *seen), *found = NULL;
    *nomem = !stack || !seen;
    for (size_t i = 0; i < n && !*nomem; i++)
        stack[top++] = from[i];
    while (top && !found && !*nomem) {
        drv_node_t *a = stack[--top];
        bool dup = false;
        for (size_t i = 0; i < nseen && !dup; i++)
            dup = seen[i] == a;
        if (dup)
            continue;
        if (pred(a, arg)) {
            found = a;
            break;
        }
        if (nseen == cap || top + a->ndeps > cap) {
            size_t nc = 2 * cap + a->ndeps;
            drv_node_t **ns = realloc(stack, nc * sizeof *ns);
            if (ns)
                stack = ns;
            drv_node_t **nv = realloc(seen, nc * sizeof *nv);
            if (nv)
                seen = nv;
            *nomem = !ns || !nv;
            cap = nc;
            if (*nomem)
                break;
        }
        seen[nseen++] = a;
        for (size_t i = 0; i < a->ndeps; i++)
            stack[top++] = a->deps[i];
    }
    free(stack);
    free(seen);
    return found;
}

/* A free node of alloc node n's graph whose allocation n may reuse (bytes of it). */
typedef struct { drv_graph_t *g; size_t bytes; } reuse_arg_t;
static bool frees_reusable(drv_node_t *a, void *arg)
{
    const reuse_arg_t *r = arg;
    return a->type == NODE_MEM_FREE && a->mem && a->g == r->g && drv_gmem_reusable(a->mem, r->bytes, r->g);
}

/* An alloc node's allocation, from its parameters: memory of device 0 (the only one), no
 * IPC handle types; its address goes to p->dptr. */
CUresult drv_node_mem_alloc(const char *fn, drv_node_t *n, mem_alloc_params_t *p)
{
    const pool_props_t *pp = &p->poolProps;
    if (p->bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (pp->allocType != 1)   /* CU_MEM_ALLOCATION_TYPE_PINNED */
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "allocation type %d: a graph allocation is "
                        "CU_MEM_ALLOCATION_TYPE_PINNED", pp->allocType);
    if (pp->handleTypes)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a graph allocation has no IPC handle types");
    if (pp->location.type != 1)   /* CU_MEM_LOCATION_TYPE_DEVICE */
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "graph allocations at location type %d (not device memory) "
                        "are not emulated", pp->location.type);
    if (pp->location.id != 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "device %d: there is one device, 0", pp->location.id);
    if (p->accessDescCount > 1 || (p->accessDescCount && !p->accessDescs))
        return CUDA_ERROR_INVALID_VALUE;   /* "must not exceed the number of GPUs" */
    for (size_t i = 0; i < p->accessDescCount; i++)
        if (p->accessDescs[i].location.type != 1 || p->accessDescs[i].location.id != 0 ||
            (unsigned)p->accessDescs[i].flags > 3)
            return CUDA_ERROR_INVALID_VALUE;
    drv_gmem_t *m;
    /* as the H100's driver does: the addresses of an allocation whose free node precedes n */
    reuse_arg_t ra = { n->g, p->bytesize };
    bool nomem;
    drv_node_t *fr = drv_node_ancestor(n->deps, n->ndeps, frees_reusable, &ra, &nomem);
    CUresult r = fr ? drv_gmem_alias(fr->mem, p->bytesize, &m) : drv_gmem_new(fn, p->bytesize, &m);
    if (r)
        return r;
    drv_gmem_set_graph(m, n->g);
    n->mem = m;
    p->dptr = drv_gmem_base(m);
    return CUDA_SUCCESS;
}

static CUresult add_mem_alloc(const char *fn, drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                              mem_alloc_params_t *p)
{
    if (!out || !p)
        return CUDA_ERROR_INVALID_VALUE;
    if (drv_graph_ok(g) && g->owner)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "memory nodes cannot be added to a graph that belongs to a node");
    drv_node_t *n;
    CUresult r = drv_graph_add_node(g, NODE_MEM_ALLOC, deps, ndeps, &n);
    if (r)
        return r;
    if ((r = drv_node_mem_alloc(fn, n, p))) {
        drv_graph_drop_last(g);
        return r;
    }
    *out = n;
    return CUDA_SUCCESS;
}

/* A free node's allocation: an address an alloc node returned, by the rules of drv_gmem_add_free. */
CUresult drv_node_mem_free(const char *fn, drv_node_t *n, CUdeviceptr d)
{
    drv_gmem_t *m = drv_gmem_to_free((uintptr_t)d, n->g);
    if (!m)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%#llx is no address an allocation node returned", d);
    CUresult r = drv_gmem_add_free(fn, m, n->g);
    if (r)
        return r;
    n->mem = m;
    drv_gmem_ref(m);
    n->free_ptr = d;
    return CUDA_SUCCESS;
}

static CUresult add_mem_free(const char *fn, drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                             CUdeviceptr d)
{
    if (!out || !drv_graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    if (g->owner)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "memory nodes cannot be added to a graph that belongs to a node");
    drv_node_t *n;
    CUresult r = drv_graph_add_node(g, NODE_MEM_FREE, deps, ndeps, &n);
    if (r)
        return r;
    if ((r = drv_node_mem_free(fn, n, d))) {
        drv_graph_drop_last(g);
        return r;
    }
    *out = n;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphAddMemAllocNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                        mem_alloc_params_t *p)
{
    return add_mem_alloc(__func__, out, g, deps, ndeps, p);
}

DRV_API CUresult cuGraphAddMemFreeNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                       CUdeviceptr d)
{
    return add_mem_free(__func__, out, g, deps, ndeps, d);
}

DRV_API CUresult cuGraphMemAllocNodeGetParams(drv_node_t *n, mem_alloc_params_t *p)
{
    if (!drv_node_ok(n) || n->type != NODE_MEM_ALLOC || !p)
        return CUDA_ERROR_INVALID_VALUE;
    memset(p, 0, sizeof *p);
    p->poolProps.allocType = 1;
    p->poolProps.location.type = 1;
    p->bytesize = drv_gmem_size(n->mem);
    p->dptr = drv_gmem_base(n->mem);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphMemFreeNodeGetParams(drv_node_t *n, CUdeviceptr *d)
{
    if (!drv_node_ok(n) || n->type != NODE_MEM_FREE || !d)
        return CUDA_ERROR_INVALID_VALUE;
    *d = n->free_ptr;
    return CUDA_SUCCESS;
}
/*}=====================================================================*/

/*{=====================================================================
 * Conditional nodes: IF, WHILE and SWITCH over a handle's value, with body graphs the
 * node makes and owns (run in graph_exec.c)
 *====================================================================*/

static const char *const cond_names[] = { "IF", "WHILE", "SWITCH" };

static CUresult add_cond(const char *fn, drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                         cond_params_t *p)
{
    if (!out || !p || !drv_graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    drv_cond_t *h = drv_cond_of(p->handle);
    if (!h)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%#llx is no conditional handle (cuGraphConditionalHandleCreate "
                        "makes them)", p->handle);
    if (drv_cond_graph(h) != g)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the conditional handle was made for another graph");
    bool size_ok = p->type == COND_IF ? p->size == 1 || p->size == 2
                 : p->type == COND_WHILE ? p->size == 1 : p->type == COND_SWITCH ? p->size >= 1 : false;
    if (!size_ok)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "conditional type %d with %u body graph%s (IF takes 1 or 2, "
                        "WHILE 1, SWITCH 1 or more)", p->type, p->size, p->size == 1 ? "" : "s");
    if (p->ctx && p->ctx != drv_current())
        return CUDA_ERROR_INVALID_VALUE;   /* "must match the context used to create the handle" */
    drv_node_t *n;
    CUresult r = drv_graph_add_node(g, NODE_CONDITIONAL, deps, ndeps, &n);
    if (r)
        return r;
    n->cond.type = p->type;
    n->cond.size = p->size;
    n->cond.h = h;
    drv_cond_ref(h);
    drv_cond_use(h);
    if (!(n->cond.body = calloc(p->size, sizeof *n->cond.body))) {
        drv_graph_drop_last(g);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (unsigned b = 0; b < p->size; b++) {
        if (!(n->cond.body[b] = drv_graph_new())) {
            drv_graph_drop_last(g);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        n->cond.body[b]->owner = n;
    }
    p->phGraph_out = n->cond.body;
    *out = n;
    return CUDA_SUCCESS;
}
/*}=====================================================================*/

/*{=====================================================================
 * The generic node API: CUgraphNodeParams for every node type the emulator has
 *====================================================================*/

static const char *const type_names[NODE_NTYPES] = {
    "kernel", "memcpy", "memset", "host", "child graph", "empty", "event wait", "event record",
    "external semaphore signal", "external semaphore wait", "memory alloc", "memory free", "batch memop", "conditional"
};

static CUresult not_emulated(const char *fn, int type)
{
    if (type >= 0 && type < NODE_NTYPES)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "%s nodes are not emulated", type_names[type]);
    return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "no node type %d", type);
}

static CUresult add_generic(const char *fn, drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                            node_params_t *p)
{
    if (!out || !p || p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2)
        return CUDA_ERROR_INVALID_VALUE;
    switch (p->type) {
    case NODE_KERNEL: return cuGraphAddKernelNode_v2(out, g, deps, ndeps, &p->u.kernel);
    case NODE_MEMCPY:
        if (p->u.memcpy.flags || p->u.memcpy.reserved)
            return CUDA_ERROR_INVALID_VALUE;
        return cuGraphAddMemcpyNode(out, g, deps, ndeps, &p->u.memcpy.copyParams, p->u.memcpy.copyCtx);
    case NODE_MEMSET: return cuGraphAddMemsetNode(out, g, deps, ndeps, &p->u.memset, p->u.memset.ctx);
    case NODE_HOST: return cuGraphAddHostNode(out, g, deps, ndeps, &p->u.host);
    case NODE_GRAPH: return add_child(fn, out, g, deps, ndeps, p->u.graph.graph, p->u.graph.ownership);
    case NODE_EMPTY: return cuGraphAddEmptyNode(out, g, deps, ndeps);
    case NODE_WAIT_EVENT: return add_event_node(out, g, deps, ndeps, p->u.eventWait.event, NODE_WAIT_EVENT);
    case NODE_EVENT_RECORD: return add_event_node(out, g, deps, ndeps, p->u.eventRecord.event, NODE_EVENT_RECORD);
    case NODE_MEM_ALLOC: return add_mem_alloc(fn, out, g, deps, ndeps, &p->u.alloc);
    case NODE_MEM_FREE: return add_mem_free(fn, out, g, deps, ndeps, p->u.free.dptr);
    case NODE_CONDITIONAL: return add_cond(fn, out, g, deps, ndeps, &p->u.conditional);
    default: return not_emulated(fn, p->type);
    }
}

DRV_API CUresult cuGraphAddNode(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, size_t ndeps,
                                node_params_t *p)
{
    return add_generic(__func__, out, g, deps, ndeps, p);
}

DRV_API CUresult cuGraphAddNode_v2(drv_node_t **out, drv_graph_t *g, drv_node_t *const *deps, const edge_data_t *e,
                                   size_t ndeps, node_params_t *p)
{
    if (!drv_edges_default(e, ndeps))
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "edge data with ports or a type other than the default");
    return add_generic(__func__, out, g, deps, ndeps, p);
}

/* A node's parameters set from p (of the node's type): what the per-type calls allow. */
DRV_API CUresult cuGraphNodeSetParams(drv_node_t *n, node_params_t *p)
{
    if (!drv_node_ok(n) || !p || p->type != n->type)
        return CUDA_ERROR_INVALID_VALUE;
    switch (p->type) {
    case NODE_KERNEL: return cuGraphKernelNodeSetParams_v2(n, &p->u.kernel);
    case NODE_MEMCPY:
        if (p->u.memcpy.flags || p->u.memcpy.reserved)
            return CUDA_ERROR_INVALID_VALUE;
        return cuGraphMemcpyNodeSetParams(n, &p->u.memcpy.copyParams);
    case NODE_MEMSET: return cuGraphMemsetNodeSetParams(n, &p->u.memset);
    case NODE_HOST: return cuGraphHostNodeSetParams(n, &p->u.host);
    case NODE_EMPTY: return CUDA_SUCCESS;
    case NODE_WAIT_EVENT: return cuGraphEventWaitNodeSetEvent(n, p->u.eventWait.event);
    case NODE_EVENT_RECORD: return cuGraphEventRecordNodeSetEvent(n, p->u.eventRecord.event);
    case NODE_GRAPH: {
        drv_graph_t *c = p->u.graph.graph;
        if (!drv_graph_ok(c) || p->u.graph.ownership != 0 || c == n->child)
            return CUDA_ERROR_INVALID_VALUE;
        if (drv_graph_has(c, MEM_NODES | COND_NODES))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "a graph with memory or conditional nodes cannot "
                            "be cloned into a child graph node");
        drv_graph_t *k = drv_graph_clone(c);
        if (!k)
            return CUDA_ERROR_OUT_OF_MEMORY;
        drv_graph_free(n->child);
        n->child = k;
        n->moved = false;
        k->owner = n;
        return CUDA_SUCCESS;
    }
    case NODE_MEM_ALLOC:
    case NODE_MEM_FREE:
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "the parameters of %s nodes cannot be changed",
                        type_names[p->type]);
    case NODE_CONDITIONAL:
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "setting a conditional node's parameters is not "
                        "emulated (make a new node)");
    default: return not_emulated(__func__, p->type);
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Kernel node attributes (CUlaunchAttributeID / CUkernelNodeAttrID): stored per node and
 * returned; cooperative nodes launch cooperatively, priorities and access policy windows
 * have no effect on the emulator; clusters larger than one CTA are not emulated.
 *====================================================================*/

static bool attr_known(int id)
{
    switch (id) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE: case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        return true;
    default:
        return false;
    }
}

CUresult drv_node_attr_set(const char *fn, drv_node_t *n, int id, const CUlaunchAttributeValue *v)
{
    if (!drv_node_ok(n) || n->type != NODE_KERNEL || !v || !attr_known(id))
        return CUDA_ERROR_INVALID_VALUE;
    if (id == CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE && v->cooperative)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "device-updatable kernel nodes are not emulated");
    if (!n->k.attr && !(n->k.attr = calloc(NODE_NATTR, sizeof *n->k.attr)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    n->k.attr[id] = *v;
    if (id == CU_LAUNCH_ATTRIBUTE_PRIORITY) {
        /* clamped to the device's range, greatest -5 to least 0, as the H100 reads it back
         * (tests/apps/graph_api.cu: 2 reads 0) */
        int p = v->priority;
        n->k.attr[id].priority = p > 0 ? 0 : p < -5 ? -5 : p;
    }
    n->k.attr_set |= 1u << id;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphKernelNodeSetAttribute(drv_node_t *n, int id, const CUlaunchAttributeValue *v)
{
    return drv_node_attr_set(__func__, n, id, v);
}

/* An attribute never set reads as zero. */
DRV_API CUresult cuGraphKernelNodeGetAttribute(drv_node_t *n, int id, CUlaunchAttributeValue *v)
{
    if (!drv_node_ok(n) || n->type != NODE_KERNEL || !v || !attr_known(id))
        return CUDA_ERROR_INVALID_VALUE;
    if (n->k.attr_set >> id & 1)
        *v = n->k.attr[id];
    else
        memset(v, 0, sizeof *v);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphKernelNodeCopyAttributes(drv_node_t *dst, drv_node_t *src)
{
    if (!drv_node_ok(dst) || !drv_node_ok(src) || dst->type != NODE_KERNEL || src->type != NODE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    if (!src->k.attr) {
        free(dst->k.attr);
        dst->k.attr = NULL;
        dst->k.attr_set = 0;
        return CUDA_SUCCESS;
    }
    if (!dst->k.attr && !(dst->k.attr = malloc(NODE_NATTR * sizeof *dst->k.attr)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(dst->k.attr, src->k.attr, NODE_NATTR * sizeof *dst->k.attr);
    dst->k.attr_set = src->k.attr_set;
    return CUDA_SUCCESS;
}
/*}=====================================================================*/

/*{=====================================================================
 * cuGraphDebugDotPrint: the graph in Graphviz's DOT language, a box per node (its type
 * and main parameters), an arrow per dependency, and a cluster per child graph or
 * conditional body.
 *====================================================================*/

static void dot_graph(FILE *f, const drv_graph_t *g, int depth);

static void dot_node(FILE *f, const drv_node_t *n, int depth)
{
    fprintf(f, "%*s\"n%p\" [shape=box,label=\"%s", 2 * depth, "", (const void *)n,
            n->type < NODE_NTYPES ? type_names[n->type] : "?");
    switch (n->type) {
    case NODE_KERNEL:
        fprintf(f, "\\n%s\\n<<<(%u,%u,%u), (%u,%u,%u), %u>>>", n->k.f->mod->m->funcs[n->k.f->entry].name,
                n->k.grid[0], n->k.grid[1], n->k.grid[2], n->k.block[0], n->k.block[1], n->k.block[2], n->k.shared);
        break;
    case NODE_MEMCPY:
        fprintf(f, "\\n%zu x %zu x %zu bytes", n->copy.WidthInBytes, n->copy.Height, n->copy.Depth);
        break;
    case NODE_MEMSET:
        fprintf(f, "\\n%#llx: %zu x %zu of %u bytes = %#x", n->set.dst, n->set.w, n->set.h, n->set.es, n->set.value);
        break;
    case NODE_EVENT_RECORD:
    case NODE_WAIT_EVENT:
        fprintf(f, "\\nevent %p", (void *)n->event);
        break;
    case NODE_MEM_ALLOC:
        fprintf(f, "\\n%#llx, %zu bytes", (unsigned long long)drv_gmem_base(n->mem), drv_gmem_size(n->mem));
        break;
    case NODE_MEM_FREE:
        fprintf(f, "\\n%#llx", n->free_ptr);
        break;
    case NODE_CONDITIONAL:
        fprintf(f, "\\n%s, handle %p", cond_names[n->cond.type], (void *)n->cond.h);
        break;
    default:
        break;
    }
    fprintf(f, "\"];\n");
    unsigned nsub = n->type == NODE_GRAPH ? 1 : n->type == NODE_CONDITIONAL ? n->cond.size : 0;
    for (unsigned b = 0; b < nsub; b++) {
        const drv_graph_t *sub = n->type == NODE_GRAPH ? n->child : n->cond.body[b];
        fprintf(f, "%*ssubgraph \"cluster_%p_%u\" {\n%*slabel=\"%s %u of n%p\";\n", 2 * depth, "", (const void *)n, b,
                2 * depth + 2, "", n->type == NODE_GRAPH ? "child graph" : "body", b, (const void *)n);
        dot_graph(f, sub, depth + 1);
        fprintf(f, "%*s}\n", 2 * depth, "");
        for (size_t i = 0; i < sub->n; i++)
            if (!sub->nodes[i]->ndeps)
                fprintf(f, "%*s\"n%p\" -> \"n%p\" [style=dashed];\n", 2 * depth, "", (const void *)n,
                        (const void *)sub->nodes[i]);
    }
}

static void dot_graph(FILE *f, const drv_graph_t *g, int depth)
{
    for (size_t i = 0; i < g->n; i++)
        dot_node(f, g->nodes[i], depth + 1);
    for (size_t i = 0; i < g->n; i++)
        for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
            fprintf(f, "%*s\"n%p\" -> \"n%p\";\n", 2 * depth + 2, "", (const void *)g->nodes[i]->deps[j],
                    (const void *)g->nodes[i]);
}

DRV_API CUresult cuGraphDebugDotPrint(drv_graph_t *g, const char *path, unsigned flags)
{
    (void)flags;   /* every flag asks for more detail; the emulator's one level has the parameters above */
    if (!drv_graph_ok(g) || !path)
        return CUDA_ERROR_INVALID_VALUE;
    FILE *f = fopen(path, "w");
    if (!f)
        return drv_fail(CUDA_ERROR_OPERATING_SYSTEM, __func__, "cannot write %s", path);
    fprintf(f, "digraph \"graph_%p\" {\n  label=\"graph %p\";\n", (void *)g, (void *)g);
    dot_graph(f, g, 0);
    fprintf(f, "}\n");
    return fclose(f) ? drv_fail(CUDA_ERROR_OPERATING_SYSTEM, __func__, "cannot write %s", path) : CUDA_SUCCESS;
}
/*}=====================================================================*/
