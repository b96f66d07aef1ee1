// tma_reduce.cu: cp.reduce.async.bulk.tensor: a box of shared memory reduced into a tensor
// through a tensor map (tile mode) with .add on f32, f16 and s32 maps, .min and .max on s32
// and u32, .inc, .and, .or and .xor on u32, at the tensor's edges (elements outside are not
// written), from several CTAs at once (the adds accumulate), .add on an f16 map; last, a box
// at negative coordinates, which the H100 refuses (an illegal instruction).
// link: -lcuda
// target: -arch=sm_90
#include "apps.h"
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstring>

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// Every CTA fills an 8 x 8 box with values of (its index, the element) and reduces it into
// the tensor at (x, y) with the operation op (0 add, 1 min, 2 max, 3 inc, 4 and, 5 or, 6 xor).
template <typename T>
__global__ void reduce(const __grid_constant__ CUtensorMap map, int x, int y, int op, int kind)
{
    __shared__ alignas(128) T box[64];
    for (int i = threadIdx.x; i < 64; i += blockDim.x) {
        int v = (int)(blockIdx.x * 37 + i * 11) % 101 - 20;
        if (kind == 0) box[i] = (T)(float)v * (T)0.25f;
        else box[i] = (T)(unsigned)(v * 7919 + (int)blockIdx.x);
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        switch (op) {
        case 0: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                             :: "l"(&map), "r"(x), "r"(y), "r"(sa(box)) : "memory"); break;
        case 1: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%1, %2}], [%3];"
                             :: "l"(&map), "r"(x), "r"(y), "r"(sa(box)) : "memory"); break;
        case 2: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%0, {%1, %2}], [%3];"
                             :: "l"(&map), "r"(x), "r"(y), "r"(sa(box)) : "memory"); break;
        case 3: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group [%0, {%1, %2}], [%3];"
                             :: "l"(&map), "r"(x), "r"(y), "r"(sa(box)) : "memory"); break;
        case 4: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group [%0, {%1, %2}], [%3];"
                             :: "l"(&map), "r"(x), "r"(y), "r"(sa(box)) : "memory"); break;
        case 5: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group [%0, {%1, %2}], [%3];"
                             :: "l"(&map), "r"(x), "r"(y), "r"(sa(box)) : "memory"); break;
        default: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group [%0, {%1, %2}], [%3];"
                              :: "l"(&map), "r"(x), "r"(y), "r"(sa(box)) : "memory"); break;
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

template <typename T>
static void run(const char *name, CUtensorMapDataType dt, int op, int kind, int x, int y, int ctas, T init)
{
    const int W = 16, H = 12;
    T h[W * H];
    for (int i = 0; i < W * H; i++)
        h[i] = kind == 0 ? (T)(float)(i % 7) : (T)(unsigned)(i * 2654435761u >> 8);
    if (init != (T)0)
        for (int i = 0; i < W * H; i++)
            h[i] = init;
    T *g;
    CK(cudaMalloc(&g, sizeof h));
    CK(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice));
    alignas(64) CUtensorMap map;
    cuuint64_t dims[2] = { W, H }, strides[1] = { W * sizeof(T) };
    cuuint32_t box[2] = { 8, 8 }, es[2] = { 1, 1 };
    CUresult r = cuTensorMapEncodeTiled(&map, dt, 2, g, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        printf("%s: encode %d\n", name, (int)r);
        return;
    }
    reduce<T><<<ctas, 64>>>(map, x, y, op, kind);
    cudaError_t e = cudaDeviceSynchronize();
    CK(cudaMemcpy(h, g, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s at (%d,%d) x%d: %s\n", name, x, y, ctas, cudaGetErrorName(e));
    for (int row = 0; row < H; row++) {
        printf("  ");
        for (int col = 0; col < W; col++) {
            if (kind == 0)
                printf(" %g", (double)(float)h[row * W + col]);
            else {
                unsigned u;
                memcpy(&u, &h[row * W + col], 4);
                printf(" %x", u);
            }
        }
        printf("\n");
    }
    CK(cudaFree(g));
}

int main()
{
    CK(cudaFree(0));
    run<float>("f32 add", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 0, 0, 4, 2, 3, 0.f);
    run<float>("f32 add edge", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 0, 0, 12, 8, 2, 0.f);
    run<int>("s32 add", CU_TENSOR_MAP_DATA_TYPE_INT32, 0, 1, 0, 0, 4, 0);
    run<int>("s32 min", CU_TENSOR_MAP_DATA_TYPE_INT32, 1, 1, 8, 4, 3, 0);
    run<int>("s32 max", CU_TENSOR_MAP_DATA_TYPE_INT32, 2, 1, 8, 4, 3, 0);
    run<unsigned>("u32 min", CU_TENSOR_MAP_DATA_TYPE_UINT32, 1, 1, 4, 4, 3, 0u);
    run<unsigned>("u32 inc", CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, 1, 0, 0, 1, 0u);
    run<unsigned>("u32 and", CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, 1, 8, 0, 2, 0u);
    run<unsigned>("u32 or", CU_TENSOR_MAP_DATA_TYPE_UINT32, 5, 1, 0, 4, 2, 0u);
    run<unsigned>("u32 xor", CU_TENSOR_MAP_DATA_TYPE_UINT32, 6, 1, 8, 8, 3, 0u);
    run<__half>("f16 add", CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 0, 0, 8, 2, 2, (__half)0.f);
    // a box that starts before the tensor: an illegal instruction on the H100 (last)
    run<float>("f32 add before the start", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 0, 0, -4, -2, 2, 0.f);
    return 0;
}
