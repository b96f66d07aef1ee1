/* check_ptxrun.c: ptxrun as a user runs it: --list, --dump-ir, --print, --compare, --fatbin-list, --extract-ptx, exit
 * statuses and located diagnostics. */
#include <check.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run "ptxrun ARGS" in the source tree; stdout+stderr into a malloc'd string.  With
 * testing, the test build of ptxrun (build/tests/ptxrun, beside the runner's bin/). */
static int ptxrun_build(bool testing, const char *args, char **out)
{
    const char *bin = getenv("PTXRUN");
    const char *src = getenv("PTXEMU_SRCDIR");
    ck_assert_msg(bin && src, "PTXRUN and PTXEMU_SRCDIR must be set (make check sets them)");
    char cmd[2048];
    const char *slash = strrchr(bin, '/');
    if (testing)   /* BUILD/bin/ptxrun -> BUILD/bin/../tests/ptxrun */
        snprintf(cmd, sizeof cmd, "cd '%s' && '%.*s../tests/ptxrun' %s 2>&1", src,
                 slash ? (int)(slash - bin + 1) : 0, bin, args);
    else
        snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>&1", src, bin, args);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int st = pclose(p);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int ptxrun(const char *args, char **out)
{
    return ptxrun_build(false, args, out);
}

/* Whether the driver is built beside ptxrun (not in the sanitizer build). */
static bool have_driver(void)
{
    const char *bin = getenv("PTXRUN");
    char path[4096];
    const char *slash = bin ? strrchr(bin, '/') : NULL;
    snprintf(path, sizeof path, "%.*s../lib/libcuda.so.1", slash ? (int)(slash - bin + 1) : 0, bin ? bin : "");
    return access(path, R_OK) == 0;
}

START_TEST(program_options_reach_it)
{
    if (!have_driver()) {
        puts("program_options_reach_it: skipped (no driver in this build)");
        return;
    }
    char *out;
    /* -j and --timeout reach the program's driver through the environment; everything after
     * the program's name is the program's; its exit status is ptxrun's */
    int rc = ptxrun("-j 3 --timeout 5 sh -c 'echo \"$PTXEMU_WORKERS $PTXEMU_TIMEOUT: $*\"; exit 7' x -k 3", &out);
    ck_assert_int_eq(rc, 7);
    ck_assert_str_eq(out, "3 5: -k 3\n");
    free(out);
    /* the driver's folder comes first on the library path */
    rc = ptxrun("sh -c 'ls \"${LD_LIBRARY_PATH%%%%:*}/libcuda.so.1\"'", &out);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "libcuda.so.1"));
    free(out);
    rc = ptxrun("./no/such/program", &out);
    ck_assert_int_eq(rc, 2);
    free(out);
}
END_TEST

/* The README's CUDA program (committed x86-64 build) on the driver. */
START_TEST(program_runs_on_driver)
{
#if defined(__x86_64__)
    if (!have_driver()) {
        puts("program_runs_on_driver: skipped (no driver in this build)");
        return;
    }
    char *out;
    int rc = ptxrun("examples/hello", &out);
    ck_assert_msg(rc == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "hello from thread 255 of block 255\n"));
    ck_assert_ptr_nonnull(strstr(out, "NVIDIA H100 80GB HBM3 (sm_90): saxpy of 65536 floats: no error, 0 wrong\n"));
    free(out);
#else
    puts("program_runs_on_driver: skipped (the committed build is x86-64)");
#endif
}
END_TEST

/* An -rdc program (tests/apps/rdc, committed x86-64 build): the driver links the PTX of its
 * two translation units; the output is derived in tests/apps/rdc/README.md. */
START_TEST(program_rdc_runs_on_driver)
{
#if defined(__x86_64__)
    if (!have_driver()) {
        puts("program_rdc_runs_on_driver: skipped (no driver in this build)");
        return;
    }
    char *out;
    int rc = ptxrun("tests/apps/rdc/rdc", &out);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/apps/rdc/rdc.out", getenv("PTXEMU_SRCDIR"));
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    char want[512];
    size_t n = fread(want, 1, sizeof want - 1, f);
    want[n] = 0;
    fclose(f);
    ck_assert_msg(rc == 0, "%s", out);
    ck_assert_str_eq(out, want);
    free(out);
#else
    puts("program_rdc_runs_on_driver: skipped (the committed build is x86-64)");
#endif
}
END_TEST

/* --link: PTX units linked before the run (tests/ptx/link/README.md derives the numbers). */
/* A call of the device runtime's grid sync links the emulator's PTX for it. */
START_TEST(devrt_grid_sync)
{
    char *out;
    int rc = ptxrun("--cooperative -g 4 -b 64 tests/ptx/link/cg_sync.ptx 'u32[256]:out'", &out);
    ck_assert_msg(rc == 0, "%s", out);
    char want[2048] = "arg0 u32[256]:";
    for (unsigned i = 0; i < 256; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), " %u", (i + 1) % 256);
    strcat(want, "\n");
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

