// ipc.h: what the programs that share memory between processes (ipc.cu, ipc_pool.cu)
// share: a kernel that adds to every word, filling and checking words as i * k + d, and
// passing bytes to the child process as hexadecimal text.
#pragma once
#include "apps.h"
#include <cstring>
#include <string>

__global__ void bump(unsigned *p, int n, unsigned by)
{
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        p[i] += by;
}

// How many of n words at device address p are their index times k plus d.
static void check(const char *what, const void *p, int n, unsigned k, unsigned d)
{
    unsigned *h = (unsigned *)malloc(n * 4);
    CK(cudaMemcpy(h, p, n * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != i * k + d;
    printf("%s: %d of %d words as expected\n", what, n - bad, n);
    free(h);
}

static void fill(void *p, int n, unsigned k, unsigned d)
{
    unsigned *h = (unsigned *)malloc(n * 4);
    for (int i = 0; i < n; i++)
        h[i] = i * k + d;
    CK(cudaMemcpy(p, h, n * 4, cudaMemcpyHostToDevice));
    free(h);
}

static std::string hex(const void *p, size_t n)
{
    std::string s;
    char b[3];
    for (size_t i = 0; i < n; i++) {
        snprintf(b, sizeof b, "%02x", ((const unsigned char *)p)[i]);
        s += b;
    }
    return s;
}

static void unhex(const char *s, void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        ((unsigned char *)p)[i] = (unsigned char)v;
    }
}
