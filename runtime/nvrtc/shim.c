/* libptxemu_nvrtc.so: NVRTC's cubins on the emulator.
 *
 * A program that compiles CUDA C++ with NVRTC for a real architecture (--gpu-architecture=
 * sm_90) hands the driver a cubin, SASS the emulator cannot run.  NVRTC made PTX on the way,
 * and the program object still holds it.  `ptxrun ./app` preloads this library: its
 * nvrtcGetCUBIN gives the program NVRTC's cubin unchanged and keeps, beside a copy of it, the
 * same program's PTX; the emulator's driver, handed that cubin (cuModuleLoadData, cuLinkAddData,
 * cuLibraryLoadData, a file), asks ptxemu_nvrtc_ptx() for the PTX and loads that instead.
 * Nothing else of NVRTC is touched.  A program linked with NVRTC's static library calls its
 * own copy, which no preloaded library can stand in for: its cubins stay refused. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
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

static int find_nvrtc(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *base = slash ? slash + 1 : info->dlpi_name;
    if (strncmp(base, "libnvrtc.so", 11) != 0)
        return 0;
    *(void **)data = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    return *(void **)data != NULL;
}

/* NVRTC's own definition of name: the next one after this library, else the loaded
 * libnvrtc's (a library opened with RTLD_LOCAL, as Python opens extension modules, is not
 * in the search order that RTLD_NEXT follows). */
static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (f)
        return f;
    void *h = NULL;
    dl_iterate_phdr(find_nvrtc, &h);
    return h ? dlsym(h, name) : NULL;
}

/* Remember cubin (len bytes) with prog's PTX.  Failures only lose the remembering: the
 * driver then refuses the cubin, as without this library. */
static void remember(nvrtc_program prog, const char *cubin, size_t len)
{
    get_size_fn ptx_size;
    get_fn get_ptx;
    *(void **)&ptx_size = real("nvrtcGetPTXSize");
    *(void **)&get_ptx = real("nvrtcGetPTX");
    size_t n = 0;
    if (!ptx_size || !get_ptx || ptx_size(prog, &n) != 0 || n == 0)
        return;
    struct entry *e = calloc(1, sizeof *e);
    char *ptx = malloc(n + 1);
    unsigned char *copy = malloc(len);
    if (!e || !ptx || !copy || get_ptx(prog, ptx) != 0) {
        free(e);
        free(ptx);
        free(copy);
        return;
    }
    ptx[n] = 0;
    memcpy(copy, cubin, len);
    e->cubin = copy;
    e->cubin_len = len;
    e->ptx = ptx;
    pthread_mutex_lock(&lock);
    e->next = entries;
    entries = e;
    pthread_mutex_unlock(&lock);
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
