// cublas_level1: cuBLAS's level-1 routines (link: -lcublas) on the emulator.  The math
// libraries carry PTX only for a newer architecture (compute_120) beside their SASS, and
// call the driver through a private table of their own; scal, axpy, copy, swap, dot, nrm2,
// asum, amax, amin and rot in single and double precision, with results returned to the
// host and (pointer mode device) to device memory.
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CK(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { printf("%s: status %d\n", #x, (int)s_); return 1; } } while (0)

int main()
{
    const int n = 1000;
    float *x, *y, *r;
    double *dx, *dy, *dr;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&r, 8 * sizeof(float));
    cudaMallocManaged(&dx, n * sizeof(double));
    cudaMallocManaged(&dy, n * sizeof(double));
    cudaMallocManaged(&dr, 8 * sizeof(double));
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i * 37) % 101 - 50) * 0.125f + 1.0f / (float)(i + 3);
        y[i] = (float)((i * 11) % 7) - 3.0f;
        dx[i] = (double)x[i] * 1.0000001;
        dy[i] = (double)y[i] / 3.0;
    }
    cublasHandle_t h;
    CK(cublasCreate(&h));
    float a = 1.5f, fr[6];
    double da = -0.75, drr[6];
    int im[4];
    CK(cublasSscal(h, n, &a, x, 1));
    CK(cublasSaxpy(h, n, &a, x, 1, y, 1));
    CK(cublasSdot(h, n, x, 1, y, 1, &fr[0]));
    CK(cublasSnrm2(h, n, x, 1, &fr[1]));
    CK(cublasSasum(h, n, y, 1, &fr[2]));
    CK(cublasIsamax(h, n, x, 1, &im[0]));
    CK(cublasIsamin(h, n, y, 1, &im[1]));
    CK(cublasDscal(h, n, &da, dx, 1));
    CK(cublasDaxpy(h, n, &da, dx, 1, dy, 1));
    CK(cublasDdot(h, n, dx, 1, dy, 1, &drr[0]));
    CK(cublasDnrm2(h, n, dy, 1, &drr[1]));
    CK(cublasDasum(h, n, dx, 1, &drr[2]));
    CK(cublasIdamax(h, n, dy, 1, &im[2]));
    CK(cublasIdamin(h, n, dx, 1, &im[3]));
    float c = 0.6f, s = 0.8f;
    CK(cublasSrot(h, n / 2, x, 2, y, 2, &c, &s));
    CK(cublasScopy(h, n / 4, x, 1, y + n / 2, 1));
    CK(cublasSswap(h, 100, x, 3, y + 1, 3));
    /* results left in device memory */
    CK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CK(cublasSdot(h, n, x, 1, y, 1, &r[0]));
    CK(cublasSnrm2(h, n, y, 1, &r[1]));
    CK(cublasDdot(h, n / 3, dx, 2, dy, 3, &dr[0]));
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorString(e));
    printf("sdot %.9g snrm2 %.9g sasum %.9g isamax %d isamin %d\n", fr[0], fr[1], fr[2], im[0], im[1]);
    printf("ddot %.17g dnrm2 %.17g dasum %.17g idamax %d idamin %d\n", drr[0], drr[1], drr[2], im[2], im[3]);
    printf("device: sdot %.9g snrm2 %.9g ddot %.17g\n", r[0], r[1], dr[0]);
    double sx = 0, sy = 0;
    for (int i = 0; i < n; i++) {
        sx += x[i] * (double)(i % 13 + 1);
        sy += y[i] * (double)(i % 17 + 1);
    }
    printf("x %.17g y %.17g x[7] %.9g y[501] %.9g\n", sx, sy, x[7], y[501]);
    CK(cublasDestroy(h));
    return 0;
}
