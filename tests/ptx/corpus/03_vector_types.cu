// Feature group 6.3: vector types.
#include <cuda_runtime.h>

__global__ void k_float4(const float4 *in, float4 *out)
{
    int i = threadIdx.x;
    float4 v = in[i];
    out[i] = make_float4(v.w, v.z, v.y, v.x + 1.0f);
}
__global__ void k_int4(const int4 *in, int4 *out, const uint4 *uin, uint4 *uout)
{
    int i = threadIdx.x;
    int4 v = in[i]; out[i] = make_int4(v.x + 1, v.y - 1, v.z * 2, v.w);
    uint4 u = uin[i]; uout[i] = make_uint4(u.w, u.z, u.y, u.x);
}
__global__ void k_double2(const double2 *in, double2 *out, const longlong2 *lin, longlong2 *lout)
{
    int i = threadIdx.x;
    double2 d = in[i]; out[i] = make_double2(d.y, d.x * 2.0);
    longlong2 l = lin[i]; lout[i] = make_longlong2(l.y, l.x + 1);
}
__global__ void k_double4(const double4_16a *in, double4_16a *out, const double4_32a *in32, double4_32a *out32)
{
    int i = threadIdx.x;
    double4_16a d = in[i];
    double4_16a r; r.x = d.w; r.y = d.z; r.z = d.y; r.w = d.x;
    out[i] = r;
    double4_32a e = in32[i];
    double4_32a q; q.x = e.w; q.y = e.z; q.z = e.y; q.w = e.x + 1.0;
    out32[i] = q;
}
__global__ void k_float2_3(const float2 *in2, float2 *out2, const float3 *in3, float3 *out3,
                           const uint3 *u3, uint3 *u3o)
{
    int i = threadIdx.x;
    float2 a = in2[i]; out2[i] = make_float2(a.y, a.x);
    float3 b = in3[i]; out3[i] = make_float3(b.z, b.y, b.x);
    uint3 c = u3[i]; u3o[i] = make_uint3(c.x + c.y, c.z, 0);
}
__global__ void k_small(const char4 *c4, char4 *c4o, const uchar4 *u4, uchar4 *u4o,
                        const short2 *s2, short2 *s2o, const uchar2 *uc2, uchar2 *uc2o,
                        const ushort4 *us4, ushort4 *us4o)
{
    int i = threadIdx.x;
    char4 a = c4[i]; c4o[i] = make_char4(a.w, a.z, a.y, a.x);
    uchar4 b = u4[i]; u4o[i] = make_uchar4(b.x + 1, b.y, b.z, 255);
    short2 s = s2[i]; s2o[i] = make_short2(s.y, s.x);
    uchar2 u = uc2[i]; uc2o[i] = make_uchar2(u.y, u.x);
    ushort4 w = us4[i]; us4o[i] = make_ushort4(w.w, w.z, w.y, w.x);
}
__global__ void k_shared_vec(const float4 *in, float4 *out, const double2 *din, double2 *dout)
{
    __shared__ float4 sf[128];
    __shared__ double2 sd[128];
    int i = threadIdx.x;
    sf[i] = in[i]; sd[i] = din[i];
    __syncthreads();
    out[i] = sf[127 - i];
    dout[i] = sd[127 - i];
}
__global__ void k_dim3(int *out)
{
    dim3 d(4, 2);
    uint3 t = threadIdx;
    dim3 b = blockDim;
    out[t.x] = d.x * d.y * d.z + b.x + b.y * b.z + t.y;
}
__global__ void k_int2_long4(const int2 *a, int2 *b, const long4_16a *c, long4_16a *d, const ulonglong2 *e, ulonglong2 *f)
{
    int i = threadIdx.x;
    int2 v = a[i]; b[i] = make_int2(v.y, v.x);
    long4_16a l = c[i]; long4_16a r; r.x = l.w; r.y = l.z; r.z = l.y; r.w = l.x; d[i] = r;
    ulonglong2 u = e[i]; f[i] = make_ulonglong2(u.y, u.x);
}
