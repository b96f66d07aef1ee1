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

int64_t ex_tex_wrap_index(int64_t i, uint32_t n, ex_addr_t m)
{
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
        return i < 0 || i >= nn ? -1 : i;
    case EX_ADDR_CLAMP:
    default:
        return i < 0 ? 0 : i >= nn ? nn - 1 : i;
    }
}

int64_t ex_tex_fixed(float u)
{
    if (u != u)
        return 0;
    double v = floor((double)u * 256.0);
    const double lim = 1099511627776.0;   /* 2^40: far outside any texture */
    if (v > lim)
        v = lim;
    if (v < -lim)
        v = -lim;
    return (int64_t)v;
}

/* u * 256 rounded to nearest, halves up, saturating as ex_tex_fixed. */
int64_t ex_tex_fixed_round(float u)
{
    if (u != u)
        return 0;
    double v = floor((double)u * 256.0 + 0.5);
    const double lim = 1099511627776.0;
    if (v > lim)
        v = lim;
    if (v < -lim)
        v = -lim;
    return (int64_t)v;
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

void ex_tex_texel(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out)
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

void ex_tex_sample_level(const ex_texobj_t *o, unsigned level, unsigned dims, const float *c, int64_t layer, bool linear,
                         const int32_t *off, ex_texel_t *out)
{
    const ex_level_t *lv = &o->lv[level];
    uint32_t n[3] = { lv->w, lv->h, lv->d };
    bool norm = o->tex.flags & EX_TEXF_NORMALIZED_COORDS;
    int64_t i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 };
    uint32_t w[3] = { 0, 0, 0 };
    for (unsigned k = 0; k < dims; k++) {
        float u = norm ? c[k] * (float)n[k] : c[k];
        int64_t U = ex_tex_fixed(u) + (off ? (int64_t)off[k] * 256 : 0);
        ex_addr_t m = mode_of(o, k);
        if (linear) {
            /* u - 0.5 to the nearest 1/256, halves up (measured: tex_weights): the
             * weight of the second texel is 0..256 in 1/256 steps. */
            U = ex_tex_fixed_round(u) + (off ? (int64_t)off[k] * 256 : 0) - 128;
            w[k] = (uint32_t)(U & 255);
            i0[k] = ex_tex_wrap_index(U >> 8, n[k], m);
            i1[k] = ex_tex_wrap_index((U >> 8) + 1, n[k], m);
        } else {
            i0[k] = ex_tex_wrap_index(U >> 8, n[k], m);
        }
    }
    if (dims < 3) {
        i0[2] = i1[2] = layer;
    }
    if (!linear) {
        ex_tex_texel(o, lv, i0[0], i0[1], i0[2], out);
        return;
    }
    /* Linear: every corner of the 2^dims footprint, with the fixed-point weights and the
     * combination measured on the H100 (ex_tex_weights, ex_tex_combine). */
    unsigned corners = 1u << dims;
    uint32_t wt[8];
    ex_tex_weights(dims, w, wt);
    ex_texel_t t[8];
    for (unsigned q = 0; q < corners; q++) {
        int64_t x = q & 1 ? i1[0] : i0[0];
        int64_t y = dims > 1 ? (q & 2 ? i1[1] : i0[1]) : i0[1];
        int64_t z = dims > 2 ? (q & 4 ? i1[2] : i0[2]) : i0[2];
        if (wt[q])
            ex_tex_texel(o, lv, x, y, z, &t[q]);
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
    for (unsigned k = 0; k < 4; k++) {
        float v[8];
        for (unsigned q = 0; q < corners; q++)
            v[q] = t[q].f[k];
        out->f[k] = ex_tex_combine(v, wt, corners, o->fmt == EX_FMT_F16 ? 11 : 24);
    }
}

/* The weights of the 2^dims corners (corner q takes the second texel in dimension k when
 * bit k of q is set), in 1/256, from the 8-bit fractions w[k]; they always sum to 256.
 * Measured on the H100 (docs/textures.md, over every pair of fractions): in 2D the weight
 * of the far corner is a*b/256 rounded to nearest with halves up, and the others are what
 * is left of a, of b and of the whole.  In 3D the same split is applied again with the
 * third fraction to each of the four 2D weights (not measured). */
void ex_tex_weights(unsigned dims, const uint32_t *w, uint32_t *out)
{
    out[0] = 256 - w[0];
    out[1] = w[0];
    if (dims < 2)
        return;
    uint32_t a = w[0], b = w[1], ab = (a * b + 128) >> 8;
    out[0] = 256 - a - b + ab;
    out[1] = a - ab;
    out[2] = b - ab;
    out[3] = ab;
    if (dims < 3)
        return;
    for (unsigned q = 0; q < 4; q++) {
        uint32_t hi = (out[q] * w[2] + 128) >> 8;
        out[q + 4] = hi;
        out[q] -= hi;
    }
}

/* One channel of a linear filter: sum over n texels of v[q] * wt[q] / 256, as the H100
 * computes it (measured on 278,592 samples, docs/textures.md): each texel of non-zero
 * weight is cut (towards zero) to a multiple of 2^(E - 28), E the exponent of the largest
 * of them (frexp's: |v| < 2^E); the weighted sum is then exact and is rounded to f32 to
 * nearest with halves away from zero.  Infinities and NaNs are summed in f32. */
float ex_tex_combine(const float *v, const uint32_t *wt, unsigned n, int prec)
{
    int e_max = INT32_MIN;
    bool special = false;
    for (unsigned q = 0; q < n; q++) {
        if (!wt[q] || v[q] == 0)
            continue;
        if (!isfinite(v[q])) {
            special = true;
            continue;
        }
        int e;
        frexpf(v[q], &e);
        if (e > e_max)
            e_max = e;
    }
    if (special) {
        float acc = 0;
        for (unsigned q = 0; q < n; q++)
            if (wt[q])
                acc += v[q] * (float)wt[q];
        return acc / 256;
    }
    if (e_max == INT32_MIN)
        return 0.0f;
    /* texels as integers in units of 2^(e_max - 28): |n| < 2^28 */
    int64_t sum = 0;
    for (unsigned q = 0; q < n; q++) {
        if (!wt[q] || v[q] == 0)
            continue;
        double x = ldexp((double)v[q], 28 - e_max);   /* exact: a scaled f32 */
        sum += (int64_t)trunc(x) * (int64_t)wt[q];
    }
    if (sum == 0)
        return 0.0f;
    /* sum * 2^(e_max - 36), rounded to f32 with halves away from zero */
    bool neg = sum < 0;
    uint64_t m = neg ? (uint64_t)(-sum) : (uint64_t)sum;
    int bits = 64 - __builtin_clzll(m);
    int e_res = bits - 1 + e_max - 36;              /* 2^e_res <= |result| < 2^(e_res+1) */
    int emin = prec == 24 ? -126 : -14;
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
    float r = (float)ldexp((double)m, shift + e_max - 36);
    return neg ? -r : r;
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
