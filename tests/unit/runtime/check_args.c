/* check_args.c: runtime/args.c: kernel arguments from the command line: every buffer
 * type and initializer, rand(SEED), @FILE, :out, scalars per declared type, by-value
 * aggregates, the parameter block layout, and the errors. */
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "helpers.h"

static uint64_t u64_at(const rt_buffer_t *b, uint64_t i)
{
    uint64_t v = 0;
    unsigned eb = isa_types[b->type].bits / 8;
    memcpy(&v, (const uint8_t *)b->host + i * eb, eb);
    return v;
}

/* Every element type takes TYPE[N]=V; the buffer is 256-byte aligned. */
START_TEST(every_type)
{
    static const struct { const char *name; unsigned bytes; uint64_t one; } t[] = {
        { "b8", 1, 1 }, { "b16", 2, 1 }, { "b32", 4, 1 }, { "b64", 8, 1 },
        { "u8", 1, 1 }, { "u16", 2, 1 }, { "u32", 4, 1 }, { "u64", 8, 1 },
        { "s8", 1, 1 }, { "s16", 2, 1 }, { "s32", 4, 1 }, { "s64", 8, 1 },
        { "f16", 2, 0x3c00 }, { "bf16", 2, 0x3f80 }, { "f32", 4, 0x3f800000 }, { "f64", 8, 0x3ff0000000000000ull },
    };
    isa_module_t *m = rt_test_module(".param .u64 p");
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        char arg[32];
        snprintf(arg, sizeof arg, "%s[3]=1", t[i].name);
        const char *argv[] = { arg };
        rt_args_t a;
        ck_assert_int_eq(rt_test_parse(m, 1, argv, &a, NULL), ISA_ST_OK);
        ck_assert_int_eq(a.nbuf, 1);
        ck_assert_uint_eq(a.bufs[0].count, 3);
        ck_assert_uint_eq(a.bufs[0].bytes, 3 * t[i].bytes);
        ck_assert_uint_eq((uintptr_t)a.bufs[0].host % 256, 0);
        for (unsigned e = 0; e < 3; e++)
            ck_assert_msg(u64_at(&a.bufs[0], e) == t[i].one, "%s element %u", t[i].name, e);
        uint64_t addr;
        memcpy(&addr, a.params, 8);
        ck_assert_uint_eq(addr, (uintptr_t)a.bufs[0].host);
        rt_args_free(&a);
    }
    isa_module_free(m);
}
END_TEST

START_TEST(initializers)
{
    isa_module_t *m = rt_test_module(".param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d, .param .u64 e, .param .u64 f");
    const char *argv[] = { "u32[4]", "u8[5]=iota(250,3)", "f32[3]=iota(0.5,0.25)", "s16[]=-1,2,0x7fff,-32768",
                           "u16[4]=iota", "s8[2]=-5" };
    rt_args_t a;
    ck_assert_int_eq(rt_test_parse(m, 6, argv, &a, NULL), ISA_ST_OK);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(u64_at(&a.bufs[0], i), 0);             /* zero-initialised */
    static const uint64_t iota_u8[] = { 250, 253, 0, 3, 6 };  /* wraps at the width */
    for (unsigned i = 0; i < 5; i++)
        ck_assert_uint_eq(u64_at(&a.bufs[1], i), iota_u8[i]);
    float f[3];
    memcpy(f, a.bufs[2].host, sizeof f);
    ck_assert(f[0] == 0.5f && f[1] == 0.75f && f[2] == 1.0f);
    ck_assert_uint_eq(a.bufs[3].count, 4);
    static const uint64_t s16[] = { 0xffff, 2, 0x7fff, 0x8000 };
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(u64_at(&a.bufs[3], i), s16[i]);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(u64_at(&a.bufs[4], i), i);
    ck_assert_uint_eq(u64_at(&a.bufs[5], 1), 0xfb);
    rt_args_free(&a);
    isa_module_free(m);
}
END_TEST

/* rand(SEED) is splitmix64; these values were computed from the algorithm as
 * docs/user-guide.md states it, independently of the code. */
