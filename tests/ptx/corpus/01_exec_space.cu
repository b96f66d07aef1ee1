// Feature group 6.1: execution-space specifiers, launch bounds, calls.
#include <cstdint>

struct Params {
    float scale;
    int n;
    float coef[15];
};

struct Pair32 {          // 32-byte struct returned by value
    double a, b;
    int c, d;
    long long e;
};

__device__ __noinline__ int dev_noinline(int a, float b, double c, int *out)
{
    int r = a * 3 + (int)b + (int)c;
    if (out) *out = r;
    return r;
}

__device__ __forceinline__ int dev_forceinline(int x) { return x * x + 1; }
__host__ __device__ inline int hd_helper(int x) { return x ^ 0x5a; }

__device__ __noinline__ Pair32 ret_struct(int i)
{
    Pair32 p;
    p.a = i * 0.5; p.b = i * 0.25; p.c = i; p.d = -i; p.e = (long long)i << 33;
    return p;
}

__device__ __noinline__ float take_struct(Params p, int i) { return p.coef[i % 15] * p.scale; }

__device__ int recurse(int n) { return n <= 1 ? 1 : n * recurse(n - 1); }

// genuinely recursive (tree-shaped) so it cannot be turned into a loop
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ int f_a(int x) { return x + 11; }
__device__ __noinline__ int f_b(int x) { return x * 7; }
__device__ __noinline__ int f_c(int x) { return x - 3; }
typedef int (*fn_t)(int);
__device__ fn_t fn_table[3] = { f_a, f_b, f_c };

__global__ void k_plain(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = dev_forceinline(i) + hd_helper(i);
}

extern "C" __global__ void k_externc(int *out) { out[threadIdx.x] = threadIdx.x; }

__global__ void k_calls(int *out, float f, double d)
{
    int i = threadIdx.x;
    int tmp;
    out[i] = dev_noinline(i, f, d, &tmp) + tmp + recurse(i & 7) + fib(i & 15);
}

__global__ void k_struct_ret(double *out, long long *out2)
{
    Pair32 p = ret_struct(threadIdx.x);
    out[threadIdx.x] = p.a + p.b + p.c + p.d;
    out2[threadIdx.x] = p.e;
}

__global__ void k_fnptr(int *out, int sel)
{
    fn_t f = fn_table[(sel + threadIdx.x) % 3];
    out[threadIdx.x] = f(threadIdx.x);
}

__global__ void k_fnptr_local(int *out, int sel)
{
    fn_t local_tab[2] = { f_b, f_a };
    out[threadIdx.x] = local_tab[sel & 1](threadIdx.x);
}

__global__ void __launch_bounds__(256, 2) k_bounds(float *a) { a[threadIdx.x] *= 2.0f; }
__global__ void __launch_bounds__(1024) k_bounds1(float *a) { a[threadIdx.x] += 1.0f; }
__global__ void __maxnreg__(40) k_maxnreg(float *a) { a[threadIdx.x] -= 1.0f; }

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define LB3 __launch_bounds__(128, 4, 2)
#define CLUSTER2 __cluster_dims__(2, 1, 1)
#else
#define LB3 __launch_bounds__(128, 4)
#define CLUSTER2
#endif
__global__ void LB3 k_bounds3(float *a) { a[threadIdx.x] *= 3.0f; }
__global__ void CLUSTER2 k_cluster_dims(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

__global__ void k_byval(Params p, float *out, char c, short s, float f, double d, float4 v,
                        unsigned char uc, bool b, long long ll, int2 i2)
{
    int i = threadIdx.x;
    out[i] = p.coef[i % 15] * p.scale + p.n + c + s + f + (float)d + v.x + v.y + v.z + v.w
             + uc + (b ? 1.f : 0.f) + (float)ll + i2.x + i2.y + take_struct(p, i);
}

__global__ void k_gridconst(const __grid_constant__ Params p, float *out)
{
    int i = threadIdx.x;
    const float *cp = &p.coef[i % 15];
    out[i] = *cp * p.scale;
#if __CUDA_ARCH__ >= 700
    out[i + 32] = __isGridConstant(cp) ? 1.0f : 0.0f;
#endif
}

template <typename T> __global__ void k_tmpl(T *a) { a[threadIdx.x] = a[threadIdx.x] * (T)2 + (T)1; }
template __global__ void k_tmpl<float>(float *);
template __global__ void k_tmpl<double>(double *);
template __global__ void k_tmpl<int>(int *);

__global__ void k_empty() {}
__global__ void k_early_return(int *out, int n)
{
    if (threadIdx.x >= n) return;
    out[threadIdx.x] = n;
}
