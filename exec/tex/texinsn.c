/* texinsn.c: the texture and surface instructions on object handles: tex, tld4, txq,
 * suld.b, sust.b, sust.p, sured.b, sured.p, suq and istypep.  Selection reads the
 * instruction's forms once into an ex_txi_t (x->aux points to it); the handlers look each lane's handle up
 * in the device's table, check that the object fits the instruction, and call the
 * sampler (sample.c) or access the surface's texels. */
#include "exec/tex/tex.h"
#include "isa/sem/fp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Geometries of the instructions (GEOM modifiers). */
enum { TG_1D, TG_2D, TG_3D, TG_A1D, TG_A2D, TG_CUBE, TG_ACUBE };
static const char *const tg_name[] = { "1d", "2d", "3d", "a1d", "a2d", "cube", "acube" };
/* tex's mip mode. */
enum { TM_NONE, TM_BASE, TM_LEVEL, TM_GRAD };
/* tex's half-precision results: four .f16 in 16-bit registers, or two .f16x2 pairs. */
enum { HALF_NONE, HALF_F16, HALF_F16X2 };
/* Out-of-bounds handling of surfaces. */
enum { OOB_TRAP, OOB_CLAMP, OOB_ZERO };

typedef struct {
    uint8_t  geom, mode, comp, oob;
    uint8_t  nd;            /* destination (or stored) registers */
    uint8_t  half;          /* tex: HALF_F16 (.v4.f16) or HALF_F16X2 (.v2.f16x2) results, else 0 */
    bool     formatted;     /* sust.p: x counts elements, the data is converted to the format;
                               sured.p: x counts samples of the access's size (measured) */
    uint8_t  dbytes;        /* suld/sust: bytes per element */
    uint8_t  rw[4];         /* suld/sust: bytes per lane of each data register */
    bool     icoord;        /* tex: integer coordinates (.s32) */
    uint8_t  ne;            /* tex/tld4: offset components (0: none) */
    uint16_t query;         /* txq/suq/istypep: ISA_M_ of the query */
    uint16_t atomop;        /* sured: ISA_M_ADD ... */
    isa_type_t atype;       /* sured: the element type (sured.p min/max: the unsigned one,
                               the signed one taken on surfaces of signed integers) */
    uint32_t d[4], p, h, c[4], lod, gx[4], gy[4], e[4];
} ex_txi_t;

/* A slot as pre-decoding left it: constants are relocated here (the handlers get the
 * function's constant area from the running activation). */
static inline uint32_t S(const ex_func_t *fn, uint32_t s)
{
    return s & 0x80000000u ? fn->const_begin + (s & 0x7fffffffu) : s;
}
static inline uint32_t rd32(const uint8_t *f, const ex_func_t *fn, uint32_t s, unsigned l)
{
    return ISA_SLOT(const uint32_t, f, S(fn, s))[l];
}
static inline float rdf(const uint8_t *f, const ex_func_t *fn, uint32_t s, unsigned l)
{
    uint32_t u = rd32(f, fn, s, l);
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/*{=====================================================================
 * Objects per lane
 *====================================================================*/
/* The handle bound to the .texref/.surfref variable at address h (an instruction naming
 * one passes its address, as does a register holding it), with the variable in *var;
 * ISA_NONE there when h is no such address. */
static uint64_t ref_handle(const ex_program_t *p, uint64_t h, uint32_t *var)
{
    uint32_t lo = 0, hi = p->nrefs;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (p->refs[m].end <= h)
            lo = m + 1;
        else
            hi = m;
    }
    *var = ISA_NONE;
    if (lo == p->nrefs || h < p->refs[lo].addr || (h - p->refs[lo].addr) % 8)
        return 0;
    *var = p->refs[lo].var;
    uint64_t v;
    memcpy(&v, (const void *)(uintptr_t)h, 8);
    return v;
}

/* Lane l's object, checked: NULL after recording a fault naming the handle (or the
 * reference it came from). */
static const ex_texobj_t *lane_obj(ex_warp_t *w, const ex_insn_t *x, uint64_t h, unsigned l, bool surface)
{
    const ex_program_t *p = w->cta->p;
    const ex_texobj_t *o = ex_tex_lookup(p->dev, h);
    uint32_t var = ISA_NONE;
    uint64_t bound = 0;
    if (!o && p->nrefs) {
        bound = ref_handle(p, h, &var);
        if (var != ISA_NONE)
            o = ex_tex_lookup(p->dev, bound);
    }
    if (o && o->surface == surface)
        return o;
    if (var != ISA_NONE && !bound)
        snprintf(w->fault_buf, sizeof w->fault_buf, "%s reference '%s' is bound to no %s",
                 surface ? "surface" : "texture", p->m->vars[var].name, surface ? "array" : "resource");
    else if (var != ISA_NONE)
        snprintf(w->fault_buf, sizeof w->fault_buf, "reference '%s' holds handle 0x%llx, which names no %s object%s",
                 p->m->vars[var].name, (unsigned long long)bound, surface ? "surface" : "texture",
                 o ? (surface ? " (it is a texture)" : " (it is a surface)") : "");
    else
        snprintf(w->fault_buf, sizeof w->fault_buf, "handle 0x%llx names no %s object%s", (unsigned long long)h,
                 surface ? "surface" : "texture",
                 o ? (surface ? " (it is a texture)" : " (it is a surface)") : "");
    ex_set_fault_k(w, x, 1u << l, EX_FAULT_ILLEGAL, w->fault_buf);
    return NULL;
}

/* Whether object o has the instruction's geometry g; else a fault naming both. */
static bool geom_ok(ex_warp_t *w, const ex_insn_t *x, const ex_texobj_t *o, unsigned g, unsigned l, bool icoord)
{
    bool ok;
    switch (g) {
    case TG_1D:   ok = (o->geo == EX_GEO_1D && !o->layered) || (o->geo == EX_GEO_LINEAR && icoord); break;
    case TG_2D:   ok = o->geo == EX_GEO_2D && !o->layered; break;
    case TG_3D:   ok = o->geo == EX_GEO_3D; break;
    case TG_A1D:  ok = o->geo == EX_GEO_1D && o->layered; break;
    case TG_A2D:  ok = o->geo == EX_GEO_2D && o->layered && (!o->cube || o->surface); break;
    case TG_CUBE: ok = o->cube && o->layers == 6; break;
    case TG_ACUBE: ok = o->cube; break;
    default:      ok = false; break;
    }
    if (ok)
        return true;
    static const char *const geo_name[] = { "linear-memory", "1D", "2D", "3D" };
    snprintf(w->fault_buf, sizeof w->fault_buf, "%s.%s on a %s%s%s object", x->ir ? isa_ops[x->ir->op].mnemonic : "tex",
             tg_name[g], o->cube ? "cube-map" : geo_name[o->geo], o->layered && !o->cube ? " layered" : "",
             o->surface ? " surface" : " texture");
    ex_set_fault_k(w, x, 1u << l, EX_FAULT_ILLEGAL, w->fault_buf);
    return false;
}
/*}=====================================================================*/

