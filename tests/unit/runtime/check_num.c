/* check_num.c: runtime/num.c: f16/bf16 rounding, and the shortest decimal that reads
 * back to the same bits. */
#include <math.h>

#include "helpers.h"

static const char *fmt(isa_type_t t, uint64_t bits, bool hex)
{
    static char buf[64];
    rt_elem_format(buf, sizeof buf, t, &bits, hex);
    return buf;
}

START_TEST(half_rounding)
{
    ck_assert_uint_eq(rt_f16_from_f64(1.0), 0x3c00);
    ck_assert_uint_eq(rt_f16_from_f64(-0.0), 0x8000);
    ck_assert_uint_eq(rt_f16_from_f64(65504.0), 0x7bff);
    ck_assert_uint_eq(rt_f16_from_f64(65519.0), 0x7bff);
    ck_assert_uint_eq(rt_f16_from_f64(65520.0), 0x7c00);          /* the tie goes to inf */
    ck_assert_uint_eq(rt_f16_from_f64(ldexp(1, -24)), 0x0001);    /* least subnormal */
    ck_assert_uint_eq(rt_f16_from_f64(ldexp(1, -25)), 0x0000);    /* tie to even: 0 */
    ck_assert_uint_eq(rt_f16_from_f64(ldexp(3, -26)), 0x0001);
    ck_assert_uint_eq(rt_f16_from_f64(ldexp(3, -25)), 0x0002);    /* 1.5 ulp: tie to even */
    ck_assert_uint_eq(rt_f16_from_f64(ldexp(1023, -24) + ldexp(1, -25)), 0x0400);  /* into the normals */
    ck_assert_uint_eq(rt_f16_from_f64(1.0 + ldexp(1, -11)), 0x3c00);
    ck_assert_uint_eq(rt_f16_from_f64(1.0 + ldexp(3, -11)), 0x3c02);
    ck_assert_uint_eq(rt_f16_from_f64(INFINITY), 0x7c00);
    ck_assert_uint_eq(rt_f16_from_f64(-1e300), 0xfc00);
    ck_assert_uint_eq(rt_f16_from_f64(NAN) & 0x7e00, 0x7e00);
    ck_assert_uint_eq(rt_f16_from_f64(1.0 / 3), 13653);
    ck_assert_uint_eq(rt_bf16_from_f64(1.0), 0x3f80);
    ck_assert_uint_eq(rt_bf16_from_f64(1.0 + ldexp(1, -8)), 0x3f80);
    ck_assert_uint_eq(rt_bf16_from_f64(1.0 + ldexp(3, -8)), 0x3f82);
    ck_assert_uint_eq(rt_bf16_from_f64(3.4028234663852886e38), 0x7f80);
    ck_assert_uint_eq(rt_bf16_from_f64(ldexp(1, -133)), 0x0001);
    ck_assert(rt_f16_to_f32(0x0001) == ldexpf(1, -24));
    ck_assert(rt_f16_to_f32(0x7bff) == 65504.0f);
    ck_assert(isinf(rt_f16_to_f32(0xfc00)) && rt_f16_to_f32(0xfc00) < 0);
    ck_assert(isnan(rt_bf16_to_f32(0x7fc1)));
    ck_assert(rt_bf16_to_f32(0xc040) == -3.0f);
    /* Every f16 and bf16 survives the round trip through f32. */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) != 0x7c00 || !(h & 0x3ff))
            ck_assert_uint_eq(rt_f16_from_f64(rt_f16_to_f32((uint16_t)h)), h);
        if ((h & 0x7f80) != 0x7f80 || !(h & 0x7f))
            ck_assert_uint_eq(rt_bf16_from_f64(rt_bf16_to_f32((uint16_t)h)), h);
    }
}
END_TEST

START_TEST(shortest_decimal)
{
    ck_assert_str_eq(fmt(ISA_T_F32, 0x3dcccccd, false), "0.1");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x3eaaaaab, false), "0.33333334");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x00000001, false), "1e-45");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x7f7fffff, false), "3.4028235e+38");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x4b800001, false), "16777218");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x80000000, false), "-0");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x7f800000, false), "inf");
    ck_assert_str_eq(fmt(ISA_T_F32, 0xff800000, false), "-inf");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x7fffffff, false), "nan");
    ck_assert_str_eq(fmt(ISA_T_F32, 0xffc00000, false), "nan");
    ck_assert_str_eq(fmt(ISA_T_F64, 0x3fb999999999999aull, false), "0.1");
    ck_assert_str_eq(fmt(ISA_T_F64, 0x3fd5555555555555ull, false), "0.3333333333333333");
    ck_assert_str_eq(fmt(ISA_T_F64, 0x0000000000000001ull, false), "5e-324");
    ck_assert_str_eq(fmt(ISA_T_F64, 0x8000000000000000ull, false), "-0");
    ck_assert_str_eq(fmt(ISA_T_F64, 0x4415af1d78b58c40ull, false), "1e+20");
    ck_assert_str_eq(fmt(ISA_T_F16, 13653, false), "0.3333");
    ck_assert_str_eq(fmt(ISA_T_F16, 0x7bff, false), "65500");
    ck_assert_str_eq(fmt(ISA_T_F16, 0x0001, false), "6e-08");
    ck_assert_str_eq(fmt(ISA_T_F16, 0x8000, false), "-0");
    ck_assert_str_eq(fmt(ISA_T_BF16, 0x3eab, false), "0.334");
    ck_assert_str_eq(fmt(ISA_T_BF16, 0x3f80, false), "1");
    ck_assert_str_eq(fmt(ISA_T_BF16, 0xff80, false), "-inf");
    /* The shortest form reads back to the same bits, over a sweep of f32 values. */
    for (uint32_t b = 1; b < 0x7f800000; b += 0x00012345) {
        const char *s = fmt(ISA_T_F32, b, false);
        float back = strtof(s, NULL);
        uint32_t bb;
        memcpy(&bb, &back, 4);
        ck_assert_msg(bb == b, "%08x printed as %s", b, s);
    }
}
END_TEST

START_TEST(integers_and_hex)
{
    ck_assert_str_eq(fmt(ISA_T_S8, 0x80, false), "-128");
    ck_assert_str_eq(fmt(ISA_T_U8, 0x80, false), "128");
    ck_assert_str_eq(fmt(ISA_T_B16, 0xffff, false), "65535");
    ck_assert_str_eq(fmt(ISA_T_S32, 0x80000000, false), "-2147483648");
    ck_assert_str_eq(fmt(ISA_T_S64, 0x8000000000000000ull, false), "-9223372036854775808");
    ck_assert_str_eq(fmt(ISA_T_U64, UINT64_MAX, false), "18446744073709551615");
    ck_assert_str_eq(fmt(ISA_T_U8, 0x0a, true), "0a");
    ck_assert_str_eq(fmt(ISA_T_S16, 0xfff6, true), "fff6");
    ck_assert_str_eq(fmt(ISA_T_F32, 0x3f800000, true), "3f800000");
    ck_assert_str_eq(fmt(ISA_T_F64, 0x2a, true), "000000000000002a");
    ck_assert_str_eq(fmt(ISA_T_BF16, 0x7fc1, true), "7fc1");
}
END_TEST

Suite *make_num_suite(void)
{
    Suite *s = suite_create("num");
    TCase *tc = tcase_create("num");
    tcase_add_test(tc, half_rounding);
    tcase_add_test(tc, shortest_decimal);
    tcase_add_test(tc, integers_and_hex);
    suite_add_tcase(s, tc);
    return s;
}
