// graph_reuse: graph allocations that reuse addresses.  An alloc node that follows the
// free node of an earlier allocation of the same graph gets its address when it fits (as
// NVIDIA's graphMemoryNodes sample checks); one that does not follow it, or does not fit,
// gets its own; the same in a captured stream (cudaMallocAsync after cudaFreeAsync).  The
// reserved memory counts the shared range once; kernels see each allocation's own values.
#include "apps.h"

__global__ void fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

__global__ void sum(const int *p, int n, unsigned long long *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, (unsigned long long)p[i]);
}

int main()
{
    const int n = 1 << 16;
    const size_t bytes = n * sizeof(int);
    unsigned long long *out;
    CK(cudaMallocManaged(&out, 4 * sizeof *out));
    for (int i = 0; i < 4; i++)
        out[i] = 0;

    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = bytes;

    // A: alloc, fill, sum, free
    cudaGraphNode_t allocA, fillA, sumA, freeA;
    CK(cudaGraphAddMemAllocNode(&allocA, g, NULL, 0, &ap));
    int *a = (int *)ap.dptr;
    cudaKernelNodeParams kp = {};
    int va = 1, vb = 1000, nn = n;
    unsigned long long *o0 = out, *o1 = out + 1, *o2 = out + 2;
    void *fa[] = { &a, &va, &nn };
    kp.func = (void *)fill;
    kp.gridDim = dim3(n / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = fa;
    CK(cudaGraphAddKernelNode(&fillA, g, &allocA, 1, &kp));
    void *sa[] = { &a, &nn, &o0 };
    kp.func = (void *)sum;
    kp.kernelParams = sa;
    CK(cudaGraphAddKernelNode(&sumA, g, &fillA, 1, &kp));
    CK(cudaGraphAddMemFreeNode(&freeA, g, &sumA, 1, a));

    // B after A's free, same size: A's address
    cudaGraphNode_t allocB, fillB, sumB, freeB;
    CK(cudaGraphAddMemAllocNode(&allocB, g, &freeA, 1, &ap));
    int *b = (int *)ap.dptr;
    printf("B after A's free: %s\n", b == a ? "A's address" : "another address");
    void *fb[] = { &b, &vb, &nn };
    kp.func = (void *)fill;
    kp.kernelParams = fb;
    CK(cudaGraphAddKernelNode(&fillB, g, &allocB, 1, &kp));
    void *sb[] = { &b, &nn, &o1 };
    kp.func = (void *)sum;
    kp.kernelParams = sb;
    CK(cudaGraphAddKernelNode(&sumB, g, &fillB, 1, &kp));
    CK(cudaGraphAddMemFreeNode(&freeB, g, &sumB, 1, b));

    // C with no dependency on the frees: its own address
    cudaGraphNode_t allocC, freeC;
    CK(cudaGraphAddMemAllocNode(&allocC, g, NULL, 0, &ap));
    int *c = (int *)ap.dptr;
    printf("C beside them: %s\n", c == a ? "A's address" : "another address");
    CK(cudaGraphAddMemFreeNode(&freeC, g, &allocC, 1, c));

    // D after B's free but four times as large: its own address
    cudaGraphNode_t allocD, fillD, sumD, freeD;
    ap.bytesize = 4 * bytes;
    CK(cudaGraphAddMemAllocNode(&allocD, g, &freeB, 1, &ap));
    int *d = (int *)ap.dptr;
    printf("D (4x) after B's free: %s\n", d == a ? "A's address" : "another address");
    int vd = 7, nd = 4 * n;
    void *fd[] = { &d, &vd, &nd };
    kp.func = (void *)fill;
    kp.gridDim = dim3(4 * n / 256);
    kp.kernelParams = fd;
    CK(cudaGraphAddKernelNode(&fillD, g, &allocD, 1, &kp));
    void *sd[] = { &d, &nd, &o2 };
    kp.func = (void *)sum;
    kp.kernelParams = sd;
    CK(cudaGraphAddKernelNode(&sumD, g, &fillD, 1, &kp));
    CK(cudaGraphAddMemFreeNode(&freeD, g, &sumD, 1, d));

    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int rep = 0; rep < 2; rep++)
        CK(cudaGraphLaunch(ge, 0));
    CK(cudaStreamSynchronize(0));
    printf("sums: A %llu B %llu D %llu\n", out[0], out[1], out[2]);
    size_t reserved = 0;
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
    printf("reserved: %zu MiB\n", reserved >> 20);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaDeviceGraphMemTrim(0));

    // the same in a captured stream
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    cudaGraph_t cg;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *x, *y;
    CK(cudaMallocAsync(&x, bytes, s));
    fill<<<n / 256, 256, 0, s>>>(x, 5, n);
    sum<<<n / 256, 256, 0, s>>>(x, n, out + 3);
    CK(cudaFreeAsync(x, s));
    CK(cudaMallocAsync(&y, bytes, s));
    fill<<<n / 256, 256, 0, s>>>(y, 9, n);
    sum<<<n / 256, 256, 0, s>>>(y, n, out + 3);
    CK(cudaFreeAsync(y, s));
    CK(cudaStreamEndCapture(s, &cg));
    printf("captured: y %s\n", y == x ? "at x's address" : "at another address");
    cudaGraphExec_t ce;
    CK(cudaGraphInstantiate(&ce, cg, 0));
    CK(cudaGraphLaunch(ce, s));
    CK(cudaStreamSynchronize(s));
    printf("captured sum %llu\n", out[3]);
    CK(cudaGraphExecDestroy(ce));
    CK(cudaGraphDestroy(cg));
    CK(cudaStreamDestroy(s));
    return 0;
}
