/* fuzzdoc.c: ptxfuzz doc: writes docs/verification.md, the verification status of every
 * opcode and fuzzed instruction variant, from the ISA tables and the committed test data.
 *
 * Nothing is run: the status comes from the files alone, so that the check that the
 * page is current stays fast.
 *   - fuzzed variants: tests/fuzz/NAME.fz; "bound N" in it means within N ulp of the GPU
 *     (.approx, .full), none means bit-exact; tests/fuzz/PENDING names those that do
 *     not replay yet, with the reason; tests/fuzz/REJECTED what ptxas refused.
 *   - golden-tested: the instruction occurs in a kernel of tests/golden/ (recorded on
 *     the GPU and compared bit for bit by check-golden); a variant counts when a golden
 *     instruction has its full dotted name (modifiers in any order).
 *   - semantics: every kernel of the tree (tests/golden, tests/ptx, examples, tools/bench)
 *     is loaded and pre-decoded; an instruction reachable from an entry has semantics
 *     unless ex_program_check_entry reports it ("is not supported yet").  A fuzzed
 *     variant not in PENDING counts too: make check replays it, so it pre-decodes. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exec/exec.h"
#include "frontend/fe.h"
#include "isa/isa.h"
#include "runtime/rt.h"
#include "tools/fuzzdoc.h"

/* The kernel trees scanned for semantics and golden instructions (from the source root). */
static const char *const kernel_roots[] = { "tests/golden", "tests/ptx", "examples", "tools/bench" };
#define GOLDEN_ROOT "tests/golden"
#define PENDING_ROOT "tests/golden/pending/"  /* not recorded yet: kernels, not goldens */
#define ERRORS_ROOT "tests/ptx/errors"   /* invalid on purpose: not scanned */

/*{=====================================================================
 * String lists
 *====================================================================*/
typedef struct { char **s; size_t n, cap; } strs_t;

static void strs_add(strs_t *l, const char *s)
{
    if (l->n == l->cap)
        l->s = realloc(l->s, (l->cap = l->cap ? 2 * l->cap : 64) * sizeof *l->s);
    l->s[l->n++] = strdup(s);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sort and drop duplicates, so that strs_has can search it. */
static void strs_sort(strs_t *l)
{
    if (!l->n)
        return;
    qsort(l->s, l->n, sizeof *l->s, cmp_str);
    size_t k = 1;
    for (size_t i = 1; i < l->n; i++) {
        if (strcmp(l->s[i], l->s[k - 1]) == 0)
            free(l->s[i]);
        else
            l->s[k++] = l->s[i];
    }
    l->n = k;
}

static bool strs_has(const strs_t *l, const char *s)
{
    return l->n && bsearch(&s, l->s, l->n, sizeof *l->s, cmp_str) != NULL;
}

static void strs_free(strs_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->s[i]);
    free(l->s);
    memset(l, 0, sizeof *l);
}

/* The .ptx files under dir (recursively), skipping ERRORS_ROOT, into l. */
static void find_ptx(const char *dir, strs_t *l)
{
    if (strcmp(dir, ERRORS_ROOT) == 0)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t n = strlen(e->d_name);
        if (S_ISDIR(st.st_mode))
            find_ptx(path, l);
        else if (n > 4 && strcmp(e->d_name + n - 4, ".ptx") == 0)
            strs_add(l, path);
    }
    closedir(d);
}
/*}=====================================================================*/

/*{=====================================================================
 * Names: an instruction's dotted name as a key independent of modifier order
 *====================================================================*/
/* "mnemonic|sorted modifiers and spaces|types in order": PTX fixes the order of the
 * types (cvt.f32.f64 is not cvt.f64.f32) but a writer may order the modifiers freely.
 * Returns the opcode, or -1 when the name has none. */
