/* module.c: modules and libraries (PTX text, a fatbin, or the fatbin wrapper a CUDA program
 * registers: its newest PTX for sm_90 or below, or for an -rdc program the PTX of each of its
 * translation units, linked, is loaded on the device), their functions, kernels and
 * globals, function attributes. */
#include <dlfcn.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"
#include "runtime/driver/drv.h"
#include "runtime/fatbin.h"

static uint32_t rd32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* The kernels of a fatbin without usable PTX, for the message. */
static void list_kernels(rt_fatbin_t *fb, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < fb->nentry && k + 4 < size; i++) {
        char *payload = NULL;
        size_t n = 0;
        char **names = NULL;
        uint32_t nn = 0;
        if (rt_fatbin_payload(fb, i, &payload, &n) != ISA_ST_OK)
            continue;
        if (rt_fatbin_kernels(&fb->entries[i], payload, n, &names, &nn) == ISA_ST_OK) {
            for (uint32_t j = 0; j < nn; j++) {
                if (!strstr(buf, names[j]) && k + strlen(names[j]) + 3 < size)
                    k += (size_t)snprintf(buf + k, size - k, "%s%s", k ? ", " : "", names[j]);
                free(names[j]);
            }
            free(names);
        }
        free(payload);
    }
}

/* The PTX text of a fatbin: its newest PTX entry the H100 can run. */
static CUresult fatbin_ptx(rt_fatbin_t *fb, isa_status_t st, const char *fn, char **text, size_t *len)
{
    if (st != ISA_ST_OK)
        return drv_fail(CUDA_ERROR_INVALID_IMAGE, fn, "%s", fb->msg);
    int i = rt_fatbin_pick_ptx(fb, 90);
    /* None for sm_90 or below: the oldest PTX for a newer architecture.  NVIDIA's math
     * libraries ship SASS for sm_90 and PTX only for compute_120, made from the same
     * sources (tests/apps/cublas_level1 runs on it as on the H100's SASS); an instruction
     * the H100 lacks is refused when the kernel is prepared, naming it. */
    for (uint32_t a = 91; i < 0 && a <= 255; a++)
        if ((i = rt_fatbin_pick_ptx(fb, a)) >= 0) {
            /* once per process: the kernels were made for another GPU (their launch bounds
             * stay: a launch beyond them is refused, as cuSPARSE's 512-thread SpMV) */
            static bool told;
            if (!__atomic_exchange_n(&told, true, __ATOMIC_RELAXED))
                fprintf(stderr, "ptxemu: note: %s: no PTX for sm_90 or below; running PTX made for compute_%u "
                        "(a library's kernels for a newer GPU, from the sources of its sm_90 SASS)\n", fn,
                        fb->entries[i].arch);
        }
    if (i < 0) {
        char kernels[512];
        list_kernels(fb, kernels, sizeof kernels);
        return drv_fail(CUDA_ERROR_NO_BINARY_FOR_GPU, fn,
                        "the program has no PTX for sm_90 or below (kernels: %s); the emulator runs PTX only: "
                        "rebuild with -gencode arch=compute_90,code=compute_90 (or another compute_XX up to 90)",
                        kernels[0] ? kernels : "none");
    }
    if (rt_fatbin_payload(fb, (uint32_t)i, text, len) != ISA_ST_OK)
        return drv_fail(CUDA_ERROR_INVALID_IMAGE, fn, "%s", fb->msg);
    return CUDA_SUCCESS;
}

/* An -rdc program registers a version-2 wrapper: its data fatbin holds only the SASS that
 * nvlink linked, and each translation unit's PTX is in its own prelinked fatbin
 * (containers 1 and on).  Those PTX units are linked here as nvlink linked their SASS.  A
 * prelinked fatbin without PTX for sm_90 or below adds nothing: nvcc links the CUDA
 * device runtime (libcudadevrt, SASS and compute_121 PTX) into every -rdc program, and
 * the program needs it only for device-side launches; an unresolved name says so.
 * *out stays NULL when no prelinked fatbin has PTX (the caller then looks at them all). */
