// streams: streams (blocking, non-blocking, with priorities), events and cross-stream
// waits, host functions in stream order, asynchronous copies and sets, every memcpy kind,
// pinned, mapped and registered host memory, pitched 2D and 3D memory and their copies.
#include "apps.h"
#include <cstring>

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

__global__ void add_from(int *dst, const int *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] += 3 * src[i];
}

__global__ void spin_then_fill(int *p, int n, int v)
{
    // a long kernel, so that a missing dependency would show
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = i;
    for (int k = 0; k < 2000; k++)
        x = x * 1664525u + 1013904223u;
    if (i < n)
        p[i] = v + (int)(x & 1) * 0 + i;
}

static char hlog[256];
static void CUDART_CB note(void *s) { strcat(hlog, (const char *)s); }

static long long sum(const int *h, int n)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 3 + h[i];
    return s;
}

int main()
{
    const int n = 4096;
    int lo, hi;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    printf("priority range: least %d greatest %d\n", lo, hi);
    cudaStream_t s1, s2, s3;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithPriority(&s3, cudaStreamDefault, hi));
    int pr;
    unsigned fl;
    CK(cudaStreamGetPriority(s3, &pr));
    CK(cudaStreamGetFlags(s2, &fl));
    printf("s3 priority %d, s2 flags %u\n", pr, fl);

    int *a, *b, *h;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMallocHost(&h, n * sizeof(int)));

    // s1 fills a (slowly), s2 waits for it through an event and adds it into b
    cudaEvent_t e, t0, t1;
    CK(cudaEventCreate(&e));
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventRecord(t0, s1));
    spin_then_fill<<<n / 256, 256, 0, s1>>>(a, n, 1000);
    CK(cudaLaunchHostFunc(s1, note, (void *)"A"));
    CK(cudaEventRecord(e, s1));
    fill<<<n / 256, 256, 0, s2>>>(b, n, 7);
    CK(cudaStreamWaitEvent(s2, e, 0));
    CK(cudaLaunchHostFunc(s2, note, (void *)"B"));
    add_from<<<n / 256, 256, 0, s2>>>(b, a, n);
    CK(cudaMemcpyAsync(h, b, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CK(cudaEventRecord(t1, s2));
    CK(cudaLaunchHostFunc(s2, note, (void *)"C"));
    CK(cudaStreamSynchronize(s2));
    CK(cudaEventSynchronize(t1));
    float ms = -1;
    CK(cudaEventElapsedTime(&ms, t0, t1));
    printf("b = 7+i + 3(1000+i): %d %d %d, checksum %lld, elapsed >= 0: %d\n", h[0], h[1], h[n - 1], sum(h, n),
           ms >= 0);
    CK(cudaDeviceSynchronize());
    printf("host functions ran: %s\n", hlog);
    printf("query s1 %s, event %s\n", cudaGetErrorName(cudaStreamQuery(s1)), cudaGetErrorName(cudaEventQuery(e)));

    // the legacy default stream orders against the blocking stream s1
    fill<<<n / 256, 256, 0, s1>>>(a, n, -50);
    add_from<<<n / 256, 256>>>(a, a, n);
    CK(cudaMemcpy(h, a, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("default stream after s1: %d %d, checksum %lld\n", h[0], h[n - 1], sum(h, n));

    // copy kinds
    for (int i = 0; i < n; i++)
        h[i] = i * i;
    CK(cudaMemcpyAsync(a, h, n * sizeof(int), cudaMemcpyHostToDevice, s3));
    CK(cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s3));
    CK(cudaMemsetAsync(b + 10, 0xff, 8, s3));
    CK(cudaStreamSynchronize(s3));
    int *h2 = (int *)malloc(n * sizeof(int));
    CK(cudaMemcpy(h2, b, n * sizeof(int), cudaMemcpyDefault));
    printf("H2D D2D memset D2H: %d %d %d %d, checksum %lld\n", h2[9], h2[10], h2[11], h2[12], sum(h2, n));
    CK(cudaMemcpy(h, h2, 16, cudaMemcpyHostToHost));
    CK(cudaMemcpy(h + 4, b + 100, 16, cudaMemcpyDefault));
    printf("H2H and default: %d %d %d\n", h[0], h[3], h[4]);
    SAY(cudaMemcpy(h, b, n * sizeof(int) * 2, cudaMemcpyDeviceToHost));

    // mapped and registered host memory
    int *mapped, *dmapped;
    CK(cudaHostAlloc(&mapped, 256 * sizeof(int), cudaHostAllocMapped));
    CK(cudaHostGetDevicePointer(&dmapped, mapped, 0));
    fill<<<1, 256>>>(dmapped, 256, 5);
    CK(cudaDeviceSynchronize());
    printf("mapped: %d %d same pointer %d\n", mapped[0], mapped[255], dmapped == mapped);
    int *reg = (int *)malloc(256 * sizeof(int)), *dreg;
    CK(cudaHostRegister(reg, 256 * sizeof(int), cudaHostRegisterMapped));
    CK(cudaHostGetDevicePointer(&dreg, reg, 0));
    fill<<<1, 256>>>(dreg, 256, -9);
    CK(cudaDeviceSynchronize());
    unsigned hf;
    CK(cudaHostGetFlags(&hf, mapped));
    printf("registered: %d %d, host alloc flags %u\n", reg[0], reg[255], hf);
    CK(cudaHostUnregister(reg));
    SAY(cudaHostUnregister(reg));

    // pitched 2D memory
    int *p2;
    size_t pitch;
    const int w = 100, ht = 37;
    CK(cudaMallocPitch(&p2, &pitch, w * sizeof(int), ht));
    printf("pitch for 400 bytes: %zu\n", pitch);
    CK(cudaMemset2D(p2, pitch, 0, w * sizeof(int), ht));
    for (int i = 0; i < w * ht; i++)
        h[i] = i;
    CK(cudaMemcpy2D(p2, pitch, h, w * sizeof(int), 60 * sizeof(int), ht, cudaMemcpyHostToDevice));
    CK(cudaMemcpy2DAsync(h2, w * sizeof(int), p2, pitch, w * sizeof(int), ht, cudaMemcpyDeviceToHost, s1));
    CK(cudaStreamSynchronize(s1));
    printf("2D: %d %d %d %d, checksum %lld\n", h2[59], h2[60], h2[w + 59], h2[w * ht - 41], sum(h2, w * ht));
    SAY(cudaMemcpy2D(p2, pitch, h, w * sizeof(int), pitch + 4, ht, cudaMemcpyHostToDevice));

    // 3D
    cudaExtent ext = make_cudaExtent(24 * sizeof(int), 5, 3);
    cudaPitchedPtr pp;
    CK(cudaMalloc3D(&pp, ext));
    printf("3D pitch %zu xsize %zu ysize %zu\n", pp.pitch, pp.xsize, pp.ysize);
    for (int i = 0; i < 24 * 5 * 3; i++)
        h[i] = 3 * i + 1;
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(h, 24 * sizeof(int), 24, 5);
    cp.dstPtr = pp;
    cp.extent = ext;
    cp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&cp));
    memset(h2, 0, 24 * 5 * 3 * sizeof(int));
    cudaMemcpy3DParms cb = {};
    cb.srcPtr = pp;
    cb.srcPos = make_cudaPos(4 * sizeof(int), 1, 1);
    cb.dstPtr = make_cudaPitchedPtr(h2, 24 * sizeof(int), 24, 5);
    cb.extent = make_cudaExtent(8 * sizeof(int), 3, 2);
    cb.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&cb));
    printf("3D: %d %d %d %d, checksum %lld\n", h2[0], h2[7], h2[24], h2[24 * 5 + 24 + 7], sum(h2, 24 * 5 * 3));

    CK(cudaEventDestroy(e));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaStreamDestroy(s3));
    CK(cudaFreeHost(h));
    CK(cudaFreeHost(mapped));
    CK(cudaFree(p2));
    CK(cudaFree(pp.ptr));
    return 0;
}
