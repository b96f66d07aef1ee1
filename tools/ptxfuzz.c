/* ptxfuzz.c: differential fuzzing of the arithmetic instructions against the GPU: walks the
 * ISA tables for instruction variants, makes their kernels and input vectors, records the
 * GPU's outputs (tests/fuzz/NAME.fz) and replays them on the emulator.  The variants'
 * kernels and vectors are made in tools/fuzzvec.c.
 *
 *   ptxfuzz list [--sm100]                every variant the tables allow that it can test (or those
 *                                         needing sm_100, recorded through sm_90 equivalents)
 *   ptxfuzz record [opts] [NAME...]       run on a backend (cuda) and write NAME.fz files
 *   ptxfuzz replay [opts] [NAME...]       run the recorded variants on the emulator, compare
 *   ptxfuzz show [opts] NAME CHUNK        print a chunk's vectors and outputs (emu, cuda, both)
 *   ptxfuzz kernel [--backend cuda] NAME  print the variant's kernel (as the emulator or the GPU runs it)
 *   ptxfuzz measure [opts] [NAME...]      .approx variants: ulp bounds from raw GPU outputs
 *   ptxfuzz doc [--dir DIR]               docs/verification.md on stdout (tools/fuzzdoc.c)
 * Options: --dir DIR (tests/fuzz), --raw DIR (full GPU outputs, for measure and debugging),
 * --backend emu|cuda|both, --chunks N (random chunks of 4096 vectors; 25 by default).
 * Exit status: 0 ok, 1 a mismatch or an unsupported variant, 2 usage or I/O errors. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "frontend/fe.h"
#include "isa/isa.h"
#include "runtime/rt.h"
#include "tools/fuzzdoc.h"
#include "tools/fuzzvec.h"

/*{=====================================================================
 * Running a variant on a backend
 *====================================================================*/
enum { BE_EMU = 1, BE_CUDA = 2 };

/* Run vectors [first, first + n) of v; the outputs go to out (n * dest width bytes).
 * Returns ISA_ST_OK, or the status with the reason in err (the first line of the
 * diagnostics: "not supported yet", a JIT error, ...). */
static isa_status_t variant_run(const variant_t *v, int backend, size_t first, size_t n, uint8_t *out,
                                char *err, size_t errsize)
{
    const char *text = fuzz_kernel(v, backend == BE_CUDA);
    isa_module_t *m = NULL;
    char *dbuf = NULL;
    size_t dlen = 0;
    FILE *diag = open_memstream(&dbuf, &dlen);
    fe_options_t fo = { .diag = diag, .max_errors = 1 };
    isa_status_t st = fe_load_text(v->name, text, strlen(text), &fo, &m);
    ex_program_t *p = NULL;
    rt_args_t a;
    bool args = false;
    if (st != ISA_ST_OK)
        goto done;
    if (backend == BE_EMU) {
        p = ex_program_new(rt_device(), m);
        if (!p || ex_program_check_entry(p, 0, diag) != 0) {
            st = ISA_ST_UNSUPPORTED;
            goto done;
        }
    }
    char sa[4][32], sd[32], sn[32];
    char *argv[6];
    for (unsigned s = 0; s < 4; s++) {
        if (s < v->nsrc)
            snprintf(sa[s], sizeof sa[s], "b%u[%zu]", fuzz_kind_bytes[v->sk[s]] * 8, n);
        else
            snprintf(sa[s], sizeof sa[s], "b8[1]");
        argv[1 + s] = sa[s];
    }
    snprintf(sd, sizeof sd, "b8[%zu]", n * fuzz_out_bytes(v));
    snprintf(sn, sizeof sn, "%zu", n);
    argv[0] = sd;
    argv[5] = sn;
    if ((st = rt_args_parse(&m->funcs[0], 6, argv, diag, &a)) != ISA_ST_OK)
        goto done;
    args = true;
    uint8_t *in[4] = { a.bufs[1].host, a.bufs[2].host, a.bufs[3].host, a.bufs[4].host };
    fuzz_inputs(v, first, n, in);
    ex_launch_t l = { { (uint32_t)((n + 255) / 256), 1, 1 }, { 256, 1, 1 }, 0, 0, 0, NULL, 0, false, { 0, 0, 0 }, false };
    if (backend == BE_EMU) {
        ex_stats_t stats;
        st = rt_run_emu(p, 0, &l, &a, 0, diag, &stats);
    } else {
        st = rt_run_cuda(m, 0, &l, &a, diag);
    }
    if (st == ISA_ST_OK)
        memcpy(out, a.bufs[0].host, n * fuzz_out_bytes(v));
done:
    if (args)
        rt_args_free(&a);
    if (p)
        ex_program_free(p);
    if (m)
        isa_module_free(m);
    fclose(diag);
    if (err && errsize) {
        /* The diagnostics on one line: their first 400 characters, lines joined by " | ". */
        const char *s = dbuf && *dbuf ? dbuf : "failed";
        size_t k = 0;
        for (; *s && k + 4 < errsize && k < 400; s++) {
            if (*s == '\n') {
                if (s[1])
                    k += (size_t)snprintf(err + k, errsize - k, " | ");
            } else {
                err[k++] = *s == '\t' ? ' ' : *s;
            }
        }
        err[k] = 0;
    }
    free(dbuf);
    return st;
}
/*}=====================================================================*/

/*{=====================================================================
 * Enumeration: walk the ISA table for the variants ptxfuzz can test
 *====================================================================*/
static const isa_op_t fuzz_ops[] = {
    ISA_OP_ADD, ISA_OP_SUB, ISA_OP_MUL, ISA_OP_FMA, ISA_OP_MAD, ISA_OP_DIV, ISA_OP_RCP, ISA_OP_SQRT,
    ISA_OP_RSQRT, ISA_OP_SIN, ISA_OP_COS, ISA_OP_LG2, ISA_OP_EX2, ISA_OP_TANH, ISA_OP_ABS, ISA_OP_NEG,
    ISA_OP_MIN, ISA_OP_MAX, ISA_OP_COPYSIGN, ISA_OP_CVT,
};
static const isa_type_t fuzz_ftypes[] = { ISA_T_F32, ISA_T_F64, ISA_T_F16, ISA_T_F16X2, ISA_T_BF16, ISA_T_BF16X2,
                                           ISA_T_F32X2 };
