// mem.cu: kernels with known memory access patterns, measured on the H100 under Nsight
// Compute (tests/stats/record.sh) and replayed under ptxrun --stats (tests/stats/check.sh).
// Each kernel does one kind of access whose pattern its scalar arguments choose:
// element index j(i, k) = ((i * stride + k * kstride) % modn) + offset for thread i and
// repetition k.
#include <cstdint>

__device__ __forceinline__ unsigned gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ unsigned jidx(unsigned i, unsigned k, unsigned stride, unsigned kstride,
                                         unsigned modn, unsigned offset)
{
    return (i * stride + k * kstride) % modn + offset;
}

#define GLOAD(NAME, T, LOAD)                                                                  \
    extern "C" __global__ void NAME(const T *in, float *out, unsigned stride, unsigned kstride, \
                                    unsigned modn, unsigned offset, unsigned reps)            \
    {                                                                                         \
        unsigned i = gid();                                                                   \
        float acc = 0;                                                                        \
        for (unsigned k = 0; k < reps; k++) {                                                 \
            const T *p = &in[jidx(i, k, stride, kstride, modn, offset)];                      \
            acc += (float)(LOAD);                                                             \
        }                                                                                     \
        out[i] = acc;                                                                         \
    }
GLOAD(ld_f32, float, *p)
GLOAD(ld_u8, unsigned char, *p)
GLOAD(ld_u16, unsigned short, *p)
GLOAD(ld_f64, double, *p)
GLOAD(ld_cg, float, __ldcg(p))
GLOAD(ld_cs, float, __ldcs(p))
GLOAD(ld_cv, float, __ldcv(p))
GLOAD(ld_lu, float, __ldlu(p))
GLOAD(ld_nc, float, __ldg(p))
GLOAD(ld_volatile, float, *(const volatile float *)p)

extern "C" __global__ void ld_v2(const float2 *in, float *out, unsigned stride, unsigned kstride, unsigned modn,
                                 unsigned offset, unsigned reps)
{
    unsigned i = gid();
    float acc = 0;
    for (unsigned k = 0; k < reps; k++) {
        float2 v = in[jidx(i, k, stride, kstride, modn, offset)];
        acc += v.x + v.y;
    }
    out[i] = acc;
}
extern "C" __global__ void ld_v4(const float4 *in, float *out, unsigned stride, unsigned kstride, unsigned modn,
                                 unsigned offset, unsigned reps)
{
    unsigned i = gid();
    float acc = 0;
    for (unsigned k = 0; k < reps; k++) {
        float4 v = in[jidx(i, k, stride, kstride, modn, offset)];
        acc += v.x + v.y + v.z + v.w;
    }
    out[i] = acc;
}

#define GSTORE(NAME, T)                                                                         \
    extern "C" __global__ void NAME(T *out, unsigned stride, unsigned kstride, unsigned modn,     \
                                    unsigned offset, unsigned reps)                             \
    {                                                                                           \
        unsigned i = gid();                                                                     \
        for (unsigned k = 0; k < reps; k++)                                                     \
            out[jidx(i, k, stride, kstride, modn, offset)] = (T)(i + k);                        \
    }
GSTORE(st_f32, float)
GSTORE(st_u8, unsigned char)
GSTORE(st_f64, double)
extern "C" __global__ void st_v4(float4 *out, unsigned stride, unsigned kstride, unsigned modn, unsigned offset,
                                 unsigned reps)
{
    unsigned i = gid();
    for (unsigned k = 0; k < reps; k++)
        out[jidx(i, k, stride, kstride, modn, offset)] = make_float4(i, k, 1, 2);
}

// Atomics: with the result used (atom) and without (red).
extern "C" __global__ void atom_add(unsigned *data, unsigned *res, unsigned stride, unsigned kstride, unsigned modn,
                                    unsigned offset, unsigned reps)
{
    unsigned i = gid(), acc = 0;
    for (unsigned k = 0; k < reps; k++)
        acc += atomicAdd(&data[jidx(i, k, stride, kstride, modn, offset)], 1u);
    res[i] = acc;
}
extern "C" __global__ void red_add(unsigned *data, unsigned stride, unsigned kstride, unsigned modn,
                                   unsigned offset, unsigned reps)
{
    unsigned i = gid();
    for (unsigned k = 0; k < reps; k++)
        atomicAdd(&data[jidx(i, k, stride, kstride, modn, offset)], 1u);
}
extern "C" __global__ void red_addf(float *data, unsigned stride, unsigned kstride, unsigned modn,
                                    unsigned offset, unsigned reps)
{
    unsigned i = gid();
    for (unsigned k = 0; k < reps; k++)
        atomicAdd(&data[jidx(i, k, stride, kstride, modn, offset)], 1.0f);
}

