/* check_tex.c: tests of exec/tex/ that do not depend on the hardware: the handle table
 * (stale, invented and wrong-kind handles), the shapes arrays refuse, and the
 * address-mode arithmetic. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "exec/tex/tex.h"

static ex_array_t *arr(ex_device_t *d, uint32_t w, uint32_t h, unsigned flags)
{
    ex_array_desc_t q = { w, h, 0, EX_FMT_F32, 1, flags, 1 };
    ex_array_t *a = NULL;
    char msg[128];
    ck_assert_int_eq(ex_array_new(d, &q, &a, msg, sizeof msg), ISA_ST_OK);
    return a;
}

START_TEST(handles_checked)
{
    ex_device_t *d = ex_device_new(NULL);
    ex_array_t *a = arr(d, 4, 4, EX_ARRAY_SURFACE);
    ex_res_desc_t r = { 0 };
    r.kind = EX_RES_ARRAY;
    r.array = a;
    ex_tex_desc_t t = { 0 };
    t.flags = EX_TEXF_READ_AS_INTEGER;
    uint64_t ht = 0, hs = 0;
    char msg[128];
    ck_assert_int_eq(ex_tex_create(d, &r, &t, &ht, msg, sizeof msg), ISA_ST_OK);
    ck_assert_int_eq(ex_surf_create(d, &r, &hs, msg, sizeof msg), ISA_ST_OK);
    ck_assert(ht != hs && ht && hs);
    const ex_texobj_t *o = ex_tex_lookup(d, ht);
    ck_assert_ptr_nonnull(o);
    ck_assert(!o->surface);
    ck_assert(ex_tex_lookup(d, hs)->surface);
    /* invented handles: 0, beyond the table, a host address */
    ck_assert_ptr_null(ex_tex_lookup(d, 0));
    ck_assert_ptr_null(ex_tex_lookup(d, 12345));
    ck_assert_ptr_null(ex_tex_lookup(d, (uint64_t)(uintptr_t)a));
    ck_assert_ptr_null(ex_tex_lookup(d, ~0ull));
    /* a destroyed handle stays invalid, also when its slot is reused */
    ck_assert_int_eq(ex_tex_destroy(d, ht), ISA_ST_OK);
    ck_assert_ptr_null(ex_tex_lookup(d, ht));
    ck_assert_int_eq(ex_tex_destroy(d, ht), ISA_ST_USAGE);
    uint64_t h2 = 0;
    ck_assert_int_eq(ex_tex_create(d, &r, &t, &h2, msg, sizeof msg), ISA_ST_OK);
    ck_assert((uint32_t)h2 == (uint32_t)ht && h2 != ht);
    ck_assert_ptr_null(ex_tex_lookup(d, ht));
    ck_assert_ptr_nonnull(ex_tex_lookup(d, h2));
    ex_array_free(a);   /* the objects keep the texels */
    ck_assert_ptr_nonnull(ex_tex_lookup(d, h2)->lv[0].base);
    ex_device_free(d);
}
END_TEST

START_TEST(refusals)
{
    ex_device_t *d = ex_device_new(NULL);
    char msg[128];
    ex_array_t *a = NULL;
    ex_array_desc_t cube = { 4, 5, 6, EX_FMT_F32, 1, EX_ARRAY_CUBE, 1 };
    ck_assert_int_eq(ex_array_new(d, &cube, &a, msg, sizeof msg), ISA_ST_USAGE);
    ex_array_desc_t three = { 4, 4, 0, EX_FMT_U8, 3, 0, 1 };
    ck_assert_int_eq(ex_array_new(d, &three, &a, msg, sizeof msg), ISA_ST_USAGE);
    ex_array_desc_t mips = { 8, 8, 0, EX_FMT_F32, 1, 0, 5 };
    ck_assert_int_eq(ex_array_new(d, &mips, &a, msg, sizeof msg), ISA_ST_USAGE);
    ex_array_t *plain = arr(d, 4, 4, 0);
    ex_res_desc_t r = { 0 };
    r.kind = EX_RES_ARRAY;
    r.array = plain;
    uint64_t h;
    ck_assert_int_eq(ex_surf_create(d, &r, &h, msg, sizeof msg), ISA_ST_OK);   /* any array, as on the H100 */
    ck_assert_int_eq(ex_tex_destroy(d, h), ISA_ST_OK);
    ex_tex_desc_t t = { 0 };
    t.filter = EX_FILTER_LINEAR;
    ex_array_t *ints = NULL;
    ex_array_desc_t iq = { 4, 4, 0, EX_FMT_S32, 1, 0, 1 };
    ck_assert_int_eq(ex_array_new(d, &iq, &ints, msg, sizeof msg), ISA_ST_OK);
    r.array = ints;
    t.flags = EX_TEXF_READ_AS_INTEGER;
    ck_assert_int_eq(ex_tex_create(d, &r, &t, &h, msg, sizeof msg), ISA_ST_USAGE);   /* linear on integers */
    ex_array_free(ints);
    ex_array_free(plain);
    ex_device_free(d);
}
END_TEST

