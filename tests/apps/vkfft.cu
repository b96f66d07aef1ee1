// vkfft: VkFFT (Debian 12's libvkfft-dev 1.2.26, its CUDA back end; link: -lnvrtc -lcuda)
// plans and runs fast Fourier transforms as an application does: it generates CUDA C++ for
// each transform, compiles it to PTX with NVRTC, loads it with cuModuleLoadDataEx, raises
// the kernel's dynamic shared memory with cuFuncSetAttribute and launches it with
// cuLaunchKernel.  Each case (1-3 dimensions; radix 2, 3, 5, 7, 11, 13 and Bluestein sizes;
// f32 and f64; complex, real-to-complex, DCT-I to IV; batches; sine and cosine computed in
// the kernel or read from a table) runs forward and back on random data, and prints a hash
// of every bit of both results: the butterflies' muls and adds are what ptxas fuses into
// fmas, so the hashes show the contraction, sin.approx and cos.approx as the H100 does them.
// requires: vkFFT.h return 10226;
#define VKFFT_BACKEND 1
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vkFFT.h>

struct Case {
    int dim;
    uint64_t n[3];
    int f64, r2c, dct, batch, normalize, lut;
};

static uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t rs = 88172645463325252ull;
static double rnd()
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (double)(rs >> 11) / 9007199254740992.0 * 2 - 1;
}

static CUdevice dev;

static void run_case(const Case &c, int idx)
{
    VkFFTConfiguration cfg = {};
    VkFFTApplication app = {};
    cfg.FFTdim = c.dim;
    for (int i = 0; i < 3; i++)
        cfg.size[i] = c.n[i] ? c.n[i] : 1;
    cfg.device = &dev;
    cfg.doublePrecision = c.f64;
    cfg.performR2C = c.r2c;
    cfg.performDCT = c.dct;
    cfg.numberBatches = c.batch;
    cfg.normalize = c.normalize;
    cfg.useLUT = c.lut;
    size_t esz = c.f64 ? 8 : 4;
    uint64_t n0 = cfg.size[0], rest = cfg.size[1] * cfg.size[2] * c.batch;
    uint64_t reals = c.dct ? n0 * rest : (c.r2c ? n0 / 2 + 1 : n0) * rest * 2;
    uint64_t bytes = reals * esz;
    void *buf = 0;
    if (cudaMalloc(&buf, bytes) != cudaSuccess) {
        printf("case %d: cudaMalloc failed\n", idx);
        return;
    }
    cfg.buffer = &buf;
    cfg.bufferSize = &bytes;
    unsigned char *h = (unsigned char *)malloc(bytes);
    for (uint64_t i = 0; i < reals; i++) {
        double v = rnd();
        if (c.f64)
            ((double *)h)[i] = v;
        else
            ((float *)h)[i] = (float)v;
    }
    cudaMemcpy(buf, h, bytes, cudaMemcpyHostToDevice);
    VkFFTResult r = initializeVkFFT(&app, cfg);
    if (r != VKFFT_SUCCESS) {
        printf("case %d: initializeVkFFT -> %d\n", idx, (int)r);
        free(h);
        cudaFree(buf);
        return;
    }
    VkFFTLaunchParams lp = {};
    lp.buffer = &buf;
    VkFFTResult rf = VkFFTAppend(&app, -1, &lp);
    cudaError_t ef = cudaDeviceSynchronize();
    cudaMemcpy(h, buf, bytes, cudaMemcpyDeviceToHost);
    uint64_t hf = hash_bytes(h, bytes);
    VkFFTResult ri = VkFFTAppend(&app, 1, &lp);
    cudaError_t ei = cudaDeviceSynchronize();
    cudaMemcpy(h, buf, bytes, cudaMemcpyDeviceToHost);
    uint64_t hi = hash_bytes(h, bytes);
    printf("case %2d: %dD %llux%llux%llu %s%s dct %d, batch %d%s%s: forward %016llx (%d, %s) back %016llx (%d, %s)\n",
           idx, c.dim, (unsigned long long)cfg.size[0], (unsigned long long)cfg.size[1],
           (unsigned long long)cfg.size[2], c.f64 ? "f64" : "f32", c.r2c ? " r2c" : "", c.dct, c.batch,
           c.normalize ? ", normalised" : "", c.lut ? ", table" : "", (unsigned long long)hf, (int)rf,
           cudaGetErrorName(ef), (unsigned long long)hi, (int)ri, cudaGetErrorName(ei));
    deleteVkFFT(&app);
    free(h);
    cudaFree(buf);
}

int main()
{
    if (VkFFTGetVersion() != 10226) {
        printf("VkFFT %d, not the 1.2.26 the recording was made with\n", VkFFTGetVersion());
        return 1;
    }
    cuInit(0);
    cuDeviceGet(&dev, 0);
    cudaSetDevice(0);
    cudaFree(0);
    static const Case cases[] = {
        { 1, { 8 }, 0, 0, 0, 1, 0, 0 },
        { 1, { 64 }, 0, 0, 0, 4, 1, 0 },
        { 1, { 1024 }, 0, 0, 0, 2, 0, 0 },
        { 1, { 30 }, 0, 0, 0, 3, 1, 0 },
        { 1, { 97 }, 0, 0, 0, 1, 0, 0 },
        { 1, { 1001 }, 0, 0, 0, 1, 1, 0 },
        { 1, { 4096 }, 1, 0, 0, 1, 0, 0 },
        { 1, { 243 }, 1, 0, 0, 2, 1, 0 },
        { 1, { 256 }, 0, 1, 0, 2, 1, 0 },
        { 1, { 100 }, 1, 1, 0, 1, 0, 0 },
        { 1, { 64 }, 0, 0, 2, 1, 0, 0 },
        { 1, { 64 }, 0, 0, 3, 1, 0, 0 },
        { 1, { 60 }, 1, 0, 1, 1, 0, 0 },
        { 1, { 32 }, 0, 0, 4, 1, 0, 0 },
        { 2, { 64, 64 }, 0, 0, 0, 1, 0, 0 },
        { 2, { 100, 60 }, 0, 1, 0, 1, 1, 0 },
        { 3, { 16, 16, 16 }, 0, 0, 0, 1, 0, 0 },
        { 3, { 8, 12, 10 }, 1, 0, 0, 1, 1, 0 },
        { 1, { 512 }, 0, 0, 0, 1, 1, 1 },
        { 1, { 128 }, 0, 0, 0, 1, 0, 1 },
        { 1, { 65536 }, 0, 0, 0, 1, 0, 0 },
        { 1, { 1001 }, 0, 0, 0, 1, 0, 0 },
        { 1, { 2048 }, 1, 1, 0, 2, 1, 0 },
        { 2, { 32, 48 }, 1, 0, 2, 1, 0, 0 },
        { 1, { 323 }, 0, 0, 0, 2, 0, 0 },
        { 1, { 8192 }, 0, 0, 0, 4, 1, 1 },
        { 2, { 120, 77 }, 1, 0, 0, 1, 1, 0 },
        { 1, { 96 }, 1, 0, 4, 3, 0, 0 },
    };
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++)
        run_case(cases[i], i);
    return 0;
}