static CUresult rdc_link(rt_fatbin_t *fb, const char *fn, const char *modname, isa_module_t **out)
{
    *out = NULL;
    uint32_t nc = fb->ncontainer;
    char **texts = calloc(nc + 1, sizeof *texts), **names = calloc(nc + 1, sizeof *names);
    size_t *lens = calloc(nc + 1, sizeof *lens);
    CUresult r = texts && names && lens ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    unsigned n = 0, skipped = 0;
    for (uint32_t c = 1; c < nc && r == CUDA_SUCCESS; c++) {
        int e = rt_fatbin_pick_ptx_in(fb, c, 90);
        if (e < 0) {
            skipped++;
            continue;
        }
        if (rt_fatbin_payload(fb, (uint32_t)e, &texts[n], &lens[n]) != ISA_ST_OK) {
            r = drv_fail(CUDA_ERROR_INVALID_IMAGE, fn, "%s", fb->msg);
            break;
        }
        size_t k = strlen(modname) + 32;
        if (!(names[n] = malloc(k)))
            r = CUDA_ERROR_OUT_OF_MEMORY;
        else
            snprintf(names[n], k, "%.*s.unit%u.ptx", (int)(strlen(modname) - 4), modname, n + 1);
        n++;
    }
    if (r == CUDA_SUCCESS && n) {
        isa_status_t st = drv_link_units(n, (const char *const *)names, (const char *const *)texts, lens, NULL, stderr,
                                         out);
        if (st != ISA_ST_OK) {
            if (skipped)
                fprintf(stderr, "ptxemu: %s: note: %u of the program's %u prelinked fatbins %s no PTX for sm_90 or "
                        "below (such as the CUDA device runtime, libcudadevrt, which nvcc links into every -rdc "
                        "program); what they define is not available\n",
                        fn, skipped, nc - 1, skipped == 1 ? "holds" : "hold");
            r = st == ISA_ST_NOMEM ? CUDA_ERROR_OUT_OF_MEMORY
                                   : drv_fail(CUDA_ERROR_INVALID_PTX, fn, "linking the program's %u PTX units failed "
                                              "(-rdc; the errors are above)", n);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        free(texts[i]);
        free(names[i]);
    }
    free(texts);
    free(names);
    free(lens);
    return r;
}

/* What ptxas allocated for the kernels, from the SASS for sm_90 a fatbin carries beside its
 * PTX (the H100 runs that SASS; its JIT, given the same PTX, allocates the same: measured,
 * tests/apps/func_regs.cu).  Appended to *v. */
static void fatbin_kres(rt_fatbin_t *fb, rt_kres_t **v, uint32_t *n)
{
    for (uint32_t i = 0; i < fb->nentry && !*n; i++) {
        const rt_fb_entry_t *e = &fb->entries[i];
        char *img = NULL;
        size_t len = 0;
        if (e->kind != RT_FB_ELF || e->arch != 90 || rt_fatbin_payload(fb, i, &img, &len) != ISA_ST_OK)
            continue;
        if (rt_cubin_resources(img, len, v, n) != ISA_ST_OK) {
            *v = NULL;
            *n = 0;
        }
        free(img);
    }
}

/* The size of an ELF image in memory: its section headers come last (as in every cubin). */
static size_t elf_image_size(const uint8_t *b)
{
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, b + 0x28, 8);
    memcpy(&shentsize, b + 0x3a, 2);
    memcpy(&shnum, b + 0x3c, 2);
    return (size_t)(shoff + (uint64_t)shentsize * shnum);
}

/* Gives the module's entries what ptxas allocated for them. */
static void apply_kres(drv_module_t *mod, const rt_kres_t *v, uint32_t n)
{
    if (!n || !(mod->hw_local = calloc(mod->m->nfunc + 1, sizeof *mod->hw_local)))
        return;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < mod->m->nfunc; i++)
            if (mod->m->funcs[i].is_entry && strcmp(mod->m->funcs[i].name, v[k].name) == 0 && v[k].regs) {
                ex_set_entry_regs(mod->p, i, v[k].regs);
                mod->hw_local[i] = v[k].frame;
            }
}

/* For a module of PTX alone (no SASS for sm_90 beside it), what the H100's JIT allocates:
 * ptxas -arch=sm_90 -v on the module's text, where the toolkit is installed (the driver's
 * JIT and ptxas 13 allocate the same: measured, tests/apps/func_regs.cu).  Once per
 * module, when a register count is first needed; without ptxas the counts stay unknown. */
static void ptxas_kres(drv_module_t *mod)
{
    if (mod->hw_local || mod->m->nsrc != 1 || !mod->m->srcs[0].text ||
        ISA_SM_ORDER(mod->m->sm) > ISA_SM_ORDER(ISA_SM_90A))
        return;
    rt_kres_t *v = NULL;
    uint32_t n = 0;
    if (rt_ptxas_resources(mod->m->srcs[0].text, mod->m->sm == ISA_SM_90A, mod->maxrreg, &v, &n) == ISA_ST_OK) {
        apply_kres(mod, v, n);
        rt_kres_free(v, n);
    }
}

