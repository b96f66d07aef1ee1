// Feature group 6.21: warp reduce (sm_80+; cg::reduce falls back on sm_75).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k_reduce(const int *a, const unsigned *u, unsigned *o)
{
    int i = threadIdx.x;
#if __CUDA_ARCH__ >= 800
    unsigned full = 0xffffffffu;
    o[i] = __reduce_add_sync(full, u[i]) + __reduce_add_sync(full, a[i]);
    o[i + 64] = __reduce_min_sync(full, u[i]) + __reduce_max_sync(full, u[i]);
    o[i + 128] = __reduce_min_sync(full, a[i]) + __reduce_max_sync(full, a[i]);
    o[i + 192] = __reduce_and_sync(full, u[i]) ^ __reduce_or_sync(full, u[i]) ^ __reduce_xor_sync(full, u[i]);
#endif
    auto t = cg::tiled_partition<32>(cg::this_thread_block());
    o[i + 256] = cg::reduce(t, u[i], cg::plus<unsigned>()) + cg::reduce(t, a[i], cg::less<int>())
               + cg::reduce(t, u[i], cg::bit_xor<unsigned>());
    float f = (float)a[i];
    o[i + 320] = (unsigned)cg::reduce(t, f, cg::plus<float>());
}
