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
} ex_launch_t;

/* Statistics of a finished launch. */
typedef struct {
    uint64_t thread_instrs;   /* instructions times active lanes */
    uint64_t warp_instrs;     /* instructions issued per warp */
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

/* Run entry with its parameter block (laid out as the entry's .param list says).
 * Returns ISA_ST_OK, or ISA_ST_FAULT after printing the fault (kernel, CTA, thread, PTX
 * location and address) on diag. */
isa_status_t ex_launch(ex_program_t *p, uint32_t entry, const ex_launch_t *l, const void *params,
                       size_t params_size, FILE *diag, ex_stats_t *out_stats);

#endif
