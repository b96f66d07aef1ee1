// malloc: device malloc and free: the heap limit (default and set), allocations from many
// threads, their alignment, memory that outlives the kernel that allocated it, allocations
// the heap cannot satisfy (NULL), new and delete.
#include "apps.h"

__device__ int *kept[64];

__global__ void alloc_sum(int n, unsigned long long *out, int *misaligned)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) {
        out[t] = ~0ull;
        return;
    }
    if ((unsigned long long)p % 16)
        atomicAdd(misaligned, 1);
    for (int i = 0; i < n; i++)
        p[i] = t * i;
    unsigned long long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    out[t] = s;
    free(p);
}

__global__ void keep(int n)
{
    int *p = new int[n];
    for (int i = 0; i < n; i++)
        p[i] = threadIdx.x + 100 * i;
    kept[threadIdx.x] = p;
}

__global__ void use_and_delete(int n, int *out)
{
    int *p = kept[threadIdx.x];
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    out[threadIdx.x] = s;
    delete[] p;
}

__global__ void too_big(size_t bytes, int *nulls)
{
    void *p = malloc(bytes);
    if (!p)
        atomicAdd(nulls, 1);
    free(p);
}

int main()
{
    size_t heap;
    CK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    printf("default heap %zu\n", heap);
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    CK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    printf("heap after setting 64 MiB %zu\n", heap);

    const int threads = 4 * 256;
    unsigned long long *d_out, h_out[threads];
    int *d_mis, h_mis = 0;
    CK(cudaMalloc(&d_out, sizeof h_out));
    CK(cudaMalloc(&d_mis, sizeof(int)));
    CK(cudaMemset(d_mis, 0, sizeof(int)));
    alloc_sum<<<4, 256>>>(100, d_out, d_mis);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&h_mis, d_mis, sizeof(int), cudaMemcpyDeviceToHost));
    unsigned long long s = 0;
    int failed = 0;
    for (int i = 0; i < threads; i++) {
        failed += h_out[i] == ~0ull;
        s += h_out[i];
    }
    printf("alloc_sum: sum %llu failed %d misaligned %d\n", s, failed, h_mis);

    int *d_r, h_r[64];
    CK(cudaMalloc(&d_r, sizeof h_r));
    keep<<<1, 64>>>(10);
    CK(cudaDeviceSynchronize());
    use_and_delete<<<1, 64>>>(10, d_r);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h_r, d_r, sizeof h_r, cudaMemcpyDeviceToHost));
    printf("kept across kernels: %d %d %d\n", h_r[0], h_r[1], h_r[63]);

    int *d_n, h_n;
    CK(cudaMalloc(&d_n, sizeof(int)));
    CK(cudaMemset(d_n, 0, sizeof(int)));
    too_big<<<1, 32>>>((size_t)128 << 20, d_n);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&h_n, d_n, sizeof(int), cudaMemcpyDeviceToHost));
    printf("128 MiB from a 64 MiB heap: %d of 32 NULL\n", h_n);
    SAY(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
    CK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    printf("heap after setting 1 MiB once used: %zu\n", heap);
    return 0;
}
