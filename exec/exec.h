/* exec.h: the public interface of libexec, the interpreter: pre-decode a module once,
 * then launch its entries on the emulated GPU. */
#ifndef PTXEMU_EXEC_H
#define PTXEMU_EXEC_H

#include <stdio.h>
#include "isa/isa.h"

typedef struct ex_device  ex_device_t;
typedef struct ex_program ex_program_t;

/*{=====================================================================
 * The device: the emulated GPU, separate from what is loaded on it.  It owns the
 * allocation registry (the global memory kernels may access), the programs loaded on it,
 * a pool of worker threads that persists across launches (with each worker's resident
 * CTAs, frames and local memory, reused from launch to launch), the launch observers and
 * the machine's facts (exec/machine.def).  One launch runs at a time per device; a
 * launch from another thread waits for the one in progress.
 *====================================================================*/
typedef struct {
    unsigned workers;   /* host threads that run a launch's CTAs, the launching thread included,
                           unless the launch asks for another number (up to 256); 0: one per core */
    bool     no_inline; /* every call builds an activation, as written (by default small leaf
                           functions are expanded into their callers: docs/execution.md) */
    bool     exact_bounds;   /* a module's variables are global memory each exactly, not with
                                the padding and the rest of the mapped segment around them
                                that kernels may touch on the GPU (docs/execution.md) */
} ex_device_config_t;

/* NULL when host memory runs out.  cfg may be NULL (the defaults). */
ex_device_t *ex_device_new(const ex_device_config_t *cfg);
/* Stops the pool; the programs loaded on d must have been freed. */
void         ex_device_free(ex_device_t *d);
/* Workers of a launch that names none (ex_device_config_t's, resolved). */
unsigned     ex_device_workers(const ex_device_t *d);
/* ex_device_config_t's exact_bounds: allocations and module variables mapped exactly. */
bool         ex_device_exact_bounds(const ex_device_t *d);
/* Host threads the device has started so far (the pool starts once, at the first launch
 * that uses more than one worker). */
uint64_t     ex_device_threads_started(const ex_device_t *d);

/* The allocation registry.  ex_device_map makes [base, base + bytes) global memory for
 * kernels (device addresses are host addresses): ISA_ST_OK, ISA_ST_USAGE when it overlaps
 * a mapped range or is empty, ISA_ST_NOMEM.  ex_device_unmap removes the range that
 * starts at base (ISA_ST_USAGE when none does).  Both may run while another thread
 * launches or looks up: readers see the registry before or after the change, never half
 * of it.  ex_device_lookup: the mapped range holding addr, as [*lo, *hi). */
isa_status_t ex_device_map(ex_device_t *d, void *base, size_t bytes);
isa_status_t ex_device_unmap(ex_device_t *d, void *base);
bool         ex_device_lookup(ex_device_t *d, uint64_t addr, uint64_t *lo, uint64_t *hi);

/* Limits of the device services, as cudaDeviceSetLimit sets them: the printf FIFO
 * (cudaLimitPrintfFifoSize, 1 MiB by default: records beyond it are dropped) and the
 * heap of device malloc (cudaLimitMallocHeapSize, 8 MiB by default; ISA_ST_USAGE once the
 * heap is in use).  The text kernels print with printf, and the messages of failed
 * assertions, collect on the device until the caller takes them (malloc'd, *len bytes,
 * NULL when there is none; *dropped: printf records the FIFO had no room for). */
typedef enum { EX_LIMIT_PRINTF_FIFO, EX_LIMIT_HEAP } ex_limit_t;
#define EX_DEFAULT_PRINTF_FIFO (1u << 20)
#define EX_DEFAULT_HEAP        (8u << 20)
isa_status_t ex_device_set_limit(ex_device_t *d, ex_limit_t which, uint64_t value);
uint64_t     ex_device_limit(ex_device_t *d, ex_limit_t which);
char        *ex_device_printf_take(ex_device_t *d, size_t *len, uint64_t *dropped);
char        *ex_device_assert_take(ex_device_t *d, size_t *len);

/* The device services: functions without a body that a kernel may call (vprintf, malloc,
 * free, __assertfail), served on the host.  Name i, or NULL past the last; a linker lets
 * an .extern .func of these names stay undefined. */
