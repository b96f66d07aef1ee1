// cufft_1d: a 1D complex FFT through cuFFT, whose driver calls tests/driver/logs/cufft_1d.log
// records (DRVLOG_WRAP=6e163fbe).  cuFFT's kernels are SASS only: the emulator reports them.
#include <cstdio>
#include <cufft.h>
#include <cuda_runtime.h>
int main() {
    const int n = 256;
    cufftComplex *d; cudaMallocManaged(&d, n * sizeof(cufftComplex));
    for (int i = 0; i < n; i++) { d[i].x = (float)((i * 7) % 13) - 6.0f; d[i].y = (float)((i * 3) % 5) * 0.5f; }
    cufftHandle p;
    printf("plan %d\n", (int)cufftPlan1d(&p, n, CUFFT_C2C, 1));
    printf("exec %d\n", (int)cufftExecC2C(p, d, d, CUFFT_FORWARD));
    cudaDeviceSynchronize();
    printf("%.9g %.9g %.9g %.9g\n", d[0].x, d[0].y, d[5].x, d[5].y);
    return 0;
}
