/* ptxrun.c: the command-line front of ptxemu: list, dump, print or run the kernels of a
 * PTX file, or compare a run on the emulator with one on the GPU.  Exit status: 0 ok,
 * 1 kernel fault, 2 usage or PTX errors or no GPU to compare with, 3 the runs differ. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/fe.h"
#include "isa/isa.h"
#include "runtime/rt.h"
#include "runtime/fatbin.h"

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_USAGE = 2 };

static void usage(FILE *out)
{
    fputs("usage: ptxrun [OPTIONS] FILE.ptx [ARG...]\n"
          "       ptxrun [OPTIONS] PROGRAM [ARG...]   run a CUDA program on the emulator's driver\n"
          "  -k, --kernel NAME      entry to run (may be omitted when FILE has a single entry)\n"
          "  --link UNIT.ptx        link another PTX translation unit with FILE (repeatable)\n"
          "  -g, --grid X[,Y[,Z]]   grid size in CTAs (default 1)\n"
          "  -b, --block X[,Y[,Z]]  CTA size (default 1)\n"
          "  -s, --shared BYTES     dynamic shared memory (default 0)\n"
          "  -j N                   worker threads\n"
          "  --timeout SECONDS      stop a kernel still running after SECONDS (exit 1)\n"
          "  --cooperative          a cooperative launch: the whole grid must be resident at once\n"
          "  --cluster X[,Y[,Z]]    a launch in thread-block clusters of this shape (more than 8 CTAs:\n"
          "                         the non-portable size, up to 16, is allowed)\n"
          "  --printf-fifo BYTES    the device printf FIFO (default 1048576): the oldest records give way\n"
          "  --heap BYTES           the device malloc heap (default 8388608)\n"
          "  --repeat N             launch the kernel N times on the same buffers, print the time per\n"
          "                         launch on stderr and the buffers once (emulator only)\n"
          "  -o, --output text|hex|json   how printed buffers look (default text)\n"
          "  --stats[=text|json]    print each launch's statistics and memory metrics (Nsight Compute's\n"
          "                         names) on stderr (emulator only)\n"
          "  --exact-bounds         kernels fault on any access outside an allocation or a module variable\n"
          "                         (by default, as on the H100, only outside the memory mapped around\n"
          "                         them; a PTX file's buffers are always exact)\n"
          "  --no-inline            every call builds an activation, as written (by default calls of small\n"
          "                         leaf functions are expanded into their callers: same results, faster)\n"
          "  --backend emu|cuda     run on the emulator (default) or on a real GPU\n"
          "  --compare              run on both, compare every :out buffer bit for bit\n"
          "  --list                 list entries and parameters\n"
          "  --dump-ir              print the lowered IR\n"
          "  --print                print the module back as PTX\n"
          "  --isa-table            print the table of supported PTX (Markdown)\n"
          "  --fatbin-list PROGRAM  list the fatbin entries a CUDA program or library embeds\n"
          "  --extract-ptx PROGRAM [--entry N] [-o DIR]  print its PTX (or write every PTX entry to DIR)\n"
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
    if (p->flags & ISA_VARF_PTR) {
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

/*{=====================================================================
 * Running
 *====================================================================*/

/* "X[,Y[,Z]]" into dim[3]; each at least 1. */
static bool parse_dim3(const char *opt, const char *s, uint32_t dim[3])
{
    dim[0] = dim[1] = dim[2] = 1;
    const char *p = s;
    for (unsigned i = 0; i < 3; i++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v == 0 || v > UINT32_MAX || *p == '-' || *p == '+') {
            fprintf(stderr, "ptxrun: error: %s '%s': expected X[,Y[,Z]] of positive integers\n", opt, s);
            return false;
        }
        dim[i] = (uint32_t)v;
        if (!*end)
            return true;
        if (*end != ',' || i == 2)
            break;
        p = end + 1;
    }
    fprintf(stderr, "ptxrun: error: %s '%s': expected X[,Y[,Z]] of positive integers\n", opt, s);
    return false;
}

