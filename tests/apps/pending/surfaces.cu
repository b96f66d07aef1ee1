// surfaces: surface objects made through the runtime (cudaCreateSurfaceObject) on 1D, 2D,
// layered and 3D arrays and on a level of a mipmapped array: kernels write with
// surf*write and read back with surf*read and with copies; the boundary modes clamp and
// zero, for reads and writes outside the array; the resource descriptor read back and the
// error of a surface on an array not made for one.
#include "apps.h"
#include <cstring>

__device__ int iout[64];

static void show(const char *what, const int *h, int n)
{
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %d", h[i]);
    printf("\n");
}

static void show_out(const char *what, int n)
{
    int h[64];
    CK(cudaMemcpyFromSymbol(h, iout, n * sizeof(int)));
    show(what, h, n);
}

__global__ void k_1d(cudaSurfaceObject_t s, int w)
{
    int x = threadIdx.x;
    if (x < w)
        surf1Dwrite(x * 3 + 1, s, x * 4);
}

__global__ void k_1d_read(cudaSurfaceObject_t s, int w)
{
    int x = threadIdx.x;
    if (x < w) {
        int v;
        surf1Dread(&v, s, (w - 1 - x) * 4);
        iout[x] = v;
    }
}

// a 2D array of int2: (x, y) gets (x + 100 y, -x)
__global__ void k_2d(cudaSurfaceObject_t s, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h)
        surf2Dwrite(make_int2(x + 100 * y, -x), s, x * sizeof(int2), y);
}

// reads at byte offsets and rows inside and outside, clamp then zero
__global__ void k_2d_bounds(cudaSurfaceObject_t s)
{
    const int xs[6] = { 0, 5, -1, 40, 2, 6 };
    const int ys[6] = { 0, 3, 1, 2, -5, 9 };
    int i = threadIdx.x;
    if (i < 6) {
        int2 c = surf2Dread<int2>(s, xs[i] * (int)sizeof(int2), ys[i], cudaBoundaryModeClamp);
        int2 z = surf2Dread<int2>(s, xs[i] * (int)sizeof(int2), ys[i], cudaBoundaryModeZero);
        iout[4 * i] = c.x, iout[4 * i + 1] = c.y, iout[4 * i + 2] = z.x, iout[4 * i + 3] = z.y;
    }
}

// writes outside: clamped ones land on the edge, zero-mode ones are dropped
__global__ void k_2d_write_out(cudaSurfaceObject_t s)
{
    surf2Dwrite(make_int2(-7, -7), s, -3 * (int)sizeof(int2), 1, cudaBoundaryModeClamp);
    surf2Dwrite(make_int2(-8, -8), s, 2 * (int)sizeof(int2), 50, cudaBoundaryModeClamp);
    surf2Dwrite(make_int2(-9, -9), s, 99 * (int)sizeof(int2), 0, cudaBoundaryModeZero);
    surf2Dwrite(make_int2(-9, -9), s, 0, -1, cudaBoundaryModeZero);
}

// layered: (x, y, layer) gets x + 10 y + 1000 layer; then each thread reads another layer
__global__ void k_layered(cudaSurfaceObject_t s, int layers)
{
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    surf2DLayeredwrite((float)(x + 10 * y + 1000 * l), s, x * 4, y, l);
}

__global__ void k_layered_read(cudaSurfaceObject_t s, int layers)
{
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    float v;
    surf2DLayeredread(&v, s, ((x + 1) % 4) * 4, y, (l + 1) % layers);
    iout[(l * 2 + y) * 4 + x] = (int)v;
}

// 3D of ushort: (x, y, z) gets x + 16 y + 256 z, read back at (x, y, z) with z reversed
__global__ void k_3d(cudaSurfaceObject_t s)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    surf3Dwrite((unsigned short)(x + 16 * y + 256 * z), s, x * 2, y, z);
}

__global__ void k_3d_read(cudaSurfaceObject_t s, int depth)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    unsigned short v;
    surf3Dread(&v, s, x * 2, y, depth - 1 - z);
    iout[(z * 3 + y) * 4 + x] = v;
}

// a mipmap level from the one above: each texel the sum of its 2 x 2 parents
__global__ void k_down(cudaSurfaceObject_t src, cudaSurfaceObject_t dst)
{
    int x = threadIdx.x, y = threadIdx.y;
    int a = surf2Dread<int>(src, 2 * x * 4, 2 * y), b = surf2Dread<int>(src, (2 * x + 1) * 4, 2 * y);
    int c = surf2Dread<int>(src, 2 * x * 4, 2 * y + 1), d = surf2Dread<int>(src, (2 * x + 1) * 4, 2 * y + 1);
    surf2Dwrite(a + b + c + d, dst, x * 4, y);
}

static cudaSurfaceObject_t make_surface(cudaArray_t a)
{
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &r));
    return s;
}

