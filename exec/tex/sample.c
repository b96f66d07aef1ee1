/* sample.c: the texture unit's arithmetic: texel decoding, address modes, the
 * fixed-point coordinates and weights of filtering, and cube-map faces.  Pure functions
 * of an object and coordinates; texinsn.c applies them to a warp's lanes.
 *
 * A coordinate in texels (a normalized one first cut to 21 fractional bits, then scaled
 * by the level's size) becomes fixed point with 8 fractional bits: a point sample takes
 * the texel of floor(u); a linear one the texels i0 = floor(u - 0.5) and i0 + 1, u - 0.5
 * rounded to the nearest 1/256, with the corner weights of weights() and the combination
 * of filter().  docs/textures.md gives each rule with its measurement on the H100. */
#include "exec/tex/tex.h"
#include "isa/sem/fp.h"
#include "isa/sem/mufu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Texel index under an address mode; the common case (inside the level) first. */
static inline int64_t wrap_idx(int64_t i, uint32_t n, ex_addr_t m)
{
    if ((uint64_t)i < n)
        return i;
    int64_t nn = n;
    switch (m) {
    case EX_ADDR_WRAP: {
        int64_t r = i % nn;
        return r < 0 ? r + nn : r;
    }
    case EX_ADDR_MIRROR: {
        int64_t r = i % (2 * nn);
        if (r < 0)
            r += 2 * nn;
        return r < nn ? r : 2 * nn - 1 - r;
    }
    case EX_ADDR_BORDER:
        return -1;
    case EX_ADDR_CLAMP:
    default:
        return i < 0 ? 0 : nn - 1;
    }
}

int64_t ex_tex_wrap_index(int64_t i, uint32_t n, ex_addr_t m)
{
    return wrap_idx(i, n, m);
}

/* floor(v) of a double, saturated to +-2^40 (far outside any texture); NaN gives 0.
 * Integer conversions only: no call to the library's floor. */
static inline int64_t floor_sat(double v)
{
    const double lim = 1099511627776.0;   /* 2^40 */
    if (!(v > -lim))
        return v != v ? 0 : -(int64_t)lim;
    if (v > lim)
        return (int64_t)lim;
    int64_t i = (int64_t)v;               /* towards zero, exact below 2^40 */
    return (double)i > v ? i - 1 : i;
}

/* u * 256 rounded down (u * 256 is exact in a double). */
static inline int64_t fixed_down(double u)
{
    return floor_sat((double)u * 256.0);
}

/* u * 256 rounded to nearest, halves up. */
static inline int64_t fixed_near(double u)
{
    return floor_sat((double)u * 256.0 + 0.5);
}

int64_t ex_tex_fixed(float u)
{
    return fixed_down(u);
}

/* u * 256 rounded to nearest, halves up, saturating as ex_tex_fixed. */
int64_t ex_tex_fixed_round(float u)
{
    return fixed_near(u);
}

static float half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
    if (e == 0x1f)
        u = s | 0x7f800000u | m << 13;
    else if (e)
        u = s | (e + 112) << 23 | m << 13;
    else if (m) {
        e = 113;
        while (!(m & 0x400)) {
            m <<= 1;
            e--;
        }
        u = s | e << 23 | (m & 0x3ff) << 13;
    } else
        u = s;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* sRGB to linear for an 8-bit value: the H100's table, measured (every value, point
 * sampling, probe2.cu): floats of 8 significant bits, the high halves given here.  They
 * are near the sRGB formula's values but are not it rounded (17 differ from rounding it
 * to 2^-14 and then to 8 bits). */
static const uint16_t srgb_hi[256] = {
    0x0000, 0x39a0, 0x3a20, 0x3a70, 0x3aa0, 0x3ac8, 0x3af0, 0x3b0c, 0x3b20, 0x3b34, 0x3b48, 0x3b5c,
    0x3b70, 0x3b84, 0x3b90, 0x3b9c, 0x3baa, 0x3bb8, 0x3bc6, 0x3bd6, 0x3be6, 0x3bf6, 0x3c03, 0x3c0c,
    0x3c16, 0x3c1f, 0x3c29, 0x3c34, 0x3c3e, 0x3c49, 0x3c55, 0x3c60, 0x3c6c, 0x3c7a, 0x3c83, 0x3c8a,
    0x3c91, 0x3c98, 0x3c9f, 0x3ca6, 0x3cae, 0x3cb6, 0x3cbe, 0x3cc6, 0x3cce, 0x3cd7, 0x3ce0, 0x3ce9,
    0x3cf2, 0x3cfc, 0x3d03, 0x3d08, 0x3d0d, 0x3d12, 0x3d17, 0x3d1c, 0x3d22, 0x3d28, 0x3d2d, 0x3d33,
    0x3d39, 0x3d3f, 0x3d45, 0x3d4c, 0x3d52, 0x3d58, 0x3d60, 0x3d66, 0x3d6c, 0x3d74, 0x3d7a, 0x3d81,
    0x3d85, 0x3d88, 0x3d8c, 0x3d90, 0x3d94, 0x3d98, 0x3d9c, 0x3da0, 0x3da4, 0x3da9, 0x3dad, 0x3db1,
    0x3db6, 0x3dba, 0x3dbf, 0x3dc3, 0x3dc8, 0x3dcd, 0x3dd1, 0x3dd6, 0x3ddb, 0x3de0, 0x3de5, 0x3dea,
    0x3df0, 0x3df4, 0x3dfa, 0x3e00, 0x3e02, 0x3e05, 0x3e08, 0x3e0b, 0x3e0e, 0x3e11, 0x3e14, 0x3e17,
    0x3e1a, 0x3e1d, 0x3e20, 0x3e23, 0x3e26, 0x3e29, 0x3e2c, 0x3e30, 0x3e33, 0x3e36, 0x3e3a, 0x3e3d,
    0x3e40, 0x3e44, 0x3e47, 0x3e4b, 0x3e4e, 0x3e52, 0x3e56, 0x3e59, 0x3e5d, 0x3e61, 0x3e65, 0x3e68,
    0x3e6c, 0x3e70, 0x3e74, 0x3e78, 0x3e7c, 0x3e80, 0x3e82, 0x3e84, 0x3e86, 0x3e88, 0x3e8a, 0x3e8d,
    0x3e8f, 0x3e91, 0x3e93, 0x3e95, 0x3e98, 0x3e9a, 0x3e9c, 0x3e9e, 0x3ea1, 0x3ea3, 0x3ea5, 0x3ea8,
    0x3eaa, 0x3ead, 0x3eaf, 0x3eb2, 0x3eb4, 0x3eb6, 0x3eb9, 0x3ebc, 0x3ebe, 0x3ec1, 0x3ec3, 0x3ec6,
    0x3ec8, 0x3ecb, 0x3ece, 0x3ed1, 0x3ed3, 0x3ed6, 0x3ed9, 0x3edb, 0x3ede, 0x3ee1, 0x3ee4, 0x3ee7,
    0x3eea, 0x3eed, 0x3ef0, 0x3ef2, 0x3ef6, 0x3ef8, 0x3efc, 0x3efe, 0x3f01, 0x3f02, 0x3f04, 0x3f05,
    0x3f07, 0x3f09, 0x3f0a, 0x3f0c, 0x3f0d, 0x3f0f, 0x3f11, 0x3f12, 0x3f14, 0x3f16, 0x3f17, 0x3f19,
    0x3f1b, 0x3f1c, 0x3f1e, 0x3f20, 0x3f21, 0x3f23, 0x3f25, 0x3f27, 0x3f29, 0x3f2a, 0x3f2c, 0x3f2e,
    0x3f30, 0x3f32, 0x3f33, 0x3f35, 0x3f37, 0x3f39, 0x3f3b, 0x3f3d, 0x3f3f, 0x3f41, 0x3f43, 0x3f45,
    0x3f47, 0x3f49, 0x3f4b, 0x3f4d, 0x3f4f, 0x3f51, 0x3f53, 0x3f55, 0x3f57, 0x3f59, 0x3f5b, 0x3f5d,
    0x3f5f, 0x3f61, 0x3f63, 0x3f65, 0x3f68, 0x3f6a, 0x3f6c, 0x3f6e, 0x3f70, 0x3f72, 0x3f74, 0x3f76,
    0x3f7a, 0x3f7c, 0x3f7e, 0x3f80,
};

