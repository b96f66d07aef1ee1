// managed: __managed__ variables with initialisers read by the host before any other
// CUDA call, cudaMallocManaged memory touched by host and device in turn, the attach
// flags, prefetch and advice (which change no result), pointer attributes of managed memory.
#include "apps.h"

__managed__ int mval = 7;
__managed__ float mvec[16];

__global__ void k(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = p[i] * 2 + mval;
    if (i < 16)
        mvec[i] = i * 1.5f + mval;
}

__global__ void bump() { mval += 100; }

int main()
{
    printf("mval before any CUDA call: %d\n", mval);
    const int n = 1000;
    int *p;
    CK(cudaMallocManaged(&p, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        p[i] = i - 300;
    k<<<(n + 127) / 128, 128>>>(p, n);
    CK(cudaDeviceSynchronize());
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += (long long)p[i] * (i + 1);
    printf("p: %d %d %d, weighted sum %lld\n", p[0], p[500], p[999], s);
    printf("mvec: %g %g %g\n", mvec[0], mvec[1], mvec[15]);
    mval = 40;
    bump<<<1, 1>>>();
    CK(cudaDeviceSynchronize());
    printf("mval after host 40 and a kernel +100: %d\n", mval);

    int *q;
    CK(cudaMallocManaged(&q, 64 * sizeof(int), cudaMemAttachHost));
    for (int i = 0; i < 64; i++)
        q[i] = i;
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    CK(cudaStreamAttachMemAsync(st, q, 0, cudaMemAttachSingle));
    k<<<1, 64, 0, st>>>(q, 64);
    CK(cudaStreamSynchronize(st));
    printf("q: %d %d\n", q[0], q[63]);

    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    CK(cudaMemAdvise(p, n * sizeof(int), cudaMemAdviseSetReadMostly, loc));
    CK(cudaMemPrefetchAsync(p, n * sizeof(int), loc, 0, st));
    k<<<(n + 127) / 128, 128, 0, st>>>(p, n);
    loc.type = cudaMemLocationTypeHost;
    CK(cudaMemPrefetchAsync(p, n * sizeof(int), loc, 0, st));
    CK(cudaStreamSynchronize(st));
    printf("after prefetches: p[0] %d p[999] %d\n", p[0], p[999]);

    int ra[3];
    CK(cudaMemRangeGetAttribute(&ra[0], 4, cudaMemRangeAttributeReadMostly, p, n * sizeof(int)));
    CK(cudaMemRangeGetAttribute(&ra[1], 4, cudaMemRangeAttributePreferredLocation, p, n * sizeof(int)));
    CK(cudaMemRangeGetAttribute(&ra[2], 4, cudaMemRangeAttributeLastPrefetchLocation, p, n * sizeof(int)));
    printf("range: read mostly %d, preferred %d, last prefetch %d\n", ra[0], ra[1], ra[2]);
    loc.type = cudaMemLocationTypeDevice;
    CK(cudaMemAdvise(p, n * sizeof(int), cudaMemAdviseSetPreferredLocation, loc));
    CK(cudaMemAdvise(p, n * sizeof(int), cudaMemAdviseSetAccessedBy, loc));
    int acc[2];
    CK(cudaMemRangeGetAttribute(&ra[1], 4, cudaMemRangeAttributePreferredLocation, p, n * sizeof(int)));
    CK(cudaMemRangeGetAttribute(acc, 8, cudaMemRangeAttributeAccessedBy, p, n * sizeof(int)));
    printf("range: preferred %d, accessed by %d %d\n", ra[1], acc[0], acc[1]);
    int x;
    SAY(cudaMemAdvise(&x, 4, cudaMemAdviseSetReadMostly, loc));
    cudaPointerAttributes a;
    CK(cudaPointerGetAttributes(&a, p));
    printf("managed attributes: type %d device %d host==p %d device==p %d\n", (int)a.type, a.device,
           a.hostPointer == p, a.devicePointer == p);
    int attr;
    CK(cudaDeviceGetAttribute(&attr, cudaDevAttrManagedMemory, 0));
    printf("managed memory %d\n", attr);
    CK(cudaDeviceGetAttribute(&attr, cudaDevAttrConcurrentManagedAccess, 0));
    printf("concurrent managed access %d\n", attr);
    CK(cudaFree(q));
    CK(cudaFree(p));
    CK(cudaStreamDestroy(st));
    return 0;
}
