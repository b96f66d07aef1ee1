// ctx_current.cu: driver calls made with no context current, and with the primary context
// after cuDevicePrimaryCtxReset, as Numba's CUDA target makes them (it pops its context
// before freeing what is left, and pushes the reset primary context again): which calls
// find their context from their pointer or object and which need a current one.
// link: -lcuda
#include "apps.h"
#include <cuda.h>

int main()
{
    CUdevice dev;
    CUcontext ctx, cur;
    CUdeviceptr a, b, c;
    char host[64] = { 0 };
    size_t freeb, total;
    DK(cuInit(0));
    DK(cuDeviceGet(&dev, 0));
    DK(cuDevicePrimaryCtxRetain(&ctx, dev));
    DK(cuCtxPushCurrent(ctx));
    DK(cuMemAlloc(&a, 256));
    DK(cuMemAlloc(&b, 256));
    DK(cuMemAlloc(&c, 256));
    DK(cuMemsetD8(a, 7, 256));
    DK(cuCtxPopCurrent(&cur));
    printf("popped the primary context: %s\n", cur == ctx ? "yes" : "no");
    DK(cuCtxGetCurrent(&cur));
    printf("current: %s\n", cur ? "some" : "none");
    // No context current.
    DK(cuMemcpyDtoH(host, a, 64));
    printf("host[0] = %d\n", host[0]);
    DK(cuMemsetD8(b, 1, 256));
    DK(cuMemGetInfo(&freeb, &total));
    CUdeviceptr d;
    DK(cuMemAlloc(&d, 256));
    CUcontext pc = nullptr;
    DK(cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, a));
    printf("pointer's context is the primary: %s\n", pc == ctx ? "yes" : "no");
    DK(cuMemFree(a));
    DK(cuMemFree(a));
    DK(cuCtxSynchronize());
    // The primary context after a reset, made current again without a retain.
    DK(cuDevicePrimaryCtxReset(dev));
    unsigned flags;
    int active;
    DK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("active after the reset: %d\n", active);
    DK(cuMemFree(b));
    DK(cuCtxPushCurrent(ctx));
    DK(cuMemAlloc(&d, 256));
    DK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("active after an allocation: %d\n", active);
    DK(cuCtxSynchronize());
    DK(cuMemFree(d));
    DK(cuCtxPopCurrent(&cur));
    DK(cuDevicePrimaryCtxRetain(&cur, dev));
    printf("retained the same handle: %s\n", cur == ctx ? "yes" : "no");
    DK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("active after the retain: %d\n", active);
    DK(cuCtxPushCurrent(ctx));
    DK(cuMemAlloc(&d, 256));
    DK(cuMemFree(d));
    DK(cuMemFree(c));
    // Objects of the context used after it was popped: streams, events, a module, pinned memory.
    CUstream s;
    CUevent e;
    CUmodule m;
    CUfunction f;
    void *pinned;
    static const char ptx[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                              ".visible .entry k()\n{\n\tret;\n}\n";
    DK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    DK(cuEventCreate(&e, 0));
    DK(cuModuleLoadData(&m, ptx));
    DK(cuMemAllocHost(&pinned, 4096));
    DK(cuCtxPopCurrent(&cur));
    DK(cuStreamQuery(s));
    DK(cuStreamSynchronize(s));
    DK(cuEventRecord(e, s));
    DK(cuEventSynchronize(e));
    DK(cuEventQuery(e));   // after the synchronisation: done
    DK(cuModuleGetFunction(&f, m, "k"));
    DK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr));
    DK(cuMemFreeHost(pinned));
    DK(cuModuleUnload(m));
    DK(cuEventDestroy(e));
    DK(cuStreamDestroy(s));
    DK(cuMemAllocHost(&pinned, 4096));
    DK(cuDevicePrimaryCtxRelease(dev));
    DK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
