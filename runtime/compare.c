/* compare.c: differential runs: the same launch with the same inputs on two backends
 * (the emulator and the GPU), every output buffer compared bit for bit and reported. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

/*{=====================================================================
 * Distances
 *====================================================================*/

/* Fraction bits of the element float formats (the stored significand). */
static unsigned frac_bits(isa_type_t t)
{
    switch (t) {
    case ISA_T_F16:  return 10;
    case ISA_T_BF16: return 7;
    case ISA_T_F32:  return 23;
    default:         return 52;   /* f64 */
    }
}

static uint64_t load_bits(const void *p, unsigned bytes)
{
    uint64_t u = 0;
    memcpy(&u, p, bytes);   /* little-endian host, as everywhere in ptxemu */
    return u;
}

/* The ordered-integer key: magnitude bits, negated for negative values, in two's
 * complement (every magnitude fits below 2^63). */
static uint64_t ordered_key(uint64_t u, unsigned bits)
{
    uint64_t sign = 1ull << (bits - 1), mag = u & (sign - 1);
    return u & sign ? 0 - mag : mag;
}

rt_fdiff_t rt_float_ulp(isa_type_t t, const void *x, const void *y, uint64_t *out_ulp)
{
    unsigned bits = isa_types[t].bits;
    uint64_t ux = load_bits(x, bits / 8), uy = load_bits(y, bits / 8);
    uint64_t sign = 1ull << (bits - 1), inf = ((sign - 1) >> frac_bits(t)) << frac_bits(t);
    bool nx = (ux & (sign - 1)) > inf, ny = (uy & (sign - 1)) > inf;
    *out_ulp = 0;
    if (nx && ny)
        return RT_FDIFF_NAN;
    if (nx || ny)
        return RT_FDIFF_NAN_ONE;
    uint64_t kx = ordered_key(ux, bits), ky = ordered_key(uy, bits);
    /* Signed order of the keys; their true difference is below 2^64, so the unsigned
     * subtraction in the right order is exact. */
    *out_ulp = (int64_t)kx >= (int64_t)ky ? kx - ky : ky - kx;
    return *out_ulp == 0 && ux != uy ? RT_FDIFF_ZERO_SIGN : RT_FDIFF_ULP;
}
/*}=====================================================================*/

/*{=====================================================================
 * Reports
 *====================================================================*/

/* "0x3f800000 (1)": the bits, then the value as ptxrun prints it. */
static void format_elem(char *buf, size_t size, isa_type_t t, const void *e)
{
    char hex[40], dec[64];
    rt_elem_format(hex, sizeof hex, t, e, true);
    rt_elem_format(dec, sizeof dec, t, e, false);
    snprintf(buf, size, "0x%s (%s)", hex, dec);
}

/* One differing element: "  [I] xn 0x... (v), yn 0x... (w): how far". */
static void report_elem(FILE *out, isa_type_t t, uint64_t i, const void *ex, const char *xn, const void *ey,
                        const char *yn)
{
    char vx[128], vy[128];
    format_elem(vx, sizeof vx, t, ex);
    format_elem(vy, sizeof vy, t, ey);
    fprintf(out, "  [%llu] %s %s, %s %s", (unsigned long long)i, xn, vx, yn, vy);
    if (isa_types[t].cls == ISA_TC_FLOAT) {
        uint64_t ulp;
        switch (rt_float_ulp(t, ex, ey, &ulp)) {
        case RT_FDIFF_ULP:       fprintf(out, ": %llu ulp", (unsigned long long)ulp); break;
        case RT_FDIFF_ZERO_SIGN: fputs(": zeros of opposite sign", out); break;
        case RT_FDIFF_NAN:       fputs(": NaNs of different sign or payload", out); break;
        case RT_FDIFF_NAN_ONE:   fputs(": NaN and a number", out); break;
        }
    }
    fputc('\n', out);
}

