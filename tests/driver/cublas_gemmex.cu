// cublas_gemmex.cu: cublasGemmEx with f16 inputs and f32 compute, which cuBLAS runs
// through cuBLASLt (the private table 1734dc26-..., docs/driver-abi.md).
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_fp16.h>
int main()
{
    int n = 64;
    __half *a, *b;
    float *c;
    cudaMalloc(&a, n * n * 2);
    cudaMalloc(&b, n * n * 2);
    cudaMalloc(&c, n * n * 4);
    cudaMemset(a, 0, n * n * 2);
    cudaMemset(b, 0, n * n * 2);
    cublasHandle_t h;
    printf("create %d\n", cublasCreate(&h));
    float al = 1, be = 0;
    int st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &al, a, CUDA_R_16F, n, b, CUDA_R_16F, n, &be, c,
                          CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    printf("gemmEx status %d\n", st);
    printf("sync %d\n", (int)cudaDeviceSynchronize());
}
