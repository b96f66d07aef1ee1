/* check_print.c: the PTX printer (isa/print.c) and the IR dump (isa/dump.c) on a small
 * module built by hand with the IR API. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

/*{=====================================================================
 * A module built by hand:
 *
 *   .version 8.0
 *   .target sm_80
 *   .address_size 64
 *   .visible .global .align 4 .b32 tab[2][2] = {{1, 2}, {3, 4}};
 *   .const .f32 one = 0f3F800000;
 *   .visible .entry k(.param .u64 k_param_0) .maxntid 128, 1, 1
 *   {
 *       .reg .pred %p<2>; .reg .f32 %f<2>; .reg .b64 %rd<3>;
 *   $L__BB0_1:
 *       @!%p1 ld.global.f32 %f1, [%rd2+8];
 *       mov.b64 %rd1, tab+4;
 *       bra.uni $L__BB0_1;
 *   }
 *====================================================================*/

static void *alloc(isa_module_t *m, size_t n)
{
    void *p = isa_arena_alloc(m->arena, n);
    ck_assert_ptr_nonnull(p);
    return p;
}

static void add_sfx(isa_instr_t *in, isa_sfxkind_t k, unsigned group, unsigned id)
{
    in->sfx[in->nsfx++] = (isa_sfx_t){ (uint8_t)k, (uint8_t)group, (uint16_t)id };
    if (k == ISA_SFX_TYPE)
        in->types[in->ntypes++] = (uint8_t)id;
}

