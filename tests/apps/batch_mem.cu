// batch_mem: the memory calls of CUDA 12.8 and 13.0 (link: -lcuda): batches of copies
// (cudaMemcpyBatchAsync, cudaMemcpy3DBatchAsync between pointers and arrays), batches of
// prefetches and discards of managed memory, the current and default pools of a memory
// location and allocation type, the host's atomic capabilities, stream memory operations
// (cuStreamWriteValue32/64, cuStreamWaitValue32/64 on values already there,
// cuStreamBatchMemOp) and events recorded on and waited for by a context; with the errors
// each returns for a bad argument.
#include "apps.h"
#include <cstdint>
#include <cstring>
#include <cuda.h>

static unsigned hash(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

static void fill(void *p, size_t n, unsigned seed)
{
    unsigned char *b = (unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = (unsigned char)(seed >> 16);
    }
}

__global__ void bump(unsigned *p, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += i;
}

static cudaMemcpy3DOperand ptr_op(void *p, size_t row, size_t layer)
{
    cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypePointer;
    o.op.ptr.ptr = p;
    o.op.ptr.rowLength = row;
    o.op.ptr.layerHeight = layer;
    return o;
}

static cudaMemcpy3DOperand array_op(cudaArray_t a, size_t x, size_t y, size_t z)
{
    cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypeArray;
    o.op.array.array = a;
    o.op.array.offset.x = x;
    o.op.array.offset.y = y;
    o.op.array.offset.z = z;
    return o;
}

static cudaMemcpy3DBatchOp batch_op(cudaMemcpy3DOperand src, cudaMemcpy3DOperand dst, size_t w, size_t h, size_t d)
{
    cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src = src;
    op.dst = dst;
    op.extent = make_cudaExtent(w, h, d);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return op;
}

static void copies(cudaStream_t s)
{
    printf("-- cudaMemcpyBatchAsync\n");
    const size_t n = 4096;
    char *h1 = (char *)malloc(n), *h2 = (char *)malloc(n), *h3 = (char *)malloc(n), *pin;
    char *d1, *d2;
    CK(cudaMallocHost(&pin, n));
    CK(cudaMalloc(&d1, n));
    CK(cudaMalloc(&d2, n));
    fill(h1, n, 1);
    fill(h3, n, 2);
    memset(h2, 0, n);
    memset(pin, 0, n);
    // h1 -> d1, d1 -> d2 (dependent copies are undefined within a batch: d2 is copied in a
    // second batch), h3 -> h2, and back
    void *dsts[] = {d1, h2};
    const void *srcs[] = {h1, h3};
    size_t sizes[] = {n, n};
    cudaMemcpyAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t idx0 = 0;
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx0, 1, s));
    void *dsts2[] = {d2, pin, h3};
    const void *srcs2[] = {d1, d1, h2};
    size_t sizes2[] = {n, n / 2, 100};
    cudaMemcpyAttributes attrs2[2];
    memset(attrs2, 0, sizeof attrs2);
    attrs2[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    attrs2[1].srcAccessOrder = cudaMemcpySrcAccessOrderDuringApiCall;
    attrs2[1].flags = cudaMemcpyFlagPreferOverlapWithCompute;
    size_t idx2[] = {0, 2};
    SAY(cudaMemcpyBatchAsync(dsts2, srcs2, sizes2, 3, attrs2, idx2, 2, s));
    CK(cudaStreamSynchronize(s));
    char *back = (char *)malloc(n);
    CK(cudaMemcpy(back, d2, n, cudaMemcpyDeviceToHost));
    printf("d2 %08x (h1 %08x) pin %08x h2 %08x h3 %08x\n", hash(back, n), hash(h1, n), hash(pin, n),
           hash(h2, n), hash(h3, n));
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderAny;
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx0, 1, s));

    // errors
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx0, 1, 0));
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx0, 1, cudaStreamPerThread));
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 0, &attr, &idx0, 1, s));
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx0, 0, s));
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, nullptr, &idx0, 1, s));
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, nullptr, 1, s));
    SAY(cudaMemcpyBatchAsync(nullptr, srcs, sizes, 2, &attr, &idx0, 1, s));
    SAY(cudaMemcpyBatchAsync(dsts, srcs, nullptr, 2, &attr, &idx0, 1, s));
    size_t idx1 = 1;
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx1, 1, s));
    size_t idx_bad[] = {0, 0};
    SAY(cudaMemcpyBatchAsync(dsts2, srcs2, sizes2, 3, attrs2, idx_bad, 2, s));
    size_t idx_far[] = {0, 3};
    SAY(cudaMemcpyBatchAsync(dsts2, srcs2, sizes2, 3, attrs2, idx_far, 2, s));
    cudaMemcpyAttributes bad = attr;
    bad.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &bad, &idx0, 1, s));
    bad = attr;
    bad.flags = 4;
    SAY(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &bad, &idx0, 1, s));
    size_t zero[] = {n, 0};
    SAY(cudaMemcpyBatchAsync(dsts, srcs, zero, 2, &attr, &idx0, 1, s));
    size_t over[] = {n + 1, n};
    SAY(cudaMemcpyBatchAsync(dsts, srcs, over, 2, &attr, &idx0, 1, s));
    const void *nsrc[] = {nullptr, h3};
    SAY(cudaMemcpyBatchAsync(dsts, nsrc, sizes, 2, &attr, &idx0, 1, s));
    SAY(cudaStreamSynchronize(s));
    SAY(cudaGetLastError());

    printf("-- cudaMemcpy3DBatchAsync\n");
    // pointers: a host box of rows of 10 and layers of 6 into packed device memory and back
    // into rows of 12
    const size_t w = 8, h = 4, d = 3;
    unsigned char *src = (unsigned char *)malloc(10 * 6 * d), *dst = (unsigned char *)calloc(12 * h * d, 1);
    fill(src, 10 * 6 * d, 3);
    unsigned char *dev;
    CK(cudaMalloc(&dev, w * h * d));
    cudaMemcpy3DBatchOp ops[2] = {batch_op(ptr_op(src, 10, 6), ptr_op(dev, 0, 0), w, h, d)};
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(dev, 0, 0), ptr_op(dst, 12, 0), w, h, d);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    CK(cudaStreamSynchronize(s));
    printf("box %08x:", hash(dst, 12 * h * d));
    for (int i = 0; i < 12; i++)
        printf(" %02x", dst[12 * h + i]);
    printf("\n");

    // arrays: float2 elements, 16 x 8 x 2; a host box at (4, 2, 1), array to array, back
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
    cudaArray_t a1, a2;
    CK(cudaMalloc3DArray(&a1, &cd, make_cudaExtent(16, 8, 2)));
    CK(cudaMalloc3DArray(&a2, &cd, make_cudaExtent(16, 8, 2)));
    float2 *hb = (float2 *)malloc(16 * 8 * 2 * sizeof(float2)), *out = (float2 *)calloc(16 * 8 * 2, sizeof(float2));
    for (int i = 0; i < 16 * 8 * 2; i++)
        hb[i] = make_float2((float)i, -(float)i);
    float2 *zeros = (float2 *)calloc(16 * 8 * 2, sizeof(float2));
    ops[0] = batch_op(ptr_op(zeros, 0, 0), array_op(a1, 0, 0, 0), 16, 8, 2);
    ops[1] = batch_op(ptr_op(zeros, 0, 0), array_op(a2, 0, 0, 0), 16, 8, 2);
    SAY(cudaMemcpy3DBatchAsync(2, ops, 0, s));
    ops[0] = batch_op(ptr_op(hb, 16, 8), array_op(a1, 4, 2, 1), 6, 5, 1);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(array_op(a1, 3, 2, 1), array_op(a2, 0, 0, 0), 10, 6, 1);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(array_op(a2, 0, 0, 0), ptr_op(out, 0, 0), 16, 8, 2);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    CK(cudaStreamSynchronize(s));
    printf("array %08x: out[0]=(%g,%g) out[17]=(%g,%g) out[35]=(%g,%g)\n", hash(out, 16 * 8 * 2 * sizeof(float2)),
           out[0].x, out[0].y, out[17].x, out[17].y, out[35].x, out[35].y);

    // errors
    ops[0] = batch_op(ptr_op(src, 10, 6), ptr_op(dev, 0, 0), w, h, d);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, 0));
    SAY(cudaMemcpy3DBatchAsync(1, ops, 1, s));
    SAY(cudaMemcpy3DBatchAsync(0, ops, 0, s));
    SAY(cudaMemcpy3DBatchAsync(1, nullptr, 0, s));
    ops[0] = batch_op(ptr_op(src, 10, 6), ptr_op(dev, 0, 0), 0, h, d);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(src, 7, 6), ptr_op(dev, 0, 0), w, h, d);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(src, 10, 3), ptr_op(dev, 0, 0), w, h, d);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(src, 10, 6), ptr_op(dev, 0, 0), w, h, d);
    ops[0].srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(hb, 0, 0), array_op(a1, 12, 0, 0), 6, 1, 1);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(hb, 0, 0), array_op(a1, 0, 0, 2), 1, 1, 1);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(hb, 0, 0), ptr_op(dev, 0, 0), w * h * d + 1, 1, 1);
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    ops[0] = batch_op(ptr_op(hb, 0, 0), ptr_op(dev, 0, 0), 4, 1, 1);
    ops[0].src.type = (cudaMemcpy3DOperandType)3;
    SAY(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    SAY(cudaStreamSynchronize(s));
    SAY(cudaGetLastError());
    CK(cudaFreeArray(a1));
    CK(cudaFreeArray(a2));
    CK(cudaFree(dev));
    CK(cudaFree(d1));
    CK(cudaFree(d2));
    CK(cudaFreeHost(pin));
    free(h1), free(h2), free(h3), free(back), free(src), free(dst), free(hb), free(out), free(zeros);
}