static const isa_type_t fuzz_ctypes[] = {
    ISA_T_S8, ISA_T_S16, ISA_T_S32, ISA_T_S64, ISA_T_U8, ISA_T_U16, ISA_T_U32, ISA_T_U64, ISA_T_F16,
    ISA_T_BF16, ISA_T_TF32, ISA_T_F32, ISA_T_F64, ISA_T_F16X2, ISA_T_BF16X2, ISA_T_E4M3X2, ISA_T_E5M2X2,
};

/* Whether the frontend's validator (ptxas's rules) accepts the instruction. */
static bool candidate_valid(const char *name)
{
    variant_t v;
    if (!fuzz_parse(name, &v))
        return false;
    const char *text = fuzz_kernel(&v, false);
    FILE *null = fopen("/dev/null", "w");
    fe_options_t fo = { .diag = null, .max_errors = 1 };
    isa_module_t *m = NULL;
    bool ok = fe_load_text(name, text, strlen(text), &fo, &m) == ISA_ST_OK;
    if (m)
        isa_module_free(m);
    fclose(null);
    return ok;
}

typedef void (*name_fn)(const char *name, void *ctx);

/* The integer, comparison, selection and video variants: per opcode, modifier axes
 * before the types, type axes, and modifier axes after them (PTX's order).  An axis
 * lists its alternatives separated by '|'; an empty one means "absent".  Every
 * combination the frontend's validator accepts is a variant. */
