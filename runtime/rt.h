/* rt.h: the public interface of libruntime: kernel arguments from the command line,
 * result printing, and the backends that run a launch (emulator, CUDA driver). */
#ifndef PTXEMU_RT_H
#define PTXEMU_RT_H

#include <stdio.h>
#include "isa/isa.h"
#include "exec/exec.h"

/* A buffer argument: element type, count, host storage, and what to do after the run. */
typedef struct {
    isa_type_t type;       /* element type as written (b8..f64, f16, bf16) */
    uint64_t   count;
    size_t     bytes;      /* count * element size */
    void      *host;       /* 256-byte aligned host storage */
    bool       out;        /* print after the run (":out") */
    const char *out_path;  /* or write raw bytes here (":out=PATH") */
} rt_buffer_t;

/* The arguments of one launch, parsed against the entry's parameter list. */
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
void         rt_args_free(rt_args_t *a);

/* Print the :out buffers in parameter order ("argK TYPE[N]: v0 v1 ...") and write the
 * :out=PATH ones.  Returns ISA_ST_IO if a file cannot be written. */
isa_status_t rt_args_print(const rt_args_t *a, rt_outfmt_t fmt, FILE *out, FILE *diag);

/* The documented deterministic generator behind TYPE[N]=rand(SEED). */
uint64_t rt_rand_next(uint64_t *state);

/* Run on the emulator: buffers are registered as global memory and the parameter
 * block (pointer parameters hold the buffers' addresses) is passed as is. */
isa_status_t rt_run_emu(ex_program_t *p, uint32_t entry, const ex_launch_t *l, rt_args_t *a,
                        FILE *diag, ex_stats_t *out_stats);

/* Run on a real GPU through the CUDA driver API, loaded with dlopen("libcuda.so.1"):
 * the module's PTX text is loaded as is, buffers are copied to the device and back.
 * ISA_ST_UNSUPPORTED with a clear message when no driver or GPU is present. */
isa_status_t rt_run_cuda(const isa_module_t *m, uint32_t entry, const ex_launch_t *l, rt_args_t *a,
                         FILE *diag);

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

#endif