static void prefetches(cudaStream_t s)
{
    printf("-- cudaMemPrefetchBatchAsync, cudaMemDiscardBatchAsync\n");
    const unsigned n = 1000;
    unsigned *m1, *m2, *m3;
    CK(cudaMallocManaged(&m1, n * sizeof(unsigned)));
    CK(cudaMallocManaged(&m2, n * sizeof(unsigned)));
    CK(cudaMallocManaged(&m3, n * sizeof(unsigned)));
    for (unsigned i = 0; i < n; i++)
        m1[i] = 3 * i, m2[i] = 5 * i, m3[i] = 7 * i;
    void *ptrs[] = {m1, m2, m3};
    size_t sizes[] = {n * sizeof(unsigned), n * sizeof(unsigned), 64};
    cudaMemLocation locs[2];
    memset(locs, 0, sizeof locs);
    locs[0].type = cudaMemLocationTypeDevice;
    locs[0].id = 0;
    locs[1].type = cudaMemLocationTypeHost;
    size_t idx[] = {0, 2};
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idx, 2, 0, s));
    bump<<<(n + 255) / 256, 256, 0, s>>>(m1, n);
    bump<<<(n + 255) / 256, 256, 0, s>>>(m2, n);
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs + 1, idx, 1, 0, s));
    CK(cudaStreamSynchronize(s));
    printf("m1[999]=%u m2[999]=%u m3[999]=%u\n", m1[999], m2[999], m3[999]);
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idx, 2, 1, s));
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idx, 0, 0, s));
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 0, locs, idx, 2, 0, s));
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idx, 2, 0, 0));
    size_t idx1[] = {1, 2};
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idx1, 2, 0, s));
    cudaMemLocation badloc = locs[0];
    badloc.id = 7;
    SAY(cudaMemPrefetchBatchAsync(ptrs, sizes, 3, &badloc, idx, 1, 0, s));
    unsigned *dev;
    CK(cudaMalloc(&dev, 4096));
    void *dptrs[] = {dev};
    size_t dsize[] = {4096};
    SAY(cudaMemPrefetchBatchAsync(dptrs, dsize, 1, locs, idx, 1, 0, s));
    size_t too_big[] = {n * sizeof(unsigned) + 4096};
    SAY(cudaMemPrefetchBatchAsync(ptrs, too_big, 1, locs, idx, 1, 0, s));
    SAY(cudaGetLastError());

    // discards: the contents become undefined (not printed); the calls' results are
    SAY(cudaMemDiscardBatchAsync(ptrs + 2, sizes, 1, 0, s));
    SAY(cudaMemDiscardAndPrefetchBatchAsync(ptrs + 2, sizes, 1, locs, idx, 1, 0, s));
    SAY(cudaMemDiscardBatchAsync(ptrs + 2, sizes, 1, 1, s));
    SAY(cudaMemDiscardBatchAsync(ptrs + 2, sizes, 0, 0, s));
    SAY(cudaMemDiscardBatchAsync(dptrs, dsize, 1, 0, s));
    SAY(cudaMemDiscardAndPrefetchBatchAsync(ptrs + 2, sizes, 1, locs, idx, 0, 0, s));
    SAY(cudaStreamSynchronize(s));
    SAY(cudaGetLastError());
    CK(cudaFree(m1));
    CK(cudaFree(m2));
    CK(cudaFree(m3));
    CK(cudaFree(dev));
}

