/* check_interp.c: the interpreter through its API: a launch over many CTAs and warps,
 * divergence and reconvergence, barriers, calls, faults, and the unsupported check.
 * Expected values here are exact integer facts (no hardware-specific rounding); the
 * hardware-recorded goldens in tests/golden/ cover the rest. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/unit/exec/exutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* Run the first entry of text over grid x block (with shared bytes of dynamic shared memory)
 * with one u32 buffer of n elements, each set to init, returning the buffer (malloc'd)
 * and the launch status. */
static uint32_t *run_ext(const char *text, unsigned grid, unsigned block, unsigned shared, unsigned n,
                         uint32_t init, isa_status_t *st, char **diag)
{
    size_t bytes = ((n * 4 + 255) / 256) * 256;
    uint32_t *buf = aligned_alloc(256, bytes);
    for (unsigned i = 0; i < n; i++)
        buf[i] = init;
    *st = exu_run(text, grid, block, shared, buf, n * 4, diag);
    return buf;
}

static uint32_t *run_u32(const char *text, unsigned grid, unsigned block, unsigned n, isa_status_t *st,
                         char **diag)
{
    return run_ext(text, grid, block, 0, n, 0, st, diag);
}

/* Runs text expecting a fault whose report contains want (and also, when given). */
static void expect_fault(const char *text, unsigned grid, unsigned block, unsigned n, const char *want,
                         const char *also)
{
    isa_status_t st;
    char *diag;
    uint32_t *out = run_u32(text, grid, block, n, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    ck_assert_msg(strstr(diag, want) && (!also || strstr(diag, also)), "%s", diag);
    free(diag);
    free(out);
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
    isa_module_t *m = exu_load(k);
    ex_program_t *p = exu_program(m);
    ck_assert_uint_eq(ex_program_check_entry(p, 1, NULL), 0);
    uint32_t *buf = aligned_alloc(256, 256);
    memset(buf, 0, 256);
    exu_map(p, buf, 256);
    uint64_t param = (uint64_t)(uintptr_t)buf;
    ex_launch_t l = { { 1, 1, 1 }, { 40, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
    ck_assert_int_eq(exu_launch(p, 1, &l, &param, 8, stderr), ISA_ST_OK);
    for (unsigned i = 0; i < 40; i++)
        ck_assert_uint_eq(buf[i], i * (i + 1) / 2);
    free(buf);
    exu_program_free(p);
    isa_module_free(m);
}
END_TEST

/* An access past the buffer stops the kernel with a located report. */
START_TEST(out_of_bounds_fault)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4;"
        " add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\nret;\n}\n";
    expect_fault(k, 1, 64, 16, "kernel k: CTA (0,0,0) thread (16,0,0): global address outside every allocation",
                 "at t.ptx:8:3: st.global.u32");
}
END_TEST

START_TEST(trap_reported)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r1; .reg .pred %p1;\n"
        "mov.u32 %r1, %tid.x; setp.eq.u32 %p1, %r1, 5; @%p1 trap;\nret;\n}\n";
    expect_fault(k, 2, 32, 1, "thread (5,0,0): trap instruction executed", NULL);
}
END_TEST

/* A call to a function without a body is reported by name before the launch: one that
 * is no device service, and a service declared with another signature than nvcc's
 * (vprintf returning .b64). */
START_TEST(unsupported_reported)
{
    static const char *const decls[] = {
        ".extern .func (.param .b32 r) mystery(.param .b64 a, .param .b64 b);\n",
        ".extern .func (.param .b64 r) vprintf(.param .b64 a, .param .b64 b);\n",
    };
    static const char *const names[] = { "mystery", "vprintf" };
    for (unsigned i = 0; i < 2; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 HDR "%s.visible .entry k()\n{\n.reg .b32 %%r1;\n"
                 "{ .param .b64 p0; st.param.b64 [p0], 0; .param .b64 p1; st.param.b64 [p1], 0;\n"
                 ".param .%s r0;\n  call.uni (r0), %s, (p0, p1); }\nret;\n}\n",
                 decls[i], i ? "b64" : "b32", names[i]);
        isa_module_t *m = exu_load(text);
        ex_program_t *p = exu_program(m);
        char *buf = NULL;
        size_t len = 0;
        FILE *d = open_memstream(&buf, &len);
        ck_assert_uint_eq(ex_program_check_entry(p, 1, d), 1);
        fclose(d);
        char want[160];
        snprintf(want, sizeof want, i ? "t.ptx:10:3: error: call of '%s', declared with another signature"
                                      : "t.ptx:10:3: error: call of '%s', which has no body", names[i]);
        ck_assert_msg(strstr(buf, want), "%s", buf);
        free(buf);
        exu_program_free(p);
        isa_module_free(m);
    }
}
END_TEST

/*{=====================================================================
 * Barriers
 *====================================================================*/
#define OUT_TID "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
#define REGS ".reg .b32 %r<24>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"

/* Barriers 1 and 2 with 64 threads each (ids and counts immediate or in registers),
 * then barrier 3 as producer (bar.arrive) and consumer (bar.sync). */
