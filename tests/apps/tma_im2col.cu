// tma_im2col.cu: the Tensor Memory Accelerator's im2col mode: tensor maps made with
// cuTensorMapEncodeIm2col (3-, 4- and 5-dimensional NWC / NHWC / NDHWC f32 tensors whose
// elements hold their own index) and cp.async.bulk.tensor .im2col loads at several
// coordinates and im2col offsets, with element strides, pixels that run past the bounding
// box into the next image, and pixels outside the tensor (zero); then the encoder's
// refusals.  Each load's shared memory is printed as the element indices it received.
// link: -lcuda
// target: -arch=sm_90
#include "apps.h"
#include <cuda.h>
#include <cstdint>
#include <vector>

static void dk(CUresult r, const char *what)
{
    const char *n = nullptr;
    cuGetErrorName(r, &n);
    printf("%s -> %s\n", what, n ? n : "?");
}

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// One load of rank r (3..5) at coordinates c[0..r-1] with offsets o[0..r-3]; bytes expected.
__global__ void load(const __grid_constant__ CUtensorMap map, int r, int4 c, int c4, int3 o, unsigned bytes, float *out)
{
    __shared__ alignas(128) float sm[2048];
    __shared__ alignas(8) unsigned long long bar;
    for (int i = threadIdx.x; i < 2048; i += blockDim.x)
        sm[i] = -1.f;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(&bar)), "r"(bytes) : "memory");
        unsigned short o0 = (unsigned short)o.x, o1 = (unsigned short)o.y, o2 = (unsigned short)o.z;
        if (r == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                         :: "r"(sa(sm)), "l"(&map), "r"(c.x), "r"(c.y), "r"(c.z), "r"(sa(&bar)), "h"(o0) : "memory");
        else if (r == 4)
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                         :: "r"(sa(sm)), "l"(&map), "r"(c.x), "r"(c.y), "r"(c.z), "r"(c.w), "r"(sa(&bar)), "h"(o0),
                            "h"(o1) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                         :: "r"(sa(sm)), "l"(&map), "r"(c.x), "r"(c.y), "r"(c.z), "r"(c.w), "r"(c4), "r"(sa(&bar)),
                            "h"(o0), "h"(o1), "h"(o2) : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(sa(&bar)) : "memory");
    for (int i = threadIdx.x; i < 2048; i += blockDim.x)
        out[i] = sm[i];
}

struct tcase {
    const char *name;
    int rank;
    uint64_t dims[5];
    int lo[3], hi[3];
    unsigned ch, px;
    unsigned es[5];
    int c[5], o[3];
};

