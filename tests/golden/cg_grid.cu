// this_grid().thread_rank() and block_rank() without a grid barrier, over a 3-D grid of
// 2-D CTAs.  Thread (grid rank r) writes 3 words from out[3r].
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_grid(unsigned *out)
{
    cg::grid_group g = cg::this_grid();
    unsigned long long r = g.thread_rank();
    out[r * 3] = (unsigned)r;
    out[r * 3 + 1] = (unsigned)g.block_rank();
    out[r * 3 + 2] = (unsigned)g.num_threads() ^ cg::this_thread_block().thread_rank();
}
