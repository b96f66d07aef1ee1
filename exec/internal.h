/* internal.h: interpreter internals shared by pre-decoding, the warp loop, memory and
 * the control-flow handlers.  Not part of the public interface (exec.h). */
#ifndef PTXEMU_EX_INTERNAL_H
#define PTXEMU_EX_INTERNAL_H

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include "exec/exec.h"
#include "exec/machine.h"
#include "isa/sem/sem.h"

typedef isa_xinsn_t ex_insn_t;

/*{=====================================================================
 * Address spaces.  Global device addresses are host addresses (below 2^47);
 * the other spaces have their own offsets, and a generic address of one of
 * them is its offset plus the space's window base.
 *====================================================================*/
#define EX_WIN_MASK    0xF000000000000000ull
#define EX_WIN_SHARED  0xA000000000000000ull
#define EX_WIN_LOCAL   0xB000000000000000ull
#define EX_WIN_PARAM   0xC000000000000000ull
#define EX_WIN_CONST   0xD000000000000000ull
#define EX_WIN_FUNC    0xE000000000000000ull   /* function "addresses": window + index */
#define EX_LOCAL_BASE  0x1000u            /* first local address of a thread (0 stays invalid) */
/* A warp's local memory is interleaved as on the GPU: offset o of lane l lies at
 * ((o >> 4) << 9) + (l << 4) + (o & 15), so the lanes' words at one offset share a few
 * cache lines and one page, and an aligned access of up to 16 bytes stays contiguous. */
#define EX_LOCAL_AT(base, lane, off) \
    ((base) + ((uint64_t)(off) >> 4 << 9) + ((uint64_t)(lane) << 4) + ((uint64_t)(off) & 15))
/*}=====================================================================*/

/* A function after pre-decoding. */
typedef struct {
    const isa_module_t *mod;
    const isa_func_t *ir;
    ex_insn_t        *code;          /* ninstr + 1: a final pseudo-instruction catches fall-off */
    uint32_t          ncode;
    uint32_t          frame_size;    /* bytes of one warp frame */
    uint8_t          *frame_init;    /* constant part of the frame: immediates */
    uint32_t          const_begin;   /* constants occupy [const_begin, frame_size) */
    uint32_t          local_size;    /* bytes of .local variables per thread (the depot) */
    uint32_t          hw_regs;       /* an entry's registers per thread in the H100's code (what
                                        ptxas allocated: ex_set_entry_regs), 0 when not known */
    uint32_t          cc_slot;       /* the carry flag (32 lanes of u32) of .cc / addc / subc */
    bool              uses_cc;       /* some instruction reads or writes it: clear in new frames */
    uint32_t         *var_slot;      /* per IR variable: frame offset of its storage (param areas) */
    uint32_t         *var_local;     /* per IR variable: offset in the local frame, or ISA_NONE (a
                                        function parameter's: its copy, when mov takes its address) */
    uint32_t          param_copies;  /* parameters with a copy in the local frame */
    uint32_t         *reg_slot;      /* per IR register: frame offset */
    uint8_t          *reg_width;     /* per IR register: bytes per lane (0 = predicate mask) */
    uint32_t         *opd_slot;      /* per IR operand: the constant slot of a call argument */
    struct ex_cloc   *formal;        /* per parameter (results first): where it lives (calls) */
    struct ex_cloc   *actual;        /* per IR operand: where a call list's element lives in this
                                        frame (eb 0 for a constant: the formal's size) */
    uint32_t          nfixup;        /* frame slots filled at frame creation (addresses) */
    struct ex_fixup  *fixups;
    uint32_t          unsupported;   /* count of instructions without semantics */
    bool              stack_ops;     /* it runs alloca, stacksave or stackrestore (mem/stack.c) */
    bool              pure;          /* it reads nothing another thread may change, nor calls
                                        what does: a loop on its result need not yield (reconv.c) */
    /* Register-plus-immediate sources (%r2+1): each reads a pseudo-register of its own
     * (registers past the IR's, in ir_own, a copy of the IR with those operands renamed),
     * which preadd_f fills before the handler runs.  Instruction i's sums are
     * preadd[preadd_at[i] .. preadd_at[i + 1]); preadd_at is NULL when there are none. */
    struct ex_preadd *preadd;
    uint32_t         *preadd_at;
    isa_func_t       *ir_own;
    /* The body with small callees expanded (inline.c), which ir is made from; NULL when
     * the function's own IR is used. */
    isa_func_t       *ir_inl;
    uint8_t          *inl_lead;      /* its extra block starts for contraction (ex_inline) */
    uint32_t         *shared_at;     /* per variable of its own IR: a .shared one's program-wide
                                        offset (program.c) */
    /* Per instruction refused because of an operand's form: that operand's pool index
     * (named in the diagnostic), else ISA_NONE; NULL when no instruction was. */
    uint32_t         *why;
    /* Per instruction, what the statistics count (exec/stats/); made by the first launch
     * with statistics on, NULL before. */
    struct ex_sinfo  *sinfo;
    /* Per instruction (flow/reconv.c): a divergent branch's join, the first instruction
     * all its paths meet at (ISA_NONE: none, or not a branch); whether a backward branch
     * closes a loop that yields to the lanes waiting at a join. */
    uint32_t         *join_at;
    uint8_t          *yields;        /* bit 0: the loop yields; EX_ARMS_INSIDE: a forward
                                        branch whose arms stay inside its region */
} ex_func_t;