static int name_key(const char *name, char *key, size_t size)
{
    size_t mlen = 0;
    int op = isa_op_lookup(name, strlen(name), &mlen);
    if (op < 0)
        return -1;
    char comp[ISA_MAX_SFX + 8][64];
    const char *mods[ISA_MAX_SFX + 8];
    unsigned nmod = 0, ncomp = 0;
    char types[256] = "";
    const char *s = name + mlen;
    while (*s == '.' && ncomp < ISA_MAX_SFX + 8) {
        size_t n = strcspn(s + 1, ".");
        snprintf(comp[ncomp], sizeof comp[ncomp], "%.*s", (int)n, s + 1);
        if (isa_type_lookup(s + 1, n) >= 0) {
            size_t t = strlen(types), c = strlen(comp[ncomp]);
            if (t + c + 2 <= sizeof types) {
                types[t] = '.';
                memcpy(types + t + 1, comp[ncomp], c + 1);
            }
        } else {
            mods[nmod++] = comp[ncomp];
        }
        ncomp++;
        s += n + 1;
    }
    qsort(mods, nmod, sizeof *mods, cmp_str);
    size_t k = (size_t)snprintf(key, size, "%s|", isa_ops[op].mnemonic);
    for (unsigned i = 0; i < nmod && k < size; i++)
        k += (size_t)snprintf(key + k, size - k, ".%s", mods[i]);
    if (k < size)
        snprintf(key + k, size - k, "|%s", types);
    return op;
}
/*}=====================================================================*/

/*{=====================================================================
 * Kernels: which opcodes pre-decode, which occur in golden kernels
 *====================================================================*/
typedef struct {
    unsigned sem_yes, sem_no;   /* instructions with and without semantics */
    bool     golden;
    strs_t   nosem;             /* dotted names of the instructions without semantics */
    unsigned nfz, exact, within, pending;
    long long max_ulp;
} opstat_t;

typedef struct {
    opstat_t ops[ISA_OP__COUNT];
    strs_t   golden_keys;       /* name_key of every golden instruction */
    unsigned nkernel_files, ngolden_files;
} scan_t;

/* Functions reachable from the entries through direct calls (as the checker walks them). */
static void mark_reachable(const isa_module_t *m, uint32_t fi, uint8_t *seen)
{
    if (seen[fi])
        return;
    seen[fi] = 1;
    const isa_func_t *fn = &m->funcs[fi];
    for (uint32_t i = 0; i < fn->ninstr; i++)
        for (uint32_t k = 0; k < fn->instrs[i].nopd; k++) {
            const isa_operand_t *o = &fn->opds[fn->instrs[i].opd + k];
            if (o->kind == ISA_OPD_FUNC && m->funcs[o->u.func].has_body)
                mark_reachable(m, o->u.func, seen);
        }
}

/* "file:line:col" of an instruction's mnemonic, as the checker's diagnostics start.
 * Line and column are counted on from the previous call's offset (instructions come in
 * source order), not from the start of the file as isa_loc_linecol does: the corpus
 * files are large. */
typedef struct { const isa_source_t *src; uint32_t off; unsigned line, col; } linepos_t;

static void instr_where(const isa_module_t *m, const isa_instr_t *in, linepos_t *lp, char *buf, size_t size)
{
    const isa_source_t *src = &m->srcs[in->mloc.file];
    uint32_t off = in->mloc.begin < src->len ? in->mloc.begin : (uint32_t)src->len;
    if (lp->src != src || off < lp->off)
        *lp = (linepos_t){ src, 0, 1, 1 };
    for (; lp->off < off; lp->off++) {
        if (src->text[lp->off] == '\n') {
            lp->line++;
            lp->col = 1;
        } else {
            lp->col++;
        }
    }
    snprintf(buf, size, "%s:%u:%u", src->name, lp->line, lp->col);
}

