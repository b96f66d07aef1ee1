/* check_fuzz.c: replays the differential fuzz data (tests/fuzz/NAME.fz, recorded on the
 * GPU by ptxfuzz record) on the emulator through ptxfuzz replay, one test per variant.
 * tests/fuzz/PENDING lists the variants known not to pass yet (unsupported or
 * mismatching), each with its reason: they must still fail, so that the list stays
 * true; every other recorded variant must pass.  tests/fuzz/REJECTED lists what the
 * ISA tables allow but ptxas rejected at recording; with the recorded variants it must
 * make up exactly what `ptxfuzz list` enumerates, so that nothing is left out silently.
 * The sm_100 variants' GPU kernels (their sm_90 equivalents) are checked to be sm_90 PTX. */
#include <check.h>
#include <dirent.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/fe.h"

#define MAX_NAMES 8192
static char *names[MAX_NAMES];
static int nnames;
static bool overflow;               /* more files than MAX_NAMES */
static char *pending[MAX_NAMES];
static int npending;
static char fuzz_bin[4096];

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static const char *srcdir(void)
{
    const char *s = getenv("PTXEMU_SRCDIR");
    return s ? s : ".";
}

/* Names from NAME.fz files, and the first word of each line of a list file. */
static void find_recorded(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fuzz", srcdir());
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".fz") == 0) {
            if (nnames == MAX_NAMES) {
                overflow = true;          /* a file left out is a test lost: fails below */
                break;
            }
            names[nnames++] = strndup(e->d_name, n - 3);
        }
    }
    closedir(d);
    qsort(names, (size_t)nnames, sizeof names[0], cmp_names);
}

static int read_list(const char *file, char **out, int max)
{
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/tests/fuzz/%s", srcdir(), file);
    FILE *f = fopen(path, "r");
    int n = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f) && n < max) {
        char *w = strtok(line, " \t\n");
        if (w && w[0] != '#')
            out[n++] = strdup(w);
    }
    fclose(f);
    return n;
}