const char  *ex_service_name(unsigned i);

/* Profiler events: how many warps ran pmevent for event i (0..15) on the device so far. */
uint64_t     ex_device_pmevent_count(ex_device_t *d, unsigned i);

/* Launch observers: called on the launching thread before the first CTA runs and after
 * the last one ended (the statistics of a launch come to end).  At most 8 per device;
 * ISA_ST_USAGE beyond. */
struct ex_stats;
typedef struct {
    void (*begin)(void *user, const ex_program_t *p, uint32_t entry);
    void (*end)(void *user, const ex_program_t *p, uint32_t entry, const struct ex_stats *st);
    void *user;
} ex_observer_t;
isa_status_t ex_device_observe(ex_device_t *d, const ex_observer_t *o);
/*}=====================================================================*/

/*{=====================================================================
 * Textures and surfaces (exec/tex/).  A CUDA array (ex_array_t: plain, layered, cube,
 * mipmapped) holds texels in host memory, level after level; a texture object is a
 * resource (an array, a mipmapped array, linear or pitched global memory) with a sampler
 * (ex_tex_desc_t); a surface object is a resource alone.  Objects live in the device's
 * handle table: the 64-bit handle a kernel gets as a .u64 parameter is checked on every
 * use, so a stale or invented handle is a located fault, never a host crash.  The
 * descriptors follow the driver's CUDA_ARRAY3D_DESCRIPTOR, CUDA_RESOURCE_DESC and
 * CUDA_TEXTURE_DESC field by field (the enum values are the driver's where it has them),
 * so that the driver fills them without translation tables.
 *====================================================================*/
/* Element formats (the channel type of CUarray_format). */
typedef enum { EX_FMT_U8, EX_FMT_U16, EX_FMT_U32, EX_FMT_S8, EX_FMT_S16, EX_FMT_S32, EX_FMT_F16, EX_FMT_F32,
               EX_FMT__COUNT } ex_fmt_t;
/* Bytes of one channel of format f. */
unsigned ex_fmt_bytes(ex_fmt_t f);

/* ex_array_desc_t.flags (CUDA_ARRAY3D_LAYERED, _CUBEMAP and _SURFACE_LDST's values). */
enum { EX_ARRAY_LAYERED = 0x01, EX_ARRAY_SURFACE = 0x02, EX_ARRAY_CUBE = 0x04 };
typedef struct {
    uint32_t width, height, depth;  /* texels; 0 for a dimension the array does not have.  With
                                       EX_ARRAY_LAYERED depth is the number of layers (a 1D
                                       layered array has height 0); a cube map has depth 6, a
                                       layered cube map 6 per cube map */
    ex_fmt_t format;
    unsigned channels;              /* 1, 2 or 4 */
    unsigned flags;                 /* EX_ARRAY_* */
    unsigned levels;                /* mipmap levels (a plain array has 1); at most 16 */
} ex_array_desc_t;
typedef struct ex_array ex_array_t;
/* A new array of zeroed texels: ISA_ST_OK; ISA_ST_USAGE for a shape the H100 refuses
 * (a zero width, a cube map that is not square, more levels than the size allows, 3
 * channels...), with the reason in out_msg; ISA_ST_NOMEM. */
isa_status_t ex_array_new(ex_device_t *d, const ex_array_desc_t *desc, ex_array_t **out, char *out_msg,
                          size_t msg_size);
/* Drops the creator's reference: the texels go when no object uses the array any more. */
void         ex_array_free(ex_array_t *a);
const ex_array_desc_t *ex_array_desc(const ex_array_t *a);
/* Level l's texels, x fastest, then y, then z (depth or layer), rows and slices packed;
 * out_extent gets the level's width, height and depth (at least 1 each; layers are not
 * reduced).  NULL for a level the array does not have. */
void        *ex_array_level(ex_array_t *a, unsigned level, uint32_t out_extent[3]);

