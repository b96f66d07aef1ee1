/* check_collective.c: the warp collectives of exec/warp/collective.c where no GPU here can
 * record them or where the GPU hangs: redux.sync's f32 forms (sm_100a, from the PTX
 * manual), elect.sync outside its member mask (the H100 stops the kernel), and the
 * deadlock reports of collectives whose members never arrive.  The recorded behaviour is
 * in the goldens tests/golden/warp_*. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/exec/exutil.h"

#define REGS ".reg .b32 %r<24>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
#define OUT_TID "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"

static uint32_t *run(const char *text, unsigned block, unsigned n, isa_status_t *st, char **diag)
{
    size_t bytes = ((n * 4 + 255) / 256) * 256;
    uint32_t *buf = aligned_alloc(256, bytes);
    memset(buf, 0, bytes);
    *st = exu_run(text, 1, block, 0, buf, n * 4, diag);
    return buf;
}

/* redux.sync.{min,max}{.abs}{.NaN}.f32 over lane values -0, +0, NaN, -5, 3 and 1 for the
 * other lanes: NaN inputs are ignored (all NaN: the canonical NaN 0x7fffffff) unless .NaN
 * is given, .abs compares absolute values, and +0 is greater than -0. */
START_TEST(redux_f32)
{
    const char *k = ".version 8.6\n.target sm_100a\n.address_size 64\n"
        ".global .align 4 .u32 tab[6] = {0x80000000, 0, 0x7fc00001, 0xc0a00000, 0x40400000, 0x3f800000};\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "min.u32 %r2, %r1, 5; shl.b32 %r2, %r2, 2; mov.u32 %r3, tab; cvt.u64.u32 %rd4, %r3;"
        " mov.u64 %rd5, tab; cvt.u64.u32 %rd6, %r2; add.s64 %rd5, %rd5, %rd6; ld.global.u32 %r4, [%rd5];\n"
        "mul.wide.u32 %rd2, %r1, 40; add.s64 %rd3, %rd1, %rd2;\n"
        "redux.sync.min.f32 %r5, %r4, -1; st.global.u32 [%rd3], %r5;\n"
        "redux.sync.max.f32 %r5, %r4, -1; st.global.u32 [%rd3+4], %r5;\n"
        "redux.sync.min.abs.f32 %r5, %r4, -1; st.global.u32 [%rd3+8], %r5;\n"
        "redux.sync.max.abs.f32 %r5, %r4, -1; st.global.u32 [%rd3+12], %r5;\n"
        "redux.sync.min.NaN.f32 %r5, %r4, -1; st.global.u32 [%rd3+16], %r5;\n"
        "redux.sync.max.abs.NaN.f32 %r5, %r4, -1; st.global.u32 [%rd3+20], %r5;\n"
        "setp.lt.u32 %p1, %r1, 2; @!%p1 bra B;\n"
        "redux.sync.max.f32 %r5, %r4, 3; st.global.u32 [%rd3+24], %r5;\n"
        "redux.sync.min.f32 %r5, %r4, 3; st.global.u32 [%rd3+28], %r5;\n"
        "B: setp.eq.u32 %p2, %r1, 2; @!%p2 bra C;\n"
        "redux.sync.min.f32 %r5, %r4, 4; st.global.u32 [%rd3+32], %r5;\n"
        "redux.sync.max.abs.f32 %r5, %r4, 4; st.global.u32 [%rd3+36], %r5;\n"
        "C: ret;\n}\n";
    isa_status_t st;
    char *diag = NULL;
    uint32_t *out = run(k, 32, 320, &st, &diag);
    ck_assert_msg(st == ISA_ST_OK, "%s", diag ? diag : "");
    static const uint32_t want[6] = { 0xc0a00000, 0x40400000, 0, 0x40a00000, 0x7fffffff, 0x7fffffff };
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 6; i++)
            ck_assert_uint_eq(out[l * 10 + i], want[i]);
    for (unsigned l = 0; l < 2; l++) {
        ck_assert_uint_eq(out[l * 10 + 6], 0);            /* +0 > -0 */
        ck_assert_uint_eq(out[l * 10 + 7], 0x80000000u);
    }
    ck_assert_uint_eq(out[2 * 10 + 8], 0x7fffffffu);     /* every input NaN */
    ck_assert_uint_eq(out[2 * 10 + 9], 0x7fffffffu);
    free(diag);
    free(out);
}
END_TEST

