/* limits.c: the H100's launch limits, checked before anything runs, with the error the
 * CUDA driver returns for each (recorded in tests/golden/limits/, docs/execution.md). */
#include "exec/internal.h"
#include "exec/machine.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The machine's limits (machine.def), as the driver reports them on an H100 80GB
 * (probe.txt) and as its answers to launches showed (recorded.txt). */
static const struct {
    uint64_t block_threads;      /* threads per block */
    uint64_t block_dim[3];       /* per block dimension */
    uint64_t grid_dim[3];        /* CTAs per grid dimension */
    uint64_t shared_optin;       /* static + dynamic shared memory per block, opted in */
    uint64_t const_bytes;        /* constant data of a module */
    uint64_t local_bytes;        /* a thread's local frame must be below this */
    uint64_t cluster_ctas;       /* CTAs per cluster (the portable size) */
} lim = {
    EX_M_CTA_THREADS, { EX_M_CTA_DIM_X, EX_M_CTA_DIM_Y, EX_M_CTA_DIM_Z },
    { EX_M_GRID_DIM_X, EX_M_GRID_DIM_Y, EX_M_GRID_DIM_Z }, EX_M_CTA_SHARED, EX_M_CONST_BYTES,
    EX_M_LOCAL_BYTES, EX_M_CLUSTER_CTAS,
};

static isa_status_t refuse(char *out, size_t size, isa_status_t st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, size, fmt, ap);
    va_end(ap);
    return st;
}

/* The directive id of entry f, or NULL. */
static const isa_perf_t *perf(const isa_func_t *f, isa_dir_t id)
{
    for (uint32_t i = 0; i < f->nperf; i++)
        if (f->perf[i].id == id)
            return &f->perf[i];
    return NULL;
}

/* A warp's registers for regs per thread, in whole allocation units. */
static uint64_t reg_units(uint32_t regs)
{
    return ((uint64_t)regs * ISA_LANES + EX_M_REG_ALLOC_UNIT - 1) / EX_M_REG_ALLOC_UNIT * EX_M_REG_ALLOC_UNIT;
}

/* Whether warps of regs registers each fit in a CTA: the driver counts the warps rounded up
 * to a whole number per sub-partition (measured: the largest blocks of kernels of 72, 136
 * and 208 registers are 896, 384 and 256 threads). */
static bool regs_fit(uint32_t regs, uint64_t warps)
{
    uint64_t w = (warps + EX_M_SM_PARTITIONS - 1) / EX_M_SM_PARTITIONS * EX_M_SM_PARTITIONS;
    return regs <= EX_M_THREAD_REGS && reg_units(regs) * w <= EX_M_CTA_REGS;
}

void ex_set_entry_regs(ex_program_t *p, uint32_t entry, uint32_t regs)
{
    if (entry < p->m->nfunc)
        p->funcs[entry].hw_regs = regs;
}

uint32_t ex_entry_regs(const ex_program_t *p, uint32_t entry)
{
    return entry < p->m->nfunc ? p->funcs[entry].hw_regs : 0;
}

uint32_t ex_entry_max_threads(const ex_program_t *p, uint32_t entry)
{
    uint32_t regs = ex_entry_regs(p, entry), w = EX_M_CTA_THREADS / ISA_LANES;
    while (regs && w && !regs_fit(regs, w))
        w--;
    return w * ISA_LANES;
}

/* Lay out a shared variable at *off (aligned), as ptxas would. */
static void add_var(uint64_t *off, const isa_var_t *v)
{
    uint64_t a = isa_var_align(v) ? isa_var_align(v) : 1;
    if (isa_spaces[v->space].window == ISA_SP_SHARED && !(v->flags & ISA_VARF_UNSIZED))
        *off = (*off + a - 1) / a * a + isa_var_size(v);
}

/* Static shared memory of function fi and the functions it reaches, as ptxas counts
 * it: their function-scope variables and the module-scope ones they use; seen_fn and
 * seen_var mark what was counted. */
static void shared_of(const isa_module_t *m, uint32_t fi, uint8_t *seen_fn, uint8_t *seen_var, uint64_t *off)
{
    if (seen_fn[fi])
        return;
    seen_fn[fi] = 1;
    const isa_func_t *fn = &m->funcs[fi];
    for (uint32_t v = 0; v < fn->nvar; v++)
        add_var(off, &fn->vars[v]);
    for (uint32_t k = 0; k < fn->nopd; k++) {
        const isa_operand_t *o = &fn->opds[k];
        if (o->kind == ISA_OPD_FUNC && m->funcs[o->u.func].has_body)
            shared_of(m, o->u.func, seen_fn, seen_var, off);
        bool sym = o->kind == ISA_OPD_SYM || (o->kind == ISA_OPD_ADDR && o->base == ISA_OPD_SYM);
        if (sym && (o->flags & ISA_OPDF_MODSYM) && !seen_var[o->u.sym]) {
            seen_var[o->u.sym] = 1;
            add_var(off, &m->vars[o->u.sym]);
        }
    }
}