/* The registers ptxas allocated for f's entry, learning them first if need be; 0 when not known. */
uint32_t drv_func_regs(drv_func_t *f)
{
    uint32_t r = ex_entry_regs(f->mod->p, f->entry);
    if (!r && !__atomic_load_n(&f->mod->kres_tried, __ATOMIC_ACQUIRE)) {
        static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
        pthread_mutex_lock(&lock);
        if (!f->mod->kres_tried) {
            ptxas_kres(f->mod);
            __atomic_store_n(&f->mod->kres_tried, true, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
        r = ex_entry_regs(f->mod->p, f->entry);
    }
    return r;
}

static void module_free(drv_module_t *mod)
{
    if (!mod)
        return;
    for (uint32_t i = 0; mod->funcs && i < mod->nfunc; i++)
        if (mod->funcs[i]) {
            free(mod->funcs[i]->param_offset);
            free(mod->funcs[i]->param_size);
            mod->funcs[i]->tag = 0;
            free(mod->funcs[i]);
        }
    free(mod->funcs);
    free(mod->hw_local);
    if (mod->p) {
        for (uint32_t v = 0; v < mod->m->nvar; v++) {
            void *h = ex_program_var_host(mod->p, v);
            const drv_alloc_t *a = h ? drv_alloc_find((uintptr_t)h, 0) : NULL;
            if (a && a->base == (uintptr_t)h && a->kind == DRV_MEM_MODULE) {
                drv_alloc_forget((uintptr_t)h);   /* module memory is the program's */
            }
        }
        ex_program_free(mod->p);
    }
    if (mod->m)
        isa_module_free(mod->m);
    free(mod->name);
    mod->tag = 0;
    free(mod);
}

/* How many bytes the ELF image spans (size bytes at most; 0: as far as its headers say):
 * the furthest end of its header, header tables, sections' contents and segments', read
 * with libelf; 0 when it is no ELF. */
static size_t elf_extent(const void *image, size_t size)
{
    elf_version(EV_CURRENT);
    Elf *e = elf_memory((char *)image, size ? size : (size_t)1 << 40);
    GElf_Ehdr eh;
    size_t end = 0, n = 0;
    if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
        goto out;
    end = eh.e_ehsize;
    if (elf_getphdrnum(e, &n) == 0 && n) {
        end = eh.e_phoff + n * eh.e_phentsize > end ? eh.e_phoff + n * eh.e_phentsize : end;
        for (size_t i = 0; i < n; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(e, (int)i, &ph) && ph.p_offset + ph.p_filesz > end)
                end = ph.p_offset + ph.p_filesz;
        }
    }
    if (elf_getshdrnum(e, &n) == 0 && n && eh.e_shoff + n * eh.e_shentsize > end)
        end = eh.e_shoff + n * eh.e_shentsize;
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > end)
            end = sh.sh_offset + sh.sh_size;
    }
out:
    elf_end(e);
    return end;
}

const char *drv_nvrtc_ptx(const void *image, size_t size)
{
    typedef const char *(*lookup_fn)(const void *, size_t);
    lookup_fn f;
    *(void **)&f = dlsym(RTLD_DEFAULT, "ptxemu_nvrtc_ptx");
    if (!f)
        return NULL;
    size_t n = elf_extent(image, size);
    if (n == 0 || (size && n > size))
        return NULL;
    return f(image, n);
}

/* Load image: a fatbin wrapper, a fatbin, PTX text, a cubin NVRTC made (its PTX), or
 * (refused) another cubin.  PTX text for a newer GPU than the H100 (.target sm_100 and up)
 * is refused as the H100's JIT refuses it (CUDA_ERROR_INVALID_PTX).  The frontend's errors
 * go to log's buffer when the caller gave one (cuModuleLoadDataEx's
 * CU_JIT_ERROR_LOG_BUFFER), else to stderr.  A module
 * belongs to the current context; a library (library true) to none: it is usable in every
 * context and needs no current one (the runtime loads its library before it makes a context
 * when the host first touches a __managed__ variable). */
