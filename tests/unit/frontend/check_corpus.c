/* check_corpus.c: every PTX file of the parse corpus (tests/ptx/corpus, tests/ptx/syntax,
 * tests/ptx/regress) parses, lowers and validates, and round-trips: printing the IR and
 * loading the print gives the same IR (equal dumps). */
#include <check.h>
#include <glob.h>
#include <unistd.h>

#include "testutil.h"

static glob_t files;

static void corpus_glob(void)
{
    static int done;
    if (done++)
        return;
    if (chdir(tu_srcdir()) != 0)
        return;
    glob("tests/ptx/corpus/*.ptx", 0, NULL, &files);
    glob("tests/ptx/syntax/*.ptx", GLOB_APPEND, NULL, &files);
    glob("tests/ptx/regress/*.ptx", GLOB_APPEND, NULL, &files);
}

START_TEST(corpus_roundtrip)
{
    const char *path = files.gl_pathv[_i];
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "%s: cannot read", path);
    char *diag = NULL;
    isa_module_t *m = tu_load(path, text, &diag);
    ck_assert_msg(m != NULL, "%s does not load:\n%.1500s", path, diag);
    free(diag);
    char *printed = tu_render(m, isa_print_module);
    char *dump1 = tu_render(m, isa_dump_module);
    isa_module_t *m2 = tu_load("printed.ptx", printed, &diag);
    ck_assert_msg(m2 != NULL, "%s: printed PTX does not load:\n%.1500s", path, diag);
    char *dump2 = tu_render(m2, isa_dump_module);
    if (strcmp(dump1, dump2) != 0) {
        size_t i = 0;
        while (dump1[i] && dump1[i] == dump2[i])
            i++;
        size_t b = i;
        while (b > 0 && dump1[b - 1] != '\n')
            b--;
        ck_abort_msg("%s: IR differs after print+parse near:\n%.200s\n--- vs ---\n%.200s", path,
                     dump1 + b, dump2 + b);
    }
    free(diag);
    free(dump1);
    free(dump2);
    free(printed);
    free(text);
    isa_module_free(m);
    isa_module_free(m2);
}
END_TEST

/* The corpus is really there (a missing corpus must not pass silently). */
START_TEST(corpus_present)
{
    ck_assert_msg(files.gl_pathc >= 100, "only %zu corpus files found", files.gl_pathc);
}
END_TEST

Suite *make_corpus_suite(void)
{
    corpus_glob();
    Suite *s = suite_create("corpus");
    TCase *tc = tcase_create("roundtrip");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, corpus_present);
    tcase_add_loop_test(tc, corpus_roundtrip, 0, (int)files.gl_pathc);
    suite_add_tcase(s, tc);
    return s;
}
