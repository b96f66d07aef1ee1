/* logs.c: the driver's error log (CUDA's "error log management"): messages about failed
 * calls, from the runtime (through a private table, getproc.c) and from the driver itself,
 * kept in a buffer of the most recent ones, written where CUDA_LOG_FILE says (stdout,
 * stderr or a file) and passed to the callbacks registered with cuLogsRegisterCallback.
 * A message reads "[HH:MM:SS.mmm][TID][SOURCE][E] text", E for an error and W for a
 * warning, as the CUDA programming guide gives the format. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "drv.h"

enum { LOG_KEEP = 128, LOG_TEXT = 512, LOG_LINE = LOG_TEXT + 64, LOG_CALLBACKS = 16 };

typedef void (*log_callback_t)(void *data, int level, char *message, size_t length);

static struct {
    pthread_mutex_t lock;
    char            lines[LOG_KEEP][LOG_LINE];
    uint32_t        next;          /* messages logged so far: the iterator of the next one */
    FILE           *out;           /* CUDA_LOG_FILE, opened on the first message */
    bool            out_checked;
    struct { log_callback_t fn; void *data; } cb[LOG_CALLBACKS];
} logs = { .lock = PTHREAD_MUTEX_INITIALIZER };

void drv_vlog(int level, const char *source, const char *fmt, va_list ap)
{
    char text[LOG_TEXT], line[LOG_LINE];
    vsnprintf(text, sizeof text, fmt, ap);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    localtime_r(&tv.tv_sec, &tm);
    snprintf(line, sizeof line, "[%02d:%02d:%02d.%03d][%ld][%s][%c] %s", tm.tm_hour, tm.tm_min, tm.tm_sec,
             (int)(tv.tv_usec / 1000), (long)syscall(SYS_gettid), source ? source : "CUDA", level ? 'W' : 'E', text);
    pthread_mutex_lock(&logs.lock);
    memcpy(logs.lines[logs.next % LOG_KEEP], line, sizeof line);
    logs.next++;
    if (!logs.out_checked) {
        logs.out_checked = true;
        const char *f = getenv("CUDA_LOG_FILE");
        if (f && strcmp(f, "stdout") == 0)
            logs.out = stdout;
        else if (f && strcmp(f, "stderr") == 0)
            logs.out = stderr;
        else if (f && *f)
            logs.out = fopen(f, "w");
    }
    if (logs.out) {
        fprintf(logs.out, "%s\n", line);
        fflush(logs.out);
    }
    size_t n = 0;
    struct { log_callback_t fn; void *data; } cb[LOG_CALLBACKS];
    for (unsigned i = 0; i < LOG_CALLBACKS; i++)
        if (logs.cb[i].fn)
            cb[n].fn = logs.cb[i].fn, cb[n++].data = logs.cb[i].data;
    pthread_mutex_unlock(&logs.lock);
    for (size_t i = 0; i < n; i++)
        cb[i].fn(cb[i].data, level, line, strlen(line));
}

void drv_log(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    drv_vlog(level, "CUDA", fmt, ap);
    va_end(ap);
}

DRV_API CUresult cuLogsRegisterCallback(log_callback_t fn, void *data, void **handle)
{
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&logs.lock);
    for (unsigned i = 0; i < LOG_CALLBACKS; i++)
        if (!logs.cb[i].fn) {
            logs.cb[i].fn = fn;
            logs.cb[i].data = data;
            pthread_mutex_unlock(&logs.lock);
            if (handle)
                *handle = &logs.cb[i];
            return CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&logs.lock);
    return CUDA_ERROR_OUT_OF_MEMORY;
}

DRV_API CUresult cuLogsUnregisterCallback(void *handle)
{
    pthread_mutex_lock(&logs.lock);
    for (unsigned i = 0; i < LOG_CALLBACKS; i++)
        if (handle == (void *)&logs.cb[i] && logs.cb[i].fn) {
            logs.cb[i].fn = NULL;
            pthread_mutex_unlock(&logs.lock);
            return CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&logs.lock);
    return CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuLogsCurrent(uint32_t *it, unsigned flags)
{
    if (!it || flags)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&logs.lock);
    *it = logs.next;
    pthread_mutex_unlock(&logs.lock);
    return CUDA_SUCCESS;
}

/* The kept messages from *it (all kept ones without it), one per line, as text of at most
 * cap bytes with its NUL (cap 0: no limit); advances *it past what was given. */
static char *dump(uint32_t *it, size_t cap, size_t *len)
{
    pthread_mutex_lock(&logs.lock);
    uint32_t first = logs.next > LOG_KEEP ? logs.next - LOG_KEEP : 0, i = it && *it > first ? *it : first;
    size_t n = 0, size = 1;
    for (uint32_t k = i; k < logs.next; k++)
        size += strlen(logs.lines[k % LOG_KEEP]) + 1;
    char *s = malloc(size);
    if (s) {
        for (; i < logs.next; i++) {
            size_t l = strlen(logs.lines[i % LOG_KEEP]);
            if (cap && n + l + 2 > cap)
                break;
            memcpy(s + n, logs.lines[i % LOG_KEEP], l);
            n += l;
            s[n++] = '\n';
        }
        s[n] = 0;
        if (it)
            *it = i;
    }
    pthread_mutex_unlock(&logs.lock);
    *len = n;
    return s;
}

DRV_API CUresult cuLogsDumpToMemory(uint32_t *it, char *buf, size_t *size, unsigned flags)
{
    if (!buf || !size || !*size || flags) {
        drv_log(0, "%s cannot be NULL", !buf ? "buffer" : "size");
        return CUDA_ERROR_INVALID_VALUE;
    }
    size_t n;
    char *s = dump(it, *size, &n);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(buf, s, n + 1);
    *size = n;
    free(s);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuLogsDumpToFile(uint32_t *it, const char *path, unsigned flags)
{
    if (!path || flags)
        return CUDA_ERROR_INVALID_VALUE;
    size_t n;
    char *s = dump(it, 0, &n);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    FILE *f = fopen(path, "a");
    if (!f) {
        free(s);
        return CUDA_ERROR_INVALID_VALUE;
    }
    fwrite(s, 1, n, f);
    fclose(f);
    free(s);
    return CUDA_SUCCESS;
}
