/* libptxemu_nvrtc.so: NVRTC's and nvJitLink's cubins on the emulator.
 *
 * A program that compiles CUDA C++ with NVRTC for a real architecture (--gpu-architecture=
 * sm_90) hands the driver a cubin, SASS the emulator cannot run.  NVRTC made PTX on the way,
 * and the program object still holds it.  `ptxrun ./app` preloads this library: its
 * nvrtcGetCUBIN gives the program NVRTC's cubin unchanged and keeps, beside a copy of it, the
 * same program's PTX; the emulator's driver, handed that cubin (cuModuleLoadData, cuLinkAddData,
 * cuLibraryLoadData, a file), asks ptxemu_nvrtc_ptx() for the PTX and loads that instead.
 * Nothing else of NVRTC is touched.  A program linked with NVRTC's static library calls its
 * own copy, which no preloaded library can stand in for: its cubins stay refused.
 *
 * nvJitLink (link-time optimisation at run time) is treated alike: a handle's options and
 * inputs are kept; when a link that had LTO-IR among its inputs completes, the same link is
 * run again on a second handle with -ptx added (nvJitLink's own PTX of the optimised
 * program), and nvJitLinkGetLinkedCubin remembers the cubin it hands out with that PTX.
 * Links without LTO-IR (cubins, PTX, fatbins only) have no PTX of their own from nvJitLink:
 * their cubins stay refused. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int nvrtc_result;
typedef void *nvrtc_program;
typedef nvrtc_result (*get_size_fn)(nvrtc_program, size_t *);
typedef nvrtc_result (*get_fn)(nvrtc_program, char *);

struct entry {
    struct entry *next;
    size_t cubin_len;
    unsigned char *cubin;
    char *ptx;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *entries;

struct find {
    const char *lib;    /* the library's file name up to ".so" */
    void *handle;
};

static int find_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct find *f = data;
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *base = slash ? slash + 1 : info->dlpi_name;
    size_t n = strlen(f->lib);
    if (strncmp(base, f->lib, n) != 0 || strncmp(base + n, ".so", 3) != 0)
        return 0;
    f->handle = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    return f->handle != NULL;
}

/* The library's own definition of name: the next one after this library, else the loaded
 * lib's (a library opened with RTLD_LOCAL, as Python opens extension modules, is not in
 * the search order that RTLD_NEXT follows). */
static void *real_in(const char *lib, const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (f)
        return f;
    struct find fd = { lib, NULL };
    dl_iterate_phdr(find_lib, &fd);
    return fd.handle ? dlsym(fd.handle, name) : NULL;
}

static void *real(const char *name)
{
    return real_in("libnvrtc", name);
}

/* Remember cubin (len bytes) with ptx (taken over: freed on failure).  Failures only lose
 * the remembering: the driver then refuses the cubin, as without this library. */
static void remember_ptx(char *ptx, const void *cubin, size_t len)
{
    struct entry *e = calloc(1, sizeof *e);
    unsigned char *copy = malloc(len);
    if (!e || !ptx || !copy) {
        free(e);
        free(ptx);
        free(copy);
        return;
    }
    memcpy(copy, cubin, len);
    e->cubin = copy;
    e->cubin_len = len;
    e->ptx = ptx;
    pthread_mutex_lock(&lock);
    e->next = entries;
    entries = e;
    pthread_mutex_unlock(&lock);
}

/* Remember cubin (len bytes) with prog's PTX. */
static void remember(nvrtc_program prog, const char *cubin, size_t len)
{
    get_size_fn ptx_size;
    get_fn get_ptx;
    *(void **)&ptx_size = real("nvrtcGetPTXSize");
    *(void **)&get_ptx = real("nvrtcGetPTX");
    size_t n = 0;
    if (!ptx_size || !get_ptx || ptx_size(prog, &n) != 0 || n == 0)
        return;
    char *ptx = malloc(n + 1);
    if (!ptx || get_ptx(prog, ptx) != 0) {
        free(ptx);
        return;
    }
    ptx[n] = 0;
    remember_ptx(ptx, cubin, len);
}

