// addr_range.cu: cuMemGetAddressRange of every kind of memory (Numba sizes mapped arrays
// with it): device and managed allocations, pinned host memory with and without
// CU_MEMHOSTALLOC_DEVICEMAP (its host and device pointers, and inside it), registered host
// memory, a pointer that is no allocation.
// link: -lcuda
#include "apps.h"
#include <cuda.h>
#include <cstdlib>

static void range(const char *what, CUdeviceptr p, CUdeviceptr want)
{
    CUdeviceptr base = 0;
    size_t size = 0;
    CUresult r = cuMemGetAddressRange(&base, &size, p);
    const char *n = nullptr;
    cuGetErrorName(r, &n);
    printf("%s: %s, base %s, size %zu\n", what, n ? n : "?", r ? "-" : base == want ? "the allocation's" : "other",
           r ? (size_t)0 : size);
}

int main()
{
    CUdevice d;
    CUcontext c;
    CUdeviceptr dev, man, dp;
    void *pinned, *mapped, *reg;
    DK(cuInit(0));
    DK(cuDeviceGet(&d, 0));
    DK(cuDevicePrimaryCtxRetain(&c, d));
    DK(cuCtxSetCurrent(c));
    DK(cuMemAlloc(&dev, 1000));
    DK(cuMemAllocManaged(&man, 3000, CU_MEM_ATTACH_GLOBAL));
    DK(cuMemAllocHost(&pinned, 5000));
    DK(cuMemHostAlloc(&mapped, 7000, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    DK(cuMemHostGetDevicePointer(&dp, mapped, 0));
    printf("mapped device pointer is the host pointer: %s\n", dp == (CUdeviceptr)mapped ? "yes" : "no");
    reg = aligned_alloc(4096, 8192);
    DK(cuMemHostRegister(reg, 8192, 0));
    range("device", dev + 10, dev);
    range("managed", man + 10, man);
    range("pinned", (CUdeviceptr)pinned + 10, (CUdeviceptr)pinned);
    range("mapped (host pointer)", (CUdeviceptr)mapped + 10, (CUdeviceptr)mapped);
    range("mapped (device pointer)", dp + 10, dp);
    range("registered", (CUdeviceptr)reg + 10, (CUdeviceptr)reg);
    range("no allocation", (CUdeviceptr)&d, 0);
    DK(cuMemHostUnregister(reg));
    free(reg);
    DK(cuMemFreeHost(mapped));
    DK(cuMemFreeHost(pinned));
    DK(cuMemFree(man));
    DK(cuMemFree(dev));
    return 0;
}
