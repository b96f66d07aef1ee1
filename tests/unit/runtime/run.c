/* run.c: the runtime test runner: command-line arguments, number formats, printing,
 * comparing two backends' runs, fatbins. */
#include <check.h>
#include <stdlib.h>

Suite *make_args_suite(void);
Suite *make_num_suite(void);
Suite *make_print_suite(void);
Suite *make_compare_suite(void);
Suite *make_fatbin_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(make_args_suite());
    srunner_add_suite(sr, make_num_suite());
    srunner_add_suite(sr, make_print_suite());
    srunner_add_suite(sr, make_compare_suite());
    srunner_add_suite(sr, make_fatbin_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
