/* check_lower.c: the lowering pass: suffix splitting by the tables, register ranges and
 * block scopes, labels, special registers, declarations and initializers, functions. */
#include <check.h>

#include "testutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static isa_module_t *load_ok(const char *text)
{
    char *diag = NULL;
    isa_module_t *m = tu_load("t.ptx", text, &diag);
    ck_assert_msg(m != NULL, "load failed:\n%s", diag);
    free(diag);
    return m;
}

static const isa_operand_t *opd(const isa_func_t *f, unsigned instr, unsigned i)
{
    return &f->opds[f->instrs[instr].opd + i];
}

START_TEST(suffixes_split)
{
    isa_module_t *m = load_ok(HDR ".visible .entry k(.param .u64 p)\n{\n.reg .f32 %f<5>; .reg .b64 %rd1;\n"
                              "ld.param.u64 %rd1, [p];\n"
                              "ld.global.nc.v4.f32 {%f1, %f2, %f3, _}, [%rd1+16];\n}\n");
    const isa_func_t *f = &m->funcs[0];
    const isa_instr_t *in = &f->instrs[1];
    ck_assert_int_eq(in->op, ISA_OP_LD);
    ck_assert_int_eq(isa_instr_space(in, 0), ISA_SP_GLOBAL);
    ck_assert_int_eq(isa_instr_mod(in, ISA_G_NC), ISA_M_NC);
    ck_assert_int_eq(isa_instr_mod(in, ISA_G_VEC), ISA_M_V4);
    ck_assert_int_eq(in->ntypes, 1);
    ck_assert_int_eq(in->types[0], ISA_T_F32);
    char name[128];
    ck_assert_str_eq(isa_instr_name(m, in, name, sizeof name), "ld.global.nc.v4.f32");
    const isa_operand_t *d = opd(f, 1, 0), *a = opd(f, 1, 1);
    ck_assert_int_eq(d->kind, ISA_OPD_VEC);
    ck_assert_int_eq(d->count, 4);
    ck_assert_int_eq(f->opds[d->u.first + 3].kind, ISA_OPD_SINK);
    ck_assert_int_eq(a->kind, ISA_OPD_ADDR);
    ck_assert_int_eq(a->base, ISA_OPD_REG);
    ck_assert_int_eq(a->imm, 16);
    ck_assert_int_eq(opd(f, 0, 1)->base, ISA_OPD_SYM);
    isa_module_free(m);
}
END_TEST

START_TEST(register_ranges_and_scopes)
{
    isa_module_t *m = load_ok(HDR ".visible .entry k()\n{\n.reg .b32 %r<5>;\n"
                              "{ .reg .b32 t; mov.b32 t, 1; }\n{ .reg .b32 t; mov.b32 t, 2; }\n"
                              "mov.b32 %r4, %r0;\n}\n");
    const isa_func_t *f = &m->funcs[0];
    ck_assert_int_eq(f->nreg, 7);
    ck_assert_str_eq(f->regs[0].name, "%r0");
    ck_assert_str_eq(f->regs[4].name, "%r4");
    ck_assert_int_eq(f->regdecls[0].count, 5);
    uint32_t t1 = opd(f, 0, 0)->u.reg, t2 = opd(f, 1, 0)->u.reg;
    ck_assert_uint_ne(t1, t2);
    ck_assert_str_eq(f->regs[t1].name, "t");
    ck_assert_str_eq(f->regs[t2].name, "t");
    ck_assert_int_eq(f->nscope, 3);
    ck_assert_int_eq(f->scopes[1].parent, 0);
    ck_assert_int_eq(f->scopes[1].begin, 0);
    ck_assert_int_eq(f->scopes[1].end, 1);
    isa_module_free(m);
}
END_TEST

