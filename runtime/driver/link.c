/* link.c: the driver's linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete,
 * cuLinkDestroy): PTX inputs linked by the frontend's linker into one PTX image. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"
#include "runtime/driver/drv.h"
#include "runtime/fatbin.h"

/* A link in progress: its inputs' PTX texts, the image once complete, the caller's logs. */
typedef struct drv_link {
    uint32_t tag;
    unsigned n, cap;
    char   **names, **texts;
    size_t  *lens;
    bool    *optional;          /* an archive's member: linked only when needed */
    char    *image;             /* the linked PTX, NUL-terminated (cuLinkComplete) */
    size_t   image_size;
    /* CU_JIT_ERROR_LOG_BUFFER / CU_JIT_INFO_LOG_BUFFER and their sizes: the buffer, its
     * capacity, and the caller's option slot that learns how much was written. */
    drv_jit_log_t err, info;
    unsigned maxrreg;           /* CU_JIT_MAX_REGISTERS, 0 when not given */
} drv_link_t;

/*{=====================================================================
 * Options and logs
 *====================================================================*/

/* JIT options: the log buffers are honoured, CU_JIT_WALL_TIME answers 0 ms,
 * CU_JIT_MAX_REGISTERS bounds what ptxas allocates (*maxrreg: docs/driver.md, "Registers
 * and stack"), and the others steer a compiler the emulator does not have. */
