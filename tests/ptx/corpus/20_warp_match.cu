// Feature group 6.20: warp match.
__global__ void k_match(const int *a, const long long *l, const float *f, const double *d, unsigned *o)
{
    int i = threadIdx.x;
#if __CUDA_ARCH__ >= 700
    unsigned full = 0xffffffffu;
    int p1, p2;
    o[i] = __match_any_sync(full, a[i]) ^ __match_any_sync(full, (unsigned)a[i] + 1)
         ^ __match_any_sync(full, f[i]);
    o[i + 64] = __match_any_sync(full, l[i]) ^ __match_any_sync(full, d[i])
              ^ __match_any_sync(full, (unsigned long long)l[i]);
    o[i + 128] = __match_all_sync(full, a[i], &p1) + p1;
    o[i + 192] = __match_all_sync(full, l[i], &p2) + p2;
#endif
}