START_TEST(link_units)
{
    char *out;
    int rc = ptxrun("-b 4 --link tests/ptx/link/lib.ptx --link tests/ptx/link/pick.ptx tests/ptx/link/main.ptx "
                    "'u32[4]:out'", &out);
    ck_assert_msg(rc == 0, "%s", out);
    ck_assert_str_eq(out, "arg0 u32[4]: 1007 1019 1031 1043\n");
    free(out);
    /* without pick.ptx, lib.ptx's .weak pick */
    rc = ptxrun("-b 4 --link tests/ptx/link/lib.ptx tests/ptx/link/main.ptx 'u32[4]:out'", &out);
    ck_assert_msg(rc == 0, "%s", out);
    ck_assert_str_eq(out, "arg0 u32[4]: 1008 1018 1028 1038\n");
    free(out);
    /* without lib.ptx: the undefined names, at their first uses */
    rc = ptxrun("-b 4 --link tests/ptx/link/pick.ptx tests/ptx/link/main.ptx 'u32[4]:out'", &out);
    ck_assert_int_eq(rc, 2);
    ck_assert_msg(strstr(out, "tests/ptx/link/main.ptx:25:21: error: undefined reference to variable 'lib_base': "
                              "no unit defines it (declared at tests/ptx/link/main.ptx:9:31)\n") == out, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "tests/ptx/link/main.ptx:27:12: error: undefined reference to function "
                                      "'lib_add'"));
    free(out);
    /* the linked module prints; each unit's file-scope scale stays its own */
    rc = ptxrun("--link tests/ptx/link/lib.ptx --print tests/ptx/link/main.ptx", &out);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, ".global .align 4 .u32 scale = 10;\n"));
    ck_assert_ptr_nonnull(strstr(out, ".global .align 4 .u32 scale$1 = 1000;\n"));
    free(out);
    rc = ptxrun("--link tests/ptx/link/lib.ptx examples/hello", &out);
    ck_assert_int_eq(rc, 2);
    free(out);
}
END_TEST

START_TEST(list_entry)
{
    char *out;
    ck_assert_int_eq(ptxrun("--list examples/vecadd.ptx", &out), 0);
    ck_assert_str_eq(out, "entry vecadd\n"
                          "  param 0 vecadd_param_0 .u64 size 8 align 8\n"
                          "  param 1 vecadd_param_1 .u64 size 8 align 8\n"
                          "  param 2 vecadd_param_2 .u64 size 8 align 8\n"
                          "  param 3 vecadd_param_3 .u32 size 4 align 4\n");
    free(out);
}
END_TEST

