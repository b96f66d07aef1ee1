// mbarrier_phases.cu: one mbarrier through several phases in one CTA of 96 threads
// (3 warps): arrivals with counts, arrive_drop, expect_tx and complete_tx, test_wait and
// try_wait on states and parities, pending_count of the states.  Thread 0 records what it
// sees after each step; every thread records whether its waits completed.
// out[0..]: thread 0's record; tok: the high halves of the states arrive returned (the low
// halves are not matched yet); done[t]: thread t's completed waits.
#include <cstdint>
__device__ __forceinline__ uint64_t arrive(unsigned a, unsigned n)
{
    uint64_t s;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(a), "r"(n) : "memory");
    return s;
}
__device__ __forceinline__ unsigned pending(uint64_t s)
{
    unsigned c;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    return c;
}
__device__ __forceinline__ unsigned test_state(unsigned a, uint64_t s)
{
    unsigned p;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(p) : "r"(a), "l"(s) : "memory");
    return p;
}
__device__ __forceinline__ unsigned test_parity(unsigned a, unsigned par)
{
    unsigned p;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(p) : "r"(a), "r"(par) : "memory");
    return p;
}
__device__ __forceinline__ void wait_parity(unsigned a, unsigned par)
{
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1; @!p bra W; }"
                 :: "r"(a), "r"(par) : "memory");
}
__device__ __forceinline__ void wait_state(unsigned a, uint64_t s)
{
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.shared.b64 p, [%0], %1, %2; @!p bra W; }"
                 :: "r"(a), "l"(s), "r"(1000u) : "memory");
}

extern "C" __global__ void mbarrier_phases(unsigned *out, unsigned long long *tok, unsigned *done)
{
    __shared__ uint64_t bar;
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned t = threadIdx.x, n = 0, k = 0;
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(96u) : "memory");
    __syncthreads();
    // Phase 0: every thread arrives once, thread 0 last.
    uint64_t s = 0;
    if (t > 0)
        s = arrive(a, 1);
    __syncthreads();
    if (t == 0) {
        s = arrive(a, 1);
        tok[k++] = s >> 32;
        out[n++] = pending(s);
    }
    wait_state(a, s);
    done[t] = 1;
    // Phase 1: warp leaders arrive for their warps (32 each), thread 0 last.
    if (t == 32 || t == 64)
        arrive(a, 32);
    __syncthreads();
    if (t == 0) {
        s = arrive(a, 32);
        {
            tok[k++] = s >> 32;
            out[n++] = pending(s);
            out[n++] = test_state(a, s);
        }
    }
    wait_parity(a, 1);
    done[t] += 2;
    // Phase 2: the third warp drops out (expected 64 from now on).
    if (t >= 64) {
        asm volatile("mbarrier.arrive_drop.shared.b64 _, [%0];" :: "r"(a) : "memory");
    } else {
        s = arrive(a, 1);
        wait_state(a, s);
        done[t] += 4;
    }
    __syncthreads();
    // Phase 3: a transaction count of 256 bytes; 64 arrivals; then complete_tx in pieces.
    if (t == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(a), "r"(256u) : "memory");
        out[n++] = test_parity(a, 1);
    }
    __syncthreads();
    if (t > 0 && t < 64)
        arrive(a, 1);
    __syncthreads();
    if (t == 0) {
        s = arrive(a, 1);
        out[n++] = pending(s);
        tok[k++] = s >> 32;
    }
    __syncthreads();
    if (t == 0) {
        out[n++] = test_parity(a, 1);           // arrivals done, 256 bytes outstanding
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(a), "r"(128u) : "memory");
        out[n++] = test_parity(a, 1);
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(a), "r"(128u) : "memory");
        out[n++] = test_parity(a, 1);           // phase 3 complete
        out[n++] = test_parity(a, 0);           // phase 4 in progress
    }
    __syncthreads();
    // Phase 4: arrive.expect_tx by thread 0, the others plain; complete_tx before the last.
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(a), "r"(64u) : "memory");
        out[n++] = pending(s);
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(a), "r"(64u) : "memory");
    }
    __syncthreads();
    if (t > 0 && t < 64)
        arrive(a, 1);
    wait_parity(a, 0);
    if (t < 64)
        done[t] += 8;
    __syncthreads();
    if (t == 0) {
        out[n++] = test_parity(a, 0);
        out[n++] = test_parity(a, 1);
        asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(a) : "memory");
        out[31] = n;
    }
}
