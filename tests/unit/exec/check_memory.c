/* check_memory.c: the memory spaces through small kernels: module globals with
 * initializers and relocations, the constant bank, local frames (%SPL/%SP), generic
 * addressing through every window, vector registers, cache hints, and the faults for
 * misaligned and out-of-range accesses. */
#include <check.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/exec/exutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

typedef struct {
    isa_module_t *m;
    ex_program_t *p;
    uint64_t     *out;
    char         *diag;
    isa_status_t  st;
} run_t;

/* Load text, run entry "k" with one u64 output buffer of n elements on 1 CTA. */
static run_t run(const char *text, unsigned block, unsigned n)
{
    run_t r = { 0 };
    char *buf = NULL;
    r.m = tu_load("m.ptx", text, &buf);
    ck_assert_msg(r.m != NULL, "%s", buf);
    free(buf);
    r.p = exu_program(r.m);
    uint32_t e = isa_module_find_func(r.m, "k");
    ck_assert_uint_eq(ex_program_check_entry(r.p, e, stderr), 0);
    r.out = aligned_alloc(256, 256 * ((n * 8 + 255) / 256));
    memset(r.out, 0, n * 8);
    exu_map(r.p, r.out, n * 8);
    uint64_t param = (uint64_t)(uintptr_t)r.out;
    ex_launch_t l = { { 1, 1, 1 }, { block, 1, 1 }, 16, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
    size_t len = 0;
    buf = NULL;
    FILE *d = open_memstream(&buf, &len);
    r.st = exu_launch(r.p, e, &l, &param, 8, d);
    fclose(d);
    r.diag = buf;
    return r;
}

static void done(run_t *r)
{
    free(r->out);
    free(r->diag);
    exu_program_free(r->p);
    isa_module_free(r->m);
}

/* Initialised globals (scalar, short byte array, 2-D array), a generic() relocation
 * and a function-address table; reading them back through ld.global and generic ld. */
START_TEST(globals_and_relocations)
{
    run_t r = run(HDR
        ".global .align 4 .u32 g = 77;\n"
        ".global .align 1 .b8 s[6] = {104, 105};\n"
        ".global .align 4 .u32 a2[2][2] = {{1}, {3, 4}};\n"
        ".global .align 8 .u64 gp = generic(g);\n"
        ".const .align 4 .u32 c[3] = {10, 20, 30};\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [out];\n"
        "ld.global.u32 %r1, [g]; cvt.u64.u32 %rd2, %r1; st.global.u64 [%rd1], %rd2;\n"
        "ld.global.u8 %r2, [s+1]; cvt.u64.u32 %rd2, %r2; st.global.u64 [%rd1+8], %rd2;\n"
        "ld.global.u8 %r2, [s+5]; cvt.u64.u32 %rd2, %r2; st.global.u64 [%rd1+16], %rd2;\n"
        "ld.global.u32 %r3, [a2+4]; cvt.u64.u32 %rd2, %r3; st.global.u64 [%rd1+24], %rd2;\n"
        "ld.global.u32 %r3, [a2+12]; cvt.u64.u32 %rd2, %r3; st.global.u64 [%rd1+32], %rd2;\n"
        "ld.global.u64 %rd3, [gp]; ld.u32 %r4, [%rd3]; cvt.u64.u32 %rd2, %r4; st.global.u64 [%rd1+40], %rd2;\n"
        "mov.u64 %rd4, c; ld.const.u32 %r5, [%rd4+8]; cvt.u64.u32 %rd2, %r5; st.global.u64 [%rd1+48], %rd2;\n"
        "cvta.const.u64 %rd5, %rd4; ld.u32 %r6, [%rd5+4]; cvt.u64.u32 %rd2, %r6; st.global.u64 [%rd1+56], %rd2;\n"
        "ret;\n}\n", 1, 8);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    static const uint64_t want[8] = { 77, 105, 0, 0, 4, 77, 30, 20 };
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(r.out[i], want[i]);
    done(&r);
}
END_TEST

/* A local depot addressed through %SPL and, generically, %SP, per thread. */
/* Local memory: 512 KiB per thread, backed only where touched.  1024 threads of 16 CTAs
 * each write the first and the last word of their 512 KiB - 16 and read them back: the
 * resident memory grows by a few pages per thread, not by 512 KiB; a word beyond it
 * faults. */
START_TEST(local_512k_lazy)
{
    static const char *k =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        "  .reg .u64 %rd<4>; .reg .u32 %r<5>; .reg .pred %p;\n"
        "  .local .align 8 .b8 buf[524272];\n"
        "  ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;\n"
        "  st.local.u32 [buf], %r1; st.local.u32 [buf+524268], %r1;\n"
        "  ld.local.u32 %r2, [buf]; ld.local.u32 %r3, [buf+524268]; add.u32 %r4, %r2, %r3;\n"
        "  mul.wide.u32 %rd2, %r1, 4; add.u64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r4;\n"
        "  ret;\n}\n";
    static uint32_t out[1024];
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    char *diag = NULL;
    ck_assert_int_eq(exu_run(k, 16, 1024, 0, out, sizeof out, &diag), ISA_ST_OK);
    free(diag);
    getrusage(RUSAGE_SELF, &r1);
    for (unsigned i = 0; i < 1024; i++)
        ck_assert_uint_eq(out[i], 2 * i);
    /* 2 workers x 1024 threads x 2 pages: 16 MiB; eagerly, 1 GiB. */
    ck_assert_msg(r1.ru_maxrss - r0.ru_maxrss < 128 * 1024, "resident memory grew by %ld KiB",
                  r1.ru_maxrss - r0.ru_maxrss);
    static const char *over =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        "  .reg .u32 %r<2>;\n  .local .align 8 .b8 buf[16];\n"
        "  mov.u32 %r1, 1; st.local.u32 [buf+524288], %r1;\n  ret;\n}\n";
    ck_assert_int_eq(exu_run(over, 1, 32, 0, out, sizeof out, &diag), ISA_ST_FAULT);
    ck_assert_msg(strstr(diag, "local address outside the thread's local memory") != NULL, "%s", diag);
    free(diag);
}
END_TEST

START_TEST(local_frames)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".local .align 8 .b8 __local_depot0[64];\n.reg .b64 %SP; .reg .b64 %SPL;\n"
        ".reg .b32 %r<4>; .reg .b64 %rd<8>;\n"
        "mov.u64 %SPL, __local_depot0; cvta.local.u64 %SP, %SPL;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; cvt.u64.u32 %rd2, %r1;\n"
        "mul.lo.u64 %rd3, %rd2, 100; st.local.u64 [%SPL+8], %rd3; add.u64 %rd4, %SP, 8;"
        " ld.u64 %rd5, [%rd4]; add.u64 %rd5, %rd5, 1;\n"
        "shl.b64 %rd6, %rd2, 3; add.s64 %rd7, %rd1, %rd6; st.global.u64 [%rd7], %rd5;\nret;\n}\n", 32, 32);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(r.out[i], i * 100 + 1);
    done(&r);
}
END_TEST