#define T_INT  "b8|b16|b32|b64|u8|u16|u32|u64|s8|s16|s32|s64|u16x2|s16x2"
#define T_FLT  "f16|f16x2|bf16|bf16x2|f32|f64"
#define T_US32 "u32|s32"
#define A_CMP  ".eq|.ne|.lt|.le|.gt|.ge|.lo|.ls|.hi|.hs|.equ|.neu|.ltu|.leu|.gtu|.geu|.num|.nan"
#define A_VCMP ".eq|.ne|.lt|.le|.gt|.ge"
typedef struct {
    isa_op_t    op;
    const char *pre[3], *types[3], *post[3];
    bool        vsel;       /* also the operand-selector forms (scalar video) */
} fuzz_form_t;
static const fuzz_form_t fuzz_forms[] = {
    { ISA_OP_ADD, { "|.cc", "|.sat" }, { T_INT }, { 0 }, false },
    { ISA_OP_SUB, { "|.cc", "|.sat" }, { T_INT }, { 0 }, false },
    { ISA_OP_MUL, { ".lo|.hi|.wide" }, { T_INT }, { 0 }, false },
    { ISA_OP_MAD, { ".lo|.hi|.wide", "|.cc", "|.sat" }, { T_INT }, { 0 }, false },
    { ISA_OP_MUL24, { ".lo|.hi" }, { T_US32 }, { 0 }, false },
    { ISA_OP_MAD24, { ".lo|.hi", "|.sat" }, { T_US32 }, { 0 }, false },
    { ISA_OP_SAD, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_DIV, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_REM, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_ABS, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_NEG, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_MIN, { "|.relu" }, { T_INT }, { 0 }, false },
    { ISA_OP_MAX, { "|.relu" }, { T_INT }, { 0 }, false },
    { ISA_OP_ADDC, { "|.cc" }, { T_INT }, { 0 }, false },
    { ISA_OP_SUBC, { "|.cc" }, { T_INT }, { 0 }, false },
    { ISA_OP_MADC, { ".lo|.hi", "|.cc" }, { T_INT }, { 0 }, false },
    { ISA_OP_POPC, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_CLZ, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BFIND, { "|.shiftamt" }, { T_INT }, { 0 }, false },
    { ISA_OP_FNS, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BREV, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BFE, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_BFI, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_SZEXT, { ".clamp|.wrap" }, { T_INT }, { 0 }, false },
    { ISA_OP_BMSK, { ".clamp|.wrap" }, { T_INT }, { 0 }, false },
    { ISA_OP_DP4A, { 0 }, { T_US32, T_US32 }, { 0 }, false },
    { ISA_OP_DP2A, { ".lo|.hi" }, { T_US32, T_US32 }, { 0 }, false },
    { ISA_OP_TESTP, { ".finite|.infinite|.number|.notanumber|.normal|.subnormal" }, { T_FLT }, { 0 }, false },
    { ISA_OP_SETP, { A_CMP, "|.and|.or|.xor", "|.ftz" }, { T_INT "|" T_FLT }, { 0 }, false },
    { ISA_OP_SET, { A_CMP, "|.and|.or|.xor", "|.ftz" }, { "u32|s32|f32|f16|f16x2|bf16|bf16x2", T_INT "|" T_FLT },
      { 0 }, false },
    { ISA_OP_SELP, { 0 }, { T_INT "|" T_FLT }, { 0 }, false },
    { ISA_OP_SLCT, { "|.ftz" }, { T_INT "|" T_FLT, "s32|f32" }, { 0 }, false },
    { ISA_OP_AND, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_OR, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_XOR, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_NOT, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_CNOT, { 0 }, { "pred|" T_INT }, { 0 }, false },
    { ISA_OP_LOP3, { 0 }, { "b32" }, { "+0x00|+0xff|+0x96|+0xe8|+0xca|+0xf0|+0xcc|+0xaa|+0x80|+0xfe|+0x01|+0x7f|"
                                       "+0x6a|+0x3c|+0x5a|+0xb4|+0x1e|+0xd2|+0x78|+0x69" }, false },
    { ISA_OP_SHF, { ".l|.r", ".clamp|.wrap" }, { T_INT }, { 0 }, false },
    { ISA_OP_SHL, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_SHR, { 0 }, { T_INT }, { 0 }, false },
    { ISA_OP_PRMT, { 0 }, { "b32" }, { "|.f4e|.b4e|.rc8|.ecl|.ecr|.rc16" }, false },
    { ISA_OP_CVT_PACK, { ".sat" }, { "u2|s2|u4|s4|u8|s8|u16|s16", "s32", "|b32" }, { 0 }, false },
    { ISA_OP_VADD, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VSUB, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VABSDIFF, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VMIN, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VMAX, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat", "|.add|.min|.max" }, true },
    { ISA_OP_VSHL, { 0 }, { T_US32, T_US32, "u32" }, { "|.sat", ".clamp|.wrap", "|.add|.min|.max" }, true },
    { ISA_OP_VSHR, { 0 }, { T_US32, T_US32, "u32" }, { "|.sat", ".clamp|.wrap", "|.add|.min|.max" }, true },
    { ISA_OP_VMAD, { 0 }, { T_US32, T_US32, T_US32 }, { "|.po", "|.sat", "|.shr7|.shr15" }, true },
    { ISA_OP_VSET, { 0 }, { T_US32, T_US32 }, { A_VCMP, "|.add|.min|.max" }, true },
    { ISA_OP_VADD2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSUB2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VAVRG2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VABSDIFF2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMIN2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMAX2, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSET2, { 0 }, { T_US32, T_US32 }, { A_VCMP, "|.add" }, false },
    { ISA_OP_VADD4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSUB4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VAVRG4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VABSDIFF4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMIN4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VMAX4, { 0 }, { T_US32, T_US32, T_US32 }, { "|.sat|.add" }, false },
    { ISA_OP_VSET4, { 0 }, { T_US32, T_US32 }, { A_VCMP, "|.add" }, false },
};

/* Scalar video operand selectors: not crossed with everything, but each selector of
 * each operand appears, on rotating types and modifiers (the k-th alternative of each
 * axis); a destination selector takes c as its merge operand, so no secondary op. */
static const char *const fuzz_vsel[] = {
    "+a.b0+b.b1", "+a.b1+b.b2", "+a.b2+b.b3", "+a.b3+b.b0", "+a.h0+b.h1", "+a.h1+b.h0",
    "+a.b3+b.h1", "+a.h1+b.b2", "+d.b0", "+d.b1+a.h1", "+d.b2+b.b1", "+d.b3", "+d.h0+a.b2",
    "+d.h1+b.h1",
};

/* The k-th alternative of an axis (cyclically) into out. */
static void axis_alt(const char *axis, unsigned k, char *out, size_t size)
{
    unsigned n = 1;
    for (const char *p = axis; *p; p++)
        n += *p == '|';
    k %= n;
    const char *p = axis;
    while (k--)
        p = strchr(p, '|') + 1;
    const char *q = strchr(p, '|');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    snprintf(out, size, "%.*s", (int)len, p);
}
static unsigned axis_count(const char *axis)
{
    unsigned n = 1;
    for (const char *p = axis; p && *p; p++)
        n += *p == '|';
    return axis ? n : 1;
}

/* All combinations of the form's axes: axis i of the 9 (3 pre, 3 types, 3 post) takes
 * alternative idx[i]. */
static void form_name(const fuzz_form_t *f, const unsigned idx[9], const char *suffix, char *name, size_t size)
{
    snprintf(name, size, "%s", isa_ops[f->op].mnemonic);
    for (unsigned i = 0; i < 9; i++) {
        const char *axis = i < 3 ? f->pre[i] : i < 6 ? f->types[i - 3] : f->post[i - 6];
        if (!axis)
            continue;
        char alt[32];
        axis_alt(axis, idx[i], alt, sizeof alt);
        if (i >= 3 && i < 6 && alt[0])
            fuzz_cat(name, size, ".%s", alt);
        else
            fuzz_cat(name, size, "%s", alt);
    }
    fuzz_cat(name, size, "%s", suffix);
}

static bool candidate_valid(const char *name);

/* set and setp: the comparisons the manual gives each type (floats: all 14; signed:
 * eq..ge; unsigned: those and lo, ls, hi, hs; bit types: eq, ne), .ftz on f32, f16 and
 * f16x2.  A boolean op is combined with every type but only with .lt (.eq for bit types)
 * and, for floats, .geu; set's destination types are u32, s32 and f32 (for f16, bf16
 * and their pairs: u32 and the source's own type), with a boolean op u32 alone. */
static bool cmp_keep(isa_op_t op, const char *name)
{
    char buf[96], *w[8] = { 0 };
    unsigned n = 0;
    snprintf(buf, sizeof buf, "%s", name);
    for (char *p = strtok(buf, "."); p && n < 8; p = strtok(NULL, "."))
        w[n++] = p;
    if (n < 3)
        return false;
    const char *cmp = w[1], *st = w[n - 1], *dt = op == ISA_OP_SET ? w[n - 2] : NULL;
    bool boolop = n > 2 && (!strcmp(w[2], "and") || !strcmp(w[2], "or") || !strcmp(w[2], "xor"));
    bool ftz = strstr(name, ".ftz.") != NULL;
    bool flt = st[0] == 'f' || (st[0] == 'b' && st[1] == 'f'), half = flt && strstr(st, "16");
    if (strchr(st, 'x') && !flt)
        return false;
    if (!flt && !strcmp(st + 1, "8"))
        return false;
    char key[8];
    snprintf(key, sizeof key, "%s ", cmp);
    bool ok;
    if (flt)
        ok = strstr("eq ne lt le gt ge equ neu ltu leu gtu geu num nan ", key) != NULL;
    else if (st[0] == 's')
        ok = strstr("eq ne lt le gt ge ", key) != NULL;
    else if (st[0] == 'u')
        ok = strstr("eq ne lt le gt ge lo ls hi hs ", key) != NULL;
    else
        ok = strstr("eq ne ", key) != NULL;
    if (!ok || (ftz && strcmp(st, "f32") && strcmp(st, "f16") && strcmp(st, "f16x2")))
        return false;
    if (boolop && strcmp(cmp, st[0] == 'b' && !flt ? "eq" : "lt") && !(flt && !strcmp(cmp, "geu")))
        return false;
    if (dt) {
        bool plain = !strcmp(dt, "u32") || !strcmp(dt, "s32") || !strcmp(dt, "f32");
        if (half ? strcmp(dt, "u32") && strcmp(dt, st) : !plain)
            return false;
        if (boolop && strcmp(dt, "u32"))
            return false;
    }
    return true;
}

static void enumerate_fresh(name_fn fn, void *ctx)
{
    for (size_t fi = 0; fi < sizeof fuzz_forms / sizeof *fuzz_forms; fi++) {
        const fuzz_form_t *f = &fuzz_forms[fi];
        unsigned cnt[9], idx[9] = { 0 };
        for (unsigned i = 0; i < 9; i++)
            cnt[i] = axis_count(i < 3 ? f->pre[i] : i < 6 ? f->types[i - 3] : f->post[i - 6]);
        for (;;) {
            char name[96];
            form_name(f, idx, "", name, sizeof name);
            if ((f->op == ISA_OP_SET || f->op == ISA_OP_SETP) && !cmp_keep(f->op, name))
                ;
            else if (strlen(name) < 80 && candidate_valid(name))
                fn(name, ctx);
            unsigned i = 9;
            while (i-- > 0 && ++idx[i] == cnt[i])
                idx[i] = 0;
            if (i == (unsigned)-1)
                break;
        }
        if (!f->vsel)
            continue;
        for (unsigned k = 0; k < sizeof fuzz_vsel / sizeof *fuzz_vsel; k++) {
            bool dsel = fuzz_vsel[k][1] == 'd';
            for (unsigned i = 0; i < 9; i++)
                idx[i] = (k >> (i % 3)) + i;
            if (dsel)
                for (unsigned i = 6; i < 9; i++) {
                    const char *axis = f->post[i - 6];
                    char alt[32];
                    axis_alt(axis ? axis : "", idx[i], alt, sizeof alt);
                    if (strcmp(alt, ".add") == 0 || strcmp(alt, ".min") == 0 || strcmp(alt, ".max") == 0)
                        idx[i] = 0;
                }
            char name[96];
            form_name(f, idx, fuzz_vsel[k], name, sizeof name);
            if (strlen(name) < 80 && candidate_valid(name))
                fn(name, ctx);
        }
    }
}

/* sm_100's forms that the type walk does not make: f32 arithmetic with f16 or bf16
 * sources (add, sub: d, a, c; fma: d, a, b, c) and min/max of three f32 sources. */
static void enumerate_sm100(name_fn fn, void *ctx)
{
    static const char *ops[] = { "add", "sub", "fma" }, *rnd[] = { "", ".rn", ".rz", ".rm", ".rp" };
    static const char *half[] = { "f16", "bf16" };
    char name[96];
    for (unsigned o = 0; o < 3; o++)
        for (unsigned r = 0; r < 5; r++)
            for (unsigned sat = 0; sat < 2; sat++)
                for (unsigned h = 0; h < 2; h++) {
                    snprintf(name, sizeof name, "%s%s%s.f32.%s", ops[o], rnd[r], sat ? ".sat" : "", half[h]);
                    if (candidate_valid(name))
                        fn(name, ctx);
                }
    for (unsigned o = 0; o < 2; o++)
        for (unsigned m = 0; m < 8; m++) {
            snprintf(name, sizeof name, "%s%s%s%s.f32+3", o ? "max" : "min", m & 1 ? ".ftz" : "",
                     m & 2 ? ".NaN" : "", m & 4 ? ".abs" : "");
            if (candidate_valid(name))
                fn(name, ctx);
        }
}

/* Every combination of the modifier axes the opcode's row accepts, in PTX's order:
 * precision, rounding, ftz, oob, NaN, xorsign.abs, relu, sat/satfinite; then the types. */
static void enumerate(name_fn fn, void *ctx)
{
    static const char *prec[] = { "", ".approx", ".full" };
    static const char *rnd[] = { "", ".rn", ".rz", ".rm", ".rp", ".rna", ".rni", ".rzi", ".rmi", ".rpi" };
    static const char *sat[] = { "", ".sat", ".satfinite" };
    for (size_t o = 0; o < sizeof fuzz_ops / sizeof *fuzz_ops; o++) {
        isa_op_t op = fuzz_ops[o];
        const isa_op_info_t *oi = &isa_ops[op];
        bool cvt = op == ISA_OP_CVT;
        size_t nt = cvt ? sizeof fuzz_ctypes / sizeof *fuzz_ctypes : sizeof fuzz_ftypes / sizeof *fuzz_ftypes;
        for (unsigned ip = 0; ip < (oi->groups & ISA_GM(PREC) ? 3u : 1u); ip++)
        for (unsigned ir = 0; ir < (oi->groups & ISA_GM(ROUND) ? (cvt ? 10u : 5u) : 1u); ir++)
        for (unsigned iz = 0; iz < (oi->groups & ISA_GM(FTZ) ? 2u : 1u); iz++)
        for (unsigned io = 0; io < (oi->groups & ISA_GM(OOB) ? 2u : 1u); io++)
        for (unsigned in = 0; in < (oi->groups & ISA_GM(NAN) ? 2u : 1u); in++)
        for (unsigned ix = 0; ix < (oi->groups & ISA_GM(XORSIGN) ? 2u : 1u); ix++)
        for (unsigned iu = 0; iu < (oi->groups & ISA_GM(RELU) ? 2u : 1u); iu++)
        for (unsigned is = 0; is < (oi->groups & ISA_GM(SAT) ? (cvt ? 3u : 2u) : 1u); is++)
        for (size_t t1 = 0; t1 < nt; t1++)
        for (size_t t2 = 0; t2 < (cvt ? nt : 1u); t2++) {
            char name[96];
            isa_type_t a = cvt ? fuzz_ctypes[t1] : fuzz_ftypes[t1];
            if (!(oi->types & (1ull << a)))
                continue;
            snprintf(name, sizeof name, "%s%s%s%s%s%s%s%s%s.%s%s%s", oi->mnemonic, prec[ip], rnd[ir],
                     iz ? ".ftz" : "", io ? ".oob" : "", in ? ".NaN" : "", ix ? ".xorsign.abs" : "", iu ? ".relu" : "",
                     sat[is], isa_types[a].text, cvt ? "." : "", cvt ? isa_types[fuzz_ctypes[t2]].text : "");
            if (candidate_valid(name))
                fn(name, ctx);
        }
    }
    enumerate_sm100(fn, ctx);
    enumerate_fresh(fn, ctx);
}
/*}=====================================================================*/

/*{=====================================================================
 * Recorded data: tests/fuzz/NAME.fz
 *   ptxfuzz 2
 *   variant NAME
 *   special COUNT            then the outputs of section S, hex, 8 to a line
 *   crossed COUNT            the vectors of section X (crossed specials)
 *   chunks COUNT SIZE        then one line per chunk (X's, then R's): c INDEX GPUDIGEST [EMUDIGEST MAXULP]
 *   bound ULP                (.approx variants: the asserted maximum ulp difference)
 * A digest is FNV-1a 64 of the chunk's output bytes (X's last chunk is shorter).  For .approx variants that are not
 * bit-exact, EMUDIGEST and MAXULP record the emulator's output at measure time and its
 * largest difference from the GPU's in the chunk: replay checks the emulator still
 * produces exactly that output, so the measured bound still holds.
 *====================================================================*/
typedef struct {
    char     name[80];
    size_t   nspecial, ncrossed;
    uint8_t *special;           /* nspecial * dest width bytes */
    unsigned nchunks, chunk;
    uint64_t *gpu, *emu;        /* per chunk */
    int64_t  *ulp;              /* per chunk: measured max ulp, -1 when not measured */
    int64_t   bound;            /* -1: none (bit-exact required) */
} record_t;

static void record_free(record_t *r)
{
    free(r->special);
    free(r->gpu);
    free(r->emu);
    free(r->ulp);
    memset(r, 0, sizeof *r);
}

static bool record_load(const char *path, unsigned w, record_t *r)
{
    memset(r, 0, sizeof *r);
    r->bound = -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[512];
    bool ok = false;
    size_t got = 0;
    unsigned c = 0;
    enum { HDR, SPECIAL, CHUNKS } state = HDR;
    while (fgets(line, sizeof line, f)) {
        if (state == SPECIAL && got < r->nspecial) {
            for (char *p = strtok(line, " \n"); p && got < r->nspecial; p = strtok(NULL, " \n"))
                fuzz_hex_parse(r->special + w * got++, w, p);
            continue;
        }
        if (sscanf(line, "variant %79s", r->name) == 1)
            continue;
        if (sscanf(line, "special %zu", &r->nspecial) == 1) {
            r->special = calloc(r->nspecial ? r->nspecial : 1, w);
            state = SPECIAL;
            continue;
        }
        if (sscanf(line, "crossed %zu", &r->ncrossed) == 1)
            continue;
        if (sscanf(line, "chunks %u %u", &r->nchunks, &r->chunk) == 2) {
            r->gpu = calloc(r->nchunks + 1, 8);
            r->emu = calloc(r->nchunks + 1, 8);
            r->ulp = calloc(r->nchunks + 1, 8);
            state = CHUNKS;
            continue;
        }
        if (state == CHUNKS && line[0] == 'c' && c < r->nchunks) {
            unsigned idx;
            char g[40], e[40] = "";
            long long u = -1;
            int k = sscanf(line, "c %u %39s %39s %lld", &idx, g, e, &u);
            if (k < 2 || idx != c)
                goto out;
            r->gpu[c] = strtoull(g, NULL, 16);
            r->emu[c] = k >= 3 ? strtoull(e, NULL, 16) : 0;
            r->ulp[c] = k >= 4 ? u : -1;
            c++;
            continue;
        }
        long long b;
        if (sscanf(line, "bound %lld", &b) == 1)
            r->bound = b;
    }
    ok = r->name[0] && got == r->nspecial && c == r->nchunks && r->chunk == CHUNK;
out:
    fclose(f);
    if (!ok)
        record_free(r);
    return ok;
}

static bool record_save(const char *path, const record_t *r, unsigned w)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return false;
    fprintf(f, "ptxfuzz 2\nvariant %s\nspecial %zu\n", r->name, r->nspecial);
    for (size_t i = 0; i < r->nspecial; i++) {
        fuzz_hex_print(f, r->special + w * i, w);
        fputc(i % 8 == 7 || i + 1 == r->nspecial ? '\n' : ' ', f);
    }
    fprintf(f, "crossed %zu\nchunks %u %u\n", r->ncrossed, r->nchunks, r->chunk);
    for (unsigned c = 0; c < r->nchunks; c++) {
        fprintf(f, "c %u %016llx", c, (unsigned long long)r->gpu[c]);
        if (r->ulp && r->ulp[c] >= 0)
            fprintf(f, " %016llx %lld", (unsigned long long)r->emu[c], (long long)r->ulp[c]);
        fputc('\n', f);
    }
    if (r->bound >= 0)
        fprintf(f, "bound %lld\n", (long long)r->bound);
    bool ok = fclose(f) == 0;
    return ok && rename(tmp, path) == 0;
}
/*}=====================================================================*/

