// tma_replace.cu: tensor maps changed on the device with tensormap.replace (every field:
// global address, rank, box, global dimensions and strides, element strides, element type,
// interleave, swizzle, fill mode), as CUTLASS's grouped GEMMs and Triton's device-side
// descriptors do: a map B is built from another map A of the same rank copied into shared
// memory, from 128 zero bytes in shared memory, or from A in global memory, published with
// tensormap.cp_fenceproxy (or fence.proxy.tensormap::generic) and used by a load.  Each case
// prints the hash of the box loaded through B as the host encoded it and through each map
// built on the device: on the H100 they agree.  Measured too: a map made with a TF32 type
// keeps rounding to TF32 when its type becomes f32, and becomes an illegal instruction when
// it becomes another (the last case).
// link: -lcuda
// target: -gencode arch=compute_90a,code=compute_90a
#include "apps.h"
#include "tma_util.h"
#include <cuda.h>
#include <cstdint>
#include <cstring>

enum { SMEM = 16384 };
struct Spec {
    unsigned long long addr, strides[4];
    unsigned rank, box[5], dims[5], estr[5], elemtype, swizzle, fill;
    int c[5];
};

__device__ static unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

#define SET3(FIELD, SPACE, V, ...)                                                                          \
    switch (V) {                                                                                          \
    __VA_ARGS__                                                                                           \
    }
#define CASE(FIELD, SPACE, N)                                                                               \
    case N:                                                                                               \
        asm volatile("tensormap.replace.tile." #FIELD "." #SPACE ".b1024.b32 [%0], " #N ";" ::AC(m) : "memory"); \
        break;
#define ORD(FIELD, SPACE, TYPE, I, V)                                                                        \
    asm volatile("tensormap.replace.tile." #FIELD "." #SPACE ".b1024." #TYPE " [%0], " #I ", %1;" ::AC(m), \
                 TYPE##_C(V) : "memory")
// the map's address operand: 32-bit shared-window addresses, or 64-bit global ones
#define AC(m) MCON(m)
#define b32_C(v) "r"((unsigned)(v))
#define b64_C(v) "l"((unsigned long long)(v))
#define ORDS(FIELD, SPACE, TYPE, ARR, N)                                          \
    do {                                                                         \
        if ((N) > 0) ORD(FIELD, SPACE, TYPE, 0, ARR[0]);                         \
        if ((N) > 1) ORD(FIELD, SPACE, TYPE, 1, ARR[1]);                         \
        if ((N) > 2) ORD(FIELD, SPACE, TYPE, 2, ARR[2]);                         \
        if ((N) > 3) ORD(FIELD, SPACE, TYPE, 3, ARR[3]);                         \
        if ((N) > 4) ORD(FIELD, SPACE, TYPE, 4, ARR[4]);                         \
    } while (0)
#define ALL(SPACE)                                                                                         \
    do {                                                                                                   \
        asm volatile("tensormap.replace.tile.global_address." #SPACE ".b1024.b64 [%0], %1;" ::AC(m),        \
                     "l"(s.addr) : "memory");                                                              \
        asm volatile("tensormap.replace.tile.rank." #SPACE ".b1024.b32 [%0], %1;" ::AC(m), "r"(s.rank - 1)  \
                     : "memory");                                                                          \
        ORDS(box_dim, SPACE, b32, s.box, s.rank);                                                          \
        ORDS(global_dim, SPACE, b32, s.dims, s.rank);                                                      \
        ORDS(global_stride, SPACE, b64, s.strides, s.rank - 1);                                            \
        ORDS(element_stride, SPACE, b32, s.estr, s.rank);                                                  \
        SET3(elemtype, SPACE, s.elemtype, CASE(elemtype, SPACE, 0) CASE(elemtype, SPACE, 1)                 \
             CASE(elemtype, SPACE, 2) CASE(elemtype, SPACE, 3) CASE(elemtype, SPACE, 4)                     \
             CASE(elemtype, SPACE, 5) CASE(elemtype, SPACE, 6) CASE(elemtype, SPACE, 7)                     \
             CASE(elemtype, SPACE, 8) CASE(elemtype, SPACE, 9) CASE(elemtype, SPACE, 10)                    \
             CASE(elemtype, SPACE, 11) CASE(elemtype, SPACE, 12))                                           \
        asm volatile("tensormap.replace.tile.interleave_layout." #SPACE ".b1024.b32 [%0], 0;" ::AC(m)        \
                     : "memory");                                                                          \
        SET3(swizzle_mode, SPACE, s.swizzle, CASE(swizzle_mode, SPACE, 0) CASE(swizzle_mode, SPACE, 1)      \
             CASE(swizzle_mode, SPACE, 2) CASE(swizzle_mode, SPACE, 3))                                    \
        SET3(fill_mode, SPACE, s.fill, CASE(fill_mode, SPACE, 0) CASE(fill_mode, SPACE, 1))                 \
    } while (0)

#define LD(N, CS)                                                                                          \
    asm volatile("cp.async.bulk.tensor." #N "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"  \
                 " [%0], [%1, {" CS "}], [%2];" ::"r"(sa(buf)), "l"(map), "r"(sa(&bar)), "r"(s.c[0]),      \
                 "r"(s.c[1]), "r"(s.c[2]), "r"(s.c[3]), "r"(s.c[4]) : "memory")

// how 0: load through map as it is; 1: build B in shared memory from a (copied), 2: from
// zeros, 3: in global memory from a; then publish it to gmap and load through it.
__global__ void run(const __grid_constant__ CUtensorMap a, CUtensorMap *gmap, Spec s, int how, unsigned tx,
                    unsigned char *io)
{
    __shared__ alignas(1024) unsigned char buf[SMEM];
    __shared__ alignas(128) CUtensorMap sm;
    __shared__ alignas(8) unsigned long long bar;
    for (int i = threadIdx.x; i < SMEM; i += blockDim.x)
        buf[i] = 0xee;
    const CUtensorMap *map = &a;
    if (how == 1 || how == 2) {
        const unsigned *src = (const unsigned *)&a;
        ((unsigned *)&sm)[threadIdx.x] = how == 1 ? src[threadIdx.x] : 0;
        __syncwarp();
        unsigned m = sa(&sm);
#define MCON(m) "r"(m)
        if (threadIdx.x == 0)
            ALL(shared::cta);
#undef MCON
        __syncwarp();
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
                     " [%0], [%1], 128;" ::"l"(gmap), "r"(sa(&sm)) : "memory");
        map = gmap;
    } else if (how == 3) {
        ((unsigned *)gmap)[threadIdx.x] = ((const unsigned *)&a)[threadIdx.x];
        __syncwarp();
        const void *m = gmap;
#define MCON(m) "l"(m)
        if (threadIdx.x == 0)
            ALL(global);
#undef MCON
        asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
        __syncwarp();
        map = gmap;
    }
    if (how)
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar)) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)), "r"(tx) : "memory");
        switch (s.rank) {
        case 1: LD(1, "%3"); break;
        case 2: LD(2, "%3, %4"); break;
        case 3: LD(3, "%3, %4, %5"); break;
        case 4: LD(4, "%3, %4, %5, %6"); break;
        default: LD(5, "%3, %4, %5, %6, %7"); break;
        }
    }
    unsigned ok = 0;
    while (!ok)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(sa(&bar)) : "memory");
    for (int i = threadIdx.x; i < SMEM; i += blockDim.x)
        io[i] = buf[i];
}

