/* probe.c: the CUDA driver's raw answers behind the launch limits (run by record.sh on
 * the GPU): device attributes, dynamic shared memory with and without opting in
 * (cuFuncSetAttribute), and local memory sizes at module load and launch. */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

static const char *name(CUresult r)
{
    const char *s = NULL;
    cuGetErrorName(r, &s);
    return s ? s : "?";
}

static char ptx[8192];

/* A kernel with static shared memory s (0: none) and local memory n (0: none). */
static CUresult load(CUmodule *m, CUfunction *f, unsigned s, unsigned n)
{
    char sh[128] = "", lo[128] = "", body[512] = "";
    if (s)
        snprintf(sh, sizeof sh, ".shared .align 4 .b8 buf[%u];", s);
    if (n)
        snprintf(lo, sizeof lo, ".local .align 8 .b8 lbuf[%u];", n);
    if (s)
        snprintf(body + strlen(body), sizeof body - strlen(body),
                 "mov.u64 %%rd2, buf; add.u64 %%rd2, %%rd2, %%rd3; st.shared.u32 [%%rd2], %%r1;"
                 " ld.shared.u32 %%r2, [%%rd2]; st.global.u32 [%%rd1], %%r2;");
    if (n)
        snprintf(body + strlen(body), sizeof body - strlen(body),
                 "mov.u64 %%rd2, lbuf; add.u64 %%rd2, %%rd2, %%rd3; st.local.u32 [%%rd2], %%r1;"
                 " ld.local.u32 %%r2, [%%rd2]; st.global.u32 [%%rd1], %%r2;");
    snprintf(ptx, sizeof ptx,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 p, .param .u32 i)\n{\n"
             ".reg .u64 %%rd<4>; .reg .u32 %%r<4>;\n%s\n%s\n"
             "ld.param.u64 %%rd1, [p]; ld.param.u32 %%r1, [i]; cvt.u64.u32 %%rd3, %%r1;\n%s\nret;\n}\n",
             sh, lo, body);
    CUresult r = cuModuleLoadData(m, ptx);
    if (r == CUDA_SUCCESS)
        r = cuModuleGetFunction(f, *m, "k");
    return r;
}

static CUdeviceptr dbuf;

static void launch(CUfunction f, unsigned grid, unsigned block, unsigned dyn, unsigned idx, const char *what)
{
    void *args[] = { &dbuf, &idx };
    CUresult r = cuLaunchKernel(f, grid, 1, 1, block, 1, 1, dyn, NULL, args, NULL);
    CUresult s = r == CUDA_SUCCESS ? cuCtxSynchronize() : CUDA_SUCCESS;
    printf("  %s grid %u block %u dyn %u: launch %s, sync %s\n", what, grid, block, dyn, name(r), name(s));
}

