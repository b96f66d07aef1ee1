/* check_mx.c: sm_100's microscaling conversions (e2m1x2, e2m3x2, e3m2x2, ue8m0x2) and
 * stochastic rounding (.rs) against reference models written here from the PTX
 * manual's definitions.  No sm_100 GPU is available to record these (the H100/H200
 * cannot run them), so the expected values come from models that share nothing with
 * the emulator's code: a format's values are enumerated code by code, and a conversion
 * picks among them by search (nearest, ties to the even code; the power of two below or
 * above; truncation plus a carry from the random bits).  Corner cases the manual states
 * (docs/arithmetic.md): .satfinite clamps to the largest value, a NaN becomes the
 * positive largest value in the formats without NaN, ue8m0's NaN is 0xff. */
#include "tests/unit/exec/exutil.h"

#include <math.h>

#define N 4096u     /* vectors per launch: specials first, then random ones */

/*{=====================================================================
 * Reference models
 *====================================================================*/
typedef struct { unsigned e, m, bias; } mxfmt_t;
static const mxfmt_t E2M1 = { 2, 1, 1 }, E2M3 = { 2, 3, 1 }, E3M2 = { 3, 2, 3 };

/* The value of a code (sign on top of the e + m bits); every code is finite. */
static double mx_value(unsigned c, mxfmt_t f)
{
    unsigned mant = c & ((1u << f.m) - 1), ex = c >> f.m & ((1u << f.e) - 1);
    double v = ex ? ldexp(1.0 + ldexp(mant, -(int)f.m), (int)ex - (int)f.bias)
                  : ldexp(ldexp(mant, -(int)f.m), 1 - (int)f.bias);
    return c >> (f.e + f.m) & 1 ? -v : v;
}

/* cvt.rn.satfinite{.relu}: the nearest code by search, ties to the even code; a NaN
 * gives the positive largest code. */
static unsigned mx_round(float x, mxfmt_t f, bool relu)
{
    unsigned top = (1u << (f.e + f.m)) - 1;
    if (isnan(x))
        return top;
    if (relu && signbit(x))
        x = 0.0f;
    double a = fabs((double)x), best = INFINITY;
    unsigned bc = 0;
    if (a >= mx_value(top, f))      /* .satfinite: at or past the largest value */
        return signbit(x) ? top | (top + 1) : top;
    for (unsigned c = 0; c <= top; c++) {
        double d = fabs(a - mx_value(c, f));
        if (d < best || (d == best && !(c & 1))) {
            best = d;
            bc = c;
        }
    }
    return signbit(x) ? bc | (top + 1) : bc;
}

/* cvt.{rz,rp}{.satfinite}.ue8m0: the largest power 2^(c - 127) at or below |x| (rz) or
 * the smallest at or above it (rp), c in 0..254; none: 0 (rz), 0xff or with .satfinite
 * 0xfe (rp, infinities). */
static unsigned ue8m0_ref(float x, bool rp, bool satf)
{
    if (isnan(x))
        return 0xff;
    double a = fabs((double)x);
    if (isinf(a))
        return satf ? 0xfe : 0xff;
    if (!rp) {
        unsigned c = 0;
        for (unsigned k = 0; k <= 254; k++)
            if (ldexp(1.0, (int)k - 127) <= a)
                c = k;
        return c;
    }
    for (unsigned k = 0; k <= 254; k++)
        if (ldexp(1.0, (int)k - 127) >= a)
            return k;
    return satf ? 0xfe : 0xff;
}

/* f16 and bf16 by their codes: the value of a positive code (the largest finite code
 * included), and the bits of an exactly representable value. */