static float srgb_lin(unsigned v)
{
    uint32_t b = (uint32_t)srgb_hi[v & 255] << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* The 8-bit value whose linear value (table entry) is f, or 256 where f is none (a border
 * colour). */
static unsigned srgb_index(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    unsigned lo = 0, hi = 255;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if ((uint32_t)srgb_hi[mid] << 16 < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)srgb_hi[lo] << 16 == b ? lo : 256;
}

/* The colour channel values of n sRGB texels as linear filtering counts them (measured
 * whole, tests/golden/pending/probe5.cu: every pair of texels and weight): each texel of
 * weight below the largest value is cut to 8 bits of the largest (2^(E - 8), done by
 * combine_cut), and for some pairs (the unit's table, isa/sem/mufu.h) one step lower. */
static void srgb_filtered(float *v, const uint32_t *wt, unsigned n)
{
    float mx = 0;
    for (unsigned q = 0; q < n; q++)
        if (wt[q] && v[q] > mx)
            mx = v[q];
    if (mx == 0)
        return;
    int e;
    frexpf(mx, &e);
    unsigned hi = srgb_index(mx);
    for (unsigned q = 0; q < n; q++) {
        unsigned lo = wt[q] && v[q] < mx && hi < 256 ? srgb_index(v[q]) : 256;
        if (lo < 256 && isa_mufu_get(ISA_MUFU_TEX_SRGB, lo * 256 + hi))
            v[q] -= ldexpf(1.0f, e - 8);
    }
}

static void texel_slow(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out);

/* Texel (x, y, z), decoded: four-channel 32-bit texels inline, the rest out of line. */
static inline void texel(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out)
{
    if (o->tb == 16 && (x | y | z) >= 0) {   /* four 32-bit channels, as stored */
        memcpy(out->u, lv->base + (uint64_t)z * lv->slice + (uint64_t)y * lv->row + (uint64_t)x * 16, 16);
        return;
    }
    texel_slow(o, lv, x, y, z, out);
}

/* A signed normalized texel read as it is: -128 (-32768) reads -1, as -127 (-32767) does;
 * the filters take it unclamped (measured: tex_norm_s8, tests/texfuzz). */
static inline void snorm_clamp(const ex_texobj_t *o, ex_texel_t *t)
{
    if (o->as_float && (o->fmt == EX_FMT_S8 || o->fmt == EX_FMT_S16))
        for (unsigned k = 0; k < 4; k++)
            t->f[k] = t->f[k] < -1.0f ? -1.0f : t->f[k];
}

void ex_tex_texel(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out)
{
    texel(o, lv, x, y, z, out);
    snorm_clamp(o, out);
}

static void texel_slow(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out)
{
    if (x < 0 || y < 0 || z < 0) {
        if (o->as_float) {
            /* The border colour in the texture's format (measured, tests/texfuzz): a
             * normalized format's channel is clamped to its range and rounded to its
             * steps (0.25 reads 64/255 from u8), an f16 one rounded to f16; channels the
             * format lacks read 0, as texels' do. */
            for (unsigned k = 0; k < 4; k++) {
                float b = o->tex.border[k];
                if (k >= o->ch) {
                    out->f[k] = 0.0f;
                    continue;
                }
                switch (o->fmt) {
                case EX_FMT_U8:
                    b = b < 0 ? 0 : b > 1 ? 1 : b != b ? 0 : b;
                    /* sRGB colour channels take the border colour as it is (measured,
                     * tests/texfuzz: 0.25 reads 0.25), not through the table */
                    out->f[k] = (o->tex.flags & EX_TEXF_SRGB) && k < 3 ? b : floorf(b * 255.0f + 0.5f) / 255.0f;
                    break;
                case EX_FMT_U16:
                    b = b < 0 ? 0 : b > 1 ? 1 : b != b ? 0 : b;
                    out->f[k] = floorf(b * 65535.0f + 0.5f) / 65535.0f;
                    break;
                case EX_FMT_S8:
                    b = b < -1 ? -1 : b > 1 ? 1 : b != b ? 0 : b;
                    out->f[k] = floorf(b * 127.0f + 0.5f) / 127.0f;   /* halves up: -0.5 reads -63/127 */
                    break;
                case EX_FMT_S16:
                    b = b < -1 ? -1 : b > 1 ? 1 : b != b ? 0 : b;
                    out->f[k] = floorf(b * 32767.0f + 0.5f) / 32767.0f;
                    break;
                case EX_FMT_F16:   /* rounded to f16, nearest even */
                    out->f[k] = b != b ? b : half_to_float((uint16_t)isa_f16_round_f32(b, 0.0f));
                    break;
                default:
                    out->f[k] = b;
                    break;
                }
            }
        } else {
            for (unsigned k = 0; k < 4; k++)
                out->u[k] = (uint32_t)(int32_t)o->tex.border[k];
        }
        return;
    }
    const uint8_t *p = lv->base + (uint64_t)z * lv->slice + (uint64_t)y * lv->row + (uint64_t)x * o->tb;
    if (o->fmt == EX_FMT_F32 || o->fmt == EX_FMT_U32 || o->fmt == EX_FMT_S32) {   /* as stored */
        memcpy(out->u, p, 4 * o->ch);
        for (unsigned k = o->ch; k < 4; k++)
            out->u[k] = 0;   /* channels the format lacks read 0, alpha too (measured) */
        return;
    }
    bool srgb = o->tex.flags & EX_TEXF_SRGB;
    for (unsigned k = 0; k < 4; k++) {
        if (k >= o->ch) {
            out->u[k] = 0;   /* channels the format lacks read 0, alpha too (measured) */
            continue;
        }
        switch (o->fmt) {
        case EX_FMT_U8:
            if (!o->as_float)
                out->u[k] = p[k];
            else
                out->f[k] = srgb && k < 3 ? srgb_lin(p[k]) : (float)p[k] / 255.0f;
            break;
        case EX_FMT_S8: {
            int8_t v = (int8_t)p[k];
            if (!o->as_float)
                out->i[k] = v;
            else
                out->f[k] = (float)v / 127.0f;   /* -128 unclamped: see snorm_clamp */
            break;
        }
        case EX_FMT_U16: {
            uint16_t v;
            memcpy(&v, p + 2 * k, 2);
            if (!o->as_float)
                out->u[k] = v;
            else
                out->f[k] = (float)v / 65535.0f;
            break;
        }
        case EX_FMT_S16: {
            int16_t v;
            memcpy(&v, p + 2 * k, 2);
            if (!o->as_float)
                out->i[k] = v;
            else
                out->f[k] = (float)v / 32767.0f;   /* -32768 unclamped: see snorm_clamp */
            break;
        }
        case EX_FMT_F16: {
            uint16_t v;
            memcpy(&v, p + 2 * k, 2);
            out->f[k] = half_to_float(v);
            break;
        }
        case EX_FMT_U32:
        case EX_FMT_S32:
        case EX_FMT_F32:
        default:
            memcpy(&out->u[k], p + 4 * k, 4);
            break;
        }
    }
}

/* The mode dimension k really uses: without normalized coordinates wrap and mirror
 * act as clamp (the CUDA programming guide: they need normalized coordinates). */
static ex_addr_t mode_of(const ex_texobj_t *o, unsigned k)
{
    ex_addr_t m = o->tex.address[k];
    if (!o->norm && (m == EX_ADDR_WRAP || m == EX_ADDR_MIRROR))
        return EX_ADDR_CLAMP;
    return m;
}

/* The weights of the 2^dims corners (corner q takes the second texel in dimension k when
 * bit k of q is set), in 1/256, from the 8-bit fractions w[k]; they always sum to 256.
 * Measured on the H100 (docs/textures.md): in 2D the weight of the far corner is a*b/256
 * rounded to nearest with halves up, and the others are what is left of a, of b and of
 * the whole (every pair of fractions).  In 3D the whole splits by the third fraction c
 * into slices of 256 - c and c; each slice of T splits by a into x1 = T*a/256 (halves
 * up) and x0 = T - x1; each of those columns of S splits by b: the x1 column's y1 part is
 * S*b/256 with halves up, the x0 column's with halves down (1,133,262 fraction triples,
 * 0 mismatches).  With c = 0 this is the 2D rule.  T is the whole: 256, or a mipmap
 * level's share in linear mip filtering (measured: a level splits as a slice does, in
 * 3D its slices being T - z1 and z1 = T*c/256 with halves down, tex_lod_3d; in 1D x1 is
 * T*a/256 with halves up, tex_lod_1d). */
static inline __attribute__((always_inline)) void weights(unsigned dims, const uint32_t *w, uint32_t T, uint32_t *out)
{
    if (dims == 1) {
        out[1] = (T * w[0] + 128) >> 8;
        out[0] = T - out[1];
        return;
    }
    uint32_t a = w[0], b = w[1];
    uint32_t z1 = dims > 2 ? (T * w[2] + 127) >> 8 : 0;   /* halves down (measured: tex_lod_3d) */
    for (unsigned z = 0; z < (dims > 2 ? 2u : 1u); z++) {
        uint32_t S = z ? z1 : T - z1, x1 = (S * a + 128) >> 8, x0 = S - x1;
        uint32_t y11 = (x1 * b + 128) >> 8, y01 = (x0 * b + 127) >> 8;
        out[4 * z + 0] = x0 - y01;
        out[4 * z + 1] = x1 - y11;
        out[4 * z + 2] = y01;
        out[4 * z + 3] = y11;
    }
}

void ex_tex_weights(unsigned dims, const uint32_t *w, uint32_t *out)
{
    weights(dims, w, 256, out);
}

/* ex_tex_combine without infinities and NaNs, fast: the rule in floating point.  E, the
 * frexp exponent of the largest texel of non-zero weight, is that of the largest
 * magnitude's bits; each texel times 2^(prec + 4 - E) (exact) truncated to an integer is
 * the texel cut to a multiple of 2^(E - prec - 4); the weighted sum of those integers
 * (under 2^39) is exact, and times 2^(E - prec - 12) (exact again) is the filtered value,
 * which is rounded to prec bits with halves away from zero on the double's bits.  With
 * the largest texel's exponent field at least 36, f32 subnormals are cut to zero anyway
 * and an f32 result is normal.  False (nothing written) for an infinity or NaN, a largest
 * texel below that, and an f16 result below 2^-14: ex_tex_combine handles those. */
static inline __attribute__((always_inline)) bool combine_fast(const float *v, const uint32_t *wt, unsigned n, int prec,
                                                               float *out)
{
    uint32_t big = 0, allneg = 0x80000000u, any = 0;
    for (unsigned k = 0; k < n; k++) {
        uint32_t b;
        memcpy(&b, &v[k], 4);
        any |= (b & 0x7f800000u) == 0x7f800000u;
        if (!wt[k])
            continue;
        allneg &= b;
        b &= 0x7fffffffu;
        big = b > big ? b : big;
    }
    if (any)
        return false;
    float zero = allneg ? -0.0f : 0.0f;
    if (!big) {
        *out = zero;
        return true;
    }
    uint32_t field = big >> 23;
    if (field < 36)
        return false;   /* f32: subnormal texels then count (flushed), and the result may be */
    int E = (int)field - 126, cut = prec + 4;
    uint64_t sb = (uint64_t)(1023 + cut - E) << 52, rb = (uint64_t)(1023 + E - cut - 8) << 52;
    double scale, back;
    memcpy(&scale, &sb, 8);
    memcpy(&back, &rb, 8);
    int64_t sum = 0;
    for (unsigned k = 0; k < n; k++)
        sum += (int64_t)((double)v[k] * scale) * (int64_t)wt[k];   /* a zero weight: a finite product, times 0 */
    if (!sum) {
        *out = zero;
        return true;
    }
    double d = (double)sum * back;
    uint64_t u;
    memcpy(&u, &d, 8);
    uint64_t sign = u & (1ull << 63);
    u &= ~sign;
    if (u < (uint64_t)(1023 + (prec == 24 ? -126 : -14)) << 52)
        return false;   /* below the normal range */
    unsigned drop = 53 - (unsigned)prec;
    u = (u + (1ull << (drop - 1))) & ~((1ull << drop) - 1);
    u |= sign;
    memcpy(&d, &u, 8);
    *out = (float)d;
    return true;
}

/* combine_fast on the four channels of the corners at once, in vectors (GCC's vector
 * extensions: SSE2 on x86-64, NEON on AArch64).  The same arithmetic, for texels whose
 * largest magnitude per channel has an exponent field in 36..254 (the scale
 * 2^(prec + 4 - E) is then a float, and an f32 result is normal) or is zero, and no
 * infinity or NaN among them; false (nothing written) otherwise, and for an f16 result
 * below 2^-14. */
typedef uint32_t v4u_t __attribute__((vector_size(16)));
typedef int32_t  v4i_t __attribute__((vector_size(16)));
typedef float    v4f_t __attribute__((vector_size(16)));
typedef double   v4d_t __attribute__((vector_size(32)));
typedef int64_t  v4l_t __attribute__((vector_size(32)));
typedef uint64_t v4q_t __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) bool combine4(const ex_texel_t *t, const uint32_t *wt, unsigned n, int prec,
                                                           ex_texel_t *out)
{
    if (n > 8)
        return false;
    v4u_t b[8], big = { 0, 0, 0, 0 }, special = { 0, 0, 0, 0 }, allneg = { ~0u, ~0u, ~0u, ~0u };
#pragma GCC unroll 8
    for (unsigned q = 0; q < n; q++) {
        memcpy(&b[q], t[q].u, 16);
        special |= (v4u_t)((b[q] & 0x7f800000u) == 0x7f800000u);
        if (!wt[q])
            b[q] = (v4u_t){ 0, 0, 0, 0 };
        else
            allneg &= b[q];
        v4u_t a = b[q] & 0x7fffffffu;
        v4u_t gt = (v4u_t)((v4i_t)a > (v4i_t)big);
        big = (a & gt) | (big & ~gt);
    }
    v4u_t field = big >> 23;
    field |= (v4u_t)(big == 0) & 127u;   /* an all-zero channel: any scale, its sum is 0 */
    /* field >= 36 also keeps an f32 result normal: a non-zero one is at least 2^(E - 36) */
    v4u_t bad = (v4u_t)((v4i_t)field < 36) | special;
    if (bad[0] | bad[1] | bad[2] | bad[3])
        return false;
    unsigned cut = (unsigned)prec + 4;
    v4f_t scale;
    v4u_t sb = (127u + cut + 126u - field) << 23;   /* 2^(cut - E), E = field - 126 */
    memcpy(&scale, &sb, 16);
    v4d_t acc = { 0, 0, 0, 0 };
#pragma GCC unroll 8
    for (unsigned q = 0; q < n; q++) {
        v4f_t f;
        memcpy(&f, &b[q], 16);
        v4i_t iq = __builtin_convertvector(f * scale, v4i_t);   /* truncated: |.| < 2^cut */
        acc += __builtin_convertvector(iq, v4d_t) * (double)wt[q];
    }
    v4q_t eb = __builtin_convertvector(field, v4q_t) + (uint64_t)(1023u - 126u - 8u - cut);   /* 2^(E - cut - 8) */
    eb <<= 52;
    v4d_t back;
    memcpy(&back, &eb, 32);
    v4d_t d = acc * back;
    if (prec != 24) {   /* f16 precision: a result below 2^-14 is rounded by the general code */
        v4l_t sub = (d < 0x1p-14) & (d > -0x1p-14) & (d != 0);
        if (sub[0] | sub[1] | sub[2] | sub[3])
            return false;
    }
    v4q_t u;
    memcpy(&u, &d, 32);
    v4q_t sign = u & ((uint64_t)1 << 63);
    unsigned drop = 53 - (unsigned)prec;
    u = (((u & ~sign) + ((uint64_t)1 << (drop - 1))) & ~(((uint64_t)1 << drop) - 1)) | sign;
    memcpy(&d, &u, 32);
    v4f_t r = __builtin_convertvector(d, v4f_t);
    v4u_t rb;
    memcpy(&rb, &r, 16);
    rb |= (v4u_t)(rb == 0) & allneg & 0x80000000u;   /* a zero sum: -0 when every texel is negative */
    memcpy(out->u, &rb, 16);
    return true;
}

