// grid_constant: a __grid_constant__ kernel parameter used through its generic address, as
// nvcc 13 lowers it (mov.b64 of the parameter, cvta.param.u64, then generic loads, also
// inside a __noinline__ function), and the address-space predicates on that address.
// Per thread t (40 threads: a partial warp), with s.a = {a0..a5} and i given:
//   out[4t]     s.a[(t + i) % 6], read by pick() through the generic pointer
//   out[4t + 1] spaces(p) = __isGridConstant + 2 __isGlobal + 4 __isLocal + 8 __isShared
//               + 16 __isConstant, at run time.  nvcc 13 passes spaces() the parameter's
//               .param address (its mov.b64, which ptxas makes the parameter's offset, 8)
//               rather than its cvta.param: a small number, .global only: 2.  (The
//               generic address, cvta.param, is .param and .global: golden isspacep_all.)
//   out[4t + 2] spaces(out): 2
//   out[4t + 3] p[t % 6] + 100 __isLocal(p) + 1000 __isShared(p) + 10000 __isConstant(p)
// Run: nvcc -arch=sm_90 -ptx grid_constant.cu
struct S { int a[6]; };

__device__ __noinline__ int pick(const int *p, int i) { return p[i]; }

// Opaque to the caller: the predicates run on the address at run time.
__device__ __noinline__ int spaces(const int *p)
{
    return __isGridConstant(p) + 2 * __isGlobal(p) + 4 * __isLocal(p) + 8 * __isShared(p) + 16 * __isConstant(p);
}

extern "C" __global__ void grid_constant(int *out, const __grid_constant__ S s, int i)
{
    int t = threadIdx.x;
    const int *p = s.a;
    out[4 * t] = pick(p, (t + i) % 6);
    out[4 * t + 1] = spaces(p);
    out[4 * t + 2] = spaces(out);
    out[4 * t + 3] = p[t % 6] + 100 * (int)__isLocal(p) + 1000 * (int)__isShared(p) + 10000 * (int)__isConstant(p);
}
