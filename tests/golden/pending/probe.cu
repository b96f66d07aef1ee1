// probe.cu: measurements of the H100's texture unit for ptxemu (docs/textures.md).
// Prints "T name bytes-hex" for every texture's contents and "S name c0 c1 c2 c3 r0 r1 r2 r3"
// (hex bits) for every sample.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static uint64_t rs = 12345;
static uint32_t rnd() { rs = rs * 6364136223846793005ull + 1442695040888963407ull; return (uint32_t)(rs >> 33); }
static float frnd() { return (rnd() & 0xffffff) / 16777216.0f; }

template <class T> __device__ void put(T v, uint4 *o) { o->x = __float_as_uint(v.x); o->y = __float_as_uint(v.y); o->z = __float_as_uint(v.z); o->w = __float_as_uint(v.w); }
__device__ void put(uint4 v, uint4 *o) { *o = v; }
__device__ void put(int4 v, uint4 *o) { o->x = v.x; o->y = v.y; o->z = v.z; o->w = v.w; }

template <class R>
__global__ void samp(cudaTextureObject_t t, int kind, const float4 *c, uint4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = c[i];
    R r;
    switch (kind) {
    case 0: r = tex1D<R>(t, p.x); break;
    case 1: r = tex2D<R>(t, p.x, p.y); break;
    case 2: r = tex3D<R>(t, p.x, p.y, p.z); break;
    case 3: r = tex1DLod<R>(t, p.x, p.w); break;
    case 4: r = tex2DLod<R>(t, p.x, p.y, p.w); break;
    case 5: r = tex2DGrad<R>(t, p.x, p.y, make_float2(p.z, 0), make_float2(0, p.w)); break;
    case 6: r = texCubemap<R>(t, p.x, p.y, p.z); break;
    case 7: r = tex2Dgather<R>(t, p.x, p.y, 0); break;
    case 8: r = tex2Dgather<R>(t, p.x, p.y, 1); break;
    case 9: r = tex2Dgather<R>(t, p.x, p.y, 2); break;
    case 10: r = tex2Dgather<R>(t, p.x, p.y, 3); break;
    case 11: r = tex2DLayered<R>(t, p.x, p.y, __float_as_int(p.z)); break;
    case 12: r = tex1DLayered<R>(t, p.x, __float_as_int(p.y)); break;
    case 13: r = texCubemapLayered<R>(t, p.x, p.y, p.z, __float_as_int(p.w)); break;
    case 14: r = tex1Dfetch<R>(t, __float_as_int(p.x)); break;
    case 15: r = tex2DGrad<R>(t, p.x, p.y, make_float2(p.z, p.w), make_float2(-p.w, p.z)); break;
    case 16: r = tex3DLod<R>(t, p.x, p.y, p.z, p.w); break;
    default: r = R(); break;
    }
    put(r, &out[i]);
}

struct Tex { cudaArray_t a = 0; cudaMipmappedArray_t m = 0; cudaTextureObject_t t = 0; };

static void dump_texels(const char *name, const void *p, size_t bytes)
{
    printf("T %s ", name);
    for (size_t i = 0; i < bytes; i++) printf("%02x", ((const uint8_t *)p)[i]);
    printf("\n");
}

// An array texture: dims w,h,d (h,d 0 for fewer dims), flags, data of elem bytes per texel.
static Tex mk(const char *name, cudaChannelFormatDesc cd, int w, int h, int d, unsigned flags, const void *data, size_t elem,
              cudaTextureFilterMode filt, cudaTextureReadMode rm, int norm, cudaTextureAddressMode am, float border = 0, int srgb = 0)
{
    Tex T;
    CK(cudaMalloc3DArray(&T.a, &cd, make_cudaExtent(w, h, d), flags));
    size_t hh = h ? h : 1, dd = d ? d : 1;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr((void *)data, w * elem, w, hh);
    p.dstArray = T.a;
    p.extent = make_cudaExtent(w, hh, dd);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    dump_texels(name, data, w * hh * dd * elem);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = T.a;
    cudaTextureDesc td = {};
    for (int i = 0; i < 3; i++) td.addressMode[i] = am;
    td.filterMode = filt;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.sRGB = srgb;
    for (int i = 0; i < 4; i++) td.borderColor[i] = border;
    CK(cudaCreateTextureObject(&T.t, &rd, &td, NULL));
    return T;
}

static std::vector<float4> C;
static void add(float x, float y = 0, float z = 0, float w = 0) { C.push_back(make_float4(x, y, z, w)); }

