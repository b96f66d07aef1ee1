/* run.c: the fuzz replay runner: every variant recorded on the GPU under tests/fuzz/ must
 * replay on the emulator with 0 mismatches (or within its recorded ulp bound), except the
 * ones listed in tests/fuzz/PENDING, which must still fail. */
#include <check.h>
#include <stdlib.h>

Suite *make_fuzz_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(make_fuzz_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
