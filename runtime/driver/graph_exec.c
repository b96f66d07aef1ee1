/* graph_exec.c: executable graphs: instantiation (a private copy of the graph, nodes in an
 * order that respects the dependencies), launch (the nodes run in that order, when submitted,
 * as all work in this driver), upload, and updates of whole graphs and of single nodes. */
#include <stdlib.h>
#include <string.h>

#include "runtime/driver/graph.h"

/*{=====================================================================
 * Instantiation
 *====================================================================*/

/* CUgraphInstantiate_flags and CUgraphInstantiateResult. */
enum { INST_AUTO_FREE = 1, INST_UPLOAD = 2, INST_DEVICE_LAUNCH = 4, INST_NODE_PRIORITY = 8 };
enum { INST_SUCCESS = 0, INST_ERROR = 1, INST_INVALID_STRUCTURE = 2, INST_HANDLE_UNUSED = 5 };

/* A conditional handle made for g (or for a graph inside it) that no conditional node uses. */
static bool handle_unused(const drv_graph_t *g)
{
    for (size_t i = 0; i < g->nconds; i++)
        if (!drv_cond_used(g->conds[i]))
            return true;
    for (size_t i = 0; i < g->n; i++) {
        const drv_node_t *n = g->nodes[i];
        if (n->type == NODE_GRAPH && handle_unused(n->child))
            return true;
        for (unsigned b = 0; n->type == NODE_CONDITIONAL && b < n->cond.size; b++)
            if (handle_unused(n->cond.body[b]))
                return true;
    }
    return false;
}

/* An executable graph of g: a private copy, nodes in an order that respects the
 * dependencies.  A graph with memory or conditional nodes has one at a time. */
static CUresult instantiate(const char *fn, drv_gexec_t **out, drv_graph_t *g, unsigned long long flags, int *result)
{
    *result = INST_ERROR;
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out || !drv_graph_ok(g) || (flags & ~15ull) || (flags & (INST_AUTO_FREE | INST_DEVICE_LAUNCH)) ==
        (INST_AUTO_FREE | INST_DEVICE_LAUNCH))
        return CUDA_ERROR_INVALID_VALUE;
    if (g->owner)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the graph belongs to a node (a child graph moved into its "
                        "parent, or a conditional node's body) and cannot be instantiated by itself");
    if (flags & INST_DEVICE_LAUNCH)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "graphs launched from the device "
                        "(CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) are not emulated");
    bool one = drv_graph_has(g, MEM_NODES | COND_NODES);
    if (one && g->inst)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "the graph has memory or conditional nodes: one executable "
                        "graph of it may exist at a time");
    if (handle_unused(g)) {
        *result = INST_HANDLE_UNUSED;
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a conditional handle of the graph is used by no conditional "
                        "node");
    }
    drv_gexec_t *x = calloc(1, sizeof *x);
    if (!x)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (!(x->g = drv_graph_clone(g))) {
        free(x);
        *result = INST_INVALID_STRUCTURE;
        return CUDA_ERROR_INVALID_VALUE;   /* a cycle (or no memory) */
    }
    x->tag = DRV_GEXEC;
    x->flags = flags;
    if (one) {
        x->from = g;
        g->inst = x;
    }
    *out = x;
    *result = INST_SUCCESS;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphInstantiateWithFlags(drv_gexec_t **out, drv_graph_t *g, unsigned long long flags)
{
    int result;
    return instantiate(__func__, out, g, flags, &result);
}

DRV_API CUresult cuGraphInstantiate_v2(drv_gexec_t **out, drv_graph_t *g, drv_node_t **err, char *log, size_t loglen)
{
    if (err)
        *err = NULL;
    if (log && loglen)
        log[0] = 0;
    int result;
    return instantiate(__func__, out, g, 0, &result);
}
DRV_API CUresult cuGraphInstantiate(drv_gexec_t **out, drv_graph_t *g, drv_node_t **err, char *log, size_t loglen)
{
    return cuGraphInstantiate_v2(out, g, err, log, loglen);
}

