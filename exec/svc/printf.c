/* printf.c: device printf (vprintf).  A call reads the format string from device memory
 * (any state space, through its generic address) and walks the argument buffer nvcc
 * builds (each argument aligned to its own size: int-sized for %d %i %u %o %x %X %c
 * with no length or hh/h, 8 bytes with l ll z t j, for %f %F %e %E %g %G %a %A (doubles),
 * %s and %p (generic addresses)); the text formatted on the host goes to the device's
 * printf buffer, which the caller takes after the launch (ex_device_printf_take), as
 * the CUDA runtime prints at synchronisation.  When the FIFO is full the oldest records
 * give way (queue, below). */
#include "exec/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define FMT_MAX  4096    /* bytes of a format string read (longer ones are cut) */
#define STR_MAX  4096    /* bytes of a %s argument read */

/* Bytes of device memory at generic address a into out (up to max, stopping after a
 * NUL); the count read, or -1 when an address faults (recorded in the warp). */
static long read_str(ex_warp_t *w, unsigned lane, const ex_insn_t *x, uint64_t a, char *out, size_t max)
{
    size_t n = 0;
    while (n + 1 < max) {
        const char *h = ex_mem(w, lane, ISA_SP_NONE, a + n, 1, x);
        if (!h)
            return -1;
        out[n] = *h;
        if (!*h)
            return (long)n;
        n++;
    }
    out[n] = 0;
    return (long)n;
}

typedef struct {
    ex_warp_t       *w;
    unsigned         lane;
    const ex_insn_t *x;
    uint64_t         args;     /* generic address of the argument buffer (0: none) */
    uint64_t         off;      /* next argument's offset */
    bool             fault;
} argp_t;

/* The next argument of size bytes (aligned to it), zero-extended. */
static uint64_t next_arg(argp_t *a, unsigned bytes)
{
    a->off = (a->off + bytes - 1) & ~(uint64_t)(bytes - 1);
    uint64_t v = 0;
    if (!a->args) {
        a->off += bytes;
        return 0;
    }
    const void *h = ex_mem(a->w, a->lane, ISA_SP_NONE, a->args + a->off, bytes, a->x);
    if (!h)
        a->fault = true;
    else
        memcpy(&v, h, bytes);
    a->off += bytes;
    return v;
}

/* Append to the growing text t. */
typedef struct { char *s; size_t n, cap; } text_t;

static void put(text_t *t, const char *s, size_t n)
{
    if (t->n + n + 1 > t->cap) {
        size_t cap = (t->cap ? t->cap * 2 : 256) + n;
        char *ns = realloc(t->s, cap);
        if (!ns)
            return;
        t->s = ns;
        t->cap = cap;
    }
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = 0;
}

/* Format one lane's printf into t; the number of arguments the format uses, -1 for a
 * NULL format.  *fault when a read faulted. */
