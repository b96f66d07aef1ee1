/* check_link.c: the PTX linker (frontend/link.c): .extern resolution, .weak and .common
 * definitions, file-scope names kept apart, and the located errors: two definitions,
 * undefined names, declarations that disagree.  Each case is a row of units, the first
 * line of the diagnostics expected (or none), and a check of the linked module. */
#include <check.h>
#include <glob.h>
#include <unistd.h>

#include "testutil.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* An entry that calls f(1) and reads g: the user of most cases (lines 4 to 16). */
#define USE_F_G                                                                                     \
    HDR ".extern .func (.param .b32 r) f(.param .b32 a);\n"                                        \
        ".extern .global .u32 g;\n"                                                                \
        ".visible .entry k(.param .u64 p)\n"                                                       \
        "{\n"                                                                                      \
        ".reg .b32 %r<3>;\n"                                                                       \
        ".param .b32 pa;\n"                                                                        \
        ".param .b32 pr;\n"                                                                        \
        "st.param.b32 [pa], 1;\n"                                                                  \
        "call (pr), f, (pa);\n"                                                                    \
        "ld.param.b32 %r1, [pr];\n"                                                                \
        "ld.global.u32 %r2, [g];\n"                                                                \
        "ret;\n"                                                                                   \
        "}\n"

/* f returning the constant V, with linkage LINK. */
#define DEF_F(LINK, V)                                                                             \
    LINK " .func (.param .b32 r) f(.param .b32 a)\n{\nst.param.b32 [r], " #V ";\nret;\n}\n"

static const char *const provided[] = { "vprintf", "malloc", "free", "__assertfail", NULL };

