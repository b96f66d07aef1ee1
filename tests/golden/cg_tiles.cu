// Cooperative groups as nvcc 13 lowers them (sm_90): thread_block, tiled_partition with
// static (32, 8) and dynamic (4) sizes, cg::reduce / inclusive_scan / exclusive_scan,
// tile shuffles and votes, a float reduction and a double shfl_up.  Thread t of the CTA
// writes 9 words from out[9t].
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_tiles(unsigned *out, const unsigned *in)
{
    cg::thread_block b = cg::this_thread_block();
    unsigned t = b.thread_rank();
    unsigned v = in[t] % 1000;
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(b);
    cg::thread_group dyn = cg::tiled_partition(b, 4);
    unsigned r0 = cg::reduce(w, v, cg::plus<unsigned>());
    unsigned r1 = cg::reduce(t8, v, cg::greater<unsigned>());
    unsigned r2 = cg::inclusive_scan(t8, v, cg::plus<unsigned>());
    unsigned r3 = cg::exclusive_scan(w, v, cg::bit_xor<unsigned>());
    unsigned r4 = t8.shfl(v, 3) + t8.shfl_down(v, 1) * 3 + t8.shfl_xor(v, 5) * 7;
    unsigned r5 = w.ballot(v & 1) ^ w.any(v > 900) ^ (w.all(v < 990) << 1);
    dyn.sync();
    unsigned r6 = dyn.thread_rank() * 100 + dyn.size();
    float f = (float)v * 0.5f;
    float r7 = cg::reduce(t8, f, cg::plus<float>());
    double d = (double)v * 0.25;
    double r8 = w.shfl_up(d, 2);
    out[t * 9 + 0] = r0; out[t * 9 + 1] = r1; out[t * 9 + 2] = r2; out[t * 9 + 3] = r3;
    out[t * 9 + 4] = r4; out[t * 9 + 5] = r5; out[t * 9 + 6] = r6;
    out[t * 9 + 7] = __float_as_uint(r7); out[t * 9 + 8] = (unsigned)(r8 * 4.0);
}
