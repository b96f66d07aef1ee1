/* check_errors.c: invalid PTX gives exactly the expected diagnostics.  Each
 * tests/ptx/errors/NAME.ptx has NAME.err beside it holding the full expected output
 * (file:line:col: error: message, the source line, the caret line).  The cases in
 * tests/ptx/refused/ are PTX that ptxas assembles but whose code does not do on the H100
 * what the PTX says (each says why); ptxemu refuses them the same way. */
#include <check.h>
#include <glob.h>
#include <unistd.h>

#include "testutil.h"

static glob_t files;

START_TEST(error_exact)
{
    const char *path = files.gl_pathv[_i];
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "%s: cannot read", path);
    char errpath[512];
    snprintf(errpath, sizeof errpath, "%.*s.err", (int)(strlen(path) - 4), path);
    char *want = tu_read(errpath);
    ck_assert_msg(want != NULL, "%s: missing expected diagnostics %s", path, errpath);
    char *diag = NULL;
    isa_module_t *m = tu_load(path, text, &diag);
    ck_assert_msg(m == NULL, "%s: invalid PTX was accepted", path);
    ck_assert_msg(strcmp(diag, want) == 0, "%s: diagnostics differ.\n--- got ---\n%s--- want ---\n%s",
                  path, diag, want);
    free(diag);
    free(want);
    free(text);
}
END_TEST

START_TEST(errors_present)
{
    ck_assert_msg(files.gl_pathc >= 20, "only %zu error cases found", files.gl_pathc);
}
END_TEST

Suite *make_errors_suite(void)
{
    if (chdir(tu_srcdir()) == 0) {
        glob("tests/ptx/errors/*.ptx", 0, NULL, &files);
        glob("tests/ptx/refused/*.ptx", GLOB_APPEND, NULL, &files);
    }
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("diagnostics");
    tcase_add_test(tc, errors_present);
    tcase_add_loop_test(tc, error_exact, 0, (int)files.gl_pathc);
    suite_add_tcase(s, tc);
    return s;
}
