/* check_device.c: the device context: the allocation registry (exact bounds, overlaps
 * refused, lookups while another thread changes it), the worker pool (started once,
 * reused by every launch), CTA slots reused across launches of other shapes and
 * programs, launch observers, and faults returned as values. */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exec/internal.h"
#include "tests/unit/exec/exutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* Without -j the device has a worker per CPU the process may run on (not per CPU
 * online): under taskset or a container's cpuset, more workers would only take turns. */
START_TEST(default_workers_follow_affinity)
{
    cpu_set_t all, one;
    ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
    ex_device_t *d = ex_device_new(NULL);
    unsigned n = (unsigned)CPU_COUNT(&all);
    ck_assert_uint_eq(ex_device_workers(d), n < EX_MAX_WORKERS ? n : EX_MAX_WORKERS);
    ex_device_free(d);
    int first = 0;
    while (!CPU_ISSET(first, &all))
        first++;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
    d = ex_device_new(NULL);
    unsigned got = ex_device_workers(d);
    ex_device_free(d);
    ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
    ck_assert_uint_eq(got, 1);
}
END_TEST

START_TEST(registry_bounds)
{
    ex_device_t *d = ex_device_new(NULL);
    ck_assert_ptr_nonnull(d);
    static uint8_t a[256], b[256];
    uint64_t lo, hi;
    ck_assert(!ex_device_lookup(d, (uintptr_t)a, &lo, &hi));
    ck_assert_int_eq(ex_device_map(d, a, 100), ISA_ST_OK);
    ck_assert_int_eq(ex_device_map(d, b, 256), ISA_ST_OK);
    ck_assert(ex_device_lookup(d, (uintptr_t)a + 99, &lo, &hi));
    ck_assert_uint_eq(lo, (uintptr_t)a);
    ck_assert_uint_eq(hi, (uintptr_t)a + 100);
    ck_assert(!ex_device_lookup(d, (uintptr_t)a + 100, &lo, &hi));
    ck_assert(ex_device_lookup(d, (uintptr_t)b, &lo, &hi));
    ck_assert_uint_eq(hi - lo, 256);
    /* Overlaps, empty ranges and unknown bases are refused. */
    ck_assert_int_eq(ex_device_map(d, a + 50, 10), ISA_ST_USAGE);
    ck_assert_int_eq(ex_device_map(d, a + 99, 1), ISA_ST_USAGE);
    ck_assert_int_eq(ex_device_map(d, a + 100, 0), ISA_ST_USAGE);
    ck_assert_int_eq(ex_device_map(d, a + 100, 20), ISA_ST_OK);   /* adjacent is fine */
    ck_assert_int_eq(ex_device_unmap(d, a + 1), ISA_ST_USAGE);
    ck_assert_int_eq(ex_device_unmap(d, a), ISA_ST_OK);
    ck_assert(!ex_device_lookup(d, (uintptr_t)a, &lo, &hi));
    ck_assert(ex_device_lookup(d, (uintptr_t)a + 100, &lo, &hi));
    ck_assert_int_eq(ex_device_unmap(d, a), ISA_ST_USAGE);
    ex_device_free(d);
}
END_TEST

/* One thread maps and unmaps ranges without pause while another looks up a range
 * that stays mapped: every lookup finds it with its exact bounds. */
typedef struct {
    ex_device_t *d;
    atomic_int   stop;
    uint8_t     *fixed;
    long         lookups, misses;
} race_t;

static void *looker(void *arg)
{
    race_t *r = arg;
    uint64_t lo, hi;
    while (!atomic_load(&r->stop)) {
        if (!ex_device_lookup(r->d, (uintptr_t)r->fixed + 17, &lo, &hi) || lo != (uintptr_t)r->fixed ||
            hi != (uintptr_t)r->fixed + 64)
            r->misses++;
        r->lookups++;
    }
    return NULL;
}

