// textures: texture objects made through the runtime (cudaCreateTextureObject) on linear
// memory (tex1Dfetch), pitched 2D memory, 2D arrays (point and linear filtering,
// normalized and unnormalized coordinates, clamp, wrap, mirror and border), layered, 3D,
// cube map and mipmapped arrays (explicit levels), normalized reads of 8-bit texels; the
// descriptors read back.  Point samples are printed exactly; linearly filtered ones on
// data that is a sum of a function of x and one of y (so that bilinear filtering's cross
// term, whose precision on the H100 is not matched yet, cancels) at weights of 1/4, 1/2
// and 3/4, rounded to 2 decimals (exact results are multiples of 1/4).
#include "apps.h"
#include <cstring>

#define N 64
__device__ float fout[N * 4];
__device__ int iout[N * 4];

static void show_f(const char *what, int n)
{
    float h[N * 4];
    CK(cudaMemcpyFromSymbol(h, fout, n * sizeof(float)));
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %.2f", h[i]);
    printf("\n");
}

static void show_i(const char *what, int n)
{
    int h[N * 4];
    CK(cudaMemcpyFromSymbol(h, iout, n * sizeof(int)));
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %d", h[i]);
    printf("\n");
}

__global__ void k_fetch(cudaTextureObject_t t, int n)
{
    int i = threadIdx.x;
    if (i < n)
        iout[i] = tex1Dfetch<int>(t, i * 7 - 3);   // -3 and beyond the end read 0
}

__global__ void k_fetch4(cudaTextureObject_t t)
{
    int i = threadIdx.x;
    float4 v = tex1Dfetch<float4>(t, i);
    fout[4 * i] = v.x, fout[4 * i + 1] = v.y, fout[4 * i + 2] = v.z, fout[4 * i + 3] = v.w;
}

// 2D samples at coordinates (x[i], y[i])
__global__ void k_2d(cudaTextureObject_t t, const float *x, const float *y, int n)
{
    int i = threadIdx.x;
    if (i < n)
        fout[i] = tex2D<float>(t, x[i], y[i]);
}

__global__ void k_2d_int(cudaTextureObject_t t, const float *x, const float *y, int n)
{
    int i = threadIdx.x;
    if (i < n)
        iout[i] = tex2D<int>(t, x[i], y[i]);
}

__global__ void k_layered(cudaTextureObject_t t, int n)
{
    int i = threadIdx.x;
    if (i < n)
        fout[i] = tex2DLayered<float>(t, 0.5f + i % 4, 1.5f, i / 4);
}

__global__ void k_3d(cudaTextureObject_t t, const float *x, const float *y, const float *z, int n)
{
    int i = threadIdx.x;
    if (i < n)
        fout[i] = tex3D<float>(t, x[i], y[i], z[i]);
}

__global__ void k_cube(cudaTextureObject_t t)
{
    // one direction well inside each face, then two more on +x and -z
    const float d[8][3] = { { 1, 0.2f, -0.3f }, { -1, 0.1f, 0.4f }, { 0.3f, 1, 0.2f }, { -0.2f, -1, 0.1f },
                            { 0.1f, 0.3f, 1 },  { 0.2f, -0.1f, -1 }, { 2, -0.9f, 0.9f }, { -0.5f, 0.5f, -3 } };
    int i = threadIdx.x;
    if (i < 8)
        fout[i] = texCubemap<float>(t, d[i][0], d[i][1], d[i][2]);
}

__global__ void k_lod(cudaTextureObject_t t)
{
    int i = threadIdx.x;   // level i / 4, four points
    float u = (i % 4 + 0.5f) / 4.0f;
    fout[i] = tex2DLod<float>(t, u, 0.3f, (float)(i / 4));
}

__global__ void k_norm(cudaTextureObject_t t, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        float4 v = tex2D<float4>(t, i + 0.5f, 0.5f);
        fout[4 * i] = v.x, fout[4 * i + 1] = v.y, fout[4 * i + 2] = v.z, fout[4 * i + 3] = v.w;
    }
}

