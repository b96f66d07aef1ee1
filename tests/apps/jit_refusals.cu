// jit_refusals: PTX the H100's JIT does not load, loaded through the driver API with
// cuModuleLoadDataEx and an error log: a 32-bit module (.address_size 32, refused for
// sm_90 whatever its .target), a .target newer than the H100 (sm_100a, sm_120), vote
// without .sync on a new target, a syntax error; then a module that loads, with both logs
// given.  Each load prints its error name and whether the error log holds a message and
// the size option says its length (the messages are the compiler's own words: not
// compared); the good module's kernel then runs.
// link: -lcuda
#include "apps.h"
#include <cuda.h>
#include <cstring>

#define HEAD(ver, target, bits) ".version " ver "\n.target " target "\n.address_size " bits "\n"
#define BODY                                                                                \
    ".visible .entry k(.param .u64 p)\n{\n.reg .u64 %rd<3>;\n.reg .u32 %r<3>;\n"           \
    "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"        \
    "add.u64 %rd1, %rd1, %rd2;\nadd.u32 %r2, %r1, 7;\nst.global.u32 [%rd1], %r2;\nret;\n}\n"
#define BODY32                                                                              \
    ".visible .entry k(.param .u32 p)\n{\n.reg .u32 %r<5>;\n"                               \
    "ld.param.u32 %r1, [p];\nmov.u32 %r2, %tid.x;\nshl.b32 %r3, %r2, 2;\n"                \
    "add.u32 %r1, %r1, %r3;\nst.global.u32 [%r1], %r2;\nret;\n}\n"

static const struct { const char *name, *ptx; } cases[] = {
    { "32-bit sm_30", HEAD("6.5", "sm_30", "32") BODY32 },
    { "32-bit sm_90", HEAD("8.0", "sm_90", "32") BODY32 },
    { "sm_100a target", HEAD("8.8", "sm_100a", "64") BODY },
    { "sm_120 target", HEAD("8.8", "sm_120", "64") BODY },
    { "vote without .sync",
      HEAD("8.0", "sm_90", "64") ".visible .entry k()\n{\n.reg .pred %p<3>;\n.reg .u32 %r<2>;\n"
                                 "setp.eq.u32 %p1, 1, 1;\nvote.ballot.b32 %r1, %p1;\nret;\n}\n" },
    { "syntax error", HEAD("8.0", "sm_90", "64") ".visible .entry k()\n{\n add.u32 %r1, ;\nret;\n}\n" },
    { "sm_90a target", HEAD("8.0", "sm_90a", "64") BODY },
    { "sm_80 target", HEAD("7.0", "sm_80", "64") BODY },
};

int main()
{
    CK(cudaFree(0));
    for (const auto &c : cases) {
        char err[4096], info[4096];
        memset(err, 'x', sizeof err);
        CUjit_option o[4] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                              CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
        void *v[4] = { err, (void *)(uintptr_t)sizeof err, info, (void *)(uintptr_t)sizeof info };
        CUmodule m;
        CUresult r = cuModuleLoadDataEx(&m, c.ptx, 4, o, v);
        const char *n = nullptr;
        cuGetErrorName(r, &n);
        size_t said = (size_t)(uintptr_t)v[1];
        printf("%-20s -> %s; error log %s, size option %s\n", c.name, n ? n : "?",
               err[0] == 'x' ? "untouched" : strlen(err) ? "holds a message" : "empty",
               said == strlen(err) ? "its length" : said == sizeof err ? "unchanged" : "other");
        if (r != CUDA_SUCCESS)
            continue;
        CUfunction f;
        DK(cuModuleGetFunction(&f, m, "k"));
        CUdeviceptr d;
        DK(cuMemAlloc(&d, 32 * 4));
        void *args[] = { &d };
        DK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
        unsigned h[32];
        DK(cuMemcpyDtoH(h, d, sizeof h));
        printf("  %u %u %u\n", h[0], h[1], h[31]);
        DK(cuMemFree(d));
        DK(cuModuleUnload(m));
    }
    return 0;
}
