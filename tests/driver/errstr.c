/* errstr.c: every CUresult the real driver names, with cuGetErrorName and cuGetErrorString,
 * one per line as CODE<tab>NAME<tab>STRING: run on the GPU machine (gcc errstr.c -lcuda) to
 * record runtime/driver/errors.def's strings. */
#include <cuda.h>
#include <stdio.h>
int main(void)
{
    for (int e = 0; e < 1100; e++) {
        const char *n = NULL, *s = NULL;
        CUresult rn = cuGetErrorName((CUresult)e, &n);
        CUresult rs = cuGetErrorString((CUresult)e, &s);
        if (rn == CUDA_SUCCESS || rs == CUDA_SUCCESS)
            printf("%d\t%s\t%s\n", e, n ? n : "", s ? s : "");
    }
    return 0;
}