// CUtensorMapDataType as PTX's elemtype: the driver's FLOAT64, BFLOAT16, FLOAT32_FTZ move.
static const unsigned elemtype[13] = { 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 11, 12 };

// A random valid map over the tensor at g (at most 1 MiB), its box within SMEM bytes.
static void draw(Spec *s, int *dtype, unsigned char *g, unsigned *tx, unsigned rank)
{
    *dtype = (int)range(0, 12);
    unsigned es = esize[*dtype];
    s->rank = rank;
    s->swizzle = range(0, 1) ? 0 : (unsigned)range(1, 3);
    s->fill = *dtype >= 6 ? (unsigned)range(0, 1) : 0;
    s->elemtype = elemtype[*dtype];
    unsigned span = s->swizzle ? 16u << s->swizzle : 256 * es, q = 16 / es > 1 ? 16 / es : 1;
    uint64_t rows = 1;
    for (unsigned i = 0; i < s->rank; i++) {
        s->box[i] = i == 0 ? q * (unsigned)range(1, 4) : (unsigned)range(1, 6);
        if (i == 0)
            while (s->box[0] * es > span)
                s->box[0] -= q;
        s->estr[i] = range(0, 2) ? 1 : (unsigned)range(1, 3);
        s->dims[i] = (unsigned)range(1, s->box[i] * 2 + 2);
        if (i)
            rows *= (s->box[i] + s->estr[i] - 1) / s->estr[i];
        s->c[i] = (int)range(-(int64_t)s->box[i], s->dims[i]);
    }
    for (unsigned i = s->rank; i < 5; i++)
        s->c[i] = 0;
    s->c[0] = s->c[0] >= 0 ? s->c[0] / (int)q * (int)q : -((-s->c[0] + (int)q - 1) / (int)q * (int)q);
    uint64_t pitch = s->swizzle ? span : s->box[0] * es;
    while (rows * pitch > SMEM) {   // keep the (padded) box in shared memory
        rows = 1;
        for (unsigned i = 1; i < s->rank; i++) {
            s->box[i] = s->box[i] > 1 ? s->box[i] / 2 : 1;
            rows *= (s->box[i] + s->estr[i] - 1) / s->estr[i];
        }
    }
    uint64_t extent = s->dims[0] * es;
    for (unsigned i = 1; i < s->rank; i++) {
        s->strides[i - 1] = (extent + 15) / 16 * 16 + 16 * (uint64_t)range(0, 2);
        extent += (s->dims[i] - 1) * s->strides[i - 1];
    }
    s->addr = (unsigned long long)(uintptr_t)g + 256 * (uint64_t)range(0, 3);
    *tx = (unsigned)(rows * s->box[0] * es);
}