/* mov of a function's own parameter: "the parameter will be copied onto the stack and the
 * address will be in the local state space"; each call (per lane, recursively) its own
 * copy, read with ld.local and generic loads; ld.param still reads the argument. */
START_TEST(func_param_address)
{
    run_t r = run(HDR
        ".func (.param .b64 rv) f(.param .b64 a, .param .align 16 .b8 s[16])\n{\n"
        ".reg .pred %p<2>; .reg .b64 %rd<12>;\n"
        "mov.u64 %rd1, a; ld.local.u64 %rd2, [%rd1];\n"
        "mov.u64 %rd3, s; cvta.local.u64 %rd4, %rd3; ld.u64 %rd5, [%rd4+8];\n"
        "st.local.u64 [%rd1], 0; ld.param.u64 %rd6, [a];\n"      /* the copy, not the argument */
        "add.s64 %rd7, %rd2, %rd5; add.s64 %rd7, %rd7, %rd6;\n"
        "setp.gt.u64 %p1, %rd2, 40; @%p1 bra DONE;\n"              /* recursion: a new copy each call */
        "{ .param .b64 x; .param .align 16 .b8 y[16]; .param .b64 z; add.s64 %rd8, %rd2, 20;"
        " st.param.b64 [x], %rd8; st.param.v2.b64 [y], {%rd8, %rd8}; call (z), f, (x, y); ld.param.b64 %rd9, [z]; }\n"
        "ld.local.u64 %rd10, [%rd1+0]; ld.u64 %rd11, [%rd4+8]; add.s64 %rd7, %rd7, %rd9; add.s64 %rd7, %rd7, %rd10;"
        " add.s64 %rd7, %rd7, %rd11;\n"
        "DONE:\nst.param.b64 [rv], %rd7;\nret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>; .reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; cvt.u64.u32 %rd2, %r1;\n"
        "{ .param .b64 x; .param .align 16 .b8 y[16]; .param .b64 z; add.s64 %rd3, %rd2, 5;"
        " st.param.b64 [x], %rd2; st.param.v2.b64 [y], {%rd2, %rd3}; call (z), f, (x, y); ld.param.b64 %rd4, [z]; }\n"
        "shl.b64 %rd6, %rd2, 3; add.s64 %rd7, %rd1, %rd6; st.global.u64 [%rd7], %rd4;\nret;\n}\n", 32, 32);
    ck_assert_msg(r.st == ISA_ST_OK, "%s", r.diag);
    for (uint64_t t = 0; t < 32; t++) {
        /* f(a, {b, c}) = a + c + a + (a <= 40 ? f(a + 20, {a + 20, a + 20}) + 0 + c : 0) */
        uint64_t a2 = t + 20, a3 = t + 40, a4 = t + 60;
        uint64_t f4 = a4 + a4 + a4;
        uint64_t f3 = a3 + a3 + a3 + (a3 <= 40 ? f4 + a3 : 0);
        uint64_t f2 = a2 + a2 + a2 + (a2 <= 40 ? f3 + a2 : 0);
        uint64_t f1 = t + (t + 5) + t + f2 + (t + 5);
        ck_assert_uint_eq(r.out[t], f1);
    }
    done(&r);
}
END_TEST

