// bulk_reduce.cu: cp.reduce.async.bulk from shared memory into global memory (bulk_group)
// with add, min, max, and, or, xor, inc and dec on 32- and 64-bit integers, add on f32 and
// f64, add on f16 (.noftz) and min on bf16, every CTA reducing into the same words (the
// float values are such that any order gives the same sums).  (The
// shared::cluster form into the CTA's own shared memory is an illegal instruction on the
// H100 in a launch without clusters.)  in: 256 random words; out: 14 regions of 64 bytes.
#include <cstdint>
#include <cuda_fp16.h>
#define RED(OPTYPE, off)                                                                                  \
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." OPTYPE " [%0], [%1], 64;"          \
                 :: "l"((char *)out + (off) * 64), "r"(s + (off) * 64) : "memory")

extern "C" __global__ void bulk_reduce(const unsigned *in, unsigned *out)
{
    __shared__ __align__(128) unsigned src[16 * 16];
    unsigned t = threadIdx.x, c = blockIdx.x;
    for (unsigned i = t; i < 256; i += blockDim.x) {
        unsigned v = in[i] ^ (c * 0x9e3779b9u);
        unsigned region = i / 16;
        if (region == 9 || region == 10)   /* f32 and f64 regions: small values */
            v = region == 9 ? __float_as_uint((float)(v % 1000) * 0.125f) : (i % 2 ? 0x40000000u + (v % 4096) : 0);
        if (region == 6)                   /* inc bounds: never reached, any order */
            v = 50 + v % 50;
        if (region == 7)                   /* dec: the same bound in every CTA, any order */
            v = 0xfffff000u + i;
        if (region == 11)                  /* f16 pairs, sums exact in any order */
            v = __half_as_ushort(__float2half((float)(v % 64) * 0.25f)) |
                (unsigned)__half_as_ushort(__float2half((float)(v / 64 % 64) * 0.5f)) << 16;
        if (region == 12)                  /* bf16 pairs, no NaN */
            v = (__float_as_uint((float)((int)(v % 200) - 100)) >> 16) |
                (__float_as_uint((float)((int)(v / 200 % 200) - 100)) & 0xffff0000u);
        src[i] = v;
    }
    unsigned s = (unsigned)__cvta_generic_to_shared(src);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        RED("add.u32", 0);
        RED("min.s32", 1);
        RED("max.u32", 2);
        RED("and.b32", 3);
        RED("or.b64", 4);
        RED("xor.b64", 5);
        RED("inc.u32", 6);
        RED("dec.u32", 7);
        RED("add.u64", 8);
        RED("add.f32", 9);
        RED("add.f64", 10);
        RED("add.noftz.f16", 11);
        RED("min.bf16", 12);
        RED("max.s64", 13);
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}