typedef struct {   /* CUDA_GRAPH_INSTANTIATE_PARAMS */
    unsigned long long flags;
    CUstream           hUploadStream;
    drv_node_t        *hErrNode_out;
    int                result_out;
} inst_params_t;
DRV_API CUresult cuGraphInstantiateWithParams(drv_gexec_t **out, drv_graph_t *g, inst_params_t *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    p->hErrNode_out = NULL;
    CUresult r = (p->flags & INST_UPLOAD) ? drv_stream_check(p->hUploadStream) : CUDA_SUCCESS;
    if (!r)
        r = instantiate(__func__, out, g, p->flags, &p->result_out);
    return r;
}
DRV_API CUresult cuGraphInstantiateWithParams_ptsz(drv_gexec_t **out, drv_graph_t *g, inst_params_t *p)
{
    return cuGraphInstantiateWithParams(out, g, p);
}

DRV_API CUresult cuGraphExecDestroy(drv_gexec_t *x)
{
    drv_join();
    if (!x || x->tag != DRV_GEXEC)
        return CUDA_ERROR_INVALID_VALUE;
    if (x->from)
        x->from->inst = NULL;
    drv_graph_free(x->g);
    x->tag = 0;
    free(x);
    return CUDA_SUCCESS;
}

/* Nothing to upload: an executable graph is ready to run where it is. */
DRV_API CUresult cuGraphUpload(drv_gexec_t *x, CUstream s)
{
    if (!x || x->tag != DRV_GEXEC)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_stream_check(s);
}
DRV_API CUresult cuGraphUpload_ptsz(drv_gexec_t *x, CUstream s) { return cuGraphUpload(x, s); }

/*{=====================================================================
 * Running a graph
 *====================================================================*/

static CUresult run_conditional(const drv_node_t *n, CUstream s, const char *fn)
{
    uint32_t v = drv_cond_value(n->cond.h);
    switch (n->cond.type) {
    case COND_IF:
        return v ? drv_graph_run(n->cond.body[0], s, fn) : n->cond.size == 2 ? drv_graph_run(n->cond.body[1], s, fn)
                                                                            : CUDA_SUCCESS;
    case COND_SWITCH:
        return v < n->cond.size ? drv_graph_run(n->cond.body[v], s, fn) : CUDA_SUCCESS;
    case COND_WHILE:
        while (drv_cond_value(n->cond.h)) {
            CUresult r = drv_graph_run(n->cond.body[0], s, fn);
            if (!r)
                r = drv_enter(NULL);   /* a kernel of the body faulted: the loop ends there */
            if (r)
                return r;
        }
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult drv_graph_run(drv_graph_t *g, CUstream s, const char *fn)
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
            bool coop = (n->k.attr_set >> CU_LAUNCH_ATTRIBUTE_COOPERATIVE & 1) &&
                        n->k.attr[CU_LAUNCH_ATTRIBUTE_COOPERATIVE].cooperative;
            bool cl = n->k.attr_set >> CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION & 1;
            unsigned cd[3] = { 1, 1, 1 };
            if (cl) {
                cd[0] = n->k.attr[CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION].clusterDim.x;
                cd[1] = n->k.attr[CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION].clusterDim.y;
                cd[2] = n->k.attr[CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION].clusterDim.z;
            }
            if (n->k.attr_set >> CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION & 1) {
                const CUlaunchAttributeValue *p = &n->k.attr[CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION];
                unsigned pd[3] = { p->preferredClusterDim.x, p->preferredClusterDim.y, p->preferredClusterDim.z };
                if ((r = drv_preferred_cluster(fn, pd, cl ? cd : NULL, n->k.grid)))
                    break;
            }
            r = drv_launch(fn, n->k.f, n->k.grid, n->k.block, n->k.shared, s, NULL, extra, coop, cl ? cd : NULL);
            break;
        }
        case NODE_MEMCPY: r = drv_copy3d(&n->copy, s, false); break;
        case NODE_MEMSET: r = drv_set2d(n->set.dst, n->set.pitch, n->set.value, n->set.es, n->set.w, n->set.h, s); break;
        case NODE_HOST:
            drv_flush_output();
            n->host.fn(n->host.user);
            break;
        case NODE_GRAPH: r = drv_graph_run(n->child, s, fn); break;
        case NODE_EVENT_RECORD:
            if (n->event && n->event->tag == DRV_EVENT) {
                n->event->recorded = true;
                n->event->time = drv_now();
            }
            break;
        case NODE_MEM_ALLOC: r = drv_gmem_alloc(fn, n->mem); break;
        case NODE_MEM_FREE: r = drv_gmem_release(fn, n->mem); break;
        case NODE_CONDITIONAL: r = run_conditional(n, s, fn); break;
        default: break;   /* empty nodes; event waits (work is done when submitted) */
        }
        if (r)
            return r;
    }
    return CUDA_SUCCESS;
}

