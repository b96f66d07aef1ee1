/* check_golden.c: replays every golden (tests/golden/NAME.{ptx,cmd,out}) on the
 * emulator through ptxrun and compares stdout byte for byte.  A golden that the
 * emulator cannot run, or that has no recorded .out, fails: nothing is skipped.  A golden
 * whose arguments ask for two workers (-j 2) is replayed at -j 1 as well, except the
 * litmus tests (litmus_*), whose point is two workers racing. */
#include <check.h>
#include <stdbool.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char **names;             /* every golden: no limit, a golden left out is a test lost */
static int nnames;

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The goldens present in the source tree, sorted (a .cmd file names one). */
static void find_goldens(void)
{
    const char *src = getenv("PTXEMU_SRCDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/golden", src ? src : ".");
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int cap = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n <= 4 || strcmp(e->d_name + n - 4, ".cmd") != 0)
            continue;
        if (nnames == cap) {
            cap = cap ? 2 * cap : 1024;
            char **more = realloc(names, (size_t)cap * sizeof *names);
            if (!more)
                abort();
            names = more;
        }
        if (!(names[nnames++] = strndup(e->d_name, n - 4)))
            abort();
    }
    closedir(d);
    qsort(names, (size_t)nnames, sizeof names[0], cmp_names);
}

static char *slurp(FILE *f, size_t *out_len)
{
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    *out_len = len;
    return buf;
}

static char *read_text(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = slurp(f, out_len);
    fclose(f);
    return s;
}

/* Line number and text of the first difference, for the failure message. */
static void first_diff(const char *got, const char *want, char *msg, size_t size)
{
    unsigned line = 1;
    size_t i = 0;
    for (; got[i] && got[i] == want[i]; i++)
        line += got[i] == '\n';
    size_t g0 = i, w0 = i;
    while (g0 && got[g0 - 1] != '\n' && i - g0 < 40)
        g0--;
    while (w0 && want[w0 - 1] != '\n' && i - w0 < 40)
        w0--;
    snprintf(msg, size, "first difference at line %u, byte %zu: got \"%.60s\", want \"%.60s\"", line, i,
             got + g0, want + w0);
}

