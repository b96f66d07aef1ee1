// tex_query_txq.cu: txq of every supported attribute (one kind of query per module).
#include <cuda_runtime.h>

extern "C" __global__ void query(cudaTextureObject_t t, cudaSurfaceObject_t s, unsigned *o)
{
    unsigned r;
    asm volatile("txq.width.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[0] = r;
    asm volatile("txq.height.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[1] = r;
    asm volatile("txq.depth.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[2] = r;
    asm volatile("txq.normalized_coords.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[3] = r;
    asm volatile("txq.array_size.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[4] = r;
    asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[5] = r;
    asm volatile("txq.level.width.b32 %0, [%1], 1;" : "=r"(r) : "l"(t)); o[6] = r;
    asm volatile("txq.level.height.b32 %0, [%1], 2;" : "=r"(r) : "l"(t)); o[7] = r;
}
