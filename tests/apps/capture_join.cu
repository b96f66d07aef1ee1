// capture_join.cu: stream capture details that CUDA's samples rely on: copies captured
// to and from memory that a captured cudaMallocAsync allocates, a second stream that joins
// the capture and is destroyed after it was joined back,
// and cudaStreamEndCapture without a graph pointer after cudaStreamBeginCaptureToGraph.
#include "apps.h"

__global__ void twice(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2 * in[i];
}

int main()
{
    setvbuf(stdout, nullptr, _IONBF, 0);
    const int n = 1000;
    float h[n], r[n];
    for (int i = 0; i < n; i++)
        h[i] = 0.5f * i;
    cudaStream_t s1, s2;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t e1, e2;
    CK(cudaEventCreate(&e1));
    CK(cudaEventCreate(&e2));
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    float *in, *out;
    CK(cudaMallocAsync(&in, n * sizeof(float), s1));
    CK(cudaMallocAsync(&out, n * sizeof(float), s1));
    SAY(cudaMemcpyAsync(in, h, sizeof h, cudaMemcpyHostToDevice, s1));
    twice<<<(n + 255) / 256, 256, 0, s1>>>(in, out, n);
    CK(cudaEventRecord(e1, s1));
    CK(cudaStreamWaitEvent(s2, e1, 0));
    SAY(cudaMemcpyAsync(r, out, sizeof r, cudaMemcpyDeviceToHost, s2));
    CK(cudaEventRecord(e2, s2));
    CK(cudaStreamWaitEvent(s1, e2, 0));
    SAY(cudaStreamDestroy(s2));            // joined back: it leaves the capture
    CK(cudaFreeAsync(in, s1));
    CK(cudaFreeAsync(out, s1));
    SAY(cudaStreamEndCapture(s1, &g));
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, s1));
    CK(cudaStreamSynchronize(s1));
    printf("r: %g %g %g\n", r[1], r[500], r[999]);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));

    // Capture into an existing graph; the graph pointer may be omitted at the end.
    CK(cudaGraphCreate(&g, 0));
    SAY(cudaStreamBeginCaptureToGraph(s1, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
    twice<<<1, 32, 0, s1>>>(nullptr, nullptr, 0);
    SAY(cudaStreamEndCapture(s1, nullptr));
    size_t nn = 0;
    CK(cudaGraphGetNodes(g, nullptr, &nn));
    printf("nodes: %zu\n", nn);
    SAY(cudaStreamEndCapture(s1, nullptr));   // not capturing
    CK(cudaGraphDestroy(g));
    SAY(cudaStreamDestroy(s1));
    return 0;
}
