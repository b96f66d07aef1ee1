/* graph_mem.c: what graphs hold outside their nodes: graph memory (the allocations of memory
 * alloc nodes, the used and reserved amounts, trimming), user objects and their references,
 * and the conditional handles of conditional nodes (a word of device memory each, which
 * kernels set with cudaGraphSetConditional). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "runtime/driver/graph.h"

/*{=====================================================================
 * Graph memory
 *
 * An alloc node reserves its allocation's addresses when it is made (an anonymous mapping
 * without backing), so that the address is the same in every launch of every executable
 * graph made from it.  Running the alloc node makes the range device memory (mapped in the
 * device and in the driver's registry, where the driver does not release it itself, as
 * with module variables); its free (a free node, cuMemFreeAsync, cuMemFree, or the next
 * launch of a graph instantiated with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
 * takes it out again.  Reserved memory is a pool, as on the H100 (NVIDIA's sample
 * graphMemoryFootprint: graphs launched one after another in a stream reuse the same
 * physical memory): it grows to the most graph memory allocated at once, and
 * cuDeviceGraphMemTrim shrinks it to what is allocated (the pages of free ranges are given
 * back to the host).  The addresses go when no node refers to them and the memory is not
 * allocated.
 *
 * As on the H100 (NVIDIA's samples graphMemoryNodes and graphMemoryFootprint), an alloc
 * node that follows the free node of an allocation of the same graph reuses its addresses
 * when they are large enough: the new allocation is an alias of the old one's range (its
 * own liveness and free, the range's pages and reserved memory shared with it).
 *====================================================================*/

struct drv_gmem {
    uintptr_t          base;
    size_t             size;       /* as asked for */
    size_t             span;       /* as reserved: whole pages */
    unsigned           refs;       /* nodes that refer to it, plus one while allocated */
    bool               live;       /* allocated: its alloc node ran and it was not freed since */
    bool               reserved;   /* its pages are present (until trimmed) */
    const drv_graph_t *graph;      /* the graph of its alloc node (NULL once destroyed) */
    const drv_graph_t *free_graph; /* a graph with a free node for it */
    struct drv_gmem   *owner;      /* an alias: the allocation whose range it reuses (NULL: its own) */
    struct drv_gmem   *next;
};

static pthread_mutex_t gmem_lock = PTHREAD_MUTEX_INITIALIZER;
static drv_gmem_t     *gmems;
static uint64_t        used, used_high, reserved, reserved_high;   /* CUgraphMem_attribute's numbers */

CUresult drv_gmem_new(const char *fn, size_t bytes, drv_gmem_t **out)
{
    if (bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    size_t span = (bytes + 4095) & ~(size_t)4095;
    if (span < bytes)
        return CUDA_ERROR_OUT_OF_MEMORY;
    void *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    drv_gmem_t *m = calloc(1, sizeof *m);
    if (p == MAP_FAILED || !m) {
        if (p != MAP_FAILED)
            munmap(p, span);
        free(m);
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, fn, "no room for a graph allocation of %zu bytes", bytes);
    }
    m->base = (uintptr_t)p;
    m->size = bytes;
    m->span = span;
    m->refs = 1;
    pthread_mutex_lock(&gmem_lock);
    m->next = gmems;
    gmems = m;
    pthread_mutex_unlock(&gmem_lock);
    *out = m;
    return CUDA_SUCCESS;
}

uintptr_t drv_gmem_base(const drv_gmem_t *m) { return m->base; }
size_t    drv_gmem_size(const drv_gmem_t *m) { return m->size; }
bool      drv_gmem_live(const drv_gmem_t *m) { return m->live; }

void drv_gmem_ref(drv_gmem_t *m)
{
    pthread_mutex_lock(&gmem_lock);
    m->refs++;
    pthread_mutex_unlock(&gmem_lock);
}

