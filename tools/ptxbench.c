/* ptxbench.c: the benchmarks behind `make bench`: frontend throughput (parse, lower and
 * validate) in MB/s over the PTX corpus, and interpreter throughput in thread-instructions
 * per second on three kernels (vector add, shared-memory reduction, tiled matrix multiply)
 * at 1 and 2 worker threads, next to the same computation as serial C; then a warp-shuffle
 * reduction against the shared-memory one per element, and a converged shfl.sync against
 * an add.s32 per thread-instruction; and atomics: a grid-wide counter, a shared-memory
 * histogram against the same kernel without atomics. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <math.h>

#include "exec/exec.h"
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

/*{=====================================================================
 * Interpreter benchmarks
 *====================================================================*/
typedef struct {
    const char *name;
    ex_launch_t l;
    void       *params;
    size_t      params_size;
} job_t;

static void *buf(ex_program_t *p, size_t bytes)
{
    void *b = aligned_alloc(256, (bytes + 255) / 256 * 256);
    memset(b, 0, bytes);
    if (ex_device_map(ex_program_device(p), b, bytes) != ISA_ST_OK)
        abort();
    return b;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wall-clock rate, and the rate per core from the CPU time all workers used (which other
 * load on the machine disturbs less). */
static void report(const char *what, unsigned j, const ex_stats_t *st, double s, double cpu)
{
    printf("  %-10s -j%u: %11llu thread-instrs %9llu warp-instrs %7.4f s %7.1f M/s wall,"
           " %7.1f M/s per core\n",
           what, j, (unsigned long long)st->thread_instrs, (unsigned long long)st->warp_instrs, s,
           (double)st->thread_instrs / s / 1e6, (double)st->thread_instrs / cpu / 1e6);
}

/* Run a job: repeated for at least 0.3 s (three runs at least), the best run counted,
 * to damp other load on the machine. */
static int run_job(ex_program_t *p, const isa_module_t *m, job_t *jb, unsigned j, ex_stats_t *st, double *s,
                   double *cpu)
{
    uint32_t e = isa_module_find_func(m, jb->name);
    jb->l.workers = j;
    int bad = 0;
    *s = *cpu = 1e30;
    double start = now();
    for (int r = 0; r < 3 || now() - start < 0.3; r++) {
        double t0 = now(), c0 = cpu_now();
        isa_status_t rc = ex_launch(p, e, &jb->l, jb->params, jb->params_size, st);
        if (rc != ISA_ST_OK && st->fault.report)
            fputs(st->fault.report, stderr);
        free(st->fault.report);
        st->fault.report = NULL;
        free(st->detail);
        st->detail = NULL;
        double dt = now() - t0, dc = cpu_now() - c0;
        *s = dt < *s ? dt : *s;
        *cpu = dc < *cpu ? dc : *cpu;
        bad |= rc != ISA_ST_OK;
    }
    return bad;
}

/* The same job at -j1 with statistics on (the memory-hierarchy model): its rate and how
 * much slower than without, at -j1. */
static int stats_row(ex_device_t *dev, ex_program_t *p, const isa_module_t *m, job_t *jb, double cpu_off)
{
    ex_stats_t st;
    double s, cpu;
    ex_device_set_stats(dev, true);
    int bad = run_job(p, m, jb, 1, &st, &s, &cpu);
    ex_device_set_stats(dev, false);
    report("--stats", 1, &st, s, cpu);
    printf("  %-10s      %.2fx the CPU time without statistics\n", "", cpu / cpu_off);
    return bad;
}

/* Texture fetches: a 256x256 four-channel f32 array, point and bilinear samplers, 64
 * fetches per thread of 64K threads; ns per fetch per lane from the CPU time at -j1. */
static int bench_tex(ex_device_t *dev, ex_program_t *p, const isa_module_t *m)
{
    int bad = 0;
    ex_stats_t st;
    double s, cpu;
    {
        enum { TW = 256, TT = 1 << 16 };
        ex_array_desc_t ad = { TW, TW, 0, EX_FMT_F32, 4, 0, 1 };
        ex_array_t *arr = NULL;
        char msg[256];
        float *tout = buf(p, TT * 4);
        if (ex_array_new(dev, &ad, &arr, msg, sizeof msg) != ISA_ST_OK) {
            fprintf(stderr, "ptxbench: %s\n", msg);
            bad = 1;
        } else {
            uint32_t ext[3];
            float *tx = ex_array_level(arr, 0, ext);
            for (int i = 0; i < TW * TW * 4; i++)
                tx[i] = (float)(i % 97) * 0.25f;
            for (int k = 0; k < 2; k++) {
                ex_res_desc_t rd = { 0 };
                rd.kind = EX_RES_ARRAY;
                rd.array = arr;
                ex_tex_desc_t td = { 0 };
                td.filter = k ? EX_FILTER_LINEAR : EX_FILTER_POINT;
                td.address[0] = td.address[1] = td.address[2] = EX_ADDR_WRAP;
                td.flags = 0;
                uint64_t h = 0;
                if (ex_tex_create(dev, &rd, &td, &h, msg, sizeof msg) != ISA_ST_OK) {
                    fprintf(stderr, "ptxbench: %s\n", msg);
                    bad = 1;
                    continue;
                }
                struct { uint64_t t; float *o; } tv = { h, tout };
                job_t jt = { "tex_fetch", { { TT / 256, 1, 1 }, { 256, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &tv, 16 };
                printf("tex_fetch %s, %d threads x 64 fetches of a 4-channel f32 texel\n", k ? "bilinear" : "point",
                       TT);
                bad |= run_job(p, m, &jt, 1, &st, &s, &cpu);
                report("emulator", 1, &st, s, cpu);
                printf("  %-10s -j1: %.1f ns per fetch per lane (CPU time, loop included)\n", "",
                       cpu / ((double)TT * 64) * 1e9);
                ex_tex_destroy(dev, h);
            }
            ex_array_free(arr);
        }
    }
    return bad;
}

/* The interpreter's benchmarks; tex_only: the texture fetches alone (ptxbench tex). */
static int bench_exec(bool tex_only)
{
    isa_module_t *m = NULL;
    fe_options_t o = { 0 };
    if (fe_load_file("tools/bench/kernels.ptx", &o, &m) != ISA_ST_OK)
        return 1;
    ex_device_t *dev = ex_device_new(NULL);
    ex_program_t *p = ex_program_new(dev, m);
    int bad = 0;
    if (tex_only) {
        bad = bench_tex(dev, p, m);
        goto done;
    }
    ex_stats_t st;
    double s, cpu;

    /* vectorAdd over 1M floats. */
    enum { N = 1 << 20 };
    float *a = buf(p, N * 4), *b = buf(p, N * 4), *c = buf(p, N * 4);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(N - i);
    }
    struct { float *a, *b, *c; int n; } va = { a, b, c, N };
    job_t jv = { "vector_add", { { N / 256, 1, 1 }, { 256, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &va, 28 };
    printf("vector_add, %d floats\n", N);
    double cpu1 = 0;
    for (unsigned j = 1; j <= 2; j++) {
        bad |= run_job(p, m, &jv, j, &st, &s, &cpu);
        report("emulator", j, &st, s, cpu);
        cpu1 = j == 1 ? cpu : cpu1;
    }
    bad |= stats_row(dev, p, m, &jv, cpu1);
    double t0 = now();
    float *cc = malloc(N * 4);
    for (int i = 0; i < N; i++)
        cc[i] = a[i] + b[i];
    printf("  %-10s      %7.4f s\n", "serial C", now() - t0);
    for (int i = 0; i < N; i++)
        if (memcmp(&cc[i], &c[i], 4)) { bad = 1; break; }
    free(cc);

    /* Reduction of 1M ints: 2048 blocks of 256 threads, 512 elements each. */
    int *in = buf(p, N * 4), *part = buf(p, (N / 512) * 4);
    for (int i = 0; i < N; i++)
        in[i] = (int)((unsigned)i * 7919u % 1000u) - 500;
    struct { int *in, *part; int n; } rv = { in, part, N };
    job_t jr = { "reduce_sum", { { N / 512, 1, 1 }, { 256, 1, 1 }, 256 * 4, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &rv, 20 };
    printf("reduce_sum, %d ints\n", N);
    cpu1 = 0;
    for (unsigned j = 1; j <= 2; j++) {
        bad |= run_job(p, m, &jr, j, &st, &s, &cpu);
        report("emulator", j, &st, s, cpu);
        cpu1 = j == 1 ? cpu : cpu1;
    }
    bad |= stats_row(dev, p, m, &jr, cpu1);
    t0 = now();
    long long total = 0, want = 0;
    for (int i = 0; i < N; i++)
        want += in[i];
    printf("  %-10s      %7.4f s\n", "serial C", now() - t0);
    for (int i = 0; i < N / 512; i++)
        total += part[i];
    if (total != want)
        bad = 1;

    /* 256 x 256 tiled matrix multiply. */
    enum { M = 256 };
    float *A = buf(p, M * M * 4), *B = buf(p, M * M * 4), *C = buf(p, M * M * 4);
    for (int i = 0; i < M * M; i++) {
        A[i] = (float)((i * 13) % 17) - 8.0f;
        B[i] = (float)((i * 7) % 11) * 0.25f;
    }
    struct { float *A, *B, *C; int n; } mv = { A, B, C, M };
    job_t jm = { "matmul_tiled", { { M / 16, M / 16, 1 }, { 16, 16, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &mv, 28 };
    printf("matmul_tiled, %dx%d\n", M, M);
    cpu1 = 0;
    for (unsigned j = 1; j <= 2; j++) {
        bad |= run_job(p, m, &jm, j, &st, &s, &cpu);
        report("emulator", j, &st, s, cpu);
        cpu1 = j == 1 ? cpu : cpu1;
    }
    bad |= stats_row(dev, p, m, &jm, cpu1);
    t0 = now();
    float *CC = malloc(M * M * 4);
    for (int r = 0; r < M; r++)
        for (int q = 0; q < M; q++) {
            float acc = 0.0f;
            for (int k = 0; k < M; k++)
                acc = fmaf(A[r * M + k], B[k * M + q], acc);
            CC[r * M + q] = acc;
        }
    printf("  %-10s      %7.4f s\n", "serial C", now() - t0);
    for (int i = 0; i < M * M; i++)
        if (memcmp(&CC[i], &C[i], 4)) { bad = 1; break; }
    {
        /* The same multiply from nvcc's -G build (kernels_g.ptx): a debug build's CPU time
         * per thread-instruction against the optimised build's (every product and sum is
         * exact, so the two give the same bits). */
        uint64_t instrs = st.thread_instrs;
        isa_module_t *mg = NULL;
        if (fe_load_file("tools/bench/kernels_g.ptx", &o, &mg) != ISA_ST_OK)
            return 1;
        ex_program_t *pg = ex_program_new(dev, mg);
        memset(C, 0, M * M * 4);
        bad |= run_job(pg, mg, &jm, 1, &st, &s, &cpu);
        report("-G build", 1, &st, s, cpu);
        printf("  -G build: %.2fx the CPU time per thread-instruction of the optimised build (%.2fx in all)\n",
               (cpu / (double)st.thread_instrs) / (cpu1 / (double)instrs), cpu / cpu1);
        for (int i = 0; i < M * M; i++)
            if (memcmp(&CC[i], &C[i], 4)) { bad = 1; break; }
        ex_program_free(pg);
        isa_module_free(mg);
    }
    free(CC);
    /* Warp-shuffle reduction of 1M floats (integer values: every partial sum is exact):
     * the same blocks as reduce_sum. */
    float *fin = buf(p, N * 4), *fpart = buf(p, (N / 512) * 4);
    for (int i = 0; i < N; i++)
        fin[i] = (float)in[i];
    struct { float *in, *part; int n; } fv = { fin, fpart, N };
    job_t jf = { "reduce_shfl", { { N / 512, 1, 1 }, { 256, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &fv, 20 };
    printf("reduce_shfl, %d floats\n", N);
    double per_elem[2] = { 0, 0 };
    for (unsigned j = 1; j <= 2; j++) {
        bad |= run_job(p, m, &jf, j, &st, &s, &cpu);
        report("emulator", j, &st, s, cpu);
        per_elem[j - 1] = cpu / N * 1e9;
    }
    for (int b = 0; b < N / 512; b++) {
        long long sum = 0;
        for (int i = 0; i < 512; i++)
            sum += in[b * 512 + i];
        if ((float)sum != fpart[b]) {
            bad = 1;
            break;
        }
    }
    bad |= run_job(p, m, &jr, 1, &st, &s, &cpu);
    printf("  per element at -j1 (CPU time): reduce_shfl %.2f ns, reduce_sum %.2f ns\n", per_elem[0],
           cpu / N * 1e9);

    /* One converged full-mask shfl.sync against one add.s32, per thread-instruction: two
     * loops of 16 dependent instructions per iteration. */
    enum { LG = 128, LB = 256, LI = 64 };
    uint32_t *lo = buf(p, LG * LB * 4);
    struct { uint32_t *out; int iters; } lv = { lo, LI };
    double per_op[2];
    static const char *const loops[2] = { "loop_shfl", "loop_add" };
    for (int k = 0; k < 2; k++) {
        job_t jl = { loops[k], { { LG, 1, 1 }, { LB, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &lv, 12 };
        printf("%s, %d threads x %d instructions\n", loops[k], LG * LB, 16 * LI);
        bad |= run_job(p, m, &jl, 1, &st, &s, &cpu);
        report("emulator", 1, &st, s, cpu);
        per_op[k] = cpu / ((double)LG * LB * 16 * LI) * 1e9;
        for (int i = 0; i < LG * LB; i++)
            if (lo[i] != (k == 0 ? (uint32_t)(i % LB) : (uint32_t)(i % LB) + 16u * LI * (uint32_t)(i / LB))) {
                bad = 1;
                break;
            }
    }
    printf("  per thread-instruction at -j1 (CPU time): shfl.sync %.3f ns, add.s32 %.3f ns: %.2fx\n", per_op[0],
           per_op[1], per_op[0] / per_op[1]);

    /* Atomics: every thread of a 1M-thread grid adds 1 to one global counter. */
    unsigned *ctr = buf(p, 4);
    struct { unsigned *c; } cv = { ctr };
    job_t jc = { "atomic_count", { { N / 256, 1, 1 }, { 256, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &cv, 8 };
    printf("atomic_count, %d threads adding 1 to one counter\n", N);
    for (unsigned j = 1; j <= 2; j++) {
        *ctr = 0;
        bad |= run_job(p, m, &jc, j, &st, &s, &cpu);
        report("emulator", j, &st, s, cpu);
        printf("  %-10s -j%u: %7.1f M atomics/s wall\n", "", j, N / s / 1e6);
    }
    if (*ctr % N)
        bad = 1;

    /* A 256-bin histogram in shared memory with atomics, and the same kernel with plain
     * read-modify-writes (wrong counts where lanes collide: the baseline). */
    unsigned *words = buf(p, N * 4), *hist = buf(p, 256 * 4);
    for (int i = 0; i < N; i++)
        words[i] = (unsigned)i * 2654435761u >> 7;
    struct { unsigned *in, *hist; int n; } hv = { words, hist, N };
    double hs[2][2];
    for (int k = 0; k < 2; k++) {
        job_t jh = { k ? "histogram_plain" : "histogram_shared",
                     { { 256, 1, 1 }, { 256, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &hv, 20 };
        printf("%s, %d words, 256 CTAs of 256 threads\n", jh.name, N);
        for (unsigned j = 1; j <= 2; j++) {
            memset(hist, 0, 256 * 4);
            bad |= run_job(p, m, &jh, j, &st, &s, &cpu);
            report("emulator", j, &st, s, cpu);
            hs[k][j - 1] = s;
        }
        if (k == 0) {
            unsigned want[256] = { 0 };
            for (int i = 0; i < N; i++)
                want[words[i] & 255]++;
            for (int b = 0; b < 256; b++)
                if (hist[b] % want[b] || hist[b] == 0) { bad = 1; break; }
        }
    }
    printf("  histogram with atomics / without: %.2fx at -j1, %.2fx at -j2\n", hs[0][0] / hs[1][0],
           hs[0][1] / hs[1][1]);

    bad |= bench_tex(dev, p, m);
done:
    if (bad)
        fprintf(stderr, "ptxbench: a kernel gave a wrong result\n");
    ex_program_free(p);
    ex_device_free(dev);
    isa_module_free(m);
    return bad;
}

/* Launch cost: launches per second of tiny kernels, on one device whose pool persists
 * (the threads it started are counted: launches after the first create none). */
static int bench_launch(void)
{
    isa_module_t *m = NULL;
    fe_options_t o = { 0 };
    if (fe_load_file("tools/bench/launch.ptx", &o, &m) != ISA_ST_OK)
        return 1;
    ex_device_config_t cfg = { .workers = 2 };
    ex_device_t *dev = ex_device_new(&cfg);
    ex_program_t *p = ex_program_new(dev, m);
    uint32_t *out = buf(p, 1024 * 8 * 4 + 64);
    uint64_t prm = (uintptr_t)out;
    int bad = 0;
    struct { const char *entry; unsigned grid, block, workers; double secs; } cases[] = {
        { "inc", 1, 32, 1, 0.5 },        { "inc", 1, 1024, 1, 0.5 },
        { "local_rev", 1, 1024, 1, 0.5 }, { "inc", 8, 1024, 2, 0.5 },
    };
    printf("launches (tools/bench/launch.ptx)\n");
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uint32_t e = isa_module_find_func(m, cases[c].entry);
        ex_launch_t l = { { cases[c].grid, 1, 1 }, { cases[c].block, 1, 1 }, 0, cases[c].workers, 0, NULL, 0, false, { 0, 0, 0 }, false };
        ex_stats_t st;
        bad |= ex_launch(p, e, &l, &prm, 8, &st) != ISA_ST_OK;   /* warm: the pool and the slots */
        uint64_t threads = ex_device_threads_started(dev);
        unsigned n = 0;
        double t0 = now(), dt;
        do {
            for (int k = 0; k < 100; k++, n++)
                bad |= ex_launch(p, e, &l, &prm, 8, &st) != ISA_ST_OK;
            dt = now() - t0;
        } while (dt < cases[c].secs);
        printf("  %-9s %ux%-5u -j%u: %9.0f launches/s, %7.2f us per launch, threads created by them: %llu\n",
               cases[c].entry, cases[c].grid, cases[c].block, cases[c].workers, n / dt, dt / n * 1e6,
               (unsigned long long)(ex_device_threads_started(dev) - threads));
        /* local_rev: thread t's words t, t + 1 read back as 3 (t + 1) + t */
        for (unsigned t = 0; strcmp(cases[c].entry, "local_rev") == 0 && t < 1024; t++)
            if (out[t] != 4 * t + 3)
                bad = 1;
    }

    /* Grid-wide barriers: 132 CTAs of 256 threads, 8 barriers polled by acquire loads. */
    for (unsigned j = 1; j <= 2; j++) {
        uint32_t e = isa_module_find_func(m, "grid_sync");
        ex_launch_t l = { { 132, 1, 1 }, { 256, 1, 1 }, 0, j, 0, NULL, 0, false, { 0, 0, 0 }, false };
        ex_stats_t st;
        double best = 1e30;
        for (int r = 0; r < 3; r++) {
            out[4096] = 0;
            double t0 = now();
            bad |= ex_launch(p, e, &l, &prm, 8, &st) != ISA_ST_OK;
            double dt = now() - t0;
            best = dt < best ? dt : best;
            bad |= out[4096] != 8 * 132;
        }
        printf("  grid_sync 132x256 -j%u: %.3f ms per grid-wide barrier\n", j, best / 8 * 1e3);
    }

    /* The device heap: 1M threads each allocate and free (4096 CTAs of 256 at -j 2). */
    {
        uint32_t e = isa_module_find_func(m, "heap_churn");
        ex_launch_t l = { { 4096, 1, 1 }, { 256, 1, 1 }, 0, 2, 0, NULL, 0, false, { 0, 0, 0 }, false };
        ex_stats_t st;
        double best = 1e30;
        for (int r = 0; r < 3; r++) {
            double t0 = now();
            bad |= ex_launch(p, e, &l, &prm, 8, &st) != ISA_ST_OK;
            double dt = now() - t0;
            best = dt < best ? dt : best;
        }
        printf("  heap_churn 4096x256 -j2: %.1f M malloc+free pairs/s (%.4f s)\n", 4096.0 * 256 / best / 1e6, best);
    }
    if (bad)
        fprintf(stderr, "ptxbench: a launch failed\n");
    ex_program_free(p);
    ex_device_free(dev);
    isa_module_free(m);
    return bad;
}
/*}=====================================================================*/

/* Instruction classes (tools/bench/classes.ptx, written by classes.py): 16,384 threads each
 * run 32 iterations of 16 dependent instructions of a class; the CPU time per
 * thread-instruction at -j1 (the loop's three instructions counted too), and its ratio to
 * fma.rn.f32's. */
static int bench_classes(void)
{
    static const char *const names[] = { "fma_f32",   "add_s32",    "mul_lo_s32", "mad_lo_s32", "and_b32",
                                         "shf_b32",   "setp_selp",  "fma_f16",    "fma_f16x2",  "add_f16x2",
                                         "fma_bf16x2", "fma_f64",   "add_f64",    "cvt_f32_u32", "cvt_f16_f32",
                                         "vadd_s32",  "vabsdiff4", "call_func", "call_inline",
                                         "ld_global_f32", "ld_global_v4_f32", "ld_global_u8", "st_global_v4_f32",
                                         "st_global_u8", "ld_shared_v4_f32", "ld_const_f32", "fma_ftz_f32",
                                         "fma_rm_f32", "min_ftz_f32", "cvt_rni_f32", "rcp_approx_ftz" };
    isa_module_t *m = NULL;
    fe_options_t o = { 0 };
    if (fe_load_file("tools/bench/classes.ptx", &o, &m) != ISA_ST_OK)
        return 1;
    ex_device_t *dev = ex_device_new(NULL);
    ex_program_t *p = ex_program_new(dev, m);
    int bad = 0;
    double base = 0, call_cpu[2] = { 0, 0 };
    void *out = buf(p, 16384 * 4);
    struct { void *out; uint32_t n; } prm = { out, 32 };
    printf("instruction classes, 16384 threads x 32 x 16 instructions, -j1 (CPU time per thread-instruction)\n");
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
        job_t jb = { names[i], { { 64, 1, 1 }, { 256, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &prm, 12 };
        ex_stats_t st;
        double s, cpu;
        bad |= run_job(p, m, &jb, 1, &st, &s, &cpu);
        double ns = cpu / (double)st.thread_instrs * 1e9;
        if (i == 0)
            base = ns;
        printf("  %-17s %8.3f ns  %6.2fx fma.rn.f32\n", names[i], ns, ns / base);
        if (!strcmp(names[i], "call_func"))
            call_cpu[0] = cpu;
        if (!strcmp(names[i], "call_inline"))
            call_cpu[1] = cpu;
    }
    printf("  16 calls of a device function against the same work inlined: %.2fx the CPU time\n",
           call_cpu[0] / call_cpu[1]);
    {
        /* every lane on a path of its own: one-lane warp instructions */
        job_t jb = { "diverged_add", { { 64, 1, 1 }, { 256, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &prm, 12 };
        ex_stats_t st;
        double s, cpu;
        bad |= run_job(p, m, &jb, 1, &st, &s, &cpu);
        printf("  diverged_add: %.2f ns per one-lane warp instruction (%.2f lanes on average)\n",
               cpu / (double)st.warp_instrs * 1e9, (double)st.thread_instrs / (double)st.warp_instrs);
    }
    ex_program_free(p);
    ex_device_free(dev);
    isa_module_free(m);
    return bad;
}

/* Tensor cores (tools/bench/tensor.ptx): 4 warps each run 2,000 dependent mma.sync
 * m16n8k16 or wmma.mma m16n16k16 (f16 inputs, f32 accumulators); the CPU time per
 * multiply-add at -j1. */
static int bench_tensor(void)
{
    static const struct { const char *name; double macs; } k[] = { { "mma_loop", 2048 }, { "wmma_loop", 4096 } };
    isa_module_t *m = NULL;
    fe_options_t o = { 0 };
    if (fe_load_file("tools/bench/tensor.ptx", &o, &m) != ISA_ST_OK)
        return 1;
    ex_device_t *dev = ex_device_new(NULL);
    ex_program_t *p = ex_program_new(dev, m);
    int bad = 0;
    void *out = buf(p, 1024 * 4);
    struct { void *out; uint32_t n; } prm = { out, 2000 };
    for (unsigned i = 0; i < sizeof k / sizeof *k; i++) {
        job_t jb = { k[i].name, { { 4, 1, 1 }, { 32, 1, 1 }, 0, 1, 0, NULL, 0, false, { 0, 0, 0 }, false }, &prm, 12 };
        ex_stats_t st;
        double s, cpu;
        bad |= run_job(p, m, &jb, 1, &st, &s, &cpu);
        printf("tensor cores: %-9s %6.3f ns per multiply-add (f16 inputs, f32 accumulators, -j1)\n", k[i].name,
               cpu / (4.0 * 2000.0 * k[i].macs) * 1e9);
    }
    ex_program_free(p);
    ex_device_free(dev);
    isa_module_free(m);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "classes") == 0)
        return bench_classes() | bench_tensor();
    if (argc > 1 && strcmp(argv[1], "tensor") == 0)
        return bench_tensor();
    if (argc > 1 && strcmp(argv[1], "tex") == 0)
        return bench_exec(true);   /* the texture fetches alone */
    if (argc > 1 && strcmp(argv[1], "exec") == 0)
        return bench_exec(false) | bench_launch() | bench_classes() | bench_tensor();
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
        return 1 | bench_exec(false) | bench_launch();
    printf("frontend: %zu files x %d rounds, %.1f MB in %.3f s: %.1f MB/s (parse + lower + check)\n",
           g.gl_pathc, rounds, mb, s, rate);
    globfree(&g);
    return bench_exec(false) | bench_launch() | bench_classes() | bench_tensor();
}
