/* sample.c: the texture unit's arithmetic: texel decoding, address modes, the
 * fixed-point coordinates and weights of filtering, and cube-map faces.  Pure functions
 * of an object and coordinates; texinsn.c applies them to a warp's lanes.
 *
 * Coordinates become fixed point with 8 fractional bits (the PTX manual's "9 bits of
 * weight with 8 fractional bits"): u * 256, rounded down.  A point sample takes the
 * texel of floor(u); a linear one the texels i0 = floor(u - 0.5) and i0 + 1 with weights
 * (256 - w) / 256 and w / 256, w the 8 fractional bits of u - 0.5.  docs/textures.md
 * says what of this was measured on the H100. */
#include "exec/tex/tex.h"

#include <math.h>
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
static inline int64_t fixed_down(float u)
{
    return floor_sat((double)u * 256.0);
}

/* u * 256 rounded to nearest, halves up. */
static inline int64_t fixed_near(float u)
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

/* sRGB to linear for an 8-bit value, as a float. */
static float srgb_lin(unsigned v)
{
    static float table[256];
    static _Atomic int ready;
    if (!atomic_load_explicit(&ready, memory_order_acquire)) {
        for (unsigned i = 0; i < 256; i++) {
            double c = i / 255.0;
            table[i] = (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
        }
        atomic_store_explicit(&ready, 1, memory_order_release);
    }
    return table[v];
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

void ex_tex_texel(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out)
{
    texel(o, lv, x, y, z, out);
}

static void texel_slow(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out)
{
    if (x < 0 || y < 0 || z < 0) {
        if (o->as_float) {
            memcpy(out->f, o->tex.border, sizeof out->f);
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
                out->f[k] = v <= -127 ? -1.0f : (float)v / 127.0f;
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
                out->f[k] = v <= -32767 ? -1.0f : (float)v / 32767.0f;
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
    if (!(o->tex.flags & EX_TEXF_NORMALIZED_COORDS) && (m == EX_ADDR_WRAP || m == EX_ADDR_MIRROR))
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
 * 0 mismatches).  With c = 0 this is the 2D rule. */
static inline __attribute__((always_inline)) void weights(unsigned dims, const uint32_t *w, uint32_t *out)
{
    out[0] = 256 - w[0];
    out[1] = w[0];
    if (dims < 2)
        return;
    uint32_t a = w[0], b = w[1];
    if (dims < 3) {
        uint32_t ab = (a * b + 128) >> 8;
        out[0] = 256 - a - b + ab;
        out[1] = a - ab;
        out[2] = b - ab;
        out[3] = ab;
        return;
    }
    uint32_t c = w[2];
    for (unsigned z = 0; z < 2; z++) {
        uint32_t T = z ? c : 256 - c, x1 = (T * a + 128) >> 8, x0 = T - x1;
        uint32_t y11 = (x1 * b + 128) >> 8, y01 = (x0 * b + 127) >> 8;
        out[4 * z + 0] = x0 - y01;
        out[4 * z + 1] = x1 - y11;
        out[4 * z + 2] = y01;
        out[4 * z + 3] = y11;
    }
}

void ex_tex_weights(unsigned dims, const uint32_t *w, uint32_t *out)
{
    weights(dims, w, out);
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
    v4q_t eb = __builtin_convertvector(field, v4q_t) + (1023u - 126u - 8u - cut);   /* 2^(E - cut - 8) */
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
    v4q_t sign = u & (1ull << 63);
    unsigned drop = 53 - (unsigned)prec;
    u = (((u & ~sign) + (1ull << (drop - 1))) & ~((1ull << drop) - 1)) | sign;
    memcpy(&d, &u, 32);
    v4f_t r = __builtin_convertvector(d, v4f_t);
    v4u_t rb;
    memcpy(&rb, &r, 16);
    rb |= (v4u_t)(rb == 0) & allneg & 0x80000000u;   /* a zero sum: -0 when every texel is negative */
    memcpy(out->u, &rb, 16);
    return true;
}

/* The body of ex_tex_sample_level, inlined for each (dims, linear) so that its loops
 * unroll. */
static inline __attribute__((always_inline)) void
sample(const ex_texobj_t *o, unsigned level, unsigned dims, const float *c, int64_t layer, bool linear,
       const int32_t *off, ex_texel_t *out)
{
    const ex_level_t *lv = &o->lv[level];
    uint32_t n[3] = { lv->w, lv->h, lv->d };
    bool norm = o->tex.flags & EX_TEXF_NORMALIZED_COORDS;
    int64_t i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 };
    uint32_t w[3] = { 0, 0, 0 };
    for (unsigned k = 0; k < dims; k++) {
        float u = norm ? c[k] * (float)n[k] : c[k];
        int64_t o8 = off ? (int64_t)off[k] * 256 : 0;
        ex_addr_t m = mode_of(o, k);
        if (linear) {
            /* u - 0.5 to the nearest 1/256, halves up (measured: tex_weights): the
             * weight of the second texel is 0..256 in 1/256 steps. */
            int64_t U = fixed_near(u) + o8 - 128, j = U >> 8;
            w[k] = (uint32_t)(U & 255);
            if (m == EX_ADDR_CLAMP && (j < 0 || j >= (int64_t)n[k] - 1)) {
                /* Clamping moves the coordinate to the first or last texel's centre: the
                 * fraction is 0 (measured: in 3D the weights differ, tex_3d). */
                w[k] = 0;
                j = j < 0 ? 0 : (int64_t)n[k] - 1;
            }
            i0[k] = wrap_idx(j, n[k], m);
            i1[k] = wrap_idx(j + 1, n[k], m);
        } else {
            i0[k] = wrap_idx((fixed_down(u) + o8) >> 8, n[k], m);
        }
    }
    if (dims < 3) {
        i0[2] = i1[2] = layer;
    }
    if (!linear) {
        texel(o, lv, i0[0], i0[1], i0[2], out);
        return;
    }
    /* Linear: every corner of the 2^dims footprint, with the fixed-point weights and the
     * combination measured on the H100 (ex_tex_weights, ex_tex_combine). */
    unsigned corners = 1u << dims;
    uint32_t wt[8];
    weights(dims, w, wt);
    ex_texel_t t[8];
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
    if (o->as_float && !(o->tex.flags & EX_TEXF_SRGB) && (o->fmt == EX_FMT_U8 || o->fmt == EX_FMT_U16)) {
        /* Unsigned normalized formats filter in 16-bit fixed point (measured): an 8-bit
         * texel v is v * 257, the weighted sum is rounded to 16 bits (halves up) and the
         * result is that / 65535. */
        for (unsigned k = 0; k < 4; k++) {
            uint64_t sum = 0;
            for (unsigned q = 0; q < corners; q++) {
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
    if (o->as_float && (o->fmt == EX_FMT_S8 || o->fmt == EX_FMT_S16)) {
        /* Signed normalized formats filter in 16-bit signed fixed point (measured for
         * 16-bit texels; an 8-bit texel v is taken as v * 32767 / 127 rounded, not
         * measured): the weighted sum rounded to 16 bits with halves up (towards +inf),
         * the result that / 32767. */
        for (unsigned k = 0; k < 4; k++) {
            int64_t sum = 0;
            for (unsigned q = 0; q < corners; q++) {
                if (!wt[q])
                    continue;
                float f = t[q].f[k];
                int32_t v16 = (int32_t)lrintf((f < -1 ? -1 : f > 1 ? 1 : f) * 32767.0f);
                sum += (int64_t)wt[q] * v16;
            }
            out->f[k] = (float)((sum + 128) >> 8) / 32767.0f;   /* halves up (towards +inf) */
        }
        return;
    }
    int prec = o->fmt == EX_FMT_F16 ? 11 : 24;
    if (combine4(t, wt, corners, prec, out))
        return;
    for (unsigned k = 0; k < 4; k++) {
        float v[8];
        for (unsigned q = 0; q < corners; q++)
            v[q] = t[q].f[k];
        if (!combine_fast(v, wt, corners, prec, &out->f[k]))
            out->f[k] = ex_tex_combine(v, wt, corners, prec);
    }
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


/* One channel of a linear filter: sum over n texels of v[q] * wt[q] / 256, as the H100
 * computes it (measured, docs/textures.md).  prec is the result's precision: 24 for f32
 * textures, 11 for f16 ones.
 *  - Any NaN among the texels (those of zero weight too: the caller passes the texels the
 *    unit fetches, zeros for the others) gives the NaN 0x7fffffff (f16: 0x7fffe000);
 *    infinities give themselves, or that NaN when both signs meet.
 *  - f32: subnormal texels count as zeros of their sign.
 *  - Each texel of non-zero weight is cut (towards zero) to a multiple of 2^(E - prec - 4),
 *    E the frexp exponent of the largest of them; the weighted sum is then exact and is
 *    rounded to prec bits with halves away from zero; an f32 result below 2^-126 is a
 *    zero of its sign (f16 results keep their subnormals).
 *  - A zero sum is -0 when every texel of non-zero weight has its sign bit set, else +0. */
float ex_tex_combine(const float *v, const uint32_t *wt, unsigned n, int prec)
{
    uint32_t mant[8];
    int q[8], e_max = INT32_MIN;
    bool neg[8], nan = false, pinf = false, ninf = false, allneg = true;
    for (unsigned k = 0; k < n; k++) {
        uint32_t b;
        memcpy(&b, &v[k], 4);
        uint32_t field = b >> 23 & 0xff, frac = b & 0x7fffff;
        neg[k] = b >> 31;
        mant[k] = 0;
        if (field == 0xff) {
            nan |= frac != 0;
            pinf |= !frac && !neg[k];
            ninf |= !frac && neg[k];
            continue;
        }
        if (!wt[k])
            continue;
        allneg &= neg[k];
        if (field == 0 && (frac == 0 || prec == 24))
            continue;   /* a zero, or a flushed f32 subnormal */
        int e;
        if (field) {
            mant[k] = frac | 0x800000;
            q[k] = (int)field - 150;
            e = (int)field - 126;
        } else {
            mant[k] = frac;
            q[k] = -149;
            e = 32 - __builtin_clz(frac) - 149;
        }
        if (e > e_max)
            e_max = e;
    }
    uint32_t rb;
    if (nan || (pinf && ninf)) {
        rb = prec == 24 ? 0x7fffffffu : 0x7fffe000u;
        float r;
        memcpy(&r, &rb, 4);
        return r;
    }
    if (pinf || ninf)
        return ninf ? -INFINITY : INFINITY;
    float zero = allneg ? -0.0f : 0.0f;
    if (e_max == INT32_MIN)
        return zero;
    /* texels as integers in units of 2^(e_max - prec - 4), cut towards zero */
    int cut = prec + 4;
    int64_t sum = 0;
    for (unsigned k = 0; k < n; k++) {
        if (!mant[k])
            continue;
        int sh = q[k] - e_max + cut;
        int64_t nk = sh >= 0 ? (int64_t)mant[k] << sh : sh > -32 ? (int64_t)(mant[k] >> -sh) : 0;
        sum += (neg[k] ? -nk : nk) * (int64_t)wt[k];
    }
    if (sum == 0)
        return zero;
    /* sum * 2^(e_max - cut - 8), rounded to prec bits with halves away from zero */
    bool sneg = sum < 0;
    uint64_t m = sneg ? (uint64_t)(-sum) : (uint64_t)sum;
    int bits = 64 - __builtin_clzll(m);
    int e_res = bits - 1 + e_max - cut - 8;          /* 2^e_res <= |result| < 2^(e_res+1) */
    int emin = prec == 24 ? -126 : -14;
    if (prec == 24 && e_res < emin)
        return sneg ? -0.0f : 0.0f;                  /* f32 results are flushed to zero */
    int keep = e_res >= emin ? prec : prec - (emin - e_res);
    int shift = bits - keep;
    if (shift > 0) {
        if (shift > 63) {
            m = 0;
        } else {
            uint64_t rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
            m >>= shift;
            if (rem >= half)
                m++;
        }
    } else {
        shift = 0;
    }
    int ex = shift + e_max - cut - 8;                /* result = m * 2^ex, exact in a double */
    uint64_t sb = (uint64_t)(1023 + ex) << 52;
    double scale;
    memcpy(&scale, &sb, 8);
    float r = (float)((double)m * scale);
    return sneg ? -r : r;
}

void ex_tex_gather(const ex_texobj_t *o, const float *c, int64_t layer, const int32_t *off, ex_texel_t out[4])
{
    const ex_level_t *lv = &o->lv[0];
    uint32_t n[2] = { lv->w, lv->h };
    bool norm = o->tex.flags & EX_TEXF_NORMALIZED_COORDS;
    int64_t i0[2], i1[2];
    for (unsigned k = 0; k < 2; k++) {
        float u = norm ? c[k] * (float)n[k] : c[k];
        int64_t U = ex_tex_fixed(u) + (off ? (int64_t)off[k] * 256 : 0) - 128;
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

unsigned ex_tex_cube_face(float x, float y, float z, float *out_s, float *out_t)
{
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
    if (ma == 0) {
        *out_s = *out_t = 0.5f;
        return face;
    }
    *out_s = (sc / ma + 1.0f) * 0.5f;
    *out_t = (tc / ma + 1.0f) * 0.5f;
    return face;
}
