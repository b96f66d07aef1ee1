// nvjitlink: link-time optimisation at run time (link: -lnvrtc -lnvJitLink -lcuda).  Two
// units compiled by NVRTC to LTO-IR (-dlto, relocatable) are linked by nvJitLink for the
// GPU's own architecture (-lto -arch=sm_90) into a cubin that the driver loads: one unit's
// kernels call the other's device functions, inlined across units by the link (so that the
// multiply and add of different units contract).  Inputs are given as data and as a file;
// the same link with -ptx gives PTX, loaded as such.  A link without LTO-IR (PTX in, cubin
// out) is the driver's own business and is not exercised here.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <unistd.h>

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
#define JK(h, x)                                                                               \
    do {                                                                                       \
        nvJitLinkResult r_ = (x);                                                              \
        if (r_ != NVJITLINK_SUCCESS) {                                                         \
            size_t n_ = 0;                                                                     \
            nvJitLinkGetErrorLogSize(h, &n_);                                                  \
            char *l_ = (char *)calloc(n_ + 1, 1);                                              \
            nvJitLinkGetErrorLog(h, l_);                                                       \
            printf("line %d: %s -> %d\n%s\n", __LINE__, #x, (int)r_, l_);                     \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

// The kernels: products and sums of x and y through functions of the other unit.
static const char *kernels_src = R"(
extern __device__ float product(float a, float b);
extern __device__ double dproduct(double a, double b);
extern __device__ unsigned mixer(unsigned v);
extern "C" __global__ void fused(const float *x, const float *y, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = product(x[i], 1.1f) + y[i] * 0.3f;
}
extern "C" __global__ void dfused(const double *x, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = dproduct(x[i], x[i]) - 1.0 / 3.0;
}
extern "C" __global__ void mixed(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = mixer(i * 2654435761u);
}
)";

static const char *functions_src = R"(
__device__ float product(float a, float b) { return a * b; }
__device__ double dproduct(double a, double b) { return a * b; }
__device__ unsigned mixer(unsigned v)
{
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    return __brev(v) + __popc(v);
}
)";

static char *lto_ir(const char *src, const char *name, size_t *size)
{
    nvrtcProgram p;
    NK(nvrtcCreateProgram(&p, src, name, 0, NULL, NULL));
    const char *opts[] = {"--gpu-architecture=sm_90", "-dlto", "--relocatable-device-code=true"};
    nvrtcResult r = nvrtcCompileProgram(p, 3, opts);
    if (r != NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetProgramLogSize(p, &n);
        char *log = (char *)calloc(n + 1, 1);
        nvrtcGetProgramLog(p, log);
        printf("%s: %s\n%s\n", name, nvrtcGetErrorString(r), log);
        exit(1);
    }
    NK(nvrtcGetLTOIRSize(p, size));
    char *ir = (char *)malloc(*size);
    NK(nvrtcGetLTOIR(p, ir));
    NK(nvrtcDestroyProgram(&p));
    return ir;
}

static unsigned hash(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

static void run(const char *how, CUmodule m)
{
    const int n = 1000;
    CUfunction fused, dfused, mixed;
    CK(cuModuleGetFunction(&fused, m, "fused"));
    CK(cuModuleGetFunction(&dfused, m, "dfused"));
    CK(cuModuleGetFunction(&mixed, m, "mixed"));
    float hx[n], hy[n], hout[n];
    double hd[n], hdout[n];
    unsigned hu[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i - 500) / 7.0f + 1e-3f * (float)i;
        hy[i] = 3.0f - (float)i / 11.0f;
        hd[i] = (double)(i + 1) / 17.0 - 20.0;
    }
    CUdeviceptr x, y, out, d, dout, u;
    CK(cuMemAlloc(&x, sizeof hx));
    CK(cuMemAlloc(&y, sizeof hy));
    CK(cuMemAlloc(&out, sizeof hout));
    CK(cuMemAlloc(&d, sizeof hd));
    CK(cuMemAlloc(&dout, sizeof hdout));
    CK(cuMemAlloc(&u, sizeof hu));
    CK(cuMemcpyHtoD(x, hx, sizeof hx));
    CK(cuMemcpyHtoD(y, hy, sizeof hy));
    CK(cuMemcpyHtoD(d, hd, sizeof hd));
    int nn = n;
    void *a1[] = {&x, &y, &out, &nn};
    void *a2[] = {&d, &dout, &nn};
    void *a3[] = {&u, &nn};
    CK(cuLaunchKernel(fused, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, a1, NULL));
    CK(cuLaunchKernel(dfused, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, a2, NULL));
    CK(cuLaunchKernel(mixed, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, a3, NULL));
    CK(cuMemcpyDtoH(hout, out, sizeof hout));
    CK(cuMemcpyDtoH(hdout, dout, sizeof hdout));
    CK(cuMemcpyDtoH(hu, u, sizeof hu));
    printf("%-9s out[1]=%a out[999]=%a hash %08x  d[7]=%a hash %08x  mixed[5]=%08x hash %08x\n", how,
           hout[1], hout[999], hash(hout, sizeof hout), hdout[7], hash(hdout, sizeof hdout), hu[5],
           hash(hu, sizeof hu));
    CK(cuMemFree(x));
    CK(cuMemFree(y));
    CK(cuMemFree(out));
    CK(cuMemFree(d));
    CK(cuMemFree(dout));
    CK(cuMemFree(u));
}

// Link the kernels' IR (as data) with the functions' (as data, or from a file when path is
// given); with -ptx too when ptx is set.  The image: a cubin, or PTX text.
static char *link(const char *kir, size_t kn, const char *fir, size_t fn, const char *path, bool ptx,
                  size_t *size)
{
    nvJitLinkHandle h;
    const char *opts[] = {"-lto", "-arch=sm_90", "-ptx"};
    JK(h, nvJitLinkCreate(&h, ptx ? 3 : 2, opts));
    JK(h, nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, kir, kn, "kernels"));
    if (path)
        JK(h, nvJitLinkAddFile(h, NVJITLINK_INPUT_LTOIR, path));
    else
        JK(h, nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, fir, fn, "functions"));
    JK(h, nvJitLinkComplete(h));
    char *image;
    if (ptx) {
        JK(h, nvJitLinkGetLinkedPtxSize(h, size));
        image = (char *)malloc(*size);
        JK(h, nvJitLinkGetLinkedPtx(h, image));
    } else {
        JK(h, nvJitLinkGetLinkedCubinSize(h, size));
        image = (char *)malloc(*size);
        JK(h, nvJitLinkGetLinkedCubin(h, image));
    }
    JK(h, nvJitLinkDestroy(&h));
    return image;
}

