/* run.c: the golden test runner: every tests/golden/NAME.ptx run on the emulator with
 * the arguments in NAME.cmd must print exactly NAME.out, recorded on an H100; every launch of
 * tests/golden/limits/cases.txt must end as it did on the H100. */
#include <check.h>
#include <stdlib.h>

Suite *make_golden_suite(void);
Suite *make_limits_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(make_golden_suite());
    srunner_add_suite(sr, make_limits_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
