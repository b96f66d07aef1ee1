/* array.c: CUDA arrays, mipmapped arrays, texture and surface objects on the emulator: the
 * driver checks what the driver API documents, then makes them with the texture unit
 * (exec/tex) in the device's handle table, where kernels' tex and suld find them. */
#include <stdlib.h>
#include <string.h>

#include "runtime/driver/drv.h"

/* Handle tags of arrays and mipmapped arrays (the first word, as drv.h's). */
enum { DRV_ARRAY = 0x41525231, DRV_MIPMAP = 0x4d4d4131 };

#define MAX_LEVELS 16   /* the texture unit's (EX_TEX_MAX_LEVELS) */

/* An array, or one level of a mipmapped array (mm set): its texels are level `level` of ex. */
typedef struct drv_array {
    uint32_t                tag;
    drv_ctx_t              *ctx;
    ex_array_t             *ex;
    struct drv_mipmap      *mm;
    unsigned                level;
    CUDA_ARRAY3D_DESCRIPTOR desc;     /* what cuArray3DGetDescriptor answers */
    size_t                  bytes;    /* device memory it counts for (0 for a level) */
} drv_array_t;

typedef struct drv_mipmap {
    uint32_t                tag;
    drv_ctx_t              *ctx;
    ex_array_t             *ex;
    CUDA_ARRAY3D_DESCRIPTOR desc;     /* level 0 */
    unsigned                levels;
    drv_array_t            *level[MAX_LEVELS];   /* made by cuMipmappedArrayGetLevel */
    size_t                  bytes;
} drv_mipmap_t;

/* A texture or surface object as it was made: what the Get*Desc functions answer. */
typedef struct {
    uint64_t                handle;
    bool                    surface;
    bool                    has_view;
    drv_ctx_t              *ctx;
    CUDA_RESOURCE_DESC      res;
    CUDA_TEXTURE_DESC       tex;
    CUDA_RESOURCE_VIEW_DESC view;
} obj_t;

/* What lives, so that a handle is checked before it is used: arrays (levels included),
 * mipmapped arrays, objects.  Guarded by lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct { void **v; size_t n, cap; } arrays, mipmaps;
static struct { obj_t *v; size_t n, cap; } objs;

static bool list_add(void ***v, size_t *n, size_t *cap, void *p)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 32;
        void **nv = realloc(*v, c * sizeof *nv);
        if (!nv)
            return false;
        *v = nv;
        *cap = c;
    }
    (*v)[(*n)++] = p;
    return true;
}

static bool list_del(void **v, size_t *n, const void *p)
{
    for (size_t i = 0; i < *n; i++)
        if (v[i] == p) {
            v[i] = v[--*n];
            return true;
        }
    return false;
}

static bool list_has(void **v, size_t n, const void *p)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == p)
            return true;
    return false;
}

static drv_array_t *array_of(CUarray a)
{
    pthread_mutex_lock(&lock);
    bool ok = a && list_has(arrays.v, arrays.n, a);
    pthread_mutex_unlock(&lock);
    return ok ? a : NULL;
}

static drv_mipmap_t *mipmap_of(CUmipmappedArray m)
{
    pthread_mutex_lock(&lock);
    bool ok = m && list_has(mipmaps.v, mipmaps.n, m);
    pthread_mutex_unlock(&lock);
    return ok ? m : NULL;
}

static int attr(int which)
{
    int v = 0;
    cuDeviceGetAttribute(&v, which, 0);
    return v;
}

/*{=====================================================================
 * Formats and descriptors
 *====================================================================*/

/* The texture unit's format of CUarray_format f: true, or false with *known saying whether
 * f is a format of the driver API at all (one the emulator does not have yet). */
static bool format_of(int f, ex_fmt_t *out, bool *known)
{
    static const struct { int cu; ex_fmt_t ex; } map[] = {
        { CU_AD_FORMAT_UNSIGNED_INT8, EX_FMT_U8 },  { CU_AD_FORMAT_UNSIGNED_INT16, EX_FMT_U16 },
        { CU_AD_FORMAT_UNSIGNED_INT32, EX_FMT_U32 }, { CU_AD_FORMAT_SIGNED_INT8, EX_FMT_S8 },
        { CU_AD_FORMAT_SIGNED_INT16, EX_FMT_S16 },  { CU_AD_FORMAT_SIGNED_INT32, EX_FMT_S32 },
        { CU_AD_FORMAT_HALF, EX_FMT_F16 },          { CU_AD_FORMAT_FLOAT, EX_FMT_F32 },
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (map[i].cu == f) {
            *out = map[i].ex;
            *known = true;
            return true;
        }
    /* NV12 and the YUV formats, the normalized-integer formats with their channels in the
     * name, BC1..BC7, R10G10B10A2 (CUarray_format's other values) */
    *known = f == 0x50 || (f >= 0x91 && f <= 0x9f) || (f >= 0xa1 && f <= 0xa9) || (f >= 0xb0 && f <= 0xb5) ||
             (f >= 0xc0 && f <= 0xcb);
    return false;
}

static CUresult check_format(const char *fn, int format, unsigned channels, ex_fmt_t *out)
{
    bool known;
    if (!format_of(format, out, &known))
        return known ? drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "the array format 0x%x (a video, block-compressed "
                                "or packed normalized format) is not supported yet", (unsigned)format)
                     : drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "0x%x is no CUarray_format", (unsigned)format);
    if (channels != 1 && channels != 2 && channels != 4)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "an element has 1, 2 or 4 channels, not %u", channels);
    return CUDA_SUCCESS;
}

