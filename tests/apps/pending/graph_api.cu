// graph_api: the CUDA graph API beyond kernels, copies and captures: memory alloc and free
// nodes (by hand; the address fixed at creation; one instantiation at a time; no clones),
// graph memory numbers and trimming, the generic node API (cudaGraphAddNode,
// cudaGraphNodeSetParams, cudaGraphExecNodeSetParams), kernel node attributes, user objects,
// child graph updates in an executable graph, DOT output, capture into an existing graph,
// capture dependencies changed by hand, instantiation parameters, and conditional nodes
// (IF, WHILE, SWITCH) set by cudaGraphSetConditional in kernels.
//
// Pending: not recorded on the H100 yet (tests/apps/pending/ is not run by run.sh); move it to
// tests/apps/ with its recording.  Expected by construction (the lines whose value is fixed
// by the CUDA documentation): "alloc: sums 120 120 120", "same address 1", "bytesize 256",
// every "-> cudaSuccess" on the paths that must succeed,
// "generic: 7 7 7 7 | host 1 then 2", "attr priority 2 cooperative 1 window 4096",
// "copied priority 2", "user object: before 0 after 1", "child: 5 5 5 5 then 9 9 9 9",
// "dot nonempty 1", "to-graph nodes 3", "update deps: nodes 3 edges 2", "result_out 0",
// "if: 1 then 0", "while: 0 after 6 runs", "switch: 0 101 0 | 0 0 102".  The error names
// of the refused calls (second instantiation, clone) are what the H100 answers.
#include "apps.h"
#include <cstring>
#include <ctime>
#include <unistd.h>

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
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

__global__ void add1(int *p) { atomicAdd(p, 1); }

// Counts down *p and keeps the WHILE loop going while it is not 0; counts the runs.
__global__ void countdown(int *p, int *runs, cudaGraphConditionalHandle h)
{
    *p -= 1;
    *runs += 1;
    cudaGraphSetConditional(h, *p != 0);
}

__global__ void set_cond(cudaGraphConditionalHandle h, unsigned v) { cudaGraphSetConditional(h, v); }

__global__ void mark(int *p, int i, int v) { p[i] = v; }

static int host_value;
static void CUDART_CB host_set(void *p) { host_value = (int)(size_t)p; }

static volatile int destroyed;
static void CUDART_CB on_destroy(void *p) { destroyed = *(int *)p; }

static void mem_nodes(cudaStream_t s)
{
    cudaGraph_t g;
    cudaGraphNode_t na, nf, nk, ns, nc;
    int *host;
    CK(cudaMallocHost(&host, sizeof(int)));
    CK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 256;
    CK(cudaGraphAddMemAllocNode(&na, g, nullptr, 0, &ap));
    int *d = (int *)ap.dptr;
    int n = 15, v = 1;
    int *out = d + 32;
    void *fa[] = { &d, &n, &v };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = fa;
    CK(cudaGraphAddKernelNode(&nk, g, &na, 1, &kp));
    void *sa[] = { &d, &n, &out };
    kp.func = (void *)sum;
    kp.kernelParams = sa;
    CK(cudaGraphAddKernelNode(&ns, g, &nk, 1, &kp));
    CK(cudaGraphAddMemcpyNode1D(&nc, g, &ns, 1, host, out, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaGraphAddMemFreeNode(&nf, g, &nc, 1, d));
    cudaMemAllocNodeParams got = {};
    CK(cudaGraphMemAllocNodeGetParams(na, &got));
    printf("same address %d\nbytesize %zu\n", got.dptr == ap.dptr, got.bytesize);
    cudaGraphExec_t x, x2;
    CK(cudaGraphInstantiate(&x, g, 0));
    SAY(cudaGraphInstantiate(&x2, g, 0));
    cudaGraph_t c;
    SAY(cudaGraphClone(&c, g));
    printf("alloc: sums");
    for (int i = 0; i < 3; i++) {
        *host = 0;
        CK(cudaGraphLaunch(x, s));
        CK(cudaStreamSynchronize(s));
        printf(" %d", *host);
    }
    printf("\n");
    unsigned long long used = 1, high = 0;
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    printf("used after free %llu, high >= 256: %d\n", used, high >= 256);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaDeviceGraphMemTrim(0));
    unsigned long long zero = 0;
    SAY(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    SAY(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero));
    CK(cudaFreeHost(host));
}

static void generic_nodes(cudaStream_t s)
{
    int *d, h[4];
    CK(cudaMalloc(&d, sizeof h));
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t nm, nh, ne;
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeMemset;
    p.memset.dst = d;
    p.memset.value = 3;
    p.memset.elementSize = 4;
    p.memset.width = 4;
    p.memset.height = 1;
    CK(cudaGraphAddNode(&nm, g, nullptr, nullptr, 0, &p));
    p.memset.value = 7;
    CK(cudaGraphNodeSetParams(nm, &p));
    cudaGraphNodeParams hp = {};
    hp.type = cudaGraphNodeTypeHost;
    hp.host.fn = host_set;
    hp.host.userData = (void *)1;
    CK(cudaGraphAddNode(&nh, g, &nm, nullptr, 1, &hp));
    cudaGraphNodeParams ep = {};
    ep.type = cudaGraphNodeTypeEmpty;
    CK(cudaGraphAddNode(&ne, g, &nh, nullptr, 1, &ep));
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("generic: %d %d %d %d | host %d", h[0], h[1], h[2], h[3], host_value);
    hp.host.userData = (void *)2;
    CK(cudaGraphExecNodeSetParams(x, nh, &hp));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    printf(" then %d\n", host_value);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(d));
}

