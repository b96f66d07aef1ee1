// warp_converge: where the lanes of a warp wait for each other, as on the H100.
//  - After a loop left through two returns at different iterations (a probe through a
//    hash table, inlined), the warp is whole again: the lanes meet at the loop's
//    post-dominator however the code is laid out.
//  - A lane that runs a counted loop alone keeps the others waiting after the if, even
//    for 100000 iterations reading a flag they would set: it never sees it.
//  - A lane that spins on a flag (volatile) or a lock (atomicCAS) lets the others run on
//    past the join (the YIELD of such loops): the flag gets set, the lock holder leaves.
//  - __syncwarp(0xffffffff) waits for the other lanes at a full __syncwarp; their
//    __syncwarp(0xffff0000) does not stand in for it.
//  - HeCBench local-ht's shape: a hash table filled through atomicCAS, __match_any_sync
//    and __syncwarp(mask), then a table reset by all lanes and read by lane 0 alone
//    without a __syncwarp between: lane 0 sees every lane's reset.
#include "apps.h"

__device__ volatile int flag;
__device__ int lock_word, counter;

__device__ __forceinline__ int probe(const int *tab, int key, int size)
{
    int h = key % size;
    while (true) {
        int v = tab[h];
        if (v == key)
            return h;
        if (v == -1)
            return -h - 1;
        h = (h + 1) % size;
    }
}

__global__ void probe_exit(const int *tab, int size, unsigned *out)
{
    int lane = threadIdx.x;
    int r = probe(tab, lane * 3, size);
    out[lane] = __activemask();
    out[32 + lane] = (unsigned)r;
}

__global__ void counted_alone(int n, int *out)
{
    int l = threadIdx.x, seen = 0;
    if (l == 0) {
        for (int i = 0; i < n; i++)
            seen += flag;
        out[0] = seen;
    }
    if (l == 1)
        flag = 1;
    out[1 + l] = (int)__activemask();
}

__global__ void spin_flag(int *out)
{
    int l = threadIdx.x, spins = 0;
    if (l < 31)
        while (flag == 0)
            spins++;
    if (l == 31)
        flag = 1;
    out[l] = spins > 0;
}

__global__ void spin_lock(int *out)
{
    while (atomicCAS(&lock_word, 0, 1) != 0)
        ;
    out[threadIdx.x] = atomicAdd(&counter, 1);
    __threadfence();
    atomicExch(&lock_word, 0);
}

__device__ volatile int sh[64];

__global__ void sync_masks(int *out)
{
    int l = threadIdx.x, r = -1;
    sh[l] = 0;
    __syncwarp();
    if (l < 16) {
        sh[l] = 1;
        __syncwarp(0xffffffffu);
        r = sh[l + 16];
    } else {
        sh[l] = 2;
        __syncwarp(0xffff0000u);
        long long t = clock64();
        while (clock64() - t < 100000)
            ;
        sh[l] = 3;
        __syncwarp(0xffffffffu);
        r = sh[l - 16];
    }
    out[l] = r;
}

struct slot { int len; const char *ptr; };

__device__ slot &insert(slot *ht, const char *key, int len, int size)
{
    unsigned h = 0;
    for (int i = 0; i < len; i++)
        h = h * 31u + (unsigned char)key[i];
    h %= (unsigned)size;
    while (true) {
        int prev = atomicCAS(&ht[h].len, -1, len);
        int mask = __match_any_sync(__activemask(), (unsigned long long)&ht[h]);
        if (prev == -1)
            ht[h].ptr = key;
        __syncwarp(mask);
        if (prev == -1)
            return ht[h];
        bool same = true;
        for (int i = 0; i < len && same; i++)
            same = ht[h].ptr[i] == key[i];
        if (same)
            return ht[h];
        h = (h + 1) % (unsigned)size;
    }
}

__global__ void table_rounds(slot *ht, int size, int *seen, int nseen, const char *text, int n, int *out)
{
    int lane = threadIdx.x;
    for (int round = 0; round < 4; round++) {
        int len = 3 + round;
        for (int k = lane; k < size; k += 32)
            ht[k].len = -1;
        __syncwarp();
        for (int i = lane; i + len <= n; i += 32) {
            slot &s = insert(ht, text + i, len, size);
            (void)s;
        }
        __syncwarp();
        for (int k = lane; k < nseen; k += 32)
            seen[k] = -1;
        if (lane == 0) {
            int stale = 0, used = 0;
            for (int k = 0; k < nseen; k++)
                stale += seen[k] != -1;
            for (int k = 0; k < size; k++)
                used += ht[k].len != -1;
            out[2 * round] = stale;
            out[2 * round + 1] = used;
            for (int k = 0; k < nseen; k++)
                seen[k] = k;
        }
        __syncwarp();
    }
}

