// mempool.cu: stream-ordered allocation through memory pools: the device's default pool
// and its attributes, a pool the program creates (allocations from it, made the device's
// current pool, destroyed), attribute and access errors; also stream attributes (the
// access policy window, the synchronization policy) and the profiler calls.
#include "apps.h"
#include <cstdint>
#include <cuda_profiler_api.h>

__global__ void fill(unsigned *p, unsigned n, unsigned v)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

static unsigned long long attr64(cudaMemPool_t p, cudaMemPoolAttr a)
{
    unsigned long long v = 12345;
    SAY(cudaMemPoolGetAttribute(p, a, &v));
    return (unsigned long long)v;
}

int main()
{
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    SAY(cudaProfilerStart());
    cudaMemPool_t def, cur;
    CK(cudaDeviceGetDefaultMemPool(&def, 0));
    CK(cudaDeviceGetMemPool(&cur, 0));
    printf("current is default: %d\n", cur == def);
    int reuse = -1;
    SAY(cudaMemPoolGetAttribute(def, cudaMemPoolReuseFollowEventDependencies, &reuse));
    printf("follow event dependencies: %d\n", reuse);
    SAY(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    printf("opportunistic: %d\n", reuse);
    SAY(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowInternalDependencies, &reuse));
    printf("internal dependencies: %d\n", reuse);
    printf("release threshold: %llu\n", attr64(def, cudaMemPoolAttrReleaseThreshold));
    unsigned long long thr = UINT64_MAX;
    SAY(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr));
    printf("release threshold: %llu\n", attr64(def, cudaMemPoolAttrReleaseThreshold));
    reuse = 0;
    SAY(cudaMemPoolSetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    reuse = -1;
    SAY(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    printf("opportunistic: %d\n", reuse);
    unsigned long long one = 1;
    SAY(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &one));
    SAY(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &one));

    const unsigned n = 1 << 18;
    unsigned *a = nullptr;
    CK(cudaMallocAsync(&a, n * sizeof *a, s));
    fill<<<n / 256, 256, 0, s>>>(a, n, 7);
    unsigned long long used = attr64(def, cudaMemPoolAttrUsedMemCurrent);
    printf("used at least 1 MiB: %d\n", used >= (1u << 20));
    unsigned long long reserved = attr64(def, cudaMemPoolAttrReservedMemCurrent);
    printf("reserved at least used: %d\n", reserved >= used);
    unsigned h[4];
    CK(cudaMemcpyAsync(h, a + n - 4, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(a, s));
    CK(cudaStreamSynchronize(s));
    printf("a: %u %u %u %u\n", h[0], h[1], h[2], h[3]);
    printf("used after free: %llu\n", attr64(def, cudaMemPoolAttrUsedMemCurrent));
    SAY(cudaMemPoolTrimTo(def, 0));

    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CK(cudaMemPoolCreate(&mine, &props));
    printf("created is default: %d\n", mine == def);
    cudaMemAccessFlags fl = cudaMemAccessFlagsProtNone;
    cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };
    SAY(cudaMemPoolGetAccess(&fl, mine, &loc));
    printf("access: %d\n", (int)fl);
    unsigned *b = nullptr;
    CK(cudaMallocFromPoolAsync(&b, 4096 * sizeof *b, mine, s));
    fill<<<16, 256, 0, s>>>(b, 4096, 100);
    CK(cudaMemcpyAsync(h, b + 10, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    printf("b: %u %u %u %u\n", h[0], h[1], h[2], h[3]);
    printf("mine used at least 16 KiB: %d\n", attr64(mine, cudaMemPoolAttrUsedMemCurrent) >= 16384);
    CK(cudaFreeAsync(b, s));
    CK(cudaStreamSynchronize(s));
    printf("mine used after free: %llu\n", attr64(mine, cudaMemPoolAttrUsedMemCurrent));
    SAY(cudaDeviceSetMemPool(0, mine));
    CK(cudaDeviceGetMemPool(&cur, 0));
    printf("current is mine: %d\n", cur == mine);
    unsigned *c = nullptr;
    CK(cudaMallocAsync(&c, 1024, s));
    printf("mine used by cudaMallocAsync: %d\n", attr64(mine, cudaMemPoolAttrUsedMemCurrent) >= 1024);
    CK(cudaFreeAsync(c, s));
    CK(cudaStreamSynchronize(s));
    SAY(cudaDeviceSetMemPool(0, def));
    SAY(cudaMemPoolDestroy(mine));
    SAY(cudaMemPoolDestroy(def));

    // Stream attributes.
    cudaStreamAttrValue v = {};
    v.accessPolicyWindow.base_ptr = nullptr;
    v.accessPolicyWindow.num_bytes = 1 << 20;
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    SAY(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    cudaStreamAttrValue r = {};
    SAY(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &r));
    printf("window: %zu %.2f %d %d\n", r.accessPolicyWindow.num_bytes, r.accessPolicyWindow.hitRatio,
           (int)r.accessPolicyWindow.hitProp, (int)r.accessPolicyWindow.missProp);
    v.accessPolicyWindow.hitRatio = 2.0f;
    SAY(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    v = {};
    v.syncPolicy = cudaSyncPolicyYield;
    SAY(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    r = {};
    SAY(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &r));
    printf("sync policy: %d\n", (int)r.syncPolicy);
    SAY(cudaProfilerStop());
    CK(cudaStreamDestroy(s));
    return 0;
}
