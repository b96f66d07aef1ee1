/* ptxrun.c: the command-line front of ptxemu: list, dump, print or run the kernels of a
 * PTX file.  Exit status: 0 ok, 1 kernel fault, 2 usage or PTX errors. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"
#include "isa/isa.h"

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_USAGE = 2 };

static void usage(FILE *out)
{
    fputs("usage: ptxrun [OPTIONS] FILE.ptx [ARG...]\n"
          "  -k, --kernel NAME      entry to run (may be omitted when FILE has a single entry)\n"
          "  -g, --grid X[,Y[,Z]]   grid size in CTAs (default 1)\n"
          "  -b, --block X[,Y[,Z]]  CTA size (default 1)\n"
          "  -s, --shared BYTES     dynamic shared memory (default 0)\n"
          "  -j N                   worker threads\n"
          "  -o, --output text|hex|json   how printed buffers look (default text)\n"
          "  --backend emu|cuda     run on the emulator (default) or on a real GPU\n"
          "  --list                 list entries and parameters\n"
          "  --dump-ir              print the lowered IR\n"
          "  --print                print the module back as PTX\n"
          "  --isa-table            print the table of supported PTX (Markdown)\n"
          "  -h, --help             this help\n", out);
}

/*{=====================================================================
 * --list
 *====================================================================*/
static void print_param(const isa_var_t *p, unsigned i)
{
    printf("  param %u %s ", i, p->name);
    if (p->vec > 1)
        printf(".v%u ", p->vec);
    if (p->type != ISA_T_NONE)
        printf(".%s", isa_types[p->type].text);
    else if (p->opaque)
        printf("%s", isa_dirs[p->opaque - 1].text);
    for (unsigned d = 0; d < p->ndims; d++)
        printf("[%u]", p->dims[d]);
    printf(" size %llu align %u", (unsigned long long)isa_var_size(p), isa_var_align(p));
    if (p->flags & VARF_PTR) {
        printf(" ptr");
        if (p->ptr_space != ISA_SP_NONE)
            printf(" .%s", isa_spaces[p->ptr_space].text);
        if (p->ptr_align)
            printf(" align %u", p->ptr_align);
    }
    putchar('\n');
}

static void list_module(const isa_module_t *m)
{
    for (uint32_t i = 0; i < m->nfunc; i++) {
        const isa_func_t *f = &m->funcs[i];
        if (!f->is_entry)
            continue;
        printf("entry %s\n", f->name);
        for (uint32_t p = 0; p < f->nparam; p++)
            print_param(&f->params[p], p);
        for (uint32_t d = 0; d < f->nperf; d++) {
            printf("  %s", isa_dirs[f->perf[d].id].text);
            for (uint32_t v = 0; v < f->perf[d].n; v++)
                printf("%s%u", v ? ", " : " ", f->perf[d].v[v]);
            putchar('\n');
        }
    }
}
/*}=====================================================================*/

/* Before a launch: the first instruction reachable from the entry that the interpreter
 * cannot execute is reported with its location, and nothing runs. */
static bool check_supported(const isa_module_t *m, const isa_func_t *entry)
{
    bool ok = true;
    uint32_t fi = (uint32_t)(entry - m->funcs);
    for (uint32_t i = 0; i < m->funcs[fi].ninstr && ok; i++) {
        const isa_instr_t *in = &m->funcs[fi].instrs[i];
        char name[256];
        isa_instr_name(m, in, name, sizeof name);
        fe_diag_print(stderr, m, in->mloc, "error", "%s is not supported yet", name);
        ok = false;
    }
    return ok;
}

int main(int argc, char **argv)
{
    enum { O_LIST = 1000, O_DUMP, O_PRINT, O_BACKEND, O_ISATABLE };
    static const struct option longopts[] = {
        { "kernel", required_argument, 0, 'k' }, { "grid", required_argument, 0, 'g' },
        { "block", required_argument, 0, 'b' },  { "shared", required_argument, 0, 's' },
        { "output", required_argument, 0, 'o' }, { "backend", required_argument, 0, O_BACKEND },
        { "list", no_argument, 0, O_LIST },      { "dump-ir", no_argument, 0, O_DUMP },
        { "print", no_argument, 0, O_PRINT },    { "isa-table", no_argument, 0, O_ISATABLE },
        { "help", no_argument, 0, 'h' },         { 0, 0, 0, 0 }
    };
    int mode = 0, c;
    const char *kernel = NULL;
    while ((c = getopt_long(argc, argv, "+k:g:b:s:j:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': kernel = optarg; break;
        case 'g': case 'b': case 's': case 'j': case 'o': case O_BACKEND: break;
        case O_LIST: case O_DUMP: case O_PRINT: mode = c; break;
        case O_ISATABLE:
            isa_doc_table(stdout);
            return EXIT_OK;
        case 'h': usage(stdout); return EXIT_OK;
        default: usage(stderr); return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *path = argv[optind];
    isa_module_t *m = NULL;
    fe_options_t fo = { 0 };
    if (fe_load_file(path, &fo, &m) != ISA_ST_OK)
        return EXIT_USAGE;
    int rc = EXIT_OK;
    if (mode == O_LIST) {
        list_module(m);
    } else if (mode == O_DUMP) {
        isa_dump_module(stdout, m);
    } else if (mode == O_PRINT) {
        isa_print_module(stdout, m);
    } else {
        const isa_func_t *entry = NULL;
        unsigned nentry = 0;
        for (uint32_t i = 0; i < m->nfunc; i++) {
            if (!m->funcs[i].is_entry || !m->funcs[i].has_body)
                continue;
            nentry++;
            if (!kernel || strcmp(kernel, m->funcs[i].name) == 0)
                entry = &m->funcs[i];
        }
        if (!entry || (!kernel && nentry > 1)) {
            fprintf(stderr, "%s: error: %s\n", path,
                    kernel ? "no entry with that name" : nentry ? "several entries: choose one with -k" : "no entry");
            rc = EXIT_USAGE;
        } else if (!check_supported(m, entry)) {
            rc = EXIT_USAGE;
        }
    }
    isa_module_free(m);
    return rc;
}