/* One register-plus-immediate sum: dst = src + imm in w bytes per lane, every lane. */
typedef struct ex_preadd {
    uint32_t dst, src;  /* frame slots */
    uint8_t  w;         /* 1, 2, 4 or 8 */
    uint64_t imm;
} ex_preadd_t;

/* A frame slot whose value is known only when the frame is created. */
/* FX_MLOCAL: a module-scope .local variable (PTX before 3.0): the same place in every
 * activation of a thread, below the entry's frame. */
typedef enum { FX_LOCAL, FX_SHARED, FX_GLOBAL, FX_CONST, FX_KPARAM, FX_FUNC, FX_MLOCAL } ex_fixkind_t;
typedef struct ex_fixup {
    uint32_t slot;      /* frame offset (a 64-bit or 32-bit slot) */
    uint8_t  kind;      /* ex_fixkind_t */
    uint8_t  bytes;     /* slot width: 4 or 8 */
    uint64_t value;     /* offset within the space (added to the space's base) */
} ex_fixup_t;

/*{=====================================================================
 * The device (device.c)
 *====================================================================*/
#define EX_MAX_WORKERS   256
#define EX_MAX_OBSERVERS 8

/* The allocation registry's published array: ranges sorted by base. */
typedef struct ex_ranges {
    uint32_t          n;
    struct ex_ranges *next;     /* on the list of replaced arrays */
    struct ex_range { uintptr_t base, end; } r[];
} ex_ranges_t;

/* A worker ("SM"): the launching thread (index 0) or a pool thread.  It keeps its
 * resident-CTA slots (warps, frames, shared and local memory) from launch to launch
 * while the program, entry, block shape and shared size stay the same. */
typedef struct ex_worker {
    struct ex_device *dev;
    unsigned          index;
    pthread_t         thread;
    bool              started;
    struct ex_cta   **slot;
    uint32_t          nslot;
    /* what the slots were made for */
    const struct ex_program *key_p;
    uint32_t          key_entry, key_block[3], key_shared;
    bool              key_local;
} ex_worker_t;

struct ex_device {
    unsigned          nworkers;
    bool              no_inline;        /* ex_device_config_t's */
    bool              exact_bounds;     /* ex_device_config_t's */
    ex_worker_t      *wk;               /* [nworkers] */
    /* the allocation registry */
    _Atomic(ex_ranges_t *) ranges;
    _Atomic(ex_ranges_t *) retired;     /* replaced arrays, freed when no reader is counted */
    pthread_mutex_t   reg_lock;
    atomic_uint       launches;         /* readers of the registry: launches in progress, lookups */
    /* launches: one at a time */
    pthread_mutex_t   launch_lock;
    _Atomic uint64_t  nlaunch;          /* launches so far: %gridid of the next is nlaunch + 1 */
    ex_observer_t     obs[EX_MAX_OBSERVERS];
    unsigned          nobs;
    /* the pool */
    pthread_mutex_t   pool_lock;
    pthread_cond_t    work_cv, done_cv;
    uint64_t          gen;              /* jobs posted */
    void             *job;
    void            (*run)(void *job, ex_worker_t *wk);
    unsigned          want, running;
    bool              quit;
    uint64_t          threads_started;
    /* device services (exec/svc/): the printf FIFO and its text, the heap */
    pthread_mutex_t   svc_lock;
    char             *printf_buf;       /* text of the records kept: [printf_start, printf_len) */
    size_t            printf_start, printf_len, printf_cap;
    struct ex_prec { uint32_t len, bytes; } *printf_rec;  /* the records kept, oldest first */
    size_t            printf_head, printf_nrec, printf_caprec;
    uint64_t          printf_fifo;      /* the FIFO's bytes (cudaLimitPrintfFifoSize) */
    uint64_t          printf_used;      /* FIFO bytes of the records kept */
    uint64_t          printf_dropped;   /* records dropped (the FIFO was full) */
    char             *assert_buf;       /* assertion messages not taken yet */
    size_t            assert_len;
    struct ex_heap   *heap;             /* made at the first malloc */
    _Atomic uint64_t  pmevents[16];     /* pmevent counts (per warp instruction) */
    uint64_t          heap_size;        /* cudaLimitMallocHeapSize */
    struct ex_textab *tex;              /* texture and surface objects (exec/tex/), made at the first */
    struct ex_cdp_chunk { uint8_t *mem; size_t size, used; struct ex_cdp_chunk *next; } *cdp_chunks;
                                        /* dynamic parallelism's parameter buffers (svc/cdp.c) */
    _Atomic uint64_t  cdp_streams;      /* device-side streams made */
    bool              stats;            /* launches count statistics (ex_device_set_stats) */
};
typedef struct ex_heap ex_heap_t;


/* Run job on n workers (the calling thread is worker 0), starting pool threads as
 * needed; returns when all are done.  The number of workers that ran. */
unsigned ex_device_run(ex_device_t *d, unsigned n, void (*run)(void *job, ex_worker_t *wk), void *job);
/* ex_device_lookup for a reader already counted (a launch's warps). */
bool     ex_device_find(ex_device_t *d, uint64_t addr, uint64_t *lo, uint64_t *hi);
/* A launch in progress holds the registry's arrays (see device.c). */
void     ex_device_launch_begin(ex_device_t *d);
void     ex_device_launch_end(ex_device_t *d);
/* Free a worker's cached CTA slots (interp.c). */
void     ex_worker_flush(ex_worker_t *wk);
/*}=====================================================================*/