START_TEST(barrier_ids_and_counts)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.shared .align 4 .u32 sm[128];\n" REGS OUT_TID
        "shr.u32 %r2, %r1, 5; mov.u32 %r3, sm; shl.b32 %r4, %r1, 2; add.u32 %r5, %r3, %r4;\n"
        "add.u32 %r6, %r1, 500; st.shared.u32 [%r5], %r6; setp.lt.u32 %p1, %r2, 2; @!%p1 bra P2;\n"
        "bar.sync 1, 64; bra.uni PD;\nP2: mov.u32 %r7, 2; mov.u32 %r8, 64; barrier.sync %r7, %r8;\n"
        "PD: xor.b32 %r9, %r1, 32; shl.b32 %r9, %r9, 2; add.u32 %r9, %r3, %r9; ld.shared.u32 %r10, [%r9];\n"
        "bar.sync 0; mov.u32 %r12, 0; setp.eq.u32 %p2, %r2, 0; @!%p2 bra CONS;\n"
        "mul.lo.u32 %r11, %r1, 3; st.shared.u32 [%r5], %r11; bar.arrive 3, 64; bra.uni PCD;\n"
        "CONS: setp.ne.u32 %p3, %r2, 1; @%p3 bra PCD; bar.sync 3, 64; sub.u32 %r13, %r5, 128;"
        " ld.shared.u32 %r12, [%r13];\n"
        "PCD: mad.lo.u32 %r14, %r12, 1000, %r10; st.global.u32 [%rd3], %r14;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 2, 128, 128, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 128; i++) {
        unsigned consumed = i / 32 == 1 ? (i - 32) * 3 : 0;
        ck_assert_uint_eq(out[i], consumed * 1000 + ((i ^ 32) + 500));
    }
    free(out);
}
END_TEST

/* bar.red.popc, .and, .or over 80 threads (the last warp half full). */
START_TEST(barrier_reductions)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "rem.u32 %r2, %r1, 3; setp.eq.u32 %p1, %r2, 0; bar.red.popc.u32 %r3, 0, %p1;\n"
        "mov.u32 %r9, 7; bar.red.popc.u32 %r4, %r9, !%p1;\n"
        "setp.ne.u32 %p2, %r1, 77; bar.red.and.pred %p3, 1, %p2; selp.u32 %r5, 1, 0, %p3;\n"
        "setp.eq.u32 %p4, %r1, 40; barrier.red.or.pred %p5, 2, 96, %p4; selp.u32 %r6, 1, 0, %p5;\n"
        "setp.lt.u32 %p6, %r1, 1000; bar.red.and.pred %p7, 15, %p6; selp.u32 %r7, 1, 0, %p7;\n"
        "mad.lo.u32 %r8, %r3, 1000, %r4; mad.lo.u32 %r8, %r8, 10, %r5; mad.lo.u32 %r8, %r8, 10, %r6;"
        " mad.lo.u32 %r8, %r8, 10, %r7;\nst.global.u32 [%rd3], %r8;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 3, 80, 80, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 80; i++)
        ck_assert_uint_eq(out[i], ((27u * 1000 + 53) * 10 + 0) * 100 + 11);
    free(out);
}
END_TEST

/* Threads that exited before a barrier count as arrived; a whole exited warp does not
 * count toward an explicit thread count (the CTA deadlocks, as on an H100). */
START_TEST(barrier_after_exit)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.ge.u32 %p1, %r1, 16; setp.lt.u32 %p2, %r1, 32; and.pred %p3, %p1, %p2; @%p3 exit;\n"
        "setp.ge.u32 %p1, %r1, 64; @%p1 bra W2; bar.sync 1, 64;\nW2: bar.sync 0; add.u32 %r2, %r1, 1;"
        " st.global.u32 [%rd3], %r2;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 2, 96, 96, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 96; i++)
        ck_assert_uint_eq(out[i], i >= 16 && i < 32 ? 0 : i + 1);
    free(out);
    const char *k2 = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.ge.u32 %p1, %r1, 64; @%p1 exit;\n  bar.sync 1, 96;\nret;\n}\n";
    expect_fault(k2, 1, 96, 96, "deadlock: every remaining thread waits at a barrier that cannot complete "
                               "(barrier 1: 2 of 3 warps arrived)", "at t.ptx:9:3: bar.sync");
}
END_TEST

/* A deadlock names every warp: where each group of its lanes waits, and for what (two
 * warps at a counted barrier that wants three, two at barrier 0 that wants all four). */
START_TEST(deadlock_names_every_warp)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.ge.u32 %p1, %r1, 64; @%p1 bra X;\n  bar.sync 1, 96;\nret;\nX: bar.sync 0;\nret;\n}\n";
    isa_status_t st;
    char *diag;
    uint32_t *out = run_u32(k, 1, 128, 128, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    static const char *const want[] = {
        "deadlock: every remaining thread waits at a barrier that cannot complete",
        "warp 0 lanes 0xffffffff: waits at barrier 1: 2 of 3 warps arrived, at t.ptx:9:3: bar.sync 1, 96\n",
        "warp 1 lanes 0xffffffff: waits at barrier 1: 2 of 3 warps arrived, at t.ptx:9:3: bar.sync 1, 96\n",
        "warp 2 lanes 0xffffffff: waits at barrier 0: 2 of 4 warps arrived, at t.ptx:11:4: bar.sync 0\n",
        "warp 3 lanes 0xffffffff: waits at barrier 0: 2 of 4 warps arrived, at t.ptx:11:4: bar.sync 0\n",
    };
    for (unsigned i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(diag, want[i]) != NULL, "%s\nwanted: %s", diag, want[i]);
    free(diag);
    free(out);
}
END_TEST

/* An mbarrier phase that can never complete (one arrival too many expected): warps
 * spinning on try_wait in a loop only the phase can end (a bare loop, and libcu++'s
 * backoff loop with its clock reads, counter and nanosleep) are reported as a deadlock,
 * naming the barrier; a warp spinning while another works on and then arrives is not. */
#define MB_INIT "mov.u32 %r2, mb; setp.eq.u32 %p1, %r1, 0; @%p1 mbarrier.init.shared.b64 [%r2], %r3; bar.sync 0;\n" \
                "mbarrier.arrive.shared.b64 %rd4, [%r2];\n"
