// Shuffles of every type as nvcc 13 lowers them (sm_90): 64-bit values as two
// shfl.sync.*.b32 of their halves, float through mov.b32, __half2 through the header's
// inline asm; with the default width and narrower ones.  Thread t writes 12 words.
#include <cuda_fp16.h>

extern "C" __global__ void warp_shfl_types(unsigned *out, int w)
{
    unsigned t = threadIdx.x;
    double d = (double)t * 1.25 + 0.5;
    long long ll = ((long long)t << 40) - (long long)t * 977;
    float f = (float)t * -0.75f;
    __half2 h = __floats2half2_rn((float)t * 0.5f, (float)t + 100.0f);
    unsigned u = t * 0x01010101u;
    unsigned mask = __activemask();
    double d1 = __shfl_xor_sync(0xffffffffu, d, 5);
    long long l1 = __shfl_down_sync(0xffffffffu, ll, 3, 16);
    float f1 = __shfl_up_sync(0xffffffffu, f, 2, 8);
    __half2 h1 = __shfl_xor_sync(0xffffffffu, h, 1);
    __half2 h2 = __shfl_sync(mask, h, 7, 4);
    unsigned u1 = __shfl_sync(0xffffffffu, u, (int)(t * 3), w);
    double d2 = __shfl_up_sync(0xffffffffu, d, 1, w);
    unsigned long long a1 = __double_as_longlong(d1), a2 = __double_as_longlong(d2);
    unsigned *o = out + t * 12;
    o[0] = (unsigned)a1; o[1] = (unsigned)(a1 >> 32);
    o[2] = (unsigned)l1; o[3] = (unsigned)((unsigned long long)l1 >> 32);
    o[4] = __float_as_uint(f1);
    o[5] = *(unsigned *)&h1; o[6] = *(unsigned *)&h2;
    o[7] = u1;
    o[8] = (unsigned)a2; o[9] = (unsigned)(a2 >> 32);
    o[10] = mask;
    o[11] = __reduce_add_sync(0xffffffffu, t) + __reduce_max_sync(0xffffffffu, (int)t - 40);
}