// Shared memory: the CTA fills sh (consecutive words), then each thread reads (sh_ld_*)
// or writes (sh_st_*) the element its pattern names; words = elements of sh.
#define SH_WORDS 8192
#define SHLOAD(NAME, T)                                                                          \
    extern "C" __global__ void NAME(float *out, unsigned stride, unsigned kstride, unsigned modn,  \
                                    unsigned offset, unsigned reps)                              \
    {                                                                                            \
        __shared__ T sh[SH_WORDS * 4 / sizeof(T)];                                               \
        for (unsigned j = threadIdx.x; j < SH_WORDS * 4 / sizeof(T); j += blockDim.x)           \
            sh[j] = (T)j;                                                                        \
        __syncthreads();                                                                         \
        float acc = 0;                                                                           \
        for (unsigned k = 0; k < reps; k++)                                                      \
            acc += (float)sh[jidx(threadIdx.x, k, stride, kstride, modn, offset)];               \
        out[gid()] = acc;                                                                        \
    }
SHLOAD(sh_ld_f32, float)
SHLOAD(sh_ld_u8, unsigned char)
SHLOAD(sh_ld_u16, unsigned short)
SHLOAD(sh_ld_f64, double)

extern "C" __global__ void sh_ld_v2(float *out, unsigned stride, unsigned kstride, unsigned modn, unsigned offset,
                                    unsigned reps)
{
    __shared__ float2 sh[SH_WORDS / 2];
    for (unsigned j = threadIdx.x; j < SH_WORDS / 2; j += blockDim.x)
        sh[j] = make_float2(j, 1);
    __syncthreads();
    float acc = 0;
    for (unsigned k = 0; k < reps; k++) {
        float2 v = sh[jidx(threadIdx.x, k, stride, kstride, modn, offset)];
        acc += v.x + v.y;
    }
    out[gid()] = acc;
}
extern "C" __global__ void sh_ld_v4(float *out, unsigned stride, unsigned kstride, unsigned modn, unsigned offset,
                                    unsigned reps)
{
    __shared__ float4 sh[SH_WORDS / 4];
    for (unsigned j = threadIdx.x; j < SH_WORDS / 4; j += blockDim.x)
        sh[j] = make_float4(j, 1, 2, 3);
    __syncthreads();
    float acc = 0;
    for (unsigned k = 0; k < reps; k++) {
        float4 v = sh[jidx(threadIdx.x, k, stride, kstride, modn, offset)];
        acc += v.x + v.y + v.z + v.w;
    }
    out[gid()] = acc;
}

#define SHSTORE(NAME, T)                                                                         \
    extern "C" __global__ void NAME(float *out, unsigned stride, unsigned kstride, unsigned modn,  \
                                    unsigned offset, unsigned reps)                              \
    {                                                                                            \
        __shared__ T sh[SH_WORDS * 4 / sizeof(T)];                                               \
        for (unsigned k = 0; k < reps; k++)                                                      \
            sh[jidx(threadIdx.x, k, stride, kstride, modn, offset)] = (T)(threadIdx.x + k);      \
        __syncthreads();                                                                         \
        out[gid()] = (float)sh[threadIdx.x];                                                     \
    }
SHSTORE(sh_st_f32, float)
SHSTORE(sh_st_u8, unsigned char)
SHSTORE(sh_st_f64, double)

// A 32x32 tile transpose through shared memory with row pitch `pitch` words (32: bank
// conflicts on the column reads; 33: none).
extern "C" __global__ void transpose(const float *in, float *out, unsigned n, unsigned pitch)
{
    __shared__ float tile[32 * 33];
    unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y * pitch + threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x * pitch + threadIdx.y];
}

// Matrix multiply, naive (every operand from global memory: reuse in L1 and L2) and
// tiled through shared memory.
extern "C" __global__ void mm_naive(const float *a, const float *b, float *c, unsigned n)
{
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0;
    for (unsigned k = 0; k < n; k++)
        acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}
