// apps.h: what the CUDA programs of tests/apps share.  Each program prints what it
// computed and the error names the runtime returned, so that its standard output (and
// exit status) recorded on the H100 is what the emulator must reproduce.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// CK(call): a runtime call that must succeed; on failure print it and exit 1.
#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            printf("line %d: %s -> %s\n", __LINE__, #x, cudaGetErrorName(e_));             \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

// SAY(call): a runtime call whose result is part of the output (it may fail on purpose).
#define SAY(x) printf("%s -> %s\n", #x, cudaGetErrorName(x))

// DK(call): the same for a driver call (the program includes <cuda.h>).
#define DK(x)                                                                              \
    do {                                                                                   \
        CUresult r_ = (x);                                                                 \
        const char *n_ = nullptr;                                                          \
        cuGetErrorName(r_, &n_);                                                           \
        printf("%s -> %s\n", #x, n_ ? n_ : "?");                                           \
    } while (0)