static void pools(cudaStream_t s)
{
    printf("-- cudaMemGetDefaultMemPool, cudaMemGetMemPool, cudaMemSetMemPool\n");
    cudaMemPool_t devdef, p = nullptr, q = nullptr;
    CK(cudaDeviceGetDefaultMemPool(&devdef, 0));
    cudaMemLocation loc;
    memset(&loc, 0, sizeof loc);
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    SAY(cudaMemGetDefaultMemPool(&p, &loc, cudaMemAllocationTypePinned));
    printf("device default pool is the device's: %d\n", p == devdef);
    SAY(cudaMemGetMemPool(&q, &loc, cudaMemAllocationTypePinned));
    printf("current is default: %d\n", q == devdef);
    cudaMemPool_t mine;
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location = loc;
    CK(cudaMemPoolCreate(&mine, &props));
    SAY(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, mine));
    SAY(cudaMemGetMemPool(&q, &loc, cudaMemAllocationTypePinned));
    printf("current is mine: %d\n", q == mine);
    cudaMemPool_t cur;
    CK(cudaDeviceGetMemPool(&cur, 0));
    printf("device's current is mine: %d\n", cur == mine);
    void *a = nullptr;
    SAY(cudaMallocAsync(&a, 1000, s));
    unsigned long long used = 0;
    CK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
    printf("mine in use: %d\n", used > 0);
    SAY(cudaFreeAsync(a, s));
    CK(cudaStreamSynchronize(s));
    SAY(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, devdef));
    CK(cudaDeviceGetMemPool(&cur, 0));
    printf("device's current is the default again: %d\n", cur == devdef);

    // host and managed pools
    cudaMemLocation host;
    memset(&host, 0, sizeof host);
    host.type = cudaMemLocationTypeHost;
    cudaMemPool_t hp = nullptr;
    cudaError_t e = cudaMemGetDefaultMemPool(&hp, &host, cudaMemAllocationTypePinned);
    printf("host default pool -> %s\n", cudaGetErrorName(e));
    cudaMemPool_t mp = nullptr;
    e = cudaMemGetDefaultMemPool(&mp, &loc, cudaMemAllocationTypeManaged);
    printf("managed default pool -> %s\n", cudaGetErrorName(e));
    SAY(cudaMemGetMemPool(&q, &host, cudaMemAllocationTypePinned));
    printf("host current is host default: %d\n", q == hp);
    SAY(cudaMemGetMemPool(&q, &loc, cudaMemAllocationTypeManaged));
    printf("managed current is managed default: %d, differs from the device's: %d\n", q == mp, q != devdef);
    // allocations from them (used by a kernel at the end: pool_access)
    unsigned *hmem = nullptr, *mmem = nullptr;
    SAY(cudaMallocFromPoolAsync((void **)&hmem, 256 * sizeof(unsigned), hp, s));
    SAY(cudaMallocFromPoolAsync((void **)&mmem, 256 * sizeof(unsigned), mp, s));
    if (hmem && mmem) {
        CK(cudaStreamSynchronize(s));
        for (unsigned i = 0; i < 256; i++)
            hmem[i] = 1000 + i, mmem[i] = 2000 + i;
        printf("host pool memory[255]=%u managed pool memory[255]=%u\n", hmem[255], mmem[255]);
        cudaPointerAttributes pa;
        CK(cudaPointerGetAttributes(&pa, hmem));
        printf("host pool memory type %d\n", (int)pa.type);
        CK(cudaPointerGetAttributes(&pa, mmem));
        printf("managed pool memory type %d\n", (int)pa.type);
        SAY(cudaFreeAsync(hmem, s));
        SAY(cudaFreeAsync(mmem, s));
        CK(cudaStreamSynchronize(s));
    }
    // a pool of the host's memory made by the program
    cudaMemPoolProps hprops;
    memset(&hprops, 0, sizeof hprops);
    hprops.allocType = cudaMemAllocationTypePinned;
    hprops.location = host;
    cudaMemPool_t hmine = nullptr;
    SAY(cudaMemPoolCreate(&hmine, &hprops));
    if (hmine) {
        SAY(cudaMemSetMemPool(&host, cudaMemAllocationTypePinned, hmine));
        SAY(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, hmine));
        SAY(cudaMallocFromPoolAsync((void **)&hmem, 4096, hmine, s));
        SAY(cudaFreeAsync(hmem, s));
        CK(cudaStreamSynchronize(s));
        SAY(cudaMemSetMemPool(&host, cudaMemAllocationTypePinned, hp));
        SAY(cudaMemPoolDestroy(hmine));
    }
    // errors
    cudaMemLocation badloc = loc;
    badloc.id = 5;
    SAY(cudaMemGetDefaultMemPool(&p, &badloc, cudaMemAllocationTypePinned));
    badloc = loc;
    badloc.type = cudaMemLocationTypeInvalid;
    SAY(cudaMemGetDefaultMemPool(&p, &badloc, cudaMemAllocationTypePinned));
    SAY(cudaMemGetDefaultMemPool(&p, &loc, cudaMemAllocationTypeInvalid));
    SAY(cudaMemGetDefaultMemPool(nullptr, &loc, cudaMemAllocationTypePinned));
    SAY(cudaMemGetDefaultMemPool(&p, nullptr, cudaMemAllocationTypePinned));
    SAY(cudaMemGetMemPool(nullptr, &loc, cudaMemAllocationTypePinned));
    SAY(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, nullptr));
    SAY(cudaMemSetMemPool(&badloc, cudaMemAllocationTypePinned, mine));
    SAY(cudaMemSetMemPool(&host, cudaMemAllocationTypePinned, mine));
    SAY(cudaGetLastError());
    CK(cudaMemPoolDestroy(mine));
}

