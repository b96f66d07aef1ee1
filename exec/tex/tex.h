/* tex.h: the texture unit's internals shared by exec/tex/: arrays, texture and surface
 * objects as the handle table holds them, and the sampling functions. */
#ifndef PTXEMU_EX_TEX_H
#define PTXEMU_EX_TEX_H

#include "exec/internal.h"

#define EX_TEX_MAX_LEVELS 16

struct ex_array {
    ex_array_desc_t desc;
    atomic_uint     refs;          /* the creator's and each object's */
    uint8_t        *data;          /* every level, level 0 first */
    size_t          bytes;
    size_t          level_off[EX_TEX_MAX_LEVELS];
    uint32_t        extent[EX_TEX_MAX_LEVELS][3];
};

/* One level of a resource as the sampler reads it: z is the depth of a 3D resource or
 * the layer of a layered one (a cube map's faces are layers). */
typedef struct {
    uint8_t *base;
    uint32_t w, h, d;
    uint64_t row, slice;           /* bytes */
} ex_level_t;

/* Geometry of a resource, as tex/suld check it against the instruction. */
enum { EX_GEO_LINEAR, EX_GEO_1D, EX_GEO_2D, EX_GEO_3D };

/* An object of the handle table. */
typedef struct ex_texobj {
    uint64_t        handle;
    bool            surface;
    ex_res_desc_t   res;
    ex_tex_desc_t   tex;           /* textures */
    ex_array_t     *array;         /* referenced, or NULL */
    uint8_t         geo;           /* EX_GEO_* */
    bool            layered, cube;
    ex_fmt_t        fmt;
    uint8_t         ch, tb;        /* channels, bytes per texel */
    bool            as_float;      /* texels are returned as floats (f16, f32, or normalized reads) */
    bool            norm;          /* the sampler takes normalized coordinates: the texture's flag, or
                                    * a cube map (its face coordinates always are, measured) */
    uint32_t        nlevels;
    uint32_t        layers;        /* layers of a layered resource (a cube map's: 6 per cube) */
    ex_level_t      lv[EX_TEX_MAX_LEVELS];
    struct ex_texobj *next;        /* on the retired list */
} ex_texobj_t;

/* The handle table: 2^EX_TEX_CHUNK_BITS chunks of 1024 slots, made as needed. */
#define EX_TEX_CHUNK_BITS 8
#define EX_TEX_CHUNK      1024u
typedef struct ex_textab {
    pthread_mutex_t       lock;
    _Atomic(_Atomic(ex_texobj_t *) *) chunk[1u << EX_TEX_CHUNK_BITS];
    uint32_t              used;    /* slots handed out so far */
    uint32_t             *free;    /* slots released, reused first */
    uint32_t              nfree, capfree;
    uint32_t             *gen;     /* per slot: the generation of its next handle */
    uint32_t              capgen;
    _Atomic(ex_texobj_t *) retired;/* destroyed objects, freed when no launch runs */
} ex_textab_t;

/* The object named by handle h, or NULL (a launch in progress holds what it finds). */
static inline const ex_texobj_t *ex_tex_lookup(ex_device_t *d, uint64_t h);

/* The device's table: made with the device, freed with it (every object with it). */
bool ex_textab_new(ex_device_t *d);
void ex_textab_free(ex_device_t *d);
/* Free the destroyed objects once no launch can hold one (device.c calls it when the last
 * launch ends). */
void ex_textab_reclaim(ex_device_t *d);

/* Selection of tex, tld4, txq, suld, sust, sured, suq and istypep (texinsn.c). */
bool ex_select_tex(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x);
/* Why the GPU's driver refuses instruction in (a texture instruction reading sampler
 * state through a reference; txq or suq of anything but width, height and depth), or
 * NULL; *kind (may be NULL) says how (exec.h's ex_refusal_t). */
const char *ex_tex_refusal(const isa_module_t *m, const isa_func_t *fn, const isa_instr_t *in, ex_refusal_t *kind);
void ex_tex_insn_free(ex_insn_t *x);

