// mma_subbyte.cu: the 4-bit and 1-bit matrix instructions, one configuration per CTA (one
// warp): wmma m8n8k32 on s4 and u4 and m8n8k128 on b1 (.xor.popc, .and.popc) through
// nvcuda::wmma::experimental, and mma.sync on s4/u4 (m8n8k32, m16n8k32, m16n8k64 with
// .satfinite) and b1 (m8n8k128, m16n8k128, m16n8k256).  in: random words; out: 128 words
// per CTA (the d fragments, or the stored wmma results).
#include <mma.h>
using namespace nvcuda;
namespace wx = nvcuda::wmma::experimental;

template <typename T, int K, wmma::experimental::bmmaBitOp OP>
__device__ void wm(const unsigned *in, int *out)
{
    __shared__ __align__(128) unsigned a[256], b[256];
    __shared__ __align__(128) int c[64];
    unsigned l = threadIdx.x;
    for (int i = l; i < 256; i += 32) {
        a[i] = in[i];
        b[i] = in[256 + i];
    }
    for (int i = l; i < 64; i += 32)
        c[i] = (int)(in[512 + i] % 1000) - 500;
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 8, 8, K, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, K, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, K, int> fc;
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, K);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    if constexpr (K == 128)
        wmma::bmma_sync(fc, fa, fb, fc, OP, wmma::experimental::bmmaAccumulateOp::bmmaAccumulateOpPOPC);
    else
        wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(out, fc, 8, wmma::mem_row_major);
}

extern "C" __global__ void mma_subbyte(const unsigned *in, int *out)
{
    unsigned l = threadIdx.x, cfg = blockIdx.x;
    const unsigned *r = in + cfg * 1024 + l * 16;
    int *o = out + cfg * 128;
    int d[4] = { 0, 0, 0, 0 };
    int c0 = (int)(r[8] % 100) - 50, c1 = 7, c2 = -3, c3 = (int)(r[9] % 1000);
    switch (cfg) {
    case 0: wm<wx::precision::s4, 32, wmma::experimental::bmmaBitOp::bmmaBitOpXOR>(in + cfg * 1024, o); return;
    case 1: wm<wx::precision::u4, 32, wmma::experimental::bmmaBitOp::bmmaBitOpXOR>(in + cfg * 1024, o); return;
    case 2: wm<wx::precision::b1, 128, wmma::experimental::bmmaBitOp::bmmaBitOpXOR>(in + cfg * 1024, o); return;
    case 3: wm<wx::precision::b1, 128, wmma::experimental::bmmaBitOp::bmmaBitOpAND>(in + cfg * 1024, o); return;
    case 4:
        asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=r"(d[0]), "=r"(d[1]) : "r"(r[0]), "r"(r[1]), "r"(c0), "r"(c1));
        break;
    case 5:
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
        break;
    case 6:
        asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]),
                       "r"(c0), "r"(0x7ffff000 + (int)(r[6] & 0xfff)), "r"(c2), "r"(-0x7ffffff0));
        break;
    case 7:
        asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0,%1}, {%2}, {%3}, {%4,%5};"
                     : "=r"(d[0]), "=r"(d[1]) : "r"(r[0]), "r"(r[1]), "r"(c0), "r"(c1));
        break;
    case 8:
        asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
        break;
    case 9:
        asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]),
                       "r"(c0), "r"(c1), "r"(c2), "r"(c3));
        break;
    }
    for (int k = 0; k < 4; k++)
        o[l * 4 + k] = d[k];
}