/* An allocation of bytes in the range of owner (an alias that reuses its addresses). */
CUresult drv_gmem_alias(drv_gmem_t *owner, size_t bytes, drv_gmem_t **out)
{
    while (owner->owner)
        owner = owner->owner;
    drv_gmem_t *m = calloc(1, sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->base = owner->base;
    m->size = bytes;
    m->span = owner->span;
    m->refs = 1;
    m->owner = owner;
    pthread_mutex_lock(&gmem_lock);
    owner->refs++;
    m->next = gmems;   /* first: the newest at its address */
    gmems = m;
    pthread_mutex_unlock(&gmem_lock);
    *out = m;
    return CUDA_SUCCESS;
}

/* Whether m may be reused by an alloc node of g that its free node precedes: m was
 * allocated in g, its range is big enough and no later allocation reuses it already. */
bool drv_gmem_reusable(const drv_gmem_t *m, size_t bytes, const drv_graph_t *g)
{
    pthread_mutex_lock(&gmem_lock);
    const drv_gmem_t *first = gmems;
    while (first && first->base != m->base)
        first = first->next;
    bool ok = first == m && m->graph == g && bytes <= m->span;
    pthread_mutex_unlock(&gmem_lock);
    return ok;
}

/* The last reference gone: the addresses go back (an alias: its reference to the range). */
void drv_gmem_unref(drv_gmem_t *m)
{
    pthread_mutex_lock(&gmem_lock);
    bool last = --m->refs == 0;
    if (last) {
        for (drv_gmem_t **p = &gmems; *p; p = &(*p)->next)
            if (*p == m) {
                *p = m->next;
                break;
            }
    }
    pthread_mutex_unlock(&gmem_lock);
    if (last) {
        if (m->owner)
            drv_gmem_unref(m->owner);
        else
            munmap((void *)m->base, m->span);
        free(m);
    }
}

drv_gmem_t *drv_gmem_at(uintptr_t base)
{
    pthread_mutex_lock(&gmem_lock);
    drv_gmem_t *m = gmems, *live = NULL;
    for (drv_gmem_t *a = gmems; a; a = a->next)   /* the allocated one of several at base */
        if (a->base == base && a->live) {
            live = a;
            break;
        }
    while (m && m->base != base)
        m = m->next;
    pthread_mutex_unlock(&gmem_lock);
    return live ? live : m;
}

/* The allocation at base that a free node in graph g frees: the newest there not freed in
 * g already (NULL: none at base). */
drv_gmem_t *drv_gmem_to_free(uintptr_t base, const drv_graph_t *g)
{
    pthread_mutex_lock(&gmem_lock);
    drv_gmem_t *m = gmems, *any = NULL;
    for (; m; m = m->next)
        if (m->base == base) {
            if (!any)
                any = m;
            if (m->free_graph != g)
                break;
        }
    pthread_mutex_unlock(&gmem_lock);
    return m ? m : any;
}

/* Whether [p, p + n) lies in the addresses of one graph allocation (allocated or not). */
bool drv_gmem_holds(uintptr_t p, size_t n)
{
    pthread_mutex_lock(&gmem_lock);
    drv_gmem_t *m = gmems;
    while (m && !(p >= m->base && p - m->base <= m->size && n <= m->size - (p - m->base)))
        m = m->next;
    pthread_mutex_unlock(&gmem_lock);
    return m != NULL;
}

void drv_gmem_set_graph(drv_gmem_t *m, drv_graph_t *g) { m->graph = g; }

/* A free node for m in graph g, by cuGraphAddMemFreeNode's rules: an allocation is freed at
 * most once in a graph, and either in its own graph or in others. */
CUresult drv_gmem_add_free(const char *fn, drv_gmem_t *m, drv_graph_t *g)
{
    if (m->free_graph == g)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the allocation at %#llx is freed twice in the graph",
                        (unsigned long long)m->base);
    if (m->free_graph && m->graph && (g == m->graph || m->free_graph == m->graph))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the allocation at %#llx is freed in %s graph already; "
                        "an allocation is freed either in its own graph or in others", (unsigned long long)m->base,
                        g == m->graph ? "another" : "its own");
    m->free_graph = g;
    return CUDA_SUCCESS;
}

void drv_gmem_forget_graph(const drv_graph_t *g)
{
    pthread_mutex_lock(&gmem_lock);
    for (drv_gmem_t *m = gmems; m; m = m->next) {
        if (m->graph == g)
            m->graph = NULL;
        if (m->free_graph == g)
            m->free_graph = NULL;
    }
    pthread_mutex_unlock(&gmem_lock);
}

