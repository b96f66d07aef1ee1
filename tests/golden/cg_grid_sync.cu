// grid_group::sync in a cooperative launch: every thread writes its grid rank's slot of
// scratch, the grid synchronises, and each reads another CTA's slot.  nvcc 13 lowers the
// barrier to an atom.add.release.gpu on a word the driver passes through %envreg1/2 (the
// cooperative launch's grid workspace).  Thread r writes out[r].
// Run as: --cooperative -g 4 -b 64 u32[256]:out u32[256]
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_grid_sync(unsigned *out, unsigned *scratch)
{
    cg::grid_group g = cg::this_grid();
    unsigned long long r = g.thread_rank();
    scratch[r] = (unsigned)r * 3 + 1;
    g.sync();
    unsigned n = (unsigned)g.size();
    out[r] = scratch[(r + 37) % n] + (unsigned)g.block_rank() * 0x10000;
}