START_TEST(address_modes)
{
    /* n = 5: wrap repeats, mirror reflects with period 10, clamp holds the edges, border
     * marks outside texels. */
    static const int64_t wrap[] = { 3, 4, 0, 1, 2, 3, 4, 0, 1 };      /* i = -2 .. 6 */
    static const int64_t mirror[] = { 1, 0, 0, 1, 2, 3, 4, 4, 3 };
    static const int64_t clamp[] = { 0, 0, 0, 1, 2, 3, 4, 4, 4 };
    static const int64_t border[] = { -1, -1, 0, 1, 2, 3, 4, -1, -1 };
    for (int i = -2; i <= 6; i++) {
        ck_assert_int_eq(ex_tex_wrap_index(i, 5, EX_ADDR_WRAP), wrap[i + 2]);
        ck_assert_int_eq(ex_tex_wrap_index(i, 5, EX_ADDR_MIRROR), mirror[i + 2]);
        ck_assert_int_eq(ex_tex_wrap_index(i, 5, EX_ADDR_CLAMP), clamp[i + 2]);
        ck_assert_int_eq(ex_tex_wrap_index(i, 5, EX_ADDR_BORDER), border[i + 2]);
    }
    ck_assert_int_eq(ex_tex_wrap_index(-11, 5, EX_ADDR_MIRROR), 0);
    ck_assert_int_eq(ex_tex_wrap_index(INT64_C(1) << 40, 3, EX_ADDR_WRAP), (INT64_C(1) << 40) % 3);
    /* fixed point: floor for point sampling, nearest (halves up) for weights */
    ck_assert_int_eq(ex_tex_fixed(1.0f / 512), 0);
    ck_assert_int_eq(ex_tex_fixed_round(1.0f / 512), 1);
    ck_assert_int_eq(ex_tex_fixed(-1.0f / 512), -1);
    ck_assert_int_eq(ex_tex_fixed_round(-1.0f / 512), 0);
    ck_assert_int_eq(ex_tex_fixed(0.0f / 0.0f), 0);
}
END_TEST

START_TEST(cube_faces)
{
    float s, t;
    ck_assert_uint_eq(ex_tex_cube_face(1, 0.5f, 0, &s, &t), 0);
    ck_assert_uint_eq(ex_tex_cube_face(-1, 0.5f, 0, &s, &t), 1);
    ck_assert_uint_eq(ex_tex_cube_face(0.5f, 1, 0, &s, &t), 2);
    ck_assert_uint_eq(ex_tex_cube_face(0.5f, -1, 0, &s, &t), 3);
    ck_assert_uint_eq(ex_tex_cube_face(0.5f, 0, 1, &s, &t), 4);
    ck_assert(s == 0.75f && t == 0.5f);
    ck_assert_uint_eq(ex_tex_cube_face(0.5f, 0, -1, &s, &t), 5);
    /* measured (tests/texfuzz): face coordinates are cut to 21 fractional bits, not
     * rounded through f32 sums: (1, -0.24999994, 0.43576812) reads row 4 of 8, where
     * (0.24999994 + 1) / 2 in f32 is 0.625 (row 5) */
    ck_assert_uint_eq(ex_tex_cube_face(1.0f, -0.24999994039535522f, 0.43576812744140625f, &s, &t), 0);
    ck_assert_int_eq((int)floorf(t * 8), 4);
    /* the face coordinate of a tie at an edge: v * rcp(ma) in f32, 0.8745 * rcp(0.8745) is
     * below 1 (row 7 of 8, not the border) */
    ck_assert_uint_eq(ex_tex_cube_face(0.7212944030761719f, -0.87451171875f, -0.87451171875f, &s, &t), 5);
    ck_assert_int_eq((int)floorf(t * 8), 7);
}
END_TEST

/* Linear filtering's weights and combination, against values measured on the H100
 * (tests/golden/pending/probe_linear.cu, docs/textures.md). */
START_TEST(linear_as_measured)
{
    static const struct { uint32_t a, b, w[4]; } W[] = {
        { 128, 1, { 128, 127, 0, 1 } },   /* a tie: the far corner rounds up, the rest follows */
        { 100, 37, { 133, 86, 23, 14 } },
        { 1, 1, { 254, 1, 1, 0 } },
        { 192, 2, { 64, 190, 0, 2 } },
        { 256, 256, { 0, 0, 0, 256 } },
    };
    for (unsigned i = 0; i < sizeof W / sizeof W[0]; i++) {
        uint32_t f[3] = { W[i].a, W[i].b, 0 }, w[8];
        ex_tex_weights(2, f, w);
        for (unsigned q = 0; q < 4; q++)
            ck_assert_uint_eq(w[q], W[i].w[q]);
    }
    /* an exact tie of the weighted sum: rounded away from zero */
    float v1[4] = { 0.10099995136260986f, -0.8159999847412109f, 0.7619999647140503f, 0.6080000400543213f };
    uint32_t w1[4] = { 133, 68, 36, 19 };
    ck_assert_float_eq(ex_tex_combine(v1, w1, 4, 24), -0.011996117420494556f);
    /* a small texel's low bits cut off below the largest texel's 28 bits */
    float v2[4] = { 27129.509765625f, 38.11000061035156f, 26111.640625f, 34901.73046875f };
    uint32_t w2[4] = { 6, 160, 3, 87 };
    ck_assert_float_eq(ex_tex_combine(v2, w2, 4, 24), 12826.796875f);
}
END_TEST