rt_cmp_summary_t rt_compare_buffers(const rt_args_t *x, const char *xn, const rt_args_t *y, const char *yn,
                                    unsigned max_shown, FILE *out)
{
    rt_cmp_summary_t s = { 0, 0, 0, 0 };
    /* the parameters' buffers, then those bound to the module's references */
    for (uint32_t k = 0; k < x->nparam + x->nbuf; k++) {
        const rt_buffer_t *bx, *by;
        char label[80];
        if (k < x->nparam) {
            if (x->param_buffer[k] < 0)
                continue;
            bx = &x->bufs[x->param_buffer[k]];
            by = &y->bufs[y->param_buffer[k]];
            snprintf(label, sizeof label, "arg%u", k);
        } else {
            bx = &x->bufs[k - x->nparam];
            by = &y->bufs[k - x->nparam];
            if (!bx->ref)
                continue;
            snprintf(label, sizeof label, "%s", bx->ref);
        }
        if (!bx->out && !bx->out_path)
            continue;
        unsigned eb = isa_types[bx->type].bits / 8;
        const uint8_t *px = bx->host, *py = by->host;
        uint64_t ndiff = 0, shown = 0;
        s.nbuf++;
        s.nelem += bx->count;
        if (memcmp(px, py, bx->bytes) == 0)
            continue;
        for (uint64_t i = 0; i < bx->count; i++)
            ndiff += memcmp(px + i * eb, py + i * eb, eb) != 0;
        fprintf(out, "compare: %s %s[%llu]: %llu element%s differ%s (%s vs %s)\n", label, isa_types[bx->type].text,
                (unsigned long long)bx->count, (unsigned long long)ndiff, ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "",
                xn, yn);
        for (uint64_t i = 0; i < bx->count && shown < max_shown; i++)
            if (memcmp(px + i * eb, py + i * eb, eb) != 0) {
                report_elem(out, bx->type, i, px + i * eb, xn, py + i * eb, yn);
                shown++;
            }
        if (ndiff > shown)
            fprintf(out, "  ... and %llu more\n", (unsigned long long)(ndiff - shown));
        s.nbuf_diff++;
        s.nelem_diff += ndiff;
    }
    if (s.nbuf_diff == 0)
        fprintf(out, "compare: %u buffer%s, %llu element%s, identical (%s vs %s)\n", s.nbuf, s.nbuf == 1 ? "" : "s",
                (unsigned long long)s.nelem, s.nelem == 1 ? "" : "s", xn, yn);
    else
        fprintf(out, "compare: %u of %u buffer%s differ%s, %llu of %llu element%s (%s vs %s)\n", s.nbuf_diff, s.nbuf,
                s.nbuf == 1 ? "" : "s", s.nbuf_diff == 1 ? "s" : "", (unsigned long long)s.nelem_diff,
                (unsigned long long)s.nelem, s.nelem == 1 ? "" : "s", xn, yn);
    return s;
}
/*}=====================================================================*/

/*{=====================================================================
 * Running both sides
 *====================================================================*/

/* What a failed side's status means, for "compare: the NAME run ...". */
static const char *failure(isa_status_t st)
{
    switch (st) {
    case ISA_ST_FAULT:       return "faulted";
    case ISA_ST_SYNTAX:      return "refused the PTX";
    case ISA_ST_UNSUPPORTED: return "cannot run here";
    default:                 return "failed";
    }
}

/* The result after a side finished with st: a side that could not run at all (bad
 * arguments, PTX it refuses) outranks a fault, a fault outranks success. */
static rt_cmp_result_t worse(rt_cmp_result_t r, isa_status_t st)
{
    if (r == RT_CMP_ERROR || (st != ISA_ST_OK && st != ISA_ST_FAULT))
        return RT_CMP_ERROR;
    return st == ISA_ST_FAULT ? RT_CMP_FAULT : r;
}

rt_cmp_result_t rt_compare_run(const rt_job_t *job, const rt_backend_t *x, const rt_backend_t *y, int argc,
                               char **argv, FILE *out, FILE *diag)
{
    const rt_backend_t *side[2] = { x, y };
    rt_args_t a[2];
    isa_status_t st[2];
    rt_cmp_result_t r = RT_CMP_SAME;

    /* A side that cannot run here is found before anything runs. */
    for (int i = 0; i < 2; i++)
        if (side[i]->check && (st[i] = side[i]->check(side[i], job, diag)) != ISA_ST_OK) {
            fprintf(diag, "compare: the %s side %s: nothing compared\n", side[i]->name, failure(st[i]));
            return RT_CMP_ERROR;
        }
    if (rt_args_parse_module(job->module, job->entry, argc, argv, diag, &a[0]) != ISA_ST_OK)
        return RT_CMP_ERROR;
    if (rt_args_copy(&a[0], &a[1]) != ISA_ST_OK) {
        fprintf(diag, "ptxrun: error: out of memory\n");
        rt_args_free(&a[0]);
        return RT_CMP_ERROR;
    }
    /* Both sides run even when the first fails: whether the other fails too is news. */
    for (int i = 0; i < 2; i++) {
        st[i] = side[i]->run(side[i], job, &a[i], diag);
        if (st[i] != ISA_ST_OK)
            fprintf(diag, "compare: the %s run %s\n", side[i]->name, failure(st[i]));
        r = worse(r, st[i]);
    }
    if (r == RT_CMP_SAME) {
        rt_cmp_summary_t s = rt_compare_buffers(&a[0], x->name, &a[1], y->name, RT_CMP_SHOWN, out);
        r = s.nbuf_diff ? RT_CMP_DIFFER : RT_CMP_SAME;
        for (uint32_t k = 0; k < a[0].nparam; k++)
            if (a[0].param_buffer[k] >= 0 && rt_buffer_write(&a[0].bufs[a[0].param_buffer[k]], k, diag) != ISA_ST_OK)
                r = RT_CMP_ERROR;
        for (uint32_t i = 0; i < a[0].nbuf; i++)
            if (a[0].bufs[i].ref && rt_buffer_write(&a[0].bufs[i], i, diag) != ISA_ST_OK)
                r = RT_CMP_ERROR;
    }
    rt_args_free(&a[0]);
    rt_args_free(&a[1]);
    return r;
}
/*}=====================================================================*/