int main()
{
    int zero = 0;
    int *d;
    CK(cudaMalloc(&d, 4096));

    const int size = 64;
    int tab[size];
    for (int i = 0; i < size; i++)
        tab[i] = (i % 5 == 4) ? -1 : 1000 + i;
    for (int i = 0; i < 32; i++) {
        int p = (i * 3) % size;
        for (int j = 0; j < i % 3 && tab[(p + 1) % size] != -1; j++)
            p = (p + 1) % size;
        if (tab[p] != -1)
            tab[p] = i * 3;
    }
    int *dt;
    CK(cudaMalloc(&dt, sizeof tab));
    CK(cudaMemcpy(dt, tab, sizeof tab, cudaMemcpyHostToDevice));
    unsigned m[64];
    probe_exit<<<1, 32>>>(dt, size, (unsigned *)d);
    CK(cudaMemcpy(m, d, sizeof m, cudaMemcpyDeviceToHost));
    int partial = 0;
    for (int i = 0; i < 32; i++)
        partial += m[i] != 0xffffffffu;
    printf("probe loop with two returns: %d lanes saw a partial warp after it; results", partial);
    for (int i = 0; i < 32; i++)
        printf(" %d", (int)m[32 + i]);
    printf("\n");

    int h[64];
    CK(cudaMemcpyToSymbol(flag, &zero, 4));
    counted_alone<<<1, 32>>>(100000, d);
    CK(cudaMemcpy(h, d, 33 * 4, cudaMemcpyDeviceToHost));
    printf("counted loop alone: saw the flag %d times; activemask after the if: lane 0 %08x, lane 1 %08x\n", h[0],
           (unsigned)h[1], (unsigned)h[2]);

    CK(cudaMemcpyToSymbol(flag, &zero, 4));
    spin_flag<<<1, 32>>>(d);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, 32 * 4, cudaMemcpyDeviceToHost));
    int waited = 0;
    for (int i = 0; i < 31; i++)
        waited += h[i];
    printf("spin on a flag set after the join: ended; %d of 31 lanes spun\n", waited);

    CK(cudaMemcpyToSymbol(lock_word, &zero, 4));
    CK(cudaMemcpyToSymbol(counter, &zero, 4));
    spin_lock<<<1, 32>>>(d);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, 32 * 4, cudaMemcpyDeviceToHost));
    unsigned got = 0;
    for (int i = 0; i < 32; i++)
        got |= 1u << h[i];
    printf("spin lock in one warp: ended; tickets %s\n", got == 0xffffffffu ? "0..31 each once" : "wrong");

    sync_masks<<<1, 32>>>(d);
    CK(cudaMemcpy(h, d, 32 * 4, cudaMemcpyDeviceToHost));
    printf("__syncwarp(full) against __syncwarp(0xffff0000):");
    for (int i = 0; i < 32; i++)
        printf(" %d", h[i]);
    printf("\n");

    const int n = 2000, hsize = 4096, nseen = 300;
    char text[n];
    unsigned seed = 11;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        text[i] = "ACGT"[(seed >> 16) & 3];
    }
    char *dtext;
    slot *ht;
    int *seen;
    CK(cudaMalloc(&dtext, n));
    CK(cudaMemcpy(dtext, text, n, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&ht, hsize * sizeof(slot)));
    CK(cudaMalloc(&seen, nseen * sizeof(int)));
    CK(cudaMemset(seen, 0, nseen * sizeof(int)));
    table_rounds<<<1, 32>>>(ht, hsize, seen, nseen, dtext, n, d);
    CK(cudaMemcpy(h, d, 8 * 4, cudaMemcpyDeviceToHost));
    printf("hash table rounds (stale entries lane 0 saw, slots used):");
    for (int i = 0; i < 8; i += 2)
        printf(" %d/%d", h[i], h[i + 1]);
    printf("\n");
    return 0;
}
