/* check_lex.c: the scanner and constant folding, seen through lowered operands:
 * every immediate form, names without %, comments and skipped debug sections. */
#include <check.h>

#include "testutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* Load a kernel body and return its function 0 (module kept in *out_m). */
static const isa_func_t *load_body(const char *body, isa_module_t **out_m)
{
    static char buf[8192];
    snprintf(buf, sizeof buf, HDR ".visible .entry k()\n{\n%s\n}\n", body);
    char *diag = NULL;
    *out_m = tu_load("t.ptx", buf, &diag);
    ck_assert_msg(*out_m != NULL, "load failed:\n%s", diag);
    free(diag);
    return &(*out_m)->funcs[0];
}

static const isa_operand_t *opd(const isa_func_t *f, unsigned instr, unsigned i)
{
    return &f->opds[f->instrs[instr].opd + i];
}

START_TEST(immediates)
{
    isa_module_t *m;
    const isa_func_t *f = load_body(
        ".reg .b32 %r<12>; .reg .f32 %f1; .reg .f64 %fd<3>;\n"
        "mov.b32 %r1, 0x10U; mov.b32 %r2, 017; mov.b32 %r3, 0b101; mov.b32 %r4, -1;\n"
        "mov.f32 %f1, 0f3F800000; mov.f64 %fd1, 0d3FF8000000000000; mov.f64 %fd2, 1.5;\n"
        "mov.u32 %r5, WARP_SZ; mov.u32 %r6, (1<<3)+2; mov.u32 %r7, 0X1F79U;\n"
        "mov.u32 %r8, 10 - 2 * 3; mov.u32 %r9, ~0 & 0xff; mov.u32 %r10, -7 / 2; mov.u32 %r11, 0;",
        &m);
    ck_assert_int_eq(f->ninstr, 14);
    ck_assert_int_eq(opd(f, 0, 1)->kind, ISA_OPD_IMM);
    ck_assert_int_eq(opd(f, 0, 1)->imm, 16);
    ck_assert(opd(f, 0, 1)->flags & ISA_OPDF_UNSIGNED);
    ck_assert_int_eq(opd(f, 1, 1)->imm, 15);
    ck_assert_int_eq(opd(f, 2, 1)->imm, 5);
    ck_assert_int_eq(opd(f, 3, 1)->imm, -1);
    ck_assert_int_eq(opd(f, 4, 1)->kind, ISA_OPD_F32);
    ck_assert_uint_eq((uint64_t)opd(f, 4, 1)->imm, 0x3F800000u);
    ck_assert_int_eq(opd(f, 5, 1)->kind, ISA_OPD_F64);
    ck_assert_uint_eq((uint64_t)opd(f, 5, 1)->imm, 0x3FF8000000000000ull);
    ck_assert_int_eq(opd(f, 6, 1)->kind, ISA_OPD_F64);
    ck_assert_uint_eq((uint64_t)opd(f, 6, 1)->imm, 0x3FF8000000000000ull);
    ck_assert_int_eq(opd(f, 7, 1)->imm, 32);
    ck_assert_int_eq(opd(f, 8, 1)->imm, 10);
    ck_assert_int_eq(opd(f, 9, 1)->imm, 0x1F79);
    ck_assert_int_eq(opd(f, 10, 1)->imm, 4);
    ck_assert_int_eq(opd(f, 11, 1)->imm, 255);
    ck_assert_int_eq(opd(f, 12, 1)->imm, -3);
    ck_assert_int_eq(opd(f, 13, 1)->imm, 0);
    isa_module_free(m);
}
END_TEST

START_TEST(negative_floats)
{
    isa_module_t *m;
    const isa_func_t *f = load_body(".reg .f32 %f1; .reg .f64 %fd1;\n"
                                    "mov.f32 %f1, -0f3F800000; mov.f64 %fd1, -0.5;", &m);
    ck_assert_uint_eq((uint64_t)opd(f, 0, 1)->imm, 0xBF800000u);
    ck_assert_uint_eq((uint64_t)opd(f, 1, 1)->imm, 0xBFE0000000000000ull);
    isa_module_free(m);
}
END_TEST

START_TEST(comments_and_sections)
{
    isa_module_t *m;
    const char *text = HDR "// line comment\n/* block\n comment */\n"
                       ".visible .entry k() { /* inner */ ret; // tail\n }\n"
                       ".section .debug_info { .b32 12 .b8 1, 2 { nested } $L: .b8 \"}\" }\n";
    char *diag;
    m = tu_load("t.ptx", text, &diag);
    ck_assert_msg(m != NULL, "%s", diag);
    free(diag);
    ck_assert_int_eq(m->nfunc, 1);
    ck_assert_int_eq(m->funcs[0].ninstr, 1);
    isa_module_free(m);
}
END_TEST

/* Names without %, as the CUDA headers' inline asm writes them, and .f16 registers. */
START_TEST(bare_names)
{
    isa_module_t *m;
    const isa_func_t *f = load_body(".reg .b32 %r1; .reg .f32 %f<3>;\n"
                                    "{.reg .f16 low,high; cvt.rn.f16.f32 low, %f1; cvt.rn.f16.f32 high, %f2;"
                                    " mov.b32 %r1, {low,high};}", &m);
    ck_assert_int_eq(f->ninstr, 3);
    const isa_operand_t *v = opd(f, 2, 1);
    ck_assert_int_eq(v->kind, ISA_OPD_VEC);
    ck_assert_int_eq(v->count, 2);
    ck_assert_str_eq(f->regs[f->opds[v->u.first].u.reg].name, "low");
    ck_assert_int_eq(f->regs[f->opds[v->u.first].u.reg].type, ISA_T_F16);
    isa_module_free(m);
}
END_TEST

Suite *make_lex_suite(void)
{
    Suite *s = suite_create("lex");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, immediates);
    tcase_add_test(tc, negative_floats);
    tcase_add_test(tc, comments_and_sections);
    tcase_add_test(tc, bare_names);
    suite_add_tcase(s, tc);
    return s;
}
