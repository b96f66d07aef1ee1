// tma_fuzz.cu: random tensor maps and boxes through the Tensor Memory Accelerator.  A tile
// case draws a data type (every CUtensorMapDataType of sm_90), a rank (1 to 5), dimensions,
// strides (padded, or overlapping), box sizes, element strides, a swizzle, the NaN fill and
// an L2 promotion, encodes the map with cuTensorMapEncodeTiled (one case in seven with one
// field made invalid: its error is printed), then loads a box at random coordinates (inside,
// across the edges, before the tensor) into shared memory, or stores or reduces (add, min,
// max, inc, dec, and, or, xor on the types the H100 has them for) random shared memory into
// the tensor; f32 data holds edge values (subnormals, NaNs, infinities, TF32 ties).  An
// im2col case draws an NWC/NHWC/NDHWC map (cuTensorMapEncodeIm2col: corners, channels,
// pixels, element strides) and loads at random coordinates and offsets.  A case prints its
// parameters and a hash: of shared memory after a load (and whether the mbarrier
// completed), of the whole tensor after a store.  What the H100 showed this way: a swizzled
// box's rows are padded to the swizzle's span; elementStrides[0] is not used; stores and
// reductions write whole 16-byte pieces of a row; the NaN fill is 0x7ff7 repeated; TF32
// maps round loads to nearest even; an im2col load must start inside the bounding box.
//   tma_fuzz                           tile cases 0 .. 599, im2col cases 0 .. 299, then one
//                                      im2col load before its bounding box (the error ends it)
//   tma_fuzz FIRST COUNT [unsafe|im2col]  tile (or im2col) cases FIRST .. FIRST+COUNT-1;
//   "unsafe" also draws every reduction with every type (one case per process: some are
//   illegal instructions).  TMA_DUMP=1 prints the bytes hashed.
// link: -lcuda
// target: -arch=sm_90
#include "apps.h"
#include "tma_util.h"
#include <cuda.h>
#include <cstdint>
#include <cstring>

enum { SMEM = 40960, TBYTES = 8 << 20 };
struct Coords { int c[5]; unsigned short o[3]; };

__device__ static unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

#define C1 "%3"
#define C2 "%3, %4"
#define C3 "%3, %4, %5"
#define C4 "%3, %4, %5, %6"
#define C5 "%3, %4, %5, %6, %7"
#define CARGS "r"(k.c[0]), "r"(k.c[1]), "r"(k.c[2]), "r"(k.c[3]), "r"(k.c[4])
#define LOAD(N, CS)                                                                                        \
    asm volatile("cp.async.bulk.tensor." #N "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" \
                 " [%0], [%1, {" CS "}], [%2];" ::"r"(s), "l"(m), "r"(mb), CARGS : "memory")
#define STORE(N, CS)                                                                                   \
    asm volatile("cp.async.bulk.tensor." #N "d.global.shared::cta.tile.bulk_group [%1, {" CS "}], [%0];" \
                 ::"r"(s), "l"(m), "r"(mb), CARGS : "memory")
#define RED(OP, N, CS)                                                                                    \
    asm volatile("cp.reduce.async.bulk.tensor." #N "d.global.shared::cta." #OP ".tile.bulk_group [%1, {" CS \
                 "}], [%0];" ::"r"(s), "l"(m), "r"(mb), CARGS : "memory")
#define IM2COL(N, CS, OS)                                                                                    \
    asm volatile("cp.async.bulk.tensor." #N "d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"   \
                 " [%0], [%1, {" CS "}], [%2], {" OS "};" ::"r"(s), "l"(m), "r"(mb), CARGS, "h"(k.o[0]), "h"(k.o[1]), \
                 "h"(k.o[2]) : "memory")
#define RANKS(X, ...)                                  \
    switch (rank) {                                    \
    case 1: X(__VA_ARGS__ 1, C1); break;               \
    case 2: X(__VA_ARGS__ 2, C2); break;               \
    case 3: X(__VA_ARGS__ 3, C3); break;               \
    case 4: X(__VA_ARGS__ 4, C4); break;               \
    default: X(__VA_ARGS__ 5, C5); break;              \
    }