/* Coordinate k of level lv in texels.  A subnormal coordinate counts as zero (measured:
 * -2^-149 with wrapping reads texel 0).  A normalized coordinate is first cut to fixed
 * point, floor(c * 2^21) / 2^21, then scaled by the level's size exactly (measured,
 * tests/texfuzz: 21 fractional bits match every case, 20 and 22 do not). */
enum { TEX_NF = 21 };   /* fractional bits of normalized coordinates */

static inline double texel_coord(const ex_texobj_t *o, const ex_level_t *lv, unsigned k, const float *c)
{
    uint32_t n = k == 0 ? lv->w : k == 1 ? lv->h : lv->d;
    float u = fabsf(c[k]) < 0x1p-126f ? 0.0f : c[k];
    if (!o->norm)
        return u;
    const double s = 0x1p21;   /* 2^TEX_NF */
    double q = floor((double)u * s);
    if (q > 0x1p40)
        q = 0x1p40;
    if (q < -0x1p40)
        q = -0x1p40;
    if (q != q)
        q = 0;
    return q * (double)n / s;
}

/* The texel a point sample of level `level` reads. */
static inline __attribute__((always_inline)) void
point(const ex_texobj_t *o, unsigned level, unsigned dims, const float *c, int64_t layer, const int32_t *off,
      ex_texel_t *out)
{
    const ex_level_t *lv = &o->lv[level];
    uint32_t n[3] = { lv->w, lv->h, lv->d };
    int64_t i[3] = { 0, 0, layer };
    for (unsigned k = 0; k < dims; k++) {
        int64_t o8 = off ? (int64_t)off[k] * 256 : 0;
        i[k] = wrap_idx((fixed_down(texel_coord(o, lv, k, c)) + o8) >> 8, n[k], mode_of(o, k));
    }
    texel(o, lv, i[0], i[1], i[2], out);
    snorm_clamp(o, out);
}