/*{=====================================================================
 * tex and tld4
 *====================================================================*/
/* Texel-space dimensions sampled per geometry, and where the coordinates start in c. */
static unsigned geo_dims(unsigned g) { return g == TG_1D || g == TG_A1D ? 1 : g == TG_3D ? 3 : 2; }
static bool geo_layered(unsigned g) { return g == TG_A1D || g == TG_A2D || g == TG_ACUBE; }

/* Integer-coordinate fetch (tex.geom.dtype.s32): texel indices, no filtering. */
static void fetch_int(const ex_texobj_t *o, unsigned dims, const int32_t *ic, const int32_t *off, int64_t layer,
                      ex_texel_t *out)
{
    const ex_level_t *lv = &o->lv[0];
    if (o->geo == EX_GEO_LINEAR) {
        int64_t i = (int64_t)ic[0] + (off ? off[0] : 0);
        if (i < 0 || i >= lv->w) {
            memset(out, 0, sizeof *out);   /* outside the resource: zeros */
            return;
        }
        ex_tex_texel(o, lv, i, 0, 0, out);
        return;
    }
    /* Arrays and pitched memory (measured on the H100, golden tex_icoord): a coordinate
     * outside the level gives zeros, whatever the address mode (no clamping, wrapping or
     * border colour); a 1D array that is not layered gives zeros everywhere. */
    uint32_t n[3] = { lv->w, lv->h, lv->d };
    int64_t idx[3] = { 0, 0, layer };
    bool inside = o->geo != EX_GEO_1D || o->layered;
    for (unsigned k = 0; k < dims; k++) {
        idx[k] = (int64_t)ic[k] + (off ? off[k] : 0);
        inside &= idx[k] >= 0 && idx[k] < n[k];
    }
    if (!inside) {
        memset(out, 0, sizeof *out);
        return;
    }
    ex_tex_texel(o, lv, idx[0], idx[1], idx[2], out);
}

/* tex.level with integer coordinates (measured on the H100, golden tex_level_icoord): the
 * level of detail is an integer that picks the level, zeros below the first and past the
 * last; the coordinates clamp to the level's edges whatever the address mode (wrap and
 * border alike).  An array or pitched memory without mipmap levels is one level (goldens
 * tex_level_icoord_flat and _pitch): there coordinates clamp too, unlike tex's integer
 * coordinates, which read zeros outside.  On linear memory the level of detail is ignored
 * and the element index clamps (golden tex_level_icoord_lin). */
static void fetch_int_level(const ex_texobj_t *o, unsigned dims, const int32_t *ic, const int32_t *off,
                            int64_t layer, int32_t lod, ex_texel_t *out)
{
    if (o->geo == EX_GEO_LINEAR) {
        int64_t i = (int64_t)ic[0] + (off ? off[0] : 0);
        i = i < 0 ? 0 : i >= o->lv[0].w ? (int64_t)o->lv[0].w - 1 : i;
        ex_tex_texel(o, &o->lv[0], i, 0, 0, out);
        return;
    }
    if (lod < 0 || (uint32_t)lod >= o->nlevels) {
        memset(out, 0, sizeof *out);
        return;
    }
    const ex_level_t *lv = &o->lv[lod];
    uint32_t n[3] = { lv->w, lv->h, lv->d };
    int64_t idx[3] = { 0, 0, layer };
    for (unsigned k = 0; k < dims; k++) {
        idx[k] = (int64_t)ic[k] + (off ? off[k] : 0);
        idx[k] = idx[k] < 0 ? 0 : idx[k] >= n[k] ? (int64_t)n[k] - 1 : idx[k];
    }
    ex_tex_texel(o, lv, idx[0], idx[1], idx[2], out);
}

/* The texture unit's log2 for the level of detail, in 1/256: the exponent of x plus this
 * table's entry for the top 8 bits of its mantissa (measured on the H100: every entry,
 * from gradients of 1 to 8 texels in steps of 1/512, probe2.cu; it is not log2 of the
 * mantissa's midpoint rounded, 13 entries are one lower). */
static const uint8_t lod_log2[256] = {
      0,   2,   4,   5,   6,   8,   9,  11,  12,  13,  15,  16,  18,  19,  20,  22,
     23,  24,  26,  27,  28,  30,  31,  32,  34,  35,  36,  38,  39,  40,  42,  43,
     44,  45,  47,  48,  49,  50,  52,  53,  54,  55,  57,  58,  59,  60,  62,  63,
     64,  65,  66,  68,  69,  70,  71,  72,  74,  75,  76,  77,  78,  79,  81,  82,
     83,  84,  85,  86,  88,  89,  90,  91,  92,  93,  94,  95,  97,  98,  99, 100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
    118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
    135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
    150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
    165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
    180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193,
    194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
    207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219,
    220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232,
    233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
    245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255,
};

static float lod_log2f(float x)
{
    if (x != x)
        return 0;
    if (x <= 0)
        return -INFINITY;
    if (isinf(x))
        return INFINITY;
    uint32_t b;
    memcpy(&b, &x, 4);
    int e = (int)(b >> 23 & 0xff) - 127;
    if (!(b >> 23 & 0xff)) {   /* subnormal: normalize the mantissa */
        uint32_t m = b & 0x7fffff;
        int sh = __builtin_clz(m) - 8;
        e = -126 - sh;
        b = (m << sh) & 0x7fffff;
    }
    return (float)(256 * e + lod_log2[b >> 15 & 0xff]) / 256.0f;
}

/* The level of detail of tex.grad: the log2 above of the longer gradient's length in
 * texels of level 0.  Measured on the H100 (probe2.cu, probe4.cu): along the axes the
 * length is exact (every pair of axis gradients from 1 to 8 texels); a single 2D gradient
 * at an angle has the length max + 0.343 * min of its components' magnitudes (the LOD
 * within a unit of 1/256 over a sweep of angles).  Two gradients off the axes combine to
 * more than the longer one's length (the footprint's major axis, approximated): not
 * matched yet (docs/textures.md). */
