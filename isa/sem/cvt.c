/* cvt.c: conversion semantics between the integer types and f32/f64.  Integer-to-integer
 * conversions read and write registers of any width (PTX lets cvt's registers be wider
 * than its types); float-to-integer conversions saturate, and NaN becomes 0. */
#include "isa/sem/fp.h"
#include "isa/sem/lanes.h"

/* aux layout of an integer conversion: source slot width, destination slot width,
 * source bits and signedness, destination bits and signedness, saturation. */
#define CV_SW(a)   ((unsigned)((a) & 0xf))
#define CV_DW(a)   ((unsigned)(((a) >> 4) & 0xf))
#define CV_SB(a)   ((unsigned)(((a) >> 8) & 0xff))
#define CV_SS(a)   ((unsigned)(((a) >> 16) & 1))
#define CV_DB(a)   ((unsigned)(((a) >> 24) & 0xff))
#define CV_DS(a)   ((unsigned)(((a) >> 32) & 1))
#define CV_SAT(a)  ((unsigned)(((a) >> 33) & 1))

static inline uint64_t slot_read(const uint8_t *s, unsigned w, unsigned l)
{
    switch (w) {
    case 1: return s[l];
    case 2: return ((const uint16_t *)(const void *)s)[l];
    case 4: return ((const uint32_t *)(const void *)s)[l];
    default: return ((const uint64_t *)(const void *)s)[l];
    }
}

static inline void slot_write(uint8_t *s, unsigned w, unsigned l, uint64_t v)
{
    switch (w) {
    case 1: s[l] = (uint8_t)v; break;
    case 2: ((uint16_t *)(void *)s)[l] = (uint16_t)v; break;
    case 4: ((uint32_t *)(void *)s)[l] = (uint32_t)v; break;
    default: ((uint64_t *)(void *)s)[l] = v; break;
    }
}

/* Value of the low `bits` of x, sign-extended when sgn. */
static inline int64_t ext(uint64_t x, unsigned bits, unsigned sgn)
{
    if (bits >= 64)
        return (int64_t)x;
    x &= (1ull << bits) - 1;
    if (sgn && (x >> (bits - 1)) & 1)
        x |= ~0ull << bits;
    return (int64_t)x;
}