START_TEST(mbarrier_deadlock)
{
    const char *bare = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS ".shared .b64 mb;\n" OUT_TID
        "mov.u32 %r3, 65;\n" MB_INIT
        "L: mbarrier.try_wait.shared.b64 %p2, [%r2], %rd4; @!%p2 bra L;\nst.global.u32 [%rd3], %r1;\nret;\n}\n";
    const char *backoff = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS ".shared .b64 mb;\n" OUT_TID
        "mov.u32 %r3, 65;\n" MB_INIT
        "mov.u64 %rd5, %globaltimer; mbarrier.try_wait.shared.b64 %p2, [%r2], %rd4; selp.b32 %r4, 1, 0, %p2;\n"
        "setp.ne.s32 %p3, %r4, 0; @%p3 bra D; mov.u32 %r5, 0;\n"
        "B: setp.lt.s32 %p4, %r5, 16; @%p4 bra C; mov.u64 %rd6, %globaltimer; sub.s64 %rd6, %rd6, %rd5;\n"
        "cvt.u32.u64 %r6, %rd6; shr.u32 %r6, %r6, 2; nanosleep.u32 %r6; bra.uni W;\n"
        "C: add.s32 %r5, %r5, 1;\n"
        "W: mbarrier.try_wait.shared.b64 %p2, [%r2], %rd4; selp.b32 %r7, 1, 0, %p2; setp.eq.s32 %p5, %r7, 0;"
        " @%p5 bra B;\nD: st.global.u32 [%rd3], %r1;\nret;\n}\n";
    const char *const kernels[] = { bare, backoff };
    for (unsigned k = 0; k < 2; k++) {
        isa_status_t st;
        char *diag;
        uint32_t *out = run_u32(kernels[k], 1, 64, 64, &st, &diag);
        ck_assert_int_eq(st, ISA_ST_FAULT);
        static const char *const want[] = {
            "deadlock: no thread can progress (spins on mbarrier.try_wait: phase parity 0 of the mbarrier at "
            "shared 0x0 never completes (64 of 65 arrivals, 0 tx bytes pending))",
            "warp 0 lanes 0xffffffff: spins on mbarrier.try_wait", "warp 1 lanes 0xffffffff: spins on mbarrier.try_wait",
        };
        for (unsigned i = 0; i < sizeof want / sizeof *want; i++)
            ck_assert_msg(strstr(diag, want[i]) != NULL, "%s\nwanted: %s", diag, want[i]);
        free(diag);
        free(out);
    }
    /* warp 1 works (a loop of 20,000 iterations) before it arrives; warp 0 spins */
    const char *late = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS ".shared .b64 mb;\n" OUT_TID
        "mov.u32 %r3, 64; mov.u32 %r2, mb; setp.eq.u32 %p1, %r1, 0; @%p1 mbarrier.init.shared.b64 [%r2], %r3;"
        " bar.sync 0;\nsetp.lt.u32 %p1, %r1, 32; @%p1 bra A; mov.u32 %r5, 0;\n"
        "S: add.u32 %r5, %r5, 1; setp.lt.u32 %p3, %r5, 20000; @%p3 bra S;\n"
        "A: mbarrier.arrive.shared.b64 %rd4, [%r2];\n"
        "L: mbarrier.try_wait.shared.b64 %p2, [%r2], %rd4; @!%p2 bra L;\nst.global.u32 [%rd3], %r1;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(late, 1, 64, 64, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], i);
    free(out);
}
END_TEST

/* A cluster whose barrier can never complete: rank 1's threads wait at a CTA barrier
 * for a thread count that never arrives, rank 0's at the cluster barrier; the report
 * names both (a cluster's CTAs run as one unit). */
START_TEST(cluster_deadlock)
{
    const char *k = HDR ".visible .entry k(.param .u64 out) .reqnctapercluster 2, 1, 1\n{\n" REGS OUT_TID
        "mov.u32 %r2, %cluster_ctarank; setp.ne.u32 %p1, %r2, 0; @%p1 bra X;\n"
        "barrier.cluster.arrive; barrier.cluster.wait;\nret;\nX: bar.sync 1, 64;\nret;\n}\n";
    isa_status_t st;
    char *diag;
    uint32_t *out = run_u32(k, 2, 32, 64, &st, &diag);
    ck_assert_int_eq(st, ISA_ST_FAULT);
    static const char *const want[] = {
        "deadlock", "waits at barrier.cluster: 32 of 64 threads of the cluster (2 CTAs) arrived",
        "waits at barrier 1: 1 of 2 warps arrived",
    };
    for (unsigned i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(diag, want[i]) != NULL, "%s\nwanted: %s", diag, want[i]);
    free(diag);
    free(out);
}
END_TEST

/* Clusters resident at once (cudaOccupancyMaxActiveClusters on the H100, app test
 * cluster_occupancy): at most 8 CTAs per SM, each cluster within one GPC. */
START_TEST(resident_clusters)
{
    static const struct { unsigned block, shared, size; uint64_t want; } cases[] = {
        { 32, 0, 1, 1056 }, { 32, 0, 3, 327 }, { 32, 0, 16, 58 }, { 1024, 0, 9, 23 },
        { 32, 204800, 8, 15 }, { 32, 204800, 16, 7 }, { 128, 73728, 5, 69 },
    };
    isa_module_t *m = exu_load(HDR ".visible .entry k()\n{\nret;\n}\n");
    ex_program_t *p = exu_program(m);
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        ex_launch_t l = { .grid = { 1, 1, 1 }, .block = { cases[i].block, 1, 1 }, .shared_bytes = cases[i].shared };
        ck_assert_msg(ex_resident_clusters(p, 0, &l, cases[i].size) == cases[i].want, "case %u: %llu", i,
                      (unsigned long long)ex_resident_clusters(p, 0, &l, cases[i].size));
    }
    exu_program_free(p);
    isa_module_free(m);
}
END_TEST