/* Before a launch: the allocations of the graph's alloc nodes still allocated (refused, or
 * freed where the graph frees them at launch), the conditions' default values. */
static CUresult launch_prepare(const drv_graph_t *g, bool auto_free)
{
    for (size_t i = 0; i < g->n; i++) {
        const drv_node_t *n = g->nodes[i];
        CUresult r = CUDA_SUCCESS;
        if (n->type == NODE_MEM_ALLOC && drv_gmem_live(n->mem)) {
            if (!auto_free)
                return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuGraphLaunch", "the allocation at %#llx of the graph's "
                                "previous launch is not freed (CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH "
                                "frees it at the next launch)", (unsigned long long)drv_gmem_base(n->mem));
            r = drv_gmem_release("cuGraphLaunch", n->mem);
        }
        if (n->type == NODE_GRAPH)
            r = launch_prepare(n->child, auto_free);
        if (n->type == NODE_CONDITIONAL) {
            drv_cond_launch_default(n->cond.h);
            for (unsigned b = 0; b < n->cond.size && !r; b++)
                r = launch_prepare(n->cond.body[b], auto_free);
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
    if (drv_capture_of(s))
        return drv_capture_child(s, x->g);
    if ((r = launch_prepare(x->g, x->flags & INST_AUTO_FREE)))
        return r;
    return drv_graph_run(x->g, s, __func__);
}
DRV_API CUresult cuGraphLaunch_ptsz(drv_gexec_t *x, CUstream s) { return cuGraphLaunch(x, s); }
/*}=====================================================================*/

/*{=====================================================================
 * Updates
 *====================================================================*/

/* CUgraphExecUpdateResult */
enum { UPD_SUCCESS = 0, UPD_TOPOLOGY_CHANGED = 2, UPD_NOT_SUPPORTED = 6 };

/* *slot (a graph of an executable graph) takes from's parameters: a new copy of from with
 * the same topology replaces it, its nodes keeping the handles of the nodes they replace. */
static CUresult update_graph(const char *fn, drv_graph_t **slot, const drv_graph_t *from, int *result)
{
    drv_graph_t *old = *slot;
    if (drv_graph_has(old, MEM_NODES | COND_NODES) || drv_graph_has(from, MEM_NODES | COND_NODES)) {
        *result = UPD_NOT_SUPPORTED;
        return drv_fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, fn, "updating graphs with memory or conditional nodes "
                        "is not emulated");
    }
    drv_graph_t *c = drv_graph_clone(from);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    bool same = c->n == old->n;
    for (size_t i = 0; same && i < c->n; i++)
        same = c->nodes[i]->type == old->nodes[i]->type && c->nodes[i]->ndeps == old->nodes[i]->ndeps;
    *result = same ? UPD_SUCCESS : UPD_TOPOLOGY_CHANGED;
    if (!same) {
        drv_graph_free(c);
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
    for (size_t i = 0; i < c->n; i++)
        c->nodes[i]->origin = old->nodes[i]->origin;   /* the handles of the graph first instantiated */
    c->owner = old->owner;
    drv_graph_free(old);
    *slot = c;
    return CUDA_SUCCESS;
}

typedef struct { int result; drv_node_t *errorNode, *errorFromNode; } update_info_t;
DRV_API CUresult cuGraphExecUpdate_v2(drv_gexec_t *x, drv_graph_t *g, update_info_t *info)
{
    if (!x || x->tag != DRV_GEXEC || !drv_graph_ok(g))
        return CUDA_ERROR_INVALID_VALUE;
    int result = UPD_SUCCESS;
    CUresult r = update_graph(__func__, &x->g, g, &result);
    if (info) {
        memset(info, 0, sizeof *info);
        info->result = result;
    }
    return r;
}

DRV_API CUresult cuGraphExecUpdate(drv_gexec_t *x, drv_graph_t *g, drv_node_t **err_node, int *result)
{
    update_info_t info;
    CUresult r = cuGraphExecUpdate_v2(x, g, &info);
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
    if (!x || x->tag != DRV_GEXEC || !drv_node_ok(n) || n->type != type)
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
    return drv_node_kernel_from(m, p);
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
    return m ? drv_node_set_from(m, p) : CUDA_ERROR_INVALID_VALUE;
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
    if (!drv_node_ok(n) || (n->type != NODE_KERNEL && n->type != NODE_MEMCPY && n->type != NODE_MEMSET))
        return CUDA_ERROR_INVALID_VALUE;
    drv_node_t *m = exec_node(x, n, n->type);
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    m->disabled = !enabled;
    return CUDA_SUCCESS;
}
DRV_API CUresult cuGraphNodeGetEnabled(drv_gexec_t *x, drv_node_t *n, unsigned *enabled)
{
    if (!drv_node_ok(n) || !enabled || (n->type != NODE_KERNEL && n->type != NODE_MEMCPY && n->type != NODE_MEMSET))
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


/* A child graph node of an executable graph takes childGraph's parameters (the same topology). */
DRV_API CUresult cuGraphExecChildGraphNodeSetParams(drv_gexec_t *x, drv_node_t *n, drv_graph_t *child)
{
    drv_node_t *m = exec_node(x, n, NODE_GRAPH);
    if (!m || !drv_graph_ok(child) || child == n->child)
        return CUDA_ERROR_INVALID_VALUE;
    int result;
    CUresult r = update_graph(__func__, &m->child, child, &result);
    return r == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE ? CUDA_ERROR_INVALID_VALUE : r;
}

/* One node of an executable graph from CUgraphNodeParams: what each type's call allows. */
DRV_API CUresult cuGraphExecNodeSetParams(drv_gexec_t *x, drv_node_t *n, node_params_t *p)
{
    if (!x || x->tag != DRV_GEXEC || !drv_node_ok(n) || !p || p->type != n->type)
        return CUDA_ERROR_INVALID_VALUE;
    switch (p->type) {
    case NODE_KERNEL: return cuGraphExecKernelNodeSetParams_v2(x, n, &p->u.kernel);
    case NODE_MEMCPY:
        if (p->u.memcpy.flags || p->u.memcpy.reserved)
            return CUDA_ERROR_INVALID_VALUE;
        return cuGraphExecMemcpyNodeSetParams(x, n, &p->u.memcpy.copyParams, p->u.memcpy.copyCtx);
    case NODE_MEMSET: return cuGraphExecMemsetNodeSetParams(x, n, &p->u.memset, p->u.memset.ctx);
    case NODE_HOST: return cuGraphExecHostNodeSetParams(x, n, &p->u.host);
    case NODE_GRAPH:
        if (p->u.graph.ownership != 0)
            return CUDA_ERROR_INVALID_VALUE;
        return cuGraphExecChildGraphNodeSetParams(x, n, p->u.graph.graph);
    case NODE_EMPTY: return exec_node(x, n, NODE_EMPTY) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case NODE_WAIT_EVENT: return cuGraphExecEventWaitNodeSetEvent(x, n, p->u.eventWait.event);
    case NODE_EVENT_RECORD: return cuGraphExecEventRecordNodeSetEvent(x, n, p->u.eventRecord.event);
    case NODE_MEM_ALLOC:
    case NODE_MEM_FREE:
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "memory %s nodes of an executable graph cannot be changed",
                        p->type == NODE_MEM_ALLOC ? "alloc" : "free");
    case NODE_CONDITIONAL:
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, __func__, "changing a conditional node of an executable graph is "
                        "not emulated");
    default:
        return drv_fail(p->type >= 0 && p->type < NODE_NTYPES ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE,
                        __func__, "node type %d is not emulated", p->type);
    }
}
