// tma_reduce_ops.cu: the Tensor Memory Accelerator's reductions and prefetch:
// cp.reduce.async.bulk.tensor of a 2D box in shared memory into a tensor in global memory
// with every operation (f32 add, s32 add, min, max, and, or, xor, u32 inc, dec, min, max;
// f32 min and max last, as the tensor map's type may not have them), boxes inside the
// tensor and across its far edges (elements outside are not written), a box starting
// before the tensor (last), and cp.async.bulk.prefetch.tensor (a hint: nothing changes).
// link: -lcuda
// target: -arch=sm_90
#include "apps.h"
#include <cuda.h>
#include <cstring>

enum { ADD_F, MIN_F, MAX_F, ADD_S, MIN_S, MAX_S, INC_U, DEC_U, AND_B, OR_B, XOR_B, MIN_U, MAX_U, PREFETCH };

// Fill a 8x6 box of shared memory with values of the thread index, then reduce it into
// the tensor at (x, y) with operation op.
__global__ void reduce(const __grid_constant__ CUtensorMap map, int x, int y, int op)
{
    __shared__ alignas(128) unsigned smem[48];
    for (int i = threadIdx.x; i < 48; i += blockDim.x) {
        float f = (float)(i * 7 % 13) - 5.5f;
        int s = i * 37 % 101 - 50;
        smem[i] = op <= MAX_F ? __float_as_uint(f) : op == INC_U || op == DEC_U ? (unsigned)(i % 5 + 3) : (unsigned)s;
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    const void *m = &map;
#define RED(OPS) asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." OPS ".tile.bulk_group [%0, {%1, %2}], [%3];" \
                              :: "l"(m), "r"(x), "r"(y), "r"(s) : "memory")
    switch (op) {
    case ADD_F: case ADD_S: RED("add"); break;
    case MIN_F: case MIN_S: case MIN_U: RED("min"); break;
    case MAX_F: case MAX_S: case MAX_U: RED("max"); break;
    case INC_U: RED("inc"); break;
    case DEC_U: RED("dec"); break;
    case AND_B: RED("and"); break;
    case OR_B: RED("or"); break;
    case XOR_B: RED("xor"); break;
    case PREFETCH:
        asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" :: "l"(m), "r"(x), "r"(y) : "memory");
        break;
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

static CUresult encode(CUtensorMap *m, void *g, cuuint64_t w, cuuint64_t h, CUtensorMapDataType t)
{
    cuuint64_t dims[2] = { w, h }, strides[1] = { w * 4 };
    cuuint32_t box[2] = { 8, 6 }, es[2] = { 1, 1 };
    return cuTensorMapEncodeTiled(m, t, 2, g, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

int main()
{
    CK(cudaFree(0));
    const int W = 20, H = 12;
    unsigned *g;
    CK(cudaMalloc(&g, W * H * 4));
    static unsigned h[W * H];
    struct { const char *name; int op; CUtensorMapDataType t; int x, y; } cases[] = {
        { "f32 add at 4,2", ADD_F, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 2 },
        { "s32 add at 8,4", ADD_S, CU_TENSOR_MAP_DATA_TYPE_INT32, 8, 4 },
        { "s32 min at 0,0", MIN_S, CU_TENSOR_MAP_DATA_TYPE_INT32, 0, 0 },
        { "s32 max at 12,6", MAX_S, CU_TENSOR_MAP_DATA_TYPE_INT32, 12, 6 },
        { "u32 inc at 4,4", INC_U, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, 4 },
        { "u32 dec at 8,1", DEC_U, CU_TENSOR_MAP_DATA_TYPE_UINT32, 8, 1 },
        { "b32 and at 0,6", AND_B, CU_TENSOR_MAP_DATA_TYPE_INT32, 0, 6 },
        { "b32 or at 16,0 (edge)", OR_B, CU_TENSOR_MAP_DATA_TYPE_INT32, 16, 0 },
        { "b32 xor at 4,8", XOR_B, CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 8 },
        { "u32 min at 8,3", MIN_U, CU_TENSOR_MAP_DATA_TYPE_UINT32, 8, 3 },
        { "u32 max at 0,2", MAX_U, CU_TENSOR_MAP_DATA_TYPE_UINT32, 0, 2 },
        { "prefetch at 4,4", PREFETCH, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 4 },
        { "f32 add at 16,9 (edge)", ADD_F, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 16, 9 },
        // last, as errors are sticky: min and max of floats (an operation the data type may
        // lack), and a box starting before the tensor (an illegal instruction on the H200)
        { "f32 min at 16,9 (edge)", MIN_F, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 16, 9 },
        { "f32 max at 4,2", MAX_F, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 2 },
        { "f32 add at -4,-3 (edge)", ADD_F, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, -4, -3 },
    };
    for (auto &c : cases) {
        // the tensor before: floats i - 100.25 for f32, i * 3 - 300 for the integers (u32: i * 5)
        for (int i = 0; i < W * H; i++) {
            float f = (float)i - 100.25f;
            h[i] = c.t == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 ? *(unsigned *)&f
                 : c.t == CU_TENSOR_MAP_DATA_TYPE_UINT32 ? (unsigned)(i * 5) : (unsigned)(i * 3 - 300);
        }
        CK(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice));
        alignas(64) CUtensorMap m;
        CUresult r = encode(&m, g, W, H, c.t);
        if (r) {
            printf("%s: encode failed %d\n", c.name, (int)r);
            continue;
        }
        reduce<<<1, 64>>>(m, c.x, c.y, c.op);
        SAY(cudaDeviceSynchronize());
        CK(cudaMemcpy(h, g, sizeof h, cudaMemcpyDeviceToHost));
        printf("%s:", c.name);
        for (int i = 0; i < W * H; i++) {
            if (c.t == CU_TENSOR_MAP_DATA_TYPE_FLOAT32)
                printf(" %g", *(float *)&h[i]);
            else if (c.t == CU_TENSOR_MAP_DATA_TYPE_UINT32)
                printf(" %u", h[i]);
            else
                printf(" %d", (int)h[i]);
        }
        printf("\n");
    }
    return 0;
}
