// Feature group 6.14: clock, clock64, nanosleep, globaltimer.
__global__ void k_clock(long long *o, unsigned long long *t, unsigned ns)
{
    int i = threadIdx.x;
    clock_t c0 = clock();
    long long c1 = clock64();
#if __CUDA_ARCH__ >= 700
    __nanosleep(100);
    __nanosleep(ns);
#endif
    unsigned long long g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
    unsigned lo, hi, c32;
    asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
    asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(c32));
    o[i] = (long long)(clock() - c0) + (clock64() - c1) + c32;
    t[i] = g + lo + ((unsigned long long)hi << 32);
}
__global__ void k_spin(long long *o, long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
#if __CUDA_ARCH__ >= 700
        __nanosleep(32);
#endif
    }
    o[threadIdx.x] = clock64() - start;
}