static float grad_lod(const ex_texobj_t *o, unsigned dims, const float *gx, const float *gy)
{
    bool norm = o->tex.flags & EX_TEXF_NORMALIZED_COORDS;
    uint32_t n[3] = { o->lv[0].w, o->lv[0].h, o->lv[0].d };
    float a[3], b[3];
    for (unsigned k = 0; k < dims; k++) {
        a[k] = fabsf(norm ? gx[k] * (float)n[k] : gx[k]);
        b[k] = fabsf(norm ? gy[k] * (float)n[k] : gy[k]);
    }
    float la, lb;
    if (dims == 1) {
        la = a[0];
        lb = b[0];
    } else if (dims == 2) {
        la = fmaxf(a[0], a[1]) + (351.0f / 1024.0f) * fminf(a[0], a[1]);
        lb = fmaxf(b[0], b[1]) + (351.0f / 1024.0f) * fminf(b[0], b[1]);
    } else {
        la = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        lb = sqrtf(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    }
    return lod_log2f(la > lb ? la : lb);
}

/* One lane's tex: the level (or the two levels) and the filtered result. */
static void tex_lane(const ex_texobj_t *o, const ex_txi_t *t, unsigned dims, const float *c, int64_t layer,
                     const int32_t *off, bool has_lod, float lod, ex_texel_t *out)
{
    bool linear = o->tex.filter == EX_FILTER_LINEAR;
    float cc[3] = { c[0], c[1], c[2] };
    (void)t;
    unsigned nl = o->nlevels;
    if (nl <= 1 || !has_lod) {
        ex_tex_sample_level(o, 0, dims, cc, layer, linear, off, out);
        return;
    }
    float lmin = o->tex.min_lod, lmax = o->tex.max_lod;
    if (lod < lmin)
        lod = lmin;
    if (lod > lmax)
        lod = lmax;
    if (lod < 0 || lod != lod)
        lod = 0;
    if (lod > (float)(nl - 1))
        lod = (float)(nl - 1);
    if (o->tex.mip_filter == EX_FILTER_POINT) {
        unsigned lv = (unsigned)floorf(lod + 0.5f);
        if (lv > nl - 1)
            lv = nl - 1;
        ex_tex_sample_level(o, lv, dims, cc, layer, linear, off, out);
        return;
    }
    unsigned l0 = (unsigned)floorf(lod);
    uint32_t wf = (uint32_t)floorf((lod - (float)l0) * 256.0f);
    ex_tex_sample_mip(o, l0, wf, dims, cc, layer, linear, off, out);
}

/* Lane l's four f32 results as tex's .f16 or .f16x2 destinations: each rounded to nearest
 * even, a NaN as 0x7fff (measured on the H100: every result of 8 textures of float,
 * normalized and integer formats, point and linear, overflow to infinity and f16
 * subnormals, equals cvt.rn.f16.f32 of the .f32 fetch's). */
static void put_half(uint8_t *f, const ex_txi_t *t, unsigned l, const uint32_t r[4])
{
    uint16_t h[4];
    for (unsigned k = 0; k < 4; k++) {
        float v;
        memcpy(&v, &r[k], 4);
        h[k] = v != v ? 0x7fffu : (uint16_t)isa_f16_round_f32(v, 0.0f);
    }
    if (t->half == HALF_F16X2) {
        for (unsigned k = 0; k < 2; k++)
            if (t->d[k] != ISA_NONE)
                ISA_SLOT(uint32_t, f, t->d[k])[l] = h[2 * k] | (uint32_t)h[2 * k + 1] << 16;
        return;
    }
    for (unsigned k = 0; k < 4; k++)
        if (t->d[k] != ISA_NONE)
            ISA_SLOT(uint16_t, f, t->d[k])[l] = h[k];
}

static int tex_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const ex_func_t *fn = ex_top(w)->fn;
    const ex_txi_t *t = (const ex_txi_t *)(uintptr_t)x->aux;
    bool tld4 = x->ir->op == ISA_OP_TLD4;
    unsigned g = t->geom, dims = geo_dims(g);
    bool layered = geo_layered(g), cube = g == TG_CUBE || g == TG_ACUBE;
    const uint64_t *hs = ISA_SLOT(const uint64_t, f, S(fn, t->h));
    uint64_t last = 0;
    const ex_texobj_t *o = NULL;
    if (!tld4 && !t->icoord && !cube && !layered && !t->ne && mask) {
        /* The common shape, warp-wide: one object for every lane, level 0 (no mip
         * selection, or a single level), no layer, no offsets. */
        unsigned l0 = (unsigned)__builtin_ctz(mask);
        uint64_t h = hs[l0];
        bool one = true;
        for (uint32_t m = mask & (mask - 1); m; m &= m - 1)
            one &= hs[__builtin_ctz(m)] == h;
        if (one) {
            if (!(o = lane_obj(w, x, h, l0, false)) || !geom_ok(w, x, o, g, l0, false))
                return ISA_X_FAULT;
            if (t->mode == TM_NONE || t->mode == TM_BASE || o->nlevels <= 1) {
                uint32_t sink[32], tmp[4][ISA_LANES];
                const uint32_t *c[3];
                uint32_t *d[4];
                for (unsigned k = 0; k < dims; k++)
                    c[k] = ISA_SLOT(const uint32_t, f, S(fn, t->c[k]));
                for (unsigned k = 0; k < 4; k++)
                    d[k] = t->half ? tmp[k] : k < t->nd && t->d[k] != ISA_NONE ? ISA_SLOT(uint32_t, f, t->d[k]) : sink;
                ex_tex_sample_warp(o, dims, c, mask, d);
                for (uint32_t m = t->half ? mask : 0; m; m &= m - 1) {
                    unsigned l = (unsigned)__builtin_ctz(m);
                    put_half(f, t, l, (uint32_t[4]){ tmp[0][l], tmp[1][l], tmp[2][l], tmp[3][l] });
                }
                if (t->p != ISA_NONE)
                    *ISA_SLOT(uint32_t, f, t->p) |= mask;
                return ISA_X_NEXT;
            }
        }
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (!o || hs[l] != last) {
            last = hs[l];
            if (!(o = lane_obj(w, x, last, l, false)) || !geom_ok(w, x, o, g, l, t->icoord))
                return ISA_X_FAULT;
        }
        unsigned ci = 0;
        int64_t layer = 0;
        if (layered) {
            uint32_t li = rd32(f, fn, t->c[ci++], l);
            uint32_t nlay = cube ? o->layers / 6 : o->layers;
            layer = li >= nlay ? (int64_t)nlay - 1 : (int64_t)li;   /* clamped to the last layer */
        }
        int32_t off[3] = { 0, 0, 0 };
        for (unsigned k = 0; k < t->ne; k++)
            off[k] = (int32_t)rd32(f, fn, t->e[k], l);
        ex_texel_t r;
        if (t->icoord && t->mode == TM_LEVEL) {
            int32_t ic[3] = { 0, 0, 0 };
            for (unsigned k = 0; k < dims; k++)
                ic[k] = (int32_t)rd32(f, fn, t->c[ci + k], l);
            fetch_int_level(o, dims, ic, t->ne ? off : NULL, layer, (int32_t)rd32(f, fn, t->lod, l), &r);
        } else if (t->icoord) {
            int32_t ic[3] = { 0, 0, 0 };
            for (unsigned k = 0; k < dims; k++)
                ic[k] = (int32_t)rd32(f, fn, t->c[ci + k], l);
            fetch_int(o, dims, ic, t->ne ? off : NULL, layer, &r);
        } else {
            float c[3] = { 0, 0, 0 };
            for (unsigned k = 0; k < (cube ? 3u : dims); k++)
                c[k] = rdf(f, fn, t->c[ci + k], l);
            if (cube) {
                float s, tt;
                unsigned face = ex_tex_cube_face(c[0], c[1], c[2], &s, &tt);
                layer = layer * 6 + face;
                c[0] = s;   /* normalized face coordinates (o->norm), whatever the sampler's flag */
                c[1] = tt;
            }
            if (tld4) {
                ex_texel_t q[4];
                ex_tex_gather(o, c, layer, t->ne ? off : NULL, q);
                for (unsigned k = 0; k < 4; k++)
                    r.u[k] = q[k].u[t->comp];
            } else {
                bool has_lod = t->mode == TM_LEVEL || t->mode == TM_GRAD;
                float lod = 0;
                if (t->mode == TM_LEVEL) {
                    lod = rdf(f, fn, t->lod, l) + o->tex.lod_bias;
                } else if (t->mode == TM_GRAD && o->nlevels > 1) {
                    float gx[3] = { 0, 0, 0 }, gy[3] = { 0, 0, 0 };
                    for (unsigned k = 0; k < dims; k++) {
                        gx[k] = rdf(f, fn, t->gx[k], l);
                        gy[k] = rdf(f, fn, t->gy[k], l);
                    }
                    if (o->tex.max_aniso > 1 || cube) {
                        snprintf(w->fault_buf, sizeof w->fault_buf, "tex.grad %s is not supported yet",
                                 cube ? "on a cube map" : "with anisotropic filtering (max anisotropy above 1)");
                        return ex_set_fault_k(w, x, 1u << l, EX_FAULT_UNSUPPORTED, w->fault_buf), ISA_X_FAULT;
                    }
                    lod = grad_lod(o, dims, gx, gy) + o->tex.lod_bias;
                }
                tex_lane(o, t, dims, c, layer, t->ne ? off : NULL, has_lod, lod, &r);
            }
        }
        if (t->half) {
            put_half(f, t, l, r.u);
            continue;
        }
        for (unsigned k = 0; k < t->nd; k++)
            if (t->d[k] != ISA_NONE)
                ISA_SLOT(uint32_t, f, t->d[k])[l] = r.u[k];
    }
    if (t->p != ISA_NONE)
        *ISA_SLOT(uint32_t, f, t->p) |= mask;   /* every texel is resident */
    return ISA_X_NEXT;
}
static const isa_xdesc_t tex_d[1] = { { tex_f, { 0 }, ISA_HON_DUAL } };
/*}=====================================================================*/

