/* check_atomic.c: atom and red beyond what the goldens can show: the lanes of a warp on
 * one address combined in lane order (the d each lane gets), 16-bit elements next to each
 * other, 128-bit ones, the cache-hint operand, and the faults of atomic accesses. */
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

/* Load text, run entry "k" over grid CTAs of block threads (workers worker threads) with
 * one u64 buffer of n elements, zeroed, as its parameter. */
static run_t run(const char *text, unsigned grid, unsigned block, unsigned workers, unsigned n)
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
    ex_launch_t l = { { grid, 1, 1 }, { block, 1, 1 }, 0, workers, 0, NULL, 0, false, { 0, 0, 0 }, false };
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

/* 32 lanes exchange into one global and one shared slot: lane l reads what lane l - 1
 * put in (lane 0 the initial value), the result of the serial order of the lanes. */
START_TEST(lane_order_exch)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.shared .align 4 .u32 s;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 1;\n"
        "atom.global.exch.b32 %r3, [%rd1], %r2;\n"
        "mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3+8], %r3;\n"
        "atom.shared.exch.b32 %r4, [s], %r2;\nst.global.u32 [%rd3+264], %r4;\n"
        "ret;\n}\n", 1, 32, 1, 80);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    ck_assert_uint_eq(r.out[0], 32);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(r.out[1 + l], l);
        ck_assert_uint_eq(r.out[33 + l], l);
    }
    done(&r);
}
END_TEST

/* Lanes on three addresses: each address gets the sum of its lanes, and each lane the
 * sum of the lanes before it on its address (prefix sums in lane order); a cas chain
 * where lane l expects l and writes l + 1 succeeds for every lane in order. */
START_TEST(lane_groups)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nrem.u32 %r2, %r1, 3;\n"
        "mul.wide.u32 %rd2, %r2, 8;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "atom.global.add.u32 %r3, [%rd3], %r1;\n"
        "mul.wide.u32 %rd4, %r1, 8;\nadd.s64 %rd5, %rd1, %rd4;\nst.global.u32 [%rd5+32], %r3;\n"
        "add.u32 %r4, %r1, 1;\natom.global.cas.b32 %r5, [%rd1+24], %r1, %r4;\n"
        "st.global.u32 [%rd5+288], %r5;\n"
        "ret;\n}\n", 1, 32, 1, 80);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    uint64_t sum[3] = { 0, 0, 0 };
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(r.out[4 + l], sum[l % 3]);
        sum[l % 3] += l;
        ck_assert_uint_eq(r.out[36 + l], l);
    }
    for (unsigned k = 0; k < 3; k++)
        ck_assert_uint_eq(r.out[k], sum[k]);
    ck_assert_uint_eq(r.out[3], 32);
    done(&r);
}
END_TEST

/* 16-bit compare-and-swap on the two halves of one word from different workers: neither
 * disturbs the other (no enclosing word is written). */
START_TEST(b16_neighbours)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .pred %p<2>;\n.reg .b16 %h<6>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %ctaid.x;\nand.b32 %r2, %r1, 1;\n"
        "mul.wide.u32 %rd2, %r2, 2;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "ld.volatile.global.u16 %h1, [%rd3];\n"
        "LOOP:\nadd.u16 %h2, %h1, 1;\natom.global.cas.b16 %h3, [%rd3], %h1, %h2;\n"
        "setp.ne.u16 %p1, %h3, %h1;\nmov.u16 %h1, %h3;\n@%p1 bra LOOP;\n"
        "ret;\n}\n", 64, 64, 2, 1);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    ck_assert_uint_eq(r.out[0] & 0xffff, 32 * 64);
    ck_assert_uint_eq(r.out[0] >> 16 & 0xffff, 32 * 64);
    done(&r);
}
END_TEST

/* Every thread of 32 CTAs on two workers: 64-bit adds, a 128-bit compare-and-swap loop,
 * an f32 add of ones and the cache-hint form, all exact sums. */
START_TEST(workers_sums)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .pred %p<3>;\n.reg .b32 %r<6>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<16>;\n.reg .b128 %q<4>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
        "cvt.u64.u32 %rd2, %r1;\n"
        "red.global.add.u64 [%rd1], %rd2;\n"
        "atom.global.add.L2::cache_hint.u64 %rd3, [%rd1+8], 1, %rd1;\n"
        "atom.global.add.f32 %f1, [%rd1+16], 0f3F800000;\n"
        "ld.volatile.global.v2.u64 {%rd4, %rd5}, [%rd1+32];\n"
        "LOOP:\nadd.s64 %rd6, %rd4, 1;\nadd.s64 %rd7, %rd5, %rd2;\n"
        "mov.b128 %q1, {%rd4, %rd5};\nmov.b128 %q2, {%rd6, %rd7};\n"
        "atom.global.cas.b128 %q3, [%rd1+32], %q1, %q2;\nmov.b128 {%rd8, %rd9}, %q3;\n"
        "setp.ne.s64 %p1, %rd8, %rd4;\nsetp.ne.s64 %p2, %rd9, %rd5;\nor.pred %p1, %p1, %p2;\n"
        "mov.u64 %rd4, %rd8;\nmov.u64 %rd5, %rd9;\n@%p1 bra LOOP;\n"
        "ret;\n}\n", 32, 128, 2, 6);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    ck_assert_uint_eq(r.out[0], 32ull * (127 * 128 / 2));
    ck_assert_uint_eq(r.out[1], 32 * 128);
    float f;
    uint32_t u = (uint32_t)r.out[2];
    memcpy(&f, &u, 4);
    ck_assert(f == 4096.0f);
    ck_assert_uint_eq(r.out[4], 32 * 128);
    ck_assert_uint_eq(r.out[5], 32ull * (127 * 128 / 2));
    done(&r);
}
END_TEST

