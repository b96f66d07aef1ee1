/* run.c: the isa unit-test runner: one SRunner over every isa suite. */
#include <check.h>
#include <stdlib.h>

Suite *make_tables_suite(void);
Suite *make_print_suite(void);
Suite *make_hvec_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(make_tables_suite());
    srunner_add_suite(sr, make_print_suite());
    srunner_add_suite(sr, make_hvec_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
