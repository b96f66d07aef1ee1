/* emu.c: the emulator backend: the buffers become global memory (device addresses are
 * host addresses) and the parameter block is passed as it is. */
#include "runtime/rt.h"

isa_status_t rt_run_emu(ex_program_t *p, uint32_t entry, const ex_launch_t *l, rt_args_t *a,
                        FILE *diag, ex_stats_t *out_stats)
{
    for (uint32_t i = 0; i < a->nbuf; i++)
        ex_program_add_global(p, a->bufs[i].host, a->bufs[i].bytes);
    return ex_launch(p, entry, l, a->params, a->params_size, diag, out_stats);
}
