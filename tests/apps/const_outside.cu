// const_outside: reads of a __constant__ array past its end, at a negative index and beyond
// 64 KB.  The H100 gives the next variable's bytes (tab[298], tab[299] are other[]) and
// zeros past the module's constants, with no error.
#include "apps.h"
#include <cstring>

__constant__ double tab[298];
__constant__ int other[4] = { 11, 22, 33, 44 };

__global__ void k(const int *idx, double *out, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n)
        out[i] = tab[idx[i]];
}

int main()
{
    double h[298];
    for (int i = 0; i < 298; i++)
        h[i] = i + 0.5;
    CK(cudaMemcpyToSymbol(tab, h, sizeof h));
    const int n = 16;
    int idx[n] = { 0, 297, 298, 299, 300, 301, 320, 400, 1000, 4000, 8000, 8191, 8192, 9000, 20000, -1 };
    int *di;
    double *dout;
    CK(cudaMalloc(&di, sizeof idx));
    CK(cudaMalloc(&dout, n * 8));
    CK(cudaMemcpy(di, idx, sizeof idx, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xff, n * 8));
    k<<<1, n>>>(di, dout, n);
    CK(cudaDeviceSynchronize());
    double o[n];
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        unsigned long long b;
        memcpy(&b, &o[i], 8);
        printf("tab[%d] = %016llx\n", idx[i], b);
    }
    return 0;
}
