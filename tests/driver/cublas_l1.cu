// cublas_l1: cuBLAS level-1 routines, whose driver calls tests/driver/logs/cublas_l1.log
// records (DRVLOG_WRAP=21318c60: the math libraries' private table).
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>
int main() {
    const int n = 1000;
    float *x, *y;
    cudaMallocManaged(&x, n*4); cudaMallocManaged(&y, n*4);
    for (int i = 0; i < n; i++) { x[i] = i * 0.5f; y[i] = 1.0f; }
    cublasHandle_t h;
    printf("create %d\n", (int)cublasCreate(&h));
    float a = 2;
    printf("scal %d\n", (int)cublasSscal(h, n, &a, x, 1));
    printf("axpy %d\n", (int)cublasSaxpy(h, n, &a, x, 1, y, 1));
    float r = 0;
    printf("dot %d\n", (int)cublasSdot(h, n, x, 1, y, 1, &r));
    float nr = 0;
    printf("nrm2 %d\n", (int)cublasSnrm2(h, n, x, 1, &nr));
    int im = 0;
    printf("amax %d\n", (int)cublasIsamax(h, n, x, 1, &im));
    cudaDeviceSynchronize();
    printf("x[10]=%g y[10]=%g dot=%g nrm2=%g amax=%d\n", x[10], y[10], r, nr, im);
    return 0;
}