/* CTAs resident at once, from the machine table: per SM the least of 32 CTAs, 64 warps,
 * 2048 threads, 228 KiB of shared memory (1 KiB reserved per CTA) and, with .maxnreg,
 * 65536 registers; times 132 SMs.  264 of 1024 threads is what the driver lets a
 * cooperative launch have (tests/golden/limits/cooperative.txt). */
START_TEST(resident_ctas)
{
    static const struct { const char *dir; unsigned block, shared; uint64_t want; } cases[] = {
        { "", 1024, 0, 264 },            /* threads: 2 per SM */
        { "", 32, 0, 32 * 132 },         /* the CTA limit */
        { "", 96, 0, 21 * 132 },         /* 64 warps / 3 */
        { "", 33, 0, 32 * 132 },         /* 2 warps each: 32 */
        { "", 32, 102400, 264 },         /* shared: 233472 / (102400 + 1024) */
        { "", 32, 232448 - 1024, 132 },  /* 227 KiB with the reserved KiB: one per SM */
        { ".maxnreg 64\n", 512, 0, 264 },   /* registers: 65536 / (16 warps x 2048) */
        { ".maxnreg 64\n", 256, 0, 528 },
        { ".maxnreg 255\n", 1024, 0, 264 }, /* no room by .maxnreg: not applied */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[512];
        snprintf(text, sizeof text, HDR ".visible .entry k()\n%s{\nret;\n}\n", cases[i].dir);
        isa_module_t *m = exu_load(text);
        ex_program_t *p = exu_program(m);
        ex_launch_t l = { { 1, 1, 1 }, { cases[i].block, 1, 1 }, cases[i].shared, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
        ck_assert_msg(ex_resident_ctas(p, 0, &l) == cases[i].want, "case %u: %llu, want %llu", i,
                      (unsigned long long)ex_resident_ctas(p, 0, &l), (unsigned long long)cases[i].want);
        exu_program_free(p);
        isa_module_free(m);
    }
}
END_TEST

START_TEST(barrier_bad_operands)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS "mov.u32 %r1, 16;\n  bar.sync %r1;\nret;\n}\n";
    expect_fault(k, 1, 32, 1, "barrier id 16 outside 0..15", NULL);
    k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS "mov.u32 %r1, 48;\n  bar.sync 1, %r1;\nret;\n}\n";
    expect_fault(k, 1, 64, 1, "barrier thread count 48 is not a positive multiple of the warp size", NULL);
}
END_TEST

/* bar.warp.sync after divergence and after some named lanes exited; a mask naming a
 * lane that never arrives is a deadlock. */
START_TEST(warp_sync_after_divergence)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.shared .align 4 .u32 sw[32];\n" REGS OUT_TID
        "setp.ge.u32 %p1, %r1, 28; @%p1 exit; mov.u32 %r2, sw; and.b32 %r3, %r1, 31; shl.b32 %r3, %r3, 2;"
        " add.u32 %r4, %r2, %r3;\n"
        "and.b32 %r5, %r1, 1; setp.eq.u32 %p2, %r5, 0; @%p2 bra EVEN;\n"
        "add.u32 %r6, %r1, 100; st.shared.u32 [%r4], %r6; bar.warp.sync -1; bra.uni J;\n"
        "EVEN: add.u32 %r6, %r1, 200; st.shared.u32 [%r4], %r6; bar.warp.sync 0xffffffff;\n"
        "J: xor.b32 %r7, %r3, 4; add.u32 %r7, %r2, %r7; ld.shared.u32 %r8, [%r7]; st.global.u32 [%rd3], %r8;\n"
        "ret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 32, 32, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 28; i++)
        ck_assert_uint_eq(out[i], ((i ^ 1) & 1 ? 100u : 200u) + (i ^ 1));
    free(out);
    const char *k2 = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.eq.u32 %p1, %r1, 3; @%p1 bra SPIN;\n  bar.warp.sync -1;\nret;\nSPIN: bar.sync 0;\nret;\n}\n";
    expect_fault(k2, 1, 32, 32, "deadlock: ", NULL);
}
END_TEST

/* Fences, membar, nanosleep and pmevent leave results alone: every lane stores to shared
 * memory, runs each of them, then reads its neighbour's value after the barrier. */
START_TEST(fences_sleep_pmevent)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.shared .align 4 .u32 sw[64];\n" REGS OUT_TID
        "mov.u32 %r2, sw; shl.b32 %r3, %r1, 2; add.u32 %r4, %r2, %r3; mul.lo.u32 %r5, %r1, 7;"
        " st.shared.u32 [%r4], %r5;\n"
        "membar.cta; membar.gl; membar.sys; fence.sc.cta; fence.acq_rel.gpu; fence.sc.sys;\n"
        "and.b32 %r6, %r1, 15; nanosleep.u32 100; nanosleep.u32 %r6; pmevent 1; pmevent.mask 0x5;\n"
        "bar.sync 0; xor.b32 %r7, %r3, 4; add.u32 %r7, %r2, %r7; ld.shared.u32 %r8, [%r7];"
        " st.global.u32 [%rd3], %r8;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 64, 64, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], (i ^ 1) * 7);
    free(out);
}
END_TEST

/* A spin lock inside one warp: lanes 1..31 spin on a flag in global memory (set to 7 by
 * the host) that lane 0 releases after them in program order; the scheduler must let
 * lane 0 run. */