START_TEST(rand_pinned)
{
    uint64_t s = 0;
    ck_assert_uint_eq(rt_rand_next(&s), 0xe220a8397b1dcdafull);
    ck_assert_uint_eq(rt_rand_next(&s), 0x6e789e6aa1b965f4ull);
    ck_assert_uint_eq(rt_rand_next(&s), 0x06c45d188009454full);
    isa_module_t *m = rt_test_module(".param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d");
    const char *argv[] = { "u64[2]=rand(0)", "f32[2]=rand(42)", "s8[1]=rand(42)", "u16[1]=rand(42)" };
    rt_args_t a;
    ck_assert_int_eq(rt_test_parse(m, 4, argv, &a, NULL), ISA_ST_OK);
    ck_assert_uint_eq(u64_at(&a.bufs[0], 0), 0xe220a8397b1dcdafull);
    ck_assert_uint_eq(u64_at(&a.bufs[0], 1), 0x6e789e6aa1b965f4ull);
    /* f32: top 24 bits k of 0xbdd732262feb6e95, k * 2^-23 - 1 */
    ck_assert_uint_eq(u64_at(&a.bufs[1], 0), 0x3ef75cc8);
    ck_assert_uint_eq(u64_at(&a.bufs[1], 1), 0xbf2e203a);
    ck_assert_uint_eq(u64_at(&a.bufs[2], 0), 0x95);     /* the low bits */
    ck_assert_uint_eq(u64_at(&a.bufs[3], 0), 0x6e95);
    rt_args_free(&a);
    /* The same seed gives the same values; floats stay in [-1, 1). */
    const char *argv2[] = { "f64[1000]=rand(9)", "f64[1000]=rand(9)", "f16[1000]=rand(1)", "bf16[1000]=rand(1)" };
    ck_assert_int_eq(rt_test_parse(m, 4, argv2, &a, NULL), ISA_ST_OK);
    ck_assert(memcmp(a.bufs[0].host, a.bufs[1].host, 8000) == 0);
    for (unsigned i = 0; i < 1000; i++) {
        double d;
        memcpy(&d, (double *)a.bufs[0].host + i, 8);
        ck_assert(d >= -1.0 && d < 1.0);
        float h = rt_f16_to_f32((uint16_t)u64_at(&a.bufs[2], i)), bh = rt_bf16_to_f32((uint16_t)u64_at(&a.bufs[3], i));
        ck_assert(h >= -1.0f && h < 1.0f && bh >= -1.0f && bh < 1.0f);
    }
    rt_args_free(&a);
    isa_module_free(m);
}
END_TEST

START_TEST(at_file_and_out)
{
    char in[] = "/tmp/ptxemu_rt_inXXXXXX", outp[64];
    int fd = mkstemp(in);
    ck_assert(fd >= 0);
    static const uint16_t data[3] = { 1, 0x8000, 0xffff };
    ck_assert(write(fd, data, sizeof data) == sizeof data);
    close(fd);
    snprintf(outp, sizeof outp, "%s.out", in);
    isa_module_t *m = rt_test_module(".param .u64 a, .param .u64 b, .param .u64 c");
    char a0[128], a1[128];
    snprintf(a0, sizeof a0, "u16[]=@%s:out", in);
    snprintf(a1, sizeof a1, "u32[2]=7:out=%s", outp);
    const char *argv[] = { a0, a1, "s32[2]" };
    rt_args_t a;
    ck_assert_int_eq(rt_test_parse(m, 3, argv, &a, NULL), ISA_ST_OK);
    ck_assert_uint_eq(a.bufs[0].count, 3);
    ck_assert(a.bufs[0].out && !a.bufs[0].out_path);
    ck_assert(!a.bufs[1].out && a.bufs[1].out_path && strcmp(a.bufs[1].out_path, outp) == 0);
    ck_assert(!a.bufs[2].out && !a.bufs[2].out_path);
    char *text = rt_test_print(&a, RT_OUT_TEXT);
    ck_assert_str_eq(text, "arg0 u16[3]: 1 32768 65535\n");
    free(text);
    FILE *f = fopen(outp, "rb");
    ck_assert(f != NULL);
    uint32_t back[3] = { 0 };
    ck_assert_uint_eq(fread(back, 4, 3, f), 2);
    fclose(f);
    ck_assert(back[0] == 7 && back[1] == 7);
    rt_args_free(&a);
    /* A file that is not a whole number of elements. */
    snprintf(a0, sizeof a0, "u64[]=@%s", in);
    const char *argv2[] = { a0, "u8[1]", "u8[1]" };
    char *diag;
    ck_assert_int_eq(rt_test_parse(m, 3, argv2, &a, &diag), ISA_ST_USAGE);
    ck_assert_msg(strstr(diag, "argument 0 (a)") && strstr(diag, "6 bytes"), "%s", diag);
    free(diag);
    unlink(in);
    unlink(outp);
    isa_module_free(m);
}
END_TEST