uint64_t ex_entry_shared(const ex_program_t *p, uint32_t entry)
{
    /* counted once per entry: launches and the driver's attributes ask again and again */
    uint64_t known = __atomic_load_n(&p->entry_shared[entry], __ATOMIC_RELAXED);
    if (known)
        return known - 1;
    const isa_module_t *m = p->m;
    uint8_t *sf = calloc(m->nfunc + 1, 1), *sv = calloc(m->nvar + 1, 1);
    uint64_t n = 0;
    if (sf && sv)
        shared_of(m, entry, sf, sv, &n);
    else
        n = UINT64_MAX;                   /* no memory to count with: refused as too much */
    free(sf);
    free(sv);
    if (n != UINT64_MAX)
        __atomic_store_n(&p->entry_shared[entry], n + 1, __ATOMIC_RELAXED);
    return n;
}

isa_status_t ex_launch_check(const ex_program_t *p, uint32_t entry, const ex_launch_t *l, char *out_msg,
                             size_t size)
{
    const isa_module_t *m = p->m;
    const isa_func_t *f = &m->funcs[entry];
    const uint64_t *b = (const uint64_t[3]){ l->block[0], l->block[1], l->block[2] };
    const uint64_t *g = (const uint64_t[3]){ l->grid[0], l->grid[1], l->grid[2] };
    static const char dims[3] = { 'x', 'y', 'z' };
    /* What the driver's JIT refuses when the module is loaded (CUDA_ERROR_INVALID_PTX):
     * more than 64 KB of constant data, an entry with more static shared memory than a
     * block may have. */
    if (p->consts_size > lim.const_bytes)
        return refuse(out_msg, size, ISA_ST_SYNTAX,
                      "the module has %llu bytes of constant data, more than %llu (CUDA_ERROR_INVALID_PTX)",
                      (unsigned long long)p->consts_size, (unsigned long long)lim.const_bytes);
    if (!__atomic_load_n(&p->entry_shared[m->nfunc], __ATOMIC_RELAXED)) {   /* once per module */
        for (uint32_t i = 0; i < m->nfunc; i++) {
            if (!m->funcs[i].is_entry || !m->funcs[i].has_body)
                continue;
            uint64_t s = ex_entry_shared(p, i);
            if (s > lim.shared_optin)
                return refuse(out_msg, size, ISA_ST_SYNTAX,
                              "entry %s uses %llu bytes of static shared memory, more than %llu "
                              "(CUDA_ERROR_INVALID_PTX)", m->funcs[i].name, (unsigned long long)s,
                              (unsigned long long)lim.shared_optin);
        }
        __atomic_store_n(&p->entry_shared[m->nfunc], 1, __ATOMIC_RELAXED);
    }
    /* What cuLaunchKernel refuses (CUDA_ERROR_INVALID_VALUE). */
    for (unsigned d = 0; d < 3; d++)
        if (b[d] == 0 || b[d] > lim.block_dim[d])
            return refuse(out_msg, size, ISA_ST_USAGE, "block dimension %c is %llu, %s %llu "
                          "(CUDA_ERROR_INVALID_VALUE)", dims[d], (unsigned long long)b[d],
                          b[d] ? "more than" : "not 1 to", (unsigned long long)lim.block_dim[d]);
    uint64_t threads = b[0] * b[1] * b[2];   /* each at most 1024 now: no overflow */
    if (threads > lim.block_threads)
        return refuse(out_msg, size, ISA_ST_USAGE, "a block of %llu threads, more than %llu "
                      "(CUDA_ERROR_INVALID_VALUE)", (unsigned long long)threads,
                      (unsigned long long)lim.block_threads);
    for (unsigned d = 0; d < 3; d++)
        if (g[d] == 0 || g[d] > lim.grid_dim[d])
            return refuse(out_msg, size, ISA_ST_USAGE, "grid dimension %c is %llu, %s %llu "
                          "(CUDA_ERROR_INVALID_VALUE)", dims[d], (unsigned long long)g[d],
                          g[d] ? "more than" : "not 1 to", (unsigned long long)lim.grid_dim[d]);
    uint64_t st = ex_entry_shared(p, entry), dyn = l->shared_bytes;
    if (st + dyn > lim.shared_optin)
        return refuse(out_msg, size, ISA_ST_USAGE, "%llu bytes of static and %llu of dynamic shared memory, "
                      "more than %llu together (CUDA_ERROR_INVALID_VALUE)", (unsigned long long)st,
                      (unsigned long long)dyn, (unsigned long long)lim.shared_optin);
    const isa_perf_t *d;
    if ((d = perf(f, ISA_D_REQNTID)) != NULL) {
        for (unsigned k = 0; k < 3; k++)
            if (b[k] != (k < d->n ? d->v[k] : 1))
                return refuse(out_msg, size, ISA_ST_USAGE, "the block (%llu,%llu,%llu) is not the .reqntid "
                              "of entry %s (CUDA_ERROR_INVALID_VALUE)", (unsigned long long)b[0],
                              (unsigned long long)b[1], (unsigned long long)b[2], f->name);
    }
    if ((d = perf(f, ISA_D_MAXNTID)) != NULL) {
        uint64_t most = 1;
        for (unsigned k = 0; k < d->n; k++)
            most *= d->v[k];
        if (threads > most)
            return refuse(out_msg, size, ISA_ST_USAGE, "a block of %llu threads, more than the .maxntid "
                          "of entry %s allows (%llu) (CUDA_ERROR_INVALID_VALUE)", (unsigned long long)threads,
                          f->name, (unsigned long long)most);
    }
    uint32_t regs = p->funcs[entry].hw_regs;
    if (regs && !regs_fit(regs, (threads + ISA_LANES - 1) / ISA_LANES))
        return refuse(out_msg, size, ISA_ST_USAGE, "a block of %llu threads, more than the %u that entry %s's %u "
                      "registers per thread leave room for (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)",
                      (unsigned long long)threads, ex_entry_max_threads(p, entry), f->name, regs);
    /* Clusters (measured: tests/apps/clusters.cu): a launch's cluster dimension must be the
     * entry's .reqnctapercluster where it has one, and divide the grid; at most 8 CTAs, 16
     * where the function allows the non-portable size; .explicitcluster needs a dimension. */
    uint32_t cd[3];
    bool given = l->cluster[0] | l->cluster[1] | l->cluster[2];
    bool clustered = ex_launch_cluster(p, entry, l, cd);
    if (given && (d = perf(f, ISA_D_REQNCTAPERCLUSTER)) != NULL) {
        for (unsigned k = 0; k < 3; k++)
            if (cd[k] != (k < d->n ? d->v[k] : 1))
                return refuse(out_msg, size, ISA_ST_USAGE, "the cluster dimension (%u,%u,%u) is not the "
                              ".reqnctapercluster of entry %s (CUDA_ERROR_INVALID_CLUSTER_SIZE)", cd[0], cd[1],
                              cd[2], f->name);
    }
    if (!clustered && perf(f, ISA_D_EXPLICITCLUSTER))
        return refuse(out_msg, size, ISA_ST_USAGE, "entry %s is .explicitcluster: its launch must give a cluster "
                      "dimension (CUDA_ERROR_INVALID_CLUSTER_SIZE)", f->name);
    if (clustered) {
        uint64_t n = (uint64_t)cd[0] * cd[1] * cd[2];
        uint64_t most = l->cluster_nonportable ? EX_M_CLUSTER_CTAS_MAX : lim.cluster_ctas;
        if ((d = perf(f, ISA_D_MAXCLUSTERRANK)) != NULL && d->n && d->v[0] < most)
            most = d->v[0];
        if (cd[0] == 0 || cd[1] == 0 || cd[2] == 0 || n > most)
            return refuse(out_msg, size, ISA_ST_USAGE, "clusters of (%u,%u,%u) CTAs, more than the %llu %s "
                          "(CUDA_ERROR_INVALID_CLUSTER_SIZE)", cd[0], cd[1], cd[2], (unsigned long long)most,
                          most == EX_M_CLUSTER_CTAS_MAX ? "allowed" : perf(f, ISA_D_MAXCLUSTERRANK) ?
                          "its .maxclusterrank allows" : "of the portable size (more needs "
                          "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)");
        for (unsigned k = 0; k < 3; k++)
            if (g[k] % cd[k])
                return refuse(out_msg, size, ISA_ST_USAGE, "the grid (%llu,%llu,%llu) is not made of clusters of "
                              "(%u,%u,%u) CTAs (CUDA_ERROR_INVALID_CLUSTER_SIZE)", (unsigned long long)g[0],
                              (unsigned long long)g[1], (unsigned long long)g[2], cd[0], cd[1], cd[2]);
    }
    if (l->cooperative) {
        uint64_t total = g[0] * g[1] * g[2];
        uint64_t cap = clustered ? ex_resident_clusters(p, entry, l, cd[0] * cd[1] * cd[2]) * cd[0] * cd[1] * cd[2]
                                 : ex_resident_ctas(p, entry, l);
        if (total > cap)
            return refuse(out_msg, size, ISA_ST_USAGE, "a cooperative grid of %llu CTAs, more than the %llu "
                          "that can be resident at once (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)",
                          (unsigned long long)total, (unsigned long long)cap);
    }
    if ((uint64_t)p->funcs[entry].local_size + p->module_local >= lim.local_bytes)
        return refuse(out_msg, size, ISA_ST_USAGE, "entry %s has %llu bytes of local memory per thread, "
                      "at least %llu (CUDA_ERROR_INVALID_VALUE)", f->name,
                      (unsigned long long)p->funcs[entry].local_size + p->module_local,
                      (unsigned long long)lim.local_bytes);
    return ISA_ST_OK;
}