/* mapa to another CTA of the cluster (a cluster has one CTA here): the address it gives,
 * with the rank in bits 24-31 as the H100's code puts it, faults when it is used, naming
 * the rank; getctarank reads the rank back. */
START_TEST(mapa_other_rank)
{
    run_t r = run(HDR
        ".visible .entry k(.param .u64 out)\n{\n.shared .align 4 .b32 sv[4];\n"
        ".reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mov.u32 %r1, sv; mapa.shared::cluster.u32 %r2, %r1, 3; getctarank.shared::cluster.u32 %r3, %r2;\n"
        "sub.u32 %r4, %r2, %r1; cvt.u64.u32 %rd2, %r4; st.global.u64 [%rd1], %rd2;\n"
        "cvt.u64.u32 %rd3, %r3; st.global.u64 [%rd1+8], %rd3;\n"
        "ld.shared::cluster.u32 %r5, [%r2+4];\n"
        "ret;\n}\n", 1, 2);
    ck_assert_int_ne(r.st, ISA_ST_OK);
    ck_assert_uint_eq(r.out[0], 3u << 24);
    ck_assert_uint_eq(r.out[1], 3);
    ck_assert_msg(strstr(r.diag, "shared::cluster address of CTA rank 3, outside the cluster (1 CTA) (address "
                                 "0x3000004)") && strstr(r.diag, "m.ptx:12:1: ld.shared::cluster.u32"), "%s", r.diag);
    done(&r);
}
END_TEST

