/* graph.h: the inside of the driver's CUDA graphs, shared by graph.c (graphs and nodes),
 * graph_exec.c (executable graphs), capture.c (stream capture) and graph_mem.c (graph
 * memory, user objects, conditional handles).  The parameter structures are CUDA 13.0's
 * (cuda.h), declared here under our names. */
#ifndef PTXEMU_DRV_GRAPH_H
#define PTXEMU_DRV_GRAPH_H

#include "runtime/driver/drv.h"

/* Handle tags (the first word of each object). */
enum { DRV_GRAPH = 0x47524131, DRV_GEXEC = 0x47455831, DRV_NODE = 0x4e4f4431, DRV_UOBJ = 0x554f4231,
       DRV_COND = 0x434e4431 };

/* Node types: CUgraphNodeType's values.  External semaphores and batch memory operations
 * are not emulated (their nodes cannot be made). */
enum { NODE_KERNEL = 0, NODE_MEMCPY = 1, NODE_MEMSET = 2, NODE_HOST = 3, NODE_GRAPH = 4, NODE_EMPTY = 5,
       NODE_WAIT_EVENT = 6, NODE_EVENT_RECORD = 7, NODE_EXT_SIGNAL = 8, NODE_EXT_WAIT = 9, NODE_MEM_ALLOC = 10,
       NODE_MEM_FREE = 11, NODE_BATCH_MEMOP = 12, NODE_CONDITIONAL = 13, NODE_NTYPES = 14 };

/* Conditional node types (CUgraphConditionalNodeType) and the handle flag. */
enum { COND_IF = 0, COND_WHILE = 1, COND_SWITCH = 2 };
#define COND_ASSIGN_DEFAULT 0x1u

/* Kernel node attributes: CUlaunchAttributeID values below this are stored per node. */
#define NODE_NATTR 16

typedef struct drv_graph drv_graph_t;
typedef struct drv_gmem  drv_gmem_t;
typedef struct drv_cond  drv_cond_t;
typedef struct drv_uobj  drv_uobj_t;

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
        uint32_t    attr_set;                /* bit id: attribute id was set */
        CUlaunchAttributeValue *attr;        /* NODE_NATTR values, or NULL: none set */
    } k;
    CUDA_MEMCPY3D     copy;
    struct { CUdeviceptr dst; size_t pitch; unsigned value, es; size_t w, h; } set;
    struct { CUhostFn fn; void *user; } host;
    drv_graph_t      *child;    /* NODE_GRAPH: the node's own graph (a clone, or moved in) */
    bool              moved;    /* NODE_GRAPH: the child was moved in (CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE) */
    drv_event_t      *event;
    drv_gmem_t       *mem;      /* NODE_MEM_ALLOC: its allocation */
    CUdeviceptr       free_ptr; /* NODE_MEM_FREE: what it frees */
    struct {
        drv_cond_t   *h;
        int           type;
        unsigned      size;
        drv_graph_t **body;     /* size graphs, owned by the node */
    } cond;
    struct drv_node  *origin;   /* in a clone or executable graph: the node it was made from */
    bool              disabled; /* in an executable graph: cuGraphNodeSetEnabled */
} drv_node_t;

/* A user object reference count held by a graph. */
typedef struct { drv_uobj_t *o; unsigned n; } drv_uref_t;

struct drv_graph {
    uint32_t          tag;
    drv_node_t      **nodes;
    size_t            n, cap;
    drv_node_t       *owner;    /* a child graph moved into a node, or a conditional body: that node */
    struct drv_gexec *inst;     /* a graph of which one instantiation at a time may exist: it */
    drv_uref_t       *urefs;    /* the user objects it holds references to */
    size_t            nurefs;
    drv_cond_t      **conds;    /* the conditional handles made for it */
    size_t            nconds;
};

typedef struct drv_gexec {
    uint32_t           tag;
    drv_graph_t       *g;       /* a private copy, nodes in execution order */
    unsigned long long flags;
    drv_graph_t       *from;    /* the graph it was made from, where that allows one instantiation */
} drv_gexec_t;