nvrtc_result nvrtcGetCUBIN(nvrtc_program prog, char *cubin)
{
    get_fn next;
    get_size_fn size;
    *(void **)&next = real("nvrtcGetCUBIN");
    *(void **)&size = real("nvrtcGetCUBINSize");
    if (!next)
        return 7;   /* NVRTC_ERROR_INTERNAL_ERROR: no NVRTC is loaded (cannot happen from a caller of it) */
    nvrtc_result r = next(prog, cubin);
    size_t len = 0;
    if (r == 0 && cubin && size && size(prog, &len) == 0 && len)
        remember(prog, cubin, len);
    return r;
}

/* The PTX of the NVRTC cubin image (len bytes), or NULL when it is none of those handed out
 * in this process.  The returned text lives as long as the process. */
const char *ptxemu_nvrtc_ptx(const void *image, size_t len)
{
    const char *ptx = NULL;
    pthread_mutex_lock(&lock);
    for (struct entry *e = entries; e && !ptx; e = e->next)
        if (e->cubin_len == len && memcmp(e->cubin, image, len) == 0)
            ptx = e->ptx;
    pthread_mutex_unlock(&lock);
    return ptx;
}

/* nvJitLink.  A handle's options and inputs, kept from nvJitLinkCreate to nvJitLinkDestroy. */
typedef int jl_result;          /* nvJitLinkResult: 0 success */
#define JL_INTERNAL     6       /* NVJITLINK_ERROR_INTERNAL */

/* Set while a call is inside nvJitLink: should the library call its own entry points
 * through these, they pass straight on. */
static __thread int jl_inside;

struct jl_input {
    struct jl_input *next;
    int type;
    void *data;                 /* NULL: a file (name) */
    size_t size;
    char *name;
};

struct jl_link {
    struct jl_link *next;
    void *handle;
    unsigned nopts;
    char **opts;
    struct jl_input *inputs, **tail;
    int lto;                    /* -lto given, -ptx not */
    char *ptx;                  /* the replayed link's PTX, once complete */
};

static struct jl_link *links;

/* The kept link of handle h (called with lock held). */
static struct jl_link **jl_find(void *h)
{
    struct jl_link **p = &links;
    while (*p && (*p)->handle != h)
        p = &(*p)->next;
    return p;
}

static void jl_free(struct jl_link *l)
{
    for (unsigned i = 0; i < l->nopts; i++)
        free(l->opts[i]);
    free(l->opts);
    while (l->inputs) {
        struct jl_input *in = l->inputs;
        l->inputs = in->next;
        free(in->data);
        free(in->name);
        free(in);
    }
    free(l->ptx);
    free(l);
}

/* The entry points of one version of nvJitLink's interface: "nvJitLinkX" and its versioned
 * aliases "__nvJitLinkX_13_0" (what the header's inline functions call). */
typedef jl_result (*jl_create_fn)(void **, unsigned, const char **);
typedef jl_result (*jl_destroy_fn)(void **);
typedef jl_result (*jl_add_data_fn)(void *, int, const void *, size_t, const char *);
typedef jl_result (*jl_add_file_fn)(void *, int, const char *);
typedef jl_result (*jl_complete_fn)(void *);
typedef jl_result (*jl_size_fn)(void *, size_t *);
typedef jl_result (*jl_get_fn)(void *, void *);

static void *jl_real(const char *pre, const char *fn, const char *post)
{
    char name[96];
    snprintf(name, sizeof name, "%snvJitLink%s%s", pre, fn, post);
    return real_in("libnvJitLink", name);
}

static jl_result jl_create(const char *pre, const char *post, void **h, unsigned n, const char **opts)
{
    jl_create_fn f;
    *(void **)&f = jl_real(pre, "Create", post);
    if (!f)
        return JL_INTERNAL;
    if (jl_inside)
        return f(h, n, opts);
    jl_inside = 1;
    jl_result r = f(h, n, opts);
    jl_inside = 0;
    if (r != 0 || !h || !*h)
        return r;
    struct jl_link *l = calloc(1, sizeof *l);
    if (!l)
        return r;
    l->handle = *h;
    l->tail = &l->inputs;
    l->opts = calloc(n + 1, sizeof *l->opts);
    int lto = 0, ptx = 0;
    for (unsigned i = 0; l->opts && i < n; i++) {
        l->opts[l->nopts++] = strdup(opts[i] ? opts[i] : "");
        if (opts[i] && strcmp(opts[i], "-lto") == 0)
            lto = 1;
        if (opts[i] && strcmp(opts[i], "-ptx") == 0)
            ptx = 1;
    }
    l->lto = lto && !ptx && l->opts;
    pthread_mutex_lock(&lock);
    l->next = links;
    links = l;
    pthread_mutex_unlock(&lock);
    return r;
}

