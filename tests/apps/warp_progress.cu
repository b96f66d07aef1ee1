// warp_progress: lanes of one warp that wait for each other in divergent loops (ECL-MIS's
// findmins, as HeCBench's mis runs it).  A lane decides its node only once every neighbour
// with a higher priority is decided, so a lane spins on volatile loads until lanes of its
// own warp, parked at other program counters, have run: with independent thread scheduling
// every diverged group makes progress.  The result is the unique maximal independent set
// of the priorities, which the CPU computes too.
#include <cstdio>
#include <cstring>
#include <vector>

typedef unsigned char stattype;
static const stattype in = 0xfe, out = 0;

__global__ void findmins(int nodes, const int *__restrict nidx, const int *__restrict nlist,
                         volatile stattype *__restrict nstat)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x, incr = gridDim.x * blockDim.x;
    int missing;
    do {
        missing = 0;
        for (int v = from; v < nodes; v += incr) {
            const stattype nv = nstat[v];
            if (nv & 1) {
                int i = nidx[v];
                while (i < nidx[v + 1] && (nv > nstat[nlist[i]] || (nv == nstat[nlist[i]] && v > nlist[i])))
                    i++;
                if (i < nidx[v + 1]) {
                    missing = 1;
                } else {
                    for (int j = nidx[v]; j < nidx[v + 1]; j++)
                        nstat[nlist[j]] = out;
                    nstat[v] = in;
                }
            }
        }
    } while (missing != 0);
}

static unsigned lcg = 12345;
static unsigned rnd() { lcg = lcg * 1103515245u + 12345u; return lcg >> 8; }

static int run(int n, int edges, int ctas, int threads)
{
    std::vector<std::vector<int>> adj(n);
    for (int e = 0; e < edges; e++) {
        int a = (int)(rnd() % n), b = (int)(rnd() % n);
        bool dup = a == b;
        for (int u : adj[a])
            dup |= u == b;
        if (!dup) {
            adj[a].push_back(b);
            adj[b].push_back(a);
        }
    }
    std::vector<int> idx(n + 1), lst;
    std::vector<stattype> st(n), ref(n), got(n);
    for (int v = 0; v < n; v++) {
        idx[v] = (int)lst.size();
        for (int u : adj[v])
            lst.push_back(u);
        st[v] = adj[v].empty() ? in : (stattype)((rnd() % 127) * 2 + 1);
    }
    idx[n] = (int)lst.size();
    lst.push_back(0);
    ref = st;
    for (bool again = true; again;) {
        again = false;
        for (int v = 0; v < n; v++)
            if (ref[v] & 1) {
                int i = idx[v];
                while (i < idx[v + 1] && (ref[v] > ref[lst[i]] || (ref[v] == ref[lst[i]] && v > lst[i])))
                    i++;
                if (i < idx[v + 1]) {
                    again = true;
                } else {
                    for (int j = idx[v]; j < idx[v + 1]; j++)
                        ref[lst[j]] = out;
                    ref[v] = in;
                }
            }
    }
    int *di, *dl;
    stattype *ds;
    cudaMalloc(&di, (n + 1) * sizeof(int));
    cudaMalloc(&dl, lst.size() * sizeof(int));
    cudaMalloc(&ds, n);
    cudaMemcpy(di, idx.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dl, lst.data(), lst.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(ds, st.data(), n, cudaMemcpyHostToDevice);
    findmins<<<ctas, threads>>>(n, di, dl, ds);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(got.data(), ds, n, cudaMemcpyDeviceToHost);
    cudaFree(di);
    cudaFree(dl);
    cudaFree(ds);
    if (e != cudaSuccess) {
        printf("%d nodes, %d CTAs x %d: %s\n", n, ctas, threads, cudaGetErrorString(e));
        return 1;
    }
    int size = 0, diff = 0;
    for (int v = 0; v < n; v++) {
        size += got[v] == in;
        diff += got[v] != ref[v];
    }
    printf("%d nodes, %d edges tried, %d CTAs x %d threads: set of %d, %d nodes differ from the CPU\n", n, edges,
           ctas, threads, size, diff);
    return diff != 0;
}

int main()
{
    int bad = 0;
    for (int g = 0; g < 24; g++)
        bad |= run(32, 16 + g, 1, 32);         // one node per lane of one warp
    for (int g = 0; g < 4; g++)
        bad |= run(96, 120, 1, 32);            // three nodes per lane
    bad |= run(4096, 6000, 4, 128);            // several warps and CTAs
    return bad;
}
