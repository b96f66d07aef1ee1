// drvapi: a driver-API program (link: -lcuda): PTX text loaded with JIT options and
// its log, a kernel launched with both parameter forms, module globals, function
// attributes, contexts, streams and events of the driver API, error names and strings.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>

#define CK(x)                                                                                  \
    do {                                                                                       \
        CUresult r_ = (x);                                                                     \
        if (r_ != CUDA_SUCCESS) {                                                              \
            const char *n_ = "?";                                                              \
            cuGetErrorName(r_, &n_);                                                           \
            printf("line %d: %s -> %s\n", __LINE__, #x, n_);                                   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static const char *name(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

static const char ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .global .align 4 .u32 bias = 1000;\n"
    ".visible .const .align 4 .u32 scale[2] = { 3, 5 };\n"
    ".visible .entry axpb(.param .u64 out, .param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<9>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [in];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p, %r5, %r1;\n"
    "  @%p bra DONE;\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.u32 %r6, [%rd4];\n"
    "  ld.const.u32 %r7, [scale+4];\n"
    "  ld.global.u32 %r8, [bias];\n"
    "  mad.lo.s32 %r6, %r6, %r7, %r8;\n"
    "  add.s64 %rd5, %rd1, %rd3;\n"
    "  st.global.u32 [%rd5], %r6;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

int main()
{
    CK(cuInit(0));
    int n = 0, ver = 0;
    CK(cuDeviceGetCount(&n));
    CK(cuDriverGetVersion(&ver));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    char devname[128];
    CK(cuDeviceGetName(devname, sizeof devname, dev));
    int major, minor;
    CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    printf("%d device(s): %s, cc %d.%d, driver >= 13000 %d\n", n, devname, major, minor, ver >= 13000);
    printf("cuDeviceGet(1): %s\n", name(cuDeviceGet(&dev, 1)));
    CK(cuDeviceGet(&dev, 0));

    CUcontext ctx, cur;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuCtxGetCurrent(&cur));
    printf("current is the primary: %d\n", cur == ctx);
    unsigned api;
    CK(cuCtxGetApiVersion(ctx, &api));
    printf("context api version %u\n", api);

    char info[1024] = "", err[1024] = "";
    CUjit_option opts[] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { info, (void *)(size_t)sizeof info, err, (void *)(size_t)sizeof err };
    CUmodule mod;
    CK(cuModuleLoadDataEx(&mod, ptx, 4, opts, vals));
    CUfunction f;
    CK(cuModuleGetFunction(&f, mod, "axpb"));
    printf("cuModuleGetFunction(nothing): %s\n", name(cuModuleGetFunction(&f, mod, "nothing")));
    CK(cuModuleGetFunction(&f, mod, "axpb"));
    CUmodule bad;
    CUresult lr = cuModuleLoadDataEx(&bad, ".version 8.0\n.target sm_90\n.address_size 64\n.entry e() { foo; }\n",
                                     4, opts, vals);
    printf("bad PTX: %s, error log written: %d\n", name(lr), err[0] != 0);

    const int N = 1000;
    int h[N];
    for (int i = 0; i < N; i++)
        h[i] = i - 500;
    CUdeviceptr din, dout;
    CK(cuMemAlloc(&din, N * sizeof(int)));
    CK(cuMemAlloc(&dout, N * sizeof(int)));
    CK(cuMemcpyHtoD(din, h, sizeof h));
    unsigned nn = N;
    void *params[] = { &dout, &din, &nn };
    CK(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(h, dout, sizeof h));
    printf("axpb: %d %d %d\n", h[0], h[500], h[999]);

    // the module's globals, changed through their addresses
    CUdeviceptr gbias;
    size_t gsize;
    CK(cuModuleGetGlobal(&gbias, &gsize, mod, "bias"));
    unsigned nb = 7;
    CK(cuMemcpyHtoD(gbias, &nb, 4));
    CUdeviceptr gscale;
    CK(cuModuleGetGlobal(&gscale, &gsize, mod, "scale"));
    printf("scale is %zu bytes\n", gsize);

    // the parameter buffer form, on a stream, timed with events: the buffer holds the
    // parameters at their offsets (20 bytes here); a larger or smaller size is refused
    unsigned char pb[24] = { 0 };
    memcpy(pb, &dout, 8);
    memcpy(pb + 8, &din, 8);
    unsigned ten = 10;
    memcpy(pb + 16, &ten, 4);
    size_t pbs = 20;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &pbs, CU_LAUNCH_PARAM_END };
    CUstream s;
    CUevent e0, e1;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CK(cuEventRecord(e0, s));
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, NULL, extra));
    CK(cuEventRecord(e1, s));
    CK(cuStreamSynchronize(s));
    float ms;
    CK(cuEventElapsedTime(&ms, e0, e1));
    CK(cuMemcpyDtoH(h, dout, sizeof h));
    printf("after bias 7: %d %d %d (untouched) elapsed >= 0 %d\n", h[0], h[9], h[10], ms >= 0);
    pbs = 24;
    printf("a 24-byte buffer: %s\n", name(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, NULL, extra)));
    pbs = 16;
    printf("a 16-byte buffer: %s\n", name(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, NULL, extra)));
    printf("both forms: %s\n", name(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, extra)));
    CK(cuCtxSynchronize());

    int v;
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    printf("max threads per block %d\n", v);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    printf("static shared %d\n", v);
    printf("launch of 2048 threads: %s\n", name(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL)));
    const char *str;
    CK(cuGetErrorString(CUDA_ERROR_INVALID_HANDLE, &str));
    printf("CUDA_ERROR_INVALID_HANDLE: %s\n", str);
    printf("cuGetErrorString(9999): %s\n", name(cuGetErrorString((CUresult)9999, &str)));
    size_t fr, tot;
    CK(cuMemGetInfo(&fr, &tot));
    printf("free <= total %d\n", fr <= tot);
    CK(cuMemFree(din));
    printf("double free: %s\n", name(cuMemFree(din)));
    CK(cuModuleUnload(mod));
    CK(cuStreamDestroy(s));
    CK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
