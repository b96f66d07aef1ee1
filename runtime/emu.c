/* emu.c: the emulator backend: the process's emulated device, the buffers mapped as its
 * global memory (device addresses are host addresses) for the run, the parameter block
 * passed as it is, and the fault of a launch that fails printed on diag. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/rt.h"

static ex_device_t   *device;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

static bool env_on(const char *name)
{
    const char *e = getenv(name);
    return e && *e && strcmp(e, "0") != 0;
}

/* PTXEMU_NO_INLINE=1 (ptxrun --no-inline): calls stay calls; PTXEMU_EXACT_BOUNDS=1
 * (ptxrun --exact-bounds): module variables are mapped exactly. */
static void device_make(void)
{
    ex_device_config_t cfg = { .no_inline = env_on("PTXEMU_NO_INLINE"),
                               .exact_bounds = env_on("PTXEMU_EXACT_BOUNDS") };
    device = ex_device_new(&cfg);
}

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

/*{=====================================================================
 * Texture and surface arguments on the emulator: an array (or the buffer itself, for
 * linear memory; a pitched copy for pitch 2D) and an object on the device for the run
 *====================================================================*/
typedef struct {
    ex_array_t *array;
    uint64_t    handle;
    void       *mem;      /* mapped memory of a linear or pitched resource */
} emu_tex_t;

static isa_status_t tex_make(ex_device_t *d, const rt_buffer_t *b, uint32_t k, emu_tex_t *e, FILE *diag)
{
    const rt_tex_t *t = &b->tex;
    char msg[160] = "";
    isa_status_t r;
    ex_res_desc_t res = { 0 };
    size_t eb = isa_types[b->type].bits / 8, texel = eb * t->array.channels;
    if (t->geom == RT_G_LIN || t->geom == RT_G_PITCH) {
        size_t row = texel * t->array.width, h = t->geom == RT_G_PITCH ? t->array.height : 1;
        size_t pitch = t->geom == RT_G_PITCH ? t->pitch : row, bytes = pitch * h;
        if (!(e->mem = aligned_alloc(256, (bytes + 255) / 256 * 256)))
            return ISA_ST_NOMEM;
        memset(e->mem, 0, (bytes + 255) / 256 * 256);
        for (size_t y = 0; y < h; y++)
            memcpy((uint8_t *)e->mem + y * pitch, (const uint8_t *)b->host + y * row, row);
        if ((r = ex_device_map(d, e->mem, bytes)) != ISA_ST_OK) {
            free(e->mem);
            e->mem = NULL;
            return r;
        }
        res.kind = t->geom == RT_G_LIN ? EX_RES_LINEAR : EX_RES_PITCH2D;
        res.addr = (uint64_t)(uintptr_t)e->mem;
        res.format = t->array.format;
        res.channels = t->array.channels;
        res.bytes = bytes;
        res.width = t->array.width;
        res.height = t->array.height;
        res.pitch = pitch;
    } else {
        if ((r = ex_array_new(d, &t->array, &e->array, msg, sizeof msg)) != ISA_ST_OK)
            goto fail;
        const uint8_t *src = b->host;
        for (unsigned l = 0; l < t->array.levels; l++) {
            uint32_t ext[3];
            uint8_t *dst = ex_array_level(e->array, l, ext);
            size_t n = (size_t)rt_tex_level_texels(&t->array, l) * texel;
            memcpy(dst, src, n);
            src += n;
        }
        res.kind = t->array.levels > 1 ? EX_RES_MIPMAP : EX_RES_ARRAY;
        res.array = e->array;
    }
    r = t->kind == RT_RES_TEX ? ex_tex_create(d, &res, &t->sampler, &e->handle, msg, sizeof msg)
                              : ex_surf_create(d, &res, &e->handle, msg, sizeof msg);
    if (r == ISA_ST_OK)
        return r;
fail:
    fprintf(diag, "ptxrun: error: argument %u: cannot make the %s: %s\n", k,
            t->kind == RT_RES_TEX ? "texture" : "surface", msg[0] ? msg : isa_status_str(r));
    return r;
}

