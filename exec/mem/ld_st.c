/* ld_st.c: loads, stores and address conversion (ld, st, cvta) in every state space,
 * scalar and .v2/.v4, with registers wider than the access (sign- or zero-extended
 * per the type).  Addresses are translated and checked per lane by mem.c; a warp whose
 * global addresses fall in one registered range takes the unchecked fast path. */
#include "exec/internal.h"

#include <math.h>
#include <string.h>

/* x->aux layout: access bytes per element (bits 0-7), vector count (8-15), space (16-23),
 * signed (24), per-element register widths (32-47, 4 bits each), per-element store
 * conversions (48-63, 4 bits each, ST_CV_*). */
#define LS_BYTES(a)  ((unsigned)((a) & 0xff))
#define LS_VEC(a)    ((unsigned)(((a) >> 8) & 0xff))
#define LS_SPACE(a)  ((isa_space_t)(((a) >> 16) & 0xff))
#define LS_SIGNED(a) ((unsigned)(((a) >> 24) & 1))
#define LS_RW(a, k)  ((unsigned)(((a) >> (32 + 4 * (k))) & 0xf))
#define LS_CV(a, k)  ((unsigned)(((a) >> (48 + 4 * (k))) & 0xf))
#define LS_PSYM      EX_ADDR_PSYM   /* x->flags: per-lane parameter area at x->o[5], offset imm */
#define LS_BASE32    EX_ADDR_BASE32 /* x->flags: the address register is 32 bits */
#define LS_ORDERED   0x01   /* x->flags: .relaxed, .volatile or .mmio: host atomic accesses */
#define LS_ACQUIRE   0x02   /* x->flags: ld.acquire: and an acquire fence after them */
#define LS_RELEASE   0x04   /* x->flags: st.release: and a release fence before them */

static inline uint64_t lane_addr(const uint8_t *f, const ex_insn_t *x, unsigned l)
{
    if (x->o[4] == ISA_NONE)
        return (uint64_t)x->imm;
    if (x->flags & LS_BASE32)
        return (uint32_t)(ISA_SLOT(const uint32_t, f, x->o[4])[l] + (uint32_t)x->imm);   /* wraps at 32 bits */
    return ISA_SLOT(const uint64_t, f, x->o[4])[l] + (uint64_t)x->imm;
}

static inline void reg_store(uint8_t *f, uint32_t slot, unsigned rw, unsigned l, uint64_t v)
{
    switch (rw) {
    case 1: ISA_SLOT(uint8_t, f, slot)[l] = (uint8_t)v; break;
    case 2: ISA_SLOT(uint16_t, f, slot)[l] = (uint16_t)v; break;
    case 4: ISA_SLOT(uint32_t, f, slot)[l] = (uint32_t)v; break;
    default: ISA_SLOT(uint64_t, f, slot)[l] = v; break;
    }
}

static inline uint64_t reg_load(const uint8_t *f, uint32_t slot, unsigned rw, unsigned l)
{
    switch (rw) {
    case 1: return ISA_SLOT(const uint8_t, f, slot)[l];
    case 2: return ISA_SLOT(const uint16_t, f, slot)[l];
    case 4: return ISA_SLOT(const uint32_t, f, slot)[l];
    default: return ISA_SLOT(const uint64_t, f, slot)[l];
    }
}

/* The fast paths' copies of a 4- or 8-byte register slot from or to host memory at
 * base + addr[l], for the lanes of mask. */
static inline void lanes_load(uint8_t *f, uint32_t slot, uintptr_t base, const uint64_t *addr,
                              unsigned bytes, uint32_t mask)
{
    if (bytes == 4) {
        uint32_t *d = ISA_SLOT(uint32_t, f, slot);
        ISA_LANE_LOOP(mask, { memcpy(&d[l], (const void *)(base + (uintptr_t)addr[l]), 4); });
    } else {
        uint64_t *d = ISA_SLOT(uint64_t, f, slot);
        ISA_LANE_LOOP(mask, { memcpy(&d[l], (const void *)(base + (uintptr_t)addr[l]), 8); });
    }
}

/* Stores go from the highest lane down (ISA_LANE_LOOP_DOWN): where lanes store to one
 * place the lowest lane's value stays, as on the H100 (golden st_same_address: global and
 * shared memory, 1 to 8 bytes, every lane or some). */
static inline void lanes_store(const uint8_t *f, uint32_t slot, uintptr_t base, const uint64_t *addr,
                               unsigned bytes, uint32_t mask)
{
    if (bytes == 4) {
        const uint32_t *s = ISA_SLOT(const uint32_t, f, slot);
        ISA_LANE_LOOP_DOWN(mask, { memcpy((void *)(base + (uintptr_t)addr[l]), &s[l], 4); });
    } else {
        const uint64_t *s = ISA_SLOT(const uint64_t, f, slot);
        ISA_LANE_LOOP_DOWN(mask, { memcpy((void *)(base + (uintptr_t)addr[l]), &s[l], 8); });
    }
}

static inline uint64_t extend(uint64_t v, unsigned bytes, unsigned sgn)
{
    if (bytes >= 8)
        return v;
    unsigned bits = bytes * 8;
    v &= (1ull << bits) - 1;
    if (sgn && (v >> (bits - 1)) & 1)
        v |= ~0ull << bits;
    return v;
}

/* The vector fast paths' copies, for any access and register width: element k of lane l
 * at base + addr[l] + k * bytes, to or from register x->o[k] (a load's ISA_NONE element
 * is a sink).  Loads extend narrower accesses per the type, as ld_f; stores go lane by
 * lane from the highest down, each lane's elements in order, as st_f. */
static inline __attribute__((always_inline)) void lanes_load_elems(uint8_t *f, const isa_xinsn_t *x, uintptr_t base, const uint64_t *addr,
                                    uint32_t mask)
{
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux), sgn = LS_SIGNED(x->aux);
    if (vec > 1 && bytes * vec <= 8) {
        /* a vector of small elements (ld.v4.u8, .v2.u16, .v2.f32): each lane's footprint in
         * one load, the elements taken from it (the host is little-endian, as PTX) */
        uint64_t wv[ISA_LANES];
        switch (bytes * vec) {
        case 2: ISA_LANE_LOOP(mask, { uint16_t t_; memcpy(&t_, (const void *)(base + (uintptr_t)addr[l]), 2); wv[l] = t_; }); break;
        case 4: ISA_LANE_LOOP(mask, { uint32_t t_; memcpy(&t_, (const void *)(base + (uintptr_t)addr[l]), 4); wv[l] = t_; }); break;
        default: ISA_LANE_LOOP(mask, { memcpy(&wv[l], (const void *)(base + (uintptr_t)addr[l]), 8); }); break;
        }
        for (unsigned k = 0; k < vec; k++) {
            uint32_t slot = x->o[k];
            if (slot == ISA_NONE)
                continue;
            uint8_t *d = f + slot;
            unsigned rw = LS_RW(x->aux, k), sh = k * bytes * 8;
#define LS_SPLIT(ST, DT) ISA_LANE_LOOP(mask, { ((DT *)(void *)d)[l] = (DT)(ST)(wv[l] >> sh); })
            switch (bytes << 8 | rw << 1 | sgn) {
            case 0x104: LS_SPLIT(uint8_t, uint16_t); break;
            case 0x105: LS_SPLIT(int8_t, uint16_t); break;
            case 0x108: LS_SPLIT(uint8_t, uint32_t); break;
            case 0x109: LS_SPLIT(int8_t, uint32_t); break;
            case 0x204: case 0x205: LS_SPLIT(uint16_t, uint16_t); break;
            case 0x208: LS_SPLIT(uint16_t, uint32_t); break;
            case 0x209: LS_SPLIT(int16_t, uint32_t); break;
            case 0x408: case 0x409: LS_SPLIT(uint32_t, uint32_t); break;
            case 0x410: LS_SPLIT(uint32_t, uint64_t); break;
            case 0x411: LS_SPLIT(int32_t, uint64_t); break;
            default: ISA_LANE_LOOP(mask, { reg_store(f, slot, rw, l, extend(wv[l] >> sh, bytes, sgn)); }); break;
            }
#undef LS_SPLIT
        }
        return;
    }
    for (unsigned k = 0; k < vec; k++) {
        uint32_t slot = x->o[k];
        if (slot == ISA_NONE)
            continue;
        uintptr_t b = base + (uintptr_t)k * bytes;
        uint8_t *d = f + slot;
        unsigned rw = LS_RW(x->aux, k);
        if (rw != bytes && bytes != 16) {
#define LS_EXT(ST, DT) ISA_LANE_LOOP(mask, { ST v_; memcpy(&v_, (const void *)(b + (uintptr_t)addr[l]), sizeof v_); \
                                             ((DT *)(void *)d)[l] = (DT)v_; })
            switch (bytes << 8 | rw << 1 | sgn) {
            case 0x104: LS_EXT(uint8_t, uint16_t); break;
            case 0x105: LS_EXT(int8_t, uint16_t); break;
            case 0x108: LS_EXT(uint8_t, uint32_t); break;
            case 0x109: LS_EXT(int8_t, uint32_t); break;
            case 0x110: LS_EXT(uint8_t, uint64_t); break;
            case 0x111: LS_EXT(int8_t, uint64_t); break;
            case 0x208: LS_EXT(uint16_t, uint32_t); break;
            case 0x209: LS_EXT(int16_t, uint32_t); break;
            case 0x210: LS_EXT(uint16_t, uint64_t); break;
            case 0x211: LS_EXT(int16_t, uint64_t); break;
            case 0x410: LS_EXT(uint32_t, uint64_t); break;
            case 0x411: LS_EXT(int32_t, uint64_t); break;
            default:
                ISA_LANE_LOOP(mask, {
                    uint64_t v = 0;
                    memcpy(&v, (const void *)(b + (uintptr_t)addr[l]), bytes);
                    reg_store(f, slot, rw, l, extend(v, bytes, sgn));
                });
            }