/*{=====================================================================
 * Sampling (sample.c): pure functions of an object and coordinates, kept apart from
 * the warp so that the unit tests call them directly.
 *====================================================================*/
/* A fetched, filtered value: four 32-bit results (floats or integers, as the object's
 * as_float says). */
typedef union { float f[4]; uint32_t u[4]; int32_t i[4]; } ex_texel_t;

/* Texel index i of a level of n texels under address mode m; -1 for a border texel. */
int64_t ex_tex_wrap_index(int64_t i, uint32_t n, ex_addr_t m);
/* The fixed-point coordinate of an (unnormalized) texel-space coordinate u: u * 256
 * rounded as the texture unit rounds it, in 64 bits (saturating). */
int64_t ex_tex_fixed(float u);
/* The same rounded to nearest, halves up: the weights of linear filtering. */
int64_t ex_tex_fixed_round(float u);
/* Texel (x, y, z) of level lv, decoded; a border texel (any index -1) gives the border
 * colour. */
void    ex_tex_texel(const ex_texobj_t *o, const ex_level_t *lv, int64_t x, int64_t y, int64_t z, ex_texel_t *out);
/* A filtered fetch at coordinates c (normalized or not as the object says; z is a
 * layer index for layered resources, given separately) from level lv. */
void    ex_tex_sample_level(const ex_texobj_t *o, unsigned level, unsigned dims, const float *c, int64_t layer,
                            bool linear, const int32_t *off, ex_texel_t *out);
/* The same at level 0 for the lanes of mask, warp-wide, with no layer and no offsets:
 * coordinate k of lane l is c[k][l] (f32 bits), channel k of the result goes to d[k][l]. */
void    ex_tex_sample_warp(const ex_texobj_t *o, unsigned dims, const uint32_t *const *c, uint32_t mask,
                           uint32_t *const *d);
/* Linear filtering as the H100 does it: the 2^dims corner weights (in 1/256, summing to
 * 256) from the 8-bit fractions w, and one channel's weighted sum of n texels. */
void    ex_tex_weights(unsigned dims, const uint32_t *w, uint32_t *out);
float   ex_tex_combine(const float *v, const uint32_t *wt, unsigned n, int prec);
/* The same over `levels` groups of n / levels texels (the two mipmap levels of linear mip
 * filtering), each cut by its own largest texel (at most 2 groups of 8). */
float   ex_tex_combine_levels(const float *v, const uint32_t *wt, unsigned n, unsigned levels, int prec);
/* A fetch with linear mip filtering between levels l0 and l0 + 1, the second weighted
 * f / 256 (f = 0: level l0 alone). */
void    ex_tex_sample_mip(const ex_texobj_t *o, unsigned l0, uint32_t f, unsigned dims, const float *c, int64_t layer,
                          bool linear, const int32_t *off, ex_texel_t *out);
/* tld4: the four texels of the bilinear footprint at c (2D, level 0), counter-clockwise
 * from the lower left. */
void    ex_tex_gather(const ex_texobj_t *o, const float *c, int64_t layer, const int32_t *off, ex_texel_t out[4]);
/* Cube map direction (x, y, z) to face and face coordinates in [0, 1]. */
unsigned ex_tex_cube_face(float x, float y, float z, float *out_s, float *out_t);
/*}=====================================================================*/

static inline const ex_texobj_t *ex_tex_lookup(ex_device_t *d, uint64_t h)
{
    ex_textab_t *t = d->tex;
    uint32_t idx = (uint32_t)h;
    if (!t || idx == 0)
        return NULL;
    idx--;
    uint32_t c = idx / EX_TEX_CHUNK;
    if (c >= (1u << EX_TEX_CHUNK_BITS))
        return NULL;
    _Atomic(ex_texobj_t *) *ch = atomic_load_explicit(&t->chunk[c], memory_order_acquire);
    if (!ch)
        return NULL;
    const ex_texobj_t *o = atomic_load_explicit(&ch[idx % EX_TEX_CHUNK], memory_order_acquire);
    return o && o->handle == h ? o : NULL;
}

#endif
