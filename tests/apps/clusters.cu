// clusters.cu: thread-block clusters: the cluster registers of a __cluster_dims__ kernel and
// of cudaLaunchKernelEx's cluster dimensions, distributed shared memory (a histogram whose
// bins are spread over the cluster's CTAs, a ring that reads the next CTA's shared memory,
// remote atomics), the split cluster barrier, remote mbarrier arrivals, st.async and a bulk
// copy multicast to every CTA of the cluster; then the runtime's answers: cluster limits
// and attributes.
// target: -arch=sm_90
#include "apps.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Each CTA's view of the cluster, 16 words per CTA.
__global__ void __cluster_dims__(2, 2, 1) ids(unsigned *out)
{
    cg::cluster_group cl = cg::this_cluster();
    unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    cl.sync();
    if (threadIdx.x == 0) {
        unsigned *o = out + b * 16;
        dim3 bi = cl.block_index(), cd = cl.dim_blocks();
        o[0] = cl.block_rank();
        o[1] = cl.num_blocks();
        o[2] = bi.x; o[3] = bi.y; o[4] = bi.z;
        o[5] = cd.x; o[6] = cd.y; o[7] = cd.z;
        unsigned x, y, z, nx, ny, nz, ex;
        asm("mov.u32 %0, %%clusterid.x;" : "=r"(x));
        asm("mov.u32 %0, %%clusterid.y;" : "=r"(y));
        asm("mov.u32 %0, %%clusterid.z;" : "=r"(z));
        asm("mov.u32 %0, %%nclusterid.x;" : "=r"(nx));
        asm("mov.u32 %0, %%nclusterid.y;" : "=r"(ny));
        asm("mov.u32 %0, %%nclusterid.z;" : "=r"(nz));
        asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(ex));
        o[8] = x; o[9] = y; o[10] = z; o[11] = nx; o[12] = ny; o[13] = nz; o[14] = ex;
        o[15] = 0xc0de;
    }
    cl.sync();
}

// The same registers in a kernel without a cluster attribute (launched either way).
__global__ void plain_ids(unsigned *out)
{
    unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
    if (threadIdx.x == 0) {
        unsigned r, n, cx, cy, ncx, ncy, ex, clx, cly;
        asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
        asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
        asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(cx));
        asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(cy));
        asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(ncx));
        asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(ncy));
        asm("mov.u32 %0, %%clusterid.x;" : "=r"(clx));
        asm("mov.u32 %0, %%clusterid.y;" : "=r"(cly));
        asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(ex));
        unsigned *o = out + b * 10;
        o[0] = r; o[1] = n; o[2] = cx; o[3] = cy; o[4] = ncx; o[5] = ncy; o[6] = clx; o[7] = cly;
        o[8] = ex; o[9] = 0xbeef;
    }
}

// The programming guide's distributed-shared-memory histogram: the bins are split over the
// cluster's CTAs; every thread adds into the CTA that owns its bin.
__global__ void cluster_hist(int *bins, int nbins, int bins_per_cta, const int *in, size_t n)
{
    extern __shared__ int smem[];
    cg::cluster_group cl = cg::this_cluster();
    int tid = cg::this_grid().thread_rank();
    for (int i = threadIdx.x; i < bins_per_cta; i += blockDim.x)
        smem[i] = 0;
    cl.sync();
    for (int i = tid; i < (int)n; i += blockDim.x * gridDim.x) {
        int v = in[i];
        int bin = v < 0 ? 0 : v >= nbins ? nbins - 1 : v;
        int rank = bin / bins_per_cta, off = bin % bins_per_cta;
        int *dst = cl.map_shared_rank(smem, rank);
        atomicAdd(dst + off, 1);
    }
    cl.sync();
    int *lbins = bins + blockIdx.x / cl.num_blocks() * nbins;
    for (int i = threadIdx.x; i < bins_per_cta; i += blockDim.x)
        atomicAdd(&lbins[cl.block_rank() * bins_per_cta + i], smem[i]);
}