/* The 2^dims texels a linear fetch reads from level `level` (zeros for those it does not
 * fetch) and their weights, summing to T, into t and wt. */
static inline __attribute__((always_inline)) void
taps_level(const ex_texobj_t *o, unsigned level, unsigned dims, const float *c, int64_t layer, const int32_t *off,
           uint32_t T, ex_texel_t *t, uint32_t *wt)
{
    const ex_level_t *lv = &o->lv[level];
    uint32_t n[3] = { lv->w, lv->h, lv->d };
    int64_t i0[3] = { 0, 0, layer }, i1[3] = { 0, 0, layer };
    uint32_t w[3] = { 0, 0, 0 };
    for (unsigned k = 0; k < dims; k++) {
        int64_t o8 = off ? (int64_t)off[k] * 256 : 0;
        ex_addr_t m = mode_of(o, k);
        /* u - 0.5 to the nearest 1/256, halves up (measured: tex_weights): the weight of
         * the second texel is 0..256 in 1/256 steps. */
        int64_t U = fixed_near(texel_coord(o, lv, k, c)) + o8 - 128, j = U >> 8;
        w[k] = (uint32_t)(U & 255);
        if (m == EX_ADDR_CLAMP && (j < 0 || j >= (int64_t)n[k] - 1)) {
            /* Clamping moves the coordinate to the first or last texel's centre: the
             * fraction is 0 (measured: in 3D the weights differ, tex_3d). */
            w[k] = 0;
            j = j < 0 ? 0 : (int64_t)n[k] - 1;
        }
        i0[k] = wrap_idx(j, n[k], m);
        i1[k] = wrap_idx(j + 1, n[k], m);
    }
    unsigned corners = 1u << dims;
    weights(dims, w, T, wt);
    /* The unit fetches the second texel of a dimension only where its fraction is not
     * zero (measured: an infinity or NaN there reaches the result even at weight 0). */
    unsigned skip = (w[0] ? 0 : 1) | (dims > 1 && !w[1] ? 2 : 0) | (dims > 2 && !w[2] ? 4 : 0);
    for (unsigned q = 0; q < corners; q++) {
        int64_t x = q & 1 ? i1[0] : i0[0];
        int64_t y = dims > 1 ? (q & 2 ? i1[1] : i0[1]) : i0[1];
        int64_t z = dims > 2 ? (q & 4 ? i1[2] : i0[2]) : i0[2];
        if (!(q & skip))
            texel(o, lv, x, y, z, &t[q]);
        else
            memset(&t[q], 0, sizeof t[q]);
    }
}

