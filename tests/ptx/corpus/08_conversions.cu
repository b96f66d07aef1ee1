// Feature group 6.8: conversion and reinterpretation intrinsics.
__global__ void k_f2i(const float *a, int *o, unsigned *uo, long long *lo, unsigned long long *ulo)
{
    int i = threadIdx.x; float x = a[i];
    o[i] = __float2int_rn(x) + __float2int_rz(x) + __float2int_ru(x) + __float2int_rd(x) + (int)x;
    uo[i] = __float2uint_rn(x) + __float2uint_rz(x) + __float2uint_ru(x) + __float2uint_rd(x) + (unsigned)x;
    lo[i] = __float2ll_rn(x) + __float2ll_rz(x) + __float2ll_ru(x) + __float2ll_rd(x) + (long long)x;
    ulo[i] = __float2ull_rn(x) + __float2ull_rz(x) + __float2ull_ru(x) + __float2ull_rd(x);
}
__global__ void k_d2i(const double *a, int *o, unsigned *uo, long long *lo, unsigned long long *ulo, float *fo)
{
    int i = threadIdx.x; double x = a[i];
    o[i] = __double2int_rn(x) + __double2int_rz(x) + __double2int_ru(x) + __double2int_rd(x) + (int)x;
    uo[i] = __double2uint_rn(x) + __double2uint_rz(x) + __double2uint_ru(x) + __double2uint_rd(x);
    lo[i] = __double2ll_rn(x) + __double2ll_rz(x) + __double2ll_ru(x) + __double2ll_rd(x);
    ulo[i] = __double2ull_rn(x) + __double2ull_rz(x) + __double2ull_ru(x) + __double2ull_rd(x);
    fo[i] = __double2float_rn(x) + __double2float_rz(x) + __double2float_ru(x) + __double2float_rd(x) + (float)x;
}
__global__ void k_i2f(const int *a, const long long *b, float *fo, double *dout)
{
    int i = threadIdx.x; int x = a[i]; unsigned ux = x; long long l = b[i]; unsigned long long ul = l;
    fo[i] = __int2float_rn(x) + __int2float_rz(x) + __int2float_ru(x) + __int2float_rd(x)
          + __uint2float_rn(ux) + __uint2float_rz(ux) + __uint2float_ru(ux) + __uint2float_rd(ux)
          + __ll2float_rn(l) + __ll2float_rz(l) + __ll2float_ru(l) + __ll2float_rd(l)
          + __ull2float_rn(ul) + __ull2float_rd(ul) + (float)x + (float)ul;
    dout[i] = __int2double_rn(x) + __uint2double_rn(ux) + __ll2double_rn(l) + __ll2double_rz(l)
            + __ll2double_ru(l) + __ll2double_rd(l) + __ull2double_rn(ul) + __ull2double_rz(ul) + (double)l;
}
__global__ void k_reinterp(const float *a, const double *d, int *o, long long *lo, float *fo, double *dout)
{
    int i = threadIdx.x; float x = a[i]; double y = d[i];
    o[i] = __float_as_int(x) + (int)__float_as_uint(x) + __double2hiint(y) + __double2loint(y);
    lo[i] = __double_as_longlong(y);
    fo[i] = __int_as_float(o[i]) + __uint_as_float((unsigned)i);
    dout[i] = __longlong_as_double(lo[i]) + __hiloint2double(o[i], i);
}
__global__ void k_small_int(const short *s, const char *c, const unsigned char *uc, int *o, short *so, float *fo)
{
    int i = threadIdx.x;
    o[i] = s[i] + c[i] + uc[i];
    so[i] = (short)(s[i] * c[i]);
    fo[i] = (float)s[i] + (float)c[i] + (float)uc[i];
}
__global__ void k_f2d(const float *a, double *o, float *fo)
{
    int i = threadIdx.x;
    o[i] = (double)a[i];
    fo[i] = (float)o[i + 1];
}
