// capture.cu: records the GPU's multi-function-unit results over whole input domains.
// Each table is written as a file of little-endian u32 results, one per input, in input
// order; the caller compresses them.  Inputs are implied by the table's name:
//   rcp     rcp.approx.ftz.f32    x = 0x3f800000 + i,     i < 2^23   ([1,2))
//   rsq     rsqrt.approx.ftz.f32  x = 0x3f800000 + i,     i < 2^24   ([1,4))
//   sqrt    sqrt.approx.ftz.f32   x = 0x3f800000 + i,     i < 2^24   ([1,4))
//   lg2     lg2.approx.ftz.f32    x = 0x3f800000 + i,     i < 2^23   ([1,2))
//   lg2m    lg2.approx.ftz.f32    x = 0x3f000000 + i,     i < 2^23   ([0.5,1))
//   ex2     ex2.approx.ftz.f32    x = i * 2^-23,          i < 2^23   ([0,1))
//   ex2n    ex2.approx.ftz.f32    x = -i * 2^-23,         i < 2^24   ((-2,0])
//   ex2t    ex2.approx.ftz.f32    x = -(0x33ffffff - i),  i < 2^25   ([-2^-23,-2^-27))
//   sin/cos sin/cos.approx.ftz.f32 at an x whose turn (x * 1/(2 pi), rounded toward
//           zero) truncated to 25 fraction bits is i, i < 2^23 (the first quadrant);
//           where no f32 x gives that turn the result is 0xffffffff and the input is
//           recorded in sinx (0 there)
//   tanhK   tanh.approx.f32       x = ((127 + K) << 23) + i, i < 2^23 ([2^K,2^(K+1))),
//           K = -8..2 (named tanh-8 .. tanh2)
//   h16     65536 x 4 u16 words: ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16,
//           tanh.approx.bf16 of the 16-bit pattern i
//   rcp64   hi word of rcp.approx.ftz.f64 of hi word 0x3ff00000 + i, i < 2^20
//   rsq64   hi word of rsqrt.approx.ftz.f64 of hi word 0x3ff00000 + i, i < 2^21
//   samples for each of the NS functions below, N inputs from a fixed generator
//           (splitmix64, see sample_input) and the results
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ float u2f(uint32_t u) { return __uint_as_float(u); }
__device__ __forceinline__ uint32_t f2u(float f) { return __float_as_uint(f); }

#define UNARY(name, insn) \
    __device__ __forceinline__ float name(float x) { float r; \
        asm volatile(insn " %0, %1;" : "=f"(r) : "f"(x)); return r; }
UNARY(rcp_ftz, "rcp.approx.ftz.f32")
UNARY(rcp_f, "rcp.approx.f32")
UNARY(rsq_ftz, "rsqrt.approx.ftz.f32")
UNARY(rsq_f, "rsqrt.approx.f32")
UNARY(sqrt_ftz, "sqrt.approx.ftz.f32")
UNARY(sqrt_f, "sqrt.approx.f32")
UNARY(lg2_ftz, "lg2.approx.ftz.f32")
UNARY(lg2_f, "lg2.approx.f32")
UNARY(ex2_ftz, "ex2.approx.ftz.f32")
UNARY(ex2_f, "ex2.approx.f32")
UNARY(sin_ftz, "sin.approx.ftz.f32")
UNARY(sin_f, "sin.approx.f32")
UNARY(cos_ftz, "cos.approx.ftz.f32")
UNARY(cos_f, "cos.approx.f32")
UNARY(tanh_f, "tanh.approx.f32")

enum { T_RCP, T_RSQ, T_SQRT, T_LG2, T_EX2, T_LG2M, T_EX2N, T_EX2T, T_TANH };

// T_TANH + 8 + K: tanh of the binade [2^K, 2^(K+1)).