/* Link the units (named a.ptx, b.ptx, ...); the diagnostics into *out_diag. */
static isa_module_t *link_units(const char *const *texts, char **out_diag)
{
    static const char *const names[] = { "a.ptx", "b.ptx", "c.ptx", "d.ptx" };
    size_t lens[4];
    unsigned n = 0;
    while (n < 4 && texts[n]) {
        lens[n] = strlen(texts[n]);
        n++;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *d = open_memstream(&buf, &len);
    fe_options_t o = { .diag = d, .provided = provided };
    isa_module_t *m = NULL;
    isa_status_t st = fe_link_texts(n, names, texts, lens, NULL, &o, &m);
    fclose(d);
    ck_assert_int_eq(st == ISA_ST_OK, m != NULL);
    *out_diag = buf;
    return m;
}

static uint32_t var_named(const isa_module_t *m, const char *name)
{
    for (uint32_t i = 0; i < m->nvar; i++)
        if (strcmp(m->vars[i].name, name) == 0)
            return i;
    return ISA_NONE;
}

/* The callee of the first call in function fi. */
static uint32_t first_callee(const isa_module_t *m, uint32_t fi)
{
    const isa_func_t *f = &m->funcs[fi];
    for (uint32_t i = 0; i < f->ninstr; i++)
        if (f->instrs[i].op == ISA_OP_CALL)
            for (uint32_t k = 0; k < f->instrs[i].nopd; k++)
                if (f->opds[f->instrs[i].opd + k].kind == ISA_OPD_FUNC)
                    return f->opds[f->instrs[i].opd + k].u.func;
    return ISA_NONE;
}

/* The constant f stores as its result (the DEF_F bodies). */
static int64_t f_result(const isa_module_t *m)
{
    uint32_t fi = isa_module_find_func(m, "f");
    ck_assert_uint_ne(fi, ISA_NONE);
    const isa_func_t *f = &m->funcs[fi];
    ck_assert(f->has_body);
    return f->opds[f->instrs[0].opd + 1].imm;
}

/*{=====================================================================
 * Checks of linked modules
 *====================================================================*/
static void check_resolved(const isa_module_t *m)
{
    uint32_t k = isa_module_find_func(m, "k"), f = isa_module_find_func(m, "f");
    ck_assert_uint_ne(k, ISA_NONE);
    ck_assert_uint_ne(f, ISA_NONE);
    ck_assert_uint_eq(first_callee(m, k), f);
    ck_assert(m->funcs[f].has_body);
    /* one g, b.ptx's definition with its initializer; k's load names it */
    uint32_t g = var_named(m, "g");
    ck_assert_uint_ne(g, ISA_NONE);
    ck_assert_int_eq(m->vars[g].linkage, ISA_LINK_VISIBLE);
    ck_assert_uint_eq(m->vars[g].ninit, 1);
    ck_assert_int_eq(m->vars[g].init[0].value, 7);
    ck_assert_uint_eq(m->nvar, 1);
    const isa_func_t *kf = &m->funcs[k];
    const isa_operand_t *a = &kf->opds[kf->instrs[3].opd + 1];
    ck_assert_int_eq(a->kind, ISA_OPD_ADDR);
    ck_assert_uint_eq(a->u.sym, g);
    /* locations keep their unit: k is a.ptx's (source 0), f b.ptx's (source 1) */
    ck_assert_uint_eq(m->nsrc, 2);
    ck_assert_str_eq(m->srcs[m->funcs[k].loc.file].name, "a.ptx");
    ck_assert_str_eq(m->srcs[m->funcs[f].loc.file].name, "b.ptx");
    ck_assert_str_eq(m->srcs[kf->instrs[4].loc.file].name, "a.ptx");
}

static void check_result_2(const isa_module_t *m) { ck_assert_int_eq(f_result(m), 2); }
static void check_result_1(const isa_module_t *m) { ck_assert_int_eq(f_result(m), 1); }

static void check_common_16(const isa_module_t *m)
{
    uint32_t c = var_named(m, "c");
    ck_assert_uint_ne(c, ISA_NONE);
    ck_assert_uint_eq(m->vars[c].size, 16);
    ck_assert_uint_eq(m->vars[c].align, 8);   /* the largest alignment asked for */
    ck_assert_uint_eq(m->nvar, 1);
}

static void check_common_init(const isa_module_t *m)
{
    uint32_t c = var_named(m, "c");
    ck_assert_uint_eq(m->vars[c].size, 8);
    ck_assert_uint_eq(m->vars[c].ninit, 8);
    ck_assert_int_eq(m->vars[c].init[0].value, 3);
}

static void check_unused_dropped(const isa_module_t *m)
{
    ck_assert_uint_eq(var_named(m, "unused"), ISA_NONE);
    ck_assert_uint_eq(isa_module_find_func(m, "nobody"), ISA_NONE);
    ck_assert_uint_ne(isa_module_find_func(m, "k"), ISA_NONE);
}

static void check_provided(const isa_module_t *m)
{
    uint32_t v = isa_module_find_func(m, "vprintf");
    ck_assert_uint_ne(v, ISA_NONE);
    ck_assert(!m->funcs[v].has_body);
    ck_assert_uint_eq(first_callee(m, isa_module_find_func(m, "k")), v);
}

/* a.ptx's file-scope s and h keep their names; b.ptx's become s$1 and h$1 and its
 * entry uses them; a file-scope v of a.ptx yields to c.ptx's global v. */
static void check_file_scope(const isa_module_t *m)
{
    uint32_t s = var_named(m, "s"), s1 = var_named(m, "s$1");
    ck_assert_uint_ne(s, ISA_NONE);
    ck_assert_uint_ne(s1, ISA_NONE);
    ck_assert_int_eq(m->vars[s].init[0].value, 1);
    ck_assert_int_eq(m->vars[s1].init[0].value, 2);
    uint32_t h = isa_module_find_func(m, "h"), h1 = isa_module_find_func(m, "h$1");
    ck_assert_uint_ne(h, ISA_NONE);
    ck_assert_uint_ne(h1, ISA_NONE);
    uint32_t ka = isa_module_find_func(m, "ka"), kb = isa_module_find_func(m, "kb");
    ck_assert_uint_eq(first_callee(m, ka), h);
    ck_assert_uint_eq(first_callee(m, kb), h1);
    /* kb reads b.ptx's s (s$1) */
    const isa_func_t *f = &m->funcs[kb];
    ck_assert_uint_eq(f->opds[f->instrs[0].opd + 1].u.sym, s1);
    uint32_t v = var_named(m, "v"), v1 = var_named(m, "v$1");
    ck_assert_int_eq(m->vars[v].linkage, ISA_LINK_VISIBLE);
    ck_assert_int_eq(m->vars[v1].linkage, ISA_LINK_NONE);
    ck_assert_str_eq(m->srcs[m->vars[v1].loc.file].name, "a.ptx");
}

static void check_dynamic_shared(const isa_module_t *m)
{
    uint32_t d = var_named(m, "dyn");
    ck_assert_uint_ne(d, ISA_NONE);
    ck_assert_int_eq(m->vars[d].linkage, ISA_LINK_EXTERN);
    ck_assert_uint_eq(m->vars[d].align, 16);
    ck_assert_uint_eq(m->nvar, 1);
}

/* .file numbers of the second unit move past the first's, with its .loc records. */
static void check_files(const isa_module_t *m)
{
    ck_assert_uint_eq(m->nfile, 2);
    ck_assert_uint_eq(m->files[0].index, 1);
    ck_assert_uint_eq(m->files[1].index, 2);
    ck_assert_str_eq(m->files[1].name, "b.cu");
    uint32_t kb = isa_module_find_func(m, "kb");
    ck_assert_uint_eq(m->funcs[kb].dbg[0].file, 2);
}
/*}=====================================================================*/

typedef struct {
    const char *name;
    const char *units[4];
    const char *err;                         /* first line of the diagnostics, or NULL */
    void (*check)(const isa_module_t *m);    /* of the linked module */
} link_case_t;

#define ENTRY_USES(K, SYM) ".visible .entry " K "()\n{\n.reg .b64 %rd1;\nmov.u64 %rd1, " SYM ";\nret;\n}\n"

static const link_case_t cases[] = {
    { "extern_resolves", { USE_F_G, HDR DEF_F(".visible", 1) ".visible .global .u32 g = 7;\n" }, NULL,
      check_resolved },
    /* the definition may come first */
    { "definition_first", { HDR DEF_F(".visible", 1) ".visible .global .u32 g = 7;\n", USE_F_G }, NULL,
      check_result_1 },
    { "weak_yields_to_visible",
      { USE_F_G, HDR DEF_F(".weak", 1) ".visible .global .u32 g;\n", HDR DEF_F(".visible", 2) }, NULL,
      check_result_2 },
    { "first_weak_wins",
      { USE_F_G, HDR DEF_F(".weak", 1) ".visible .global .u32 g;\n", HDR DEF_F(".weak", 2) }, NULL,
      check_result_1 },
    { "common_takes_largest",
      { HDR ".common .global .align 4 .b8 c[4];\n", HDR ".common .global .align 8 .b8 c[16];\n",
        HDR ".common .global .b8 c[8];\n" ENTRY_USES("k", "c") },
      NULL, check_common_16 },
    { "common_initializer",
      { HDR ".common .global .b8 c[4];\n" ENTRY_USES("k", "c"), HDR ".common .global .b8 c[8] = {3, 0, 0, 0, 0, 0, 0, 0};\n" },
      NULL, check_common_init },
    { "common_initializer_not_largest",
      { HDR ".common .global .b8 c[4] = {1, 2, 3, 4};\n", HDR ".common .global .b8 c[8];\n" },
      "a.ptx:4:21: error: the initialized .common variable 'c' (4 bytes) must be the largest, but b.ptx:4:21 "
      "declares 8 bytes", NULL },
    { "two_visible_functions",
      { USE_F_G, HDR DEF_F(".visible", 1) ".visible .global .u32 g;\n", HDR DEF_F(".visible", 2) },
      "c.ptx:4:32: error: duplicate definition of function 'f': it is also defined at b.ptx:4:32", NULL },
    { "two_visible_variables",
      { HDR ".visible .global .u32 g = 1;\n", HDR ".visible .global .u32 g = 2;\n" },
      "b.ptx:4:23: error: duplicate definition of 'g': it is also defined (.visible) at a.ptx:4:23", NULL },
    { "undefined_function", { USE_F_G, HDR ".visible .global .u32 g;\n" },
      "a.ptx:12:12: error: undefined reference to function 'f': no unit defines it (declared at a.ptx:4:31)",
      NULL },
    { "undefined_variable", { USE_F_G, HDR DEF_F(".visible", 1) },
      "a.ptx:14:20: error: undefined reference to variable 'g': no unit defines it (declared at a.ptx:5:22)",
      NULL },
    { "unused_extern_dropped",
      { HDR ".extern .global .u32 unused;\n.extern .func nobody;\n.visible .entry k()\n{\nret;\n}\n" }, NULL,
      check_unused_dropped },
    { "runtime_function",
      { HDR ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
            ".visible .entry k()\n{\n.param .b64 p0;\n.param .b64 p1;\n.param .b32 pr;\n"
            "st.param.b64 [p0], 0;\nst.param.b64 [p1], 0;\ncall (pr), vprintf, (p0, p1);\nret;\n}\n" },
      NULL, check_provided },
    { "file_scope_names_kept_apart",
      { HDR ".global .u32 s = 1;\n.global .u32 v;\n.func h\n{\nret;\n}\n.visible .entry ka()\n{\ncall h;\nret;\n}\n",
        HDR ".global .u32 s = 2;\n.func h\n{\nret;\n}\n"
            ".visible .entry kb()\n{\n.reg .b32 %r1;\nld.global.u32 %r1, [s];\ncall h;\nret;\n}\n",
        HDR ".visible .global .u32 v = 3;\n" },
      NULL, check_file_scope },
    { "dynamic_shared_memory",
      { HDR ".extern .shared .align 16 .b8 dyn[];\n" ENTRY_USES("ka", "dyn"),
        HDR ".extern .shared .align 4 .b8 dyn[];\n" ENTRY_USES("kb", "dyn") },
      NULL, check_dynamic_shared },
    { "parameters_differ",
      { USE_F_G, HDR ".visible .func (.param .b32 r) f(.param .b64 a)\n{\nret;\n}\n.visible .global .u32 g;\n" },
      "b.ptx:4:32: error: declaration of 'f' does not match its declaration at a.ptx:4:31 (kind or parameters "
      "differ)", NULL },
    { "function_and_variable", { USE_F_G, HDR ".visible .global .u32 f;\n.visible .global .u32 g;\n" },
      "b.ptx:4:23: error: 'f' is a variable here but a function at a.ptx:4:31", NULL },
    { "state_spaces_differ", { USE_F_G, HDR DEF_F(".visible", 1) ".visible .const .u32 g = 7;\n" },
      "b.ptx:9:22: error: 'g' is declared in .const here but in .global at a.ptx:5:22", NULL },
    { "extern_larger_than_definition",
      { HDR ".extern .global .align 4 .b8 t[32];\n" ENTRY_USES("k", "t"), HDR ".visible .global .align 4 .b8 t[16];\n" },
      "a.ptx:4:30: error: 't' is declared with 32 bytes here, but its definition at b.ptx:4:31 has 16", NULL },
    { "address_sizes_differ",
      { HDR ENTRY_USES("ka", "ka"), ".version 8.0\n.target sm_90\n.address_size 32\n" },
      "b.ptx:3:1: error: .address_size 32 differs from 64 in a.ptx:3:1", NULL },
    { "file_numbers",
      { HDR ".file 1 \"a.cu\"\n.visible .entry ka()\n{\n.loc 1 1 1\nret;\n}\n",
        HDR ".file 1 \"b.cu\"\n.visible .entry kb()\n{\n.loc 1 2 1\nret;\n}\n" },
      NULL, check_files },
};

START_TEST(link_case)
{
    const link_case_t *c = &cases[_i];
    char *diag = NULL;
    isa_module_t *m = link_units(c->units, &diag);
    if (c->err) {
        ck_assert_msg(m == NULL, "%s: linked, but should fail with\n%s", c->name, c->err);
        size_t n = strcspn(diag, "\n");
        ck_assert_msg(strlen(c->err) == n && strncmp(diag, c->err, n) == 0, "%s: diagnostics differ:\n%s--- want ---\n%s",
                      c->name, diag, c->err);
    } else {
        ck_assert_msg(m != NULL, "%s: link failed:\n%s", c->name, diag);
        ck_assert_msg(diag[0] == 0, "%s: unexpected diagnostics:\n%s", c->name, diag);
        if (c->check)
            c->check(m);
        /* the linked module prints as PTX that loads back to the same module */
        char *p1 = tu_render(m, isa_print_module);
        char *d2 = NULL;
        isa_module_t *m2 = tu_load("linked.ptx", p1, &d2);
        ck_assert_msg(m2 != NULL, "%s: the printed link does not load:\n%s\n%s", c->name, d2, p1);
        char *p2 = tu_render(m2, isa_print_module);
        ck_assert_str_eq(p1, p2);
        free(p1);
        free(p2);
        free(d2);
        isa_module_free(m2);
        isa_module_free(m);
    }
    free(diag);
}
END_TEST

/* Optional units (an archive's members) are linked only when they define what the units
 * taken so far need: b.ptx (f) and, for g, d.ptx; c.ptx defines f again and is left out. */
START_TEST(link_optional_units)
{
    const char *names[] = { "a.ptx", "b.ptx", "c.ptx", "d.ptx" };
    const char *texts[] = { USE_F_G, HDR DEF_F(".visible", 1), HDR DEF_F(".visible", 2) ".visible .global .u32 x;\n",
                            HDR ".visible .global .u32 g = 7;\n" };
    size_t lens[4];
    for (int i = 0; i < 4; i++)
        lens[i] = strlen(texts[i]);
    const bool optional[] = { false, true, true, true };
    char *buf = NULL;
    size_t len = 0;
    FILE *d = open_memstream(&buf, &len);
    fe_options_t o = { .diag = d };
    isa_module_t *m = NULL;
    ck_assert_int_eq(fe_link_texts(4, names, texts, lens, optional, &o, &m), ISA_ST_OK);
    fclose(d);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(f_result(m), 1);
    ck_assert_uint_ne(var_named(m, "g"), ISA_NONE);
    ck_assert_uint_eq(var_named(m, "x"), ISA_NONE);
    isa_module_free(m);
    free(buf);
}
END_TEST

/* Nothing to link, and units that do not load: their own errors, no link. */
START_TEST(link_nothing_and_bad_units)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *d = open_memstream(&buf, &len);
    fe_options_t o = { .diag = d };
    isa_module_t *m = (isa_module_t *)1;
    ck_assert_int_eq(fe_link(NULL, 0, NULL, &o, &m), ISA_ST_USAGE);
    ck_assert_ptr_null(m);
    const char *names[] = { "a.ptx", "b.ptx" }, *texts[] = { HDR "bogus;\n", HDR };
    size_t lens[] = { strlen(texts[0]), strlen(texts[1]) };
    ck_assert_int_eq(fe_link_texts(2, names, texts, lens, NULL, &o, &m), ISA_ST_SYNTAX);
    ck_assert_ptr_null(m);
    fclose(d);
    ck_assert_msg(strstr(buf, "a.ptx:4:1: error:") != NULL, "%s", buf);
    free(buf);
}
END_TEST