START_TEST(spin_lock_in_warp)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.eq.u32 %p1, %r1, 0; @%p1 bra REL;\n"
        "SPIN: ld.volatile.global.u32 %r2, [%rd1+128]; setp.eq.u32 %p2, %r2, 7; @%p2 bra SPIN;\n"
        "add.u32 %r3, %r2, %r1; st.global.u32 [%rd3], %r3; ret;\n"
        "REL: mov.u32 %r4, 0;\nWORK: add.u32 %r4, %r4, 1; setp.lt.u32 %p3, %r4, 500; @%p3 bra WORK;\n"
        "st.volatile.global.u32 [%rd1+128], %r4; st.global.u32 [%rd3], 1;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_ext(k, 1, 32, 0, 33, 7, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    ck_assert_uint_eq(out[0], 1);
    for (unsigned i = 1; i < 32; i++)
        ck_assert_uint_eq(out[i], 500 + i);
    free(out);
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * Reconvergence
 *====================================================================*/
/* Lanes meet at a branch's post-dominator even where it lies before one of the arms in
 * the body (an arm placed after the join, which jumps back to it): activemask there shows
 * the whole warp. */
START_TEST(join_before_an_arm)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.lt.u32 %p1, %r1, 16;\n@%p1 bra ARM;\nmov.u32 %r2, 2;\n"
        "J: activemask.b32 %r3; add.u32 %r3, %r3, %r2; st.global.u32 [%rd3], %r3;\nret;\n"
        "ARM: mov.u32 %r2, 1;\nbra.uni J;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 32, 32, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 0xffffffffu + (i < 16 ? 1 : 2));
    free(out);
}
END_TEST

/* Lanes released from a bar.warp.sync that ends an arm are at the join without having run
 * into it: they wait there too. */
START_TEST(join_after_a_wait)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "setp.lt.u32 %p1, %r1, 16;\n@%p1 bra ARM;\nmov.u32 %r2, 2;\nbra.uni J;\n"
        "ARM: setp.ge.u32 %p2, %r1, 8;\n@%p2 bra A2;\nmov.u32 %r2, 3;\nbar.warp.sync 0xffff;\nbra.uni J;\n"
        "A2: mov.u32 %r2, 1;\nbar.warp.sync 0xffff;\n"
        "J: activemask.b32 %r3; add.u32 %r3, %r3, %r2; st.global.u32 [%rd3], %r3;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 32, 32, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 0xffffffffu + (i < 8 ? 3 : i < 16 ? 1 : 2));
    free(out);
}
END_TEST

/* A loop's backward branch splits the warp (lanes leave after 1 to 4 iterations) and its
 * join is past the code after the loop (a break, never taken, leads there): the lanes that
 * leave wait at the join for the others.  Padding moves the split over every place in the
 * warp's turn of instructions: where it was the turn's last instruction, the leaving lanes
 * were resumed next without the join and ran past it alone. */
START_TEST(split_at_the_end_of_a_turn)
{
    for (unsigned pad = 0; pad <= 40; pad++) {
        char k[4096];
        int n = snprintf(k, sizeof k, "%s.visible .entry k(.param .u64 out)\n{\n%s%s", HDR, REGS, OUT_TID);
        n += snprintf(k + n, sizeof k - (size_t)n,
                      "mov.u32 %%r2, 0; mov.u32 %%r6, 0; and.b32 %%r5, %%r1, 3; add.u32 %%r5, %%r5, 1;\nLOOP:\n");
        for (unsigned i = 0; i < pad; i++)
            n += snprintf(k + n, sizeof k - (size_t)n, "add.u32 %%r6, %%r6, 1;\n");
        snprintf(k + n, sizeof k - (size_t)n,
                 "add.u32 %%r2, %%r2, 1;\nsetp.eq.u32 %%p2, %%r2, 100;\n@%%p2 bra OUT;\n"
                 "setp.lt.u32 %%p1, %%r2, %%r5;\n@%%p1 bra LOOP;\nadd.u32 %%r7, %%r2, 1;\nadd.u32 %%r7, %%r7, 1;\n"
                 "OUT: activemask.b32 %%r3; st.global.u32 [%%rd3], %%r3;\nret;\n}\n");
        isa_status_t st;
        uint32_t *out = run_u32(k, 1, 32, 32, &st, NULL);
        ck_assert_int_eq(st, ISA_ST_OK);
        for (unsigned i = 0; i < 32; i++)
            ck_assert_msg(out[i] == 0xffffffffu, "padding %u, lane %u: activemask %08x", pad, i, out[i]);
        free(out);
    }
}
END_TEST

/* Lanes 1..31 spin in a call (not expanded: the callee has local storage) on a flag that
 * lane 0, placed after the call in the body, sets in the caller: the loop yields to the
 * caller's lanes (the old scheduler ran only the innermost activation: a hang). */
START_TEST(spin_in_a_call)
{
    const char *k = HDR ".func wait(.param .b64 f)\n{\n.local .align 4 .u32 loc;\n"
        ".reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;\nld.param.b64 %rd1, [f];\n"
        "L: ld.volatile.global.u32 %r1, [%rd1]; st.local.u32 [loc], %r1; ld.local.u32 %r2, [loc];\n"
        "setp.eq.u32 %p1, %r2, 0; @%p1 bra L;\nret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "add.s64 %rd4, %rd1, 128;\nsetp.eq.u32 %p1, %r1, 0; @%p1 bra SET;\n"
        "{\n.param .b64 a;\nst.param.b64 [a], %rd4;\ncall wait, (a);\n}\nbra.uni J;\n"
        "SET: st.volatile.global.u32 [%rd4], 5;\n"
        "J: activemask.b32 %r3; st.global.u32 [%rd3], %r3;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 32, 33, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 0xffffffffu);
    ck_assert_uint_eq(out[32], 5);
    free(out);
}
END_TEST

/* A loop that ends on what a call returns yields (the call may wait for another lane):
 * lane 0 polls a flag through a function that is not expanded (it uses .local), lane 1
 * sets it after the join.  A loop that only calls and ends by its count does not (golden
 * warp_call_fuzz_30). */
