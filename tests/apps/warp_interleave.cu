// warp_interleave: a block reduction called twice without a barrier between the calls, as
// HeCBench's layernorm does: after the first call's last barrier every warp reads smem[0],
// while warp 0 goes on to the second call and writes smem[0] again once it has summed its
// row.  That is a race; the GPU's schedulers interleave the warps so that the others read
// the first result long before warp 0 writes, and the program gets the right answer.  An
// emulator that runs each warp until it blocks gets another.  Prints, per block size, how
// many outputs match a CPU reference and a checksum of them.
#include "apps.h"
#include <cmath>


__device__ float warp_reduce(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ float block_reduce(float v)
{
    __shared__ float smem[32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nwarps = (blockDim.x + 31) / 32;
    v = warp_reduce(v);
    if (lane == 0)
        smem[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? smem[lane] : 0.0f;
        v = warp_reduce(v);
        if (lane == 0)
            smem[0] = v;
    }
    __syncthreads();
    return smem[0];
}

__global__ void layernorm(const float *x, float *y, int cols)
{
    const float *row = x + (size_t)blockIdx.x * cols;
    float s = 0.0f;
    for (int i = threadIdx.x; i < cols; i += blockDim.x)
        s += row[i];
    const float mean = block_reduce(s) / cols;
    float q = 0.0f;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) {
        float d = row[i] - mean;
        q += d * d;
    }
    const float rstd = rsqrtf(block_reduce(q) / cols + 1e-5f);
    for (int i = threadIdx.x; i < cols; i += blockDim.x)
        y[(size_t)blockIdx.x * cols + i] = (row[i] - mean) * rstd;
}

int main()
{
    const int rows = 8, cols = 768, n = rows * cols;
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    float *ref = (float *)malloc(n * sizeof(float));
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        hx[i] = (float)(s >> 8) / 16777216.0f * 4.0f - 1.5f;
    }
    for (int r = 0; r < rows; r++) {
        double m = 0, v = 0;
        for (int i = 0; i < cols; i++)
            m += hx[r * cols + i];
        m /= cols;
        for (int i = 0; i < cols; i++)
            v += (hx[r * cols + i] - m) * (hx[r * cols + i] - m);
        v /= cols;
        for (int i = 0; i < cols; i++)
            ref[r * cols + i] = (float)((hx[r * cols + i] - m) / sqrt(v + 1e-5));
    }
    float *dx, *dy;
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dy, n * sizeof(float)));
    CK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int bs = 64; bs <= 1024; bs *= 2) {
        CK(cudaMemset(dy, 0, n * sizeof(float)));
        layernorm<<<rows, bs>>>(dx, dy, cols);
        CK(cudaGetLastError());
        CK(cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
        int ok = 0;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            ok += fabsf(hy[i] - ref[i]) < 1e-3f;
            sum += fabs(hy[i]);
        }
        printf("block %4d: %d of %d match the reference, sum |y| %.3f\n", bs, ok, n, sum);
    }
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    free(hx);
    free(hy);
    free(ref);
    return 0;
}