static CUresult encode(CUtensorMap *m, const Spec &s, int dtype)
{
    cuuint64_t dims[5], strides[4];
    cuuint32_t box[5], estr[5];
    for (unsigned i = 0; i < s.rank; i++)
        dims[i] = s.dims[i], box[i] = s.box[i], estr[i] = s.estr[i];
    for (unsigned i = 0; i + 1 < s.rank; i++)
        strides[i] = s.strides[i];
    return cuTensorMapEncodeTiled(m, (CUtensorMapDataType)dtype, s.rank, (void *)(uintptr_t)s.addr, dims, strides,
                                  box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)s.swizzle,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, (CUtensorMapFloatOOBfill)s.fill);
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 120;
    CK(cudaFree(0));
    unsigned char *g, *io;
    CUtensorMap *gmap;
    CK(cudaMalloc(&g, (1 << 20) + 4096));
    CK(cudaMalloc(&io, SMEM));
    CK(cudaMalloc(&gmap, 128));
    static unsigned char host[(1 << 20) + 4096], out[SMEM];
    rs = 12345;
    for (size_t i = 0; i < sizeof host; i++)
        host[i] = (unsigned char)rnd();
    CK(cudaMemcpy(g, host, sizeof host, cudaMemcpyHostToDevice));
    int pa = -1, pfill = 0, pb = -1;   // tma_replace probe TYPE_A FILL_A TYPE_B: one such case
    if (argc > 4 && !strcmp(argv[1], "probe"))
        pa = atoi(argv[2]), pfill = atoi(argv[3]), pb = atoi(argv[4]), count = 8;
    for (long n = 0; n < count; n++) {
        rs = 0x3c6ef372fe94f82bull * (uint64_t)(n + 7);
        Spec A, B;
        int ta, tb;
        unsigned txa, txb;
        unsigned rank = (unsigned)range(1, 5);
        draw(&A, &ta, g, &txa, rank);
        draw(&B, &tb, g, &txb, rank);
        // a TF32 map whose type becomes another than f32 is an illegal instruction: kept for last
        if (pa < 0 && n < count - 1 && (ta == 11 || ta == 12) && tb != 7 && tb != 10 && tb != 11 && tb != 12) {
            int t2 = tb == 0 ? 6 : tb;   // a type of A's size (f32 for u8 and the 4-byte ones)
            ta = esize[t2] == 4 || tb == 0 ? 7 : t2;
            A.elemtype = elemtype[ta];
            if (A.box[0] * esize[ta] % 16)
                ta = 7, A.elemtype = elemtype[7];
        }
        if (pa < 0 && n == count - 1)   // the last: TF32 to u16
            pa = 12, pfill = 0, pb = 1;
        if (pa >= 0) {
            if (A.box[0] * esize[pa] % 16 || B.box[0] * esize[pb] % 16 || A.swizzle || B.swizzle)
                continue;
            txb = txb / esize[tb] * esize[pb];
            ta = pa, A.elemtype = elemtype[pa], A.fill = (unsigned)pfill, tb = pb, B.elemtype = elemtype[pb];
            B.fill = 0;
        }
        alignas(64) CUtensorMap ma, mb;
        CUresult ra = encode(&ma, A, ta), rb = encode(&mb, B, tb);
        printf("case %ld: t%d r%u box %u swz%u fill%u -> t%d r%u box %u %u swz%u fill%u:", n, ta, A.rank, A.box[0],
               A.swizzle, A.fill, tb, B.rank, B.box[0], B.rank > 1 ? B.box[1] : 1, B.swizzle, B.fill);
        if (ra || rb) {
            printf(" encode %d %d\n", (int)ra, (int)rb);
            continue;
        }
        for (int how = 0; how < 4; how++) {
            CK(cudaMemset(gmap, 0x55, 128));
            run<<<1, 32>>>(how ? ma : mb, gmap, B, how, txb, io);
            cudaError_t e = cudaGetLastError();
            if (e == cudaSuccess)
                e = cudaDeviceSynchronize();
            if (e != cudaSuccess) {
                printf(" %s\n", cudaGetErrorName(e));
                return 1;
            }
            CK(cudaMemcpy(out, io, SMEM, cudaMemcpyDeviceToHost));
            printf(" %016llx", (unsigned long long)fnv(out, SMEM));
        }
        printf("\n");
    }
    return 0;
}
