/* check_interp.c: the interpreter through its API: a launch over many CTAs and warps,
 * divergence and reconvergence, barriers, calls, faults, and the unsupported check.
 * Expected values here are exact integer facts (no hardware-specific rounding); the
 * hardware-recorded goldens in tests/golden/ cover the rest. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "frontend/fe.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static isa_module_t *load(const char *text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *d = open_memstream(&buf, &len);
    fe_options_t o = { 0 };
    o.diag = d;
    isa_module_t *m = NULL;
    fe_load_text("t.ptx", text, strlen(text), &o, &m);
    fclose(d);
    ck_assert_msg(m != NULL, "%s", buf);
    free(buf);
    return m;
}

/* Run entry 0 of text over grid x block with one u32 buffer of n elements (zeroed),
 * returning the buffer (malloc'd) and the launch status. */
static uint32_t *run_u32(const char *text, unsigned grid, unsigned block, unsigned n, isa_status_t *st,
                         char **diag)
{
    isa_module_t *m = load(text);
    ex_program_t *p = ex_program_new(m);
    uint32_t *buf = aligned_alloc(256, ((n * 4 + 255) / 256) * 256);
    memset(buf, 0, n * 4);
    ex_program_add_global(p, buf, n * 4);
    uint64_t param = (uint64_t)(uintptr_t)buf;
    ex_launch_t l = { { grid, 1, 1 }, { block, 1, 1 }, 0, 2 };
    size_t dlen = 0;
    char *dbuf = NULL;
    FILE *d = open_memstream(&dbuf, &dlen);
    *st = ex_launch(p, 0, &l, &param, sizeof param, d, NULL);
    fclose(d);
    if (diag)
        *diag = dbuf;
    else
        free(dbuf);
    ex_program_free(p);
    isa_module_free(m);
    return buf;
}

/* out[gid] = gid * 3 + 1 over 37 CTAs of 96 threads (the last warp of each CTA full). */
START_TEST(grid_of_ctas)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
        "mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x;\n"
        "mad.lo.s32 %r4, %r1, %r2, %r3; mad.lo.s32 %r5, %r4, 3, 1;\n"
        "mul.wide.u32 %rd3, %r4, 4; add.s64 %rd3, %rd2, %rd3; st.global.u32 [%rd3], %r5;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 37, 96, 37 * 96, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 37 * 96; i++)
        ck_assert_uint_eq(out[i], i * 3 + 1);
    free(out);
}
END_TEST

/* A divergent loop: lane i iterates i times; all lanes reconverge for the store. */
START_TEST(divergent_loop)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mov.u32 %r2, 0; mov.u32 %r3, 0;\n"
        "LOOP: setp.ge.u32 %p1, %r3, %r1; @%p1 bra DONE; add.u32 %r2, %r2, %r3; add.u32 %r3, %r3, 1;"
        " bra.uni LOOP;\nDONE: mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r2;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 64, 64, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], i * (i - (i > 0)) / 2 + 0 * i);
    free(out);
}
END_TEST

/* Shared memory and bar.sync: each thread writes its tid, then reads its neighbour's. */
START_TEST(shared_and_barrier)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".shared .align 4 .b8 sm[512];\n.reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mov.u32 %r2, sm; shl.b32 %r3, %r1, 2;"
        " add.s32 %r4, %r2, %r3; mul.lo.s32 %r7, %r1, 10; st.shared.u32 [%r4], %r7; bar.sync 0;\n"
        "add.s32 %r5, %r1, 1; and.b32 %r5, %r5, 127; shl.b32 %r5, %r5, 2; add.s32 %r5, %r2, %r5;"
        " ld.shared.u32 %r6, [%r5];\n"
        "mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r6;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 3, 128, 128, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 128; i++)
        ck_assert_uint_eq(out[i], ((i + 1) & 127) * 10);
    free(out);
}
END_TEST