START_TEST(loop_on_a_call_result)
{
    const char *k = HDR ".func (.param .b32 r) poll(.param .b64 f)\n{\n.local .align 4 .u32 loc;\n"
        ".reg .b32 %r<3>; .reg .b64 %rd<2>;\nld.param.b64 %rd1, [f];\n"
        "ld.volatile.global.u32 %r1, [%rd1]; st.local.u32 [loc], %r1; ld.local.u32 %r2, [loc];\n"
        "st.param.b32 [r], %r2;\nret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "add.s64 %rd4, %rd1, 128;\nsetp.ne.u32 %p1, %r1, 0; @%p1 bra J;\n"
        "L: {\n.param .b64 a;\n.param .b32 v;\nst.param.b64 [a], %rd4;\ncall (v), poll, (a);\n"
        "ld.param.b32 %r2, [v];\n}\nsetp.eq.u32 %p2, %r2, 0; @%p2 bra L;\n"
        "J: setp.eq.u32 %p3, %r1, 1; @%p3 st.volatile.global.u32 [%rd4], 7;\n"
        "activemask.b32 %r3; st.global.u32 [%rd3], %r3;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 32, 33, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    ck_assert_uint_eq(out[32], 7);
    free(out);
}
END_TEST

/* A CTA reading a flag through atomics that leave it as it is (atomicAdd(flag, 0),
 * atomicOr(flag, 0), atomicMax(flag, 0)) until a later CTA sets it polls: it gives way
 * after 256 such reads, one worker, instead of spinning through its whole time slice
 * (2^20 warp instructions) while the CTA it waits for stands still (HeCBench's pad). */
