/* drvbench.c: the driver's overhead per launch, as a CUDA program sees it: 10,000 launches of
 * a tiny kernel (one warp adding 1 to 32 floats), each followed by a 128-byte cuMemcpyDtoH,
 * through the emulator's libcuda.so.1 (loaded with dlopen, as the CUDA runtime loads it).
 * Prints the time per launch+copy pair and the result check.  Usage: drvbench LIBCUDA */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction;

static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry inc(.param .u64 p)\n{\n"
    "  .reg .u32 %r<2>; .reg .u64 %rd<4>; .reg .f32 %f<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n  ld.global.f32 %f1, [%rd3];\n  add.f32 %f2, %f1, 0f3F800000;\n"
    "  st.global.f32 [%rd3], %f2;\n  ret;\n}\n";

#define LOAD(name) name##_t name; do { void *p_ = dlsym(lib, #name); memcpy(&name, &p_, sizeof p_); } while (0)
#define CHECK(x) do { CUresult r_ = (x); if (r_) { fprintf(stderr, "drvbench: %s: %d\n", #x, r_); return 2; } } while (0)

typedef CUresult (*cuInit_t)(unsigned);
typedef CUresult (*cuDeviceGet_t)(CUdevice *, int);
typedef CUresult (*cuDevicePrimaryCtxRetain_t)(CUcontext *, CUdevice);
typedef CUresult (*cuCtxSetCurrent_t)(CUcontext);
typedef CUresult (*cuModuleLoadData_t)(CUmodule *, const void *);
typedef CUresult (*cuModuleGetFunction_t)(CUfunction *, CUmodule, const char *);
typedef CUresult (*cuMemAlloc_v2_t)(CUdeviceptr *, size_t);
typedef CUresult (*cuMemsetD32_v2_t)(CUdeviceptr, unsigned, size_t);
typedef CUresult (*cuMemcpyDtoH_v2_t)(void *, CUdeviceptr, size_t);
typedef CUresult (*cuLaunchKernel_t)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                     void *, void **, void **);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    void *lib = dlopen(argc > 1 ? argv[1] : "libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "drvbench: %s\n", dlerror());
        return 2;
    }
    LOAD(cuInit); LOAD(cuDeviceGet); LOAD(cuDevicePrimaryCtxRetain); LOAD(cuCtxSetCurrent);
    LOAD(cuModuleLoadData); LOAD(cuModuleGetFunction); LOAD(cuMemAlloc_v2); LOAD(cuMemsetD32_v2);
    LOAD(cuMemcpyDtoH_v2); LOAD(cuLaunchKernel);
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr d;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuModuleLoadData(&mod, ptx));
    CHECK(cuModuleGetFunction(&f, mod, "inc"));
    CHECK(cuMemAlloc_v2(&d, 128));
    CHECK(cuMemsetD32_v2(d, 0, 32));
    float h[32];
    void *params[] = { &d };
    const int n = 10000;
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));   /* warm-up */
    CHECK(cuMemcpyDtoH_v2(h, d, sizeof h));
    double t0 = now();
    for (int i = 0; i < n; i++) {
        CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
        CHECK(cuMemcpyDtoH_v2(h, d, sizeof h));
    }
    double dt = now() - t0;
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += h[i] != (float)(n + 1);
    printf("driver: %d launches of a 1x32 kernel, each with a 128-byte cuMemcpyDtoH: %.3f s, %.2f us per pair%s\n", n,
           dt, dt / n * 1e6, bad ? " (WRONG RESULTS)" : "");
    return bad != 0;
}