/* Trilinear weights and the combination's special cases, against values measured on the
 * H100 (tests/golden/tex_mag_*, tex_3d; the weight triples from 1,133,262 measured ones,
 * docs/textures.md). */
START_TEST(trilinear_and_specials_as_measured)
{
    static const struct { uint32_t f[3], w[8]; } W[] = {
        { { 1, 1, 128 }, { 127, 1, 0, 0, 127, 1, 0, 0 } },
        { { 3, 1, 128 }, { 126, 2, 0, 0, 126, 2, 0, 0 } },
        { { 1, 3, 128 }, { 126, 1, 1, 0, 126, 1, 1, 0 } },
        { { 200, 37, 1 }, { 48, 170, 8, 29, 0, 1, 0, 0 } },
        { { 77, 190, 64 }, { 35, 15, 99, 43, 12, 5, 33, 14 } },
        { { 128, 128, 200 }, { 14, 14, 14, 14, 50, 50, 50, 50 } },
        { { 255, 255, 255 }, { 0, 0, 0, 1, 0, 1, 1, 253 } },
        { { 128, 1, 0 }, { 128, 127, 0, 1, 0, 0, 0, 0 } },   /* c = 0: the 2D rule */
    };
    for (unsigned i = 0; i < sizeof W / sizeof W[0]; i++) {
        uint32_t w[8];
        ex_tex_weights(3, W[i].f, w);
        for (unsigned q = 0; q < 8; q++)
            ck_assert_msg(w[q] == W[i].w[q], "fractions %u,%u,%u corner %u: %u, measured %u", W[i].f[0], W[i].f[1],
                          W[i].f[2], q, w[q], W[i].w[q]);
    }
    float r;
    uint32_t rb;
    /* an infinity of zero weight still reaches the result */
    float v1[4] = { -0.5868462324142456f, INFINITY, -3.909123102168056e+18f, -1.4704092964002195e+29f };
    uint32_t w1[4] = { 17, 0, 236, 3 };
    ck_assert(isinf(ex_tex_combine(v1, w1, 4, 24)) && ex_tex_combine(v1, w1, 4, 24) > 0);
    /* a NaN gives the NaN 0x7fffffff (f16 textures: 0x7fffe000) */
    float v2[2] = { 1.0000004768371582f, NAN };
    uint32_t w2[2] = { 157, 99 };
    r = ex_tex_combine(v2, w2, 2, 24);
    memcpy(&rb, &r, 4);
    ck_assert_uint_eq(rb, 0x7fffffffu);
    r = ex_tex_combine(v2, w2, 2, 11);
    memcpy(&rb, &r, 4);
    ck_assert_uint_eq(rb, 0x7fffe000u);
    /* f32 subnormal texels are zeros of their sign; every weighted texel negative: -0 */
    float v3[4] = { -2.973555341297262e-42f, -2.973555341297262e-42f, -2.973555341297262e-42f, -2.973555341297262e-42f };
    uint32_t w3[4] = { 28, 50, 63, 115 };
    r = ex_tex_combine(v3, w3, 4, 24);
    memcpy(&rb, &r, 4);
    ck_assert_uint_eq(rb, 0x80000000u);
    /* f16 textures cut the texels to 2^(E - 15) */
    float v4[4] = { -0.93017578125f, 0.5f, 10560.0f, -0.02679443359375f };
    uint32_t w4[4] = { 196, 47, 10, 3 };
    ck_assert_float_eq(ex_tex_combine(v4, w4, 4, 11), 412.25f);
    /* linear mip filtering: each level cut by its own largest texel, one rounding (a
     * single cut over both is an ulp off here) */
    float v5[2] = { 0.0005143371527083218f, -0.7799922823905945f };
    uint32_t w5[2] = { 222, 34 };
    r = ex_tex_combine_levels(v5, w5, 2, 2, 24);
    memcpy(&rb, &r, 4);
    ck_assert_uint_eq(rb, 0xbdd33e93u);
}
END_TEST

Suite *make_tex_suite(void)
{
    Suite *s = suite_create("tex");
    TCase *tc = tcase_create("tex");
    tcase_add_test(tc, handles_checked);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, address_modes);
    tcase_add_test(tc, cube_faces);
    tcase_add_test(tc, linear_as_measured);
    tcase_add_test(tc, trilinear_and_specials_as_measured);
    suite_add_tcase(s, tc);
    return s;
}