/* Device attributes of the size limits (CUdevice_attribute's numbers). */
enum {
    A_TEX1D_W = 21, A_TEX2D_W = 22, A_TEX2D_H = 23, A_TEX3D_W = 24, A_TEX3D_H = 25, A_TEX3D_D = 26,
    A_TEX2DL_W = 27, A_TEX2DL_H = 28, A_TEX2DL_L = 29, A_TEX1DL_W = 42, A_TEX1DL_L = 43, A_GATHER_W = 45,
    A_GATHER_H = 46, A_TEX3D_W_ALT = 47, A_TEX3D_H_ALT = 48, A_TEX3D_D_ALT = 49, A_CUBE_W = 52, A_CUBEL_W = 53,
    A_CUBEL_L = 54, A_SURF1D_W = 55, A_SURF2D_W = 56, A_SURF2D_H = 57, A_SURF3D_W = 58, A_SURF3D_H = 59,
    A_SURF3D_D = 60, A_SURF1DL_W = 61, A_SURF1DL_L = 62, A_SURF2DL_W = 63, A_SURF2DL_H = 64, A_SURF2DL_L = 65,
    A_SURFCUBE_W = 66, A_SURFCUBEL_W = 67, A_SURFCUBEL_L = 68, A_TEX1D_LIN_W = 69, A_TEX2D_LIN_W = 70,
    A_TEX2D_LIN_H = 71, A_TEX2D_LIN_PITCH = 72, A_TEX2DMIP_W = 73, A_TEX2DMIP_H = 74, A_TEX1DMIP_W = 77,
    A_TEX_ALIGN = 14, A_TEX_PITCH_ALIGN = 51
};

/* Whether (w, h, d) is within the attributes' limits (0: that extent is 0, unchecked). */
static bool within(size_t w, size_t h, size_t d, int aw, int ah, int ad)
{
    return w <= (size_t)attr(aw) && (!ah || h <= (size_t)attr(ah)) && (!ad || d <= (size_t)attr(ad));
}

/* Check a CUDA_ARRAY3D_DESCRIPTOR as cuArray3DCreate and cuMipmappedArrayCreate document
 * it (the kinds of array, the flags, the size table) and translate it. */
static CUresult check_desc(const char *fn, const CUDA_ARRAY3D_DESCRIPTOR *q, bool mipmapped, ex_array_desc_t *out)
{
    CUresult r = check_format(fn, q->Format, q->NumChannels, &out->format);
    if (r)
        return r;
    unsigned f = q->Flags;
    static const struct { unsigned flag; const char *name; } later[] = {
        { CUDA_ARRAY3D_DEPTH_TEXTURE, "CUDA_ARRAY3D_DEPTH_TEXTURE" },
        { CUDA_ARRAY3D_COLOR_ATTACHMENT, "CUDA_ARRAY3D_COLOR_ATTACHMENT" },
        { CUDA_ARRAY3D_SPARSE, "CUDA_ARRAY3D_SPARSE (sparse arrays)" },
        { CUDA_ARRAY3D_DEFERRED_MAPPING, "CUDA_ARRAY3D_DEFERRED_MAPPING (virtual memory management)" },
        { CUDA_ARRAY3D_VIDEO_ENCODE_DECODE, "CUDA_ARRAY3D_VIDEO_ENCODE_DECODE" },
    };
    if (f & ~0x1ffu)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "unknown array flags 0x%x", f & ~0x1ffu);
    for (size_t i = 0; i < sizeof later / sizeof *later; i++)
        if (f & later[i].flag)
            return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "arrays with %s are not supported yet", later[i].name);
    size_t w = q->Width, h = q->Height, d = q->Depth;
    bool layered = f & CUDA_ARRAY3D_LAYERED, cube = f & CUDA_ARRAY3D_CUBEMAP, surf = f & CUDA_ARRAY3D_SURFACE_LDST;
    bool gather = f & CUDA_ARRAY3D_TEXTURE_GATHER;
    if (w == 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "an array needs a width");
    if (h == 0 && d != 0 && !layered)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "an array with a depth needs a height (or "
                        "CUDA_ARRAY3D_LAYERED for a 1D layered array)");
    if (layered && d == 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a layered array needs its number of layers (Depth)");
    if (cube && (w != h || (layered ? d == 0 || d % 6 : d != 6)))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a cube map is square (Width == Height) with Depth 6 "
                        "(a multiple of 6 when layered), not %zu x %zu x %zu", w, h, d);
    if (gather && (h == 0 || d != 0 || layered || cube))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "CUDA_ARRAY3D_TEXTURE_GATHER is for 2D arrays only");
    bool ok;
    if (cube)
        ok = layered ? within(w, h, d, A_CUBEL_W, A_CUBEL_W, A_CUBEL_L) &&
                           (!surf || within(w, h, d, A_SURFCUBEL_W, A_SURFCUBEL_W, A_SURFCUBEL_L))
                     : within(w, h, 0, A_CUBE_W, A_CUBE_W, 0) && (!surf || within(w, h, 0, A_SURFCUBE_W, A_SURFCUBE_W, 0));
    else if (layered && h == 0)
        ok = within(w, 0, d, A_TEX1DL_W, 0, A_TEX1DL_L) && (!surf || within(w, 0, d, A_SURF1DL_W, 0, A_SURF1DL_L));
    else if (layered)
        ok = within(w, h, d, A_TEX2DL_W, A_TEX2DL_H, A_TEX2DL_L) &&
             (!surf || within(w, h, d, A_SURF2DL_W, A_SURF2DL_H, A_SURF2DL_L));
    else if (h == 0)
        ok = within(w, 0, 0, mipmapped ? A_TEX1DMIP_W : A_TEX1D_W, 0, 0) && (!surf || within(w, 0, 0, A_SURF1D_W, 0, 0));
    else if (d == 0)
        ok = (gather ? within(w, h, 0, A_GATHER_W, A_GATHER_H, 0)
                     : within(w, h, 0, mipmapped ? A_TEX2DMIP_W : A_TEX2D_W, mipmapped ? A_TEX2DMIP_H : A_TEX2D_H, 0)) &&
             (!surf || within(w, h, 0, A_SURF2D_W, A_SURF2D_H, 0));
    else
        ok = (within(w, h, d, A_TEX3D_W, A_TEX3D_H, A_TEX3D_D) ||
              within(w, h, d, A_TEX3D_W_ALT, A_TEX3D_H_ALT, A_TEX3D_D_ALT)) &&
             (!surf || within(w, h, d, A_SURF3D_W, A_SURF3D_H, A_SURF3D_D));
    if (!ok)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%zu x %zu x %zu is beyond the device's limits for such "
                        "an array (CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE*%s)", w, h, d, surf ? " and _SURFACE*" : "");
    out->width = (uint32_t)w;
    out->height = (uint32_t)h;
    out->depth = (uint32_t)d;
    out->channels = q->NumChannels;
    out->flags = (layered ? EX_ARRAY_LAYERED : 0) | (surf ? EX_ARRAY_SURFACE : 0) | (cube ? EX_ARRAY_CUBE : 0);
    out->levels = 1;
    return CUDA_SUCCESS;
}

