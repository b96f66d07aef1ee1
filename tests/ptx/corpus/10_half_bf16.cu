// Feature group 6.10: __half / __half2 / __nv_bfloat16 / __nv_bfloat162.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void k_half_arith(const __half *a, const __half *b, const __half *c, __half *o)
{
    int i = threadIdx.x; __half x = a[i], y = b[i], z = c[i];
    __half r = __hadd(x, y) + __hsub(x, z) * __hmul(y, z);
    r = r + x * y - z / x;
    r = __hadd_rn(r, __hadd_sat(x, y)) + __hsub_rn(x, y) + __hmul_rn(x, z) + __hmul_sat(y, z);
    r = r + __hfma(x, y, z) + __hfma_sat(x, y, z) + __hdiv(x, y) + __hneg(z) + __habs(x) + (-x);
#if __CUDA_ARCH__ >= 800
    r = r + __hfma_relu(x, y, z) + __hmax(x, y) + __hmin(y, z) + __hmax_nan(x, z) + __hmin_nan(x, y);
#endif
    o[i] = r;
}
__global__ void k_half_math(const __half *a, __half *o)
{
    int i = threadIdx.x; __half x = a[i];
    o[i] = hsqrt(x) + hrsqrt(x) + hrcp(x) + hexp(x) + hexp2(x) + hexp10(x) + hlog(x) + hlog2(x)
         + hlog10(x) + hsin(x) + hcos(x) + hfloor(x) + hceil(x) + htrunc(x) + hrint(x);
#if __CUDA_ARCH__ >= 750
    o[i + 64] = htanh_approx(x);
#endif
}
__global__ void k_half_cmp(const __half *a, const __half *b, int *o)
{
    int i = threadIdx.x; __half x = a[i], y = b[i];
    o[i] = __heq(x, y) + __hne(x, y) * 2 + __hlt(x, y) * 4 + __hle(x, y) * 8 + __hgt(x, y) * 16
         + __hge(x, y) * 32 + __hltu(x, y) * 64 + __hequ(x, y) * 128 + __hisnan(x) * 256
         + __hisinf(y) * 512 + (x < y) * 1024 + (x == y) * 2048;
}
__global__ void k_half2(const __half2 *a, const __half2 *b, const __half2 *c, __half2 *o, unsigned *m)
{
    int i = threadIdx.x; __half2 x = a[i], y = b[i], z = c[i];
    __half2 r = __hadd2(x, y) + __hsub2(x, z) * __hmul2(y, z) + __hfma2(x, y, z) + __h2div(x, y);
    r = r + __hneg2(x) + __habs2(y) + __hfma2_sat(x, y, z) + __hadd2_sat(x, z) + __hcmadd(x, y, z);
#if __CUDA_ARCH__ >= 800
    r = r + __hfma2_relu(x, y, z) + __hmax2(x, y) + __hmin2_nan(y, z);
#endif
    r = r + __hgt2(x, y) + h2sqrt(x) + h2exp(y) + h2sin(z) + __lowhigh2highlow(x);
    o[i] = r;
    m[i] = __hbeq2(x, y) + __hblt2(x, z) * 2 + __heq2_mask(x, y) + __hgt2_mask(y, z);
}
__global__ void k_half_conv(const float *f, const double *d, const int *n, const short *s, __half *o,
                            float *fo, int *io, unsigned char *uco, signed char *co, __half2 *o2)
{
    int i = threadIdx.x;
    __half h = __float2half(f[i]);
    o[i] = h + __float2half_rz(f[i]) + __float2half_ru(f[i]) + __float2half_rd(f[i]) + __double2half(d[i])
         + __int2half_rn(n[i]) + __short2half_rn(s[i]) + __uint2half_rn(n[i]) + __ll2half_rn(n[i]);
    fo[i] = __half2float(h) + __low2float(o2[i]) + __high2float(o2[i]);
    io[i] = __half2int_rn(h) + __half2int_rz(h) + __half2int_rd(h) + __half2short_rz(h) + (int)__half2ll_rn(h);
    uco[i] = __half2uchar_rz(h);
    co[i] = __half2char_rz(h);
    __half2 p = __floats2half2_rn(f[i], f[i + 1]);
    o2[i] = __hadd2(p, __float2half2_rn(f[i])) + __halves2half2(h, o[i]) + __float22half2_rn(make_float2(f[i], 1.f));
    fo[i + 64] = __half_as_short(h) + __half2float(__short_as_half((short)n[i]));
}
__global__ void k_half_loads(const __half *a, const __half2 *b, __half *o, __half2 *o2)
{
    int i = threadIdx.x;
    o[i] = __ldg(&a[i]) + __ldcg(&a[i + 1]);
    o2[i] = __ldcs(&b[i]) + __ldca(&b[i + 1]) + __ldlu(&b[i + 2]) + __ldcv(&b[i + 3]);
    __stcs(&o2[i + 32], b[i]);
    __stwt(&o[i + 32], a[i]);
}
__global__ void k_half_shfl(__half2 *a, __half *b)
{
    int i = threadIdx.x;
    a[i] = __shfl_xor_sync(0xffffffff, a[i], 1) + __shfl_down_sync(0xffffffff, a[i], 2);
    b[i] = __shfl_sync(0xffffffff, b[i], 0) + __shfl_up_sync(0xffffffff, b[i], 1);
}

