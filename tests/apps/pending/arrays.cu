// arrays: CUDA arrays through the runtime and the driver API: every copy path (2D to and
// from an array from host, device and pitched memory, 3D with offsets, array to array,
// layered and mipmapped levels, the driver's AtoH/HtoA/AtoD/DtoA/AtoA), descriptors read
// back, memory accounting, arrays in a graph and a capture, and the errors of bad
// descriptors and copies.
// link: -lcuda
#include "apps.h"
#include <cuda.h>
#include <cstring>

static unsigned long long hash(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void info(const char *what, cudaArray_t a)
{
    cudaChannelFormatDesc d;
    cudaExtent e;
    unsigned flags;
    CK(cudaArrayGetInfo(&d, &e, &flags, a));
    printf("%s: channels %d %d %d %d kind %d extent %zu %zu %zu flags 0x%x\n", what, d.x, d.y, d.z, d.w, (int)d.f,
           e.width, e.height, e.depth, flags);
    CUDA_ARRAY3D_DESCRIPTOR q;
    CUresult r = cuArray3DGetDescriptor(&q, (CUarray)a);
    printf("  driver: %d %zu x %zu x %zu format 0x%x channels %u flags 0x%x\n", (int)r, q.Width, q.Height, q.Depth,
           (unsigned)q.Format, q.NumChannels, q.Flags);
}

__global__ void k_fill(float *p, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h)
        ((float *)((char *)p + y * pitch))[x] = y * 1000.0f + x;
}

