/* ptxbench.c: the benchmarks behind `make bench`.  Today: frontend throughput (parse,
 * lower and validate) in MB/s over the PTX corpus, each file loaded repeatedly. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend/fe.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *slurp(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    *out_len = (size_t)n;
    return s;
}

/* Load every file `rounds` times; returns MB/s, or a negative value on a load failure. */
static double bench_frontend(glob_t *g, int rounds, double *out_mb, double *out_s)
{
    char **texts = calloc(g->gl_pathc, sizeof *texts);
    size_t *lens = calloc(g->gl_pathc, sizeof *lens);
    double bytes = 0;
    for (size_t i = 0; i < g->gl_pathc; i++) {
        texts[i] = slurp(g->gl_pathv[i], &lens[i]);
        bytes += (double)lens[i];
    }
    FILE *null = fopen("/dev/null", "w");
    fe_options_t o = { 0 };
    o.diag = null;
    double t0 = now();
    for (int r = 0; r < rounds; r++) {
        for (size_t i = 0; i < g->gl_pathc; i++) {
            isa_module_t *m = NULL;
            if (!texts[i] || fe_load_text(g->gl_pathv[i], texts[i], lens[i], &o, &m) != ISA_ST_OK) {
                fprintf(stderr, "ptxbench: %s does not load\n", g->gl_pathv[i]);
                return -1;
            }
            isa_module_free(m);
        }
    }
    double dt = now() - t0;
    fclose(null);
    for (size_t i = 0; i < g->gl_pathc; i++)
        free(texts[i]);
    free(texts);
    free(lens);
    *out_mb = bytes * rounds / 1e6;
    *out_s = dt;
    return *out_mb / dt;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    glob_t g;
    memset(&g, 0, sizeof g);
    glob("tests/ptx/corpus/*.ptx", 0, NULL, &g);
    glob("tests/ptx/syntax/*.ptx", GLOB_APPEND, NULL, &g);
    if (g.gl_pathc == 0) {
        fprintf(stderr, "ptxbench: run from the source tree (no tests/ptx corpus here)\n");
        return 2;
    }
    double mb, s;
    double rate = bench_frontend(&g, rounds, &mb, &s);
    if (rate < 0)
        return 1;
    printf("frontend: %zu files x %d rounds, %.1f MB in %.3f s: %.1f MB/s (parse + lower + check)\n",
           g.gl_pathc, rounds, mb, s, rate);
    globfree(&g);
    return 0;
}