START_TEST(labels_forward_and_trailing)
{
    isa_module_t *m = load_ok(HDR ".visible .entry k()\n{\n.reg .pred %p1;\n"
                              "@%p1 bra $L__BB0_2;\nbra.uni $L__BB0_3;\n$L__BB0_2:\nret;\n$L__BB0_3:\n}\n");
    const isa_func_t *f = &m->funcs[0];
    ck_assert_int_eq(f->nlabel, 2);
    ck_assert_int_eq(f->labels[0].instr, 2);
    ck_assert_int_eq(f->labels[1].instr, 3);          /* past the end: falling off */
    ck_assert_int_eq(f->instrs[0].guard, 0);
    ck_assert_int_eq(opd(f, 0, 0)->kind, ISA_OPD_LABEL);
    ck_assert_int_eq(opd(f, 0, 0)->u.label, 0);
    ck_assert(isa_instr_has(&f->instrs[1], ISA_M_UNI));
    isa_module_free(m);
}
END_TEST

START_TEST(special_registers)
{
    isa_module_t *m = load_ok(HDR ".visible .entry k()\n{\n.reg .b32 %r<4>; .reg .b64 %rd1;\n"
                              "mov.u32 %r1, %tid.y; mov.u32 %r2, %envreg3; mov.u64 %rd1, %clock64;"
                              " mov.u32 %r3, %laneid;\n}\n");
    const isa_func_t *f = &m->funcs[0];
    ck_assert_int_eq(opd(f, 0, 1)->kind, ISA_OPD_SREG);
    ck_assert_int_eq(opd(f, 0, 1)->u.sreg.id, ISA_SR_TID);
    ck_assert_int_eq(opd(f, 0, 1)->u.sreg.comp, 1);
    ck_assert_int_eq(opd(f, 1, 1)->u.sreg.id, ISA_SR_ENVREG);
    ck_assert_int_eq(opd(f, 1, 1)->u.sreg.comp, 3);
    ck_assert_int_eq(opd(f, 2, 1)->u.sreg.id, ISA_SR_CLOCK64);
    ck_assert_int_eq(opd(f, 3, 1)->u.sreg.id, ISA_SR_LANEID);
    isa_module_free(m);
}
END_TEST

START_TEST(variables_and_initializers)
{
    isa_module_t *m = load_ok(HDR
        ".global .align 4 .u32 g = 5;\n"
        ".const .align 1 .b8 s[6] = {104, 101, 108};\n"
        ".global .u32 a[2][3] = {{1}, {4, 5, 6}};\n"
        ".global .align 8 .u64 p = generic(g);\n"
        ".global .attribute(.managed) .align 4 .u32 mv = 7;\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".global .f32 arr[] = {0f3F800000, 0f40000000};\n"
        ".func (.param .b32 r) f(.param .b32 x) { ret; }\n"
        ".global .align 8 .u64 table[2] = {f, f};\n");
    ck_assert_int_eq(m->nvar, 8);
    const isa_var_t *v = m->vars;
    ck_assert_int_eq(v[0].ninit, 1);
    ck_assert_int_eq(v[0].init[0].value, 5);
    ck_assert_int_eq(v[0].align, 4);
    ck_assert_int_eq(v[1].size, 6);
    ck_assert_int_eq(v[1].ninit, 3);
    ck_assert_int_eq(v[2].ndims, 2);
    ck_assert_int_eq(v[2].ninit, 6);
    static const int64_t want[6] = { 1, 0, 0, 4, 5, 6 };
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(v[2].init[i].value, want[i]);
    ck_assert_int_eq(v[3].init[0].kind, ISA_INIT_GENERIC);
    ck_assert_int_eq(v[3].init[0].sym, 0);
    ck_assert(v[4].flags & ISA_VARF_MANAGED);
    ck_assert(v[5].flags & ISA_VARF_UNSIZED);
    ck_assert_int_eq(v[5].linkage, ISA_LINK_EXTERN);
    ck_assert_int_eq(v[5].space, ISA_SP_SHARED);
    ck_assert_int_eq(v[6].dims[0], 2);
    ck_assert_int_eq(v[6].size, 8);
    ck_assert_int_eq(v[7].init[1].kind, ISA_INIT_SYM);
    ck_assert_int_eq(v[7].init[1].modsym, 0);
    isa_module_free(m);
}
END_TEST

