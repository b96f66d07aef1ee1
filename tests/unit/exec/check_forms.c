/* check_forms.c: operand forms (!p, -a, _, video selectors, d|p, r+imm) against the handlers:
 * every instruction of every golden kernel, with each form put on each of its register
 * operands, is either refused at pre-decode or runs a handler that lists the form as
 * honoured; and the forms that run change the result where they should. */
#include <check.h>
#include <dirent.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "exec/internal.h"
#include "tests/unit/exec/exutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, fp);
    s[got] = 0;
    fclose(fp);
    return s;
}

/* The forms tried on a register operand: the operand flags or selector set, and the
 * honours bit that a handler must list to run it (0: pre-decoding's own, r+imm). */
typedef struct { const char *name; uint8_t flags; uint8_t sel; uint8_t hon; uint8_t sink; } form_t;
static const form_t forms[] = {
    { "_", 0, 0, ISA_HON_SINK, 1 },
    { "!a", ISA_OPDF_NEG, 0, ISA_OPDF_NEG, 0 },
    { "-a", ISA_OPDF_MINUS, 0, ISA_OPDF_MINUS, 0 },
    { "a.b1", 0, ISA_SEL_B1, ISA_HON_VSEL, 0 },
    { "a.h1", 0, ISA_SEL_H1, ISA_HON_VSEL, 0 },
    { "a+1", ISA_OPDF_REGOFF, 0, 0, 0 },
};

/* Whether function fi's instruction i, pre-decoded from m as it is now, is refused or runs
 * a handler that honours form f; counts what it saw. */
static void check_one(isa_module_t *m, uint32_t fi, uint32_t i, const form_t *f, const char *file,
                      unsigned *refused, unsigned *ran)
{
    ex_program_t *p = exu_program_calls(m);   /* code[i] is the IR's instruction i */
    ck_assert_ptr_nonnull(p);
    const ex_insn_t *x = &p->funcs[fi].code[i];
    char name[128];
    isa_instr_name(m, &m->funcs[fi].instrs[i], name, sizeof name);
    if (!x->fn) {
        (*refused)++;
    } else {
        (*ran)++;
        unsigned hon = x->desc->honours;
        if (isa_ops[m->funcs[fi].instrs[i].op].family == ISA_FAM_VIDEO)
            hon |= ISA_OPDF_MINUS | ISA_HON_VSEL;
        if (f->hon)
            ck_assert_msg(hon & f->hon, "%s: %s runs with %s, which its handler does not honour",
                          file, name, f->name);
        else        /* r+imm: the handler is wrapped by the pre-add */
            ck_assert_msg(x->fn != x->desc->fn, "%s: %s runs with %s without the pre-add", file,
                          name, f->name);
    }
    exu_program_free(p);
}

/* Whether the key (an instruction's name and operand shape) was walked already, in any
 * kernel: each distinct form is tried once (the random-program goldens repeat a few). */
static bool seen_before(const char *key)
{
    static bool made;
    if (!made)
        ck_assert(made = hcreate(1u << 16) != 0);
    ENTRY e = { .key = (char *)key, .data = NULL };
    if (hsearch(e, FIND))
        return true;
    ck_assert_ptr_nonnull(e.key = strdup(key));
    ck_assert_ptr_nonnull(hsearch(e, ENTER));
    return false;
}

/* Walk every function of m: each instruction with a handler (one per distinct name and
 * operand shape over all kernels), each form on each of its plain register operands. */
static void walk_module(isa_module_t *m, const char *file, unsigned *refused, unsigned *ran)
{
    ex_program_t *base = exu_program_calls(m);
    for (uint32_t fi = 0; fi < m->nfunc; fi++) {
        isa_func_t *fn = &m->funcs[fi];
        for (uint32_t i = 0; i < fn->ninstr; i++) {
            if (!base->funcs[fi].code || !base->funcs[fi].code[i].fn)
                continue;
            char key[96];
            isa_instr_name(m, &fn->instrs[i], key, sizeof key - 8);
            size_t kl = strlen(key);
            for (unsigned k = 0; k < fn->instrs[i].nopd && kl + 1 < sizeof key; k++)
                key[kl++] = (char)('a' + fn->opds[fn->instrs[i].opd + k].kind);
            key[kl] = 0;
            if (seen_before(key))
                continue;
            for (unsigned k = 0; k < fn->instrs[i].nopd; k++) {
                isa_operand_t *o = &fn->opds[fn->instrs[i].opd + k];
                if (o->kind != ISA_OPD_REG || o->flags || o->sel)
                    continue;
                for (size_t fx = 0; fx < sizeof forms / sizeof *forms; fx++) {
                    isa_operand_t save = *o;
                    o->flags |= forms[fx].flags;
                    o->sel = forms[fx].sel;
                    if (forms[fx].sink)
                        o->kind = ISA_OPD_SINK;
                    if (forms[fx].flags & ISA_OPDF_REGOFF)
                        o->imm = 1;
                    check_one(m, fi, i, &forms[fx], file, refused, ran);
                    *o = save;
                }
            }
        }
    }
    exu_program_free(base);
}