/*{=====================================================================
 * Surfaces: suld.b, sust.b, sust.p, sured.b, sured.p
 *====================================================================*/
/* Lane l's surface element: its host address after the bounds rule of the
 * instruction, NULL for a .zero access outside the surface (the fault recorded and
 * *faulted set for a .trap one or a misaligned one). */
static uint8_t *surf_addr(ex_warp_t *w, const ex_insn_t *x, const ex_txi_t *t, const ex_texobj_t *o, const uint8_t *f,
                          const ex_func_t *fn, unsigned l, unsigned size, bool *faulted)
{
    unsigned g = t->geom, ci = 0;
    const ex_level_t *lv = &o->lv[0];
    int64_t z = 0, zn = lv->d;
    if (g == TG_A1D || g == TG_A2D) {
        z = rd32(f, fn, t->c[ci++], l);   /* an unsigned layer index */
        z = (uint32_t)z;
    }
    int64_t xb = (int32_t)rd32(f, fn, t->c[ci], l), y = 0, yn = 1;
    if (g == TG_2D || g == TG_3D || g == TG_A2D) {
        y = (int32_t)rd32(f, fn, t->c[ci + 1], l);
        yn = lv->h;
    }
    if (g == TG_3D)
        z = (int32_t)rd32(f, fn, t->c[ci + 2], l);
    int64_t xn = (int64_t)lv->w * o->tb;
    if (t->formatted && x->ir->op == ISA_OP_SURED) {
        xb *= size;                       /* sured.p: a sample of the access's size, whatever the format */
    } else if (t->formatted) {            /* sust.p: an element index */
        xb *= o->tb;
        size = o->tb;
    }
    *faulted = false;
    bool in = xb >= 0 && xb + size <= xn && y >= 0 && y < yn && z >= 0 && z < zn;
    if (!in) {
        if (t->oob == OOB_ZERO)
            return NULL;
        if (t->oob == OOB_TRAP) {
            snprintf(w->fault_buf, sizeof w->fault_buf,
                     "surface access out of bounds (.trap): byte %lld, row %lld, %s %lld of a %lld-byte, %lld-row surface",
                     (long long)xb, (long long)y, g == TG_3D ? "slice" : "layer", (long long)z, (long long)xn,
                     (long long)yn);
            ex_set_fault_k(w, x, 1u << l, EX_FAULT_ADDRESS, w->fault_buf);
            *faulted = true;
            return NULL;
        }
        if (xn < size)                    /* no whole sample to clamp to: dropped (measured, sured.p) */
            return NULL;
        xb = xb < 0 ? 0 : xb + size > xn ? (xn - size) / size * size : xb;
        y = y < 0 ? 0 : y >= yn ? yn - 1 : y;
        z = z < 0 ? 0 : z >= zn ? zn - 1 : z;
    }
    if (xb % size) {
        snprintf(w->fault_buf, sizeof w->fault_buf, "surface byte coordinate %lld not aligned to the %u-byte access",
                 (long long)xb, size);
        ex_set_fault_k(w, x, 1u << l, EX_FAULT_MISALIGNED, w->fault_buf);
        *faulted = true;
        return NULL;
    }
    return lv->base + (uint64_t)z * lv->slice + (uint64_t)y * lv->row + (uint64_t)xb;
}

/* sust.p: the 32-bit data of lane l converted to the element's format, channel by channel
 * (measured on the H100, CUDA's surfaces of every format, golden surf_formatted): unsigned
 * formats take the data as .u32 and signed ones as .s32, saturated to the channel; f32
 * channels take the bits as they are; f16 channels the f32 rounded toward zero (beyond
 * the range: the largest finite half; a NaN keeps its sign and the top of its payload).
 * Data beyond the format's channels is ignored; channels beyond the data are written 0. */