static float *dev_floats(const float *h, int n)
{
    float *d;
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static cudaTextureDesc sampler(cudaTextureAddressMode m, cudaTextureFilterMode f, bool normalized,
                               cudaTextureReadMode r = cudaReadModeElementType)
{
    cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = m;
    t.filterMode = f;
    t.readMode = r;
    t.normalizedCoords = normalized;
    return t;
}

int main()
{
    cudaResourceDesc r;
    cudaTextureDesc td;
    cudaTextureObject_t t;

    // --- tex1Dfetch over linear memory: int, and float4
    int *lin;
    int hl[100];
    for (int i = 0; i < 100; i++)
        hl[i] = i * i + 1;
    CK(cudaMalloc(&lin, sizeof hl));
    CK(cudaMemcpy(lin, hl, sizeof hl, cudaMemcpyHostToDevice));
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = lin;
    r.res.linear.desc = cudaCreateChannelDesc<int>();
    r.res.linear.sizeInBytes = sizeof hl;
    td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false);
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_fetch<<<1, 16>>>(t, 16);
    CK(cudaDeviceSynchronize());
    show_i("tex1Dfetch int", 16);
    cudaResourceDesc rb;
    CK(cudaGetTextureObjectResourceDesc(&rb, t));
    printf("resource: type %d size %zu channel %d %d\n", (int)rb.resType, rb.res.linear.sizeInBytes,
           rb.res.linear.desc.x, (int)rb.res.linear.desc.f);
    CK(cudaDestroyTextureObject(t));
    float4 *lin4;
    float4 h4[8];
    for (int i = 0; i < 8; i++)
        h4[i] = make_float4(i, -i, 0.5f * i, 100 + i);
    CK(cudaMalloc(&lin4, sizeof h4));
    CK(cudaMemcpy(lin4, h4, sizeof h4, cudaMemcpyHostToDevice));
    r.res.linear.devPtr = lin4;
    r.res.linear.desc = cudaCreateChannelDesc<float4>();
    r.res.linear.sizeInBytes = sizeof h4;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_fetch4<<<1, 4>>>(t);
    CK(cudaDeviceSynchronize());
    show_f("tex1Dfetch float4", 16);
    CK(cudaDestroyTextureObject(t));
    // a linear resource not aligned to the texture alignment
    r.res.linear.devPtr = (char *)lin4 + 16;
    r.res.linear.sizeInBytes = 64;
    SAY(cudaCreateTextureObject(&t, &r, &td, NULL));

    // --- pitched 2D memory: 10 x 6 floats, t = x + 16 y
    const int PW = 10, PH = 6;
    float hp[PH][PW];
    for (int y = 0; y < PH; y++)
        for (int x = 0; x < PW; x++)
            hp[y][x] = x + 16.0f * y;
    float *pm;
    size_t pitch;
    CK(cudaMallocPitch(&pm, &pitch, PW * sizeof(float), PH));
    CK(cudaMemcpy2D(pm, pitch, hp, sizeof hp[0], sizeof hp[0], PH, cudaMemcpyHostToDevice));
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = pm;
    r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    r.res.pitch2D.width = PW;
    r.res.pitch2D.height = PH;
    r.res.pitch2D.pitchInBytes = pitch;
    {
        const float x[8] = { 0.5f, 9.5f, 3.25f, -4.0f, 20.0f, 1.0f, 1.75f, 5.25f };
        const float y[8] = { 0.5f, 5.5f, 2.75f, 1.5f, 2.5f, 0.5f, 3.5f, 2.0f };
        float *dx = dev_floats(x, 8), *dy = dev_floats(y, 8);
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_2d<<<1, 8>>>(t, dx, dy, 8);
        CK(cudaDeviceSynchronize());
        show_f("pitched point", 8);
        CK(cudaDestroyTextureObject(t));
        td = sampler(cudaAddressModeClamp, cudaFilterModeLinear, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_2d<<<1, 8>>>(t, dx, dy, 8);
        CK(cudaDeviceSynchronize());
        show_f("pitched linear", 8);
        CK(cudaDestroyTextureObject(t));
    }
    r.res.pitch2D.pitchInBytes = 40;   // not a multiple of the pitch alignment (32)
    SAY(cudaCreateTextureObject(&t, &r, &td, NULL));

    // --- a 2D array of floats, 8 x 8, t = 2x + 3y: every address mode, point and linear
    const int AW = 8, AH = 8;
    float ha[AH][AW];
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++)
            ha[y][x] = 2.0f * x + 3.0f * y;
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cf, AW, AH));
    CK(cudaMemcpy2DToArray(a, 0, 0, ha, sizeof ha[0], sizeof ha[0], AH, cudaMemcpyHostToDevice));
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    {
        // unnormalized: texel centres, between centres (weights 1/4, 1/2, 3/4), outside
        const float x[12] = { 0.5f, 7.5f, 2.0f, 2.25f, 2.75f, 3.0f, 4.5f, 1.0f, -3.0f, 11.0f, 6.25f, 0.5f };
        const float y[12] = { 0.5f, 7.5f, 1.5f, 3.5f, 4.5f, 3.0f, 5.25f, 6.75f, 2.5f, 9.0f, 0.5f, -2.0f };
        float *dx = dev_floats(x, 12), *dy = dev_floats(y, 12);
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_2d<<<1, 12>>>(t, dx, dy, 12);
        CK(cudaDeviceSynchronize());
        show_f("array point", 12);
        CK(cudaDestroyTextureObject(t));
        td = sampler(cudaAddressModeClamp, cudaFilterModeLinear, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_2d<<<1, 12>>>(t, dx, dy, 12);
        CK(cudaDeviceSynchronize());
        show_f("array linear", 12);
        cudaTextureDesc tb;
        CK(cudaGetTextureObjectTextureDesc(&tb, t));
        printf("sampler: address %d %d filter %d read %d normalized %d\n", (int)tb.addressMode[0],
               (int)tb.addressMode[1], (int)tb.filterMode, (int)tb.readMode, tb.normalizedCoords);
        CK(cudaDestroyTextureObject(t));
        // normalized coordinates, point: wrap, mirror, border (inside and outside [0, 1))
        const float u[8] = { 0.0625f, 0.9375f, 1.0625f, -0.0625f, 2.3125f, -1.4375f, 0.5625f, 0.3125f };
        const float v[8] = { 0.0625f, 0.0625f, 0.3125f, 0.5625f, 1.1875f, 0.6875f, -0.8125f, 3.0625f };
        float *du = dev_floats(u, 8), *dv = dev_floats(v, 8);
        cudaTextureAddressMode modes[3] = { cudaAddressModeWrap, cudaAddressModeMirror, cudaAddressModeBorder };
        const char *names[3] = { "wrap point", "mirror point", "border point" };
        for (int m = 0; m < 3; m++) {
            td = sampler(modes[m], cudaFilterModePoint, true);
            CK(cudaCreateTextureObject(&t, &r, &td, NULL));
            k_2d<<<1, 8>>>(t, du, dv, 8);
            CK(cudaDeviceSynchronize());
            show_f(names[m], 8);
            CK(cudaDestroyTextureObject(t));
        }
    }

    // --- integer texels read as integers, and 8-bit texels read as normalized floats
    {
        int hi[2][4] = { { -5, 7, 100000, -2147483647 - 1 }, { 1, 2, 3, 4 } };
        cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
        cudaArray_t ai;
        CK(cudaMallocArray(&ai, &ci, 4, 2));
        CK(cudaMemcpy2DToArray(ai, 0, 0, hi, sizeof hi[0], sizeof hi[0], 2, cudaMemcpyHostToDevice));
        r.res.array.array = ai;
        const float x[6] = { 0.5f, 1.5f, 2.5f, 3.5f, 1.5f, 9.0f };
        const float y[6] = { 0.5f, 0.5f, 0.5f, 0.5f, 1.5f, 1.5f };
        float *dx = dev_floats(x, 6), *dy = dev_floats(y, 6);
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_2d_int<<<1, 6>>>(t, dx, dy, 6);
        CK(cudaDeviceSynchronize());
        show_i("int array", 6);
        CK(cudaDestroyTextureObject(t));
        td = sampler(cudaAddressModeClamp, cudaFilterModeLinear, false);
        SAY(cudaCreateTextureObject(&t, &r, &td, NULL));   // linear filtering of integers
        CK(cudaFreeArray(ai));

        uchar4 hu[8];
        for (int i = 0; i < 8; i++)
            hu[i] = make_uchar4(i * 36, 255 - i, 1 << (i % 8), 128);
        cudaChannelFormatDesc cu = cudaCreateChannelDesc<uchar4>();
        cudaArray_t au;
        CK(cudaMallocArray(&au, &cu, 8, 1));
        CK(cudaMemcpy2DToArray(au, 0, 0, hu, sizeof hu, sizeof hu, 1, cudaMemcpyHostToDevice));
        r.res.array.array = au;
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeNormalizedFloat);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_norm<<<1, 8>>>(t, 8);
        CK(cudaDeviceSynchronize());
        float h[32];
        CK(cudaMemcpyFromSymbol(h, fout, sizeof h));
        printf("normalized u8:");
        for (int i = 0; i < 32; i++)
            printf(" %.6f", h[i]);
        printf("\n");
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(au));
    }

    // --- a layered array: 4 x 3 x 5 layers, t = x + 10 y + 100 layer
    {
        cudaArray_t al;
        CK(cudaMalloc3DArray(&al, &cf, make_cudaExtent(4, 3, 5), cudaArrayLayered));
        float hl3[5][3][4];
        for (int l = 0; l < 5; l++)
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 4; x++)
                    hl3[l][y][x] = x + 10.0f * y + 100.0f * l;
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(hl3, 4 * sizeof(float), 4, 3);
        p.dstArray = al;
        p.extent = make_cudaExtent(4, 3, 5);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        r.res.array.array = al;
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_layered<<<1, 20>>>(t, 20);
        CK(cudaDeviceSynchronize());
        show_f("layered", 20);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(al));
    }

    // --- a 3D array: 6 x 5 x 4, t = x + 8 y + 64 z; point, then linear
    {
        cudaArray_t a3;
        CK(cudaMalloc3DArray(&a3, &cf, make_cudaExtent(6, 5, 4)));
        float h3[4][5][6];
        for (int z = 0; z < 4; z++)
            for (int y = 0; y < 5; y++)
                for (int x = 0; x < 6; x++)
                    h3[z][y][x] = x + 8.0f * y + 64.0f * z;
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(h3, 6 * sizeof(float), 6, 5);
        p.dstArray = a3;
        p.extent = make_cudaExtent(6, 5, 4);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        r.res.array.array = a3;
        const float x[6] = { 0.5f, 5.5f, 2.0f, 3.25f, 1.5f, 4.75f };
        const float y[6] = { 0.5f, 4.5f, 1.5f, 2.5f, 3.0f, 0.5f };
        const float z[6] = { 0.5f, 3.5f, 2.5f, 1.5f, 1.5f, 2.25f };
        float *dx = dev_floats(x, 6), *dy = dev_floats(y, 6), *dz = dev_floats(z, 6);
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_3d<<<1, 6>>>(t, dx, dy, dz, 6);
        CK(cudaDeviceSynchronize());
        show_f("3D point", 6);
        CK(cudaDestroyTextureObject(t));
        td = sampler(cudaAddressModeClamp, cudaFilterModeLinear, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_3d<<<1, 6>>>(t, dx, dy, dz, 6);
        CK(cudaDeviceSynchronize());
        show_f("3D linear", 6);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(a3));
    }

    // --- a cube map: 4 x 4 faces, t = face * 100 + y * 4 + x
    {
        cudaArray_t ac;
        CK(cudaMalloc3DArray(&ac, &cf, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
        float hc[6][4][4];
        for (int f = 0; f < 6; f++)
            for (int i = 0; i < 16; i++)
                hc[f][i / 4][i % 4] = f * 100.0f + i;
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(hc, 4 * sizeof(float), 4, 4);
        p.dstArray = ac;
        p.extent = make_cudaExtent(4, 4, 6);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        r.res.array.array = ac;
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, true);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_cube<<<1, 8>>>(t);
        CK(cudaDeviceSynchronize());
        show_f("cube", 8);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(ac));
    }

    // --- a mipmapped array: 16 x 16, 3 levels, level l holds l * 100 + x; explicit levels
    {
        cudaMipmappedArray_t mm;
        CK(cudaMallocMipmappedArray(&mm, &cf, make_cudaExtent(16, 16, 0), 3));
        for (unsigned l = 0; l < 3; l++) {
            cudaArray_t lv;
            CK(cudaGetMipmappedArrayLevel(&lv, mm, l));
            int w = 16 >> l;
            float hm[16 * 16];
            for (int i = 0; i < w * w; i++)
                hm[i] = l * 100.0f + i % w;
            CK(cudaMemcpy2DToArray(lv, 0, 0, hm, w * sizeof(float), w * sizeof(float), w, cudaMemcpyHostToDevice));
        }
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeMipmappedArray;
        r.res.mipmap.mipmap = mm;
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, true);
        td.mipmapFilterMode = cudaFilterModePoint;
        td.maxMipmapLevelClamp = 2;
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_lod<<<1, 12>>>(t);
        CK(cudaDeviceSynchronize());
        show_f("mipmap levels", 12);
        CK(cudaDestroyTextureObject(t));
        // a texture on level 1 alone, as a plain array
        cudaArray_t l1;
        CK(cudaGetMipmappedArrayLevel(&l1, mm, 1));
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeArray;
        r.res.array.array = l1;
        const float x[4] = { 0.5f, 7.5f, 3.0f, 12.0f }, y[4] = { 0.5f, 7.5f, 2.0f, 1.0f };
        float *dx = dev_floats(x, 4), *dy = dev_floats(y, 4);
        td = sampler(cudaAddressModeClamp, cudaFilterModePoint, false);
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        k_2d<<<1, 4>>>(t, dx, dy, 4);
        CK(cudaDeviceSynchronize());
        show_f("level 1 as an array", 4);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeMipmappedArray(mm));
    }

    CK(cudaFreeArray(a));
    CK(cudaFree(lin));
    CK(cudaFree(lin4));
    CK(cudaFree(pm));
    printf("done\n");
    return 0;
}
