// legacy_ptx: PTX as CUDA 4's compiler wrote it (.version 1.4, .target sm_10), loaded through
// the driver API as NVIDIA's sample matrixMulDynlinkJIT loads its kernels: special registers
// read directly as 16 bits (cvt.u32.u16 %r1, %tid.x), mad.f32 without a rounding modifier,
// and single-precision instructions that flush subnormals on those targets.  Inputs: random
// values, products whose fused and separate roundings differ, subnormals in and out,
// overflow and NaN; the results' bits are printed.
// link: -lcuda
#include "apps.h"
#include <cuda.h>
#include <cmath>
#include <cstring>

static const char ptx[] =
    "	.version 1.4\n"
    "	.target sm_10, map_f64_to_f32\n"
    "\n"
    "	.entry k (\n"
    "		.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po)\n"
    "	{\n"
    "	.reg .u32 %r<4>;\n"
    "	.reg .u64 %rd<12>;\n"
    "	.reg .f32 %f<12>;\n"
    "	cvt.u32.u16 	%r1, %tid.x;\n"
    "	cvt.u64.u32 	%rd1, %r1;\n"
    "	mul.lo.u64 	%rd2, %rd1, 4;\n"
    "	ld.param.u64 	%rd3, [pa];\n"
    "	ld.param.u64 	%rd4, [pb];\n"
    "	ld.param.u64 	%rd5, [pc];\n"
    "	ld.param.u64 	%rd6, [po];\n"
    "	add.u64 	%rd7, %rd3, %rd2;\n"
    "	add.u64 	%rd8, %rd4, %rd2;\n"
    "	add.u64 	%rd9, %rd5, %rd2;\n"
    "	ld.global.f32 	%f1, [%rd7+0];\n"
    "	ld.global.f32 	%f2, [%rd8+0];\n"
    "	ld.global.f32 	%f3, [%rd9+0];\n"
    "	mad.f32 	%f4, %f1, %f2, %f3;\n"
    "	add.f32 	%f5, %f1, %f3;\n"
    "	mul.f32 	%f6, %f1, %f2;\n"
    "	sub.f32 	%f7, %f1, %f3;\n"
    "	mul.lo.u64 	%rd10, %rd1, 16;\n"
    "	add.u64 	%rd11, %rd6, %rd10;\n"
    "	st.global.f32 	[%rd11+0], %f4;\n"
    "	st.global.f32 	[%rd11+4], %f5;\n"
    "	st.global.f32 	[%rd11+8], %f6;\n"
    "	st.global.f32 	[%rd11+12], %f7;\n"
    "	exit;\n"
    "	}\n"
    "\n"
    "	.entry k2 (\n"
    "		.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po)\n"
    "	{\n"
    "	.reg .u32 %r<4>;\n"
    "	.reg .u64 %rd<12>;\n"
    "	.reg .f32 %f<14>;\n"
    "	.reg .pred %p<2>;\n"
    "	cvt.u32.u16 	%r1, %tid.x;\n"
    "	cvt.u64.u32 	%rd1, %r1;\n"
    "	mul.lo.u64 	%rd2, %rd1, 4;\n"
    "	ld.param.u64 	%rd3, [pa];\n"
    "	ld.param.u64 	%rd4, [pb];\n"
    "	ld.param.u64 	%rd5, [pc];\n"
    "	ld.param.u64 	%rd6, [po];\n"
    "	add.u64 	%rd7, %rd3, %rd2;\n"
    "	add.u64 	%rd8, %rd4, %rd2;\n"
    "	add.u64 	%rd9, %rd5, %rd2;\n"
    "	ld.global.f32 	%f1, [%rd7+0];\n"
    "	ld.global.f32 	%f2, [%rd8+0];\n"
    "	ld.global.f32 	%f3, [%rd9+0];\n"
    "	div.approx.f32 	%f4, %f1, %f2;\n"
    "	min.f32 	%f5, %f1, %f3;\n"
    "	max.f32 	%f6, %f1, %f3;\n"
    "	sqrt.approx.f32 	%f7, %f1;\n"
    "	rcp.approx.f32 	%f8, %f2;\n"
    "	abs.f32 	%f9, %f1;\n"
    "	neg.f32 	%f10, %f1;\n"
    "	setp.lt.f32 	%p1, %f1, %f3;\n"
    "	selp.f32 	%f11, 0f3F800000, 0f00000000, %p1;\n"
    "	cvt.rzi.s32.f32 	%r2, %f1;\n"
    "	cvt.rn.f32.s32 	%f12, %r2;\n"
    "	mov.b32 	%r3, %f12;\n"
    "	mul.lo.u64 	%rd10, %rd1, 16;\n"
    "	add.u64 	%rd11, %rd6, %rd10;\n"
    "	st.global.f32 	[%rd11+0], %f4;\n"
    "	st.global.f32 	[%rd11+4], %f5;\n"
    "	st.global.f32 	[%rd11+8], %f6;\n"
    "	st.global.f32 	[%rd11+12], %f7;\n"
    "	add.u64 	%rd11, %rd11, 1024;\n"
    "	st.global.f32 	[%rd11+0], %f8;\n"
    "	st.global.f32 	[%rd11+4], %f9;\n"
    "	st.global.f32 	[%rd11+8], %f10;\n"
    "	st.global.f32 	[%rd11+12], %f11;\n"
    "	add.u64 	%rd11, %rd11, 1024;\n"
    "	st.global.u32 	[%rd11+0], %r2;\n"
    "	st.global.f32 	[%rd11+4], %f12;\n"
    "	exit;\n"
    "	}\n"
    "\n";