/* The levels a mipmapped array of q can have: 1 + floor(log2) of its largest extent (a
 * layered array's layers are no extent). */
static unsigned max_levels(const ex_array_desc_t *q)
{
    uint32_t big = q->width > q->height ? q->width : q->height;
    if (!(q->flags & (EX_ARRAY_LAYERED | EX_ARRAY_CUBE)) && q->depth > big)
        big = q->depth;
    unsigned n = 1;
    while ((big >> n) != 0)
        n++;
    return n;
}

/* The descriptor of level l of an array described by q. */
static CUDA_ARRAY3D_DESCRIPTOR level_desc(const CUDA_ARRAY3D_DESCRIPTOR *q, unsigned l)
{
    CUDA_ARRAY3D_DESCRIPTOR o = *q;
    bool layered = q->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    o.Width = q->Width >> l ? q->Width >> l : 1;
    o.Height = q->Height ? (q->Height >> l ? q->Height >> l : 1) : 0;
    o.Depth = q->Depth && !layered ? (q->Depth >> l ? q->Depth >> l : 1) : q->Depth;
    return o;
}

/* Device memory an array of q with `levels` levels takes: each level's texels, rounded to
 * the texture alignment (the H100's own layout is not known). */
static size_t array_bytes(const CUDA_ARRAY3D_DESCRIPTOR *q, unsigned levels, unsigned elem)
{
    size_t total = 0;
    for (unsigned l = 0; l < levels; l++) {
        CUDA_ARRAY3D_DESCRIPTOR o = level_desc(q, l);
        size_t n = o.Width * elem * (o.Height ? o.Height : 1) * (o.Depth ? o.Depth : 1);
        total += (n + 511) & ~(size_t)511;
    }
    return total;
}

/* Make the texels of an array (levels > 1: a mipmapped one) of q: the device memory counted,
 * the texture unit's array. */
static CUresult make(const char *fn, const CUDA_ARRAY3D_DESCRIPTOR *q, unsigned levels, ex_array_t **out,
                     size_t *out_bytes)
{
    ex_array_desc_t ed;
    CUresult r = check_desc(fn, q, levels > 1, &ed);
    if (r)
        return r;
    unsigned top = max_levels(&ed);
    ed.levels = levels == 0 ? 1 : levels > top ? top : levels;   /* clamped, as documented */
    if ((r = drv_capture_unsafe("an array allocation")))
        return r;
    size_t bytes = array_bytes(q, ed.levels, ex_fmt_bytes(ed.format) * ed.channels);
    if ((r = drv_mem_reserve(bytes)))
        return drv_fail(r, fn, "%zu bytes for the array are more than the device has free", bytes);
    char msg[160] = "";
    isa_status_t st = ex_array_new(drv.dev, &ed, out, msg, sizeof msg);
    if (st != ISA_ST_OK) {
        drv_mem_unreserve(bytes);
        return st == ISA_ST_NOMEM ? drv_fail(CUDA_ERROR_OUT_OF_MEMORY, fn, "no host memory for the array's texels")
                                  : drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%s", msg);
    }
    *out_bytes = bytes;
    return CUDA_SUCCESS;
}
/*}=====================================================================*/

