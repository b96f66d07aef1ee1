// Feature group 6.26: printf, assert, trap, brkpt, profiler trigger, malloc/free, device memcpy/memset.
#include <cstdio>
#include <cassert>
#include <cstring>

__global__ void k_printf(int i, float f, double d, long long ll, const char *s, char c, short h, unsigned u)
{
    printf("hello\n");
    printf("i=%d f=%f d=%f ll=%lld s=%s c=%c p=%p\n", i, f, d, ll, s, c, (void *)s);
    printf("%c %d %f %hd %lld %u %f\n", c, i, f, h, ll, u, d);
    printf("%s|%5.2f|%x|%s\n", s, (float)i, i, "lit");
    printf("tid=%d block=%d %e %g %08X %%\n", threadIdx.x, blockIdx.x, f, d, u);
}
__global__ void k_printf_ret(int *o)
{
    o[threadIdx.x] = printf("%d\n", threadIdx.x);
}
__global__ void k_assert(int *a, int n)
{
    int x = a[threadIdx.x];
    assert(x > 0);
    assert(n < 1000 && "n too large");
    a[threadIdx.x] = x + n;
}
__global__ void k_trap(int *a)
{
    if (a[threadIdx.x] < 0) __trap();
    if (a[threadIdx.x] == 12345) __brkpt();
    __prof_trigger(0);
    __prof_trigger(15);
    a[threadIdx.x] += 1;
}
__global__ void k_malloc(int **out, int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    if (p == nullptr) return;
    for (int j = 0; j < n; j++) p[j] = j;
    out[threadIdx.x] = p;
}
__global__ void k_free(int **in)
{
    free(in[threadIdx.x]);
}
__global__ void k_memcpy_memset(const char *src, char *dst, int n)
{
    char buf[64];
    memcpy(buf, src + threadIdx.x * 64, 64);
    memset(dst + threadIdx.x * 64, 0, 64);
    memcpy(dst + threadIdx.x * 64, buf, n < 64 ? n : 64);
    memset(buf, 7, n & 63);
    dst[threadIdx.x] = buf[n & 63];
}
__global__ void k_new_delete(int *o, int n)
{
    int *p = new int[n];
    for (int j = 0; j < n; j++) p[j] = j * 2;
    o[threadIdx.x] = p[threadIdx.x % n];
    delete[] p;
}
