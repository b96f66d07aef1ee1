// mbarrier_pipeline.cu: a warp-specialized producer/consumer pipeline through shared
// memory with full/empty mbarriers per stage (the shape of Hopper kernels): warp 0 loads
// tiles of 128 words with cp.async.bulk into 3 stages; warps 1..3 sum each tile's words
// (a different third each) and release the stage.  Every CTA sums its own 24 tiles.
// out[cta * 96 + w * 32 + lane]: consumer sums.
#include <cstdint>
#define STAGES 3
#define TILE 128
#define TILES 24
__device__ __forceinline__ void wait_parity(unsigned a, unsigned par)
{
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1; @!p bra W; }"
                 :: "r"(a), "r"(par) : "memory");
}
extern "C" __global__ void mbarrier_pipeline(const unsigned *src, unsigned *out)
{
    __shared__ __align__(128) unsigned buf[STAGES][TILE];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    unsigned t = threadIdx.x, w = t / 32, lane = t % 32;
    if (t == 0)
        for (int s = 0; s < STAGES; s++) {
            asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&full[s])) : "memory");
            asm volatile("mbarrier.init.shared.b64 [%0], 3;" :: "r"((unsigned)__cvta_generic_to_shared(&empty[s])) : "memory");
        }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    __syncthreads();
    const unsigned *g = src + blockIdx.x * TILES * TILE;
    if (w == 0) {
        if (lane == 0)
            for (int i = 0; i < TILES; i++) {
                int s = i % STAGES;
                unsigned fa = (unsigned)__cvta_generic_to_shared(&full[s]);
                unsigned ea = (unsigned)__cvta_generic_to_shared(&empty[s]);
                if (i >= STAGES)
                    wait_parity(ea, (i / STAGES - 1) & 1);
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(fa), "r"(TILE * 4) : "memory");
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                             :: "r"((unsigned)__cvta_generic_to_shared(buf[s])), "l"(g + i * TILE), "r"(TILE * 4), "r"(fa)
                             : "memory");
            }
    } else {
        unsigned sum = 0;
        for (int i = 0; i < TILES; i++) {
            int s = i % STAGES;
            unsigned fa = (unsigned)__cvta_generic_to_shared(&full[s]);
            unsigned ea = (unsigned)__cvta_generic_to_shared(&empty[s]);
            wait_parity(fa, (i / STAGES) & 1);
            for (int k = lane; k < TILE; k += 32)
                sum += buf[s][k] * (w + (unsigned)k % 3);
            __syncwarp();
            if (lane == 0)
                asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(ea) : "memory");
        }
        out[blockIdx.x * 96 + (w - 1) * 32 + lane] = sum;
    }
}
