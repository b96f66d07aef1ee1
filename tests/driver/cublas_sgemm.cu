// cublas_sgemm: an SGEMM through cuBLAS, whose driver calls tests/driver/logs/cublas_sgemm.log
// records (run under the logging driver with DRVLOG_WRAP naming a table, record.sh).
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>
int main() {
    const int n = 64;
    float *a, *b, *c;
    cudaMallocManaged(&a, n*n*4); cudaMallocManaged(&b, n*n*4); cudaMallocManaged(&c, n*n*4);
    for (int i = 0; i < n*n; i++) { a[i] = (i % 7) * 0.5f; b[i] = (i % 5) * 0.25f; c[i] = 0; }
    cublasHandle_t h;
    cublasStatus_t s = cublasCreate(&h);
    printf("create %d\n", (int)s);
    float al = 1, be = 0;
    s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &al, a, n, b, n, &be, c, n);
    printf("sgemm %d\n", (int)s);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync %d %s c[0]=%g c[100]=%g\n", (int)e, cudaGetErrorString(e), c[0], c[100]);
    double ref = 0; for (int k = 0; k < n; k++) ref += a[k*n] * b[k]; printf("ref c[0]=%g\n", ref);
    return 0;
}
