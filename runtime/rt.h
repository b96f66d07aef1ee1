/* rt.h: the public interface of libruntime: kernel arguments from the command line,
 * result printing, and the backends that run a launch (emulator, CUDA driver). */
#ifndef PTXEMU_RT_H
#define PTXEMU_RT_H

#include <stdio.h>
#include "isa/isa.h"
#include "exec/exec.h"

/* What a buffer argument stands for: plain memory (its address is the parameter), or a
 * texture or surface object made from its contents (the handle is the parameter).
 * docs/user-guide.md gives the syntax (tex.GEOM.FORMAT[SIZE]=INIT:OPTIONS). */
typedef enum { RT_RES_BUFFER, RT_RES_TEX, RT_RES_SURF } rt_res_t;
/* Geometries as written after "tex." / "surf.". */
typedef enum { RT_G_1D, RT_G_2D, RT_G_3D, RT_G_A1D, RT_G_A2D, RT_G_CUBE, RT_G_ACUBE, RT_G_LIN, RT_G_PITCH } rt_geom_t;
typedef struct {
    rt_res_t        kind;
    rt_geom_t       geom;
    ex_array_desc_t array;     /* the array to make (not RT_G_LIN, RT_G_PITCH): every level's
                                  texels follow each other in the buffer, level 0 first */
    uint64_t        pitch;     /* RT_G_PITCH: bytes per row on the device (rows are packed
                                  in the buffer) */
    ex_tex_desc_t   sampler;   /* RT_RES_TEX */
} rt_tex_t;

/* Texels per level l of array desc q (layers included), and in all its levels. */
uint64_t rt_tex_level_texels(const ex_array_desc_t *q, unsigned l);
uint64_t rt_tex_texels(const ex_array_desc_t *q);

/* A buffer argument: element type, count, host storage, and what to do after the run. */
typedef struct {
    isa_type_t type;       /* element type as written (b8..f64, f16, bf16) */
    uint64_t   count;
    size_t     bytes;      /* count * element size */
    void      *host;       /* 256-byte aligned host storage */
    bool       out;        /* print after the run (":out") */
    const char *out_path;  /* or write raw bytes here (":out=PATH") */
    rt_tex_t   tex;        /* kind RT_RES_BUFFER for plain memory */
    const char *ref;       /* bound to this .texref/.surfref of the module (NAME=tex...),
                              not a parameter; NULL otherwise */
    uint32_t   ref_var;    /* the module variable it names */
} rt_buffer_t;

/* The arguments of one launch, parsed against the entry's parameter list; the buffers
 * bound to the module's references come after those of the parameters. */
typedef struct {
    uint32_t     nparam;
    uint8_t     *params;       /* the parameter block (entry's .param layout) */
    size_t       params_size;
    uint32_t    *param_offset; /* per parameter: byte offset in params */
    int32_t     *param_buffer; /* per parameter: buffer index, or -1 for a scalar */
    uint32_t     nbuf;
    rt_buffer_t *bufs;
} rt_args_t;

typedef enum { RT_OUT_TEXT, RT_OUT_HEX, RT_OUT_JSON } rt_outfmt_t;

/* Parse argv[0..argc) against the parameters of entry f.  Errors go to diag as
 * "ptxrun: error: argument K (NAME): message"; returns ISA_ST_USAGE then. */
isa_status_t rt_args_parse(const isa_func_t *f, int argc, char **argv, FILE *diag, rt_args_t *out);
/* The same for entry `entry` of module m, where an argument NAME=tex.... or NAME=surf....,
 * anywhere among them, binds the module's .texref or .surfref NAME instead of taking a
 * parameter's place. */
isa_status_t rt_args_parse_module(const isa_module_t *m, uint32_t entry, int argc, char **argv, FILE *diag,
                                  rt_args_t *out);
void         rt_args_free(rt_args_t *a);

/* Print the :out buffers in parameter order ("argK TYPE[N]: v0 v1 ...") and write the
 * :out=PATH ones.  Returns ISA_ST_IO if a file cannot be written. */
isa_status_t rt_args_print(const rt_args_t *a, rt_outfmt_t fmt, FILE *out, FILE *diag);

/* A copy of a with buffers of its own (same contents, flags and paths); the pointer
 * parameters of the copy's block hold the copy's buffers.  ISA_ST_NOMEM on failure. */
isa_status_t rt_args_copy(const rt_args_t *a, rt_args_t *out);

/* Write buffer b (parameter K) to its :out=PATH file, if it has one.  ISA_ST_IO, after
 * "ptxrun: error: argument K: cannot write 'PATH'" on diag, if it cannot be written. */
isa_status_t rt_buffer_write(const rt_buffer_t *b, uint32_t k, FILE *diag);

