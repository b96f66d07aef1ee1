/* check_compare.c: runtime/compare.c: ulp distances, the report of two runs' output
 * buffers, and a comparison run driven through stand-in backends (no GPU needed);
 * also rt_args_copy and the test backend "flip" (runtime/backend.c). */
#include <unistd.h>

#include "helpers.h"

/* Capture what f prints into a malloc'd string. */
typedef struct {
    char  *buf;
    size_t len;
    FILE  *f;
} capture_t;

static void cap_open(capture_t *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
}

static char *cap_close(capture_t *c)
{
    fclose(c->f);
    return c->buf;
}

/*{=====================================================================
 * rt_float_ulp
 *====================================================================*/

static rt_fdiff_t ulp32(uint32_t x, uint32_t y, uint64_t *d) { return rt_float_ulp(ISA_T_F32, &x, &y, d); }
static rt_fdiff_t ulp64(uint64_t x, uint64_t y, uint64_t *d) { return rt_float_ulp(ISA_T_F64, &x, &y, d); }
static rt_fdiff_t ulp16(isa_type_t t, uint16_t x, uint16_t y, uint64_t *d) { return rt_float_ulp(t, &x, &y, d); }

START_TEST(ulp_f32)
{
    uint64_t d;
    ck_assert_int_eq(ulp32(0x3f800000, 0x3f800001, &d), RT_FDIFF_ULP);   /* 1 and its successor */
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(ulp32(0x3f800001, 0x3f800000, &d), RT_FDIFF_ULP);   /* symmetric */
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(ulp32(0x3f800000, 0x7f800000, &d), RT_FDIFF_ULP);   /* bit 30 flipped: 1 vs inf */
    ck_assert_uint_eq(d, 0x40000000);
    ck_assert_int_eq(ulp32(0x40a00000, 0xc0a00000, &d), RT_FDIFF_ULP);   /* 5 vs -5: twice the key */
    ck_assert_uint_eq(d, 2ull * 0x40a00000);
    ck_assert_int_eq(ulp32(0x00000001, 0x80000001, &d), RT_FDIFF_ULP);   /* across zero */
    ck_assert_uint_eq(d, 2);
    ck_assert_int_eq(ulp32(0x80000000, 0x00000001, &d), RT_FDIFF_ULP);   /* -0 to the least subnormal */
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(ulp32(0x7f7fffff, 0x7f800000, &d), RT_FDIFF_ULP);   /* largest finite vs inf */
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(ulp32(0xff800000, 0x7f800000, &d), RT_FDIFF_ULP);   /* -inf vs inf */
    ck_assert_uint_eq(d, 2ull * 0x7f800000);
    ck_assert_int_eq(ulp32(0x00000000, 0x80000000, &d), RT_FDIFF_ZERO_SIGN);
    ck_assert_int_eq(ulp32(0x7fc00000, 0x7fc00001, &d), RT_FDIFF_NAN);   /* payloads */
    ck_assert_int_eq(ulp32(0x7fc00000, 0xffc00000, &d), RT_FDIFF_NAN);   /* signs */
    ck_assert_int_eq(ulp32(0x7fffffff, 0x7f800001, &d), RT_FDIFF_NAN);   /* quiet vs signalling */
    ck_assert_int_eq(ulp32(0x7fc00000, 0x3f800000, &d), RT_FDIFF_NAN_ONE);
    ck_assert_int_eq(ulp32(0x7f800000, 0x7f800001, &d), RT_FDIFF_NAN_ONE);   /* inf vs the nearest NaN */
}
END_TEST