/*{=====================================================================
 * ulp distance (.approx variants)
 *====================================================================*/
/* Position of float bits u (e exponent, m mantissa bits) on a line where adjacent
 * floats are 1 apart; NaNs, infinities and zeros give INT64_MIN. */
static int64_t ordinal(uint64_t u, unsigned e, unsigned m)
{
    uint64_t mag = u & ((1ull << (e + m)) - 1), emask = ((1ull << e) - 1) << m;
    if ((mag & emask) == emask || mag == 0)
        return INT64_MIN;
    return u >> (e + m) & 1 ? -(int64_t)mag : (int64_t)mag;
}
/* The distance in ulp between two results; a NaN, an infinity or a zero (of either sign)
 * on either side must match exactly, else the distance is INT64_MAX: the special-value
 * handling is never approximated. */
static int64_t ulp1(uint64_t x, uint64_t y, unsigned e, unsigned m)
{
    if (x == y)
        return 0;
    int64_t a = ordinal(x, e, m), b = ordinal(y, e, m);
    if (a == INT64_MIN || b == INT64_MIN)
        return INT64_MAX;
    return a > b ? a - b : b - a;
}
static int64_t ulp_diff(kind_t k, uint64_t x, uint64_t y)
{
    switch (k) {
    case K_F32: return ulp1(x, y, 8, 23);
    case K_F64: return ulp1(x, y, 11, 52);
    case K_F16: return ulp1(x, y, 5, 10);
    case K_BF16: return ulp1(x, y, 8, 7);
    case K_F16X2: case K_BF16X2: {
        unsigned e = k == K_F16X2 ? 5 : 8, m = k == K_F16X2 ? 10 : 7;
        int64_t a = ulp1(x & 0xffff, y & 0xffff, e, m), b = ulp1(x >> 16, y >> 16, e, m);
        return a > b ? a : b;
    }
    default: return x == y ? 0 : INT64_MAX;
    }
}
static int64_t max_ulp(kind_t k, const uint8_t *x, const uint8_t *y, size_t n)
{
    unsigned w = fuzz_kind_bytes[k];
    int64_t worst = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t d = ulp_diff(k, fuzz_get_le(x + w * i, w), fuzz_get_le(y + w * i, w));
        if (d > worst)
            worst = d;
    }
    return worst;
}
/*}=====================================================================*/

