// Feature group 6.15: atomic functions of every kind.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>

__global__ void k_atomic_int(int *a, unsigned *u, unsigned long long *ull, long long *ll, unsigned short *us, int *o)
{
    int i = threadIdx.x;
    int r = 0;
    r += atomicAdd(&a[0], i);
    r += atomicAdd(&u[0], 1u);
    r += (int)atomicAdd(&ull[0], 1ull);
    r += atomicSub(&a[1], i);
    r += atomicSub(&u[1], 2u);
    r += atomicExch(&a[2], i);
    r += (int)atomicExch(&ull[1], (unsigned long long)i);
    r += atomicMin(&a[3], i) + atomicMax(&a[4], i);
    r += atomicMin(&u[2], (unsigned)i) + atomicMax(&u[3], (unsigned)i);
    r += (int)(atomicMin(&ll[0], (long long)i) + atomicMax(&ll[1], (long long)i));
    r += (int)(atomicMin(&ull[2], (unsigned long long)i) + atomicMax(&ull[3], (unsigned long long)i));
    r += atomicInc(&u[4], 100u) + atomicDec(&u[5], 100u);
    r += atomicCAS(&a[5], i, i + 1) + atomicCAS(&u[6], 0u, 1u);
    r += (int)atomicCAS(&ull[4], 0ull, (unsigned long long)i);
#if __CUDA_ARCH__ >= 700
    r += atomicCAS(&us[0], (unsigned short)0, (unsigned short)i);
#endif
    r += atomicAnd(&a[6], i) + atomicOr(&a[7], i) + atomicXor(&a[8], i);
    r += atomicAnd(&u[7], 3u) + atomicOr(&u[8], 5u) + atomicXor(&u[9], 7u);
    r += (int)(atomicAnd(&ull[5], 1ull) | atomicOr(&ull[6], 2ull) | atomicXor(&ull[7], 4ull));
    o[i] = r;
}
__global__ void k_atomic_discard(int *a, unsigned *u, float *f, double *d)
{
    int i = threadIdx.x;
    atomicAdd(&a[0], i);
    atomicAdd(&f[0], 1.0f);
    atomicAdd(&d[0], 1.0);
    atomicMax(&a[1], i);
    atomicInc(&u[0], 7u);
    atomicExch(&f[1], (float)i);
    atomicOr(&u[1], 1u << (i & 31));
}
__global__ void k_atomic_float(float *f, double *d, float *o, double *od)
{
    int i = threadIdx.x;
    o[i] = atomicAdd(&f[0], 1.5f) + atomicExch(&f[1], 2.0f);
    od[i] = atomicAdd(&d[0], 0.25);
}
__global__ void k_atomic_half(__half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2, float *o)
{
    int i = threadIdx.x;
    __half r = atomicAdd(&h[0], __float2half(1.0f));
    __half2 r2 = atomicAdd(&h2[0], __floats2half2_rn(1.0f, 2.0f));
    __nv_bfloat16 rb = atomicAdd(&b[0], __float2bfloat16(1.0f));
    __nv_bfloat162 rb2 = atomicAdd(&b2[0], __floats2bfloat162_rn(1.0f, 2.0f));
    o[i] = __half2float(r) + __low2float(r2) + __bfloat162float(rb) + __high2float(rb2);
}
__global__ void k_atomic_vec(float2 *f2, float4 *f4, float *o)
{
#if __CUDA_ARCH__ >= 900
    int i = threadIdx.x;
    float2 a = atomicAdd(&f2[0], make_float2(1.0f, 2.0f));
    float4 b = atomicAdd(&f4[0], make_float4(1.0f, 2.0f, 3.0f, 4.0f));
    o[i] = a.x + a.y + b.x + b.w;
#endif
}
struct __align__(16) U128 { unsigned long long lo, hi; };
__global__ void k_atomic_128(U128 *p, U128 *o)
{
#if __CUDA_ARCH__ >= 900
    int i = threadIdx.x;
    U128 cmp = { 0, 0 }, val = { (unsigned long long)i, 1 };
    o[i] = atomicCAS(&p[0], cmp, val);
    o[i + 64] = atomicExch(&p[1], val);
#endif
}
__global__ void k_atomic_scoped(int *a, unsigned long long *ull, float *f, double *d, int *o)
{
    int i = threadIdx.x;
    int r = atomicAdd_block(&a[0], 1) + atomicAdd_system(&a[1], 1);
    r += (int)atomicAdd_block(&f[0], 1.0f) + (int)atomicAdd_system(&d[0], 1.0);
    r += atomicMax_block(&a[2], i) + atomicMin_system(&a[3], i);
    r += atomicCAS_system(&a[4], 0, i) + atomicCAS_block(&a[5], 0, i);
    r += atomicExch_block(&a[6], i) + atomicExch_system(&a[7], i);
    r += (int)(atomicAnd_block(&ull[0], 1ull) + atomicXor_system(&ull[1], 3ull) + atomicOr_block(&ull[2], 4ull));
    r += (int)atomicInc_system((unsigned *)&a[8], 10u) + (int)atomicDec_block((unsigned *)&a[9], 10u);
    o[i] = r;
}
__global__ void k_atomic_shared(int *out, float *fo, double *dout)
{
    __shared__ int si[4];
    __shared__ float sf[2];
    __shared__ double sd;
    __shared__ unsigned long long sull;
    __shared__ unsigned su;
    int i = threadIdx.x;
    if (i == 0) { si[0] = si[1] = si[2] = si[3] = 0; sf[0] = sf[1] = 0; sd = 0; sull = 0; su = 0; }
    __syncthreads();
    atomicAdd(&si[0], i);
    atomicAdd(&sf[0], 1.0f);
    atomicAdd(&sd, 0.5);
    atomicMax(&si[1], i);
    atomicCAS(&sull, 0ull, (unsigned long long)i);
    atomicInc(&su, 31u);
    atomicExch(&sf[1], (float)i);
    int r = atomicSub(&si[2], 1) + atomicOr(&si[3], i);
    __syncthreads();
    out[i] = si[0] + si[1] + (int)sull + su + r;
    fo[i] = sf[0] + sf[1];
    dout[i] = sd;
}
__device__ __noinline__ int generic_atomic(int *p, int v)
{
    return atomicAdd(p, v) + atomicCAS(p + 1, 0, v) + atomicExch(p + 2, v) + atomicMin(p + 3, v);
}
__global__ void k_atomic_generic(int *a, int *o)
{
    __shared__ int s[4];
    o[threadIdx.x] = generic_atomic(a, threadIdx.x) + generic_atomic(s, 1);
}
__global__ void k_atomic_ref(int *a, float *f, unsigned long long *u, int *o)
{
#if __CUDA_ARCH__ >= 700
    int i = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> ra(a[0]);
    cuda::atomic_ref<int, cuda::thread_scope_block> rb(a[1]);
    cuda::atomic_ref<int, cuda::thread_scope_system> rs(a[2]);
    cuda::atomic_ref<float, cuda::thread_scope_block> rf(f[0]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> ru(u[0]);
    int r = ra.fetch_add(1, cuda::memory_order_relaxed);
    r += ra.fetch_add(1, cuda::memory_order_acq_rel);
    r += ra.fetch_sub(1, cuda::memory_order_release);
    r += ra.fetch_max(i);
    r += ra.fetch_min(i, cuda::memory_order_acquire);
    r += ra.fetch_and(i, cuda::memory_order_relaxed) + ra.fetch_or(i) + ra.fetch_xor(i, cuda::memory_order_release);
    int expected = 0;
    r += ra.compare_exchange_strong(expected, i);
    r += rb.compare_exchange_weak(expected, i, cuda::memory_order_acq_rel, cuda::memory_order_relaxed);
    r += ra.load(cuda::memory_order_acquire) + ra.load(cuda::memory_order_relaxed) + ra.load();
    ra.store(i, cuda::memory_order_release);
    rb.store(i, cuda::memory_order_relaxed);
    rs.store(i);
    r += rs.exchange(i) + rs.exchange(i, cuda::memory_order_relaxed) + rb.fetch_add(2, cuda::memory_order_relaxed);
    r += (int)rf.fetch_add(1.0f, cuda::memory_order_relaxed) + (int)rf.load(cuda::memory_order_acquire);
    r += (int)ru.fetch_add(1ull, cuda::memory_order_seq_cst) + (int)ru.fetch_max(5ull, cuda::memory_order_relaxed);
    o[i] = r;
#if __CUDA_ARCH__ >= 700
    cuda::atomic<int, cuda::thread_scope_device> *ap = reinterpret_cast<cuda::atomic<int, cuda::thread_scope_device> *>(&a[3]);
    o[i + 64] = ap->fetch_add(1) + ap->load(cuda::memory_order_seq_cst);
#endif
#endif
}