static int format(ex_warp_t *w, unsigned lane, const ex_insn_t *x, uint64_t fmt_addr, uint64_t args,
                  text_t *t, bool *fault, uint64_t *arg_bytes)
{
    *fault = false;
    if (fmt_addr == 0)
        return -1;
    char *fmtbuf = malloc(FMT_MAX);
    char *str = malloc(STR_MAX);
    if (!fmtbuf || !str) {
        free(fmtbuf);
        free(str);
        return -2;
    }
    long len = read_str(w, lane, x, fmt_addr, fmtbuf, FMT_MAX);
    if (len < 0) {
        *fault = true;
        free(fmtbuf);
        free(str);
        return -2;
    }
    argp_t a = { w, lane, x, args, 0, false };
    int nargs = 0;
    const char *p = fmtbuf;
    while (*p) {
        const char *pc = strchr(p, '%');
        if (!pc) {
            put(t, p, strlen(p));
            break;
        }
        /* The host formats the text before a conversion with it: when the conversion
         * cannot be formatted (a wide character the C locale does not have), neither is
         * printed (goldens printf_fuzz). */
        size_t seg = t->n;
        put(t, p, (size_t)(pc - p));
        /* %[flags][width][.precision][length]conversion */
        const char *q = pc + 1;
        char spec[64];
        size_t sn = 0;
        spec[sn++] = '%';
        while (*q && strchr("-+ #0", *q) && sn < 20)
            spec[sn++] = *q++;
        int width = -1;
        bool wstar = false, pstar = false;
        if (*q == '*') {
            wstar = true;
            q++;
        } else {
            while (*q >= '0' && *q <= '9' && sn < 40)
                spec[sn++] = *q++;
        }
        char precs[16];           /* ".digits", placed after a width given by '*' (spec
                                     holds 20 flags, 40 width digits, these and 4 more) */
        size_t pn = 0;
        if (*q == '.') {
            q++;
            if (*q == '*') {
                pstar = true;
                q++;
            } else {
                precs[pn++] = '.';
                while (*q >= '0' && *q <= '9' && pn < sizeof precs - 1)
                    precs[pn++] = *q++;
            }
        }
        int lmod = 0;   /* 0 none, 1 hh, 2 h, 3 l/ll, 4 L, 5 z/t/j (not supported by the GPU) */
        if (q[0] == 'h' && q[1] == 'h') { lmod = 1; q += 2; }
        else if (*q == 'h') { lmod = 2; q++; }
        else if (q[0] == 'l' && q[1] == 'l') { lmod = 3; q += 2; }
        else if (*q == 'l') { lmod = 3; q++; }
        else if (*q == 'z' || *q == 't' || *q == 'j') { lmod = 5; q++; }
        else if (*q == 'L') { lmod = 4; q++; }
        char conv = *q;
        if (!conv) {                  /* a '%' at the end: printed as it is */
            put(t, pc, strlen(pc));
            break;
        }
        q++;
        /* As the H100 prints them (recorded): "%%" is '%'; "%5%" too when the call has
         * arguments, and as it stands when it has none; a conversion it does not know
         * (%y) and a precision given by '*' are printed as they stand and take no
         * argument; so does the length L (%Lf).  Not modelled (the H100 prints what
         * is not the argument: docs/services.md): L with flags or a precision (NaNs),
         * z, t and j (host addresses; the emulator prints them as they stand), hh (a
         * byte of the format; the emulator formats it as C does). */
        if (conv == '%' && (q == pc + 2 || args)) {
            put(t, "%", 1);
            p = q;
            continue;
        }
        if (strchr("diuoxXcfFeEgGaAsp", conv) && !args) {
            /* The device's vprintf copies a conversion's argument from the buffer: with
             * none (a null buffer) the H100 faults at address 0 (goldens printf_fuzz). */
            a.fault = true;
            ex_mem(w, lane, ISA_SP_NONE, 0, 1, x);
            break;
        }
        if (!strchr("diuoxXcfFeEgGaAsp", conv) || pstar || lmod >= 4) {
            /* not a conversion: the text is printed as it stands */
            put(t, pc, (size_t)(q - pc));
            p = q;
            continue;
        }
        if (wstar) {
            width = (int)(uint32_t)next_arg(&a, 4);
            nargs++;
            sn += (size_t)snprintf(spec + sn, sizeof spec - sn, "%d", width);
        }
        memcpy(spec + sn, precs, pn);
        sn += pn;
        char *out = NULL;    /* the conversion's text, any length (a width of 10^9 too) */
        int k = 0;
        nargs++;
        switch (conv) {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
            uint64_t v = next_arg(&a, lmod == 3 ? 8 : 4);
            bool sgn = conv == 'd' || conv == 'i';
            memcpy(spec + sn, "ll", 2);
            spec[sn + 2] = conv;
            spec[sn + 3] = 0;
            long long sv;
            unsigned long long uv;
            switch (lmod) {
            case 1: sv = (signed char)v; uv = (unsigned char)v; break;
            case 2: sv = (short)v; uv = (unsigned short)v; break;
            case 3: sv = (long long)v; uv = v; break;
            default: sv = (int)(uint32_t)v; uv = (uint32_t)v; break;
            }
            k = sgn ? asprintf(&out, spec, sv) : asprintf(&out, spec, uv);
            break;
        }
        case 'c': {
            uint64_t v = next_arg(&a, lmod == 3 ? 8 : 4);
            if (lmod == 3) {          /* %lc: a wide character, in the C locale */
                memcpy(spec + sn, "lc", 3);
                k = asprintf(&out, spec, (wint_t)(uint32_t)v);
                break;
            }
            spec[sn] = 'c';
            spec[sn + 1] = 0;
            k = asprintf(&out, spec, (int)(unsigned char)v);
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            uint64_t v = next_arg(&a, 8);
            double d;
            memcpy(&d, &v, 8);
            spec[sn] = conv;
            spec[sn + 1] = 0;
            k = asprintf(&out, spec, d);
            break;
        }
        case 's': {
            uint64_t s = next_arg(&a, 8);
            spec[sn] = 's';
            spec[sn + 1] = 0;
            if (!s) {
                k = asprintf(&out, spec, "(null)");
            } else if (read_str(w, lane, x, s, str, STR_MAX) < 0) {
                a.fault = true;
            } else if (lmod == 3) {
                /* %ls: the host reads the string's copy as wide characters (four bytes
                 * each, zeros after the string) */
                size_t n = strlen(str), nw = n / 4 + 1;
                wchar_t *ws = calloc(nw + 1, sizeof *ws);
                if (ws) {
                    for (size_t i = 0; i < n; i++)
                        ws[i / 4] |= (wchar_t)((uint32_t)(unsigned char)str[i] << (8 * (i % 4)));
                    memcpy(spec + sn, "ls", 3);
                    k = asprintf(&out, spec, ws);
                    free(ws);
                }
            } else {
                k = asprintf(&out, spec, str);
            }
            break;
        }
        case 'p': {           /* as the host's %p: 0x1234abcd, (nil) */
            uint64_t v = next_arg(&a, 8);
            spec[sn] = 'p';
            spec[sn + 1] = 0;
            k = asprintf(&out, spec, (void *)(uintptr_t)v);
            break;
        }
        }
        if (k < 0) {             /* asprintf leaves out undefined then */
            out = NULL;
            t->n = seg;
            if (t->s)
                t->s[seg] = 0;
        }
        if (k > 0 && !a.fault)
            put(t, out, (size_t)k);
        free(out);
        if (a.fault)
            break;
        p = q;
    }
    free(fmtbuf);
    free(str);
    *fault = a.fault;
    *arg_bytes = a.off;
    return nargs;
}

