// fast_math.cu: the CUDA math intrinsics and -use_fast_math functions that run on the
// multi-function unit (rcp, rsqrt, sqrt, lg2, ex2, sin, cos, tanh, and the divisions
// built on them), at 1024 arguments per function spread over each one's range and
// its edges.  Built with: nvcc -arch=sm_90 -use_fast_math -ptx fast_math.cu
#include <cstdint>

__device__ uint32_t mix(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

// An argument for thread i: random bits, a value in [-8, 8), one near a binade edge, or a
// small one, by i mod 4.
__device__ float arg(uint32_t i, uint32_t salt)
{
    uint32_t h = mix(i * 0x9e3779b9u + salt);
    switch (i & 3) {
    case 0:  return __uint_as_float(h);
    case 1:  return (float)(int32_t)h * 0x1p-28f;
    case 2:  return __uint_as_float((h & 0x80000000u) | ((100u + (h >> 8) % 60u) << 23) |
                                    ((h & 1) ? 0x7ffff0u + (h >> 4 & 15) : (h >> 4 & 15)));
    default: return (float)(int32_t)h * 0x1p-50f;
    }
}

extern "C" __global__ void fast_math(uint32_t *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    float x = arg(i, 1), y = arg(i, 2);
    float r[12] = {
        __expf(x), __logf(fabsf(x)), __sinf(x), __cosf(x), __fdividef(x, y), rsqrtf(fabsf(x)),
        tanhf(x), exp2f(x * 0.125f), log2f(fabsf(y)), sqrtf(fabsf(y)), x / y, __powf(fabsf(x), y),
    };
    for (int k = 0; k < 12; k++)
        out[k * n + i] = __float_as_uint(r[k]);
}