#undef LS_EXT
            continue;
        }
        switch (bytes) {
        case 1: ISA_LANE_LOOP(mask, { d[l] = *(const uint8_t *)(b + (uintptr_t)addr[l]); }); break;
        case 2: ISA_LANE_LOOP(mask, { memcpy(d + 2 * l, (const void *)(b + (uintptr_t)addr[l]), 2); }); break;
        case 4: ISA_LANE_LOOP(mask, { memcpy(d + 4 * l, (const void *)(b + (uintptr_t)addr[l]), 4); }); break;
        case 8: ISA_LANE_LOOP(mask, { memcpy(d + 8 * l, (const void *)(b + (uintptr_t)addr[l]), 8); }); break;
        default: ISA_LANE_LOOP(mask, { memcpy(d + 16 * l, (const void *)(b + (uintptr_t)addr[l]), 16); }); break;
        }
    }
}

static inline __attribute__((always_inline)) void lanes_store_elems(const uint8_t *f, const isa_xinsn_t *x, uintptr_t base, const uint64_t *addr,
                                     uint32_t mask)
{
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux), rw = LS_RW(x->aux, 0);
    bool same = true;                     /* every register of one width */
    for (unsigned k = 1; k < vec; k++)
        same &= LS_RW(x->aux, k) == rw;
    /* the low bytes of each register (little-endian host) */
#define LS_PUT(RT, AT) ISA_LANE_LOOP_DOWN(mask, {                                                     \
        for (unsigned k = 0; k < vec; k++) {                                                         \
            AT v_ = (AT)ISA_SLOT(const RT, f, x->o[k])[l];                                           \
            memcpy((void *)(base + (uintptr_t)addr[l] + k * sizeof v_), &v_, sizeof v_);             \
        } })
    switch (same ? bytes << 8 | rw : 0) {
    case 0x101: LS_PUT(uint8_t, uint8_t); break;
    case 0x102: LS_PUT(uint16_t, uint8_t); break;
    case 0x104: LS_PUT(uint32_t, uint8_t); break;
    case 0x108: LS_PUT(uint64_t, uint8_t); break;
    case 0x202: LS_PUT(uint16_t, uint16_t); break;
    case 0x204: LS_PUT(uint32_t, uint16_t); break;
    case 0x208: LS_PUT(uint64_t, uint16_t); break;
    case 0x404: LS_PUT(uint32_t, uint32_t); break;
    case 0x408: LS_PUT(uint64_t, uint32_t); break;
    case 0x808: LS_PUT(uint64_t, uint64_t); break;
    default:
        ISA_LANE_LOOP_DOWN(mask, {
            for (unsigned k = 0; k < vec; k++) {
                void *h = (void *)(base + (uintptr_t)addr[l] + (uintptr_t)k * bytes);
                if (bytes == 16) {
                    memcpy(h, f + x->o[k] + l * 16, 16);
                    continue;
                }
                uint64_t v = reg_load(f, x->o[k], LS_RW(x->aux, k), l);
                memcpy(h, &v, bytes);
            }
        });
    }
#undef LS_PUT
}

/* Host address of lane l's element k, or NULL (fault recorded). */
static inline uint8_t *lane_host(ex_warp_t *w, uint8_t *f, const ex_insn_t *x, unsigned l, unsigned k)
{
    unsigned bytes = LS_BYTES(x->aux);
    if (x->flags & LS_PSYM)
        return f + x->o[5] + l * x->target + (uint64_t)x->imm + k * bytes;
    uint64_t a = lane_addr(f, x, l);
    unsigned vb = bytes * LS_VEC(x->aux);
    if (vb & (vb - 1))
        vb = bytes;                       /* .v3 does not exist; keep element alignment */
    if (a % vb) {
        w->fault_kind = EX_FAULT_MISALIGNED;
        w->fault_lane = (int)l;
        w->fault_addr = a;
        w->fault_what = "misaligned address";
        w->fault_insn = x;
        return NULL;
    }
    return ex_mem(w, l, LS_SPACE(x->aux), a + k * bytes, bytes, x);
}

/* Every lane's element addresses of a store, in lane order (a fault names the lowest
 * faulting lane, and nothing is stored); false on a fault. */
static inline bool store_hosts(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask, unsigned vec,
                               uint8_t *(*h)[4])
{
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned k = 0; k < vec; k++)
            if (!(h[l][k] = lane_host(w, f, x, l, k)))
                return false;
    }
    return true;
}

ISA_HOT static int ld_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux), sgn = LS_SIGNED(x->aux);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned k = 0; k < vec; k++) {
            uint8_t *h = lane_host(w, f, x, l, k);
            if (!h)
                return ISA_X_FAULT;
            if (x->o[k] == ISA_NONE)
                continue;
            if (bytes == 16) {                 /* .b128: a whole 128-bit register */
                memcpy(f + x->o[k] + l * 16, h, 16);
                continue;
            }
            uint64_t v = 0;
            memcpy(&v, h, bytes);
            reg_store(f, x->o[k], LS_RW(x->aux, k), l, extend(v, bytes, sgn));
        }
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_d[1] = { { ld_f, { 0 }, ISA_HON_SINK } };

/* The common case: ld.global of 4 or 8 bytes into a register of that width, every
 * address of the warp in one registered range and aligned. */
ISA_HOT static int ld_global_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t addr[ISA_LANES];
    if (!ex_warp_global_ok(wv, f, x, mask, bytes, addr))
        return ld_f(wv, f, x, mask);
    lanes_load(f, x->o[0], 0, addr, bytes, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_global_fast_d[1] = { { ld_global_fast_f, { 0 }, 0 } };

/* st.global of a 4- or 8-byte register, the warp's addresses in one range. */
ISA_HOT static int st_global_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask);

