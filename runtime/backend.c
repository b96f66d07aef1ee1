/* backend.c: the backends behind one interface (rt_backend_t): the emulator, the GPU,
 * and in the test build "flip", a GPU stand-in that disagrees where it is told to. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/*{=====================================================================
 * The emulator: a fresh program per call, so that each run's buffers are the only
 * global memory it sees.
 *====================================================================*/

static isa_status_t emu_check(const rt_backend_t *self, const rt_job_t *job, FILE *diag)
{
    (void)self;
    ex_program_t *p = ex_program_new(rt_device(), job->module);
    if (!p) {
        fprintf(diag, "ptxrun: error: out of memory\n");
        return ISA_ST_NOMEM;
    }
    unsigned missing = ex_program_check_entry(p, job->entry, diag);
    ex_program_free(p);
    return missing ? ISA_ST_UNSUPPORTED : ISA_ST_OK;
}

static isa_status_t emu_run(const rt_backend_t *self, const rt_job_t *job, rt_args_t *a, FILE *diag)
{
    (void)self;
    ex_program_t *p = ex_program_new(rt_device(), job->module);
    if (!p) {
        fprintf(diag, "ptxrun: error: out of memory\n");
        return ISA_ST_NOMEM;
    }
    ex_stats_t stats;
    isa_status_t st = ex_program_check_entry(p, job->entry, diag) ? ISA_ST_UNSUPPORTED
                    : rt_run_emu(p, job->entry, job->launch, a, 0, diag, &stats);
    ex_program_free(p);
    return st;
}

const rt_backend_t rt_backend_emu = { "emu", emu_check, emu_run, NULL };
/*}=====================================================================*/

/*{=====================================================================
 * The GPU (cuda.c)
 *====================================================================*/

static isa_status_t cuda_check(const rt_backend_t *self, const rt_job_t *job, FILE *diag)
{
    (void)self;
    (void)job;
    return rt_cuda_check(diag);
}

static isa_status_t cuda_run(const rt_backend_t *self, const rt_job_t *job, rt_args_t *a, FILE *diag)
{
    (void)self;
    return rt_run_cuda(job->module, job->entry, job->launch, a, diag);
}

const rt_backend_t rt_backend_cuda = { "cuda", cuda_check, cuda_run, NULL };
/*}=====================================================================*/

#ifdef PTXEMU_TESTING
/*{=====================================================================
 * flip (test build only): the base backend's results with chosen bits inverted, to
 * test the comparison end to end where there is no GPU, or no disagreement.
 *====================================================================*/

static isa_status_t flip_check(const rt_backend_t *self, const rt_job_t *job, FILE *diag)
{
    const rt_flip_conf_t *c = self->conf;
    return c->base->check ? c->base->check(c->base, job, diag) : ISA_ST_OK;
}

static isa_status_t flip_run(const rt_backend_t *self, const rt_job_t *job, rt_args_t *a, FILE *diag)
{
    const rt_flip_conf_t *c = self->conf;
    isa_status_t st = c->base->run(c->base, job, a, diag);
    if (st != ISA_ST_OK)
        return st;
    for (uint32_t i = 0; i < c->nflip; i++) {
        const rt_flip_t *f = &c->flips[i];
        if (f->param >= a->nparam || a->param_buffer[f->param] < 0) {
            fprintf(diag, "ptxrun: error: flip: parameter %u is not a buffer\n", f->param);
            return ISA_ST_USAGE;
        }
        rt_buffer_t *b = &a->bufs[a->param_buffer[f->param]];
        unsigned bits = isa_types[b->type].bits;
        if (f->bit >= bits || (f->elem != RT_FLIP_ALL && f->elem >= b->count)) {
            fprintf(diag, "ptxrun: error: flip: parameter %u has no element %llu bit %u\n", f->param,
                    (unsigned long long)f->elem, f->bit);
            return ISA_ST_USAGE;
        }
        uint64_t lo = f->elem == RT_FLIP_ALL ? 0 : f->elem, hi = f->elem == RT_FLIP_ALL ? b->count : f->elem + 1;
        for (uint64_t e = lo; e < hi; e++)
            ((uint8_t *)b->host)[e * (bits / 8) + f->bit / 8] ^= (uint8_t)(1u << (f->bit % 8));
    }
    return ISA_ST_OK;
}

rt_backend_t rt_backend_flip(const rt_flip_conf_t *conf)
{
    rt_backend_t b = { "flip", flip_check, flip_run, conf };
    return b;
}

bool rt_flip_parse(const char *spec, rt_flip_conf_t *conf, FILE *diag)
{
    const char *p = spec;
    bool ok = false;
    conf->nflip = 0;
    while (conf->nflip < sizeof conf->flips / sizeof conf->flips[0]) {
        rt_flip_t *f = &conf->flips[conf->nflip++];
        char *end;
        if (*p < '0' || *p > '9')
            break;
        f->param = (uint32_t)strtoul(p, &end, 10);
        if (*end != ':')
            break;
        p = end + 1;
        if (*p == '*') {
            f->elem = RT_FLIP_ALL;
            end = (char *)p + 1;
        } else if (*p >= '0' && *p <= '9') {
            f->elem = strtoull(p, &end, 10);
        } else {
            break;
        }
        if (*end != ':' || end[1] < '0' || end[1] > '9')
            break;
        p = end + 1;
        f->bit = (unsigned)strtoul(p, &end, 10);
        if (!*end) {
            ok = true;
            break;
        }
        if (*end != ',')
            break;
        p = end + 1;
    }
    if (!ok)
        fprintf(diag, "ptxrun: error: flip '%s': expected K:I:B[,K:I:B...] (at most 16)\n", spec);
    return ok;
}
/*}=====================================================================*/
#endif
