// Feature group 6.7: integer intrinsics.
#pragma nv_diag_suppress 550
#define KI(name, expr) __global__ void name(const int *a, const int *b, const int *c, int *o) \
    { int i = threadIdx.x; int x = a[i], y = b[i], z = c[i]; unsigned ux = x, uy = y, uz = z; \
      (void)y; (void)z; (void)ux; (void)uy; (void)uz; o[i] = (int)(expr); }
#define KL(name, expr) __global__ void name(const long long *a, const long long *b, long long *o) \
    { int i = threadIdx.x; long long x = a[i], y = b[i]; unsigned long long ux = x, uy = y; \
      (void)y; (void)ux; (void)uy; o[i] = (long long)(expr); }

KI(k_popc, __popc(ux))
KL(k_popcll, __popcll(ux))
KI(k_clz, __clz(x))
KL(k_clzll, __clzll(x))
KI(k_brev, __brev(ux))
KL(k_brevll, __brevll(ux))
KI(k_ffs, __ffs(x))
KL(k_ffsll, __ffsll(x))
KI(k_byte_perm, __byte_perm(ux, uy, uz) + __byte_perm(ux, uy, 0x3210) + __byte_perm(ux, uy, 0x7531))
KI(k_funnel, __funnelshift_l(ux, uy, uz) ^ __funnelshift_lc(ux, uy, uz) ^ __funnelshift_r(ux, uy, uz) ^ __funnelshift_rc(ux, uy, uz))
KI(k_mulhi, __mulhi(x, y) + __umulhi(ux, uy))
KL(k_mul64hi, __mul64hi(x, y) + (long long)__umul64hi(ux, uy))
KI(k_mul24, __mul24(x, y) + __umul24(ux, uy))
KI(k_sad, __sad(x, y, uz) + __usad(ux, uy, uz))
KI(k_hadd, __hadd(x, y) + __rhadd(x, z) + __uhadd(ux, uy) + __urhadd(uy, uz))
KI(k_dp4a, __dp4a(x, y, z) + __dp4a(ux, uy, uz))
KI(k_dp2a, __dp2a_lo(x, y, z) + __dp2a_hi(ux, uy, uz) + __dp2a_hi(x, y, z) + __dp2a_lo(ux, uy, uz))
KI(k_fns, __fns(ux, uy, z))
KI(k_absminmax, abs(x) + min(x, y) + max(ux, uz) + min(ux, uy) + max(y, z))
KL(k_llabs, llabs(x) + min(x, y) + max(ux, uy) + (long long)umin((unsigned)x, (unsigned)y))
KI(k_divrem, x / y + x % z + ux / uy + ux % uz)
KL(k_divrem64, x / y + x % y + ux / uy + ux % uy)
KI(k_shifts, (x << (y & 31)) + (x >> (z & 31)) + (ux >> (uy & 31)) + ((ux << 3) | (ux >> 29)))
KI(k_viops, __vimax3_s32(x, y, z) + __viaddmax_s32(x, y, z) + __vimin3_u32(ux, uy, uz) + __viaddmin_u32(ux, uy, uz))
KI(k_vimax_relu, __vimax_s32_relu(x, y) + __vimax3_s32_relu(x, y, z) + __vimin_s16x2_relu(ux, uy))
KI(k_vibmax, ({ bool p, q; int r = __vibmax_s32(x, y, &p); unsigned s = __vibmin_u32(ux, uy, &q); r + (int)s + p + q; }))
KI(k_bitfield, (ux >> 5 & 0x3f) | ((uy & 0xff) << 8))
KL(k_mul_wide, (long long)x * (long long)y + (long long)ux * uy)