/*{=====================================================================
 * Arrays
 *====================================================================*/

static CUresult array_new(const char *fn, CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *q)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out || !q)
        return CUDA_ERROR_INVALID_VALUE;
    drv_array_t *a = calloc(1, sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if ((r = make(fn, q, 1, &a->ex, &a->bytes))) {
        free(a);
        return r;
    }
    a->tag = DRV_ARRAY;
    a->ctx = drv_current();
    a->desc = *q;
    pthread_mutex_lock(&lock);
    bool ok = list_add(&arrays.v, &arrays.n, &arrays.cap, a);
    pthread_mutex_unlock(&lock);
    if (!ok) {
        ex_array_free(a->ex);
        drv_mem_unreserve(a->bytes);
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = a;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArray3DCreate_v2(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *q) { return array_new(__func__, out, q); }

DRV_API CUresult cuArrayCreate_v2(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *q)
{
    CUresult r = drv_enter(NULL);
    if (r || !q)
        return r ? r : CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d = { q->Width, q->Height, 0, q->Format, q->NumChannels, 0 };
    return array_new(__func__, out, &d);
}

/* The live array a names, after the checks every array call starts with. */
static CUresult enter_array(const char *fn, CUarray h, drv_array_t **out)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!(*out = array_of(h)))
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, fn, "%p names no CUDA array", (void *)h);
    return CUDA_SUCCESS;
}

static void array_free(drv_array_t *a)
{
    if (!a->mm) {
        ex_array_free(a->ex);
        drv_mem_unreserve(a->bytes);
    }
    a->tag = 0;
    free(a);
}

DRV_API CUresult cuArrayDestroy(CUarray h)
{
    drv_array_t *a;
    CUresult r = enter_array(__func__, h, &a);
    if (r)
        return r;
    if (a->mm)
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, __func__, "%p is a level of a mipmapped array, destroyed with it "
                        "(cuMipmappedArrayDestroy)", (void *)h);
    pthread_mutex_lock(&lock);
    bool ok = list_del(arrays.v, &arrays.n, a);
    pthread_mutex_unlock(&lock);
    if (!ok)
        return CUDA_ERROR_INVALID_HANDLE;   /* destroyed by another thread meanwhile */
    array_free(a);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *out, CUarray h)
{
    drv_array_t *a;
    CUresult r = enter_array(__func__, h, &a);
    if (r)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    *out = a->desc;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *out, CUarray h)
{
    drv_array_t *a;
    CUresult r = enter_array(__func__, h, &a);
    if (r)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    out->Width = a->desc.Width;
    out->Height = a->desc.Height;
    out->Format = a->desc.Format;
    out->NumChannels = a->desc.NumChannels;
    return CUDA_SUCCESS;
}

/* Sparse arrays, deferred mapping and multi-planar formats are refused at creation, so
 * these answer what the driver API documents for arrays made without them. */
DRV_API CUresult cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *out, CUarray h)
{
    drv_array_t *a;
    CUresult r = enter_array(__func__, h, &a);
    if (r)
        return r;
    (void)out;
    return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the array was not made with CUDA_ARRAY3D_SPARSE");
}

DRV_API CUresult cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *out, CUarray h, CUdevice dev)
{
    drv_array_t *a;
    CUresult r = enter_array(__func__, h, &a);
    if (r)
        return r;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    (void)out;
    return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the array was not made with CUDA_ARRAY3D_DEFERRED_MAPPING");
}

DRV_API CUresult cuArrayGetPlane(CUarray *out, CUarray h, unsigned plane)
{
    drv_array_t *a;
    CUresult r = enter_array(__func__, h, &a);
    if (r)
        return r;
    (void)out, (void)plane;
    return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the array has no multi-planar format (such as NV12)");
}

CUresult drv_array_span(CUarray h, const char *fn, drv_array_span_t *out)
{
    drv_array_t *a = array_of(h);
    if (!a)
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, fn, "%p names no CUDA array", (void *)h);
    uint32_t ext[3];
    const ex_array_desc_t *q = ex_array_desc(a->ex);
    out->base = ex_array_level(a->ex, a->level, ext);
    out->elem = ex_fmt_bytes(q->format) * q->channels;
    out->row = (size_t)ext[0] * out->elem;
    out->rows = ext[1];
    out->slices = ext[2];
    return CUDA_SUCCESS;
}
/*}=====================================================================*/

/*{=====================================================================
 * Mipmapped arrays
 *====================================================================*/

