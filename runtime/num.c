/* num.c: element values between text and bits: parsing command-line numbers per PTX
 * type, the shortest round-trip decimal for printing, and f16/bf16 conversions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

bool rt_type_is_elem(isa_type_t t)
{
    switch (t) {
    case ISA_T_B8: case ISA_T_B16: case ISA_T_B32: case ISA_T_B64:
    case ISA_T_U8: case ISA_T_U16: case ISA_T_U32: case ISA_T_U64:
    case ISA_T_S8: case ISA_T_S16: case ISA_T_S32: case ISA_T_S64:
    case ISA_T_F16: case ISA_T_BF16: case ISA_T_F32: case ISA_T_F64:
        return true;
    default:
        return false;
    }
}

/*{=====================================================================
 * f16 / bf16
 *====================================================================*/

/* Round a double to a binary format with ebits exponent and mbits stored mantissa
 * bits (f16: 5/10, bf16: 8/7), to nearest even.  Written once for both formats so
 * that the rounding (normal, subnormal, carry into the exponent, overflow) is shared. */
static uint16_t narrow(double x, unsigned ebits, unsigned mbits)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    uint32_t sign = (uint32_t)(b >> 63) << (ebits + mbits);
    uint32_t emax = (1u << ebits) - 1;
    int      bias = (1 << (ebits - 1)) - 1;
    uint64_t dexp = (b >> 52) & 0x7ff, man = b & ((1ull << 52) - 1);
    if (dexp == 0x7ff)
        return (uint16_t)(sign | emax << mbits |
                          (man ? 1u << (mbits - 1) | (uint32_t)(man >> (52 - mbits)) : 0));
    if (dexp == 0)
        return (uint16_t)sign;        /* a double subnormal is far below half the least f16/bf16 */
    int e = (int)dexp - 1023 + bias;  /* biased exponent in the target format */
    uint64_t sig = man | 1ull << 52;
    unsigned shift = e >= 1 ? 52 - mbits : 52 - mbits + (unsigned)(1 - e);
    if (shift > 63)
        return (uint16_t)sign;
    uint64_t keep = sig >> shift, rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (keep & 1)))
        keep++;
    uint64_t r = e >= 1 ? ((uint64_t)(e - 1) << mbits) + keep : keep;
    if (r >= (uint64_t)emax << mbits)
        r = (uint64_t)emax << mbits;
    return (uint16_t)(sign | r);
}

static float widen(uint16_t h, unsigned ebits, unsigned mbits)
{
    uint32_t emax = (1u << ebits) - 1, e = (h >> mbits) & emax, m = h & ((1u << mbits) - 1);
    int bias = (1 << (ebits - 1)) - 1;
    bool neg = h >> (ebits + mbits);
    double v;
    if (e == emax)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(m, 1 - bias - (int)mbits);
    else
        v = ldexp(m | 1u << mbits, (int)e - bias - (int)mbits);
    return (float)(neg ? -v : v);
}

uint16_t rt_f16_from_f64(double x) { return narrow(x, 5, 10); }
uint16_t rt_bf16_from_f64(double x) { return narrow(x, 8, 7); }
float    rt_f16_to_f32(uint16_t h) { return widen(h, 5, 10); }
float    rt_bf16_to_f32(uint16_t h) { return widen(h, 8, 7); }
/*}=====================================================================*/

/*{=====================================================================
 * Parsing
 *====================================================================*/

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Exactly n hex digits to bits. */
static bool parse_hexbits(const char *s, unsigned n, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        int d = hexval(s[i]);
        if (d < 0)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    if (s[n])
        return false;
    *out = v;
    return true;
}

/* [-]DEC | [-]0xHEX | [-]0bBIN into a magnitude and a sign. */
static bool parse_int(const char *s, bool *out_neg, uint64_t *out_mag, bool *out_bits, const char **out_err)
{
    bool neg = false;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    if (!*s) {
        *out_err = "not a number";
        return false;
    }
    uint64_t v = 0;
    for (; *s; s++) {
        int d = hexval(*s);
        if (d < 0 || (unsigned)d >= base) {
            *out_err = "not an integer";
            return false;
        }
        if (v > (UINT64_MAX - (unsigned)d) / base) {
            *out_err = "out of range";
            return false;
        }
        v = v * base + (unsigned)d;
    }
    *out_neg = neg;
    *out_mag = v;
    *out_bits = base != 10;
    return true;
}

/* A float literal as a double, or (raw) the exact f32/f64 bits of 0f/0d forms. */
static bool parse_float(const char *s, isa_type_t t, double *out, const char **out_err)
{
    uint64_t bits;
    if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
        if (!parse_hexbits(s + 2, 8, &bits)) {
            *out_err = "0f needs 8 hex digits";
            return false;
        }
        uint32_t b32 = (uint32_t)bits;
        float f;
        memcpy(&f, &b32, 4);
        *out = f;
        return true;
    }
    if (s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
        if (!parse_hexbits(s + 2, 16, &bits)) {
            *out_err = "0d needs 16 hex digits";
            return false;
        }
        memcpy(out, &bits, 8);
        return true;
    }
    const char *p = s;
    if (*p == '-' || *p == '+')
        p++;
    if (strcmp(p, "inf") == 0 || strcmp(p, "nan") == 0) {
        double v = p[0] == 'i' ? INFINITY : NAN;
        *out = s[0] == '-' ? -v : v;
        return true;
    }
    if (!((*p >= '0' && *p <= '9') || *p == '.')) {
        *out_err = "not a number";
        return false;
    }
    char *end;
    errno = 0;
    /* f32 reads directly from the text: reading a double first would round twice. */
    if (t == ISA_T_F32)
        *out = strtof(s, &end);
    else
        *out = strtod(s, &end);
    if (*end || end == s) {
        *out_err = "not a number";
        return false;
    }
    return true;
}