int main()
{
    // --- a 2D array of uchar2, 37 x 23: host to array, array to host (sub-rectangles)
    const int W = 37, H = 23;
    cudaChannelFormatDesc c2 = cudaCreateChannelDesc<uchar2>();
    cudaArray_t a2;
    CK(cudaMallocArray(&a2, &c2, W, H));
    info("uchar2 2D", a2);
    static unsigned char img[H][W][2], back[H][W][2];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x][0] = (unsigned char)(x * 7 + y), img[y][x][1] = (unsigned char)(y * 13 - x);
    CK(cudaMemcpy2DToArray(a2, 0, 0, img, sizeof img[0], W * 2, H, cudaMemcpyHostToDevice));
    memset(back, 0, sizeof back);
    CK(cudaMemcpy2DFromArray(back, sizeof back[0], a2, 0, 0, W * 2, H, cudaMemcpyDeviceToHost));
    printf("2D round trip: %s\n", memcmp(img, back, sizeof img) ? "differs" : "same");
    unsigned char sub[5][6][2];
    CK(cudaMemcpy2DFromArray(sub, sizeof sub[0], a2, 3 * 2, 4, 6 * 2, 5, cudaMemcpyDeviceToHost));
    printf("sub-rectangle at (3,4): %d %d ... %d %d\n", sub[0][0][0], sub[0][0][1], sub[4][5][0], sub[4][5][1]);
    // a write into the middle, then the whole array back
    unsigned char patch[2][3][2] = { { { 1, 2 }, { 3, 4 }, { 5, 6 } }, { { 7, 8 }, { 9, 10 }, { 11, 12 } } };
    CK(cudaMemcpy2DToArray(a2, 10 * 2, 20, patch, sizeof patch[0], 3 * 2, 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy2DFromArray(back, sizeof back[0], a2, 0, 0, W * 2, H, cudaMemcpyDeviceToHost));
    printf("after the patch: %d %d %d, hash %016llx\n", back[20][10][0], back[21][12][1], back[19][10][0],
           hash(back, sizeof back));

    // --- device (pitched) memory to an array and back, through a kernel
    const int FW = 50, FH = 9;
    float *dp;
    size_t pitch;
    CK(cudaMallocPitch(&dp, &pitch, FW * sizeof(float), FH));
    k_fill<<<dim3(1, FH), 64>>>(dp, pitch, FW, FH);
    CK(cudaGetLastError());
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t af;
    CK(cudaMallocArray(&af, &cf, FW, FH));
    CK(cudaMemcpy2DToArray(af, 0, 0, dp, pitch, FW * sizeof(float), FH, cudaMemcpyDeviceToDevice));
    float *dq;
    CK(cudaMalloc(&dq, FW * FH * sizeof(float)));
    CK(cudaMemset(dq, 0, FW * FH * sizeof(float)));
    CK(cudaMemcpy2DFromArray(dq, FW * sizeof(float), af, 5 * sizeof(float), 2, 10 * sizeof(float), 3,
                             cudaMemcpyDeviceToDevice));
    static float fh[FH * FW];
    CK(cudaMemcpy(fh, dq, sizeof fh, cudaMemcpyDeviceToHost));
    printf("array to device: %.0f %.0f %.0f %.0f\n", fh[0], fh[9], fh[FW], fh[2 * FW + 9]);

    // --- array to array
    cudaArray_t ag;
    CK(cudaMallocArray(&ag, &cf, 16, 16));
    CK(cudaMemcpy2DArrayToArray(ag, 2 * sizeof(float), 1, af, 40 * sizeof(float), 6, 8 * sizeof(float), 3,
                                cudaMemcpyDeviceToDevice));
    float gh[16][16];
    memset(gh, 0, sizeof gh);
    CK(cudaMemcpy2DFromArray(gh, sizeof gh[0], ag, 0, 0, sizeof gh[0], 16, cudaMemcpyDeviceToHost));
    printf("array to array: %.0f %.0f %.0f %.0f\n", gh[1][2], gh[3][9], gh[0][2], gh[1][1]);

    // --- a 3D array with offsets on both sides
    const int X = 9, Y = 7, Z = 5;
    cudaArray_t a3;
    CK(cudaMalloc3DArray(&a3, &cf, make_cudaExtent(X, Y, Z)));
    info("float 3D", a3);
    static float vol[Z][Y][X], vback[Z][Y][X];
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++)
                vol[z][y][x] = z * 100 + y * 10 + x;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(float), X, Y);
    p.dstArray = a3;
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaPitchedPtr dv;
    CK(cudaMalloc3D(&dv, make_cudaExtent(X * sizeof(float), Y, Z)));
    CK(cudaMemset3D(dv, 0, make_cudaExtent(X * sizeof(float), Y, Z)));
    p = cudaMemcpy3DParms{};
    p.srcArray = a3;
    p.srcPos = make_cudaPos(2, 1, 1);       // elements, for an array
    p.dstPtr = dv;
    p.dstPos = make_cudaPos(0, 0, 0);
    p.extent = make_cudaExtent(4, 3, 2);
    p.kind = cudaMemcpyDeviceToDevice;
    CK(cudaMemcpy3D(&p));
    p = cudaMemcpy3DParms{};
    p.srcPtr = dv;
    p.dstPtr = make_cudaPitchedPtr(vback, X * sizeof(float), X, Y);
    p.extent = make_cudaExtent(X * sizeof(float), Y, Z);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
    printf("3D sub-box: %.0f %.0f %.0f %.0f (untouched %.0f)\n", vback[0][0][0], vback[0][0][3], vback[1][2][0],
           vback[1][2][3], vback[2][0][0]);

    // --- a layered array: only layer 2 written
    cudaArray_t al;
    CK(cudaMalloc3DArray(&al, &cf, make_cudaExtent(8, 4, 3), cudaArrayLayered));
    info("float 2D layered", al);
    float layer[4][8];
    for (int i = 0; i < 32; i++)
        layer[i / 8][i % 8] = 0.5f * i;
    p = cudaMemcpy3DParms{};
    p.srcPtr = make_cudaPitchedPtr(layer, 8 * sizeof(float), 8, 4);
    p.dstArray = al;
    p.dstPos = make_cudaPos(0, 0, 2);
    p.extent = make_cudaExtent(8, 4, 1);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    static float lall[3][4][8];
    p = cudaMemcpy3DParms{};
    p.srcArray = al;
    p.dstPtr = make_cudaPitchedPtr(lall, 8 * sizeof(float), 8, 4);
    p.extent = make_cudaExtent(8, 4, 3);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
    printf("layers: %.1f %.1f %.1f %.1f\n", lall[0][3][7], lall[1][0][0], lall[2][0][1], lall[2][3][7]);

    // --- a mipmapped array: levels' shapes, a copy to level 2
    cudaMipmappedArray_t mm;
    CK(cudaMallocMipmappedArray(&mm, &cf, make_cudaExtent(20, 12, 0), 4));
    for (unsigned l = 0; l < 4; l++) {
        cudaArray_t lv;
        CK(cudaGetMipmappedArrayLevel(&lv, mm, l));
        char what[32];
        snprintf(what, sizeof what, "level %u", l);
        info(what, lv);
    }
    cudaArray_t lv2;
    CK(cudaGetMipmappedArrayLevel(&lv2, mm, 2));
    float l2[3][5], l2b[3][5];
    for (int i = 0; i < 15; i++)
        l2[i / 5][i % 5] = 1.0f + i;
    CK(cudaMemcpy2DToArray(lv2, 0, 0, l2, sizeof l2[0], sizeof l2[0], 3, cudaMemcpyHostToDevice));
    CK(cudaMemcpy2DFromArray(l2b, sizeof l2b[0], lv2, 0, 0, sizeof l2b[0], 3, cudaMemcpyDeviceToHost));
    printf("level 2 round trip: %s\n", memcmp(l2, l2b, sizeof l2) ? "differs" : "same");
    cudaArray_t lvbad;
    SAY(cudaGetMipmappedArrayLevel(&lvbad, mm, 4));
    cudaMipmappedArray_t mm2;
    CK(cudaMallocMipmappedArray(&mm2, &cf, make_cudaExtent(16, 16, 0), 10));   // clamped to 5 levels
    SAY(cudaGetMipmappedArrayLevel(&lvbad, mm2, 4));
    SAY(cudaGetMipmappedArrayLevel(&lvbad, mm2, 5));

    // --- the deprecated runtime forms (offsets in bytes and rows)
    float row5[5] = { -1, -2, -3, -4, -5 }, row5b[7];
    CK(cudaMemcpyToArray(af, 3 * sizeof(float), 7, row5, sizeof row5, cudaMemcpyHostToDevice));
    CK(cudaMemcpyFromArray(row5b, af, 2 * sizeof(float), 7, sizeof row5b, cudaMemcpyDeviceToHost));
    printf("deprecated forms: %.0f %.0f %.0f %.0f\n", row5b[0], row5b[1], row5b[5], row5b[6]);
    CK(cudaMemcpyArrayToArray(ag, 0, 15, af, 3 * sizeof(float), 7, 5 * sizeof(float), cudaMemcpyDeviceToDevice));
    float row16[16];
    CK(cudaMemcpy2DFromArray(row16, sizeof row16, ag, 0, 15, sizeof row16, 1, cudaMemcpyDeviceToHost));
    printf("deprecated array to array: %.0f %.0f %.0f\n", row16[0], row16[4], row16[5]);

    // --- the driver's 1D copies
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t a1, b1;
    CK(cudaMallocArray(&a1, &ci, 64));
    CK(cudaMallocArray(&b1, &ci, 64));
    info("int 1D", a1);
    int hv[64], hb[64];
    for (int i = 0; i < 64; i++)
        hv[i] = i * i - 7;
    printf("cuMemcpyHtoA: %d\n", (int)cuMemcpyHtoA((CUarray)a1, 0, hv, sizeof hv));
    printf("cuMemcpyAtoA: %d\n", (int)cuMemcpyAtoA((CUarray)b1, 8 * 4, (CUarray)a1, 16 * 4, 10 * 4));
    CUdeviceptr d1;
    CK(cudaMalloc((void **)&d1, sizeof hv));
    printf("cuMemcpyAtoD: %d\n", (int)cuMemcpyAtoD(d1, (CUarray)b1, 0, sizeof hv));
    printf("cuMemcpyDtoA: %d\n", (int)cuMemcpyDtoA((CUarray)a1, 4 * 4, d1 + 8 * 4, 4 * 4));
    memset(hb, 0, sizeof hb);
    printf("cuMemcpyAtoH: %d\n", (int)cuMemcpyAtoH(hb, (CUarray)a1, 0, sizeof hb));
    printf("1D: %d %d %d %d %d\n", hb[0], hb[4], hb[7], hb[8], hb[63]);
    printf("cuMemcpyAtoH beyond: %d\n", (int)cuMemcpyAtoH(hb, (CUarray)a1, 60 * 4, 8 * 4));
    printf("cuMemcpyAtoH odd bytes: %d\n", (int)cuMemcpyAtoH(hb, (CUarray)a1, 2, 4));
    CUDA_ARRAY_DESCRIPTOR q2;
    printf("cuArrayGetDescriptor: %d", (int)cuArrayGetDescriptor(&q2, (CUarray)a2));
    printf(" %zu x %zu format 0x%x channels %u\n", q2.Width, q2.Height, (unsigned)q2.Format, q2.NumChannels);

    // --- a graph with a copy node to an array, and a captured copy from one
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaGraphNode_t node;
    CK(cudaGraphCreate(&g, 0));
    float gsrc[8] = { 8, 7, 6, 5, 4, 3, 2, 1 };
    p = cudaMemcpy3DParms{};
    p.srcPtr = make_cudaPitchedPtr(gsrc, sizeof gsrc, 8, 1);
    p.dstArray = ag;
    p.dstPos = make_cudaPos(4, 10, 0);
    p.extent = make_cudaExtent(8, 1, 1);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &p));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, 0));
    CK(cudaStreamSynchronize(0));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    float row[16];
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMemcpy2DFromArrayAsync(row, sizeof row, ag, 0, 10, sizeof row, 1, cudaMemcpyDeviceToHost, s));
    cudaGraph_t cg;
    CK(cudaStreamEndCapture(s, &cg));
    cudaGraphExec_t cge;
    CK(cudaGraphInstantiate(&cge, cg, 0));
    memset(row, 0, sizeof row);
    CK(cudaGraphLaunch(cge, s));
    CK(cudaStreamSynchronize(s));
    printf("graph row: %.0f %.0f %.0f %.0f\n", row[3], row[4], row[11], row[12]);

    // --- memory accounting: a 64 MiB array
    size_t free0, free1, free2, total;
    CK(cudaMemGetInfo(&free0, &total));
    cudaArray_t big;
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<float4>();
    CK(cudaMallocArray(&big, &c4, 4096, 1024));
    CK(cudaMemGetInfo(&free1, &total));
    CK(cudaFreeArray(big));
    CK(cudaMemGetInfo(&free2, &total));
    printf("a 64 MiB array takes at least 64 MiB: %s; freed: %s\n", free0 - free1 >= (64u << 20) ? "yes" : "no",
           free2 >= free0 ? "yes" : "no");

    // --- errors
    cudaArray_t bad = NULL;
    SAY(cudaMallocArray(&bad, &cf, 0, 4));
    cudaChannelFormatDesc c3 = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    SAY(cudaMallocArray(&bad, &c3, 4, 4));
    SAY(cudaMalloc3DArray(&bad, &cf, make_cudaExtent(8, 4, 6), cudaArrayCubemap));
    SAY(cudaMalloc3DArray(&bad, &cf, make_cudaExtent(8, 8, 5), cudaArrayCubemap));
    SAY(cudaMalloc3DArray(&bad, &cf, make_cudaExtent(8, 0, 3), 0));
    SAY(cudaMallocArray(&bad, &cf, 200000, 1));
    SAY(cudaMalloc3DArray(&bad, &cf, make_cudaExtent(20000, 20000, 2), 0));
    SAY(cudaMalloc3DArray(&bad, &cf, make_cudaExtent(8, 8, 4), cudaArrayTextureGather));
    SAY(cudaMemcpy2DToArray(a2, 30 * 2, 0, img, sizeof img[0], 10 * 2, 1, cudaMemcpyHostToDevice));
    SAY(cudaMemcpy2DToArray(a2, 0, 20, img, sizeof img[0], 4 * 2, 5, cudaMemcpyHostToDevice));
    SAY(cudaMemcpy2DToArray(a2, 1, 0, img, sizeof img[0], 4, 1, cudaMemcpyHostToDevice));
    CUDA_ARRAY3D_DESCRIPTOR q = {};
    CUarray ca;
    q.Width = 4;
    q.Format = (CUarray_format)0x77;
    q.NumChannels = 1;
    printf("cuArray3DCreate, format 0x77: %d\n", (int)cuArray3DCreate(&ca, &q));
    q.Format = CU_AD_FORMAT_FLOAT;
    q.NumChannels = 3;
    printf("cuArray3DCreate, 3 channels: %d\n", (int)cuArray3DCreate(&ca, &q));
    q.NumChannels = 1;
    q.Flags = 0x1000;
    printf("cuArray3DCreate, flags 0x1000: %d\n", (int)cuArray3DCreate(&ca, &q));
    q.Flags = CUDA_ARRAY3D_LAYERED;
    printf("cuArray3DCreate, layered without layers: %d\n", (int)cuArray3DCreate(&ca, &q));
    q.Flags = 0;
    q.Depth = 2;
    printf("cuArray3DCreate, depth without height: %d\n", (int)cuArray3DCreate(&ca, &q));
    CUDA_ARRAY_MEMORY_REQUIREMENTS req;
    printf("cuArrayGetMemoryRequirements: %d\n", (int)cuArrayGetMemoryRequirements(&req, (CUarray)a2, 0));
    CUDA_ARRAY_SPARSE_PROPERTIES sp;
    printf("cuArrayGetSparseProperties: %d\n", (int)cuArrayGetSparseProperties(&sp, (CUarray)a2));
    CUarray plane;
    printf("cuArrayGetPlane: %d\n", (int)cuArrayGetPlane(&plane, (CUarray)a2, 0));

    CK(cudaFreeArray(a2));
    CK(cudaFreeArray(af));
    CK(cudaFreeArray(ag));
    CK(cudaFreeArray(a3));
    CK(cudaFreeArray(al));
    CK(cudaFreeArray(a1));
    CK(cudaFreeArray(b1));
    CK(cudaFreeMipmappedArray(mm));
    CK(cudaFreeMipmappedArray(mm2));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphExecDestroy(cge));
    CK(cudaGraphDestroy(g));
    CK(cudaGraphDestroy(cg));
    CK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