ISA_HOT static int st_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux);
    uint8_t *hs[ISA_LANES][4];
    if (!store_hosts(w, f, x, mask, vec, hs))
        return ISA_X_FAULT;
    ISA_LANE_LOOP_DOWN(mask, {
        for (unsigned k = 0; k < vec; k++) {
            if (bytes == 16) {
                memcpy(hs[l][k], f + x->o[k] + l * 16, 16);
                continue;
            }
            uint64_t v = reg_load(f, x->o[k], LS_RW(x->aux, k), l);
            memcpy(hs[l][k], &v, bytes);
        }
    });
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_d[1] = { { st_f, { 0 }, 0 } };

/* A function's own parameters (per-lane .param areas of its frame: LS_PSYM), scalar, 4 or
 * 8 bytes into or from a register of that width: a strided copy over the lanes (the
 * selection checked the offset against the area, so nothing can fault). */
ISA_HOT static int ld_psym_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    const uint8_t *base = f + x->o[5] + (uint64_t)x->imm;
    uint32_t stride = x->target;
    if (mask == ISA_FULL && stride == LS_BYTES(x->aux)) {
        memcpy(f + x->o[0], base, (size_t)stride * ISA_LANES);   /* a whole scalar area */
        return ISA_X_NEXT;
    }
    if (LS_BYTES(x->aux) == 4) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(&d[l], base + (size_t)l * stride, 4); });
    } else {
        uint64_t *d = ISA_SLOT(uint64_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(&d[l], base + (size_t)l * stride, 8); });
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_psym_fast_d[1] = { { ld_psym_fast_f, { 0 }, ISA_HON_SINK } };
ISA_HOT static int st_psym_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint8_t *base = f + x->o[5] + (uint64_t)x->imm;
    uint32_t stride = x->target;
    if (mask == ISA_FULL && stride == LS_BYTES(x->aux)) {
        memcpy(base, f + x->o[0], (size_t)stride * ISA_LANES);
        return ISA_X_NEXT;
    }
    if (LS_BYTES(x->aux) == 4) {
        const uint32_t *v = ISA_SLOT(const uint32_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(base + (size_t)l * stride, &v[l], 4); });
    } else {
        const uint64_t *v = ISA_SLOT(const uint64_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(base + (size_t)l * stride, &v[l], 8); });
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_psym_fast_d[1] = { { st_psym_fast_f, { 0 }, 0 } };

/*{=====================================================================
 * Stores through a register of another class, as ptxas compiles them (measured on an
 * H100: tests/golden/st_conv, ldst_widths): a bit type narrower than an .f32 or .f64
 * register (st.b8 [a], %f1) stores the float converted to an unsigned integer of the
 * access width, rounded toward zero and saturated (NaN: 0 from .f32, 2^(bits-1) from
 * .f64); .v2/.v4 of a bit type narrower than .f16 registers does the same from .f16 (a
 * scalar one stores the low bits); .f32 from a 64-bit bit register stores the register as
 * an unsigned integer rounded to nearest f32.
 *====================================================================*/
enum { ST_CV_NONE, ST_CV_F32, ST_CV_F64, ST_CV_F16, ST_CV_U64_F32 };

static inline uint64_t f_to_unsigned(double x, unsigned bytes, uint64_t nan)
{
    uint64_t max = bytes >= 8 ? UINT64_MAX : (1ull << (bytes * 8)) - 1;
    if (x != x)
        return nan;
    if (x <= 0)
        return 0;
    if (x >= (double)max + 1.0)
        return max;
    return (uint64_t)x;
}

static inline double half_value(uint16_t h)
{
    unsigned e = h >> 10 & 31, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, (int)e - 25);
    return h >> 15 ? -v : v;
}

static inline uint64_t st_convert(uint64_t v, unsigned cv, unsigned bytes)
{
    switch (cv) {
    case ST_CV_F32: { float x; uint32_t b = (uint32_t)v; memcpy(&x, &b, 4); return f_to_unsigned(x, bytes, 0); }
    case ST_CV_F64: { double x; memcpy(&x, &v, 8); return f_to_unsigned(x, bytes, 1ull << (bytes * 8 - 1)); }
    case ST_CV_F16: return f_to_unsigned(half_value((uint16_t)v), bytes, 0);
    case ST_CV_U64_F32: { float x = (float)v; uint32_t b; memcpy(&b, &x, 4); return b; }
    default: return v;
    }
}

ISA_HOT static int st_conv_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux);
    uint8_t *hs[ISA_LANES][4];
    if (!store_hosts(w, f, x, mask, vec, hs))
        return ISA_X_FAULT;
    ISA_LANE_LOOP_DOWN(mask, {
        for (unsigned k = 0; k < vec; k++) {
            uint64_t v = st_convert(reg_load(f, x->o[k], LS_RW(x->aux, k), l), LS_CV(x->aux, k), bytes);
            memcpy(hs[l][k], &v, bytes);
        }
    });
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_conv_d[1] = { { st_conv_f, { 0 }, 0 } };

/* The conversion a store of type t applies to element e of register width rw. */
static bool st_conversion(const ex_func_t *f, const isa_operand_t *e, isa_type_t t, unsigned rw,
                          unsigned vec, unsigned *out_cv)
{
    *out_cv = ST_CV_NONE;
    unsigned bytes = isa_types[t].bits / 8;
    if (e->kind != ISA_OPD_REG || rw <= bytes)
        return true;
    isa_type_t rt = f->ir->regs[e->u.reg].type;
    isa_tclass_t rc = isa_types[rt].cls;
    if (isa_types[t].cls == ISA_TC_BIT && rc == ISA_TC_FLOAT) {
        if (rt == ISA_T_F32)
            *out_cv = ST_CV_F32;
        else if (rt == ISA_T_F64)
            *out_cv = ST_CV_F64;
        else if (rt == ISA_T_F16 && vec > 1)
            *out_cv = ST_CV_F16;
        else if (rt != ISA_T_F16)
            return false;
    } else if (isa_types[t].cls == ISA_TC_BIT && rc == ISA_TC_PACKED && vec > 1) {
        return false;                   /* not measured */
    } else if (isa_types[t].cls == ISA_TC_FLOAT || isa_types[t].cls == ISA_TC_PACKED) {
        if (t != ISA_T_F32 || rw != 8 || rc != ISA_TC_BIT)
            return false;
        *out_cv = ST_CV_U64_F32;
    }
    return true;
}
/*}=====================================================================*/

ISA_HOT static int st_global_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t addr[ISA_LANES];
    if (!ex_warp_global_ok(wv, f, x, mask, bytes, addr))
        return st_f(wv, f, x, mask);
    lanes_store(f, x->o[0], 0, addr, bytes, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_global_fast_d[1] = { { st_global_fast_f, { 0 }, 0 } };

/* ld/st.local of a 4- or 8-byte register: every lane's address checked at once
 * (in the thread's local memory, aligned), then each lane's own local memory used. */
static inline __attribute__((always_inline)) bool local_addrs(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask, unsigned bytes,
                               uint64_t *off)
{
    uint64_t bad = 0, limit = (uint64_t)w->local_bytes - bytes;
    if (!w->local)
        return false;
    if (x->flags & LS_BASE32) {
        const uint32_t *b = ISA_SLOT(const uint32_t, f, x->o[4]);
        ISA_LANE_LOOP(mask, {
            off[l] = (uint32_t)(b[l] + (uint32_t)x->imm) - EX_LOCAL_BASE;
            bad |= (off[l] > limit) | (off[l] & (bytes - 1));
        });
    } else {
        const uint64_t *b = ISA_SLOT(const uint64_t, f, x->o[4]);
        ISA_LANE_LOOP(mask, {
            off[l] = b[l] + (uint64_t)x->imm - EX_LOCAL_BASE;
            bad |= (off[l] > limit) | (off[l] & (bytes - 1));
        });
    }
    return !bad;
}

ISA_HOT static int ld_local_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t off[ISA_LANES];
    if (!local_addrs(w, f, x, mask, bytes, off))
        return ld_f(wv, f, x, mask);
    const uint8_t *base = w->local;
    if (bytes == 4) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(&d[l], EX_LOCAL_AT(base, l, off[l]), 4); });
    } else {
        uint64_t *d = ISA_SLOT(uint64_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(&d[l], EX_LOCAL_AT(base, l, off[l]), 8); });
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_local_fast_d[1] = { { ld_local_fast_f, { 0 }, 0 } };

