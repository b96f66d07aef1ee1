/* cuda.c: the CUDA backend: runs a launch on a real GPU through the driver API, loaded
 * at run time with dlopen("libcuda.so.1") so that building needs no CUDA at all. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/* The few driver types and constants used here, as the driver API defines them. */
typedef int cu_result_t;                 /* CUresult; 0 is CUDA_SUCCESS */
typedef int cu_device_t;                 /* CUdevice */
typedef struct cu_ctx *cu_context_t;     /* CUcontext */
typedef struct cu_mod *cu_module_t;      /* CUmodule */
typedef struct cu_func *cu_function_t;   /* CUfunction */
typedef unsigned long long cu_ptr_t;     /* CUdeviceptr */
typedef struct cu_array *cu_array_t;     /* CUarray */
typedef struct cu_mmarray *cu_mmarray_t; /* CUmipmappedArray */
typedef struct cu_texref *cu_texref_t;   /* CUtexref */
typedef struct cu_surfref *cu_surfref_t; /* CUsurfref */
/* CUDA_ARRAY_DESCRIPTOR (cuTexRefSetAddress2D) */
typedef struct { size_t width, height; int format; unsigned channels; } cu_array_desc_t;
/* CUDA_ARRAY3D_DESCRIPTOR, CUDA_MEMCPY3D, CUDA_RESOURCE_DESC and CUDA_TEXTURE_DESC, field
 * for field as the driver API lays them out. */
typedef struct {
    size_t width, height, depth;
    int format;                          /* CUarray_format */
    unsigned channels, flags;
} cu_array3d_desc_t;
typedef struct {
    size_t src_x, src_y, src_z, src_lod;
    int src_type;                        /* CUmemorytype: 1 host, 2 device, 3 array */
    const void *src_host;
    cu_ptr_t src_dev;
    cu_array_t src_array;
    void *reserved0;
    size_t src_pitch, src_height;
    size_t dst_x, dst_y, dst_z, dst_lod;
    int dst_type;
    void *dst_host;
    cu_ptr_t dst_dev;
    cu_array_t dst_array;
    void *reserved1;
    size_t dst_pitch, dst_height;
    size_t width_bytes, height, depth;
} cu_memcpy3d_t;
typedef struct {
    int type;                            /* CUresourcetype */
    union {
        struct { cu_array_t array; } array;
        struct { cu_mmarray_t mm; } mipmap;
        struct { cu_ptr_t dev; int format; unsigned channels; size_t bytes; } linear;
        struct { cu_ptr_t dev; int format; unsigned channels; size_t width, height, pitch; } pitch2d;
        int reserved[32];
    } res;
    unsigned flags;
} cu_res_desc_t;
typedef struct {
    int address[3];
    int filter;
    unsigned flags, max_aniso;
    int mip_filter;
    float lod_bias, min_lod, max_lod;
    float border[4];
    int reserved[12];
} cu_tex_desc_t;
/* cuLaunchKernelEx's configuration, for a launch in clusters. */
typedef struct {
    int id;                              /* CUlaunchAttributeID: 4 the cluster dimension, */
    char pad[4];                         /* 2 cooperative */
    union { char raw[64]; struct { unsigned x, y, z; } dim; int flag; } value;
} cu_launch_attr_t;
typedef struct {
    unsigned grid[3], block[3], shared;
    void *stream;
    cu_launch_attr_t *attrs;
    unsigned nattrs;
} cu_launch_config_t;
/* CUarray_format of each ex_fmt_t. */
static const int cu_formats[EX_FMT__COUNT] = { 0x01, 0x02, 0x03, 0x08, 0x09, 0x0a, 0x10, 0x20 };
enum {
    CU_JIT_INFO_LOG_BUFFER = 3, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14
};

