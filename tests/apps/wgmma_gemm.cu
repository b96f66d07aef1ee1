// wgmma_gemm.cu: a Hopper GEMM as CUTLASS builds them: C (256 x 256, f32) = A (256 x 512,
// f16, K contiguous) * B^T (B is 256 x 512, f16, K contiguous).  Each CTA (one warpgroup)
// computes a 64 x 128 tile: per stage of 64 K, thread 0 loads the A and B boxes with TMA
// (cp.async.bulk.tensor, 128-byte swizzle) completing on an mbarrier, and the warpgroup runs
// four wgmma.mma_async m64n128k16 reading them in place through 128-byte-swizzle matrix
// descriptors (the start address advanced 32 bytes per K step).  Launched in clusters of 2
// along N, whose CTAs share the A tile: rank 0 multicasts it to both.  The program checks C
// against a reference computed on the host in double precision.
// link: -lcuda
// target: -gencode arch=compute_90a,code=compute_90a
#include "apps.h"
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cmath>
#include <vector>

#define DCK(x)                                                                              \
    do {                                                                                   \
        CUresult r_ = (x);                                                                 \
        if (r_ != CUDA_SUCCESS) {                                                          \
            const char *n_ = nullptr;                                                      \
            cuGetErrorName(r_, &n_);                                                       \
            printf("line %d: %s -> %s\n", __LINE__, #x, n_ ? n_ : "?");                    \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

constexpr int M = 256, N = 256, K = 512, BM = 64, BN = 128, BK = 64;

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ uint64_t desc128(unsigned addr)
{
    // 128-byte swizzle, K-major: SBO = 8 rows of 128 bytes, LBO unused (1)
    return (uint64_t)((addr & 0x3FFFF) >> 4) | (1ull << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

#define D64 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
    "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, " \
    "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, " \
    "%60, %61, %62, %63}"
#define R8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])

__global__ void __cluster_dims__(1, 2, 1) __launch_bounds__(128)
gemm(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb, float *c)
{
    extern __shared__ unsigned char dyn[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)dyn + 1023) & ~(uintptr_t)1023);
    half *As = (half *)sm, *Bs = (half *)(sm + BM * BK * 2);
    __shared__ alignas(8) unsigned long long bar;
    unsigned t = threadIdx.x, w = t / 32, l = t % 32, rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    float d[64];
    for (int i = 0; i < 64; i++)
        d[i] = 0.f;
    for (int k0 = 0, phase = 0; k0 < K; k0 += BK, phase ^= 1) {
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                         :: "r"(sa(&bar)), "r"((BM + BN) * BK * 2) : "memory");
            if (rank == 0)   // A is the same for both CTAs of the cluster: one load, multicast
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                             ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                             :: "r"(sa(As)), "l"(&ma), "r"(k0), "r"(m0), "r"(sa(&bar)), "h"((unsigned short)3)
                             : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(sa(Bs)), "l"(&mb), "r"(k0), "r"(n0), "r"(sa(&bar)) : "memory");
        }
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(sa(&bar)), "r"(phase) : "memory");
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        for (int kk = 0; kk < BK / 16; kk++) {
            uint64_t da = desc128(sa(As) + kk * 32), db = desc128(sa(Bs) + kk * 32);
            asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " D64 ", %64, %65, 1, 1, 1, 0, 0;"
                         : R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56)
                         : "l"(da), "l"(db) : "memory");
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        // every CTA of the cluster is done with this stage before rank 0 overwrites A
        asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    }
    for (int e = 0; e < 64; e++) {
        int m = m0 + 16 * w + l / 4 + 8 * ((e / 2) % 2), n = n0 + 8 * (e / 4) + 2 * (l % 4) + e % 2;
        c[m * N + n] = d[e];
    }
}

static void encode(CUtensorMap *map, void *g, int rows, int box_rows)
{
    cuuint64_t dims[2] = { (cuuint64_t)K, (cuuint64_t)rows }, strides[1] = { (cuuint64_t)K * 2 };
    cuuint32_t box[2] = { BK, (cuuint32_t)box_rows }, es[2] = { 1, 1 };
    DCK(cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, dims, strides, box, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

int main()
{
    std::vector<half> a(M * K), b(N * K);
    std::vector<float> c(M * N);
    unsigned x = 2024;
    for (auto &v : a) { x = x * 1664525u + 1013904223u; v = __float2half((float)((int)(x >> 20) % 17 - 8) / 8.f); }
    for (auto &v : b) { x = x * 1664525u + 1013904223u; v = __float2half((float)((int)(x >> 20) % 13 - 6) / 4.f); }
    half *da, *db;
    float *dc;
    CK(cudaMalloc(&da, a.size() * 2));
    CK(cudaMalloc(&db, b.size() * 2));
    CK(cudaMalloc(&dc, c.size() * 4));
    CK(cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemset(dc, 0, c.size() * 4));
    CUtensorMap ma, mb;
    encode(&ma, da, M, BM);
    encode(&mb, db, N, BN);
    int shared = (BM + BN) * BK * 2 + 1024;
    SAY(cudaFuncSetAttribute(gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    gemm<<<dim3(M / BM, N / BN), 128, shared>>>(ma, mb, dc);
    SAY(cudaGetLastError());
    SAY(cudaDeviceSynchronize());
    CK(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
    // The products are multiples of 1/32 and the sums small: exact in f32 whatever the order.
    double maxerr = 0, sum = 0;
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double r = 0;
            for (int k = 0; k < K; k++)
                r += (double)__half2float(a[i * K + k]) * (double)__half2float(b[j * K + k]);
            double e = fabs(r - c[i * N + j]);
            maxerr = e > maxerr ? e : maxerr;
            bad += e != 0;
            sum += c[i * N + j];
        }
    printf("C[0][0] %.5f C[17][200] %.5f C[255][255] %.5f\n", c[0], c[17 * N + 200], c[M * N - 1]);
    printf("elements differing from the exact product: %d, max error %g, sum %.4f\n", bad, maxerr, sum);
    return 0;
}