/* The documented deterministic generator behind TYPE[N]=rand(SEED). */
uint64_t rt_rand_next(uint64_t *state);

/* The process's emulated device (made on first use; NULL when memory runs out): every
 * program the runtime loads for the emulator is loaded on it. */
ex_device_t *rt_device(void);

/* What the kernels of the last launch printed (printf) onto out, and the messages of
 * failed assertions onto diag, as the CUDA runtime prints them at synchronisation. */
void rt_flush_device_output(ex_device_t *d, FILE *out, FILE *diag);

/* Run on the emulator: buffers are mapped as the device's global memory for the run and
 * the parameter block (pointer parameters hold the buffers' addresses) is passed as is.
 * repeat > 0 launches the kernel that many times on the same buffers and prints the time
 * per launch on diag; 0 launches it once.  A launch's fault is printed on diag. */
isa_status_t rt_run_emu(ex_program_t *p, uint32_t entry, const ex_launch_t *l, rt_args_t *a, unsigned repeat,
                        FILE *diag, ex_stats_t *out_stats);

/* Run on a real GPU through the CUDA driver API, loaded with dlopen("libcuda.so.1"):
 * the module's PTX text is loaded as is, buffers are copied to the device and back.
 * ISA_ST_UNSUPPORTED with a clear message when no driver or GPU is present. */
isa_status_t rt_run_cuda(const isa_module_t *m, uint32_t entry, const ex_launch_t *l, rt_args_t *a,
                         FILE *diag);

/* Whether a GPU can run launches here: the driver (libcuda.so.1) loads and device 0
 * exists.  ISA_ST_UNSUPPORTED, after saying which is missing on diag, if not. */
isa_status_t rt_cuda_check(FILE *diag);

/*{=====================================================================
 * Backends (backend.c): the emulator, the GPU, and in the test build a GPU stand-in,
 * behind one interface, so that a comparison runs any two of them.
 *====================================================================*/

/* One launch, as every backend gets it. */
typedef struct {
    const isa_module_t *module;
    uint32_t            entry;
    const ex_launch_t  *launch;
} rt_job_t;

typedef struct rt_backend rt_backend_t;
struct rt_backend {
    const char *name;   /* names the side in reports: "emu", "cuda" */
    /* Whether job can run here at all, before any argument is built (the emulator: every
     * instruction the entry reaches has semantics; the GPU: a driver and a device).  Errors
     * are printed on diag; ISA_ST_UNSUPPORTED means "not here".  NULL: always. */
    isa_status_t (*check)(const rt_backend_t *self, const rt_job_t *job, FILE *diag);
    /* Run job on a's parameter block and buffers (pointer parameters hold the buffers'
     * host addresses, as rt_args_parse lays them out), leaving the results in the
     * buffers.  ISA_ST_OK; ISA_ST_FAULT when the kernel faulted; another status for
     * anything else; each after printing what happened on diag. */
    isa_status_t (*run)(const rt_backend_t *self, const rt_job_t *job, rt_args_t *a, FILE *diag);
    const void *conf;   /* the backend's own settings, or NULL */
};

extern const rt_backend_t rt_backend_emu;    /* rt_run_emu on a fresh program */
extern const rt_backend_t rt_backend_cuda;   /* rt_run_cuda */

#ifdef PTXEMU_TESTING
/* The test build's stand-in for a GPU that disagrees: runs base, then flips the chosen
 * bits of the chosen output elements. */
typedef struct {
    uint32_t param;   /* parameter index (a buffer parameter) */
    uint64_t elem;    /* element index, or RT_FLIP_ALL for every element */
    unsigned bit;     /* bit within the element, 0 = least significant */
} rt_flip_t;
#define RT_FLIP_ALL UINT64_MAX
typedef struct {
    const rt_backend_t *base;
    uint32_t            nflip;
    rt_flip_t           flips[16];
} rt_flip_conf_t;
/* A backend named "flip" that runs conf->base and then applies conf->flips; a flip
 * outside its parameter's buffer or element is an error (ISA_ST_USAGE). */
rt_backend_t rt_backend_flip(const rt_flip_conf_t *conf);
/* "K:I:B[,K:I:B...]" (I may be '*': every element) into conf->flips; false, after a
 * message on diag, when malformed. */
bool rt_flip_parse(const char *spec, rt_flip_conf_t *conf, FILE *diag);
#endif
/*}=====================================================================*/

/*{=====================================================================
 * Comparison (compare.c): the same launch with the same inputs on two backends, every
 * output buffer compared bit for bit.
 *====================================================================*/

/* How two float elements whose bits differ are apart. */
typedef enum {
    RT_FDIFF_ULP,       /* two numbers (infinities included): the distance in ulp */
    RT_FDIFF_ZERO_SIGN, /* +0 and -0 */
    RT_FDIFF_NAN,       /* two NaNs of different sign or payload */
    RT_FDIFF_NAN_ONE    /* a NaN and a number */
} rt_fdiff_t;

