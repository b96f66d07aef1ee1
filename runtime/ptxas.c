/* ptxas.c: what ptxas allocates for each kernel of PTX text (registers per thread, stack
 * frame), asked of the CUDA toolkit's ptxas where it is installed: the H100's JIT allocates
 * the same (measured: tests/apps/func_regs.cu; docs/driver.md, "Registers and stack"). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/fatbin.h"

/* ptxas, where the CUDA toolkit is installed: PTXEMU_PTXAS, else CUDA_HOME's or
 * /usr/local/cuda's bin, else the PATH; NULL when there is none. */
const char *rt_find_ptxas(char *buf, size_t size)
{
    const char *e = getenv("PTXEMU_PTXAS");
    if (e && *e)
        return access(e, X_OK) == 0 ? e : NULL;
    const char *homes[] = { getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda" };
    for (size_t i = 0; i < sizeof homes / sizeof *homes; i++)
        if (homes[i] && *homes[i] && (size_t)snprintf(buf, size, "%s/bin/ptxas", homes[i]) < size &&
            access(buf, X_OK) == 0)
            return buf;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *c = strchr(path, ':');
        size_t n = c ? (size_t)(c - path) : strlen(path);
        if (n && n + 7 < size) {
            snprintf(buf, size, "%.*s/ptxas", (int)n, path);
            if (access(buf, X_OK) == 0)
                return buf;
        }
        path = c ? c + 1 : NULL;
    }
    return NULL;
}

/* What ptxas -v says it allocated for each entry of PTX text: "Compiling entry function
 * 'NAME'", "Function properties for NAME" then "N bytes stack frame", "Used N registers". */
static void parse_ptxas(const char *out, rt_kres_t **v, uint32_t *n)
{
    char cur[1024] = "", prop[1024] = "";
    uint32_t frame = 0, cap = 0;
    for (const char *l = out; l && *l;) {
        const char *eol = strchr(l, '\n');
        size_t len = eol ? (size_t)(eol - l) : strlen(l);
        char line[1200];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), l);
        const char *q;
        unsigned k;
        if ((q = strstr(line, "Compiling entry function '"))) {
            snprintf(cur, sizeof cur, "%s", q + 26);
            char *end = strchr(cur, '\'');
            if (end)
                *end = 0;
            frame = 0;
        } else if ((q = strstr(line, "Function properties for "))) {
            snprintf(prop, sizeof prop, "%s", q + 24);
        } else if (sscanf(line, " %u bytes stack frame", &k) == 1) {
            if (strcmp(prop, cur) == 0)
                frame = k;
        } else if ((q = strstr(line, "Used ")) && sscanf(q, "Used %u registers", &k) == 1 && cur[0]) {
            if (*n == cap) {
                cap = cap * 2 + 8;
                rt_kres_t *nv = realloc(*v, cap * sizeof *nv);
                if (!nv)
                    return;
                *v = nv;
            }
            if (!((*v)[*n].name = strdup(cur)))
                return;
            (*v)[*n].regs = k;
            (*v)[*n].frame = frame;
            (*n)++;
            cur[0] = 0;
        }
        l = eol ? eol + 1 : NULL;
    }
}

isa_status_t rt_ptxas_resources(const char *text, bool sm90a, unsigned maxrreg, rt_kres_t **out, uint32_t *out_n)
{
    *out = NULL;
    *out_n = 0;
    char pbuf[4096];
    const char *ptxas = rt_find_ptxas(pbuf, sizeof pbuf);
    if (!ptxas)
        return ISA_ST_UNSUPPORTED;
    const char *tmp = getenv("TMPDIR");
    char in[4096], log[4096];
    snprintf(in, sizeof in, "%s/ptxemu-XXXXXX.ptx", tmp && *tmp ? tmp : "/tmp");
    snprintf(log, sizeof log, "%s/ptxemu-XXXXXX.txt", tmp && *tmp ? tmp : "/tmp");
    int fi = mkstemps(in, 4), fo = fi >= 0 ? mkstemps(log, 4) : -1;
    if (fi < 0 || fo < 0) {
        if (fi >= 0) {
            close(fi);
            unlink(in);
        }
        return ISA_ST_IO;
    }
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fi, text + done, len - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(fi);
    /* the child gets the environment without the emulator's preloaded libraries */
    extern char **environ;
    size_t ne = 0;
    while (environ[ne])
        ne++;
    char **env = calloc(ne + 1, sizeof *env);
    for (size_t i = 0, k = 0; env && i < ne; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fo, 1);
    posix_spawn_file_actions_adddup2(&fa, fo, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    char maxr[32];
    snprintf(maxr, sizeof maxr, "-maxrregcount=%u", maxrreg);
    char *argv[] = { (char *)ptxas, sm90a ? "-arch=sm_90a" : "-arch=sm_90", "-v", "-o", "/dev/null", in,
                     maxrreg ? maxr : NULL, NULL };
    pid_t pid;
    int status = -1;
    if (done == len && env && posix_spawn(&pid, ptxas, &fa, NULL, argv, env) == 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    unlink(in);
    isa_status_t st = ISA_ST_SYNTAX;   /* ptxas refused the text */
    char *res = NULL;
    off_t sz = lseek(fo, 0, SEEK_END);
    if (status == 0 && sz > 0 && (res = malloc((size_t)sz + 1)) && pread(fo, res, (size_t)sz, 0) == sz) {
        res[sz] = 0;
        parse_ptxas(res, out, out_n);
        st = ISA_ST_OK;
    }
    free(res);
    close(fo);
    unlink(log);
    return st;
}
