// launch_attrs.cu: cudaLaunchKernelEx with the launch attributes that record events
// (programmatic event, launch completion event) and the hints and graph-only attributes
// (preferred cluster dimension, device-updatable kernel node, NVLink-centric scheduling):
// what each launch returns, and that an event recorded by a launch orders another stream's
// kernel after what the launch wrote.
// target: -arch=sm_90
#include "apps.h"

/* v after k steps of a linear congruential generator */
__host__ __device__ unsigned lcg(unsigned v, int k)
{
    for (int j = 0; j < k; j++)
        v = v * 1103515245u + 12345u;
    return v;
}

__global__ void fill(int *a, int n, unsigned v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = (int)(lcg(v, 2000) + i);             /* long enough to be still running */
}

__global__ void fill_trigger(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = v + i;
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void copy_rev(const int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[n - 1 - i];
}

/* Each block writes its cluster's size (in blocks). */
__global__ void cluster_size(unsigned *out)
{
    unsigned n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    if (threadIdx.x == 0)
        out[blockIdx.x] = n;
}

static int check_copy(const int *b, int n, int v)
{
    int *h = (int *)malloc(n * sizeof(int)), bad = 0;
    CK(cudaMemcpy(h, b, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != v + (n - 1 - i))
            bad++;
    free(h);
    return bad;
}

static cudaLaunchConfig_t config(int grid, int block, cudaStream_t s, cudaLaunchAttribute *attr, int nattr)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = nattr;
    return cfg;
}

int main()
{
    const int n = 1 << 16;
    int *a, *b;
    unsigned *cs;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMalloc(&cs, 64 * sizeof(unsigned)));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t ev;
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    cudaLaunchAttribute at[2];

    /* A programmatic event: the other stream waits for it, then reads what was written. */
    for (int trig = 0; trig < 2; trig++) {
        at[0].id = cudaLaunchAttributeProgrammaticEvent;
        at[0].val.programmaticEvent.event = ev;
        at[0].val.programmaticEvent.flags = 0;
        at[0].val.programmaticEvent.triggerAtBlockStart = 0;
        cudaLaunchConfig_t cfg = config(n / 256, 256, s1, at, 1);
        if (trig)
            SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, n, 1000));
        else
            SAY(cudaLaunchKernelEx(&cfg, fill, a, n, 7u));
        CK(cudaStreamWaitEvent(s2, ev, 0));
        copy_rev<<<n / 256, 256, 0, s2>>>(a, b, n);
        CK(cudaStreamSynchronize(s2));
        CK(cudaStreamSynchronize(s1));
        if (trig)
            printf("programmatic event, kernel triggers: %d wrong\n", check_copy(b, n, 1000));
        else
            printf("programmatic event, no trigger: %d wrong\n", check_copy(b, n, (int)lcg(7, 2000)));
        SAY(cudaEventQuery(ev));
    }

    /* A launch completion event. */
    at[0].id = cudaLaunchAttributeLaunchCompletionEvent;
    at[0].val.launchCompletionEvent.event = ev;
    at[0].val.launchCompletionEvent.flags = 0;
    {
        cudaLaunchConfig_t cfg = config(n / 256, 256, s1, at, 1);
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, n, 5));
        SAY(cudaEventSynchronize(ev));
        CK(cudaStreamSynchronize(s1));
        copy_rev<<<n / 256, 256, 0, s1>>>(a, b, n);
        CK(cudaStreamSynchronize(s1));
        printf("launch completion event: %d wrong\n", check_copy(b, n, 5));
    }

    /* Event flags and the trigger at block start. */
    at[0].id = cudaLaunchAttributeProgrammaticEvent;
    at[0].val.programmaticEvent.event = ev;
    at[0].val.programmaticEvent.flags = cudaEventRecordExternal;
    at[0].val.programmaticEvent.triggerAtBlockStart = 0;
    {
        cudaLaunchConfig_t cfg = config(4, 64, s1, at, 1);
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].val.programmaticEvent.flags = 0;
        at[0].val.programmaticEvent.triggerAtBlockStart = 1;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].val.programmaticEvent.event = nullptr;
        at[0].val.programmaticEvent.triggerAtBlockStart = 0;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].id = cudaLaunchAttributeLaunchCompletionEvent;
        at[0].val.launchCompletionEvent.event = ev;
        at[0].val.launchCompletionEvent.flags = cudaEventRecordExternal;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        CK(cudaStreamSynchronize(s1));
    }

    /* A preferred cluster dimension: alone, with a cluster dimension it is a multiple of,
     * and with one it is not. */
    {
        unsigned pref[][3] = { { 4, 1, 1 }, { 3, 1, 1 }, { 2, 1, 1 }, { 16, 1, 1 }, { 4, 2, 1 } };
        for (unsigned k = 0; k < sizeof pref / sizeof *pref; k++)
            for (int with_cluster = 0; with_cluster < 2; with_cluster++) {
                at[0].id = cudaLaunchAttributePreferredClusterDimension;
                at[0].val.preferredClusterDim.x = pref[k][0];
                at[0].val.preferredClusterDim.y = pref[k][1];
                at[0].val.preferredClusterDim.z = pref[k][2];
                at[1].id = cudaLaunchAttributeClusterDimension;
                at[1].val.clusterDim.x = 2;
                at[1].val.clusterDim.y = 1;
                at[1].val.clusterDim.z = 1;
                CK(cudaMemset(cs, 0xff, 64 * sizeof(unsigned)));
                cudaLaunchConfig_t cfg = config(32, 64, s1, at, 1 + with_cluster);
                printf("preferred cluster %u,%u,%u%s: ", pref[k][0], pref[k][1], pref[k][2],
                       with_cluster ? " with cluster 2,1,1" : "");
                SAY(cudaLaunchKernelEx(&cfg, cluster_size, cs));
                SAY(cudaGetLastError());
                CK(cudaStreamSynchronize(s1));
                unsigned h[32];
                CK(cudaMemcpy(h, cs, sizeof h, cudaMemcpyDeviceToHost));
                int regular = 0, preferred = 0, other = 0;
                for (int i = 0; i < 32; i++)
                    if (h[i] == (with_cluster ? 2u : 1u))
                        regular++;
                    else if (h[i] == pref[k][0] * pref[k][1] * pref[k][2])
                        preferred++;
                    else
                        other++;
                printf("  blocks in regular clusters or preferred ones: %s; other: %d\n",
                       regular + preferred == 32 ? "all" : "not all", other);
            }
    }

    /* A graph-only attribute and a scheduling hint on a plain launch. */
    {
        at[0].id = cudaLaunchAttributeDeviceUpdatableKernelNode;
        at[0].val.deviceUpdatableKernelNode.deviceUpdatable = 1;
        at[0].val.deviceUpdatableKernelNode.devNode = nullptr;
        cudaLaunchConfig_t cfg = config(4, 64, s1, at, 1);
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].val.deviceUpdatableKernelNode.deviceUpdatable = 0;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].id = cudaLaunchAttributeNvlinkUtilCentricScheduling;
        at[0].val.nvlinkUtilCentricScheduling = 1;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].val.nvlinkUtilCentricScheduling = 2;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].id = (cudaLaunchAttributeID)15;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        at[0].id = (cudaLaunchAttributeID)99;
        SAY(cudaLaunchKernelEx(&cfg, fill_trigger, a, 256, 1));
        SAY(cudaGetLastError());
        CK(cudaStreamSynchronize(s1));
    }
    SAY(cudaDeviceSynchronize());
    return 0;
}