void drv_jit_options(unsigned n, const int *opts, void **vals, drv_jit_log_t *err, drv_jit_log_t *info,
                     unsigned *maxrreg)
{
    for (unsigned i = 0; opts && vals && i < n; i++) {
        switch (opts[i]) {
        case CU_JIT_MAX_REGISTERS: *maxrreg = (unsigned)(uintptr_t)vals[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: err->buf = vals[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            err->cap = (size_t)(uintptr_t)vals[i];
            err->size_slot = &vals[i];
            break;
        case CU_JIT_INFO_LOG_BUFFER: info->buf = vals[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            info->cap = (size_t)(uintptr_t)vals[i];
            info->size_slot = &vals[i];
            break;
        case CU_JIT_WALL_TIME: {
            float ms = 0;
            memcpy(&vals[i], &ms, sizeof ms);
            break;
        }
        default: break;
        }
    }
    if (err->buf && err->cap)
        err->buf[0] = 0;
    if (info->buf && info->cap)
        info->buf[0] = 0;
}

/* Append text to a log (NUL-terminated, truncated to its capacity); the caller's size
 * option learns how many bytes it holds. */
void drv_jit_log_put(drv_jit_log_t *g, const char *text)
{
    if (!g->buf || g->cap == 0)
        return;
    size_t n = strlen(text);
    if (g->used + n + 1 > g->cap)
        n = g->cap - 1 - g->used;
    memcpy(g->buf + g->used, text, n);
    g->used += n;
    g->buf[g->used] = 0;
    if (g->size_slot)
        *g->size_slot = (void *)(uintptr_t)g->used;
}

/* An error: into the error log when the caller gave one, else on stderr like the
 * driver's other messages.  Returns r. */
static CUresult link_fail(drv_link_t *l, CUresult r, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static CUresult link_fail(drv_link_t *l, CUresult r, const char *fn, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (l && l->err.buf && l->err.cap) {
        char line[1100];
        snprintf(line, sizeof line, "ptxemu: %s: %s\n", fn, msg);
        drv_jit_log_put(&l->err, line);
        return r;
    }
    return drv_fail(r, fn, "%s", msg);
}
/*}=====================================================================*/

/*{=====================================================================
 * Inputs
 *====================================================================*/
static bool link_ok(const drv_link_t *l) { return l && l->tag == DRV_LINK; }

static CUresult add_text(drv_link_t *l, const char *name, const char *text, size_t len, bool optional)
{
    if (l->n == l->cap) {
        unsigned nc = l->cap ? 2 * l->cap : 8;
        char **nn = realloc(l->names, nc * sizeof *nn);
        if (nn)
            l->names = nn;
        char **nt = realloc(l->texts, nc * sizeof *nt);
        if (nt)
            l->texts = nt;
        size_t *nl = realloc(l->lens, nc * sizeof *nl);
        if (nl)
            l->lens = nl;
        bool *no = realloc(l->optional, nc * sizeof *no);
        if (no)
            l->optional = no;
        if (!nn || !nt || !nl || !no)
            return CUDA_ERROR_OUT_OF_MEMORY;
        l->cap = nc;
    }
    l->optional[l->n] = optional;
    char *t = malloc(len + 1), *nm = strdup(name);
    if (!t || !nm) {
        free(t);
        free(nm);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    memcpy(t, text, len);
    t[len] = 0;
    l->names[l->n] = nm;
    l->texts[l->n] = t;
    l->lens[l->n++] = len;
    return CUDA_SUCCESS;
}

static const char *input_type_name(int type)
{
    switch (type) {
    case CU_JIT_INPUT_CUBIN: return "CU_JIT_INPUT_CUBIN";
    case CU_JIT_INPUT_PTX: return "CU_JIT_INPUT_PTX";
    case CU_JIT_INPUT_FATBINARY: return "CU_JIT_INPUT_FATBINARY";
    case CU_JIT_INPUT_OBJECT: return "CU_JIT_INPUT_OBJECT";
    case CU_JIT_INPUT_LIBRARY: return "CU_JIT_INPUT_LIBRARY";
    case CU_JIT_INPUT_NVVM: return "CU_JIT_INPUT_NVVM";
    default: return "an unknown input type";
    }
}

/* The PTX of a fatbin, or of a host object's or program's embedded fatbins: in each
 * container, its newest PTX for sm_90 or below. */
static CUresult add_fatbin(drv_link_t *l, const char *fn, int type, const char *name, const void *data, size_t size,
                           bool optional)
{
    rt_fatbin_t fb;
    isa_status_t st = rt_fatbin_open_bytes(data, size, &fb);
    if (st != ISA_ST_OK) {
        CUresult r = st == ISA_ST_NOMEM ? CUDA_ERROR_OUT_OF_MEMORY
                                        : link_fail(l, CUDA_ERROR_INVALID_IMAGE, fn, "%s input '%s': %s",
                                                    input_type_name(type), name, fb.msg);
        rt_fatbin_free(&fb);
        return r;
    }
    CUresult r = CUDA_SUCCESS;
    unsigned added = 0;
    for (uint32_t c = 0; c < fb.ncontainer && r == CUDA_SUCCESS; c++) {
        int e = rt_fatbin_pick_ptx_in(&fb, c, 90);
        if (e < 0)
            continue;
        char *text = NULL;
        size_t len = 0;
        if (rt_fatbin_payload(&fb, (uint32_t)e, &text, &len) != ISA_ST_OK) {
            r = link_fail(l, CUDA_ERROR_INVALID_IMAGE, fn, "%s input '%s': %s", input_type_name(type), name, fb.msg);
            break;
        }
        char uname[512];
        if (fb.ncontainer > 1)
            snprintf(uname, sizeof uname, "%s#%u", name, (unsigned)c);
        else
            snprintf(uname, sizeof uname, "%s", name);
        r = add_text(l, uname, text, len, optional);
        free(text);
        added++;
    }
    rt_fatbin_free(&fb);
    /* An archive's member with SASS only (libcudadevrt.a's) adds nothing: what it defines
     * must come from elsewhere (the device-runtime functions the emulator writes in PTX,
     * frontend/devrt.c); a name nothing defines is an error when the program loads. */
    if (r == CUDA_SUCCESS && added == 0 && optional)
        return CUDA_SUCCESS;
    if (r == CUDA_SUCCESS && added == 0)
        r = link_fail(l, CUDA_ERROR_NO_BINARY_FOR_GPU, fn,
                      "%s input '%s' holds no PTX for sm_90 or below (only SASS or newer PTX); the emulator links "
                      "PTX: build it with -gencode arch=compute_90,code=compute_90",
                      input_type_name(type), name);
    return r;
}

/* An archive (ar: nvcc -lib): each member with device code adds its PTX as an optional
 * unit, linked only when it defines a name the others need.  Members without a fatbin
 * (host code) hold no device code and add nothing. */
static CUresult add_archive(drv_link_t *l, const char *fn, const char *name, const uint8_t *data, size_t size)
{
    static const char magic[8] = { '!', '<', 'a', 'r', 'c', 'h', '>', '\n' };
    if (size < 8 || memcmp(data, magic, 8) != 0)
        return link_fail(l, CUDA_ERROR_INVALID_IMAGE, fn, "CU_JIT_INPUT_LIBRARY input '%s' is not an archive "
                         "(ar, as nvcc -lib makes)", name);
    const char *longnames = NULL;
    size_t nlong = 0, off = 8;
    unsigned members = 0, ndevice = 0;
    CUresult r = CUDA_SUCCESS;
    while (r == CUDA_SUCCESS && off + 60 <= size) {
        const char *h = (const char *)data + off;
        char sz[11] = { 0 };
        memcpy(sz, h + 48, 10);
        char *end;
        unsigned long long msize = strtoull(sz, &end, 10);
        if (h[58] != '`' || h[59] != '\n' || end == sz || msize > size - off - 60)
            return link_fail(l, CUDA_ERROR_INVALID_IMAGE, fn, "CU_JIT_INPUT_LIBRARY input '%s': corrupt member "
                             "header at byte %zu", name, off);
        const uint8_t *body = data + off + 60;
        size_t blen = (size_t)msize;
        char mname[256];
        size_t nl = strcspn(h, "/ ");
        if (nl > 16)
            nl = 16;
        snprintf(mname, sizeof mname, "%.*s", (int)nl, h);
        if (h[0] == '/' && h[1] == '/') {                       /* GNU long-name table */
            longnames = (const char *)body;
            nlong = blen;
        } else if (h[0] == '/' && h[1] >= '0' && h[1] <= '9') { /* GNU long name */
            size_t at = strtoul(h + 1, NULL, 10);
            if (longnames && at < nlong) {
                size_t k = 0;
                while (at + k < nlong && longnames[at + k] != '/' && longnames[at + k] != '\n')
                    k++;
                snprintf(mname, sizeof mname, "%.*s", (int)k, longnames + at);
            }
        } else if (memcmp(h, "#1/", 3) == 0) {                  /* BSD: the name leads the data */
            size_t k = strtoul(h + 3, NULL, 10);
            if (k > blen)
                k = blen;
            snprintf(mname, sizeof mname, "%.*s", (int)k, (const char *)body);
            body += k;
            blen -= k;
        }
        bool special = h[0] == '/' && (h[1] == ' ' || h[1] == '/' || memcmp(h, "/SYM64/", 7) == 0);
        if (!special && blen >= 4) {
            members++;
            rt_fatbin_t fb;
            isa_status_t st = rt_fatbin_open_bytes(body, blen, &fb);
            bool device = st == ISA_ST_OK && fb.nentry > 0;
            rt_fatbin_free(&fb);
            if (device) {
                ndevice++;
                char full[512];
                snprintf(full, sizeof full, "%s(%s)", name, mname);
                r = add_fatbin(l, fn, CU_JIT_INPUT_LIBRARY, full, body, blen, true);
            }
        }
        off += 60 + (size_t)msize;
        off += off & 1;
    }
    if (r == CUDA_SUCCESS && ndevice == 0)
        r = link_fail(l, CUDA_ERROR_NO_BINARY_FOR_GPU, fn, "CU_JIT_INPUT_LIBRARY input '%s': none of its %u "
                      "members holds device code", name, members);
    return r;
}

static CUresult add_data(const char *fn, drv_link_t *l, int type, const void *data, size_t size, const char *name)
{
    if (!link_ok(l))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!data || !size)
        return CUDA_ERROR_INVALID_VALUE;
    char dflt[32];
    if (!name || !*name) {
        snprintf(dflt, sizeof dflt, "input%u.ptx", l->n + 1);
        name = dflt;
    }
    const uint8_t *b = data;
    bool elf = size >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
    switch (type) {
    case CU_JIT_INPUT_PTX: {
        const char *t = data;
        size_t len = strnlen(t, size);
        return add_text(l, name, t, len, false);
    }
    case CU_JIT_INPUT_FATBINARY:
        return add_fatbin(l, fn, type, name, data, size, false);
    case CU_JIT_INPUT_OBJECT:
        /* A host object (nvcc -dc) carries its device code as an embedded fatbin. */
        if (elf)
            return add_fatbin(l, fn, type, name, data, size, false);
        return link_fail(l, CUDA_ERROR_INVALID_IMAGE, fn, "%s input '%s' is not an ELF object",
                         input_type_name(type), name);
    case CU_JIT_INPUT_CUBIN: {
        const char *ptx = elf ? drv_nvrtc_ptx(data, size) : NULL;
        if (ptx)
            return add_text(l, name, ptx, strlen(ptx), false);
        return link_fail(l, CUDA_ERROR_NO_BINARY_FOR_GPU, fn,
                         "%s input '%s' is SASS, which the emulator cannot run or link; link its PTX "
                         "(CU_JIT_INPUT_PTX, or a fatbin built with -gencode arch=compute_90,code=compute_90)",
                         input_type_name(type), name);
    }
    case CU_JIT_INPUT_LIBRARY:
        return add_archive(l, fn, name, data, size);
    case CU_JIT_INPUT_NVVM:
        return link_fail(l, CUDA_ERROR_NOT_SUPPORTED, fn,
                         "%s input '%s': NVVM IR (link-time optimisation) cannot be compiled by the emulator; "
                         "link PTX", input_type_name(type), name);
    default:
        return link_fail(l, CUDA_ERROR_INVALID_VALUE, fn, "input '%s' has an unknown input type %d", name, type);
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * Linking: shared with module.c's -rdc programs
 *====================================================================*/

/* The device services a linked module may call without defining them (NULL-terminated). */
static const char *provided[64];
static void provided_fill(void)
{
    unsigned n = 0;
    for (unsigned i = 0; n + 1 < sizeof provided / sizeof *provided && ex_service_name(i); i++)
        provided[n++] = ex_service_name(i);
    for (unsigned i = 0; n + 1 < sizeof provided / sizeof *provided && fe_devrt_name(i); i++)
        provided[n++] = fe_devrt_name(i);   /* defined after the link (fe_link_devrt) */
}

isa_status_t drv_link_units(unsigned n, const char *const *names, const char *const *texts, const size_t *lens,
                            const bool *optional, FILE *diag, isa_module_t **out)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, provided_fill);
    fe_options_t o = { .diag = diag, .provided = provided };
    isa_status_t st = fe_link_texts(n, names, texts, lens, optional, &o, out);
    return st == ISA_ST_OK ? fe_link_devrt(out, &o) : st;
}

isa_status_t drv_link_devrt(isa_module_t **m, FILE *diag)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, provided_fill);
    fe_options_t o = { .diag = diag, .provided = provided };
    return fe_link_devrt(m, &o);
}
/*}=====================================================================*/

/*{=====================================================================
 * The API
 *====================================================================*/

static CUresult link_create(CUlinkState *out, unsigned n, int *opts, void **vals)
{
    CUresult r = drv_enter(NULL);
    if (r)
        return r;
    if (!out || (n && (!opts || !vals)))
        return CUDA_ERROR_INVALID_VALUE;
    drv_link_t *l = calloc(1, sizeof *l);
    if (!l)
        return CUDA_ERROR_OUT_OF_MEMORY;
    l->tag = DRV_LINK;
    drv_jit_options(n, opts, vals, &l->err, &l->info, &l->maxrreg);
    *out = l;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLinkCreate(unsigned n, int *opts, void **vals, CUlinkState *out)
{
    return link_create(out, n, opts, vals);
}
DRV_API CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, CUlinkState *out)
{
    return link_create(out, n, opts, vals);
}

/* An input's own JIT options are accepted and have no effect. */
DRV_API CUresult cuLinkAddData(CUlinkState l, int type, void *data, size_t size, const char *name, unsigned n,
                               int *opts, void **vals)
{
    (void)n, (void)opts, (void)vals;
    return add_data(__func__, l, type, data, size, name);
}
DRV_API CUresult cuLinkAddData_v2(CUlinkState l, int type, void *data, size_t size, const char *name, unsigned n,
                                  int *opts, void **vals)
{
    (void)n, (void)opts, (void)vals;
    return add_data(__func__, l, type, data, size, name);
}

static CUresult add_file(const char *fn, drv_link_t *l, int type, const char *path)
{
    if (!link_ok(l))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    char *buf;
    size_t n;
    CUresult r = drv_read_file(path, &buf, &n);
    if (r == CUDA_ERROR_FILE_NOT_FOUND)
        return link_fail(l, r, fn, "cannot open '%s'", path);
    if (r)
        return r;
    r = n ? add_data(fn, l, type, buf, n, path)
                   : link_fail(l, CUDA_ERROR_INVALID_VALUE, fn, "'%s' is empty", path);
    free(buf);
    return r;
}

DRV_API CUresult cuLinkAddFile(CUlinkState l, int type, const char *path, unsigned n, int *opts, void **vals)
{
    (void)n, (void)opts, (void)vals;
    return add_file(__func__, l, type, path);
}
DRV_API CUresult cuLinkAddFile_v2(CUlinkState l, int type, const char *path, unsigned n, int *opts, void **vals)
{
    (void)n, (void)opts, (void)vals;
    return add_file(__func__, l, type, path);
}

/* Link the inputs: the image is the linked module printed as PTX (NUL-terminated), which
 * cuModuleLoadData and its relatives load. */
DRV_API CUresult cuLinkComplete(CUlinkState l, void **image, size_t *size)
{
    if (!link_ok(l))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!image || !size)
        return CUDA_ERROR_INVALID_VALUE;
    if (l->n == 0)
        return link_fail(l, CUDA_ERROR_INVALID_VALUE, __func__, "nothing to link (no input was added)");
    char *msgs = NULL;
    size_t mlen = 0;
    FILE *diag = open_memstream(&msgs, &mlen);
    if (!diag)
        return CUDA_ERROR_OUT_OF_MEMORY;
    isa_module_t *m = NULL;
    isa_status_t st = drv_link_units(l->n, (const char *const *)l->names, (const char *const *)l->texts, l->lens,
                                     l->optional, diag, &m);
    fclose(diag);
    if (st != ISA_ST_OK) {
        CUresult r = st == ISA_ST_NOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_PTX;
        if (l->err.buf && l->err.cap)
            drv_jit_log_put(&l->err, msgs ? msgs : "");
        else if (msgs)
            fputs(msgs, stderr);
        free(msgs);
        return r == CUDA_ERROR_OUT_OF_MEMORY ? r
                                             : link_fail(l, r, __func__, "linking %u input%s failed (the errors are "
                                                         "above)", l->n, l->n == 1 ? "" : "s");
    }
    free(msgs);
    free(l->image);
    l->image = NULL;
    FILE *out = open_memstream(&l->image, &l->image_size);
    if (!out) {
        isa_module_free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (l->maxrreg)   /* the image's loader passes it on to ptxas (module.c) */
        fprintf(out, DRV_MAXRREG_MARK "%u\n", l->maxrreg);
    isa_print_module(out, m);
    fclose(out);
    char info[256];
    unsigned members = 0;
    for (unsigned i = 0; i < l->n; i++)
        members += l->optional[i];
    if (members)
        snprintf(info, sizeof info, "ptxemu: linked %u PTX inputs (%u of them archive members, each linked only "
                 "where needed): %u functions, %u variables\n", l->n, members, m->nfunc, m->nvar);
    else
        snprintf(info, sizeof info, "ptxemu: linked %u PTX input%s: %u functions, %u variables\n", l->n,
                 l->n == 1 ? "" : "s", m->nfunc, m->nvar);
    drv_jit_log_put(&l->info, info);
    isa_module_free(m);
    if (!l->image)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *image = l->image;
    *size = l->image_size + 1;   /* with the NUL */
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLinkDestroy(CUlinkState l)
{
    if (!link_ok(l))
        return CUDA_ERROR_INVALID_HANDLE;
    for (unsigned i = 0; i < l->n; i++) {
        free(l->names[i]);
        free(l->texts[i]);
    }
    free(l->names);
    free(l->texts);
    free(l->lens);
    free(l->optional);
    free(l->image);
    l->tag = 0;
    free(l);
    return CUDA_SUCCESS;
}
/*}=====================================================================*/