/* Resources (CUresourcetype's order). */
typedef enum { EX_RES_ARRAY, EX_RES_MIPMAP, EX_RES_LINEAR, EX_RES_PITCH2D } ex_res_kind_t;
typedef struct {
    ex_res_kind_t kind;
    ex_array_t   *array;       /* ARRAY, MIPMAP */
    unsigned      level;       /* ARRAY: the level of array the resource is (one level of a
                                  mipmapped array, as the driver's cuMipmappedArrayGetLevel
                                  hands it out); 0 for a plain array */
    uint64_t      addr;        /* LINEAR, PITCH2D: a global address (in the registry) */
    ex_fmt_t      format;      /* LINEAR, PITCH2D */
    unsigned      channels;
    uint64_t      bytes;       /* LINEAR: size in bytes */
    uint32_t      width, height;  /* PITCH2D: texels */
    uint64_t      pitch;       /* PITCH2D: bytes per row */
} ex_res_desc_t;
/* Address modes and filters (CUaddress_mode, CUfilter_mode). */
typedef enum { EX_ADDR_WRAP, EX_ADDR_CLAMP, EX_ADDR_MIRROR, EX_ADDR_BORDER } ex_addr_t;
typedef enum { EX_FILTER_POINT, EX_FILTER_LINEAR } ex_filter_t;
/* ex_tex_desc_t.flags (CU_TRSF_*): read 8- and 16-bit integers as integers (else as
 * normalized floats), normalized coordinates, sRGB, ... */
enum { EX_TEXF_READ_AS_INTEGER = 0x01, EX_TEXF_NORMALIZED_COORDS = 0x02, EX_TEXF_SRGB = 0x10,
       EX_TEXF_NO_TRILINEAR_OPT = 0x20, EX_TEXF_SEAMLESS_CUBE = 0x40 };
typedef struct {
    ex_addr_t   address[3];
    ex_filter_t filter;
    unsigned    flags;
    unsigned    max_aniso;     /* 0 or 1: isotropic */
    ex_filter_t mip_filter;
    float       lod_bias, min_lod, max_lod;
    float       border[4];
} ex_tex_desc_t;
/* A texture object on resource r sampled as t, or a surface object on r (an array, or
 * one level of a mipmapped array, made with EX_ARRAY_SURFACE): the new handle in *out.
 * ISA_ST_USAGE, with the reason in out_msg, for what the driver refuses (linear memory
 * outside the registry, a surface on a whole mipmapped array, ...); ISA_ST_NOMEM. */
isa_status_t ex_tex_create(ex_device_t *d, const ex_res_desc_t *r, const ex_tex_desc_t *t, uint64_t *out,
                           char *out_msg, size_t msg_size);
isa_status_t ex_surf_create(ex_device_t *d, const ex_res_desc_t *r, uint64_t *out, char *out_msg, size_t msg_size);
/* Destroy a texture or surface object; ISA_ST_USAGE for a handle that names none. */
isa_status_t ex_tex_destroy(ex_device_t *d, uint64_t handle);
/*}=====================================================================*/

typedef struct {
    uint32_t grid[3];      /* CTAs */
    uint32_t block[3];     /* threads per CTA */
    uint32_t shared_bytes; /* dynamic shared memory */
    unsigned workers;      /* worker threads for this launch (up to 256); 0: the device's number */
    double   timeout;      /* seconds after which a running launch stops; 0: none */
    _Atomic int *stop;     /* when set non-zero (e.g. by a SIGINT handler), the launch stops; NULL: none */
    uint64_t slice;        /* warp instructions a resident CTA runs before its worker turns to
                            * another (tests set it small); 0: the default */
    bool     cooperative;  /* the whole grid must be resident at once (cuLaunchCooperativeKernel) */
    uint32_t cluster[3];   /* CTAs per cluster (cuLaunchKernelEx's cluster dimension); 0,0,0: the
                            * entry's .reqnctapercluster, or no clusters */
    bool     cluster_nonportable; /* clusters of up to 16 CTAs allowed (else 8) */
} ex_launch_t;

/*{=====================================================================
 * Faults, as values: the library never prints.  A launch that does not complete says
 * why in ex_stats_t.fault; the caller reports it (fault.report is the text ptxrun prints).
 *====================================================================*/