static bool in_list(char **list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

/* Run ptxfuzz with args (in srcdir); its stdout into out (NUL-terminated); exit status. */
static int run_fuzz(char *const args[], char *out, size_t size)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        if (chdir(srcdir()) != 0)
            _exit(127);
        execv(fuzz_bin, args);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t k;
    char sink[4096];
    while ((k = read(fd[0], len + 1 < size ? out + len : sink, len + 1 < size ? size - len - 1 : sizeof sink)) > 0)
        if (len + 1 < size)
            len += (size_t)k;
    out[len] = 0;
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(replay)
{
    ck_assert_msg(nnames > 0, "no fuzz data in %s/tests/fuzz", srcdir());
    ck_assert_msg(!overflow, "more than %d fuzz data files in %s/tests/fuzz: raise MAX_NAMES", MAX_NAMES, srcdir());
    const char *name = names[_i];
    char out[8192];
    char *args[] = { fuzz_bin, "replay", (char *)name, NULL };
    int rc = run_fuzz(args, out, sizeof out);
    bool pend = in_list(pending, npending, name);
    if (pend)
        ck_assert_msg(rc != 0, "%s passes now: remove it from tests/fuzz/PENDING", name);
    else
        ck_assert_msg(rc == 0, "%s (exit %d): %s", name, rc, out);
}
END_TEST

/* Every PENDING entry is a recorded variant. */
START_TEST(pending_recorded)
{
    for (int i = 0; i < npending; i++)
        ck_assert_msg(in_list(names, nnames, pending[i]), "tests/fuzz/PENDING: %s is not recorded", pending[i]);
}
END_TEST

/* The enumeration is covered: each variant is recorded or listed in REJECTED. */
START_TEST(all_enumerated_recorded)
{
    static char out[1 << 20];
    static char *rejected[MAX_NAMES];
    int nrej = read_list("REJECTED", rejected, MAX_NAMES);
    char *args[] = { fuzz_bin, "list", NULL };
    ck_assert_int_eq(run_fuzz(args, out, sizeof out), 0);
    int n = 0;
    for (char *w = strtok(out, "\n"); w; w = strtok(NULL, "\n"), n++)
        ck_assert_msg(in_list(names, nnames, w) || in_list(rejected, nrej, w),
                      "%s is enumerated but neither recorded (tests/fuzz/%s.fz) nor in tests/fuzz/REJECTED: "
                      "record it on the GPU", w, w);
    ck_assert_int_eq(n, nnames + nrej);
}
END_TEST

/* A recorded sm_100 variant (its emulator kernel targets sm_100a) is recorded on the GPU
 * through an sm_90 kernel: that kernel must target sm_90, be valid there for the
 * frontend's checker (ptxas's rules), and not contain the sm_100 instruction itself. */
static char *sm100[MAX_NAMES];
static int nsm100;
START_TEST(sm100_equivalents)
{
    static char emu[1 << 16], gpu[1 << 16];
    ck_assert_msg(nsm100 > 0, "ptxfuzz list --sm100 lists nothing");
    const char *name = sm100[_i];
    char *ea[] = { fuzz_bin, "kernel", (char *)name, NULL };
    ck_assert_int_eq(run_fuzz(ea, emu, sizeof emu), 0);
    ck_assert_msg(strstr(emu, ".target sm_100a") != NULL, "%s: %s", name, emu);
    char *ga[] = { fuzz_bin, "kernel", "--backend", "cuda", (char *)name, NULL };
    ck_assert_int_eq(run_fuzz(ga, gpu, sizeof gpu), 0);
    ck_assert_msg(strstr(gpu, ".target sm_90\n") != NULL, "%s: %s", name, gpu);
    char text[128], line[256];
    snprintf(text, sizeof text, "\t%.*s ", (int)strcspn(name, "+"), name);
    const char *at = strstr(emu, text);
    ck_assert_msg(at != NULL, "%s: no instruction line in\n%s", name, emu);
    snprintf(line, sizeof line, "%.*s", (int)strcspn(at, "\n"), at);
    ck_assert_msg(strstr(gpu, line) == NULL, "%s: the sm_90 kernel uses the instruction itself", name);
    char *dbuf = NULL;
    size_t dlen = 0;
    FILE *d = open_memstream(&dbuf, &dlen);
    fe_options_t fo = { .diag = d, .max_errors = 1 };
    isa_module_t *m = NULL;
    isa_status_t st = fe_load_text(name, gpu, strlen(gpu), &fo, &m);
    fclose(d);
    ck_assert_msg(st == ISA_ST_OK, "%s: %s\n%s", name, dbuf, gpu);
    isa_module_free(m);
    free(dbuf);
}
END_TEST

/* The sources of the vectors ptxfuzz show prints (emulator only): "vector N: a=.. b=.."
 * lines; each source's value of vector j into v[j * 4 + s]; the vector count. */
static size_t show_vectors(const char *name, long chunk, uint64_t *v, size_t max)
{
    static char out[1 << 20];
    char cs[24];
    snprintf(cs, sizeof cs, "%ld", chunk);
    char *args[] = { fuzz_bin, "show", "-v", (char *)name, cs, NULL };
    ck_assert_int_eq(run_fuzz(args, out, sizeof out), 0);
    size_t n = 0;
    for (char *l = strtok(out, "\n"); l && n < max; l = strtok(NULL, "\n")) {
        if (!strstr(l, "vector "))
            continue;
        for (unsigned s = 0; s < 4; s++) {
            char key[4] = { ' ', (char)('a' + s), '=', 0 };
            const char *at = strstr(l, key);
            v[n * 4 + s] = at ? strtoull(at + 3, NULL, 16) : 0;
        }
        n++;
    }
    return n;
}

/* Random f64 sources take every bit pattern: not +0 a third of the time (a 64-bit shift
 * once made the "any bits" shape give 0), and of every exponent range. */
START_TEST(random_f64_sources)
{
    static uint64_t v[4096 * 4];
    /* chunk 0: the 36 x 36 crossed specials; chunk 1: the first random one */
    size_t n = show_vectors("add.rn.f64", 1, v, 4096), zeros = 0, big = 0, small = 0;
    ck_assert_uint_eq(n, 4096);
    for (size_t j = 0; j < n; j++)
        for (unsigned s = 0; s < 2; s++) {
            uint64_t x = v[j * 4 + s], e = x >> 52 & 0x7ff;
            zeros += (x << 1) == 0;
            big += e >= 0x600;
            small += e < 0x200;
        }
    ck_assert_msg(zeros < n / 50, "%zu of %zu random f64 sources are zeros", zeros, 2 * n);
    ck_assert_msg(big > n / 20 && small > n / 20, "f64 exponents: %zu above 2^512, %zu below 2^-512", big, small);
}
END_TEST

/* The crossed specials (section X of a recording) cross every pair of specials: for
 * mad.hi.sat.s32, each of the 38 x 38 (a, b) pairs appears with each of the first 8 c's
 * (the H100's mad.hi.sat.s32 of 1, 0xaaaaaaaa and 0x80000000 saturates to 0x80000000
 * where mad.hi.s32 wraps to 0x7fffffff), and (a, c) and (b, c) likewise. */
START_TEST(crossed_specials)
{
    static uint64_t v[4096 * 4];
    static unsigned char ab[64][64], ac[64][64];
    uint64_t sp[64];
    size_t nsp = 0;
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/tests/fuzz/mad.hi.sat.s32.fz", srcdir());
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s", path);
    size_t crossed = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "crossed %zu", &crossed) == 1)
            break;
    fclose(f);
    ck_assert_uint_gt(crossed, 0);
    bool found = false;
    for (long c = 0; (size_t)c * 4096 < crossed; c++) {
        size_t n = show_vectors("mad.hi.sat.s32", c, v, 4096);
        for (size_t j = 0; j < n; j++) {
            size_t idx[3];
            for (unsigned s = 0; s < 3; s++) {
                size_t k = 0;
                while (k < nsp && sp[k] != v[j * 4 + s])
                    k++;
                if (k == nsp && nsp < 64)
                    sp[nsp++] = v[j * 4 + s];
                idx[s] = k < 64 ? k : 63;
            }
            ab[idx[0]][idx[1]] = 1;
            ac[idx[0]][idx[2]] = 1;
            found |= v[j * 4] == 1 && v[j * 4 + 1] == 0xaaaaaaaa && v[j * 4 + 2] == 0x80000000;
        }
    }
    ck_assert_uint_eq(nsp, 38);
    size_t pairs = 0, cpairs = 0;
    for (size_t i = 0; i < nsp; i++)
        for (size_t j = 0; j < nsp; j++) {
            pairs += ab[i][j];
            cpairs += ac[i][j];
        }
    ck_assert_uint_eq(pairs, 38 * 38);
    ck_assert_uint_eq(cpairs, 38 * 38);
    ck_assert_msg(found, "no vector (1, 0xaaaaaaaa, 0x80000000) among the crossed specials");
}
END_TEST