static bool parse_uint(const char *opt, const char *s, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 0);
    if (end == s || *end || *s == '-' || v > UINT32_MAX) {
        fprintf(stderr, "ptxrun: error: %s '%s': expected a non-negative integer\n", opt, s);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* Ctrl-C during a launch on the emulator stops it with the report of its live warps
 * (a second Ctrl-C ends ptxrun at once). */
static _Atomic int interrupted;
static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

static void catch_sigint(ex_launch_t *l)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    l->stop = &interrupted;
}

/* --stats: a launch's statistics on stderr. */
static void print_stats(void *user, const ex_program_t *p, uint32_t entry, const ex_stats_t *st)
{
    ex_stats_print(stderr, p, entry, st, *(const bool *)user);
}

static int exit_for(isa_status_t st)
{
    return st == ISA_ST_OK ? EXIT_OK : st == ISA_ST_FAULT ? EXIT_FAULT : EXIT_USAGE;
}

/* Run entry with the command line's arguments on the chosen backend, then print the
 * :out buffers.  On the emulator, an entry that reaches an instruction without
 * semantics is refused before anything runs. */
static int run_entry(const isa_module_t *m, uint32_t entry, const ex_launch_t *l, bool cuda, unsigned repeat,
                     rt_outfmt_t fmt, int argc, char **argv)
{
    ex_program_t *p = NULL;
    rt_args_t a;
    isa_status_t st;
    if (!cuda) {
        p = ex_program_new(rt_device(), m);
        if (!p) {
            fprintf(stderr, "ptxrun: error: out of memory\n");
            return EXIT_USAGE;
        }
        if (ex_program_check_entry(p, entry, stderr) != 0) {
            ex_program_free(p);
            return EXIT_USAGE;
        }
        /* A block of more than 256 threads, or a cooperative grid, may exceed what the
         * registers ptxas allocates allow (docs/driver.md, "Registers and stack"): learned
         * from ptxas where the CUDA toolkit is installed. */
        uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
        rt_kres_t *kr;
        uint32_t nk;
        if ((threads > 256 || l->cooperative) && m->nsrc == 1 && m->srcs[0].text &&
            ISA_SM_ORDER(m->sm) <= ISA_SM_ORDER(ISA_SM_90A) &&
            rt_ptxas_resources(m->srcs[0].text, m->sm == ISA_SM_90A, 0, &kr, &nk) == ISA_ST_OK) {
            for (uint32_t k = 0; k < nk; k++)
                if (strcmp(kr[k].name, m->funcs[entry].name) == 0)
                    ex_set_entry_regs(p, entry, kr[k].regs);
            rt_kres_free(kr, nk);
        }
    }
    st = rt_args_parse_module(m, entry, argc, argv, stderr, &a);
    if (st == ISA_ST_OK) {
        ex_stats_t stats;
        st = cuda ? rt_run_cuda(m, entry, l, &a, stderr) : rt_run_emu(p, entry, l, &a, repeat, stderr, &stats);
        if (st == ISA_ST_OK)
            st = rt_args_print(&a, fmt, stdout, stderr);
        rt_args_free(&a);
    }
    if (p)
        ex_program_free(p);
    return exit_for(st);
}

/* --compare: the emulator against the GPU, or in the test build against the "flip"
 * backend when flip_spec is given (--compare=flip:K:I:B,...).  The result's values are
 * the exit statuses. */
static int compare_entry(const isa_module_t *m, uint32_t entry, const ex_launch_t *l, const char *flip_spec,
                         int argc, char **argv)
{
    rt_job_t job = { m, entry, l };
    const rt_backend_t *other = &rt_backend_cuda;
#ifdef PTXEMU_TESTING
    rt_flip_conf_t conf = { &rt_backend_emu, 0, { { 0, 0, 0 } } };
    rt_backend_t flip;
    if (flip_spec) {
        if (strncmp(flip_spec, "flip:", 5) != 0) {
            fprintf(stderr, "ptxrun: error: --compare='%s': expected flip:K:I:B[,K:I:B...]\n", flip_spec);
            return EXIT_USAGE;
        }
        if (!rt_flip_parse(flip_spec + 5, &conf, stderr))
            return EXIT_USAGE;
        flip = rt_backend_flip(&conf);
        other = &flip;
    }
#else
    (void)flip_spec;
#endif
    return (int)rt_compare_run(&job, &rt_backend_emu, other, argc, argv, stdout, stderr);
}
/*}=====================================================================*/

