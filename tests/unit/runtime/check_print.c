/* check_print.c: runtime/print.c: the :out buffers as text, hex and JSON, in
 * parameter order. */
#include "helpers.h"

static isa_module_t *m;
static rt_args_t a;

static void setup(void)
{
    m = rt_test_module(".param .u64 a, .param .u32 n, .param .u64 b, .param .u64 c, .param .u64 d");
    const char *argv[] = { "f32[]=1.5,-0.0,inf,nan,-inf,0.1:out", "7", "s8[]=-1,2:out", "u16[2]", "f16[]=0.5,65504:out" };
    ck_assert_int_eq(rt_test_parse(m, 5, argv, &a, NULL), ISA_ST_OK);
}

static void teardown(void)
{
    rt_args_free(&a);
    isa_module_free(m);
}

START_TEST(text)
{
    char *s = rt_test_print(&a, RT_OUT_TEXT);
    ck_assert_str_eq(s, "arg0 f32[6]: 1.5 -0 inf nan -inf 0.1\n"
                        "arg2 s8[2]: -1 2\n"
                        "arg4 f16[2]: 0.5 65500\n");
    free(s);
}
END_TEST

START_TEST(hex)
{
    char *s = rt_test_print(&a, RT_OUT_HEX);
    ck_assert_str_eq(s, "arg0 f32[6]: 3fc00000 80000000 7f800000 7fc00000 ff800000 3dcccccd\n"
                        "arg2 s8[2]: ff 02\n"
                        "arg4 f16[2]: 3800 7bff\n");
    free(s);
}
END_TEST

START_TEST(json)
{
    char *s = rt_test_print(&a, RT_OUT_JSON);
    ck_assert_str_eq(s, "{\n"
                        "  \"arg0\": {\"type\": \"f32\", \"count\": 6, \"values\": [1.5, -0, \"inf\", \"nan\", \"-inf\", 0.1]},\n"
                        "  \"arg2\": {\"type\": \"s8\", \"count\": 2, \"values\": [-1, 2]},\n"
                        "  \"arg4\": {\"type\": \"f16\", \"count\": 2, \"values\": [0.5, 65500]}\n"
                        "}\n");
    free(s);
}
END_TEST

START_TEST(nothing_to_print)
{
    isa_module_t *m1 = rt_test_module(".param .u64 a");
    const char *argv[] = { "u32[4]" };
    rt_args_t a1;
    ck_assert_int_eq(rt_test_parse(m1, 1, argv, &a1, NULL), ISA_ST_OK);
    char *s = rt_test_print(&a1, RT_OUT_TEXT);
    ck_assert_str_eq(s, "");
    free(s);
    s = rt_test_print(&a1, RT_OUT_JSON);
    ck_assert_str_eq(s, "{\n}\n");
    free(s);
    rt_args_free(&a1);
    isa_module_free(m1);
}
END_TEST

Suite *make_print_suite(void)
{
    Suite *s = suite_create("print");
    TCase *tc = tcase_create("print");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, text);
    tcase_add_test(tc, hex);
    tcase_add_test(tc, json);
    tcase_add_test(tc, nothing_to_print);
    suite_add_tcase(s, tc);
    return s;
}