START_TEST(ulp_f64)
{
    uint64_t d;
    ck_assert_int_eq(ulp64(0x3ff0000000000000ull, 0x3ff0000000000001ull, &d), RT_FDIFF_ULP);
    ck_assert_uint_eq(d, 1);
    /* The widest distance still fits: -inf to inf. */
    ck_assert_int_eq(ulp64(0xfff0000000000000ull, 0x7ff0000000000000ull, &d), RT_FDIFF_ULP);
    ck_assert_uint_eq(d, 0xffe0000000000000ull);
    ck_assert_int_eq(ulp64(0x7ff0000000000000ull, 0xfff0000000000000ull, &d), RT_FDIFF_ULP);
    ck_assert_uint_eq(d, 0xffe0000000000000ull);
    ck_assert_int_eq(ulp64(0x8000000000000000ull, 0, &d), RT_FDIFF_ZERO_SIGN);
    ck_assert_int_eq(ulp64(0x7ff8000000000000ull, 0x7ff8000000000001ull, &d), RT_FDIFF_NAN);
    ck_assert_int_eq(ulp64(0x7ff8000000000000ull, 0x7ff0000000000000ull, &d), RT_FDIFF_NAN_ONE);
}
END_TEST

/* f16 and bf16 share a width but not a layout: 0x7e00 is a NaN in f16, a number in bf16. */
START_TEST(ulp_f16_bf16)
{
    uint64_t d;
    ck_assert_int_eq(ulp16(ISA_T_F16, 0x3c00, 0x3c01, &d), RT_FDIFF_ULP);
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(ulp16(ISA_T_F16, 0x7bff, 0x7c00, &d), RT_FDIFF_ULP);
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(ulp16(ISA_T_F16, 0x7c00, 0x7c01, &d), RT_FDIFF_NAN_ONE);
    ck_assert_int_eq(ulp16(ISA_T_F16, 0x7e00, 0x7e01, &d), RT_FDIFF_NAN);
    ck_assert_int_eq(ulp16(ISA_T_F16, 0x8000, 0x0000, &d), RT_FDIFF_ZERO_SIGN);
    ck_assert_int_eq(ulp16(ISA_T_BF16, 0x7e00, 0x7e01, &d), RT_FDIFF_ULP);
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(ulp16(ISA_T_BF16, 0x7f80, 0x7f81, &d), RT_FDIFF_NAN_ONE);
    ck_assert_int_eq(ulp16(ISA_T_BF16, 0x7fc0, 0x7fc1, &d), RT_FDIFF_NAN);
    ck_assert_int_eq(ulp16(ISA_T_BF16, 0x3f80, 0xbf80, &d), RT_FDIFF_ULP);   /* 1 vs -1 */
    ck_assert_uint_eq(d, 2 * 0x3f80);
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * rt_args_copy and rt_compare_buffers
 *====================================================================*/

static isa_module_t *m;
static rt_args_t x, y;

/* Three output buffers (f32, s8, f64 to a file), a scalar and an input buffer. */
static void setup(void)
{
    m = rt_test_module(".param .u64 a, .param .u32 n, .param .u64 b, .param .u64 c, .param .u64 d");
    const char *argv[] = { "f32[4]=1:out", "4", "s8[]=-1,2,3:out", "u32[4]=rand(3)", "f64[2]=0.5:out=unused.bin" };
    ck_assert_int_eq(rt_test_parse(m, 5, argv, &x, NULL), ISA_ST_OK);
    ck_assert_int_eq(rt_args_copy(&x, &y), ISA_ST_OK);
}

static void teardown(void)
{
    rt_args_free(&x);
    rt_args_free(&y);
    isa_module_free(m);
}

/* Element i of parameter k's buffer in a. */
static uint8_t *elem(rt_args_t *a, uint32_t k, uint64_t i)
{
    rt_buffer_t *b = &a->bufs[a->param_buffer[k]];
    return (uint8_t *)b->host + i * (isa_types[b->type].bits / 8);
}

static char *compare(unsigned shown, rt_cmp_summary_t *out_s)
{
    capture_t c;
    cap_open(&c);
    *out_s = rt_compare_buffers(&x, "emu", &y, "gpu", shown, c.f);
    return cap_close(&c);
}

START_TEST(copy_is_independent)
{
    ck_assert_uint_eq(y.nbuf, x.nbuf);
    ck_assert_uint_eq(y.params_size, x.params_size);
    for (uint32_t k = 0; k < x.nparam; k++) {
        ck_assert_int_eq(y.param_buffer[k], x.param_buffer[k]);
        ck_assert_uint_eq(y.param_offset[k], x.param_offset[k]);
        if (x.param_buffer[k] < 0) {
            ck_assert_mem_eq(y.params + y.param_offset[k], x.params + x.param_offset[k], 4);
            continue;
        }
        const rt_buffer_t *bx = &x.bufs[x.param_buffer[k]], *by = &y.bufs[y.param_buffer[k]];
        uint64_t addr;
        memcpy(&addr, y.params + y.param_offset[k], 8);
        ck_assert_ptr_eq((void *)(uintptr_t)addr, by->host);   /* the copy's block names the copy's buffer */
        ck_assert_ptr_ne(by->host, bx->host);
        ck_assert_mem_eq(by->host, bx->host, bx->bytes);
        ck_assert_int_eq(by->type, bx->type);
        ck_assert_int_eq(by->out, bx->out);
    }
    ck_assert_str_eq(y.bufs[3].out_path, "unused.bin");
    ck_assert_ptr_ne(y.bufs[3].out_path, x.bufs[3].out_path);
}
END_TEST

START_TEST(identical)
{
    rt_cmp_summary_t s;
    elem(&y, 3, 0)[0] ^= 1;   /* an input buffer is not compared */
    char *r = compare(10, &s);
    ck_assert_str_eq(r, "compare: 3 buffers, 9 elements, identical (emu vs gpu)\n");
    ck_assert_uint_eq(s.nbuf, 3);
    ck_assert_uint_eq(s.nelem, 9);
    ck_assert_uint_eq(s.nbuf_diff, 0);
    ck_assert_uint_eq(s.nelem_diff, 0);
    free(r);
}
END_TEST

START_TEST(one_bit_f32)
{
    rt_cmp_summary_t s;
    elem(&y, 0, 2)[0] ^= 1;
    char *r = compare(10, &s);
    ck_assert_str_eq(r, "compare: arg0 f32[4]: 1 element differs (emu vs gpu)\n"
                        "  [2] emu 0x3f800000 (1), gpu 0x3f800001 (1.0000001): 1 ulp\n"
                        "compare: 1 of 3 buffers differs, 1 of 9 elements (emu vs gpu)\n");
    ck_assert_uint_eq(s.nbuf_diff, 1);
    ck_assert_uint_eq(s.nelem_diff, 1);
    free(r);
}
END_TEST

START_TEST(huge_and_special_f32)
{
    rt_cmp_summary_t s;
    elem(&y, 0, 0)[3] ^= 0x40;                               /* bit 30: 1 becomes inf */
    memcpy(elem(&x, 0, 1), &(uint32_t){ 0x00000000 }, 4);   /* +0 vs -0 */
    memcpy(elem(&y, 0, 1), &(uint32_t){ 0x80000000 }, 4);
    memcpy(elem(&x, 0, 2), &(uint32_t){ 0x7fc00000 }, 4);   /* NaN payloads */
    memcpy(elem(&y, 0, 2), &(uint32_t){ 0x7fc00001 }, 4);
    memcpy(elem(&y, 0, 3), &(uint32_t){ 0xffc00000 }, 4);   /* 1 vs NaN */
    char *r = compare(10, &s);
    ck_assert_str_eq(r, "compare: arg0 f32[4]: 4 elements differ (emu vs gpu)\n"
                        "  [0] emu 0x3f800000 (1), gpu 0x7f800000 (inf): 1073741824 ulp\n"
                        "  [1] emu 0x00000000 (0), gpu 0x80000000 (-0): zeros of opposite sign\n"
                        "  [2] emu 0x7fc00000 (nan), gpu 0x7fc00001 (nan): NaNs of different sign or payload\n"
                        "  [3] emu 0x3f800000 (1), gpu 0xffc00000 (nan): NaN and a number\n"
                        "compare: 1 of 3 buffers differs, 4 of 9 elements (emu vs gpu)\n");
    free(r);
}
END_TEST

START_TEST(integers)
{
    rt_cmp_summary_t s;
    elem(&y, 2, 0)[0] ^= 0x80;   /* s8 -1 becomes 127 */
    elem(&y, 2, 2)[0] ^= 0x01;   /* 3 becomes 2 */
    char *r = compare(10, &s);
    ck_assert_str_eq(r, "compare: arg2 s8[3]: 2 elements differ (emu vs gpu)\n"
                        "  [0] emu 0xff (-1), gpu 0x7f (127)\n"
                        "  [2] emu 0x03 (3), gpu 0x02 (2)\n"
                        "compare: 1 of 3 buffers differs, 2 of 9 elements (emu vs gpu)\n");
    free(r);
}
END_TEST

/* Buffers are reported in parameter order; a :out=PATH buffer is compared too. */
START_TEST(several_buffers)
{
    rt_cmp_summary_t s;
    elem(&y, 4, 1)[0] ^= 1;
    elem(&y, 0, 3)[3] ^= 0x80;
    char *r = compare(10, &s);
    ck_assert_str_eq(r, "compare: arg0 f32[4]: 1 element differs (emu vs gpu)\n"
                        "  [3] emu 0x3f800000 (1), gpu 0xbf800000 (-1): 2130706432 ulp\n"
                        "compare: arg4 f64[2]: 1 element differs (emu vs gpu)\n"
                        "  [1] emu 0x3fe0000000000000 (0.5), gpu 0x3fe0000000000001 (0.5000000000000001): 1 ulp\n"
                        "compare: 2 of 3 buffers differ, 2 of 9 elements (emu vs gpu)\n");
    ck_assert_uint_eq(s.nbuf, 3);
    ck_assert_uint_eq(s.nbuf_diff, 2);
    ck_assert_uint_eq(s.nelem_diff, 2);
    free(r);
}
END_TEST

/* Only the first few differences are shown; the count covers all of them. */
START_TEST(many_differences)
{
    isa_module_t *m1 = rt_test_module(".param .u64 a, .param .u64 b");
    const char *argv[] = { "u16[40]=iota:out", "u32[3]:out" };
    rt_args_t a1, a2;
    ck_assert_int_eq(rt_test_parse(m1, 2, argv, &a1, NULL), ISA_ST_OK);
    ck_assert_int_eq(rt_args_copy(&a1, &a2), ISA_ST_OK);
    for (uint64_t i = 5; i < 30; i++)
        elem(&a2, 0, i)[1] ^= 0x10;
    capture_t c;
    cap_open(&c);
    rt_cmp_summary_t s = rt_compare_buffers(&a1, "emu", &a2, "cuda", 3, c.f);
    char *r = cap_close(&c);
    ck_assert_str_eq(r, "compare: arg0 u16[40]: 25 elements differ (emu vs cuda)\n"
                        "  [5] emu 0x0005 (5), cuda 0x1005 (4101)\n"
                        "  [6] emu 0x0006 (6), cuda 0x1006 (4102)\n"
                        "  [7] emu 0x0007 (7), cuda 0x1007 (4103)\n"
                        "  ... and 22 more\n"
                        "compare: 1 of 2 buffers differs, 25 of 43 elements (emu vs cuda)\n");
    ck_assert_uint_eq(s.nelem_diff, 25);
    ck_assert_uint_eq(s.nelem, 43);
    free(r);
    rt_args_free(&a1);
    rt_args_free(&a2);
    isa_module_free(m1);
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * rt_compare_run through stand-in backends
 *====================================================================*/

/* A stand-in's settings: what it does, and what it saw. */
typedef struct {
    isa_status_t check_st;  /* check's answer */
    isa_status_t run_st;    /* run's answer (OK: fill the output buffers with fill) */
    uint8_t      fill;
    unsigned     runs;      /* how often run was called */
    uint8_t      seen[64];  /* the first bytes of the first buffer when run began */
} stand_t;

static isa_status_t stand_check(const rt_backend_t *self, const rt_job_t *job, FILE *diag)
{
    (void)job;
    const stand_t *s = self->conf;
    if (s->check_st != ISA_ST_OK)
        fprintf(diag, "%s: not here\n", self->name);
    return s->check_st;
}

static isa_status_t stand_run(const rt_backend_t *self, const rt_job_t *job, rt_args_t *a, FILE *diag)
{
    (void)job;
    stand_t *s = (stand_t *)self->conf;
    s->runs++;
    if (a->nbuf)
        memcpy(s->seen, a->bufs[0].host, a->bufs[0].bytes < 64 ? a->bufs[0].bytes : 64);
    if (s->run_st != ISA_ST_OK) {
        fprintf(diag, "%s: it went wrong\n", self->name);
        return s->run_st;
    }
    for (uint32_t i = 0; i < a->nbuf; i++)
        if (a->bufs[i].out || a->bufs[i].out_path)
            memset(a->bufs[i].host, s->fill, a->bufs[i].bytes);
    return ISA_ST_OK;
}

static stand_t sx, sy;
static rt_backend_t bx = { "emu", stand_check, stand_run, &sx };
static rt_backend_t by = { "gpu", stand_check, stand_run, &sy };

static void stand_setup(void)
{
    memset(&sx, 0, sizeof sx);
    memset(&sy, 0, sizeof sy);
    sx.fill = sy.fill = 7;
    m = rt_test_module(".param .u64 a, .param .u64 b");
}

static void stand_teardown(void)
{
    isa_module_free(m);
}

/* Run the comparison of kernel m with argv; out and diag captured. */
static rt_cmp_result_t run2(const rt_backend_t *x_, const rt_backend_t *y_, int argc, const char **argv,
                            char **out_text, char **diag_text)
{
    ex_launch_t l = { { 1, 1, 1 }, { 1, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false };
    rt_job_t job = { m, 0, &l };
    capture_t o, d;
    cap_open(&o);
    cap_open(&d);
    rt_cmp_result_t r = rt_compare_run(&job, x_, y_, argc, (char **)argv, o.f, d.f);
    *out_text = cap_close(&o);
    *diag_text = cap_close(&d);
    return r;
}

START_TEST(results_are_exit_statuses)
{
    ck_assert_int_eq(RT_CMP_SAME, 0);
    ck_assert_int_eq(RT_CMP_FAULT, 1);
    ck_assert_int_eq(RT_CMP_ERROR, 2);
    ck_assert_int_eq(RT_CMP_DIFFER, 3);
}
END_TEST

/* Random inputs are generated once: both sides see the same bytes. */
START_TEST(run_same_inputs)
{
    const char *argv[] = { "u64[8]=rand(11)", "f32[4]:out" };
    char *out, *diag;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_SAME);
    ck_assert_str_eq(out, "compare: 1 buffer, 4 elements, identical (emu vs gpu)\n");
    ck_assert_str_eq(diag, "");
    ck_assert_uint_eq(sx.runs, 1);
    ck_assert_uint_eq(sy.runs, 1);
    ck_assert_mem_eq(sx.seen, sy.seen, 64);
    uint64_t first;
    memcpy(&first, sx.seen, 8);
    ck_assert_uint_ne(first, 0);
    free(out);
    free(diag);
}
END_TEST

START_TEST(run_differ)
{
    const char *argv[] = { "u8[2]=1,2:out", "f32[1]" };
    char *out, *diag;
    sy.fill = 9;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_DIFFER);
    ck_assert_str_eq(out, "compare: arg0 u8[2]: 2 elements differ (emu vs gpu)\n"
                          "  [0] emu 0x07 (7), gpu 0x09 (9)\n"
                          "  [1] emu 0x07 (7), gpu 0x09 (9)\n"
                          "compare: 1 of 1 buffer differs, 2 of 2 elements (emu vs gpu)\n");
    free(out);
    free(diag);
}
END_TEST

/* A fault on either side is named; both sides run; nothing is compared. */
START_TEST(run_fault)
{
    const char *argv[] = { "u8[2]:out", "f32[1]" };
    char *out, *diag;
    sy.run_st = ISA_ST_FAULT;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_FAULT);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(diag, "gpu: it went wrong\ncompare: the gpu run faulted\n");
    free(out);
    free(diag);
    sx.run_st = ISA_ST_FAULT;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_FAULT);
    ck_assert_str_eq(diag, "emu: it went wrong\ncompare: the emu run faulted\n"
                           "gpu: it went wrong\ncompare: the gpu run faulted\n");
    ck_assert_uint_eq(sy.runs, 2);
    free(out);
    free(diag);
}
END_TEST