static void attributes()
{
    int *d;
    CK(cudaMalloc(&d, 4096));
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t a, b;
    int n = 1, v = 0;
    void *fa[] = { &d, &n, &v };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = fa;
    CK(cudaGraphAddKernelNode(&a, g, nullptr, 0, &kp));
    CK(cudaGraphAddKernelNode(&b, g, &a, 1, &kp));
    cudaKernelNodeAttrValue val = {};
    val.priority = 2;
    CK(cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributePriority, &val));
    val = {};
    val.cooperative = 1;
    CK(cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributeCooperative, &val));
    val = {};
    val.accessPolicyWindow.base_ptr = d;
    val.accessPolicyWindow.num_bytes = 4096;
    val.accessPolicyWindow.hitRatio = 0.5f;
    val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CK(cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &val));
    cudaKernelNodeAttrValue p, c, w;
    CK(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributePriority, &p));
    CK(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributeCooperative, &c));
    CK(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &w));
    printf("attr priority %d cooperative %d window %zu\n", p.priority, c.cooperative, w.accessPolicyWindow.num_bytes);
    CK(cudaGraphKernelNodeCopyAttributes(b, a));
    CK(cudaGraphKernelNodeGetAttribute(b, cudaLaunchAttributePriority, &p));
    printf("copied priority %d\n", p.priority);
    val = {};
    val.clusterDim.x = val.clusterDim.y = val.clusterDim.z = 1;
    SAY(cudaGraphKernelNodeSetAttribute(b, cudaLaunchAttributeClusterDimension, &val));
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(d));
}

static void user_objects()
{
    static int payload = 1;
    cudaUserObject_t o;
    CK(cudaUserObjectCreate(&o, &payload, on_destroy, 1, cudaUserObjectNoDestructorSync));
    cudaGraph_t g;
    cudaGraphNode_t e;
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphAddEmptyNode(&e, g, nullptr, 0));
    CK(cudaGraphRetainUserObject(g, o, 1, cudaGraphUserObjectMove));
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphDestroy(g));
    CK(cudaGraphLaunch(x, 0));
    CK(cudaDeviceSynchronize());
    int before = destroyed;
    CK(cudaGraphExecDestroy(x));
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < 1000 && !destroyed; i++)   // the destructor may run later, from another thread
        usleep(1000);
    printf("user object: before %d after %d\n", before, destroyed);
}

static void child_update(cudaStream_t s)
{
    int *d, h[4];
    CK(cudaMalloc(&d, sizeof h));
    cudaGraph_t child, child2, g;
    cudaGraphNode_t m, cn;
    cudaMemsetParams mp = {};
    mp.dst = d;
    mp.value = 5;
    mp.elementSize = 4;
    mp.width = 4;
    mp.height = 1;
    CK(cudaGraphCreate(&child, 0));
    CK(cudaGraphAddMemsetNode(&m, child, nullptr, 0, &mp));
    mp.value = 9;
    CK(cudaGraphCreate(&child2, 0));
    CK(cudaGraphAddMemsetNode(&m, child2, nullptr, 0, &mp));
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphAddChildGraphNode(&cn, g, nullptr, 0, child));
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, s));
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    printf("child: %d %d %d %d", h[0], h[1], h[2], h[3]);
    CK(cudaGraphExecChildGraphNodeSetParams(x, cn, child2));
    CK(cudaGraphLaunch(x, s));
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    printf(" then %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    const char *path = "/tmp/ptxemu_graph_api.dot";
    SAY(cudaGraphDebugDotPrint(g, path, cudaGraphDebugDotFlagsVerbose));
    FILE *f = fopen(path, "r");
    int c = f ? fgetc(f) : EOF;
    if (f)
        fclose(f);
    remove(path);
    printf("dot nonempty %d\n", c != EOF);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaGraphDestroy(child));
    CK(cudaGraphDestroy(child2));
    CK(cudaFree(d));
}

