/* emu.c: the emulator backend: the buffers become global memory (device addresses are
 * host addresses) and the parameter block is passed as it is.  The report of a launch
 * stopped by its time limit or an interrupt is printed on diag. */
#include <stdlib.h>

#include "runtime/rt.h"

isa_status_t rt_run_emu(ex_program_t *p, uint32_t entry, const ex_launch_t *l, rt_args_t *a,
                        FILE *diag, ex_stats_t *out_stats)
{
    for (uint32_t i = 0; i < a->nbuf; i++)
        ex_program_add_global(p, a->bufs[i].host, a->bufs[i].bytes);
    ex_stats_t st;
    ex_stats_t *sp = out_stats ? out_stats : &st;
    isa_status_t r = ex_launch(p, entry, l, a->params, a->params_size, diag, sp);
    if (r != ISA_ST_UNSUPPORTED && sp->stop_report) {
        fputs(sp->stop_report, diag);
        free(sp->stop_report);
        sp->stop_report = NULL;
    }
    return r;
}
