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

/* Load len bytes (NULs included); returns the module, diagnostics in *out_diag. */
static isa_module_t *load_bytes(const char *name, const char *text, size_t len, char **out_diag)
{
    size_t dlen = 0;
    FILE *d = open_memstream(out_diag, &dlen);
    fe_options_t o = { 0 };
    o.diag = d;
    isa_module_t *m = NULL;
    fe_load_text(name, text, len, &o, &m);
    fclose(d);
    return m;
}

/* A program or other binary given where PTX is expected is refused at once, with one
 * line saying what it is, instead of a stream of scanner errors. */
START_TEST(binary_input_refused)
{
    static char elf[1 << 16];
    rng_state = 777;
    for (size_t i = 0; i < sizeof elf; i++)
        elf[i] = (char)rng();
    memcpy(elf, "\177ELF\2\1\1", 7);
    char *diag;
    ck_assert(load_bytes("app", elf, sizeof elf, &diag) == NULL);
    ck_assert_str_eq(diag, "app: error: not PTX text: this is an ELF file (a program, library or object; "
                           "`ptxrun --extract-ptx FILE` prints the PTX a CUDA program embeds)\n");
    free(diag);
    memcpy(elf, "\x50\xed\x55\xba", 4);
    ck_assert(load_bytes("k.fatbin", elf, sizeof elf, &diag) == NULL);
    ck_assert_msg(strstr(diag, "k.fatbin: error: not PTX text: this is a CUDA fatbinary") == diag, "%s", diag);
    free(diag);
    elf[0] = '.';
    ck_assert(load_bytes("b.ptx", elf, sizeof elf, &diag) == NULL);
    ck_assert_str_eq(diag, "b.ptx: error: not PTX text: this is a binary file (it holds NUL bytes)\n");
    free(diag);
    for (size_t i = 0; i < sizeof elf; i++)      /* control characters, no NUL */
        elf[i] = (char)(i % 3 ? 'a' + i % 26 : 1 + i % 8);
    ck_assert(load_bytes("c.ptx", elf, sizeof elf, &diag) == NULL);
    ck_assert_str_eq(diag, "c.ptx: error: not PTX text: this is a binary file (it holds control characters)\n");
    free(diag);
}
END_TEST

/* A diagnostic on a line of a megabyte shows a window of the line around the error. */
START_TEST(long_line_diagnostic_window)
{
    size_t n = 1 << 20;
    char *t = malloc(n + 64);
    memset(t, ' ', n);
    strcpy(t + n, "foo.b32 %r1;\n");
    char *diag;
    ck_assert(tu_load("l.ptx", t, &diag) == NULL);
    ck_assert_msg(strlen(diag) < 1024, "%zu bytes of diagnostics", strlen(diag));
    ck_assert_msg(strstr(diag, " ...") && strstr(diag, "foo.b32 %r1;"), "%s", diag);
    /* the caret stands under the 'f' of foo: same column in the source and caret lines */
    size_t src = strcspn(diag, "\n") + 1, caret = src + strcspn(diag + src, "\n") + 1;
    ck_assert_int_eq((int)strcspn(diag + caret, "^"), (int)strcspn(diag + src, "f"));
    free(diag);
    free(t);
}
END_TEST

/* Millions of registers in one range declaration lower in linear time: the symbol table
 * grows with its entries, and a name still finds the innermost declaration after the
 * table has been rebuilt inside a nested scope. */
extern unsigned long long fe_test_sym_probes;
START_TEST(huge_register_range)
{
    const char *src =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k()\n{\n"
        "\t.reg .b64 %rd<1048576>;\n"
        "\t.reg .b32 %x;\n"
        "\tmov.u64 %rd1048575, 7;\n"
        "\t{\n"
        "\t\t.reg .b64 %x;\n"
        "\t\t.reg .b32 %r<1048576>;\n"
        "\t\tmov.u64 %x, %rd1048575;\n"
        "\t\tmov.u32 %r1048575, 1;\n"
        "\t}\n"
        "\tmov.u32 %x, 1;\n"
        "\tret;\n}\n";
    char *diag;
    fe_test_sym_probes = 0;
    isa_module_t *m = tu_load("r.ptx", src, &diag);
    ck_assert_msg(m != NULL, "%s", diag);
    /* a bounded number of chain steps a lookup (a fixed table of 16384 buckets took 134 M) */
    ck_assert_msg(fe_test_sym_probes < 8ull * 1048576, "%llu chain steps", fe_test_sym_probes);
    free(diag);
    isa_module_free(m);
    /* a redeclaration in the same scope is still caught after the table has grown */
    const char *dup = ".version 9.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k()\n{\n\t.reg .b32 %r<100000>;\n\t.reg .b32 %r99999;\n\tret;\n}\n";
    ck_assert(tu_load("d.ptx", dup, &diag) == NULL);
    ck_assert_msg(strstr(diag, "redeclaration of '%r99999'"), "%s", diag);
    free(diag);
}
END_TEST

/* Text that makes a scanner back up (unterminated strings and comments, dotted names
 * cut short, a .section that never closes), repeated to 512 KiB: each is refused, and
 * the scanner's work stays linear (a NUL inside a long token used to make it rescan
 * the token at every NUL; NUL bytes are now refused before scanning). */
START_TEST(pathological_text_is_refused)
{
    static const char *const pre[] = { ".version 8.0\n.section x {", "\"", "/*", "", "", ".section x {", "" };
    static const char *const unit[] = { "\"a", "\\a", "*a", "a.", ".a::b:", "/", "1.5e+" };
    size_t n = 1u << 19;
    char *b = malloc(n + 64);
    for (size_t k = 0; k < sizeof unit / sizeof *unit; k++) {
        size_t len = (size_t)snprintf(b, 64, "%s", pre[k]), ul = strlen(unit[k]);
        while (len + ul < n) {
            memcpy(b + len, unit[k], ul);
            len += ul;
        }
        b[len] = 0;
        char *diag = NULL;
        size_t dlen = 0;
        FILE *d = open_memstream(&diag, &dlen);
        fe_options_t o = { 0 };
        o.diag = d;
        o.max_errors = 3;
        isa_module_t *m = NULL;
        isa_status_t st = fe_load_text("p.ptx", b, len, &o, &m);
        fclose(d);
        ck_assert_msg(st == ISA_ST_SYNTAX && m == NULL, "input %zu was accepted", k);
        ck_assert_msg(strncmp(diag, "p.ptx:", 6) == 0, "input %zu: %.200s", k, diag);
        free(diag);
    }
    free(b);
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
    tcase_add_test(tc, binary_input_refused);
    tcase_add_test(tc, long_line_diagnostic_window);
    tcase_add_test(tc, huge_register_range);
    tcase_add_test(tc, pathological_text_is_refused);
    tcase_add_loop_test(tc, mutations_do_not_crash, 0, (int)files.gl_pathc);
    suite_add_tcase(s, tc);
    return s;
}
