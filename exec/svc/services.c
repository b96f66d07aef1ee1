/* services.c: the device services' state on the device: limits (the printf FIFO, the
 * heap size), the text of printf and of failed assertions for the caller to take, and
 * the message of __assertfail. */
#include "exec/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

isa_status_t ex_device_set_limit(ex_device_t *d, ex_limit_t which, uint64_t value)
{
    isa_status_t st = ISA_ST_OK;
    pthread_mutex_lock(&d->svc_lock);
    switch (which) {
    case EX_LIMIT_PRINTF_FIFO:
        d->printf_fifo = value;
        break;
    case EX_LIMIT_HEAP:
        /* as cudaDeviceSetLimit: not once the heap is in use */
        if (d->heap || value == 0)
            st = ISA_ST_USAGE;
        else
            d->heap_size = (value + 15) & ~15ull;
        break;
    default:
        st = ISA_ST_USAGE;
    }
    pthread_mutex_unlock(&d->svc_lock);
    return st;
}

uint64_t ex_device_limit(ex_device_t *d, ex_limit_t which)
{
    return which == EX_LIMIT_PRINTF_FIFO ? d->printf_fifo : which == EX_LIMIT_HEAP ? d->heap_size : 0;
}

char *ex_device_printf_take(ex_device_t *d, size_t *out_len, uint64_t *out_dropped)
{
    pthread_mutex_lock(&d->svc_lock);
    char *s = NULL;
    *out_len = d->printf_len - d->printf_start;
    if (*out_len) {
        memmove(d->printf_buf, d->printf_buf + d->printf_start, *out_len);
        s = d->printf_buf;
        d->printf_buf = NULL;
    }
    free(d->printf_buf);
    if (out_dropped)
        *out_dropped = d->printf_dropped;
    free(d->printf_rec);
    d->printf_buf = NULL;
    d->printf_rec = NULL;
    d->printf_start = d->printf_len = d->printf_cap = 0;
    d->printf_head = d->printf_nrec = d->printf_caprec = 0;
    d->printf_dropped = 0;
    d->printf_used = 0;
    pthread_mutex_unlock(&d->svc_lock);
    return s;
}

char *ex_device_assert_take(ex_device_t *d, size_t *out_len)
{
    pthread_mutex_lock(&d->svc_lock);
    char *s = d->assert_buf;
    *out_len = d->assert_len;
    d->assert_buf = NULL;
    d->assert_len = 0;
    pthread_mutex_unlock(&d->svc_lock);
    return s;
}

/* A string argument of __assertfail, or "" when it cannot be read. */
static void assert_str(ex_warp_t *w, unsigned lane, const ex_insn_t *x, uint64_t a, char *out, size_t max,
                       bool *fault)
{
    size_t n = 0;
    out[0] = 0;
    while (a && n + 1 < max) {
        const char *h = ex_mem(w, lane, ISA_SP_NONE, a + n, 1, x);
        if (!h) {
            *fault = true;
            break;
        }
        if (!(out[n] = *h))
            break;
        n++;
    }
    out[n < max ? n : max - 1] = 0;
}

bool ex_svc_assert(ex_warp_t *w, unsigned lane, const ex_insn_t *x, uint64_t msg, uint64_t file, uint32_t line,
                   uint64_t func)
{
    char m[1024], fl[1024], fn[1024];
    bool fault = false;
    assert_str(w, lane, x, msg, m, sizeof m, &fault);
    assert_str(w, lane, x, file, fl, sizeof fl, &fault);
    assert_str(w, lane, x, func, fn, sizeof fn, &fault);
    if (fault)
        return false;
    const ex_cta_t *c = w->cta;
    char *text = NULL;
    int n = asprintf(&text, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", fl, line, fn,
                     c->ctaid[0], c->ctaid[1], c->ctaid[2], w->tid[0][lane], w->tid[1][lane], w->tid[2][lane], m);
    if (n < 0)
        return true;
    ex_device_t *d = c->p->dev;
    pthread_mutex_lock(&d->svc_lock);
    char *nb = realloc(d->assert_buf, d->assert_len + (size_t)n + 1);
    if (nb) {
        memcpy(nb + d->assert_len, text, (size_t)n + 1);
        d->assert_buf = nb;
        d->assert_len += (size_t)n;
    }
    pthread_mutex_unlock(&d->svc_lock);
    free(text);
    return true;
}

uint64_t ex_device_pmevent_count(ex_device_t *d, unsigned i)
{
    return i < 16 ? atomic_load(&d->pmevents[i]) : 0;
}
