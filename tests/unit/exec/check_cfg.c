/* check_cfg.c: the control-flow graph of pre-decoding (exec/flow/cfg.c): guards whose
 * value the ranges of their operands decide are folded with EX_CFG_FOLD, as ptxas folds
 * them before placing its convergence barriers (golden warp_call_fuzz_38 is the effect
 * measured on the H100); any other guard is left alone. */
#include <check.h>
#include <stdlib.h>

#include "exec/internal.h"
#include "tests/unit/exec/exutil.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* The number of successors of the block that ends at the first instruction with opcode op
 * after the comment line, in the graph of k's only function built with flags. */
static uint32_t succs_of_first(const char *body, isa_op_t op, unsigned flags)
{
    char text[2048];
    snprintf(text, sizeof text,
             HDR ".visible .entry k(.param .u32 x)\n{\n.reg .u32 %%r<4>;\n.reg .s32 %%s<2>;\n.reg .pred %%p<3>;\n"
                 "ld.param.u32 %%r1, [x];\n%s\nL: ret;\n}\n",
             body);
    isa_module_t *m = exu_load(text);
    const isa_func_t *fn = &m->funcs[0];
    ex_cfg_t g;
    ck_assert(ex_cfg_build(&g, fn, NULL, flags));
    uint32_t n = UINT32_MAX;
    for (uint32_t i = 0; i < fn->ninstr; i++)
        if (fn->instrs[i].op == op) {
            uint32_t b = g.bof[i];
            ck_assert_uint_eq(g.bstart[b + 1] - 1, i);
            n = g.succ_at[b + 1] - g.succ_at[b];
            break;
        }
    ex_cfg_free(&g);
    isa_module_free(m);
    ck_assert_uint_ne(n, UINT32_MAX);
    return n;
}

/* Each body ends its block with a guarded bra or ret, and whether that guard is known. */
static const struct {
    const char *body;
    int op;          /* ISA_OP_BRA or ISA_OP_RET */
    bool known;
} cases[] = {
    { "and.b32 %r2, %r1, 1; setp.ne.u32 %p1, %r2, 2; @%p1 bra L;", ISA_OP_BRA, true },        /* always */
    { "and.b32 %r2, %r1, 12; setp.eq.u32 %p1, %r2, 2; @%p1 bra L;", ISA_OP_BRA, true },       /* never */
    { "and.b32 %r2, %r1, 12; setp.eq.u32 %p1, %r2, 4; @%p1 bra L;", ISA_OP_BRA, false },
    { "rem.u32 %r2, %r1, 7; setp.lt.u32 %p1, %r2, 13; @%p1 bra L;", ISA_OP_BRA, true },
    { "rem.u32 %r2, %r1, 7; setp.lt.u32 %p1, %r2, 6; @%p1 bra L;", ISA_OP_BRA, false },
    { "rem.u32 %r2, %r1, 18; setp.ge.u32 %p1, %r2, 18; @%p1 ret;", ISA_OP_RET, true },
    { "rem.u32 %r2, %r1, 18; setp.gt.u32 %p1, %r2, 17; @!%p1 ret;", ISA_OP_RET, true },
    { "rem.u32 %r2, %r1, 18; setp.le.u32 %p1, %r2, 17; @%p1 ret;", ISA_OP_RET, true },
    { "rem.u32 %r2, %r1, 18; setp.le.u32 %p1, %r2, 16; @%p1 ret;", ISA_OP_RET, false },
    { "and.b32 %r2, %r1, 3; setp.hi.u32 %p1, %r2, 3; @%p1 ret;", ISA_OP_RET, true },
    { "and.b32 %r2, %r1, 3; setp.lo.u32 %p1, %r2, 0; @%p1 ret;", ISA_OP_RET, true },
    /* not decided: a signed comparison with a negative immediate, a register written
     * after the and, a predicate combined, written under a guard, or in another block */
    { "and.b32 %r2, %r1, 3; setp.lt.s32 %p1, %r2, -1; @%p1 ret;", ISA_OP_RET, false },
    { "and.b32 %r2, %r1, 3; add.u32 %r2, %r2, 9; setp.eq.u32 %p1, %r2, 9; @%p1 ret;", ISA_OP_RET, false },
    { "and.b32 %r2, %r1, 1; setp.ne.and.u32 %p1, %r2, 2, %p2; @%p1 ret;", ISA_OP_RET, false },
    { "and.b32 %r2, %r1, 1; @%p2 setp.ne.u32 %p1, %r2, 2; @%p1 ret;", ISA_OP_RET, false },
    { "and.b32 %r2, %r1, 1; setp.ne.u32 %p1, %r2, 2; M: @%p1 ret;", ISA_OP_RET, false },
};

