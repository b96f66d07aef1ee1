// graph: CUDA graphs: a stream capture (kernels, copies, a memset, a host function, a fork
// and join through events) instantiated and launched several times; a graph built node by
// node; a kernel node's parameters updated in the executable graph; capture status.
#include "apps.h"

__global__ void scale_add(float *x, int n, float a, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a + b;
}

__global__ void combine(float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += y[i];
}

static int host_calls;
static void CUDART_CB count(void *) { host_calls++; }

static double sum(const float *h, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += h[i] * (i % 7 + 1);
    return s;
}

int main()
{
    const int n = 2048;
    float *x, *y, *h;
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMallocHost(&h, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 100) * 0.25f;

    cudaStream_t s, side;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

    cudaStreamCaptureStatus st;
    CK(cudaStreamIsCapturing(s, &st));
    printf("capturing before: %d\n", (int)st);
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaStreamIsCapturing(s, &st));
    printf("capturing during: %d\n", (int)st);
    CK(cudaMemcpyAsync(x, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    CK(cudaEventRecord(fork, s));
    CK(cudaStreamWaitEvent(side, fork, 0));
    CK(cudaMemsetAsync(y, 0, n * sizeof(float), side));
    scale_add<<<n / 256, 256, 0, side>>>(y, n, 1.0f, 2.0f);
    CK(cudaEventRecord(join, side));
    scale_add<<<n / 256, 256, 0, s>>>(x, n, 1.5f, -1.0f);
    CK(cudaStreamWaitEvent(s, join, 0));
    combine<<<n / 256, 256, 0, s>>>(x, y, n);
    CK(cudaLaunchHostFunc(s, count, NULL));
    CK(cudaMemcpyAsync(h, x, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    cudaGraph_t g;
    CK(cudaStreamEndCapture(s, &g));
    size_t nodes = 0;
    CK(cudaGraphGetNodes(g, NULL, &nodes));
    printf("captured nodes: %zu\n", nodes);
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int k = 0; k < 3; k++) {
        CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
        printf("launch %d: %g %g %g weighted %.6f\n", k, h[0], h[1], h[n - 1], sum(h, n));
    }
    printf("host function ran %d times\n", host_calls);

    // a graph built node by node: y = 3, then x = x*2+y twice in a chain
    cudaGraph_t g2;
    CK(cudaGraphCreate(&g2, 0));
    cudaGraphNode_t mset, k1, k2, cpy;
    cudaMemsetParams mp = {};
    mp.dst = y;
    mp.value = 0;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    CK(cudaGraphAddMemsetNode(&mset, g2, NULL, 0, &mp));
    float a = 2.0f, b = 3.0f;
    int nn = n;
    void *args[] = { &x, &nn, &a, &b };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scale_add;
    kp.gridDim = dim3(n / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    CK(cudaGraphAddKernelNode(&k1, g2, &mset, 1, &kp));
    CK(cudaGraphAddKernelNode(&k2, g2, &k1, 1, &kp));
    CK(cudaGraphAddMemcpyNode1D(&cpy, g2, &k2, 1, h, x, n * sizeof(float), cudaMemcpyDeviceToHost));
    cudaGraphExec_t ge2;
    CK(cudaGraphInstantiate(&ge2, g2, 0));
    CK(cudaGraphLaunch(ge2, s));
    CK(cudaStreamSynchronize(s));
    printf("built: %g %g weighted %.6f\n", h[0], h[n - 1], sum(h, n));
    // update the second kernel's parameters in the executable graph
    float a2 = 0.5f, b2 = -1.0f;
    void *args2[] = { &x, &nn, &a2, &b2 };
    kp.kernelParams = args2;
    CK(cudaGraphExecKernelNodeSetParams(ge2, k2, &kp));
    CK(cudaGraphLaunch(ge2, s));
    CK(cudaStreamSynchronize(s));
    printf("updated: %g %g weighted %.6f\n", h[0], h[n - 1], sum(h, n));
    size_t edges = 0;
    CK(cudaGraphGetEdges(g2, NULL, NULL, NULL, &edges));
    printf("built graph edges: %zu\n", edges);

    // an illegal call during capture invalidates it
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    scale_add<<<1, 32, 0, s>>>(x, 32, 1.0f, 0.0f);
    printf("cudaMalloc during a global capture: %s\n", cudaGetErrorName(cudaMalloc(&y, 16)));
    cudaGraph_t g3 = NULL;
    printf("end capture: %s\n", cudaGetErrorName(cudaStreamEndCapture(s, &g3)));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    // what else a global-mode capture refuses, each in a capture of its own
    for (int k = 0; k < 6; k++) {
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        scale_add<<<1, 32, 0, s>>>(x, 32, 1.0f, 0.0f);
        cudaError_t e = cudaSuccess;
        const char *what = "";
        void *p = NULL;
        float hv[4];
        switch (k) {
        case 0: what = "cudaMemcpy to the host"; e = cudaMemcpy(hv, x, 16, cudaMemcpyDeviceToHost); break;
        case 1: what = "cudaDeviceSynchronize"; e = cudaDeviceSynchronize(); break;
        case 2: what = "cudaStreamSynchronize of the capturing stream"; e = cudaStreamSynchronize(s); break;
        case 3: what = "cudaMallocHost"; e = cudaMallocHost(&p, 64); break;
        case 4: what = "cudaMemset"; e = cudaMemset(x, 0, 16); break;
        case 5: what = "cudaStreamQuery of the capturing stream"; e = cudaStreamQuery(s); break;
        }
        cudaError_t end = cudaStreamEndCapture(s, &g3);
        printf("%s during a global capture: %s; end capture %s; last error %s\n", what, cudaGetErrorName(e),
               cudaGetErrorName(end), cudaGetErrorName(cudaGetLastError()));
        if (end == cudaSuccess)
            CK(cudaGraphDestroy(g3));
        CK(cudaDeviceSynchronize());
    }
    // a relaxed capture permits cudaMalloc
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    scale_add<<<1, 32, 0, s>>>(x, 32, 1.0f, 0.0f);
    printf("cudaMalloc during a relaxed capture: %s\n", cudaGetErrorName(cudaMalloc(&y, 16)));
    printf("end relaxed capture: %s\n", cudaGetErrorName(cudaStreamEndCapture(s, &g3)));
    CK(cudaGraphDestroy(g3));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphExecDestroy(ge2));
    CK(cudaGraphDestroy(g));
    CK(cudaGraphDestroy(g2));
    return 0;
}
