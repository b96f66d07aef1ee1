/* exec.h: the public interface of libexec, the interpreter: pre-decode a module once,
 * then launch its entries on the emulated GPU. */
#ifndef PTXEMU_EXEC_H
#define PTXEMU_EXEC_H

#include <stdio.h>
#include "isa/isa.h"

typedef struct ex_program ex_program_t;

typedef struct {
    uint32_t grid[3];      /* CTAs */
    uint32_t block[3];     /* threads per CTA */
    uint32_t shared_bytes; /* dynamic shared memory */
    unsigned workers;      /* host threads running CTAs; 0: one per core */
    double   timeout;      /* seconds after which a running launch stops; 0: none */
    _Atomic int *stop;     /* when set non-zero (e.g. by a SIGINT handler), the launch stops; NULL: none */
    uint64_t slice;        /* warp instructions a resident CTA runs before its worker turns to
                            * another (tests set it small); 0: the default */
    bool     cooperative;  /* the whole grid must be resident at once (cuLaunchCooperativeKernel) */
} ex_launch_t;

/* Statistics of a finished launch. */
typedef struct {
    uint64_t thread_instrs;   /* instructions times active lanes */
    uint64_t warp_instrs;     /* instructions issued per warp */
    /* A launch stopped by its timeout or stop flag: what every live warp was running
     * ("CTA (x,y,z) warp W lanes 0x...: at FILE:LINE:COL: instruction", with the .loc
     * source line where there is one), one line each after a first line saying why.
     * malloc'd, for the caller to print and free; NULL otherwise. */
    char    *stop_report;
} ex_stats_t;

/* Pre-decode every function of m (m must outlive the program).  Diagnostics for what
 * cannot be executed are not printed here: see ex_program_check_entry. */
ex_program_t *ex_program_new(const isa_module_t *m);
void          ex_program_free(ex_program_t *p);

/* Whether every instruction reachable from entry (the entry and the functions it
 * calls) has semantics; each one that has none is reported on diag as
 * "file:line:col: error: <opcode.modifiers> is not supported yet".  Returns the number
 * of such instructions (0: the entry can run). */
unsigned ex_program_check_entry(ex_program_t *p, uint32_t entry, FILE *diag);

/* Host memory that kernels may access as global memory (device addresses are host
 * addresses).  Accesses outside every registered range fault. */
void ex_program_add_global(ex_program_t *p, void *base, size_t bytes);

/* Whether launch l of entry stays within the H100's limits (block and grid shape,
 * shared memory, constant data, local memory, .reqntid, .maxntid, .reqnctapercluster).
 * ISA_ST_OK; else ISA_ST_USAGE (what cuLaunchKernel refuses) or ISA_ST_SYNTAX (what the
 * driver's JIT refuses at load), with a message naming the CUDA error the driver
 * returns for it in out_msg.  ex_launch checks it first. */
isa_status_t ex_launch_check(const ex_program_t *p, uint32_t entry, const ex_launch_t *l, char *out_msg,
                             size_t size);
/* CTAs of launch l of entry that can be resident at once on the whole GPU: the per-SM
 * limits of machine.def (threads, warps, CTAs, shared memory, registers where .maxnreg
 * bounds them), times the SMs.  A cooperative launch of more CTAs is refused. */
uint64_t     ex_resident_ctas(const ex_program_t *p, uint32_t entry, const ex_launch_t *l);
/* Bytes of static shared memory entry uses (its and its callees' variables). */
uint64_t     ex_entry_shared(const ex_program_t *p, uint32_t entry);

/* Run entry with its parameter block (laid out as the entry's .param list says).
 * Returns ISA_ST_OK; ISA_ST_FAULT after printing the fault (kernel, CTA, thread, PTX
 * location and address) on diag, or when stopped by l->timeout or l->stop (the report
 * in out_stats->stop_report); ISA_ST_USAGE / ISA_ST_SYNTAX for a launch beyond the
 * limits (ex_launch_check) and ISA_ST_NOMEM when host memory runs out, each after a
 * message on diag. */
isa_status_t ex_launch(ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                       size_t params_size, FILE *diag, ex_stats_t *out_stats);

#endif
