// tex_query_istypep.cu: istypep.texref and .surfref of a texture and a surface object (one kind of query per module).
#include <cuda_runtime.h>

extern "C" __global__ void query(cudaTextureObject_t t, cudaSurfaceObject_t s, unsigned *o)
{
    unsigned r;
// Queries: txq and suq of every supported attribute, and istypep.
    asm volatile("{.reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(t)); o[12] = r;
    asm volatile("{.reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(t)); o[13] = r;
    asm volatile("{.reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(s)); o[14] = r;
    asm volatile("{.reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(s)); o[15] = r;
}