static int cvt_int_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    unsigned sb = CV_SB(a), ss = CV_SS(a), db = CV_DB(a), ds = CV_DS(a);
    ISA_LANE_LOOP(mask, {
        int64_t v = ext(slot_read(s, CV_SW(a), l), sb, ss);
        if (CV_SAT(a)) {
            /* Clamp to the destination's range, reading the source with its own sign. */
            int64_t lo = ds ? (db >= 64 ? INT64_MIN : -(int64_t)(1ull << (db - 1))) : 0;
            uint64_t hi = ds ? (db >= 64 ? (uint64_t)INT64_MAX : (1ull << (db - 1)) - 1)
                             : (db >= 64 ? ~0ull : (1ull << db) - 1);
            if (ss && v < lo)
                v = lo;
            else if ((!ss || v >= 0) && (uint64_t)v > hi)
                v = (int64_t)hi;
        }
        slot_write(d, CV_DW(a), l, (uint64_t)ext((uint64_t)v, db, ds));
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_int, ISA_W_ANY, ISA_W_ANY)

/* Integer to float, round to nearest: the host's conversion rounds to nearest even. */
static int cvt_i2f_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    unsigned sb = CV_SB(a), ss = CV_SS(a);
    bool f64 = CV_DB(a) == 64;
    ISA_LANE_LOOP(mask, {
        uint64_t raw = slot_read(s, CV_SW(a), l);
        int64_t v = ext(raw, sb, ss);
        if (f64) {
            double r = ss ? (double)v : (double)(uint64_t)ext(raw, sb, 0);
            ((double *)(void *)d)[l] = r;
        } else {
            float r = ss ? (float)v : (float)(uint64_t)ext(raw, sb, 0);
            ((float *)(void *)d)[l] = r;
        }
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_i2f, ISA_W_ANY, ISA_W_ANY)

/* Float to integer with an integer rounding; saturating, NaN to 0. */
static inline double round_int(double x, int mode)
{
    switch (mode) {
    case ISA_M_RNI: return nearbyint(x);     /* host default: to nearest even */
    case ISA_M_RZI: return trunc(x);
    case ISA_M_RMI: return floor(x);
    default:        return ceil(x);
    }
}

static int cvt_f2i_f(void *w_, uint8_t *f, const isa_xinsn_t *in, uint32_t mask)
{
    (void)w_;
    uint64_t a = in->aux;
    uint8_t *d = f + in->o[0];
    const uint8_t *s = f + in->o[1];
    unsigned db = CV_DB(a), ds = CV_DS(a);
    int mode = (int)(a >> 40) & 0xffff;
    bool src64 = CV_SB(a) == 64, ftz = (a >> 56) & 1;
    double lo = ds ? -ldexp(1.0, (int)db - 1) : 0.0;
    double hi = ds ? ldexp(1.0, (int)db - 1) - 1.0 : ldexp(1.0, (int)db) - 1.0;
    ISA_LANE_LOOP(mask, {
        double x = src64 ? ((const double *)(const void *)s)[l]
                         : (double)(ftz ? f32_ftz(((const float *)(const void *)s)[l])
                                        : ((const float *)(const void *)s)[l]);
        uint64_t r;
        if (x != x) {
            r = 0;
        } else {
            double y = round_int(x, mode);
            if (y <= lo)
                r = ds ? (uint64_t)(int64_t)lo : 0;
            else if (y >= hi)
                r = db == 64 ? (ds ? (uint64_t)INT64_MAX : ~0ull) : (uint64_t)hi;
            else
                r = ds ? (uint64_t)(int64_t)y : (uint64_t)y;
        }
        slot_write(d, CV_DW(a), l, r);
    });
    return ISA_X_NEXT;
}
ISA_DESC(cvt_f2i, ISA_W_ANY, ISA_W_ANY)

ISA_H1(cvt_f32_f64, double, float, f64_canon((double)a))
ISA_H1(cvt_f32_f64_ftz, double, float, f64_canon((double)f32_ftz(a)))
ISA_H1(cvt_f64_f32, float, double, f32_canon((float)a))
ISA_H1(cvt_f64_f32_ftz, float, double, f32_ftz(f32_canon((float)a)))
ISA_H1(cvt_f32_f32_sat, float, float, f32_sat(a))
ISA_H1(cvt_f32_f32_ftz_sat, float, float, f32_sat(f32_ftz(a)))
ISA_H1(rni_f32, float, float, f32_canon(nearbyintf(a)))
ISA_H1(rzi_f32, float, float, f32_canon(truncf(a)))
ISA_H1(rmi_f32, float, float, f32_canon(floorf(a)))
ISA_H1(rpi_f32, float, float, f32_canon(ceilf(a)))
ISA_H1(rni_f32_ftz, float, float, f32_canon(nearbyintf(f32_ftz(a))))
ISA_H1(rzi_f32_ftz, float, float, f32_canon(truncf(f32_ftz(a))))
ISA_H1(rmi_f32_ftz, float, float, f32_canon(floorf(f32_ftz(a))))
ISA_H1(rpi_f32_ftz, float, float, f32_canon(ceilf(f32_ftz(a))))
ISA_H1(rni_f64, double, double, f64_canon(nearbyint(a)))
ISA_H1(rzi_f64, double, double, f64_canon(trunc(a)))
ISA_H1(rmi_f64, double, double, f64_canon(floor(a)))
ISA_H1(rpi_f64, double, double, f64_canon(ceil(a)))

static bool is_int(isa_type_t t)
{
    isa_tclass_t c = isa_types[t].cls;
    return (c == TC_UINT || c == TC_SINT || c == TC_BIT) && isa_types[t].bits >= 8 && isa_types[t].bits <= 64;
}

/* Register widths are filled in by pre-decoding (aux bits 0-7) before the handler runs:
 * isa_sem_cvt leaves them 0 and marks the descriptor as adapting (ISA_W_ANY). */
bool isa_sem_cvt(const isa_instr_t *in, isa_xinsn_t *x)
{
    if (in->op != ISA_OP_CVT || in->ntypes != 2)
        return false;
    isa_type_t dt = (isa_type_t)in->types[0], st = (isa_type_t)in->types[1];
    int rnd = isa_instr_mod(in, ISA_G_ROUND);
    bool ftz = isa_instr_mod(in, ISA_G_FTZ) >= 0, sat = isa_instr_mod(in, ISA_G_SAT) >= 0;
    if (in->nsfx != 2u + (rnd >= 0) + ftz + sat || isa_instr_mod(in, ISA_G_RELU) >= 0)
        return false;
    uint64_t aux = (uint64_t)isa_types[st].bits << 8 | (uint64_t)(isa_types[st].cls == TC_SINT) << 16 |
                   (uint64_t)isa_types[dt].bits << 24 | (uint64_t)(isa_types[dt].cls == TC_SINT) << 32 |
                   (uint64_t)sat << 33;
    if (is_int(dt) && is_int(st)) {
        if (rnd >= 0 || ftz)
            return false;
        x->desc = cvt_int;
    } else if ((dt == ISA_T_F32 || dt == ISA_T_F64) && is_int(st)) {
        if (rnd != ISA_M_RN || ftz || sat)
            return false;
        x->desc = cvt_i2f;
    } else if (is_int(dt) && (st == ISA_T_F32 || st == ISA_T_F64)) {
        if (rnd != ISA_M_RNI && rnd != ISA_M_RZI && rnd != ISA_M_RMI && rnd != ISA_M_RPI)
            return false;
        if (ftz && st != ISA_T_F32)
            return false;
        aux |= (uint64_t)rnd << 40 | (uint64_t)ftz << 56;
        x->desc = cvt_f2i;
    } else if (dt == ISA_T_F64 && st == ISA_T_F32) {
        if (rnd >= 0 || sat)
            return false;
        x->desc = ftz ? cvt_f32_f64_ftz : cvt_f32_f64;
    } else if (dt == ISA_T_F32 && st == ISA_T_F64) {
        if (rnd != ISA_M_RN || sat)
            return false;
        x->desc = ftz ? cvt_f64_f32_ftz : cvt_f64_f32;
    } else if (dt == ISA_T_F32 && st == ISA_T_F32) {
        if (sat && rnd < 0)
            x->desc = ftz ? cvt_f32_f32_ftz_sat : cvt_f32_f32_sat;
        else if (!sat && rnd == ISA_M_RNI) x->desc = ftz ? rni_f32_ftz : rni_f32;
        else if (!sat && rnd == ISA_M_RZI) x->desc = ftz ? rzi_f32_ftz : rzi_f32;
        else if (!sat && rnd == ISA_M_RMI) x->desc = ftz ? rmi_f32_ftz : rmi_f32;
        else if (!sat && rnd == ISA_M_RPI) x->desc = ftz ? rpi_f32_ftz : rpi_f32;
        else return false;
    } else if (dt == ISA_T_F64 && st == ISA_T_F64 && !ftz && !sat) {
        x->desc = rnd == ISA_M_RNI ? rni_f64 : rnd == ISA_M_RZI ? rzi_f64 : rnd == ISA_M_RMI ? rmi_f64
                : rnd == ISA_M_RPI ? rpi_f64 : NULL;
    } else {
        return false;
    }
    x->aux = aux;
    return x->desc != NULL;
}
