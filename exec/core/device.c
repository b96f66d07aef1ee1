/* device.c: the device context: the allocation registry, the observers and the pool of
 * worker threads that persists across launches.
 *
 * The registry is a sorted array of ranges published through one atomic pointer:
 * lookups (every global access that misses a warp's cache) read whatever array is
 * published, without a lock; a change builds a new array under the writers' lock and
 * publishes it.  An array that was replaced is freed once no reader is counted (a
 * launch in progress counts as one for all its warps; ex_device_lookup counts itself):
 * the writer publishes, then reads the count; a reader counts itself, then reads the
 * pointer (both sequentially consistent), so either the writer sees the reader or the
 * reader sees the new array. */
#include "exec/internal.h"
#include "exec/tex/tex.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ex_device_t *ex_device_new(const ex_device_config_t *cfg)
{
    ex_device_t *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    unsigned n = cfg ? cfg->workers : 0;
    if (n == 0) {
        /* one per core this process may run on (taskset, a container's cpuset): more
         * workers than that only take turns, and spin-waits between CTAs of different
         * workers then progress at the scheduler's pace */
        cpu_set_t set;
        long c = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (unsigned)c : 1;
    }
    if (n > EX_MAX_WORKERS)
        n = EX_MAX_WORKERS;
    d->nworkers = n;
    d->no_inline = cfg && cfg->no_inline;
    d->exact_bounds = cfg && cfg->exact_bounds;
    d->wk = calloc(EX_MAX_WORKERS, sizeof *d->wk);
    if (!d->wk) {
        free(d);
        return NULL;
    }
    for (unsigned i = 0; i < EX_MAX_WORKERS; i++) {
        d->wk[i].dev = d;
        d->wk[i].index = i;
    }
    pthread_mutex_init(&d->reg_lock, NULL);
    pthread_mutex_init(&d->launch_lock, NULL);
    pthread_mutex_init(&d->pool_lock, NULL);
    pthread_cond_init(&d->work_cv, NULL);
    pthread_cond_init(&d->done_cv, NULL);
    pthread_mutex_init(&d->svc_lock, NULL);
    d->printf_fifo = EX_DEFAULT_PRINTF_FIFO;
    d->heap_size = EX_DEFAULT_HEAP;
    if (!ex_textab_new(d)) {
        free(d->wk);
        free(d);
        return NULL;
    }
    return d;
}

bool ex_device_exact_bounds(const ex_device_t *d)
{
    return d->exact_bounds;
}

unsigned ex_device_workers(const ex_device_t *d) { return d->nworkers; }

uint64_t ex_device_threads_started(const ex_device_t *d) { return d->threads_started; }

void ex_device_free(ex_device_t *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&d->pool_lock);
    d->quit = true;
    pthread_cond_broadcast(&d->work_cv);
    pthread_mutex_unlock(&d->pool_lock);
    for (unsigned i = 1; i < EX_MAX_WORKERS; i++)
        if (d->wk[i].started)
            pthread_join(d->wk[i].thread, NULL);
    for (unsigned i = 0; i < EX_MAX_WORKERS; i++)
        ex_worker_flush(&d->wk[i]);
    free(d->wk);
    ex_textab_free(d);
    ex_heap_free_all(d);
    free(d->printf_buf);
    free(d->printf_rec);
    free(d->assert_buf);
    pthread_mutex_destroy(&d->svc_lock);
    ex_ranges_t *r = atomic_load(&d->ranges);
    free(r);
    for (ex_ranges_t *q = atomic_load(&d->retired), *n; q; q = n) {
        n = q->next;
        free(q);
    }
    pthread_mutex_destroy(&d->reg_lock);
    pthread_mutex_destroy(&d->launch_lock);
    pthread_mutex_destroy(&d->pool_lock);
    pthread_cond_destroy(&d->work_cv);
    pthread_cond_destroy(&d->done_cv);
    free(d);
}

/*{=====================================================================
 * The allocation registry
 *====================================================================*/
/* Free the replaced arrays when no launch can hold one (called with reg_lock held). */
static void reclaim(ex_device_t *d)
{
    if (atomic_load(&d->launches) != 0)
        return;
    for (ex_ranges_t *q = atomic_exchange(&d->retired, NULL), *n; q; q = n) {
        n = q->next;
        free(q);
    }
}

/* Publish nr in place of the current array (reg_lock held). */
static void publish(ex_device_t *d, ex_ranges_t *nr)
{
    ex_ranges_t *old = atomic_exchange(&d->ranges, nr);
    if (old) {
        old->next = atomic_load(&d->retired);
        atomic_store(&d->retired, old);
    }
    reclaim(d);
}

isa_status_t ex_device_map(ex_device_t *d, void *base, size_t bytes)
{
    uintptr_t b = (uintptr_t)base;
    if (bytes == 0 || b + bytes < b)
        return ISA_ST_USAGE;
    pthread_mutex_lock(&d->reg_lock);
    ex_ranges_t *cur = atomic_load(&d->ranges);
    uint32_t n = cur ? cur->n : 0;
    uint32_t at = 0;
    while (at < n && cur->r[at].base < b)
        at++;
    /* Overlap with the neighbours? */
    if ((at > 0 && cur->r[at - 1].end > b) || (at < n && cur->r[at].base < b + bytes)) {
        pthread_mutex_unlock(&d->reg_lock);
        return ISA_ST_USAGE;
    }
    ex_ranges_t *nr = malloc(sizeof *nr + (n + 1) * sizeof nr->r[0]);
    if (!nr) {
        pthread_mutex_unlock(&d->reg_lock);
        return ISA_ST_NOMEM;
    }
    nr->n = n + 1;
    nr->next = NULL;
    if (at)
        memcpy(nr->r, cur->r, at * sizeof nr->r[0]);
    nr->r[at].base = b;
    nr->r[at].end = b + bytes;
    if (n > at)
        memcpy(nr->r + at + 1, cur->r + at, (n - at) * sizeof nr->r[0]);
    publish(d, nr);
    pthread_mutex_unlock(&d->reg_lock);
    return ISA_ST_OK;
}