typedef enum {
    EX_FAULT_NONE,
    EX_FAULT_ADDRESS,      /* an access outside the memory of its space (CUDA_ERROR_ILLEGAL_ADDRESS) */
    EX_FAULT_MISALIGNED,   /* an access not aligned to its size (CUDA_ERROR_MISALIGNED_ADDRESS) */
    EX_FAULT_TRAP,         /* trap executed (CUDA_ERROR_LAUNCH_FAILED) */
    EX_FAULT_ASSERT,       /* a failed assert: __assertfail (CUDA_ERROR_ASSERT) */
    EX_FAULT_STACK,        /* call or local-memory stack overflow (CUDA_ERROR_LAUNCH_FAILED) */
    EX_FAULT_INVALID_PC,   /* an indirect call or branch to what is no function (CUDA_ERROR_INVALID_PC) */
    EX_FAULT_ILLEGAL,      /* an instruction that cannot execute (CUDA_ERROR_ILLEGAL_INSTRUCTION) */
    EX_FAULT_SYNC,         /* a warp-synchronous operation misused (bar.warp.sync masks) */
    EX_FAULT_DEADLOCK,     /* no warp of a CTA can progress (the GPU hangs) */
    EX_FAULT_STOPPED,      /* stopped by the timeout or the stop flag */
    EX_FAULT_NOMEM,        /* host memory ran out */
    EX_FAULT_REFUSED,      /* the launch is beyond the H100's limits (ex_launch_check) */
    EX_FAULT_UNSUPPORTED   /* the entry reaches instructions without semantics */
} ex_fault_kind_t;

typedef struct {
    ex_fault_kind_t kind;
    const char *kernel;        /* the entry's name (the module's string) */
    bool        has_thread;    /* cta, thread, warp, lane and the PTX location below are known */
    uint32_t    cta[3], thread[3];
    uint32_t    warp, lane;
    const char *file;          /* PTX location of the instruction: the source's name, */
    unsigned    line, col;     /* line and column (1-based) */
    const char *src_file;      /* the .loc source line, when the PTX carries one; NULL otherwise */
    unsigned    src_line, src_col;
    bool        has_addr;
    uint64_t    addr;          /* the faulting address */
    char        what[192];     /* what happened, in words */
    char       *report;        /* the whole report as ptxrun prints it, one or more lines
                                  (malloc'd; ex_stats_clear frees it) */
} ex_fault_t;
/*}=====================================================================*/

/*{=====================================================================
 * Launch statistics (exec/stats/): with statistics on (ex_device_set_stats), every launch
 * also counts instructions per family, branches, barriers, and runs the memory-hierarchy
 * model (docs/memory-model.md), whose metrics carry Nsight Compute's names
 * (exec/stats/metrics.def).  Off, the interpreter runs without any of it.
 *====================================================================*/
typedef enum {
#define EX_METRIC(id, name, unit) EX_MET_##id,
#include "exec/stats/metrics.def"
#undef EX_METRIC
    EX_MET__COUNT
} ex_metric_t;
typedef struct {
    const char *name;   /* Nsight Compute's name */
    const char *unit;   /* "count", "pct", "bytes" */
} ex_metric_info_t;
extern const ex_metric_info_t ex_metrics[EX_MET__COUNT];

typedef struct {
    uint32_t grid[3], block[3], shared_bytes;
    double   wall_seconds;
    uint64_t family[ISA_FAM__COUNT];  /* warp instructions per family (isa/families.def) */
    uint64_t branches;                /* warp instructions bra / brx.idx */
    uint64_t divergent;               /* of them, those whose lanes went different ways */
    uint64_t barriers;                /* warp instructions of the barrier family (bar, barrier) */
    uint64_t pmevents[16];            /* pmevent warp instructions per event */
    double   metric[EX_MET__COUNT];   /* the memory metrics */
} ex_launch_stats_t;

/* Statistics on (true) or off for the launches that follow on d. */
void ex_device_set_stats(ex_device_t *d, bool on);
/*}=====================================================================*/

/* Statistics of a launch, and its fault. */
typedef struct ex_stats {
    uint64_t   thread_instrs;  /* instructions times active lanes */
    uint64_t   warp_instrs;    /* instructions issued per warp */
    ex_launch_stats_t *detail; /* with statistics on: the launch's (malloc'd; ex_stats_clear frees it) */
    ex_fault_t fault;          /* kind EX_FAULT_NONE after a launch that completed */
} ex_stats_t;
void ex_stats_clear(ex_stats_t *st);   /* frees fault.report and detail */

