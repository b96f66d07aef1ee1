// jit_maxreg: CU_JIT_MAX_REGISTERS (link: -lcuda) bounds the registers the JIT gives a
// kernel loaded with cuModuleLoadDataEx, and one linked with cuLinkCreate's option (Numba's
// max_registers): what cuFuncGetAttribute then says (registers, local memory for the
// spills, the largest block) and whether a 1024-thread launch runs.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>

/* The kernel: N accumulators loaded, each multiplied by a neighbour and added to itself
 * n times, stored: ptxas needs about N + 8 registers, fewer with spills. */
enum { N = 80 };
static char ptx[65536];
static void make_ptx()
{
    size_t k = 0;
    k += (size_t)snprintf(ptx + k, sizeof ptx - k,
                          ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry acc(.param .u64 x, .param .u32 n)\n{\n"
                          "    .reg .f32 a<%d>;\n    .reg .u64 p, o;\n    .reg .u32 i, k, t;\n    .reg .pred q;\n"
                          "    ld.param.u64 p, [x];\n    ld.param.u32 k, [n];\n    mov.u32 t, %%tid.x;\n"
                          "    mul.wide.u32 o, t, 4;\n    add.u64 p, p, o;\n", N);
    for (int i = 0; i < N; i++)
        k += (size_t)snprintf(ptx + k, sizeof ptx - k, "    ld.global.f32 a%d, [p+%d];\n", i, i * 4096);
    k += (size_t)snprintf(ptx + k, sizeof ptx - k, "    mov.u32 i, 0;\nLOOP:\n");
    for (int i = 0; i < N; i++)
        k += (size_t)snprintf(ptx + k, sizeof ptx - k, "    fma.rn.f32 a%d, a%d, a%d, a%d;\n", i, i, (i + 7) % N, i);
    k += (size_t)snprintf(ptx + k, sizeof ptx - k, "    add.u32 i, i, 1;\n    setp.lt.u32 q, i, k;\n    @q bra LOOP;\n");
    for (int i = 0; i < N; i++)
        k += (size_t)snprintf(ptx + k, sizeof ptx - k, "    st.global.f32 [p+%d], a%d;\n", i * 4096, i);
    snprintf(ptx + k, sizeof ptx - k, "    ret;\n}\n");
}

static void show(const char *how, CUmodule m, CUdeviceptr x)
{
    CUfunction f;
    cuModuleGetFunction(&f, m, "acc");
    int regs = -1, local = -1, maxt = -1;
    cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
    cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    unsigned n = 1;
    void *args[] = { &x, &n };
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 1024, 1, 1, 0, 0, args, 0);
    CUresult s = cuCtxSynchronize();
    const char *rn = "?", *sn = "?";
    cuGetErrorName(r, &rn);
    cuGetErrorName(s, &sn);
    printf("%s: regs %d local %d maxthreads %d; 1024 threads: %s %s\n", how, regs, local, maxt, rn, sn);
}

int main()
{
    make_ptx();
    cuInit(0);
    CUdevice d;
    cuDeviceGet(&d, 0);
    CUcontext c;
    cuDevicePrimaryCtxRetain(&c, d);
    cuCtxSetCurrent(c);
    CUdeviceptr x;
    cuMemAlloc(&x, 1 << 20);
    cuMemsetD8(x, 0, 1 << 20);
    CUmodule m;
    cuModuleLoadData(&m, ptx);
    show("no option", m, x);
    for (unsigned maxr : { 128u, 64u, 40u }) {
        CUjit_option o[] = { CU_JIT_MAX_REGISTERS };
        void *v[] = { (void *)(uintptr_t)maxr };
        CUresult r = cuModuleLoadDataEx(&m, ptx, 1, o, v);
        char how[64];
        snprintf(how, sizeof how, "cuModuleLoadDataEx max %u (%d)", maxr, (int)r);
        show(how, m, x);
        CUlinkState l;
        cuLinkCreate(1, o, v, &l);
        cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, "acc.ptx", 0, 0, 0);
        void *img;
        size_t sz;
        CUresult lr = cuLinkComplete(l, &img, &sz);
        cuModuleLoadData(&m, img);
        snprintf(how, sizeof how, "cuLinkCreate max %u (%d)", maxr, (int)lr);
        show(how, m, x);
        cuLinkDestroy(l);
    }
    return 0;
}