static uint16_t f16_rz(uint32_t u)
{
    uint32_t sign = u >> 16 & 0x8000u, e = u >> 23 & 0xff, man = u & 0x7fffffu;
    if (e == 0xff)
        return (uint16_t)(sign | 0x7c00u | man >> 13 | (man ? 0x200u : 0));
    int ex = (int)e - 127;
    if (ex > 15)
        return (uint16_t)(sign | 0x7bffu);
    if (ex < -24 || e == 0)
        return (uint16_t)sign;
    uint32_t m = man | 0x800000u;
    if (ex < -14)                          /* an f16 subnormal: quantum 2^-24 */
        return (uint16_t)(sign | m >> (-ex - 14 + 13));
    return (uint16_t)(sign | (uint32_t)(ex + 15) << 10 | man >> 13);
}
static void store_formatted(uint8_t *a, const ex_texobj_t *o, const ex_txi_t *t, const uint8_t *f, const ex_func_t *fn,
                            unsigned l)
{
    unsigned cb = o->tb / (o->ch ? o->ch : 1), n = t->nd < o->ch ? t->nd : o->ch;
    for (unsigned k = 0; k < n; k++) {
        uint32_t v = rd32(f, fn, t->d[k], l);
        uint32_t out = v;
        switch (o->fmt) {
        case EX_FMT_U8:  out = v > 0xffu ? 0xffu : v; break;
        case EX_FMT_U16: out = v > 0xffffu ? 0xffffu : v; break;
        case EX_FMT_S8:  out = (uint32_t)((int32_t)v > 127 ? 127 : (int32_t)v < -128 ? -128 : (int32_t)v); break;
        case EX_FMT_S16: out = (uint32_t)((int32_t)v > 32767 ? 32767 : (int32_t)v < -32768 ? -32768 : (int32_t)v); break;
        case EX_FMT_F16: out = f16_rz(v); break;
        default: break;                    /* 32-bit channels: the bits */
        }
        memcpy(a + k * cb, &out, cb);
    }
    memset(a + n * cb, 0, (size_t)(o->ch - n) * cb);
}

static int surf_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const ex_func_t *fn = ex_top(w)->fn;
    const ex_txi_t *t = (const ex_txi_t *)(uintptr_t)x->aux;
    unsigned op = x->ir->op, size = t->dbytes * t->nd;
    const uint64_t *hs = ISA_SLOT(const uint64_t, f, S(fn, t->h));
    uint64_t last = 0;
    const ex_texobj_t *o = NULL;
    uint8_t *sa[ISA_LANES];             /* sust: each lane's element, NULL where dropped */
    const ex_texobj_t *so[ISA_LANES];
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (!o || hs[l] != last) {
            last = hs[l];
            if (!(o = lane_obj(w, x, last, l, true)) || !geom_ok(w, x, o, t->geom, l, false))
                return ISA_X_FAULT;
        }
        bool faulted;
        uint8_t *a = surf_addr(w, x, t, o, f, fn, l, size, &faulted);
        if (faulted)
            return ISA_X_FAULT;
        if (op == ISA_OP_SUST) {
            sa[l] = a;
            so[l] = o;
        } else if (op == ISA_OP_SULD) {
            for (unsigned k = 0; k < t->nd; k++) {
                uint64_t v = 0;
                if (a)
                    memcpy(&v, a + k * t->dbytes, t->dbytes);
                if (t->d[k] != ISA_NONE)
                    memcpy(f + t->d[k] + (size_t)l * t->rw[k], &v, t->rw[k]);
            }
        } else {   /* sured: an atomic read-modify-write of one element */
            if (!a)
                continue;
            isa_type_t at = t->atype;
            if (t->formatted && (o->fmt == EX_FMT_S8 || o->fmt == EX_FMT_S16 || o->fmt == EX_FMT_S32))
                at = at == ISA_T_U32 ? ISA_T_S32 : at == ISA_T_U64 ? ISA_T_S64 : at;
            isa_atom_fn_t fe = isa_atom_fns[isa_sem_atom(t->atomop, at, true)];
            uint64_t b = 0;
            memcpy(&b, f + S(fn, t->d[0]) + (size_t)l * t->rw[0], t->rw[0]);
            if (t->dbytes == 4) {
                uint32_t *p = (uint32_t *)(void *)a, old = __atomic_load_n(p, __ATOMIC_RELAXED);
                while (!__atomic_compare_exchange_n(p, &old, (uint32_t)fe(old, b, 0), true, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED))
                    ;
            } else {
                uint64_t *p = (uint64_t *)(void *)a, old = __atomic_load_n(p, __ATOMIC_RELAXED);
                while (!__atomic_compare_exchange_n(p, &old, fe(old, b, 0), true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                    ;
            }
        }
    }
    /* sust writes once every lane's element is known, from the highest lane down: where
     * lanes write one element the lowest lane's value stays (golden sust_same_address) */
    ISA_LANE_LOOP_DOWN(op == ISA_OP_SUST ? mask : 0, {
        uint8_t *a = sa[l];
        if (a && t->formatted)
            store_formatted(a, so[l], t, f, fn, l);
        for (unsigned k = 0; a && !t->formatted && k < t->nd; k++) {
            uint64_t v = 0;
            memcpy(&v, f + S(fn, t->d[k]) + (size_t)l * t->rw[k], t->rw[k]);
            memcpy(a + k * t->dbytes, &v, t->dbytes);
        }
    });
    return ISA_X_NEXT;
}
static const isa_xdesc_t surf_d[1] = { { surf_f, { 0 }, 0 } };
/*}=====================================================================*/

/*{=====================================================================
 * Queries: txq, suq, istypep
 *====================================================================*/
static int query_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const ex_func_t *fn = ex_top(w)->fn;
    const ex_txi_t *t = (const ex_txi_t *)(uintptr_t)x->aux;
    bool surface = x->ir->op == ISA_OP_SUQ;
    const uint64_t *hs = ISA_SLOT(const uint64_t, f, S(fn, t->h));
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        const ex_texobj_t *o = lane_obj(w, x, hs[l], l, surface);
        if (!o)
            return ISA_X_FAULT;
        uint32_t lvl = t->mode == TM_LEVEL ? rd32(f, fn, t->lod, l) : 0, v = 0;
        const ex_level_t *lv = lvl < o->nlevels ? &o->lv[lvl] : NULL;
        switch (t->query) {
        case ISA_M_WIDTH:  v = lv ? lv->w : 0; break;
        case ISA_M_HEIGHT: v = lv && o->geo >= EX_GEO_2D ? lv->h : 0; break;
        default:           v = lv && o->geo == EX_GEO_3D ? lv->d : 0; break;   /* depth */
        }
        ISA_SLOT(uint32_t, f, t->d[0])[l] = v;
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t query_d[1] = { { query_f, { 0 }, 0 } };

/* istypep of a 64-bit register: false for every value, texture and surface object
 * handles included, as the H100 answers (golden tex_query_istypep: istypep.texref and
 * .surfref of a texture object and of a surface object are all false there). */
static int istypep_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    const ex_txi_t *t = (const ex_txi_t *)(uintptr_t)x->aux;
    uint32_t *p = ISA_SLOT(uint32_t, f, t->p);
    *p &= ~mask;
    return ISA_X_NEXT;
}
static const isa_xdesc_t istypep_d[1] = { { istypep_f, { 0 }, 0 } };
/*}=====================================================================*/

/*{=====================================================================
 * Selection
 *====================================================================*/
