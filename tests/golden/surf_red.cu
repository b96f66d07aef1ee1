// surf_red.cu: surface golden tests/golden/surf_red.cmd (one kernel per module: the
// driver JIT refuses a module that also holds the query kernel).
#include <cuda_runtime.h>

// sured: reductions of every thread onto a few elements.
extern "C" __global__ void red(cudaSurfaceObject_t s, cudaSurfaceObject_t s64)
{
    int x = threadIdx.x;
    unsigned v = x * 7 + 1;
    asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" :: "l"(s), "r"(0), "r"(v));
    asm volatile("sured.b.min.1d.u32.trap [%0, {%1}], %2;" :: "l"(s), "r"(4), "r"(v + 100));
    asm volatile("sured.b.max.1d.s32.trap [%0, {%1}], %2;" :: "l"(s), "r"(8), "r"((int)(v - 100)));
    asm volatile("sured.b.and.1d.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(12), "r"(~(1u << (x & 31))));
    asm volatile("sured.b.or.1d.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(16), "r"(1u << (x % 29)));
    asm volatile("sured.b.min.1d.s32.clamp [%0, {%1}], %2;" :: "l"(s), "r"(1000), "r"(-(int)v));
    asm volatile("sured.b.add.1d.u64.trap [%0, {%1}], %2;" :: "l"(s64), "r"(0), "l"((unsigned long long)v << 33));
    asm volatile("sured.b.max.1d.s64.zero [%0, {%1}], %2;" :: "l"(s64), "r"(8), "l"(-(long long)v));
    asm volatile("sured.b.max.1d.u64.zero [%0, {%1}], %2;" :: "l"(s64), "r"(800), "l"((unsigned long long)v));
}