static double h_value(unsigned c, bool bf)
{
    unsigned m = bf ? 7 : 10, bias = bf ? 127 : 15, mant = c & ((1u << m) - 1), ex = c >> m;
    return ex ? ldexp(1.0 + ldexp(mant, -(int)m), (int)ex - (int)bias) : ldexp(mant, 1 - (int)bias - (int)m);
}
static unsigned h_bits(double v, bool bf)
{
    unsigned lo = 0, hi = bf ? 0x7f80 : 0x7c00, sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isinf(a))
        return sign | hi;
    while (lo < hi) {            /* the code of a by bisection over the ordered codes */
        unsigned mid = (lo + hi) / 2;
        if (h_value(mid, bf) < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    ck_assert_msg(h_value(lo, bf) == a, "%g is not a %s value", a, bf ? "bf16" : "f16");
    return sign | lo;
}

/* cvt.rs{.relu}{.satfinite} to f16 or bf16: truncate |x| to a code t, then take the
 * next code when the discarded fraction's top bits (13 for f16, 16 for bf16) plus the
 * random bits carry out; past the largest finite value an infinity, or with .satfinite
 * the largest finite value; a NaN gives 0x7fff. */
static unsigned rs_ref(float x, unsigned rbits, bool bf, bool relu, bool satf)
{
    if (isnan(x))
        return 0x7fff;
    if (relu && signbit(x))
        x = 0.0f;
    unsigned sign = signbit(x) ? 0x8000 : 0, maxc = bf ? 0x7f7f : 0x7bff, bits = bf ? 16 : 13;
    double a = fabs((double)x), over = bf ? 0x1p128 : 0x1p16;
    unsigned c;
    if (a >= over) {
        c = maxc + 1;
    } else {
        unsigned lo = 0, hi = maxc;
        while (lo < hi) {        /* the largest code at or below a */
            unsigned mid = (lo + hi + 1) / 2;
            if (h_value(mid, bf) <= a)
                lo = mid;
            else
                hi = mid - 1;
        }
        double t = h_value(lo, bf), next = lo == maxc ? over : h_value(lo + 1, bf);
        double top = floor((a - t) / (next - t) * (double)(1u << bits));
        c = top + (double)(rbits & ((1u << bits) - 1)) >= (double)(1u << bits) ? lo + 1 : lo;
    }
    if (c > maxc)
        c = satf ? maxc : maxc + 1;   /* maxc + 1 is the infinity */
    return sign | c;
}
/*}=====================================================================*/

/*{=====================================================================
 * Inputs and the kernel
 *====================================================================*/
static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t rnd32(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 32);
}

/* Specials (zeros, ties of every MX format, their largest values and beyond,
 * subnormals, infinities, NaNs), then random values: any bits, or exponents near the
 * MX formats' range. */
