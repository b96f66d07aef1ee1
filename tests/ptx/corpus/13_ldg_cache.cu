// Feature group 6.13: __ldg and cache-hint loads/stores.
#include <cuda_fp16.h>
__global__ void k_ldg(const float *f, const float4 *f4, const int *n, const double2 *d2, const char *c,
                      const __half *h, const unsigned long long *ull, const short2 *s2, float *o, __half *ho)
{
    int i = threadIdx.x;
    float4 v = __ldg(&f4[i]);
    double2 d = __ldg(&d2[i]);
    short2 s = __ldg(&s2[i]);
    o[i] = __ldg(&f[i]) + v.x + v.w + __ldg(&n[i]) + (float)d.y + __ldg(&c[i]) + (float)__ldg(&ull[i]) + s.x;
    ho[i] = __ldg(&h[i]);
}
__global__ void k_ld_hints(const float *f, const float4 *f4, const long long *l, const int *n, float *o, long long *lo)
{
    int i = threadIdx.x;
    float4 a = __ldcg(&f4[i]), b = __ldcs(&f4[i + 1]), c = __ldca(&f4[i + 2]), d = __ldlu(&f4[i + 3]), e = __ldcv(&f4[i + 4]);
    o[i] = __ldcg(&f[i]) + __ldca(&f[i + 1]) + __ldcs(&f[i + 2]) + __ldlu(&f[i + 3]) + __ldcv(&f[i + 4])
         + a.x + b.y + c.z + d.w + e.x + __ldlu(&n[i]) + __ldcv(&n[i + 1]);
    lo[i] = __ldca(&l[i]) + __ldcs(&l[i + 1]) + __ldcg(&l[i + 2]);
}
__global__ void k_st_hints(float *f, float4 *f4, long long *l, int *n, double *d)
{
    int i = threadIdx.x; float x = i * 0.5f;
    __stwb(&f[i], x);
    __stcg(&f[i + 64], x);
    __stcs(&f[i + 128], x);
    __stwt(&f[i + 192], x);
    __stcg(&f4[i], make_float4(x, x, x, x));
    __stcs(&f4[i + 64], make_float4(x, 1, 2, 3));
    __stwb(&f4[i + 128], make_float4(x, 4, 5, 6));
    __stwt(&f4[i + 192], make_float4(x, 7, 8, 9));
    __stcs(&l[i], (long long)i);
    __stwt(&n[i], i);
    __stcg(&d[i], (double)x);
}