// Each CTA fills its shared array; after the barrier every thread reads the next CTA's,
// with the rank the address names and whether it is cluster shared memory.
__global__ void ring(unsigned *out)
{
    __shared__ unsigned s[128];
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank(), n = cl.num_blocks();
    s[threadIdx.x] = blockIdx.x * 1000 + blockIdx.y * 100000 + threadIdx.x;
    cl.sync();
    unsigned *peer = cl.map_shared_rank(s, (r + 1) % n);
    unsigned v = peer[(threadIdx.x + 1) % 128];
    unsigned q = __cluster_query_shared_rank(peer);
    unsigned cs = __isClusterShared(peer) + 2 * __isShared(peer) + 4 * __isGlobal(peer) + 8 * __isClusterShared(out);
    cl.sync();
    unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
    out[(b * 128 + threadIdx.x) * 3 + 0] = v;
    out[(b * 128 + threadIdx.x) * 3 + 1] = q;
    out[(b * 128 + threadIdx.x) * 3 + 2] = cs;
}

// Remote atomics on rank 0's counter between a split arrive and wait; rank 0 reports.
__global__ void counter(unsigned *out)
{
    __shared__ unsigned cnt, mx;
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) { cnt = 0; mx = 0; }
    cl.sync();
    unsigned *rc = cl.map_shared_rank(&cnt, 0), *rm = cl.map_shared_rank(&mx, 0);
    atomicAdd(rc, 1u);
    atomicMax(rm, blockIdx.x * 1000 + threadIdx.x);
    cl.barrier_arrive();
    unsigned own = threadIdx.x * 7;               // work between arrive and wait
    cl.barrier_wait();
    if (cl.block_rank() == 0 && threadIdx.x == 0) {
        out[blockIdx.x / cl.num_blocks() * 3 + 0] = cnt;
        out[blockIdx.x / cl.num_blocks() * 3 + 1] = mx;
        out[blockIdx.x / cl.num_blocks() * 3 + 2] = own;
    }
    cl.sync();
}

// Threads that exit before the cluster barrier are not waited for.
__global__ void __cluster_dims__(2, 1, 1) early_exit(unsigned *out)
{
    __shared__ unsigned v[64];
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank();
    v[threadIdx.x] = r * 1000 + threadIdx.x;
    if (r == 1 && threadIdx.x >= 24)
        return;
    cl.sync();
    unsigned *p = cl.map_shared_rank(v, r ^ 1);
    out[blockIdx.x * 64 + threadIdx.x] = p[63 - threadIdx.x];
    cl.sync();
}

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// Rank 1 writes into rank 0's buffer with st.async (completing bytes on rank 0's mbarrier)
// and arrives remotely on a second barrier; rank 0 issues a bulk copy multicast to both
// CTAs; each CTA waits on its own barriers.
__global__ void __cluster_dims__(2, 1, 1) tx(const unsigned *src, unsigned *out)
{
    __shared__ alignas(16) unsigned buf[64];
    __shared__ alignas(16) unsigned got[8];
    __shared__ alignas(8) unsigned long long bar_copy, bar_st, bar_arr;
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_addr(&bar_copy)));
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_addr(&bar_st)));
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" :: "r"(smem_addr(&bar_arr)));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    for (int i = threadIdx.x; i < 8; i += blockDim.x)
        got[i] = 0;
    cl.sync();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" :: "r"(smem_addr(&bar_copy)));
        if (r == 0)
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 32;" :: "r"(smem_addr(&bar_st)));
    }
    cl.sync();                                     // both barriers expect their bytes
    if (r == 0 && threadIdx.x == 0) {
        unsigned short mask = 3;
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1], 256, [%2], %3;"
                     :: "r"(smem_addr(buf)), "l"(src), "r"(smem_addr(&bar_copy)), "h"(mask) : "memory");
    }
    if (r == 1 && threadIdx.x < 8) {
        unsigned remote_got, remote_bar;
        asm("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote_got) : "r"(smem_addr(&got[threadIdx.x])));
        asm("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote_bar) : "r"(smem_addr(&bar_st)));
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
                     :: "r"(remote_got), "r"(0x100u + threadIdx.x * 3), "r"(remote_bar) : "memory");
    }
    if (threadIdx.x == 32) {                       // every CTA arrives on rank 0's bar_arr
        unsigned remote_arr;
        asm("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote_arr) : "r"(smem_addr(&bar_arr)));
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(remote_arr) : "memory");
    }
    if (threadIdx.x == 0) {
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(smem_addr(&bar_copy)) : "memory");
        if (r == 0) {
            done = 0;
            while (!done)
                asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                             : "=r"(done) : "r"(smem_addr(&bar_st)) : "memory");
            done = 0;
            while (!done)
                asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                             : "=r"(done) : "r"(smem_addr(&bar_arr)) : "memory");
        }
    }
    __syncthreads();
    unsigned b = blockIdx.x;
    for (int i = threadIdx.x; i < 64; i += blockDim.x)
        out[b * 80 + i] = buf[i];
    for (int i = threadIdx.x; i < 8; i += blockDim.x)
        out[b * 80 + 64 + i] = got[i];
    cl.sync();
}