static jl_result jl_destroy(const char *pre, const char *post, void **h)
{
    jl_destroy_fn f;
    *(void **)&f = jl_real(pre, "Destroy", post);
    if (!f)
        return JL_INTERNAL;
    void *handle = h ? *h : NULL;
    if (jl_inside)
        return f(h);
    jl_inside = 1;
    jl_result r = f(h);
    jl_inside = 0;
    if (r == 0 && handle) {
        pthread_mutex_lock(&lock);
        struct jl_link **p = jl_find(handle), *l = *p;
        if (l)
            *p = l->next;
        pthread_mutex_unlock(&lock);
        if (l)
            jl_free(l);
    }
    return r;
}

/* Keep an input of handle h (data NULL: the file name). */
static void jl_keep(void *h, int type, const void *data, size_t size, const char *name)
{
    struct jl_input *in = calloc(1, sizeof *in);
    if (!in)
        return;
    in->type = type;
    in->size = size;
    in->name = strdup(name ? name : "");
    if (data) {
        in->data = malloc(size ? size : 1);
        if (in->data)
            memcpy(in->data, data, size);
    }
    pthread_mutex_lock(&lock);
    struct jl_link *l = *jl_find(h);
    if (l && in->name && (!data || in->data)) {
        *l->tail = in;
        l->tail = &in->next;
        in = NULL;
    } else if (l) {
        l->lto = 0;     /* an input lost: no replay */
    }
    pthread_mutex_unlock(&lock);
    if (in) {
        free(in->data);
        free(in->name);
        free(in);
    }
}

static jl_result jl_add_data(const char *pre, const char *post, void *h, int type, const void *data,
                             size_t size, const char *name)
{
    jl_add_data_fn f;
    *(void **)&f = jl_real(pre, "AddData", post);
    if (!f)
        return JL_INTERNAL;
    if (jl_inside)
        return f(h, type, data, size, name);
    jl_inside = 1;
    jl_result r = f(h, type, data, size, name);
    jl_inside = 0;
    if (r == 0)
        jl_keep(h, type, data, size, name);
    return r;
}

static jl_result jl_add_file(const char *pre, const char *post, void *h, int type, const char *file)
{
    jl_add_file_fn f;
    *(void **)&f = jl_real(pre, "AddFile", post);
    if (!f)
        return JL_INTERNAL;
    if (jl_inside)
        return f(h, type, file);
    jl_inside = 1;
    jl_result r = f(h, type, file);
    jl_inside = 0;
    if (r == 0 && file)
        jl_keep(h, type, NULL, 0, file);
    return r;
}

/* The PTX of the link l describes, from a second link with -ptx added; NULL when nvJitLink
 * makes none (a link without LTO-IR, say). */
static char *jl_replay(const char *pre, const char *post, struct jl_link *l)
{
    jl_create_fn create;
    jl_destroy_fn destroy;
    jl_add_data_fn add_data;
    jl_add_file_fn add_file;
    jl_complete_fn complete;
    jl_size_fn size;
    jl_get_fn get;
    *(void **)&create = jl_real(pre, "Create", post);
    *(void **)&destroy = jl_real(pre, "Destroy", post);
    *(void **)&add_data = jl_real(pre, "AddData", post);
    *(void **)&add_file = jl_real(pre, "AddFile", post);
    *(void **)&complete = jl_real(pre, "Complete", post);
    *(void **)&size = jl_real(pre, "GetLinkedPtxSize", post);
    *(void **)&get = jl_real(pre, "GetLinkedPtx", post);
    if (!create || !destroy || !add_data || !add_file || !complete || !size || !get)
        return NULL;
    const char **opts = calloc(l->nopts + 1, sizeof *opts);
    if (!opts)
        return NULL;
    for (unsigned i = 0; i < l->nopts; i++)
        opts[i] = l->opts[i];
    opts[l->nopts] = "-ptx";
    void *h = NULL;
    char *ptx = NULL;
    size_t n = 0;
    if (create(&h, l->nopts + 1, opts) == 0) {
        int ok = 1;
        for (struct jl_input *in = l->inputs; in && ok; in = in->next)
            ok = (in->data ? add_data(h, in->type, in->data, in->size, in->name)
                           : add_file(h, in->type, in->name)) == 0;
        if (ok && complete(h) == 0 && size(h, &n) == 0 && n && (ptx = malloc(n + 1))) {
            if (get(h, ptx) == 0) {
                ptx[n] = 0;
            } else {
                free(ptx);
                ptx = NULL;
            }
        }
        destroy(&h);
    }
    free(opts);
    return ptx;
}