template <class R = float4>
static void run(const char *name, cudaTextureObject_t t, int kind)
{
    int n = (int)C.size();
    float4 *dc; uint4 *dout;
    CK(cudaMalloc(&dc, n * sizeof(float4)));
    CK(cudaMalloc(&dout, n * sizeof(uint4)));
    CK(cudaMemcpy(dc, C.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    samp<R><<<(n + 255) / 256, 256>>>(t, kind, dc, dout, n);
    CK(cudaGetLastError());
    std::vector<uint4> o(n);
    CK(cudaMemcpy(o.data(), dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        uint32_t c[4]; memcpy(c, &C[i], 16);
        printf("S %s %08x %08x %08x %08x %08x %08x %08x %08x\n", name, c[0], c[1], c[2], c[3], o[i].x, o[i].y, o[i].z, o[i].w);
    }
    cudaFree(dc); cudaFree(dout);
    C.clear();
}

static unsigned iasf(int i) { unsigned u; memcpy(&u, &i, 4); return u; }
static float asf(int i) { float f; memcpy(&f, &i, 4); return f; }

// txq / suq through inline PTX
__global__ void qt(cudaTextureObject_t t, unsigned *o)
{
    unsigned r;
#define TQ(k, Q) asm volatile("txq." Q ".b32 %0, [%1];" : "=r"(r) : "l"(t)); o[k] = r;
    TQ(0, "width") TQ(1, "height") TQ(2, "depth") TQ(3, "channel_data_type") TQ(4, "channel_order")
    TQ(5, "normalized_coords") TQ(6, "array_size") TQ(7, "num_mipmap_levels") TQ(8, "num_samples")
    TQ(9, "force_unnormalized_coords") TQ(10, "filter_mode") TQ(11, "addr_mode_0") TQ(12, "addr_mode_1") TQ(13, "addr_mode_2")
    asm volatile("txq.level.width.b32 %0, [%1], 1;" : "=r"(r) : "l"(t)); o[14] = r;
    asm volatile("txq.level.height.b32 %0, [%1], 1;" : "=r"(r) : "l"(t)); o[15] = r;
    asm volatile("txq.level.depth.b32 %0, [%1], 1;" : "=r"(r) : "l"(t)); o[16] = r;
    unsigned p1, p2, p3;
    asm volatile("{.reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(p1) : "l"(t));
    asm volatile("{.reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(p2) : "l"(t));
    asm volatile("{.reg .pred p; istypep.samplerref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(p3) : "l"(t));
    o[24] = p1; o[25] = p2; o[26] = p3;
}
__global__ void qs(cudaSurfaceObject_t s, unsigned *o)
{
    unsigned r;
#define SQ(k, Q) asm volatile("suq." Q ".b32 %0, [%1];" : "=r"(r) : "l"(s)); o[k] = r;
    SQ(17, "width") SQ(18, "height") SQ(19, "depth") SQ(20, "channel_data_type") SQ(21, "channel_order") SQ(22, "array_size") SQ(23, "memory_layout")
    unsigned p1, p2;
    asm volatile("{.reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(p1) : "l"(s));
    asm volatile("{.reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(p2) : "l"(s));
    o[27] = p1; o[28] = p2;
}

static void query(const char *name, cudaTextureObject_t t, cudaSurfaceObject_t s)
{
    unsigned *d, h[29];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemset(d, 0xff, sizeof h));
    if (t) qt<<<1, 1>>>(t, d);
    if (s) qs<<<1, 1>>>(s, d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("Q %s", name);
    for (int i = 0; i < 29; i++) printf(" %u", h[i]);
    printf("\n");
    cudaFree(d);
}

// surfaces
__global__ void surf1(cudaSurfaceObject_t s, const int *x, unsigned *o, int n, int mode)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    unsigned r = 0xdeadbeef;
    if (mode == 0) asm volatile("suld.b.1d.b32.clamp {%0}, [%1, {%2}];" : "+r"(r) : "l"(s), "r"(x[i]));
    if (mode == 1) asm volatile("suld.b.1d.b32.zero {%0}, [%1, {%2}];" : "+r"(r) : "l"(s), "r"(x[i]));
    if (mode == 2) asm volatile("suld.b.1d.b8.clamp {%0}, [%1, {%2}];" : "+r"(r) : "l"(s), "r"(x[i]));
    if (mode == 3) { unsigned a = 0, b = 0; asm volatile("suld.b.1d.v2.b32.clamp {%0, %1}, [%2, {%3}];" : "+r"(a), "+r"(b) : "l"(s), "r"(x[i])); r = a ^ (b << 16); }
    if (mode == 4) asm volatile("suld.b.1d.b16.clamp {%0}, [%1, {%2}];" : "+r"(r) : "l"(s), "r"(x[i]));
    if (mode == 5) asm volatile("suld.b.1d.b32.trap {%0}, [%1, {%2}];" : "+r"(r) : "l"(s), "r"(x[i]));
    o[i] = r;
}
__global__ void surf2(cudaSurfaceObject_t s, const int *x, unsigned *o, int n, int mode)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    unsigned r = 0xdeadbeef;
    if (mode == 0) asm volatile("suld.b.2d.b32.clamp {%0}, [%1, {%2, %3}];" : "+r"(r) : "l"(s), "r"(x[i]), "r"(x[i + n]));
    if (mode == 1) asm volatile("suld.b.2d.b32.zero {%0}, [%1, {%2, %3}];" : "+r"(r) : "l"(s), "r"(x[i]), "r"(x[i + n]));
    if (mode == 2) asm volatile("suld.b.a2d.b32.clamp {%0}, [%1, {%2, %3, %4, %4}];" : "+r"(r) : "l"(s), "r"(x[i + 2 * n]), "r"(x[i]), "r"(x[i + n]));
    if (mode == 3) asm volatile("suld.b.a2d.b32.zero {%0}, [%1, {%2, %3, %4, %4}];" : "+r"(r) : "l"(s), "r"(x[i + 2 * n]), "r"(x[i]), "r"(x[i + n]));
    o[i] = r;
}
__global__ void sustz(cudaSurfaceObject_t s, const int *x, int n, int mode)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    unsigned v = 0x1000 + i;
    if (mode == 0) asm volatile("sust.b.1d.b32.clamp [%0, {%1}], {%2};" :: "l"(s), "r"(x[i]), "r"(v));
    if (mode == 1) asm volatile("sust.b.1d.b32.zero [%0, {%1}], {%2};" :: "l"(s), "r"(x[i]), "r"(v));
}

int main(int argc, char **argv)
{
    int sec = argc > 1 ? atoi(argv[1]) : 0;
    cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
    printf("# %s\n", pr.name);
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), f4 = cudaCreateChannelDesc<float4>();
    if (sec == 0) {
    // E1: weights.  Alternating 0,1 texels, unnormalized and normalized coordinates.
    {
        std::vector<float> v(2048);
        for (int i = 0; i < 2048; i++) v[i] = (float)(i & 1);
        Tex T = mk("alt2048", f1, 2048, 0, 0, 0, v.data(), 4, cudaFilterModeLinear, cudaReadModeElementType, 0, cudaAddressModeClamp);
        float bases[] = { 0.5f, 1.5f, 100.5f, 1000.5f, 2000.5f };
        for (float b : bases) for (int k = 0; k <= 2048; k++) add(b + k / 2048.0f);
        for (int k = 0; k < 4096; k++) add(asf(0x3f000000 + k * 37));   // fine steps near 0.5
        for (int k = 0; k < 2000; k++) add(1.5f + frnd());
        run("w_un", T.t, 0);
        Tex N = mk("alt2048", f1, 2048, 0, 0, 0, v.data(), 4, cudaFilterModeLinear, cudaReadModeElementType, 1, cudaAddressModeClamp);
        for (float b : bases) for (int k = 0; k <= 1024; k++) add((b + k / 1024.0f) / 2048.0f);
        for (int k = 0; k < 3000; k++) add(frnd());
        run("w_n2048", N.t, 0);
        std::vector<float> v2(1000);
        for (int i = 0; i < 1000; i++) v2[i] = (float)(i & 1);
        Tex N2 = mk("alt1000", f1, 1000, 0, 0, 0, v2.data(), 4, cudaFilterModeLinear, cudaReadModeElementType, 1, cudaAddressModeClamp);
        for (int k = 0; k < 6000; k++) add(frnd());
        for (int k = 0; k < 2000; k++) add((500.5f + k / 2000.0f) / 1000.0f);
        run("w_n1000", N2.t, 0);
        Tex P2 = mk("alt1000", f1, 1000, 0, 0, 0, v2.data(), 4, cudaFilterModePoint, cudaReadModeElementType, 1, cudaAddressModeClamp);
        for (int k = 0; k <= 1000; k++) { float x0 = k / 1000.0f; int u; memcpy(&u, &x0, 4); for (int d = -6; d <= 6; d++) add(asf(u + d)); }
        run("p_n1000", P2.t, 0);
        Tex P3 = mk("alt2048", f1, 2048, 0, 0, 0, v.data(), 4, cudaFilterModePoint, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int k = 0; k <= 40; k++) { float x0 = (float)k; int u; memcpy(&u, &x0, 4); for (int d = -4; d <= 4; d++) add(asf(u + d)); }
        for (int k = 0; k < 2000; k++) add(frnd() * 2100 - 20);
        run("p_un", P3.t, 0);
    }
    // E2: combination, 1D f32 random texels
    {
        int W = 1024;
        std::vector<float> v(W);
        for (int i = 0; i < W; i++) { int e = (int)(rnd() % 40) - 20; v[i] = ldexpf(frnd() * 2 - 1, e); }
        for (int i = 0; i < 32; i++) v[i] = frnd() * 2 - 1;
        Tex T = mk("r1d", f1, W, 0, 0, 0, v.data(), 4, cudaFilterModeLinear, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int k = 0; k < 12000; k++) add((rnd() % (W - 1)) + 0.5f + frnd());
        for (int k = 0; k < 4000; k++) add((rnd() % 31) + 0.5f + frnd());
        run("c1d", T.t, 0);
    }
    // E3: 2D f32x4 and f32 bilinear
    {
        int W = 64, H = 48;
        std::vector<float4> v(W * H);
        for (auto &e : v) e = make_float4(frnd() * 2 - 1, ldexpf(frnd(), (int)(rnd() % 30) - 15), frnd() * 1000, frnd() - 0.5f);
        Tex T = mk("r2d4", f4, W, H, 0, 0, v.data(), 16, cudaFilterModeLinear, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int k = 0; k < 12000; k++) add(frnd() * (W + 2) - 1, frnd() * (H + 2) - 1);
        run("c2d4", T.t, 1);
        Tex N = mk("r2d4", f4, W, H, 0, 0, v.data(), 16, cudaFilterModeLinear, cudaReadModeElementType, 1, cudaAddressModeWrap);
        for (int k = 0; k < 6000; k++) add(frnd() * 3 - 1, frnd() * 3 - 1);
        run("c2d4nw", N.t, 1);
    }
    // E4: formats
    {
        std::vector<uint8_t> b(256); for (int i = 0; i < 256; i++) b[i] = (uint8_t)i;
        std::vector<uint16_t> s(65536); for (int i = 0; i < 65536; i++) s[i] = (uint16_t)i;
        struct F { const char *n; cudaChannelFormatDesc cd; int count; const void *d; size_t e; } fs[] = {
            { "u8", cudaCreateChannelDesc<unsigned char>(), 256, b.data(), 1 },
            { "s8", cudaCreateChannelDesc<signed char>(), 256, b.data(), 1 },
            { "u16", cudaCreateChannelDesc<unsigned short>(), 65536, s.data(), 2 },
            { "s16", cudaCreateChannelDesc<short>(), 65536, s.data(), 2 },
            { "f16", cudaCreateChannelDescHalf(), 65536, s.data(), 2 },
        };
        for (auto &f : fs) {
            bool half = f.n[0] == 'f';
            Tex T = mk(f.n, f.cd, f.count, 0, 0, 0, f.d, f.e, cudaFilterModePoint, half ? cudaReadModeElementType : cudaReadModeNormalizedFloat, 0, cudaAddressModeClamp);
            for (int i = 0; i < f.count; i++) add(i + 0.5f);
            char nm[32]; snprintf(nm, sizeof nm, "pt_%s", f.n);
            run(nm, T.t, 0);
            // linear on random texels
            int W = 2048;
            std::vector<uint8_t> r(W * f.e);
            for (auto &x : r) x = (uint8_t)rnd();
            if (half) for (int i = 0; i < W; i++) { uint16_t h = (uint16_t)((rnd() % 0x7800) | ((rnd() & 1) << 15)); memcpy(&r[i * 2], &h, 2); }
            snprintf(nm, sizeof nm, "lr_%s", f.n);
            Tex L = mk(nm, f.cd, W, 0, 0, 0, r.data(), f.e, cudaFilterModeLinear, half ? cudaReadModeElementType : cudaReadModeNormalizedFloat, 0, cudaAddressModeClamp);
            for (int k = 0; k < 8000; k++) add((rnd() % (W - 1)) + 0.5f + frnd());
            run(nm, L.t, 0);
        }
        // u8x4 2D normalized, linear
        int W = 32, H = 32;
        std::vector<uchar4> v(W * H);
        for (auto &e : v) e = make_uchar4(rnd(), rnd(), rnd(), rnd());
        Tex T = mk("r2du8", cudaCreateChannelDesc<uchar4>(), W, H, 0, 0, v.data(), 4, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0, cudaAddressModeClamp);
        for (int k = 0; k < 8000; k++) add(frnd() * W, frnd() * H);
        run("c2du8", T.t, 1);
        Tex S = mk("r2du8", cudaCreateChannelDesc<uchar4>(), W, H, 0, 0, v.data(), 4, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0, cudaAddressModeClamp, 0, 1);
        for (int k = 0; k < 4000; k++) add(frnd() * W, frnd() * H);
        run("c2du8srgb", S.t, 1);
        std::vector<uchar4> g(256); for (int i = 0; i < 256; i++) g[i] = make_uchar4(i, i, i, i);
        Tex G = mk("g256", cudaCreateChannelDesc<uchar4>(), 256, 0, 0, 0, g.data(), 4, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0, cudaAddressModeClamp, 0, 1);
        for (int i = 0; i < 256; i++) add(i + 0.5f);
        run("pt_srgb", G.t, 0);
        std::vector<ushort4> v16(W * H);
        for (auto &e : v16) e = make_ushort4(rnd(), rnd(), rnd(), rnd());
        Tex U = mk("r2du16", cudaCreateChannelDesc<ushort4>(), W, H, 0, 0, v16.data(), 8, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0, cudaAddressModeClamp);
        for (int k = 0; k < 4000; k++) add(frnd() * W, frnd() * H);
        run("c2du16", U.t, 1);
        Tex Hh = mk("r2du16", cudaCreateChannelDescHalf4(), W, H, 0, 0, v16.data(), 8, cudaFilterModeLinear, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int k = 0; k < 4000; k++) add(frnd() * W, frnd() * H);
        run("c2df16", Hh.t, 1);
    }
    // E6: address modes, 1D W=5
    {
        float v[5] = { 1, 2, 3, 4, 5 };
        cudaTextureAddressMode am[4] = { cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder };
        const char *an[4] = { "wrap", "clamp", "mirror", "border" };
        for (int m = 0; m < 4; m++) for (int fl = 0; fl < 2; fl++) for (int nm = 0; nm < 2; nm++) {
            Tex T = mk("five", f1, 5, 0, 0, 0, v, 4, fl ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeElementType, nm, am[m], 0.25f);
            if (nm) for (int k = -200; k <= 200; k++) add(k / 64.0f);
            else for (int k = -120; k <= 120; k++) add(k / 8.0f);
            char n[40]; snprintf(n, sizeof n, "am_%s_%s_%s", an[m], fl ? "lin" : "pt", nm ? "n" : "u");
            run(n, T.t, 0);
        }
        // 2D wrap/mirror with non-power-of-two sizes, linear
        int W = 7, H = 5;
        std::vector<float> w2(W * H); for (int i = 0; i < W * H; i++) w2[i] = (float)i;
        for (int m = 0; m < 4; m++) {
            Tex T = mk("w7x5", f1, W, H, 0, 0, w2.data(), 4, cudaFilterModeLinear, cudaReadModeElementType, 1, am[m], 0.25f);
            for (int k = 0; k < 3000; k++) add(frnd() * 6 - 3, frnd() * 6 - 3);
            char n[40]; snprintf(n, sizeof n, "am2_%s", an[m]);
            run(n, T.t, 1);
        }
    }
    // E7: mipmaps
    {
        int W = 32, L = 6;
        cudaMipmappedArray_t mm;
        cudaExtent ext = make_cudaExtent(W, W, 0);
        CK(cudaMallocMipmappedArray(&mm, &f1, ext, L, 0));
        for (int l = 0; l < L; l++) {
            cudaArray_t a; CK(cudaGetMipmappedArrayLevel(&a, mm, l));
            int w = W >> l;
            std::vector<float> v(w * w);
            for (int i = 0; i < w * w; i++) v[i] = (float)(l * 1000 + i);
            CK(cudaMemcpy2DToArray(a, 0, 0, v.data(), w * 4, w * 4, w, cudaMemcpyHostToDevice));
        }
        for (int cfg = 0; cfg < 4; cfg++) {
            cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = mm;
            cudaTextureDesc td = {};
            td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
            td.filterMode = cfg == 1 ? cudaFilterModePoint : cudaFilterModeLinear;
            td.mipmapFilterMode = cfg == 2 ? cudaFilterModePoint : cudaFilterModeLinear;
            td.normalizedCoords = 1;
            td.maxMipmapLevelClamp = cfg == 3 ? 3.0f : (float)(L - 1);
            td.minMipmapLevelClamp = cfg == 3 ? 0.75f : 0;
            td.mipmapLevelBias = cfg == 3 ? 0.375f : 0;
            td.maxAnisotropy = cfg == 3 ? 8 : 0;
            cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
            char n[32];
            for (int k = -300; k <= 3300; k++) add(0.5f / W, 0.5f / W, 0, k / 512.0f);
            for (int k = 0; k < 2000; k++) add(frnd(), frnd(), 0, frnd() * 6 - 0.5f);
            snprintf(n, sizeof n, "mip_lod%d", cfg); run(n, t, 4);
            for (int k = 0; k <= 2600; k++) { float g = exp2f(k / 400.0f - 1) / W; add(0.5f / W, 0.5f / W, g, g); }
            for (int k = 0; k < 3000; k++) { float g1 = exp2f(frnd() * 8 - 1) / W, g2 = exp2f(frnd() * 8 - 1) / W; add(frnd(), frnd(), g1, g2); }
            snprintf(n, sizeof n, "mip_grad%d", cfg); run(n, t, 5);
            for (int k = 0; k < 2000; k++) { float g1 = (frnd() * 2 - 1) * exp2f(frnd() * 6) / W, g2 = (frnd() * 2 - 1) * exp2f(frnd() * 6) / W; add(frnd(), frnd(), g1, g2); }
            snprintf(n, sizeof n, "mip_gradr%d", cfg); run(n, t, 15);
            if (cfg == 0) query("mip", t, 0);
        }
    }
    // E8: cube maps
    {
        int W = 8;
        std::vector<float> v(W * W * 6);
        for (int f = 0; f < 6; f++) for (int i = 0; i < W * W; i++) v[f * W * W + i] = (float)(f * 100 + i);
        for (int fl = 0; fl < 2; fl++) {
            Tex T = mk("cube8", f1, W, W, 6, cudaArrayCubemap, v.data(), 4, fl ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeElementType, 1, cudaAddressModeClamp);
            for (int k = 0; k < 6000; k++) add(frnd() * 2 - 1, frnd() * 2 - 1, frnd() * 2 - 1);
            for (int k = 0; k < 500; k++) { float a = frnd() * 2 - 1, b = frnd() * 2 - 1; add(a, a, b); add(b, a, a); add(a, b, -a); add(a, -a, a); }
            add(1, 1, 1); add(-1, -1, -1); add(0, 0, 0); add(1, -1, 1); add(-1, 1, -1); add(0, 0, 1); add(0, -0.0f, -1);
            run(fl ? "cube_lin" : "cube_pt", T.t, 6);
            if (!fl) query("cube", T.t, 0);
        }
    }
    // E9: gather, 3D, layered
    {
        int W = 8, H = 8;
        std::vector<float4> v(W * H);
        for (int i = 0; i < W * H; i++) v[i] = make_float4(i, 1000 + i, 2000 + i, 3000 + i);
        Tex T = mk("g8", f4, W, H, 0, 0, v.data(), 16, cudaFilterModeLinear, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int c = 0; c < 4; c++) { for (int k = 0; k < 300; k++) add(frnd() * 10 - 1, frnd() * 10 - 1); run(c == 0 ? "tld4r" : c == 1 ? "tld4g" : c == 2 ? "tld4b" : "tld4a", T.t, 7 + c); }
        Tex Tn = mk("g8", f4, W, H, 0, 0, v.data(), 16, cudaFilterModePoint, cudaReadModeElementType, 1, cudaAddressModeWrap);
        for (int k = 0; k < 300; k++) add(frnd() * 3 - 1, frnd() * 3 - 1);
        run("tld4wrap_pt", Tn.t, 7);
        int D = 6;
        std::vector<float> w3(W * H * D);
        for (auto &e : w3) e = frnd() * 2 - 1;
        Tex V = mk("r3d", f1, W, H, D, 0, w3.data(), 4, cudaFilterModeLinear, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int k = 0; k < 6000; k++) add(frnd() * W, frnd() * H, frnd() * D);
        run("c3d", V.t, 2);
        query("r3d", V.t, 0);
        std::vector<float> la(W * H * 4);
        for (int i = 0; i < W * H * 4; i++) la[i] = (float)i;
        Tex La = mk("la", f1, W, H, 4, cudaArrayLayered, la.data(), 4, cudaFilterModeLinear, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int l = -3; l <= 7; l++) for (int k = 0; k < 20; k++) add(frnd() * W, frnd() * H, asf(l));
        add(1, 1, asf(0x7fffffff)); add(1, 1, asf((int)0x80000000)); add(1, 1, asf(1000));
        run("a2d", La.t, 11);
        query("a2d", La.t, 0);
        Tex L1 = mk("l1", f1, W, 0, 4, cudaArrayLayered, la.data(), 4, cudaFilterModePoint, cudaReadModeElementType, 0, cudaAddressModeClamp);
        for (int l = -2; l <= 6; l++) for (int k = 0; k < 10; k++) add(frnd() * W, asf(l));
        run("a1d", L1.t, 12);
    }
    // E13: linear memory and pitch 2D
    {
        unsigned *dm; CK(cudaMalloc(&dm, 100 * 4));
        std::vector<unsigned> h(100); for (int i = 0; i < 100; i++) h[i] = 0x100 + i;
        CK(cudaMemcpy(dm, h.data(), 400, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = dm; rd.res.linear.desc = cudaCreateChannelDesc<unsigned>(); rd.res.linear.sizeInBytes = 400;
        cudaTextureDesc td = {}; td.readMode = cudaReadModeElementType;
        cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        for (int i = -5; i < 110; i++) add(asf(i));
        add(asf(1 << 30)); add(asf(-1000000));
        run<uint4>("fetch_u32", t, 14);
        query("lin", t, 0);
        std::vector<uchar4> h4(64); for (int i = 0; i < 64; i++) h4[i] = make_uchar4(i, 255 - i, i * 3, 7);
        uchar4 *d4; CK(cudaMalloc(&d4, 256)); CK(cudaMemcpy(d4, h4.data(), 256, cudaMemcpyHostToDevice));
        rd.res.linear.devPtr = d4; rd.res.linear.desc = cudaCreateChannelDesc<uchar4>(); rd.res.linear.sizeInBytes = 256;
        td.readMode = cudaReadModeNormalizedFloat;
        CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        for (int i = -2; i < 66; i++) add(asf(i));
        run("fetch_u8x4n", t, 14);
        // pitch2D f32: width 10, height 6, pitch 64 bytes
        float *dp; CK(cudaMalloc(&dp, 64 * 6));
        std::vector<float> hp(16 * 6); for (int i = 0; i < 96; i++) hp[i] = (float)i;
        CK(cudaMemcpy(dp, hp.data(), 384, cudaMemcpyHostToDevice));
        cudaResourceDesc rp = {}; rp.resType = cudaResourceTypePitch2D; rp.res.pitch2D.devPtr = dp; rp.res.pitch2D.desc = f1; rp.res.pitch2D.width = 10; rp.res.pitch2D.height = 6; rp.res.pitch2D.pitchInBytes = 64;
        cudaTextureDesc tp = {}; tp.filterMode = cudaFilterModeLinear; tp.addressMode[0] = tp.addressMode[1] = cudaAddressModeBorder;
        cudaTextureObject_t t2; CK(cudaCreateTextureObject(&t2, &rp, &tp, NULL));
        for (int k = 0; k < 500; k++) add(frnd() * 14 - 2, frnd() * 10 - 2);
        run("pitch", t2, 1);
        query("pitch", t2, 0);
        // integer element reads, point, 2D s16x2 with border
        std::vector<short2> hs(16); for (int i = 0; i < 16; i++) hs[i] = make_short2(-i * 1000, i);
        Tex S = mk("s16x2", cudaCreateChannelDesc<short2>(), 4, 4, 0, 0, hs.data(), 4, cudaFilterModePoint, cudaReadModeElementType, 0, cudaAddressModeBorder, 0.75f);
        for (int k = 0; k < 200; k++) add(frnd() * 8 - 2, frnd() * 8 - 2);
        run<int4>("s16x2_el", S.t, 1);
        query("s16x2", S.t, 0);
    }
    }
    // E12: surfaces
    if (sec >= 1) {
        cudaArray_t a; cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned>();
        CK(cudaMallocArray(&a, &cd, 16, 0, cudaArraySurfaceLoadStore));
        std::vector<unsigned> h(16); for (int i = 0; i < 16; i++) h[i] = 0x11111111u * (i & 15) + i;
        CK(cudaMemcpy2DToArray(a, 0, 0, h.data(), 64, 64, 1, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
        cudaSurfaceObject_t s; CK(cudaCreateSurfaceObject(&s, &rd));
        int xa[] = { -1000, -8, -4, 0, 4, 8, 56, 60, 64, 68, 1000, 0x7ffffff0, (int)0x80000000 };
        int xu[] = { -5, -3, -2, -1, 1, 2, 3, 5, 6, 7, 57, 58, 59, 61, 62, 63, 65 };
        int xt[] = { 64 };
        int *xs = sec == 1 ? xa : sec == 2 ? xu : xt;
        int n = sec == 1 ? 13 : sec == 2 ? 17 : 1;
        int *dx; unsigned *dout; CK(cudaMalloc(&dx, 64 * 4)); CK(cudaMalloc(&dout, n * 4));
        CK(cudaMemcpy(dx, xs, n * 4, cudaMemcpyHostToDevice));
        if (sec == 3) { surf1<<<1, 1>>>(s, dx, dout, 1, 5); printf("U trap err %d\n", (int)cudaDeviceSynchronize()); return 0; }
        for (int mode = 0; mode < 5; mode++) {
            surf1<<<1, 64>>>(s, dx, dout, n, mode);
            cudaError_t e = cudaDeviceSynchronize();
            std::vector<unsigned> o(n); cudaMemcpy(o.data(), dout, n * 4, cudaMemcpyDeviceToHost);
            printf("U surf1 mode %d err %d:", mode, (int)e);
            for (int i = 0; i < n; i++) printf(" %d=%08x", xs[i], o[i]);
            printf("\n");
        }
        if (sec == 2) return 0;
        query("surf1", 0, s);
        int ys[] = { -3, -1, 0, 1, 7, 15, 16, 40 };
        for (int mode = 0; mode < 2; mode++) {
            int sx[] = { 0, 4, 8, 12, 60, 64, -4, 20 };
            CK(cudaMemcpy(dx, sx, 32, cudaMemcpyHostToDevice));
            sustz<<<1, 8>>>(s, dx, 8, mode);
            cudaError_t e = cudaDeviceSynchronize();
            std::vector<unsigned> o(16); cudaMemcpy2DFromArray(o.data(), 64, a, 0, 0, 64, 1, cudaMemcpyDeviceToHost);
            printf("U sust1 mode %d err %d:", mode, (int)e);
            for (int i = 0; i < 16; i++) printf(" %08x", o[i]);
            printf("\n");
        }
        (void)ys;
        // 2D layered surface 4x3x2 u32
        cudaArray_t b;
        CK(cudaMalloc3DArray(&b, &cd, make_cudaExtent(4, 3, 2), cudaArraySurfaceLoadStore | cudaArrayLayered));
        std::vector<unsigned> hb(24); for (int i = 0; i < 24; i++) hb[i] = 0xa000 + i;
        cudaMemcpy3DParms p = {}; p.srcPtr = make_cudaPitchedPtr(hb.data(), 16, 4, 3); p.dstArray = b; p.extent = make_cudaExtent(4, 3, 2); p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        rd.res.array.array = b;
        cudaSurfaceObject_t s2; CK(cudaCreateSurfaceObject(&s2, &rd));
        int cx[] = { -4, 0, 4, 12, 16, 20, 0, 4, 8, -100, 100, 4 };
        int cy[] = { 0, -1, 1, 2, 3, 1, 5, 0, 1, -5, 9, 1 };
        int cl[] = { 0, 0, 1, 1, 0, -1, 2, 3, 7, 0, 1, -100 };
        int m = 12;
        int all[36]; memcpy(all, cx, 48); memcpy(all + 12, cy, 48); memcpy(all + 24, cl, 48);
        CK(cudaMemcpy(dx, all, sizeof all, cudaMemcpyHostToDevice));
        for (int mode = 0; mode < 4; mode++) {
            surf2<<<1, 32>>>(s2, dx, dout, m, mode);
            cudaError_t e = cudaDeviceSynchronize();
            std::vector<unsigned> o(m); cudaMemcpy(o.data(), dout, m * 4, cudaMemcpyDeviceToHost);
            printf("U surf2 mode %d err %d:", mode, (int)e);
            for (int i = 0; i < m; i++) printf(" (%d,%d,%d)=%08x", cx[i], cy[i], cl[i], o[i]);
            printf("\n");
        }
        query("surf2a", 0, s2);
    }
    printf("# done\n");
    return 0;
}
