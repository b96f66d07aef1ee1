// err_api: errors of the runtime API that do not end the context: invalid launch
// configurations, allocation failures, bad pointers and handles, errors of a launch
// read with cudaGetLastError and cudaPeekAtLastError, error names and strings.
#include "apps.h"
#include <cstring>

__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }

int main()
{
    int *d;
    CK(cudaMalloc(&d, 1024 * sizeof(int)));
    k<<<1, 2048>>>(d);
    cudaError_t e1 = cudaPeekAtLastError(), e2 = cudaGetLastError(), e3 = cudaGetLastError();
    printf("peek %s, then get %s, then get %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2), cudaGetErrorName(e3));
    k<<<1, 1024>>>(d);
    CK(cudaDeviceSynchronize());
    int h[4];
    CK(cudaMemcpy(h, d + 1020, sizeof h, cudaMemcpyDeviceToHost));
    printf("after the bad launch a good one runs: %d %d\n", h[0], h[3]);

    void *big;
    SAY(cudaMalloc(&big, (size_t)1 << 50));
    printf("last error after the failed malloc: %s\n", cudaGetErrorName(cudaGetLastError()));
    SAY(cudaMalloc(&big, 0));
    printf("malloc of 0 gives NULL: %d\n", big == NULL);
    SAY(cudaFree(NULL));
    int x;
    SAY(cudaFree(&x));
    SAY(cudaFree(d + 1));
    SAY(cudaMemcpy(h, (int *)16, 16, cudaMemcpyDeviceToHost));
    SAY(cudaMemset(d, 0, 1 << 30));
    SAY(cudaMemcpy(d, h, 16, (cudaMemcpyKind)7));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamDestroy(s));
    cudaEvent_t e;
    CK(cudaEventCreate(&e));
    SAY(cudaEventElapsedTime((float *)h, e, e));
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CK(cudaEventRecord(e));
    CK(cudaEventSynchronize(e));
    SAY(cudaEventElapsedTime((float *)h, e, e));
    SAY(cudaSetDevice(1));
    SAY(cudaSetDevice(-1));
    int dev = -5;
    CK(cudaGetDevice(&dev));
    printf("device %d\n", dev);
    int n = 0;
    CK(cudaGetDeviceCount(&n));
    printf("device count %d\n", n);
    SAY(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    size_t v;
    CK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    printf("stack size limit %zu\n", v);
    SAY(cudaDeviceSetLimit((cudaLimit)99, 1));
    SAY(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024));
    SAY(cudaFuncSetCacheConfig(k, cudaFuncCachePreferShared));
    SAY(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    cudaFuncCache cc;
    CK(cudaDeviceGetCacheConfig(&cc));
    printf("cache config %d\n", (int)cc);
    for (int i = 0; i <= 4; i++)
        printf("%d %s: %s\n", i, cudaGetErrorName((cudaError_t)i), cudaGetErrorString((cudaError_t)i));
    printf("700 %s: %s\n", cudaGetErrorName(cudaErrorIllegalAddress), cudaGetErrorString(cudaErrorIllegalAddress));
    printf("710 %s: %s\n", cudaGetErrorName(cudaErrorAssert), cudaGetErrorString(cudaErrorAssert));
    printf("719 %s: %s\n", cudaGetErrorName(cudaErrorLaunchFailure), cudaGetErrorString(cudaErrorLaunchFailure));
    printf("last error at the end: %s\n", cudaGetErrorName(cudaGetLastError()));
    // the error log holds messages about the failed calls (their text is the driver's own)
    cudaLogIterator it = 0;
    CK(cudaLogsCurrent(&it, 0));
    SAY(cudaSetDevice(7));
    char buf[4096];
    size_t size = sizeof buf;
    CK(cudaLogsDumpToMemory(&it, buf, &size, 0));
    printf("log after cudaSetDevice(7) holds 'Invalid device number 7': %d\n", strstr(buf, "Invalid device number 7") != NULL);
    return 0;
}