template <typename K, typename... A>
static cudaError_t launch_cluster(K k, dim3 g, dim3 b, size_t sh, dim3 c, A... args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = g;
    cfg.blockDim = b;
    cfg.dynamicSmemBytes = sh;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = c.x;
    attr[0].val.clusterDim.y = c.y;
    attr[0].val.clusterDim.z = c.z;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, k, args...);
}

static void print_ring(const unsigned *d, int ctas)
{
    unsigned h[16 * 128 * 3];
    CK(cudaMemcpy(h, d, ctas * 128 * 3 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int b = 0; b < ctas; b++)
        printf("  cta %2d: t0 %u (rank %u, kind %u)  t127 %u (rank %u, kind %u)\n", b, h[b * 384],
               h[b * 384 + 1], h[b * 384 + 2], h[b * 384 + 381], h[b * 384 + 382], h[b * 384 + 383]);
}

int main()
{
    unsigned *d;
    CK(cudaMalloc(&d, 1 << 20));

    // Cluster registers: compile-time 2x2 clusters on a 4x2x2 grid.
    CK(cudaMemset(d, 0, 1 << 20));
    ids<<<dim3(4, 2, 2), 64>>>(d);
    SAY(cudaGetLastError());
    SAY(cudaDeviceSynchronize());
    {
        unsigned h[16 * 16];
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int b = 0; b < 16; b++) {
            printf("ids cta %2d:", b);
            for (int k = 0; k < 16; k++)
                printf(" %u", h[b * 16 + k]);
            printf("\n");
        }
    }
    // Without clusters, and with cudaLaunchKernelEx's (2,1,1), (1,2,1) and (1,1,1).
    dim3 cls[4] = { dim3(0, 0, 0), dim3(2, 1, 1), dim3(1, 2, 1), dim3(1, 1, 1) };
    for (int k = 0; k < 4; k++) {
        CK(cudaMemset(d, 0, 1 << 20));
        cudaError_t e;
        if (k == 0) {
            plain_ids<<<dim3(4, 2), 32>>>(d);
            e = cudaGetLastError();
        } else {
            e = launch_cluster(plain_ids, dim3(4, 2), dim3(32), 0, cls[k], d);
        }
        printf("plain_ids cluster (%u,%u,%u): %s\n", cls[k].x, cls[k].y, cls[k].z, cudaGetErrorName(e));
        SAY(cudaDeviceSynchronize());
        unsigned h[8 * 10];
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int b = 0; b < 8; b++) {
            printf("  cta %d:", b);
            for (int j = 0; j < 10; j++)
                printf(" %u", h[b * 10 + j]);
            printf("\n");
        }
    }

    // The histogram on 16 CTAs in clusters of 2 and 4 (bins per CTA = 64 / cluster size).
    {
        const size_t n = 1 << 16;
        int *in, *bins, hin[1024];
        CK(cudaMalloc(&in, n * sizeof(int)));
        CK(cudaMalloc(&bins, 8 * 64 * sizeof(int)));
        unsigned x = 12345;
        for (size_t i = 0; i < n; i += 1024) {
            for (int j = 0; j < 1024; j++) {
                x = x * 1103515245u + 12345u;
                hin[j] = (int)((x >> 8) % 70) - 3;
            }
            CK(cudaMemcpy(in + i, hin, sizeof hin, cudaMemcpyHostToDevice));
        }
        for (int cs = 2; cs <= 4; cs *= 2) {
            CK(cudaMemset(bins, 0, 8 * 64 * sizeof(int)));
            int per = 64 / cs;
            SAY(launch_cluster(cluster_hist, dim3(16), dim3(256), per * sizeof(int), dim3(cs, 1, 1), bins, 64, per,
                               (const int *)in, n));
            SAY(cudaDeviceSynchronize());
            int h[8 * 64];
            CK(cudaMemcpy(h, bins, sizeof h, cudaMemcpyDeviceToHost));
            int ncl = 16 / cs;
            long total = 0;
            printf("hist cluster %d:", cs);
            for (int b = 0; b < 64; b++) {
                int s = 0;
                for (int c = 0; c < ncl; c++)
                    s += h[c * 64 + b];
                total += s;
                if (b % 8 == 0 || b > 60)
                    printf(" [%d]=%d", b, s);
            }
            printf(" total %ld\n", total);
        }
        CK(cudaFree(in));
        CK(cudaFree(bins));
    }

    // The ring on clusters (4,1,1) of an 8x2 grid, (2,2,1) of a 4x4 grid, and (8,1,1).
    {
        dim3 g[3] = { dim3(8, 2), dim3(4, 4), dim3(16, 1) }, c[3] = { dim3(4, 1, 1), dim3(2, 2, 1), dim3(8, 1, 1) };
        for (int k = 0; k < 3; k++) {
            CK(cudaMemset(d, 0, 1 << 20));
            cudaError_t e = launch_cluster(ring, g[k], dim3(128), 0, c[k], d);
            printf("ring grid (%u,%u) cluster (%u,%u,%u): %s\n", g[k].x, g[k].y, c[k].x, c[k].y, c[k].z,
                   cudaGetErrorName(e));
            SAY(cudaDeviceSynchronize());
            print_ring(d, 16);
        }
    }

    // Remote atomics between a split arrive and wait: clusters of 4 on 12 CTAs.
    {
        CK(cudaMemset(d, 0, 1 << 20));
        SAY(launch_cluster(counter, dim3(12), dim3(96), 0, dim3(4, 1, 1), d));
        SAY(cudaDeviceSynchronize());
        unsigned h[9];
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int c = 0; c < 3; c++)
            printf("counter cluster %d: count %u max %u own %u\n", c, h[c * 3], h[c * 3 + 1], h[c * 3 + 2]);
    }

    // Multicast bulk copy, st.async and remote arrivals on 4 CTAs (2 clusters).
    {
        unsigned *src, hs[64];
        CK(cudaMalloc(&src, 256));
        for (int i = 0; i < 64; i++)
            hs[i] = 0xa0000 + i * 17;
        CK(cudaMemcpy(src, hs, 256, cudaMemcpyHostToDevice));
        CK(cudaMemset(d, 0, 1 << 20));
        tx<<<4, 64>>>(src, d);
        SAY(cudaGetLastError());
        SAY(cudaDeviceSynchronize());
        unsigned h[4 * 80];
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int b = 0; b < 4; b++) {
            printf("tx cta %d: buf %x %x %x .. %x  got", b, h[b * 80], h[b * 80 + 1], h[b * 80 + 2], h[b * 80 + 63]);
            for (int i = 0; i < 8; i++)
                printf(" %x", h[b * 80 + 64 + i]);
            printf("\n");
        }
        CK(cudaFree(src));
    }

    // Early exits before the cluster barrier.
    {
        CK(cudaMemset(d, 0, 1 << 20));
        early_exit<<<4, 64>>>(d);
        SAY(cudaDeviceSynchronize());
        unsigned h[4 * 64];
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int b = 0; b < 4; b++)
            printf("early_exit cta %d: %u %u %u %u\n", b, h[b * 64], h[b * 64 + 23], h[b * 64 + 24], h[b * 64 + 63]);
    }

    // A cluster launch captured into a graph: the node keeps the cluster dimension.
    {
        CK(cudaMemset(d, 0, 1 << 20));
        cudaStream_t st;
        CK(cudaStreamCreate(&st));
        cudaGraph_t gr;
        CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(4, 2);
        cfg.blockDim = dim3(32);
        cfg.stream = st;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = 2;
        attr[0].val.clusterDim.y = 2;
        attr[0].val.clusterDim.z = 1;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        SAY(cudaLaunchKernelEx(&cfg, plain_ids, d));
        CK(cudaStreamEndCapture(st, &gr));
        cudaGraphNode_t nodes[4];
        size_t nn = 4;
        CK(cudaGraphGetNodes(gr, nodes, &nn));
        cudaLaunchAttributeValue v = {};
        SAY(cudaGraphKernelNodeGetAttribute(nodes[0], cudaLaunchAttributeClusterDimension, &v));
        printf("graph node cluster (%u,%u,%u)\n", v.clusterDim.x, v.clusterDim.y, v.clusterDim.z);
        cudaGraphExec_t ge;
        CK(cudaGraphInstantiate(&ge, gr, 0));
        SAY(cudaGraphLaunch(ge, st));
        SAY(cudaStreamSynchronize(st));
        unsigned h[8 * 10];
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int b = 0; b < 8; b++)
            printf("  graph cta %d: rank %u of %u, cluster (%u,%u) explicit %u\n", b, h[b * 10], h[b * 10 + 1],
                   h[b * 10 + 6], h[b * 10 + 7], h[b * 10 + 8]);
        CK(cudaGraphExecDestroy(ge));
        CK(cudaGraphDestroy(gr));
        CK(cudaStreamDestroy(st));
    }

    // What the runtime refuses and reports.
    printf("grid 6 in clusters of 4: %s\n",
           cudaGetErrorName(launch_cluster(ring, dim3(6), dim3(128), 0, dim3(4, 1, 1), d)));
    SAY(cudaGetLastError());
    printf("cluster (3,1,1) on grid 6: %s\n",
           cudaGetErrorName(launch_cluster(ring, dim3(6), dim3(128), 0, dim3(3, 1, 1), d)));
    SAY(cudaDeviceSynchronize());
    printf("cluster 16 (not opted in): %s\n",
           cudaGetErrorName(launch_cluster(ring, dim3(16), dim3(128), 0, dim3(16, 1, 1), d)));
    SAY(cudaGetLastError());
    SAY(cudaFuncSetAttribute(ring, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CK(cudaMemset(d, 0, 1 << 20));
    printf("cluster 16 (opted in): %s\n",
           cudaGetErrorName(launch_cluster(ring, dim3(32), dim3(128), 0, dim3(16, 1, 1), d)));
    SAY(cudaDeviceSynchronize());
    print_ring(d, 16);
    printf("cluster 32: %s\n", cudaGetErrorName(launch_cluster(ring, dim3(32), dim3(128), 0, dim3(32, 1, 1), d)));
    SAY(cudaGetLastError());
    printf("ids with cluster (2,1,1): %s\n",
           cudaGetErrorName(launch_cluster(ids, dim3(4, 2, 2), dim3(64), 0, dim3(2, 1, 1), d)));
    SAY(cudaGetLastError());
    printf("ids with cluster (2,2,1): %s\n",
           cudaGetErrorName(launch_cluster(ids, dim3(4, 2, 2), dim3(64), 0, dim3(2, 2, 1), d)));
    SAY(cudaDeviceSynchronize());
    ids<<<dim3(3, 2), 64>>>(d);
    printf("ids on grid (3,2): %s\n", cudaGetErrorName(cudaGetLastError()));
    SAY(cudaDeviceSynchronize());

    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, ids));
    printf("ids: mustBeSet %d required %d %d %d policy %d nonPortable %d\n", fa.clusterDimMustBeSet,
           fa.requiredClusterWidth, fa.requiredClusterHeight, fa.requiredClusterDepth,
           fa.clusterSchedulingPolicyPreference, fa.nonPortableClusterSizeAllowed);
    CK(cudaFuncGetAttributes(&fa, ring));
    printf("ring: mustBeSet %d required %d %d %d policy %d nonPortable %d\n", fa.clusterDimMustBeSet,
           fa.requiredClusterWidth, fa.requiredClusterHeight, fa.requiredClusterDepth,
           fa.clusterSchedulingPolicyPreference, fa.nonPortableClusterSizeAllowed);

    CK(cudaFree(d));
    return 0;
}