static float combine_cut(const float *v, const uint32_t *wt, unsigned n, unsigned levels, int prec, int cut);

/* The filtered value of n texels t with weights wt (`levels` groups: mipmap levels), by
 * the texture's format, as the H100 combines them (docs/textures.md). */
static inline __attribute__((always_inline)) void filter(const ex_texobj_t *o, const ex_texel_t *t, const uint32_t *wt,
                                                         unsigned n, unsigned levels, ex_texel_t *out)
{
    if (o->as_float && !(o->tex.flags & EX_TEXF_SRGB) && (o->fmt == EX_FMT_U8 || o->fmt == EX_FMT_U16)) {
        /* Unsigned normalized formats filter in 16-bit fixed point (measured): an 8-bit
         * texel v is v * 257, the weighted sum is rounded to 16 bits (halves up) and the
         * result is that / 65535. */
        for (unsigned k = 0; k < 4; k++) {
            uint64_t sum = 0;
            for (unsigned q = 0; q < n; q++) {
                if (!wt[q])
                    continue;
                float f = t[q].f[k];   /* exact multiples of 1/255 or 1/65535, or a border colour */
                uint32_t v16 = (uint32_t)lrintf((f < 0 ? 0 : f > 1 ? 1 : f) * 65535.0f);
                sum += (uint64_t)wt[q] * v16;
            }
            out->f[k] = k < o->ch || !(o->ch < 4) ? (float)((sum + 128) >> 8) / 65535.0f : 0.0f;
        }
        return;
    }
    if (o->as_float && o->fmt == EX_FMT_S8) {
        /* 8-bit signed normalized (recorded whole, tests/golden/pending/probe5.cu): the
         * sum S of the 8-bit texels (-128 too) times their weights gives a 16-bit q, the
         * result q / 32767, by the unit's table (isa/sem/mufu.h). */
        for (unsigned k = 0; k < 4; k++) {
            int32_t sum = 0;
            for (unsigned q = 0; q < n; q++)
                if (wt[q])
                    sum += (int32_t)wt[q] * (int32_t)lrintf(t[q].f[k] * 127.0f);
            out->f[k] = (float)(int32_t)isa_mufu_get(ISA_MUFU_TEX_S8, (uint32_t)(sum + 32768)) / 32767.0f;
        }
        return;
    }
    if (o->as_float && o->fmt == EX_FMT_S16) {
        /* 16-bit signed normalized: the weighted sum of the texels (-32768 too) rounded
         * to 16 bits with halves up (towards +inf), the result that / 32767 (measured). */
        for (unsigned k = 0; k < 4; k++) {
            int64_t sum = 0;
            for (unsigned q = 0; q < n; q++)
                if (wt[q])
                    sum += (int64_t)wt[q] * lrintf(t[q].f[k] * 32767.0f);
            out->f[k] = (float)((sum + 128) >> 8) / 32767.0f;
        }
        return;
    }
    if (o->as_float && (o->tex.flags & EX_TEXF_SRGB) && o->fmt == EX_FMT_U8) {
        /* sRGB (measured, probe2.cu, probe5.cu): the colour channels' table values are
         * cut to 8 bits of the largest (2^(E - 8)), summed exactly and rounded to f16 (11
         * bits, halves away), alpha filtered as a normalized 8-bit channel; a fetch of one
         * texel alone returns its table value. */
        for (unsigned k = 0; k < 4; k++) {
            if (k >= o->ch) {
                out->f[k] = 0.0f;
                continue;
            }
            float v[16];
            uint64_t sum = 0;
            for (unsigned q = 0; q < n; q++) {
                v[q] = t[q].f[k];
                if (wt[q])
                    sum += (uint64_t)wt[q] * (uint32_t)lrintf(t[q].f[k] * 65535.0f);
            }
            if (k == 3) {
                out->f[k] = (float)((sum + 128) >> 8) / 65535.0f;
                continue;
            }
            unsigned per = n / (levels ? levels : 1);
            for (unsigned L = 0; L < levels && L < 2; L++)
                srgb_filtered(v + L * per, wt + L * per, per);
            out->f[k] = combine_cut(v, wt, n, levels, 11, 8);
        }
        return;
    }
    int prec = o->fmt == EX_FMT_F16 ? 11 : 24;
    if (levels == 1 && combine4(t, wt, n, prec, out))
        return;
    for (unsigned k = 0; k < 4; k++) {
        float v[16];
        for (unsigned q = 0; q < n; q++)
            v[q] = t[q].f[k];
        if (levels > 1)
            out->f[k] = ex_tex_combine_levels(v, wt, n, levels, prec);
        else if (!combine_fast(v, wt, n, prec, &out->f[k]))
            out->f[k] = ex_tex_combine(v, wt, n, prec);
    }
}

