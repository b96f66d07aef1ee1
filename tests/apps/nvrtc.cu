// nvrtc: CUDA C++ compiled at run time with NVRTC (link: -lnvrtc -lcuda) for the GPU's own
// architecture (--gpu-architecture=sm_90, as NVIDIA's samples and CuPy do), and the cubin it
// returns handed to the driver: cuModuleLoadData, cuModuleLoadDataEx, cuModuleLoad of a file,
// cuLibraryLoadData, and cuLinkAddData of two relocatable cubins (-dc) linked together.  A
// template kernel is found by its lowered name; the same source compiled to PTX
// (compute_90) gives the same results.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <nvrtc.h>

#define CK(x)                                                                                  \
    do {                                                                                       \
        CUresult r_ = (x);                                                                     \
        if (r_ != CUDA_SUCCESS) {                                                              \
            const char *s_ = "?";                                                              \
            cuGetErrorName(r_, &s_);                                                           \
            printf("line %d: %s -> %s\n", __LINE__, #x, s_);                                   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)
#define NK(x)                                                                                  \
    do {                                                                                       \
        nvrtcResult r_ = (x);                                                                  \
        if (r_ != NVRTC_SUCCESS) {                                                             \
            printf("line %d: %s -> %s\n", __LINE__, #x, nvrtcGetErrorString(r_));              \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static const char *saxpy_src = R"(
template <typename T>
__global__ void scale_add(T a, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i] / (T)3;
}
extern "C" __global__ void mix(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = i * 2654435761u;
        out[i] = __brev(v) ^ __popc(v) ^ __shfl_xor_sync(0xffffffffu, v, 3);
    }
}
)";

static const char *part_a = R"(
extern __device__ float poly(float x);
extern "C" __global__ void apply(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = poly(v[i]);
}
)";
static const char *part_b = R"(
__device__ float poly(float x) { return ((0.25f * x - 1.5f) * x + 2.0f) * x - 0.125f; }
)";

// Compile src with opts; returns the cubin (or PTX when ptx is set) and its size.
static char *compile(const char *src, const char *name, int nopt, const char **opts, bool ptx, size_t *size,
                     const char *expr, const char **lowered, nvrtcProgram *keep)
{
    nvrtcProgram p;
    NK(nvrtcCreateProgram(&p, src, name, 0, NULL, NULL));
    if (expr)
        NK(nvrtcAddNameExpression(p, expr));
    nvrtcResult r = nvrtcCompileProgram(p, nopt, opts);
    if (r != NVRTC_SUCCESS) {
        size_t n;
        nvrtcGetProgramLogSize(p, &n);
        char *log = (char *)malloc(n);
        nvrtcGetProgramLog(p, log);
        printf("compile %s: %s\n%s\n", name, nvrtcGetErrorString(r), log);
        exit(1);
    }
    char *code;
    if (ptx) {
        NK(nvrtcGetPTXSize(p, size));
        code = (char *)malloc(*size);
        NK(nvrtcGetPTX(p, code));
    } else {
        NK(nvrtcGetCUBINSize(p, size));
        code = (char *)malloc(*size);
        NK(nvrtcGetCUBIN(p, code));
    }
    if (expr)
        NK(nvrtcGetLoweredName(p, expr, lowered));
    if (keep)
        *keep = p;
    else
        nvrtcDestroyProgram(&p);
    return code;
}

static void run_module(CUmodule m, const char *how, const char *lowered)
{
    const int n = 1000;
    CUfunction f, g;
    CK(cuModuleGetFunction(&f, m, lowered));
    CK(cuModuleGetFunction(&g, m, "mix"));
    CUdeviceptr x, y, u;
    CK(cuMemAlloc(&x, n * sizeof(float)));
    CK(cuMemAlloc(&y, n * sizeof(float)));
    CK(cuMemAlloc(&u, n * sizeof(unsigned)));
    float hx[n], hy[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i % 97) * 0.37f - 11.0f;
        hy[i] = (float)(i % 13) * 1.1f;
    }
    CK(cuMemcpyHtoD(x, hx, sizeof hx));
    CK(cuMemcpyHtoD(y, hy, sizeof hy));
    float a = 1.7f;
    int nn = n;
    void *args[] = { &a, &x, &y, &nn };
    CK(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, NULL));
    void *args2[] = { &u, &nn };
    CK(cuLaunchKernel(g, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args2, NULL));
    unsigned hu[n];
    CK(cuMemcpyDtoH(hy, y, sizeof hy));
    CK(cuMemcpyDtoH(hu, u, sizeof hu));
    unsigned hf = 0, hm = 0;
    for (int i = 0; i < n; i++) {
        unsigned b;
        memcpy(&b, &hy[i], 4);
        hf = hf * 31 + b;
        hm = hm * 33 + hu[i];
    }
    printf("%-18s y[0]=%a y[999]=%a hash %08x  mix[5]=%08x hash %08x\n", how, hy[0], hy[999], hf, hu[5], hm);
    cuMemFree(x);
    cuMemFree(y);
    cuMemFree(u);
}