/* Faults: a misaligned atom (the whole access's alignment: 16 bytes for b128), generic
 * addresses of constant and local memory, a vector atom on shared memory. */
START_TEST(faults)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [out];\natom.global.add.u32 %r1, [%rd1+2], 1;\nret;\n}\n", 1, 1, 1, 4);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "misaligned address") && strstr(r.diag, "m.ptx:9:1: atom.global.add.u32"),
                  "%s", r.diag);
    done(&r);
    r = run(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<3>;\n.reg .b128 %q<3>;\n"
        "ld.param.u64 %rd1, [out];\nmov.b128 %q1, {%rd1, %rd1};\n"
        "atom.global.exch.b128 %q2, [%rd1+8], %q1;\nret;\n}\n", 1, 1, 1, 4);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "misaligned address"), "%s", r.diag);
    done(&r);
    r = run(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
        "mov.u64 %rd2, 0xD000000000000000;\n"   /* the constant window (exec/internal.h) */
        "atom.add.u32 %r1, [%rd2], 1;\nret;\n}\n", 1, 1, 1, 4);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "atomic operation on a constant address"), "%s", r.diag);
    done(&r);
    r = run(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
        ".local .align 4 .u32 loc;\nmov.u64 %rd1, loc;\ncvta.local.u64 %rd2, %rd1;\n"
        "atom.add.u32 %r1, [%rd2], 1;\nret;\n}\n", 1, 1, 1, 4);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "atomic operation on a local address"), "%s", r.diag);
    done(&r);
    r = run(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .f32 %f<5>;\n.reg .b64 %rd<3>;\n"
        ".shared .align 8 .b8 s[8];\ncvta.shared.u64 %rd2, s;\nmov.f32 %f1, 0f3F800000;\n"
        "atom.add.v2.f32 {%f2, %f3}, [%rd2], {%f1, %f1};\nret;\n}\n", 1, 1, 1, 4);
    ck_assert_int_eq(r.st, ISA_ST_FAULT);
    ck_assert_msg(strstr(r.diag, "vector atomic operation on a shared address"), "%s", r.diag);
    done(&r);
}
END_TEST

/* Every fence form runs (as a host fence), and the ordered loads and stores move the right
 * values: vectors, shared memory, .volatile, .mmio-free relaxed forms. */
START_TEST(fences_and_orders)
{
    run_t r = run(HDR ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.shared .align 16 .b8 s[16];\n"
        "ld.param.u64 %rd1, [out];\n"
        "fence.sc.gpu;\nfence.acq_rel.cta;\nfence.sc.cluster;\nfence.acq_rel.sys;\nmembar.cta;\nmembar.gl;\n"
        "membar.sys;\nfence.proxy.alias;\nfence.proxy.async;\nfence.proxy.async.global;\n"
        "fence.proxy.async.shared::cta;\nmembar.proxy.alias;\nfence.mbarrier_init.release.cluster;\n"
        "fence.proxy.tensormap::generic.release.gpu;\n"
        "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;\n"
        "fence.release.sync_restrict::shared::cta.cluster;\n"
        "fence.acquire.sync_restrict::shared::cluster.cluster;\n"
        "mov.u32 %r1, 7;\nmov.u32 %r2, 9;\n"
        "st.release.gpu.global.v2.u32 [%rd1], {%r1, %r2};\n"
        "ld.acquire.gpu.global.v2.u32 {%r3, %r4}, [%rd1];\n"
        "st.relaxed.cta.shared.u32 [s+4], %r3;\nld.volatile.shared.u32 %r5, [s+4];\n"
        "st.volatile.global.u32 [%rd1+8], %r5;\nld.relaxed.sys.global.s32 %rd2, [%rd1+4];\n"
        "st.relaxed.gpu.global.u64 [%rd1+16], %rd2;\n"
        "ret;\n}\n", 1, 1, 2, 4);
    ck_assert_int_eq(r.st, ISA_ST_OK);
    ck_assert_uint_eq(r.out[0], 7 | 9ull << 32);
    ck_assert_uint_eq(r.out[1], 7);
    ck_assert_uint_eq(r.out[2], 9);
    done(&r);
}
END_TEST

Suite *make_atomic_suite(void)
{
    Suite *s = suite_create("atomic");
    TCase *tc = tcase_create("atomic");
    tcase_add_test(tc, lane_order_exch);
    tcase_add_test(tc, lane_groups);
    tcase_add_test(tc, b16_neighbours);
    tcase_add_test(tc, workers_sums);
    tcase_add_test(tc, faults);
    tcase_add_test(tc, fences_and_orders);
    suite_add_tcase(s, tc);
    return s;
}