/* The body of ex_tex_sample_level, inlined for each (dims, linear) so that its loops
 * unroll. */
static inline __attribute__((always_inline)) void
sample(const ex_texobj_t *o, unsigned level, unsigned dims, const float *c, int64_t layer, bool linear,
       const int32_t *off, ex_texel_t *out)
{
    if (!linear) {
        point(o, level, dims, c, layer, off, out);
        return;
    }
    ex_texel_t t[8];
    uint32_t wt[8];
    if (dims == 1 && !o->layered && mode_of(o, 1) == EX_ADDR_BORDER) {
        /* A 1D texture is filtered as a 2D one of height 1 sampled at y = 0, the edge of
         * its row: with a border in y, half of each result is the border colour
         * (measured, tests/texfuzz; clamp, wrap and mirror give the row itself; layered 1D
         * textures are not filtered so). */
        float c2[3] = { c[0], 0.0f, 0.0f };
        int32_t o2[3] = { off ? off[0] : 0, 0, 0 };
        taps_level(o, level, 2, c2, layer, o2, 256, t, wt);
        filter(o, t, wt, 4, 1, out);
        return;
    }
    taps_level(o, level, dims, c, layer, off, 256, t, wt);
    filter(o, t, wt, 1u << dims, 1, out);
}

/* The lanes of a warp-wide fetch at level 0 (ex_tex_sample_warp) for one (dims, linear). */
static inline __attribute__((always_inline)) void
sample_lanes(const ex_texobj_t *o, unsigned dims, bool linear, const uint32_t *const *c, uint32_t mask,
             uint32_t *const *d)
{
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        float cf[3];
        for (unsigned k = 0; k < dims; k++)
            memcpy(&cf[k], &c[k][l], 4);
        ex_texel_t r;
        sample(o, 0, dims, cf, 0, linear, NULL, &r);
        d[0][l] = r.u[0];
        d[1][l] = r.u[1];
        d[2][l] = r.u[2];
        d[3][l] = r.u[3];
    }
}

