/* run.c: the exec unit-test runner. */
#include <check.h>
#include <stdlib.h>

Suite *make_interp_suite(void);
Suite *make_memory_suite(void);
Suite *make_atomic_suite(void);
Suite *make_mx_suite(void);
Suite *make_forms_suite(void);
Suite *make_device_suite(void);
Suite *make_collective_suite(void);
Suite *make_tex_suite(void);
Suite *make_stack_suite(void);
Suite *make_policy_suite(void);
Suite *make_halfvec_suite(void);
Suite *make_cfg_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(make_interp_suite());
    srunner_add_suite(sr, make_memory_suite());
    srunner_add_suite(sr, make_atomic_suite());
    srunner_add_suite(sr, make_mx_suite());
    srunner_add_suite(sr, make_forms_suite());
    srunner_add_suite(sr, make_device_suite());
    srunner_add_suite(sr, make_collective_suite());
    srunner_add_suite(sr, make_tex_suite());
    srunner_add_suite(sr, make_stack_suite());
    srunner_add_suite(sr, make_policy_suite());
    srunner_add_suite(sr, make_halfvec_suite());
    srunner_add_suite(sr, make_cfg_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
