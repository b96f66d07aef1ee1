/* run.c: the frontend unit-test runner: one SRunner over every frontend suite. */
#include <check.h>
#include <stdlib.h>

Suite *make_lex_suite(void);
Suite *make_lower_suite(void);
Suite *make_corpus_suite(void);
Suite *make_errors_suite(void);
Suite *make_robust_suite(void);
Suite *make_link_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(make_lex_suite());
    srunner_add_suite(sr, make_lower_suite());
    srunner_add_suite(sr, make_corpus_suite());
    srunner_add_suite(sr, make_errors_suite());
    srunner_add_suite(sr, make_robust_suite());
    srunner_add_suite(sr, make_link_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
