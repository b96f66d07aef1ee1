// cublaslt: cuBLASLt's matmul heuristics (link: -lcublasLt) for an FP8 matmul (e4m3 x e4m3
// -> bf16, f32 compute) and an f32 one.  On the FP8 path cuBLASLt asks the driver for a
// private table of its own (docs/driver-abi.md); the emulator's answers every slot with
// CUDA_ERROR_NOT_SUPPORTED, and cuBLASLt still finds an algorithm, as on the GPU.
#include <cstdio>
#include <cublasLt.h>
#include <cuda_fp8.h>

static int heuristic(cublasLtHandle_t lt, bool fp8)
{
    const int m = 64, n = 64, k = 64;
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
    cublasLtMatmulHeuristicResult_t r[4] = {};
    int nr = 0;
    int st = cublasLtMatmulAlgoGetHeuristic(lt, op, A, B, C, D, pref, 1, r, &nr);
    printf("%s heuristic: status %d, %d result%s\n", fp8 ? "fp8 e4m3 -> bf16" : "f32", st, nr, nr == 1 ? "" : "s");
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(A);
    cublasLtMatrixLayoutDestroy(B);
    cublasLtMatrixLayoutDestroy(C);
    cublasLtMatrixLayoutDestroy(D);
    cublasLtMatmulDescDestroy(op);
    return st;
}

int main()
{
    cublasLtHandle_t lt;
    int st = cublasLtCreate(&lt);
    printf("create: status %d\n", st);
    if (st)
        return 1;
    int bad = heuristic(lt, true) | heuristic(lt, false);
    printf("destroy: status %d\n", cublasLtDestroy(lt));
    return bad ? 1 : 0;
}
