// cg_devrt.cu: the device runtime's cooperative-group calls (libcudadevrt, as Numba's grid
// sync and old cooperative_groups code call them): cudaCGGetIntrinsicHandle for the grid,
// cudaCGSynchronize and cudaCGSynchronizeGrid between rounds in which every thread reads
// what another CTA wrote, cudaCGGetSize and cudaCGGetRank, in cooperative launches of 1 to
// 3 dimensions.
// target: -rdc=true -arch=sm_90
// link: -lcudadevrt
#include "apps.h"

__global__ void rounds(int *a, int *b, unsigned *info, int n)
{
    unsigned long long h = cudaCGGetIntrinsicHandle(cudaCGScopeGrid);
    unsigned rank = 0, grid = 9, threads = 0, grids = 0;
    cudaError_t e1 = cudaCGGetRank(&rank, &grid, h);
    cudaError_t e2 = cudaCGGetSize(&threads, &grids, h);
    for (int r = 0; r < 4; r++) {
        a[rank] = (int)rank * 10 + r;
        cudaError_t e = r & 1 ? cudaCGSynchronizeGrid(h, 0) : cudaCGSynchronize(h, 0);
        b[r * n + rank] = a[(rank + 37) % n] + (e ? 1000000 : 0);
        cudaCGSynchronize(h, 0);
    }
    if (rank == 5)
        info[0] = threads, info[1] = grids, info[2] = grid, info[3] = (unsigned)e1, info[4] = (unsigned)e2,
        info[5] = h != 0;
}

int main()
{
    const dim3 grids[] = { dim3(8), dim3(3, 2), dim3(2, 2, 2) }, blocks[] = { dim3(128), dim3(16, 8), dim3(4, 4, 4) };
    for (int c = 0; c < 3; c++) {
        int n = (int)(grids[c].x * grids[c].y * grids[c].z * blocks[c].x * blocks[c].y * blocks[c].z);
        int *a, *b;
        unsigned *info;
        CK(cudaMalloc(&a, n * sizeof(int)));
        CK(cudaMalloc(&b, 4 * n * sizeof(int)));
        CK(cudaMalloc(&info, 6 * sizeof(unsigned)));
        void *args[] = { &a, &b, &info, &n };
        SAY(cudaLaunchCooperativeKernel((void *)rounds, grids[c], blocks[c], args, 0, 0));
        SAY(cudaDeviceSynchronize());
        int *hb = new int[4 * n];
        unsigned hi[6];
        CK(cudaMemcpy(hb, b, 4 * n * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hi, info, sizeof hi, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int r = 0; r < 4; r++)
            for (int i = 0; i < n; i++)
                bad += hb[r * n + i] != ((i + 37) % n) * 10 + r;
        printf("launch %d: %d threads, %d wrong; size %u, grids %u, grid rank %u, errors %u %u, handle %u\n", c, n,
               bad, hi[0], hi[1], hi[2], hi[3], hi[4], hi[5]);
        delete[] hb;
        CK(cudaFree(a));
        CK(cudaFree(b));
        CK(cudaFree(info));
    }
    return 0;
}