// Kernels on pool memory: managed, host memory with the device's access granted, and (last:
// the H100 faults) host memory without it.
static void pool_access(cudaStream_t s)
{
    printf("-- pool memory on the device\n");
    cudaMemLocation dev, host;
    memset(&dev, 0, sizeof dev);
    memset(&host, 0, sizeof host);
    dev.type = cudaMemLocationTypeDevice;
    host.type = cudaMemLocationTypeHost;
    cudaMemPool_t hp, mp;
    CK(cudaMemGetDefaultMemPool(&hp, &host, cudaMemAllocationTypePinned));
    CK(cudaMemGetDefaultMemPool(&mp, &dev, cudaMemAllocationTypeManaged));
    unsigned *mmem = nullptr, *gmem = nullptr, *hmem = nullptr;
    CK(cudaMallocFromPoolAsync((void **)&mmem, 256 * sizeof(unsigned), mp, s));
    CK(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < 256; i++)
        mmem[i] = 2000 + i;
    bump<<<1, 256, 0, s>>>(mmem, 256);
    SAY(cudaStreamSynchronize(s));
    printf("managed pool memory[255]=%u\n", mmem[255]);
    cudaMemAccessFlags f = (cudaMemAccessFlags)7;
    SAY(cudaMemPoolGetAccess(&f, hp, &dev));
    printf("host default pool, device access %d\n", (int)f);
    f = (cudaMemAccessFlags)7;
    SAY(cudaMemPoolGetAccess(&f, hp, &host));
    printf("host default pool, host access %d\n", (int)f);
    f = (cudaMemAccessFlags)7;
    SAY(cudaMemPoolGetAccess(&f, mp, &dev));
    printf("managed default pool, device access %d\n", (int)f);
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location = host;
    cudaMemPool_t granted;
    CK(cudaMemPoolCreate(&granted, &props));
    CK(cudaMallocFromPoolAsync((void **)&gmem, 256 * sizeof(unsigned), granted, s));
    cudaMemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.location = dev;
    d.flags = cudaMemAccessFlagsProtReadWrite;
    SAY(cudaMemPoolSetAccess(granted, &d, 1));
    f = (cudaMemAccessFlags)7;
    SAY(cudaMemPoolGetAccess(&f, granted, &dev));
    printf("granted pool, device access %d\n", (int)f);
    CK(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < 256; i++)
        gmem[i] = 3000 + i;
    bump<<<1, 256, 0, s>>>(gmem, 256);
    SAY(cudaStreamSynchronize(s));
    printf("granted host pool memory[255]=%u\n", gmem[255]);
    CK(cudaMallocFromPoolAsync((void **)&hmem, 256 * sizeof(unsigned), hp, s));
    CK(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < 256; i++)
        hmem[i] = 1000 + i;
    bump<<<1, 256, 0, s>>>(hmem, 256);
    SAY(cudaStreamSynchronize(s));
    printf("host pool memory[255]=%u\n", hmem[255]);
}