/*{=====================================================================
 * The corpus, linked with a padding unit: every index of the later unit is renumbered
 *====================================================================*/
static glob_t corpus;

/* The header F's module was loaded with, as PTX text. */
static void header_of(const isa_module_t *m, char *buf, size_t size)
{
    size_t k = (size_t)snprintf(buf, size, ".version %u.%u\n.target ", m->ver_major, m->ver_minor);
    for (uint32_t i = 0; i < m->ntarget && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? ", " : "", m->targets[i]);
    snprintf(buf + k, size - k, "\n.address_size %u\n", m->address_size);
}

/* A unit of file-scope declarations that no corpus file uses: a variable, a texture
 * reference with a sampler field (its field names are module strings), a function, and
 * with file > 0 a .file and a .loc. */
static void pad_unit(char *buf, size_t size, unsigned file)
{
    size_t k = 0;
    char loc[32];
    snprintf(loc, sizeof loc, ".loc %u 1 1\n", file);
    if (file)
        k = (size_t)snprintf(buf, size, ".file %u \"pad.cu\"\n", file);
    snprintf(buf + k, size - k,
             ".global .texref __lpad_s = { filter_mode = nearest };\n.global .u32 __lpad_v = 1;\n"
             ".func __lpad_f\n{\n%s.reg .b64 %%rd1;\nmov.u64 %%rd1, __lpad_v;\nret;\n}\n",
             file ? loc : "");
}