// mode 0: load the box into shared memory (filled with 0xee first; an im2col load when op
// is negative, k.o its offsets), expecting tx bytes,
// and copy shared memory to io, the mbarrier's completion to *done.  mode 1: fill shared
// memory from io and store it into the tensor; mode 2: reduce it with operation op.
__global__ void run(const __grid_constant__ CUtensorMap map, Coords k, int rank, int mode, int op, unsigned tx,
                    unsigned char *io, int *done)
{
    __shared__ alignas(1024) unsigned char buf[SMEM];
    __shared__ alignas(8) unsigned long long bar;
    unsigned s = smem_addr(buf), mb = smem_addr(&bar);
    const void *m = &map;
    for (int i = threadIdx.x; i < SMEM; i += blockDim.x)
        buf[i] = mode == 0 ? 0xee : io[i];
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (mode == 0) {
        if (threadIdx.x == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(tx) : "memory");
            if (op < 0)   // im2col
                switch (rank) {
                case 3: IM2COL(3, C3, "%8"); break;
                case 4: IM2COL(4, C4, "%8, %9"); break;
                default: IM2COL(5, C5, "%8, %9, %10"); break;
                }
            else
                RANKS(LOAD, )
        }
        unsigned ok = 0;
        for (int i = 0; i < 20000 && !ok; i++)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(ok) : "r"(mb) : "memory");
        if (threadIdx.x == 0)
            *done = ok;
        __syncthreads();
        for (int i = threadIdx.x; i < SMEM; i += blockDim.x)
            io[i] = buf[i];
        return;
    }
    if (threadIdx.x != 0)
        return;
    if (mode == 1) {
        RANKS(STORE, )
    } else {
        switch (op) {
        case 0: RANKS(RED, add, ) break;
        case 1: RANKS(RED, min, ) break;
        case 2: RANKS(RED, max, ) break;
        case 3: RANKS(RED, inc, ) break;
        case 4: RANKS(RED, dec, ) break;
        case 5: RANKS(RED, and, ) break;
        case 6: RANKS(RED, or, ) break;
        default: RANKS(RED, xor, ) break;
        }
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

static const char *const opname[8] = { "add", "min", "max", "inc", "dec", "and", "or", "xor" };

// The reductions the H100 has (the others are illegal instructions, measured with "unsafe"):
// add on u32, s32, u64 and the float types; min, max on u32, s32, u64, s64, f16, bf16; inc,
// dec on u32; and, or, xor on u32, s32, u64.
static bool red_ok(int op, int t)
{
    switch (op) {
    case 0: return t == 2 || t == 3 || t == 4 || t >= 6;
    case 1: case 2: return (t >= 2 && t <= 6) || t == 9;
    case 3: case 4: return t == 2;
    default: return t >= 2 && t <= 4;
    }
}

// One f32 in four of p[0 .. n) an edge value: subnormal, infinite, NaN, the largest, a tie
// of TF32's rounding (or with small, one in two a subnormal or a value below 2^-120).
static void edge_f32(unsigned char *p, size_t n, bool small)
{
    for (size_t i = 0; i + 4 <= n; i += 4) {
        if (rnd() % (small ? 2 : 4))
            continue;
        uint32_t v = (uint32_t)rnd(), sign = v & 0x80000000u;
        switch (small ? rnd() % 2 : rnd() % 6) {
        case 0: v = sign | (v & 0x7fffff); break;
        case 1: v = small ? sign | (v & 0x03ffffff) : sign | 0x7f800000u; break;
        case 2: v = sign | 0x7f800000u | (v & 0x7fffff) | 1; break;
        case 3: v = sign | 0x7f7fe000u | (v & 0x1fff); break;
        default: v = (v & ~0x1fffu) | 0x1000u; break;
        }
        memcpy(&p[i], &v, 4);
    }
}

// A load's result: whether the mbarrier completed, how far shared memory was written, its
// hash (and with dump its bytes).
static void show_load(const unsigned char *io, const int *done, uint64_t tx, bool dump)
{
    static unsigned char sh[SMEM];
    int ok;
    CK(cudaMemcpy(sh, io, SMEM, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&ok, done, sizeof ok, cudaMemcpyDeviceToHost));
    size_t used = 0;
    for (size_t i = 0; i < SMEM; i++)
        if (sh[i] != 0xee)
            used = i + 1;
    printf(" tx %llu: done %d, %zu bytes, %016llx\n", (unsigned long long)tx, ok, used,
           (unsigned long long)fnv(sh, SMEM));
    if (dump)
        for (size_t i = 0; i < used; i++)
            printf("%02x%s", sh[i], i % 32 == 31 || i + 1 == used ? "\n" : " ");
}

// An im2col case: an NWC / NHWC / NDHWC tensor (rank 3 to 5) of a random type, the pixel
// box's corners, channels and pixels per load, element strides, swizzle and NaN fill, a
// load at random coordinates (with outside, one before the bounding box: an illegal
// instruction) and offsets.
static int im2col_case(long n, unsigned char *gt, unsigned char *io, int *done, bool dump, bool outside = false)
{
    static unsigned char host[TBYTES + 4096];
    rs = 0x51ed2701beefull * (uint64_t)(n + 1);
    int dtype = (int)range(0, 12), rank = (int)range(3, 5), swz = range(0, 1) ? 0 : (int)range(1, 3);
    unsigned es = esize[dtype], span = swz ? 16u << swz : 4096;
    cuuint64_t dims[5], strides[5];
    cuuint32_t estr[5];
    int lower[3], upper[3], lim = rank == 3 ? 32767 : rank == 4 ? 127 : 15;
    unsigned q = 16 / es > 1 ? 16 / es : 1;
    unsigned ch = q * (unsigned)range(1, 4);
    while (ch * es > span)
        ch -= q;
    if (range(0, 3) == 0)
        ch = (unsigned)range(1, 256 / q) * q;   // maybe too wide for the swizzle: refused
    dims[0] = (cuuint64_t)range(1, ch * 2);
    for (int i = 1; i < rank; i++)
        dims[i] = (cuuint64_t)range(1, 12);
    for (int i = 0; i < rank; i++)
        estr[i] = range(0, 2) ? 1 : (cuuint32_t)range(1, 4);
    for (int i = 0; i < rank - 2; i++) {
        lower[i] = (int)range(-4, 3);
        upper[i] = (int)range(-4, 3);
        if (range(0, 15) == 0)
            lower[i] = lim + 1;   // out of range: refused
    }
    uint64_t rowb = ch * es, pitch = swz ? span : rowb;
    unsigned pixels = (unsigned)range(1, 64);
    if (range(0, 20) == 0)
        pixels = 1025;   // refused
    while (pixels > 1 && pitch * pixels > 32768)
        pixels /= 2;
    uint64_t extent = dims[0] * es;
    for (int i = 1; i < rank; i++) {
        uint64_t st = (extent + 15) / 16 * 16 + 16 * (uint64_t)range(0, 2);
        strides[i - 1] = st;
        extent += (dims[i] - 1) * st;
    }
    int oob = dtype >= 6 && range(0, 1);
    printf("im2col %ld: t%d r%d dims", n, dtype, rank);
    for (int i = 0; i < rank; i++)
        printf(" %llu", (unsigned long long)dims[i]);
    printf(" strides");
    for (int i = 0; i + 1 < rank; i++)
        printf(" %llu", (unsigned long long)strides[i]);
    printf(" estr");
    for (int i = 0; i < rank; i++)
        printf(" %u", estr[i]);
    printf(" corners");
    for (int i = 0; i < rank - 2; i++)
        printf(" %d:%d", lower[i], upper[i]);
    printf(" ch %u px %u swz%d oob%d", ch, pixels, swz, oob);
    alignas(64) CUtensorMap map;
    memset(&map, 0, sizeof map);
    CUresult r = cuTensorMapEncodeIm2col(&map, (CUtensorMapDataType)dtype, rank, gt, dims, strides, lower, upper, ch,
                                         pixels, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)swz,
                                         CU_TENSOR_MAP_L2_PROMOTION_NONE, (CUtensorMapFloatOOBfill)oob);
    if (r != CUDA_SUCCESS) {
        say_result(r);
        return 0;
    }
    Coords k = { { 0, 0, 0, 0, 0 }, { 0, 0, 0 } };
    printf(" at");
    k.c[0] = (int)(range(-1, (int64_t)dims[0] / q) * q);
    for (int i = 1; i < rank; i++) {   // the spatial start inside the bounding box
        k.c[i] = i < rank - 1 ? (int)range(lower[i - 1], (int64_t)dims[i] - 1 + upper[i - 1])
                              : (int)range(-1, (int64_t)dims[i]);
        if (i == 1 && outside)
            k.c[1] = lower[0] - 1;
        printf(" %d", k.c[i]);
    }
    printf(" ch0 %d off", k.c[0]);
    for (int i = 0; i < rank - 2; i++) {
        k.o[i] = (unsigned short)range(0, 3);
        printf(" %u", k.o[i]);
    }
    for (size_t i = 0; i < extent + 64 && i < sizeof host; i++)
        host[i] = (unsigned char)rnd();
    CK(cudaMemcpy(gt, host, extent + 64, cudaMemcpyHostToDevice));
    CK(cudaMemset(done, 0xff, sizeof(int)));
    uint64_t tx = rowb * pixels;
    run<<<1, 128>>>(map, k, rank, 0, -1, (unsigned)tx, io, done);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf(" -> %s\n", cudaGetErrorName(e));
        return 1;
    }
    show_load(io, done, tx, dump);
    return 0;
}