int main()
{
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    int major, minor;
    CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char arch[32], varch[32];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", major, minor);
    snprintf(varch, sizeof varch, "--gpu-architecture=compute_%d%d", major, minor);
    printf("%s\n", arch);

    const char *opts[] = { arch, "--std=c++17" };
    const char *lowered;
    nvrtcProgram prog;
    size_t size;
    char *cubin = compile(saxpy_src, "saxpy.cu", 2, opts, false, &size, "scale_add<float>", &lowered, &prog);
    printf("cubin: ELF %d, lowered name %s\n", memcmp(cubin, "\x7f" "ELF", 4) == 0, lowered);

    CUmodule m;
    CK(cuModuleLoadData(&m, cubin));
    run_module(m, "cuModuleLoadData", lowered);
    CK(cuModuleUnload(m));

    // A copy of the cubin, as programs that cache it do, loaded with JIT options.
    char *copy = (char *)malloc(size);
    memcpy(copy, cubin, size);
    CUjit_option jo[] = { CU_JIT_LOG_VERBOSE };
    void *jv[] = { (void *)(size_t)0 };
    CK(cuModuleLoadDataEx(&m, copy, 1, jo, jv));
    run_module(m, "cuModuleLoadDataEx", lowered);
    CK(cuModuleUnload(m));

    // Written to a file and loaded from it.
    char path[] = "/tmp/nvrtc_cubin_XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!fp || fwrite(cubin, 1, size, fp) != size || fclose(fp) != 0) {
        printf("cannot write %s\n", path);
        return 1;
    }
    CK(cuModuleLoad(&m, path));
    remove(path);
    run_module(m, "cuModuleLoad", lowered);
    CK(cuModuleUnload(m));

    CUlibrary lib;
    CK(cuLibraryLoadData(&lib, cubin, NULL, NULL, 0, NULL, NULL, 0));
    CK(cuLibraryGetModule(&m, lib));
    run_module(m, "cuLibraryLoadData", lowered);
    CK(cuLibraryUnload(lib));
    nvrtcDestroyProgram(&prog);
    free(copy);
    free(cubin);

    // The same source as PTX.
    const char *vopts[] = { varch, "--std=c++17" };
    char *ptx = compile(saxpy_src, "saxpy.cu", 2, vopts, true, &size, "scale_add<float>", &lowered, &prog);
    CK(cuModuleLoadData(&m, ptx));
    run_module(m, "PTX", lowered);
    CK(cuModuleUnload(m));
    nvrtcDestroyProgram(&prog);
    free(ptx);

    // Two relocatable cubins linked by the driver.
    const char *dopts[] = { arch, "--relocatable-device-code=true" };
    size_t sa, sb;
    char *ca = compile(part_a, "a.cu", 2, dopts, false, &sa, NULL, NULL, NULL);
    char *cb = compile(part_b, "b.cu", 2, dopts, false, &sb, NULL, NULL, NULL);
    CUlinkState ls;
    CK(cuLinkCreate(0, NULL, NULL, &ls));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_CUBIN, ca, sa, "a.cubin", 0, NULL, NULL));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_CUBIN, cb, sb, "b.cubin", 0, NULL, NULL));
    void *linked;
    size_t lsize;
    CK(cuLinkComplete(ls, &linked, &lsize));
    CK(cuModuleLoadData(&m, linked));
    CK(cuLinkDestroy(ls));
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "apply"));
    const int n = 256;
    float hv[n];
    for (int i = 0; i < n; i++)
        hv[i] = (float)i * 0.05f - 6.0f;
    CUdeviceptr v;
    CK(cuMemAlloc(&v, sizeof hv));
    CK(cuMemcpyHtoD(v, hv, sizeof hv));
    int nn = n;
    void *args[] = { &v, &nn };
    CK(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, 0, args, NULL));
    CK(cuMemcpyDtoH(hv, v, sizeof hv));
    unsigned h = 0;
    for (int i = 0; i < n; i++) {
        unsigned b;
        memcpy(&b, &hv[i], 4);
        h = h * 31 + b;
    }
    printf("linked cubins      v[0]=%a v[255]=%a hash %08x\n", hv[0], hv[255], h);
    CK(cuModuleUnload(m));
    free(ca);
    free(cb);
    CK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