/* A source register of w bytes per lane or a constant: its slot, ISA_NONE otherwise. */
static uint32_t src(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned w)
{
    if (o->kind == ISA_OPD_REG && ex_reg_width(f, o) != w)
        return ISA_NONE;
    if (o->kind != ISA_OPD_REG && o->kind != ISA_OPD_IMM && o->kind != ISA_OPD_F32)
        return ISA_NONE;
    return ex_pd_operand(pd, o, w);
}

/* The elements of a vector operand (or a single register), sources of w bytes: their
 * count, 0 when any is of another form or there are more than max. */
static unsigned src_vec(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned w, uint32_t *out, unsigned max)
{
    const isa_func_t *fn = f->ir;
    if (o->kind != ISA_OPD_VEC) {
        if (max < 1 || (out[0] = src(pd, f, o, w)) == ISA_NONE)
            return 0;
        return 1;
    }
    if (o->count > max)
        return 0;
    for (uint32_t k = 0; k < o->count; k++)
        if ((out[k] = src(pd, f, &fn->opds[o->u.first + k], w)) == ISA_NONE)
            return 0;
    return o->count;
}

/* Destination registers {d0, ...} (or d), each of w bytes when w is not 0: their
 * count, each width in rw, 0 for another form. */
static unsigned dst_vec(ex_func_t *f, const isa_operand_t *o, unsigned w, uint32_t *out, uint8_t *rw, unsigned max)
{
    const isa_func_t *fn = f->ir;
    const isa_operand_t *e = o;
    unsigned n = 1;
    if (o->kind == ISA_OPD_VEC) {
        e = &fn->opds[o->u.first];
        n = o->count;
    }
    if (n > max)
        return 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned have;
        if (e[k].kind == ISA_OPD_SINK) {
            out[k] = ISA_NONE;
            rw[k] = (uint8_t)(w ? w : 4);
            continue;
        }
        if (e[k].kind != ISA_OPD_REG || (out[k] = ex_reg_operand(f, &e[k], &have)) == ISA_NONE || have == 0 ||
            have > 8 || (w && have != w))
            return 0;
        rw[k] = (uint8_t)have;
    }
    return n;
}

static int geom_of(const isa_instr_t *in)
{
    switch (isa_instr_mod(in, ISA_G_GEOM)) {
    case ISA_M_GEOM_1D:    return TG_1D;
    case ISA_M_GEOM_2D:    return TG_2D;
    case ISA_M_GEOM_3D:    return TG_3D;
    case ISA_M_GEOM_A1D:   return TG_A1D;
    case ISA_M_GEOM_A2D:   return TG_A2D;
    case ISA_M_GEOM_CUBE:  return TG_CUBE;
    case ISA_M_GEOM_ACUBE: return TG_ACUBE;
    default:               return -1;     /* .2dms, .a2dms and the tensor dimensions */
    }
}

/* A module's .texref (want ISA_D_TEXREF) or .surfref variable named as an operand: the
 * slot of its address (the handlers read the handle bound to it there), else ISA_NONE. */
static uint32_t ref_operand(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned want)
{
    if (!(o->flags & ISA_OPDF_MODSYM) || o->u.sym >= f->mod->nvar || f->mod->vars[o->u.sym].opaque != want + 1 ||
        o->imm != 0)
        return ISA_NONE;
    isa_operand_t s = *o;
    s.kind = ISA_OPD_SYM;
    s.imm = 0;
    return ex_pd_operand(pd, &s, 8);
}

/* The handle of [a, c] or [a]: a 64-bit register, or a .texref/.surfref variable (want
 * says which); the coordinates' operand in *out_c (NULL for [a]). */
static bool addr_parts(void *pd, ex_func_t *f, const isa_operand_t *o, ex_txi_t *t, const isa_operand_t **out_c,
                       unsigned want)
{
    const isa_func_t *fn = f->ir;
    *out_c = NULL;
    if (o->kind != ISA_OPD_ADDR)
        return false;
    if (o->flags & ISA_OPDF_ADDRLIST) {
        if (o->count != 2)
            return false;              /* [a, b, c]: a separate sampler (independent mode) */
        const isa_operand_t *a = &fn->opds[o->u.first];
        if (a->kind == ISA_OPD_SYM)
            t->h = ref_operand(pd, f, a, want);
        else if (a->kind == ISA_OPD_REG)
            t->h = src(pd, f, a, 8);
        else
            return false;
        *out_c = &fn->opds[o->u.first + 1];
        return t->h != ISA_NONE;
    }
    if (o->base == ISA_OPD_SYM)
        return (t->h = ref_operand(pd, f, o, want)) != ISA_NONE;
    if (o->base != ISA_OPD_REG || o->imm != 0)
        return false;
    isa_operand_t r = *o;
    r.kind = ISA_OPD_REG;
    r.sel = ISA_SEL_NONE;
    return (t->h = src(pd, f, &r, 8)) != ISA_NONE;
}