int main()
{
    CK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    size_t kn, fn, size;
    char *kir = lto_ir(kernels_src, "kernels.cu", &kn);
    char *fir = lto_ir(functions_src, "functions.cu", &fn);

    char *cubin = link(kir, kn, fir, fn, NULL, false, &size);
    printf("cubin: ELF %d\n", size > 4 && memcmp(cubin, "\177ELF", 4) == 0);
    CUmodule m;
    CK(cuModuleLoadData(&m, cubin));
    run("data", m);
    CK(cuModuleUnload(m));

    char path[] = "/tmp/nvjitlinkXXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, fir, fn) != (ssize_t)fn) {
        printf("cannot write %s\n", path);
        return 1;
    }
    close(fd);
    char *cubin2 = link(kir, kn, fir, fn, path, false, &size);
    unlink(path);
    CK(cuModuleLoadData(&m, cubin2));
    run("file", m);
    CK(cuModuleUnload(m));

    char *ptx = link(kir, kn, fir, fn, NULL, true, &size);
    printf("ptx: %s\n", strstr(ptx, ".entry fused") ? "has .entry fused" : "no fused");
    CK(cuModuleLoadData(&m, ptx));
    run("ptx", m);
    CK(cuModuleUnload(m));
    CK(cuCtxDestroy(ctx));
    free(kir);
    free(fir);
    free(cubin);
    free(cubin2);
    free(ptx);
    return 0;
}