START_TEST(functions_and_calls)
{
    isa_module_t *m = load_ok(HDR
        ".func (.param .b32 func_retval0) f(.param .b32 f_param_0);\n"
        ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
        ".visible .entry k(.param .u64 k_param_0) .maxntid 256, 1, 1 .minnctapersm 2\n{\n"
        ".reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
        "{ // callseq 0, 0\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n"
        ".param .b32 retval0;\ncall.uni (retval0), f, (param0);\nld.param.b32 %r2, [retval0+0];\n}\n"
        "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "{ .param .b32 param0; .param .b32 retval0; call (retval0), %rd1, (param0), proto; }\nret;\n}\n"
        ".func (.param .b32 func_retval0) f(.param .b32 f_param_0) { ret; }\n");
    ck_assert_int_eq(m->nfunc, 3);
    const isa_func_t *f = &m->funcs[0], *k = &m->funcs[2];
    ck_assert(f->has_body);
    ck_assert_int_eq(m->items[0].kind, ISA_ITEM_FUNCDECL);
    ck_assert_int_eq(m->funcs[1].linkage, ISA_LINK_EXTERN);
    ck_assert(!m->funcs[1].has_body);
    ck_assert_int_eq(k->nperf, 2);
    ck_assert_int_eq(k->perf[0].id, ISA_D_MAXNTID);
    ck_assert_int_eq(k->perf[0].n, 3);
    ck_assert_int_eq(k->perf[0].v[0], 256);
    const isa_instr_t *call = &k->instrs[1];
    ck_assert_int_eq(call->op, ISA_OP_CALL);
    ck_assert_int_eq(call->nopd, 3);
    ck_assert_int_eq(opd(k, 1, 0)->kind, ISA_OPD_LIST);
    ck_assert_int_eq(opd(k, 1, 1)->kind, ISA_OPD_FUNC);
    ck_assert_int_eq(opd(k, 1, 1)->u.func, 0);
    const isa_instr_t *icall = &k->instrs[3];
    ck_assert_int_eq(icall->nopd, 4);
    ck_assert_int_eq(opd(k, 3, 1)->kind, ISA_OPD_REG);
    ck_assert_int_eq(opd(k, 3, 3)->kind, ISA_OPD_PROTO);
    ck_assert_int_eq(k->nproto, 1);
    ck_assert_int_eq(k->protos[0].nparam, 1);
    isa_module_free(m);
}
END_TEST

/* .reg parameters are the function's first registers (rets first), named by the
 * parameter, without a declaration; a parenthesised constant is a call list of one. */
START_TEST(reg_params_and_constant_lists)
{
    isa_module_t *m = load_ok(HDR
        ".func (.reg .u32 r) f(.param .b32 p, .reg .v4 .u16 v)\n{\n.reg .u32 %t;\n"
        "cvt.u32.u16 %t, v.y; add.u32 r, %t, 1; ret;\n}\n"
        ".visible .entry k()\n{\n.reg .u32 %a; .reg .v4 .u16 %w; .param .b32 q;\n"
        "call (%a), f, (q, %w);\ncall (%a), f, ((40+1), %w);\nret;\n}\n");
    const isa_func_t *f = &m->funcs[0], *k = &m->funcs[1];
    ck_assert_int_eq(f->nreg, 3);
    ck_assert_str_eq(f->regs[0].name, "r");
    ck_assert_str_eq(f->regs[1].name, "v");
    ck_assert_int_eq(f->regs[1].vec, 4);
    ck_assert_uint_eq(f->regs[0].decl, ISA_NONE);
    ck_assert_int_eq(f->nregdecl, 1);
    ck_assert_uint_eq(isa_param_reg(f, 0), 0);
    ck_assert_uint_eq(isa_param_reg(f, 1), ISA_NONE);
    ck_assert_uint_eq(isa_param_reg(f, 2), 1);
    ck_assert_int_eq(opd(f, 0, 1)->kind, ISA_OPD_REG);
    ck_assert_int_eq(opd(f, 0, 1)->u.reg, 1);
    ck_assert_int_eq(opd(f, 0, 1)->sel, ISA_SEL_Y);
    ck_assert_int_eq(opd(k, 1, 2)->kind, ISA_OPD_LIST);
    ck_assert_int_eq(opd(k, 1, 2)->count, 2);
    ck_assert_int_eq(k->opds[opd(k, 1, 2)->u.first].kind, ISA_OPD_IMM);
    ck_assert_int_eq(k->opds[opd(k, 1, 2)->u.first].imm, 41);
    isa_module_free(m);
}
END_TEST