/* The alloc node runs: the range becomes device memory. */
CUresult drv_gmem_alloc(const char *fn, drv_gmem_t *m)
{
    if (m->live)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the graph allocation at %#llx is still allocated",
                        (unsigned long long)m->base);
    if (ex_device_map(drv.dev, (void *)m->base, m->span) != ISA_ST_OK)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, fn, "cannot map the graph allocation at %#llx",
                        (unsigned long long)m->base);
    CUresult r = drv_alloc_add((void *)m->base, m->size, DRV_MEM_MODULE, 0, false);
    if (r) {
        ex_device_unmap(drv.dev, (void *)m->base);
        return r;
    }
    pthread_mutex_lock(&gmem_lock);
    m->live = true;
    m->refs++;
    used += m->span;
    if (used > used_high)
        used_high = used;
    /* The physical memory is a pool: an allocation takes what earlier ones freed, and the
     * pool grows only when more is allocated at once than it holds. */
    m->reserved = true;   /* (pages present: trimming drops them) */
    if (m->owner)
        m->owner->reserved = true;
    if (used > reserved)
        reserved = used;
    if (reserved > reserved_high)
        reserved_high = reserved;
    pthread_mutex_unlock(&gmem_lock);
    return CUDA_SUCCESS;
}

/* Its free: device memory no more (the addresses stay reserved while nodes refer to them). */
CUresult drv_gmem_release(const char *fn, drv_gmem_t *m)
{
    if (!m->live)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the graph allocation at %#llx is not allocated (freed "
                        "already, or its alloc node has not run)", (unsigned long long)m->base);
    drv_alloc_forget(m->base);
    ex_device_unmap(drv.dev, (void *)m->base);
    pthread_mutex_lock(&gmem_lock);
    m->live = false;
    used -= m->span;
    pthread_mutex_unlock(&gmem_lock);
    drv_gmem_unref(m);
    return CUDA_SUCCESS;
}

/* cuMemFree and cuMemFreeAsync of an address: a graph allocation's free (true, *out the
 * result), or not one (false: the caller frees it as its own). */
bool drv_graph_mem_free(const char *fn, CUdeviceptr d, CUresult *out)
{
    drv_gmem_t *m = d ? drv_gmem_at((uintptr_t)d) : NULL;
    if (!m)
        return false;
    if (m->graph && m->free_graph == m->graph && !m->live)
        *out = drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "the allocation at %#llx is freed in its own graph",
                        (unsigned long long)d);
    else
        *out = drv_gmem_release(fn, m);
    return true;
}

static CUresult device_ok(CUdevice d)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* Reserved memory that no allocation uses goes back to the host: its pages are dropped
 * (the addresses stay reserved for the nodes). */
DRV_API CUresult cuDeviceGraphMemTrim(CUdevice d)
{
    CUresult r = device_ok(d);
    if (r)
        return r;
    pthread_mutex_lock(&gmem_lock);
    for (drv_gmem_t *m = gmems; m; m = m->next) {
        if (!m->reserved || m->live)
            continue;
        bool alias_live = false;
        for (drv_gmem_t *a = gmems; a; a = a->next)
            alias_live |= a->owner == m && a->live;
        if (alias_live)
            continue;
        if (!m->owner)
            madvise((void *)m->base, m->span, MADV_DONTNEED);
        m->reserved = false;
    }
    reserved = used;   /* the pool keeps what is allocated */
    pthread_mutex_unlock(&gmem_lock);
    return CUDA_SUCCESS;
}

/* CUgraphMem_attribute: used memory, reserved memory, their high marks.  As the H100's
 * driver reports them (tests/apps/graph_api.cu: a graph that allocated and freed 256 bytes
 * leaves 32 MiB "used"): memory stays associated with graphs after their free nodes, until
 * trimmed, and goes by in 32 MiB granules; so "used" is the reserved memory rounded up to
 * 32 MiB, as is "reserved". */
enum { GMEM_USED = 0, GMEM_USED_HIGH = 1, GMEM_RESERVED = 2, GMEM_RESERVED_HIGH = 3 };
#define GMEM_GRANULE (32ull << 20)
static uint64_t granules(uint64_t n) { return (n + GMEM_GRANULE - 1) / GMEM_GRANULE * GMEM_GRANULE; }

DRV_API CUresult cuDeviceGetGraphMemAttribute(CUdevice d, int attr, void *value)
{
    CUresult r = device_ok(d);
    if (r)
        return r;
    if (!value || attr < GMEM_USED || attr > GMEM_RESERVED_HIGH)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&gmem_lock);
    uint64_t v = granules(attr == GMEM_USED || attr == GMEM_RESERVED ? reserved : reserved_high);
    pthread_mutex_unlock(&gmem_lock);
    memcpy(value, &v, sizeof v);
    return CUDA_SUCCESS;
}