DRV_API CUresult cuMipmappedArrayCreate(CUmipmappedArray *out, const CUDA_ARRAY3D_DESCRIPTOR *q, unsigned levels)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out || !q)
        return CUDA_ERROR_INVALID_VALUE;
    drv_mipmap_t *m = calloc(1, sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if ((r = make(__func__, q, levels ? levels : 1, &m->ex, &m->bytes))) {
        free(m);
        return r;
    }
    m->tag = DRV_MIPMAP;
    m->ctx = drv_current();
    m->desc = *q;
    m->levels = ex_array_desc(m->ex)->levels;
    pthread_mutex_lock(&lock);
    bool ok = list_add(&mipmaps.v, &mipmaps.n, &mipmaps.cap, m);
    pthread_mutex_unlock(&lock);
    if (!ok) {
        ex_array_free(m->ex);
        drv_mem_unreserve(m->bytes);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = m;
    return CUDA_SUCCESS;
}

static CUresult enter_mipmap(const char *fn, CUmipmappedArray h, drv_mipmap_t **out)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!(*out = mipmap_of(h)))
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, fn, "%p names no CUDA mipmapped array", (void *)h);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMipmappedArrayGetLevel(CUarray *out, CUmipmappedArray h, unsigned level)
{
    drv_mipmap_t *m;
    CUresult r = enter_mipmap(__func__, h, &m);
    if (r)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (level >= m->levels)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the mipmapped array has %u levels, not level %u",
                        m->levels, level);
    pthread_mutex_lock(&lock);
    drv_array_t *a = m->level[level];
    if (!a && (a = calloc(1, sizeof *a)) != NULL) {
        *a = (drv_array_t){ .tag = DRV_ARRAY, .ctx = m->ctx, .ex = m->ex, .mm = m, .level = level,
                            .desc = level_desc(&m->desc, level) };
        if (list_add(&arrays.v, &arrays.n, &arrays.cap, a)) {
            m->level[level] = a;
        } else {
            free(a);
            a = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *out = a;
    return CUDA_SUCCESS;
}

static void mipmap_free(drv_mipmap_t *m)   /* lock held; m already off the list */
{
    for (unsigned l = 0; l < MAX_LEVELS; l++)
        if (m->level[l]) {
            list_del(arrays.v, &arrays.n, m->level[l]);
            array_free(m->level[l]);
        }
    ex_array_free(m->ex);
    drv_mem_unreserve(m->bytes);
    m->tag = 0;
    free(m);
}

DRV_API CUresult cuMipmappedArrayDestroy(CUmipmappedArray h)
{
    drv_mipmap_t *m;
    CUresult r = enter_mipmap(__func__, h, &m);
    if (r)
        return r;
    pthread_mutex_lock(&lock);
    bool ok = list_del(mipmaps.v, &mipmaps.n, m);
    if (ok)
        mipmap_free(m);
    pthread_mutex_unlock(&lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

DRV_API CUresult cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *out, CUmipmappedArray h)
{
    drv_mipmap_t *m;
    CUresult r = enter_mipmap(__func__, h, &m);
    if (r)
        return r;
    (void)out;
    return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the mipmapped array was not made with CUDA_ARRAY3D_SPARSE");
}

DRV_API CUresult cuMipmappedArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *out, CUmipmappedArray h,
                                                       CUdevice dev)
{
    drv_mipmap_t *m;
    CUresult r = enter_mipmap(__func__, h, &m);
    if (r)
        return r;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    (void)out;
    return drv_fail(CUDA_ERROR_INVALID_VALUE, __func__, "the mipmapped array was not made with "
                    "CUDA_ARRAY3D_DEFERRED_MAPPING");
}
/*}=====================================================================*/

/*{=====================================================================
 * Texture and surface objects
 *====================================================================*/

/* The texture unit's resource for CUDA_RESOURCE_DESC d, checked as cuTexObjectCreate
 * documents it (a surface: an array only). */
static CUresult resource(const char *fn, const CUDA_RESOURCE_DESC *d, bool surface, ex_res_desc_t *out)
{
    memset(out, 0, sizeof *out);
    if (d->flags)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "CUDA_RESOURCE_DESC::flags must be 0");
    if (surface && d->resType != CU_RESOURCE_TYPE_ARRAY)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a surface object's resource is a CUDA array "
                        "(CU_RESOURCE_TYPE_ARRAY), not type %d", d->resType);
    CUresult r;
    switch (d->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        drv_array_t *a = array_of(d->res.array.hArray);
        if (!a)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%p names no CUDA array", (void *)d->res.array.hArray);
        out->kind = EX_RES_ARRAY;
        out->array = a->ex;
        out->level = a->level;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
        drv_mipmap_t *m = mipmap_of(d->res.mipmap.hMipmappedArray);
        if (!m)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%p names no CUDA mipmapped array",
                            (void *)d->res.mipmap.hMipmappedArray);
        out->kind = EX_RES_MIPMAP;
        out->array = m->ex;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_LINEAR: {
        if ((r = check_format(fn, d->res.linear.format, d->res.linear.numChannels, &out->format)))
            return r;
        size_t elem = ex_fmt_bytes(out->format) * d->res.linear.numChannels;
        if (d->res.linear.devPtr % (unsigned)attr(A_TEX_ALIGN))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a linear resource's address must be aligned to "
                            "CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT (%d bytes)", attr(A_TEX_ALIGN));
        if (d->res.linear.sizeInBytes == 0 || d->res.linear.sizeInBytes / elem > (size_t)attr(A_TEX1D_LIN_W))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a linear resource holds 1 to %d elements "
                            "(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH), not %zu bytes of %zu-byte elements",
                            attr(A_TEX1D_LIN_W), d->res.linear.sizeInBytes, elem);
        if (!drv_alloc_find(d->res.linear.devPtr, d->res.linear.sizeInBytes))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a linear resource's %zu bytes at 0x%llx are not all in "
                            "one allocation", d->res.linear.sizeInBytes, (unsigned long long)d->res.linear.devPtr);
        out->kind = EX_RES_LINEAR;
        out->addr = d->res.linear.devPtr;
        out->channels = d->res.linear.numChannels;
        out->bytes = d->res.linear.sizeInBytes;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
        if ((r = check_format(fn, d->res.pitch2D.format, d->res.pitch2D.numChannels, &out->format)))
            return r;
        size_t w = d->res.pitch2D.width, h = d->res.pitch2D.height, pitch = d->res.pitch2D.pitchInBytes;
        if (d->res.pitch2D.devPtr % (unsigned)attr(A_TEX_ALIGN))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a pitched resource's address must be aligned to "
                            "CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT (%d bytes)", attr(A_TEX_ALIGN));
        if (pitch % (unsigned)attr(A_TEX_PITCH_ALIGN) || pitch > (size_t)attr(A_TEX2D_LIN_PITCH))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a pitch (%zu bytes) is a multiple of "
                            "CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT (%d) up to %d bytes", pitch,
                            attr(A_TEX_PITCH_ALIGN), attr(A_TEX2D_LIN_PITCH));
        if (w == 0 || h == 0 || !within(w, h, 0, A_TEX2D_LIN_W, A_TEX2D_LIN_H, 0))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a pitched resource is 1 to %d x 1 to %d elements, "
                            "not %zu x %zu", attr(A_TEX2D_LIN_W), attr(A_TEX2D_LIN_H), w, h);
        if (!drv_alloc_find(d->res.pitch2D.devPtr, pitch * h))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a pitched resource's %zu rows of %zu bytes at 0x%llx are "
                            "not all in one allocation", h, pitch, (unsigned long long)d->res.pitch2D.devPtr);
        out->kind = EX_RES_PITCH2D;
        out->addr = d->res.pitch2D.devPtr;
        out->channels = d->res.pitch2D.numChannels;
        out->width = (uint32_t)w;
        out->height = (uint32_t)h;
        out->pitch = pitch;
        return CUDA_SUCCESS;
    }
    default:
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%d is no CUresourcetype", d->resType);
    }
}