/*{=====================================================================
 * ptxrun PROGRAM: a CUDA program (a path, or a command on PATH) run with the emulator's
 * driver, libcuda.so.1, first on the library path; the options reach it through the
 * environment (PTXEMU_WORKERS, PTXEMU_TIMEOUT, PTXEMU_PRINTF_FIFO, PTXEMU_HEAP).
 *====================================================================*/

/* Whether path names a program rather than PTX: a .ptx name never does; an existing file
 * does when it is an ELF file, a script or executable; a missing one when PATH has it. */
static bool is_program(const char *path)
{
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".ptx") == 0)
        return false;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return false;
        FILE *f = fopen(path, "rb");
        unsigned char m[4] = { 0 };
        size_t k = f ? fread(m, 1, 4, f) : 0;
        if (f)
            fclose(f);
        if (k >= 2 && m[0] == '#' && m[1] == '!')
            return true;
        if (k == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F')
            return true;
        return access(path, X_OK) == 0 && (st.st_mode & 0111);
    }
    if (strchr(path, '/'))
        return false;
    const char *env = getenv("PATH");
    if (!env)
        return false;
    char dir[PATH_MAX];
    for (const char *p = env; *p;) {
        size_t len = strcspn(p, ":");
        if (len && len + n + 2 < sizeof dir) {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)len, p, path);
            if (access(dir, X_OK) == 0)
                return true;
        }
        p += len + (p[len] == ':');
    }
    return false;
}

/* The folder holding the emulator's libcuda.so.1: $PTXEMU_DRIVER_DIR, or beside this
 * program's installation (../lib/ptxemu) or build tree (../lib). */
static bool driver_dir(char *out, size_t size)
{
    const char *env = getenv("PTXEMU_DRIVER_DIR");
    if (env && *env) {
        snprintf(out, size, "%s", env);
        return true;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = 0;
    static const char *const rel[] = { "../lib/ptxemu", "../lib" };
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
        char lib[PATH_MAX + 64];
        snprintf(lib, sizeof lib, "%s/%s/libcuda.so.1", exe, rel[i]);
        if (access(lib, R_OK) == 0) {
            char *real = realpath(lib, NULL);
            if (!real)
                return false;
            *strrchr(real, '/') = 0;
            snprintf(out, size, "%s", real);
            free(real);
            return true;
        }
    }
    return false;
}

/* Put value first in the colon-separated list of environment variable name (in a child
 * about to exec: exits on no memory). */
static void prepend_env(const char *name, const char *value)
{
    const char *old = getenv(name);
    size_t n = strlen(value) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (!v)
        _exit(127);
    snprintf(v, n, "%s%s%s", value, old && *old ? ":" : "", old && *old ? old : "");
    setenv(name, v, 1);
    free(v);
}

/* Run argv[0] with its arguments: on the emulator's driver (emu) or natively.  Returns the
 * program's exit status (128 + N for a signal), or -1 after a message when it cannot start.
 * With capture, its stdout goes to *out (malloc'd, *len bytes). */