static void atomics()
{
    printf("-- cudaDeviceGetHostAtomicCapabilities\n");
    cudaAtomicOperation ops[13];
    for (int i = 0; i < 13; i++)
        ops[i] = (cudaAtomicOperation)i;
    unsigned caps[13];
    memset(caps, 0xee, sizeof caps);
    SAY(cudaDeviceGetHostAtomicCapabilities(caps, ops, 13, 0));
    for (int i = 0; i < 13; i++)
        printf(" %x", caps[i]);
    printf("\n");
    memset(caps, 0xee, sizeof caps);
    SAY(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 13, 0, 0));
    for (int i = 0; i < 13; i++)
        printf(" %x", caps[i]);
    printf("\n");
    SAY(cudaDeviceGetHostAtomicCapabilities(caps, ops, 0, 0));
    SAY(cudaDeviceGetHostAtomicCapabilities(nullptr, ops, 13, 0));
    SAY(cudaDeviceGetHostAtomicCapabilities(caps, nullptr, 13, 0));
    SAY(cudaDeviceGetHostAtomicCapabilities(caps, ops, 13, 3));
    cudaAtomicOperation bad = (cudaAtomicOperation)13;
    SAY(cudaDeviceGetHostAtomicCapabilities(caps, &bad, 1, 0));
    SAY(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 13, 0, 1));
    SAY(cudaGetLastError());
}