/* The array descriptor (level 0) and levels of an array or mipmapped resource. */
static void resource_shape(const CUDA_RESOURCE_DESC *d, CUDA_ARRAY3D_DESCRIPTOR *q, unsigned *levels)
{
    if (d->resType == CU_RESOURCE_TYPE_ARRAY) {
        *q = array_of(d->res.array.hArray)->desc;
        *levels = 1;
    } else {
        drv_mipmap_t *m = mipmap_of(d->res.mipmap.hMipmappedArray);
        *q = m->desc;
        *levels = m->levels;
    }
}

/* A resource view: accepted where it views the whole resource as it is (the emulator does
 * not reinterpret formats or restrict levels and layers yet). */
static CUresult check_view(const char *fn, const CUDA_RESOURCE_DESC *d, const CUDA_RESOURCE_VIEW_DESC *v)
{
    if (d->resType != CU_RESOURCE_TYPE_ARRAY && d->resType != CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a resource view is for CUDA arrays and mipmapped arrays only");
    CUDA_ARRAY3D_DESCRIPTOR q;
    unsigned levels;
    resource_shape(d, &q, &levels);
    /* CUresourceViewFormat 0x01..0x18: (u, s) 8, 16, 32-bit integers then f16 and f32, in
     * 1, 2 and 4 channels */
    static const int vf[8] = { CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_SIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT16,
                               CU_AD_FORMAT_SIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT32, CU_AD_FORMAT_SIGNED_INT32,
                               CU_AD_FORMAT_HALF, CU_AD_FORMAT_FLOAT };
    bool same_format = v->format == 0;
    if (v->format >= 0x01 && v->format <= 0x18) {
        int k = v->format - 1;
        same_format = vf[k / 3] == q.Format && (1u << (k % 3)) == q.NumChannels;
    }
    bool layered = q.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    unsigned layers = layered ? (unsigned)q.Depth : 1;
    if (!same_format || v->width != q.Width || v->height != q.Height || v->depth != q.Depth ||
        v->firstMipmapLevel != 0 || v->lastMipmapLevel != levels - 1 || v->firstLayer != 0 ||
        v->lastLayer != layers - 1)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "resource views that change the format or select levels or "
                        "layers are not supported yet (a view of the whole resource as it is is)");
    return CUDA_SUCCESS;
}

/* The object with handle h of the kind asked for (its index in objs), lock held; -1 if none. */
static long obj_find(uint64_t h, bool surface)
{
    for (size_t i = 0; i < objs.n; i++)
        if (objs.v[i].handle == h && objs.v[i].surface == surface)
            return (long)i;
    return -1;
}