START_TEST(known_guards_fold)
{
    const char *body = cases[_i].body;
    uint32_t plain = succs_of_first(body, (isa_op_t)cases[_i].op, EX_CFG_EXIT);
    uint32_t folded = succs_of_first(body, (isa_op_t)cases[_i].op, EX_CFG_EXIT | EX_CFG_FOLD);
    ck_assert_msg(plain == 2, "%s: %u successors without folding", body, plain);
    ck_assert_msg(folded == (cases[_i].known ? 1u : 2u), "%s: %u successors folded", body, folded);
}
END_TEST

/* Where lanes leave (the graph of joins), an exit or ret written with a guard, and a branch
 * around an unguarded one, are no path of the other lanes even when folding decides them
 * (golden warp_fuzz_162): the block leads to the next one only, not to the exit. */
START_TEST(leaving_lanes_stay_guarded)
{
    static const char *bodies[] = {
        "rem.u32 %r2, %r1, 18; setp.le.u32 %p1, %r2, 17; @%p1 ret;",
        "rem.u32 %r2, %r1, 11; setp.lt.u32 %p1, %r2, 16; @!%p1 bra M; ret; M: mov.u32 %r3, 1;",
    };
    for (unsigned k = 0; k < 2; k++) {
        char text[1024];
        snprintf(text, sizeof text,
                 HDR ".visible .entry k(.param .u32 x)\n{\n.reg .u32 %%r<4>;\n.reg .pred %%p<3>;\n"
                     "ld.param.u32 %%r1, [x];\n%s\nL: ret;\n}\n",
                 bodies[k]);
        isa_module_t *m = exu_load(text);
        const isa_func_t *fn = &m->funcs[0];
        uint32_t at = 3;                                /* the guarded ret or the branch */
        ck_assert(fn->instrs[at].op == (k ? ISA_OP_BRA : ISA_OP_RET));
        ex_cfg_t g;
        ck_assert(ex_cfg_build(&g, fn, NULL, EX_CFG_EXIT | EX_CFG_LANES_LEAVE | EX_CFG_FOLD));
        uint32_t b = g.bof[at], want = k ? g.bof[at + 2] : g.bof[at + 1];
        ck_assert_uint_eq(g.succ_at[b + 1] - g.succ_at[b], 1);
        ck_assert_uint_eq(g.succ[g.succ_at[b]], want);
        ex_cfg_free(&g);
        /* without lanes leaving, folding decides: the ret always runs */
        ck_assert(ex_cfg_build(&g, fn, NULL, EX_CFG_EXIT | EX_CFG_FOLD));
        b = g.bof[at];
        ck_assert_uint_eq(g.succ_at[b + 1] - g.succ_at[b], 1);
        ck_assert_uint_eq(g.succ[g.succ_at[b]], k ? g.bof[at + 1] : g.nb);
        ex_cfg_free(&g);
        isa_module_free(m);
    }
}
END_TEST

Suite *make_cfg_suite(void)
{
    Suite *s = suite_create("cfg");
    TCase *tc = tcase_create("fold");
    tcase_add_loop_test(tc, known_guards_fold, 0, sizeof cases / sizeof *cases);
    tcase_add_test(tc, leaving_lanes_stay_guarded);
    suite_add_tcase(s, tc);
    return s;
}