START_TEST(list_directives_and_struct_params)
{
    char *out;
    ck_assert_int_eq(ptxrun("--list tests/ptx/syntax/perf_directives.ptx", &out), 0);
    ck_assert_msg(strstr(out, ".maxntid 256, 1, 1\n") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(ptxrun("--list tests/ptx/corpus/01_exec_space.sm_90.ptx", &out), 0);
    ck_assert_msg(strstr(out, ".b8[68] size 68 align 4") != NULL, "by-value struct param: %s", out);
    free(out);
}
END_TEST

START_TEST(dump_and_print)
{
    char *out;
    ck_assert_int_eq(ptxrun("--dump-ir examples/vecadd.ptx", &out), 0);
    ck_assert_msg(strstr(out, "vecadd") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(ptxrun("--print examples/vecadd.ptx", &out), 0);
    ck_assert_msg(strstr(out, ".entry vecadd") != NULL, "%s", out);
    free(out);
}
END_TEST

START_TEST(invalid_ptx_exits_2_with_location)
{
    char *out;
    ck_assert_int_eq(ptxrun("--list tests/ptx/errors/unknown_instruction.ptx", &out), 2);
    ck_assert_msg(strstr(out, "tests/ptx/errors/unknown_instruction.ptx:10:2: error: unknown instruction 'foo'")
                  != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(ptxrun("--dump-ir tests/ptx/errors/syntax_error.ptx", &out), 2);
    free(out);
    ck_assert_int_eq(ptxrun("--list /nonexistent.ptx", &out), 2);
    free(out);
    ck_assert_int_eq(ptxrun("--bogus-option", &out), 2);
    free(out);
}
END_TEST

/* A kernel whose instructions have no semantics yet stops before the launch, naming the
 * instruction with its location. */
START_TEST(unsupported_stops_before_launch)
{
    char *out;
    ck_assert_int_eq(ptxrun("tests/ptx/unsupported/tcgen05_alloc.ptx", &out), 2);
    ck_assert_msg(strstr(out, "tests/ptx/unsupported/tcgen05_alloc.ptx:") != NULL &&
                  strstr(out, "is not supported yet") != NULL, "%s", out);
    free(out);
}
END_TEST

/* A call of an .extern function no linked unit defines is refused before the launch,
 * naming the function and the way to give it. */
START_TEST(unresolved_extern_named)
{
    char *out;
    ck_assert_int_eq(ptxrun("tests/ptx/unsupported/extern_unresolved.ptx 'u32[1]:out'", &out), 2);
    ck_assert_msg(strstr(out, "extern_unresolved.ptx:19:2: error: call of 'twice', which has no body") &&
                  strstr(out, "--link") && !strstr(out, "not supported yet"), "%s", out);
    free(out);
}
END_TEST

/* The longest conversion spec the printf formatter takes fits its buffer (SANITIZE=1
 * checks) and prints as C prints the spec it stands for. */
START_TEST(printf_long_spec)
{
    char *out;
    ck_assert_int_eq(ptxrun("tests/ptx/printf_long_spec.ptx", &out), 0);
    ck_assert_msg(strstr(out, "[007  ]\n") != NULL, "%s", out);
    free(out);
}
END_TEST

/* Sampler state read through a reference is refused as the GPU's driver refuses it,
 * with the reason. */
START_TEST(sampler_reference_refused)
{
    char *out;
    ck_assert_int_eq(ptxrun("tests/ptx/unsupported/sampler_ref.ptx 'u32[2]:out' 't0=tex.1d.f32[4]'", &out), 2);
    ck_assert_msg(strstr(out, "sampler_ref.ptx:15:") && strstr(out, "sampler_ref.ptx:16:") &&
                  strstr(out, "is refused") && strstr(out, "CUDA_ERROR_NOT_FOUND"), "%s", out);
    free(out);
}
END_TEST

/* A texture fetch given one coordinate where its geometry takes a vector is refused before
 * the launch, located, with the reason (ptxas takes it; the other coordinates are whatever
 * registers it allocates next). */
START_TEST(scalar_texture_coordinate_refused)
{
    char *out;
    ck_assert_int_eq(ptxrun("-b 16 tests/ptx/unsupported/tex_scalar_coord.ptx 'tex.2d.f32[8,8]' 'tex.3d.f32[4,4,4]' "
                            "'f32[256]:out'", &out), 2);
    ck_assert_msg(strstr(out, "tex_scalar_coord.ptx:25:") && strstr(out, "tex_scalar_coord.ptx:27:") &&
                  strstr(out, "tex_scalar_coord.ptx:31:") && strstr(out, "one coordinate where the geometry"),
                  "%s", out);
    free(out);
}
END_TEST

/* ld and st of .v8 vectors of 8- and 16-bit elements are refused before the launch,
 * located, with what the H100's driver does with them (crashes on loads, stores only the
 * first element). */
START_TEST(small_v8_ldst_refused)
{
    char *out;
    ck_assert_int_eq(ptxrun("tests/ptx/unsupported/ldst_v8_small.ptx 'u8[64]' 'u8[64]:out'", &out), 2);
    ck_assert_msg(strstr(out, "ldst_v8_small.ptx:14:") && strstr(out, "ldst_v8_small.ptx:15:") &&
                  strstr(out, "ldst_v8_small.ptx:16:") && strstr(out, "ldst_v8_small.ptx:17:") &&
                  strstr(out, "driver's JIT crash") && strstr(out, "writes only the first element"), "%s", out);
    free(out);
}
END_TEST

/* An unmeasured texture form stops the kernel, located and named, with exit 1. */
START_TEST(unmeasured_texture_form_faults)
{
    char *out;
    ck_assert_int_eq(ptxrun("tests/ptx/unsupported/tex_grad_aniso.ptx 'tex.2d.f32[16,16]=rand(1):levels=3:aniso=4' "
                            "'f32[1]:out'", &out), 1);
    ck_assert_msg(strstr(out, "tex_grad_aniso.ptx:16:") && strstr(out, "anisotropic filtering") &&
                  strstr(out, "is not supported yet"), "%s", out);
    free(out);
}
END_TEST

/* A module whose kernels take a .texref parameter is refused whole, as the H100's driver
 * refuses to load it: the other kernel does not run either. */
START_TEST(opaque_kernel_parameters_refused)
{
    char *out;
    ck_assert_int_eq(ptxrun("-k k2 tests/ptx/unsupported/texref_param.ptx 'f32[1]:out'", &out), 2);
    ck_assert_msg(strstr(out, "texref_param.ptx:8:34: error: kernel parameter 't' of type .texref is refused") &&
                  strstr(out, "CUDA_ERROR_INVALID_IMAGE"), "%s", out);
    free(out);
}
END_TEST

/* Texture and surface references: bound by NAME=tex... / NAME=surf... (of the right kind,
 * once); one left unbound is a fault naming it. */
START_TEST(references_bound_by_name)
{
    char *out;
    const char *k = "-b 64 tests/golden/texref.ptx 'f32[128]=rand(3)' 'b32[1280]'";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s 'tA=tex.2d.f32[4,4]' 'tB=tex.lin.s32[64]' 'sC=surf.2d.u32[8,8]=iota(0,1):out' "
             "'tD=tex.pitch.u16x2[12,7]' 'tE=tex.2d.f32[16,16]:levels=3'", k);
    ck_assert_int_eq(ptxrun(cmd, &out), 0);
    ck_assert_msg(strstr(out, "sC u32[64]: 0 2 4 6 8 10 12 14 16") != NULL, "%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "%s 'tA=surf.2d.u32[4,4]'", k);
    ck_assert_int_eq(ptxrun(cmd, &out), 2);
    ck_assert_msg(strstr(out, "tA is a .texref: it takes a tex. argument") != NULL, "%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "%s 'tA=tex.2d.f32[4,4]' 'tA=tex.2d.f32[4,4]'", k);
    ck_assert_int_eq(ptxrun(cmd, &out), 2);
    ck_assert_msg(strstr(out, "tA is bound twice") != NULL, "%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "%s 'tA=tex.2d.f32[4,4]' 'sC=surf.2d.u32[8,8]'", k);
    ck_assert_int_eq(ptxrun(cmd, &out), 1);
    ck_assert_msg(strstr(out, "texture reference 'tB' is bound to no resource") != NULL &&
                  strstr(out, "texref.ptx:"), "%s", out);
    free(out);
}
END_TEST

/* docs/ptx-support.md is generated from the tables and must be current (make docs). */
START_TEST(isa_table_doc_current)
{
    char *out;
    ck_assert_int_eq(ptxrun("--isa-table", &out), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/ptx-support.md", getenv("PTXEMU_SRCDIR"));
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "docs/ptx-support.md is missing: run make docs");
    static char doc[1 << 20];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    doc[n] = 0;
    fclose(f);
    ck_assert_msg(strcmp(out, doc) == 0, "docs/ptx-support.md is stale: run make docs");
    free(out);
}
END_TEST

/* docs/verification.md is generated by ptxfuzz doc (beside ptxrun) from the tables and the
 * committed test data, without running the fuzz data, and must be current (make docs). */
START_TEST(verification_doc_current)
{
    const char *bin = getenv("PTXRUN"), *src = getenv("PTXEMU_SRCDIR");
    ck_assert_msg(bin && src, "PTXRUN and PTXEMU_SRCDIR must be set (make check sets them)");
    const char *slash = strrchr(bin, '/');
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%.*sptxfuzz' doc 2>&1", src, slash ? (int)(slash - bin + 1) : 0, bin);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    static char out[1 << 21], doc[1 << 21];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    ck_assert_int_eq(pclose(p), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/verification.md", src);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "docs/verification.md is missing: run make docs");
    n = fread(doc, 1, sizeof doc - 1, f);
    doc[n] = 0;
    fclose(f);
    ck_assert_msg(strstr(out, "## Summary") != NULL, "%.400s", out);
    ck_assert_msg(strcmp(out, doc) == 0, "docs/verification.md is stale: run make docs");
}
END_TEST

/* Race-free kernels print the same results whatever the number of worker threads and
 * whatever the time slice after which a worker turns to another resident CTA. */
START_TEST(results_independent_of_workers)
{
    const char *args[] = {
        "tools/bench/kernels.ptx -k reduce_sum -g 64 -b 128 -s 512 's32[16384]=rand(7)' 's32[64]:out' 16384",
        "tools/bench/kernels.ptx -k matmul_tiled -g 4,4 -b 16,16 'f32[4096]=rand(3)' 'f32[4096]=rand(5)' "
        "'f32[4096]:out' 64",
        /* clusters of 4 CTAs: distributed shared memory, the cluster barrier, mbarriers */
        "tests/golden/cluster_dsmem.ptx -g 8 -b 64 'u32[512]:out' 'u32[512]:out' 'u32[512]:out'",
    };
    static const struct { const char *j, *slice; } runs[] = {
        { "1", NULL }, { "2", NULL }, { "4", NULL }, { "1", "7" }, { "2", "7" }, { "1", "1" }, { "3", "100" },
    };
    for (unsigned a = 0; a < sizeof args / sizeof *args; a++) {
        char *first = NULL;
        for (unsigned r = 0; r < sizeof runs / sizeof *runs; r++) {
            char cmd[512], *out;
            snprintf(cmd, sizeof cmd, "-j %s %s", runs[r].j, args[a]);
            if (runs[r].slice)
                setenv("PTXEMU_TIME_SLICE", runs[r].slice, 1);
            ck_assert_int_eq(ptxrun(cmd, &out), 0);
            unsetenv("PTXEMU_TIME_SLICE");
            ck_assert_msg(strncmp(out, "arg", 3) == 0, "%s", out);
            if (!first)
                first = out;
            else {
                ck_assert_msg(strcmp(first, out) == 0, "-j %s, slice %s: %.200s", runs[r].j,
                              runs[r].slice ? runs[r].slice : "default", out);
                free(out);
            }
        }
        free(first);
    }
}
END_TEST

/* CTA 0 spins on a flag in global memory that the grid's last CTA sets: both are resident
 * on an H100 and the kernel ends (tests/golden/spin_flag); so it does here with one worker
 * (which must turn from the spinning CTA to the others), with two, and with short slices. */
START_TEST(spin_flag_across_ctas)
{
    static const struct { const char *j, *slice, *grid; } runs[] = {
        { "1", NULL, "2" }, { "2", NULL, "2" }, { "1", "5", "8" }, { "2", "5", "8" }, { "1", "50", "300" },
    };
    for (unsigned r = 0; r < sizeof runs / sizeof *runs; r++) {
        char cmd[512], want[64], *out;
        snprintf(cmd, sizeof cmd, "-j %s -g %s -b 64 tests/golden/spin_flag.ptx 'u32[1]' 'u32[1]' 'u32[1]:out'",
                 runs[r].j, runs[r].grid);
        if (runs[r].slice)
            setenv("PTXEMU_TIME_SLICE", runs[r].slice, 1);
        ck_assert_int_eq(ptxrun(cmd, &out), 0);
        unsetenv("PTXEMU_TIME_SLICE");
        snprintf(want, sizeof want, "arg2 u32[1]: %u\n", 1000 + (unsigned)atoi(runs[r].grid) - 1);
        ck_assert_str_eq(out, want);
        free(out);
    }
}
END_TEST

/* A cooperative launch must fit on the GPU at once: 2 CTAs of 1024 threads per SM, 132
 * SMs, as the driver refuses (exit 2); one CTA fewer runs. */
START_TEST(cooperative_too_large)
{
    char *out;
    ck_assert_int_eq(ptxrun("--cooperative -g 265 -b 1024 tests/golden/spin_flag.ptx 'u32[1]' 'u32[1]' "
                            "'u32[1]:out'", &out), 2);
    ck_assert_msg(strstr(out, "a cooperative grid of 265 CTAs, more than the 264 that can be resident at once "
                              "(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(ptxrun("--cooperative -g 264 -b 1024 tests/golden/spin_flag.ptx 'u32[1]' 'u32[1]' "
                            "'u32[1]:out'", &out), 0);
    ck_assert_str_eq(out, "arg2 u32[1]: 1263\n");
    free(out);
    /* Shared memory limits residency too: 100 KiB per CTA leaves room for 2 per SM. */
    ck_assert_int_eq(ptxrun("--cooperative -g 265 -b 32 -s 102400 tests/golden/spin_flag.ptx 'u32[1]' 'u32[1]' "
                            "'u32[1]:out'", &out), 2);
    free(out);
}
END_TEST

/* --repeat N launches N times on the same buffers (the benchmark kernel adds 1 to each
 * element), prints them once and the time per launch on stderr; bad counts and other
 * backends are refused. */
START_TEST(repeat_launches)
{
    char *out;
    ck_assert_int_eq(ptxrun("--repeat 7 -b 4 -j 2 tools/bench/launch.ptx -k inc 'u32[4]=5:out'", &out), 0);
    ck_assert_msg(strstr(out, "arg0 u32[4]: 12 12 12 12\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "ptxrun: 7 launches in ") != NULL && strstr(out, " us per launch"), "%s", out);
    free(out);
    ck_assert_int_eq(ptxrun("--repeat 0 -b 4 tools/bench/launch.ptx -k inc 'u32[4]'", &out), 2);
    ck_assert_msg(strstr(out, "--repeat '0': expected a positive number of launches") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(ptxrun("--repeat 2 --backend cuda -b 4 tools/bench/launch.ptx -k inc 'u32[4]'", &out), 2);
    ck_assert_msg(strstr(out, "--repeat runs on the emulator only") != NULL, "%s", out);
    free(out);
}
END_TEST

/*{=====================================================================
 * --compare, end to end through the test build's backend "flip" (the emulator's
 * results with chosen bits inverted), so that no GPU is needed
 *====================================================================*/

#define VECADD "-b 8 examples/vecadd.ptx 'f32[8]=rand(1)' 'f32[8]=rand(2)' "

START_TEST(compare_identical)
{
    char *out;
    /* The same bit flipped twice: identical. */
    ck_assert_int_eq(ptxrun_build(true, "--compare=flip:2:3:7,2:3:7 " VECADD "'f32[8]:out' 8", &out), 0);
    ck_assert_str_eq(out, "compare: 1 buffer, 8 elements, identical (emu vs flip)\n");
    free(out);
}
END_TEST

START_TEST(compare_differ)
{
    char *out;
    ck_assert_int_eq(ptxrun_build(true, "--compare=flip:2:1:0,2:6:31 -b 8 examples/vecadd.ptx 'f32[8]=iota' "
                                        "'f32[]=0.5,1,1.5,2,2.5,3,3.5,4' 'f32[8]:out' 8", &out), 3);
    ck_assert_str_eq(out, "compare: arg2 f32[8]: 2 elements differ (emu vs flip)\n"
                          "  [1] emu 0x40000000 (2), flip 0x40000001 (2.0000002): 1 ulp\n"
                          "  [6] emu 0x41180000 (9.5), flip 0xc1180000 (-9.5): 2184183808 ulp\n"
                          "compare: 1 of 1 buffer differs, 2 of 8 elements (emu vs flip)\n");
    free(out);
}
END_TEST

/* Ten differences are shown per buffer; the count covers them all. */
START_TEST(compare_many_differences)
{
    char *out;
    ck_assert_int_eq(ptxrun_build(true, "--compare=flip:2:*:0 -b 32 examples/vecadd.ptx 'f32[32]=iota' "
                                        "'f32[32]=0' 'f32[32]:out' 32", &out), 3);
    ck_assert_msg(strncmp(out, "compare: arg2 f32[32]: 32 elements differ (emu vs flip)\n"
                               "  [0] emu 0x00000000 (0), flip 0x00000001 (1e-45): 1 ulp\n", 112) == 0, "%s", out);
    ck_assert_msg(strstr(out, "  [9] emu 0x41100000 (9), flip 0x41100001 (9.000001): 1 ulp\n"
                              "  ... and 22 more\n"
                              "compare: 1 of 1 buffer differs, 32 of 32 elements (emu vs flip)\n") != NULL, "%s", out);
    ck_assert_ptr_null(strstr(out, "[10]"));
    free(out);
}
END_TEST

/* A fault is reported with its side; the kernel here faults on both (the output
 * buffer is too short). */
START_TEST(compare_fault)
{
    char *out;
    ck_assert_int_eq(ptxrun_build(true, "--compare=flip:2:0:0 " VECADD "'f32[2]:out' 8", &out), 1);
    ck_assert_msg(strstr(out, "compare: the emu run faulted\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "compare: the flip run faulted\n") != NULL, "%s", out);
    ck_assert_ptr_null(strstr(out, "identical"));
    free(out);
    ck_assert_int_eq(ptxrun_build(true, "--compare=flip:0:0:0 -b 8 examples/trap.ptx 'u32[8]:out'", &out), 1);
    ck_assert_msg(strstr(out, "trap instruction executed\n  at examples/trap.ptx:18:2: @%p trap\n"
                              "compare: the emu run faulted\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "compare: the flip run faulted\n") != NULL, "%s", out);
    free(out);
}
END_TEST

/* :out=PATH buffers are compared, and get the emulator's results. */
START_TEST(compare_out_path)
{
    char *out, a[64], b[64], cmd[512];
    snprintf(a, sizeof a, "/tmp/ptxemu-cmp-%d-a.bin", (int)getpid());
    snprintf(b, sizeof b, "/tmp/ptxemu-cmp-%d-b.bin", (int)getpid());
    snprintf(cmd, sizeof cmd, "--compare=flip:2:0:0 " VECADD "'f32[8]:out=%s' 8", a);
    ck_assert_int_eq(ptxrun_build(true, cmd, &out), 3);
    ck_assert_msg(strstr(out, "compare: arg2 f32[8]: 1 element differs (emu vs flip)\n") != NULL, "%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, VECADD "'f32[8]:out=%s' 8", b);
    ck_assert_int_eq(ptxrun(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    ck_assert_int_eq(system(cmd), 0);
    unlink(a);
    unlink(b);
}
END_TEST

/* What the emulator cannot run is refused before anything runs, naming the side. */
START_TEST(compare_unsupported)
{
    char *out;
    ck_assert_int_eq(ptxrun_build(true, "--compare=flip:0:0:0 tests/ptx/unsupported/tcgen05_alloc.ptx", &out), 2);
    ck_assert_msg(strstr(out, "is not supported yet") != NULL &&
                  strstr(out, "compare: the emu side cannot run here: nothing compared\n") != NULL, "%s", out);
    free(out);
}
END_TEST

/* The shipped ptxrun compares with the GPU only: the test backend is not in it, and
 * where there is no driver it says so (exit 2). */
START_TEST(compare_shipped)
{
    char *out;
    ck_assert_int_eq(ptxrun("--compare=flip:2:0:0 " VECADD "'f32[8]:out' 8", &out), 2);
    ck_assert_msg(strstr(out, "doesn't allow an argument") != NULL, "%s", out);
    free(out);
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h) {
        dlclose(h);   /* a driver here: the real comparison is not this test's business */
        return;
    }
    ck_assert_int_eq(ptxrun("--compare " VECADD "'f32[8]:out' 8", &out), 2);
    ck_assert_str_eq(out, "ptxrun: error: no CUDA driver (libcuda.so.1) found\n"
                          "compare: the cuda side cannot run here: nothing compared\n");
    free(out);
}
END_TEST
/*}=====================================================================*/

/* --fatbin-list and --extract-ptx on the committed samples (tests/driver/samples). */
START_TEST(fatbin_list)
{
    char *out;
    ck_assert_int_eq(ptxrun("--fatbin-list tests/driver/samples/tiny_shared", &out), 0);
    ck_assert_str_eq(out, "tests/driver/samples/tiny_shared: 2 fatbin containers, 3 entries\n"
                          "entry 0: ELF sm_90 flags 0x11 none 1528 bytes (.nv_fatbin+0x10, container 0)\n"
                          "  kernels: none\n"
                          "entry 1: ELF sm_90 flags 0x11 none 3696 bytes (.nv_fatbin+0x658, container 1)\n"
                          "  kernels: _Z4tinyPi\n"
                          "entry 2: PTX compute_90 ptx 9.0 flags 0x11 none 384 bytes (.nv_fatbin+0x1508, container 1)\n"
                          "  kernels: _Z4tinyPi\n");
    free(out);
    ck_assert_int_eq(ptxrun("--fatbin-list tests/driver/samples/tiny_lz4.fatbin", &out), 0);
    ck_assert_msg(strstr(out, "entry 0: PTX compute_90 ptx 9.0 flags 0x2011 lz4 303 -> 383 bytes"), "%s", out);
    free(out);
    /* not a program with a fatbin: a clear error, exit 2 */
    ck_assert_int_eq(ptxrun("--fatbin-list examples/vecadd.ptx", &out), 2);
    ck_assert_str_eq(out, "ptxrun: error: examples/vecadd.ptx: neither an ELF file nor a fatbin\n");
    free(out);
    ck_assert_int_eq(ptxrun("--fatbin-list", &out), 2);
    ck_assert_str_eq(out, "ptxrun: error: --fatbin-list: no PROGRAM given\n");
    free(out);
}
END_TEST

START_TEST(fatbin_extract)
{
    char *out, *ptx;
    /* to stdout: the PTX, which ptxrun then reads as any PTX file */
    ck_assert_int_eq(ptxrun("--extract-ptx tests/driver/samples/tiny_zstd.o", &out), 0);
    ck_assert_msg(strstr(out, ".target sm_90") && strstr(out, ".visible .entry _Z4tinyPi("), "%s", out);
    free(out);
    char dir[] = "/tmp/ptxemu-extract-XXXXXX", args[512];
    ck_assert(mkdtemp(dir));
    snprintf(args, sizeof args, "--extract-ptx tests/driver/samples/tiny_shared -o %s", dir);
    ck_assert_int_eq(ptxrun(args, &out), 0);
    snprintf(args, sizeof args, "%s/tiny_shared.2.compute_90.ptx\n", dir);
    ck_assert_str_eq(out, args);
    free(out);
    snprintf(args, sizeof args, "--list %s/tiny_shared.2.compute_90.ptx", dir);
    ck_assert_int_eq(ptxrun(args, &ptx), 0);
    ck_assert_str_eq(ptx, "entry _Z4tinyPi\n  param 0 _Z4tinyPi_param_0 .u64 size 8 align 8\n");
    free(ptx);
    snprintf(args, sizeof args, "%s/tiny_shared.2.compute_90.ptx", dir);
    unlink(args);
    rmdir(dir);
    /* an entry that is not PTX, one that does not exist */
    ck_assert_int_eq(ptxrun("--extract-ptx tests/driver/samples/tiny_shared --entry 1", &out), 2);
    ck_assert_str_eq(out, "ptxrun: error: tests/driver/samples/tiny_shared: fatbin entry 1 is not PTX\n");
    free(out);
    ck_assert_int_eq(ptxrun("--extract-ptx tests/driver/samples/tiny_shared --entry 7", &out), 2);
    ck_assert_str_eq(out, "ptxrun: error: tests/driver/samples/tiny_shared has no fatbin entry 7 (entries 0..2)\n");
    free(out);
}
END_TEST

/* --timeout: a kernel that never ends stops after the limit with exit 1 and a report
 * of every live warp: each group of lanes with its PTX location and .loc source line. */
START_TEST(timeout_reports_live_warps)
{
    char *out;
    ck_assert_int_eq(ptxrun("--timeout 0.2 -b 40 examples/spin.ptx", &out), 1);
    ck_assert_msg(strstr(out, "kernel spin: stopped after the time limit of 0.2 s; live warps:\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "  CTA (0,0,0) warp 0 lanes 0x0000ffff: at examples/spin.ptx:21:2: bra \tLOW, "
                              "source spin.cu:9:5\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "  CTA (0,0,0) warp 0 lanes 0xffff0000: at examples/spin.ptx:18:2: bra \tHIGH, "
                              "source spin.cu:7:5\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "  CTA (0,0,0) warp 1 lanes 0x000000ff: at examples/spin.ptx:21:2:") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(ptxrun("--timeout 0 examples/spin.ptx", &out), 2);
    free(out);
}
END_TEST

/* Ctrl-C (SIGINT) during a launch prints the same report and exits 130. */
START_TEST(sigint_reports_live_warps)
{
    const char *bin = getenv("PTXRUN"), *src = getenv("PTXEMU_SRCDIR");
    ck_assert(bin && src);
    char errp[64];
    snprintf(errp, sizeof errp, "/tmp/ptxemu_sigint_%d.err", (int)getpid());
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        if (chdir(src) != 0 || !freopen(errp, "wb", stderr))
            _exit(127);
        execl(bin, bin, "-g", "2", "-b", "32", "examples/spin.ptx", (char *)NULL);
        _exit(127);
    }
    usleep(300000);
    kill(pid, SIGINT);
    int st;
    waitpid(pid, &st, 0);
    static char err[8192];
    FILE *f = fopen(errp, "r");
    size_t n = f ? fread(err, 1, sizeof err - 1, f) : 0;
    err[n] = 0;
    if (f)
        fclose(f);
    remove(errp);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d: %s", st, err);
    ck_assert_msg(strstr(err, "kernel spin: stopped by an interrupt; live warps:\n") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "warp 0 lanes 0x0000ffff: at examples/spin.ptx:21:2: bra \tLOW, source spin.cu:9:5\n")
                  != NULL, "%s", err);
}
END_TEST

Suite *make_ptxrun_suite(void)
{
    Suite *s = suite_create("ptxrun");
    TCase *tc = tcase_create("cli");
    tcase_add_test(tc, list_entry);
    tcase_add_test(tc, list_directives_and_struct_params);
    tcase_add_test(tc, dump_and_print);
    tcase_add_test(tc, invalid_ptx_exits_2_with_location);
    tcase_add_test(tc, unsupported_stops_before_launch);
    tcase_add_test(tc, unresolved_extern_named);
    tcase_add_test(tc, printf_long_spec);
    tcase_add_test(tc, sampler_reference_refused);
    tcase_add_test(tc, unmeasured_texture_form_faults);
    tcase_add_test(tc, scalar_texture_coordinate_refused);
    tcase_add_test(tc, small_v8_ldst_refused);
    tcase_add_test(tc, opaque_kernel_parameters_refused);
    tcase_add_test(tc, references_bound_by_name);
    tcase_add_test(tc, isa_table_doc_current);
    tcase_add_test(tc, verification_doc_current);
    tcase_add_test(tc, results_independent_of_workers);
    tcase_add_test(tc, spin_flag_across_ctas);
    tcase_add_test(tc, cooperative_too_large);
    tcase_add_test(tc, repeat_launches);
    suite_add_tcase(s, tc);
    tc = tcase_create("compare");
    tcase_add_test(tc, compare_identical);
    tcase_add_test(tc, compare_differ);
    tcase_add_test(tc, compare_many_differences);
    tcase_add_test(tc, compare_fault);
    tcase_add_test(tc, compare_out_path);
    tcase_add_test(tc, compare_unsupported);
    tcase_add_test(tc, compare_shipped);
    tcase_add_test(tc, timeout_reports_live_warps);
    tcase_add_test(tc, sigint_reports_live_warps);
    tcase_add_test(tc, fatbin_list);
    tcase_add_test(tc, fatbin_extract);
    tcase_add_test(tc, program_options_reach_it);
    tcase_add_test(tc, program_runs_on_driver);
    tcase_add_test(tc, program_rdc_runs_on_driver);
    tcase_add_test(tc, link_units);
    tcase_add_test(tc, devrt_grid_sync);
    suite_add_tcase(s, tc);
    return s;
}