static int cmp_lines(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sort the lines of s in place (each line keeps its new line). */
static void sort_lines(char *s)
{
    size_t n = 0, len = strlen(s);
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    char **lines = calloc(n + 1, sizeof *lines);
    char *copy = strdup(s);
    size_t k = 0;
    for (char *p = copy, *e; *p && (e = strchr(p, '\n')); p = e + 1) {
        *e = 0;
        lines[k++] = p;
    }
    qsort(lines, k, sizeof *lines, cmp_lines);
    size_t at = 0;
    for (size_t i = 0; i < k; i++) {
        size_t m = strlen(lines[i]);
        memcpy(s + at, lines[i], m);
        s[at + m] = '\n';
        at += m + 1;
    }
    free(lines);
    free(copy);
}

/* Replay golden name; one_worker: with -j 2 in its arguments replaced by -j 1 (a golden
 * without it passes as it is); no_inline: with --no-inline (a golden without a call
 * passes as it is), so that calls run both expanded and as activations. */
static void replay_one(const char *name, bool one_worker, bool no_inline)
{
    const char *src = getenv("PTXEMU_SRCDIR"), *bin = getenv("PTXRUN");
    ck_assert_msg(src && bin, "PTXRUN and PTXEMU_SRCDIR must be set (make check sets them)");
    ck_assert_msg(nnames > 0, "no goldens found in %s/tests/golden", src);
    char path[4096], cmd[8192];
    size_t len = 0, len2, want_len;
    snprintf(path, sizeof path, "%s/tests/golden/%s.cmd", src, name);
    char *args = read_text(path, &len);
    ck_assert_msg(args != NULL, "%s: cannot read %s", name, path);
    for (char *p = args; *p; p++)
        if (*p == '\n')
            *p = ' ';
    snprintf(path, sizeof path, "%s/tests/golden/%s.out", src, name);
    char *want = read_text(path, &want_len);
    ck_assert_msg(want != NULL, "%s: no recorded output (run tests/golden/record.sh on the GPU)", name);
    /* The .cmd words are split on white space, with no shell in between (record.sh
     * does the same with globbing off), so rand(1) and u32[4] pass as written. */
    char *argv[256];
    int argc = 0;
    argv[argc++] = (char *)bin;
    if (no_inline) {
        snprintf(path, sizeof path, "%s/tests/golden/%s.ptx", src, name);
        size_t plen;
        char *text = read_text(path, &plen);
        bool calls = text && strstr(text, "call");
        free(text);
        if (!calls) {
            free(want);
            free(args);
            return;
        }
        argv[argc++] = "--no-inline";
    }
    snprintf(cmd, sizeof cmd, "tests/golden/%s.ptx", name);
    argv[argc++] = cmd;
    bool two = false;
    for (char *w = strtok(args, " \t\r"); w && argc < 255; w = strtok(NULL, " \t\r")) {
        if (one_worker && argc > 2 && strcmp(argv[argc - 1], "-j") == 0 && strcmp(w, "2") == 0) {
            w = "1";
            two = true;
        }
        argv[argc++] = w;
    }
    argv[argc] = NULL;
    if (one_worker && (!two || strncmp(name, "litmus_", 7) == 0)) {
        free(want);
        free(args);
        return;
    }
    char outp[64], errp[64];
    snprintf(outp, sizeof outp, "/tmp/ptxemu_golden_%d.out", (int)getpid());
    snprintf(errp, sizeof errp, "/tmp/ptxemu_golden_%d.err", (int)getpid());
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        if (chdir(src) != 0 || !freopen(outp, "wb", stdout) || !freopen(errp, "wb", stderr))
            _exit(127);
        execv(bin, argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    char *got = read_text(outp, &len), *err = read_text(errp, &len2);
    remove(outp);
    remove(errp);
    /* NAME.rc: a launch that fails on the GPU, with that exit status; every line of
     * NAME.err (the GPU's stderr) but ptxrun's own must then appear, in order, in the
     * emulator's stderr (assertion messages). */
    snprintf(path, sizeof path, "%s/tests/golden/%s.rc", src, name);
    size_t rlen;
    char *want_rc = read_text(path, &rlen);
    ck_assert_msg(rc == (want_rc ? atoi(want_rc) : 0), "%s%s: ptxrun exited %d (the GPU run: %s): %.2000s", name,
                  one_worker ? " at -j 1" : "", rc, want_rc ? want_rc : "0", err ? err : "");
    if (want_rc) {
        snprintf(path, sizeof path, "%s/tests/golden/%s.err", src, name);
        size_t elen;
        char *want_err = read_text(path, &elen);
        ck_assert_msg(want_err != NULL, "%s: no %s", name, path);
        const char *at = err ? err : "";
        for (char *line = strtok(want_err, "\n"); line; line = strtok(NULL, "\n")) {
            if (strncmp(line, "ptxrun:", 7) == 0)
                continue;
            const char *hit = strstr(at, line);
            ck_assert_msg(hit != NULL, "%s: stderr lacks the GPU's line '%s': %.2000s", name, line, err ? err : "");
            at = hit + strlen(line);
        }
        free(want_err);
        free(want_rc);
    }
    ck_assert_msg(got != NULL, "%s: no output", name);
    /* len is the output's size: a printf of %c with 0 prints a NUL byte */
    /* NAME.sort: the GPU's order of lines is not fixed (printf from several warps):
     * compare the lines sorted. */
    snprintf(path, sizeof path, "%s/tests/golden/%s.sort", src, name);
    if (access(path, F_OK) == 0) {
        sort_lines(got);
        sort_lines(want);
    }
    if (len != want_len || memcmp(got, want, len) != 0) {
        char msg[512];
        first_diff(got, want, msg, sizeof msg);
        ck_abort_msg("%s%s%s: stdout differs from the H100's: %s", name, one_worker ? " at -j 1" : "",
                     no_inline ? " with --no-inline" : "", msg);
    }
    free(got);
    free(want);
    free(err);
    free(args);
}

START_TEST(replay)
{
    replay_one(names[_i], false, false);
}
END_TEST

START_TEST(replay_one_worker)
{
    replay_one(names[_i], true, false);
}
END_TEST

START_TEST(replay_no_inline)
{
    replay_one(names[_i], false, true);
}
END_TEST

Suite *make_golden_suite(void)
{
    find_goldens();
    Suite *s = suite_create("golden");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, replay, 0, nnames ? nnames : 1);
    tcase_add_loop_test(tc, replay_one_worker, 0, nnames ? nnames : 1);
    tcase_add_loop_test(tc, replay_no_inline, 0, nnames ? nnames : 1);
    suite_add_tcase(s, tc);
    return s;
}
