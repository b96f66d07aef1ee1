// async_flag: kernel launches are asynchronous; a kernel waits for what the host writes
// to mapped memory after the launch (volatile loads, a system-scope atomic, an acquire
// load), answers through mapped memory while it runs, and the host polls cudaStreamQuery
// and an event recorded behind the kernel, makes another stream wait for that event and
// asks for a device attribute before it synchronises.
#include "apps.h"
#include <cuda/atomic>

// Thread 0 waits for the host's flag, then every thread adds it to its index.
__global__ void wait_flag(volatile int *flag, int *out)
{
    __shared__ int v;
    if (threadIdx.x == 0) {
        while (*flag == 0) { }
        v = *flag;
    }
    __syncthreads();
    out[threadIdx.x] = v + threadIdx.x;
}

// A ping-pong: the kernel answers each of the host's values (an acquire load) with the
// value plus 100 (a release store), until the host sends -1; it counts the rounds.
__global__ void ping_pong(int *to_dev, int *to_host, int *rounds)
{
    cuda::atomic_ref<int, cuda::thread_scope_system> in(*to_dev), out(*to_host);
    int n = 0, last = 0;
    for (;;) {
        int v;
        while ((v = in.load(cuda::memory_order_acquire)) == last) { }
        if (v < 0)
            break;
        last = v;
        out.store(v + 100, cuda::memory_order_release);
        n++;
    }
    *rounds = n;
}

// A system-scope atomic counter: the kernel waits until the host has added 5, with a
// nanosleep between looks, then adds 1000.
__global__ void wait_count(int *count)
{
    while (atomicAdd_system(count, 0) < 5)
        __nanosleep(100);
    atomicAdd_system(count, 1000);
}

int main()
{
    int *flag, *to_dev, *to_host, *count;
    CK(cudaHostAlloc(&flag, 4 * sizeof(int), cudaHostAllocMapped));
    to_dev = flag + 1;
    to_host = flag + 2;
    count = flag + 3;
    for (int i = 0; i < 4; i++)
        flag[i] = 0;
    int *dflag, *out, *rounds;
    CK(cudaHostGetDevicePointer(&dflag, flag, 0));
    CK(cudaMalloc(&out, 64 * sizeof(int)));
    CK(cudaMalloc(&rounds, sizeof(int)));
    cudaEvent_t ev;
    CK(cudaEventCreate(&ev));
    cudaStream_t s2;
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

    // 1: the flag, written after the launch, with stream and event queries meanwhile
    wait_flag<<<1, 64>>>(dflag, out);
    SAY(cudaGetLastError());
    CK(cudaEventRecord(ev));
    cudaError_t q = cudaStreamQuery(0), qe = cudaEventQuery(ev);
    printf("while it waits: stream %s, event %s\n", cudaGetErrorName(q), cudaGetErrorName(qe));
    SAY(cudaStreamWaitEvent(s2, ev, 0));
    int sms = 0;
    SAY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("%d SMs\n", sms);
    *(volatile int *)flag = 7;
    SAY(cudaEventSynchronize(ev));
    SAY(cudaStreamQuery(0));
    SAY(cudaEventQuery(ev));
    SAY(cudaStreamSynchronize(s2));
    int h[64];
    CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("out: %d %d %d\n", h[0], h[1], h[63]);

    // 2: ping-pong, ten rounds
    ping_pong<<<1, 1>>>(dflag + 1, dflag + 2, rounds);
    volatile int *vd = to_dev, *vh = to_host;
    int answers = 0;
    for (int i = 1; i <= 10; i++) {
        *vd = i;
        while (*vh != i + 100) { }
        answers += *vh;
    }
    *vd = -1;
    CK(cudaDeviceSynchronize());
    int r = 0;
    CK(cudaMemcpy(&r, rounds, sizeof r, cudaMemcpyDeviceToHost));
    printf("ping-pong: %d rounds, answers %d\n", r, answers);

    // 3: a counter the host raises while the kernel sleeps between looks
    wait_count<<<1, 1>>>(dflag + 3);
    for (int i = 0; i < 5; i++)
        __atomic_fetch_add(count, 1, __ATOMIC_SEQ_CST);
    CK(cudaDeviceSynchronize());
    printf("count: %d\n", *(volatile int *)count);

    // 4: a kernel that never gets its flag: the process ends while it waits
    flag[0] = 0;
    wait_flag<<<1, 32>>>(dflag, out);
    printf("exiting with a kernel waiting\n");
    return 0;
}