/* The driver entry points, looked up by name (the _v2 names are the 64-bit ones). */
#define CU_FUNCS(X) \
    X(cuInit, (unsigned)) \
    X(cuDeviceGet, (cu_device_t *, int)) \
    X(cuDevicePrimaryCtxRetain, (cu_context_t *, cu_device_t)) \
    X(cuCtxSetCurrent, (cu_context_t)) \
    X(cuCtxSetLimit, (int, size_t)) \
    X(cuModuleLoadDataEx, (cu_module_t *, const void *, unsigned, int *, void **)) \
    X(cuModuleUnload, (cu_module_t)) \
    X(cuModuleGetFunction, (cu_function_t *, cu_module_t, const char *)) \
    X(cuFuncSetAttribute, (cu_function_t, int, int)) \
    X(cuMemAlloc_v2, (cu_ptr_t *, size_t)) \
    X(cuMemFree_v2, (cu_ptr_t)) \
    X(cuMemcpyHtoD_v2, (cu_ptr_t, const void *, size_t)) \
    X(cuMemcpyDtoH_v2, (void *, cu_ptr_t, size_t)) \
    X(cuLaunchKernel, (cu_function_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, \
                       unsigned, void *, void **, void **)) \
    X(cuLaunchCooperativeKernel, (cu_function_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, \
                                  unsigned, void *, void **)) \
    X(cuLaunchKernelEx, (const cu_launch_config_t *, cu_function_t, void **, void **)) \
    X(cuCtxSynchronize, (void)) \
    X(cuGetErrorString, (cu_result_t, const char **)) \
    X(cuGetErrorName, (cu_result_t, const char **)) \
    X(cuArray3DCreate_v2, (cu_array_t *, const cu_array3d_desc_t *)) \
    X(cuArrayDestroy, (cu_array_t)) \
    X(cuMipmappedArrayCreate, (cu_mmarray_t *, const cu_array3d_desc_t *, unsigned)) \
    X(cuMipmappedArrayGetLevel, (cu_array_t *, cu_mmarray_t, unsigned)) \
    X(cuMipmappedArrayDestroy, (cu_mmarray_t)) \
    X(cuMemcpy3D_v2, (const cu_memcpy3d_t *)) \
    X(cuTexObjectCreate, (unsigned long long *, const cu_res_desc_t *, const cu_tex_desc_t *, const void *)) \
    X(cuTexObjectDestroy, (unsigned long long)) \
    X(cuSurfObjectCreate, (unsigned long long *, const cu_res_desc_t *)) \
    X(cuSurfObjectDestroy, (unsigned long long)) \
    X(cuModuleGetTexRef, (cu_texref_t *, cu_module_t, const char *)) \
    X(cuModuleGetSurfRef, (cu_surfref_t *, cu_module_t, const char *)) \
    X(cuTexRefSetArray, (cu_texref_t, cu_array_t, unsigned)) \
    X(cuTexRefSetMipmappedArray, (cu_texref_t, cu_mmarray_t, unsigned)) \
    X(cuTexRefSetAddress_v2, (size_t *, cu_texref_t, cu_ptr_t, size_t)) \
    X(cuTexRefSetAddress2D_v3, (cu_texref_t, const cu_array_desc_t *, cu_ptr_t, size_t)) \
    X(cuTexRefSetFormat, (cu_texref_t, int, int)) \
    X(cuTexRefSetAddressMode, (cu_texref_t, int, int)) \
    X(cuTexRefSetFilterMode, (cu_texref_t, int)) \
    X(cuTexRefSetFlags, (cu_texref_t, unsigned)) \
    X(cuTexRefSetBorderColor, (cu_texref_t, float *)) \
    X(cuTexRefSetMaxAnisotropy, (cu_texref_t, unsigned)) \
    X(cuTexRefSetMipmapFilterMode, (cu_texref_t, int)) \
    X(cuTexRefSetMipmapLevelBias, (cu_texref_t, float)) \
    X(cuTexRefSetMipmapLevelClamp, (cu_texref_t, float, float)) \
    X(cuSurfRefSetArray, (cu_surfref_t, cu_array_t, unsigned))

typedef struct {
#define CU_FIELD(name, args) cu_result_t (*name) args;
    CU_FUNCS(CU_FIELD)
#undef CU_FIELD
} cu_api_t;

static bool cu_load(cu_api_t *api, FILE *diag)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(diag, "ptxrun: error: no CUDA driver (libcuda.so.1) found\n");
        return false;
    }
