/* emu.c: the emulator backend: the process's emulated device, the buffers mapped as its
 * global memory (device addresses are host addresses) for the run, the parameter block
 * passed as it is, and the fault of a launch that fails printed on diag. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/rt.h"

static ex_device_t   *device;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

static void device_make(void) { device = ex_device_new(NULL); }

ex_device_t *rt_device(void)
{
    pthread_once(&device_once, device_make);
    return device;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void rt_flush_device_output(ex_device_t *d, FILE *out, FILE *diag)
{
    size_t len;
    uint64_t dropped;
    char *text = ex_device_printf_take(d, &len, &dropped);
    if (text) {
        fwrite(text, 1, len, out);
        fflush(out);
        free(text);
    }
    text = ex_device_assert_take(d, &len);
    if (text) {
        fwrite(text, 1, len, diag);
        free(text);
    }
}

isa_status_t rt_run_emu(ex_program_t *p, uint32_t entry, const ex_launch_t *l, rt_args_t *a, unsigned repeat,
                        FILE *diag, ex_stats_t *out_stats)
{
    ex_device_t *d = ex_program_device(p);
    uint32_t mapped = 0;
    isa_status_t r = ISA_ST_OK;
    for (; mapped < a->nbuf && r == ISA_ST_OK; mapped++)
        if (a->bufs[mapped].bytes)
            r = ex_device_map(d, a->bufs[mapped].host, a->bufs[mapped].bytes);
    if (r != ISA_ST_OK) {
        fprintf(diag, "ptxrun: error: cannot map buffer %u as global memory: %s\n", mapped - 1,
                isa_status_str(r));
        mapped--;
    }
    ex_stats_t st;
    ex_stats_t *sp = out_stats ? out_stats : &st;
    double t0 = now();
    uint64_t ti = 0;
    unsigned n = 0;
    for (; r == ISA_ST_OK && n < (repeat ? repeat : 1); n++) {
        r = ex_launch(p, entry, l, a->params, a->params_size, sp);
        ti += sp->thread_instrs;
        rt_flush_device_output(d, stdout, diag);
        if (r != ISA_ST_OK) {
            if (sp->fault.report)
                fputs(sp->fault.report, diag);
            else
                fprintf(diag, "ptxrun: error: kernel %s: %s\n", sp->fault.kernel, sp->fault.what);
            free(sp->fault.report);
            sp->fault.report = NULL;
        }
    }
    double dt = now() - t0;
    if (repeat && r == ISA_ST_OK)
        fprintf(diag, "ptxrun: %u launches in %.6f s: %.3f us per launch, %.1f M thread-instructions/s\n", n, dt,
                dt / n * 1e6, (double)ti / dt / 1e6);
    sp->thread_instrs = ti;
    for (uint32_t i = 0; i < mapped; i++)
        if (a->bufs[i].bytes)
            ex_device_unmap(d, a->bufs[i].host);
    return r;
}
