// sleep_lock.cu: nanosleep back-off spin locks that must terminate: lane 0 of every warp
// of every CTA takes one global lock (atomicCAS with an exponential nanosleep back-off)
// and increments a plain counter inside it; then warp 1 of each CTA polls, sleeping, for a
// flag that warp 0 of its CTA sets after a sleep of its own.
// out[0]: the counter (= warps), out[1 + b]: what warp 1 of CTA b saw (1).
extern "C" __global__ void sleep_lock(unsigned *lock, unsigned *out, unsigned *flags)
{
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) {
        unsigned ns = 8;
        while (atomicCAS(lock, 0u, 1u) != 0u) {
            __nanosleep(ns);
            if (ns < 256)
                ns *= 2;
        }
        __threadfence();
        volatile unsigned *c = out;
        c[0] = c[0] + 1;
        __threadfence();
        atomicExch(lock, 0u);
    }
    volatile unsigned *flag = &flags[blockIdx.x];
    if (warp == 0 && lane == 0) {
        __nanosleep(1000);
        __threadfence();
        *flag = 1;
    }
    if (warp == 1 && lane == 0) {
        while (*flag == 0)
            __nanosleep(100);
        out[1 + blockIdx.x] = *flag;
    }
}