ISA_HOT static int st_local_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t off[ISA_LANES];
    if (!local_addrs(w, f, x, mask, bytes, off))
        return st_f(wv, f, x, mask);
    uint8_t *base = w->local;
    if (bytes == 4) {
        const uint32_t *s = ISA_SLOT(const uint32_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(EX_LOCAL_AT(base, l, off[l]), &s[l], 4); });
    } else {
        const uint64_t *s = ISA_SLOT(const uint64_t, f, x->o[0]);
        ISA_LANE_LOOP(mask, { memcpy(EX_LOCAL_AT(base, l, off[l]), &s[l], 8); });
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_local_fast_d[1] = { { st_local_fast_f, { 0 }, 0 } };

/* ld/st.shared through a 32- or 64-bit address (a register, or a variable's symbol): the
 * warp's addresses are computed once, checked together, then used. */
static inline __attribute__((always_inline)) bool shared_addrs(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask,
                                unsigned bytes, uint64_t *addr)
{
    /* relative to the CTA's own shared memory (its addresses carry its cluster rank): an
     * address of another CTA wraps beyond the size and takes the slow path */
    uint32_t imm = (uint32_t)x->imm - w->cta->shared_base, hi = 0, bits = 0;
    if (!(x->flags & LS_BASE32)) {
        /* a 64-bit address (a variable's symbol, [sdata+4], holds one in every lane):
         * beyond 32 bits it is no shared address (the general path faults) */
        const uint64_t *b64 = ISA_SLOT(const uint64_t, f, x->o[4]);
        uint64_t high = 0;
        ISA_LANE_LOOP(mask, {
            uint64_t a64 = b64[l] + (uint64_t)x->imm;
            uint32_t a = (uint32_t)a64 - w->cta->shared_base;
            high |= a64 >> 32;
            addr[l] = a;
            hi = a > hi ? a : hi;
            bits |= a;
        });
        return !high && !(bits & (bytes - 1)) && (uint64_t)hi + bytes <= w->cta->shared_size;
    }
    const uint32_t *b = ISA_SLOT(const uint32_t, f, x->o[4]);
    if (mask == ISA_FULL) {
        for (unsigned l = 0; l < ISA_LANES; l++) {
            uint32_t a = b[l] + imm;
            addr[l] = a;
            hi = a > hi ? a : hi;
            bits |= a;
        }
    } else {
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint32_t a = b[l] + imm;
            addr[l] = a;
            hi = a > hi ? a : hi;
            bits |= a;
        }
    }
    return !(bits & (bytes - 1)) && (uint64_t)hi + bytes <= w->cta->shared_size;
}