static void memops(cudaStream_t s)
{
    printf("-- cuStreamWriteValue, cuStreamWaitValue, cuStreamBatchMemOp\n");
    int v = -1;
    CUdevice dev = 0;
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev);
    printf("64-bit mem ops %d", v);
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, dev);
    printf(", wait NOR %d\n", v);
    CUstream cs = (CUstream)s;
    uint64_t *dm;
    CK(cudaMalloc(&dm, 64));
    CK(cudaMemset(dm, 0, 64));
    CUdeviceptr d = (CUdeviceptr)dm;
    DK(cuStreamWriteValue32(cs, d, 0x12345678u, 0));
    DK(cuStreamWriteValue32(cs, d + 4, 0x9abcdef0u, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
    DK(cuStreamWriteValue64(cs, d + 8, 0x0123456789abcdefull, 0));
    DK(cuStreamWaitValue32(cs, d, 0x12345678u, CU_STREAM_WAIT_VALUE_EQ));
    DK(cuStreamWaitValue32(cs, d, 0x12345000u, CU_STREAM_WAIT_VALUE_GEQ));
    DK(cuStreamWaitValue32(cs, d, 0x00000078u, CU_STREAM_WAIT_VALUE_AND));
    DK(cuStreamWaitValue32(cs, d, 0x80000000u, CU_STREAM_WAIT_VALUE_NOR));
    DK(cuStreamWaitValue32(cs, d, 0x12345678u, CU_STREAM_WAIT_VALUE_EQ | CU_STREAM_WAIT_VALUE_FLUSH));
    DK(cuStreamWaitValue64(cs, d + 8, 0x0123456789abcdefull, CU_STREAM_WAIT_VALUE_EQ));
    DK(cuStreamWaitValue64(cs, d + 8, 0x0100000000000000ull, CU_STREAM_WAIT_VALUE_GEQ));
    CUstreamBatchMemOpParams ops[4];
    memset(ops, 0, sizeof ops);
    ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    ops[0].writeValue.address = d + 16;
    ops[0].writeValue.value = 0xcafef00du;
    ops[1].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
    ops[1].writeValue.address = d + 24;
    ops[1].writeValue.value64 = 0xfeedfacecafebeefull;
    ops[2].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
    ops[2].waitValue.address = d;
    ops[2].waitValue.value = 0x12345678u;
    ops[2].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
    ops[3].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
    ops[3].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
    DK(cuStreamBatchMemOp(cs, 4, ops, 0));
    CUstreamBatchMemOpParams flush[2];
    memset(flush, 0, sizeof flush);
    flush[0] = ops[0];
    flush[0].writeValue.value = 5;
    flush[1].flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
    DK(cuStreamBatchMemOp(cs, 2, flush, 0));
    CK(cudaStreamSynchronize(s));
    uint64_t h[4];
    CK(cudaMemcpy(h, dm, sizeof h, cudaMemcpyDeviceToHost));
    printf("%016llx %016llx %016llx %016llx\n", (unsigned long long)h[0], (unsigned long long)h[1],
           (unsigned long long)h[2], (unsigned long long)h[3]);
    // mapped host memory: the host sees the value written
    unsigned *mapped;
    CK(cudaHostAlloc(&mapped, 64, cudaHostAllocMapped));
    mapped[0] = 0;
    unsigned *mdev;
    CK(cudaHostGetDevicePointer(&mdev, mapped, 0));
    DK(cuStreamWriteValue32(cs, (CUdeviceptr)mdev, 77u, 0));
    CK(cudaStreamSynchronize(s));
    printf("mapped[0]=%u\n", mapped[0]);
    // errors
    DK(cuStreamWriteValue32(cs, d + 2, 1u, 0));
    DK(cuStreamWriteValue64(cs, d + 4, 1u, 0));
    DK(cuStreamWaitValue32(cs, d, 1u, 7));
    DK(cuStreamWriteValue32(cs, d, 1u, 9));
    DK(cuStreamBatchMemOp(cs, 0, ops, 0));
    DK(cuStreamBatchMemOp(cs, 1, ops, 1));
    ops[0].operation = (CUstreamBatchMemOpType)99;
    DK(cuStreamBatchMemOp(cs, 1, ops, 0));
    SAY(cudaStreamSynchronize(s));
    SAY(cudaGetLastError());
    CK(cudaFree(dm));
    CK(cudaFreeHost(mapped));
}

static void ctx_events(cudaStream_t s)
{
    printf("-- cuCtxRecordEvent, cuCtxWaitEvent\n");
    CUcontext ctx;
    DK(cuCtxGetCurrent(&ctx));
    cudaEvent_t e, t;
    CK(cudaEventCreate(&e));
    CK(cudaEventCreateWithFlags(&t, cudaEventDisableTiming));
    unsigned *p;
    CK(cudaMalloc(&p, 1024 * sizeof(unsigned)));
    CK(cudaMemset(p, 0, 1024 * sizeof(unsigned)));
    bump<<<4, 256, 0, s>>>(p, 1024);
    DK(cuCtxRecordEvent(ctx, (CUevent)e));
    SAY(cudaEventSynchronize(e));
    SAY(cudaEventQuery(e));
    DK(cuCtxWaitEvent(ctx, (CUevent)e));
    DK(cuCtxRecordEvent(ctx, (CUevent)t));
    DK(cuCtxWaitEvent(ctx, (CUevent)t));
    bump<<<4, 256, 0, s>>>(p, 1024);
    CK(cudaDeviceSynchronize());
    unsigned h[1024];
    CK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    printf("p[1023]=%u\n", h[1023]);
    DK(cuCtxRecordEvent(nullptr, (CUevent)e));
    DK(cuCtxRecordEvent(ctx, nullptr));
    DK(cuCtxWaitEvent(ctx, nullptr));
    SAY(cudaGetLastError());
    CK(cudaEventDestroy(e));
    CK(cudaEventDestroy(t));
    CK(cudaFree(p));
}

int main()
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    copies(s);
    prefetches(s);
    pools(s);
    atomics();
    ctx_events(s);
    memops(s);
    pool_access(s);
    printf("done\n");
    return 0;
}