/* Generic addressing of shared memory (cvta.shared / cvta.to.shared) and dynamic shared. */
START_TEST(generic_shared)
{
    run_t r = run(HDR ".extern .shared .align 16 .b8 dyn[];\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<6>; .reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mov.u32 %r2, dyn; shl.b32 %r3, %r1, 2;"
        " add.s32 %r4, %r2, %r3; cvt.u64.u32 %rd2, %r4; cvta.shared.u64 %rd3, %rd2;\n"
        "add.s32 %r5, %r1, 7; st.u32 [%rd3], %r5; cvta.to.shared.u64 %rd4, %rd3; cvt.u32.u64 %r4, %rd4;"
        " ld.shared.u32 %r5, [%r4];\n"
        "cvt.u64.u32 %rd5, %r5; cvt.u64.u32 %rd6, %r1; shl.b64 %rd6, %rd6, 3; add.s64 %rd7, %rd1, %rd6;"
        " st.global.u64 [%rd7], %rd5;\nret;\n}\n", 4, 4);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(r.out[i], i + 7);
    done(&r);
}
END_TEST

/* Generic loads and stores of a whole warp: all in the CTA's shared memory (4 and 8
 * bytes), lanes split between global and shared memory, local memory; and the faults of
 * a generic access past the shared memory's end and of a misaligned one, named as for
 * an explicit .shared access. */
static const char generic_warp[] = HDR ".shared .align 8 .b8 sh[128];\n.shared .align 8 .b8 sh8[256];\n"
    ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<2>; .reg .b32 %r<10>; .reg .b64 %rd<24>;\n"
    ".local .align 8 .b8 loc[8];\n"
    "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;\n"
    "mov.u64 %rd2, sh; cvta.shared.u64 %rd3, %rd2; mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd3, %rd4;\n"
    "add.u32 %r2, %r1, 100; st.u32 [%rd5], %r2;\n"
    "mov.u64 %rd10, sh8; cvta.shared.u64 %rd11, %rd10; mul.wide.u32 %rd12, %r1, 8; add.s64 %rd13, %rd11, %rd12;\n"
    "cvt.u64.u32 %rd14, %r1; add.u64 %rd14, %rd14, 40; st.u64 [%rd13], %rd14;\n"
    "bar.sync 0;\n"
    "sub.u32 %r3, 31, %r1; mul.wide.u32 %rd6, %r3, 4; add.s64 %rd7, %rd3, %rd6; ld.u32 %r4, [%rd7];\n"
    "mul.wide.u32 %rd15, %r3, 8; add.s64 %rd16, %rd11, %rd15; ld.u64 %rd17, [%rd16];\n"
    "and.b32 %r9, %r1, 1; setp.eq.u32 %p1, %r9, 0; add.s64 %rd8, %rd1, %rd12; selp.b64 %rd9, %rd8, %rd7, %p1;\n"
    "ld.u32 %r5, [%rd9];\n"
    "mul.lo.u32 %r6, %r1, 3; st.local.u32 [loc], %r6; mov.u64 %rd18, loc; cvta.local.u64 %rd19, %rd18;\n"
    "ld.u32 %r7, [%rd19];\n"
    "@%p0 ld.u32 %r8, [%rd3+FAULTOFF];\n"
    "cvt.u64.u32 %rd20, %r4; cvt.u64.u32 %rd21, %r5; shl.b64 %rd21, %rd21, 16; or.b64 %rd20, %rd20, %rd21;\n"
    "cvt.u64.u32 %rd21, %r7; shl.b64 %rd21, %rd21, 32; or.b64 %rd20, %rd20, %rd21;\n"
    "shl.b64 %rd17, %rd17, 48; or.b64 %rd20, %rd20, %rd17; st.global.u64 [%rd8], %rd20;\nret;\n}\n";

static char *generic_text(const char *pred, const char *off)
{
    static char t[4096];
    char *w = t;
    for (const char *s = generic_warp; *s; ) {
        if (!strncmp(s, "%p0", 3)) {
            w += sprintf(w, "%s", pred);
            s += 3;
        } else if (!strncmp(s, "FAULTOFF", 8)) {
            w += sprintf(w, "%s", off);
            s += 8;
        } else {
            *w++ = *s++;
        }
    }
    *w = 0;
    return t;
}