ISA_HOT static int ld_shared_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t addr[ISA_LANES];
    if (!shared_addrs(w, f, x, mask, bytes, addr))
        return ld_f(wv, f, x, mask);
    lanes_load(f, x->o[0], (uintptr_t)w->cta->shared, addr, bytes, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_shared_fast_d[1] = { { ld_shared_fast_f, { 0 }, 0 } };

ISA_HOT static int st_shared_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t addr[ISA_LANES];
    if (!shared_addrs(w, f, x, mask, bytes, addr))
        return st_f(wv, f, x, mask);
    lanes_store(f, x->o[0], (uintptr_t)w->cta->shared, addr, bytes, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_shared_fast_d[1] = { { st_shared_fast_f, { 0 }, 0 } };

/* ld/st of a 4- or 8-byte register through a generic 64-bit address (what -G builds and
 * code that cannot tell the space emit): when every lane's address is in the CTA's own
 * shared memory (the shared window with its rank) or in one global range, aligned, the
 * access goes as the shared or global fast path does; the base to add is left in *base.
 * Anything else (local, parameters, other CTAs, mixed spaces, faults) takes the general
 * path. */
static inline __attribute__((always_inline)) bool generic_addrs(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask,
                                 unsigned bytes, uint64_t *addr, uintptr_t *base)
{
    const uint64_t *b = ISA_SLOT(const uint64_t, f, x->o[4]);
    uint64_t first = b[__builtin_ctz(mask)] + (uint64_t)x->imm;
    if ((first & EX_WIN_MASK) == 0) {     /* host addresses: global memory */
        *base = 0;
        return ex_warp_global_ok(w, f, x, mask, bytes, addr);
    }
    if ((first & EX_WIN_MASK) != EX_WIN_SHARED)
        return false;                     /* local, parameter or constant windows */
    ex_cta_t *c = w->cta;
    if (c->shared_size < bytes)
        return false;
    uint64_t own = EX_WIN_SHARED + c->shared_base - (uint64_t)x->imm, lim = c->shared_size - bytes, bad = 0;
    ISA_LANE_LOOP(mask, {
        uint64_t off = b[l] - own;
        addr[l] = off;
        bad |= (uint64_t)(off > lim) | (off & (bytes - 1));
    });
    *base = (uintptr_t)c->shared;
    return bad == 0;
}

ISA_HOT static int ld_generic_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t addr[ISA_LANES];
    uintptr_t base;
    if (!mask || !generic_addrs(wv, f, x, mask, bytes, addr, &base))
        return ld_f(wv, f, x, mask);
    lanes_load(f, x->o[0], base, addr, bytes, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_generic_fast_d[1] = { { ld_generic_fast_f, { 0 }, 0 } };

ISA_HOT static int st_generic_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    unsigned bytes = LS_BYTES(x->aux);
    uint64_t addr[ISA_LANES];
    uintptr_t base;
    if (!mask || !generic_addrs(wv, f, x, mask, bytes, addr, &base))
        return st_f(wv, f, x, mask);
    lanes_store(f, x->o[0], base, addr, bytes, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_generic_fast_d[1] = { { st_generic_fast_f, { 0 }, 0 } };

/* The vector fast paths: .v2 and .v4, accesses of 1, 2 or 16 bytes, and registers wider
 * than the access (the scalar paths above take 4 or 8 bytes into a register of that
 * width), in global, shared, generic and local memory.  A lane's footprint (the vector's
 * bytes, a power of two up to 16) is checked as the scalar paths check theirs; anything
 * else, faults included, takes the general path. */
#define LS_FOOT(a) (LS_BYTES(a) * LS_VEC(a))

ISA_HOT static int ld_global_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    uint64_t addr[ISA_LANES];
    if (!ex_warp_global_ok(wv, f, x, mask, LS_FOOT(x->aux), addr))
        return ld_f(wv, f, x, mask);
    lanes_load_elems(f, x, 0, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_global_vec_d[1] = { { ld_global_vec_f, { 0 }, ISA_HON_SINK } };

ISA_HOT static int st_global_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    uint64_t addr[ISA_LANES];
    if (!ex_warp_global_ok(wv, f, x, mask, LS_FOOT(x->aux), addr))
        return st_f(wv, f, x, mask);
    lanes_store_elems(f, x, 0, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_global_vec_d[1] = { { st_global_vec_f, { 0 }, 0 } };

ISA_HOT static int ld_shared_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint64_t addr[ISA_LANES];
    if (!shared_addrs(w, f, x, mask, LS_FOOT(x->aux), addr))
        return ld_f(wv, f, x, mask);
    lanes_load_elems(f, x, (uintptr_t)w->cta->shared, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_shared_vec_d[1] = { { ld_shared_vec_f, { 0 }, ISA_HON_SINK } };

ISA_HOT static int st_shared_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint64_t addr[ISA_LANES];
    if (!shared_addrs(w, f, x, mask, LS_FOOT(x->aux), addr))
        return st_f(wv, f, x, mask);
    lanes_store_elems(f, x, (uintptr_t)w->cta->shared, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_shared_vec_d[1] = { { st_shared_vec_f, { 0 }, 0 } };

ISA_HOT static int ld_generic_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    uint64_t addr[ISA_LANES];
    uintptr_t base;
    if (!mask || !generic_addrs(wv, f, x, mask, LS_FOOT(x->aux), addr, &base))
        return ld_f(wv, f, x, mask);
    lanes_load_elems(f, x, base, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_generic_vec_d[1] = { { ld_generic_vec_f, { 0 }, ISA_HON_SINK } };

ISA_HOT static int st_generic_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    uint64_t addr[ISA_LANES];
    uintptr_t base;
    if (!mask || !generic_addrs(wv, f, x, mask, LS_FOOT(x->aux), addr, &base))
        return st_f(wv, f, x, mask);
    lanes_store_elems(f, x, base, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_generic_vec_d[1] = { { st_generic_vec_f, { 0 }, 0 } };

/* Local memory interleaves the lanes in 16-byte pieces (EX_LOCAL_AT): a footprint of at
 * most 16 aligned bytes lies in one piece, its elements next to each other. */
static inline __attribute__((always_inline)) bool local_hosts(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask, uint64_t *addr)
{
    if (!local_addrs(w, f, x, mask, LS_FOOT(x->aux), addr))
        return false;
    ISA_LANE_LOOP(mask, { addr[l] = (uint64_t)(uintptr_t)EX_LOCAL_AT(w->local, l, addr[l]); });
    return true;
}

ISA_HOT static int ld_local_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    uint64_t addr[ISA_LANES];
    if (!local_hosts(wv, f, x, mask, addr))
        return ld_f(wv, f, x, mask);
    lanes_load_elems(f, x, 0, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_local_vec_d[1] = { { ld_local_vec_f, { 0 }, ISA_HON_SINK } };

ISA_HOT static int st_local_vec_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    uint64_t addr[ISA_LANES];
    if (!local_hosts(wv, f, x, mask, addr))
        return st_f(wv, f, x, mask);
    lanes_store_elems(f, x, 0, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_local_vec_d[1] = { { st_local_vec_f, { 0 }, 0 } };

/* ld.const of any width: every lane's address inside the module's constant bank and
 * aligned (outside it, the general path reads zeros or faults with exact bounds). */
ISA_HOT static int ld_const_fast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    const ex_program_t *p = w->cta->p;
    unsigned foot = LS_FOOT(x->aux);
    uint64_t addr[ISA_LANES], bad = 0, lim = (uint64_t)p->consts_size - foot;
    if (p->consts_size < foot)
        return ld_f(wv, f, x, mask);
    if (x->o[4] == ISA_NONE) {
        ISA_LANE_LOOP(mask, { addr[l] = (uint64_t)x->imm; });
    } else if (x->flags & LS_BASE32) {
        const uint32_t *b = ISA_SLOT(const uint32_t, f, x->o[4]);
        ISA_LANE_LOOP(mask, { addr[l] = (uint32_t)(b[l] + (uint32_t)x->imm); });
    } else {
        const uint64_t *b = ISA_SLOT(const uint64_t, f, x->o[4]);
        ISA_LANE_LOOP(mask, { addr[l] = b[l] + (uint64_t)x->imm; });
    }
    ISA_LANE_LOOP(mask, { bad |= (uint64_t)(addr[l] > lim) | (addr[l] & (foot - 1)); });
    if (bad)
        return ld_f(wv, f, x, mask);
    lanes_load_elems(f, x, (uintptr_t)p->consts, addr, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_const_fast_d[1] = { { ld_const_fast_f, { 0 }, ISA_HON_SINK } };

/* ld.param of a kernel parameter at a constant offset: one value for every lane. */
ISA_HOT static int ld_kparam_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    ex_cta_t *c = w->cta;
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux), sgn = LS_SIGNED(x->aux);
    uint64_t off = *ISA_SLOT(const uint64_t, f, x->o[4]) + (uint64_t)x->imm;
    if (off > c->params_size || (uint64_t)bytes * vec > c->params_size - off) {
        w->fault_kind = EX_FAULT_ADDRESS;
        w->fault_lane = mask ? __builtin_ctz(mask) : 0;
        w->fault_addr = off;
        w->fault_what = "parameter address outside the kernel's parameters";
        w->fault_insn = x;
        return ISA_X_FAULT;
    }
    for (unsigned k = 0; k < vec; k++) {
        if (x->o[k] == ISA_NONE)
            continue;
        const uint8_t *src = c->params + off + k * bytes;
        if (bytes == 16) {              /* .b128: a whole 128-bit register */
            ISA_LANE_LOOP(mask, { memcpy(f + x->o[k] + l * 16, src, 16); });
            continue;
        }
        uint64_t v = 0;
        switch (bytes) {                /* constant sizes: no call */
        case 1: v = *src; break;
        case 2: memcpy(&v, src, 2); break;
        case 4: memcpy(&v, src, 4); break;
        default: memcpy(&v, src, 8); break;
        }
        v = extend(v, bytes, sgn);
        unsigned rw = LS_RW(x->aux, k);
        if (rw == 8) {                  /* one value for every lane: a broadcast */
            uint64_t *d = ISA_SLOT(uint64_t, f, x->o[k]);
            ISA_LANE_LOOP(mask, { d[l] = v; });
        } else if (rw == 4) {
            uint32_t *d = ISA_SLOT(uint32_t, f, x->o[k]);
            ISA_LANE_LOOP(mask, { d[l] = (uint32_t)v; });
        } else {
            ISA_LANE_LOOP(mask, { reg_store(f, x->o[k], rw, l, v); });
        }
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_kparam_d[1] = { { ld_kparam_f, { 0 }, ISA_HON_SINK } };

/*{=====================================================================
 * Ordered accesses: ld.relaxed, ld.acquire, st.relaxed, st.release, .volatile (a relaxed
 * access at system scope) and .mmio.  Each element is a relaxed host atomic access, so
 * that the compiler neither tears, merges nor drops it; .acquire adds an acquire fence
 * after the warp's loads and .release a release fence before its stores: the C11
 * fence-based release and acquire, correct on weakly ordered hosts (AArch64) as on
 * x86-64.  A vector of 8 or 16 bytes (or a .b128) is one such access (ord_whole).  Plain (weak) accesses
 * keep the unordered fast paths above, and so do ordered ones of shared, local, parameter
 * and constant memory, which no other worker can see.
 *====================================================================*/
static inline uint64_t load_relaxed(const uint8_t *h, unsigned bytes)
{
    switch (bytes) {
    case 1: return __atomic_load_n(h, __ATOMIC_RELAXED);
    case 2: return __atomic_load_n((const uint16_t *)(const void *)h, __ATOMIC_RELAXED);
    case 4: return __atomic_load_n((const uint32_t *)(const void *)h, __ATOMIC_RELAXED);
    default: return __atomic_load_n((const uint64_t *)(const void *)h, __ATOMIC_RELAXED);
    }
}
static inline void store_relaxed(uint8_t *h, uint64_t v, unsigned bytes)
{
    switch (bytes) {
    case 1: __atomic_store_n(h, (uint8_t)v, __ATOMIC_RELAXED); break;
    case 2: __atomic_store_n((uint16_t *)(void *)h, (uint16_t)v, __ATOMIC_RELAXED); break;
    case 4: __atomic_store_n((uint32_t *)(void *)h, (uint32_t)v, __ATOMIC_RELAXED); break;
    default: __atomic_store_n((uint64_t *)(void *)h, v, __ATOMIC_RELAXED); break;
    }
}

/* A whole vector of 8 or 16 bytes (ld.relaxed.gpu.v2.u64, .v4.u32, .v2.u32, .b128) is one
 * access, as on the GPU: CUB's decoupled look-back publishes a tile's {status, value} so
 * and reads it back from other CTAs; element by element, a reader on another worker saw
 * the new status with the old value (thrust::reduce_by_key's sums, now and then). */
static inline bool ord_whole(unsigned bytes, unsigned vec)
{
    return bytes * vec == 16 || (bytes * vec == 8 && vec > 1);
}

ISA_HOT static int ld_ord_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux), sgn = LS_SIGNED(x->aux);
    bool whole = ord_whole(bytes, vec);
    w->polls++;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (whole) {
            uint8_t *h = NULL, buf[16];
            for (unsigned k = 0; k < vec; k++)       /* every element's address checked */
                if (!(h = lane_host(w, f, x, l, k)))
                    return ISA_X_FAULT;
            h -= (vec - 1) * bytes;
            if (bytes * vec == 16) {
                ex_load16_atomic(buf, h);
            } else {
                uint64_t v = __atomic_load_n((const uint64_t *)(const void *)h, __ATOMIC_RELAXED);
                memcpy(buf, &v, 8);
            }
            for (unsigned k = 0; k < vec; k++) {
                if (x->o[k] == ISA_NONE)
                    continue;
                if (bytes == 16) {
                    memcpy(f + x->o[k] + l * 16, buf, 16);
                    continue;
                }
                uint64_t v = 0;
                memcpy(&v, buf + k * bytes, bytes);
                reg_store(f, x->o[k], LS_RW(x->aux, k), l, extend(v, bytes, sgn));
            }
            continue;
        }
        for (unsigned k = 0; k < vec; k++) {
            uint8_t *h = lane_host(w, f, x, l, k);
            if (!h)
                return ISA_X_FAULT;
            if (x->o[k] == ISA_NONE)
                continue;
            if (bytes == 16) {
                memcpy(f + x->o[k] + l * 16, h, 16);
                continue;
            }
            reg_store(f, x->o[k], LS_RW(x->aux, k), l, extend(load_relaxed(h, bytes), bytes, sgn));
        }
    }
    if (x->flags & LS_ACQUIRE)
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return ISA_X_NEXT;
}
static const isa_xdesc_t ld_ord_d[1] = { { ld_ord_f, { 0 }, ISA_HON_SINK } };

ISA_HOT static int st_ord_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned bytes = LS_BYTES(x->aux), vec = LS_VEC(x->aux);
    uint8_t *hs[ISA_LANES][4];
    if (!store_hosts(w, f, x, mask, vec, hs))
        return ISA_X_FAULT;
    if (x->flags & LS_RELEASE)
        __atomic_thread_fence(__ATOMIC_RELEASE);
    bool whole = ord_whole(bytes, vec);
    ISA_LANE_LOOP_DOWN(mask, {
        if (whole) {
            uint8_t buf[16];
            for (unsigned k = 0; k < vec; k++) {
                if (bytes == 16) {
                    memcpy(buf, f + x->o[k] + l * 16, 16);
                    continue;
                }
                uint64_t v = st_convert(reg_load(f, x->o[k], LS_RW(x->aux, k), l), LS_CV(x->aux, k), bytes);
                memcpy(buf + k * bytes, &v, bytes);
            }
            if (bytes * vec == 16) {
                ex_store16_atomic(hs[l][0], buf);
            } else {
                uint64_t v;
                memcpy(&v, buf, 8);
                __atomic_store_n((uint64_t *)(void *)hs[l][0], v, __ATOMIC_RELAXED);
            }
            continue;
        }
        for (unsigned k = 0; k < vec; k++) {
            if (bytes == 16) {
                memcpy(hs[l][k], f + x->o[k] + l * 16, 16);
                continue;
            }
            uint64_t v = st_convert(reg_load(f, x->o[k], LS_RW(x->aux, k), l), LS_CV(x->aux, k), bytes);
            store_relaxed(hs[l][k], v, bytes);
        }
    });
    return ISA_X_NEXT;
}
static const isa_xdesc_t st_ord_d[1] = { { st_ord_f, { 0 }, 0 } };
/*}=====================================================================*/

/* cvta: between a space's own addresses and generic ones (window base + offset);
 * global addresses are generic already.  aux: window base; flags 1: to the space. */
ISA_HOT static int cvta_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    unsigned dw = x->width, sw = x->vec;
    if (x->aux == 0 && dw == 8 && sw == 8) {      /* global: generic addresses are the same */
        uint64_t *d = ISA_SLOT(uint64_t, f, x->o[0]);
        const uint64_t *a = ISA_SLOT(const uint64_t, f, x->o[1]);
        ISA_LANE_LOOP(mask, { d[l] = a[l]; });
        return ISA_X_NEXT;
    }
    ISA_LANE_LOOP(mask, {
        uint64_t a = reg_load(f, x->o[1], sw, l);
        uint64_t r = x->flags & 1 ? a - x->aux : a + x->aux;
        if ((x->flags & 1) && x->aux && (a & EX_WIN_MASK) != x->aux)
            r = a;                       /* not in this window: passed through */
        reg_store(f, x->o[0], dw, l, r);
    });
    return ISA_X_NEXT;
}
static const isa_xdesc_t cvta_d[1] = { { cvta_f, { 0 }, 0 } };

static uint64_t window_of(isa_space_t sp)
{
    switch (isa_spaces[sp].window) {
    case ISA_SP_SHARED: return EX_WIN_SHARED;
    case ISA_SP_LOCAL:  return EX_WIN_LOCAL;
    case ISA_SP_PARAM:  return EX_WIN_PARAM;
    case ISA_SP_CONST:  return EX_WIN_CONST;
    default:            return 0;
    }
}

/* isspacep: whether each lane's generic address lies in a space, as the H100 answers
 * (goldens isspacep_all, cluster_dsmem): .global for every address outside the shared,
 * local and constant windows (a kernel parameter's address is .global and .param), the
 * others for their own window; .shared::cluster for every shared address, .shared (and
 * ::cta) for those of the CTA's own rank.  x->aux: the window, with EX_WIN_MASK for
 * .global; x->flags: .shared::cta. */
ISA_HOT static int isspacep_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *wp = wv;
    const uint64_t *a = ISA_SLOT(const uint64_t, f, x->o[1]);
    uint32_t *p = ISA_SLOT(uint32_t, f, x->o[0]), r = *p & ~mask, own = wp->cta->rank;
    ISA_LANE_LOOP(mask, {
        uint64_t w = a[l] & EX_WIN_MASK;
        bool in = x->aux == EX_WIN_MASK ? (w != EX_WIN_SHARED && w != EX_WIN_LOCAL && w != EX_WIN_CONST)
                                        : w == x->aux && (!x->flags || ((a[l] >> 24) & 0xff) == own);
        r |= (uint32_t)in << l;
    });
    *p = r;
    return ISA_X_NEXT;
}
static const isa_xdesc_t isspacep_d[1] = { { isspacep_f, { 0 }, 0 } };

/* mapa: the address of the same location in the shared memory of CTA rank b of the
 * cluster.  As the H100's code computes it (a PRMT in ptxas 13's SASS), bits 24-31 of the
 * address's low word become the rank, for a .shared::cluster address and for a generic one
 * alike; a shared::cta address of the CTA itself is its .shared::cluster address with rank
 * 0.  A cluster has one CTA here, so rank 0 maps an address to itself, and an address with
 * another rank faults when it is used (mem.c).  x->width: 4 or 8. */
ISA_HOT static int mapa_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    const uint32_t *b = ISA_SLOT(const uint32_t, f, x->o[2]);
    ISA_LANE_LOOP(mask, {
        uint64_t a = reg_load(f, x->o[1], x->width, l);
        reg_store(f, x->o[0], x->width, l, (a & ~0xff000000ull) | (uint64_t)(b[l] & 0xff) << 24);
    });
    return ISA_X_NEXT;
}
static const isa_xdesc_t mapa_d[1] = { { mapa_f, { 0 }, 0 } };

/* getctarank: the rank of the CTA whose shared memory the address names, bits 24-31 of its
 * low word (as the H100's code extracts it): 0 for every address of the CTA's own shared
 * memory. */
ISA_HOT static int getctarank_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
    ISA_LANE_LOOP(mask, { d[l] = (uint32_t)(reg_load(f, x->o[1], x->width, l) >> 24) & 0xff; });
    return ISA_X_NEXT;
}
static const isa_xdesc_t getctarank_d[1] = { { getctarank_f, { 0 }, 0 } };

static unsigned opd_width(ex_func_t *f, const isa_operand_t *o, unsigned dflt)
{
    return o->kind == ISA_OPD_REG ? ex_reg_width(f, o) : dflt;
}

static bool select_ldst(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x, bool load)
{
    const isa_func_t *fn = f->ir;
    /* .L2::cache_hint's cache-policy operand (the last) is a hint: it changes no result. */
    unsigned nopd = in->nopd - (isa_instr_has(in, ISA_M_L2_CACHE_HINT) ? 1u : 0u);
    if (in->ntypes != 1 || nopd != 2)
        return false;
    isa_type_t t = (isa_type_t)in->types[0];
    unsigned bytes = isa_types[t].bits / 8;
    int vm = isa_instr_mod(in, ISA_G_VEC);
    if (bytes == 0 || bytes > 16 || (bytes == 16 && vm >= 0))
        return false;
    unsigned vec = vm == ISA_M_V2 ? 2 : vm == ISA_M_V4 ? 4 : vm < 0 ? 1 : 0;
    if (vec == 0)
        return false;
    int spi = isa_instr_space(in, 0);
    isa_space_t sp = spi < 0 ? ISA_SP_NONE : (isa_space_t)spi;
    const isa_operand_t *data = &fn->opds[in->opd + (load ? 0 : 1)];
    const isa_operand_t *addr = &fn->opds[in->opd + (load ? 1 : 0)];
    if (addr->kind != ISA_OPD_ADDR || (addr->flags & ISA_OPDF_ADDRLIST))
        return false;
    /* Data operands: one register per element; a whole vector register (.v2/.v4 d) is
     * its components in order. */
    const isa_operand_t *elems = data;
    isa_operand_t comp[4];
    unsigned n = 1;
    if (data->kind == ISA_OPD_VEC) {
        elems = &fn->opds[data->u.first];
        n = data->count;
    } else if (data->kind == ISA_OPD_REG && data->sel == ISA_SEL_NONE && fn->regs[data->u.reg].vec > 1) {
        n = fn->regs[data->u.reg].vec;
        if (n > 4)
            return false;
        for (unsigned k = 0; k < n; k++) {
            comp[k] = *data;
            comp[k].sel = (uint8_t)(ISA_SEL_X + k);
        }
        elems = comp;
    }
    if (n != vec)
        return false;
    uint64_t aux = bytes | (uint64_t)vec << 8 | (uint64_t)(isa_types[t].cls == ISA_TC_SINT) << 24;
    for (unsigned k = 0; k < vec; k++) {
        const isa_operand_t *e = &elems[k];
        if (load && e->kind == ISA_OPD_SINK) {
            x->o[k] = ISA_NONE;
            continue;
        }
        if (load && e->kind != ISA_OPD_REG)
            return false;
        unsigned rw = opd_width(f, e, bytes);
        if (rw == 0 || rw == 0xfe || rw == 0xff || rw < bytes)
            return false;
        if (bytes == 16 && (e->kind != ISA_OPD_REG || rw != 16))
            return false;                 /* .b128 moves whole 128-bit registers */
        x->o[k] = ex_pd_operand(pd, e, rw);
        if (x->o[k] == ISA_NONE)
            return false;
        aux |= (uint64_t)rw << (32 + 4 * k);
        unsigned cv;
        if (!load) {
            if (!st_conversion(f, e, t, rw, vec, &cv))
                return false;
            aux |= (uint64_t)cv << (48 + 4 * k);
        }
    }
    /* Address: register or symbol base, plus an offset. */
    x->imm = addr->imm;
    x->o[4] = ISA_NONE;
    if (addr->base == ISA_OPD_REG) {
        unsigned bw;
        x->o[4] = ex_reg_operand(f, addr, &bw);
        if (x->o[4] == ISA_NONE || (bw != 4 && bw != 8))
            return false;
        if (bw == 4)
            x->flags |= LS_BASE32;
    } else if (addr->base == ISA_OPD_SYM) {
        if (!(addr->flags & ISA_OPDF_MODSYM)) {
            const isa_var_t *v = &fn->vars[addr->u.sym];
            if (isa_spaces[v->space].window == ISA_SP_PARAM && f->var_slot[addr->u.sym] != ISA_NONE) {
                /* A per-lane parameter area of this frame. */
                x->flags |= LS_PSYM;
                x->o[5] = f->var_slot[addr->u.sym];
                x->target = (uint32_t)isa_var_size(v);
                if ((uint64_t)addr->imm + (uint64_t)bytes * vec > x->target)
                    return false;
                goto done;
            }
        }
        isa_operand_t s = *addr;
        s.kind = ISA_OPD_SYM;
        s.imm = 0;
        x->o[4] = ex_pd_operand(pd, &s, 8);
        if (x->o[4] == ISA_NONE)
            return false;
        if (load && !(addr->flags & ISA_OPDF_MODSYM) && fn->is_entry && addr->u.sym < fn->nparam &&
            (sp == ISA_SP_PARAM || sp == ISA_SP_PARAM_ENTRY)) {
            x->aux = aux | (uint64_t)ISA_SP_PARAM << 16;
            x->desc = ld_kparam_d;
            return true;
        }
        if (sp == ISA_SP_NONE) {
            /* A generic access to a named variable is an access in the variable's space. */
            const isa_var_t *v = (addr->flags & ISA_OPDF_MODSYM) ? &f->mod->vars[addr->u.sym]
                                                              : &fn->vars[addr->u.sym];
            sp = isa_spaces[v->space].window;
        }
    } else if (addr->base != ISA_OPD_IMM) {
        return false;
    }
    /* In a device function, a register address of ld.param/st.param is one mov gave of
     * the function's own parameter: the address of its copy in the local frame
     * (predecode.c), which the access reads (measured: LLVM's by-value aggregates read at
     * a run-time offset, tests/golden/param_func_addr). */
    if (addr->base == ISA_OPD_REG && !fn->is_entry && sp != ISA_SP_NONE && isa_spaces[sp].window == ISA_SP_PARAM)
        sp = ISA_SP_LOCAL;
done:
    aux |= (uint64_t)(sp == ISA_SP_NONE ? 0xff : (unsigned)sp) << 16;
    x->aux = aux;
    x->desc = load ? ld_d : (aux >> 48) ? st_conv_d : st_d;
    if (load && sp == ISA_SP_GLOBAL && vec == 1 && !(x->flags & (LS_PSYM | LS_BASE32)) && x->o[4] != ISA_NONE &&
        (bytes == 4 || bytes == 8) && LS_RW(aux, 0) == bytes && x->o[0] != ISA_NONE)
        x->desc = ld_global_fast_d;
    if (!load && sp == ISA_SP_GLOBAL && vec == 1 && !(x->flags & (LS_PSYM | LS_BASE32)) && x->o[4] != ISA_NONE &&
        (bytes == 4 || bytes == 8) && LS_RW(aux, 0) == bytes)
        x->desc = st_global_fast_d;
    if (isa_spaces[sp == ISA_SP_NONE ? ISA_SP_GLOBAL : sp].window == ISA_SP_SHARED && vec == 1 &&
        !(x->flags & LS_PSYM) && x->o[4] != ISA_NONE && (bytes == 4 || bytes == 8) &&
        LS_RW(aux, 0) == bytes && x->o[0] != ISA_NONE && (aux >> 48) == 0)
        x->desc = load ? ld_shared_fast_d : st_shared_fast_d;
    if (sp == ISA_SP_NONE && vec == 1 && !(x->flags & (LS_PSYM | LS_BASE32)) && x->o[4] != ISA_NONE &&
        (bytes == 4 || bytes == 8) && LS_RW(aux, 0) == bytes && x->o[0] != ISA_NONE && (aux >> 48) == 0)
        x->desc = load ? ld_generic_fast_d : st_generic_fast_d;
    if ((x->flags & LS_PSYM) && vec == 1 && (bytes == 4 || bytes == 8) && LS_RW(aux, 0) == bytes &&
        x->o[0] != ISA_NONE && (aux >> 48) == 0)
        x->desc = load ? ld_psym_fast_d : st_psym_fast_d;
    if (sp == ISA_SP_LOCAL && vec == 1 && !(x->flags & LS_PSYM) && x->o[4] != ISA_NONE &&
        (bytes == 4 || bytes == 8) && LS_RW(aux, 0) == bytes && x->o[0] != ISA_NONE && (aux >> 48) == 0)
        x->desc = load ? ld_local_fast_d : st_local_fast_d;
    /* Every other width and vector whose footprint the fast paths can check. */
    unsigned foot = bytes * vec;
    if (x->desc == (load ? ld_d : st_d) && vec <= 4 && foot <= 16 && !(foot & (foot - 1)) &&
        !(x->flags & LS_PSYM)) {
        bool base32 = x->flags & LS_BASE32;
        if (load && sp != ISA_SP_NONE && isa_spaces[sp].window == ISA_SP_CONST)
            x->desc = ld_const_fast_d;
        else if (x->o[4] == ISA_NONE)
            ;
        else if (sp == ISA_SP_GLOBAL && !base32)
            x->desc = load ? ld_global_vec_d : st_global_vec_d;
        else if (sp != ISA_SP_NONE && isa_spaces[sp].window == ISA_SP_SHARED)
            x->desc = load ? ld_shared_vec_d : st_shared_vec_d;
        else if (sp == ISA_SP_NONE && !base32)
            x->desc = load ? ld_generic_vec_d : st_generic_vec_d;
        else if (sp == ISA_SP_LOCAL)
            x->desc = load ? ld_local_vec_d : st_local_vec_d;
    }
    /* Memory order: .weak (or none) keeps the handlers above, and so does every access to
     * memory that only this host thread sees (shared: the CTA runs on one worker; local,
     * parameters, constants), whose accesses are ordered by the program alone. */
    int sem = isa_instr_mod(in, ISA_G_SEM);
    bool visible = sp == ISA_SP_NONE || isa_spaces[sp].window == ISA_SP_GLOBAL;
    if ((isa_instr_mod(in, ISA_G_VOLATILE) >= 0 || isa_instr_mod(in, ISA_G_MMIO) >= 0 ||
         (sem >= 0 && sem != ISA_M_WEAK)) && visible) {
        if (sem == ISA_M_ACQUIRE && load)
            x->flags |= LS_ACQUIRE;
        else if (sem == ISA_M_RELEASE && !load)
            x->flags |= LS_RELEASE;
        else if (sem >= 0 && sem != ISA_M_RELAXED && sem != ISA_M_WEAK)
            return false;
        if (!(x->flags & LS_PSYM)) {     /* a frame's own parameter area is private */
            x->flags |= LS_ORDERED;
            x->desc = load ? ld_ord_d : st_ord_d;
        }
    }
    return true;
}

bool ex_select_mem(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    switch ((isa_op_t)in->op) {
    case ISA_OP_LD:
    case ISA_OP_LDU:   /* a load of read-only data (a cache hint): every lane its own address */
        return select_ldst(pd, f, in, x, true);
    case ISA_OP_ST:
        return select_ldst(pd, f, in, x, false);
    case ISA_OP_ISSPACEP: {
        const isa_operand_t *o = &f->ir->opds[in->opd];
        int sp = isa_instr_space(in, 0);
        unsigned pw, aw;
        if (in->nopd != 2 || sp < 0 || sp == ISA_SP_PARAM_FUNC || o[0].kind != ISA_OPD_REG || o[1].kind != ISA_OPD_REG)
            return false;
        x->o[0] = ex_reg_operand(f, &o[0], &pw);
        x->o[1] = ex_reg_operand(f, &o[1], &aw);
        if (x->o[0] == ISA_NONE || x->o[1] == ISA_NONE || pw != 0 || aw != 8)
            return false;
        x->aux = isa_spaces[sp].window == ISA_SP_GLOBAL ? EX_WIN_MASK : window_of((isa_space_t)sp);
        if (x->aux == 0)
            return false;
        x->flags = sp == ISA_SP_SHARED || sp == ISA_SP_SHARED_CTA;   /* the CTA's own shared memory */
        x->desc = isspacep_d;
        return true;
    }
    case ISA_OP_CVTA: {
        const isa_operand_t *o = &f->ir->opds[in->opd];
        if (in->nopd != 2 || o[0].kind != ISA_OPD_REG || in->ntypes != 1)
            return false;
        int sp = isa_instr_space(in, 0);
        if (sp < 0)
            return false;
        unsigned tw = isa_types[in->types[0]].bits / 8;
        unsigned dw;
        x->o[0] = ex_reg_operand(f, &o[0], &dw);
        x->width = (uint8_t)dw;
        x->vec = (uint8_t)opd_width(f, &o[1], tw);
        if (x->o[0] == ISA_NONE || x->width != tw || (x->vec != 4 && x->vec != 8))
            return false;
        x->o[1] = ex_pd_operand(pd, &o[1], x->vec);
        if (x->o[1] == ISA_NONE)
            return false;
        x->aux = window_of((isa_space_t)sp);
        x->flags = isa_instr_has(in, ISA_M_TOMOD) ? 1 : 0;
        x->desc = cvta_d;
        return true;
    }
    case ISA_OP_MAPA:
    case ISA_OP_GETCTARANK: {
        /* mapa{.shared::cluster}.type d, a, b; getctarank{.shared::cluster}.type d, a:
         * a is an address of the type's width (register, or a shared variable's name). */
        const isa_operand_t *o = &f->ir->opds[in->opd];
        bool mapa = in->op == ISA_OP_MAPA;
        int sp = isa_instr_space(in, 0);
        if (in->ntypes != 1 || in->nopd != (mapa ? 3u : 2u) || o[0].kind != ISA_OPD_REG ||
            (sp >= 0 && sp != ISA_SP_SHARED_CLUSTER))
            return false;
        unsigned tw = isa_types[in->types[0]].bits / 8, dw;
        x->o[0] = ex_reg_operand(f, &o[0], &dw);
        if (x->o[0] == ISA_NONE || dw != (mapa ? tw : 4u) || opd_width(f, &o[1], tw) != tw)
            return false;
        x->width = (uint8_t)tw;
        x->o[1] = ex_pd_operand(pd, &o[1], tw);
        if (x->o[1] == ISA_NONE)
            return false;
        if (mapa) {
            if (opd_width(f, &o[2], 4) != 4 || (x->o[2] = ex_pd_operand(pd, &o[2], 4)) == ISA_NONE)
                return false;
        }
        x->desc = mapa ? mapa_d : getctarank_d;
        return true;
    }
    default:
        return ex_select_stack(pd, f, in, x) || ex_select_policy(pd, f, in, x);
    }
}