extern "C" __global__ void mm_tiled(const float *a, const float *b, float *c, unsigned n)
{
    __shared__ float ta[16][16], tb[16][16];
    unsigned col = blockIdx.x * 16 + threadIdx.x, row = blockIdx.y * 16 + threadIdx.y;
    float acc = 0;
    for (unsigned t = 0; t < n; t += 16) {
        ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (unsigned k = 0; k < 16; k++)
            acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

// red written out: what ptxas makes of an atomic whose result is not used.
extern "C" __global__ void red_asm(unsigned *data, unsigned stride, unsigned kstride, unsigned modn,
                                   unsigned offset, unsigned reps)
{
    unsigned i = gid();
    for (unsigned k = 0; k < reps; k++)
        asm volatile("red.global.add.u32 [%0], 1;" ::"l"(&data[jidx(i, k, stride, kstride, modn, offset)])
                     : "memory");
}

// Loads and stores written out in PTX: generic addresses (to global and to shared memory),
// L1::no_allocate, and the memory-model orders that bypass the L1.
#define ASMLOAD(NAME, INSN)                                                                      \
    extern "C" __global__ void NAME(const float *in, float *out, unsigned stride, unsigned kstride, \
                                    unsigned modn, unsigned offset, unsigned reps)               \
    {                                                                                            \
        unsigned i = gid();                                                                      \
        float acc = 0;                                                                           \
        for (unsigned k = 0; k < reps; k++) {                                                    \
            float v;                                                                             \
            asm volatile(INSN " %0, [%1];" : "=f"(v) : "l"(&in[jidx(i, k, stride, kstride, modn, offset)])); \
            acc += v;                                                                            \
        }                                                                                        \
        out[i] = acc;                                                                            \
    }
ASMLOAD(ld_generic, "ld.f32")
ASMLOAD(ld_noalloc, "ld.global.L1::no_allocate.f32")
ASMLOAD(ld_relaxed_gpu, "ld.relaxed.gpu.global.f32")
ASMLOAD(ld_acquire_gpu, "ld.acquire.gpu.global.f32")
ASMLOAD(ld_relaxed_cta, "ld.relaxed.cta.global.f32")
ASMLOAD(ld_evict_last, "ld.global.L1::evict_last.f32")

extern "C" __global__ void st_generic(float *out, unsigned stride, unsigned kstride, unsigned modn, unsigned offset,
                                      unsigned reps)
{
    unsigned i = gid();
    for (unsigned k = 0; k < reps; k++)
        asm volatile("st.f32 [%0], %1;" ::"l"(&out[jidx(i, k, stride, kstride, modn, offset)]), "f"((float)i)
                     : "memory");
}

extern "C" __global__ void sh_ld_generic(float *out, unsigned stride, unsigned kstride, unsigned modn,
                                         unsigned offset, unsigned reps)
{
    __shared__ float sh[SH_WORDS];
    for (unsigned j = threadIdx.x; j < SH_WORDS; j += blockDim.x)
        sh[j] = (float)j;
    __syncthreads();
    float acc = 0;
    for (unsigned k = 0; k < reps; k++) {
        float v;
        const float *q = &sh[jidx(threadIdx.x, k, stride, kstride, modn, offset)];
        asm volatile("ld.f32 %0, [%1];" : "=f"(v) : "l"(q));
        acc += v;
    }
    out[gid()] = acc;
}

// The reductions of a CUDA course: interleaved addressing with a divergent branch, with a
// strided index (bank conflicts), and sequential addressing; then a 256-bin histogram with
// global atomics.
extern "C" __global__ void reduce_interleaved(const float *in, float *out)
{
    __shared__ float sh[256];
    unsigned t = threadIdx.x;
    sh[t] = in[gid()];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (t % (2 * s) == 0)
            sh[t] += sh[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sh[0];
}
extern "C" __global__ void reduce_strided(const float *in, float *out)
{
    __shared__ float sh[256];
    unsigned t = threadIdx.x;
    sh[t] = in[gid()];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned idx = 2 * s * t;
        if (idx < blockDim.x)
            sh[idx] += sh[idx + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sh[0];
}
extern "C" __global__ void reduce_sequential(const float *in, float *out)
{
    __shared__ float sh[256];
    unsigned t = threadIdx.x;
    sh[t] = in[gid()];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            sh[t] += sh[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sh[0];
}
extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, unsigned n)
{
    for (unsigned i = gid(); i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[in[i] % 256], 1u);
}