void ex_tex_sample_warp(const ex_texobj_t *o, unsigned dims, const uint32_t *const *c, uint32_t mask, uint32_t *const *d)
{
    bool linear = o->tex.filter == EX_FILTER_LINEAR;
    switch (dims * 2 + linear) {
    case 2: sample_lanes(o, 1, false, c, mask, d); break;
    case 3: sample_lanes(o, 1, true, c, mask, d); break;
    case 4: sample_lanes(o, 2, false, c, mask, d); break;
    case 5: sample_lanes(o, 2, true, c, mask, d); break;
    case 6: sample_lanes(o, 3, false, c, mask, d); break;
    default: sample_lanes(o, 3, true, c, mask, d); break;
    }
}

void ex_tex_sample_level(const ex_texobj_t *o, unsigned level, unsigned dims, const float *c, int64_t layer, bool linear,
                         const int32_t *off, ex_texel_t *out)
{
    switch (dims * 2 + linear) {
    case 2: sample(o, level, 1, c, layer, false, off, out); break;
    case 3: sample(o, level, 1, c, layer, true, off, out); break;
    case 4: sample(o, level, 2, c, layer, false, off, out); break;
    case 5: sample(o, level, 2, c, layer, true, off, out); break;
    case 6: sample(o, level, 3, c, layer, false, off, out); break;
    default: sample(o, level, 3, c, layer, true, off, out); break;
    }
}

void ex_tex_sample_mip(const ex_texobj_t *o, unsigned l0, uint32_t f, unsigned dims, const float *c, int64_t layer,
                       bool linear, const int32_t *off, ex_texel_t *out)
{
    if (!f || l0 + 1 >= o->nlevels) {
        ex_tex_sample_level(o, l0, dims, c, layer, linear, off, out);
        return;
    }
    /* Linear mip filtering: both levels' texels, level l0's weights summing to 256 - f
     * and the next level's to f, each level cut by its own largest texel (measured:
     * probe2.cu, 46,084 samples). */
    ex_texel_t t[16];
    uint32_t wt[16];
    /* a 1D texture with a border in y filters as 2D at y = 0 (ex_tex_sample_level) */
    float c2[3] = { c[0], 0.0f, 0.0f };
    int32_t o2[3] = { off ? off[0] : 0, 0, 0 };
    if (linear && dims == 1 && !o->layered && mode_of(o, 1) == EX_ADDR_BORDER) {
        dims = 2;
        c = c2;
        off = o2;
    }
    unsigned n = linear ? 1u << dims : 1u;
    for (unsigned k = 0; k < 2; k++) {
        unsigned lv = l0 + k;
        uint32_t T = k ? f : 256 - f;
        if (linear) {
            switch (dims) {
            case 1: taps_level(o, lv, 1, c, layer, off, T, t + k * n, wt + k * n); break;
            case 2: taps_level(o, lv, 2, c, layer, off, T, t + k * n, wt + k * n); break;
            default: taps_level(o, lv, 3, c, layer, off, T, t + k * n, wt + k * n); break;
            }
        } else {
            point(o, lv, dims, c, layer, off, &t[k]);
            wt[k] = T;
        }
    }
    filter(o, t, wt, 2 * n, 2, out);
}


/* One channel of a linear filter: sum over n texels of v[q] * wt[q] / 256, as the H100
 * computes it (measured, docs/textures.md).  prec is the result's precision: 24 for f32
 * textures, 11 for f16 ones.  The texels form `levels` groups of n / levels (the mipmap
 * levels of linear mip filtering), each cut by its own largest texel.
 *  - Any NaN among the texels (those of zero weight too: the caller passes the texels the
 *    unit fetches, zeros for the others) gives the NaN 0x7fffffff (f16: 0x7fffe000);
 *    infinities give themselves, or that NaN when both signs meet.
 *  - f32: subnormal texels count as zeros of their sign.
 *  - Each texel of non-zero weight is cut (towards zero) to a multiple of 2^(E - prec - 4),
 *    E the frexp exponent of the largest of its group; the weighted sums are then exact,
 *    their sum is rounded to prec bits with halves away from zero; an f32 result below
 *    2^-126 is a zero of its sign (f16 results keep their subnormals).
 *  - A zero sum is -0 when every texel of non-zero weight has its sign bit set, else +0. */
float ex_tex_combine_levels(const float *v, const uint32_t *wt, unsigned n, unsigned levels, int prec)
{
    return combine_cut(v, wt, n, levels, prec, prec + 4);
}