static const float specials[] = {
    0.0f, -0.0f, 0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f, 6.0f, 7.0f, -2.5f, -5.0f, 7.5f, 7.75f,
    28.0f, 30.0f, 32.0f, 0.0625f, 0.03125f, 0.09375f, 0.1875f, -0.1875f, 1e-40f, -1e-40f, 1e30f,
    0x1p127f, 0x1.8p127f, 0x1p-127f, 0x1p-126f, 0x1.000002p-127f, 65504.0f, 65519.0f, 65520.0f,
    3e38f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 0.5f, 0.375f, 0.4375f, 13.0f, 14.0f,
};
static float input(unsigned i)
{
    if (i < sizeof specials / sizeof *specials)
        return specials[i];
    uint32_t r = rnd32(), u;
    if (r & 1) {
        u = rnd32();
    } else {
        int ex = (int)(r >> 1) % 24 - 12;
        u = (rnd32() & 0x807fffffu) | (uint32_t)(ex + 127) << 23;
        if (r & 2)
            u &= 0xfff80000u;    /* few mantissa bits: exact ties */
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Buffer of 4N words: a, b, rbits, out.  The kernel's thread i runs body on a = %f1,
 * b = %f2 (also as bits %r1, %r2), rbits %r3, and stores with store (its result). */
static uint32_t *run_cvt(const char *body, const char *store, const uint32_t *a, const uint32_t *b,
                         const uint32_t *rb)
{
    static char text[4096];
    const char *reg = strchr(store, ' ') + 1;
    snprintf(text, sizeof text,
             ".version 8.8\n.target sm_100a\n.address_size 64\n"
             ".visible .entry k(.param .u64 buf)\n{\n"
             ".reg .b32 %%r<12>; .reg .b64 %%rd<6>; .reg .f32 %%f<4>; .reg .b16 %%h<4>; .reg .b8 %%b<4>;\n"
             "ld.param.u64 %%rd1, [buf]; mov.u32 %%r4, %%ctaid.x; mov.u32 %%r5, %%ntid.x; mov.u32 %%r6, %%tid.x;\n"
             "mad.lo.u32 %%r4, %%r4, %%r5, %%r6; mul.wide.u32 %%rd2, %%r4, 4; add.s64 %%rd2, %%rd1, %%rd2;\n"
             "ld.global.b32 %%r1, [%%rd2]; ld.global.b32 %%r2, [%%rd2+%u]; ld.global.b32 %%r3, [%%rd2+%u];\n"
             "mov.b32 %%f1, %%r1; mov.b32 %%f2, %%r2;\n%s\n%.*s [%%rd2+%u], %s;\nret;\n}\n",
             N * 4, N * 8, body, (int)(reg - 1 - store), store, N * 12, reg);
    uint32_t *buf = aligned_alloc(256, N * 16);
    memcpy(buf, a, N * 4);
    memcpy(buf + N, b, N * 4);
    memcpy(buf + 2 * N, rb, N * 4);
    memset(buf + 3 * N, 0, N * 4);
    char *diag = NULL;
    isa_status_t st = exu_run(text, N / 128, 128, 0, buf, N * 16, &diag);
    ck_assert_msg(st == ISA_ST_OK, "%s\n%s", diag, text);
    free(diag);
    return buf;
}

static uint32_t va[N], vb[N], vr[N];
static void make_inputs(void)
{
    for (unsigned i = 0; i < N; i++) {
        float x = input(i), y = input((i * 7 + 3) % N);
        memcpy(&va[i], &x, 4);
        memcpy(&vb[i], &y, 4);
        vr[i] = rnd32();
    }
}
static float fl(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/*}=====================================================================*/

/* cvt.rn.satfinite{.relu}.{e2m1x2,e2m3x2,e3m2x2}.f32 d, a, b: a in the upper element. */
static void check_to_mx(const char *fmt, mxfmt_t f, bool relu)
{
    make_inputs();
    bool four = f.e + f.m == 3;
    char body[128];
    snprintf(body, sizeof body, "cvt.rn.satfinite%s.%s.f32 %s, %%f1, %%f2;", relu ? ".relu" : "", fmt,
             four ? "%b1" : "%h1");
    uint32_t *out = run_cvt(body, four ? "st.global.b8 %b1" : "st.global.b16 %h1", va, vb, vr);
    unsigned w = four ? 4 : 8;
    for (unsigned i = 0; i < N; i++) {
        unsigned want = mx_round(fl(va[i]), f, relu) << w | mx_round(fl(vb[i]), f, relu);
        ck_assert_msg(out[3 * N + i] == want, "%s relu=%d: a=%08x b=%08x: got %x, want %x", fmt, relu, va[i],
                      vb[i], out[3 * N + i], want);
    }
    free(out);
}
START_TEST(f32_to_e2m1x2) { check_to_mx("e2m1x2", E2M1, _i); }
END_TEST
START_TEST(f32_to_e2m3x2) { check_to_mx("e2m3x2", E2M3, _i); }
END_TEST
START_TEST(f32_to_e3m2x2) { check_to_mx("e3m2x2", E3M2, _i); }
END_TEST

/* cvt.rn{.relu}.f16x2.{e2m1x2,e2m3x2,e3m2x2} d, a: every code in both elements. */
static void check_from_mx(const char *fmt, mxfmt_t f, bool relu)
{
    bool four = f.e + f.m == 3;
    unsigned ncodes = 1u << (f.e + f.m + 1), w = four ? 4 : 8;
    for (unsigned i = 0; i < N; i++) {
        unsigned hi = i % ncodes, lo = (i / ncodes + i) % ncodes;
        va[i] = hi << w | lo;
    }
    char body[128];
    snprintf(body, sizeof body, "%s cvt.rn%s.f16x2.%s %%r7, %s;",
             four ? "cvt.u8.u32 %b1, %r1;" : "cvt.u16.u32 %h1, %r1;", relu ? ".relu" : "", fmt,
             four ? "%b1" : "%h1");
    uint32_t *out = run_cvt(body, "st.global.b32 %r7", va, va, va);
    for (unsigned i = 0; i < N; i++) {
        double h = mx_value(va[i] >> w, f), l = mx_value(va[i] & ((1u << w) - 1), f);
        if (relu) {
            h = signbit(h) ? 0.0 : h;
            l = signbit(l) ? 0.0 : l;
        }
        unsigned want = h_bits(h, false) << 16 | h_bits(l, false);
        ck_assert_msg(out[3 * N + i] == want, "%s relu=%d: codes %04x: got %08x, want %08x", fmt, relu, va[i],
                      out[3 * N + i], want);
    }
    free(out);
}
START_TEST(e2m1x2_to_f16x2) { check_from_mx("e2m1x2", E2M1, _i); }
END_TEST
START_TEST(e2m3x2_to_f16x2) { check_from_mx("e2m3x2", E2M3, _i); }
END_TEST
START_TEST(e3m2x2_to_f16x2) { check_from_mx("e3m2x2", E3M2, _i); }
END_TEST

/* cvt.rn.satfinite.e2m1x2.f16x2 d, a: each f16 element rounded (f16 sources). */
START_TEST(f16x2_to_e2m1x2)
{
    static const uint16_t sp[] = { 0x0000, 0x8000, 0x3400, 0x3a00, 0x3d00, 0x3f00, 0x4100, 0x4300, 0x4500,
                                   0x4600, 0x4700, 0x4780, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x0001,
                                   0x3800, 0xb800, 0xc100, 0x2c00, 0x3c00 };
    const unsigned nsp = sizeof sp / sizeof *sp;
    make_inputs();
    for (unsigned i = 0; i < N; i++)
        va[i] = i < nsp * nsp ? (uint32_t)sp[i / nsp] << 16 | sp[i % nsp] : rnd32();
    uint32_t *out = run_cvt("cvt.rn.satfinite.e2m1x2.f16x2 %b1, %r1;", "st.global.b8 %b1", va, vb, vr);
    for (unsigned i = 0; i < N; i++) {
        unsigned hb = va[i] >> 16, lb = va[i] & 0xffff;
        double h = (hb & 0x7fff) > 0x7c00 ? NAN : (hb & 0x7fff) == 0x7c00 ? INFINITY : h_value(hb & 0x7fff, false);
        double l = (lb & 0x7fff) > 0x7c00 ? NAN : (lb & 0x7fff) == 0x7c00 ? INFINITY : h_value(lb & 0x7fff, false);
        unsigned want = mx_round((float)(hb & 0x8000 ? -h : h), E2M1, false) << 4 |
                        mx_round((float)(lb & 0x8000 ? -l : l), E2M1, false);
        ck_assert_msg(out[3 * N + i] == want, "a=%08x: got %x, want %x", va[i], out[3 * N + i], want);
    }
    free(out);
}
END_TEST

/* cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b and .bf16x2 d, a (bit 2 of _i): a's
 * element (the upper bf16) in the upper byte. */
START_TEST(to_ue8m0x2)
{
    bool rp = _i & 1, satf = _i & 2, bf = _i & 4;
    make_inputs();
    char body[128];
    snprintf(body, sizeof body, "cvt.%s%s.ue8m0x2.%s %%h1, %s;", rp ? "rp" : "rz", satf ? ".satfinite" : "",
             bf ? "bf16x2" : "f32", bf ? "%r1" : "%f1, %f2");
    uint32_t *out = run_cvt(body, "st.global.b16 %h1", va, vb, vr);
    for (unsigned i = 0; i < N; i++) {
        float h = bf ? fl(va[i] & 0xffff0000u) : fl(va[i]), l = bf ? fl(va[i] << 16) : fl(vb[i]);
        unsigned want = ue8m0_ref(h, rp, satf) << 8 | ue8m0_ref(l, rp, satf);
        ck_assert_msg(out[3 * N + i] == want, "%s: a=%08x b=%08x: got %x, want %x", body, va[i], vb[i],
                      out[3 * N + i], want);
    }
    free(out);
}
END_TEST

/* cvt.rn.bf16x2.ue8m0x2 d, a: 2^(c - 127) exactly (0xff: the bf16 NaN 0x7fff). */
START_TEST(ue8m0x2_to_bf16x2)
{
    for (unsigned i = 0; i < N; i++)
        va[i] = (i & 0xff) << 8 | ((i * 37 + 11) & 0xff);
    uint32_t *out = run_cvt("cvt.u16.u32 %h1, %r1; cvt.rn.bf16x2.ue8m0x2 %r7, %h1;", "st.global.b32 %r7", va, va, va);
    for (unsigned i = 0; i < N; i++) {
        unsigned h = va[i] >> 8, l = va[i] & 0xff;
        unsigned want = (h == 0xff ? 0x7fff : h_bits(ldexp(1.0, (int)h - 127), true)) << 16 |
                        (l == 0xff ? 0x7fff : h_bits(ldexp(1.0, (int)l - 127), true));
        ck_assert_msg(out[3 * N + i] == want, "codes %04x: got %08x, want %08x", va[i], out[3 * N + i], want);
    }
    free(out);
}
END_TEST

/* cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits. */
START_TEST(f32_to_half_rs)
{
    bool bf = _i & 1, relu = _i & 2, satf = _i & 4;
    make_inputs();
    char body[128];
    snprintf(body, sizeof body, "cvt.rs%s%s.%s.f32 %%r7, %%f1, %%f2, %%r3;", relu ? ".relu" : "",
             satf ? ".satfinite" : "", bf ? "bf16x2" : "f16x2");
    uint32_t *out = run_cvt(body, "st.global.b32 %r7", va, vb, vr);
    for (unsigned i = 0; i < N; i++) {
        unsigned want = rs_ref(fl(va[i]), vr[i] >> 16, bf, relu, satf) << 16 |
                        rs_ref(fl(vb[i]), vr[i] & 0xffff, bf, relu, satf);
        ck_assert_msg(out[3 * N + i] == want, "%s: a=%08x b=%08x rbits=%08x: got %08x, want %08x", body, va[i],
                      vb[i], vr[i], out[3 * N + i], want);
    }
    free(out);
}
END_TEST

Suite *make_mx_suite(void)
{
    Suite *s = suite_create("mx");
    TCase *tc = tcase_create("conversions");
    tcase_add_loop_test(tc, f32_to_e2m1x2, 0, 2);
    tcase_add_loop_test(tc, f32_to_e2m3x2, 0, 2);
    tcase_add_loop_test(tc, f32_to_e3m2x2, 0, 2);
    tcase_add_loop_test(tc, e2m1x2_to_f16x2, 0, 2);
    tcase_add_loop_test(tc, e2m3x2_to_f16x2, 0, 2);
    tcase_add_loop_test(tc, e3m2x2_to_f16x2, 0, 2);
    tcase_add_test(tc, f16x2_to_e2m1x2);
    tcase_add_loop_test(tc, to_ue8m0x2, 0, 8);
    tcase_add_test(tc, ue8m0x2_to_bf16x2);
    tcase_add_loop_test(tc, f32_to_half_rs, 0, 8);
    suite_add_tcase(s, tc);
    return s;
}
