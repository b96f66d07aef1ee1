/* check_halfvec.c: the warp-wide handlers of f16 and bf16 add, sub, mul and fma (half.c,
 * hvec.h) against the general ones (isa_sem_general_only), through whole launches, with
 * every lane active or a third of them inactive.  Operands are drawn about the edges of the
 * warp-wide forms' ranges (see operand()). */
#include "tests/unit/exec/exutil.h"
#include "isa/sem/sem.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"
enum { WARPS = 192, THREADS = 32 * WARPS };

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* A half for operand i (0, 1 factors, 2 addend) of a bf16 or f16 operation: in one warp in
 * four, now and then an infinity, a NaN or a subnormal (each sends a bf16 warp, or any warp,
 * to the general handler when an active lane holds it); zeros; and bf16 in one of three
 * regions: factors of any exponent and near the warp-wide forms' bounds, products about the
 * subnormals (double rounding shows there), or products beyond the largest finite f32 with
 * addends that bring the sum back (factors' exponents up to top, 190..193 by warp, so that
 * some warps hold only what a check one exponent too wide would take). */
static uint32_t operand(int bf, int i, int region, uint32_t top, int special)
{
    uint32_t v = next(), sign = (v & 1u) << 15, pick = v >> 1 & 255u, low = v >> 9;
    if (special && pick < 4)
        return sign | (bf ? 0x7f80u : 0x7c00u) | (pick != 0);      /* NaN or infinity */
    if (special && pick < 12)
        return sign | (low & (bf ? 0x7fu : 0x3ffu));               /* subnormal */
    if (pick < 24)
        return sign;                                                /* zero */
    if (!bf)
        return sign | (low % 31u) << 10 | (low >> 5 & 0x3ffu);
    static const uint32_t edge[] = { 60, 61, 62, 63, 64, 65, 66, 188, 189, 190, 191, 192, 193 };
    uint32_t e;
    if (region == 1)
        e = i == 2 ? 1u + low % 80u : 40u + low % 31u;
    else if (region == 2) {
        if (i != 2)
            return sign | (188u + low % (top - 187u)) << 7 | (low >> 8 & 3u);
        e = 252u + low % 3u;
    } else
        e = pick < 96 && i != 2 ? edge[low % 13u] : 1u + low % 254u;
    return sign | e << 7 | (low >> 8 & 0x7fu);
}

/* Run `op.rn.type` on buf's operands (per thread: a, b, c, active; the result replaces
 * active) with the general or the warp-wide handlers. */
static void launch(const char *op, const char *type, uint32_t *buf, size_t nbytes, bool general)
{
    int pair = strstr(type, "x2") != NULL, fma = !strcmp(op, "fma");
    char text[2048], inst[256];
    const char *ops = fma ? "%s, %s, %s, %s" : "%s, %s, %s";
    char args[128];
    if (pair)
        snprintf(args, sizeof args, ops, "%r20", "%r5", "%r6", "%r7");
    else
        snprintf(args, sizeof args, ops, "%h7", "%h1", "%h3", "%h5");
    snprintf(inst, sizeof inst, "@%%p1 %s.rn.%s %s;", op, type, args);
    snprintf(text, sizeof text,
             HDR ".visible .entry k(.param .u64 buf)\n{\n"
                 ".reg .b32 %%r<24>; .reg .b64 %%rd<8>; .reg .b16 %%h<10>; .reg .pred %%p<3>;\n"
                 "ld.param.u64 %%rd1, [buf];\n"
                 "mov.u32 %%r1, %%tid.x; mov.u32 %%r2, %%ctaid.x; mov.u32 %%r3, %%ntid.x;\n"
                 "mad.lo.u32 %%r4, %%r2, %%r3, %%r1;\n"
                 "mul.wide.u32 %%rd2, %%r4, 16; add.s64 %%rd3, %%rd1, %%rd2;\n"
                 "ld.global.v4.u32 {%%r5, %%r6, %%r7, %%r8}, [%%rd3];\n"
                 "setp.ne.u32 %%p1, %%r8, 0;\n"
                 "mov.b32 {%%h1, %%h2}, %%r5; mov.b32 {%%h3, %%h4}, %%r6; mov.b32 {%%h5, %%h6}, %%r7;\n"
                 "mov.u32 %%r20, 0xdeadbeef; mov.b16 %%h7, 0xbeef;\n"
                 "%s\n%s\n"
                 "st.global.u32 [%%rd3+12], %%r20;\n"
                 "ret;\n}\n",
             inst, pair ? "" : "cvt.u32.u16 %r20, %h7;");
    isa_sem_general_only = general;
    char *diag = NULL;
    isa_status_t st = exu_run(text, WARPS / 4, 128, 0, buf, nbytes, &diag);
    isa_sem_general_only = false;
    ck_assert_msg(st == ISA_ST_OK, "%s.%s: %s", op, type, diag ? diag : "");
    free(diag);
}

static void run_variant(const char *op, const char *type, int partial, int region)
{
    int bf = type[0] == 'b', pair = strstr(type, "x2") != NULL;
    static uint32_t in[THREADS * 4], gen[THREADS * 4], fast[THREADS * 4];
    for (unsigned t = 0; t < THREADS; t++) {
        uint32_t top = 190u + t / 32u % 4u;
        int special = t / 128u % 4u == 0;
        for (int i = 0; i < 3; i++)
            in[4 * t + i] = operand(bf, i, region, top, special) |
                            (pair ? operand(bf, i, region, top, special) << 16 : 0);
        in[4 * t + 3] = !partial || next() % 3 != 0;
    }
    memcpy(gen, in, sizeof in);
    memcpy(fast, in, sizeof in);
    launch(op, type, gen, sizeof gen, true);
    launch(op, type, fast, sizeof fast, false);
    for (unsigned t = 0; t < THREADS; t++)
        ck_assert_msg(gen[4 * t + 3] == fast[4 * t + 3],
                      "%s.rn.%s (%s mask) of %08x %08x %08x: general %08x, warp-wide %08x", op, type,
                      partial ? "partial" : "full", in[4 * t], in[4 * t + 1], in[4 * t + 2], gen[4 * t + 3],
                      fast[4 * t + 3]);
}

START_TEST(warpwide_equals_general)
{
    static const char *const ops[] = { "add", "sub", "mul", "fma" };
    static const char *const types[] = { "f16", "bf16", "f16x2", "bf16x2" };
    for (int partial = 0; partial < 2; partial++)
        for (unsigned o = 0; o < 4; o++)
            for (unsigned t = 0; t < 4; t++)
                for (int region = 0; region < 3; region++)
                    run_variant(ops[o], types[t], partial, region);
}
END_TEST

Suite *make_halfvec_suite(void);
Suite *make_halfvec_suite(void)
{
    Suite *s = suite_create("halfvec");
    TCase *tc = tcase_create("halfvec");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, warpwide_equals_general);
    suite_add_tcase(s, tc);
    return s;
}