bool rt_elem_parse(const char *s, isa_type_t t, void *out, const char **out_err)
{
    unsigned bits = isa_types[t].bits;
    if (isa_types[t].cls == ISA_TC_FLOAT) {
        double v;
        /* 0f bits given for an f32 element are kept exactly (the NaN payload too). */
        if (t == ISA_T_F32 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
            uint64_t b;
            if (!parse_hexbits(s + 2, 8, &b)) {
                *out_err = "0f needs 8 hex digits";
                return false;
            }
            uint32_t b32 = (uint32_t)b;
            memcpy(out, &b32, 4);
            return true;
        }
        if (!parse_float(s, t, &v, out_err))
            return false;
        if (t == ISA_T_F64) {
            memcpy(out, &v, 8);
        } else if (t == ISA_T_F32) {
            float f = (float)v;
            memcpy(out, &f, 4);
        } else {
            uint16_t h = t == ISA_T_F16 ? rt_f16_from_f64(v) : rt_bf16_from_f64(v);
            memcpy(out, &h, 2);
        }
        return true;
    }
    bool neg, bits_given;
    uint64_t mag;
    if (!parse_int(s, &neg, &mag, &bits_given, out_err))
        return false;
    uint64_t umax = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    uint64_t smax = umax >> 1, nmax = smax + 1;   /* largest positive / negative magnitude */
    /* A positive hex or binary literal gives the bits, so s types take it up to 2^n-1. */
    bool ok = neg ? mag <= nmax : mag <= (isa_types[t].cls == ISA_TC_SINT && !bits_given ? smax : umax);
    if (!ok) {
        *out_err = "out of range for the type";
        return false;
    }
    uint64_t v = neg ? (uint64_t)0 - mag : mag;
    memcpy(out, &v, bits / 8);   /* little-endian host: the low bytes */
    return true;
}
/*}=====================================================================*/

/*{=====================================================================
 * Formatting
 *====================================================================*/

/* Whether text reads back to the same value of type t. */
static bool reads_back(const char *buf, double v, isa_type_t t)
{
    double back = strtod(buf, NULL);
    switch (t) {
    case ISA_T_F32:  return (float)strtof(buf, NULL) == (float)v;
    case ISA_T_F16:  return rt_f16_from_f64(back) == rt_f16_from_f64(v);
    case ISA_T_BF16: return rt_bf16_from_f64(back) == rt_bf16_from_f64(v);
    default:         return back == v;
    }
}

/* The shortest decimal that reads back to the same value of type t: the fewest
 * significant digits N (1..17) that round-trip, written in plain notation ("30",
 * "0.001", "65500", "123456.5") unless scientific notation is shorter ("1e+20",
 * "1.2345e-05", "3.4028235e+38"). */
static int shortest(char *buf, size_t size, double v, isa_type_t t)
{
    char sci[64];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, v);
        if (reads_back(sci, v, t))
            break;
    }
    char *e = strchr(sci, 'e');
    int exp10 = e ? atoi(e + 1) : 0;
    char g[64];
    int gl = snprintf(g, sizeof g, "%.*g", prec, v);
    if (exp10 < -30 || exp10 > 30)
        return snprintf(buf, size, "%s", g);
    /* The significant digits, then placed around the decimal point. */
    char digits[32];
    int nd = 0;
    for (const char *p = sci; p < e; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    char out[80];
    int n = 0;
    if (v < 0 || (v == 0 && signbit(v)))
        out[n++] = '-';
    if (exp10 < 0) {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = 0; i < -exp10 - 1; i++)
            out[n++] = '0';
        for (int i = 0; i < nd; i++)
            out[n++] = digits[i];
    } else {
        for (int i = 0; i <= exp10; i++)
            out[n++] = i < nd ? digits[i] : '0';
        if (nd > exp10 + 1) {
            out[n++] = '.';
            for (int i = exp10 + 1; i < nd; i++)
                out[n++] = digits[i];
        }
    }
    out[n] = 0;
    if (strchr(g, 'e') && gl < n)
        return snprintf(buf, size, "%s", g);
    return snprintf(buf, size, "%s", out);
}

int rt_elem_format(char *buf, size_t size, isa_type_t t, const void *elem, bool hex)
{
    unsigned bytes = isa_types[t].bits / 8;
    uint64_t u = 0;
    memcpy(&u, elem, bytes);
    if (hex)
        return snprintf(buf, size, "%0*llx", (int)bytes * 2, (unsigned long long)u);
    switch (isa_types[t].cls) {
    case ISA_TC_SINT: {
        unsigned sh = 64 - bytes * 8;
        int64_t s = (int64_t)(u << sh) >> sh;
        return snprintf(buf, size, "%lld", (long long)s);
    }
    case ISA_TC_FLOAT: {
        double v;
        if (t == ISA_T_F64) {
            memcpy(&v, elem, 8);
        } else if (t == ISA_T_F32) {
            float f;
            memcpy(&f, elem, 4);
            v = f;
        } else {
            v = t == ISA_T_F16 ? rt_f16_to_f32((uint16_t)u) : rt_bf16_to_f32((uint16_t)u);
        }
        if (isnan(v))
            return snprintf(buf, size, "nan");
        if (isinf(v))
            return snprintf(buf, size, v < 0 ? "-inf" : "inf");
        return shortest(buf, size, v, t);
    }
    default:
        return snprintf(buf, size, "%llu", (unsigned long long)u);
    }
}
/*}=====================================================================*/