int main(void)
{
    CUdevice dev;
    CUcontext ctx;
    cuInit(0);
    cuDeviceGet(&dev, 0);
    cuDevicePrimaryCtxRetain(&ctx, dev);
    cuCtxSetCurrent(ctx);
    char dn[256];
    int drv = 0;
    cuDeviceGetName(dn, sizeof dn, dev);
    cuDriverGetVersion(&drv);
    printf("device %s, driver API %d\n", dn, drv);
    static const struct { CUdevice_attribute a; const char *n; } attrs[] = {
#define A(x) { CU_DEVICE_ATTRIBUTE_##x, #x }
        A(MAX_THREADS_PER_BLOCK), A(MAX_BLOCK_DIM_X), A(MAX_BLOCK_DIM_Y), A(MAX_BLOCK_DIM_Z),
        A(MAX_GRID_DIM_X), A(MAX_GRID_DIM_Y), A(MAX_GRID_DIM_Z), A(MAX_SHARED_MEMORY_PER_BLOCK),
        A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), A(RESERVED_SHARED_MEMORY_PER_BLOCK),
        A(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR), A(TOTAL_CONSTANT_MEMORY), A(MAX_REGISTERS_PER_BLOCK),
        A(MAX_THREADS_PER_MULTIPROCESSOR), A(MULTIPROCESSOR_COUNT), A(CLUSTER_LAUNCH),
#undef A
    };
    for (unsigned i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = 0;
        cuDeviceGetAttribute(&v, attrs[i].a, dev);
        printf("attr %s %d\n", attrs[i].n, v);
    }
    cuMemAlloc(&dbuf, 1 << 20);
    size_t lim = 0;
    cuCtxGetLimit(&lim, CU_LIMIT_STACK_SIZE);
    printf("limit STACK_SIZE %zu\n", lim);

    /* Dynamic shared memory, without and with opting in. */
    static const unsigned statics[] = { 0, 16, 1024, 49152 };
    for (unsigned i = 0; i < 4; i++) {
        unsigned s = statics[i];
        CUmodule m;
        CUfunction f;
        CUresult r = load(&m, &f, s, 0);
        printf("static shared %u: load %s\n", s, name(r));
        if (r != CUDA_SUCCESS)
            continue;
        unsigned dyns[] = { 49152 - s, 49153 - s, 232448 - s, 232449 - s, 0x7fffffffu, 0xffffffffu };
        for (unsigned k = 0; k < 6; k++)
            launch(f, 1, 1, dyns[k], 0, "no opt-in");
        for (unsigned k = 0; k < 6; k++) {
            r = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyns[k]);
            printf("  opt in to %d: %s\n", (int)dyns[k], name(r));
            if (r == CUDA_SUCCESS) {
                launch(f, 1, 1, dyns[k], 0, "opted in");
                launch(f, 1, 1, dyns[k] + 1, 0, "opted in, one byte more");
            }
        }
        cuModuleUnload(m);
    }

    /* Local memory per thread. */
    static const unsigned locals[] = { 16400, 262144, 524288, 524296, 1048576, 16777216 };
    for (unsigned i = 0; i < 6; i++) {
        unsigned n = locals[i];
        CUmodule m;
        CUfunction f;
        size_t fr0 = 0, fr1 = 0, tot = 0;
        cuMemGetInfo(&fr0, &tot);
        CUresult r = load(&m, &f, 0, n);
        printf("local %u: load %s\n", n, name(r));
        if (r != CUDA_SUCCESS)
            continue;
        int ls = 0;
        cuFuncGetAttribute(&ls, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
        printf("  LOCAL_SIZE_BYTES %d\n", ls);
        launch(f, 1, 1, 0, n - 4, "");
        launch(f, 264, 1024, 0, n - 4, "");
        cuMemGetInfo(&fr1, &tot);
        cuCtxGetLimit(&lim, CU_LIMIT_STACK_SIZE);
        printf("  device memory free %zu -> %zu of %zu; STACK_SIZE %zu\n", fr0, fr1, tot, lim);
        cuModuleUnload(m);
    }

    /* The largest local size (a multiple of 16) that launches, and the largest static
     * shared size (a multiple of 16) that loads and launches: bisections. */
    unsigned lo = 262144, hi = 524288;
    while (hi - lo > 16) {
        unsigned mid = (lo + hi) / 2 & ~15u;
        CUmodule m;
        CUfunction f;
        unsigned idx = mid - 4;
        void *args[] = { &dbuf, &idx };
        CUresult r = load(&m, &f, 0, mid);
        if (r == CUDA_SUCCESS) {
            r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
            if (r == CUDA_SUCCESS)
                r = cuCtxSynchronize();
            cuModuleUnload(m);
        }
        printf("local %u: %s\n", mid, name(r));
        if (r == CUDA_SUCCESS)
            lo = mid;
        else
            hi = mid;
    }
    printf("largest local that launches: %u\n", lo);
    lo = 49152, hi = 1 << 20;
    while (hi - lo > 16) {
        unsigned mid = (lo + hi) / 2 & ~15u;
        CUmodule m;
        CUfunction f;
        unsigned idx = mid - 4;
        void *args[] = { &dbuf, &idx };
        CUresult r = load(&m, &f, mid, 0);
        if (r == CUDA_SUCCESS) {
            r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
            if (r == CUDA_SUCCESS)
                r = cuCtxSynchronize();
            cuModuleUnload(m);
        }
        printf("static shared %u: %s\n", mid, name(r));
        if (r == CUDA_SUCCESS)
            lo = mid;
        else
            hi = mid;
    }
    printf("largest static shared that loads and launches: %u\n", lo);
    return 0;
}