/* A launch's statistics as text (a table) or as one JSON object on one line. */
void ex_stats_print(FILE *out, const ex_program_t *p, uint32_t entry, const ex_stats_t *st, bool json);

/* Load m on device d: pre-decode every function of m (m must outlive the program) and
 * place its variables.  Diagnostics for what cannot be executed are not made here: see
 * ex_program_check_entry.  NULL when host memory runs out. */
ex_program_t *ex_program_new(ex_device_t *d, const isa_module_t *m);
ex_device_t  *ex_program_device(const ex_program_t *p);
/* Where module variable var (an index into the module's vars) lives in host memory, which
 * is its device address: .global variables and the constant bank are mapped in the
 * device's registry.  NULL for variables of other spaces. */
void         *ex_program_var_host(const ex_program_t *p, uint32_t var);
void          ex_program_free(ex_program_t *p);

/* Whether every instruction reachable from entry (the entry and the functions it
 * calls) has semantics; each one that has none is reported on diag as
 * "file:line:col: error: <opcode.modifiers> is not supported yet".  Returns the number
 * of such instructions (0: the entry can run). */
unsigned ex_program_check_entry(ex_program_t *p, uint32_t entry, FILE *diag);

/* What the GPU's driver refuses (measured on the H100; docs/textures.md), and how: a
 * module holding an instruction of EX_REFUSAL_NOT_SUPPORTED does not load
 * (CUDA_ERROR_NOT_SUPPORTED), nor one whose kernels take .texref, .surfref or .samplerref
 * parameters (EX_REFUSAL_INVALID_IMAGE: CUDA_ERROR_INVALID_IMAGE); an entry reaching an
 * instruction of EX_REFUSAL_NOT_FOUND is not found in its module (CUDA_ERROR_NOT_FOUND).
 * ex_program_check_entry reports and counts the module's opaque kernel parameters too. */
typedef enum {
    EX_REFUSAL_NONE, EX_REFUSAL_NOT_FOUND, EX_REFUSAL_NOT_SUPPORTED, EX_REFUSAL_INVALID_IMAGE,
    EX_REFUSAL_INVALID_PTX      /* a 32-bit module (.address_size 32): ptxas refuses it for sm_90 */
} ex_refusal_t;
/* The module's strongest refusal (INVALID_PTX over INVALID_IMAGE over NOT_SUPPORTED over
 * NOT_FOUND), each
 * refused instruction or parameter of that kind reported on diag (may be NULL), located,
 * with the reason. */
ex_refusal_t ex_program_refusal(ex_program_t *p, FILE *diag);
/* The refusal of what entry reaches (the entry and the functions it calls). */
ex_refusal_t ex_program_entry_refusal(ex_program_t *p, uint32_t entry);

/* Whether launch l of entry stays within the H100's limits (block and grid shape,
 * shared memory, constant data, local memory, .reqntid, .maxntid, .reqnctapercluster).
 * ISA_ST_OK; else ISA_ST_USAGE (what cuLaunchKernel refuses) or ISA_ST_SYNTAX (what the
 * driver's JIT refuses at load), with a message naming the CUDA error the driver
 * returns for it in out_msg.  ex_launch checks it first. */
isa_status_t ex_launch_check(const ex_program_t *p, uint32_t entry, const ex_launch_t *l, char *out_msg,
                             size_t size);
/* CTAs of launch l of entry that can be resident at once on the whole GPU: the per-SM
 * limits of machine.def (threads, warps, CTAs, shared memory, registers: the entry's where
 * known, else where .maxnreg bounds them), times the SMs.  A cooperative launch of more CTAs is refused. */
uint64_t     ex_resident_ctas(const ex_program_t *p, uint32_t entry, const ex_launch_t *l);
/* Clusters of size CTAs that can be resident at once (cudaOccupancyMaxActiveClusters):
 * at most 8 CTAs per SM, each cluster within one GPC. */
uint64_t     ex_resident_clusters(const ex_program_t *p, uint32_t entry, const ex_launch_t *l, uint32_t size);
/* The launch's cluster dimension into out: the launch's (l->cluster), else the entry's
 * .reqnctapercluster; true for these, false (and 1,1,1) for a launch without clusters. */
