// cp_async_copy.cu: asynchronous copies into shared memory, then out to global memory:
// cp.async.ca of 4, 8 and 16 bytes with partial source sizes (zero-filled) and ignore-src,
// cp.async.cg of 16, commit_group and wait_group, cp.async.mbarrier.arrive with and
// without .noinc, a bulk copy (cp.async.bulk with complete_tx on an mbarrier) and a bulk
// store back to global memory (bulk_group).  One CTA of 64 threads.
// src: 1024 bytes in; out: 4096 bytes out (what shared memory held, per region).
#include <cstdint>
extern "C" __global__ void cp_async_copy(const unsigned *src, unsigned *out, unsigned *pend)
{
    __shared__ __align__(16) unsigned sm[1024];
    __shared__ uint64_t bar[2];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1024; i += 64)
        sm[i] = 0xdeadbeef;
    unsigned b0 = (unsigned)__cvta_generic_to_shared(&bar[0]);
    unsigned b1 = (unsigned)__cvta_generic_to_shared(&bar[1]);
    if (t == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b0), "r"(64u) : "memory");
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b1), "r"(1u) : "memory");
    }
    __syncthreads();
    unsigned d = (unsigned)__cvta_generic_to_shared(sm);
    // Region 0 (words 0..63): 4-byte copies, source size t % 5 (0..4; beyond 4 is 4).
    unsigned ss = t % 5;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(d + 4 * t), "l"(src + t), "r"(ss) : "memory");
    // Region 1 (words 64..191): 8-byte copies, source size t % 9.
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;"
                 :: "r"(d + 256 + 8 * t), "l"(src + 64 + 2 * t), "r"(t % 9) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    // Region 2 (words 192..447): 16-byte .ca copies with constant source sizes.
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, 16;" :: "r"(d + 768 + 16 * t), "l"(src + 4 * t) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    // Region 3 (words 448..703): 16-byte .cg copies, ignore-src on odd threads.
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, p; }"
                 :: "r"(d + 1792 + 16 * t), "l"(src + 128 + 4 * t), "r"(t & 1) : "memory");
    // Region 5 (words 960..1023): 16-byte .cg copies of 12 source bytes by threads 0..15.
    if (t < 16)
        asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, 12;"
                     :: "r"(d + 3840 + 16 * t), "l"(src + 192 + 4 * t) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    // cp.async.mbarrier.arrive: .noinc arrives once per thread (64 = the count).
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(b0) : "memory");
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(b0) : "memory");
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0; @!p bra W; }" :: "r"(b0) : "memory");
    __syncthreads();
    // Region 4 (words 704..959): a bulk copy of 1024 bytes by thread 0, tracked by bar[1].
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b1), "r"(1024u) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(d + 2816), "l"(src), "r"(1024u), "r"(b1) : "memory");
    }
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0; @!p bra W; }" :: "r"(b1) : "memory");
    for (unsigned i = t; i < 1024; i += 64)
        out[i] = sm[i];
    __syncthreads();
    // A bulk store of the whole of it to out + 1024 words.
    if (t == 0) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                     :: "l"(out + 1024), "r"(d), "r"(4096u) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
    if (t == 0) {
        uint64_t s;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(b1) : "memory");
        unsigned c;
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
        pend[0] = c;
    }
}