/* A side that cannot run at all outranks a fault on the other. */
START_TEST(run_refused_outranks_fault)
{
    const char *argv[] = { "u8[2]:out", "f32[1]" };
    char *out, *diag;
    sx.run_st = ISA_ST_FAULT;
    sy.run_st = ISA_ST_SYNTAX;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_ERROR);
    ck_assert_msg(strstr(diag, "compare: the gpu run refused the PTX\n") != NULL, "%s", diag);
    free(out);
    free(diag);
    sx.run_st = ISA_ST_SYNTAX;
    sy.run_st = ISA_ST_FAULT;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_ERROR);
    free(out);
    free(diag);
}
END_TEST

/* No GPU: said before anything runs. */
START_TEST(run_side_absent)
{
    const char *argv[] = { "u8[2]:out", "f32[1]" };
    char *out, *diag;
    sy.check_st = ISA_ST_UNSUPPORTED;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_ERROR);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(diag, "gpu: not here\ncompare: the gpu side cannot run here: nothing compared\n");
    ck_assert_uint_eq(sx.runs + sy.runs, 0);
    free(out);
    free(diag);
}
END_TEST

START_TEST(run_bad_arguments)
{
    const char *argv[] = { "u8[2]:out", "bogus[1]" };
    char *out, *diag;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_ERROR);
    ck_assert_msg(strstr(diag, "ptxrun: error: argument 1") != NULL, "%s", diag);
    ck_assert_uint_eq(sx.runs + sy.runs, 0);
    free(out);
    free(diag);
}
END_TEST

