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
enum {
    CU_JIT_INFO_LOG_BUFFER = 3, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
};

/* The driver entry points, looked up by name (the _v2 names are the 64-bit ones). */
#define CU_FUNCS(X) \
    X(cuInit, (unsigned)) \
    X(cuDeviceGet, (cu_device_t *, int)) \
    X(cuDevicePrimaryCtxRetain, (cu_context_t *, cu_device_t)) \
    X(cuCtxSetCurrent, (cu_context_t)) \
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
    X(cuCtxSynchronize, (void)) \
    X(cuGetErrorString, (cu_result_t, const char **)) \
    X(cuGetErrorName, (cu_result_t, const char **))

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
    uint8_t *params = malloc(a->params_size ? a->params_size : 1);
    void **kparams = calloc(a->nparam ? a->nparam : 1, sizeof *kparams);
    static char errlog[16384], infolog[4096];
    const char *what;
    bool launched = false;
#define CU_TRY(fn, ...) do { what = #fn; if ((r = api.fn(__VA_ARGS__)) != 0) goto fail; } while (0)
    if (!dptr || !params || !kparams) {
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
        CU_TRY(cuMemAlloc_v2, &dptr[i], n ? (n + 255) / 256 * 256 : 256);
        if (n)
            CU_TRY(cuMemcpyHtoD_v2, dptr[i], a->bufs[i].host, n);
    }
    for (uint32_t k = 0; k < a->nparam; k++) {
        if (a->param_buffer[k] >= 0)
            memcpy(params + a->param_offset[k], &dptr[a->param_buffer[k]], 8);
        kparams[k] = params + a->param_offset[k];
    }
    if (l->cooperative)
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
    for (uint32_t i = 0; i < a->nbuf; i++)
        if (a->bufs[i].bytes)
            CU_TRY(cuMemcpyDtoH_v2, a->bufs[i].host, dptr[i], a->bufs[i].bytes);
    for (uint32_t i = 0; i < a->nbuf; i++)
        api.cuMemFree_v2(dptr[i]);
    api.cuModuleUnload(mod);
    st = ISA_ST_OK;
    goto done;
fail:
    cu_report(&api, diag, what, r);
    st = launched ? ISA_ST_FAULT : ISA_ST_USAGE;   /* before the launch: a bad configuration */
#undef CU_TRY
done:
    free(dptr);
    free(params);
    free(kparams);
    return st;
}