/* Golden opcode sequence of a snippet: lowering keeps instructions in order, one each. */
/* vmad's negated sources and the SIMD video selectors become operand flags and
 * selector fields, which print back as written. */
START_TEST(negation_and_video_selectors)
{
    isa_module_t *m = load_ok(HDR ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
                              "vmad.s32.s32.s32 %r0, -%r1.b1, - %r2, %r3;\n"
                              "vadd4.s32.s32.s32 %r0.b20, %r1.b7654, %r2.b0123, %r3;\n"
                              "vadd2.u32.u32.u32 %r0.h10, %r1.h01, %r2.h32, %r3;\n"
                              "lop3.or.b32 %r0|%p1, %r1, %r2, %r3, 0xfe, !%p0;\n}\n");
    const isa_func_t *f = &m->funcs[0];
    ck_assert_int_eq(opd(f, 0, 0)->flags & ISA_OPDF_MINUS, 0);
    ck_assert(opd(f, 0, 1)->flags & ISA_OPDF_MINUS);
    ck_assert_int_eq(opd(f, 0, 1)->sel, ISA_SEL_B1);
    ck_assert(opd(f, 0, 2)->flags & ISA_OPDF_MINUS);
    ck_assert_int_eq(opd(f, 0, 3)->flags & ISA_OPDF_MINUS, 0);
    ck_assert_int_eq(opd(f, 1, 0)->sel, ISA_SEL_BXY);
    ck_assert_int_eq(opd(f, 1, 0)->fsel, 0x20);
    ck_assert_int_eq(opd(f, 1, 1)->sel, ISA_SEL_BXYZW);
    ck_assert_int_eq(opd(f, 1, 1)->fsel, 0x7654);
    ck_assert_int_eq(opd(f, 1, 2)->fsel, 0x0123);
    ck_assert_int_eq(opd(f, 2, 0)->sel, ISA_SEL_HXY);
    ck_assert_int_eq(opd(f, 2, 1)->fsel, 0x01);
    char sb[8];
    ck_assert_str_eq(isa_sel_text(ISA_SEL_BXYZW, 0x0123, sb, sizeof sb), "b0123");
    ck_assert_str_eq(isa_sel_text(ISA_SEL_HXY, 0x01, sb, sizeof sb), "h01");
    ck_assert_str_eq(isa_sel_text(ISA_SEL_BXYZ, 0x310, sb, sizeof sb), "b310");
    ck_assert_str_eq(isa_sel_text(ISA_SEL_H1, 0, sb, sizeof sb), "h1");
    ck_assert_int_eq(opd(f, 3, 0)->kind, ISA_OPD_DUAL);
    ck_assert(opd(f, 3, 5)->flags & ISA_OPDF_NEG);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    isa_print_module(out, m);
    fclose(out);
    ck_assert_msg(strstr(text, "%r0, -%r1.b1, -%r2, %r3;") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "%r0.b20, %r1.b7654, %r2.b0123, %r3;") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "%r0.h10, %r1.h01, %r2.h32, %r3;") != NULL, "%s", text);
    free(text);
    isa_module_free(m);
}
END_TEST

/* Each .target needs a minimum .version (targets.def): sm_90 came with PTX 7.8. */
START_TEST(target_needs_version)
{
    char *diag = NULL;
    isa_module_t *m = tu_load("t.ptx", ".version 7.7\n.target sm_90\n.visible .entry k()\n{\nret;\n}\n", &diag);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(diag, "t.ptx:2:9: error: PTX ISA version 7.7 does not support .target sm_90 "
                               "(it needs 7.8 or newer)") != NULL, "%s", diag);
    free(diag);
    m = load_ok(".version 7.8\n.target sm_90\n.visible .entry k()\n{\nret;\n}\n");
    isa_module_free(m);
    ck_assert_int_eq(isa_sms[ISA_SM_90A].ptx, ISA_PTX_80);
    for (unsigned i = 1; i < ISA_SM__COUNT; i++)
        ck_assert_msg(isa_sms[i].ptx > ISA_PTX_ANY, "%s has no minimum version", isa_sms[i].text);
}
END_TEST