struct ex_program {
    ex_device_t        *dev;
    const isa_module_t *m;
    ex_func_t          *funcs;
    /* module memory */
    uint8_t            *mem;            /* the module's memory (host memory, mmap'd): the .const
                                           bank, then the .global variables */
    size_t              mem_size;
    uint64_t           *global_addr;    /* per module var: its address in its space */
    uint8_t            *consts;         /* the .const bank (at mem) */
    uint32_t            consts_size;
    uint64_t            shared_static;  /* bytes of the .shared variables of every function and the module */
    uint32_t            module_local;   /* bytes per thread of module-scope .local variables (PTX before
                                           3.0), at the bottom of its local memory; frames start above */
    bool                mem_mapped;     /* mem is in the registry whole (else range by range) */
    uint8_t            *entry_local;    /* per function: 1 when its call graph uses .local
                                           (an indirect call counts every function) */
    uint64_t           *entry_shared;   /* per function: 1 + its static shared bytes once
                                           counted (limits.c), else 0; [nfunc]: 1 once every
                                           entry's was found within the limit */
    /* The module's .texref, .surfref and .samplerref variables (8 bytes of global memory
     * each, holding the handle of the object bound to them), by address: an instruction
     * naming one (or a register holding its address) uses the object bound to it. */
    uint32_t            nrefs;
    struct ex_ref { uint64_t addr, end; uint32_t var; } *refs;
};

/* A call context: the lanes executing one function activation of a warp.  A warp's
 * activations form a tree kept in an array (w->ctx, in the order they were made): a call
 * made by part of the warp leaves the caller's other lanes free to run, and to call
 * functions of their own, while the callee's lanes wait (at a collective, say). */
#define EX_NJOIN 8     /* nested joins an activation tracks (deeper ones meet by counter order) */
#define EX_ARMS_INSIDE 2 /* ex_func_t.yields: the branch's arms stay between it and its join */
#define EX_NDEFER 4    /* arms waiting in turn (more: the last one holds them all) */
typedef struct ex_ctx {
    ex_func_t  *fn;
    uint8_t    *frame;
    uint32_t    members;       /* lanes inside this activation (not exited, not returned) */
    uint32_t    inside;        /* members that are inside a call made from here */
    uint32_t    parent;        /* index of the caller's activation in w->ctx */
    uint32_t    pc[ISA_LANES]; /* per-lane next instruction */
    uint32_t    ret_pc;        /* caller's instruction after the call */
    uint32_t    caller_members;/* lanes of the caller that made the call */
    const ex_insn_t *call;     /* the call instruction (return-value copy) */
    uint32_t    local_base;    /* this activation's local frame (per thread offset) */
    uint32_t    sp_row;        /* its row of w->sp (warps with local memory) */
    /* Reconvergence (flow/reconv.c, interp.c): the joins its lanes split before, innermost
     * last, each with the lanes that meet there and those of them that arrived; lanes
     * that reached their join and wait for the others are parked (they do not run until
     * the join completes). */
    uint32_t    parked;
    uint32_t    njoin;
    /* Arms that run second (lanes), each held back while lanes not held back are between
     * its branch (from) and the branch's join, the latest first (interp.c, join_defer) */
    uint32_t    ndefer;
    struct ex_join { uint32_t pc, members, arrived; } join[EX_NJOIN];
    struct ex_defer { uint32_t lanes, from; } defer[EX_NDEFER];
} ex_ctx_t;

#define EX_MAX_DEPTH 64

/*{=====================================================================
 * Barriers (interp.c).  Arrival is counted per warp, as measured on an H100/H200:
 * a warp arrives at barrier k when every one of its non-exited lanes has executed a
 * bar/barrier instruction on k (from any program counter), and then counts as 32
 * threads.  A barrier without a thread count completes when every warp that still
 * has live lanes arrived; one with a count b when b / 32 warps arrived.
 *====================================================================*/
#define EX_NBAR   EX_M_CTA_BARRIERS /* barrier ids 0..15 */
#define EX_WSYNC  EX_NBAR           /* wait_bar of a lane blocked at bar.warp.sync */
#define EX_WCOLL  (EX_NBAR + 1)     /* wait_bar of a lane blocked at a warp collective */
#define EX_WCLUSTER (EX_NBAR + 2)   /* wait_bar of a lane blocked at barrier.cluster.wait */
/* x->aux of barrier.cluster */
enum { EX_CBAR_ARRIVE, EX_CBAR_WAIT };
/* x->aux of a barrier instruction: what it does. */
enum { EX_BAR_SYNC, EX_BAR_ARRIVE, EX_BAR_POPC, EX_BAR_AND, EX_BAR_OR };
/* x->aux of an indirect call (a direct call holds the callee's function index). */
#define EX_CALL_INDIRECT UINT64_MAX

typedef struct {
    uint32_t expected;      /* threads wanted (a multiple of 32); 0: every live warp */
    uint32_t nwarps;        /* warps counted as arrived */
    uint32_t nthreads;      /* threads that arrived (the and-reduction's total) */
    uint32_t popc;          /* arrived threads whose predicate was true */
} ex_bar_t;
/*}=====================================================================*/

typedef struct ex_cta ex_cta_t;

/* A registered global range, cached by the load/store fast paths. */
#define EX_GCACHE 8
typedef struct { uint64_t lo, hi; } ex_grange_t;

