// launch: launch configurations and their errors (block and grid limits, launch bounds,
// dynamic shared memory), 3D grids, occupancy queries, cudaLaunchKernelEx with attributes,
// a cooperative launch whose grid synchronises, function attributes.
#include "apps.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void ids(unsigned *out)
{
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned nt = blockDim.x * blockDim.y * blockDim.z;
    out[b * nt + t] = (blockIdx.z << 24) ^ (blockIdx.y << 16) ^ (blockIdx.x << 8) ^ (threadIdx.z << 6) ^
                      (threadIdx.y << 3) ^ threadIdx.x ^ (gridDim.x * 7 + gridDim.y * 5 + gridDim.z * 3) << 12;
}

__global__ void __launch_bounds__(128, 4) bounded(int *out) { out[threadIdx.x] = threadIdx.x * 2; }

__global__ void simple(int *out, int v) { out[blockIdx.x * blockDim.x + threadIdx.x] = v; }

__global__ void smem_user(int *out)
{
    extern __shared__ int sm[];
    sm[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = sm[blockDim.x - 1 - threadIdx.x];
}

__global__ void grid_sum(const int *in, int n, unsigned long long *partial, unsigned long long *total)
{
    cg::grid_group g = cg::this_grid();
    unsigned long long s = 0;
    for (int i = g.thread_rank(); i < n; i += g.size())
        s += in[i];
    atomicAdd(&partial[blockIdx.x % 8], s);
    g.sync();
    if (g.thread_rank() == 0) {
        unsigned long long t = 0;
        for (int k = 0; k < 8; k++)
            t += partial[k];
        *total = t;
    }
}

int main()
{
    unsigned *d, *h = new unsigned[1 << 16];
    CK(cudaMalloc(&d, (1 << 16) * sizeof(unsigned)));
    dim3 grid(3, 4, 5), block(8, 4, 2);
    ids<<<grid, block>>>(d);
    CK(cudaGetLastError());
    int total = 3 * 4 * 5 * 64;
    CK(cudaMemcpy(h, d, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned long long cs = 0;
    for (int i = 0; i < total; i++)
        cs = cs * 1000003ull + h[i];
    printf("3D grid ids: %u %u %u checksum %llu\n", h[0], h[65], h[total - 1], cs);

    int *di;
    CK(cudaMalloc(&di, 1 << 20));
    simple<<<1, 1025>>>(di, 1);
    printf("1025 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
    simple<<<dim3(1, 65536), 1>>>(di, 1);
    printf("grid y 65536: %s\n", cudaGetErrorName(cudaGetLastError()));
    simple<<<dim3(1, 1, 65536), 1>>>(di, 1);
    printf("grid z 65536: %s\n", cudaGetErrorName(cudaGetLastError()));
    simple<<<0, 32>>>(di, 1);
    printf("grid 0: %s\n", cudaGetErrorName(cudaGetLastError()));
    simple<<<1, dim3(32, 32, 2)>>>(di, 1);
    printf("block 32x32x2: %s\n", cudaGetErrorName(cudaGetLastError()));
    simple<<<1, dim3(1, 1, 65)>>>(di, 1);
    printf("block z 65: %s\n", cudaGetErrorName(cudaGetLastError()));
    bounded<<<1, 256>>>(di);
    printf("256 threads, launch bounds 128: %s\n", cudaGetErrorName(cudaGetLastError()));
    bounded<<<1, 128>>>(di);
    printf("128 threads, launch bounds 128: %s\n", cudaGetErrorName(cudaGetLastError()));
    smem_user<<<1, 64, 64 * 1024>>>(di);
    printf("64 KiB dynamic shared: %s\n", cudaGetErrorName(cudaGetLastError()));
    smem_user<<<1, 64, 256>>>(di);
    printf("256 B dynamic shared: %s\n", cudaGetErrorName(cudaGetLastError()));
    int hs[64];
    CK(cudaMemcpy(hs, di, sizeof hs, cudaMemcpyDeviceToHost));
    printf("smem_user: %d %d\n", hs[0], hs[63]);
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, bounded));
    printf("bounded: maxThreadsPerBlock %d sharedSizeBytes %zu\n", fa.maxThreadsPerBlock, fa.sharedSizeBytes);
    CK(cudaFuncGetAttributes(&fa, simple));
    printf("simple: maxThreadsPerBlock %d sharedSizeBytes %zu constSizeBytes %zu\n", fa.maxThreadsPerBlock,
           fa.sharedSizeBytes, fa.constSizeBytes);

    int nb;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, simple, 256, 0));
    printf("occupancy simple 256: %d\n", nb);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, simple, 1024, 0));
    printf("occupancy simple 1024: %d\n", nb);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, simple, 32, 0));
    printf("occupancy simple 32: %d\n", nb);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, smem_user, 128, 40 * 1024));
    printf("occupancy smem_user 128, 40 KiB: %d\n", nb);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, bounded, 128, 0));
    printf("occupancy bounded 128: %d\n", nb);
    int mg, bs;
    CK(cudaOccupancyMaxPotentialBlockSize(&mg, &bs, simple, 0, 0));
    printf("potential block size simple: grid %d block %d\n", mg, bs);
    size_t dyn;
    CK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, smem_user, 4, 256));
    printf("available dynamic shared, 4 blocks of 256: %zu\n", dyn);

    // cudaLaunchKernelEx with attributes
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(2);
    cfg.blockDim = dim3(64);
    cudaLaunchAttribute at[2];
    at[0].id = cudaLaunchAttributePriority;
    at[0].val.priority = 0;
    at[1].id = cudaLaunchAttributeClusterDimension;
    at[1].val.clusterDim.x = 1;
    at[1].val.clusterDim.y = 1;
    at[1].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 2;
    CK(cudaLaunchKernelEx(&cfg, simple, di, 41));
    CK(cudaMemcpy(hs, di + 100, 4, cudaMemcpyDeviceToHost));
    printf("cudaLaunchKernelEx: %d\n", hs[0]);

    // a cooperative launch sized by occupancy
    const int n = 1 << 18;
    int *in;
    unsigned long long *part, *tot, ht;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&part, 8 * sizeof(unsigned long long)));
    CK(cudaMalloc(&tot, sizeof(unsigned long long)));
    int *hin = new int[n];
    for (int i = 0; i < n; i++)
        hin[i] = (i * 7919) % 10007;
    CK(cudaMemcpy(in, hin, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(part, 0, 8 * sizeof(unsigned long long)));
    int coop;
    CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    int per_sm, sms;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, 256, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int nn = n;
    void *args[] = { &in, &nn, &part, &tot };
    CK(cudaLaunchCooperativeKernel((void *)grid_sum, dim3(per_sm * sms), dim3(256), args, 0, 0));
    CK(cudaMemcpy(&ht, tot, sizeof ht, cudaMemcpyDeviceToHost));
    printf("cooperative (supported %d): total %llu\n", coop, ht);
    printf("cooperative, one block too many: %s\n",
           cudaGetErrorName(cudaLaunchCooperativeKernel((void *)grid_sum, dim3(per_sm * sms + 1), dim3(256), args, 0, 0)));
    CK(cudaDeviceSynchronize());
    return 0;
}