START_TEST(registry_concurrent)
{
    race_t r = { ex_device_new(NULL), 0, malloc(64), 0, 0 };
    ck_assert_int_eq(ex_device_map(r.d, r.fixed, 64), ISA_ST_OK);
    enum { N = 64 };
    uint8_t *bufs[N];
    for (int i = 0; i < N; i++)
        bufs[i] = malloc(32);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, looker, &r), 0);
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(ex_device_map(r.d, bufs[i], 32), ISA_ST_OK);
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(ex_device_unmap(r.d, bufs[i]), ISA_ST_OK);
    }
    atomic_store(&r.stop, 1);
    pthread_join(t, NULL);
    ck_assert_int_eq(r.misses, 0);
    ck_assert_int_gt(r.lookups, 0);
    for (int i = 0; i < N; i++)
        free(bufs[i]);
    free(r.fixed);
    ex_device_free(r.d);
}
END_TEST

/* out[ctaid * ntid + tid] = ctaid * 1000 + tid + add */
static const char *k_index = HDR
    ".visible .entry k(.param .u64 out, .param .u32 add)\n{\n.reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out]; ld.param.u32 %r6, [add]; mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;"
    " mov.u32 %r3, %ntid.x;\n"
    "mad.lo.u32 %r4, %r2, %r3, %r1; mad.lo.u32 %r5, %r2, 1000, %r1; add.u32 %r5, %r5, %r6;\n"
    "mul.wide.u32 %rd2, %r4, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r5;\nret;\n}\n";

static void check_index(const uint32_t *out, unsigned grid, unsigned block, unsigned add)
{
    for (unsigned c = 0; c < grid; c++)
        for (unsigned t = 0; t < block; t++)
            ck_assert_uint_eq(out[c * block + t], c * 1000 + t + add);
}

/* The pool starts once: later launches at -j 2 create no threads; slots made for one
 * block shape or program are not used for another. */
START_TEST(pool_persists)
{
    ex_device_config_t cfg = { .workers = 2 };
    ex_device_t *d = ex_device_new(&cfg);
    isa_module_t *m = exu_load(k_index);
    ex_program_t *p = ex_program_new(d, m);
    uint32_t *out = calloc(64 * 256, 4);
    ck_assert_int_eq(ex_device_map(d, out, 64 * 256 * 4), ISA_ST_OK);
    struct { uint64_t out; uint32_t add; } prm = { (uintptr_t)out, 0 };
    ck_assert_uint_eq(ex_device_threads_started(d), 0);
    unsigned blocks[] = { 64, 256, 33, 256 };
    for (unsigned i = 0; i < 40; i++) {
        unsigned b = blocks[i % 4];
        ex_launch_t l = { { 64, 1, 1 }, { b, 1, 1 }, 0, 2, 0, NULL, 0, false, { 0, 0, 0 }, false };
        prm.add = i;
        ex_stats_t st;
        ck_assert_int_eq(ex_launch(p, 0, &l, &prm, 16, &st), ISA_ST_OK);
        ck_assert_int_eq(st.fault.kind, EX_FAULT_NONE);
        check_index(out, 64, b, i);
        ck_assert_uint_eq(ex_device_threads_started(d), 1);
    }
    /* A second program on the same device, then the first again. */
    isa_module_t *m2 = exu_load(k_index);
    ex_program_t *p2 = ex_program_new(d, m2);
    ex_launch_t l = { { 8, 1, 1 }, { 96, 1, 1 }, 0, 2, 0, NULL, 0, false, { 0, 0, 0 }, false };
    prm.add = 7;
    ck_assert_int_eq(ex_launch(p2, 0, &l, &prm, 16, NULL), ISA_ST_OK);
    check_index(out, 8, 96, 7);
    ex_program_free(p2);
    isa_module_free(m2);
    prm.add = 9;
    ck_assert_int_eq(ex_launch(p, 0, &l, &prm, 16, NULL), ISA_ST_OK);
    check_index(out, 8, 96, 9);
    ck_assert_uint_eq(ex_device_threads_started(d), 1);
    ex_program_free(p);
    ex_device_free(d);
    free(out);
    isa_module_free(m);
}
END_TEST

/* Observers see each launch begin and end, with its statistics. */
typedef struct { int begins, ends; uint64_t instrs; } obs_t;
static void on_begin(void *u, const ex_program_t *p, uint32_t e) { (void)p; (void)e; ((obs_t *)u)->begins++; }
static void on_end(void *u, const ex_program_t *p, uint32_t e, const ex_stats_t *st)
{
    (void)p;
    (void)e;
    ((obs_t *)u)->ends++;
    ((obs_t *)u)->instrs += st->thread_instrs;
}