typedef struct ex_warp {
    uint8_t    *frame0;          /* the entry's frame, reused from CTA to CTA */
    const void *frame0_fn;       /* the function whose constants frame0 holds (NULL: none yet) */
    uint32_t    frame0_sbase;    /* and the shared base they were relocated to */
    ex_cta_t   *cta;
    uint32_t    id;              /* warp index in the CTA */
    uint32_t    valid;           /* lanes that are threads */
    uint32_t    alive;           /* lanes that have not exited */
    uint32_t    waiting;         /* lanes blocked at a barrier or bar.warp.sync */
    /* The group a quantum's end interrupted, resumed without a new selection when nothing
     * about the warp's ready lanes changed meanwhile (res_ok). */
    bool        res_ok;
    bool        outward;         /* a loop in a call yielded: its callers' lanes run next */
    uint32_t    res_cur, res_g, res_pc, res_join, res_ojoin, res_ready;
    uint32_t    bar_arrived[EX_NBAR]; /* lanes that arrived at barrier k in its current phase */
    uint32_t    bar_counted;     /* barriers at which this warp counts as arrived */
    uint32_t    red_lanes;       /* lanes waiting at a bar.red (wait_insn holds it) */
    uint32_t    wait_other;      /* lanes that did a bar.arrive (may wait at another barrier) */
    uint32_t    cbar_arrived;    /* lanes that arrived at the cluster barrier in its current phase */
    uint32_t    cbar_live;       /* lanes the cluster barrier counts as live (not exited) */
    uint8_t     wait_bar[ISA_LANES];  /* what a waiting lane waits for: a barrier id, EX_WSYNC or EX_WCOLL */
    uint32_t    wsync_mask[ISA_LANES];/* the member mask of a lane waiting at bar.warp.sync or a collective */
    const ex_insn_t *wait_insn[ISA_LANES]; /* bar.red, bar.warp.sync, a collective: the instruction */
    uint8_t    *wait_frame[ISA_LANES];
    uint32_t    jump[ISA_LANES]; /* per-lane targets of brx.idx and indirect calls */
    uint64_t    clock_last;      /* the last %clock64 read (reads strictly increase) */
    uint32_t    depth;           /* activations in ctx */
    uint32_t    cur;             /* the activation running now (ex_top) */
    ex_ctx_t    ctx[EX_MAX_DEPTH];
    uint32_t    tid[3][ISA_LANES];
    uint32_t    tid_valid;       /* valid lanes of this warp index (with tid, once per worker) */
    uint8_t     tid_ready;
    uint8_t    *local;           /* per-lane local memory: lane l at local + l * local_bytes */
    uint32_t    local_bytes;
    uint32_t    local_top;       /* next free local offset (the stack) */
    /* Per activation (its sp_row) and lane, the stack pointer of alloca: a local offset,
     * the allocations lie above it (the stack grows down; mem/stack.c).  Rows in use:
     * sp_used.  Only warps with local memory have it (NULL otherwise). */
    uint32_t  (*sp)[ISA_LANES];
    uint64_t    sp_used;
    uint64_t    backjumps;       /* for starvation avoidance: of the lanes in spin_g */
    uint32_t    spin_g;          /* the lanes of the groups that jumped back since the count began */
    uint32_t    last_g, last_pc; /* the group that ran last and where it stopped: when it was
                                    preempted for spinning, another group runs next */
    ex_grange_t gcache[EX_GCACHE];  /* global ranges last accessed, by instruction */
    /* fault report */
    int         fault_lane;
    uint8_t     fault_kind;      /* ex_fault_kind_t */
    uint64_t    fault_addr;
    const char *fault_what;
    const ex_insn_t *fault_insn;
    char        fault_buf[192];  /* a fault message composed at run time */
    uint64_t    ninstr, nlane_instr;
    /* Polls: strong loads of global memory, compare-and-swap and exchange on it, nanosleep
     * (what a warp waiting for another CTA executes); each costs its CTA EX_POLL_COST
     * warp instructions of its time slice (interp.c: cta_step). */
    uint64_t    polls;
    /* The warp's runnable lanes all spin in a loop that only an mbarrier phase completing
     * can end (exec/sync/async.c): the wait that last failed, and where its barrier is. */
    bool        mb_stuck;
    uint32_t    mb_passed;       /* waits that let lanes on (the deadlock check's progress) */
    const ex_insn_t *mb_wait;
    uint64_t   *mb_obj;
    uint32_t    mb_want;         /* the parity of the phase waited for */
    /* Frames of returned calls kept for the next calls (interp.c: frame_new, frame_drop):
     * a call in a loop allocates nothing. */
    struct { uint8_t *p; uint32_t cap; } fcache[4];
} ex_warp_t;

/* Dynamic parallelism (svc/cdp.c): the grids a grid's threads launched, in order. */
typedef struct {
    uint32_t entry, grid[3], block[3], shared;
    uint64_t buf;                 /* the parameter buffer GetParameterBuffer gave */
    size_t   psize;
    uint8_t *params;              /* the arguments, copied at the launch */
    uint8_t  launched, tail;      /* launched; into cudaStreamTailLaunch */
    uint8_t  op;                  /* EX_KID_GRID, _COPY (dst buf, src grid[0..1] as a
                                   * 64-bit address, psize bytes), _SET (value shared) */
} ex_kid_t;
enum { EX_KID_GRID, EX_KID_COPY, EX_KID_SET };
typedef struct {
    pthread_mutex_t lock;
    ex_kid_t *v;
    size_t    n, cap, launched;
} ex_kids_t;
#define EX_CDP_TAIL_LAUNCH 3      /* cudaStreamTailLaunch's handle */
void     ex_kids_init(ex_kids_t *k);
void     ex_kids_free(ex_kids_t *k);
void     ex_cdp_release(ex_device_t *d);
uint64_t ex_cdp_param_buffer(ex_warp_t *w, uint64_t func, const uint32_t grid[3], const uint32_t block[3],
                             uint32_t shared);