static CUresult obj_add(const obj_t *o)
{
    pthread_mutex_lock(&lock);
    bool ok = true;
    if (objs.n == objs.cap) {
        size_t c = objs.cap ? objs.cap * 2 : 64;
        obj_t *v = realloc(objs.v, c * sizeof *v);
        if ((ok = v != NULL)) {
            objs.v = v;
            objs.cap = c;
        }
    }
    if (ok)
        objs.v[objs.n++] = *o;
    pthread_mutex_unlock(&lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* The resource descriptor as a Get*Desc call answers it: the member of its type only. */
static void copy_resource(CUDA_RESOURCE_DESC *out, const CUDA_RESOURCE_DESC *d)
{
    memset(out, 0, sizeof *out);
    out->resType = d->resType;
    switch (d->resType) {
    case CU_RESOURCE_TYPE_ARRAY: out->res.array = d->res.array; break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: out->res.mipmap = d->res.mipmap; break;
    case CU_RESOURCE_TYPE_LINEAR: out->res.linear = d->res.linear; break;
    default: out->res.pitch2D = d->res.pitch2D; break;
    }
}

static CUresult from_exec(const char *fn, isa_status_t st, const char *msg)
{
    return st == ISA_ST_NOMEM ? drv_fail(CUDA_ERROR_OUT_OF_MEMORY, fn, "no host memory for the object")
                              : drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%s", msg);
}

DRV_API CUresult cuTexObjectCreate(CUtexObject *out, const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *td,
                                   const CUDA_RESOURCE_VIEW_DESC *view)
{
    static const char fn[] = "cuTexObjectCreate";
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out || !rd || !td)
        return CUDA_ERROR_INVALID_VALUE;
    ex_res_desc_t er;
    if ((r = resource(fn, rd, false, &er)) || (view && (r = check_view(fn, rd, view))))
        return r;
    for (unsigned k = 0; k < 3; k++)
        if ((unsigned)td->addressMode[k] > CU_TR_ADDRESS_MODE_BORDER)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "%d is no CUaddress_mode", td->addressMode[k]);
    if ((unsigned)td->filterMode > CU_TR_FILTER_MODE_LINEAR || (unsigned)td->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a filter mode is CU_TR_FILTER_MODE_POINT or _LINEAR");
    unsigned known = CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
                     CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP;
    if (td->flags & ~known)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "unknown texture flags 0x%x", td->flags & ~known);
    if (er.kind == EX_RES_MIPMAP && !(td->flags & CU_TRSF_NORMALIZED_COORDINATES))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "a mipmapped array is sampled with normalized coordinates "
                        "(CU_TRSF_NORMALIZED_COORDINATES)");
    ex_tex_desc_t et;
    memset(&et, 0, sizeof et);
    for (unsigned k = 0; k < 3; k++)
        et.address[k] = (ex_addr_t)td->addressMode[k];
    et.filter = (ex_filter_t)td->filterMode;
    et.flags = td->flags;
    et.max_aniso = td->maxAnisotropy > 16 ? 16 : td->maxAnisotropy;
    et.mip_filter = (ex_filter_t)td->mipmapFilterMode;
    et.lod_bias = td->mipmapLevelBias;
    et.min_lod = td->minMipmapLevelClamp;
    et.max_lod = td->maxMipmapLevelClamp;
    memcpy(et.border, td->borderColor, sizeof et.border);
    if (td->flags & CU_TRSF_SEAMLESS_CUBEMAP) {
        if (!(er.kind == EX_RES_ARRAY || er.kind == EX_RES_MIPMAP) || !(ex_array_desc(er.array)->flags & EX_ARRAY_CUBE))
            return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "CU_TRSF_SEAMLESS_CUBEMAP is for cube map arrays only");
        if (td->filterMode == CU_TR_FILTER_MODE_LINEAR)
            return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "seamless cube map filtering (CU_TRSF_SEAMLESS_CUBEMAP "
                            "with linear filtering) is not supported yet");
        /* with point sampling, seamless cube maps clamp in every dimension */
        for (unsigned k = 0; k < 3; k++)
            et.address[k] = EX_ADDR_CLAMP;
    }
    /* 32-bit integers are read as integers whether or not the flag says so (as the driver
     * API documents; NVIDIA's runtime leaves the flag out for them) */
    ex_fmt_t f = er.kind == EX_RES_ARRAY || er.kind == EX_RES_MIPMAP ? ex_array_desc(er.array)->format : er.format;
    if (f == EX_FMT_U32 || f == EX_FMT_S32)
        et.flags |= CU_TRSF_READ_AS_INTEGER;
    if (er.kind == EX_RES_LINEAR) {
        /* tex1Dfetch: address and filter modes do not apply to linear memory */
        for (unsigned k = 0; k < 3; k++)
            et.address[k] = EX_ADDR_CLAMP;
        et.filter = et.mip_filter = EX_FILTER_POINT;
    }
    char msg[160] = "";
    uint64_t h;
    isa_status_t st = ex_tex_create(drv.dev, &er, &et, &h, msg, sizeof msg);
    if (st != ISA_ST_OK)
        return from_exec(fn, st, msg);
    obj_t o = { .handle = h, .ctx = drv_current(), .tex = *td, .has_view = view != NULL };
    copy_resource(&o.res, rd);
    if (view)
        o.view = *view;
    if ((r = obj_add(&o))) {
        ex_tex_destroy(drv.dev, h);
        return r;
    }
    *out = h;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuSurfObjectCreate(CUsurfObject *out, const CUDA_RESOURCE_DESC *rd)
{
    static const char fn[] = "cuSurfObjectCreate";
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out || !rd)
        return CUDA_ERROR_INVALID_VALUE;
    ex_res_desc_t er;
    if ((r = resource(fn, rd, true, &er)))
        return r;
    char msg[160] = "";
    uint64_t h;
    isa_status_t st = ex_surf_create(drv.dev, &er, &h, msg, sizeof msg);
    if (st != ISA_ST_OK)
        return from_exec(fn, st, msg);
    obj_t o = { .handle = h, .surface = true, .ctx = drv_current() };
    copy_resource(&o.res, rd);
    if ((r = obj_add(&o))) {
        ex_tex_destroy(drv.dev, h);
        return r;
    }
    *out = h;
    return CUDA_SUCCESS;
}

