// wmma_round.cu: the tensor cores' rounding: random tiles through nvcuda::wmma for each
// floating-point operand type (f16 with f32 and with f16 results, bf16, tf32, f64), one
// tile per CTA; in: random values in [-1, 1) scaled per tile by 2^(tile % 7 * 3 - 9) for A,
// B and C alike; out: the D tiles' words.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <typename T> __device__ T cv(float v);
template <> __device__ half cv<half>(float v) { return __float2half_rn(v); }
template <> __device__ __nv_bfloat16 cv<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <> __device__ float cv<float>(float v) { return v; }
template <> __device__ double cv<double>(float v) { return (double)v * (1.0 + 1.0 / 3.0); }

template <typename AT, typename IT, typename CT, int M, int N, int K>
__device__ void run(const float *in, unsigned *out, int tile)
{
    __shared__ __align__(128) char smem[3 * 1024 * 8];
    int lane = threadIdx.x;
    AT *a = (AT *)smem, *b = a + M * K;
    CT *c = (CT *)(smem + 2 * 1024 * 8);
    float sc = ldexpf(1.0f, tile % 7 * 3 - 9);
    const float *src = in + tile * 1024;
    for (int i = lane; i < M * K; i += 32)
        a[i] = cv<AT>(src[i] * sc);
    for (int i = lane; i < K * N; i += 32)
        b[i] = cv<AT>(src[512 + i] * sc);
    for (int i = lane; i < M * N; i += 32)
        c[i] = cv<CT>(src[256 + i] * (tile % 4 == 3 ? 0.0f : sc * sc * 4));
    __syncwarp();
    wmma::fragment<wmma::matrix_a, M, N, K, IT, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, IT, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, CT> fc;
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, N);
    wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, N, wmma::mem_row_major);
    __syncwarp();
    const unsigned *cw = (const unsigned *)c;
    for (int i = lane; i < (int)(M * N * sizeof(CT) / 4); i += 32)
        out[tile * 512 + i] = cw[i];
}

// 40 tiles: 8 of each configuration.
extern "C" __global__ void wmma_round(const float *in, unsigned *out)
{
    int t = blockIdx.x;
    switch (t / 8) {
    case 0: run<half, half, float, 16, 16, 16>(in, out, t); break;
    case 1: run<half, half, half, 16, 16, 16>(in, out, t); break;
    case 2: run<__nv_bfloat16, __nv_bfloat16, float, 16, 16, 16>(in, out, t); break;
    case 3: run<float, wmma::precision::tf32, float, 16, 16, 8>(in, out, t); break;
    case 4: run<double, double, double, 8, 8, 4>(in, out, t); break;
    }
}