START_TEST(generic_warp_spaces)
{
    run_t r = run(generic_text("!%p1", "0"), 32, 32);   /* odd lanes: a load of sh[0], no fault */
    ck_assert_msg(r.st == ISA_ST_OK, "%s", r.diag);
    for (unsigned i = 0; i < 32; i++) {
        uint64_t want = (uint64_t)(31 - i + 100) | (uint64_t)(i & 1 ? 31 - i + 100 : 0) << 16 |
                        (uint64_t)(i * 3) << 32 | (uint64_t)(31 - i + 40) << 48;
        ck_assert_msg(r.out[i] == want, "lane %u: %016llx, expected %016llx", i, (unsigned long long)r.out[i],
                      (unsigned long long)want);
    }
    done(&r);
    r = run(generic_text("!%p1", "1048576"), 32, 32);   /* 1 MiB past sh: beyond the CTA's */
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "shared address outside the CTA's shared memory"), "%s", r.diag);
    done(&r);
    r = run(generic_text("!%p1", "2"), 32, 32);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "misaligned address"), "%s", r.diag);
    done(&r);
}
END_TEST

START_TEST(misaligned_fault)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [out];\nld.global.u64 %rd2, [%rd1+4];\nret;\n}\n", 1, 4);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "misaligned address") && strstr(r.diag, "at m.ptx:8:1: ld.global.u64"),
                  "%s", r.diag);
    done(&r);
}
END_TEST

START_TEST(shared_out_of_range)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>;\n"
        "mov.u32 %r1, 64;\nst.shared.u32 [%r1], %r1;\nret;\n}\n", 1, 1);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "shared address outside the CTA's shared memory (address 0x40)"), "%s", r.diag);
    done(&r);
}
END_TEST

/* Vector registers: .v4/.v2 loads and stores of whole vector registers, components
 * (.x/.y/.z/.w, .r/.g/.b/.a) as sources and destinations of ALU, mov, cvt and
 * pack/unpack, and mov.v4 between vector registers.  Lane l writes 17 u32 at
 * out + 80 l; every value is data movement or small integer arithmetic. */