#define CU_SYM(name, args)                                                          \
    if (!(*(void **)&api->name = dlsym(h, #name))) {                                \
        fprintf(diag, "ptxrun: error: the CUDA driver lacks %s\n", #name);          \
        return false;                                                               \
    }
    CU_FUNCS(CU_SYM)
#undef CU_SYM
    return true;
}

/* "ptxrun: error: cuda: WHAT: NAME: description". */
static void cu_report(const cu_api_t *api, FILE *diag, const char *what, cu_result_t r)
{
    const char *name = NULL, *str = NULL;
    api->cuGetErrorName(r, &name);
    api->cuGetErrorString(r, &str);
    fprintf(diag, "ptxrun: error: cuda: %s: %s: %s\n", what, name ? name : "?", str ? str : "unknown error");
}

isa_status_t rt_cuda_check(FILE *diag)
{
    cu_api_t api;
    cu_result_t r;
    cu_device_t dev;
    if (!cu_load(&api, diag))
        return ISA_ST_UNSUPPORTED;
    if ((r = api.cuInit(0)) != 0) {
        cu_report(&api, diag, "no usable GPU (cuInit)", r);
        return ISA_ST_UNSUPPORTED;
    }
    if ((r = api.cuDeviceGet(&dev, 0)) != 0) {
        cu_report(&api, diag, "no usable GPU (cuDeviceGet)", r);
        return ISA_ST_UNSUPPORTED;
    }
    return ISA_ST_OK;
}

/*{=====================================================================
 * Texture and surface arguments: the same objects through the driver
 *====================================================================*/
typedef struct {
    cu_array_t   array;
    cu_mmarray_t mm;
    cu_ptr_t     mem;
    unsigned long long handle;
} cu_tex_t;

/* Copy level l of b's texels (starting at src in the buffer) into array a, or back. */
static cu_result_t level_copy(const cu_api_t *api, const rt_buffer_t *b, cu_array_t a, unsigned l, uint8_t *host,
                              bool back)
{
    const ex_array_desc_t *q = &b->tex.array;
    size_t texel = isa_types[b->type].bits / 8 * q->channels;
    bool layered = q->flags & (EX_ARRAY_LAYERED | EX_ARRAY_CUBE);
    size_t w = q->width >> l, h = q->height >> l, d = layered ? q->depth : q->depth >> l;
    w = w ? w : 1;
    h = q->height ? (h ? h : 1) : 1;
    d = q->depth ? (d ? d : 1) : 1;
    cu_memcpy3d_t c;
    memset(&c, 0, sizeof c);
    if (back) {
        c.src_type = 3;
        c.src_array = a;
        c.dst_type = 1;
        c.dst_host = host;
        c.dst_pitch = w * texel;
        c.dst_height = h;
    } else {
        c.src_type = 1;
        c.src_host = host;
        c.src_pitch = w * texel;
        c.src_height = h;
        c.dst_type = 3;
        c.dst_array = a;
    }
    c.width_bytes = w * texel;
    c.height = h;
    c.depth = d;
    return api->cuMemcpy3D_v2(&c);
}

/* A module's texture reference given resource rd and the sampler state sd (deprecated
 * driver calls, which the driver still has). */
static cu_result_t texref_bind(const cu_api_t *api, cu_module_t mod, const rt_buffer_t *b, const cu_res_desc_t *rd,
                               const cu_tex_t *e, const char **what)
{
    const rt_tex_t *t = &b->tex;
    const ex_tex_desc_t *sd = &t->sampler;
    cu_texref_t tr;
    cu_result_t r;
#define TR(fn, ...) do { *what = #fn; if ((r = api->fn(__VA_ARGS__)) != 0) return r; } while (0)
    TR(cuModuleGetTexRef, &tr, mod, b->ref);
    switch (rd->type) {
    case 0: TR(cuTexRefSetArray, tr, e->array, 1 /* CU_TRSA_OVERRIDE_FORMAT */); break;
    case 1: TR(cuTexRefSetMipmappedArray, tr, e->mm, 1); break;
    case 2: {
        size_t off = 0;
        TR(cuTexRefSetFormat, tr, rd->res.linear.format, (int)rd->res.linear.channels);
        TR(cuTexRefSetAddress_v2, &off, tr, e->mem, rd->res.linear.bytes);
        if (off) {
            *what = "cuTexRefSetAddress (an offset)";
            return 1;
        }
        break;
    }
    default: {
        cu_array_desc_t ad = { rd->res.pitch2d.width, rd->res.pitch2d.height, rd->res.pitch2d.format,
                               rd->res.pitch2d.channels };
        TR(cuTexRefSetFormat, tr, rd->res.pitch2d.format, (int)rd->res.pitch2d.channels);
        TR(cuTexRefSetAddress2D_v3, tr, &ad, e->mem, rd->res.pitch2d.pitch);
        break;
    }
    }
    for (int k = 0; k < 3; k++)
        TR(cuTexRefSetAddressMode, tr, k, (int)sd->address[k]);
    TR(cuTexRefSetFilterMode, tr, (int)sd->filter);
    TR(cuTexRefSetFlags, tr, sd->flags);
    float border[4];
    memcpy(border, sd->border, sizeof border);
    TR(cuTexRefSetBorderColor, tr, border);
    if (rd->type == 1) {
        TR(cuTexRefSetMaxAnisotropy, tr, sd->max_aniso);
        TR(cuTexRefSetMipmapFilterMode, tr, (int)sd->mip_filter);
        TR(cuTexRefSetMipmapLevelBias, tr, sd->lod_bias);
        TR(cuTexRefSetMipmapLevelClamp, tr, sd->min_lod, sd->max_lod);
    }
#undef TR
    return 0;
}

/* A texture or surface object made from buffer b (its handle in e), or, for a buffer
 * bound to a module's reference, the reference bound to the same resource. */
static cu_result_t tex_make(const cu_api_t *api, cu_module_t mod, const rt_buffer_t *b, cu_tex_t *e,
                            const char **what)
{
    const rt_tex_t *t = &b->tex;
    const ex_array_desc_t *q = &t->array;
    size_t texel = isa_types[b->type].bits / 8 * q->channels;
    cu_res_desc_t rd;
    memset(&rd, 0, sizeof rd);
    cu_result_t r;
    if (t->geom == RT_G_LIN || t->geom == RT_G_PITCH) {
        size_t row = texel * q->width, h = t->geom == RT_G_PITCH ? q->height : 1;
        size_t pitch = t->geom == RT_G_PITCH ? t->pitch : row;
        uint8_t *img = calloc(pitch * h, 1);
        if (!img)
            return 2;   /* CUDA_ERROR_OUT_OF_MEMORY */
        for (size_t y = 0; y < h; y++)
            memcpy(img + y * pitch, (const uint8_t *)b->host + y * row, row);
        *what = "cuMemAlloc";
        if ((r = api->cuMemAlloc_v2(&e->mem, (pitch * h + 255) / 256 * 256)) == 0) {
            *what = "cuMemcpyHtoD";
            r = api->cuMemcpyHtoD_v2(e->mem, img, pitch * h);
        }
        free(img);
        if (r)
            return r;
        rd.type = t->geom == RT_G_LIN ? 2 : 3;
        if (t->geom == RT_G_LIN) {
            rd.res.linear.dev = e->mem;
            rd.res.linear.format = cu_formats[q->format];
            rd.res.linear.channels = q->channels;
            rd.res.linear.bytes = row;
        } else {
            rd.res.pitch2d.dev = e->mem;
            rd.res.pitch2d.format = cu_formats[q->format];
            rd.res.pitch2d.channels = q->channels;
            rd.res.pitch2d.width = q->width;
            rd.res.pitch2d.height = q->height;
            rd.res.pitch2d.pitch = pitch;
        }
    } else {
        cu_array3d_desc_t ad = { q->width, q->height, q->depth, cu_formats[q->format], q->channels, q->flags };
        uint8_t *src = b->host;
        if (q->levels > 1) {
            *what = "cuMipmappedArrayCreate";
            if ((r = api->cuMipmappedArrayCreate(&e->mm, &ad, q->levels)) != 0)
                return r;
            for (unsigned l = 0; l < q->levels; l++) {
                cu_array_t lv;
                *what = "cuMipmappedArrayGetLevel";
                if ((r = api->cuMipmappedArrayGetLevel(&lv, e->mm, l)) != 0)
                    return r;
                *what = "cuMemcpy3D";
                if ((r = level_copy(api, b, lv, l, src, false)) != 0)
                    return r;
                src += rt_tex_level_texels(q, l) * texel;
            }
            rd.type = 1;
            rd.res.mipmap.mm = e->mm;
        } else {
            *what = "cuArray3DCreate";
            if ((r = api->cuArray3DCreate_v2(&e->array, &ad)) != 0)
                return r;
            *what = "cuMemcpy3D";
            if ((r = level_copy(api, b, e->array, 0, src, false)) != 0)
                return r;
            rd.type = 0;
            rd.res.array.array = e->array;
        }
    }
    if (t->kind == RT_RES_SURF && b->ref) {
        cu_surfref_t sr;
        *what = "cuModuleGetSurfRef";
        if ((r = api->cuModuleGetSurfRef(&sr, mod, b->ref)) != 0)
            return r;
        *what = "cuSurfRefSetArray";
        return api->cuSurfRefSetArray(sr, e->array, 0);
    }
    if (t->kind == RT_RES_SURF) {
        *what = "cuSurfObjectCreate";
        return api->cuSurfObjectCreate(&e->handle, &rd);
    }
    if (b->ref)
        return texref_bind(api, mod, b, &rd, e, what);
    cu_tex_desc_t td;
    memset(&td, 0, sizeof td);
    const ex_tex_desc_t *sd = &t->sampler;
    for (unsigned k = 0; k < 3; k++)
        td.address[k] = (int)sd->address[k];
    td.filter = (int)sd->filter;
    td.flags = sd->flags;
    td.max_aniso = sd->max_aniso;
    td.mip_filter = (int)sd->mip_filter;
    td.lod_bias = sd->lod_bias;
    td.min_lod = sd->min_lod;
    td.max_lod = sd->max_lod;
    memcpy(td.border, sd->border, sizeof td.border);
    *what = "cuTexObjectCreate";
    return api->cuTexObjectCreate(&e->handle, &rd, &td, NULL);
}

static void tex_free(const cu_api_t *api, cu_tex_t *e, bool surface)
{
    if (e->handle)
        surface ? api->cuSurfObjectDestroy(e->handle) : api->cuTexObjectDestroy(e->handle);
    if (e->array)
        api->cuArrayDestroy(e->array);
    if (e->mm)
        api->cuMipmappedArrayDestroy(e->mm);
    if (e->mem)
        api->cuMemFree_v2(e->mem);
    memset(e, 0, sizeof *e);
}
/*}=====================================================================*/

isa_status_t rt_run_cuda(const isa_module_t *m, uint32_t entry, const ex_launch_t *l, rt_args_t *a,
                         FILE *diag)
{
    cu_api_t api;
    if (!cu_load(&api, diag))
        return ISA_ST_UNSUPPORTED;
    isa_status_t st = ISA_ST_UNSUPPORTED;
    cu_result_t r;
    cu_device_t dev;
    cu_context_t ctx;
    cu_module_t mod = NULL;
    cu_function_t fn;
    cu_ptr_t *dptr = calloc(a->nbuf ? a->nbuf : 1, sizeof *dptr);
    cu_tex_t *tx = calloc(a->nbuf ? a->nbuf : 1, sizeof *tx);
    uint8_t *params = malloc(a->params_size ? a->params_size : 1);
    void **kparams = calloc(a->nparam ? a->nparam : 1, sizeof *kparams);
    static char errlog[16384], infolog[4096];
    const char *what;
    bool launched = false;
#define CU_TRY(fn, ...) do { what = #fn; if ((r = api.fn(__VA_ARGS__)) != 0) goto fail; } while (0)
    if (!dptr || !params || !kparams || !tx) {
        fprintf(diag, "ptxrun: error: out of memory\n");
        st = ISA_ST_NOMEM;
        goto done;
    }
    if ((r = api.cuInit(0)) != 0) {
        cu_report(&api, diag, "no usable GPU (cuInit)", r);
        goto done;
    }
    CU_TRY(cuDeviceGet, &dev, 0);
    CU_TRY(cuDevicePrimaryCtxRetain, &ctx, dev);
    CU_TRY(cuCtxSetCurrent, ctx);
    /* ptxrun's --printf-fifo and --heap (through the environment, as for programs) */
    const char *lim;
    if ((lim = getenv("PTXEMU_PRINTF_FIFO")) && *lim)
        CU_TRY(cuCtxSetLimit, 1 /* CU_LIMIT_PRINTF_FIFO_SIZE */, (size_t)strtoull(lim, NULL, 10));
    if ((lim = getenv("PTXEMU_HEAP")) && *lim)
        CU_TRY(cuCtxSetLimit, 2 /* CU_LIMIT_MALLOC_HEAP_SIZE */, (size_t)strtoull(lim, NULL, 10));

    /* The PTX is given to the driver's JIT as written (a module linked from several units,
     * ptxrun --link, as printed); its log explains a rejection. */
    int opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { errlog, (void *)(uintptr_t)sizeof errlog, infolog, (void *)(uintptr_t)sizeof infolog };
    errlog[0] = 0;
    char *linked = NULL;
    size_t linked_len = 0;
    if (m->nsrc > 1) {
        FILE *f = open_memstream(&linked, &linked_len);
        if (!f) {
            st = ISA_ST_NOMEM;
            goto done;
        }
        isa_print_module(f, m);
        fclose(f);
        if (!linked) {
            st = ISA_ST_NOMEM;
            goto done;
        }
    }
    r = api.cuModuleLoadDataEx(&mod, linked ? linked : m->srcs[0].text, 4, opts, vals);
    free(linked);
    if (r != 0) {
        cu_report(&api, diag, "the driver rejected the PTX", r);
        if (errlog[0])
            fprintf(diag, "%s\n", errlog);
        mod = NULL;
        st = ISA_ST_SYNTAX;
        goto done;
    }
    CU_TRY(cuModuleGetFunction, &fn, mod, m->funcs[entry].name);
    /* Opt in to the launch's dynamic shared memory (a kernel must beyond 48 KB of static
     * plus dynamic; below, it changes nothing), so that a launch is refused only where the
     * GPU's limit (static + dynamic <= 227 KB) says so: the emulator checks the same rule. */
    if (l->shared_bytes > 0)
        CU_TRY(cuFuncSetAttribute, fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)l->shared_bytes);

    /* Buffers to the device; pointer parameters get the device addresses. */
    memcpy(params, a->params, a->params_size);
    for (uint32_t i = 0; i < a->nbuf; i++) {
        size_t n = a->bufs[i].bytes;
        if (a->bufs[i].tex.kind != RT_RES_BUFFER) {
            /* A texture or surface object: its handle is the parameter. */
            if ((r = tex_make(&api, mod, &a->bufs[i], &tx[i], &what)) != 0)
                goto fail;
            dptr[i] = tx[i].handle;
            continue;
        }
        CU_TRY(cuMemAlloc_v2, &dptr[i], n ? (n + 255) / 256 * 256 : 256);
        if (n)
            CU_TRY(cuMemcpyHtoD_v2, dptr[i], a->bufs[i].host, n);
    }
    for (uint32_t k = 0; k < a->nparam; k++) {
        if (a->param_buffer[k] >= 0)
            memcpy(params + a->param_offset[k], &dptr[a->param_buffer[k]], 8);
        kparams[k] = params + a->param_offset[k];
    }
    if (l->cluster[0] | l->cluster[1] | l->cluster[2]) {
        /* In clusters: cuLaunchKernelEx with the cluster dimension (and cooperative). */
        cu_launch_attr_t at[2];
        memset(at, 0, sizeof at);
        at[0].id = 4;
        at[0].value.dim.x = l->cluster[0];
        at[0].value.dim.y = l->cluster[1];
        at[0].value.dim.z = l->cluster[2];
        at[1].id = 2;
        at[1].value.flag = 1;
        cu_launch_config_t cfg = { { l->grid[0], l->grid[1], l->grid[2] }, { l->block[0], l->block[1], l->block[2] },
                                   l->shared_bytes, NULL, at, l->cooperative ? 2u : 1u };
        if (l->cluster_nonportable)
            CU_TRY(cuFuncSetAttribute, fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
        CU_TRY(cuLaunchKernelEx, &cfg, fn, kparams, NULL);
    } else if (l->cooperative)
        CU_TRY(cuLaunchCooperativeKernel, fn, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
               l->block[2], l->shared_bytes, NULL, kparams);
    else
        CU_TRY(cuLaunchKernel, fn, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
               l->shared_bytes, NULL, kparams, NULL);
    if ((r = api.cuCtxSynchronize()) != 0) {
        /* A fault in the kernel (illegal address, trap, ...): the context is lost. */
        cu_report(&api, diag, "kernel fault", r);
        st = ISA_ST_FAULT;
        goto done;
    }
    launched = true;
    for (uint32_t i = 0; i < a->nbuf; i++) {
        if (a->bufs[i].tex.kind == RT_RES_SURF) {
            what = "cuMemcpy3D";
            if ((r = level_copy(&api, &a->bufs[i], tx[i].array, 0, a->bufs[i].host, true)) != 0)
                goto fail;
        } else if (a->bufs[i].tex.kind == RT_RES_BUFFER && a->bufs[i].bytes) {
            CU_TRY(cuMemcpyDtoH_v2, a->bufs[i].host, dptr[i], a->bufs[i].bytes);
        }
    }
    for (uint32_t i = 0; i < a->nbuf; i++) {
        if (a->bufs[i].tex.kind != RT_RES_BUFFER)
            tex_free(&api, &tx[i], a->bufs[i].tex.kind == RT_RES_SURF);
        else
            api.cuMemFree_v2(dptr[i]);
    }
    api.cuModuleUnload(mod);
    st = ISA_ST_OK;
    goto done;
fail:
    cu_report(&api, diag, what, r);
    st = launched ? ISA_ST_FAULT : ISA_ST_USAGE;   /* before the launch: a bad configuration */
#undef CU_TRY
done:
    free(dptr);
    free(tx);
    free(params);
    free(kparams);
    return st;
}
