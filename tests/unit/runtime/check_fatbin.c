/* check_fatbin.c: tests of runtime/fatbin.c: hostile and truncated fatbins made here, the
 * committed samples (tests/driver/samples), and programs built with nvcc at test time. */
#include <check.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "frontend/fe.h"
#include "runtime/fatbin.h"

static const char ptx_text[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n"
                               ".visible .entry k2()\n{\n\tret;\n}\n";

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* One container with one PTX entry of ptx_text (plus its NUL), compressed as comp asks,
 * laid out as nvcc 13 lays it out (options descriptor after the 0x40-byte header, with an
 * option string).  Returns its size; buf must hold 4096 bytes. */
static size_t make_fatbin(uint8_t *buf, rt_fb_comp_t comp)
{
    memset(buf, 0, 4096);
    uint8_t *e = buf + 16;
    const size_t raw = sizeof ptx_text;   /* with the NUL */
    uint8_t pay[2048];
    size_t used;
    uint64_t flags = 0x11;
    if (comp == RT_FB_ZSTD) {
        used = ZSTD_compress(pay, sizeof pay, ptx_text, raw, 3);
        flags |= RT_FB_FLAG_ZSTD;
    } else if (comp == RT_FB_LZ4) {
        used = (size_t)LZ4_compress_default(ptx_text, (char *)pay, (int)raw, (int)sizeof pay);
        flags |= RT_FB_FLAG_LZ4;
    } else {
        memcpy(pay, ptx_text, raw);
        used = raw;
    }
    const char *opt = " -O3 ";
    uint32_t hsize = 0x50;                       /* header, descriptor {0x48, 5}, option text */
    size_t psize = (used + 7) & ~(size_t)7;
    put16(e + 0x00, RT_FB_PTX);
    put16(e + 0x02, 0x0101);
    put32(e + 0x04, hsize);
    put64(e + 0x08, psize);
    put32(e + 0x10, comp == RT_FB_PLAIN ? 0 : (uint32_t)used);
    put32(e + 0x14, 0x40);
    put16(e + 0x18, 0);
    put16(e + 0x1a, 9);
    put32(e + 0x1c, 90);
    put64(e + 0x28, flags);
    put64(e + 0x38, comp == RT_FB_PLAIN ? 0 : raw);
    put32(e + 0x40, 0x48);
    put32(e + 0x44, (uint32_t)strlen(opt));
    memcpy(e + 0x48, opt, strlen(opt));
    memcpy(e + hsize, pay, used);
    put32(buf, RT_FATBIN_MAGIC);
    put16(buf + 4, 1);
    put16(buf + 6, 16);
    put64(buf + 8, hsize + psize);
    return 16 + hsize + psize;
}

/* The PTX of entry i parses, and has the entries named. */
static void check_ptx_parses(rt_fatbin_t *fb, uint32_t i, const char *kernel)
{
    char *p;
    size_t n;
    ck_assert_msg(rt_fatbin_payload(fb, i, &p, &n) == ISA_ST_OK, "%s", fb->msg);
    ck_assert_uint_eq(strlen(p), n);
    isa_module_t *m = NULL;
    fe_options_t fo = { 0 };
    ck_assert_msg(fe_load_text("fatbin.ptx", p, n, &fo, &m) == ISA_ST_OK, "PTX of entry %u does not parse", i);
    bool found = false;
    for (uint32_t f = 0; f < m->nfunc; f++)
        found |= m->funcs[f].is_entry && strcmp(m->funcs[f].name, kernel) == 0;
    ck_assert_msg(found, "no entry %s", kernel);
    isa_module_free(m);
    char **names;
    uint32_t nk;
    ck_assert(rt_fatbin_kernels(&fb->entries[i], p, n, &names, &nk) == ISA_ST_OK);
    found = false;
    for (uint32_t k = 0; k < nk; k++) {
        found |= strcmp(names[k], kernel) == 0;
        free(names[k]);
    }
    free(names);
    ck_assert_msg(found, "kernel list lacks %s", kernel);
    free(p);
}

/*{=====================================================================
 * Fatbins made here
 *====================================================================*/

START_TEST(test_made_each_compression)
{
    static const rt_fb_comp_t comps[] = { RT_FB_PLAIN, RT_FB_ZSTD, RT_FB_LZ4 };
    uint8_t buf[4096];
    rt_fatbin_t fb;
    for (unsigned c = 0; c < 3; c++) {
        size_t n = make_fatbin(buf, comps[c]);
        ck_assert_msg(rt_fatbin_open_bytes(buf, n, &fb) == ISA_ST_OK, "%s", fb.msg);
        ck_assert_uint_eq(fb.nentry, 1);
        ck_assert_uint_eq(fb.ncontainer, 1);
        const rt_fb_entry_t *e = &fb.entries[0];
        ck_assert_uint_eq(e->kind, RT_FB_PTX);
        ck_assert_uint_eq(e->arch, 90);
        ck_assert_uint_eq(e->major, 9);
        ck_assert_int_eq(e->comp, comps[c]);
        ck_assert_uint_eq(e->options_len, 5);
        ck_assert(memcmp(e->options, " -O3 ", 5) == 0);
        char *p;
        size_t len;
        ck_assert_msg(rt_fatbin_payload(&fb, 0, &p, &len) == ISA_ST_OK, "%s", fb.msg);
        ck_assert_uint_eq(len, strlen(ptx_text));   /* the trailing NUL padding is gone */
        ck_assert_str_eq(p, ptx_text);
        free(p);
        check_ptx_parses(&fb, 0, "k2");
        ck_assert_int_eq(rt_fatbin_pick_ptx(&fb, 0), 0);
        ck_assert_int_eq(rt_fatbin_pick_ptx(&fb, 86), -1);
        rt_fatbin_free(&fb);
    }
}
END_TEST

/* Two containers with zero padding between them, as in .nv_fatbin. */
START_TEST(test_made_two_containers)
{
    uint8_t a[4096], b[4096], both[8192];
    size_t na = make_fatbin(a, RT_FB_ZSTD), nb = make_fatbin(b, RT_FB_PLAIN);
    memcpy(both, a, na);
    memset(both + na, 0, 8);
    memcpy(both + na + 8, b, nb);
    put32(both + na + 8 + 16 + 0x1c, 80);   /* the second entry is compute_80 */
    rt_fatbin_t fb;
    ck_assert_msg(rt_fatbin_open_bytes(both, na + 8 + nb, &fb) == ISA_ST_OK, "%s", fb.msg);
    ck_assert_uint_eq(fb.ncontainer, 2);
    ck_assert_uint_eq(fb.nentry, 2);
    ck_assert_uint_eq(fb.entries[1].container, 1);
    ck_assert_uint_eq(fb.entries[1].offset, na + 8 + 16);
    ck_assert_int_eq(rt_fatbin_pick_ptx(&fb, 0), 0);    /* compute_90 is the newest */
    ck_assert_int_eq(rt_fatbin_pick_ptx(&fb, 89), 1);
    rt_fatbin_free(&fb);
}
END_TEST

/* Opening and reading must give OK or an error with a message; never a crash. */
static isa_status_t open_and_read(const uint8_t *buf, size_t n, char *msg, size_t msgsize)
{
    rt_fatbin_t fb;
    isa_status_t st = rt_fatbin_open_bytes(buf, n, &fb);
    for (uint32_t i = 0; st == ISA_ST_OK && i < fb.nentry; i++) {
        char *p;
        size_t len;
        st = rt_fatbin_payload(&fb, i, &p, &len);
        if (st == ISA_ST_OK)
            free(p);
    }
    if (st != ISA_ST_OK)
        ck_assert_msg(fb.msg[0], "an error without a message");
    snprintf(msg, msgsize, "%s", fb.msg);
    rt_fatbin_free(&fb);
    return st;
}

START_TEST(test_truncated)
{
    uint8_t buf[4096];
    char msg[320];
    for (unsigned c = 0; c < 3; c++) {
        size_t n = make_fatbin(buf, (rt_fb_comp_t)c);
        for (size_t k = 1; k < n; k++) {
            uint8_t *exact = malloc(k);   /* exactly k bytes: overreads show under ASan */
            memcpy(exact, buf, k);
            isa_status_t st = open_and_read(exact, k, msg, sizeof msg);
            free(exact);
            ck_assert_msg(st != ISA_ST_OK, "a fatbin cut to %zu of %zu bytes was accepted", k, n);
        }
    }
}
END_TEST

/* Every bit of every byte flipped in turn: OK or an error, never a crash. */
START_TEST(test_bit_flips)
{
    uint8_t buf[4096];
    char msg[320];
    unsigned nerr = 0;
    for (unsigned c = 0; c < 3; c++) {
        size_t n = make_fatbin(buf, (rt_fb_comp_t)c);
        for (size_t i = 0; i < n; i++)
            for (unsigned b = 0; b < 8; b++) {
                buf[i] ^= (uint8_t)(1u << b);
                nerr += open_and_read(buf, n, msg, sizeof msg) != ISA_ST_OK;
                buf[i] ^= (uint8_t)(1u << b);
            }
    }
    ck_assert_uint_gt(nerr, 100);
}
END_TEST

static void expect_error(const uint8_t *buf, size_t n, isa_status_t want, const char *needle)
{
    char msg[320];
    isa_status_t st = open_and_read(buf, n, msg, sizeof msg);
    ck_assert_msg(st == want, "status %d, expected %d (%s)", st, want, msg);
    ck_assert_msg(strstr(msg, needle), "message '%s' lacks '%s'", msg, needle);
}

START_TEST(test_corrupt_fields)
{
    uint8_t buf[4096], b[4096];
    size_t n = make_fatbin(buf, RT_FB_ZSTD);
    uint8_t *e = b + 16;
#define CASE(stmt, want, needle) do { memcpy(b, buf, sizeof b); stmt; expect_error(b, n, want, needle); } while (0)
    CASE((void)0, ISA_ST_OK, "");
    CASE(put32(b, 0x12345678), ISA_ST_SYNTAX, "neither an ELF file nor a fatbin");
    CASE(put16(b + 4, 2), ISA_ST_UNSUPPORTED, "container version 2");
    CASE(put16(b + 6, 8), ISA_ST_SYNTAX, "header size 8");
    CASE(put64(b + 8, (uint64_t)1 << 62), ISA_ST_SYNTAX, "truncated");
    CASE(put32(e + 4, 0x20), ISA_ST_SYNTAX, "entry header size 32");
    CASE(put32(e + 4, 0xffffffffu), ISA_ST_SYNTAX, "entry header size");
    CASE(put64(e + 8, UINT64_MAX), ISA_ST_SYNTAX, "runs past its container");
    CASE(put32(e + 0x10, 0), ISA_ST_SYNTAX, "compressed size 0");
    CASE(put32(e + 0x10, 0xffff), ISA_ST_SYNTAX, "compressed size 65535");
    CASE(put64(e + 0x28, 0x11 | RT_FB_FLAG_ZSTD | RT_FB_FLAG_LZ4), ISA_ST_UNSUPPORTED, "both LZ4 and zstd");
    CASE(put64(e + 0x38, 5), ISA_ST_SYNTAX, "zstd");
    CASE(put64(e + 0x38, (uint64_t)1 << 40), ISA_ST_SYNTAX, "too large");
    CASE(put64(e + 0x38, sizeof ptx_text + 8), ISA_ST_SYNTAX, "the header says");
    CASE(e[0x50] ^= 0xff, ISA_ST_SYNTAX, "corrupt zstd stream");
    CASE(put32(e + 0x14, 0x4c), ISA_ST_SYNTAX, "options descriptor at 76");
    CASE(put32(e + 0x44, 0x1000), ISA_ST_SYNTAX, "options string");
    CASE(put32(e + 0x20, 0x40); put32(e + 0x24, 0x100), ISA_ST_SYNTAX, "identifier string");
    CASE(put32(e + 0x20, 0x10); put32(e + 0x24, 1), ISA_ST_SYNTAX, "identifier string");
    CASE(put32(b + n - 8, 0x1234), ISA_ST_SYNTAX, "zstd");
#undef CASE
    /* LZ4: a corrupt block */
    n = make_fatbin(buf, RT_FB_LZ4);
    memcpy(b, buf, sizeof b);
    b[16 + 0x50] = 0xff;
    b[16 + 0x51] = 0xff;
    expect_error(b, n, ISA_ST_SYNTAX, "LZ4");
    /* garbage after a container */
    n = make_fatbin(buf, RT_FB_PLAIN);
    memcpy(b, buf, n);
    memset(b + n, 0, 16);
    put32(b + n, 0xdeadbeef);
    expect_error(b, n + 16, ISA_ST_SYNTAX, "not a fatbin container");
    expect_error(buf, 0, ISA_ST_SYNTAX, "neither an ELF");
}
END_TEST

START_TEST(test_elf_errors)
{
    /* an ELF without fatbin sections: this test program itself */
    rt_fatbin_t fb;
    ck_assert(rt_fatbin_open_file("/proc/self/exe", &fb) == ISA_ST_SYNTAX);
    ck_assert_msg(strstr(fb.msg, "no fatbin in this ELF file"), "%s", fb.msg);
    rt_fatbin_free(&fb);
    ck_assert(rt_fatbin_open_file("/nonexistent/x", &fb) == ISA_ST_IO);
    ck_assert_msg(strstr(fb.msg, "/nonexistent/x: cannot open"), "%s", fb.msg);
    rt_fatbin_free(&fb);
    /* a truncated ELF header */
    static const uint8_t hdr[24] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
    ck_assert(rt_fatbin_open_bytes(hdr, sizeof hdr, &fb) == ISA_ST_SYNTAX);
    ck_assert_msg(strstr(fb.msg, "ELF"), "%s", fb.msg);
    rt_fatbin_free(&fb);
}
END_TEST

START_TEST(test_wrapper)
{
    uint8_t a[4096], b[4096];
    make_fatbin(a, RT_FB_ZSTD);
    make_fatbin(b, RT_FB_LZ4);
    const void *pre[2] = { b, NULL };
    struct { int magic, version; const void *data, *extra; } w = { (int)RT_FATBINC_MAGIC, 1, a, NULL };
    rt_fatbin_t fb;
    ck_assert_msg(rt_fatbin_open_wrapper(&w, &fb) == ISA_ST_OK, "%s", fb.msg);
    ck_assert_uint_eq(fb.nentry, 1);
    check_ptx_parses(&fb, 0, "k");
    rt_fatbin_free(&fb);
    w.version = 2;
    w.extra = pre;
    ck_assert_msg(rt_fatbin_open_wrapper(&w, &fb) == ISA_ST_OK, "%s", fb.msg);
    ck_assert_uint_eq(fb.nentry, 2);
    ck_assert_uint_eq(fb.ncontainer, 2);
    ck_assert_int_eq(fb.entries[1].comp, RT_FB_LZ4);
    check_ptx_parses(&fb, 1, "k2");
    rt_fatbin_free(&fb);
    w.version = 3;
    ck_assert(rt_fatbin_open_wrapper(&w, &fb) == ISA_ST_UNSUPPORTED);
    ck_assert_msg(strstr(fb.msg, "version 3"), "%s", fb.msg);
    rt_fatbin_free(&fb);
    w.version = 1;
    w.magic = 0x1234;
    ck_assert(rt_fatbin_open_wrapper(&w, &fb) == ISA_ST_SYNTAX);
    ck_assert_msg(strstr(fb.msg, "magic 0x00001234"), "%s", fb.msg);
    rt_fatbin_free(&fb);
    w.magic = (int)RT_FATBINC_MAGIC;
    w.data = b + 8;   /* not a container */
    ck_assert(rt_fatbin_open_wrapper(&w, &fb) == ISA_ST_SYNTAX);
    rt_fatbin_free(&fb);
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * Committed samples (tests/driver/samples)
 *====================================================================*/

static const char *srcdir(void)
{
    const char *s = getenv("PTXEMU_SRCDIR");
    return s ? s : ".";
}

static void open_sample(const char *name, rt_fatbin_t *fb)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/driver/samples/%s", srcdir(), name);
    ck_assert_msg(rt_fatbin_open_file(path, fb) == ISA_ST_OK, "%s", fb->msg);
}

START_TEST(test_samples)
{
    rt_fatbin_t fb;
    open_sample("tiny_zstd.o", &fb);
    ck_assert_uint_eq(fb.nentry, 1);
    ck_assert_int_eq(fb.entries[0].comp, RT_FB_ZSTD);
    ck_assert_uint_eq(fb.entries[0].flags, 0x8011);
    ck_assert_str_eq(fb.entries[0].section, ".nv_fatbin");
    check_ptx_parses(&fb, 0, "_Z4tinyPi");
    rt_fatbin_free(&fb);

    open_sample("tiny_lz4.fatbin", &fb);
    ck_assert_uint_eq(fb.nentry, 1);
    ck_assert_int_eq(fb.entries[0].comp, RT_FB_LZ4);
    ck_assert_uint_eq(fb.entries[0].flags, 0x2011);
    check_ptx_parses(&fb, 0, "_Z4tinyPi");
    rt_fatbin_free(&fb);

    open_sample("tiny_shared", &fb);
    ck_assert_uint_eq(fb.ncontainer, 2);
    ck_assert_uint_eq(fb.nentry, 3);
    ck_assert_uint_eq(fb.entries[0].kind, RT_FB_ELF);
    ck_assert_uint_eq(fb.entries[1].kind, RT_FB_ELF);
    ck_assert_uint_eq(fb.entries[2].kind, RT_FB_PTX);
    ck_assert_int_eq(fb.entries[2].comp, RT_FB_PLAIN);
    ck_assert_int_eq(rt_fatbin_pick_ptx(&fb, 0), 2);
    check_ptx_parses(&fb, 2, "_Z4tinyPi");
    /* the cubin's kernels come from its .text.NAME sections */
    char *p, **names;
    size_t n;
    uint32_t nk;
    ck_assert(rt_fatbin_payload(&fb, 1, &p, &n) == ISA_ST_OK);
    ck_assert(memcmp(p, "\177ELF", 4) == 0);
    ck_assert(rt_fatbin_kernels(&fb.entries[1], p, n, &names, &nk) == ISA_ST_OK);
    ck_assert_uint_eq(nk, 1);
    ck_assert_str_eq(names[0], "_Z4tinyPi");
    free(names[0]);
    free(names);
    /* what ptxas allocated (ptxas -v for tiny.cu at sm_90: 8 registers, no stack frame),
     * from the cubin's .nv.info; PTX text is not a cubin */
    rt_kres_t *kr;
    ck_assert(rt_cubin_resources(p, n, &kr, &nk) == ISA_ST_OK);
    ck_assert_uint_eq(nk, 1);
    ck_assert_str_eq(kr[0].name, "_Z4tinyPi");
    ck_assert_uint_eq(kr[0].regs, 8);
    ck_assert_uint_eq(kr[0].frame, 0);
    rt_kres_free(kr, nk);
    for (size_t cut = 0; cut < n; cut += 97)   /* cut short: an error or fewer, never a crash */
        if (rt_cubin_resources(p, cut, &kr, &nk) == ISA_ST_OK)
            rt_kres_free(kr, nk);
    free(p);
    ck_assert(rt_fatbin_payload(&fb, 2, &p, &n) == ISA_ST_OK);
    ck_assert(rt_cubin_resources(p, n, &kr, &nk) == ISA_ST_SYNTAX);
    free(p);
    rt_fatbin_free(&fb);
}
END_TEST

/* An ELF object cut at every length, and with single bytes of its ELF header and section
 * headers changed: an error or the right entry, never a crash. */
START_TEST(test_sample_elf_hostile)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/driver/samples/tiny_zstd.o", srcdir());
    FILE *f = fopen(path, "rb");
    ck_assert(f);
    static uint8_t img[16384];
    size_t n = fread(img, 1, sizeof img, f);
    fclose(f);
    ck_assert_uint_gt(n, 1000);
    char msg[320];
    unsigned ok = 0;
    for (size_t k = 0; k < n; k++) {
        uint8_t *exact = malloc(k ? k : 1);
        memcpy(exact, img, k);
        ok += open_and_read(exact, k, msg, sizeof msg) == ISA_ST_OK;
        free(exact);
    }
    ck_assert_uint_eq(ok, 0);   /* the section headers come last: every cut loses them */
    uint64_t shoff;
    memcpy(&shoff, img + 0x28, 8);
    ck_assert_uint_lt(shoff, n);
    static const uint8_t vals[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
    for (size_t i = 0; i < n; i++) {
        if (!(i < 64 || i >= shoff))
            continue;
        uint8_t keep = img[i];
        for (unsigned v = 0; v < sizeof vals; v++) {
            img[i] = vals[v];
            open_and_read(img, n, msg, sizeof msg);
        }
        img[i] = keep;
    }
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * Programs built with nvcc now
 *====================================================================*/

static const char *nvcc_path(void)
{
    static char path[512];
    const char *env = getenv("NVCC");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        return "/usr/local/cuda/bin/nvcc";
    FILE *f = popen("command -v nvcc 2>/dev/null", "r");
    if (!f)
        return NULL;
    bool ok = fgets(path, sizeof path, f) != NULL;
    pclose(f);
    if (!ok)
        return NULL;
    path[strcspn(path, "\n")] = 0;
    return path[0] ? path : NULL;
}

/* One build: nvcc flags, then what its fatbin must hold. */
static const struct {
    const char *flags;
    int npx;              /* PTX entries expected */
    int ptx_arch;         /* the newest one's arch (0: no PTX) */
    rt_fb_comp_t ptx_comp;
    int elf_zstd;         /* ELF entries compressed too */
    const char *ptx_section;
} builds[] = {
    { "", 1, 75, RT_FB_ZSTD, 0, ".nv_fatbin" },
    { "-cudart shared -gencode arch=compute_90,code=[sm_90,compute_90]", 1, 90, RT_FB_ZSTD, 0, ".nv_fatbin" },
    { "-gencode arch=compute_90,code=sm_90", 0, 0, RT_FB_PLAIN, 0, NULL },
    { "-gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=compute_90", 2, 90, RT_FB_ZSTD, 0, ".nv_fatbin" },
    { "-Xfatbin -compress-all -gencode arch=compute_90,code=[sm_90,compute_90]", 1, 90, RT_FB_ZSTD, 1, ".nv_fatbin" },
    { "-no-compress", 1, 75, RT_FB_PLAIN, 0, ".nv_fatbin" },
    { "-compress-mode=speed", 1, 75, RT_FB_LZ4, 0, ".nv_fatbin" },
    { "-rdc=true", 1, 75, RT_FB_ZSTD, 1, "__nv_relfatbin" },
};

START_TEST(test_nvcc_builds)
{
    const char *nvcc = nvcc_path();
    if (!nvcc) {
        printf("check_fatbin: nvcc builds: skipped (no nvcc)\n");
        return;
    }
    char dir[] = "/tmp/ptxemu-fatbin-XXXXXX";
    ck_assert(mkdtemp(dir));
    char src[600], cmd[2048], exe[600];
    snprintf(src, sizeof src, "%s/app.cu", dir);
    FILE *f = fopen(src, "w");
    ck_assert(f);
    fputs("#include <cstdio>\n__device__ int d_count;\n"
          "__global__ void scale(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (i < n) { p[i] *= 2.0f; atomicAdd(&d_count, 1); } if (i == 0) printf(\"n=%d\\n\", n); }\n"
          "__global__ void other(int *q) { q[threadIdx.x] = threadIdx.x; }\n"
          "int main() { float *p; cudaMalloc(&p, 64); scale<<<1, 16>>>(p, 16); return cudaDeviceSynchronize(); }\n",
          f);
    fclose(f);
    for (size_t b = 0; b < sizeof builds / sizeof builds[0]; b++) {
        snprintf(exe, sizeof exe, "%s/app%zu", dir, b);
        snprintf(cmd, sizeof cmd, "'%s' %s -o '%s' '%s'", nvcc, builds[b].flags, exe, src);
        ck_assert_msg(system(cmd) == 0, "%s", cmd);
        rt_fatbin_t fb;
        ck_assert_msg(rt_fatbin_open_file(exe, &fb) == ISA_ST_OK, "%s: %s", builds[b].flags, fb.msg);
        int npx = 0;
        for (uint32_t i = 0; i < fb.nentry; i++) {
            const rt_fb_entry_t *e = &fb.entries[i];
            if (e->kind == RT_FB_PTX) {
                npx++;
                ck_assert_msg(e->comp == builds[b].ptx_comp, "%s: entry %u compression %d", builds[b].flags, i, e->comp);
                ck_assert_str_eq(e->section, builds[b].ptx_section);
                check_ptx_parses(&fb, i, "_Z5scalePfi");
                check_ptx_parses(&fb, i, "_Z5otherPi");
            } else {
                ck_assert_uint_eq(e->kind, RT_FB_ELF);
                if (!builds[b].elf_zstd && strcmp(e->section, ".nv_fatbin") == 0)
                    ck_assert_int_eq(e->comp, RT_FB_PLAIN);
                char *p;
                size_t n;
                ck_assert_msg(rt_fatbin_payload(&fb, i, &p, &n) == ISA_ST_OK, "%s", fb.msg);
                ck_assert(n >= 4 && memcmp(p, "\177ELF", 4) == 0);
                free(p);
            }
        }
        if (builds[b].elf_zstd) {
            int z = 0;
            for (uint32_t i = 0; i < fb.nentry; i++)
                z += fb.entries[i].kind == RT_FB_ELF && fb.entries[i].comp == RT_FB_ZSTD;
            ck_assert_msg(z > 0, "%s: no compressed ELF entry", builds[b].flags);
        }
        ck_assert_msg(npx == builds[b].npx, "%s: %d PTX entries", builds[b].flags, npx);
        int pick = rt_fatbin_pick_ptx(&fb, 0);
        ck_assert_int_eq(pick < 0 ? 0 : (int)fb.entries[pick].arch, builds[b].ptx_arch);
        rt_fatbin_free(&fb);
        unlink(exe);
    }
    unlink(src);
    rmdir(dir);
}
END_TEST
/*}=====================================================================*/

Suite *make_fatbin_suite(void)
{
    Suite *s = suite_create("fatbin");
    TCase *tc = tcase_create("made");
    tcase_add_test(tc, test_made_each_compression);
    tcase_add_test(tc, test_made_two_containers);
    tcase_add_test(tc, test_truncated);
    tcase_add_test(tc, test_bit_flips);
    tcase_add_test(tc, test_corrupt_fields);
    tcase_add_test(tc, test_elf_errors);
    tcase_add_test(tc, test_wrapper);
    suite_add_tcase(s, tc);
    tc = tcase_create("samples");
    tcase_add_test(tc, test_samples);
    tcase_add_test(tc, test_sample_elf_hostile);
    suite_add_tcase(s, tc);
    tc = tcase_create("nvcc");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_nvcc_builds);
    suite_add_tcase(s, tc);
    return s;
}
