/* fp_round.c: explicit rounding of an exactly known real to a binary float format with a
 * given rounding mode, without the host's rounding mode: the directed roundings (.rz .rm
 * .rp), .rna, and the narrow formats (f16, bf16, tf32, fp8) all go through here. */
#include "isa/sem/fp.h"

/* Round x = hi + lo (hi the double nearest x, |lo| <= ulp(hi)/2; only lo's sign is read)
 * to a float with m (up to 52) fraction bits and smallest normal exponent emin, largest
 * finite exponent emax.  Returns the rounded value as a double (exact), signed; an overflow gives
 * +-inf or the largest finite value as the mode says.  hi must be finite. */
/* 2^k for k in the normal range of doubles, by its bits. */
static inline double pow2(int k) { return f64_of((uint64_t)(k + 1023) << 52); }

double isa_fp_round(double hi, double lo, int emin, int emax, unsigned m, int mode)
{
    if (hi == 0.0)
        return hi;
    uint64_t hb = f64_bits(hi);
    bool neg = hb >> 63;
    bool inexact = lo != 0.0;
    uint64_t xb = hb & ~(1ull << 63);
    if (inexact && (lo < 0) != neg)
        xb--;                            /* strictly between the lower neighbours */
    int hex = (int)(hb >> 52 & 0x7ff), xex = (int)(xb >> 52);
    if (hex == 0 || xex == 0 || emax - (int)m > 1023)
        goto general;                    /* subnormal doubles: below */
    {
        int e = xex - 1023;
        int eq = e < emin ? emin : e;    /* the exponent of the quantum's binade */
        if (mode == ISA_RND_N && eq - (int)m <= hex - 1023 - 52)
            return hi;                   /* the grid is hi's own: hi is the nearest */
        /* x = mant * 2^(e - 52); the quantum is 2^(eq - m): s bits of mant lie below it */
        uint64_t mant = (xb & ((1ull << 52) - 1)) | 1ull << 52;
        int s = 52 - (int)m + (eq - e);
        uint64_t f, rem, half;
        if (s <= 0) {                    /* m = 52 at x's own exponent: on the grid */
            f = mant << -s;
            rem = 0;
            half = 1;
        } else if (s <= 53) {
            f = mant >> s;
            rem = mant & ((1ull << s) - 1);
            half = 1ull << (s - 1);
        } else {                         /* below half a quantum */
            f = 0;
            rem = 1;
            half = 2;
        }
        inexact |= rem != 0;
        bool up;
        switch (mode) {
        case ISA_RND_N:  up = rem > half || (rem == half && (lo != 0.0 || (f & 1))); break;
        case ISA_RND_NA: up = rem >= half; break;
        case ISA_RND_Z:  up = false; break;
        case ISA_RND_M:  up = neg && inexact; break;
        default:         up = !neg && inexact; break;
        }
        f += up;
        /* the largest finite value is (2^(m+1) - 1) * 2^(emax - m) */
        bool over = eq > emax || (eq == emax && f > (2ull << m) - 1);
        double r;
        if (over) {
            bool to_inf = mode == ISA_RND_N || mode == ISA_RND_NA || (mode == ISA_RND_M && neg) ||
                          (mode == ISA_RND_P && !neg);
            r = to_inf ? INFINITY : (double)((2ull << m) - 1) * pow2(emax - (int)m);
        } else {
            /* f <= 2^53 times a power of two: exact */
            int k = eq - (int)m;
            r = k >= -1022 ? (double)f * pow2(k) : ldexp((double)f, k);
        }
        return neg ? -r : r;
    }
general:;
    double x = f64_of(xb);
    int e = ilogb(x);
    if (e < emin)
        e = emin;
    if (mode == ISA_RND_N && e - (int)m <= ilogb(hi) - 52)
        return hi;                       /* the grid is hi's own: hi is the nearest */
    double q = ldexp(1.0, e - (int)m);   /* the quantum at x */
    double n = x / q, fl = floor(n), frac = n - fl;
    inexact |= frac != 0.0;
    bool up;
    switch (mode) {
    case ISA_RND_N:  up = frac > 0.5 || (frac == 0.5 && (lo != 0.0 || fmod(fl, 2.0) != 0.0)); break;
    case ISA_RND_NA: up = frac >= 0.5; break;
    case ISA_RND_Z:  up = false; break;
    case ISA_RND_M:  up = neg && inexact; break;
    default:         up = !neg && inexact; break;
    }
    double r = (fl + (up ? 1.0 : 0.0)) * q;
    double max = ldexp(2.0 - ldexp(1.0, -(int)m), emax);
    if (r > max) {
        bool to_inf = mode == ISA_RND_N || mode == ISA_RND_NA || (mode == ISA_RND_M && neg) ||
                      (mode == ISA_RND_P && !neg);
        r = to_inf ? INFINITY : max;
    }
    return neg ? -r : r;
}

/* The bits of a value v (exact in the format: e exponent bits, m fraction bits, IEEE
 * layout, sign on top); infinities give the all-ones exponent. */
uint32_t isa_fp_pack(double v, unsigned e, unsigned m)
{
    uint64_t b = f64_bits(v);
    uint32_t sign = b >> 63 ? 1u << (e + m) : 0;
    int bias = (1 << (e - 1)) - 1;
    int dex = (int)(b >> 52 & 0x7ff);
    if (dex == 0x7ff)
        return sign | ((1u << e) - 1) << m;
    if ((b << 1) == 0)
        return sign;
    if (dex == 0)                        /* a subnormal double: not a value of these formats */
        return sign;
    int ex = dex - 1023;
    uint64_t frac = b & ((1ull << 52) - 1);
    if (ex < 1 - bias)                   /* subnormal: (1.frac) * 2^ex in units of 2^(1 - bias - m) */
        return sign | (uint32_t)(((frac | 1ull << 52) >> (52 - m)) >> (1 - bias - ex));
    return sign | (uint32_t)(ex + bias) << m | (uint32_t)(frac >> (52 - m));
}

/* An f64 result hi + lo in one of the directed modes (or to nearest: hi), for hi in the
 * normal range: the neighbour of hi on lo's side when that is the mode's direction. */
double isa_f64_direct(double hi, double lo, int mode)
{
    if (lo == 0.0 || mode == ISA_RND_N)
        return hi;
    switch (mode) {
    case ISA_RND_Z: return (lo < 0) != (hi < 0) ? nextafter(hi, 0.0) : hi;
    case ISA_RND_M: return lo < 0 ? nextafter(hi, -INFINITY) : hi;
    default:        return lo > 0 ? nextafter(hi, INFINITY) : hi;
    }
}

/* An f64 overflow (finite operands, hi infinite) in a mode. */
double isa_f64_overflow(double hi, int mode)
{
    bool neg = hi < 0;
    bool to_inf = mode == ISA_RND_N || (mode == ISA_RND_M && neg) || (mode == ISA_RND_P && !neg);
    return to_inf ? hi : neg ? -DBL_MAX : DBL_MAX;
}