static bool select_tex(void *pd, ex_func_t *f, const isa_instr_t *in, ex_txi_t *t)
{
    const isa_func_t *fn = f->ir;
    const isa_operand_t *ops = &fn->opds[in->opd];
    bool tld4 = in->op == ISA_OP_TLD4;
    int g = geom_of(in);
    if (g < 0 || in->ntypes != 2 || in->nopd < 2)
        return false;
    t->geom = (uint8_t)g;
    isa_type_t dt = in->types[0], ct = in->types[1];
    int vm = isa_instr_mod(in, ISA_G_VEC);
    t->half = dt == ISA_T_F16 ? HALF_F16 : dt == ISA_T_F16X2 ? HALF_F16X2 : HALF_NONE;
    if (dt != ISA_T_F32 && dt != ISA_T_S32 && dt != ISA_T_U32 && !(t->half && !tld4))
        return false;
    if (vm != (t->half == HALF_F16X2 ? ISA_M_V2 : ISA_M_V4))
        return false;
    t->icoord = ct == ISA_T_S32;
    if (t->icoord && (g == TG_CUBE || g == TG_ACUBE || tld4))
        return false;
    int md = isa_instr_mod(in, ISA_G_MODE);
    t->mode = md == ISA_M_BASE ? TM_BASE : md == ISA_M_LEVEL ? TM_LEVEL : md == ISA_M_GRAD ? TM_GRAD : TM_NONE;
    if (tld4) {
        int c = isa_instr_mod(in, ISA_G_COMP);
        t->comp = c == ISA_M_R ? 0 : c == ISA_M_G ? 1 : c == ISA_M_B ? 2 : 3;
        if (g != TG_2D && g != TG_A2D && g != TG_CUBE && g != TG_ACUBE)
            return false;
    }
    if (t->icoord && t->mode == TM_GRAD)
        return false;                  /* integer coordinates with gradients: not supported yet */
    /* d or d|p */
    const isa_operand_t *d = &ops[0];
    t->p = ISA_NONE;
    if (d->kind == ISA_OPD_DUAL) {
        const isa_operand_t *pp = &fn->opds[d->u.first + 1];
        unsigned pw;
        if (pp->kind != ISA_OPD_REG || (t->p = ex_reg_operand(f, pp, &pw)) == ISA_NONE || pw != 0)
            return false;
        d = &fn->opds[d->u.first];
    }
    uint8_t rw[4];
    unsigned nd = t->half == HALF_F16X2 ? 2 : 4;
    if ((t->nd = (uint8_t)dst_vec(f, d, t->half == HALF_F16 ? 2 : 4, t->d, rw, 4)) != nd)
        return false;
    const isa_operand_t *c;
    if (!addr_parts(pd, f, &ops[1], t, &c, ISA_D_TEXREF) || !c)
        return false;
    unsigned want = g == TG_1D ? 1 : g == TG_2D || g == TG_A1D ? 2 : 4;
    unsigned n = src_vec(pd, f, c, 4, t->c, 4);
    if (n < want && !(n >= 3 && (g == TG_3D || g == TG_CUBE)))
        return false;
    unsigned i = 2;
    if (t->mode == TM_LEVEL) {
        if (i >= in->nopd || (t->lod = src(pd, f, &ops[i], 4)) == ISA_NONE)
            return false;
        i++;
    } else if (t->mode == TM_GRAD) {
        unsigned gd = geo_dims((unsigned)g);
        if (g == TG_CUBE || g == TG_ACUBE)
            gd = 3;
        if (i + 1 >= in->nopd || src_vec(pd, f, &ops[i], 4, t->gx, 4) < gd || src_vec(pd, f, &ops[i + 1], 4, t->gy, 4) < gd)
            return false;
        i += 2;
    }
    if (i < in->nopd && ops[i].kind == ISA_OPD_VEC) {
        if (g == TG_CUBE || g == TG_ACUBE)
            return false;
        unsigned ne = geo_dims((unsigned)g);
        if (src_vec(pd, f, &ops[i], 4, t->e, 4) < ne)
            return false;
        t->ne = (uint8_t)ne;
        i++;
    }
    /* A depth-compare operand f: CUDA's samplers have no compare mode, and the H100 then
     * ignores it (measured: every result equals the fetch without it, golden tex_depth). */
    if (i < in->nopd && ops[i].kind != ISA_OPD_VEC && src(pd, f, &ops[i], 4) != ISA_NONE)
        i++;
    return i == in->nopd;
}

static bool select_surf(void *pd, ex_func_t *f, const isa_instr_t *in, ex_txi_t *t)
{
    const isa_func_t *fn = f->ir;
    const isa_operand_t *ops = &fn->opds[in->opd];
    int g = geom_of(in);
    if (g < 0 || g == TG_CUBE || g == TG_ACUBE || in->ntypes != 1 || in->nopd != 2)
        return false;
    int md = isa_instr_mod(in, ISA_G_MODE);
    t->formatted = md == ISA_M_P;
    if (md != ISA_M_B && !(t->formatted && in->op != ISA_OP_SULD))
        return false;                  /* suld.p: refused by the frontend, as ptxas 13 refuses it */
    if (t->formatted && in->op == ISA_OP_SUST && in->types[0] != ISA_T_B32)
        return false;
    t->geom = (uint8_t)g;
    int oob = isa_instr_mod(in, ISA_G_OOB);
    t->oob = oob == ISA_M_CLAMP ? OOB_CLAMP : oob == ISA_M_ZERO ? OOB_ZERO : OOB_TRAP;
    isa_type_t ty = in->types[0];
    t->dbytes = (uint8_t)(isa_types[ty].bits / 8);
    int vm = isa_instr_mod(in, ISA_G_VEC);
    unsigned vec = vm == ISA_M_V2 ? 2 : vm == ISA_M_V4 ? 4 : 1;
    bool load = in->op == ISA_OP_SULD;
    const isa_operand_t *a = load ? &ops[1] : &ops[0], *data = load ? &ops[0] : &ops[1], *c;
    if (!addr_parts(pd, f, a, t, &c, ISA_D_SURFREF) || !c)
        return false;
    unsigned want = g == TG_1D ? 1 : g == TG_2D || g == TG_A1D ? 2 : 4;
    unsigned n = src_vec(pd, f, c, 4, t->c, 4);
    if (n < want && !(n == 3 && g == TG_3D))
        return false;
    if (load) {
        if (dst_vec(f, data, 0, t->d, t->rw, 4) != vec)
            return false;
    } else {
        const isa_operand_t *e = data;
        unsigned cnt = 1;
        if (data->kind == ISA_OPD_VEC) {
            e = &fn->opds[data->u.first];
            cnt = data->count;
        }
        if (cnt != vec)
            return false;
        for (unsigned k = 0; k < cnt; k++) {
            unsigned rw = e[k].kind == ISA_OPD_REG ? ex_reg_width(f, &e[k]) : t->dbytes < 4 ? 4 : t->dbytes;
            if (rw == 0 || rw > 8 || (t->d[k] = ex_pd_operand(pd, &e[k], rw)) == ISA_NONE)
                return false;
            t->rw[k] = (uint8_t)rw;
        }
    }
    for (unsigned k = 0; k < vec; k++)
        if (t->rw[k] < t->dbytes && !(t->rw[k] == 4 && t->dbytes <= 4))
            return false;
    t->nd = (uint8_t)vec;
    if (in->op == ISA_OP_SURED) {
        t->atomop = (uint16_t)isa_instr_mod(in, ISA_G_ATOMOP);
        if (t->atomop == ISA_M_AND || t->atomop == ISA_M_OR)
            t->atype = t->dbytes == 4 ? ISA_T_B32 : ISA_T_B64;
        else
            t->atype = ty == ISA_T_B32 ? ISA_T_U32 : ty == ISA_T_B64 ? ISA_T_U64 : ty;
        /* sured.p: .b32 for every operation, .b64 for min and max (as ptxas accepts them) */
        if (t->formatted && ty != ISA_T_B32 &&
            !(ty == ISA_T_B64 && (t->atomop == ISA_M_MIN || t->atomop == ISA_M_MAX)))
            return false;
        if (vec != 1 || (t->dbytes != 4 && t->dbytes != 8) || !isa_sem_atom(t->atomop, t->atype, true) ||
            (t->formatted && (t->atomop == ISA_M_MIN || t->atomop == ISA_M_MAX) &&
             !isa_sem_atom(t->atomop, t->dbytes == 4 ? ISA_T_S32 : ISA_T_S64, true)))
            return false;
    }
    return true;
}

