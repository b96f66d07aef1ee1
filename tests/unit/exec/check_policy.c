/* check_policy.c: exec/mem/policy.c, createpolicy's values: the encodings that ptxas 13's
 * sm_90 code computes (read from its SASS for each form, docs/execution.md), for constant
 * and register fractions, ranges (block size, first block, count, the empty range) and
 * cvt.L2; the goldens tests/golden/createpolicy and createpolicy_edge are their H100 recordings. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/exec/exutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

START_TEST(policy_values)
{
    static const char *forms[] = {
        "createpolicy.fractional.L2::evict_last.b64 %rd2;",
        "createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %rd2, 0.5;",
        "createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd2, 0.25;",
        "createpolicy.fractional.L2::evict_unchanged.b64 %rd2, 0.0625;",
        "createpolicy.fractional.L2::evict_last.b64 %rd2, 0f3F00147F;",  /* first above 0.5 with 8 */
        "createpolicy.fractional.L2::evict_last.b64 %rd2, 0f3F00147E;",
        "mov.f32 %f1, 0f3F70266D; createpolicy.fractional.L2::evict_last.b64 %rd2, %f1;",
        "mov.f32 %f1, 0fBF000000; createpolicy.fractional.L2::evict_last.b64 %rd2, %f1;",   /* -0.5: 0, as the H100 gives (createpolicy_edge) */
        "createpolicy.range.L2::evict_last.L2::evict_first.b64 %rd2, [%rd3], 0x100000, 0x200000;",
        "createpolicy.range.global.L2::evict_normal.b64 %rd2, [%rd4+16], 0x2000, 0x10000;",
        "createpolicy.range.L2::evict_first.b64 %rd2, [%rd4], 0xffffffff, 0xffffffff;",
        "createpolicy.range.L2::evict_first.b64 %rd2, [%rd4], 0, 0;",
        "mov.u32 %r1, 0x345678ab; createpolicy.range.L2::evict_first.b64 %rd2, [%r1], 0x30000, 0x40000;",
        "createpolicy.cvt.L2.b64 %rd2, 0x1234567890abcdef;",
    };
    static const uint64_t want[] = {
        0x14f0000000000000, 0x1770000000000000, 0x1230000000000000, 0x1000000000000000, 0x1480000000000000,
        0x1470000000000000, 0x14f0000000000000, 0x1400000000000000, 0x1d25880000000000, 0x1e06706000000000,
        0x1ad1a02000000000, 0x1800000000000000, 0x1a06762000000000, 0x1234567890abcdef,
    };
    for (unsigned i = 0; i < sizeof forms / sizeof *forms; i++) {
        char text[1024];
        snprintf(text, sizeof text, HDR
                 ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %%r<4>; .reg .f32 %%f<4>; .reg .b64 %%rd<8>;\n"
                 "ld.param.u64 %%rd1, [out];\n"
                 "mov.u64 %%rd3, 0x7f1234560000; mov.u64 %%rd4, 0x7f12345678ab;\n"
                 "%s\nst.global.u64 [%%rd1], %%rd2;\nret;\n}\n", forms[i]);
        uint64_t *out = aligned_alloc(256, 256);
        memset(out, 0, 256);
        char *diag = NULL;
        isa_status_t st = exu_run(text, 1, 1, 0, out, 256, &diag);
        ck_assert_msg(st == ISA_ST_OK, "%s: %s", forms[i], diag);
        ck_assert_msg(out[0] == want[i], "%s: 0x%016llx, not 0x%016llx", forms[i], (unsigned long long)out[0],
                      (unsigned long long)want[i]);
        free(diag);
        free(out);
    }
}
END_TEST

Suite *make_policy_suite(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, policy_values);
    suite_add_tcase(s, tc);
    return s;
}