Suite *make_fuzz_suite(void)
{
    const char *bin = getenv("PTXRUN");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", bin ? bin : "build/bin/ptxrun");
    snprintf(fuzz_bin, sizeof fuzz_bin, "%s/ptxfuzz", dirname(tmp));
    find_recorded();
    npending = read_list("PENDING", pending, MAX_NAMES);
    Suite *s = suite_create("fuzz");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, replay, 0, nnames ? nnames : 1);
    suite_add_tcase(s, tc);
    TCase *tl = tcase_create("lists");
    tcase_set_timeout(tl, 60);
    tcase_add_test(tl, pending_recorded);
    tcase_add_test(tl, all_enumerated_recorded);
    tcase_add_test(tl, random_f64_sources);
    tcase_add_test(tl, crossed_specials);
    static char list[1 << 16];
    char *la[] = { fuzz_bin, "list", "--sm100", NULL };
    if (run_fuzz(la, list, sizeof list) == 0)
        for (char *w = strtok(list, "\n"); w && nsm100 < MAX_NAMES; w = strtok(NULL, "\n"))
            sm100[nsm100++] = w;
    tcase_add_loop_test(tl, sm100_equivalents, 0, nsm100 ? nsm100 : 1);
    suite_add_tcase(s, tl);
    return s;
}