static void capture_forms(cudaStream_t s)
{
    int *d;
    CK(cudaMalloc(&d, 16));
    cudaGraph_t g;
    cudaGraphNode_t e;
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphAddEmptyNode(&e, g, nullptr, 0));
    CK(cudaStreamBeginCaptureToGraph(s, g, &e, nullptr, 1, cudaStreamCaptureModeGlobal));
    CK(cudaMemsetAsync(d, 0, 16, s));
    fill<<<1, 4, 0, s>>>(d, 4, 1);
    cudaGraph_t out;
    CK(cudaStreamEndCapture(s, &out));
    size_t nn = 0;
    CK(cudaGraphGetNodes(g, nullptr, &nn));
    printf("to-graph nodes %zu same graph %d\n", nn, out == g);
    CK(cudaGraphDestroy(g));

    // dependencies changed by hand: a node added to the capture graph becomes the next one's
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMemsetAsync(d, 0, 16, s));
    cudaStreamCaptureStatus st;
    cudaGraph_t cg;
    const cudaGraphNode_t *deps;
    size_t nd = 0;
    CK(cudaStreamGetCaptureInfo(s, &st, nullptr, &cg, &deps, nullptr, &nd));
    cudaGraphNode_t mine;
    CK(cudaGraphAddEmptyNode(&mine, cg, deps, nd));
    CK(cudaStreamUpdateCaptureDependencies(s, &mine, nullptr, 1, cudaStreamSetCaptureDependencies));
    fill<<<1, 4, 0, s>>>(d, 4, 1);
    CK(cudaStreamEndCapture(s, &out));
    size_t ne = 0;
    CK(cudaGraphGetNodes(out, nullptr, &nn));
    CK(cudaGraphGetEdges(out, nullptr, nullptr, nullptr, &ne));
    printf("update deps: nodes %zu edges %zu\n", nn, ne);
    cudaGraphInstantiateParams ip = {};
    ip.flags = cudaGraphInstantiateFlagUpload;
    ip.uploadStream = s;
    cudaGraphExec_t x;
    CK(cudaGraphInstantiateWithParams(&x, out, &ip));
    printf("result_out %d\n", (int)ip.result_out);
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(out));
    CK(cudaFree(d));
}

static void conditionals(cudaStream_t s)
{
    int *d;
    CK(cudaMallocManaged(&d, 8 * sizeof(int)));
    // IF: the body runs where the kernel before it set the condition
    cudaGraph_t g;
    cudaGraphConditionalHandle h;
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
    cudaGraphNode_t ks, nc, kb;
    unsigned v = 1;
    void *sa[] = { &h, &v };
    cudaKernelNodeParams kp = {};
    kp.func = (void *)set_cond;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = sa;
    CK(cudaGraphAddKernelNode(&ks, g, nullptr, 0, &kp));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 1;
    CK(cudaGraphAddNode(&nc, g, &ks, nullptr, 1, &cp));
    cudaGraph_t body = cp.conditional.phGraph_out[0];
    int *ctr = d;
    void *aa[] = { &ctr };
    kp.func = (void *)add1;
    kp.kernelParams = aa;
    CK(cudaGraphAddKernelNode(&kb, body, nullptr, 0, &kp));
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    d[0] = 0;
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    printf("if: %d", d[0]);
    v = 0;
    cudaKernelNodeParams kp2 = kp;
    kp2.func = (void *)set_cond;
    kp2.kernelParams = sa;
    CK(cudaGraphExecKernelNodeSetParams(x, ks, &kp2));
    d[0] = 0;
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    printf(" then %d\n", d[0]);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // WHILE: the default value 1 starts the loop, the body counts down
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    CK(cudaGraphAddNode(&nc, g, nullptr, nullptr, 0, &cp));
    body = cp.conditional.phGraph_out[0];
    int *left = d, *runs = d + 1;
    void *ca[] = { &left, &runs, &h };
    kp.func = (void *)countdown;
    kp.kernelParams = ca;
    CK(cudaGraphAddKernelNode(&kb, body, nullptr, 0, &kp));
    CK(cudaGraphInstantiate(&x, g, 0));
    d[0] = 6;
    d[1] = 0;
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    printf("while: %d after %d runs\n", d[0], d[1]);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // SWITCH: body n runs for the value n; a value past the bodies runs none
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    v = 1;
    kp.func = (void *)set_cond;
    kp.kernelParams = sa;
    CK(cudaGraphAddKernelNode(&ks, g, nullptr, 0, &kp));
    cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeSwitch;
    cp.conditional.size = 3;
    CK(cudaGraphAddNode(&nc, g, &ks, nullptr, 1, &cp));
    int vals[3] = { 100, 101, 102 };
    int idx[3] = { 0, 1, 2 };
    for (int b = 0; b < 3; b++) {
        void *ma[] = { &d, &idx[b], &vals[b] };
        cudaKernelNodeParams mk = {};
        mk.func = (void *)mark;
        mk.gridDim = dim3(1);
        mk.blockDim = dim3(1);
        mk.kernelParams = ma;
        vals[b] = 100 + b;
        CK(cudaGraphAddKernelNode(&kb, cp.conditional.phGraph_out[b], nullptr, 0, &mk));
    }
    CK(cudaGraphInstantiate(&x, g, 0));
    d[0] = d[1] = d[2] = 0;
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    printf("switch: %d %d %d", d[0], d[1], d[2]);
    v = 2;
    CK(cudaGraphExecKernelNodeSetParams(x, ks, &kp));
    d[0] = d[1] = d[2] = 0;
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    printf(" | %d %d %d\n", d[0], d[1], d[2]);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(d));
}

int main()
{
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    mem_nodes(s);
    generic_nodes(s);
    attributes();
    user_objects();
    child_update(s);
    capture_forms(s);
    conditionals(s);
    CK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