static void scan_file(scan_t *sc, const char *path, bool golden, FILE *null)
{
    fe_options_t fo = { .diag = null, .max_errors = 1 };
    isa_module_t *m = NULL;
    if (fe_load_file(path, &fo, &m) != ISA_ST_OK) {
        if (m)
            isa_module_free(m);
        return;
    }
    sc->nkernel_files++;
    sc->ngolden_files += golden;
    /* The checker's reports: the locations of the instructions without semantics. */
    strs_t bad = { 0 };
    uint8_t *seen = calloc(m->nfunc + 1, 1);
    ex_program_t *p = ex_program_new(rt_device(), m);
    for (uint32_t f = 0; p && f < m->nfunc; f++) {
        if (!m->funcs[f].is_entry || !m->funcs[f].has_body)
            continue;
        mark_reachable(m, f, seen);
        char *dbuf = NULL;
        size_t dlen = 0;
        FILE *diag = open_memstream(&dbuf, &dlen);
        ex_program_check_entry(p, f, diag);
        fclose(diag);
        for (char *line = strtok(dbuf, "\n"); line; line = strtok(NULL, "\n")) {
            char *e = strstr(line, ": error: ");
            if (e && strstr(e, "is not supported yet")) {
                *e = 0;
                strs_add(&bad, line);
            }
        }
        free(dbuf);
    }
    strs_sort(&bad);
    linepos_t lp = { 0 };
    for (uint32_t f = 0; f < m->nfunc; f++) {
        const isa_func_t *fn = &m->funcs[f];
        for (uint32_t i = 0; i < fn->ninstr; i++) {
            const isa_instr_t *in = &fn->instrs[i];
            opstat_t *os = &sc->ops[in->op];
            char name[256], key[2048], where[4200];
            isa_instr_name(m, in, name, sizeof name);
            if (golden) {
                os->golden = true;
                if (name_key(name, key, sizeof key) >= 0)
                    strs_add(&sc->golden_keys, key);
            }
            if (!p || !seen[f])
                continue;
            if (bad.n)
                instr_where(m, in, &lp, where, sizeof where);
            if (!bad.n || !strs_has(&bad, where)) {
                os->sem_yes++;
            } else if (in->op != ISA_OP_CALL) {   /* a call names its callee (vprintf...) */
                os->sem_no++;
                char entry[4800];
                *strrchr(where, ':') = 0;           /* file:line */
                snprintf(entry, sizeof entry, "%s\t%s", name, where);
                strs_add(&os->nosem, entry);
            }
        }
    }
    strs_free(&bad);
    free(seen);
    if (p)
        ex_program_free(p);
    isa_module_free(m);
}

static void scan_kernels(scan_t *sc)
{
    FILE *null = fopen("/dev/null", "w");
    for (size_t r = 0; r < sizeof kernel_roots / sizeof *kernel_roots; r++) {
        strs_t files = { 0 };
        find_ptx(kernel_roots[r], &files);
        strs_sort(&files);
        for (size_t i = 0; i < files.n; i++)
            scan_file(sc, files.s[i], strcmp(kernel_roots[r], GOLDEN_ROOT) == 0 &&
                                          strncmp(files.s[i], PENDING_ROOT, strlen(PENDING_ROOT)) != 0, null);
        strs_free(&files);
    }
    for (int op = 0; op < ISA_OP__COUNT; op++)
        strs_sort(&sc->ops[op].nosem);
    strs_sort(&sc->golden_keys);
    if (null)
        fclose(null);
}
/*}=====================================================================*/

/*{=====================================================================
 * Fuzz data: tests/fuzz/NAME.fz, PENDING, REJECTED
 *====================================================================*/
typedef struct {
    char     *name;
    int       op;
    long long bound;            /* -1: bit-exact */
    char     *pending;          /* the reason, or NULL */
    bool      golden;
    bool      via_sm90;         /* an sm_100 variant recorded through its sm_90 equivalent */
} fvar_t;

/* "NAME  reason" lines of a list file (comments start with '#'): names and reasons. */
static void read_list(const char *dir, const char *file, strs_t *names, strs_t *reasons)
{
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        size_t n = strcspn(line, " \t");
        if (!n || line[0] == '#')
            continue;
        const char *r = line + n + strspn(line + n, " \t");
        line[n] = 0;
        strs_add(names, line);
        strs_add(reasons, r);
    }
    fclose(f);
}

/* The asserted ulp bound of a recorded variant ("bound N"), or -1; its vector counts
 * added to nv[3]: special vectors kept whole, crossed specials, random vectors. */
static long long fz_bound(const char *path, unsigned long long nv[3])
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    long long b = -1, v;
    unsigned long long sp = 0, x = 0, nc = 0, cs = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == 'b' && sscanf(line, "bound %lld", &v) == 1)
            b = v;
        else if (line[0] == 's' && sscanf(line, "special %llu", &sp) == 1)
            nv[0] += sp;
        else if (line[0] == 'c' && sscanf(line, "crossed %llu", &x) == 1)
            nv[1] += x;
        else if (line[0] == 'c' && sscanf(line, "chunks %llu %llu", &nc, &cs) == 2)
            nv[2] += nc * cs - (x + cs - 1) / cs * cs;   /* the chunks after the crossed ones */
    }
    fclose(f);
    return b;
}
/*}=====================================================================*/

/*{=====================================================================
 * The page
 *====================================================================*/
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else
            fputc(*s, out);
    }
}

static void print_status(FILE *out, const fvar_t *v)
{
    if (v->pending) {
        fputs("pending: ", out);
        md_text(out, v->pending);
    } else if (v->bound >= 0) {
        fprintf(out, "within %lld ulp", v->bound);
    } else {
        fputs("bit-exact", out);
    }
    if (v->via_sm90)
        fputs(" (sm_100; GPU: its sm_90 equivalent)", out);
}