/*{=====================================================================
 * Commands
 *====================================================================*/
typedef struct {
    const char *dir, *raw;
    int backend;
    unsigned nchunks;
    bool verbose;
} opts_t;

static void fz_path(char *buf, size_t size, const char *dir, const char *name, const char *ext)
{
    snprintf(buf, size, "%s/%s%s", dir, name, ext);
}

static void list_one(const char *name, void *ctx)
{
    (void)ctx;
    puts(name);
}
/* list -v: each variant with its counts of special, crossed-special and random vectors. */
static void list_counts(const char *name, void *ctx)
{
    variant_t v;
    if (fuzz_parse(name, &v))
        printf("%s %zu %zu %u\n", name, fuzz_nspecial(&v), fuzz_ncrossed(&v), *(unsigned *)ctx * CHUNK);
}

typedef struct { char **names; size_t n, cap; } names_t;
static void collect(const char *name, void *ctx)
{
    names_t *ns = ctx;
    if (ns->n == ns->cap)
        ns->names = realloc(ns->names, (ns->cap = ns->cap ? 2 * ns->cap : 256) * sizeof *ns->names);
    ns->names[ns->n++] = strdup(name);
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The recorded variants in dir (NAME.fz), sorted. */
static void recorded_names(const char *dir, names_t *ns)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".fz") == 0) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s", (int)(n - 3), e->d_name);
            collect(buf, ns);
        }
    }
    closedir(d);
    qsort(ns->names, ns->n, sizeof *ns->names, cmp_str);
}

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f);
}