static CUresult load(const char *fn, const void *image, bool library, drv_jit_log_t *log, drv_module_t **out)
{
    drv_ctx_t *c = NULL;
    CUresult r = library ? (drv.inited ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED) : drv_enter(&c);
    if (r)
        return r;
    if (!image || !out)
        return CUDA_ERROR_INVALID_VALUE;
    drv_flush_output();
    static unsigned nloaded;
    char name[64];
    snprintf(name, sizeof name, "module%u.ptx", __atomic_add_fetch(&nloaded, 1, __ATOMIC_RELAXED));
    char *text = NULL;
    size_t len = 0;
    isa_module_t *linked = NULL;
    bool raw = false;           /* PTX text, not from a fatbin */
    rt_kres_t *kres = NULL;     /* what ptxas allocated for the kernels, where known */
    unsigned maxrreg = 0;       /* a linked image's CU_JIT_MAX_REGISTERS */
    uint32_t nkres = 0;
    const uint8_t *b = image;
    if (rd32(b) == RT_FATBINC_MAGIC) {
        rt_fatbin_t fb;
        isa_status_t st = rt_fatbin_open_wrapper(image, &fb);
        if (st == ISA_ST_OK && rd32(b + 4) == 2)
            r = rdc_link(&fb, fn, name, &linked);
        if (r == CUDA_SUCCESS && !linked)
            r = fatbin_ptx(&fb, st, fn, &text, &len);
        if (r == CUDA_SUCCESS)
            fatbin_kres(&fb, &kres, &nkres);
        rt_fatbin_free(&fb);
    } else if (rd32(b) == RT_FATBIN_MAGIC) {
        uint64_t body;
        memcpy(&body, b + 8, 8);
        rt_fatbin_t fb;
        isa_status_t st = rt_fatbin_open_bytes(image, (size_t)(16 + body), &fb);
        r = fatbin_ptx(&fb, st, fn, &text, &len);
        if (r == CUDA_SUCCESS)
            fatbin_kres(&fb, &kres, &nkres);
        rt_fatbin_free(&fb);
    } else if (b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
        const char *ptx = drv_nvrtc_ptx(image, 0);
        if (ptx) {
            if (b[4] == ELFCLASS64 && rt_cubin_resources(image, elf_image_size(b), &kres, &nkres) != ISA_ST_OK) {
                kres = NULL;
                nkres = 0;
            }
            len = strlen(ptx);
            text = strdup(ptx);
            if (!text)
                return CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            r = drv_fail(CUDA_ERROR_NO_BINARY_FOR_GPU, fn,
                         "a cubin (SASS) cannot run on the emulator, which runs PTX: load the PTX, or build with "
                         "-gencode arch=compute_90,code=compute_90 (NVRTC's cubins run when the program runs "
                         "under ptxrun)");
        }
    } else {
        raw = true;
        len = strlen(image);
        if (strncmp(image, DRV_MAXRREG_MARK, strlen(DRV_MAXRREG_MARK)) == 0)
            maxrreg = (unsigned)strtoul((const char *)image + strlen(DRV_MAXRREG_MARK), NULL, 10);
        text = malloc(len + 1);
        if (!text)
            return CUDA_ERROR_OUT_OF_MEMORY;
        memcpy(text, image, len + 1);
    }
    drv_module_t *mod = r ? NULL : calloc(1, sizeof *mod);
    if (!mod) {
        free(text);
        isa_module_free(linked);
        rt_kres_free(kres, nkres);
        return r ? r : CUDA_ERROR_OUT_OF_MEMORY;
    }
    mod->tag = DRV_MODULE;
    mod->maxrreg = maxrreg;
    mod->ctx = c;   /* NULL: a library, in every context */
    mod->name = strdup(name);
    isa_status_t st = ISA_ST_OK;
    char *msgs = NULL;
    size_t mlen = 0;
    FILE *diag = log && log->buf && log->cap ? open_memstream(&msgs, &mlen) : NULL;
    if (!diag)
        diag = stderr;
    if (linked) {
        mod->m = linked;
    } else {
        fe_options_t fo = { .diag = diag };
        st = fe_load_text(name, text, len, &fo, &mod->m);
        if (st == ISA_ST_OK)   /* device-runtime functions written in PTX (frontend/devrt.c) */
            st = drv_link_devrt(&mod->m, diag);
        if (st == ISA_ST_OK && raw && ISA_SM_ORDER(mod->m->sm) > ISA_SM_ORDER(ISA_SM_90A)) {
            fprintf(diag, "%s: error: .target %s is newer than the H100 (sm_90): the CUDA driver's JIT refuses "
                    "it (\"SM version specified by .target is higher than default SM version assumed\")\n", name,
                    isa_sms[mod->m->sm].text);
            st = ISA_ST_SYNTAX;
        }
    }
    free(text);
    /* What the H100's driver refuses at loading (32-bit modules; suq of formats, opaque
     * kernel parameters: measured, docs/textures.md). */
    ex_refusal_t refused = EX_REFUSAL_NONE;
    if (st == ISA_ST_OK) {
        mod->p = ex_program_new(drv.dev, mod->m);
        if (!mod->p)
            st = ISA_ST_NOMEM;
        else if ((refused = ex_program_refusal(mod->p, NULL)) >= EX_REFUSAL_NOT_SUPPORTED)
            ex_program_refusal(mod->p, diag);
    }
    if (diag != stderr) {
        fclose(diag);
        drv_jit_log_put(log, msgs ? msgs : "");
        free(msgs);
    }
    if (st == ISA_ST_OK)
        apply_kres(mod, kres, nkres);
    rt_kres_free(kres, nkres);
    if (st != ISA_ST_OK) {
        module_free(mod);
        return st == ISA_ST_NOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_PTX;
    }
    mod->nfunc = mod->m->nfunc;
    mod->funcs = calloc(mod->nfunc + 1, sizeof *mod->funcs);
    if (!mod->funcs) {
        module_free(mod);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (refused >= EX_REFUSAL_NOT_SUPPORTED) {
        module_free(mod);
        if (refused == EX_REFUSAL_INVALID_PTX)
            return drv_fail(CUDA_ERROR_INVALID_PTX, fn, "the CUDA driver does not load 32-bit modules on the H100");
        return refused == EX_REFUSAL_INVALID_IMAGE
                   ? drv_fail(CUDA_ERROR_INVALID_IMAGE, fn, "the module's kernels take parameters the CUDA driver "
                              "refuses (listed above)")
                   : drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "the module holds instructions the CUDA driver refuses "
                              "(listed above)");
    }
    for (uint32_t v = 0; v < mod->m->nvar; v++) {
        void *h = ex_program_var_host(mod->p, v);
        if (h && mod->m->vars[v].size)
            drv_alloc_add(h, mod->m->vars[v].size, DRV_MEM_MODULE, 0, false);
    }
    *out = mod;
    return CUDA_SUCCESS;
}

