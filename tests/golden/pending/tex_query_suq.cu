// tex_query_suq.cu: suq of every supported attribute (one kind of query per module).
#include <cuda_runtime.h>

extern "C" __global__ void query(cudaTextureObject_t t, cudaSurfaceObject_t s, unsigned *o)
{
    unsigned r;
    asm volatile("suq.width.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[8] = r;
    asm volatile("suq.height.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[9] = r;
    asm volatile("suq.depth.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[10] = r;
    asm volatile("suq.array_size.b32 %0, [%1];" : "=r"(r) : "l"(s)); o[11] = r;
}
