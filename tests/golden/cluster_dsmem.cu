// cluster_dsmem.cu: distributed shared memory in clusters of 4 CTAs (8 CTAs of 64 threads):
// the cluster barrier with divergent, unaligned arrivals; ld, st, atom and red on
// .shared::cluster addresses of other CTAs (mapa on 32- and 64-bit addresses); getctarank
// and isspacep of them; a bulk copy and a bulk reduction from this CTA's shared memory
// into the next CTAs', completing on their mbarriers; red.async onto a remote counter.
// out[cta*64 + t]: what thread t read from another CTA; info[cta*64 + t]: the ranks and
// kinds it saw; res[cta*64 + i]: this CTA's shared memory after the cluster is done.
#include <cstdint>

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ unsigned mapa32(unsigned a, unsigned r)
{
    unsigned d;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r));
    return d;
}
__device__ __forceinline__ void wait_parity(unsigned bar, unsigned par)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(bar), "r"(par) : "memory");
}

extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_dsmem(unsigned *out, unsigned *info, unsigned *res)
{
    __shared__ alignas(16) unsigned s[64];
    __shared__ alignas(16) unsigned in[16];
    __shared__ alignas(16) unsigned acc[16];
    __shared__ unsigned cnt, cnt2;
    __shared__ alignas(8) unsigned long long bar_in, bar_acc, bar_red;
    unsigned t = threadIdx.x, r, n;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    s[t] = blockIdx.x * 100 + t;
    if (t < 16) {
        in[t] = 0xdead;
        acc[t] = 1000 * (t + 1);
    }
    if (t == 0) {
        cnt = 0;
        cnt2 = 7;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar_in)));
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar_acc)));
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar_red)));
        asm volatile("fence.mbarrier_init.release.cluster;");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 64;" :: "r"(sa(&bar_in)));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 64;" :: "r"(sa(&bar_acc)));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(&bar_red)), "r"(4 * 64 * 4));
    }
    // Divergent arrivals: odd and even lanes arrive at different instructions.
    if (t & 1)
        asm volatile("barrier.cluster.arrive;" ::: "memory");
    else
        asm volatile("barrier.cluster.arrive.release;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");

    // Reads of other CTAs' shared memory, by 32- and 64-bit addresses.
    unsigned peer = (r + t) % n, v32, v64, rk32, rk64, kind;
    unsigned a32 = mapa32(sa(&s[(t * 7) % 64]), peer);
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v32) : "r"(a32));
    unsigned *g;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(g) : "l"(&s[(t * 5) % 64]), "r"((peer + 1) % n));
    v64 = *(volatile unsigned *)g;
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rk32) : "r"(a32));
    asm volatile("getctarank.u64 %0, %1;" : "=r"(rk64) : "l"(g));
    unsigned k1, k2, k3, k4;
    asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(k1) : "l"(g));
    asm volatile("{ .reg .pred p; isspacep.shared p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(k2) : "l"(g));
    asm volatile("{ .reg .pred p; isspacep.global p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(k3) : "l"(g));
    asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(k4) : "l"(&s[0]));
    kind = k1 | k2 << 1 | k3 << 2 | k4 << 3;
    out[blockIdx.x * 64 + t] = v32 * 65536 + v64;
    info[blockIdx.x * 64 + t] = rk32 | rk64 << 4 | kind << 8 | (a32 >> 24) << 16;

    // Atomics and reductions on rank 0's and the next rank's counters.
    unsigned c0 = mapa32(sa(&cnt), 0), c1 = mapa32(sa(&cnt2), (r + 1) % n), old;
    asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(c0) : "memory");
    asm volatile("red.shared::cluster.max.u32 [%0], %1;" :: "r"(c1), "r"(blockIdx.x * 64 + t) : "memory");
    asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");

    // Bulk copy of s[0..15] into the next CTA's in[], bulk add of s[16..31] into the CTA
    // after it's acc[], each completing on the target CTA's mbarrier; red.async adds to
    // the last CTA's counter through its bar_red.
    if (t == 0) {
        unsigned nx = (r + 1) % n, nn = (r + 2) % n;
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 64, [%2];"
                     :: "r"(mapa32(sa(in), nx)), "r"(sa(s)), "r"(mapa32(sa(&bar_in), nx)) : "memory");
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 64, [%2];"
                     :: "r"(mapa32(sa(acc), nn)), "r"(sa(&s[16])), "r"(mapa32(sa(&bar_acc), nn)) : "memory");
    }
    {
        unsigned last = n - 1;
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
                     :: "r"(mapa32(sa(&cnt2), last)), "r"(t + 1), "r"(mapa32(sa(&bar_red), last)) : "memory");
    }
    if (t == 0) {
        wait_parity(sa(&bar_in), 0);
        wait_parity(sa(&bar_acc), 0);
        if (r == n - 1)
            wait_parity(sa(&bar_red), 0);
    }
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    unsigned *o = res + blockIdx.x * 64;
    if (t < 16) {
        o[t] = in[t];
        o[16 + t] = acc[t];
    }
    if (t == 0) {
        o[32] = cnt;
        o[33] = cnt2;
        o[34] = r;
        o[35] = n;
    }
    if (t >= 36)
        o[t] = old * 0 + s[t];
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
}
