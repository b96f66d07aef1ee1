// graph_mallocasync: cudaMallocAsync and cudaFreeAsync captured into graphs (memory alloc
// and free nodes): a graph that allocates, computes and frees, launched several times; a
// graph that leaves its allocation allocated (used after the launch, freed by cudaFreeAsync,
// refused a relaunch before that), one instantiated to free it at the next launch, and one
// whose allocation another captured graph frees.
//
// Pending: not recorded on the H100 yet (tests/apps/pending/ is not run by run.sh); move it to
// tests/apps/ with its recording.  Expected by construction: "launch 0: 528" ... "launch 4:
// 528" (the sum of 1..32), "alloc nodes 1 free nodes 1", the captured addresses 1, "kept: 64
// 64 64 64", "kept is device memory 1", "relaunch before free -> cudaErrorInvalidValue" (the
// CUDA documentation of cuGraphLaunch), "after cudaFreeAsync -> cudaSuccess", "auto free:
// 3 launches ok", "freed by another graph: 10".
#include "apps.h"

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i + 1;
}

__global__ void sum(const int *p, int n, int *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        int s = 0;
        for (int i = 0; i < n; i++)
            s += p[i];
        *out = s;
    }
}

int main()
{
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *result;
    CK(cudaMallocHost(&result, sizeof(int)));
    int *out;
    CK(cudaMalloc(&out, sizeof(int)));

    // allocate, compute, free: every launch of the graph
    cudaGraph_t g;
    cudaGraphExec_t x;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *p = nullptr;
    CK(cudaMallocAsync(&p, 32 * sizeof(int), s));
    fill<<<1, 32, 0, s>>>(p, 32, 0);
    sum<<<1, 1, 0, s>>>(p, 32, out);
    CK(cudaFreeAsync(p, s));
    CK(cudaMemcpyAsync(result, out, sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamEndCapture(s, &g));
    size_t n = 0;
    CK(cudaGraphGetNodes(g, nullptr, &n));
    printf("nodes %zu\n", n);
    cudaGraphNode_t nodes[8];
    n = 8;
    CK(cudaGraphGetNodes(g, nodes, &n));
    int allocs = 0, frees = 0;
    for (size_t i = 0; i < n; i++) {
        cudaGraphNodeType t;
        CK(cudaGraphNodeGetType(nodes[i], &t));
        allocs += t == cudaGraphNodeTypeMemAlloc;
        frees += t == cudaGraphNodeTypeMemFree;
        if (t == cudaGraphNodeTypeMemAlloc) {
            cudaMemAllocNodeParams ap;
            CK(cudaGraphMemAllocNodeGetParams(nodes[i], &ap));
            printf("alloc node: %zu bytes, the captured address %d\n", ap.bytesize, ap.dptr == (void *)p);
        }
        if (t == cudaGraphNodeTypeMemFree) {
            void *fp;
            CK(cudaGraphMemFreeNodeGetParams(nodes[i], &fp));
            printf("free node: the captured address %d\n", fp == (void *)p);
        }
    }
    printf("alloc nodes %d free nodes %d\n", allocs, frees);
    CK(cudaGraphInstantiate(&x, g, 0));
    for (int i = 0; i < 5; i++) {
        *result = -1;
        CK(cudaGraphLaunch(x, s));
        CK(cudaStreamSynchronize(s));
        printf("launch %d: %d\n", i, *result);
    }
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // an allocation the graph does not free: usable after the launch, freed by the program
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *kept = nullptr;
    CK(cudaMallocAsync(&kept, 4 * sizeof(int), s));
    CK(cudaMemsetAsync(kept, 0, 4 * sizeof(int), s));
    fill<<<1, 4, 0, s>>>(kept, 4, 63);   // 64, 65, 66, 67
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    int h[4];
    CK(cudaMemcpy(h, kept, sizeof h, cudaMemcpyDeviceToHost));
    printf("kept: %d %d %d %d\n", h[0], h[1] - 1, h[2] - 2, h[3] - 3);
    cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, kept));
    printf("kept is device memory %d\n", pa.type == cudaMemoryTypeDevice);
    cudaError_t e = cudaGraphLaunch(x, s);
    printf("relaunch before free -> %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CK(cudaFreeAsync(kept, s));
    CK(cudaStreamSynchronize(s));
    e = cudaGraphLaunch(x, s);
    printf("after cudaFreeAsync -> %s\n", cudaGetErrorName(e));
    CK(cudaStreamSynchronize(s));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(kept));   // the last launch's allocation, freed after its graph is gone

    // instantiated to free at the next launch what the previous one left
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMallocAsync(&kept, 64, s));
    CK(cudaMemsetAsync(kept, 1, 64, s));
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    int ok = 0;
    for (int i = 0; i < 3; i++)
        ok += cudaGraphLaunch(x, s) == cudaSuccess;
    CK(cudaStreamSynchronize(s));
    printf("auto free: %d launches ok\n", ok);
    CK(cudaFreeAsync(kept, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // allocated by one graph, freed by another
    cudaGraph_t ga, gf;
    cudaGraphExec_t xa, xf;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMallocAsync(&kept, 4 * sizeof(int), s));
    fill<<<1, 4, 0, s>>>(kept, 4, 0);
    sum<<<1, 1, 0, s>>>(kept, 4, out);
    CK(cudaStreamEndCapture(s, &ga));
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaFreeAsync(kept, s));
    CK(cudaStreamEndCapture(s, &gf));
    CK(cudaGraphInstantiate(&xa, ga, 0));
    CK(cudaGraphInstantiate(&xf, gf, 0));
    CK(cudaGraphLaunch(xa, s));
    CK(cudaGraphLaunch(xf, s));
    CK(cudaGraphLaunch(xa, s));   // allowed again: the other graph freed it
    CK(cudaGraphLaunch(xf, s));
    CK(cudaMemcpyAsync(result, out, sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    printf("freed by another graph: %d\n", *result);
    CK(cudaGraphExecDestroy(xa));
    CK(cudaGraphExecDestroy(xf));
    CK(cudaGraphDestroy(ga));
    CK(cudaGraphDestroy(gf));

    CK(cudaDeviceGraphMemTrim(0));
    CK(cudaFree(out));
    CK(cudaFreeHost(result));
    CK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
