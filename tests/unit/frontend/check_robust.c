/* check_robust.c: no input crashes the frontend.  Corpus files are mutated
 * deterministically (byte flips, cuts, token insertions, truncation) and every result
 * must either load or fail with diagnostics in the standard format. */
#include <check.h>
#include <glob.h>
#include <unistd.h>

#include "testutil.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const char *const tokens[] = {
    "{", "}", ";", ",", "[", "]", "(", ")", "|", "!", "@", ".reg", ".b32", "%r1", "%r<", "_",
    ".param", ".entry", ".func", "0x", "0f", "0d1", "\"", "/*", "//", "-", "<<", ".section",
    ".loc 1", "bra", "call", "ld.global.v4.f32", "%tid.", "WARP_SZ", "=", "generic(", "$L",
    ".version", ".target", "99999999999999999999", ".align 3", "{ {", "}}}", ".callprototype",
};

static char *mutate(const char *src, size_t len, size_t *out_len)
{
    size_t cap = len + 256;
    char *s = malloc(cap);
    memcpy(s, src, len);
    size_t n = len;
    int edits = 1 + (int)(rng() % 8);
    for (int e = 0; e < edits && n > 0; e++) {
        size_t at = (size_t)(rng() % n);
        switch (rng() % 5) {
        case 0: s[at] = (char)(rng() & 0xff); break;
        case 1: {
            size_t cut = (size_t)(rng() % 64);
            if (at + cut > n)
                cut = n - at;
            memmove(s + at, s + at + cut, n - at - cut);
            n -= cut;
            break;
        }
        case 2: {
            const char *t = tokens[rng() % (sizeof tokens / sizeof *tokens)];
            size_t tl = strlen(t);
            if (n + tl >= cap)
                break;
            memmove(s + at + tl, s + at, n - at);
            memcpy(s + at, t, tl);
            n += tl;
            break;
        }
        case 3: n = at; break;
        default: s[at] = "{}();,[]|.%"[rng() % 11]; break;
        }
    }
    *out_len = n;
    return s;
}

static glob_t files;

START_TEST(mutations_do_not_crash)
{
    const char *path = files.gl_pathv[_i];
    char *text = tu_read(path);
    ck_assert(text != NULL);
    size_t len = strlen(text);
    rng_state = 0x9E3779B97F4A7C15ull ^ (uint64_t)(_i + 1);
    for (int iter = 0; iter < 60; iter++) {
        size_t n;
        char *mut = mutate(text, len, &n);
        char *buf = NULL;
        size_t blen = 0;
        FILE *d = open_memstream(&buf, &blen);
        fe_options_t o = { 0 };
        o.diag = d;
        isa_module_t *m = NULL;
        isa_status_t st = fe_load_text("m.ptx", mut, n, &o, &m);
        fclose(d);
        if (st == ISA_ST_OK) {
            ck_assert(m != NULL);
            isa_module_free(m);
        } else {
            ck_assert_int_eq(st, ISA_ST_SYNTAX);
            ck_assert_msg(strncmp(buf, "m.ptx:", 6) == 0 && strstr(buf, ": error: ") != NULL,
                          "%s iteration %d: diagnostics not in the standard format:\n%.300s", path, iter, buf);
        }
        free(buf);
        free(mut);
    }
    free(text);
}
END_TEST

START_TEST(empty_and_garbage)
{
    char *diag;
    ck_assert(tu_load("e.ptx", "", &diag) == NULL);
    ck_assert_msg(strstr(diag, "e.ptx:1:1: error:") != NULL, "%s", diag);
    free(diag);
    static char junk[4096];
    rng_state = 12345;
    for (size_t i = 0; i + 1 < sizeof junk; i++)
        junk[i] = (char)(1 + rng() % 255);
    ck_assert(tu_load("j.ptx", junk, &diag) == NULL);
    free(diag);
}
END_TEST

Suite *make_robust_suite(void)
{
    if (chdir(tu_srcdir()) == 0) {
        glob("tests/ptx/syntax/*.ptx", 0, NULL, &files);
        glob("tests/ptx/corpus/*.sm_90.ptx", GLOB_APPEND, NULL, &files);
        glob("tests/ptx/errors/*.ptx", GLOB_APPEND, NULL, &files);
    }
    Suite *s = suite_create("robust");
    TCase *tc = tcase_create("mutations");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, empty_and_garbage);
    tcase_add_loop_test(tc, mutations_do_not_crash, 0, (int)files.gl_pathc);
    suite_add_tcase(s, tc);
    return s;
}
