/* fp_round.c: explicit rounding of an exactly known real to a binary float format with a
 * given rounding mode, without the host's rounding mode: the directed roundings (.rz .rm
 * .rp), .rna, and the narrow formats (f16, bf16, tf32, fp8) all go through here. */
#include "isa/sem/fp.h"

/* Round x = hi + lo (hi the double nearest x, |lo| <= ulp(hi)/2; only lo's sign is read)
 * to a float with m (up to 52) fraction bits and smallest normal exponent emin, largest
 * finite exponent emax.  Returns the rounded value as a double (exact), signed; an overflow gives
 * +-inf or the largest finite value as the mode says.  hi must be finite. */
double isa_fp_round(double hi, double lo, int emin, int emax, unsigned m, int mode)
{
    if (hi == 0.0)
        return hi;
    bool neg = hi < 0;
    double x = fabs(hi);
    bool inexact = lo != 0.0;
    if (inexact && (lo < 0) != neg)
        x = nextafter(x, 0.0);           /* strictly between the lower neighbours */
    int e = ilogb(x);
    if (e < emin)
        e = emin;
    if (mode == ISA_RND_N && e - (int)m <= ilogb(hi) - 52)
        return hi;                       /* the grid is hi's own: hi is the nearest */
    double q = ldexp(1.0, e - (int)m);   /* the quantum at x */
    double n = x / q, f = floor(n), frac = n - f;
    inexact |= frac != 0.0;
    bool up;
    switch (mode) {
    case ISA_RND_N:  up = frac > 0.5 || (frac == 0.5 && (lo != 0.0 || fmod(f, 2.0) != 0.0)); break;
    case ISA_RND_NA: up = frac >= 0.5; break;
    case ISA_RND_Z:  up = false; break;
    case ISA_RND_M:  up = neg && inexact; break;
    default:         up = !neg && inexact; break;
    }
    double r = (f + (up ? 1.0 : 0.0)) * q;
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
    uint32_t sign = signbit(v) ? 1u << (e + m) : 0;
    double a = fabs(v);
    int bias = (1 << (e - 1)) - 1;
    if (isinf(a))
        return sign | ((1u << e) - 1) << m;
    if (a == 0.0)
        return sign;
    int ex = ilogb(a);
    if (ex < 1 - bias)      /* subnormal */
        return sign | (uint32_t)ldexp(a, (int)m + bias - 1);
    return sign | (uint32_t)(ex + bias) << m | ((uint32_t)ldexp(a, (int)m - ex) & ((1u << m) - 1));
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