int main()
{
    // --- 1D
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t a1;
    CK(cudaMallocArray(&a1, &ci, 10, 0, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s1 = make_surface(a1);
    k_1d<<<1, 10>>>(s1, 10);
    k_1d_read<<<1, 10>>>(s1, 10);
    CK(cudaDeviceSynchronize());
    show_out("1D reversed", 10);
    cudaResourceDesc rb;
    CK(cudaGetSurfaceObjectResourceDesc(&rb, s1));
    printf("resource: type %d array %s\n", (int)rb.resType, rb.res.array.array == a1 ? "same" : "other");
    CK(cudaDestroySurfaceObject(s1));

    // --- 2D int2, 6 x 4
    cudaChannelFormatDesc c2 = cudaCreateChannelDesc<int2>();
    cudaArray_t a2;
    CK(cudaMallocArray(&a2, &c2, 6, 4, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s2 = make_surface(a2);
    k_2d<<<4, 6>>>(s2, 6, 4);
    k_2d_bounds<<<1, 6>>>(s2);
    CK(cudaDeviceSynchronize());
    show_out("2D reads (clamp x y, zero x y)", 24);
    k_2d_write_out<<<1, 1>>>(s2);
    CK(cudaDeviceSynchronize());
    int h2[4][6][2];
    CK(cudaMemcpy2DFromArray(h2, sizeof h2[0], a2, 0, 0, sizeof h2[0], 4, cudaMemcpyDeviceToHost));
    show("2D after writes outside", &h2[0][0][0], 48);
    CK(cudaDestroySurfaceObject(s2));

    // --- layered float, 4 x 2 x 3 layers
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t al;
    CK(cudaMalloc3DArray(&al, &cf, make_cudaExtent(4, 2, 3), cudaArrayLayered | cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t sl = make_surface(al);
    k_layered<<<3, dim3(4, 2)>>>(sl, 3);
    k_layered_read<<<3, dim3(4, 2)>>>(sl, 3);
    CK(cudaDeviceSynchronize());
    show_out("layered", 24);
    CK(cudaDestroySurfaceObject(sl));

    // --- 3D ushort, 4 x 3 x 2
    cudaChannelFormatDesc cu = cudaCreateChannelDesc<unsigned short>();
    cudaArray_t a3;
    CK(cudaMalloc3DArray(&a3, &cu, make_cudaExtent(4, 3, 2), cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s3 = make_surface(a3);
    k_3d<<<2, dim3(4, 3)>>>(s3);
    k_3d_read<<<2, dim3(4, 3)>>>(s3, 2);
    CK(cudaDeviceSynchronize());
    show_out("3D", 24);
    unsigned short h3[2][3][4];
    cudaMemcpy3DParms p = {};
    p.srcArray = a3;
    p.dstPtr = make_cudaPitchedPtr(h3, 4 * sizeof(unsigned short), 4, 3);
    p.extent = make_cudaExtent(4, 3, 2);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
    printf("3D copied back: %d %d %d\n", h3[0][0][1], h3[1][2][3], h3[1][0][0]);
    CK(cudaDestroySurfaceObject(s3));

    // --- a mipmap level made from the one above through surfaces
    cudaMipmappedArray_t mm;
    CK(cudaMallocMipmappedArray(&mm, &ci, make_cudaExtent(8, 8, 0), 2, cudaArraySurfaceLoadStore));
    cudaArray_t l0, l1;
    CK(cudaGetMipmappedArrayLevel(&l0, mm, 0));
    CK(cudaGetMipmappedArrayLevel(&l1, mm, 1));
    int h0[8][8], hl1[4][4];
    for (int i = 0; i < 64; i++)
        h0[i / 8][i % 8] = i;
    CK(cudaMemcpy2DToArray(l0, 0, 0, h0, sizeof h0[0], sizeof h0[0], 8, cudaMemcpyHostToDevice));
    cudaSurfaceObject_t sm0 = make_surface(l0), sm1 = make_surface(l1);
    k_down<<<1, dim3(4, 4)>>>(sm0, sm1);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy2DFromArray(hl1, sizeof hl1[0], l1, 0, 0, sizeof hl1[0], 4, cudaMemcpyDeviceToHost));
    show("level 1", &hl1[0][0], 16);
    CK(cudaDestroySurfaceObject(sm0));
    CK(cudaDestroySurfaceObject(sm1));

    // --- errors: an array not made for surfaces
    cudaArray_t plain;
    CK(cudaMallocArray(&plain, &ci, 4, 4));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = plain;
    cudaSurfaceObject_t bad;
    SAY(cudaCreateSurfaceObject(&bad, &r));

    CK(cudaFreeArray(plain));
    CK(cudaFreeMipmappedArray(mm));
    CK(cudaFreeArray(a1));
    CK(cudaFreeArray(a2));
    CK(cudaFreeArray(al));
    CK(cudaFreeArray(a3));
    printf("done\n");
    return 0;
}