uint32_t ex_cdp_launch(ex_warp_t *w, uint64_t buf, uint64_t stream);
/* cudaMemcpyAsync / cudaMemsetAsync in a kernel: queued with the launches, in order;
 * ex_cdp_run_copy does one (false with the reason in msg for memory outside every
 * allocation). */
bool     ex_cdp_run_copy(ex_program_t *p, const ex_kid_t *e, char *msg, size_t size);
uint64_t ex_cdp_error_string(ex_device_t *d, uint32_t err);
uint32_t ex_cdp_copy(ex_warp_t *w, uint64_t dst, uint64_t src, uint64_t bytes, bool set, uint32_t value,
                     uint64_t stream);

/* A cluster: CTAs resident together on one worker, by rank (a launch without clusters
 * has clusters of one CTA), and its barrier (barrier.cluster): it completes when every
 * live thread of the cluster arrived. */
typedef struct {
    uint32_t          n;             /* CTAs */
    ex_cta_t         *cta[EX_M_CLUSTER_CTAS_MAX];
    uint32_t          live;          /* threads that have not exited */
    uint32_t          pending;       /* live threads yet to arrive in the current phase */
    uint32_t          phase;         /* phases completed */
} ex_cluster_t;

struct ex_cta {
    ex_program_t     *p;
    const ex_launch_t *l;
    uint32_t          ctaid[3];
    uint32_t          clusterid[3];  /* the cluster's index in the grid of clusters */
    uint32_t          cluster_ctaid[3]; /* the CTA's index in its cluster */
    uint32_t          rank;          /* %cluster_ctarank */
    uint32_t          cdim[3];       /* %cluster_nctaid */
    uint8_t           explicit_cluster; /* %is_explicit_cluster */
    uint32_t          shared_base;   /* its shared addresses: rank << 24, as the H100's */
    ex_cluster_t     *cluster;       /* the cluster (the first CTA's clu) */
    ex_kids_t        *kids;          /* the grids its threads launch (dynamic parallelism) */
    uint32_t          cdp_err;       /* the device runtime's last error (cudaGetLastError) */
    ex_cluster_t      clu;           /* a unit's first CTA holds the cluster */
    uint32_t          nthreads;
    uint32_t          nwarps;
    ex_warp_t        *warps;
    uint8_t          *shared;
    uint32_t          shared_size;
    const uint8_t    *params;
    size_t            params_size;
    ex_bar_t          bar[EX_NBAR];
    uint32_t          exited;        /* threads that exited */
    uint32_t          worker;        /* the host worker running the CTA (%smid) */
    uint64_t          clock_base;    /* %clock64 at the CTA's start: the worker's clock */
    uint64_t          gridid;        /* %gridid of the launch */
    uint64_t          grid_ws;       /* the cooperative launch's grid workspace, or 0 */
    /* With statistics on: the worker's counters and the L1 of the CTA's SM (stats/model.c). */
    struct ex_wstats *ws;
    struct ex_l1     *l1;
};
/* Bytes of a cooperative launch's grid workspace. */
#define EX_GRID_WS 64

/* Memory (mem.c): translate a lane's address in a space to host memory, checking
 * bounds and alignment; NULL after recording the fault in the warp. */
void *ex_mem(ex_warp_t *w, unsigned lane, isa_space_t sp, uint64_t addr, unsigned bytes,
             const ex_insn_t *in);
bool  ex_global_ok(ex_program_t *p, uintptr_t a, size_t bytes);
/* The registered range holding address a, as [lo, hi). */
static inline bool ex_global_range(ex_program_t *p, uintptr_t a, uint64_t *out_lo, uint64_t *out_hi)
{
    return ex_device_find(p->dev, a, out_lo, out_hi);   /* the launch counts as the reader */
}

/* Whether entry's call graph uses .local (cached in p->entry_local; interp.c). */
bool ex_entry_uses_local(ex_program_t *p, uint32_t entry);

/* The global fast paths (ld_st.c, atomic.c): whether the lanes' addresses (the 64-bit
 * register x->o[4] plus x->imm) span one registered global range, aligned to bytes; the
 * addresses are left in addr for the access.  A small per-warp cache, by instruction,
 * holds the range each instruction used last. */
static inline __attribute__((always_inline)) bool ex_warp_global_ok(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask,
                                     unsigned bytes, uint64_t *addr)
{
    const uint64_t *b = ISA_SLOT(const uint64_t, f, x->o[4]);
    uint64_t imm = (uint64_t)x->imm, lo = UINT64_MAX, hi = 0, bits = 0;
    /* The range this instruction used last (a small cache per warp, by instruction). */
    ex_grange_t *gc = &w->gcache[((uintptr_t)x / sizeof *x) % EX_GCACHE];
    uint64_t span = gc->hi - gc->lo;
    if (mask == ISA_FULL && span >= bytes && span - bytes < 0x80000000u) {
        /* Arithmetic that vectorises: every offset from the range's base must fit in 32
         * bits and stay below its end. */
        uint64_t glo = gc->lo, high = 0;
        uint32_t lim = (uint32_t)(span - bytes), over = 0, low = 0;
        for (unsigned l = 0; l < ISA_LANES; l++) {
            uint64_t a = b[l] + imm;
            uint64_t d = a - glo;
            addr[l] = a;
            high |= d >> 32;
            over |= (uint32_t)((uint32_t)d > lim);
            low |= (uint32_t)a;
        }
        if (!high && !over && !(low & (bytes - 1)))
            return true;
    }
    if (mask == ISA_FULL) {
        for (unsigned l = 0; l < ISA_LANES; l++) {
            uint64_t a = b[l] + imm;
            addr[l] = a;
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            bits |= a;
        }
    } else {
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint64_t a = b[l] + imm;
            addr[l] = a;
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            bits |= a;
        }
    }
    if (bits & (bytes - 1))
        return false;
    if (lo >= gc->lo && hi + bytes <= gc->hi)
        return true;
    if (!ex_global_range(w->cta->p, (uintptr_t)lo, &gc->lo, &gc->hi))
        return false;
    return hi + bytes <= gc->hi;
}