/* The opcodes with semantics that no golden kernel uses. */
static const char extra_kernel[] =
    HDR ".visible .entry extra(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>;\n .reg .f32 %f<4>;\n .reg .pred %p<3>;\n .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [out];\n ld.global.f32 %f1, [%rd1];\n ld.global.u32 %r1, [%rd1];\n"
    " rsqrt.approx.f32 %f2, %f1;\n sin.approx.f32 %f2, %f1;\n cos.approx.f32 %f2, %f1;\n"
    " lg2.approx.f32 %f2, %f1;\n ex2.approx.f32 %f2, %f1;\n tanh.approx.f32 %f2, %f1;\n"
    " testp.finite.f32 %p1, %f1;\n cvt.pack.sat.u8.s32.b32 %r2, %r1, %r1, %r1;\n"
    " membar.gl;\n fence.sc.gpu;\n nanosleep.u32 %r1;\n pmevent 1;\n"
    " @%p1 trap;\n ret;\n}\n";

START_TEST(every_form_refused_or_honoured)
{
    const char *src = getenv("PTXEMU_SRCDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/golden", src ? src : ".");
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "no %s", dir);
    unsigned nfiles = 0, refused = 0, ran = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx"))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = slurp(path);
        ck_assert_ptr_nonnull(text);
        isa_module_t *m = exu_load(text);
        nfiles++;
        walk_module(m, e->d_name, &refused, &ran);
        isa_module_free(m);
        free(text);
    }
    closedir(d);
    isa_module_t *m = exu_load(extra_kernel);
    walk_module(m, "extra", &refused, &ran);
    isa_module_free(m);
    ck_assert_uint_gt(nfiles, 40);
    ck_assert_uint_gt(refused, 100);   /* the walk reached real refusals */
    ck_assert_uint_gt(ran, 100);       /* and forms that run (!p, video selectors, r+imm) */
}
END_TEST

/* Source lines with a form, each run next to the same line without it (the form's text
 * removed): both run, and lane results differ.  Thread t has %p1 = t & 1, %p2 = t & 2,
 * %r2 = t * 3. */
static const struct { const char *with, *without; } effects[] = {
    { "mov.pred %p3, !%p1;", "mov.pred %p3, %p1;" },
    { "and.pred %p3, !%p1, %p2;", "and.pred %p3, %p1, %p2;" },
    { "and.pred %p3, %p1, !%p2;", "and.pred %p3, %p1, %p2;" },
    { "or.pred %p3, !%p1, %p2;", "or.pred %p3, %p1, %p2;" },
    { "xor.pred %p3, %p1, !%p2;", "xor.pred %p3, %p1, %p2;" },
    { "not.pred %p3, !%p1;", "not.pred %p3, %p1;" },
    { "selp.u32 %r3, 1, 0, !%p1; setp.ne.u32 %p3, %r3, 0;", "selp.u32 %r3, 1, 0, %p1; setp.ne.u32 %p3, %r3, 0;" },
    { "setp.eq.and.u32 %p3, %r2, %r2, !%p1;", "setp.eq.and.u32 %p3, %r2, %r2, %p1;" },
    { "set.eq.and.u32.u32 %r3, %r2, %r2, !%p1; setp.ne.u32 %p3, %r3, 0;",
      "set.eq.and.u32.u32 %r3, %r2, %r2, %p1; setp.ne.u32 %p3, %r3, 0;" },
    { "add.u32 %r3, %r2+1, 0; and.b32 %r3, %r3, 1; setp.ne.u32 %p3, %r3, 0;",
      "add.u32 %r3, %r2, 0; and.b32 %r3, %r3, 1; setp.ne.u32 %p3, %r3, 0;" },
    { "mov.b32 %r3, %r2+-1; and.b32 %r3, %r3, 1; setp.ne.u32 %p3, %r3, 0;",
      "mov.b32 %r3, %r2; and.b32 %r3, %r3, 1; setp.ne.u32 %p3, %r3, 0;" },
};

static uint32_t run_line(const char *line)
{
    char text[2048];
    snprintf(text, sizeof text,
             HDR ".visible .entry k(.param .u64 out)\n{\n"
                 " .reg .b64 %%rd<4>;\n .reg .b32 %%r<6>;\n .reg .pred %%p<5>;\n"
                 " ld.param.u64 %%rd1, [out];\n mov.u32 %%r1, %%tid.x;\n mul.lo.u32 %%r2, %%r1, 3;\n"
                 " and.b32 %%r4, %%r1, 1;\n setp.ne.u32 %%p1, %%r4, 0;\n"
                 " and.b32 %%r4, %%r1, 2;\n setp.ne.u32 %%p2, %%r4, 0;\n"
                 " %s\n selp.u32 %%r5, 1, 0, %%p3;\n mul.wide.u32 %%rd2, %%r1, 4;\n"
                 " add.u64 %%rd2, %%rd1, %%rd2;\n st.global.u32 [%%rd2], %%r5;\n ret;\n}\n",
             line);
    uint32_t out[32] = { 0 };
    char *diag = NULL;
    isa_status_t st = exu_run(text, 1, 32, 0, out, sizeof out, &diag);
    ck_assert_msg(st == ISA_ST_OK, "%s: %s", line, diag ? diag : "");
    free(diag);
    uint32_t bits = 0;
    for (unsigned l = 0; l < 32; l++)
        bits |= (out[l] & 1u) << l;
    return bits;
}

START_TEST(forms_change_results)
{
    for (size_t i = 0; i < sizeof effects / sizeof *effects; i++) {
        uint32_t a = run_line(effects[i].with), b = run_line(effects[i].without);
        ck_assert_msg(a != b, "'%s' gives what '%s' does (%08x)", effects[i].with, effects[i].without, a);
    }
}
END_TEST

Suite *make_forms_suite(void)
{
    Suite *s = suite_create("forms");
    TCase *tc = tcase_create("forms");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_form_refused_or_honoured);
    tcase_add_test(tc, forms_change_results);
    suite_add_tcase(s, tc);
    return s;
}