int main(int argc, char **argv)
{
    long first = argc > 2 ? atol(argv[1]) : 0, count = argc > 2 ? atol(argv[2]) : 600;
    bool im2col = argc > 3 && !strcmp(argv[3], "im2col"), both = argc <= 2;
    bool unsafe = argc > 3 && !strcmp(argv[3], "unsafe");
    bool dump = getenv("TMA_DUMP") != nullptr;
    CK(cudaFree(0));
    unsigned char *gt, *io;
    int *done;
    CK(cudaMalloc(&gt, TBYTES + 4096));
    CK(cudaMalloc(&io, SMEM));
    CK(cudaMalloc(&done, sizeof(int)));
    static unsigned char host[TBYTES + 4096], sh[SMEM];
    for (long n = first; n < first + count && !im2col; n++) {
        rs = 0x7a3c5e11d00dull * (uint64_t)(n + 1);
        int mode = (int)range(0, 9);
        mode = mode < 6 ? 0 : mode < 8 ? 1 : 2;
        int dtype = (int)range(0, 12), rank = (int)range(1, 5), op = 0;
        if (mode == 2) {
            op = (int)range(0, 7);
            for (int tries = 0; !unsafe && !red_ok(op, dtype) && tries < 100; tries++)
                dtype = (int)range(2, 12);
            if (!unsafe && !red_ok(op, dtype))
                op = 0, dtype = 2;
        }
        unsigned es = esize[dtype];
        int swz = (int)range(0, 3);
        if (range(0, 2) == 0)
            swz = 0;
        unsigned swbytes = swz ? 16u << swz : 256 * es;
        cuuint32_t box[5], estr[5];
        cuuint64_t dims[5], strides[5];
        uint64_t tx = es;
        for (int i = 0; i < rank; i++) {
            static const cuuint32_t small[] = { 1, 2, 3, 4, 5, 7, 8, 16, 32 };
            box[i] = range(0, 3) ? small[range(0, 8)] : (cuuint32_t)range(1, 256);
            if (i == 0) {   // a multiple of 16 bytes, within the swizzle's span
                unsigned q = 16 / es > 1 ? 16 / es : 1;
                box[0] = (box[0] + q - 1) / q * q;
                while (box[0] * es > swbytes)
                    box[0] -= q;
            }
            estr[i] = range(0, 3) ? 1 : (cuuint32_t)range(1, 8);
            // the innermost element stride is not used (measured): boxDim[0] elements a row
            uint64_t n = i ? (box[i] + estr[i] - 1) / estr[i] : box[0];
            while (tx * n > 32768 && box[i] > 1) {
                box[i] = box[i] / 2 > 0 ? box[i] / 2 : 1;
                if (i == 0) {
                    unsigned q = 16 / es > 1 ? 16 / es : 1;
                    box[0] = box[0] < q ? q : box[0] / q * q;
                }
                n = i ? (box[i] + estr[i] - 1) / estr[i] : box[0];
            }
            tx *= n;
            dims[i] = (cuuint64_t)range(1, box[i] * 3 + 2);
        }
        // With a swizzle each row of the box takes the swizzle's span in shared memory:
        // keep the padded box within 32 KiB (past shared memory a load faults).
        for (;;) {
            uint64_t rows = 1, rowb = box[0] * es;
            for (int i = 1; i < rank; i++)
                rows *= (box[i] + estr[i] - 1) / estr[i];
            if (!swz || rows * swbytes <= 32768)
                break;
            int big = 1;
            for (int i = 2; i < rank; i++)
                if (box[i] > box[big])
                    big = i;
            box[big] = box[big] / 2 > 0 ? box[big] / 2 : 1;
            rows = 1;
            for (int i = 1; i < rank; i++)
                rows *= (box[i] + estr[i] - 1) / estr[i];
            tx = rowb * rows;
        }
        // Strides: the row padded by 0 to 3 16-byte units, or (one map in eight) rows that overlap.
        uint64_t extent = dims[0] * es;
        for (int i = 1; i < rank; i++) {
            uint64_t st = (extent + 15) / 16 * 16 + 16 * (uint64_t)range(0, 3);
            if (range(0, 7) == 0)
                st = 16 * (uint64_t)range(1, 4);
            strides[i - 1] = st;
            if (extent + (dims[i] - 1) * st > TBYTES) {
                dims[i] = (TBYTES - extent) / st + 1;
                if (dims[i] > 1 && box[i] > dims[i] * 3)
                    box[i] = (cuuint32_t)dims[i];
            }
            extent += (dims[i] - 1) * st;
        }
        int oob = dtype >= 6 && range(0, 1);
        int l2 = (int)range(0, 3);
        void *addr = gt;
        // One map in seven gets one invalid field.
        const char *bad = "";
        if (range(0, 6) == 0) {
            int i = (int)range(0, rank - 1);
            switch (range(0, 12)) {
            case 0: dims[i] = 0; bad = "dim 0"; break;
            case 1: dims[i] = (1ull << 32) + range(0, 1); bad = "dim 2^32+"; break;
            case 2: if (rank > 1) { strides[range(0, rank - 2)] += 8; bad = "stride %16"; } break;
            case 3: if (rank > 1) { strides[range(0, rank - 2)] = 1ull << 40; bad = "stride 2^40"; } break;
            case 4: box[i] = 0; bad = "box 0"; break;
            case 5: box[i] = 257; bad = "box 257"; break;
            case 6: estr[i] = 0; bad = "estr 0"; break;
            case 7: estr[i] = 9; bad = "estr 9"; break;
            case 8: box[0] = box[0] + 1; bad = "box0 bytes"; break;
            case 9: if (dtype < 6) { oob = 1; bad = "nan fill int"; } break;
            case 10: addr = gt + 8; bad = "addr %16"; break;
            case 11: swz = 1; box[0] = 64 / es; bad = "swizzle span"; break;
            default: l2 = 4; bad = "l2 4"; break;
            }
        }
        printf("case %ld: %s %s t%d r%d dims", n, mode == 0 ? "load" : mode == 1 ? "store" : "reduce",
               mode == 2 ? opname[op] : "", dtype, rank);
        for (int i = 0; i < rank; i++)
            printf(" %llu", (unsigned long long)dims[i]);
        printf(" strides");
        for (int i = 0; i + 1 < rank; i++)
            printf(" %llu", (unsigned long long)strides[i]);
        printf(" box");
        for (int i = 0; i < rank; i++)
            printf(" %u", box[i]);
        printf(" estr");
        for (int i = 0; i < rank; i++)
            printf(" %u", estr[i]);
        printf(" swz%d oob%d l2%d %s", swz, oob, l2, bad);
        alignas(64) CUtensorMap map;
        memset(&map, 0, sizeof map);
        CUresult r = cuTensorMapEncodeTiled(&map, (CUtensorMapDataType)dtype, rank, addr, dims, strides, box, estr,
                                            CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)swz,
                                            (CUtensorMapL2promotion)l2, (CUtensorMapFloatOOBfill)oob);
        if (r != CUDA_SUCCESS) {
            say_result(r);
            continue;
        }
        if (*bad) {   // accepted: not run, the tensor may not be there
            printf(" -> accepted\n");
            continue;
        }
        Coords k = { { 0, 0, 0, 0, 0 } };
        printf(" at");
        for (int i = 0; i < rank; i++) {
            int64_t lo = mode == 0 ? -(int64_t)box[i] - 2 : 0;
            int64_t hi = (int64_t)(dims[i] < 100000 ? dims[i] : 100000) + 2;
            int64_t in_hi = (int64_t)(dims[i] < 100000 ? dims[i] : 100000) - 1;
            int64_t c = range(0, 3) == 0 ? range(lo, hi) : range(0, 1) ? range(lo / 2, in_hi) : range(lo, lo + 3);
            if (i == 0) {   // innermost coordinates at 16-byte boundaries
                int64_t q = 16 / es > 1 ? 16 / es : 1;
                c = c >= 0 ? c / q * q : -((-c + q - 1) / q * q);
                if (mode && c < 0)
                    c = 0;
            }
            k.c[i] = (int)c;
            printf(" %d", k.c[i]);
        }
        for (size_t i = 0; i < extent + 64 && i < sizeof host; i++)
            host[i] = (unsigned char)rnd();
        // One f32 in four of the f32 types an edge value: subnormal, infinite, NaN, the
        // largest, or a tie of TF32's rounding.
        if (dtype == 7 || dtype >= 10)
            edge_f32(host, extent + 64 < sizeof host ? extent + 64 : sizeof host, false);
        // Integer reductions of small values, so that inc/dec and min/max wrap and compare.
        if (mode == 2 && (op == 3 || op == 4))
            for (size_t i = 0; i + 4 <= extent + 64; i += 4)
                host[i + 1] = host[i + 2] = host[i + 3] = 0;
        size_t tb = extent + 64 < sizeof host ? extent + 64 : sizeof host;
        CK(cudaMemcpy(gt, host, tb, cudaMemcpyHostToDevice));
        for (int i = 0; i < SMEM; i++)
            sh[i] = (unsigned char)rnd();
        if (mode == 2 && (op == 3 || op == 4))
            for (int i = 0; i + 4 <= SMEM; i += 4)
                sh[i] %= 8, sh[i + 1] = sh[i + 2] = sh[i + 3] = 0;
        if (mode == 2 && (dtype == 7 || dtype >= 10))   // small values, so that subnormals count
            edge_f32(sh, SMEM, true);
        CK(cudaMemcpy(io, sh, SMEM, cudaMemcpyHostToDevice));
        CK(cudaMemset(done, 0xff, sizeof(int)));
        run<<<1, 128>>>(map, k, rank, mode, op, (unsigned)tx, io, done);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf(" -> %s\n", cudaGetErrorName(e));
            return 1;
        }
        if (mode == 0) {
            show_load(io, done, tx, dump);
        } else {
            static unsigned char after[TBYTES + 4096];
            CK(cudaMemcpy(after, gt, tb, cudaMemcpyDeviceToHost));
            size_t changed = 0;
            for (size_t i = 0; i < tb; i++)
                changed += after[i] != host[i];
            printf(": %zu bytes changed, %016llx\n", changed, (unsigned long long)fnv(after, tb));
            if (dump)
                for (size_t i = 0; i < tb; i++)
                    if (after[i] != host[i])
                        printf("%zu: %02x -> %02x\n", i, host[i], after[i]);
        }
    }
    if (im2col || both)
        for (long n = im2col ? first : 0; n < (im2col ? first + count : 300); n++)
            if (im2col_case(n, gt, io, done, dump))
                return 1;
    // Last, as the error is sticky: an im2col load that starts before the bounding box.
    if (both)
        for (long n = 0; n < 10; n++)
            if (im2col_case(n, gt, io, done, dump, true))
                return 1;
    return 0;
}