/* Pre-decoding (predecode.c). */
bool ex_predecode(ex_program_t *p, uint32_t fi);

/* Selectors for the instructions that need the warp or memory (ld_st.c, atomic.c, mov.c,
 * ctrl.c),
 * called by pre-decoding with its state pd; ex_pd_operand gives a source operand's
 * frame slot (register, constant or address constant), ISA_NONE for other forms. */
bool     ex_select_mem(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
bool     ex_select_mov(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
/* Contraction (contract.c): per add or sub instruction, the mul ptxas fuses into it
 * (mul[i], ISA_NONE if none) and which of its operands holds that mul's value (opd[i]
 * bits 0-1: 1 or 2; bit 2: negated, through an odd number of negs); per mul, the sources it must keep a copy of for the adds (keep[j]: bit 0 a, bit 1
 * b), their registers being written before an add it fuses into runs. */
typedef struct {
    uint32_t *mul;
    uint8_t  *opd, *keep;
} ex_contract_t;
bool     ex_contract_plan(const isa_func_t *fn, const uint8_t *lead, ex_contract_t *c);

/* The control-flow graph of a function's body (flow/cfg.c): blocks begin at the start, at
 * labels, after branches, calls, ret, exit and trap, and where extra[i] is set (may be
 * NULL); with EX_CFG_EXIT, node nb is one exit that ret, exit, trap and the body's end
 * lead to (with EX_CFG_LANES_LEAVE an exit or ret that only some lanes take leads
 * nowhere).
 * Node v's successors are succ[succ_at[v] .. succ_at[v + 1]), its predecessors
 * pred[pred_at[v] .. pred_at[v + 1]). */
typedef struct {
    uint32_t  n, nb;            /* instructions; blocks */
    bool      exit, lanes_leave, fold;
    uint32_t *bof, *bstart;     /* block of each instruction; first instruction of each block ([nb] = n) */
    uint32_t *succ_at, *succ;
    uint32_t *pred_at, *pred;
} ex_cfg_t;
/* EX_CFG_FOLD: a branch, ret or exit whose guard is known (set in its block from a
 * register whose range decides the comparison, as ptxas folds it) is taken as always or
 * never running. */
enum { EX_CFG_EXIT = 1, EX_CFG_LANES_LEAVE = 2, EX_CFG_FOLD = 4 };
bool     ex_cfg_build(ex_cfg_t *g, const isa_func_t *fn, const uint8_t *extra, unsigned flags);
void     ex_cfg_free(ex_cfg_t *g);
/* Where each conditional branch's lanes meet again (f->join_at) and which backward branches
 * let waiting lanes run (f->yields): flow/reconv.c. */
bool     ex_reconv_plan(const ex_program_t *p, ex_func_t *f);
/* What a warp spinning on an mbarrier (w->mb_stuck) waits for, for deadlock reports. */
void     ex_mb_describe(const ex_warp_t *w, char *out, size_t size);
void     ex_contract_free(ex_contract_t *c);
/* The registers an instruction reads (its guard too: opd ISA_NONE) and those it may write
 * (a destination, or any register operand of an instruction whose operands have no fixed
 * roles), each mention with its operand's index in the function's pool (contract.c). */
typedef void (*ex_reg_fn)(void *ctx, uint32_t reg, uint32_t opd);
void     ex_each_read(const isa_func_t *fn, const isa_instr_t *in, ex_reg_fn f, void *c);
void     ex_each_write(const isa_func_t *fn, const isa_instr_t *in, ex_reg_fn f, void *c);
/* Whether in may write register r (ex_each_write). */
bool     ex_writes(const isa_func_t *fn, const isa_instr_t *in, uint32_t r);
/* Inlining (inline.c): fi's body with the direct calls of small leaf functions expanded
 * in place, or NULL when none qualifies (or host memory ran out); freed by
 * ex_inline_free.  *lead (malloc'ed, ninstr + 1) marks the instructions that start a basic
 * block for the contraction plan beyond the body's own (where a call's body begins and
 * after it ends).  The callees must have been pre-decoded. */
isa_func_t *ex_inline(const ex_program_t *p, uint32_t fi, uint8_t **lead);
void        ex_inline_free(isa_func_t *f);
bool     ex_select_ctrl(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
/* Where a call value lives in a frame, per lane: element k of lane l at
 * slot + k * eb * 32 + l * eb.  A .param area is one element of its size, a register
 * one element of its width, a vector register vec elements. */
typedef struct ex_cloc { uint32_t slot, eb, ne; } ex_cloc_t;
/* Fill f->formal and f->actual (allocated by pre-decoding, after its slots are final), so
 * that a call copies its values without looking anything up (ctrl.c). */
void     ex_call_locs(ex_func_t *f);
bool     ex_select_warp(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
bool     ex_select_atom(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
bool     ex_select_async(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);   /* sync/async.c */
bool     ex_select_wmma(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);    /* warp/wmma.c */
bool     ex_select_stack(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
bool     ex_select_policy(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
uint32_t ex_pd_operand(void *pd, const isa_operand_t *o, unsigned w);
/* An address operand ([r+imm], [var+imm], [imm]) of an instruction of state space spi (an
 * isa_space_t, -1 for none) at pre-decode (mem.c): the register's slot (ISA_NONE: the
 * offset alone; a variable's address is a constant slot), whether the register has 32
 * bits, the offset, and the space's window (EX_SP_GENERIC without one; a variable's own
 * space for a generic access to it).  False for an address list, another base, or a
 * space other than global and shared memory.  ex_addr_lane: lane l's address (32-bit
 * registers wrap at 32 bits). */
/* What a selector that refuses x leaves: no handler, and the fields a handler reads cleared
 * (the pre-decoded guard and IR stay). */
static inline void ex_insn_unselect(ex_insn_t *x)
{
    x->desc = NULL;
    x->flags = 0;
    x->aux = 0;
    x->imm = 0;
    x->vec = 0;
    x->width = 0;
    x->target = 0;
    for (unsigned k = 0; k < 6; k++)
        x->o[k] = ISA_NONE;
}
#define EX_SP_GENERIC 0xff
typedef struct {
    uint32_t slot;
    bool     b32;
    int64_t  off;
    uint8_t  space;
} ex_addrop_t;
bool ex_pd_address(void *pd, ex_func_t *f, const isa_operand_t *o, int spi, ex_addrop_t *a);
static inline uint64_t ex_addr_lane(const uint8_t *f, uint32_t slot, bool b32, int64_t off, unsigned l)
{
    if (slot == ISA_NONE)
        return (uint64_t)off;
    if (b32)
        return (uint32_t)(ISA_SLOT(const uint32_t, f, slot)[l] + (uint32_t)off);
    return ISA_SLOT(const uint64_t, f, slot)[l] + (uint64_t)off;
}
/* A call's arguments into the callee's new frame, and its results back (ctrl.c). */
void     ex_call_args(const ex_ctx_t *caller, const ex_insn_t *x, const ex_func_t *callee, uint8_t *fr,
                      uint32_t mask);
void     ex_call_rets(const ex_ctx_t *caller, const ex_ctx_t *cx, uint32_t mask);
/* A register operand's slot and width, a vector register's component (%v.x) resolved
 * to its element (predecode.c); ex_reg_width gives 0xff where there is no such slot. */
uint32_t ex_reg_operand(const ex_func_t *f, const isa_operand_t *o, unsigned *width);
unsigned ex_reg_width(const ex_func_t *f, const isa_operand_t *o);

/* The states warp_run reports: runnable (more to run), blocked (every live lane of the
 * current activation waits), done (every lane exited), fault (recorded in the warp). */
enum { W_RUNNABLE, W_BLOCKED, W_DONE, W_FAULT };

/* Record a fault of the lanes in mask at instruction x (then a handler returns ISA_X_FAULT,
 * warp_run W_FAULT: the two codes differ, so these return nothing). */
static inline void ex_set_fault_k(ex_warp_t *w, const ex_insn_t *x, uint32_t mask, ex_fault_kind_t kind,
                                  const char *what)
{
    w->fault_kind = (uint8_t)kind;
    w->fault_lane = mask ? (int)__builtin_ctz(mask) : 0;
    w->fault_addr = 0;
    w->fault_what = what;
    w->fault_insn = x;
}
/* The same for an instruction that cannot execute as it stands (EX_FAULT_ILLEGAL). */
static inline void ex_set_fault(ex_warp_t *w, const ex_insn_t *x, uint32_t mask, const char *what)
{
    ex_set_fault_k(w, x, mask, EX_FAULT_ILLEGAL, what);
}

/* The lanes of mask left out of their own member mask (mm[l], per lane) where the lanes'
 * masks differ: there the H100 stops the kernel (CUDA_ERROR_ILLEGAL_INSTRUCTION, measured
 * for vote, shfl, match, redux and bar.warp.sync: ptxas guards a mask that may differ
 * between lanes with a WARPSYNC, which traps for a lane outside its own mask; lanes that
 * all give one mask take a path without it, which runs the lanes outside it too). */
static inline uint32_t ex_mask_outcasts(const uint32_t *mm, uint32_t mask)
{
    uint32_t m0 = mm[__builtin_ctz(mask)], diff = 0, self = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        diff |= mm[l] ^ m0;
        self |= (mm[l] >> l & 1u) << l;
    }
    return diff ? mask & ~self : 0;
}

/* 16-byte accesses no other thread sees in part (atomic.c: a double-width compare-and-swap,
 * or a lock where the host has none); src/dst 16-byte aligned. */
void ex_load16_atomic(void *dst, void *src);
void ex_store16_atomic(void *dst, const void *src);

/* The waiter (wait.c).  ex_wait takes an instruction whose handler returned a block
 * status st (ISA_X_BARRIER .. ISA_X_CLUSTER) for the lanes in mask:
 * EX_WAIT_PASS (they go on to the next instruction), EX_WAIT_BLOCK (they wait, and
 * resume after it when woken) or EX_WAIT_FAULT (recorded).  ex_wait_exited: lanes of w
 * exited, which may complete waits.  ex_wait_deadlock: the fault message of a CTA where no warp can progress, on
 * w; ex_wait_describe: what lane l of w waits for, into out, and the instruction it waits
 * at (NULL when it does not wait). */
enum { EX_WAIT_PASS, EX_WAIT_BLOCK, EX_WAIT_FAULT };
int  ex_wait(ex_warp_t *w, uint8_t *f, const ex_insn_t *x, uint32_t mask, int st);
void ex_wait_exited(ex_warp_t *w);
void ex_wait_deadlock(ex_cta_t *c, ex_warp_t *w);
const ex_insn_t *ex_wait_describe(ex_cta_t *c, ex_warp_t *w, unsigned l, char *out, size_t size);

/* Warp collectives (exec/warp/collective.c): run the collective that the lanes in mask of
 * w wait at, each lane l at its instruction xs[l] with its frame fs[l] (the waiter calls
 * it once every member arrived). */
void ex_coll_exec(ex_warp_t *w, uint32_t lanes, const ex_insn_t *const *xs, uint8_t *const *fs);

/* The activation running now. */
static inline ex_ctx_t *ex_top(ex_warp_t *w) { return &w->ctx[w->cur]; }

/* The lanes of activation cx that execute in it (not inside a call made from it). */
static inline uint32_t ex_ctx_own(const ex_warp_t *w, const ex_ctx_t *cx)
{
    return cx->members & ~cx->inside & w->alive;
}

/* The activation lane l executes in (the innermost that holds it), or NULL. */
static inline const ex_ctx_t *ex_lane_ctx(const ex_warp_t *w, unsigned l)
{
    for (uint32_t i = w->depth; i-- > 0;)
        if ((ex_ctx_own(w, &w->ctx[i]) >> l) & 1)
            return &w->ctx[i];
    return NULL;
}

/* Services (exec/svc/), called by the call handler for the lanes of a warp in lane order.
 * ex_svc_printf: format and queue one lane's printf; the count of arguments the format
 * used (-1 for a NULL format), INT32_MIN when an address faulted (recorded in w).
 * ex_svc_malloc / ex_svc_free: the heap (free returns the first lane whose pointer is no
 * block in use, 0xff when none).  ex_svc_assert: the message of a failed assertion; false
 * when an address faulted. */
int      ex_svc_printf(ex_warp_t *w, unsigned lane, const isa_xinsn_t *x, uint64_t fmt, uint64_t args);
void     ex_svc_malloc(ex_device_t *d, const uint64_t *size, uint64_t *out, uint32_t mask);
unsigned ex_svc_free(ex_device_t *d, const uint64_t *ptr, uint32_t mask);
bool     ex_svc_assert(ex_warp_t *w, unsigned lane, const isa_xinsn_t *x, uint64_t msg, uint64_t file, uint32_t line,
                       uint64_t func);
void     ex_heap_free_all(ex_device_t *d);

/*{=====================================================================
 * Statistics (exec/stats/model.c).  A launch with statistics on runs the warps through
 * the counting variant of the warp loop, which calls ex_stats_insn before every issued
 * instruction; the memory instructions (ld, ldu, st, atom, red) keep their address in
 * x->o[4] (ISA_NONE: none) plus x->imm, a 32-bit register when x->flags has
 * EX_ADDR_BASE32, and a per-lane parameter area when it has EX_ADDR_PSYM (ld_st.c,
 * atomic.c).  Each worker counts into its own ex_wstats; the L1 of SM s (CTAs whose
 * linear index is s modulo the SMs) is used by one worker only; the L2 is shared.
 *====================================================================*/
#define EX_ADDR_BASE32 0x20
#define EX_ADDR_PSYM   0x40
enum { EX_SK_NONE, EX_SK_LD, EX_SK_ST, EX_SK_ATOM, EX_SK_RED };
typedef struct ex_sinfo {
    uint8_t kind;      /* EX_SK_* */
    uint8_t space;     /* the instruction's state space (ISA_SP_NONE: generic) */
    uint8_t bytes;     /* bytes per lane */
    uint8_t l1;        /* loads: 0 bypass L1, 1 cached, 2 looked up without allocating */
    uint8_t family;    /* isa_family_t */
    uint8_t branch;    /* bra, brx.idx */
    uint8_t barrier;   /* bar, barrier */
    int16_t adj;       /* a load or store ptxas widens (model.c, vectorise): the widened
                          access starts adj bytes from this one's address */
} ex_sinfo_t;
typedef struct ex_wstats ex_wstats_t;
typedef struct ex_smodel ex_smodel_t;
/* A launch's model (NULL and false when host memory runs out). */
ex_smodel_t *ex_smodel_new(ex_program_t *p, uint32_t entry, const ex_launch_t *l, unsigned workers);
bool         ex_stats_prepare(ex_program_t *p);   /* every function's sinfo */
ex_wstats_t *ex_smodel_worker(ex_smodel_t *m, unsigned worker);
struct ex_l1 *ex_smodel_l1(ex_smodel_t *m, uint64_t cta);
/* Sum the workers' counts into out, and free the model. */
void         ex_smodel_finish(ex_smodel_t *m, ex_launch_stats_t *out);
/* An issued instruction x of function fn at pc, group g, guard-true lanes mask. */
void         ex_stats_insn(ex_warp_t *w, const uint8_t *f, const ex_insn_t *x, const ex_sinfo_t *si,
                           uint32_t g, uint32_t mask);
/*}=====================================================================*/

#endif