static const char *sem_word(const opstat_t *os)
{
    return os->sem_yes && os->sem_no ? "partly" : os->sem_yes ? "yes" : os->sem_no ? "no" : "-";
}

/* The texture fuzz cases beside the fuzz directory (FUZZDIR/../texfuzz): how many, how
 * many pending and why (docs/textures.md). */
static void texfuzz_summary(FILE *out, const char *fuzzdir)
{
    char dir[4096], path[4200], line[4096];
    snprintf(dir, sizeof dir, "%s/../texfuzz", fuzzdir);
    snprintf(path, sizeof path, "%s/cases.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    unsigned ncases = 0;
    while (fgets(line, sizeof line, f))
        ncases += line[0] != '\n' && line[0] != '#';
    fclose(f);
    strs_t names = { 0 }, reasons = { 0 };
    read_list(dir, "PENDING", &names, &reasons);
    fprintf(out, "- Textures: %u fetch cases of `tests/texfuzz/` (every geometry, format, read mode, filter and "
            "address mode; digests of the GPU's outputs): %zu bit-exact, %zu pending (",
            ncases, ncases - names.n, names.n);
    strs_t seen = { 0 };
    for (size_t i = 0; i < reasons.n; i++) {
        bool dup = false;
        for (size_t j = 0; j < seen.n && !dup; j++)
            dup = strcmp(seen.s[j], reasons.s[i]) == 0;
        if (dup)
            continue;
        size_t c = 0;
        for (size_t j = 0; j < reasons.n; j++)
            c += strcmp(reasons.s[j], reasons.s[i]) == 0;
        fprintf(out, "%s%s %zu", seen.n ? ", " : "", reasons.s[i], c);
        strs_add(&seen, reasons.s[i]);
    }
    fputs(").\n", out);
    strs_free(&seen);
    strs_free(&names);
    strs_free(&reasons);
}

int fuzz_doc_write(FILE *out, const char *fuzzdir, bool (*via_sm90)(const char *name))
{
    static scan_t sc;
    memset(&sc, 0, sizeof sc);
    scan_kernels(&sc);

    strs_t pnames = { 0 }, preasons = { 0 }, rnames = { 0 }, rreasons = { 0 }, fz = { 0 };
    read_list(fuzzdir, "PENDING", &pnames, &preasons);
    read_list(fuzzdir, "REJECTED", &rnames, &rreasons);
    DIR *d = opendir(fuzzdir);
    if (!d) {
        fprintf(stderr, "ptxfuzz doc: cannot open %s\n", fuzzdir);
        return 2;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".fz") == 0) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s", (int)(n - 3), e->d_name);
            strs_add(&fz, buf);
        }
    }
    closedir(d);
    strs_sort(&fz);

    fvar_t *vs = calloc(fz.n + 1, sizeof *vs);
    unsigned nops_fz = 0, tot_exact = 0, tot_within = 0, tot_pending = 0, tot_golden = 0, tot_sm90 = 0;
    unsigned long long nv[3] = { 0, 0, 0 };
    for (size_t i = 0; i < fz.n; i++) {
        fvar_t *v = &vs[i];
        char path[4096], key[2048];
        v->name = fz.s[i];
        v->op = name_key(v->name, key, sizeof key);
        snprintf(path, sizeof path, "%s/%s.fz", fuzzdir, v->name);
        v->bound = fz_bound(path, nv);
        v->golden = v->op >= 0 && strs_has(&sc.golden_keys, key);
        v->via_sm90 = via_sm90 && via_sm90(v->name);
        tot_sm90 += v->via_sm90;
        for (size_t k = 0; k < pnames.n; k++)
            if (strcmp(pnames.s[k], v->name) == 0)
                v->pending = preasons.s[k];
        if (v->op < 0)
            continue;
        opstat_t *os = &sc.ops[v->op];
        nops_fz += !os->nfz;
        os->nfz++;
        os->sem_yes += !v->pending;   /* it replays in make check: it pre-decodes */
        tot_golden += v->golden;
        if (v->pending) {
            os->pending++;
            tot_pending++;
        } else if (v->bound >= 0) {
            os->within++;
            tot_within++;
            if (v->bound > os->max_ulp)
                os->max_ulp = v->bound;
        } else {
            os->exact++;
            tot_exact++;
        }
    }
    unsigned n_yes = 0, n_partly = 0, n_no = 0, n_unknown = 0, n_golden = 0;
    for (int op = 0; op < ISA_OP__COUNT; op++) {
        const opstat_t *os = &sc.ops[op];
        n_golden += os->golden;
        if (os->sem_yes && os->sem_no)
            n_partly++;
        else if (os->sem_yes)
            n_yes++;
        else if (os->sem_no)
            n_no++;
        else
            n_unknown++;
    }

    fputs("# Verification status\n\n"
          "Generated by `build/bin/ptxfuzz doc` (`make docs`, `tools/fuzzdoc.c`) from the ISA tables "
          "and the committed test data; do not edit by hand (a test in `make check` fails when it is "
          "stale). How the checks work: [arithmetic.md](arithmetic.md); the opcodes' syntax: "
          "[ptx-support.md](ptx-support.md).\n\n"
          "- **fuzzed**: recorded on the GPU in `tests/fuzz/NAME.fz` and replayed by `make check`: "
          "*bit-exact* on every vector, or *within N ulp* (`.approx`/`.full` variants: the bound "
          "measured on the GPU and asserted by the replay), or *pending* (listed in "
          "`tests/fuzz/PENDING` with the reason; the replay checks that it still fails).\n"
          "- **golden**: used by a kernel of `tests/golden/` (whole kernels recorded on the GPU, "
          "compared bit for bit); a variant counts when a golden instruction has its full dotted "
          "name.\n"
          "- **semantics**: every kernel of `tests/golden/`, `tests/ptx/`, `examples/` and "
          "`tools/bench/` is pre-decoded: *yes* when every instruction of the opcode reachable from "
          "an entry has a handler (the fuzzed variants that replay count too), *partly* when some "
          "have none (listed below), *no* when none has, *-* when no kernel uses the opcode.\n\n", out);

    fputs("## Summary\n\n", out);
    fprintf(out, "- ISA table: %d opcodes. With semantics: %u (%u of them partly); without: %u; not used "
            "by any of the %u kernel files or fuzzed variants: %u.\n", (int)ISA_OP__COUNT, n_yes + n_partly,
            n_partly, n_no, sc.nkernel_files, n_unknown);
    fprintf(out, "- Fuzzed: %zu variants of %u opcodes: %u bit-exact, %u within an ulp bound, "
            "%u pending; %zu more variants the tables allow were rejected by ptxas.\n",
            fz.n, nops_fz, tot_exact, tot_within, tot_pending, rnames.n);
    fprintf(out, "- Vectors: %llu in all: %llu special (kept whole), %llu special crossed (every pair of "
            "sources), %llu random (digests per chunk).\n", nv[0] + nv[1] + nv[2], nv[0], nv[1], nv[2]);
    fprintf(out, "- %u of the fuzzed variants need sm_100 (`.f32x2`, f32 arithmetic with f16 or bf16 "
            "sources, min/max of three sources (names ending in `+3`), `cvt.{rn,rz}.satfinite.tf32.f32`): the GPU ran, on the "
            "same vectors, the sm_90 instructions the PTX manual defines each of them by (`ptxfuzz kernel "
            "--backend cuda NAME` prints that kernel), and the emulator runs the sm_100 instruction "
            "itself.\n", tot_sm90);
    fprintf(out, "- Golden: %u opcodes are used by the %u kernels of `tests/golden/`; %u fuzzed "
            "variants are among their instructions.\n", n_golden, sc.ngolden_files, tot_golden);
    texfuzz_summary(out, fuzzdir);
    fputc('\n', out);

    fputs("### Fuzzed opcodes\n\n"
          "| opcode | fuzzed | bit-exact | within bound (max ulp) | pending | golden |\n"
          "| --- | ---: | ---: | --- | ---: | --- |\n", out);
    for (int op = 0; op < ISA_OP__COUNT; op++) {
        const opstat_t *os = &sc.ops[op];
        if (!os->nfz)
            continue;
        fprintf(out, "| [`%s`](#", isa_ops[op].mnemonic);
        for (const char *c = isa_ops[op].mnemonic; *c; c++)   /* the heading's anchor: no dots */
            if (*c != '.')
                fputc(*c, out);
        fprintf(out, ") | %u | %u | ", os->nfz, os->exact);
        if (os->within)
            fprintf(out, "%u (%lld)", os->within, os->max_ulp);
        else
            fputs("0", out);
        fprintf(out, " | %u | %s |\n", os->pending, os->golden ? "yes" : "no");
    }
    fprintf(out, "| **all** | **%zu** | **%u** | **%u** | **%u** | **%u** variants |\n\n", fz.n, tot_exact,
            tot_within, tot_pending, tot_golden);

    fputs("### Every opcode\n\n| opcode | family | semantics | golden | fuzzed variants |\n"
          "| --- | --- | --- | --- | ---: |\n", out);
    for (int op = 0; op < ISA_OP__COUNT; op++) {
        const opstat_t *os = &sc.ops[op];
        fprintf(out, "| `%s` | %s | %s | %s | %u |\n", isa_ops[op].mnemonic, isa_families[isa_ops[op].family].name,
                sem_word(os), os->golden ? "yes" : "no", os->nfz);
    }

    fputs("\n### Forms without semantics\n\nThe instructions of the opcodes marked *partly*: forms "
          "the interpreter cannot run yet, each with one place that uses it (a kernel using one stops "
          "before its launch, naming it; the operands may be the cause, e.g. vector registers).\n\n", out);
    unsigned nlisted = 0;
    for (int op = 0; op < ISA_OP__COUNT; op++) {
        const opstat_t *os = &sc.ops[op];
        if (!os->sem_yes || !os->sem_no)
            continue;
        fprintf(out, "- `%s`:", isa_ops[op].mnemonic);
        size_t nl = 0;
        for (size_t i = 0; i < os->nosem.n; i++) {
            const char *s = os->nosem.s[i], *tab = strchr(s, '\t');
            size_t n = (size_t)(tab - s);
            if (i && strncmp(os->nosem.s[i - 1], s, n) == 0 && os->nosem.s[i - 1][n] == '\t')
                continue;                         /* sorted: the same name at a later place */
            fprintf(out, "%s `%.*s` (%s)", nl++ ? "," : "", (int)n, s, tab + 1);
        }
        fputc('\n', out);
        nlisted++;
    }
    if (!nlisted)
        fputs("None.\n", out);

    fputs("\n## Fuzzed variants by opcode\n", out);
    for (int op = 0; op < ISA_OP__COUNT; op++) {
        const opstat_t *os = &sc.ops[op];
        if (!os->nfz)
            continue;
        fprintf(out, "\n### %s\n\n%u variants: %u bit-exact, %u within an ulp bound, %u pending.\n\n"
                "| variant | status | golden |\n| --- | --- | --- |\n",
                isa_ops[op].mnemonic, os->nfz, os->exact, os->within, os->pending);
        for (size_t i = 0; i < fz.n; i++) {
            if (vs[i].op != op)
                continue;
            fprintf(out, "| `%s` | ", vs[i].name);
            print_status(out, &vs[i]);
            fprintf(out, " | %s |\n", vs[i].golden ? "yes" : "");
        }
    }

    unsigned nother = 0;
    for (size_t i = 0; i < fz.n; i++)
        nother += vs[i].op < 0;
    if (nother) {
        fputs("\n### Without an opcode of the table\n\n| variant | status |\n| --- | --- |\n", out);
        for (size_t i = 0; i < fz.n; i++)
            if (vs[i].op < 0) {
                fprintf(out, "| `%s` | ", vs[i].name);
                print_status(out, &vs[i]);
                fputs(" |\n", out);
            }
    }

    fprintf(out, "\n## Rejected by ptxas (%zu)\n\nVariants the ISA tables allow that ptxas refused when "
            "recording (`tests/fuzz/REJECTED`, with its message); they are not fuzzed.\n\n", rnames.n);
    if (rnames.n)
        fputs("| variant | message |\n| --- | --- |\n", out);
    else
        fputs("None: the checker's rules (`isa/rules.def`) reject every form ptxas refused.\n", out);
    for (size_t i = 0; i < rnames.n; i++) {
        fprintf(out, "| `%s` | ", rnames.s[i]);
        md_text(out, rreasons.s[i]);
        fputs(" |\n", out);
    }

    free(vs);
    strs_free(&fz);
    strs_free(&pnames);
    strs_free(&preasons);
    strs_free(&rnames);
    strs_free(&rreasons);
    strs_free(&sc.golden_keys);
    for (int op = 0; op < ISA_OP__COUNT; op++)
        strs_free(&sc.ops[op].nosem);
    return ferror(out) ? 2 : 0;
}
/*}=====================================================================*/
