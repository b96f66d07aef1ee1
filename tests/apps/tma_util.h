// tma_util.h: what the randomised TMA programs (tma_fuzz, tma_replace) share: a seeded
// random sequence (splitmix64), a hash of the bytes they print instead of the bytes, the
// element sizes of CUtensorMapDataType, and a driver result printed by name.
#pragma once
#include <cuda.h>
#include <cstdint>
#include <cstdio>

static uint64_t rs;   // the sequence's state: set it to start a case's sequence
static inline uint64_t rnd()
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline int64_t range(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }
static inline uint64_t fnv(const unsigned char *p, size_t n)   // FNV-1a, 64 bits
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
static const unsigned esize[13] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };
static inline void say_result(CUresult r)   // " -> NAME" and the end of the line
{
    const char *n = nullptr;
    cuGetErrorName(r, &n);
    printf(" -> %s\n", n ? n : "?");
}
