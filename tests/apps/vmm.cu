// vmm.cu: virtual memory management through the driver API: the allocation granularity,
// an address range reserved, physical memory created and mapped twice (two addresses of
// one memory), read-write access, a kernel and copies through both addresses, unmapping,
// releasing, freeing the range, and the errors of misuse.
// link: -lcuda
#include "apps.h"
#include <cuda.h>

__global__ void fill(unsigned *p, unsigned n, unsigned v)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v * i + 1;
}

int main()
{
    CK(cudaFree(0));
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gran = 0, rec = 0;
    DK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    DK(cuMemGetAllocationGranularity(&rec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    printf("granularity %zu recommended %zu\n", gran, rec);
    size_t size = 2 * gran;
    CUdeviceptr va = 0;
    DK(cuMemAddressReserve(&va, 2 * size, 0, 0, 0));
    printf("reserved aligned: %d\n", va % gran == 0);
    CUmemGenericAllocationHandle h;
    DK(cuMemCreate(&h, size, &prop, 0));
    DK(cuMemCreate(&h, size + 1, &prop, 0));
    DK(cuMemMap(va, size, 0, h, 0));
    DK(cuMemMap(va + size, size, 0, h, 0));
    DK(cuMemMap(va + 1, size, 0, h, 0));
    CUmemAccessDesc acc = {};
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    acc.location.id = 0;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DK(cuMemSetAccess(va, 2 * size, &acc, 1));
    unsigned long long fl = 99;
    DK(cuMemGetAccess(&fl, &acc.location, va + 100));
    printf("access flags %llu\n", fl);
    const unsigned n = (unsigned)(size / 4);
    fill<<<(n + 255) / 256, 256>>>((unsigned *)va, n, 3);
    CK(cudaDeviceSynchronize());
    unsigned hbuf[4];
    CK(cudaMemcpy(hbuf, (const void *)(va + size + 4000), sizeof hbuf, cudaMemcpyDeviceToHost));
    printf("through the second address: %u %u %u %u\n", hbuf[0], hbuf[1], hbuf[2], hbuf[3]);
    unsigned v = 12345;
    CK(cudaMemcpy((void *)(va + size), &v, 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(hbuf, (const void *)va, 4, cudaMemcpyDeviceToHost));
    printf("through the first address: %u\n", hbuf[0]);
    CUmemGenericAllocationHandle h2;
    DK(cuMemRetainAllocationHandle(&h2, (void *)(va + 64)));
    printf("same handle: %d\n", h2 == h);
    DK(cuMemRelease(h2));
    DK(cuMemRelease(h));
    CK(cudaMemcpy(hbuf, (const void *)(va + 8), 4, cudaMemcpyDeviceToHost));
    printf("after the release, still mapped: %u\n", hbuf[0]);
    DK(cuMemFree(va));
    DK(cuMemUnmap(va, size));
    DK(cuMemUnmap(va + size, size));
    DK(cuMemAddressFree(va, 2 * size));
    return 0;
}
