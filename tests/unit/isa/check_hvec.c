/* check_hvec.c: the warp-wide f16 and bf16 forms of isa/sem/hvec.h against the one-lane
 * rounding of fp.h (isa_f16_round_f32, the form the hardware-recorded fuzz vectors check
 * lane by lane): the conversions on every f16 and a spread of f32 patterns, the arithmetic
 * on random operands of every magnitude.  The two are written differently (integer shifts
 * by the exponent there, a folded sticky bit and a float addition for subnormals here), so
 * a slip in either shows. */
#include <check.h>
#include "isa/sem/fp.h"
#include "isa/sem/hvec.h"

static uint32_t ref_cvt_f16(uint32_t x)
{
    return (x & 0x7fffffffu) > 0x7f800000u ? 0x7fffu : isa_f16_round_f32(f32_of(x), 0.0f);
}

START_TEST(cvt_f16_f32_patterns)
{
    uint32_t x[32], r[32];
    /* every 251st pattern (both signs, every exponent, scattered low bits), then every
     * pattern around the f16 range's edges and the rounding points of the subnormals */
    for (uint64_t base = 0; base < (1ull << 32); base += 32 * 251) {
        for (unsigned l = 0; l < 32; l++)
            x[l] = (uint32_t)(base + (uint64_t)l * 251);
        hv_cvt_f16_f32(r, x);
        for (unsigned l = 0; l < 32; l++)
            ck_assert_msg(r[l] == ref_cvt_f16(x[l]), "cvt.rn.f16.f32 %08x: %04x, one lane %04x", x[l], r[l],
                          ref_cvt_f16(x[l]));
    }
    const uint32_t edges[] = { 0x33000000u, 0x387fc000u, 0x38800000u, 0x477fe000u, 0x477ff000u, 0x47800000u };
    for (unsigned k = 0; k < sizeof edges / sizeof *edges; k++)
        for (uint32_t base = edges[k] - 0x4000u; base < edges[k] + 0x4000u; base += 32) {
            for (unsigned l = 0; l < 32; l++)
                x[l] = (base + l) | (l & 1u) << 31;
            hv_cvt_f16_f32(r, x);
            for (unsigned l = 0; l < 32; l++)
                ck_assert_msg(r[l] == ref_cvt_f16(x[l]), "cvt.rn.f16.f32 %08x: %04x, one lane %04x", x[l],
                              r[l], ref_cvt_f16(x[l]));
        }
}
END_TEST

START_TEST(cvt_f32_f16_all)
{
    uint32_t x[32], r[32];
    for (uint32_t base = 0; base < 65536; base += 32) {
        for (unsigned l = 0; l < 32; l++)
            x[l] = base + l;
        hv_cvt_f32_f16(r, x);
        for (unsigned l = 0; l < 32; l++) {
            uint32_t v = x[l];
            uint32_t want = (v & 0x7c00u) != 0x7c00u ? f32_bits(isa_f16_dec_f32(v))
                          : (v & 0x3ffu) ? 0x7fffffffu : (v & 0x8000u) << 16 | 0x7f800000u;
            ck_assert_msg(r[l] == want, "cvt.f32.f16 %04x: %08x, expected %08x", v, r[l], want);
        }
    }
}
END_TEST

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}
/* A finite f16 of any magnitude, subnormals and zeros often. */
static uint32_t finite_f16(void)
{
    uint32_t v = next();
    uint32_t h = (v & 3u) == 0 ? (v >> 8) & 0x83ffu : (v >> 8) & 0xffffu;
    return (h & 0x7c00u) == 0x7c00u ? h & 0xfbffu : h;
}

START_TEST(f16_arithmetic_random)
{
    uint32_t a[32], b[32], c[32], r[32];
    for (int it = 0; it < 40000; it++) {
        int op = it % 3 == 0 ? HV_FMA : it % 3 == 1 ? HV_ADD : HV_MUL;
        for (unsigned l = 0; l < 32; l++) {
            a[l] = finite_f16();
            b[l] = finite_f16();
            c[l] = finite_f16();
        }
        hv_op(r, a, b, c, op, 0);
        for (unsigned l = 0; l < 32; l++) {
            float x = isa_f16_dec_f32(a[l]), y = isa_f16_dec_f32(b[l]), s, e = 0.0f;
            if (op == HV_MUL) {
                s = x * y;
            } else {
                if (op == HV_FMA) {
                    x = x * y;
                    y = isa_f16_dec_f32(c[l]);
                }
                s = x + y;
                float bb = s - x;
                e = (x - (s - bb)) + (y - bb);
            }
            uint32_t want = isa_f16_round_f32(s, e);
            ck_assert_msg(r[l] == want, "op %d of %04x %04x %04x: %04x, one lane %04x", op, a[l], b[l], c[l],
                          r[l], want);
        }
    }
}
END_TEST

Suite *make_hvec_suite(void);
Suite *make_hvec_suite(void)
{
    Suite *s = suite_create("hvec");
    TCase *tc = tcase_create("hvec");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cvt_f16_f32_patterns);
    tcase_add_test(tc, cvt_f32_f16_all);
    tcase_add_test(tc, f16_arithmetic_random);
    suite_add_tcase(s, tc);
    return s;
}