/* Scalars honour the declared type and its range. */
START_TEST(scalars)
{
    isa_module_t *m = rt_test_module(".param .u8 a, .param .s16 b, .param .u32 c, .param .f32 d, .param .f64 e, "
                                     ".param .b64 f, .param .s32 g, .param .f16 h");
    const char *argv[] = { "255", "-32768", "0x2a", "0f3FC00000", "0d3FF8000000000000", "-1", "0xffffffff", "1.5" };
    rt_args_t a;
    ck_assert_int_eq(rt_test_parse(m, 8, argv, &a, NULL), ISA_ST_OK);
    ck_assert_uint_eq(a.params[a.param_offset[0]], 255);
    int16_t s16;
    memcpy(&s16, a.params + a.param_offset[1], 2);
    ck_assert_int_eq(s16, -32768);
    uint32_t u32;
    memcpy(&u32, a.params + a.param_offset[2], 4);
    ck_assert_uint_eq(u32, 42);
    float f;
    memcpy(&f, a.params + a.param_offset[3], 4);
    ck_assert(f == 1.5f);
    double d;
    memcpy(&d, a.params + a.param_offset[4], 8);
    ck_assert(d == 1.5);
    uint64_t b64;
    memcpy(&b64, a.params + a.param_offset[5], 8);
    ck_assert_uint_eq(b64, UINT64_MAX);
    memcpy(&u32, a.params + a.param_offset[6], 4);
    ck_assert_uint_eq(u32, 0xffffffffu);
    uint16_t h;
    memcpy(&h, a.params + a.param_offset[7], 2);
    ck_assert_uint_eq(h, 0x3e00);
    rt_args_free(&a);

    static const char *const specials[] = { "-0.0", "inf", "-inf", "nan", "1e-45", "0x1.8p1" };
    static const uint32_t bits[] = { 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001, 0x40400000 };
    isa_module_t *mf = rt_test_module(".param .f32 x");
    for (unsigned i = 0; i < 6; i++) {
        const char *av[] = { specials[i] };
        ck_assert_int_eq(rt_test_parse(mf, 1, av, &a, NULL), ISA_ST_OK);
        memcpy(&u32, a.params, 4);
        ck_assert_msg(u32 == bits[i], "%s: %08x", specials[i], u32);
        rt_args_free(&a);
    }
    isa_module_free(mf);
    isa_module_free(m);
}
END_TEST

/* Each parameter sits at the next offset aligned to its alignment. */
START_TEST(layout_and_struct)
{
    isa_module_t *m = rt_test_module(".param .u8 a, .param .u64 b, .param .u16 c, .param .align 4 .b8 s[6], "
                                     ".param .f64 d, .param .u32 e");
    const char *argv[] = { "1", "u32[1]", "3", "1,2,0xff,-1", "2.5", "6" };
    rt_args_t a;
    ck_assert_int_eq(rt_test_parse(m, 6, argv, &a, NULL), ISA_ST_OK);
    static const uint32_t off[] = { 0, 8, 16, 20, 32, 40 };
    for (unsigned i = 0; i < 6; i++)
        ck_assert_uint_eq(a.param_offset[i], off[i]);
    ck_assert_uint_eq(a.params_size, 44);
    ck_assert_int_eq(a.param_buffer[1], 0);
    ck_assert_int_eq(a.param_buffer[0], -1);
    static const uint8_t s[6] = { 1, 2, 0xff, 0xff, 0, 0 };
    ck_assert(memcmp(a.params + 20, s, 6) == 0);
    rt_args_free(&a);
    const char *argv2[] = { "1", "u32[1]", "3", "0x0102030405ff", "2.5", "6" };
    ck_assert_int_eq(rt_test_parse(m, 6, argv2, &a, NULL), ISA_ST_OK);
    static const uint8_t s2[6] = { 1, 2, 3, 4, 5, 0xff };
    ck_assert(memcmp(a.params + 20, s2, 6) == 0);
    rt_args_free(&a);
    isa_module_free(m);
}
END_TEST

