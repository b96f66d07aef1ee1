/* check_stack.c: exec/mem/stack.c, the per-thread stack of alloca, stacksave and
 * stackrestore: alignment and the lanes' own regions, memory freed on return and by
 * stackrestore (loops that would otherwise overflow), the two stacks meeting (alloca into
 * the frames, a frame into the allocations) as located faults, and stackrestore outside
 * the stack. */
#include <check.h>
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

/* Load text, run entry "k" with one u64 buffer of n elements on one CTA of block threads. */
static run_t run(const char *text, unsigned block, unsigned n)
{
    run_t r = { 0 };
    char *buf = NULL;
    r.m = tu_load("s.ptx", text, &buf);
    ck_assert_msg(r.m != NULL, "%s", buf);
    free(buf);
    r.p = exu_program(r.m);
    uint32_t e = isa_module_find_func(r.m, "k");
    ck_assert_uint_eq(ex_program_check_entry(r.p, e, stderr), 0);
    size_t bytes = 256 * ((n * 8 + 255) / 256);
    r.out = aligned_alloc(256, bytes);
    memset(r.out, 0, bytes);
    exu_map(r.p, r.out, bytes);
    uint64_t param = (uint64_t)(uintptr_t)r.out;
    ex_launch_t l = { { 1, 1, 1 }, { block, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
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

/* Per lane: allocations of lane-dependent sizes with alignments 1 (the minimum, 8, applies),
 * 16, 64 and 4096 and none given; each pointer is aligned, below the one before (the
 * stack grows down) by at least the previous size, and holds what was stored through
 * ld/st.local and through its generic address.  The .u32 form too. */
START_TEST(alloca_alignment_and_regions)
{
    run_t r = run(HDR
        ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<24>;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mov.u32 %r1, %tid.x; cvt.u64.u32 %rd2, %r1;\n"
        "mul.wide.u32 %rd3, %r1, 8; add.s64 %rd3, %rd3, %rd1;\n"         /* out[tid] */
        "add.s64 %rd4, %rd2, 3;\n"                                        /* size tid + 3 */
        "alloca.u64 %rd10, %rd4, 1;\n"
        "alloca.u64 %rd11, %rd4, 16;\n"
        "alloca.u64 %rd12, %rd4, 64;\n"
        "alloca.u64 %rd13, %rd4, 4096;\n"
        "alloca.u64 %rd14, %rd4;\n"
        "cvt.u32.u64 %r2, %rd4; alloca.u32 %r3, %r2, 32; cvt.u64.u32 %rd15, %r3;\n"
        "stacksave.u64 %rd16;\n"
        /* flags: bit k set when pointer k is misaligned or overlaps the one before */
        "mov.u64 %rd20, 0;\n"
        "and.b64 %rd5, %rd10, 7; or.b64 %rd20, %rd20, %rd5;\n"
        "and.b64 %rd5, %rd11, 15; or.b64 %rd20, %rd20, %rd5;\n"
        "and.b64 %rd5, %rd12, 63; or.b64 %rd20, %rd20, %rd5;\n"
        "and.b64 %rd5, %rd13, 4095; or.b64 %rd20, %rd20, %rd5;\n"
        "and.b64 %rd5, %rd14, 7; or.b64 %rd20, %rd20, %rd5;\n"
        "and.b64 %rd5, %rd15, 31; or.b64 %rd20, %rd20, %rd5;\n"
        "alloca.u64 %rd17, 8, 65536; and.b64 %rd5, %rd17, 65535; or.b64 %rd20, %rd20, %rd5;\n"
        "cvta.local.u64 %rd18, %rd17; and.b64 %rd5, %rd18, 65535; or.b64 %rd20, %rd20, %rd5;\n"
        "add.s64 %rd6, %rd11, %rd4; setp.gt.u64 %p1, %rd6, %rd10; @%p1 or.b64 %rd20, %rd20, 0x100;\n"
        "add.s64 %rd6, %rd12, %rd4; setp.gt.u64 %p1, %rd6, %rd11; @%p1 or.b64 %rd20, %rd20, 0x200;\n"
        "add.s64 %rd6, %rd13, %rd4; setp.gt.u64 %p1, %rd6, %rd12; @%p1 or.b64 %rd20, %rd20, 0x400;\n"
        "add.s64 %rd6, %rd14, %rd4; setp.gt.u64 %p1, %rd6, %rd13; @%p1 or.b64 %rd20, %rd20, 0x800;\n"
        "add.s64 %rd6, %rd15, %rd4; setp.gt.u64 %p1, %rd6, %rd14; @%p1 or.b64 %rd20, %rd20, 0x1000;\n"
        "setp.ne.u64 %p1, %rd16, %rd15; @%p1 or.b64 %rd20, %rd20, 0x2000;\n"   /* stacksave = last ptr */
        "stacksave.u64 %rd19; setp.ne.u64 %p1, %rd19, %rd17; @%p1 or.b64 %rd20, %rd20, 0x4000;\n"
        /* data: a byte at the end of each region, through local and generic addresses */
        "add.s64 %rd7, %rd10, %rd2; st.local.u8 [%rd7+2], %r1;\n"
        "cvta.local.u64 %rd8, %rd13; add.s64 %rd8, %rd8, %rd2; add.u32 %r4, %r1, 100; st.u8 [%rd8+2], %r4;\n"
        "ld.local.u8 %r5, [%rd7+2]; cvta.to.local.u64 %rd9, %rd8; ld.local.u8 %r6, [%rd9+2];\n"
        "mul.lo.u32 %r5, %r5, 1000; add.u32 %r5, %r5, %r6; cvt.u64.u32 %rd21, %r5;\n"
        "shl.b64 %rd21, %rd21, 16; or.b64 %rd20, %rd20, %rd21;\n"
        "st.global.u64 [%rd3], %rd20;\n"
        "ret;\n}\n", 64, 64);
    ck_assert_msg(r.st == ISA_ST_OK, "%s", r.diag);
    for (unsigned t = 0; t < 64; t++)
        ck_assert_uint_eq(r.out[t], (uint64_t)((t & 0xff) * 1000 + ((t + 100) & 0xff)) << 16);
    done(&r);
}
END_TEST

/* A function that allocates 4 KiB per call, called 1000 times in a loop (4 MB in all,
 * beyond the 512 KiB of local memory): each return frees its memory.  The caller's own
 * allocation, made before the loop, keeps its contents; the callee's pointer is the same
 * at every call. */
START_TEST(alloca_freed_on_return)
{
    run_t r = run(HDR
        ".func (.param .b64 rv) f(.param .b32 v)\n{\n.reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
        "ld.param.b32 %r1, [v];\n"
        "alloca.u64 %rd1, 4096, 16;\n"
        "st.local.u32 [%rd1], %r1; st.local.u32 [%rd1+4092], %r1;\n"
        "st.param.b64 [rv], %rd1;\n"
        "ret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<12>;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 8; add.s64 %rd2, %rd2, %rd1;\n"
        "alloca.u64 %rd3, 16;\n"
        "st.local.u32 [%rd3], 12345;\n"
        "mov.u32 %r2, 0; mov.u64 %rd5, 0; mov.u64 %rd9, 0;\n"
        "LOOP:\n"
        "{ .param .b32 a; .param .b64 b; st.param.b32 [a], %r2; call (b), f, (a); ld.param.b64 %rd4, [b]; }\n"
        "setp.eq.u32 %p1, %r2, 0; @%p1 mov.u64 %rd5, %rd4;\n"
        "setp.ne.u64 %p2, %rd4, %rd5; @%p2 add.s64 %rd9, %rd9, 1;\n"     /* pointer changed */
        "add.u32 %r2, %r2, 1; setp.lt.u32 %p3, %r2, 1000; @%p3 bra LOOP;\n"
        "ld.local.u32 %r3, [%rd3]; cvt.u64.u32 %rd6, %r3;\n"
        "shl.b64 %rd9, %rd9, 32; or.b64 %rd6, %rd6, %rd9;\n"
        "st.global.u64 [%rd2], %rd6;\n"
        "ret;\n}\n", 32, 32);
    ck_assert_msg(r.st == ISA_ST_OK, "%s", r.diag);
    for (unsigned t = 0; t < 32; t++)
        ck_assert_uint_eq(r.out[t], 12345);
    done(&r);
}
END_TEST

/* stacksave / alloca / stackrestore in a loop of 10000 rounds of up to 1 KiB per lane
 * (10 MB without the restores), with divergent sizes: the saved pointer is the same every
 * round and nothing overflows. */
START_TEST(stackrestore_loop)
{
    run_t r = run(HDR
        ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<12>;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 8; add.s64 %rd2, %rd2, %rd1;\n"
        "stacksave.u64 %rd3;\n"
        "mov.u32 %r2, 0; mov.u64 %rd9, 0; mov.u64 %rd10, 0;\n"
        "LOOP:\n"
        "stacksave.u64 %rd4;\n"
        "setp.ne.u64 %p1, %rd4, %rd3; @%p1 add.s64 %rd9, %rd9, 1;\n"
        "add.u32 %r3, %r2, %r1; and.b32 %r3, %r3, 1023; add.u32 %r3, %r3, 1; cvt.u64.u32 %rd5, %r3;\n"
        "alloca.u64 %rd6, %rd5, 16;\n"
        "st.local.u8 [%rd6], %r2; ld.local.u8 %r4, [%rd6]; cvt.u64.u32 %rd7, %r4; add.s64 %rd10, %rd10, %rd7;\n"
        "stackrestore.u64 %rd4;\n"
        "add.u32 %r2, %r2, 1; setp.lt.u32 %p2, %r2, 10000; @%p2 bra LOOP;\n"
        "shl.b64 %rd9, %rd9, 32; add.s64 %rd10, %rd10, %rd9;\n"
        "st.global.u64 [%rd2], %rd10;\n"
        "ret;\n}\n", 32, 32);
    ck_assert_msg(r.st == ISA_ST_OK, "%s", r.diag);
    uint64_t want = 0;
    for (unsigned i = 0; i < 10000; i++)
        want += i & 0xff;
    for (unsigned t = 0; t < 32; t++)
        ck_assert_uint_eq(r.out[t], want);
    done(&r);
}
END_TEST

/* An alloca loop without stackrestore overflows the 512 KiB of local memory: a stack
 * fault naming the kernel, the thread, the alloca and the limit. */
START_TEST(alloca_overflow_fault)
{
    run_t r = run(HDR
        ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<12>;\n"
        "mov.u32 %r1, %tid.x; mov.u32 %r2, 0;\n"
        "setp.ne.u32 %p1, %r1, 5; @%p1 bra END;\n"
        "LOOP:\n"
        "alloca.u64 %rd1, 1000, 16;\n"
        "add.u32 %r2, %r2, 1; setp.lt.u32 %p2, %r2, 100000; @%p2 bra LOOP;\n"
        "END:\n"
        "ret;\n}\n", 32, 1);
    ck_assert_int_ne(r.st, ISA_ST_OK);
    ck_assert_msg(strstr(r.diag, "kernel k: CTA (0,0,0) thread (5,0,0): local memory stack overflow: alloca of 1000 "
                                 "bytes (aligned to 16) does not fit in the 524288 bytes of local memory per thread"),
                  "%s", r.diag);
    ck_assert_msg(strstr(r.diag, "at s.ptx:10:1: alloca.u64 %rd1, 1000, 16"), "%s", r.diag);
    done(&r);
}
END_TEST

/* The two stacks meet the other way: after an allocation of nearly all local memory, a
 * call to a function with a 64-byte frame does not fit; and an allocation larger than
 * the memory (a 64-bit size) faults at once, as does one into the entry's own frame. */
START_TEST(frame_meets_allocations)
{
    run_t r = run(HDR
        ".func f()\n{\n.local .align 8 .b8 depot[64]; .reg .b64 %rd<2>;\n"
        "mov.u64 %rd1, depot; st.local.u64 [%rd1], %rd1;\nret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<4>;\n"
        "alloca.u64 %rd1, 524256, 16;\n"
        "call f, ();\n"
        "ret;\n}\n", 1, 1);
    ck_assert_int_ne(r.st, ISA_ST_OK);
    ck_assert_msg(strstr(r.diag, "thread (0,0,0): local memory stack overflow\n  at s.ptx:14:1: call f, ()"), "%s",
                  r.diag);
    done(&r);
    r = run(HDR
        ".visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<4>;\n"
        "mov.u64 %rd2, 0x100000000; alloca.u64 %rd1, %rd2;\n"
        "ret;\n}\n", 1, 1);
    ck_assert_msg(strstr(r.diag, "alloca of 4294967296 bytes"), "%s", r.diag);
    done(&r);
    r = run(HDR
        ".visible .entry k(.param .u64 out)\n{\n.local .align 16 .b8 depot[1024]; .reg .b64 %rd<4>;\n"
        "mov.u64 %rd2, depot; st.local.u64 [%rd2], %rd2;\n"
        "alloca.u64 %rd1, 523264, 16;\n"      /* 512 KiB - 1024: fits exactly */
        "alloca.u64 %rd1, 1, 16;\n"
        "ret;\n}\n", 1, 1);
    ck_assert_msg(strstr(r.diag, "alloca of 1 bytes") && strstr(r.diag, "s.ptx:9:1"), "%s", r.diag);
    done(&r);
}
END_TEST

/* stackrestore above the activation's own stack (into the caller's allocations) or into
 * the frames faults, naming the bounds. */
START_TEST(stackrestore_outside)
{
    run_t r = run(HDR
        ".func f(.param .b64 sp)\n{\n.reg .b64 %rd<4>;\n"
        "ld.param.b64 %rd1, [sp]; stackrestore.u64 %rd1;\nret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<4>;\n"
        "stacksave.u64 %rd1;\n"
        "alloca.u64 %rd2, 64, 16;\n"
        "{ .param .b64 a; st.param.b64 [a], %rd1; call f, (a); }\n"
        "ret;\n}\n", 1, 1);
    ck_assert_int_ne(r.st, ISA_ST_OK);
    ck_assert_msg(strstr(r.diag, "stackrestore to an address outside the thread's stack (between 0x1000 and "
                                 "0x80fc0)") && strstr(r.diag, "s.ptx:7:26"), "%s", r.diag);
    done(&r);
    r = run(HDR
        ".visible .entry k(.param .u64 out)\n{\n.local .align 16 .b8 depot[32]; .reg .b64 %rd<4>;\n"
        "mov.u64 %rd1, depot; stackrestore.u64 %rd1;\n"
        "ret;\n}\n", 1, 1);
    ck_assert_msg(strstr(r.diag, "(between 0x1020 and 0x81000)"), "%s", r.diag);
    done(&r);
}
END_TEST

Suite *make_stack_suite(void)
{
    Suite *s = suite_create("stack");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, alloca_alignment_and_regions);
    tcase_add_test(tc, alloca_freed_on_return);
    tcase_add_test(tc, stackrestore_loop);
    tcase_add_test(tc, alloca_overflow_fault);
    tcase_add_test(tc, frame_meets_allocations);
    tcase_add_test(tc, stackrestore_outside);
    suite_add_tcase(s, tc);
    return s;
}