#define N 64

static void run(CUmodule m, const char *name, CUdeviceptr *bufs, int words)
{
    CUfunction fn;
    DK(cuModuleGetFunction(&fn, m, name));
    void *p[] = { &bufs[0], &bufs[1], &bufs[2], &bufs[3] };
    DK(cuLaunchKernel(fn, 1, 1, 1, N, 1, 1, 0, 0, p, 0));
    DK(cuCtxSynchronize());
    unsigned o[12 * N];
    memset(o, 0, sizeof o);
    DK(cuMemcpyDtoH(o, bufs[3], words * 4));
    for (int i = 0; i < N; i++) {
        printf("%s %2d:", name, i);
        for (int k = 0; k < words / N; k++)
            printf(" %08x", o[(k / 4) * 4 * N + 4 * i + k % 4]);
        printf("\n");
    }
}

int main()
{
    float a[N], b[N], c[N];
    srand(7);
    for (int i = 0; i < N; i++) {
        a[i] = (float)rand() / RAND_MAX * 4 - 2;
        b[i] = (float)rand() / RAND_MAX * 4 - 2;
        c[i] = (float)rand() / RAND_MAX * 4 - 2;
    }
    for (int i = 16; i < 24; i++) {   // a * b = 1 - 2^-2k exactly: fused and separate differ
        a[i] = 1.0f + ldexpf(1, -12 - (i - 16));
        b[i] = 1.0f - ldexpf(1, -12 - (i - 16));
        c[i] = -1.0f;
    }
    for (int i = 24; i < 32; i++) {
        a[i] = 1.0f + ldexpf(3, -23 + (i - 24));
        b[i] = 1.0f + ldexpf(5, -22);
        c[i] = ldexpf(1, -30);
    }
    const float sub[8] = { 1e-39f, -1e-39f, 1e-40f, 5e-45f, 1e-38f, 1.2e-38f, 1e-20f, 3e-20f };
    for (int i = 32; i < 48; i++) {   // subnormals in and out
        a[i] = sub[(i - 32) % 8];
        b[i] = i < 40 ? 1.0f : 1e-19f;
        c[i] = i % 2 ? 0.0f : 1e-39f;
    }
    for (int i = 48; i < 56; i++) {
        a[i] = 1.5e-38f;
        b[i] = 0.5f;
        c[i] = -1.17e-38f;
    }
    for (int i = 56; i < 64; i++) {   // overflow, infinity, NaN
        a[i] = ldexpf(1, 127);
        b[i] = 2.0f + i;
        c[i] = i % 2 ? -INFINITY : NAN;
    }
    CUdevice d;
    CUcontext x;
    CUmodule m;
    DK(cuInit(0));
    DK(cuDeviceGet(&d, 0));
    DK(cuCtxCreate(&x, NULL, 0, d));
    DK(cuModuleLoadData(&m, ptx));
    CUdeviceptr bufs[4];
    DK(cuMemAlloc(&bufs[0], sizeof a));
    DK(cuMemAlloc(&bufs[1], sizeof b));
    DK(cuMemAlloc(&bufs[2], sizeof c));
    DK(cuMemAlloc(&bufs[3], 12 * N * 4));
    DK(cuMemcpyHtoD(bufs[0], a, sizeof a));
    DK(cuMemcpyHtoD(bufs[1], b, sizeof b));
    DK(cuMemcpyHtoD(bufs[2], c, sizeof c));
    run(m, "k", bufs, 4 * N);
    run(m, "k2", bufs, 10 * N);
    DK(cuModuleUnload(m));
    DK(cuCtxDestroy(x));
    return 0;
}