static char *dump_of(const isa_module_t *m) { return tu_render(m, isa_dump_module); }

/* Link units a and b (their texts); NULL when the link fails for a reason the caller
 * accepts: an .extern that only another program would define. */
static isa_module_t *link2(const char *a, const char *b, const char *path)
{
    const char *texts[] = { a, b, NULL };
    char *diag = NULL;
    isa_module_t *m = link_units(texts, &diag);
    ck_assert_msg(m != NULL || strstr(diag, "undefined reference") != NULL, "%s: link failed:\n%.1500s", path, diag);
    free(diag);
    return m;
}

/* text with ins inserted after its header (the .address_size line, else the .target one). */
static char *insert_after_header(const char *text, const char *ins)
{
    const char *p = strstr(text, ".address_size");
    if (!p)
        p = strstr(text, ".target");
    ck_assert(p != NULL);
    p += strcspn(p, "\n");
    if (*p)
        p++;
    size_t a = (size_t)(p - text), b = strlen(ins), c = strlen(p);
    char *g = malloc(a + b + c + 2);
    memcpy(g, text, a);
    memcpy(g + a, ins, b);
    memcpy(g + a + b, p, c + 1);
    return g;
}

/* Linking two units gives the IR that linking their concatenation gives (which renumbers
 * nothing): with the padding unit first, every variable, function, string and source
 * index of the corpus file moves; with it last, its .file number moves past the file's. */