/* After the run: a surface's texels back into its buffer; the object and its memory go. */
static void tex_finish(ex_device_t *d, rt_buffer_t *b, emu_tex_t *e)
{
    const rt_tex_t *t = &b->tex;
    if (e->handle)
        ex_tex_destroy(d, e->handle);
    if (e->array) {
        if (t->kind == RT_RES_SURF) {
            size_t texel = isa_types[b->type].bits / 8 * t->array.channels;
            uint32_t ext[3];
            memcpy(b->host, ex_array_level(e->array, 0, ext), (size_t)rt_tex_level_texels(&t->array, 0) * texel);
        }
        ex_array_free(e->array);
    }
    if (e->mem) {
        ex_device_unmap(d, e->mem);
        free(e->mem);
    }
    memset(e, 0, sizeof *e);
}
/*}=====================================================================*/

isa_status_t rt_run_emu(ex_program_t *p, uint32_t entry, const ex_launch_t *l, rt_args_t *a, unsigned repeat,
                        FILE *diag, ex_stats_t *out_stats)
{
    ex_device_t *d = ex_program_device(p);
    uint32_t mapped = 0;
    isa_status_t r = ISA_ST_OK;
    emu_tex_t *tx = calloc(a->nbuf ? a->nbuf : 1, sizeof *tx);
    if (!tx)
        return ISA_ST_NOMEM;
    for (; mapped < a->nbuf && r == ISA_ST_OK; mapped++)
        if (a->bufs[mapped].bytes && a->bufs[mapped].tex.kind == RT_RES_BUFFER)
            r = ex_device_map(d, a->bufs[mapped].host, a->bufs[mapped].bytes);
    if (r != ISA_ST_OK) {
        fprintf(diag, "ptxrun: error: cannot map buffer %u as global memory: %s\n", mapped - 1,
                isa_status_str(r));
        mapped--;
    }
    /* Texture and surface objects: their handles replace the buffers' addresses. */
    for (uint32_t k = 0; k < a->nparam && r == ISA_ST_OK; k++) {
        int32_t bi = a->param_buffer[k];
        if (bi < 0 || a->bufs[bi].tex.kind == RT_RES_BUFFER)
            continue;
        if ((r = tex_make(d, &a->bufs[bi], k, &tx[bi], diag)) == ISA_ST_OK)
            memcpy(a->params + a->param_offset[k], &tx[bi].handle, 8);
    }
    /* References: the handle goes into the .texref/.surfref variable */
    for (uint32_t i = 0; i < a->nbuf && r == ISA_ST_OK; i++) {
        if (!a->bufs[i].ref)
            continue;
        uint8_t *var = ex_program_var_host(p, a->bufs[i].ref_var);
        if (!var) {
            fprintf(diag, "ptxrun: error: %s is not a .global reference\n", a->bufs[i].ref);
            r = ISA_ST_USAGE;
        } else if ((r = tex_make(d, &a->bufs[i], i, &tx[i], diag)) == ISA_ST_OK) {
            memcpy(var, &tx[i].handle, 8);
        }
    }
    ex_stats_t st;
    ex_stats_t *sp = out_stats ? out_stats : &st;
    double t0 = now();
    uint64_t ti = 0;
    unsigned n = 0;
    for (; r == ISA_ST_OK && n < (repeat ? repeat : 1); n++) {
        r = ex_launch(p, entry, l, a->params, a->params_size, sp);
        ti += sp->thread_instrs;
        free(sp->detail);    /* the statistics went to the device's observers */
        sp->detail = NULL;
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
    for (uint32_t k = 0; k < a->nparam; k++) {
        int32_t bi = a->param_buffer[k];
        if (bi < 0 || a->bufs[bi].tex.kind == RT_RES_BUFFER)
            continue;
        tex_finish(d, &a->bufs[bi], &tx[bi]);
        uint64_t addr = (uint64_t)(uintptr_t)a->bufs[bi].host;
        memcpy(a->params + a->param_offset[k], &addr, 8);
    }
    for (uint32_t i = 0; i < a->nbuf; i++)
        if (a->bufs[i].ref) {
            uint8_t *var = ex_program_var_host(p, a->bufs[i].ref_var);
            if (var)
                memset(var, 0, 8);       /* unbound again */
            tex_finish(d, &a->bufs[i], &tx[i]);
        }
    free(tx);
    for (uint32_t i = 0; i < mapped; i++)
        if (a->bufs[i].bytes && a->bufs[i].tex.kind == RT_RES_BUFFER)
            ex_device_unmap(d, a->bufs[i].host);
    return r;
}
