// cluster_launch.cu: a kernel without a cluster attribute launched in clusters of 2 x 2 CTAs
// (ptxrun --cluster 2,2, cuLaunchKernelEx's cluster dimension) on a 4 x 4 grid of 64-thread
// CTAs: each CTA records its cluster registers; each thread reads a value of the next CTA
// of its cluster through mapa and a cluster barrier; setmaxnreg and elect.sync on the way
// (sm_90a).  out[cta * 8 ..]: the registers; val[cta * 64 + t]: what thread t read.
#include <cstdint>
extern "C" __global__ void cluster_launch(unsigned *out, unsigned *val)
{
    __shared__ unsigned s[64];
    unsigned cta = blockIdx.y * gridDim.x + blockIdx.x, t = threadIdx.x, r, n, cx, cy, ncx, ncy, ex, ctx, cty;
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cx));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(cy));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncx));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(ncy));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ctx));
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(cty));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(ex));
    unsigned el;
    asm volatile("{ .reg .pred p; .reg .b32 q; elect.sync q|p, 0xffffffff; selp.u32 %0, 1, 0, p; }" : "=r"(el));
    s[t] = cta * 1000 + t;
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[(t * 3) % 64]), ra, v;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(a), "r"((r + 1) % n));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(ra));
    val[cta * 64 + t] = v;
    if (t == 0) {
        unsigned *o = out + cta * 12;
        o[0] = r; o[1] = n; o[2] = cx; o[3] = cy; o[4] = ncx; o[5] = ncy; o[6] = ctx; o[7] = cty; o[8] = ex;
    }
    if (t < 32)
        atomicAdd(&out[cta * 12 + 9], el);
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
}
