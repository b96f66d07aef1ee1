// alloca_dyn: alloca() with a run-time size, as nvcc 13 lowers it (alloca.u64 ptr, size,
// 16, then cvta.local / cvta.to.local and local loads and stores), in a kernel and in a
// __noinline__ device function called in a loop: each call's allocation is freed when it
// returns.  Per thread t (96 threads, 2 CTAs of 48: a partial warp), with m = n + t % 13:
//   out[3t]     sum over r < rounds of fill_sum(m + r, t + r)
//   out[3t + 1] the kernel's own buffer, filled before the calls, checked after them
//   out[3t + 2] a checksum of a dynamically indexed local array (a __local_depot beside the
//               allocations) written before the calls and read after them
// Run: nvcc -arch=sm_90 -ptx alloca_dyn.cu
extern "C" __device__ void *alloca(size_t);

__device__ __noinline__ unsigned fill_sum(unsigned n, unsigned salt)
{
    unsigned *a = (unsigned *)alloca(n * sizeof(unsigned));
    unsigned h[8];                       // dynamically indexed: the callee's own depot
    for (unsigned i = 0; i < 8; i++)
        h[i] = 0;
    for (unsigned i = 0; i < n; i++) {
        a[i] = i * salt + 1;
        h[(i * salt) & 7] += i;
    }
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += a[n - 1 - i] * (i + 1);
    return s + h[salt & 7];
}

extern "C" __global__ void alloca_dyn(unsigned *out, unsigned n, unsigned rounds)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned m = n + t % 13;
    unsigned loc[16];                    // dynamically indexed: the kernel's depot
    for (unsigned i = 0; i < 16; i++)
        loc[(t + i * 5) & 15] = t * i;
    unsigned *buf = (unsigned *)alloca(m * sizeof(unsigned));
    for (unsigned i = 0; i < m; i++)
        buf[i] = t ^ (i * 7);
    unsigned acc = 0;
    for (unsigned r = 0; r < rounds; r++)
        acc += fill_sum(m + r, t + r);
    unsigned chk = 0;
    for (unsigned i = 0; i < m; i++)
        chk += buf[i] * (i + 1);
    unsigned lc = 0;
    for (unsigned i = 0; i < 16; i++)
        lc += loc[(t * 3 + i) & 15] * (i + 1);
    out[3 * t] = acc;
    out[3 * t + 1] = chk;
    out[3 * t + 2] = lc;
}