int main()
{
    CK(cudaFree(0));
    const size_t N = 1 << 16;
    std::vector<float> h(N);
    for (size_t i = 0; i < N; i++)
        h[i] = (float)i;
    float *g, *out;
    CK(cudaMalloc(&g, N * 4));
    CK(cudaMalloc(&out, 2048 * 4));
    CK(cudaMemcpy(g, h.data(), N * 4, cudaMemcpyHostToDevice));
    static const tcase cases[] = {
        // NWC: C 8, W 10, N 3; box W in [-1, +1] around the coordinate: 3 pixels per image
        { "3d", 3, { 8, 10, 3 }, { -1 }, { 1 }, 8, 6, { 1, 1, 1 }, { 0, 2, 0 }, { 0 } },
        { "3d offset", 3, { 8, 10, 3 }, { -1 }, { 1 }, 8, 6, { 1, 1, 1 }, { 0, 2, 0 }, { 1 } },
        { "3d edge", 3, { 8, 10, 3 }, { -2 }, { 2 }, 8, 12, { 1, 1, 1 }, { 0, 0, 1 }, { 0 } },
        { "3d channels", 3, { 16, 10, 3 }, { 0 }, { 3 }, 4, 8, { 1, 1, 1 }, { 4, 5, 0 }, { 0 } },
        { "3d stride", 3, { 8, 12, 2 }, { 0 }, { 7 }, 8, 8, { 1, 2, 1 }, { 0, 1, 0 }, { 0 } },
        // NHWC: C 4, W 6, H 5, N 2; a 3 x 3 window
        { "4d", 4, { 4, 6, 5, 2 }, { -1, -1 }, { 1, 1 }, 4, 12, { 1, 1, 1, 1 }, { 0, 2, 2, 0 }, { 0, 0 } },
        { "4d offsets", 4, { 4, 6, 5, 2 }, { -1, -1 }, { 1, 1 }, 4, 20, { 1, 1, 1, 1 }, { 0, 1, 1, 0 }, { 1, 2 } },
        { "4d corner", 4, { 4, 6, 5, 2 }, { -2, -1 }, { 0, 1 }, 4, 16, { 1, 1, 1, 1 }, { 0, 0, 0, 1 }, { 0, 0 } },
        // NDHWC: C 4, W 4, H 3, D 3, N 2
        { "5d", 5, { 4, 4, 3, 3, 2 }, { -1, -1, -1 }, { 0, 0, 0 }, 4, 16, { 1, 1, 1, 1, 1 }, { 0, 1, 1, 1, 0 }, { 0, 0, 0 } },
        { "5d offsets", 5, { 4, 4, 3, 3, 2 }, { 0, 0, 0 }, { 1, 1, 1 }, 4, 24, { 1, 1, 1, 1, 1 }, { 0, 2, 1, 0, 0 }, { 1, 0, 1 } },
    };
    for (const tcase &t : cases) {
        alignas(64) CUtensorMap map;
        cuuint64_t strides[4];
        uint64_t s = t.dims[0] * 4;
        for (int i = 0; i + 1 < t.rank; i++) {
            strides[i] = s;
            s *= t.dims[i + 1];
        }
        CUresult r = cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, t.rank, g, t.dims, strides, t.lo,
                                             t.hi, t.ch, t.px, t.es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                             CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        printf("%s: encode %d\n", t.name, (int)r);
        if (r != CUDA_SUCCESS)
            continue;
        CK(cudaMemset(out, 0, 2048 * 4));
        load<<<1, 128>>>(map, t.rank, make_int4(t.c[0], t.c[1], t.c[2], t.c[3]), t.c[4],
                         make_int3(t.o[0], t.o[1], t.o[2]), t.ch * t.px * 4, out);
        SAY(cudaDeviceSynchronize());
        std::vector<float> o(2048);
        CK(cudaMemcpy(o.data(), out, 2048 * 4, cudaMemcpyDeviceToHost));
        for (unsigned p = 0; p < t.px; p++) {
            printf("  pixel %2u:", p);
            for (unsigned k = 0; k < t.ch; k++)
                printf(" %g", o[p * t.ch + k]);
            printf("\n");
        }
        printf("  next: %g\n", o[t.ch * t.px]);
    }
    // Refusals.
    alignas(64) CUtensorMap map;
    uint64_t dims[3] = { 8, 10, 3 };
    cuuint64_t strides[2] = { 32, 320 };
    int lo[1] = { -1 }, hi[1] = { 1 };
    unsigned es[3] = { 1, 1, 1 };
    dk(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, lo, hi, 8, 6, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "rank 2");
    dk(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, g, dims, strides, lo, hi, 300, 6, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "300 channels");
    dk(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, g, dims, strides, lo, hi, 8, 2000, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "2000 pixels");
    dk(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, g, dims, strides, lo, hi, 2, 6, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "8 bytes per pixel");
    int lo2[1] = { -40000 };
    dk(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, g, dims, strides, lo2, hi, 8, 6, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "corner -40000");
    int lo3[3] = { -200, 0, 0 }, hi3[3] = { 0, 0, 0 };
    uint64_t dims5[5] = { 4, 4, 3, 3, 2 };
    cuuint64_t strides5[4] = { 16, 64, 192, 576 };
    unsigned es5[5] = { 1, 1, 1, 1, 1 };
    dk(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, g, dims5, strides5, lo3, hi3, 4, 6, es5,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "5d corner -200");
    int lo4[1] = { 2 }, hi4[1] = { -2 };
    dk(cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, g, dims, strides, lo4, hi4, 8, 6, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "lower above upper");
    return 0;
}