/* Parameter structures of CUDA 13.0 (cuda.h's names in the comments). */
typedef struct {   /* CUDA_KERNEL_NODE_PARAMS_v2 / _v3 */
    CUfunction   func;
    unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    void       **kernelParams;
    void       **extra;
    CUkernel     kern;
    CUcontext    ctx;
} kernel_params_t;
typedef struct {   /* CUDA_MEMSET_NODE_PARAMS (v1 ends before ctx) */
    CUdeviceptr  dst;
    size_t       pitch;
    unsigned int value, elementSize;
    size_t       width, height;
    CUcontext    ctx;
} memset_params_t;
typedef struct { CUhostFn fn; void *userData; } host_params_t;              /* CUDA_HOST_NODE_PARAMS */
typedef struct { int flags, reserved; CUcontext copyCtx; CUDA_MEMCPY3D copyParams; } memcpy_params_t;
typedef struct { drv_graph_t *graph; int ownership; } child_params_t;         /* CUDA_CHILD_GRAPH_NODE_PARAMS */
typedef struct { drv_event_t *event; } event_params_t;                        /* CUDA_EVENT_{RECORD,WAIT}_NODE_PARAMS */
typedef struct {   /* CUmemPoolProps */
    int            allocType, handleTypes;
    CUmemLocation  location;
    void          *win32SecurityAttributes;
    size_t         maxSize;
    unsigned short usage;
    unsigned char  reserved[54];
} pool_props_t;
typedef struct { CUmemLocation location; int flags; } access_desc_t;          /* CUmemAccessDesc */
typedef struct {   /* CUDA_MEM_ALLOC_NODE_PARAMS_v1 / _v2 */
    pool_props_t         poolProps;
    const access_desc_t *accessDescs;
    size_t               accessDescCount;
    size_t               bytesize;
    CUdeviceptr          dptr;
} mem_alloc_params_t;
typedef struct { CUdeviceptr dptr; } mem_free_params_t;                       /* CUDA_MEM_FREE_NODE_PARAMS */
typedef struct {   /* CUDA_CONDITIONAL_NODE_PARAMS */
    unsigned long long handle;
    int                type;
    unsigned int       size;
    drv_graph_t      **phGraph_out;
    CUcontext          ctx;
} cond_params_t;
typedef struct {   /* CUgraphNodeParams */
    int type;
    int reserved0[3];
    union {
        long long          reserved1[29];
        kernel_params_t    kernel;
        memcpy_params_t    memcpy;
        memset_params_t    memset;
        host_params_t      host;
        child_params_t     graph;
        event_params_t     eventWait;
        event_params_t     eventRecord;
        mem_alloc_params_t alloc;
        mem_free_params_t  free;
        cond_params_t      conditional;
    } u;
    long long reserved2;
} node_params_t;
/* Edge data (CUgraphEdgeData): ports and a type; the emulator's edges are all the default
 * kind, so the data reads as zero and only zero is accepted. */
typedef struct { unsigned char from_port, to_port, type, reserved[5]; } edge_data_t;

/* Graphs and nodes (graph.c). */
bool         drv_graph_ok(const drv_graph_t *g);
bool         drv_node_ok(const drv_node_t *n);
drv_graph_t *drv_graph_new(void);
void         drv_graph_free(drv_graph_t *g);
/* A copy of g, nodes in an order that respects the dependencies, each knowing its origin;
 * NULL when memory runs out or g has a cycle. */
drv_graph_t *drv_graph_clone(const drv_graph_t *g);
CUresult     drv_graph_add_node(drv_graph_t *g, int type, drv_node_t *const *deps, size_t ndeps, drv_node_t **out);
void         drv_graph_drop_last(drv_graph_t *g);   /* undo drv_graph_add_node */
/* Whether g (or a graph inside it) has nodes of the types in mask (bit per type). */
bool         drv_graph_has(const drv_graph_t *g, unsigned mask);
CUresult     drv_node_set_kernel(drv_node_t *n, drv_func_t *f, const unsigned grid[3], const unsigned block[3],
                                 unsigned shared, void **params, void **extra);