/* elect.sync executed by a lane outside its member mask: the H100 stops the kernel with
 * an illegal instruction; the emulator reports it at the instruction. */
START_TEST(elect_outside_mask)
{
    const char *k = ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "elect.sync %r2|%p1, 0xfffffffe;\nst.global.u32 [%rd3], %r2;\nret;\n}\n";
    isa_status_t st;
    char *diag = NULL;
    uint32_t *out = run(k, 32, 32, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    ck_assert_msg(strstr(diag, "thread (0,0,0): illegal instruction: elect.sync executed by a lane outside its "
                               "member mask") && strstr(diag, "at t.ptx:8:1: elect.sync"), "%s", diag);
    free(diag);
    free(out);
}
END_TEST

/* A full-mask shuffle that lane 3 never reaches (it waits at a CTA barrier that the other
 * lanes never reach; the H100 hangs): a deadlock, reported with the collective, its mask, and where each
 * group of lanes waits. */
START_TEST(deadlock_report)
{
    const char *k = ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.eq.u32 %p1, %r1, 3; @%p1 bra X;\n"
        "shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\nst.global.u32 [%rd3], %r2;\nret;\n"
        "X: bar.sync 0;\nret;\n}\n";
    isa_status_t st;
    char *diag = NULL;
    uint32_t *out = run(k, 32, 32, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    static const char *const want[] = {
        "deadlock: shfl.sync.idx.b32 waits for lanes of mask 0xffffffff that never arrive (waiting: 0xffffffff)",
        "warp 0 lanes 0xfffffff7: waits at shfl.sync.idx.b32 for lanes 0xffffffff, at t.ptx:9:1: shfl.sync.idx.b32",
        "warp 0 lanes 0x00000008: waits at barrier 0: 0 of 1 warps arrived, at t.ptx:12:4: bar.sync 0",
    };
    for (unsigned i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(diag, want[i]) != NULL, "%s\nwanted: %s", diag, want[i]);
    free(diag);
    free(out);
}
END_TEST

/* Collectives of different kinds (or masks) do not meet: lanes 0-15 vote, lanes 16-31
 * shuffle, both with the full mask; and a loop that lanes leave early while the others
 * keep shuffling with the full mask waits for lanes that wait at the end of the kernel
 * (bar.warp.sync), in a function called by part of the warp. */
START_TEST(deadlock_kinds)
{
    const char *k = ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.lt.u32 %p1, %r1, 16; @%p1 bra X;\n"
        "shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\nret;\n"
        "X: vote.sync.ballot.b32 %r2, %p1, -1;\nret;\n}\n";
    isa_status_t st;
    char *diag = NULL;
    uint32_t *out = run(k, 32, 32, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    ck_assert_msg(strstr(diag, "warp 0 lanes 0x0000ffff: waits at vote.sync.ballot.b32 for lanes 0xffffffff") &&
                  strstr(diag, "warp 0 lanes 0xffff0000: waits at shfl.sync.bfly.b32 for lanes 0xffffffff"),
                  "%s", diag);
    free(diag);
    free(out);
    const char *k2 = ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".func f(.param .b32 n)\n{\n.reg .b32 %r<4>; .reg .pred %p<2>;\nld.param.u32 %r1, [n];\n"
        "L: shfl.sync.down.b32 %r2, %r1, 1, 31, -1; add.u32 %r1, %r1, -1; setp.ne.u32 %p1, %r1, 0;"
        " @%p1 bra L;\nret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "and.b32 %r2, %r1, 3; add.u32 %r2, %r2, 1; setp.lt.u32 %p1, %r1, 8; @!%p1 bra E;\n"
        "{ .param .b32 a; st.param.b32 [a], %r2; call f, (a); }\n"
        "E: bar.warp.sync -1;\nret;\n}\n";
    out = run(k2, 32, 32, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    ck_assert_msg(strstr(diag, "deadlock: ") && strstr(diag, "waits at shfl.sync.down.b32 for lanes 0xffffffff, at t.ptx:8:4") &&
                  strstr(diag, "lanes 0xffffff00: waits at bar.warp.sync for lanes 0xffffffff"), "%s", diag);
    free(diag);
    free(out);
}
END_TEST

/* shfl.sync with constant b and c and the full constant mask takes the pre-decoded fast
 * patterns; with the mask in a register, the general way: both agree on every mode, every
 * b and a set of c values (widths as nvcc encodes them and odd clamps and segments). */
START_TEST(shfl_fast_patterns)
{
    static const unsigned cs[] = { 0, 31, 0x101f, 0x1000, 0x1c1f, 0x1f1f, 7, 0x181f, 0x0f10, 0x1e00 };
    static const char *const modes[] = { "up", "down", "bfly", "idx" };
    enum { NC = sizeof cs / sizeof *cs, NI = 4 * 32 * NC };
    size_t cap = (size_t)NI * 400 + 4096, len = 0;
    char *k = malloc(cap);
    len += (size_t)snprintf(k + len, cap - len, "%s", ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry k(.param .u64 out)\n{\n" REGS);
    len += (size_t)snprintf(k + len, cap - len,
                            "ld.param.u64 %%rd1, [out]; mov.u32 %%r1, %%tid.x; mul.wide.u32 %%rd2, %%r1, %u;"
                            " add.s64 %%rd3, %%rd1, %%rd2; mad.lo.u32 %%r2, %%r1, 0x01010101, 0x100;"
                            " mov.u32 %%r9, -1;\n", NI * 16);
    unsigned off = 0;
    for (unsigned m = 0; m < 4; m++)
        for (unsigned b = 0; b < 32; b++)
            for (unsigned c = 0; c < NC; c++, off += 16)
                len += (size_t)snprintf(k + len, cap - len,
                                        "shfl.sync.%s.b32 %%r3|%%p1, %%r2, %u, %u, -1; selp.u32 %%r4, 1, 0, %%p1;"
                                        " shfl.sync.%s.b32 %%r5|%%p2, %%r2, %u, %u, %%r9; selp.u32 %%r6, 1, 0, %%p2;"
                                        " st.global.v4.u32 [%%rd3+%u], {%%r3, %%r4, %%r5, %%r6};\n",
                                        modes[m], b, cs[c], modes[m], b, cs[c], off);
    snprintf(k + len, cap - len, "ret;\n}\n");
    isa_status_t st;
    char *diag = NULL;
    uint32_t *out = run(k, 32, 32 * NI * 4, &st, &diag);
    ck_assert_msg(st == ISA_ST_OK, "%s", diag ? diag : "");
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < NI; i++) {
            const uint32_t *r = &out[(l * NI + i) * 4];
            ck_assert_msg(r[0] == r[2] && r[1] == r[3], "lane %u, shuffle %u: %08x|%u against %08x|%u", l, i,
                          r[0], r[1], r[2], r[3]);
        }
    free(k);
    free(diag);
    free(out);
}
END_TEST

Suite *make_collective_suite(void)
{
    Suite *s = suite_create("collective");
    TCase *tc = tcase_create("collective");
    tcase_add_test(tc, redux_f32);
    tcase_add_test(tc, shfl_fast_patterns);
    tcase_add_test(tc, elect_outside_mask);
    tcase_add_test(tc, deadlock_report);
    tcase_add_test(tc, deadlock_kinds);
    suite_add_tcase(s, tc);
    return s;
}
