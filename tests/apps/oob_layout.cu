// oob_layout: what a kernel may touch outside its allocations.  cudaMalloc packs small
// allocations at 512-byte steps into 2 MiB chunks of mapped memory and gives a large one
// 2 MiB-aligned chunks of its own; an access anywhere in mapped memory succeeds (reading a
// neighbour's data or zeros) and only one beyond it faults.  A stencil reading the row
// before its first array (as Rodinia's SRAD does) runs; a read past a large allocation's
// chunks faults, as on the H100.
// target: -arch=sm_90
#include "apps.h"

__global__ void rd(const char *p, long long off, int *out) { out[0] = *(const int *)(p + off); }
__global__ void wr(char *p, long long off) { *(int *)(p + off) = 0x5a5a5a5a; }

// out[i] = in[i - w] + in[i] + in[i + w] for a w-wide image: the first and last rows read
// a row outside the array.
__global__ void stencil(const float *in, float *out, int w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i - w] + in[i] + in[i + w];
}

static int *res;

static void show_read(const char *what, char *p, long long off)
{
    CK(cudaMemset(res, 0xee, 4));
    rd<<<1, 1>>>(p, off, res);
    cudaError_t e = cudaDeviceSynchronize();
    int v = 0;
    if (e == cudaSuccess)
        CK(cudaMemcpy(&v, res, 4, cudaMemcpyDeviceToHost));
    printf("read  %-28s %+10lld: %s %08x\n", what, off, cudaGetErrorName(e), v);
}

static void show_write(const char *what, char *p, long long off)
{
    wr<<<1, 1>>>(p, off);
    printf("write %-28s %+10lld: %s\n", what, off, cudaGetErrorName(cudaDeviceSynchronize()));
}

int main()
{
    const size_t sizes[] = { 4096, 1000, 3u << 20, 100u << 20, 64, 2u << 20, 40000 };
    const char *names[] = { "a0 (4096 B)", "a1 (1000 B)", "a2 (3 MiB)", "a3 (100 MiB)", "a4 (64 B)", "a5 (2 MiB)",
                            "a6 (40000 B)" };
    char *a[7];
    for (int i = 0; i < 7; i++) {
        CK(cudaMalloc(&a[i], sizes[i]));
        CK(cudaMemset(a[i], 0x11 * (i + 1), sizes[i]));
    }
    CK(cudaMalloc(&res, 4));
    // the small allocations, packed: their distances from the first
    printf("small: a1-a0 %lld, a4-a0 %lld, a6-a0 %lld, res-a6 %lld, a0 at 2 MiB + %#llx\n", (long long)(a[1] - a[0]),
           (long long)(a[4] - a[0]), (long long)(a[6] - a[0]), (long long)((char *)res - a[6]),
           (unsigned long long)((size_t)a[0] & 0x1fffff));
    printf("large: 2 MiB-aligned %d %d %d\n", ((size_t)a[2] & 0x1fffff) == 0, ((size_t)a[3] & 0x1fffff) == 0,
           ((size_t)a[5] & 0x1fffff) == 0);

    show_read(names[0], a[0], -4);
    show_read(names[0], a[0], -1024);
    show_read(names[0], a[0], 4096);        // a1
    show_read(names[0], a[0], 8192);        // a6
    show_read(names[1], a[1], -4);          // a0
    show_read(names[1], a[1], 1000);        // the rest of a1's 512-byte step
    show_read(names[1], a[1], 1024);        // a4
    show_read(names[4], a[4], -512);        // a1
    show_read(names[4], a[4], 64);
    show_read(names[4], a[4], 4160);        // a6
    show_read(names[6], a[6], -1024);       // a1
    show_read(names[6], a[6], 40000);
    show_read(names[6], a[6], 105536);      // unallocated, in the chunk
    show_read(names[2], a[2], 3u << 20);    // the rest of a2's last chunk
    show_read(names[2], a[2], (3u << 20) + 65536);
    show_write(names[0], a[0], -4);
    show_write(names[1], a[1], 5096);
    show_write(names[2], a[2], (3u << 20) + 4096);
    show_read(names[0], a[0], -4);          // what was written there

    // a stencil over a 256 x 256 image in the first allocation of a fresh chunk's worth of
    // small ones: rows -1 and 256 are outside it
    const int w = 256, n = w * w;
    float *in, *out;
    CK(cudaMalloc(&in, n * sizeof(float)));
    CK(cudaMalloc(&out, n * sizeof(float)));
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 251) * 0.5f;
    CK(cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    stencil<<<n / 256, 256>>>(in, out, w, n);
    printf("stencil: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    CK(cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int i = w; i < n - w; i++)
        sum += h[i];
    printf("stencil: inner sum %.1f\n", sum);
    free(h);

    // past a large allocation's last chunk: a fault, which ends the context
    show_read(names[5], a[5], (2u << 20) + 4096);
    return 0;
}