static isa_module_t *build_module(void)
{
    isa_module_t *m = isa_module_new();
    ck_assert_ptr_nonnull(m);
    m->ver_major = 8;
    m->ver_minor = 0;
    m->ntarget = 1;
    m->targets = alloc(m, sizeof *m->targets);
    m->targets[0] = "sm_80";
    m->sm = ISA_SM_80;
    m->address_size = 64;

    /* Module variables. */
    m->nvar = 2;
    m->vars = alloc(m, 2 * sizeof *m->vars);
    isa_var_t *tab = &m->vars[0];
    tab->name = "tab";
    tab->space = ISA_SP_GLOBAL;
    tab->type = ISA_T_B32;
    tab->vec = 1;
    tab->linkage = ISA_LINK_VISIBLE;
    tab->align = 4;
    tab->ndims = 2;
    tab->dims[0] = tab->dims[1] = 2;
    tab->size = 16;
    tab->ptr_space = ISA_SP_NONE;
    tab->ninit = 4;
    tab->init = alloc(m, 4 * sizeof *tab->init);
    for (int i = 0; i < 4; i++)
        tab->init[i] = (isa_init_t){ .kind = ISA_INIT_INT, .value = i + 1 };
    tab->init_braced = 1;
    tab->scope = ISA_NONE;
    isa_var_t *one = &m->vars[1];
    one->name = "one";
    one->space = ISA_SP_CONST;
    one->type = ISA_T_F32;
    one->vec = 1;
    one->size = 4;
    one->ptr_space = ISA_SP_NONE;
    one->ninit = 1;
    one->init = alloc(m, sizeof *one->init);
    one->init[0] = (isa_init_t){ .kind = ISA_INIT_F32, .value = 0x3F800000 };
    one->scope = ISA_NONE;

    /* The kernel. */
    m->nfunc = 1;
    m->funcs = alloc(m, sizeof *m->funcs);
    isa_func_t *f = &m->funcs[0];
    f->name = "k";
    f->is_entry = 1;
    f->linkage = ISA_LINK_VISIBLE;
    f->has_body = 1;
    f->nparam = 1;
    f->params = alloc(m, sizeof *f->params);
    f->params[0] = (isa_var_t){ .name = "k_param_0", .space = ISA_SP_PARAM, .type = ISA_T_U64,
                                .vec = 1, .size = 8, .ptr_space = ISA_SP_NONE, .scope = ISA_NONE };
    f->nperf = 1;
    f->perf = alloc(m, sizeof *f->perf);
    f->perf[0] = (isa_perf_t){ ISA_D_MAXNTID, 3, { 128, 1, 1 } };

    static const struct { const char *name; isa_type_t type; } decls[] = {
        { "%p", ISA_T_PRED }, { "%f", ISA_T_F32 }, { "%rd", ISA_T_B64 }
    };
    static const char *const regnames[] = { "%p0", "%p1", "%f0", "%f1", "%rd0", "%rd1", "%rd2" };
    f->nregdecl = 3;
    f->regdecls = alloc(m, 3 * sizeof *f->regdecls);
    f->nreg = 7;
    f->regs = alloc(m, 7 * sizeof *f->regs);
    uint32_t r = 0;
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t n = i == 2 ? 3 : 2;
        f->regdecls[i] = (isa_regdecl_t){ .name = decls[i].name, .type = decls[i].type, .vec = 1,
                                          .count = n, .first = r };
        for (uint32_t j = 0; j < n; j++, r++)
            f->regs[r] = (isa_reg_t){ regnames[r], decls[i].type, 1, i };
    }

    f->nlabel = 1;
    f->labels = alloc(m, sizeof *f->labels);
    f->labels[0] = (isa_label_t){ .name = "$L__BB0_1", .instr = 0, .scope = 0 };
    f->nscope = 1;
    f->scopes = alloc(m, sizeof *f->scopes);
    f->scopes[0] = (isa_scope_t){ ISA_NONE, 0, 3 };

    f->nopd = 5;
    f->opds = alloc(m, 5 * sizeof *f->opds);
    f->opds[0] = (isa_operand_t){ .kind = ISA_OPD_REG, .u.reg = 3 };                   /* %f1 */
    f->opds[1] = (isa_operand_t){ .kind = ISA_OPD_ADDR, .base = ISA_OPD_REG, .u.reg = 6, .imm = 8 };
    f->opds[2] = (isa_operand_t){ .kind = ISA_OPD_REG, .u.reg = 5 };                   /* %rd1 */
    f->opds[3] = (isa_operand_t){ .kind = ISA_OPD_SYM, .flags = ISA_OPDF_MODSYM, .u.sym = 0, .imm = 4 };
    f->opds[4] = (isa_operand_t){ .kind = ISA_OPD_LABEL, .u.label = 0 };

    f->ninstr = 3;
    f->instrs = alloc(m, 3 * sizeof *f->instrs);
    isa_instr_t *ld = &f->instrs[0];
    ld->op = ISA_OP_LD;
    add_sfx(ld, ISA_SFX_SPACE, ISA_G_SPACE, ISA_SP_GLOBAL);
    add_sfx(ld, ISA_SFX_TYPE, 0, ISA_T_F32);
    ld->guard = 1;
    ld->guard_neg = 1;
    ld->opd = 0;
    ld->nopd = 2;
    ld->dbg = ISA_NONE;
    isa_instr_t *mov = &f->instrs[1];
    mov->op = ISA_OP_MOV;
    add_sfx(mov, ISA_SFX_TYPE, 0, ISA_T_B64);
    mov->guard = ISA_NONE;
    mov->opd = 2;
    mov->nopd = 2;
    mov->dbg = ISA_NONE;
    isa_instr_t *bra = &f->instrs[2];
    bra->op = ISA_OP_BRA;
    add_sfx(bra, ISA_SFX_MOD, ISA_G_UNI, ISA_M_UNI);
    bra->guard = ISA_NONE;
    bra->opd = 4;
    bra->nopd = 1;
    bra->dbg = ISA_NONE;

    static const isa_stmt_t stmts[] = {
        { ISA_STMT_REGDECL, 0 }, { ISA_STMT_REGDECL, 1 }, { ISA_STMT_REGDECL, 2 }, { ISA_STMT_LABEL, 0 },
        { ISA_STMT_INSTR, 0 }, { ISA_STMT_INSTR, 1 }, { ISA_STMT_INSTR, 2 }
    };
    f->nstmt = 7;
    f->stmts = alloc(m, sizeof stmts);
    memcpy(f->stmts, stmts, sizeof stmts);

    m->nitem = 3;
    m->items = alloc(m, 3 * sizeof *m->items);
    m->items[0] = (isa_item_t){ ISA_ITEM_VAR, 0 };
    m->items[1] = (isa_item_t){ ISA_ITEM_VAR, 1 };
    m->items[2] = (isa_item_t){ ISA_ITEM_FUNC, 0 };
    return m;
}

/* The output of print or dump as a malloc'ed string. */
static char *capture(void (*fn)(FILE *, const isa_module_t *), const isa_module_t *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    fn(f, m);
    fclose(f);
    return buf;
}

#define ck_assert_has(text, needle) \
    ck_assert_msg(strstr((text), (needle)) != NULL, "missing \"%s\" in:\n%s", (needle), (text))

/*}=====================================================================*/

START_TEST(print_header_and_vars)
{
    isa_module_t *m = build_module();
    char *s = capture(isa_print_module, m);
    ck_assert_has(s, ".version 8.0\n.target sm_80\n.address_size 64\n");
    ck_assert_has(s, "\n.visible .global .align 4 .b32 tab[2][2] = {{1, 2}, {3, 4}};\n");
    ck_assert_has(s, "\n.const .f32 one = 0f3F800000;\n");
    free(s);
    isa_module_free(m);
}
END_TEST

