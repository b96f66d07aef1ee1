// Hopper-only (sm_90a) features through inline asm. Compiled for sm_90a only.
#include <cuda.h>
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__global__ void __launch_bounds__(384, 1) k_setmaxnreg(float *o)
{
    int wg = threadIdx.x / 128;
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        o[threadIdx.x] = 1.0f;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        o[threadIdx.x] = 2.0f;
    }
}
// m64n8k16 f16 x f16 -> f32 with both operands from shared-memory descriptors
__global__ void __launch_bounds__(128, 1) k_wgmma(float *o)
{
    __shared__ alignas(128) uint16_t sa[64 * 16];
    __shared__ alignas(128) uint16_t sb[8 * 16];
    for (int t = threadIdx.x; t < 64 * 16; t += 128) sa[t] = (uint16_t)(0x3c00 + (t & 7));
    for (int t = threadIdx.x; t < 8 * 16; t += 128) sb[t] = 0x3c00;
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t da = ((uint64_t)(smem_u32(sa) >> 4) & 0x3fff) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);
    uint64_t db = ((uint64_t)(smem_u32(sb) >> 4) & 0x3fff) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    int scale_d = 0;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n\t}"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db), "r"(scale_d));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    o[threadIdx.x * 4 + 0] = d0; o[threadIdx.x * 4 + 1] = d1;
    o[threadIdx.x * 4 + 2] = d2; o[threadIdx.x * 4 + 3] = d3;
}
__global__ void k_tma(const __grid_constant__ CUtensorMap tmap, float *o, int x0, int y0)
{
    __shared__ alignas(128) float tile[32 * 32];
    __shared__ alignas(8) uint64_t mbar;
    uint32_t bar = smem_u32(&mbar), dst = smem_u32(tile);
    if (threadIdx.x == 0) {
        asm volatile("prefetch.tensormap [%0];" :: "l"(&tmap) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(1) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(32 * 32 * 4) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(dst), "l"(&tmap), "r"(x0), "r"(y0), "r"(bar) : "memory");
    }
    __syncthreads();
    uint32_t done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "r"(0), "r"(1000000) : "memory");
    }
    o[threadIdx.x] = tile[threadIdx.x];
    tile[threadIdx.x] *= 2.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(&tmap), "r"(x0), "r"(y0), "r"(dst) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}
__global__ void k_mbarrier_hint(unsigned *o, unsigned ns)
{
    __shared__ alignas(8) uint64_t mbar;
    uint32_t bar = smem_u32(&mbar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(blockDim.x));
    __syncthreads();
    uint64_t state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
    uint32_t done = 0;
    while (!done)
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.shared::cta.b64 p, [%1], %2, %3;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "l"(state), "r"(ns) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2, 0x10000;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar), "l"(state) : "memory");
    o[threadIdx.x] = done;
}
__global__ void __cluster_dims__(2, 1, 1) k_elect_mapa(unsigned *o)
{
    __shared__ unsigned sh[32];
    unsigned lane_elected, is_leader;
    asm volatile("{\n\t.reg .pred P;\n\t.reg .b32 L;\n\telect.sync L|P, %2;\n\tselp.u32 %1, 1, 0, P;\n\tmov.u32 %0, L;\n\t}"
                 : "=r"(lane_elected), "=r"(is_leader) : "r"(0xffffffffu));
    sh[threadIdx.x & 31] = threadIdx.x;
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    uint32_t local = smem_u32(&sh[threadIdx.x & 31]), remote, rank;
    uint64_t rgen;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(1u));
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(rgen) : "l"((uint64_t)&sh[0]), "r"(0u));
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rank) : "r"(remote));
    unsigned v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote));
    o[threadIdx.x] = lane_elected + is_leader + rank + v + *(unsigned *)rgen;
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
__global__ void k_griddep(float *o)
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
    o[threadIdx.x] += 1.0f;
    asm volatile("griddepcontrol.launch_dependents;");
}
__global__ void k_ldst_matrix(unsigned *o)
{
    __shared__ alignas(16) uint16_t sm[4 * 8 * 8];
    for (int t = threadIdx.x; t < 256; t += 32) sm[t] = (uint16_t)t;
    __syncwarp();
    uint32_t addr = smem_u32(&sm[(threadIdx.x & 31) * 8]);
    unsigned r0, r1, r2, r3, t0, t1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(t0), "=r"(t1) : "r"(addr));
    __syncwarp();
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(addr), "r"(r3), "r"(r2), "r"(r1), "r"(r0) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(addr), "r"(t0) : "memory");
    __syncwarp();
    o[threadIdx.x] = sm[threadIdx.x] + t1;
}
__global__ void k_bulk_copy(const float4 *g, float *o, float4 *gout)
{
    __shared__ alignas(128) float4 buf[64];
    __shared__ alignas(8) uint64_t mbar;
    uint32_t bar = smem_u32(&mbar), dst = smem_u32(buf);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(bar) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                     :: "r"(dst), "l"(g), "r"(bar) : "memory");
        asm volatile("{\n\t.reg .pred p;\n\tW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t@!p bra W;\n\t}" :: "r"(bar) : "memory");
    }
    __syncthreads();
    o[threadIdx.x] = buf[threadIdx.x].x;
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" :: "l"(gout), "r"(dst) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 256;" :: "l"(o), "r"(dst) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}
