// Feature group 6.17: alloca.
#include <cstddef>
extern "C" __device__ void *alloca(size_t);

__global__ void k_alloca_dyn(int *o, int n)
{
    int *buf = (int *)alloca(n * sizeof(int));
    for (int j = 0; j < n; j++) buf[j] = j * threadIdx.x;
    int s = 0;
    for (int j = 0; j < n; j++) s += buf[(j * 7) % n];
    o[threadIdx.x] = s;
}
__global__ void k_builtin_alloca(float *o, int n)
{
    float *buf = (float *)__builtin_alloca(n * sizeof(float));
    for (int j = 0; j < n; j++) buf[j] = o[j];
    o[threadIdx.x] = buf[threadIdx.x % n];
}
__global__ void k_alloca_loop(int *o, int n, int rounds)
{
    int s = 0;
    for (int r = 0; r < rounds; r++) {
        char *b = (char *)alloca(n + r);
        for (int j = 0; j < n + r; j++) b[j] = (char)(j + r);
        s += b[(r * 3) % (n + r)];
    }
    o[threadIdx.x] = s;
}
__global__ void k_alloca_const(int *o, int k)
{
    int *buf = (int *)alloca(64);
    for (int j = 0; j < 16; j++) buf[j] = o[j];
    o[threadIdx.x] = buf[k & 15];
}
