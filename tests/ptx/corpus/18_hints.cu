// Feature group 6.18: compiler hints and #pragma unroll.
__global__ void k_assume_aligned(const float *p, float *o)
{
    const float *q = (const float *)__builtin_assume_aligned(p, 16);
    o[threadIdx.x] = q[0] + q[1] + q[2] + q[3];
}
__global__ void k_expect(int *o, int x)
{
    if (__builtin_expect(x == 12345, 0)) o[threadIdx.x] = -1;
    else o[threadIdx.x] = x * 2;
}
__global__ void k_assume(int *o, int x)
{
    __builtin_assume(x > 0 && x < 64);
    o[threadIdx.x] = x / 4 + x % 8;
}
__global__ void k_unreachable(int *o, int x)
{
    int r;
    switch (x) {
    case 0: r = 1; break;
    case 1: r = 5; break;
    default: __builtin_unreachable();
    }
    o[threadIdx.x] = r;
}
__global__ void k_unreachable2(int *o, int x)
{
    if (x > 3) { o[0] = x; return; }
    __builtin_unreachable();
}
__global__ void k_unroll(float *a, int n)
{
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) s += a[j * 32 + threadIdx.x];
#pragma unroll 4
    for (int j = 0; j < n; j++) s += a[j];
#pragma unroll 1
    for (int j = 0; j < n; j++) s *= a[j] + 1.0f;
    a[threadIdx.x] = s;
}
__global__ void k_restrict_hint(const float *__restrict__ a, float *__restrict__ b, int n)
{
    for (int j = threadIdx.x; j < n; j += blockDim.x) b[j] = a[j] * a[n - 1 - j];
}
__global__ void k_likely(int *o, int x)
{
    if (x > 0) [[likely]] o[threadIdx.x] = x + 1;
    else [[unlikely]] o[threadIdx.x] = 0;
}