/* :out=PATH gets the first side's (the emulator's) results, also when the sides differ. */
START_TEST(run_out_path_gets_first_side)
{
    char path[] = "/tmp/ptxemu-compare-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char arg[64];
    snprintf(arg, sizeof arg, "u8[3]:out=%s", path);
    const char *argv[] = { arg, "f32[1]" };
    char *out, *diag;
    sx.fill = 0x41;
    sy.fill = 0x42;
    ck_assert_int_eq(run2(&bx, &by, 2, argv, &out, &diag), RT_CMP_DIFFER);
    ck_assert_msg(strstr(out, "compare: arg0 u8[3]: 3 elements differ (emu vs gpu)\n") != NULL, "%s", out);
    char got[8] = { 0 };
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fread(got, 1, sizeof got, f), 3);
    fclose(f);
    unlink(path);
    ck_assert_str_eq(got, "AAA");
    free(out);
    free(diag);
}
END_TEST
/*}=====================================================================*/

/*{=====================================================================
 * The test backend "flip"
 *====================================================================*/

START_TEST(flip_parse)
{
    rt_flip_conf_t c;
    ck_assert(rt_flip_parse("2:5:31", &c, stderr));
    ck_assert_uint_eq(c.nflip, 1);
    ck_assert_uint_eq(c.flips[0].param, 2);
    ck_assert_uint_eq(c.flips[0].elem, 5);
    ck_assert_uint_eq(c.flips[0].bit, 31);
    ck_assert(rt_flip_parse("0:*:0,1:2:3", &c, stderr));
    ck_assert_uint_eq(c.nflip, 2);
    ck_assert_uint_eq(c.flips[0].elem, RT_FLIP_ALL);
    ck_assert_uint_eq(c.flips[1].bit, 3);
    static const char *bad[] = { "", "1", "1:2", "1:2:", "1:2:3,", ":1:2", "a:1:2", "1:x:2", "1:2:3x",
                                 ("0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,0:0:0,"
                                  "0:0:0,0:0:0,0:0:0,0:0:0,0:0:0") };   /* 17 flips: one too many */
    FILE *null = fopen("/dev/null", "w");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!rt_flip_parse(bad[i], &c, null), "accepted '%s'", bad[i]);
    fclose(null);
}
END_TEST