static bool module_ok(const drv_module_t *m) { return m && m->tag == DRV_MODULE; }

DRV_API CUresult cuModuleLoadData(CUmodule *out, const void *image) { return load(__func__, image, false, NULL, out); }
DRV_API CUresult cuModuleLoadFatBinary(CUmodule *out, const void *image)
{
    return load(__func__, image, false, NULL, out);
}
/* Load image with n JIT options: the logs are written (their size options learn what
 * each holds: 0 for a module that loads, as the H100's driver answers); the other options
 * steer a compiler the emulator does not have. */
static CUresult load_jit(const char *fn, const void *image, bool library, unsigned n, const int *opts, void **vals,
                         drv_module_t **out)
{
    if (n && (!opts || !vals))
        return CUDA_ERROR_INVALID_VALUE;
    drv_jit_log_t err = { 0 }, info = { 0 };
    unsigned maxrreg = 0;
    drv_jit_options(n, opts, vals, &err, &info, &maxrreg);
    CUresult r = load(fn, image, library, &err, out);
    if (r == CUDA_SUCCESS && maxrreg)
        (*out)->maxrreg = maxrreg;
    if (err.size_slot)
        *err.size_slot = (void *)(uintptr_t)err.used;
    if (info.size_slot)
        *info.size_slot = (void *)(uintptr_t)info.used;
    return r;
}

DRV_API CUresult cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned n, int *opts, void **vals)
{
    return load_jit(__func__, image, false, n, opts, vals, out);
}

/* The whole file at path, NUL-terminated, in *out (malloc'd; its length in *len):
 * CUDA_ERROR_FILE_NOT_FOUND when it cannot be opened, CUDA_ERROR_OUT_OF_MEMORY. */
CUresult drv_read_file(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return CUDA_ERROR_FILE_NOT_FOUND;
    char *buf = NULL;
    size_t n = 0, cap = 0, k;
    do {
        if (n + 1 >= cap) {
            cap = cap ? 2 * cap : 1 << 16;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return CUDA_ERROR_OUT_OF_MEMORY;
            }
            buf = nb;
        }
        k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
    } while (k);
    fclose(f);
    buf[n] = 0;
    *out = buf;
    *len = n;
    return CUDA_SUCCESS;
}

static CUresult load_file(const char *fn, const char *path, bool library, drv_module_t **out)
{
    CUresult r = library ? (drv.inited ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED) : drv_enter(NULL);
    if (r)
        return r;
    if (!out || !path)
        return CUDA_ERROR_INVALID_VALUE;
    char *buf;
    size_t n;
    if ((r = drv_read_file(path, &buf, &n)))
        return r;
    r = load(fn, buf, library, NULL, out);
    free(buf);
    return r;
}

DRV_API CUresult cuModuleLoad(CUmodule *out, const char *path) { return load_file(__func__, path, false, out); }