__global__ void k_bf16_arith(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat16 *c, __nv_bfloat16 *o, int *m)
{
    int i = threadIdx.x; __nv_bfloat16 x = a[i], y = b[i], z = c[i];
    __nv_bfloat16 r = __hadd(x, y) + __hsub(x, z) * __hmul(y, z) + __hdiv(x, y) + x * y - z;
#if __CUDA_ARCH__ >= 800
    r = r + __hfma(x, y, z) + __hneg(x) + __habs(y) + __hmax(x, y) + __hmin_nan(y, z) + __hfma_relu(x, y, z);
    r = r + hsqrt(x) + hexp2(y) + hsin(z) + hrcp(x) + hfloor(y) + hrint(z);
#endif
    o[i] = r;
    m[i] = __heq(x, y) + __hisnan(z) * 2 + __hlt(x, z) * 4 + __hgtu(y, z) * 8 + __hisinf(x) * 16;
}
__global__ void k_bf162(const __nv_bfloat162 *a, const __nv_bfloat162 *b, const __nv_bfloat162 *c, __nv_bfloat162 *o)
{
    int i = threadIdx.x; __nv_bfloat162 x = a[i], y = b[i], z = c[i];
    __nv_bfloat162 r = __hadd2(x, y) + __hmul2(y, z) + __hsub2(x, y) + __hgt2(x, y);
#if __CUDA_ARCH__ >= 800
    r = r + __hfma2(x, y, z) + __hneg2(x) + __habs2(y) + __hcmadd(x, y, z) + __hfma2_relu(x, y, z) + __hmax2(x, z) + h2sqrt(z);
#endif
    o[i] = r;
}
__global__ void k_bf16_conv(const float *f, const double *d, const int *n, __nv_bfloat16 *o, float *fo,
                            int *io, __nv_bfloat162 *o2, __half *ho)
{
    int i = threadIdx.x;
    __nv_bfloat16 h = __float2bfloat16(f[i]);
    o[i] = h + __float2bfloat16_rz(f[i]) + __float2bfloat16_ru(f[i]) + __float2bfloat16_rd(f[i])
         + __double2bfloat16(d[i]) + __int2bfloat16_rn(n[i]) + __uint2bfloat16_rz(n[i]) + __short2bfloat16_rn((short)n[i]);
    fo[i] = __bfloat162float(h) + __low2float(o2[i]) + __high2float(o2[i]);
    io[i] = __bfloat162int_rn(h) + __bfloat162int_rz(h) + __bfloat162short_rn(h) + (int)__bfloat162ull_rz(h);
    o2[i] = __floats2bfloat162_rn(f[i], f[i + 1]) + __float2bfloat162_rn(f[i]) + __halves2bfloat162(h, o[i]);
    ho[i] = __float2half(__bfloat162float(h));
    fo[i + 64] = __bfloat16_as_short(h);
}
