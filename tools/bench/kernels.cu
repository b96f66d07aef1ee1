// kernels.cu: the benchmark kernels of `make bench` (kernels.ptx beside it is nvcc's output:
// nvcc -std=c++17 -ptx -arch=sm_90 kernels.cu -o kernels.ptx; kernels_g.ptx is the -G build:
// nvcc -std=c++17 -G -ptx -arch=sm_90 kernels.cu -o kernels_g.ptx).
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// Tree reduction in shared memory: each block sums blockDim.x * 2 elements.
extern "C" __global__ void reduce_sum(const int *in, int *partial, int n)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + t;
    int v = 0;
    if (i < n)
        v = in[i];
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    s[t] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

// C = A * B for n x n matrices, 16 x 16 tiles in shared memory (n a multiple of 16).
#define TILE 16
extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// Warp-shuffle reduction: each block sums blockDim.x * 2 floats, each warp with
// __shfl_down_sync, then the first warp over the warps' sums (blockDim.x <= 1024).
extern "C" __global__ void reduce_shfl(const float *in, float *partial, int n)
{
    __shared__ float ws[32];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + t;
    float v = 0.0f;
    if (i < n)
        v = in[i];
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((t & 31) == 0)
        ws[t >> 5] = v;
    __syncthreads();
    if (t < 32) {
        v = t < (blockDim.x >> 5) ? ws[t] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}

// The cost of one converged full-mask shfl.sync against one add.s32: the same loop of
// 16 dependent instructions per iteration, in inline PTX so that nvcc keeps every one.
extern "C" __global__ void loop_shfl(unsigned *out, int iters)
{
    unsigned v = threadIdx.x;
    for (int k = 0; k < iters; k++) {
#pragma unroll
        for (int u = 0; u < 16; u++)
            asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

extern "C" __global__ void loop_add(unsigned *out, int iters)
{
    unsigned v = threadIdx.x, w = blockIdx.x;
    for (int k = 0; k < iters; k++) {
#pragma unroll
        for (int u = 0; u < 16; u++)
            asm volatile("add.s32 %0, %0, %1;" : "+r"(v) : "r"(w));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Every thread adds 1 to one global counter.
extern "C" __global__ void atomic_count(unsigned *counter)
{
    atomicAdd(counter, 1u);
}

// A 256-bin histogram of the low bytes of n words, in shared memory, merged into hist
// (blocks of 256 threads).
extern "C" __global__ void histogram_shared(const unsigned *in, unsigned *hist, int n)
{
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] & 255], 1u);
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

// The same kernel without atomics (its counts are wrong where lanes collide): the
// baseline histogram_shared is compared with.
extern "C" __global__ void histogram_plain(const unsigned *in, unsigned *hist, int n)
{
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        h[in[i] & 255] += 1;
    __syncthreads();
    hist[threadIdx.x] += h[threadIdx.x];
}