DRV_API CUresult cuModuleUnload(CUmodule m)
{
    if (!drv.inited)
        return CUDA_ERROR_DEINITIALIZED;
    if (!module_ok(m))
        return CUDA_ERROR_INVALID_HANDLE;
    drv_flush_output();
    module_free(m);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuModuleGetLoadingMode(int *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = drv.loading_mode ? drv.loading_mode : CU_MODULE_LAZY_LOADING;
    return CUDA_SUCCESS;
}

/* Parameter layout of entry f: each parameter at the next offset aligned to its alignment. */
static bool layout(drv_func_t *f)
{
    const isa_func_t *fn = &f->mod->m->funcs[f->entry];
    f->param_offset = calloc(fn->nparam + 1, sizeof *f->param_offset);
    f->param_size = calloc(fn->nparam + 1, sizeof *f->param_size);
    if (!f->param_offset || !f->param_size)
        return false;
    uint64_t off = 0;
    for (uint32_t i = 0; i < fn->nparam; i++) {
        uint32_t al = isa_var_align(&fn->params[i]);
        off = al ? (off + al - 1) / al * al : off;
        f->param_offset[i] = (uint32_t)off;
        f->param_size[i] = (uint32_t)isa_var_size(&fn->params[i]);
        off += f->param_size[i];
    }
    f->params_size = (uint32_t)off;
    return true;
}

drv_func_t *drv_module_func(drv_module_t *m, uint32_t entry)
{
    pthread_mutex_lock(&drv.lock);
    drv_func_t *f = m->funcs[entry];
    if (!f && (f = calloc(1, sizeof *f)) != NULL) {
        f->tag = DRV_FUNC;
        f->mod = m;
        f->entry = entry;
        f->max_dyn_shared = 48 * 1024 - (uint32_t)ex_entry_shared(m->p, entry);
        f->carveout = -1;
        if (!layout(f)) {
            free(f->param_offset);
            free(f->param_size);
            free(f);
            f = NULL;
        } else {
            m->funcs[entry] = f;
        }
    }
    pthread_mutex_unlock(&drv.lock);
    return f;
}

static CUresult get_function(const char *api, CUfunction *out, drv_module_t *m, const char *name)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!out || !name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!module_ok(m))
        return CUDA_ERROR_INVALID_HANDLE;
    for (uint32_t i = 0; i < m->m->nfunc; i++) {
        const isa_func_t *fn = &m->m->funcs[i];
        if (fn->is_entry && fn->has_body && strcmp(fn->name, name) == 0) {
            /* A kernel reaching what the H100's driver leaves out of the module (txq of
             * formats and sampler state: measured, docs/textures.md) is not found. */
            if (ex_program_entry_refusal(m->p, i) == EX_REFUSAL_NOT_FOUND) {
                ex_program_check_entry(m->p, i, stderr);
                return drv_fail(CUDA_ERROR_NOT_FOUND, api,
                                "kernel %s is left out of its module as the CUDA driver leaves it (listed above)",
                                name);
            }
            drv_func_t *f = drv_module_func(m, i);
            if (!f)
                return CUDA_ERROR_OUT_OF_MEMORY;
            *out = f;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

DRV_API CUresult cuModuleGetFunction(CUfunction *out, CUmodule m, const char *name) { return get_function(__func__, out, m, name); }

DRV_API CUresult cuModuleGetFunctionCount(unsigned int *n, CUmodule m)
{
    if (!n)
        return CUDA_ERROR_INVALID_VALUE;
    if (!module_ok(m))
        return CUDA_ERROR_INVALID_HANDLE;
    unsigned k = 0;
    for (uint32_t i = 0; i < m->m->nfunc; i++)
        k += m->m->funcs[i].is_entry && m->m->funcs[i].has_body;
    *n = k;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuModuleEnumerateFunctions(CUfunction *fs, unsigned int n, CUmodule m)
{
    if (!fs)
        return CUDA_ERROR_INVALID_VALUE;
    if (!module_ok(m))
        return CUDA_ERROR_INVALID_HANDLE;
    unsigned k = 0;
    for (uint32_t i = 0; i < m->m->nfunc && k < n; i++)
        if (m->m->funcs[i].is_entry && m->m->funcs[i].has_body)
            if (!(fs[k++] = drv_module_func(m, i)))
                return CUDA_ERROR_OUT_OF_MEMORY;
    return CUDA_SUCCESS;
}

static CUresult get_global(CUdeviceptr *dp, size_t *bytes, drv_module_t *m, const char *name)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!module_ok(m))
        return CUDA_ERROR_INVALID_HANDLE;
    for (uint32_t v = 0; v < m->m->nvar; v++) {
        if ((m->m->vars[v].flags & ISA_VARF_FSCOPE) || strcmp(m->m->vars[v].name, name) != 0)
            continue;
        void *h = ex_program_var_host(m->p, v);
        if (!h)
            break;
        if (dp)
            *dp = (CUdeviceptr)(uintptr_t)h;
        if (bytes)
            *bytes = m->m->vars[v].size;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_NOT_FOUND;
}

DRV_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dp, size_t *bytes, CUmodule m, const char *name)
{
    return get_global(dp, bytes, m, name);
}

/*{=====================================================================
 * Libraries: a library is a module loaded in every context; a kernel is its function.
 *====================================================================*/

DRV_API CUresult cuLibraryLoadData(CUlibrary *out, const void *code, void *jit_opts, void **jit_vals, unsigned njit,
                                   void *lib_opts, void **lib_vals, unsigned nlib)
{
    (void)lib_opts, (void)lib_vals, (void)nlib;
    return load_jit(__func__, code, true, njit, jit_opts, jit_vals, out);
}

DRV_API CUresult cuLibraryLoadFromFile(CUlibrary *out, const char *path, void *jit_opts, void **jit_vals,
                                       unsigned njit, void *lib_opts, void **lib_vals, unsigned nlib)
{
    (void)jit_opts, (void)jit_vals, (void)njit, (void)lib_opts, (void)lib_vals, (void)nlib;
    return load_file(__func__, path, true, out);
}

DRV_API CUresult cuLibraryUnload(CUlibrary l) { return cuModuleUnload(l); }

DRV_API CUresult cuLibraryGetKernel(CUkernel *out, CUlibrary l, const char *name) { return get_function(__func__, out, l, name); }

DRV_API CUresult cuLibraryGetModule(CUmodule *out, CUlibrary l)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!module_ok(l))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = l;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuKernelGetFunction(CUfunction *out, CUkernel k)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!k || k->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = k;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuKernelGetLibrary(CUlibrary *out, CUkernel k)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!k || k->tag != DRV_FUNC)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = k->mod;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLibraryGetGlobal(CUdeviceptr *dp, size_t *bytes, CUlibrary l, const char *name)
{
    return get_global(dp, bytes, l, name);
}