/* The SMs of each GPC of the emulated H100 SXM (132 in all), as its driver's cluster
 * occupancy shows (tests/apps/cluster_occupancy.cu: cudaOccupancyMaxActiveClusters for
 * clusters of 1 to 16 CTAs and 1 to 8 CTAs per SM on an H100 and an H200, the same values):
 * a cluster's CTAs are resident in one GPC, and a GPC of g SMs with k CTA slots each holds
 * g * k / size clusters when the size is at most g. */
static const uint8_t gpc_sms[] = { 18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2 };

uint64_t ex_resident_clusters(const ex_program_t *p, uint32_t entry, const ex_launch_t *l, uint32_t size)
{
    uint64_t k = ex_resident_ctas(p, entry, l) / EX_M_SMS, n = 0;
    k = k < EX_M_CLUSTER_SM_CTAS ? k : EX_M_CLUSTER_SM_CTAS;
    for (unsigned i = 0; i < sizeof gpc_sms; i++)
        if (size && size <= gpc_sms[i])
            n += gpc_sms[i] * k / size;
    return n;
}

bool ex_launch_cluster(const ex_program_t *p, uint32_t entry, const ex_launch_t *l, uint32_t out[3])
{
    if (l->cluster[0] | l->cluster[1] | l->cluster[2]) {
        memcpy(out, l->cluster, 3 * sizeof *out);
        return true;
    }
    const isa_perf_t *d = perf(&p->m->funcs[entry], ISA_D_REQNCTAPERCLUSTER);
    for (unsigned k = 0; k < 3; k++)
        out[k] = d && k < d->n ? (uint32_t)d->v[k] : 1;
    return d != NULL;
}

