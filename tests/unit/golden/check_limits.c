/* check_limits.c: the launch limits (tests/golden/limits/): every case of cases.txt
 * marked "both" runs on the emulator and must end as the H100 did in recorded.txt:
 * the same exit status, and the same CUDA error named in the message (none when the
 * GPU ran it).  A case marked "ptxas" (decided by the registers ptxas allocates) runs
 * where the CUDA toolkit's ptxas is installed, and is skipped, saying so, elsewhere. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/fatbin.h"

#define MAX_CASES 256
static char *lines[MAX_CASES];      /* "NAME both FILE ARGS..." */
static int ncases;
static bool overflow;                   /* more cases than MAX_CASES */

static void load_cases(void)
{
    const char *src = getenv("PTXEMU_SRCDIR");
    char path[4096], buf[1024];
    snprintf(path, sizeof path, "%s/tests/golden/limits/cases.txt", src ? src : ".");
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char pbuf[4096];
    bool ptxas = rt_find_ptxas(pbuf, sizeof pbuf) != NULL;
    unsigned skipped = 0;
    while (fgets(buf, sizeof buf, f)) {
        char name[128], where[16];
        if (buf[0] == '#' || sscanf(buf, "%127s %15s", name, where) != 2)
            continue;
        if (strcmp(where, "ptxas") == 0 && !ptxas) {
            skipped++;
            continue;
        }
        if (strcmp(where, "both") != 0 && strcmp(where, "ptxas") != 0)
            continue;
        if (ncases == MAX_CASES) {
            overflow = true;              /* a case left out is a test lost: fails below */
            break;
        }
        buf[strcspn(buf, "\n")] = 0;
        lines[ncases++] = strdup(buf);
    }
    fclose(f);
    if (skipped)
        printf("limits: %u cases skipped (no ptxas: the registers it allocates decide them)\n", skipped);
}

/* The GPU's answer for name: its exit status and error ("-": none). */
static bool recorded(const char *name, int *rc, char *err, size_t size)
{
    const char *src = getenv("PTXEMU_SRCDIR");
    char path[4096], buf[512], n[128], e[128];
    snprintf(path, sizeof path, "%s/tests/golden/limits/recorded.txt", src ? src : ".");
    FILE *f = fopen(path, "r");
    bool found = false;
    while (f && !found && fgets(buf, sizeof buf, f))
        if (buf[0] != '#' && sscanf(buf, "%127s %d %127s", n, rc, e) == 3 && strcmp(n, name) == 0) {
            snprintf(err, size, "%s", e);
            found = true;
        }
    if (f)
        fclose(f);
    return found;
}

START_TEST(limit_case)
{
    const char *src = getenv("PTXEMU_SRCDIR"), *bin = getenv("PTXRUN");
    ck_assert_msg(src && bin, "PTXRUN and PTXEMU_SRCDIR must be set (make check sets them)");
    ck_assert_msg(ncases > 0, "no cases in tests/golden/limits/cases.txt");
    ck_assert_msg(!overflow, "more than %d cases in tests/golden/limits/cases.txt: raise MAX_CASES", MAX_CASES);
    char *line = strdup(lines[_i]), *argv[64], file[512];
    int argc = 0;
    char *name = strtok(line, " \t");
    strtok(NULL, " \t");                                /* "both" or "ptxas" */
    snprintf(file, sizeof file, "tests/golden/limits/%s", strtok(NULL, " \t"));
    argv[argc++] = (char *)bin;
    argv[argc++] = file;
    for (char *w = strtok(NULL, " \t"); w && argc < 63; w = strtok(NULL, " \t"))
        argv[argc++] = w;
    argv[argc] = NULL;
    int want_rc;
    char want_err[128];
    ck_assert_msg(recorded(name, &want_rc, want_err, sizeof want_err), "%s: not in recorded.txt", name);
    char errp[64];
    snprintf(errp, sizeof errp, "/tmp/ptxemu_limits_%d.err", (int)getpid());
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        if (chdir(src) != 0 || !freopen("/dev/null", "wb", stdout) || !freopen(errp, "wb", stderr))
            _exit(127);
        execv(bin, argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    static char err[8192];
    FILE *f = fopen(errp, "r");
    size_t n = f ? fread(err, 1, sizeof err - 1, f) : 0;
    err[n] = 0;
    if (f)
        fclose(f);
    remove(errp);
    ck_assert_msg(rc == want_rc, "%s: exit %d, the GPU's %d: %s", name, rc, want_rc, err);
    if (strcmp(want_err, "-") == 0)
        ck_assert_msg(strstr(err, "CUDA_ERROR_") == NULL, "%s: the GPU ran it: %s", name, err);
    else
        ck_assert_msg(strstr(err, want_err) != NULL, "%s: the GPU said %s: %s", name, want_err, err);
    free(line);
}
END_TEST

Suite *make_limits_suite(void)
{
    load_cases();
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, limit_case, 0, ncases ? ncases : 1);
    suite_add_tcase(s, tc);
    return s;
}