static int spawn(char **argv, bool emu, bool capture, char **out, size_t *len)
{
    int pfd[2] = { -1, -1 };
    if (capture && pipe(pfd) != 0) {
        fprintf(stderr, "ptxrun: error: pipe: %s\n", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "ptxrun: error: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (capture) {
            dup2(pfd[1], 1);
            close(pfd[0]);
            close(pfd[1]);
        }
        if (emu) {
            char dir[PATH_MAX];
            if (!driver_dir(dir, sizeof dir)) {
                fprintf(stderr, "ptxrun: error: the emulator's driver (libcuda.so.1) is not installed beside ptxrun "
                                "(set PTXEMU_DRIVER_DIR to its folder)\n");
                _exit(127);
            }
            prepend_env("LD_LIBRARY_PATH", dir);
            /* NVRTC's cubins: runtime/nvrtc/shim.c, preloaded when it is installed there. */
            char shim[PATH_MAX + 32];
            snprintf(shim, sizeof shim, "%s/libptxemu_nvrtc.so", dir);
            if (access(shim, R_OK) == 0)
                prepend_env("LD_PRELOAD", shim);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "ptxrun: error: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (capture) {
        close(pfd[1]);
        size_t cap = 1 << 16, n = 0;
        char *buf = malloc(cap);
        for (;;) {
            if (buf && n == cap) {
                char *nb = realloc(buf, cap *= 2);
                if (!nb) {
                    free(buf);
                    buf = NULL;
                }
                buf = nb;
            }
            char sink[4096];
            ssize_t k = buf ? read(pfd[0], buf + n, cap - n) : read(pfd[0], sink, sizeof sink);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                break;
            n += buf ? (size_t)k : 0;
        }
        close(pfd[0]);
        *out = buf;
        *len = n;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ptxrun --compare PROGRAM: its stdout and exit status natively on the GPU and on the
 * emulator.  Exit 0 when they agree, 3 when they differ, 2 when a side cannot run. */
static int compare_program(char **argv)
{
    if (rt_cuda_check(stderr) != ISA_ST_OK) {
        fprintf(stderr, "compare: no GPU to compare with\n");
        return EXIT_USAGE;
    }
    char *gout = NULL, *eout = NULL;
    size_t glen = 0, elen = 0;
    int g = spawn(argv, false, true, &gout, &glen);
    int e = spawn(argv, true, true, &eout, &elen);
    int rc = 0;
    if (g < 0 || e < 0) {
        rc = EXIT_USAGE;
    } else {
        bool same_out = glen == elen && (glen == 0 || memcmp(gout, eout, glen) == 0);
        if (!same_out) {
            size_t i = 0, line = 1;
            while (i < glen && i < elen && gout[i] == eout[i])
                line += gout[i++] == '\n';
            printf("compare: stdout differs from line %zu (%zu bytes on the GPU, %zu on the emulator)\n", line, glen,
                   elen);
            rc = 3;
        }
        if (g != e) {
            printf("compare: exit status %d on the GPU, %d on the emulator\n", g, e);
            rc = 3;
        }
        if (!rc)
            printf("compare: stdout (%zu bytes) and exit status (%d) identical (cuda vs emu)\n", glen, g);
    }
    free(gout);
    free(eout);
    return rc;
}

static void setenv_num(const char *name, double v, bool integer)
{
    char buf[64];
    if (integer)
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    else
        snprintf(buf, sizeof buf, "%.17g", v);
    setenv(name, buf, 1);
}
/*}=====================================================================*/

/* FILE, or FILE and the --link units linked (docs/driver.md, "Linking"): the emulator's
 * device services may stay undefined.  False when a unit does not load or the link fails
 * (the errors are on stderr). */
#define MAX_LINK 64
static bool load_units(const char *path, const char *const *links, unsigned nlink, isa_module_t **out)
{
    fe_options_t fo = { 0 };
    static const char *provided[64];
    unsigned np = 0;
    for (unsigned i = 0; np + 1 < sizeof provided / sizeof *provided && ex_service_name(i); i++)
        provided[np++] = ex_service_name(i);
    for (unsigned i = 0; np + 1 < sizeof provided / sizeof *provided && fe_devrt_name(i); i++)
        provided[np++] = fe_devrt_name(i);
    fo.provided = provided;
    if (nlink == 0)   /* device-runtime functions written in PTX are linked in (frontend/devrt.c) */
        return fe_load_file(path, &fo, out) == ISA_ST_OK && fe_link_devrt(out, &fo) == ISA_ST_OK;
    isa_module_t *units[MAX_LINK + 1];
    unsigned n = 0;
    bool ok = true;
    for (unsigned i = 0; i <= nlink; i++) {   /* every unit, so that all their errors show */
        if (fe_load_file(i ? links[i - 1] : path, &fo, &units[n]) == ISA_ST_OK)
            n++;
        else
            ok = false;
    }
    if (!ok) {
        for (unsigned i = 0; i < n; i++)
            isa_module_free(units[i]);
        return false;
    }
    return fe_link(units, n, NULL, &fo, out) == ISA_ST_OK && fe_link_devrt(out, &fo) == ISA_ST_OK;
}

int main(int argc, char **argv)
{
    enum { O_LIST = 1000, O_DUMP, O_PRINT, O_BACKEND, O_ISATABLE, O_COMPARE, O_TIMEOUT, O_COOP, O_REPEAT, O_FIFO, O_HEAP,
           O_LINK, O_STATS, O_CLUSTER, O_EXACT, O_NOINLINE };
    static const struct option longopts[] = {
        { "kernel", required_argument, 0, 'k' }, { "grid", required_argument, 0, 'g' },
        { "block", required_argument, 0, 'b' },  { "shared", required_argument, 0, 's' },
        { "output", required_argument, 0, 'o' }, { "backend", required_argument, 0, O_BACKEND },
        { "list", no_argument, 0, O_LIST },      { "dump-ir", no_argument, 0, O_DUMP },
        { "print", no_argument, 0, O_PRINT },    { "isa-table", no_argument, 0, O_ISATABLE },
        { "help", no_argument, 0, 'h' },         { "timeout", required_argument, 0, O_TIMEOUT },
        { "cooperative", no_argument, 0, O_COOP },
        { "cluster", required_argument, 0, O_CLUSTER },
        { "repeat", required_argument, 0, O_REPEAT },
        { "printf-fifo", required_argument, 0, O_FIFO }, { "heap", required_argument, 0, O_HEAP },
        { "link", required_argument, 0, O_LINK },
        { "stats", optional_argument, 0, O_STATS },
        { "exact-bounds", no_argument, 0, O_EXACT },
        { "no-inline", no_argument, 0, O_NOINLINE },
#ifdef PTXEMU_TESTING
        { "compare", optional_argument, 0, O_COMPARE },   /* =flip:SPEC: the test backend */
#else
        { "compare", no_argument, 0, O_COMPARE },
#endif
        { 0, 0, 0, 0 }
    };
    /* --fatbin-list / --extract-ptx PROGRAM: a mode of their own (runtime/fatbin_cmd.c) */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--fatbin-list") == 0 || strcmp(argv[i], "--extract-ptx") == 0) {
            char *mode = argv[i];
            memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof *argv);
            argv[1] = mode;
            return rt_fatbin_cmd(argc - 1, argv + 1, stdout, stderr);
        }
    int mode = 0, c;
    const char *kernel = NULL;
    ex_launch_t launch = { { 1, 1, 1 }, { 1, 1, 1 }, 0, 0, 0, NULL, 0, false, { 0, 0, 0 }, false };
    rt_outfmt_t fmt = RT_OUT_TEXT;
    bool cuda = false, compare = false;
    uint32_t repeat = 0;
    uint64_t fifo = 0, heap = 0;
    const char *flip_spec = NULL;
    const char *stats = NULL;   /* --stats: "text" or "json" */
    bool exact = false;         /* --exact-bounds (programs) */
    const char *links[MAX_LINK];
    unsigned nlink = 0;
    /* Options may come before and after FILE; the first word after FILE that is not an
     * option starts the kernel arguments (which may be negative numbers, hence no
     * getopt permutation).  "--" ends the options. */
    const char *path = NULL;
    bool program = false;
    while (optind < argc) {
        const char *w = argv[optind];
        if (strcmp(w, "--") == 0) {
            optind++;
            if (!path && optind < argc)
                path = argv[optind++];
            break;
        }
        bool opt = w[0] == '-' && (w[1] == '-' ? w[2] != 0 : w[1] && strchr("kgbsjoh", w[1]));
        if (!opt) {
            if (path)
                break;
            path = argv[optind++];
            if (is_program(path)) {   /* what follows is the program's */
                program = true;
                break;
            }
            continue;
        }
        if ((c = getopt_long(argc, argv, "+k:g:b:s:j:o:h", longopts, NULL)) == -1)
            break;
        switch (c) {
        case 'k': kernel = optarg; break;
        case 'g':
            if (!parse_dim3("--grid", optarg, launch.grid))
                return EXIT_USAGE;
            break;
        case 'b':
            if (!parse_dim3("--block", optarg, launch.block))
                return EXIT_USAGE;
            break;
        case 's':
            if (!parse_uint("--shared", optarg, &launch.shared_bytes))
                return EXIT_USAGE;
            break;
        case 'j': {
            uint32_t n;
            if (!parse_uint("-j", optarg, &n))
                return EXIT_USAGE;
            launch.workers = n;
            break;
        }
        case 'o':
            if (strcmp(optarg, "text") == 0)
                fmt = RT_OUT_TEXT;
            else if (strcmp(optarg, "hex") == 0)
                fmt = RT_OUT_HEX;
            else if (strcmp(optarg, "json") == 0)
                fmt = RT_OUT_JSON;
            else {
                fprintf(stderr, "ptxrun: error: --output '%s': expected text, hex or json\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_BACKEND:
            if (strcmp(optarg, "emu") == 0 || strcmp(optarg, "cuda") == 0) {
                cuda = optarg[0] == 'c';
            } else {
                fprintf(stderr, "ptxrun: error: --backend '%s': expected emu or cuda\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_TIMEOUT: {
            char *end;
            double t = strtod(optarg, &end);
            if (end == optarg || *end || !(t > 0) || t > 1e9) {
                fprintf(stderr, "ptxrun: error: --timeout '%s': expected a positive number of seconds\n", optarg);
                return EXIT_USAGE;
            }
            launch.timeout = t;
            break;
        }
        case O_EXACT: exact = true; break;
        case O_NOINLINE: setenv("PTXEMU_NO_INLINE", "1", 1); break;   /* the emulator's device, here or in a program */
        case O_COOP:
            launch.cooperative = true;
            break;
        case O_CLUSTER:
            if (!parse_dim3("--cluster", optarg, launch.cluster))
                return EXIT_USAGE;
            launch.cluster_nonportable = (uint64_t)launch.cluster[0] * launch.cluster[1] * launch.cluster[2] > 8;
            break;
        case O_FIFO:
        case O_HEAP: {
            char *end;
            unsigned long long v = strtoull(optarg, &end, 0);
            if (end == optarg || *end || v == 0 || optarg[0] == '-' || v > (1ull << 40)) {
                fprintf(stderr, "ptxrun: error: --%s '%s': expected a number of bytes from 1 to 2^40\n",
                        c == O_FIFO ? "printf-fifo" : "heap", optarg);
                return EXIT_USAGE;
            }
            *(c == O_FIFO ? &fifo : &heap) = v;
            break;
        }
        case O_REPEAT:
            if (!parse_uint("--repeat", optarg, &repeat))
                return EXIT_USAGE;
            if (repeat == 0) {
                fprintf(stderr, "ptxrun: error: --repeat '%s': expected a positive number of launches\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_COMPARE:
            compare = true;
            flip_spec = optarg;
            break;
        case O_STATS:
            if (!optarg || strcmp(optarg, "text") == 0)
                stats = "text";
            else if (strcmp(optarg, "json") == 0)
                stats = "json";
            else {
                fprintf(stderr, "ptxrun: error: --stats='%s': expected text or json\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_LINK:
            if (nlink == MAX_LINK) {
                fprintf(stderr, "ptxrun: error: --link: at most %d units\n", MAX_LINK);
                return EXIT_USAGE;
            }
            links[nlink++] = optarg;
            break;
        case O_LIST: case O_DUMP: case O_PRINT: mode = c; break;
        case O_ISATABLE:
            isa_doc_table(stdout);
            return EXIT_OK;
        case 'h': usage(stdout); return EXIT_OK;
        default: usage(stderr); return EXIT_USAGE;
        }
    }
    if (!path) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (stats && (cuda || compare)) {
        fprintf(stderr, "ptxrun: error: --stats counts on the emulator only (not with --backend cuda or --compare); "
                        "on a GPU, Nsight Compute measures the same metrics\n");
        return EXIT_USAGE;
    }
    if (program) {
        if (mode || repeat || kernel || nlink) {
            fprintf(stderr, "ptxrun: error: --list, --dump-ir, --print, --repeat, -k and --link apply to a PTX file, "
                            "not to a program\n");
            return EXIT_USAGE;
        }
        if (launch.workers)
            setenv_num("PTXEMU_WORKERS", launch.workers, true);
        if (launch.timeout > 0)
            setenv_num("PTXEMU_TIMEOUT", launch.timeout, false);
        if (fifo)
            setenv_num("PTXEMU_PRINTF_FIFO", (double)fifo, true);
        if (heap)
            setenv_num("PTXEMU_HEAP", (double)heap, true);
        if (stats)
            setenv("PTXEMU_STATS", stats, 1);
        if (exact)
            setenv("PTXEMU_EXACT_BOUNDS", "1", 1);
        char **pargv = argv + optind - 1;   /* the program's name, then its arguments */
        if (compare)
            return compare_program(pargv);
        int rc = spawn(pargv, !cuda, false, NULL, NULL);
        return rc < 0 ? EXIT_USAGE : rc;
    }
    if (exact)   /* a PTX file's buffers are always exact: this maps its module variables exactly */
        setenv("PTXEMU_EXACT_BOUNDS", "1", 1);
    if (fifo)   /* for the CUDA backend (runtime/cuda.c), as for programs */
        setenv_num("PTXEMU_PRINTF_FIFO", (double)fifo, true);
    if (heap)
        setenv_num("PTXEMU_HEAP", (double)heap, true);
    if (fifo || heap) {
        ex_device_t *dev = rt_device();
        if (!dev || (fifo && ex_device_set_limit(dev, EX_LIMIT_PRINTF_FIFO, fifo) != ISA_ST_OK) ||
            (heap && ex_device_set_limit(dev, EX_LIMIT_HEAP, heap) != ISA_ST_OK)) {
            fprintf(stderr, "ptxrun: error: cannot set the device's limits\n");
            return EXIT_USAGE;
        }
    }
    if (repeat && (cuda || compare)) {
        fprintf(stderr, "ptxrun: error: --repeat runs on the emulator only (not with --backend cuda or --compare)\n");
        return EXIT_USAGE;
    }
    /* Tests shorten the time slice of resident CTAs (warp instructions) to check that
     * results do not depend on it. */
    const char *slice = getenv("PTXEMU_TIME_SLICE");
    if (slice && *slice) {
        char *end;
        unsigned long long v = strtoull(slice, &end, 10);
        if (*end || v == 0) {
            fprintf(stderr, "ptxrun: error: PTXEMU_TIME_SLICE '%s': expected a positive number of instructions\n",
                    slice);
            return EXIT_USAGE;
        }
        launch.slice = v;
    }
    if (stats) {
        /* every launch's statistics on stderr, as it ends */
        static bool json;
        json = stats[0] == 'j';
        ex_device_t *dev = rt_device();
        ex_observer_t o = { NULL, print_stats, &json };
        if (!dev || ex_device_observe(dev, &o) != ISA_ST_OK) {
            fprintf(stderr, "ptxrun: error: cannot observe the device's launches\n");
            return EXIT_USAGE;
        }
        ex_device_set_stats(dev, true);
    }
    isa_module_t *m = NULL;
    if (!load_units(path, links, nlink, &m))
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
                    kernel ? "no entry with the name given to -k" : nentry ? "several entries: choose one with -k" : "no entry");
            rc = EXIT_USAGE;
        } else if (compare) {
            catch_sigint(&launch);
            rc = compare_entry(m, (uint32_t)(entry - m->funcs), &launch, flip_spec, argc - optind,
                               argv + optind);
        } else {
            if (!cuda)
                catch_sigint(&launch);
            rc = run_entry(m, (uint32_t)(entry - m->funcs), &launch, cuda, repeat, fmt, argc - optind,
                           argv + optind);
        }
    }
    isa_module_free(m);
    return atomic_load(&interrupted) ? 128 + SIGINT : rc;
}
