// warp_reconverge: a warp reconverges after data-dependent branches inside a loop (an
// if / else-if whose first arm jumps over the second to their common end, a continue, a
// switch), as the H100 does: __activemask() at the top of every iteration shows the whole
// warp.  A program that relies on it (HeCBench local-ht's hash-table protocol of
// __activemask, __match_any_sync and __syncwarp) reads a key a lane of another group had
// not stored yet when the groups drift apart.
#include "apps.h"

__global__ void branches(int *cnt, const char *s, int n, unsigned *masks)
{
    for (int i = threadIdx.x; i < n; i += 32) {
        masks[i] = __activemask();
        char c = s[i];
        if (c == 'A')
            atomicAdd(&cnt[0], 1);
        else if (c == 'C')
            atomicAdd(&cnt[1], 1);
    }
}

__global__ void with_continue(int *cnt, const char *s, const char *q, int n, unsigned *masks)
{
    for (int i = threadIdx.x; i < n; i += 32) {
        masks[i] = __activemask();
        char c = s[i];
        if (c == 'N')
            continue;
        if (q[i] >= 10) {
            switch (c) {
            case 'A': atomicAdd(&cnt[0], 1); break;
            case 'C': atomicAdd(&cnt[1], 1); break;
            case 'G': atomicAdd(&cnt[2], 1); break;
            default: atomicAdd(&cnt[3], 1); break;
            }
        }
        if (q[i] >= 20)
            atomicAdd(&cnt[4 + (c & 3)], 1);
    }
}

static void report(const char *what, const unsigned *m, int n, const int *cnt, int ncnt)
{
    int off = 0;
    for (int i = 0; i < n; i++)
        off += m[i] != 0xffffffffu;
    printf("%s: %d of %d iterations' lanes saw a partial warp; counts", what, off, n);
    for (int k = 0; k < ncnt; k++)
        printf(" %d", cnt[k]);
    printf("\n");
}

int main()
{
    const int n = 512;
    char s[n], q[n];
    unsigned seed = 7;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        s[i] = "ACGTN"[(seed >> 16) % 5];
        q[i] = (char)((seed >> 8) % 30);
    }
    int *cnt;
    char *ds, *dq;
    unsigned *dm, m[n];
    int h[8];
    CK(cudaMalloc(&cnt, sizeof h));
    CK(cudaMalloc(&ds, n));
    CK(cudaMalloc(&dq, n));
    CK(cudaMalloc(&dm, sizeof m));
    CK(cudaMemcpy(ds, s, n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dq, q, n, cudaMemcpyHostToDevice));
    CK(cudaMemset(cnt, 0, sizeof h));
    branches<<<1, 32>>>(cnt, ds, n, dm);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(m, dm, sizeof m, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h, cnt, sizeof h, cudaMemcpyDeviceToHost));
    report("if / else-if", m, n, h, 2);
    CK(cudaMemset(cnt, 0, sizeof h));
    with_continue<<<1, 32>>>(cnt, ds, dq, n, dm);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(m, dm, sizeof m, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h, cnt, sizeof h, cudaMemcpyDeviceToHost));
    report("continue and switch", m, n, h, 8);
    return 0;
}