START_TEST(corpus_links_like_one_unit)
{
    const char *path = corpus.gl_pathv[_i];
    char *text = tu_read(path);
    ck_assert(text != NULL);
    char *diag = NULL;
    isa_module_t *m = tu_load(path, text, &diag);
    ck_assert_msg(m != NULL, "%s does not load:\n%.1500s", path, diag);
    free(diag);
    char hdr[256], pad[1024], unit[1400];
    header_of(m, hdr, sizeof hdr);
    uint32_t maxfile = 0;
    for (uint32_t i = 0; i < m->nfile; i++)
        maxfile = m->files[i].index > maxfile ? m->files[i].index : maxfile;
    isa_module_free(m);
    for (int order = 0; order < 2; order++) {
        pad_unit(pad, sizeof pad, order ? 1 : 0);
        snprintf(unit, sizeof unit, "%s%s", hdr, pad);
        isa_module_t *two = order ? link2(text, unit, path) : link2(unit, text, path);
        pad_unit(pad, sizeof pad, order ? maxfile + 1 : 0);
        char *g;
        if (order) {
            g = malloc(strlen(text) + strlen(pad) + 2);
            sprintf(g, "%s\n%s", text, pad);
        } else {
            g = insert_after_header(text, pad);
        }
        isa_module_t *one = link2(g, NULL, path);
        ck_assert_msg((one == NULL) == (two == NULL), "%s: one unit and two link differently", path);
        if (one) {
            char *d1 = dump_of(one), *d2 = dump_of(two);
            if (strcmp(d1, d2) != 0) {
                size_t i = 0;
                while (d1[i] && d1[i] == d2[i])
                    i++;
                while (i > 0 && d1[i - 1] != '\n')
                    i--;
                ck_abort_msg("%s (pad %s): the IR differs near:\n%.300s\n--- two units ---\n%.300s", path,
                             order ? "last" : "first", d1 + i, d2 + i);
            }
            free(d1);
            free(d2);
            isa_module_free(one);
            isa_module_free(two);
        }
        free(g);
    }
    free(text);
}
END_TEST

Suite *make_link_suite(void)
{
    Suite *s = suite_create("link");
    TCase *tc = tcase_create("link");
    tcase_add_loop_test(tc, link_case, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, link_nothing_and_bad_units);
    tcase_add_test(tc, link_optional_units);
    suite_add_tcase(s, tc);
    if (chdir(tu_srcdir()) == 0)
        glob("tests/ptx/corpus/*.ptx", 0, NULL, &corpus);
    TCase *cc = tcase_create("corpus");
    tcase_set_timeout(cc, 120);
    tcase_add_loop_test(cc, corpus_links_like_one_unit, 0, (int)corpus.gl_pathc);
    suite_add_tcase(s, cc);
    return s;
}