START_TEST(observers)
{
    ex_device_t *d = ex_device_new(NULL);
    obs_t o = { 0, 0, 0 };
    ex_observer_t ob = { on_begin, on_end, &o };
    ck_assert_int_eq(ex_device_observe(d, &ob), ISA_ST_OK);
    isa_module_t *m = exu_load(k_index);
    ex_program_t *p = ex_program_new(d, m);
    uint32_t *out = calloc(2 * 32, 4);
    ex_device_map(d, out, 2 * 32 * 4);
    struct { uint64_t out; uint32_t add; } prm = { (uintptr_t)out, 0 };
    ex_launch_t l = { { 2, 1, 1 }, { 32, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
    ex_launch(p, 0, &l, &prm, 16, NULL);
    ex_launch(p, 0, &l, &prm, 16, NULL);
    ck_assert_int_eq(o.begins, 2);
    ck_assert_int_eq(o.ends, 2);
    ck_assert_uint_eq(o.instrs, 2 * 2 * 32 * 12);   /* 12 instructions a thread */
    ex_program_free(p);
    ex_device_free(d);
    free(out);
    isa_module_free(m);
}
END_TEST

/* Launch text's entry k on 2 x block threads with a 64-byte buffer; the fault in st.
 * The fault's strings point into the module, freed by the next call (or NULL). */
static isa_status_t fault_of(const char *text, unsigned block, ex_stats_t *st)
{
    static isa_module_t *m;
    isa_module_free(m);
    m = NULL;
    if (!text)
        return ISA_ST_OK;
    m = exu_load(text);
    ex_program_t *p = exu_program(m);
    static uint32_t buf[16];
    exu_map(p, buf, sizeof buf);
    uint64_t prm = (uintptr_t)buf;
    ex_launch_t l = { { 2, 1, 1 }, { block, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
    isa_status_t r = ex_launch(p, isa_module_find_func(m, "k"), &l, &prm, 8, st);
    exu_program_free(p);
    return r;
}

START_TEST(fault_values)
{
    ex_stats_t st;
    /* A store past the buffer by thread 16 of CTA 0. */
    ck_assert_int_eq(fault_of(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
                              "ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4;"
                              " add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\nret;\n}\n", 32, &st),
                     ISA_ST_FAULT);
    ck_assert_int_eq(st.fault.kind, EX_FAULT_ADDRESS);
    ck_assert_str_eq(st.fault.kernel, "k");
    ck_assert(st.fault.has_thread && st.fault.has_addr);
    ck_assert_uint_eq(st.fault.thread[0], 16);
    ck_assert_uint_eq(st.fault.cta[0], 0);
    ck_assert_uint_eq(st.fault.line, 8);
    ck_assert_uint_eq(st.fault.col, 3);
    ck_assert_str_eq(st.fault.file, "t.ptx");
    ck_assert_ptr_null(st.fault.src_file);
    ck_assert_msg(strstr(st.fault.report, "thread (16,0,0): global address outside every allocation"), "%s",
                  st.fault.report);
    ex_stats_clear(&st);
    /* Misaligned, with a .loc line. */
    ck_assert_int_eq(fault_of(HDR ".file 1 \"src.cu\"\n.visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<3>;\n"
                              "ld.param.u64 %rd1, [out]; add.s64 %rd2, %rd1, 2;\n.loc 1 42 7\n"
                              "st.global.u32 [%rd2], 1;\nret;\n}\n", 1, &st), ISA_ST_FAULT);
    ck_assert_int_eq(st.fault.kind, EX_FAULT_MISALIGNED);
    ck_assert_str_eq(st.fault.src_file, "src.cu");
    ck_assert_uint_eq(st.fault.src_line, 42);
    ex_stats_clear(&st);
    /* trap in thread 5 of the second CTA only. */
    ck_assert_int_eq(fault_of(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>; .reg .pred %p1;\n"
                              "mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; add.u32 %r1, %r1, %r2;"
                              " setp.eq.u32 %p1, %r1, 6; @%p1 trap;\nret;\n}\n", 6, &st), ISA_ST_FAULT);
    ck_assert_int_eq(st.fault.kind, EX_FAULT_TRAP);
    ck_assert_uint_eq(st.fault.cta[0], 1);
    ck_assert_uint_eq(st.fault.thread[0], 5);
    ex_stats_clear(&st);
    /* A barrier that warp 1 never reaches. */
    ck_assert_int_eq(fault_of(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>; .reg .pred %p1;\n"
                              "mov.u32 %r1, %tid.x; setp.ge.u32 %p1, %r1, 32; @%p1 bra SPIN;\nbar.sync 0;\nret;\n"
                              "SPIN: bar.sync 1;\nret;\n}\n", 64, &st), ISA_ST_FAULT);
    ck_assert_int_eq(st.fault.kind, EX_FAULT_DEADLOCK);
    ck_assert_msg(strstr(st.fault.report, "warps of the CTA"), "%s", st.fault.report);
    ex_stats_clear(&st);
    /* A block the H100 refuses, and an instruction without semantics: no thread. */
    ck_assert_int_eq(fault_of(HDR ".visible .entry k(.param .u64 out)\n{\nret;\n}\n", 2048, &st), ISA_ST_USAGE);
    ck_assert_int_eq(st.fault.kind, EX_FAULT_REFUSED);
    ck_assert(!st.fault.has_thread);
    ck_assert_msg(strstr(st.fault.report, "CUDA_ERROR_INVALID_VALUE"), "%s", st.fault.report);
    ex_stats_clear(&st);
    fault_of(NULL, 0, NULL);
}
END_TEST

/* Local memory (interleaved per warp): every width, vectors, bytes at odd offsets,
 * frames of nested calls, through generic addresses too; each lane sees its own. */
START_TEST(local_layout)
{
    const char *k = HDR
        ".func (.param .b32 r) f(.param .b32 a)\n{\n.local .align 16 .b8 fr[48];\n"
        ".reg .b32 %r<6>; .reg .b64 %rd<3>;\nld.param.b32 %r1, [a]; mov.u64 %rd1, fr;\n"
        "st.local.v4.u32 [%rd1+16], {%r1, %r1, %r1, %r1}; st.local.u8 [%rd1+3], %r1;\n"
        "ld.local.v4.u32 {%r2, %r3, %r4, %r5}, [%rd1+16]; add.u32 %r2, %r2, %r5;\n"
        "ld.local.u8 %r3, [%rd1+3]; add.u32 %r2, %r2, %r3; st.param.b32 [r], %r2;\nret;\n}\n"
        ".visible .entry k(.param .u64 out)\n{\n.local .align 8 .b8 buf[96];\n"
        ".reg .b32 %r<8>; .reg .b64 %rd<8>;\nld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;\n"
        "mov.u64 %rd4, buf; cvt.u64.u32 %rd5, %r1; st.local.u64 [%rd4+88], %rd5;\n"
        "st.local.u16 [%rd4+6], %r1; st.local.u32 [%rd4+40], %r1;\n"
        "{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b; call.uni (b), f, (a); ld.param.b32 %r2, [b]; }\n"
        "cvta.local.u64 %rd6, %rd4; ld.u64 %rd7, [%rd6+88]; cvt.u32.u64 %r3, %rd7;\n"
        "ld.local.u16 %r4, [%rd4+6]; ld.local.u32 %r5, [%rd4+40];\n"
        "add.u32 %r2, %r2, %r3; add.u32 %r2, %r2, %r4; add.u32 %r2, %r2, %r5;\n"
        "mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r2;\nret;\n}\n";
    uint32_t out[96];
    memset(out, 0, sizeof out);
    ck_assert_int_eq(exu_run(k, 1, 96, 0, out, sizeof out, NULL), ISA_ST_OK);
    /* f gives 2t + (t & 0xff); the entry adds t (u64), t & 0xffff and t. */
    for (unsigned t = 0; t < 96; t++)
        ck_assert_uint_eq(out[t], 2 * t + (t & 0xff) + t + (t & 0xffff) + t);
}
END_TEST

/* Runs p's first entry, (u64 out, u64 arg), on one thread with *out preset; returns
 * whether it faulted. */
static bool launch_word(ex_program_t *p, uint32_t *out, uint64_t arg)
{
    struct { uint64_t out, arg; } prm = { (uintptr_t)out, arg };
    ex_launch_t l = { { 1, 1, 1 }, { 1, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
    ex_stats_t st;
    *out = 0xdead;
    ex_launch(p, 0, &l, &prm, 16, &st);
    bool fault = st.fault.kind != EX_FAULT_NONE;
    ex_stats_clear(&st);
    return fault;
}

/* Module memory as the H100's driver lays it out: the .const bank at a 2 MiB boundary,
 * the .global variables from the next 256-byte boundary each at a 256-byte boundary in
 * order; the padding and the rest of the 2 MiB mapped (a read past a table's end reads
 * the next variable), or, with exact_bounds, each variable alone. */
START_TEST(module_layout)
{
    const char *k = HDR
        ".const .align 4 .b8 kc[40] = {7};\n"
        ".global .align 4 .b8 tab[20] = {1, 0, 0, 0, 2};\n"
        ".global .align 4 .u32 one = 9;\n"
        ".global .align 8 .b8 big[2097152];\n"
        ".visible .entry k(.param .u64 out, .param .u64 at)\n{\n.reg .b32 %r<2>; .reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [at]; ld.global.u32 %r1, [%rd2];\n"
        "st.global.u32 [%rd1], %r1;\nret;\n}\n";
    for (int exact = 0; exact < 2; exact++) {
        ex_device_config_t cfg = { .workers = 1, .exact_bounds = exact };
        ex_device_t *d = ex_device_new(&cfg);
        isa_module_t *m = exu_load(k);
        ex_program_t *p = ex_program_new(d, m);
        ck_assert_ptr_nonnull(p);
        uint64_t v[4];
        for (unsigned i = 0; i < 4; i++)
            v[i] = (uint64_t)(uintptr_t)ex_program_var_host(p, i);
        ck_assert_uint_eq(v[0] % (2u << 20), 0);
        ck_assert_uint_eq(v[1] - v[0], 256);
        ck_assert_uint_eq(v[2] - v[0], 512);
        ck_assert_uint_eq(v[3] - v[0], 768);
        uint32_t *out = calloc(1, 4);
        ck_assert_int_eq(ex_device_map(d, out, 4), ISA_ST_OK);
        /* tab[64]: one; tab[5]: padding; past big to the end of its 2 MiB steps */
        uint64_t at[] = { v[1] + 256, v[1] + 20, v[3] + (2u << 20), v[0] + (4u << 20) - 4, v[0] + (4u << 20) };
        int faults[][5] = { { 0, 0, 0, 0, 1 }, { 0, 1, 1, 1, 1 } };
        uint32_t want[] = { 9, 0, 0, 0 };
        for (unsigned i = 0; i < 5; i++) {
            bool fault = launch_word(p, out, at[i]);
            ck_assert_msg(fault == faults[exact][i], "exact %d access %u: fault %d", exact, i, fault);
            if (!fault)
                ck_assert_uint_eq(*out, want[i]);
        }
        ex_device_unmap(d, out);
        free(out);
        ex_program_free(p);
        ex_device_free(d);
        isa_module_free(m);
    }
}
END_TEST

/* ld.const outside the module's constants reads zeros, as on the H100 (past an array, at
 * a negative offset, beyond 64 KB); with exact_bounds it faults. */
START_TEST(const_outside_bank)
{
    const char *k = HDR ".const .align 4 .u32 kc[10] = {7, 8};\n"
        ".visible .entry k(.param .u64 out, .param .u64 off)\n{\n.reg .b32 %r<2>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [off]; mov.u64 %rd3, kc; add.s64 %rd3, %rd3, %rd2;\n"
        "ld.const.u32 %r1, [%rd3];\nst.global.u32 [%rd1], %r1;\nret;\n}\n";
    for (int exact = 0; exact < 2; exact++) {
        ex_device_config_t cfg = { .workers = 1, .exact_bounds = exact };
        ex_device_t *d = ex_device_new(&cfg);
        isa_module_t *m = exu_load(k);
        ex_program_t *p = ex_program_new(d, m);
        ck_assert_ptr_nonnull(p);
        uint32_t *out = calloc(1, 4);
        ck_assert_int_eq(ex_device_map(d, out, 4), ISA_ST_OK);
        uint64_t off[] = { 4, 40, (uint64_t)-4, 70000 };
        uint32_t want[] = { 8, 0, 0, 0 };
        for (unsigned i = 0; i < 4; i++) {
            bool fault = launch_word(p, out, off[i]);
            ck_assert_msg(fault == (exact && i > 0), "exact %d offset %u: fault %d", exact, i, fault);
            if (!fault)
                ck_assert_uint_eq(*out, want[i]);
        }
        ex_device_unmap(d, out);
        free(out);
        ex_program_free(p);
        ex_device_free(d);
        isa_module_free(m);
    }
}
END_TEST

/* pmevent counts each event once per warp that runs it; pmevent.mask counts each event
 * of its mask. */
START_TEST(pmevent_counts)
{
    ex_device_t *d = ex_device_new(NULL);
    isa_module_t *m = exu_load(HDR ".visible .entry k()\n{\npmevent 3; pmevent.mask 0x0f0;\nret;\n}\n");
    ex_program_t *p = ex_program_new(d, m);
    ex_launch_t l = { { 3, 1, 1 }, { 64, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
    ck_assert_int_eq(ex_launch(p, 0, &l, NULL, 0, NULL), ISA_ST_OK);
    for (unsigned i = 0; i < 16; i++)
        ck_assert_uint_eq(ex_device_pmevent_count(d, i), i == 3 || (i >= 4 && i < 8) ? 6 : 0);
    ex_program_free(p);
    ex_device_free(d);
    isa_module_free(m);
}
END_TEST

/* The device heap: blocks 16-byte aligned, every byte reusable after frees in any order
 * (freed neighbours merge), bad frees reported. */
static unsigned heap_fill(ex_device_t *d, uint64_t size, uint64_t *ptrs, unsigned max)
{
    unsigned n = 0;
    while (n < max) {
        uint64_t out[32] = { 0 }, sz[32] = { size };
        ex_svc_malloc(d, sz, out, 1);
        if (!out[0])
            break;
        ck_assert_uint_eq(out[0] & 15, 0);
        ptrs[n++] = out[0];
    }
    return n;
}

START_TEST(heap_reuse)
{
    ex_device_t *d = ex_device_new(NULL);
    ck_assert_int_eq(ex_device_set_limit(d, EX_LIMIT_HEAP, 1 << 20), ISA_ST_OK);
    enum { MAX = 1 << 16 };
    uint64_t *ptrs = malloc(MAX * sizeof *ptrs);
    ck_assert_ptr_nonnull(ptrs);
    static const uint64_t sizes[] = { 1, 100, 1000, 5000, 70000, 300000 };
    unsigned first[6];
    for (unsigned round = 0; round < 2; round++)
        for (unsigned k = 0; k < 6; k++) {
            unsigned n = heap_fill(d, sizes[k], ptrs, MAX);
            ck_assert_uint_gt(n, 0);
            /* with a 16-byte header, all but less than one block of the heap is handed out */
            if (n < MAX)
                ck_assert_uint_gt((uint64_t)(n + 1) * ((sizes[k] + 15) / 16 * 16 + 16), 1u << 20);
            if (round == 0)
                first[k] = n;
            else
                ck_assert_uint_eq(n, first[k]);   /* the same as from an empty heap */
            /* free the odd blocks, then the even ones backwards: merging both ways */
            for (unsigned i = 1; i < n; i += 2)
                ck_assert_uint_eq(ex_svc_free(d, &ptrs[i], 1), 0xff);
            for (unsigned i = (n - 1) & ~1u;; i -= 2) {
                ck_assert_uint_eq(ex_svc_free(d, &ptrs[i], 1), 0xff);
                if (i == 0)
                    break;
            }
        }
    /* after all that, one block of nearly the whole heap */
    uint64_t big = (1 << 20) - 64, out[32] = { 0 };
    ex_svc_malloc(d, &big, out, 1);
    ck_assert_uint_ne(out[0], 0);
    /* bad frees: twice, inside a block, outside the heap */
    uint64_t inside = out[0] + 16, outside = 4096;
    ck_assert_uint_eq(ex_svc_free(d, &inside, 1), 0);
    ck_assert_uint_eq(ex_svc_free(d, &outside, 1), 0);
    ck_assert_uint_eq(ex_svc_free(d, out, 1), 0xff);
    ck_assert_uint_eq(ex_svc_free(d, out, 1), 0);
    free(ptrs);
    ex_device_free(d);
}
END_TEST

/* Random churn of sizes from 1 byte to 96 KiB: blocks never overlap (each keeps its
 * pattern until freed), and malloc fails only when no free gap between the blocks in use
 * (nor the end of the heap) could hold the request. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

START_TEST(heap_churn_random)
{
    enum { LIVE = 256, HEAP = 1 << 20 };
    ex_device_t *d = ex_device_new(NULL);
    ck_assert_int_eq(ex_device_set_limit(d, EX_LIMIT_HEAP, HEAP), ISA_ST_OK);
    uint64_t ptr[LIVE] = { 0 }, len[LIVE] = { 0 }, base = 0, fails = 0;
    uint32_t seed = 12345;
    for (unsigned step = 0; step < 40000; step++) {
        seed = seed * 1664525u + 1013904223u;
        unsigned i = (seed >> 8) % LIVE;
        if (ptr[i]) {
            const uint8_t *b = (const uint8_t *)(uintptr_t)ptr[i];
            uint64_t k = 0;
            while (k < len[i] && b[k] == (uint8_t)(i * 7 + 1))
                k++;
            ck_assert_uint_eq(k, len[i]);
            ck_assert_uint_eq(ex_svc_free(d, &ptr[i], 1), 0xff);
            ptr[i] = 0;
            continue;
        }
        seed = seed * 1664525u + 1013904223u;
        uint64_t sz = (seed >> 16) % 4 ? 1 + (seed >> 8) % 5000 : 1 + (seed >> 4) % 98304;
        uint64_t out[32] = { 0 };
        ex_svc_malloc(d, &sz, out, 1);
        if (!base)
            base = out[0] - 16;   /* the first block of a fresh heap is its first */
        if (out[0]) {
            ck_assert_uint_eq(out[0] & 15, 0);
            ck_assert_uint_ge(out[0], base + 16);
            ck_assert_uint_le(out[0] + sz, base + HEAP);
            ptr[i] = out[0];
            len[i] = sz;
            memset((void *)(uintptr_t)ptr[i], (uint8_t)(i * 7 + 1), sz);
            continue;
        }
        /* no gap may hold it (a block may keep up to 31 bytes more than asked) */
        fails++;
        uint64_t spans[2 * LIVE + 2];
        unsigned n = 0;
        for (unsigned j = 0; j < LIVE; j++)
            if (ptr[j]) {
                spans[n++] = ptr[j] - 16;
                spans[n++] = ptr[j] + (len[j] + 15) / 16 * 16;
            }
        qsort(spans, n / 2, 2 * sizeof *spans, cmp_u64);
        uint64_t at = base, need = (sz + 15) / 16 * 16 + 16;
        for (unsigned j = 0; j <= n; j += 2) {
            uint64_t next = j < n ? spans[j] : base + HEAP;
            ck_assert_uint_lt(next - at, need + (j < n ? 32 : 0) + (j ? 32 : 0));
            if (j < n)
                at = spans[j + 1];
        }
    }
    ck_assert_uint_gt(fails, 0);   /* the heap filled up now and then */
    for (unsigned i = 0; i < LIVE; i++)
        if (ptr[i])
            ck_assert_uint_eq(ex_svc_free(d, &ptr[i], 1), 0xff);
    uint64_t big = HEAP - 16, out[32] = { 0 };
    ex_svc_malloc(d, &big, out, 1);
    ck_assert_uint_eq(out[0], base + 16);
    ex_device_free(d);
}
END_TEST

Suite *make_device_suite(void)
{
    Suite *s = suite_create("device");
    TCase *tc = tcase_create("device");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, default_workers_follow_affinity);
    tcase_add_test(tc, registry_bounds);
    tcase_add_test(tc, registry_concurrent);
    tcase_add_test(tc, pool_persists);
    tcase_add_test(tc, observers);
    tcase_add_test(tc, fault_values);
    tcase_add_test(tc, local_layout);
    tcase_add_test(tc, module_layout);
    tcase_add_test(tc, const_outside_bank);
    tcase_add_test(tc, pmevent_counts);
    tcase_add_test(tc, heap_reuse);
    tcase_add_test(tc, heap_churn_random);
    suite_add_tcase(s, tc);
    return s;
}