/* Queue a record's text in the device's FIFO, which holds printf_fifo bytes of records:
 * a record takes 24 bytes (a header and the format's address) and its arguments' bytes
 * in 8-byte units, at least 32.  The H100 kept the newest records when more were printed
 * than its FIFO holds (tests/golden/printf_fifo.txt: of 65536 records with four or no
 * int arguments, the last 33792, about 1 MiB of 32-byte records; this model keeps
 * 32768), so the oldest records make room; a record larger than the FIFO is dropped. */
static void queue(ex_device_t *d, const char *text, size_t n, uint64_t arg_bytes)
{
    uint64_t need = 24 + ((arg_bytes + 7) & ~7ull);
    need = need < 32 ? 32 : need;
    pthread_mutex_lock(&d->svc_lock);
    if (need > d->printf_fifo) {
        d->printf_dropped++;
        pthread_mutex_unlock(&d->svc_lock);
        return;
    }
    while (d->printf_used + need > d->printf_fifo && d->printf_head < d->printf_nrec) {
        struct ex_prec *o = &d->printf_rec[d->printf_head++];
        d->printf_used -= o->bytes;
        d->printf_start += o->len;
        d->printf_dropped++;
    }
    if (d->printf_nrec == d->printf_caprec) {
        size_t cap = d->printf_caprec ? d->printf_caprec * 2 : 256;
        struct ex_prec *nr = realloc(d->printf_rec, cap * sizeof *nr);
        if (!nr)
            goto out;
        d->printf_rec = nr;
        d->printf_caprec = cap;
    }
    if (d->printf_len + n + 1 > d->printf_cap) {
        /* drop the text of the records gone first */
        if (d->printf_start)
            memmove(d->printf_buf, d->printf_buf + d->printf_start, d->printf_len - d->printf_start);
        d->printf_len -= d->printf_start;
        d->printf_start = 0;
        if (d->printf_len + n + 1 > d->printf_cap) {
            size_t cap = (d->printf_cap ? d->printf_cap * 2 : 4096) + n;
            char *nb = realloc(d->printf_buf, cap);
            if (!nb)
                goto out;
            d->printf_buf = nb;
            d->printf_cap = cap;
        }
    }
    memcpy(d->printf_buf + d->printf_len, text, n);
    d->printf_len += n;
    d->printf_rec[d->printf_nrec++] = (struct ex_prec){ (uint32_t)n, (uint32_t)need };
    d->printf_used += need;
out:
    pthread_mutex_unlock(&d->svc_lock);
}

int ex_svc_printf(ex_warp_t *w, unsigned lane, const ex_insn_t *x, uint64_t fmt, uint64_t args)
{
    text_t t = { NULL, 0, 0 };
    bool fault = false;
    uint64_t a_bytes = 0;
    int r = format(w, lane, x, fmt, args, &t, &fault, &a_bytes);
    if (fault) {
        free(t.s);
        return INT32_MIN;
    }
    if (t.n)
        queue(w->cta->p->dev, t.s, t.n, a_bytes);
    free(t.s);
    return r;
}