/* Errors name the argument and exit with ISA_ST_USAGE. */
START_TEST(errors)
{
    static const struct { const char *params, *arg, *want; } cases[] = {
        { ".param .u32 a", "4294967296", "argument 0 (a): '4294967296' for .u32: out of range" },
        { ".param .s8 a", "128", "out of range" },
        { ".param .s8 a", "-129", "out of range" },
        { ".param .u32 a", "1.5", "not an integer" },
        { ".param .f32 a", "abc", "not a number" },
        { ".param .f32 a", "0f123", "0f needs 8 hex digits" },
        { ".param .f32 a", "u32[4]", "a buffer needs a 64-bit integer parameter, not .f32" },
        { ".param .u64 a", "u32[]", "needs values" },
        { ".param .u64 a", "u32[]=iota", "iota needs a count" },
        { ".param .u64 a", "u32[3]=1,2", "2 values for 3 elements" },
        { ".param .u64 a", "u32[2]=1,x", "value 1 'x'" },
        { ".param .u64 a", "u32[x]", "bad element count" },
        { ".param .u64 a", "u32[2]junk", "unexpected 'junk'" },
        { ".param .u64 a", "u8[2]=256", "out of range" },
        { ".param .u64 a", "u32[2]=@/nonexistent/file", "cannot read '/nonexistent/file'" },
        { ".param .u64 a", "u32[2]=iota(1)", "expected iota(START,STEP)" },
        { ".param .align 4 .b8 s[2]", "1,2,3", "3 byte values for a 2-byte parameter" },
        { ".param .align 4 .b8 s[2]", "1,300", "byte 1 '300'" },
        { ".param .u64 a", "surf.1d.f32[4]:out=x:out=y", ":out= given twice" },
        { ".param .u64 a", "tex.2d.f32[2,2]:out=x:linear:out=x", ":out= given twice" },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        isa_module_t *m = rt_test_module(cases[i].params);
        const char *argv[] = { cases[i].arg };
        rt_args_t a;
        char *diag;
        ck_assert_int_eq(rt_test_parse(m, 1, argv, &a, &diag), ISA_ST_USAGE);
        ck_assert_msg(strncmp(diag, "ptxrun: error: argument 0 (", 27) == 0 && strstr(diag, cases[i].want),
                      "%s: %s", cases[i].arg, diag);
        free(diag);
        isa_module_free(m);
    }
    isa_module_t *m = rt_test_module(".param .u64 a, .param .u32 n");
    const char *argv[] = { "u32[1]" };
    rt_args_t a;
    char *diag;
    ck_assert_int_eq(rt_test_parse(m, 1, argv, &a, &diag), ISA_ST_USAGE);
    ck_assert_msg(strstr(diag, "k takes 2 arguments, 1 given") != NULL, "%s", diag);
    free(diag);
    isa_module_free(m);
}
END_TEST

Suite *make_args_suite(void)
{
    Suite *s = suite_create("args");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, every_type);
    tcase_add_test(tc, initializers);
    tcase_add_test(tc, rand_pinned);
    tcase_add_test(tc, at_file_and_out);
    tcase_add_test(tc, scalars);
    tcase_add_test(tc, layout_and_struct);
    tcase_add_test(tc, errors);
    suite_add_tcase(s, tc);
    return s;
}
