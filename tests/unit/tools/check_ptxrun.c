/* check_ptxrun.c: ptxrun as a user runs it: --list, --dump-ir, --print, exit statuses
 * and located diagnostics. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run "ptxrun ARGS" in the source tree; stdout+stderr into a malloc'd string. */
static int ptxrun(const char *args, char **out)
{
    const char *bin = getenv("PTXRUN");
    const char *src = getenv("PTXEMU_SRCDIR");
    ck_assert_msg(bin && src, "PTXRUN and PTXEMU_SRCDIR must be set (make check sets them)");
    char cmd[2048];
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

/* Race-free kernels print the same results whatever the number of worker threads. */
START_TEST(results_independent_of_workers)
{
    char *one, *two, *four;
    const char *args = "tools/bench/kernels.ptx -k reduce_sum -g 64 -b 128 -s 512 "
                       "'s32[16384]=rand(7)' 's32[64]:out' 16384";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "-j 1 %s", args);
    ck_assert_int_eq(ptxrun(cmd, &one), 0);
    snprintf(cmd, sizeof cmd, "-j 2 %s", args);
    ck_assert_int_eq(ptxrun(cmd, &two), 0);
    snprintf(cmd, sizeof cmd, "-j 4 %s", args);
    ck_assert_int_eq(ptxrun(cmd, &four), 0);
    ck_assert_str_eq(one, two);
    ck_assert_str_eq(one, four);
    ck_assert_msg(strncmp(one, "arg1 s32[64]: ", 14) == 0, "%s", one);
    free(one);
    free(two);
    free(four);
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
    tcase_add_test(tc, isa_table_doc_current);
    tcase_add_test(tc, results_independent_of_workers);
    suite_add_tcase(s, tc);
    return s;
}