/* Old PTX as the H100 runs it (app test legacy_ptx holds the measured values): in a module of
 * .target sm_10, f32 instructions flush (.ftz) and mad.f32 without rounding is mad.rn; a
 * special register read by an instruction other than mov is read by a mov first.  A
 * module of a newer target keeps its instructions as written. */
START_TEST(legacy_ptx_lowering)
{
    static const char body[] =
        ".entry k(.param .u64 p)\n{\n.reg .u32 %r<3>; .reg .f32 %f<4>; .reg .pred %p;\n"
        "cvt.u32.u16 %r1, %tid.x;\nmad.f32 %f1, %f2, %f3, %f1;\nadd.f32 %f2, %f1, %f3;\n"
        "setp.lt.f32 %p, %f1, %f2;\nadd.u32 %r2, %ctaid.x, 1;\nmov.u32 %r1, %tid.y;\nexit;\n}\n";
    char src[1024];
    snprintf(src, sizeof src, ".version 1.4\n.target sm_10\n%s", body);
    isa_module_t *m = load_ok(src);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    isa_print_module(out, m);
    fclose(out);
    ck_assert_msg(strstr(text, "mad.rn.ftz.f32") && strstr(text, "add.ftz.f32") && strstr(text, "setp.lt.ftz.f32") &&
                  strstr(text, "mov.u32 \t%__sreg") && strstr(text, "cvt.u32.u16 \t%r1, %__sreg") &&
                  strstr(text, "add.u32 \t%r2, %__sreg") && strstr(text, "mov.u32 \t%r1, %tid.y"), "%s", text);
    free(text);
    isa_module_free(m);
    /* sm_20: mad.f32 needs its rounding; nothing is added */
    snprintf(src, sizeof src, ".version 2.0\n.target sm_20\n%s", body);
    char *diag = NULL;
    ck_assert_ptr_null(tu_load("t.ptx", src, &diag));
    ck_assert_msg(strstr(diag, "'mad.f32' needs a modifier") != NULL, "%s", diag);
    free(diag);
}
END_TEST

START_TEST(golden_opcode_sequence)
{
    isa_module_t *m = load_ok(HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>; .reg .pred %p1;"
                              " .reg .b64 %rd<3>;\n"
                              "ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1; mov.u32 %r1, %tid.x;"
                              " setp.ge.s32 %p1, %r1, 8; @%p1 bra DONE; add.s32 %r2, %r1, 1;"
                              " st.global.u32 [%rd2], %r2; DONE: ret;\n}\n");
    static const isa_op_t want[] = { ISA_OP_LD, ISA_OP_CVTA, ISA_OP_MOV, ISA_OP_SETP, ISA_OP_BRA,
                                     ISA_OP_ADD, ISA_OP_ST, ISA_OP_RET };
    const isa_func_t *f = &m->funcs[0];
    ck_assert_int_eq(f->ninstr, sizeof want / sizeof *want);
    for (unsigned i = 0; i < f->ninstr; i++)
        ck_assert_int_eq(f->instrs[i].op, want[i]);
    ck_assert(isa_instr_has(&f->instrs[1], ISA_M_TOMOD));
    isa_module_free(m);
}
END_TEST

Suite *make_lower_suite(void)
{
    Suite *s = suite_create("lower");
    TCase *tc = tcase_create("lowering");
    tcase_add_test(tc, suffixes_split);
    tcase_add_test(tc, register_ranges_and_scopes);
    tcase_add_test(tc, labels_forward_and_trailing);
    tcase_add_test(tc, special_registers);
    tcase_add_test(tc, variables_and_initializers);
    tcase_add_test(tc, functions_and_calls);
    tcase_add_test(tc, reg_params_and_constant_lists);
    tcase_add_test(tc, negation_and_video_selectors);
    tcase_add_test(tc, target_needs_version);
    tcase_add_test(tc, legacy_ptx_lowering);
    tcase_add_test(tc, golden_opcode_sequence);
    suite_add_tcase(s, tc);
    return s;
}
