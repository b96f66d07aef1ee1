// Special registers read through inline asm (section 2 of the catalog).
#define SREG32(name, reg) __device__ __forceinline__ unsigned name() { unsigned r; asm volatile("mov.u32 %0, %%" reg ";" : "=r"(r)); return r; }
#define SREG64(name, reg) __device__ __forceinline__ unsigned long long name() { unsigned long long r; asm volatile("mov.u64 %0, %%" reg ";" : "=l"(r)); return r; }
SREG32(laneid, "laneid")
SREG32(warpid, "warpid")
SREG32(nwarpid, "nwarpid")
SREG32(smid, "smid")
SREG32(nsmid, "nsmid")
SREG64(gridid, "gridid")
SREG32(lm_eq, "lanemask_eq")
SREG32(lm_lt, "lanemask_lt")
SREG32(lm_le, "lanemask_le")
SREG32(lm_gt, "lanemask_gt")
SREG32(lm_ge, "lanemask_ge")
SREG32(clk, "clock")
SREG32(clk_hi, "clock_hi")
SREG64(clk64, "clock64")
SREG64(gtimer, "globaltimer")
SREG32(gtimer_lo, "globaltimer_lo")
SREG32(gtimer_hi, "globaltimer_hi")
SREG32(dsmem, "dynamic_smem_size")
SREG32(tsmem, "total_smem_size")
SREG32(envreg0, "envreg0")
SREG32(envreg31, "envreg31")
SREG32(pm0, "pm0")
SREG32(pm7, "pm7")
SREG64(pm0_64, "pm0_64")
SREG32(tidx, "tid.x")
SREG32(ntidy, "ntid.y")
SREG32(ctaidz, "ctaid.z")
SREG32(nctaidx, "nctaid.x")

__global__ void k_sregs(unsigned *o, unsigned long long *o64)
{
    extern __shared__ int dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dyn[threadIdx.x] = i;
    unsigned *p = o + i * 32;
    p[0] = laneid(); p[1] = warpid(); p[2] = nwarpid(); p[3] = smid(); p[4] = nsmid();
    p[5] = lm_eq(); p[6] = lm_lt(); p[7] = lm_le(); p[8] = lm_gt(); p[9] = lm_ge();
    p[10] = clk(); p[11] = clk_hi(); p[12] = gtimer_lo(); p[13] = gtimer_hi();
    p[14] = dsmem(); p[15] = tsmem(); p[16] = envreg0(); p[17] = envreg31(); p[18] = pm0(); p[19] = pm7();
    p[20] = tidx() + ntidy() + ctaidz() + nctaidx();
    p[21] = dyn[(threadIdx.x + 1) % blockDim.x];
#if __CUDA_ARCH__ >= 900
    unsigned a;
    asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(a));
    p[22] = a;
#endif
    unsigned long long *q = o64 + i * 4;
    q[0] = gridid(); q[1] = clk64(); q[2] = gtimer(); q[3] = pm0_64();
}
__global__ void k_sreg_multi(unsigned *o)
{
    unsigned a, b, c;
    // several statements and a scoped register in one asm block
    asm volatile("{\n\t.reg .u32 t;\n\tmov.u32 t, %%laneid;\n\tmov.u32 %0, t;\n\tmov.u32 %1, %%warpid; mov.u32 %2, %%lanemask_lt;\n\t}"
                 : "=r"(a), "=r"(b), "=r"(c));
    o[threadIdx.x] = a + b + __popc(c);
}