START_TEST(flip_backend)
{
    const char *argv[] = { "u8[2]:out", "f32[3]:out" };
    char *out, *diag;
    rt_flip_conf_t c = { &by, 0, { { 0 } } };
    ck_assert(rt_flip_parse("1:2:31,0:*:0", &c, stderr));
    rt_backend_t flip = rt_backend_flip(&c);
    sy.fill = 0;
    sx.fill = 0;
    ck_assert_int_eq(run2(&bx, &flip, 2, argv, &out, &diag), RT_CMP_DIFFER);
    ck_assert_str_eq(out, "compare: arg0 u8[2]: 2 elements differ (emu vs flip)\n"
                          "  [0] emu 0x00 (0), flip 0x01 (1)\n"
                          "  [1] emu 0x00 (0), flip 0x01 (1)\n"
                          "compare: arg1 f32[3]: 1 element differs (emu vs flip)\n"
                          "  [2] emu 0x00000000 (0), flip 0x80000000 (-0): zeros of opposite sign\n"
                          "compare: 2 of 2 buffers differ, 3 of 5 elements (emu vs flip)\n");
    ck_assert_uint_eq(sy.runs, 1);   /* through its base */
    free(out);
    free(diag);
    /* A flip outside the buffer is an error, not a silent no-op. */
    ck_assert(rt_flip_parse("1:3:0", &c, stderr));
    ck_assert_int_eq(run2(&bx, &flip, 2, argv, &out, &diag), RT_CMP_ERROR);
    ck_assert_msg(strstr(diag, "flip: parameter 1 has no element 3 bit 0") != NULL, "%s", diag);
    free(out);
    free(diag);
    ck_assert(rt_flip_parse("1:0:32", &c, stderr));
    ck_assert_int_eq(run2(&bx, &flip, 2, argv, &out, &diag), RT_CMP_ERROR);
    free(out);
    free(diag);
}
END_TEST
/*}=====================================================================*/

Suite *make_compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("ulp");
    tcase_add_test(tc, ulp_f32);
    tcase_add_test(tc, ulp_f64);
    tcase_add_test(tc, ulp_f16_bf16);
    suite_add_tcase(s, tc);
    tc = tcase_create("buffers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, copy_is_independent);
    tcase_add_test(tc, identical);
    tcase_add_test(tc, one_bit_f32);
    tcase_add_test(tc, huge_and_special_f32);
    tcase_add_test(tc, integers);
    tcase_add_test(tc, several_buffers);
    tcase_add_test(tc, many_differences);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_add_checked_fixture(tc, stand_setup, stand_teardown);
    tcase_add_test(tc, results_are_exit_statuses);
    tcase_add_test(tc, run_same_inputs);
    tcase_add_test(tc, run_differ);
    tcase_add_test(tc, run_fault);
    tcase_add_test(tc, run_refused_outranks_fault);
    tcase_add_test(tc, run_side_absent);
    tcase_add_test(tc, run_bad_arguments);
    tcase_add_test(tc, run_out_path_gets_first_side);
    tcase_add_test(tc, flip_parse);
    tcase_add_test(tc, flip_backend);
    suite_add_tcase(s, tc);
    return s;
}