/* Classify x against y (float type t: f16, bf16, f32, f64; their bits differ).  For
 * RT_FDIFF_ULP, *out_ulp is the distance of their ordered-integer keys: the magnitude
 * bits, negated for negative values, so that adjacent floats are 1 apart, +0 and -0 both
 * 0, the largest finite value and inf 1 apart, and -x and x twice x's key apart. */
rt_fdiff_t rt_float_ulp(isa_type_t t, const void *x, const void *y, uint64_t *out_ulp);

/* What two runs' output buffers showed. */
typedef struct {
    uint32_t nbuf, nbuf_diff;     /* output buffers compared, those that differ */
    uint64_t nelem, nelem_diff;   /* elements compared, those that differ */
} rt_cmp_summary_t;

/* Compare every output buffer (:out or :out=PATH) of x (from the side named xn) with
 * the same buffer of y (yn), element by element and bit for bit.  Each differing buffer
 * is reported on out with its count of differences and the first max_shown of them
 * (index, both values in hex and decimal, for floats how far apart), then one summary
 * line: "compare: B buffers, N elements, identical (xn vs yn)" or "compare: D of B
 * buffers differ, E of N elements (xn vs yn)". */
rt_cmp_summary_t rt_compare_buffers(const rt_args_t *x, const char *xn, const rt_args_t *y, const char *yn,
                                    unsigned max_shown, FILE *out);

/* The outcome of a comparison; the values are ptxrun's exit statuses. */
typedef enum {
    RT_CMP_SAME = 0,     /* both runs finished, every output buffer identical */
    RT_CMP_FAULT = 1,    /* a kernel faulted on one side or both */
    RT_CMP_ERROR = 2,    /* bad arguments, PTX a side refuses, a side that cannot run here */
    RT_CMP_DIFFER = 3    /* both runs finished, some output differs */
} rt_cmp_result_t;

/* Number of differences shown per buffer by rt_compare_run. */
#define RT_CMP_SHOWN 10

/* ptxrun --compare: check that both sides can run job, build the arguments from
 * argv once (random inputs generated once), give each side an identical copy, run x
 * then y, and compare (rt_compare_buffers).  A side that fails is named on diag
 * ("compare: the cuda run faulted").  :out=PATH files get x's results. */
rt_cmp_result_t rt_compare_run(const rt_job_t *job, const rt_backend_t *x, const rt_backend_t *y, int argc,
                               char **argv, FILE *out, FILE *diag);
/*}=====================================================================*/

/*{=====================================================================
 * Numbers (num.c): element values as the command line writes and the output prints
 * them.  Exposed for the tests and the tools.
 *====================================================================*/

/* Whether t can be a buffer element or a scalar parameter read from text:
 * b8..b64, u8..u64, s8..s64, f16, bf16, f32, f64. */
bool rt_type_is_elem(isa_type_t t);

/* f16 / bf16 from a double (an f32 converts exactly), rounding to nearest even;
 * overflow gives inf, NaN stays a quiet NaN with the top payload bits. */
uint16_t rt_f16_from_f64(double x);
uint16_t rt_bf16_from_f64(double x);
/* ... and back to f32, exactly. */
float    rt_f16_to_f32(uint16_t h);
float    rt_bf16_to_f32(uint16_t h);

/* Parse one value of element type t from the NUL-terminated s into out (t's width,
 * little-endian).  Integers: [-]DEC, [-]0xHEX, [-]0bBIN, range-checked (u/b types take
 * -2^(n-1) .. 2^n-1, two's complement; s types -2^(n-1) .. 2^(n-1)-1, or up to 2^n-1
 * written in hex or binary, as bits).  Floats: a
 * decimal or C hex float, inf, -inf, nan, 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX
 * (f64 bits), both rounded to t when it is narrower.  On error returns false and
 * sets *out_err to a static message. */
bool rt_elem_parse(const char *s, isa_type_t t, void *out, const char **out_err);

/* Format one element (t's width at elem): integers in decimal, floats as the shortest
 * decimal (C %g) that reads back to the same bits, "-0", "inf", "-inf", "nan"; with
 * hex, the raw bits as lowercase hex digits, zero-padded, no 0x.  Returns the length. */
int rt_elem_format(char *buf, size_t size, isa_type_t t, const void *elem, bool hex);

/*}=====================================================================*/

/* ptxrun --fatbin-list PROGRAM and --extract-ptx PROGRAM [--entry N] [-o DIR]
 * (fatbin_cmd.c): argv[0] is the mode.  Returns the exit status (0, or 2 after a message
 * on diag). */
int rt_fatbin_cmd(int argc, char **argv, FILE *out, FILE *diag);

#endif