/* ex_tex_combine_levels with the texels cut to 2^(E - cut). */
static float combine_cut(const float *v, const uint32_t *wt, unsigned n, unsigned levels, int prec, int cut)
{
    bool nan = false, pinf = false, ninf = false, allneg = true;
    for (unsigned k = 0; k < n; k++) {
        uint32_t b;
        memcpy(&b, &v[k], 4);
        if ((b & 0x7f800000u) == 0x7f800000u) {
            nan |= (b & 0x7fffffu) != 0;
            pinf |= !(b & 0x7fffffu) && !(b >> 31);
            ninf |= !(b & 0x7fffffu) && (b >> 31);
        } else if (wt[k]) {
            allneg &= b >> 31;
        }
    }
    if (nan || (pinf && ninf)) {
        uint32_t rb = prec == 24 ? 0x7fffffffu : 0x7fffe000u;
        float r;
        memcpy(&r, &rb, 4);
        return r;
    }
    if (pinf || ninf)
        return ninf ? -INFINITY : INFINITY;
    float zero = allneg ? -0.0f : 0.0f;
    unsigned per = n / (levels ? levels : 1);
    double g[2] = { 0, 0 };
    for (unsigned L = 0; L < levels && L < 2; L++) {
        uint32_t mant[8];
        int q[8], e_max = INT32_MIN;
        bool neg[8];
        for (unsigned i = 0; i < per; i++) {
            unsigned k = L * per + i;
            uint32_t b;
            memcpy(&b, &v[k], 4);
            uint32_t field = b >> 23 & 0xff, frac = b & 0x7fffff;
            neg[i] = b >> 31;
            mant[i] = 0;
            if (!wt[k] || (field == 0 && (frac == 0 || prec == 24)))
                continue;   /* no weight, a zero, or a flushed f32 subnormal */
            int e;
            if (field) {
                mant[i] = frac | 0x800000;
                q[i] = (int)field - 150;
                e = (int)field - 126;
            } else {
                mant[i] = frac;
                q[i] = -149;
                e = 32 - __builtin_clz(frac) - 149;
            }
            if (e > e_max)
                e_max = e;
        }
        if (e_max == INT32_MIN)
            continue;
        /* the group's texels as integers in units of 2^(e_max - cut), cut towards zero:
         * the weighted sum is under 2^39, its value exact in a double */
        int64_t sum = 0;
        for (unsigned i = 0; i < per; i++) {
            if (!mant[i])
                continue;
            int sh = q[i] - e_max + cut;
            int64_t nk = sh >= 0 ? (int64_t)mant[i] << sh : sh > -32 ? (int64_t)(mant[i] >> -sh) : 0;
            sum += (neg[i] ? -nk : nk) * (int64_t)wt[L * per + i];
        }
        uint64_t sb = (uint64_t)(1023 + e_max - cut - 8) << 52;
        double scale;
        memcpy(&scale, &sb, 8);
        g[L] = (double)sum * scale;
    }
    /* the exact sum as s + err (two-sum), rounded once */
    double s = g[0] + g[1], bv = s - g[0], err = (g[0] - (s - bv)) + (g[1] - bv);
    if (s == 0)
        return zero;
    double as = fabs(s), e = s < 0 ? -err : err;   /* e > 0: the exact magnitude is larger */
    if (prec == 24 && (as < 0x1p-126 || (as == 0x1p-126 && e < 0)))
        return s < 0 ? -0.0f : 0.0f;                 /* f32 results are flushed to zero */
    double ulp;
    if (prec != 24 && as < 0x1p-14) {
        ulp = 0x1p-24;                               /* f16 subnormals */
    } else {
        uint64_t ab;
        memcpy(&ab, &as, 8);
        uint64_t ub = ((ab >> 52) - (uint64_t)(prec - 1)) << 52;
        memcpy(&ulp, &ub, 8);
    }
    double qv = as / ulp, fl = floor(qv), fr = qv - fl;
    if (fr > 0.5 || (fr == 0.5 && e >= 0))
        fl += 1;                                     /* halves away from zero */
    float r = (float)(fl * ulp);
    return s < 0 ? -r : r;
}

float ex_tex_combine(const float *v, const uint32_t *wt, unsigned n, int prec)
{
    return ex_tex_combine_levels(v, wt, n, 1, prec);
}

void ex_tex_gather(const ex_texobj_t *o, const float *c, int64_t layer, const int32_t *off, ex_texel_t out[4])
{
    const ex_level_t *lv = &o->lv[0];
    uint32_t n[2] = { lv->w, lv->h };
    int64_t i0[2], i1[2];
    for (unsigned k = 0; k < 2; k++) {
        /* the footprint of linear filtering: u - 0.5 to the nearest 1/256 (measured:
         * tex_gather_wrap, where the fraction is 255.5/256 or more) */
        int64_t U = fixed_near(texel_coord(o, lv, k, c)) + (off ? (int64_t)off[k] * 256 : 0) - 128;
        ex_addr_t m = mode_of(o, k);
        i0[k] = ex_tex_wrap_index(U >> 8, n[k], m);
        i1[k] = ex_tex_wrap_index((U >> 8) + 1, n[k], m);
    }
    /* Counter-clockwise from the lower left: (i0, j1), (i1, j1), (i1, j0), (i0, j0). */
    ex_tex_texel(o, lv, i0[0], i1[1], layer, &out[0]);
    ex_tex_texel(o, lv, i1[0], i1[1], layer, &out[1]);
    ex_tex_texel(o, lv, i1[0], i0[1], layer, &out[2]);
    ex_tex_texel(o, lv, i0[0], i0[1], layer, &out[3]);
}

/* A face coordinate (v / ma + 1) / 2 as the H100 computes it: v times the f32 reciprocal
 * of ma, rounded to f32, then (p + 1) / 2 exactly, cut to the normalized coordinates'
 * fixed point (a multiple of 2^-NF, so exact as a float).  Measured, tests/texfuzz: an
 * exact quotient, or f32 division, move texels at the faces' edges. */
static float face_coord(float v, float ma)
{
    float p = v * f32_of(isa_mufu_rcp(f32_bits(ma)));
    double q = floor(((double)p + 1.0) * ldexp(1.0, TEX_NF - 1));
    return (float)ldexp(q, -TEX_NF);
}

unsigned ex_tex_cube_face(float x, float y, float z, float *out_s, float *out_t)
{
    /* subnormal components count as zero, as coordinates do */
    x = fabsf(x) < 0x1p-126f ? copysignf(0.0f, x) : x;
    y = fabsf(y) < 0x1p-126f ? copysignf(0.0f, y) : y;
    z = fabsf(z) < 0x1p-126f ? copysignf(0.0f, z) : z;
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
    unsigned face;
    if (az >= ax && az >= ay) {
        face = z < 0 || (z == 0 && signbit(z)) ? 5 : 4;
        ma = az;
        sc = face == 4 ? x : -x;
        tc = -y;
    } else if (ay >= ax) {
        face = y < 0 ? 3 : 2;
        ma = ay;
        sc = x;
        tc = face == 2 ? z : -z;
    } else {
        face = x < 0 ? 1 : 0;
        ma = ax;
        sc = face == 0 ? -z : z;
        tc = -y;
    }
    if (!(ma > 0) || isinf(ma)) {
        *out_s = *out_t = 0.5f;
        return face;
    }
    *out_s = face_coord(sc, ma);
    *out_t = face_coord(tc, ma);
    return face;
}