static bool select_query(void *pd, ex_func_t *f, const isa_instr_t *in, ex_txi_t *t)
{
    const isa_func_t *fn = f->ir;
    const isa_operand_t *ops = &fn->opds[in->opd];
    int q = isa_instr_mod(in, ISA_G_QUERY);
    /* Only the dimensions: the GPU's driver refuses every other query (check_func says why). */
    if ((q != ISA_M_WIDTH && q != ISA_M_HEIGHT && q != ISA_M_DEPTH) || ex_tex_refusal(f->mod, fn, in, NULL))
        return false;
    t->query = (uint16_t)q;
    t->mode = isa_instr_mod(in, ISA_G_MODE) == ISA_M_LEVEL ? TM_LEVEL : TM_NONE;
    uint8_t rw[4];
    const isa_operand_t *c;
    if (in->nopd < 2 || dst_vec(f, &ops[0], 4, t->d, rw, 1) != 1 || t->d[0] == ISA_NONE ||
        !addr_parts(pd, f, &ops[1], t, &c, in->op == ISA_OP_SUQ ? ISA_D_SURFREF : ISA_D_TEXREF) || c)
        return false;
    if (t->mode == TM_LEVEL)
        return in->nopd == 3 && (t->lod = src(pd, f, &ops[2], 4)) != ISA_NONE;
    return in->nopd == 2;
}

static bool select_istypep(void *pd, ex_func_t *f, const isa_instr_t *in, ex_txi_t *t)
{
    const isa_func_t *fn = f->ir;
    const isa_operand_t *ops = &fn->opds[in->opd];
    int m = isa_instr_mod(in, ISA_G_MODE);
    if (m != ISA_M_TEXREF && m != ISA_M_SURFREF)
        return false;                  /* samplerref: not supported yet */
    t->query = (uint16_t)m;
    unsigned pw;
    if (in->nopd != 2 || ops[0].kind != ISA_OPD_REG || (t->p = ex_reg_operand(f, &ops[0], &pw)) == ISA_NONE ||
        pw != 0 || ops[1].kind != ISA_OPD_REG || (t->h = src(pd, f, &ops[1], 8)) == ISA_NONE)
        return false;
    return true;
}

/* Whether operand o names a module variable of opaque kind want (ISA_D_TEXREF ...). */
static bool names_ref(const isa_module_t *m, const isa_operand_t *o, unsigned want)
{
    return (o->kind == ISA_OPD_SYM || (o->kind == ISA_OPD_ADDR && o->base == ISA_OPD_SYM)) &&
           (o->flags & ISA_OPDF_MODSYM) && o->u.sym < m->nvar && m->vars[o->u.sym].opaque == want + 1;
}

const char *ex_tex_refusal(const isa_module_t *m, const isa_func_t *fn, const isa_instr_t *in, ex_refusal_t *kind)
{
    static const char sampler[] = "the CUDA driver refuses a module whose instructions read sampler state "
                                  "through a reference (its kernels are not found: CUDA_ERROR_NOT_FOUND; "
                                  "measured on an H200, driver 580)";
    static const char tquery[] = "the CUDA driver refuses txq of anything but width, height and depth, of "
                                 "texture objects and references alike (the module's kernels are not found: "
                                 "CUDA_ERROR_NOT_FOUND; measured on an H200, driver 580, from PTX and from SASS)";
    static const char squery[] = "the CUDA driver refuses suq of anything but width, height and depth, of "
                                 "surface objects and references alike (the module does not load: "
                                 "CUDA_ERROR_NOT_SUPPORTED; measured on an H200, driver 580, from PTX and from "
                                 "SASS)";
    static const char coord[] = "one coordinate where the geometry takes a vector: ptxas takes it and reads the "
                                "registers it happens to allocate after it for the others (their values are "
                                "undefined; measured in the SASS of CUDA 13); give every coordinate";
    ex_refusal_t k = EX_REFUSAL_NONE;
    const char *why = NULL;
    if (isa_ops[in->op].family == ISA_FAM_TEX && in->nopd >= 2) {
        const isa_operand_t *a = &fn->opds[in->opd + 1];
        int q = isa_instr_mod(in, ISA_G_QUERY);
        bool dim = q == ISA_M_WIDTH || q == ISA_M_HEIGHT || q == ISA_M_DEPTH;
        if (((in->op == ISA_OP_TEX || in->op == ISA_OP_TLD4) && a->kind == ISA_OPD_ADDR &&
             (a->flags & ISA_OPDF_ADDRLIST) && a->count == 3 &&
             names_ref(m, &fn->opds[a->u.first + 1], ISA_D_SAMPLERREF)) ||
            (in->op == ISA_OP_TXQ && names_ref(m, a, ISA_D_SAMPLERREF))) {
            k = EX_REFUSAL_NOT_FOUND;
            why = sampler;
        } else if (in->op == ISA_OP_TXQ && !dim) {
            k = EX_REFUSAL_NOT_FOUND;
            why = tquery;
        } else if (in->op == ISA_OP_SUQ && !dim) {
            k = EX_REFUSAL_NOT_SUPPORTED;
            why = squery;
        } else if ((in->op == ISA_OP_TEX || in->op == ISA_OP_TLD4) && a->kind == ISA_OPD_ADDR &&
                   (a->flags & ISA_OPDF_ADDRLIST) && a->count >= 2 &&
                   fn->opds[a->u.first + a->count - 1].kind != ISA_OPD_VEC && isa_instr_mod(in, ISA_G_GEOM) >= 0 &&
                   isa_instr_mod(in, ISA_G_GEOM) != ISA_M_GEOM_1D) {
            why = coord;                 /* the GPU runs it: no refusal of the driver's */
        }
    }
    if (kind)
        *kind = k;
    return why;
}

bool ex_select_tex(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    if (isa_ops[in->op].family != ISA_FAM_TEX)
        return false;
    ex_txi_t *t = calloc(1, sizeof *t);
    if (!t)
        return false;
    for (unsigned k = 0; k < 4; k++)
        t->d[k] = t->c[k] = t->gx[k] = t->gy[k] = t->e[k] = ISA_NONE;
    t->p = t->h = t->lod = ISA_NONE;
    bool ok;
    const isa_xdesc_t *desc;
    switch ((isa_op_t)in->op) {
    case ISA_OP_TEX:
    case ISA_OP_TLD4:
        ok = select_tex(pd, f, in, t);
        desc = tex_d;
        break;
    case ISA_OP_SULD:
    case ISA_OP_SUST:
    case ISA_OP_SURED:
        ok = select_surf(pd, f, in, t);
        desc = surf_d;
        break;
    case ISA_OP_TXQ:
    case ISA_OP_SUQ:
        ok = select_query(pd, f, in, t);
        desc = query_d;
        break;
    case ISA_OP_ISTYPEP:
        ok = select_istypep(pd, f, in, t);
        desc = istypep_d;
        break;
    default:
        ok = false;
        desc = NULL;
        break;
    }
    if (!ok) {
        free(t);
        return false;
    }
    x->aux = (uint64_t)(uintptr_t)t;
    x->desc = desc;
    return true;
}

void ex_tex_insn_free(ex_insn_t *x)
{
    if (x->desc == tex_d || x->desc == surf_d || x->desc == query_d || x->desc == istypep_d) {
        free((void *)(uintptr_t)x->aux);
        x->aux = 0;
    }
}
/*}=====================================================================*/
