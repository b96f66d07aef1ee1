// grid_group::sync repeated: 8 CTAs of 128 threads pass five grid barriers in a row, each
// round reading what another CTA wrote in the round before, so a barrier that lets any CTA
// through early (or a workspace whose arrival count is not reset between rounds) changes
// the sums.  Thread r writes out[r].
// Run as: --cooperative -g 8 -b 128 u32[1024]:out u32[2048]
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_grid_sync_rounds(unsigned *out, unsigned *buf)
{
    cg::grid_group g = cg::this_grid();
    unsigned r = (unsigned)g.thread_rank();
    unsigned n = (unsigned)g.size();
    unsigned *a = buf, *b = buf + n;
    a[r] = r;
    unsigned acc = 0;
    for (int round = 0; round < 5; round++) {
        g.sync();
        unsigned v = a[(r + 129u * (round + 1)) % n];
        acc = acc * 31u + v;
        b[r] = v + (unsigned)round;
        unsigned *t = a; a = b; b = t;
    }
    out[r] = acc;
}