START_TEST(atomic_reads_are_polls)
{
    static const char *const op[] = { "add.u32", "or.b32", "max.u32" };
    for (unsigned k = 0; k < 3; k++) {
        char text[2048];
        snprintf(text, sizeof text, "%s.visible .entry k(.param .u64 out)\n{\n%s"
                 "ld.param.u64 %%rd1, [out]; mov.u32 %%r1, %%ctaid.x; mov.u32 %%r2, %%tid.x;\n"
                 "or.b32 %%r3, %%r1, %%r2; setp.ne.u32 %%p1, %%r3, 0; @%%p1 bra S;\n"
                 "L: atom.global.%s %%r4, [%%rd1], 0; setp.eq.u32 %%p2, %%r4, 0; @%%p2 bra L;\n"
                 "st.global.u32 [%%rd1+4], %%r4;\n"
                 "S: setp.ne.u32 %%p3, %%r1, 7; @%%p3 bra E; setp.ne.u32 %%p4, %%r2, 0; @%%p4 bra E;\n"
                 "st.relaxed.gpu.global.u32 [%%rd1], 5;\nE: ret;\n}\n", HDR, REGS, op[k]);
        isa_module_t *m = exu_load(text);
        ex_program_t *p = exu_program(m);
        uint32_t *buf = calloc(64, sizeof *buf);
        exu_map(p, buf, 64 * sizeof *buf);
        uint64_t param = (uint64_t)(uintptr_t)buf;
        ex_launch_t l = { { 8, 1, 1 }, { 32, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
        ex_stats_t st;
        ck_assert_int_eq(ex_launch(p, 0, &l, &param, sizeof param, &st), ISA_ST_OK);
        ck_assert_uint_eq(buf[1], 5);
        ck_assert_msg(st.warp_instrs < 100000, "%s: %llu warp instructions: the spinning CTA did not give way",
                      op[k], (unsigned long long)st.warp_instrs);
        ex_stats_clear(&st);
        free(buf);
        exu_program_free(p);
        isa_module_free(m);
    }
}
END_TEST

/* A lane that runs a counted loop alone keeps the others at the join (lane 1 would set
 * the flag lane 0 reads); a lane group spinning on a volatile flag lets the lane waiting
 * at the join run on and set it (the loop yields). */
START_TEST(counted_and_yielding_loops)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "mov.u32 %r4, 0;\nsetp.ne.u32 %p1, %r1, 0; @%p1 bra J;\nmov.u32 %r2, 0;\n"
        "L: ld.volatile.global.u32 %r5, [%rd1+128]; add.u32 %r4, %r4, %r5; add.u32 %r2, %r2, 1;\n"
        "setp.lt.u32 %p2, %r2, 5000; @%p2 bra L;\n"
        "J: setp.eq.u32 %p3, %r1, 1; @%p3 st.volatile.global.u32 [%rd1+128], 1;\n"
        "st.global.u32 [%rd3], %r4;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 32, 33, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 0);
    ck_assert_uint_eq(out[32], 1);
    free(out);
    /* the spin, its flag read directly or passed through local memory (as a -G build
     * keeps every variable) */
    const char *spin[2] = {
        "ld.volatile.global.u32 %r6, [%rd1+128];",
        "ld.volatile.global.u32 %r5, [%rd1+128]; st.local.u32 [loc], %r5; ld.local.u32 %r6, [loc];",
    };
    for (unsigned v = 0; v < 2; v++) {
        char k2[1024];
        snprintf(k2, sizeof k2, "%s%s%s",
                 HDR ".visible .entry k(.param .u64 out)\n{\n.local .align 4 .u32 loc;\n" REGS OUT_TID
                 "mov.u32 %r4, 0;\nsetp.eq.u32 %p1, %r1, 31; @%p1 bra J;\nL: add.u32 %r4, %r4, 1; ",
                 spin[v],
                 " setp.eq.u32 %p2, %r6, 0; @%p2 bra L;\n"
                 "J: @%p1 st.volatile.global.u32 [%rd1+128], 1;\nmin.u32 %r4, %r4, 1;\n"
                 "st.global.u32 [%rd3], %r4;\nret;\n}\n");
        out = run_u32(k2, 1, 32, 33, &st, NULL);
        ck_assert_int_eq(st, ISA_ST_OK);
        for (unsigned i = 0; i < 32; i++)
            ck_assert_uint_eq(out[i], i < 31);
        free(out);
    }
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * Indirect branches and calls
 *====================================================================*/
START_TEST(brx_idx_divergent)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "rem.u32 %r2, %r1, 3;\nts: .branchtargets A, B, C;\nbrx.idx %r2, ts;\n"
        "C: mov.u32 %r3, 30; bra.uni J;\nA: mov.u32 %r3, 10; bra.uni J;\nB: mov.u32 %r3, 20;\n"
        "J: st.global.u32 [%rd3], %r3;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 64, 64, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], 10 * (i % 3 + 1));
    free(out);
    const char *k2 = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "ts: .branchtargets A, B;\n  brx.idx %r1, ts;\nA: ret;\nB: ret;\n}\n";
    expect_fault(k2, 1, 32, 32, "thread (2,0,0): brx.idx: index 2 outside the 2 targets of ts", NULL);
}
END_TEST

#define FUNCS ".func (.param .b32 r) f0(.param .b32 x)\n{\n.reg .b32 %r<3>; ld.param.b32 %r1, [x];" \
    " add.u32 %r2, %r1, 1000; st.param.b32 [r], %r2; ret;\n}\n" \
    ".func (.param .b32 r) f1(.param .b32 x)\n{\n.reg .b32 %r<3>; .reg .pred %p1; ld.param.b32 %r1, [x];" \
    " setp.lt.u32 %p1, %r1, 8; @%p1 bra E; mul.lo.u32 %r2, %r1, 2; st.param.b32 [r], %r2; ret;\n" \
    "E: st.param.b32 [r], 7; ret;\n}\n" \
    ".func (.param .b32 r) f2(.param .b32 x)\n{\n.reg .b32 %r<3>; .reg .pred %p1; ld.param.b32 %r1, [x];" \
    " setp.eq.u32 %p1, %r1, 5; @%p1 exit; st.param.b32 [r], 5; ret;\n}\n"

/* .reg parameters and results, constants as arguments, and a result dropped with '_':
 * each thread computes (tid * 3 + 41) + 1 through two calls. */
START_TEST(reg_params_and_dropped_result)
{
    const char *k = HDR ".func (.reg .u32 r) f(.reg .u32 a, .reg .u32 b)\n{\nmad.lo.u32 r, a, 3, b; ret;\n}\n"
        ".func (.reg .u32 r) g(.reg .u32 a)\n{\nadd.u32 r, a, 1; ret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "call (%r2), f, (%r1, (40+1));\ncall (_), g, (%r2);\ncall (%r3), g, (%r2);\n"
        "st.global.u32 [%rd3], %r3;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 32, 32, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], i * 3 + 42);
    free(out);
}
END_TEST

/* Calls through a table of function addresses and through a register: the lanes of a
 * warp call different functions, one returns from divergent code, one exits lane 5. */
START_TEST(indirect_calls)
{
    const char *k = HDR FUNCS ".global .align 8 .u64 tab[3] = {f0, f1, f2};\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "rem.u32 %r2, %r1, 3; mul.wide.u32 %rd4, %r2, 8; mov.u64 %rd5, tab; add.s64 %rd5, %rd5, %rd4;"
        " ld.global.u64 %rd6, [%rd5];\n"
        "pr: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b; call (b), %rd6, (a), pr; ld.param.b32 %r3, [b]; }\n"
        "mov.u64 %rd7, f0;\n"
        "{ .param .b32 a; st.param.b32 [a], %r3; .param .b32 b; call (b), %rd7, (a), pr; ld.param.b32 %r4, [b]; }\n"
        "st.global.u32 [%rd3], %r4;\nret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_u32(k, 1, 64, 64, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    for (unsigned i = 0; i < 64; i++) {
        unsigned v = i % 3 == 0 ? i + 1000 : i % 3 == 1 ? (i < 8 ? 7 : 2 * i) : 5;
        ck_assert_msg(out[i] == (i == 5 ? 0 : v + 1000), "thread %u: %u", i, out[i]);
    }
    free(out);
    /* A register that holds no function address. */
    const char *k2 = HDR FUNCS ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID
        "pr: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b; call (b), %rd1, (a), pr; }\nret;\n}\n";
    expect_fault(k2, 1, 32, 32, "indirect call to an address that is not a function", NULL);
    /* A function whose parameter has another size than the prototype's. */
    const char *k3 = HDR ".func (.param .b32 r) w(.param .b64 x)\n{\nst.param.b32 [r], 1; ret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n" REGS OUT_TID "mov.u64 %rd7, w;\n"
        "pr: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b; call (b), %rd7, (a), pr; }\nret;\n}\n";
    expect_fault(k3, 1, 32, 32, "indirect call to w, whose parameters do not match prototype pr", NULL);
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * Special registers
 *====================================================================*/
START_TEST(special_registers)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n.shared .align 4 .b8 pad[100];\n" REGS
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, pad; st.shared.u32 [%r1], 0;\n"
        "mov.u32 %r2, %nsmid; st.global.u32 [%rd1], %r2; mov.u32 %r2, %nwarpid; st.global.u32 [%rd1+4], %r2;\n"
        "mov.u32 %r2, %total_smem_size; st.global.u32 [%rd1+8], %r2;\n"
        "mov.u32 %r2, %aggr_smem_size; st.global.u32 [%rd1+12], %r2;\n"
        "mov.u32 %r2, %dynamic_smem_size; st.global.u32 [%rd1+16], %r2;\n"
        "mov.u32 %r2, %envreg3; st.global.u32 [%rd1+20], %r2; mov.u32 %r2, %pm2; st.global.u32 [%rd1+24], %r2;\n"
        "mov.u32 %r2, %cluster_nctarank; st.global.u32 [%rd1+28], %r2;\n"
        "mov.u32 %r2, %reserved_smem_offset_cap; st.global.u32 [%rd1+32], %r2;\n"
        "mov.u64 %rd2, %clock64; mov.u64 %rd3, %clock64; sub.s64 %rd4, %rd3, %rd2; cvt.u32.u64 %r2, %rd4;"
        " st.global.u32 [%rd1+36], %r2;\n"
        "mov.u64 %rd5, %globaltimer; shr.u64 %rd5, %rd5, 32; cvt.u32.u64 %r2, %rd5; st.global.u32 [%rd1+40], %r2;\n"
        "mov.u32 %r2, %clusterid.x; st.global.u32 [%rd1+44], %r2;\n"
        "mov.pred %p1, %is_explicit_cluster; selp.u32 %r2, 1, 2, %p1; st.global.u32 [%rd1+48], %r2;\n"
        "ret;\n}\n";
    isa_status_t st;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    uint32_t *out = run_ext(k, 1, 1, 3000, 13, 0xdead, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    ck_assert_uint_eq(out[0], 132);
    ck_assert_uint_eq(out[1], 64);
    ck_assert_uint_eq(out[2], 3200);       /* 100 + 3000 rounded up to 128 bytes */
    ck_assert_uint_eq(out[3], 4124);       /* 1024 + 100 + 3000 */
    ck_assert_uint_eq(out[4], 3000);
    ck_assert_uint_eq(out[5], 0);
    ck_assert_uint_eq(out[6], 0);
    ck_assert_uint_eq(out[7], 1);
    ck_assert_uint_eq(out[8], 1024);
    ck_assert_uint_ne(out[9], 0);          /* %clock64 strictly increases */
    ck_assert_uint_le(out[9], 1000);
    /* about the host's real time: the high half read before the launch, or the next one
     * when the low half wrapped meanwhile (it does every 4.3 s) */
    ck_assert(out[10] == (uint32_t)(now >> 32) || out[10] == (uint32_t)(now >> 32) + 1);
    ck_assert_uint_eq(out[11], 0);
    ck_assert_uint_eq(out[12], 2);
    free(out);
}
END_TEST

/* nanosleep: the emulated clock passes the requested time at 1980 cycles per microsecond
 * (the H100's clock, machine.def), rounded up, the longest of the lanes' requests; a
 * request above 1 ms sleeps 1 ms (the manual's bound). */
START_TEST(nanosleep_advances_the_clock)
{
    const char *k = HDR ".visible .entry k(.param .u64 out)\n{\n" REGS
        "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mul.lo.u32 %r3, %r1, 10; add.u32 %r3, %r3, 1000;\n"
        "mov.u64 %rd2, %clock64; nanosleep.u32 %r3; mov.u64 %rd3, %clock64; sub.s64 %rd4, %rd3, %rd2;"
        " cvt.u32.u64 %r2, %rd4; st.global.u32 [%rd1], %r2;\n"
        "mov.u64 %rd2, %clock64; nanosleep.u32 5000000; mov.u64 %rd3, %clock64; sub.s64 %rd4, %rd3, %rd2;"
        " cvt.u32.u64 %r2, %rd4; st.global.u32 [%rd1+4], %r2;\n"
        "ret;\n}\n";
    isa_status_t st;
    uint32_t *out = run_ext(k, 1, 32, 0, 2, 0, &st, NULL);
    ck_assert_int_eq(st, ISA_ST_OK);
    /* lane 31 asks for 1310 ns: 2594 cycles (1310 * 1.98 = 2593.8), plus the instructions */
    ck_assert_uint_ge(out[0], 2594);
    ck_assert_uint_le(out[0], 2594 + 16);
    ck_assert_uint_ge(out[1], 1980000);
    ck_assert_uint_le(out[1], 1980000 + 16);
    free(out);
}
END_TEST
/*}=====================================================================*/

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
    tc = tcase_create("sync");
    tcase_add_test(tc, barrier_ids_and_counts);
    tcase_add_test(tc, barrier_reductions);
    tcase_add_test(tc, barrier_after_exit);
    tcase_add_test(tc, barrier_bad_operands);
    tcase_add_test(tc, deadlock_names_every_warp);
    tcase_add_test(tc, mbarrier_deadlock);
    tcase_add_test(tc, resident_ctas);
    tcase_add_test(tc, cluster_deadlock);
    tcase_add_test(tc, resident_clusters);
    tcase_add_test(tc, warp_sync_after_divergence);
    tcase_add_test(tc, spin_lock_in_warp);
    tcase_add_test(tc, join_before_an_arm);
    tcase_add_test(tc, join_after_a_wait);
    tcase_add_test(tc, split_at_the_end_of_a_turn);
    tcase_add_test(tc, counted_and_yielding_loops);
    tcase_add_test(tc, atomic_reads_are_polls);
    tcase_add_test(tc, spin_in_a_call);
    tcase_add_test(tc, loop_on_a_call_result);
    tcase_add_test(tc, nanosleep_advances_the_clock);
    tcase_add_test(tc, fences_sleep_pmevent);
    suite_add_tcase(s, tc);
    tc = tcase_create("indirect");
    tcase_add_test(tc, brx_idx_divergent);
    tcase_add_test(tc, indirect_calls);
    tcase_add_test(tc, reg_params_and_dropped_result);
    suite_add_tcase(s, tc);
    tc = tcase_create("sreg");
    tcase_add_test(tc, special_registers);
    suite_add_tcase(s, tc);
    return s;
}
