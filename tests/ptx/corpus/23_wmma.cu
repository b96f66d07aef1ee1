// Feature group 6.23: warp matrix functions (nvcuda::wmma), every shape/type the target allows.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <int M, int N, int K, typename AB, typename C, typename LA, typename LB>
__device__ void mma_tile(const AB *a, const AB *b, C *c, int lda, int ldb, int ldc, wmma::layout_t lc)
{
    wmma::fragment<wmma::matrix_a, M, N, K, AB, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, AB, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, C> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, lc);
    wmma::mma_sync(fc, fa, fb, fc);
    for (int t = 0; t < fc.num_elements; t++) fc.x[t] = fc.x[t] * (C)2;
    wmma::store_matrix_sync(c, fc, ldc, lc);
}

__global__ void k_wmma_f16_f32(const half *a, const half *b, float *c)
{
    mma_tile<16, 16, 16, half, float, wmma::row_major, wmma::col_major>(a, b, c, 16, 16, 16, wmma::mem_row_major);
    mma_tile<16, 16, 16, half, float, wmma::col_major, wmma::row_major>(a, b, c + 256, 16, 16, 16, wmma::mem_col_major);
    mma_tile<32, 8, 16, half, float, wmma::row_major, wmma::row_major>(a, b, c + 512, 16, 8, 8, wmma::mem_row_major);
    mma_tile<8, 32, 16, half, float, wmma::col_major, wmma::col_major>(a, b, c + 768, 8, 16, 32, wmma::mem_row_major);
}
__global__ void k_wmma_f16_f16(const half *a, const half *b, half *c)
{
    mma_tile<16, 16, 16, half, half, wmma::row_major, wmma::col_major>(a, b, c, 16, 16, 16, wmma::mem_row_major);
    mma_tile<32, 8, 16, half, half, wmma::row_major, wmma::col_major>(a, b, c + 256, 16, 16, 8, wmma::mem_col_major);
    mma_tile<8, 32, 16, half, half, wmma::row_major, wmma::col_major>(a, b, c + 512, 16, 16, 32, wmma::mem_row_major);
}
__global__ void k_wmma_mixed(const half *a, const half *b, const float *cin, half *dout)
{
    // f32 accumulator in, f16 accumulator out via fill_fragment + element ops
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> fh;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> ff;
    wmma::fill_fragment(fh, __float2half(0.5f));
    wmma::load_matrix_sync(ff, cin, 16, wmma::mem_row_major);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fh, fa, fb, fh);
    wmma::mma_sync(ff, fa, fb, ff);
    for (int t = 0; t < fh.num_elements; t++) fh.x[t] = __hadd(fh.x[t], __float2half(ff.x[t]));
    wmma::store_matrix_sync(dout, fh, 16, wmma::mem_col_major);
}
__global__ void k_wmma_shared(const half *a, float *c)
{
    __shared__ half sa[256], sb[256];
    for (int t = threadIdx.x; t < 256; t += 32) { sa[t] = a[t]; sb[t] = a[255 - t]; }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void k_wmma_int8(const signed char *a, const signed char *b, const unsigned char *ua,
                            const unsigned char *ub, int *c)
{
    mma_tile<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major>(a, b, c, 16, 16, 16, wmma::mem_row_major);
    mma_tile<8, 32, 16, signed char, int, wmma::row_major, wmma::col_major>(a, b, c + 256, 16, 16, 32, wmma::mem_row_major);
    mma_tile<32, 8, 16, unsigned char, int, wmma::row_major, wmma::col_major>(ua, ub, c + 512, 16, 16, 8, wmma::mem_col_major);
    mma_tile<16, 16, 16, unsigned char, int, wmma::col_major, wmma::row_major>(ua, ub, c + 768, 16, 16, 16, wmma::mem_row_major);
    // saturating variant
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 7);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc, true);
    wmma::store_matrix_sync(c + 1024, fc, 16, wmma::mem_row_major);
}
__global__ void k_wmma_subbyte(const void *a, const void *b, int *c)
{
    using namespace wmma::experimental;
    {
        wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
        wmma::fill_fragment(fc, 0);
        wmma::load_matrix_sync(fa, a, 32);
        wmma::load_matrix_sync(fb, b, 32);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::u4, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::u4, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
        wmma::load_matrix_sync(fc, c, 8, wmma::mem_col_major);
        wmma::load_matrix_sync(fa, a, 32);
        wmma::load_matrix_sync(fb, b, 32);
        wmma::mma_sync(fc, fa, fb, fc, true);
        wmma::store_matrix_sync(c + 64, fc, 8, wmma::mem_col_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
        wmma::fill_fragment(fc, 0);
        wmma::load_matrix_sync(fa, a, 128);
        wmma::load_matrix_sync(fb, b, 128);
        wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpXOR, wmma::experimental::bmmaAccumulateOpPOPC);
#if __CUDA_ARCH__ >= 800
        wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpAND, wmma::experimental::bmmaAccumulateOpPOPC);
#endif
        wmma::store_matrix_sync(c + 128, fc, 8, wmma::mem_row_major);
    }
}
__global__ void k_wmma_sm80(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *fa32, const float *fb32,
                            const double *da, const double *db, float *c, double *dc)
{
#if __CUDA_ARCH__ >= 800
    mma_tile<16, 16, 16, __nv_bfloat16, float, wmma::row_major, wmma::col_major>(a, b, c, 16, 16, 16, wmma::mem_row_major);
    mma_tile<32, 8, 16, __nv_bfloat16, float, wmma::row_major, wmma::row_major>(a, b, c + 256, 16, 8, 8, wmma::mem_row_major);
    mma_tile<8, 32, 16, __nv_bfloat16, float, wmma::col_major, wmma::col_major>(a, b, c + 512, 8, 16, 32, wmma::mem_col_major);
    {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
        wmma::fill_fragment(fc, 0.0f);
        wmma::load_matrix_sync(fa, fa32, 8);
        wmma::load_matrix_sync(fb, fb32, 8);
        for (int t = 0; t < fa.num_elements; t++) fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
        for (int t = 0; t < fb.num_elements; t++) fb.x[t] = wmma::__float_to_tf32(fb.x[t]);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(c + 768, fc, 16, wmma::mem_row_major);
    }
    mma_tile<8, 8, 4, double, double, wmma::row_major, wmma::col_major>(da, db, dc, 4, 4, 8, wmma::mem_row_major);
    mma_tile<8, 8, 4, double, double, wmma::col_major, wmma::row_major>(da, db, dc + 64, 8, 8, 8, wmma::mem_col_major);
#endif
}