CUresult     drv_node_kernel_from(drv_node_t *n, const kernel_params_t *p);
CUresult     drv_node_set_from(drv_node_t *n, const memset_params_t *p);
bool         drv_edges_default(const edge_data_t *e, size_t n);
/* A memory alloc node's allocation from its parameters (the address to p->dptr); a free node's. */
CUresult     drv_node_mem_alloc(const char *fn, drv_node_t *n, mem_alloc_params_t *p);
CUresult     drv_node_mem_free(const char *fn, drv_node_t *n, CUdeviceptr d);
/* A kernel node attribute (CUlaunchAttributeID id) set, checked as cuGraphKernelNodeSetAttribute does. */
CUresult     drv_node_attr_set(const char *fn, drv_node_t *n, int id, const CUlaunchAttributeValue *v);
#define MEM_NODES  (1u << NODE_MEM_ALLOC | 1u << NODE_MEM_FREE)
#define COND_NODES (1u << NODE_CONDITIONAL)

/* Executable graphs (graph_exec.c): run g's nodes in stream s (fn: whose work it is). */
CUresult     drv_graph_run(drv_graph_t *g, CUstream s, const char *fn);

/* Stream capture (capture.c): an executable graph launched into a capturing stream becomes
 * a child graph node of a copy of its graph. */
CUresult     drv_capture_child(CUstream s, const drv_graph_t *g);

/* The first of from[0..n) and their ancestors (depth first) for which pred(node, arg)
 * holds, or NULL; *nomem when the walk ran out of memory before it could tell. */
drv_node_t  *drv_node_ancestor(drv_node_t *const *from, size_t n, bool (*pred)(drv_node_t *, void *), void *arg,
                               bool *nomem);

/* Graph memory (graph_mem.c).  A graph allocation's address is reserved when its alloc
 * node is made; it is device memory from the run of the alloc node to its free. */
CUresult     drv_gmem_new(const char *fn, size_t bytes, drv_gmem_t **out);
uintptr_t    drv_gmem_base(const drv_gmem_t *m);
size_t       drv_gmem_size(const drv_gmem_t *m);
void         drv_gmem_ref(drv_gmem_t *m);
void         drv_gmem_unref(drv_gmem_t *m);
/* The graph allocation at base (the allocated one where several reuse it; NULL: none). */
drv_gmem_t  *drv_gmem_at(uintptr_t base);
/* Reusing addresses: an alias of owner's range for bytes; whether m's range may be reused
 * by an alloc node of g (m allocated in g, big enough, no later alias yet); the allocation
 * at base a free node of g frees. */
CUresult     drv_gmem_alias(drv_gmem_t *owner, size_t bytes, drv_gmem_t **out);
bool         drv_gmem_reusable(const drv_gmem_t *m, size_t bytes, const drv_graph_t *g);
drv_gmem_t  *drv_gmem_to_free(uintptr_t base, const drv_graph_t *g);
bool         drv_gmem_live(const drv_gmem_t *m);
CUresult     drv_gmem_alloc(const char *fn, drv_gmem_t *m);
CUresult     drv_gmem_release(const char *fn, drv_gmem_t *m);
/* Which graph holds the alloc node, and which one a free node: the rules of cuGraphAddMemFreeNode. */
void         drv_gmem_set_graph(drv_gmem_t *m, drv_graph_t *g);
CUresult     drv_gmem_add_free(const char *fn, drv_gmem_t *m, drv_graph_t *g);
void         drv_gmem_forget_graph(const drv_graph_t *g);

/* User objects (graph_mem.c): a graph's references. */
CUresult     drv_graph_urefs_copy(drv_graph_t *to, const drv_graph_t *from);
void         drv_graph_urefs_drop(drv_graph_t *g);

/* Conditional handles (graph_mem.c). */
drv_cond_t  *drv_cond_of(unsigned long long handle);
void         drv_cond_ref(drv_cond_t *c);
void         drv_cond_unref(drv_cond_t *c);
uint32_t     drv_cond_value(const drv_cond_t *c);
void         drv_cond_launch_default(drv_cond_t *c);   /* at a launch: the default value, if asked for */
void         drv_cond_use(drv_cond_t *c);               /* a conditional node of its graph uses it */
bool         drv_cond_used(const drv_cond_t *c);
const drv_graph_t *drv_cond_graph(const drv_cond_t *c);
void         drv_graph_conds_drop(drv_graph_t *g);

#endif