START_TEST(print_function)
{
    isa_module_t *m = build_module();
    char *s = capture(isa_print_module, m);
    ck_assert_has(s, ".visible .entry k(\n\t.param .u64 k_param_0\n)\n.maxntid 128, 1, 1\n{\n");
    ck_assert_has(s, "\t.reg .pred \t%p<2>;\n");
    ck_assert_has(s, "\n$L__BB0_1:\n\t@!%p1 ld.global.f32 \t%f1, [%rd2+8];\n");
    ck_assert_has(s, "\tmov.b64 \t%rd1, tab+4;\n");
    ck_assert_has(s, "\tbra.uni \t$L__BB0_1;\n}\n");
    free(s);
    isa_module_free(m);
}
END_TEST

/* Operand forms that the kernel above does not use. */
START_TEST(print_operand_forms)
{
    isa_module_t *m = build_module();
    isa_func_t *f = &m->funcs[0];
    isa_operand_t *o = f->opds;
    o[1] = (isa_operand_t){ .kind = ISA_OPD_ADDR, .base = ISA_OPD_SYM, .flags = ISA_OPDF_MODSYM, .u.sym = 0, .imm = -4 };
    o[2] = (isa_operand_t){ .kind = ISA_OPD_SREG, .u.sreg = { ISA_SR_TID, 1 } };
    o[3] = (isa_operand_t){ .kind = ISA_OPD_IMM, .flags = ISA_OPDF_UNSIGNED, .imm = 7 };
    f->instrs[1].opd = 2;                         /* mov.b64 %tid.y, 7U (shape only) */
    f->instrs[0].guard = ISA_NONE;
    char *s = capture(isa_print_module, m);
    /* ptxas refuses "[tab-4]" and "[%rd-4]": a negative offset is "+-4". */
    ck_assert_has(s, "\tld.global.f32 \t%f1, [tab+-4];\n");
    ck_assert_has(s, "\tmov.b64 \t%tid.y, 7U;\n");
    free(s);
    isa_module_free(m);
}
END_TEST

START_TEST(dump_module)
{
    isa_module_t *m = build_module();
    char *s = capture(isa_dump_module, m);
    ck_assert_has(s, "version 8.0\ntarget sm_80 (sm=sm_80)\naddress_size 64\n");
    ck_assert_has(s, "var 0: global tab: type=b32 vec=1 align=4 size=16 dims=[2,2] linkage=visible"
                     " flags=- init={int 1, int 2, int 3, int 4}\n");
    ck_assert_has(s, "entry 0 k: linkage=visible decl_linkage=- body=1 noreturn=0\n");
    ck_assert_has(s, "  param 0: param k_param_0: type=u64 vec=1 align=0 size=8 dims=[]");
    ck_assert_has(s, "  perf .maxntid 128, 1, 1\n");
    ck_assert_has(s, "  regs 4-6: %rd0..%rd2 b64 vec=1 decl=2\n");
    ck_assert_has(s, "  label 0: $L__BB0_1 -> instr 0 scope 0\n");
    ck_assert_has(s, "  stmts: R0 R1 R2 L0 I0-2\n");
    ck_assert_has(s, "   $L__BB0_1:\n    0: @!reg %p1#1:pred ld sfx=[space:global(SPACE) type:f32]"
                     " opds=(reg %f1#3:f32, addr[reg %rd2#6:b64 + 8])\n");
    ck_assert_has(s, "    1: mov sfx=[type:b64] opds=(reg %rd1#5:b64, msym tab#0+4)\n");
    ck_assert_has(s, "    2: bra sfx=[mod:uni(UNI)] opds=(label $L__BB0_1#0)\n");
    free(s);
    isa_module_free(m);
}
END_TEST

/* Dumps of equal modules are equal, and a changed field changes the dump. */
START_TEST(dump_distinguishes)
{
    isa_module_t *a = build_module(), *b = build_module();
    char *sa = capture(isa_dump_module, a), *sb = capture(isa_dump_module, b);
    ck_assert_str_eq(sa, sb);
    free(sb);
    b->funcs[0].opds[1].imm = 12;
    sb = capture(isa_dump_module, b);
    ck_assert_str_ne(sa, sb);
    free(sa);
    free(sb);
    isa_module_free(a);
    isa_module_free(b);
}
END_TEST

Suite *make_print_suite(void)
{
    Suite *s = suite_create("print");
    TCase *tc = tcase_create("print");
    tcase_add_test(tc, print_header_and_vars);
    tcase_add_test(tc, print_function);
    tcase_add_test(tc, print_operand_forms);
    suite_add_tcase(s, tc);
    tc = tcase_create("dump");
    tcase_add_test(tc, dump_module);
    tcase_add_test(tc, dump_distinguishes);
    suite_add_tcase(s, tc);
    return s;
}