/* Only the high marks may be set, and only to 0 (a reset: they restart from the current amount). */
DRV_API CUresult cuDeviceSetGraphMemAttribute(CUdevice d, int attr, void *value)
{
    CUresult r = device_ok(d);
    if (r)
        return r;
    uint64_t v;
    if (!value || (attr != GMEM_USED_HIGH && attr != GMEM_RESERVED_HIGH))
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(&v, value, sizeof v);
    if (v != 0)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&gmem_lock);
    used_high = used;
    reserved_high = reserved;   /* the marks restart from the reserved memory the numbers report */
    pthread_mutex_unlock(&gmem_lock);
    return CUDA_SUCCESS;
}
/*}=====================================================================*/

/*{=====================================================================
 * User objects
 *
 * A user object is a destructor and its argument with a reference count; graphs hold
 * references (cuGraphRetainUserObject), and their clones and executable graphs take the
 * same references.  The destructor runs when the last reference goes, in the thread that
 * drops it, at that moment (CUDA lets it run later, asynchronously; it may not call CUDA).
 *====================================================================*/

struct drv_uobj {
    uint32_t tag;
    void    *ptr;
    CUhostFn destroy;
    unsigned refs;
};

static bool uobj_ok(const drv_uobj_t *o) { return o && o->tag == DRV_UOBJ; }

static void uobj_release(drv_uobj_t *o, unsigned n)
{
    pthread_mutex_lock(&gmem_lock);
    bool last = (o->refs -= n) == 0;
    pthread_mutex_unlock(&gmem_lock);
    if (last) {
        o->tag = 0;
        o->destroy(o->ptr);
        free(o);
    }
}