bool         ex_launch_cluster(const ex_program_t *p, uint32_t entry, const ex_launch_t *l, uint32_t out[3]);
/* Bytes of static shared memory entry uses (its and its callees' variables). */
uint64_t     ex_entry_shared(const ex_program_t *p, uint32_t entry);
/* The registers per thread that entry's code for the H100 uses (what ptxas allocated, as
 * the driver learns it from the SASS in a fatbin or from ptxas), 0 when not known: with it,
 * ex_launch_check refuses a block whose warps' registers exceed a CTA's
 * (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) and ex_resident_ctas counts the SM's registers;
 * ex_entry_max_threads is the largest block the registers allow. */
void         ex_set_entry_regs(ex_program_t *p, uint32_t entry, uint32_t regs);
uint32_t     ex_entry_regs(const ex_program_t *p, uint32_t entry);
uint32_t     ex_entry_max_threads(const ex_program_t *p, uint32_t entry);
/* Whether entry's call graph may wait for what the host writes while it runs: it has,
 * outside .shared, a volatile or .cv load, a relaxed or acquire load or an atom of system
 * scope, or a nanosleep (an indirect call may reach any function).  The driver runs such a
 * launch where the host program can go on (runtime/driver/launch.c). */
bool         ex_entry_may_wait(const ex_program_t *p, uint32_t entry);

/* Run entry with its parameter block (laid out as the entry's .param list says) on the
 * program's device, and wait for it.  Returns ISA_ST_OK; ISA_ST_FAULT for a fault, a
 * deadlock or a stop (l->timeout, l->stop); ISA_ST_USAGE / ISA_ST_SYNTAX for a launch
 * beyond the limits (ex_launch_check); ISA_ST_UNSUPPORTED when the entry reaches
 * instructions without semantics; ISA_ST_NOMEM when host memory runs out.  Each but
 * ISA_ST_OK comes with out->fault saying what and where (out must be released with
 * ex_stats_clear). */
isa_status_t ex_launch(ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                       size_t params_size, ex_stats_t *out);

/* A tensor map (CUtensorMap, 128 bytes, 64-byte aligned): what cuTensorMapEncodeTiled
 * encodes and cp.async.bulk.tensor reads (exec/sync/async.c).  The layout is the
 * emulator's own (the driver's is opaque).  Tile mode; dims[i] elements along dimension i
 * (0 the innermost), strides[i] the bytes between consecutive indices of dimension i + 1,
 * box[i] the box's extent, estr[i] its traversal stride.  An im2col map (im2col set) has
 * instead the pixel box's lower and upper corners of the spatial dimensions 1 .. rank-2
 * and the channels and pixels one load brings. */
#define EX_TMAP_MAGIC 0x50414d54u   /* "TMAP" */
typedef struct {
    uint32_t magic;
    uint8_t  dtype;       /* CUtensorMapDataType */
    uint8_t  rank;        /* 1 to 5 */
    uint8_t  esize;       /* bytes per element (a copy takes it from dtype) */
    uint8_t  interleave;  /* CUtensorMapInterleave: 0 none */
    uint8_t  swizzle;     /* CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B */
    uint8_t  oob_nan;     /* out-of-bound elements read NaN (else zero) */
    uint8_t  l2;          /* CUtensorMapL2promotion (a hint) */
    uint8_t  tf32;        /* loads round to TF32: set by a TF32 type, kept when tensormap.replace
                             changes the type (measured) */
    uint64_t addr;
    uint64_t dims[5];
    uint64_t strides[4];
    uint16_t box[5];
    uint8_t  estr[5];
    uint8_t  im2col;      /* made by cuTensorMapEncodeIm2col */
    int16_t  lower[3], upper[3];
    uint16_t channels, pixels;
} ex_tensormap_t;
_Static_assert(sizeof(ex_tensormap_t) == 128, "a CUtensorMap is 128 bytes");
/* Bytes per element of CUtensorMapDataType t (0 .. 12), 0 for any other. */
static inline unsigned ex_tmap_esize(unsigned t)
{
    static const uint8_t size[13] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };
    return t < 13 ? size[t] : 0;
}

#endif
