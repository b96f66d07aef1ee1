// Cooperative groups over the lanes that are there, as nvcc 13 lowers them (sm_90):
// coalesced_threads() inside a branch (reduce, exclusive_scan, shfl, rank, size),
// labeled_partition and binary_partition of a warp tile, in a CTA of 80 threads (its last
// warp partial).  Thread t writes 3 words from out[3t].
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_coalesced(unsigned *out, const unsigned *in)
{
    unsigned t = threadIdx.x;
    unsigned v = in[t] % 1000;
    unsigned r = 0xffffffff;
    if (v % 3 != 0) {
        cg::coalesced_group a = cg::coalesced_threads();
        unsigned s = cg::reduce(a, v, cg::plus<unsigned>());
        unsigned sc = cg::exclusive_scan(a, v, cg::plus<unsigned>());
        r = s * 1000 + a.thread_rank() * 10 + a.size() + (a.shfl(v, 0) << 20) + sc * 7;
    }
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group lp = cg::labeled_partition(w, (int)(v % 4));
    cg::coalesced_group bp = cg::binary_partition(w, v > 500);
    unsigned q = cg::reduce(lp, v, cg::plus<unsigned>()) + lp.thread_rank() * 100000;
    unsigned q2 = cg::reduce(bp, v, cg::less<unsigned>()) + bp.size() * 100000;
    out[t * 3] = r; out[t * 3 + 1] = q; out[t * 3 + 2] = q2;
}