/* A recursive call through .param: out[tid] = sum(0..tid). */
START_TEST(recursive_call)
{
    const char *k = HDR
        ".func (.param .b32 r) sum(.param .b32 n)\n{\n.reg .b32 %r<5>; .reg .pred %p1;\n"
        "ld.param.b32 %r1, [n]; setp.eq.s32 %p1, %r1, 0; @%p1 bra ZERO;\n"
        "add.s32 %r2, %r1, -1;\n{ .param .b32 a; st.param.b32 [a], %r2; .param .b32 b;"
        " call.uni (b), sum, (a); ld.param.b32 %r3, [b]; }\nadd.s32 %r4, %r3, %r1; st.param.b32 [r], %r4; ret;\n"
        "ZERO: st.param.b32 [r], 0; ret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;\n"
        "{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b; call.uni (b), sum, (a); ld.param.b32 %r2, [b]; }\n"
        "mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r2;\nret;\n}\n";
    isa_module_t *m = load(k);
    ex_program_t *p = ex_program_new(m);
    ck_assert_uint_eq(ex_program_check_entry(p, 1, NULL), 0);
    uint32_t *buf = aligned_alloc(256, 256);
    memset(buf, 0, 256);
    ex_program_add_global(p, buf, 256);
    uint64_t param = (uint64_t)(uintptr_t)buf;
    ex_launch_t l = { { 1, 1, 1 }, { 40, 1, 1 }, 0, 1 };
    ck_assert_int_eq(ex_launch(p, 1, &l, &param, 8, stderr, NULL), ISA_ST_OK);
    for (unsigned i = 0; i < 40; i++)
        ck_assert_uint_eq(buf[i], i * (i + 1) / 2);
    free(buf);
    ex_program_free(p);
    isa_module_free(m);
}
END_TEST

/* An access past the buffer stops the kernel with a located report. */
START_TEST(out_of_bounds_fault)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4;"
        " add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\nret;\n}\n";
    isa_status_t st;
    char *diag;
    uint32_t *out = run_u32(k, 1, 64, 16, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    ck_assert_msg(strstr(diag, "kernel k: CTA (0,0,0) thread (16,0,0): global address outside every allocation") &&
                  strstr(diag, "at t.ptx:8:3: st.global.u32"), "%s", diag);
    free(diag);
    free(out);
}
END_TEST

START_TEST(trap_reported)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r1; .reg .pred %p1;\n"
        "mov.u32 %r1, %tid.x; setp.eq.u32 %p1, %r1, 5; @%p1 trap;\nret;\n}\n";
    isa_status_t st;
    char *diag;
    uint32_t *out = run_u32(k, 2, 32, 1, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    ck_assert_msg(strstr(diag, "thread (5,0,0): trap instruction executed"), "%s", diag);
    free(diag);
    free(out);
}
END_TEST

START_TEST(unsupported_reported)
{
    isa_module_t *m = load(HDR ".visible .entry k()\n{\n.reg .f32 %f<3>;\n"
                           "  sin.approx.f32 %f1, %f2;\nret;\n}\n");
    ex_program_t *p = ex_program_new(m);
    char *buf = NULL;
    size_t len = 0;
    FILE *d = open_memstream(&buf, &len);
    ck_assert_uint_eq(ex_program_check_entry(p, 0, d), 1);
    fclose(d);
    ck_assert_msg(strstr(buf, "t.ptx:7:3: error: sin.approx.f32 is not supported yet"), "%s", buf);
    free(buf);
    ex_program_free(p);
    isa_module_free(m);
}
END_TEST

Suite *make_interp_suite(void)
{
    Suite *s = suite_create("interp");
    TCase *tc = tcase_create("launch");
    tcase_add_test(tc, grid_of_ctas);
    tcase_add_test(tc, divergent_loop);
    tcase_add_test(tc, shared_and_barrier);
    tcase_add_test(tc, recursive_call);
    tcase_add_test(tc, out_of_bounds_fault);
    tcase_add_test(tc, trap_reported);
    tcase_add_test(tc, unsupported_reported);
    suite_add_tcase(s, tc);
    return s;
}