static CUresult obj_destroy(const char *fn, uint64_t h, bool surface)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    pthread_mutex_lock(&lock);
    long i = obj_find(h, surface);
    if (i >= 0)
        objs.v[i] = objs.v[--objs.n];
    pthread_mutex_unlock(&lock);
    if (i < 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "0x%llx names no %s object", (unsigned long long)h,
                        surface ? "surface" : "texture");
    ex_tex_destroy(drv.dev, h);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuTexObjectDestroy(CUtexObject h) { return obj_destroy(__func__, h, false); }
DRV_API CUresult cuSurfObjectDestroy(CUsurfObject h) { return obj_destroy(__func__, h, true); }

/* Copy what the object h was made with (which: 0 resource, 1 sampler, 2 view) to out. */
static CUresult obj_get(const char *fn, uint64_t h, bool surface, int which, void *out)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    long i = obj_find(h, surface);
    obj_t o;
    if (i >= 0)
        o = objs.v[i];
    pthread_mutex_unlock(&lock);
    if (i < 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, fn, "0x%llx names no %s object", (unsigned long long)h,
                        surface ? "surface" : "texture");
    switch (which) {
    case 0: memcpy(out, &o.res, sizeof o.res); break;
    case 1: memcpy(out, &o.tex, sizeof o.tex); break;
    default:
        if (!o.has_view)
            return CUDA_ERROR_INVALID_VALUE;   /* as documented: no view was given */
        memcpy(out, &o.view, sizeof o.view);
        break;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *out, CUtexObject h) { return obj_get(__func__, h, false, 0, out); }
DRV_API CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *out, CUtexObject h) { return obj_get(__func__, h, false, 1, out); }
DRV_API CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *out, CUtexObject h) { return obj_get(__func__, h, false, 2, out); }
DRV_API CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *out, CUsurfObject h) { return obj_get(__func__, h, true, 0, out); }
/*}=====================================================================*/

/* A context's objects and arrays go with it (its teardown). */
void drv_array_remove_ctx(drv_ctx_t *c)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < objs.n;)
        if (objs.v[i].ctx == c) {
            ex_tex_destroy(drv.dev, objs.v[i].handle);
            objs.v[i] = objs.v[--objs.n];
        } else {
            i++;
        }
    for (size_t i = 0; i < mipmaps.n;) {
        drv_mipmap_t *m = mipmaps.v[i];
        if (m->ctx == c) {
            mipmaps.v[i] = mipmaps.v[--mipmaps.n];
            mipmap_free(m);
        } else {
            i++;
        }
    }
    for (size_t i = 0; i < arrays.n;) {
        drv_array_t *a = arrays.v[i];
        if (a->ctx == c && !a->mm) {
            arrays.v[i] = arrays.v[--arrays.n];
            array_free(a);
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&lock);
}

/*{=====================================================================
 * The texture and surface reference API: removed from CUDA 12's runtime; a program built
 * with CUDA 13 cannot use it, an older one is told so.  (Like stubs.c's, these see no
 * prototypes: each takes no arguments and returns a CUresult, whatever the caller passes.)
 *====================================================================*/
static CUresult legacy(const char *fn)
{
    return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "texture and surface references were removed in CUDA 12 and are "
                    "not supported; use texture and surface objects (cuTexObjectCreate, cuSurfObjectCreate)");
}
#define LEGACY(name) DRV_API CUresult name(void) { return legacy(#name); }
#define LEGACY_FUNCS(X)                                                                                      \
    X(cuModuleGetTexRef) X(cuModuleGetSurfRef) X(cuParamSetTexRef) X(cuSurfRefGetArray) X(cuSurfRefSetArray)   \
    X(cuTexRefCreate) X(cuTexRefDestroy) X(cuTexRefGetAddress) X(cuTexRefGetAddress_v2)                        \
    X(cuTexRefGetAddressMode) X(cuTexRefGetArray) X(cuTexRefGetBorderColor) X(cuTexRefGetFilterMode)          \
    X(cuTexRefGetFlags) X(cuTexRefGetFormat) X(cuTexRefGetMaxAnisotropy) X(cuTexRefGetMipmapFilterMode)       \
    X(cuTexRefGetMipmapLevelBias) X(cuTexRefGetMipmapLevelClamp) X(cuTexRefGetMipmappedArray)                 \
    X(cuTexRefSetAddress) X(cuTexRefSetAddress_v2) X(cuTexRefSetAddress2D) X(cuTexRefSetAddress2D_v2)          \
    X(cuTexRefSetAddress2D_v3) X(cuTexRefSetAddressMode) X(cuTexRefSetArray) X(cuTexRefSetBorderColor)        \
    X(cuTexRefSetFilterMode) X(cuTexRefSetFlags) X(cuTexRefSetFormat) X(cuTexRefSetMaxAnisotropy)             \
    X(cuTexRefSetMipmapFilterMode) X(cuTexRefSetMipmapLevelBias) X(cuTexRefSetMipmapLevelClamp)               \
    X(cuTexRefSetMipmappedArray)
LEGACY_FUNCS(LEGACY)
#undef LEGACY
/*}=====================================================================*/