isa_status_t ex_device_unmap(ex_device_t *d, void *base)
{
    uintptr_t b = (uintptr_t)base;
    pthread_mutex_lock(&d->reg_lock);
    ex_ranges_t *cur = atomic_load(&d->ranges);
    uint32_t n = cur ? cur->n : 0, at = 0;
    while (at < n && cur->r[at].base != b)
        at++;
    if (at == n) {
        pthread_mutex_unlock(&d->reg_lock);
        return ISA_ST_USAGE;
    }
    ex_ranges_t *nr = malloc(sizeof *nr + n * sizeof nr->r[0]);
    if (!nr) {
        pthread_mutex_unlock(&d->reg_lock);
        return ISA_ST_NOMEM;
    }
    nr->n = n - 1;
    nr->next = NULL;
    memcpy(nr->r, cur->r, at * sizeof nr->r[0]);
    memcpy(nr->r + at, cur->r + at + 1, (n - at - 1) * sizeof nr->r[0]);
    publish(d, nr);
    pthread_mutex_unlock(&d->reg_lock);
    return ISA_ST_OK;
}

bool ex_device_lookup(ex_device_t *d, uint64_t a, uint64_t *out_lo, uint64_t *out_hi)
{
    /* A reader outside a launch holds the array as a launch does. */
    ex_device_launch_begin(d);
    bool found = ex_device_find(d, a, out_lo, out_hi);
    ex_device_launch_end(d);
    return found;
}

bool ex_device_find(ex_device_t *d, uint64_t a, uint64_t *out_lo, uint64_t *out_hi)
{
    const ex_ranges_t *r = atomic_load_explicit(&d->ranges, memory_order_acquire);
    if (!r)
        return false;
    uint32_t lo = 0, hi = r->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (r->r[mid].end <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < r->n && r->r[lo].base <= a) {
        *out_lo = r->r[lo].base;
        *out_hi = r->r[lo].end;
        return true;
    }
    return false;
}

void ex_device_launch_begin(ex_device_t *d) { atomic_fetch_add(&d->launches, 1); }

void ex_device_launch_end(ex_device_t *d)
{
    if (atomic_fetch_sub(&d->launches, 1) == 1 && atomic_load(&d->retired)) {
        pthread_mutex_lock(&d->reg_lock);
        reclaim(d);
        pthread_mutex_unlock(&d->reg_lock);
    }
    if (d->tex && atomic_load(&d->tex->retired)) {
        pthread_mutex_lock(&d->tex->lock);
        ex_textab_reclaim(d);
        pthread_mutex_unlock(&d->tex->lock);
    }
}
/*}=====================================================================*/

isa_status_t ex_device_observe(ex_device_t *d, const ex_observer_t *o)
{
    if (!o || d->nobs == EX_MAX_OBSERVERS)
        return ISA_ST_USAGE;
    d->obs[d->nobs++] = *o;
    return ISA_ST_OK;
}

/*{=====================================================================
 * The worker pool.  Worker 0 is the launching thread; workers 1..n-1 are threads that
 * start at the first launch needing them and then wait for each launch's job.
 *====================================================================*/
static void *pool_thread(void *arg)
{
    ex_worker_t *wk = arg;
    ex_device_t *d = wk->dev;
    uint64_t seen = 0;
    pthread_mutex_lock(&d->pool_lock);
    for (;;) {
        while (!d->quit && (d->gen == seen || wk->index >= d->want)) {
            seen = d->gen;
            pthread_cond_wait(&d->work_cv, &d->pool_lock);
        }
        if (d->quit)
            break;
        seen = d->gen;
        void *job = d->job;
        pthread_mutex_unlock(&d->pool_lock);
        d->run(job, wk);
        pthread_mutex_lock(&d->pool_lock);
        if (--d->running == 0)
            pthread_cond_signal(&d->done_cv);
    }
    pthread_mutex_unlock(&d->pool_lock);
    return NULL;
}

unsigned ex_device_run(ex_device_t *d, unsigned n, void (*run)(void *job, ex_worker_t *wk), void *job)
{
    if (n > EX_MAX_WORKERS)
        n = EX_MAX_WORKERS;
    if (n == 0)
        n = 1;
    /* Start the pool threads this launch needs that are not running yet. */
    unsigned have = 1;
    for (unsigned i = 1; i < n; i++) {
        if (!d->wk[i].started) {
            if (pthread_create(&d->wk[i].thread, NULL, pool_thread, &d->wk[i]) != 0)
                break;
            d->wk[i].started = true;
            d->threads_started++;
        }
        have = i + 1;
    }
    n = have;
    if (n > 1) {
        pthread_mutex_lock(&d->pool_lock);
        d->job = job;
        d->run = run;
        d->want = n;
        d->running = n - 1;
        d->gen++;
        pthread_cond_broadcast(&d->work_cv);
        pthread_mutex_unlock(&d->pool_lock);
    }
    run(job, &d->wk[0]);
    if (n > 1) {
        pthread_mutex_lock(&d->pool_lock);
        while (d->running)
            pthread_cond_wait(&d->done_cv, &d->pool_lock);
        pthread_mutex_unlock(&d->pool_lock);
    }
    return n;
}
/*}=====================================================================*/

void ex_device_set_stats(ex_device_t *d, bool on)
{
    pthread_mutex_lock(&d->launch_lock);
    d->stats = on;
    pthread_mutex_unlock(&d->launch_lock);
}