__global__ void k_table(int which, uint32_t n, uint32_t *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float r;
    switch (which) {
    case T_RCP:   r = rcp_ftz(u2f(0x3f800000u + i)); break;
    case T_RSQ:   r = rsq_ftz(u2f(0x3f800000u + i)); break;
    case T_SQRT:  r = sqrt_ftz(u2f(0x3f800000u + i)); break;
    case T_LG2:   r = lg2_ftz(u2f(0x3f800000u + i)); break;
    case T_EX2:   r = ex2_ftz((float)i * 0x1p-23f); break;
    case T_LG2M:  r = lg2_ftz(u2f(0x3f000000u + i)); break;
    case T_EX2N:  r = ex2_ftz((float)i * -0x1p-23f); break;
    case T_EX2T:  r = ex2_ftz(-u2f(0x33ffffffu - i)); break;
    default:      r = tanh_f(u2f(((uint32_t)(127 + which - T_TANH - 8) << 23) + i)); break;
    }
    out[i] = f2u(r);
}

// The turn of x as sin.approx reads it: x * 1/(2 pi) rounded toward zero, 25 fraction
// bits truncated.
__device__ __forceinline__ int64_t turn25(float x)
{
    float t = __fmul_rz(x, u2f(0x3e22f983u));
    return (int64_t)((double)t * 0x1p25);
}

__global__ void k_sincos(uint32_t n, uint32_t *sinv, uint32_t *cosv, uint32_t *xs)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    // first f32 x (from below) whose turn is i
    double want = (double)i * 0x1p-25;
    float x = (float)(want * 6.283185307179586);
    for (int k = 0; k < 64 && x > 0 && turn25(x) >= (int64_t)i; k++)
        x = u2f(f2u(x) - 1);
    for (int k = 0; k < 128 && turn25(x) < (int64_t)i; k++)
        x = u2f(f2u(x) + 1);
    if (i == 0)
        x = 0.0f;
    if (turn25(x) != (int64_t)i) {
        sinv[i] = cosv[i] = 0xffffffffu;
        xs[i] = 0;
        return;
    }
    sinv[i] = f2u(sin_ftz(x));
    cosv[i] = f2u(cos_ftz(x));
    xs[i] = f2u(x);
}

__global__ void k_h16(uint16_t *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536)
        return;
    uint16_t h = (uint16_t)i, a, b, c, d;
    asm volatile("ex2.approx.f16 %0, %1;" : "=h"(a) : "h"(h));
    asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(b) : "h"(h));
    asm volatile("tanh.approx.f16 %0, %1;" : "=h"(c) : "h"(h));
    asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(d) : "h"(h));
    out[4 * i] = a;
    out[4 * i + 1] = b;
    out[4 * i + 2] = c;
    out[4 * i + 3] = d;
}

__global__ void k_f64(int rsq, uint32_t n, uint32_t *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = __hiloint2double(0x3ff00000 + i, 0), r;
    if (rsq)
        asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    else
        asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    out[i] = __double2hiint(r);
}

// Sample inputs: a mix of raw bit patterns, values near 1 in scale, and moderate values.
__host__ __device__ inline uint64_t splitmix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
__host__ __device__ inline uint32_t sample_input(int fn, uint32_t i)
{
    uint64_t r = splitmix(((uint64_t)fn << 40) ^ i);
    uint32_t lo = (uint32_t)r, kind = (uint32_t)(r >> 32) & 3;
    uint32_t sign = (uint32_t)(r >> 34) << 31;
    switch (kind) {
    case 0: return lo;                                                   // any pattern
    case 1: return sign | ((uint32_t)(112 + ((r >> 35) % 32)) << 23) | (lo & 0x7fffff);
    case 2: return sign | ((uint32_t)(1 + ((r >> 35) % 253)) << 23) | (lo & 0x7fffff);
    default: return sign | (lo & 0x00ffffffu);                           // subnormal, tiny
    }
}
#define NS 15
__device__ float apply(int fn, float x)
{
    switch (fn) {
    case 0: return rcp_ftz(x);   case 1: return rcp_f(x);
    case 2: return rsq_ftz(x);   case 3: return rsq_f(x);
    case 4: return sqrt_ftz(x);  case 5: return sqrt_f(x);
    case 6: return lg2_ftz(x);   case 7: return lg2_f(x);
    case 8: return ex2_ftz(x);   case 9: return ex2_f(x);
    case 10: return sin_ftz(x);  case 11: return sin_f(x);
    case 12: return cos_ftz(x);  case 13: return cos_f(x);
    default: return tanh_f(x);
    }
}
__global__ void k_samples(uint32_t n, uint32_t *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int fn = 0; fn < NS; fn++)
        out[(size_t)fn * n + i] = f2u(apply(fn, u2f(sample_input(fn, i))));
}