START_TEST(vector_registers)
{
    run_t r = run(HDR
        ".global .align 16 .u32 in[8] = {1, 2, 3, 4, 0x3f800000, 0x40000000, 0x40400000, 0x40800000};\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .f32 %f<4>; .reg .b16 %h<4>;\n"
        ".reg .v4 .u32 %a; .reg .v4 .u32 %b; .reg .v4 .f32 %vf; .reg .v4 .b16 %vh; .reg .v2 .b64 %vd;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 80; add.s64 %rd1, %rd1, %rd2;\n"
        "ld.global.v4.u32 %a, [in];\n"                      /* a = {1, 2, 3, 4} */
        "ld.global.v4.f32 %vf, [in+16];\n"                  /* vf = {1.0, 2.0, 3.0, 4.0} */
        "add.u32 %a.z, %a.z, %r1;\n"                         /* a.z = 3 + l */
        "mov.v4.u32 %b, %a;\n"                               /* b = a */
        "mov.u32 %a.x, 100;\n"                               /* a = {100, 2, 3 + l, 4}, b unchanged */
        "mul.lo.u32 %b.w, %b.w, %a.y;\n"                     /* b = {1, 2, 3 + l, 8} */
        "add.f32 %vf.g, %vf.r, %vf.a;\n"                     /* vf = {1.0, 5.0, 3.0, 4.0} */
        "cvt.rzi.u32.f32 %r2, %vf.y;\n"                      /* r2 = 5 */
        "mov.u16 %vh.x, 7; mov.u16 %vh.y, %vh.x; cvt.u16.u32 %vh.z, %r1; mov.u16 %vh.w, 0xbeef;\n"
        "cvt.u32.u16 %r3, %vh.w;\n"                          /* r3 = 0xbeef */
        "mov.b64 %vd.x, {%vh.x, %vh.y, %vh.z, %vh.w};\n"     /* pack */
        "mov.b64 {%h1, %h2, %h3, _}, %vd.x;\n"               /* unpack: h1 = h2 = 7, h3 = l */
        "mov.b32 {%h1, %h2}, %a.y;\n"                        /* unpack: h1 = 2, h2 = 0 */
        "mov.b64 %vd.y, 0; mov.b64 {%r4, %r5}, %vd.x;\n"     /* r4 = 7 | 7 << 16, r5 = l | 0xbeef << 16 */
        "cvt.u32.u16 %r6, %h1;\n"                            /* r6 = 2 */
        "st.global.v4.u32 [%rd1], %a;\n"
        "st.global.v4.u32 [%rd1+16], %b;\n"
        "st.global.v4.f32 [%rd1+32], %vf;\n"
        "st.global.v4.u32 [%rd1+48], {%r2, %r3, %r4, %r5};\n"
        "st.global.v2.b16 [%rd1+64], {%vh.y, %h1};\n"
        "ret;\n}\n", 2, 20);
    ck_assert_msg(r.st == ISA_ST_OK, "%s", r.diag);
    const uint32_t *o = (const uint32_t *)r.out;
    for (uint32_t l = 0; l < 2; l++) {
        const uint32_t *w = o + 20 * l;
        const uint32_t want[20] = {
            100, 2, 3 + l, 4,
            1, 2, 3 + l, 8,
            0x3f800000, 0x40a00000, 0x40400000, 0x40800000,
            5, 0xbeef, 7 | 7u << 16, l | 0xbeefu << 16,
            7 | 2u << 16, 0, 0, 0,
        };
        for (unsigned i = 0; i < 20; i++)
            ck_assert_msg(w[i] == want[i], "lane %u word %u: %#x, want %#x", l, i, w[i], want[i]);
    }
    done(&r);
}
END_TEST

/* Cache hints change no result: .L1::evict_* and .L2::cache_hint with its cache-policy
 * operand (here a register), on loads and stores, vector ones too. */
START_TEST(cache_hints)
{
    run_t r = run(HDR
        ".global .align 16 .u32 in[4] = {11, 22, 33, 44};\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out]; mov.b64 %rd2, 0x1234;\n"
        "mov.u64 %rd3, in;\n"
        "ld.global.L1::evict_last.L2::cache_hint.u32 %r1, [%rd3+4], %rd2;\n"
        "ld.global.L2::cache_hint.v2.u32 {%r2, %r3}, [%rd3+8], %rd2;\n"
        "ld.global.L1::evict_first.u32 %r4, [%rd3];\n"
        "st.global.L1::no_allocate.L2::cache_hint.v4.u32 [%rd1], {%r1, %r2, %r3, %r4}, %rd2;\n"
        "st.global.L2::cache_hint.u32 [%rd1+16], %r4, %rd2;\n"
        "ret;\n}\n", 1, 4);
    ck_assert_msg(r.st == ISA_ST_OK, "%s", r.diag);
    const uint32_t *o = (const uint32_t *)r.out, want[5] = { 22, 33, 44, 11, 11 };
    for (unsigned i = 0; i < 5; i++)
        ck_assert_msg(o[i] == want[i], "word %u: %u, want %u", i, o[i], want[i]);
    done(&r);
}
END_TEST

Suite *make_memory_suite(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("spaces");
    tcase_add_test(tc, globals_and_relocations);
    tcase_add_test(tc, local_frames);
    tcase_add_test(tc, func_param_address);
    tcase_add_test(tc, mapa_other_rank);
    tcase_add_test(tc, generic_shared);
    tcase_add_test(tc, generic_warp_spaces);
    tcase_add_test(tc, misaligned_fault);
    tcase_add_test(tc, shared_out_of_range);
    tcase_add_test(tc, vector_registers);
    tcase_add_test(tc, cache_hints);
    tcase_add_test(tc, local_512k_lazy);
    suite_add_tcase(s, tc);
    return s;
}