DRV_API CUresult cuLibraryGetManaged(CUdeviceptr *dp, size_t *bytes, CUlibrary l, const char *name)
{
    return get_global(dp, bytes, l, name);
}

DRV_API CUresult cuLibraryGetKernelCount(unsigned int *n, CUlibrary l) { return cuModuleGetFunctionCount(n, l); }
DRV_API CUresult cuLibraryEnumerateKernels(CUkernel *ks, unsigned int n, CUlibrary l)
{
    return cuModuleEnumerateFunctions(ks, n, l);
}

DRV_API CUresult cuLibraryGetUnifiedFunction(void **fptr, CUlibrary l, const char *name)
{
    (void)fptr, (void)l, (void)name;
    return CUDA_ERROR_NOT_FOUND;
}

/*{=====================================================================
 * Function attributes
 *====================================================================*/

static bool func_ok(const drv_func_t *f) { return f && f->tag == DRV_FUNC; }

/* The entry's performance directive id, or NULL. */
static const isa_perf_t *func_perf(const drv_func_t *f, isa_dir_t id)
{
    const isa_func_t *fn = &f->mod->m->funcs[f->entry];
    for (uint32_t i = 0; i < fn->nperf; i++)
        if (fn->perf[i].id == id)
            return &fn->perf[i];
    return NULL;
}

/* CU_FUNC_ATTRIBUTE_PTX_VERSION: the virtual architecture the PTX was written for, from
 * its .target (sm_75 -> 75, sm_90a -> 90), as the H100 answers for PTX it compiled (CUB
 * picks its tuning policies, and the kernels it launches, by it); 90 without one. */
static int ptx_target(const isa_module_t *m)
{
    for (uint32_t i = 0; i < m->ntarget; i++) {
        const char *t = m->targets[i];
        if (strncmp(t, "sm_", 3) == 0 && t[3] >= '0' && t[3] <= '9')
            return atoi(t + 3);
    }
    return 90;
}