static void save(const std::string &dir, const char *name, const void *p, size_t bytes)
{
    std::string path = dir + "/" + name;
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes) {
        perror(path.c_str());
        exit(1);
    }
    fclose(f);
}

static void table(const std::string &dir, const char *name, int which, uint32_t n)
{
    uint32_t *d;
    std::vector<uint32_t> h(n);
    CK(cudaMalloc(&d, n * 4ull));
    k_table<<<(n + 255) / 256, 256>>>(which, n, d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h.data(), d, n * 4ull, cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    save(dir, name, h.data(), n * 4ull);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    table(dir, "rcp", T_RCP, 1u << 23);
    table(dir, "rsq", T_RSQ, 1u << 24);
    table(dir, "sqrt", T_SQRT, 1u << 24);
    table(dir, "lg2", T_LG2, 1u << 23);
    table(dir, "ex2", T_EX2, 1u << 23);
    table(dir, "lg2m", T_LG2M, 1u << 23);
    table(dir, "ex2n", T_EX2N, 1u << 24);
    table(dir, "ex2t", T_EX2T, 1u << 25);
    for (int k = -8; k <= 2; k++)
        table(dir, ("tanh" + std::to_string(k)).c_str(), T_TANH + 8 + k, 1u << 23);
    {
        uint32_t n = 1u << 23, *ds, *dc, *dx;
        std::vector<uint32_t> hs(n), hc(n), hx(n);
        CK(cudaMalloc(&ds, n * 4ull));
        CK(cudaMalloc(&dc, n * 4ull));
        CK(cudaMalloc(&dx, n * 4ull));
        k_sincos<<<n / 256, 256>>>(n, ds, dc, dx);
        CK(cudaGetLastError());
        CK(cudaMemcpy(hs.data(), ds, n * 4ull, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hc.data(), dc, n * 4ull, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hx.data(), dx, n * 4ull, cudaMemcpyDeviceToHost));
        save(dir, "sin", hs.data(), n * 4ull);
        save(dir, "cos", hc.data(), n * 4ull);
        save(dir, "sinx", hx.data(), n * 4ull);
        size_t miss = 0;
        for (uint32_t i = 0; i < n; i++)
            miss += hs[i] == 0xffffffffu;
        printf("sincos: %zu turns with no f32 input\n", miss);
    }
    {
        uint16_t *d;
        std::vector<uint16_t> h(65536 * 4);
        CK(cudaMalloc(&d, h.size() * 2));
        k_h16<<<256, 256>>>(d);
        CK(cudaGetLastError());
        CK(cudaMemcpy(h.data(), d, h.size() * 2, cudaMemcpyDeviceToHost));
        save(dir, "h16", h.data(), h.size() * 2);
    }
    for (int rsq = 0; rsq < 2; rsq++) {
        uint32_t n = 1u << (20 + rsq), *d;
        std::vector<uint32_t> h(n);
        CK(cudaMalloc(&d, n * 4ull));
        k_f64<<<n / 256, 256>>>(rsq, n, d);
        CK(cudaGetLastError());
        CK(cudaMemcpy(h.data(), d, n * 4ull, cudaMemcpyDeviceToHost));
        save(dir, rsq ? "rsq64" : "rcp64", h.data(), n * 4ull);
    }
    {
        uint32_t n = 1u << 18, *d;
        std::vector<uint32_t> h((size_t)n * NS);
        CK(cudaMalloc(&d, h.size() * 4));
        k_samples<<<n / 256, 256>>>(n, d);
        CK(cudaGetLastError());
        CK(cudaMemcpy(h.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
        save(dir, "samples", h.data(), h.size() * 4);
    }
    printf("done\n");
    return 0;
}