static jl_result jl_complete(const char *pre, const char *post, void *h)
{
    jl_complete_fn f;
    *(void **)&f = jl_real(pre, "Complete", post);
    if (!f)
        return JL_INTERNAL;
    if (jl_inside)
        return f(h);
    jl_inside = 1;
    jl_result r = f(h);
    jl_inside = 0;
    if (r != 0)
        return r;
    /* Take the link out of the list while it is replayed (nvJitLink may be called from
     * other threads meanwhile); one handle is not used from two threads at once. */
    pthread_mutex_lock(&lock);
    struct jl_link **p = jl_find(h), *l = *p;
    if (l)
        *p = l->next;
    pthread_mutex_unlock(&lock);
    if (!l)
        return r;
    if (l->lto && !l->ptx) {
        jl_inside = 1;
        l->ptx = jl_replay(pre, post, l);
        jl_inside = 0;
    }
    pthread_mutex_lock(&lock);
    l->next = links;
    links = l;
    pthread_mutex_unlock(&lock);
    return r;
}

static jl_result jl_get_cubin(const char *pre, const char *post, void *h, void *cubin)
{
    jl_get_fn f;
    jl_size_fn size;
    *(void **)&f = jl_real(pre, "GetLinkedCubin", post);
    *(void **)&size = jl_real(pre, "GetLinkedCubinSize", post);
    if (!f)
        return JL_INTERNAL;
    if (jl_inside)
        return f(h, cubin);
    jl_inside = 1;
    jl_result r = f(h, cubin);
    jl_inside = 0;
    size_t len = 0;
    jl_inside = 1;
    int sized = r == 0 && cubin && size && size(h, &len) == 0 && len;
    jl_inside = 0;
    if (!sized)
        return r;
    char *ptx = NULL;
    pthread_mutex_lock(&lock);
    struct jl_link *l = *jl_find(h);
    if (l && l->ptx)
        ptx = strdup(l->ptx);
    pthread_mutex_unlock(&lock);
    if (ptx)
        remember_ptx(ptx, cubin, len);
    return r;
}

#define JL_ENTRY_POINTS(pre, post)                                                              \
    jl_result pre##nvJitLinkCreate##post(void **h, unsigned n, const char **opts)               \
    { return jl_create(#pre, #post, h, n, opts); }                                              \
    jl_result pre##nvJitLinkDestroy##post(void **h)                                             \
    { return jl_destroy(#pre, #post, h); }                                                      \
    jl_result pre##nvJitLinkAddData##post(void *h, int type, const void *data, size_t size,     \
                                          const char *name)                                     \
    { return jl_add_data(#pre, #post, h, type, data, size, name); }                             \
    jl_result pre##nvJitLinkAddFile##post(void *h, int type, const char *file)                  \
    { return jl_add_file(#pre, #post, h, type, file); }                                         \
    jl_result pre##nvJitLinkComplete##post(void *h)                                             \
    { return jl_complete(#pre, #post, h); }                                                     \
    jl_result pre##nvJitLinkGetLinkedCubin##post(void *h, void *cubin)                          \
    { return jl_get_cubin(#pre, #post, h, cubin); }

JL_ENTRY_POINTS(, )
JL_ENTRY_POINTS(__, _12_0) JL_ENTRY_POINTS(__, _12_1) JL_ENTRY_POINTS(__, _12_2)
JL_ENTRY_POINTS(__, _12_3) JL_ENTRY_POINTS(__, _12_4) JL_ENTRY_POINTS(__, _12_5)
JL_ENTRY_POINTS(__, _12_6) JL_ENTRY_POINTS(__, _12_7) JL_ENTRY_POINTS(__, _12_8)
JL_ENTRY_POINTS(__, _12_9) JL_ENTRY_POINTS(__, _13_0) JL_ENTRY_POINTS(__, _13_1)
JL_ENTRY_POINTS(__, _13_2)