DRV_API CUresult cuUserObjectCreate(drv_uobj_t **out, void *ptr, CUhostFn destroy, unsigned initial, unsigned flags)
{
    if (!out || !destroy || initial == 0 || initial > INT32_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags != 1)   /* CU_USER_OBJECT_NO_DESTRUCTOR_SYNC, required */
        return CUDA_ERROR_INVALID_VALUE;
    drv_uobj_t *o = calloc(1, sizeof *o);
    if (!o)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *o = (drv_uobj_t){ .tag = DRV_UOBJ, .ptr = ptr, .destroy = destroy, .refs = initial };
    *out = o;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuUserObjectRetain(drv_uobj_t *o, unsigned count)
{
    if (!uobj_ok(o) || count == 0 || count > INT32_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&gmem_lock);
    o->refs += count;
    pthread_mutex_unlock(&gmem_lock);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuUserObjectRelease(drv_uobj_t *o, unsigned count)
{
    if (!uobj_ok(o) || count == 0 || count > o->refs)
        return CUDA_ERROR_INVALID_VALUE;
    uobj_release(o, count);
    return CUDA_SUCCESS;
}

/* g's reference count to o: its slot (made if need be), or NULL. */
static drv_uref_t *uref_of(drv_graph_t *g, drv_uobj_t *o, bool make)
{
    for (size_t i = 0; i < g->nurefs; i++)
        if (g->urefs[i].o == o)
            return &g->urefs[i];
    if (!make)
        return NULL;
    drv_uref_t *a = realloc(g->urefs, (g->nurefs + 1) * sizeof *a);
    if (!a)
        return NULL;
    g->urefs = a;
    a[g->nurefs] = (drv_uref_t){ o, 0 };
    return &a[g->nurefs++];
}

/* flags: CU_GRAPH_USER_OBJECT_MOVE (1) takes over the caller's references. */
DRV_API CUresult cuGraphRetainUserObject(drv_graph_t *g, drv_uobj_t *o, unsigned count, unsigned flags)
{
    if (!drv_graph_ok(g) || !uobj_ok(o) || count == 0 || count > INT32_MAX || (flags & ~1u))
        return CUDA_ERROR_INVALID_VALUE;
    drv_uref_t *u = uref_of(g, o, true);
    if (!u)
        return CUDA_ERROR_OUT_OF_MEMORY;
    u->n += count;
    if (!(flags & 1))
        cuUserObjectRetain(o, count);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuGraphReleaseUserObject(drv_graph_t *g, drv_uobj_t *o, unsigned count)
{
    if (!drv_graph_ok(g) || !uobj_ok(o) || count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    drv_uref_t *u = uref_of(g, o, false);
    if (!u || u->n < count)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the graph holds %u reference%s to the user object, "
                        "not %u", u ? u->n : 0, u && u->n == 1 ? "" : "s", count);
    u->n -= count;
    if (u->n == 0)
        *u = g->urefs[--g->nurefs];
    uobj_release(o, count);
    return CUDA_SUCCESS;
}

CUresult drv_graph_urefs_copy(drv_graph_t *to, const drv_graph_t *from)
{
    if (!from->nurefs)
        return CUDA_SUCCESS;
    if (!(to->urefs = malloc(from->nurefs * sizeof *to->urefs)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(to->urefs, from->urefs, from->nurefs * sizeof *to->urefs);
    to->nurefs = from->nurefs;
    for (size_t i = 0; i < to->nurefs; i++)
        cuUserObjectRetain(to->urefs[i].o, to->urefs[i].n);
    return CUDA_SUCCESS;
}

void drv_graph_urefs_drop(drv_graph_t *g)
{
    drv_uref_t *u = g->urefs;
    size_t n = g->nurefs;
    g->urefs = NULL;
    g->nurefs = 0;
    for (size_t i = 0; i < n; i++)
        uobj_release(u[i].o, u[i].n);
    free(u);
}
/*}=====================================================================*/

/*{=====================================================================
 * Conditional handles
 *
 * A handle is the device address of the condition's 32-bit value: cudaGraphSetConditional
 * in a kernel stores its value there (exec/flow/ctrl.c), conditional nodes read it.  A
 * handle belongs to the graph it was made for, and lives while that graph or a node
 * (of it, of a clone or of an executable graph) refers to it.
 *====================================================================*/

struct drv_cond {
    uint32_t           value;      /* first: the handle is its address */
    uint32_t           tag;
    unsigned           dflt, flags;
    unsigned           refs;
    const drv_graph_t *g;          /* the graph it was made for (NULL once destroyed) */
    bool               used;       /* a conditional node of g uses it */
    struct drv_cond   *next;
};
static drv_cond_t *conds;

drv_cond_t *drv_cond_of(unsigned long long handle)
{
    pthread_mutex_lock(&gmem_lock);
    drv_cond_t *c = conds;
    while (c && (uintptr_t)c != handle)
        c = c->next;
    pthread_mutex_unlock(&gmem_lock);
    return c;
}

void drv_cond_ref(drv_cond_t *c)
{
    pthread_mutex_lock(&gmem_lock);
    c->refs++;
    pthread_mutex_unlock(&gmem_lock);
}

void drv_cond_unref(drv_cond_t *c)
{
    pthread_mutex_lock(&gmem_lock);
    bool last = --c->refs == 0;
    if (last)
        for (drv_cond_t **p = &conds; *p; p = &(*p)->next)
            if (*p == c) {
                *p = c->next;
                break;
            }
    pthread_mutex_unlock(&gmem_lock);
    if (last) {
        ex_device_unmap(drv.dev, c);
        c->tag = 0;
        free(c);
    }
}

uint32_t drv_cond_value(const drv_cond_t *c) { return __atomic_load_n(&c->value, __ATOMIC_ACQUIRE); }
const drv_graph_t *drv_cond_graph(const drv_cond_t *c) { return c->g; }
void drv_cond_use(drv_cond_t *c) { c->used = true; }
bool drv_cond_used(const drv_cond_t *c) { return c->used; }

void drv_cond_launch_default(drv_cond_t *c)
{
    if (c->flags & COND_ASSIGN_DEFAULT)
        __atomic_store_n(&c->value, c->dflt, __ATOMIC_RELEASE);
}

DRV_API CUresult cuGraphConditionalHandleCreate(unsigned long long *out, drv_graph_t *g, CUcontext ctx, unsigned dflt,
                                                unsigned flags)
{
    CUresult r = drv_enter_ctx(ctx);
    if (r)
        return r;
    if (!out || !drv_graph_ok(g) || (flags & ~COND_ASSIGN_DEFAULT))
        return CUDA_ERROR_INVALID_VALUE;
    drv_cond_t **a = realloc(g->conds, (g->nconds + 1) * sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    g->conds = a;
    drv_cond_t *c = aligned_alloc(64, 64);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *c = (drv_cond_t){ .value = dflt, .tag = DRV_COND, .dflt = dflt, .flags = flags, .refs = 1, .g = g };
    if (ex_device_map(drv.dev, c, sizeof c->value) != ISA_ST_OK) {
        free(c);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&gmem_lock);
    c->next = conds;
    conds = c;
    pthread_mutex_unlock(&gmem_lock);
    g->conds[g->nconds++] = c;
    *out = (uintptr_t)c;
    return CUDA_SUCCESS;
}

void drv_graph_conds_drop(drv_graph_t *g)
{
    for (size_t i = 0; i < g->nconds; i++) {
        g->conds[i]->g = NULL;
        drv_cond_unref(g->conds[i]);
    }
    free(g->conds);
    g->conds = NULL;
    g->nconds = 0;
}
/*}=====================================================================*/
