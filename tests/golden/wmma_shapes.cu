// wmma_shapes.cu: warp matrix multiply-accumulate through nvcuda::wmma for every element
// type and shape, with row- and column-major operands and results, padded strides, and
// shared memory: each CTA (one warp) does one configuration.  The inputs are small
// integers and halves, so every product sum is exact: this records the plumbing (layouts,
// strides, fragment loads and stores, the mma's operands), not the tensor cores' rounding.
// in: 4096 small signed values; out: 8 configurations x 1024 words (the start of D).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <typename T> __device__ T cv(int v);
template <> __device__ half cv<half>(int v) { return __int2half_rn(v) * __float2half(0.5f); }
template <> __device__ __nv_bfloat16 cv<__nv_bfloat16>(int v) { return __float2bfloat16((float)v * 0.5f); }
template <> __device__ float cv<float>(int v) { return (float)v * 0.25f; }
template <> __device__ double cv<double>(int v) { return (double)v * 0.125; }
template <> __device__ signed char cv<signed char>(int v) { return (signed char)(v * 9); }
template <> __device__ unsigned char cv<unsigned char>(int v) { return (unsigned char)(v * 7 + 100); }
template <> __device__ int cv<int>(int v) { return v * 1000; }

template <typename T> __device__ int pad(int w)
{
    int bytes = (w * (int)sizeof(T) + 32 + 15) / 16 * 16;
    return bytes / (int)sizeof(T);
}

// One configuration: A (M x K), B (K x N), C (M x N) from in[], D to out[] as words.
template <typename AT, typename IT, typename CT, int M, int N, int K, typename LA, typename LB, bool CROW, bool DROW>
__device__ void run(const int *in, unsigned *out, char *smem)
{
    int lane = threadIdx.x % 32;
    // Strides padded by 32 bytes and rounded up to 16 bytes (wmma needs multiples of 16).
    const int lda = pad<AT>(std::is_same<LA, wmma::row_major>::value ? K : M);
    const int ldb = pad<AT>(std::is_same<LB, wmma::row_major>::value ? N : K);
    const int ldc = pad<CT>(CROW ? N : M), ldd = pad<CT>(DROW ? N : M);
    AT *a = (AT *)smem;
    AT *b = a + 2048;
    CT *c = (CT *)(b + 2048);
    CT *d = c + 2048;
    for (int i = lane; i < 2048; i += 32) {
        a[i] = cv<AT>(in[i % 4096] % 5);
        b[i] = cv<AT>(in[(i + 1700) % 4096] % 4);
        c[i] = cv<CT>(in[(i + 3100) % 4096] % 9);
        d[i] = cv<CT>(0);
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, M, N, K, IT, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, IT, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, CT> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, CROW ? wmma::mem_row_major : wmma::mem_col_major);
    for (int i = 0; i < fc.num_elements; i++)
        fc.x[i] = fc.x[i] * cv<CT>(2);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, ldd, DROW ? wmma::mem_row_major : wmma::mem_col_major);
    __syncwarp();
    const unsigned *dw = (const unsigned *)d;
    for (int i = lane; i < (int)(1024 * sizeof(CT) / 4) && i < 1024; i += 32)
        out[i] = dw[i];
}

extern "C" __global__ void wmma_shapes(const int *in, unsigned *out)
{
    extern __shared__ __align__(128) char smem[];
    int w = blockIdx.x;
    char *s = smem;
    unsigned *o = out + w * 1024;
    switch (w) {
    case 0: run<half, half, float, 16, 16, 16, wmma::row_major, wmma::col_major, true, true>(in, o, s); break;
    case 1: run<half, half, half, 32, 8, 16, wmma::col_major, wmma::row_major, false, true>(in, o, s); break;
    case 2: run<half, half, float, 8, 32, 16, wmma::row_major, wmma::row_major, true, false>(in, o, s); break;
    case 3: run<__nv_bfloat16, __nv_bfloat16, float, 16, 16, 16, wmma::col_major, wmma::col_major, false, false>(in, o, s); break;
    case 4: run<float, wmma::precision::tf32, float, 16, 16, 8, wmma::row_major, wmma::col_major, true, true>(in, o, s); break;
    case 5: run<double, double, double, 8, 8, 4, wmma::row_major, wmma::col_major, false, true>(in, o, s); break;
    case 6: run<signed char, signed char, int, 16, 16, 16, wmma::row_major, wmma::col_major, true, true>(in, o, s); break;
    case 7: run<unsigned char, unsigned char, int, 32, 8, 16, wmma::col_major, wmma::row_major, true, false>(in, o, s); break;
    }
}
