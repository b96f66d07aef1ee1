// tma.cu: the Tensor Memory Accelerator through cuda::barrier and the cde copies: tensor
// maps made with cuTensorMapEncodeTiled (and the errors of bad ones), 2D boxes loaded into
// shared memory with cp.async.bulk.tensor at the tensor's edges (elements outside read
// zero, or NaN with the NaN fill) and with the 32- and 128-byte swizzles, and a box stored
// back to global memory (written without .tile).  One map per launch, as the kernel's first parameter.  A box whose
// innermost coordinate is not at a 16-byte boundary is an illegal instruction (last).
// link: -lcuda
// target: -arch=sm_90
#include "apps.h"
#include <cuda.h>
#include <cuda/barrier>
#include <cstring>

using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

// Load the box at (x, y) into shared memory (bytes of it), copy shared memory out whole;
// with store, write the box back to the tensor at (x + store, y + 1).
__global__ void load(const __grid_constant__ CUtensorMap map, int x, int y, unsigned bytes, int store, unsigned *out)
{
    __shared__ alignas(1024) unsigned smem[1024];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier bar;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        smem[i] = 0xeeeeeeeeu;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    barrier::arrival_token token;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_tensor_2d_global_to_shared(smem, &map, x, y, bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, bytes);
    } else {
        token = bar.arrive();
    }
    bar.wait(std::move(token));
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        out[i] = smem[i];
    if (store) {
        cde::fence_proxy_async_shared_cta();
        __syncthreads();
        if (threadIdx.x == 0) {
            // the store without .tile (the load mode's default), as hand-written PTX has it
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                         :: "l"(&map), "r"(x + store), "r"(y + 1),
                            "r"((unsigned)__cvta_generic_to_shared(smem)) : "memory");
            cde::cp_async_bulk_commit_group();
            cde::cp_async_bulk_wait_group_read<0>();
        }
    }
}

static CUresult encode(CUtensorMap *m, void *g, cuuint64_t w, cuuint64_t h, cuuint32_t bw, cuuint32_t bh,
                       CUtensorMapSwizzle sw, CUtensorMapFloatOOBfill fill, CUtensorMapDataType t = CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                       cuuint64_t stride = 0)
{
    cuuint64_t dims[2] = { w, h }, strides[1] = { stride ? stride : w * 4 };
    cuuint32_t box[2] = { bw, bh }, es[2] = { 1, 1 };
    return cuTensorMapEncodeTiled(m, t, 2, g, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, fill);
}

static void show(const char *what, const unsigned *o, unsigned words)
{
    printf("%s:", what);
    for (unsigned i = 0; i < words + 4; i++) {
        float v;
        memcpy(&v, &o[i], 4);
        if (o[i] == 0xeeeeeeeeu)
            printf(" .");
        else
            printf(" %g", v);
    }
    printf("\n");
}

int main()
{
    CK(cudaFree(0));
    const int W = 40, H = 30;
    float *g;
    unsigned *dout;
    CK(cudaMalloc(&g, W * H * sizeof(float)));
    CK(cudaMalloc(&dout, 4096));
    static float h[W * H];
    for (int i = 0; i < W * H; i++)
        h[i] = (float)i;
    CK(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice));
    static unsigned o[1024];
    struct { const char *name; cuuint32_t bw, bh; CUtensorMapSwizzle sw; CUtensorMapFloatOOBfill fill; int x, y; } cases[] = {
        { "8x6 at 0,0", 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 0, 0 },
        { "8x6 at 4,2", 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 4, 2 },
        { "8x6 at 36,27 (edge)", 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 36, 27 },
        { "8x6 at -4,-2 (edge)", 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, -4, -2 },
        { "8x6 at 36,-4 NaN fill", 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, 36, -4 },
        { "8x8 at 4,3 swizzle 32B", 8, 8, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 4, 3 },
        { "32x8 at 8,3 swizzle 128B", 32, 8, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 8, 3 },
        { "32x8 at 12,25 swizzle 128B (edge)", 32, 8, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 12, 25 },
        { "16x16 at 20,10", 16, 16, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 20, 10 },
    };
    for (auto &c : cases) {
        alignas(64) CUtensorMap m;
        CUresult r = encode(&m, g, W, H, c.bw, c.bh, c.sw, c.fill);
        if (r) {
            printf("%s: encode failed %d\n", c.name, (int)r);
            continue;
        }
        unsigned bytes = c.bw * c.bh * 4;
        load<<<1, 64>>>(m, c.x, c.y, bytes, 0, dout);
        SAY(cudaDeviceSynchronize());
        CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
        show(c.name, o, bytes / 4);
    }
    // Errors.
    alignas(64) CUtensorMap bad;
    DK(encode(&bad, g, W, H, 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
              CU_TENSOR_MAP_DATA_TYPE_FLOAT32, W * 4 + 4));
    DK(encode(&bad, g, W, H, 5, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    DK(encode(&bad, g, W, H, 32, 6, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    DK(encode(&bad, g, W, H, 8, 300, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    DK(encode(&bad, g, W, H, 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
              CU_TENSOR_MAP_DATA_TYPE_INT32));
    DK(encode(&bad, (char *)g + 4, W, H, 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    // A box stored back four columns and one row further on.
    alignas(64) CUtensorMap m;
    DK(encode(&m, g, W, H, 8, 6, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    load<<<1, 64>>>(m, 28, 26, 8 * 6 * 4, 4, dout);
    SAY(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, g, sizeof h, cudaMemcpyDeviceToHost));
    printf("after the store:");
    for (int y = 26; y < 30; y++)
        for (int x = 30; x < 40; x++)
            printf(" %g", h[y * W + x]);
    printf("\n");
    // A store whose innermost coordinate is not at a 16-byte boundary (x = 29: 116 bytes)
    // is an illegal instruction on the H100; the error is sticky, so it comes last.
    load<<<1, 64>>>(m, 28, 20, 8 * 6 * 4, 1, dout);
    SAY(cudaDeviceSynchronize());
    return 0;
}