/* record: run every vector of a variant on the backend (the GPU), keep the special
 * outputs whole and the random chunks' digests; with --raw, also write the full outputs
 * (NAME.bin), which measure and show read. */
static int cmd_record(const opts_t *o, names_t *ns)
{
    int bad = 0;
    for (size_t i = 0; i < ns->n; i++) {
        variant_t v;
        if (!fuzz_parse(ns->names[i], &v)) {
            fprintf(stderr, "ptxfuzz: %s: not a variant ptxfuzz can test\n", ns->names[i]);
            bad = 1;
            continue;
        }
        size_t nsp = fuzz_nspecial(&v), nx = fuzz_ncrossed(&v);
        unsigned nc = fuzz_nxchunks(&v) + o->nchunks;
        size_t n = nsp + nx + (size_t)o->nchunks * CHUNK;
        unsigned w = fuzz_out_bytes(&v);
        uint8_t *out = malloc(n * w);
        char err[512];
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        isa_status_t st = variant_run(&v, o->backend, 0, n, out, err, sizeof err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (st != ISA_ST_OK) {
            printf("SKIP %s: %s\n", v.name, err);
            free(out);
            continue;
        }
        record_t r = { 0 };
        snprintf(r.name, sizeof r.name, "%s", v.name);
        r.nspecial = nsp;
        r.ncrossed = nx;
        r.special = out;
        r.nchunks = nc;
        r.chunk = CHUNK;
        r.gpu = calloc(nc + 1, 8);
        r.bound = -1;
        for (unsigned c = 0; c < nc; c++) {
            size_t cf, cn;
            fuzz_chunk_range(&v, c, &cf, &cn);
            r.gpu[c] = fuzz_fnv1a(out + cf * w, cn * w, 0xcbf29ce484222325ull);
        }
        char path[4096];
        fz_path(path, sizeof path, o->dir, v.name, ".fz");
        if (!record_save(path, &r, w)) {
            fprintf(stderr, "ptxfuzz: cannot write %s\n", path);
            bad = 2;
        }
        if (o->raw) {
            /* Whole for .approx variants (measure needs them), else the specials, the
             * crossed specials and the first two random chunks (enough to look at a
             * mismatch without the GPU). */
            size_t keep = v.approx || n < nsp + nx + 2 * CHUNK ? n : nsp + nx + 2 * CHUNK;
            fz_path(path, sizeof path, o->raw, v.name, ".bin");
            if (write_file(path, out, keep * w) != 0)
                fprintf(stderr, "ptxfuzz: cannot write %s\n", path);
        }
        printf("recorded %s: %zu vectors, %.3fs\n", v.name, n,
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        fflush(stdout);
        r.special = NULL;
        free(out);
        record_free(&r);
    }
    return bad;
}

static void print_vector(const variant_t *v, size_t idx, const uint8_t *in[4], size_t j)
{
    printf("  vector %zu:", idx);
    for (unsigned s = 0; s < v->nsrc; s++) {
        unsigned w = fuzz_kind_bytes[v->sk[s]];
        printf(" %c=%0*llx", 'a' + s, (int)w * 2, (unsigned long long)fuzz_get_le(in[s] + j * w, w));
    }
}

/* Replay one recorded variant on the emulator.  Returns 0 when it matches (or stays
 * within its recorded ulp bound), 1 on a mismatch, 3 when unsupported, 2 on errors. */
static int replay_one(const opts_t *o, const char *name, double *out_secs, size_t *out_vectors)
{
    variant_t v;
    if (!fuzz_parse(name, &v)) {
        printf("FAIL %s: not a variant ptxfuzz can test\n", name);
        return 2;
    }
    unsigned w = fuzz_out_bytes(&v);
    char path[4096];
    fz_path(path, sizeof path, o->dir, name, ".fz");
    record_t r;
    if (!record_load(path, w, &r) || strcmp(r.name, name) != 0) {
        printf("FAIL %s: cannot read %s\n", name, path);
        return 2;
    }
    unsigned nxc = fuzz_nxchunks(&v);
    if (r.nspecial != fuzz_nspecial(&v) || r.ncrossed != fuzz_ncrossed(&v) || r.nchunks < nxc) {
        printf("FAIL %s: %s was recorded with other special vectors (%zu + %zu crossed; now %zu + %zu): "
               "record it again\n", name, path, r.nspecial, r.ncrossed, fuzz_nspecial(&v), fuzz_ncrossed(&v));
        record_free(&r);
        return 2;
    }
    size_t n = r.nspecial + r.ncrossed + (size_t)(r.nchunks - nxc) * CHUNK;
    uint8_t *out = malloc(n * w);
    char err[512];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    isa_status_t st = variant_run(&v, BE_EMU, 0, n, out, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *out_secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    *out_vectors = n;
    int rc = 0;
    if (st != ISA_ST_OK) {
        printf("UNSUPPORTED %s: %s\n", name, err);
        rc = 3;
        goto done;
    }
    /* Specials: whole values. */
    size_t bad = 0, first = 0;
    int64_t sworst = 0;
    for (size_t i = 0; i < r.nspecial; i++) {
        if (memcmp(out + i * w, r.special + i * w, w) == 0)
            continue;
        int64_t d = v.approx ? ulp_diff(v.dk, fuzz_get_le(out + i * w, w), fuzz_get_le(r.special + i * w, w)) : INT64_MAX;
        if (d > sworst)
            sworst = d;
        if (r.bound >= 0 && d <= r.bound)
            continue;
        if (!bad++)
            first = i;
    }
    if (bad) {
        uint8_t *in[4] = { malloc(8), malloc(8), malloc(8), malloc(8) };
        fuzz_inputs(&v, first, 1, in);
        printf("FAIL %s: %zu of %zu special vectors differ; first:", name, bad, r.nspecial);
        print_vector(&v, first, (const uint8_t **)in, 0);
        printf(" got ");
        fuzz_hex_print(stdout, out + first * w, w);
        printf(", GPU ");
        fuzz_hex_print(stdout, r.special + first * w, w);
        printf("\n");
        for (unsigned s = 0; s < 4; s++)
            free(in[s]);
        rc = 1;
        goto done;
    }
    for (unsigned c = 0; c < r.nchunks; c++) {
        size_t cf, cn;
        fuzz_chunk_range(&v, c, &cf, &cn);
        uint64_t h = fuzz_fnv1a(out + cf * w, cn * w, 0xcbf29ce484222325ull);
        if (h == r.gpu[c])
            continue;
        if (r.bound >= 0 && r.ulp[c] >= 0 && h == r.emu[c] && r.ulp[c] <= r.bound)
            continue;
        printf("FAIL %s: %s chunk %u (vectors %zu..%zu) differs from the GPU's%s; see it with "
               "'tests/fuzz/show-chunk.sh %s %u' on the GPU\n", name, c < nxc ? "crossed-special" : "random",
               c, cf, cf + cn - 1,
               r.bound >= 0 ? " and from the output measured within the bound (run measure again)" : "",
               name, c);
        rc = 1;
        goto done;
    }
    if (o->verbose)
        printf("ok %s%s\n", name, r.bound >= 0 ? " (within its ulp bound)" : "");
done:
    free(out);
    record_free(&r);
    return rc;
}

static int cmd_replay(const opts_t *o, names_t *ns)
{
    size_t fails = 0, unsup = 0, total = 0;
    double secs = 0;
    for (size_t i = 0; i < ns->n; i++) {
        double s = 0;
        size_t nv = 0;
        int rc = replay_one(o, ns->names[i], &s, &nv);
        secs += s;
        total += nv;
        fails += rc == 1 || rc == 2;
        unsup += rc == 3;
    }
    printf("replayed %zu variants, %zu vectors in %.2fs (%.1f M vectors/s): %zu mismatching, %zu unsupported\n",
           ns->n, total, secs, secs > 0 ? (double)total / secs / 1e6 : 0.0, fails, unsup);
    return fails || unsup ? 1 : 0;
}

/* show: a chunk's vectors (chunk -1: the specials) with the outputs of the backend(s). */
static int cmd_show(const opts_t *o, const char *name, long chunk)
{
    variant_t v;
    if (!fuzz_parse(name, &v)) {
        fprintf(stderr, "ptxfuzz: %s: not a variant ptxfuzz can test\n", name);
        return 2;
    }
    size_t first = 0, n = fuzz_nspecial(&v);
    if (chunk >= 0)
        fuzz_chunk_range(&v, (unsigned)chunk, &first, &n);
    unsigned w = fuzz_out_bytes(&v);
    uint8_t *emu = malloc(n * w), *gpu = malloc(n * w), *in[4];
    for (unsigned s = 0; s < 4; s++)
        in[s] = malloc(n * 8);
    fuzz_inputs(&v, first, n, in);
    char err[512];
    bool he = false, hg = false;
    if (o->backend & BE_EMU) {
        he = variant_run(&v, BE_EMU, first, n, emu, err, sizeof err) == ISA_ST_OK;
        if (!he)
            printf("emulator: %s\n", err);
    }
    if (o->backend & BE_CUDA) {
        hg = variant_run(&v, BE_CUDA, first, n, gpu, err, sizeof err) == ISA_ST_OK;
        if (!hg)
            printf("GPU: %s\n", err);
    } else if (o->raw) {
        /* The GPU's outputs from a record --raw run, where it kept this chunk. */
        char path[4096];
        fz_path(path, sizeof path, o->raw, v.name, ".bin");
        FILE *f = fopen(path, "rb");
        hg = f && fseek(f, (long)(first * w), SEEK_SET) == 0 && fread(gpu, w, n, f) == n;
        if (f)
            fclose(f);
        if (!hg)
            printf("GPU: chunk not in %s\n", path);
    }
    size_t diffs = 0;
    for (size_t j = 0; j < n; j++) {
        bool differ = he && hg && memcmp(emu + j * w, gpu + j * w, w) != 0;
        diffs += differ;
        if (o->verbose || !(he && hg) || differ) {
            print_vector(&v, first + j, (const uint8_t **)in, j);
            if (he) {
                printf(" emu ");
                fuzz_hex_print(stdout, emu + j * w, w);
            }
            if (hg) {
                printf(" gpu ");
                fuzz_hex_print(stdout, gpu + j * w, w);
            }
            puts(differ ? "  <-- differs" : "");
        }
    }
    if (he && hg)
        printf("%s chunk %ld: %zu of %zu vectors differ\n", name, chunk, diffs, n);
    for (unsigned s = 0; s < 4; s++)
        free(in[s]);
    free(emu);
    free(gpu);
    return diffs ? 1 : 0;
}

/* measure: for a recorded .approx (or .full) variant whose GPU outputs are in --raw, run
 * the emulator, and record per chunk its digest and largest ulp difference, and the bound
 * (the largest over the chunks and the specials); refused when a NaN, an infinity or a
 * zero differs anywhere. */
static int cmd_measure(const opts_t *o, names_t *ns)
{
    int bad = 0;
    for (size_t i = 0; i < ns->n; i++) {
        variant_t v;
        if (!fuzz_parse(ns->names[i], &v) || !v.approx)
            continue;
        unsigned w = fuzz_kind_bytes[v.dk];
        char path[4096];
        fz_path(path, sizeof path, o->dir, v.name, ".fz");
        record_t r;
        if (!record_load(path, w, &r))
            continue;
        unsigned nxc = fuzz_nxchunks(&v);
        if (r.nspecial != fuzz_nspecial(&v) || r.ncrossed != fuzz_ncrossed(&v) || r.nchunks < nxc) {
            printf("not measured %s: recorded with other special vectors\n", v.name);
            record_free(&r);
            bad = 1;
            continue;
        }
        size_t n = r.nspecial + r.ncrossed + (size_t)(r.nchunks - nxc) * CHUNK;
        uint8_t *gpu = malloc(n * w), *emu = malloc(n * w);
        char rpath[4096], err[512];
        fz_path(rpath, sizeof rpath, o->raw, v.name, ".bin");
        FILE *f = fopen(rpath, "rb");
        bool have = f && fread(gpu, w, n, f) == n;
        if (f)
            fclose(f);
        if (!have || variant_run(&v, BE_EMU, 0, n, emu, err, sizeof err) != ISA_ST_OK) {
            printf("not measured %s: %s\n", v.name, have ? err : "no raw GPU outputs");
            bad = 1;
        } else {
            int64_t worst = max_ulp(v.dk, emu, gpu, r.nspecial);
            for (unsigned c = 0; c < r.nchunks; c++) {
                size_t cf, cn;
                fuzz_chunk_range(&v, c, &cf, &cn);
                size_t off = cf * w;
                r.emu[c] = fuzz_fnv1a(emu + off, cn * w, 0xcbf29ce484222325ull);
                r.ulp[c] = max_ulp(v.dk, emu + off, gpu + off, cn);
                if (r.ulp[c] > worst)
                    worst = r.ulp[c];
            }
            if (worst == INT64_MAX) {
                /* A NaN, infinity or zero differs: no bound can cover that. */
                printf("not measured %s: a NaN, infinity or zero differs from the GPU's\n", v.name);
                bad = 1;
            } else {
                r.bound = worst;
                if (worst == 0)
                    for (unsigned c = 0; c < r.nchunks; c++)
                        r.ulp[c] = -1;
                if (worst == 0)
                    r.bound = -1;
                printf("measured %s: max %lld ulp\n", v.name, (long long)worst);
                if (!record_save(path, &r, w))
                    bad = 2;
            }
        }
        free(gpu);
        free(emu);
        record_free(&r);
    }
    return bad;
}

static void usage(FILE *f)
{
    fputs("usage: ptxfuzz list [--sm100] [-v]   (-v: each with its special, crossed and random vector counts)\n"
          "       ptxfuzz record [--dir DIR] [--raw DIR] [--backend cuda|emu] [--chunks N] [NAME...]\n"
          "       ptxfuzz replay [--dir DIR] [-v] [NAME...]\n"
          "       ptxfuzz show [--backend emu|cuda|both] [--raw DIR] [-v] NAME CHUNK   (CHUNK -1: the specials)\n"
          "       ptxfuzz kernel [--backend emu|cuda] NAME\n"
          "       ptxfuzz measure [--dir DIR] --raw DIR [NAME...]\n"
          "       ptxfuzz doc [--dir DIR]   (the verification status page, from the source root)\n", f);
}

/* Whether a variant needs sm_100 and is recorded through its sm_90 equivalent (doc). */
static bool via_sm90(const char *name)
{
    variant_t v;
    return fuzz_parse(name, &v) && v.sm100;
}
static void list_sm100(const char *name, void *ctx)
{
    if (via_sm90(name))
        list_one(name, ctx);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    opts_t o = { "tests/fuzz", NULL, BE_EMU, NCHUNKS, false };
    names_t ns = { 0 };
    bool sm100 = false;
    int i = 2;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] && !(argv[i][1] >= '0' && argv[i][1] <= '9'); i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0) {
            o.verbose = true;
        } else if (strcmp(a, "--sm100") == 0) {
            sm100 = true;
        } else if (i + 1 < argc && strcmp(a, "--dir") == 0) {
            o.dir = argv[++i];
        } else if (i + 1 < argc && strcmp(a, "--raw") == 0) {
            o.raw = argv[++i];
        } else if (i + 1 < argc && strcmp(a, "--chunks") == 0) {
            o.nchunks = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (i + 1 < argc && strcmp(a, "--backend") == 0) {
            const char *b = argv[++i];
            o.backend = strcmp(b, "cuda") == 0 ? BE_CUDA : strcmp(b, "both") == 0 ? BE_EMU | BE_CUDA : BE_EMU;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (strcmp(cmd, "list") == 0) {
        if (o.verbose)
            enumerate(list_counts, &o.nchunks);
        else
            enumerate(sm100 ? list_sm100 : list_one, NULL);
        return 0;
    }
    if (strcmp(cmd, "doc") == 0)
        return fuzz_doc_write(stdout, o.dir, via_sm90);
    if (strcmp(cmd, "kernel") == 0) {
        variant_t v;
        if (argc - i != 1 || !fuzz_parse(argv[i], &v)) {
            usage(stderr);
            return 2;
        }
        fputs(fuzz_kernel(&v, o.backend == BE_CUDA), stdout);
        return 0;
    }
    if (strcmp(cmd, "show") == 0) {
        if (argc - i != 2) {
            usage(stderr);
            return 2;
        }
        return cmd_show(&o, argv[i], strtol(argv[i + 1], NULL, 10));
    }
    for (; i < argc; i++)
        collect(argv[i], &ns);
    int rc = 2;
    if (strcmp(cmd, "record") == 0) {
        if (!ns.n)
            enumerate(collect, &ns);
        if (o.raw)
            mkdir(o.raw, 0777);
        mkdir(o.dir, 0777);
        rc = cmd_record(&o, &ns);
    } else {
        if (!ns.n)
            recorded_names(o.dir, &ns);
        if (strcmp(cmd, "replay") == 0)
            rc = cmd_replay(&o, &ns);
        else if (strcmp(cmd, "measure") == 0 && o.raw)
            rc = cmd_measure(&o, &ns);
        else
            usage(stderr);
    }
    for (size_t k = 0; k < ns.n; k++)
        free(ns.names[k]);
    free(ns.names);
    return rc;
}
/*}=====================================================================*/