DRV_API CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    const isa_func_t *fn = &f->mod->m->funcs[f->entry];
    switch (attr) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: {
        drv_func_regs(f);
        int n = (int)ex_entry_max_threads(f->mod->p, f->entry);
        for (uint32_t i = 0; i < fn->nperf; i++)
            if (fn->perf[i].id == ISA_D_MAXNTID || fn->perf[i].id == ISA_D_REQNTID) {
                int t = 1;
                for (uint32_t k = 0; k < fn->perf[i].n; k++)
                    t *= (int)fn->perf[i].v[k];
                n = t < n ? t : n;
            }
        *v = n;
        break;
    }
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *v = (int)ex_entry_shared(f->mod->p, f->entry); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: {
        uint64_t n = 0;
        for (uint32_t i = 0; i < f->mod->m->nvar; i++)
            if (isa_spaces[f->mod->m->vars[i].space].window == ISA_SP_CONST)
                n += f->mod->m->vars[i].size;
        *v = (int)n;
        break;
    }
    /* What ptxas allocated, where the fatbin's SASS for sm_90 (or NVRTC's cubin) or ptxas
     * says; else 32 registers and no local memory, an assumption */
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
        drv_func_regs(f);
        *v = f->mod->hw_local ? (int)f->mod->hw_local[f->entry] : 0;
        break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: {
        uint32_t n = drv_func_regs(f);
        *v = n ? (int)n : 32;
        break;
    }
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *v = ptx_target(f->mod->m); break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *v = 90; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *v = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *v = (int)f->max_dyn_shared; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *v = f->carveout; break;
    /* Clusters, as the H100's driver reports them (tests/apps/clusters.cu): the
     * .explicitcluster and .reqnctapercluster of the entry, or the dimension set at run time. */
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *v = func_perf(f, ISA_D_EXPLICITCLUSTER) != NULL; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: {
        unsigned k = (unsigned)(attr - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);
        const isa_perf_t *d = func_perf(f, ISA_D_REQNCTAPERCLUSTER);
        *v = d ? (int)(k < d->n ? d->v[k] : 1) : (int)f->cluster[k];
        break;
    }
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *v = f->nonportable; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *v = f->cluster_policy; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncSetAttribute(CUfunction f, int attr, int v)
{
    if (!drv.inited)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    switch (attr) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        if (v < 0 || (uint64_t)v + ex_entry_shared(f->mod->p, f->entry) > 232448)
            return CUDA_ERROR_INVALID_VALUE;
        f->max_dyn_shared = (uint32_t)v;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (v < -1 || v > 100)
            return CUDA_ERROR_INVALID_VALUE;
        f->carveout = v;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        /* a dimension the entry fixes cannot be changed; the launch checks the rest */
        if (func_perf(f, ISA_D_REQNCTAPERCLUSTER))
            return CUDA_ERROR_NOT_PERMITTED;
        if (v < 0)
            return CUDA_ERROR_INVALID_VALUE;
        f->cluster[attr - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] = (uint32_t)v;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        if (v != 0 && v != 1)
            return CUDA_ERROR_INVALID_VALUE;
        f->nonportable = v;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        if (v < 0 || v > 2)
            return CUDA_ERROR_INVALID_VALUE;
        f->cluster_policy = v;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

DRV_API CUresult cuFuncSetCacheConfig(CUfunction f, int cfg)
{
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    if (cfg < 0 || cfg > 3)
        return CUDA_ERROR_INVALID_VALUE;
    f->cache_config = cfg;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncSetSharedMemConfig(CUfunction f, int cfg)
{
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    return cfg >= 0 && cfg <= 2 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuFuncGetModule(CUmodule *out, CUfunction f)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = f->mod;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncGetName(const char **name, CUfunction f)
{
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    *name = f->mod->m->funcs[f->entry].name;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncGetParamInfo(CUfunction f, size_t index, size_t *offset, size_t *size)
{
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    if (index >= f->mod->m->funcs[f->entry].nparam)
        return CUDA_ERROR_INVALID_VALUE;
    if (offset)
        *offset = f->param_offset[index];
    if (size)
        *size = f->param_size[index];
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncIsLoaded(int *state, CUfunction f)
{
    if (!state)
        return CUDA_ERROR_INVALID_VALUE;
    if (!func_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    *state = 1;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncLoad(CUfunction f) { return func_ok(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

/* Kernels carry the same attributes, per device. */
DRV_API CUresult cuKernelGetAttribute(int *v, int attr, CUkernel k, CUdevice d)
{
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncGetAttribute(v, attr, k);
}
DRV_API CUresult cuKernelSetAttribute(int attr, int v, CUkernel k, CUdevice d)
{
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetAttribute(k, attr, v);
}
DRV_API CUresult cuKernelSetCacheConfig(CUkernel k, int cfg, CUdevice d)
{
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetCacheConfig(k, cfg);
}
DRV_API CUresult cuKernelGetName(const char **name, CUkernel k) { return cuFuncGetName(name, k); }
DRV_API CUresult cuKernelGetParamInfo(CUkernel k, size_t index, size_t *offset, size_t *size)
{
    return cuFuncGetParamInfo(k, index, offset, size);
}
