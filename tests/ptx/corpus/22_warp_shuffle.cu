// Feature group 6.22: warp shuffle.
__global__ void k_shfl(const int *a, const float *f, const double *d, const long long *l, int *o, float *fo,
                       double *dout, long long *lo, int w)
{
    int i = threadIdx.x; unsigned full = 0xffffffffu;
    o[i] = __shfl_sync(full, a[i], 3) + __shfl_up_sync(full, a[i], 1) + __shfl_down_sync(full, a[i], 2)
         + __shfl_xor_sync(full, a[i], 4);
    o[i + 64] = __shfl_sync(full, a[i], 3, 16) + __shfl_up_sync(full, a[i], 1, 8) + __shfl_down_sync(full, a[i], 2, 16)
              + __shfl_xor_sync(full, a[i], 1, 4);
    o[i + 128] = __shfl_sync(full, a[i], i + 1, w) + __shfl_up_sync(full, a[i], 1, w) + __shfl_down_sync(full, a[i], 3, w)
               + __shfl_xor_sync(full, a[i], 2, w) + __shfl_sync(full, (unsigned)a[i], 0);
    fo[i] = __shfl_sync(full, f[i], 0) + __shfl_xor_sync(full, f[i], 16);
    dout[i] = __shfl_sync(full, d[i], 5) + __shfl_down_sync(full, d[i], 1);
    lo[i] = __shfl_xor_sync(full, l[i], 8) + __shfl_up_sync(full, (unsigned long long)l[i], 2);
}
__global__ void k_warp_sum(const float *in, float *out)
{
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
