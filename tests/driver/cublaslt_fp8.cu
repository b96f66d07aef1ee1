// cublaslt_fp8.cu: cublasLtMatmulAlgoGetHeuristic for an FP8 (e4m3 x e4m3 -> bf16) or, with
// argument 0, an f32 matmul: cuBLASLt asks the driver for the private table
// 1734dc26-800d-4745-8726-c0f1e7dd8bca on the FP8 path (docs/driver-abi.md).
#include <cstdio>
#include <cstdlib>
#include <cublasLt.h>
#include <cuda_fp8.h>
int main(int argc, char **argv)
{
    int fp8 = argc > 1 ? atoi(argv[1]) : 1;
    int m = 64, n = 64, k = 64;
    cublasLtHandle_t lt;
    printf("create %d\n", cublasLtCreate(&lt));
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t A, B, C, D;
    cublasLtMatmulPreference_t pref;
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
    cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
    cudaDataType ab = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_32F, cd = fp8 ? CUDA_R_16BF : CUDA_R_32F;
    cublasLtMatrixLayoutCreate(&A, ab, k, m, k);
    cublasLtMatrixLayoutCreate(&B, ab, k, n, k);
    cublasLtMatrixLayoutCreate(&C, cd, m, n, m);
    cublasLtMatrixLayoutCreate(&D, cd, m, n, m);
    size_t ws = 1 << 22;
    cublasLtMatmulPreferenceCreate(&pref);
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    cublasLtMatmulHeuristicResult_t r = {};
    int nr = 0;
    printf("calling cublasLtMatmulAlgoGetHeuristic (%s)\n", fp8 ? "fp8 e4m3 x e4m3 -> bf16" : "fp32");
    fflush(stdout);
    int st = cublasLtMatmulAlgoGetHeuristic(lt, op, A, B, C, D, pref, 1, &r, &nr);
    printf("heuristic status %d, %d results\n", st, nr);
}