uint64_t ex_resident_ctas(const ex_program_t *p, uint32_t entry, const ex_launch_t *l)
{
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t warps = (threads + ISA_LANES - 1) / ISA_LANES;
    if (warps == 0)
        return EX_M_SMS;
    uint64_t per_sm = EX_M_SM_CTAS;
    uint64_t w = EX_M_SM_WARPS / warps, t = EX_M_SM_THREADS / (warps * ISA_LANES);
    per_sm = w < per_sm ? w : per_sm;
    per_sm = t < per_sm ? t : per_sm;
    /* Shared memory: the CTA's own and the 1 KiB the system reserves for each. */
    uint64_t sh = ex_entry_shared(p, entry) + l->shared_bytes + EX_M_CTA_SHARED_RESERVED;
    uint64_t s = EX_M_SM_SHARED / sh;
    per_sm = s < per_sm ? s : per_sm;
    /* Registers: each sub-partition holds a quarter of the SM's, in whole warps' allocation
     * units (measured: tests/apps/func_regs.cu, the H100's occupancy of kernels of 8 to 208
     * registers).  Where the entry's own count is not known, .maxnreg is its upper bound; a
     * bound that would leave no room for one CTA is not applied: the driver launches such
     * kernels (maxnreg_255 with 1024 threads, tests/golden/limits), so ptxas gave them fewer. */
    uint32_t regs = p->funcs[entry].hw_regs;
    const isa_perf_t *d = perf(&p->m->funcs[entry], ISA_D_MAXNREG);
    if (regs || (d && d->n && d->v[0])) {
        uint64_t per_warp = reg_units(regs ? regs : (uint32_t)d->v[0]);
        uint64_t r = EX_M_SM_REGS / EX_M_SM_PARTITIONS / per_warp * EX_M_SM_PARTITIONS / warps;
        if (regs || (r > 0 && r < per_sm))
            per_sm = r < per_sm ? r : per_sm;
    }
    if (regs && !per_sm)
        return 0;
    per_sm = per_sm ? per_sm : 1;
    return per_sm * EX_M_SMS;
}
