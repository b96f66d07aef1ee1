/* atomic.c: atom and red in every space, operation and type (scalars, sm_90's vectors,
 * 16- and 128-bit elements): addresses checked per lane through mem.c, global memory
 * changed with host atomics, one per distinct address of a warp, shared memory with
 * plain accesses (a CTA runs on one worker thread). */
#include "exec/internal.h"

#include <string.h>

/* Why these choices (docs/execution.md, "Atomics and the memory model"):
 * - The lanes of a warp that name one global address are combined into one host atomic
 *   (a fetch-and-add of their sum, or one compare-and-swap of the whole chain), and each
 *   lane's returned value is the value before its own operation in lane order: the result
 *   of a serial order, which is all the PTX memory model promises.  So a warp adding to a
 *   counter costs one host atomic, not 32.
 * - Shared memory belongs to one CTA, whose warps all run on one worker thread: plain
 *   reads and writes, lane after lane, are atomic with respect to every other access.
 * - Host atomics take the order the instruction asks for (.relaxed when it names none,
 *   .acquire, .release, .acq_rel); the scope only narrows who may observe, so the host's
 *   all-thread atomics are correct for every scope.
 * - 16-bit elements use the host's 16-bit compare-and-swap (x86-64 and AArch64 both have
 *   one); 128-bit ones a double-width compare-and-swap where the compiler has one inline
 *   (x86-64 with -mcx16, AArch64), else a striped lock table. */

/*{=====================================================================
 * The executable record.  x->aux: element bytes (bits 0-7: 2, 4, 8 or 16), elements
 * (8-11: 1, 2, 4 or 8), space (16-23; 0xff generic), host kind (24-27, AK_*), memory
 * order (28-30, an __ATOMIC_* value), element function for global memory (32-39) and
 * for shared memory (40-47), indices in isa_atom_fns.  Operands: o[0] d (ISA_NONE for
 * red or the sink), o[1] b, o[2] c (cas), o[4] the address register (or a constant
 * slot), imm the offset.  A vector's registers are in the function's opd_slot: d's
 * elements from pool index x->target (ISA_NONE: none), b's from o[3].
 *====================================================================*/
#define AT_EBYTES(a) ((unsigned)((a) & 0xff))
#define AT_VEC(a)    ((unsigned)(((a) >> 8) & 0xf))
#define AT_SPACE(a)  ((unsigned)(((a) >> 16) & 0xff))
#define AT_KIND(a)   ((unsigned)(((a) >> 24) & 0xf))
#define AT_ORDER(a)  ((int)(((a) >> 28) & 0x7))
#define AT_FN_G(a)   (isa_atom_fns[((a) >> 32) & 0xff])
#define AT_FN_S(a)   (isa_atom_fns[((a) >> 40) & 0xff])
#define AT_GENERIC   0xffu
#define AT_BASE32    EX_ADDR_BASE32 /* x->flags: the address register is 32 bits */
#define AT_SHAREDSP  0x08   /* x->flags: the instruction names a shared space */
#define AT_VOPS      0x10   /* x->flags: vector operands (opd_slot) */
#define AT_SPIN      0x40   /* x->flags: 8-byte elements that shared memory changes as the
                               H100's compare-and-swap loop does (shared_spin) */
#define AT_SKIP      0x80   /* x->flags: with AT_SPIN, a lane its operation leaves the element
                               unchanged finishes without its compare-and-swap (min, max) */

/* What a group of lanes on one global address does on the host: a native read-modify-
 * write of the combined operand, or a compare-and-swap loop over the element function. */
enum { AK_FN, AK_ADD, AK_AND, AK_OR, AK_XOR, AK_EXCH };

__extension__ typedef unsigned __int128 at_u128_t;
/*}=====================================================================*/

/*{=====================================================================
 * Host read-modify-writes of one global element for a group of lanes (grp), in lane
 * order: ret[l] is what lane l reads, b[l] and c[l] its operands.
 *====================================================================*/
#define AT_LANES(mask, ...)                                                                      \
    for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {                                               \
        unsigned l = (unsigned)__builtin_ctz(m_);                                                \
        __VA_ARGS__;                                                                             \
    }

/* Dispatch on the memory order so that each builtin sees a constant: X(success, failure). */
#define AT_ORDERS(order, X)                                                                      \
    switch (order) {                                                                             \
    case __ATOMIC_ACQUIRE: X(__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE); break;                         \
    case __ATOMIC_RELEASE: X(__ATOMIC_RELEASE, __ATOMIC_RELAXED); break;                         \
    case __ATOMIC_ACQ_REL: X(__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); break;                         \
    default:               X(__ATOMIC_RELAXED, __ATOMIC_RELAXED); break;                         \
    }

/* One group on an element of type T at q.  Integer adds and the bitwise operations
 * combine the operands into one native atomic; exch exchanges in the last lane's value;
 * everything else (inc, dec, min, max, cas, floats) runs the lanes' chain in a
 * compare-and-swap loop, recomputed when another thread got in between. */
#define AT_RMW(NAME, T)                                                                          \
    static void NAME(T *q, uint32_t grp, unsigned kind, int order, isa_atom_fn_t fn,             \
                     const uint64_t *b, const uint64_t *c, uint64_t *ret)                        \
    {                                                                                            \
        T acc, old;                                                                              \
        switch (kind) {                                                                          \
        case AK_ADD:                                                                             \
            acc = 0;                                                                             \
            AT_LANES(grp, acc += (T)b[l]);                                                       \
            AT_NATIVE(__atomic_fetch_add, T);                                                    \
            AT_LANES(grp, { ret[l] = old; old += (T)b[l]; });                                    \
            return;                                                                              \
        case AK_AND:                                                                             \
            acc = (T)~(T)0;                                                                      \
            AT_LANES(grp, acc &= (T)b[l]);                                                       \
            AT_NATIVE(__atomic_fetch_and, T);                                                    \
            AT_LANES(grp, { ret[l] = old; old &= (T)b[l]; });                                    \
            return;                                                                              \
        case AK_OR:                                                                              \
            acc = 0;                                                                             \
            AT_LANES(grp, acc |= (T)b[l]);                                                       \
            AT_NATIVE(__atomic_fetch_or, T);                                                     \
            AT_LANES(grp, { ret[l] = old; old |= (T)b[l]; });                                    \
            return;                                                                              \
        case AK_XOR:                                                                             \
            acc = 0;                                                                             \
            AT_LANES(grp, acc ^= (T)b[l]);                                                       \
            AT_NATIVE(__atomic_fetch_xor, T);                                                    \
            AT_LANES(grp, { ret[l] = old; old ^= (T)b[l]; });                                    \
            return;                                                                              \
        case AK_EXCH:                                                                            \
            acc = (T)b[31 - __builtin_clz(grp)];                                                 \
            AT_NATIVE(__atomic_exchange_n, T);                                                   \
            AT_LANES(grp, { ret[l] = old; old = (T)b[l]; });                                     \
            return;                                                                              \
        default: {                                                                               \
            T cur;                                                                               \
            old = __atomic_load_n(q, __ATOMIC_RELAXED);                                          \
            do {                                                                                 \
                cur = old;                                                                       \
                AT_LANES(grp, { ret[l] = cur; cur = (T)fn(cur, b[l], c[l]); });                  \
            } while (!at_cas_##T(q, &old, cur, order));                                          \
            return;                                                                              \
        }                                                                                        \
        }                                                                                        \
    }
/* old = OP(q, acc, order), with the order as a constant. */
#define AT_NATIVE(OP, T)                                                                         \
    do {                                                                                         \
        switch (order) {                                                                         \
        case __ATOMIC_ACQUIRE: old = OP(q, acc, __ATOMIC_ACQUIRE); break;                        \
        case __ATOMIC_RELEASE: old = OP(q, acc, __ATOMIC_RELEASE); break;                        \
        case __ATOMIC_ACQ_REL: old = OP(q, acc, __ATOMIC_ACQ_REL); break;                        \
        default:               old = OP(q, acc, __ATOMIC_RELAXED); break;                        \
        }                                                                                        \
    } while (0)

#define AT_CAS(T)                                                                                \
    static inline bool at_cas_##T(T *q, T *expected, T desired, int order)                       \
    {                                                                                            \
        bool ok = false;                                                                         \
        AT_ORDERS(order, AT_CAS_X)                                                               \
        return ok;                                                                               \
    }
#define AT_CAS_X(S, F) ok = __atomic_compare_exchange_n(q, expected, desired, false, S, F)
AT_CAS(uint16_t)
AT_CAS(uint32_t)
AT_CAS(uint64_t)
AT_RMW(rmw32, uint32_t)
AT_RMW(rmw64, uint64_t)

/* 16-bit elements (cas.b16, f16 and bf16 arithmetic): always the compare-and-swap loop. */
static void rmw16(uint16_t *q, uint32_t grp, int order, isa_atom_fn_t fn, const uint64_t *b,
                  const uint64_t *c, uint64_t *ret)
{
    uint16_t old = __atomic_load_n(q, __ATOMIC_RELAXED), cur;
    do {
        cur = old;
        AT_LANES(grp, { ret[l] = cur; cur = (uint16_t)fn(cur, b[l], c[l]); });
    } while (!at_cas_uint16_t(q, &old, cur, order));
}

/* 128-bit elements: a double-width compare-and-swap (always sequentially consistent,
 * stronger than any order asked for), or a striped lock table where the compiler has
 * none inline. */
#ifdef __GCC_HAVE_SYNC_COMPARE_AND_SWAP_16
static bool cas128(at_u128_t *q, at_u128_t *expected, at_u128_t desired)
{
    at_u128_t prev = __sync_val_compare_and_swap(q, *expected, desired);
    bool ok = prev == *expected;
    *expected = prev;
    return ok;
}
static at_u128_t load128(at_u128_t *q) { return __sync_val_compare_and_swap(q, 0, 0); }
#define AT_LOCK128(q)   ((void)0)
#define AT_UNLOCK128(q) ((void)0)
#else
#define AT_NLOCKS 64
static _Atomic(int) at_locks[AT_NLOCKS];
static _Atomic(int) *lock_of(const void *q) { return &at_locks[((uintptr_t)q >> 4) % AT_NLOCKS]; }
static void at_lock(const void *q)
{
    int z = 0;
    while (!__atomic_compare_exchange_n(lock_of(q), &z, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        z = 0;
}
static void at_unlock(const void *q) { __atomic_store_n(lock_of(q), 0, __ATOMIC_RELEASE); }
#define AT_LOCK128(q)   at_lock(q)
#define AT_UNLOCK128(q) at_unlock(q)
static bool cas128(at_u128_t *q, at_u128_t *expected, at_u128_t desired)
{
    bool ok = memcmp(q, expected, 16) == 0;
    if (ok)
        memcpy(q, &desired, 16);
    else
        memcpy(expected, q, 16);
    return ok;
}
static at_u128_t load128(at_u128_t *q) { at_u128_t v; memcpy(&v, q, 16); return v; }
#endif

/* A 16-byte load and store that no other thread's sees in part (ordered vector accesses,
 * ld_st.c). */
void ex_load16_atomic(void *dst, void *src)
{
    AT_LOCK128(src);
    at_u128_t v = load128((at_u128_t *)src);
    AT_UNLOCK128(src);
    memcpy(dst, &v, 16);
}
void ex_store16_atomic(void *dst, const void *src)
{
    at_u128_t v;
    memcpy(&v, src, 16);
    AT_LOCK128(dst);
    at_u128_t old = load128((at_u128_t *)dst);
    while (!cas128((at_u128_t *)dst, &old, v))
        ;
    AT_UNLOCK128(dst);
}

/* exch (cas false) or cas of 128-bit elements for the lanes of grp, in lane order. */
static void rmw128(at_u128_t *q, uint32_t grp, bool cas, const at_u128_t *b, const at_u128_t *c,
                   at_u128_t *ret)
{
    AT_LOCK128(q);
    at_u128_t old = load128(q), cur;
    do {
        cur = old;
        AT_LANES(grp, {
            ret[l] = cur;
            cur = !cas ? b[l] : cur == b[l] ? c[l] : cur;
        });
    } while (!cas128(q, &old, cur));
    AT_UNLOCK128(q);
}
/*}=====================================================================*/

/*{=====================================================================
 * Addresses
 *====================================================================*/
static inline uint64_t lane_addr(const uint8_t *f, const isa_xinsn_t *x, unsigned l)
{
    if (x->o[4] == ISA_NONE)
        return (uint64_t)x->imm;
    if (x->flags & AT_BASE32)
        return (uint32_t)(ISA_SLOT(const uint32_t, f, x->o[4])[l] + (uint32_t)x->imm);   /* wraps at 32 bits */
    return ISA_SLOT(const uint64_t, f, x->o[4])[l] + (uint64_t)x->imm;
}

static int at_fault(ex_warp_t *w, const isa_xinsn_t *x, unsigned l, uint64_t a, ex_fault_kind_t kind,
                    const char *what)
{
    w->fault_kind = (uint8_t)kind;
    w->fault_lane = (int)l;
    w->fault_addr = a;
    w->fault_what = what;
    w->fault_insn = x;
    return ISA_X_FAULT;
}

/* Each lane's host address (h) and which lanes' are in shared memory (out_shared);
 * ISA_X_FAULT with the fault recorded for a misaligned address, one outside the space,
 * a generic one outside global and shared memory, or a vector's outside global memory.
 * The last two are undefined in the manual, and the H100 runs them without a fault but
 * not as atomics on the thread's memory (docs/execution.md): a fault says so. */
static int at_translate(ex_warp_t *w, uint8_t *f, const isa_xinsn_t *x, uint32_t mask, uint8_t **h,
                        uint32_t *out_shared)
{
    unsigned bytes = AT_EBYTES(x->aux) * AT_VEC(x->aux), sp = AT_SPACE(x->aux);
    uint32_t sh = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t a = lane_addr(f, x, l);
        if (a % bytes)
            return at_fault(w, x, l, a, EX_FAULT_MISALIGNED, "misaligned address");
        isa_space_t s = (isa_space_t)sp;
        if (sp == AT_GENERIC) {
            switch (a & EX_WIN_MASK) {
            case EX_WIN_SHARED: s = ISA_SP_SHARED_CLUSTER; a -= EX_WIN_SHARED; break;   /* any CTA's */
            case EX_WIN_LOCAL:
                return at_fault(w, x, l, a, EX_FAULT_ADDRESS,
                                "atomic operation on a local address (undefined: only global and shared memory have atomics)");
            case EX_WIN_PARAM:
                return at_fault(w, x, l, a, EX_FAULT_ADDRESS, "atomic operation on a parameter address (undefined: only global and shared memory have atomics)");
            case EX_WIN_CONST:
                return at_fault(w, x, l, a, EX_FAULT_ADDRESS, "atomic operation on a constant address (undefined: only global and shared memory have atomics)");
            case EX_WIN_FUNC:
                return at_fault(w, x, l, a, EX_FAULT_ADDRESS, "atomic operation on a function address");
            default: s = ISA_SP_GLOBAL; break;
            }
        }
        h[l] = ex_mem(w, l, s, a, bytes, x);
        if (!h[l])
            return ISA_X_FAULT;
        if (s != ISA_SP_GLOBAL) {
            if (AT_VEC(x->aux) > 1)
                return at_fault(w, x, l, a, EX_FAULT_ADDRESS,
                                "vector atomic operation on a shared address (undefined: only global memory has them)");
            sh |= 1u << l;
        }
    }
    *out_shared = sh;
    return ISA_X_NEXT;
}
/*}=====================================================================*/

/*{=====================================================================
 * Handlers
 *====================================================================*/
static inline uint64_t slot_get(const uint8_t *f, uint32_t slot, unsigned eb, unsigned l)
{
    switch (eb) {
    case 2: return ISA_SLOT(const uint16_t, f, slot)[l];
    case 4: return ISA_SLOT(const uint32_t, f, slot)[l];
    default: return ISA_SLOT(const uint64_t, f, slot)[l];
    }
}
static inline void slot_put(uint8_t *f, uint32_t slot, unsigned eb, unsigned l, uint64_t v)
{
    switch (eb) {
    case 2: ISA_SLOT(uint16_t, f, slot)[l] = (uint16_t)v; break;
    case 4: ISA_SLOT(uint32_t, f, slot)[l] = (uint32_t)v; break;
    default: ISA_SLOT(uint64_t, f, slot)[l] = v; break;
    }
}

static inline uint64_t elem_get(const uint8_t *p, unsigned eb)
{
    uint64_t v = 0;
    memcpy(&v, p, eb);
    return v;
}

/* The element at offset off of each lane of sh in shared memory as the H100 runs the
 * 64-bit operations it has no shared-memory instruction for (ptxas's SASS for sm_90:
 * integer add, and, or, xor, min and max, and f64 add, of 8 bytes): a loop in which each
 * lane still to go reads its element, computes, and tries ATOMS.CAST.SPIN.64, a
 * compare-and-store that succeeds when the element still holds what the lane read.  Of
 * the lanes on one address, only the lowest lane of each half-warp tries in a round, the
 * lower half's first; min and max first let a lane go whose value would not change the
 * element (it returns what it read: ptxas's loop compares before it stores).  So a lane
 * whose operation changes nothing lets the other half-warp's lane through in the same
 * round, and the lanes do not apply in lane order (golden atom_spin64: 384 cases of 32
 * lanes on one and on two addresses; atom_fuzz_*).  f32, f16x2 and bf16x2 adds are such
 * loops over ATOMS.CAST.SPIN too, but there every lane tries in each round, in lane
 * order, which is lane order (measured alike). */
static void shared_spin(uint8_t *const *h, unsigned off, uint32_t sh, bool skip, isa_atom_fn_t fn,
                        const uint64_t *b, const uint64_t *c, uint64_t *ret)
{
    uint64_t rd[ISA_LANES];
    for (uint32_t pend = sh; pend;) {
        AT_LANES(pend, rd[l] = elem_get(h[l] + off, 8));
        if (skip)
            AT_LANES(pend, {
                if (fn(rd[l], b[l], c[l]) == rd[l]) {
                    ret[l] = rd[l];
                    pend &= ~(1u << l);
                }
            });
        /* the lanes that try: per address, the lowest of each half-warp */
        uint32_t tries = 0;
        for (unsigned half = 0; half < 2; half++) {
            uint32_t hm = pend & (half ? 0xffff0000u : 0x0000ffffu);
            while (hm) {
                const uint8_t *p = h[__builtin_ctz(hm)];
                tries |= hm & -hm;
                AT_LANES(hm, if (h[l] == p) hm &= ~(1u << l));
            }
        }
        /* the lower half's tries first (lane order is that) */
        AT_LANES(tries, {
            if (elem_get(h[l] + off, 8) == rd[l]) {
                uint64_t v = fn(rd[l], b[l], c[l]);
                memcpy(h[l] + off, &v, 8);
                ret[l] = rd[l];
                pend &= ~(1u << l);
            }
        });
    }
}

/* The element at q of each lane of sh in shared memory, plain, in lane order. */
static void shared_rmw(uint8_t *const *h, unsigned off, uint32_t sh, unsigned eb, unsigned kind,
                       isa_atom_fn_t fn, const uint64_t *b, const uint64_t *c, uint64_t *ret)
{
    if (eb == 4 && kind == AK_ADD) {
        AT_LANES(sh, {
            uint32_t v;
            memcpy(&v, h[l] + off, 4);
            ret[l] = v;
            v += (uint32_t)b[l];
            memcpy(h[l] + off, &v, 4);
        });
        return;
    }
    AT_LANES(sh, {
        uint64_t v = elem_get(h[l] + off, eb);
        ret[l] = v;
        v = fn(v, b[l], c[l]);
        memcpy(h[l] + off, &v, eb);
    });
}

/* The element at offset off of each lane of gl in global memory: one host atomic per
 * distinct address, lanes grouped by address. */
static void global_rmw(uint8_t *const *h, unsigned off, uint32_t gl, unsigned eb, unsigned kind, int order,
                       isa_atom_fn_t fn, const uint64_t *b, const uint64_t *c, uint64_t *ret)
{
    /* Addresses increasing with the lane (a warp over an array) are all distinct: each
     * lane is its own group, found without comparing every pair. */
    uintptr_t prev = 0;
    bool distinct = true;
    AT_LANES(gl, distinct &= (uintptr_t)h[l] > prev, prev = (uintptr_t)h[l]);
    while (gl) {
        uint8_t *p = h[__builtin_ctz(gl)];
        uint32_t grp = gl & -gl;
        if (!distinct)
            AT_LANES(gl, grp |= (uint32_t)(h[l] == p) << l);
        gl &= ~grp;
        void *q = p + off;
        switch (eb) {
        case 2: rmw16(q, grp, order, fn, b, c, ret); break;
        case 4: rmw32(q, grp, kind, order, fn, b, c, ret); break;
        default: rmw64(q, grp, kind, order, fn, b, c, ret); break;
        }
    }
}

/* Every form but the 128-bit one: elements of 2, 4 or 8 bytes, scalar or vector. */
static int atom_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    unsigned eb = AT_EBYTES(x->aux), vec = AT_VEC(x->aux), kind = AT_KIND(x->aux);
    uint8_t *h[ISA_LANES];
    uint64_t hv[ISA_LANES];
    uint32_t sh = 0;
    if (!(x->flags & (AT_BASE32 | AT_SHAREDSP)) && x->o[4] != ISA_NONE &&
        ex_warp_global_ok(w, f, x, mask, eb * vec, hv)) {
        /* Every lane's address lies in one registered global range. */
        AT_LANES(mask, h[l] = (uint8_t *)(uintptr_t)hv[l]);
    } else if (at_translate(w, f, x, mask, h, &sh) != ISA_X_NEXT) {
        return ISA_X_FAULT;
    }
    const ex_func_t *fn = (x->flags & AT_VOPS) ? ex_top(w)->fn : NULL;
    uint64_t b[8][ISA_LANES], cv[ISA_LANES], ret[8][ISA_LANES];
    /* Every operand is read before any result is written (d may be b or c). */
    for (unsigned k = 0; k < vec; k++) {
        uint32_t bs = fn ? fn->opd_slot[x->o[3] + k] : x->o[1];
        AT_LANES(mask, b[k][l] = slot_get(f, bs, eb, l));
    }
    const uint64_t *c = b[0];          /* read only by cas */
    if (x->o[2] != ISA_NONE) {
        AT_LANES(mask, cv[l] = slot_get(f, x->o[2], eb, l));
        c = cv;
    }
    if ((mask & ~sh) && (x->o[2] != ISA_NONE || kind == AK_EXCH))
        w->polls++;                    /* a lock's compare-and-swap or exchange */
    for (unsigned k = 0; k < vec; k++) {
        if (sh && (x->flags & AT_SPIN))
            shared_spin(h, k * eb, sh, (x->flags & AT_SKIP) != 0, AT_FN_S(x->aux), b[k], c, ret[k]);
        else if (sh)
            shared_rmw(h, k * eb, sh, eb, kind, AT_FN_S(x->aux), b[k], c, ret[k]);
        if (mask & ~sh)
            global_rmw(h, k * eb, mask & ~sh, eb, kind, AT_ORDER(x->aux), AT_FN_G(x->aux), b[k], c, ret[k]);
    }
    bool used = false;
    for (unsigned k = 0; k < vec; k++) {
        uint32_t ds = fn ? (x->target == ISA_NONE ? ISA_NONE : fn->opd_slot[x->target + k]) : x->o[0];
        used |= ds != ISA_NONE;
        if (ds != ISA_NONE)
            AT_LANES(mask, slot_put(f, ds, eb, l, ret[k][l]));
    }
    /* An atomic that reads global memory and leaves it as it was (atomicAdd(p, 0),
     * atomicOr(p, 0), a max below the value...) is a poll too: a flag read in a loop. */
    if (used && (mask & ~sh) && x->o[2] == ISA_NONE && kind != AK_EXCH) {
        uint64_t em = eb >= 8 ? UINT64_MAX : (1ull << (eb * 8)) - 1, diff = 0;
        isa_atom_fn_t g = AT_FN_G(x->aux);
        for (unsigned k = 0; k < vec; k++)
            AT_LANES(mask & ~sh, {
                uint64_t v = b[k][l] & em;
                diff |= kind == AK_AND ? v ^ em : kind == AK_FN ? (g(ret[k][l], b[k][l], 0) ^ ret[k][l]) & em : v;
            });
        if (!diff)
            w->polls++;
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t atom_d[1] = { { atom_f, { 0 }, ISA_HON_SINK } };

/* The common case: a 4-byte integer add in global memory, every lane's address in one
 * registered range; a warp whose lanes all name one address (a counter) costs one host
 * atomic and no grouping. */
static int atom_add32_global_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint64_t a[ISA_LANES];
    if (!ex_warp_global_ok(w, f, x, mask, 4, a))
        return atom_f(wv, f, x, mask);
    const uint32_t *b = ISA_SLOT(const uint32_t, f, x->o[1]);
    uint64_t a0 = a[__builtin_ctz(mask)], diff = 0;
    uint32_t sum = 0, any = 0;
    if (mask == ISA_FULL) {
        for (unsigned l = 0; l < ISA_LANES; l++) {
            diff |= a[l] ^ a0;
            sum += b[l];
            any |= b[l];
        }
    } else {
        AT_LANES(mask, diff |= a[l] ^ a0, sum += b[l], any |= b[l]);
    }
    if (diff)
        return atom_f(wv, f, x, mask);
    if (!any && x->o[0] != ISA_NONE)
        w->polls++;                    /* atomicAdd(flag, 0): a read of a flag (atom_f) */
    uint32_t *q = (uint32_t *)(uintptr_t)a0, old;
    switch (AT_ORDER(x->aux)) {
    case __ATOMIC_ACQUIRE: old = __atomic_fetch_add(q, sum, __ATOMIC_ACQUIRE); break;
    case __ATOMIC_RELEASE: old = __atomic_fetch_add(q, sum, __ATOMIC_RELEASE); break;
    case __ATOMIC_ACQ_REL: old = __atomic_fetch_add(q, sum, __ATOMIC_ACQ_REL); break;
    default:               old = __atomic_fetch_add(q, sum, __ATOMIC_RELAXED); break;
    }
    if (x->o[0] != ISA_NONE) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        AT_LANES(mask, { uint32_t v = b[l]; d[l] = old; old += v; });
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t atom_add32_global_d[1] = { { atom_add32_global_f, { 0 }, ISA_HON_SINK } };

/* A 4-byte operation on shared memory through a 32- or 64-bit address (a register, or a
 * variable's symbol): the warp's addresses checked together, then the lanes one after
 * the other. */
static int atom_shared32_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    ex_cta_t *c = w->cta;
    uint32_t off[ISA_LANES], hi = 0, bits = 0;   /* see ld_st.c's shared_addrs */
    uint64_t high = 0;
    if (x->flags & AT_BASE32) {
        const uint32_t *base = ISA_SLOT(const uint32_t, f, x->o[4]);
        uint32_t imm = (uint32_t)x->imm - c->shared_base;
        AT_LANES(mask, {
            uint32_t a = base[l] + imm;
            off[l] = a;
            hi = a > hi ? a : hi;
            bits |= a;
        });
    } else {
        const uint64_t *base = ISA_SLOT(const uint64_t, f, x->o[4]);
        AT_LANES(mask, {
            uint64_t a64 = base[l] + (uint64_t)x->imm;
            uint32_t a = (uint32_t)a64 - c->shared_base;
            high |= a64 >> 32;
            off[l] = a;
            hi = a > hi ? a : hi;
            bits |= a;
        });
    }
    if (high || (bits & 3) || (uint64_t)hi + 4 > c->shared_size)
        return atom_f(wv, f, x, mask);
    const uint32_t *b = ISA_SLOT(const uint32_t, f, x->o[1]);
    uint32_t *d = x->o[0] != ISA_NONE ? ISA_SLOT(uint32_t, f, x->o[0]) : NULL;
    uint8_t *sm = c->shared;
    if (AT_KIND(x->aux) == AK_ADD) {
        AT_LANES(mask, {
            uint32_t v, add = b[l];
            memcpy(&v, sm + off[l], 4);
            if (d)
                d[l] = v;
            v += add;
            memcpy(sm + off[l], &v, 4);
        });
        return ISA_X_NEXT;
    }
    isa_atom_fn_t fn = AT_FN_S(x->aux);
    const uint32_t *cc = x->o[2] != ISA_NONE ? ISA_SLOT(const uint32_t, f, x->o[2]) : NULL;
    AT_LANES(mask, {
        uint32_t v, bv = b[l], cv = cc ? cc[l] : 0;
        memcpy(&v, sm + off[l], 4);
        if (d)
            d[l] = v;
        v = (uint32_t)fn(v, bv, cv);
        memcpy(sm + off[l], &v, 4);
    });
    return ISA_X_NEXT;
}
static const isa_xdesc_t atom_shared32_d[1] = { { atom_shared32_f, { 0 }, ISA_HON_SINK } };

/* exch.b128 and cas.b128: whole 128-bit registers. */
static int atom128_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    uint8_t *h[ISA_LANES];
    uint32_t sh;
    if (at_translate(w, f, x, mask, h, &sh) != ISA_X_NEXT)
        return ISA_X_FAULT;
    bool cas = x->o[2] != ISA_NONE;
    at_u128_t b[ISA_LANES], c[ISA_LANES], ret[ISA_LANES];
    AT_LANES(mask, {
        memcpy(&b[l], f + x->o[1] + l * 16, 16);
        if (cas)
            memcpy(&c[l], f + x->o[2] + l * 16, 16);
    });
    AT_LANES(sh, {
        at_u128_t v;
        memcpy(&v, h[l], 16);
        ret[l] = v;
        v = !cas ? b[l] : v == b[l] ? c[l] : v;
        memcpy(h[l], &v, 16);
    });
    for (uint32_t gl = mask & ~sh; gl;) {
        uint8_t *p = h[__builtin_ctz(gl)];
        uint32_t grp = 0;
        AT_LANES(gl, grp |= (uint32_t)(h[l] == p) << l);
        gl &= ~grp;
        rmw128((at_u128_t *)(void *)p, grp, cas, b, c, ret);
    }
    if (x->o[0] != ISA_NONE)
        AT_LANES(mask, memcpy(f + x->o[0] + l * 16, &ret[l], 16));
    return ISA_X_NEXT;
}
static const isa_xdesc_t atom128_d[1] = { { atom128_f, { 0 }, ISA_HON_SINK } };
/*}=====================================================================*/

/*{=====================================================================
 * Selection
 *====================================================================*/
/* The frame slot of data operand o (a register of exactly eb bytes per lane, or a
 * constant), ISA_NONE for any other form. */
static uint32_t data_slot(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned eb, bool dest)
{
    if (o->kind == ISA_OPD_REG) {
        unsigned w;
        uint32_t s = ex_reg_operand(f, o, &w);
        return s != ISA_NONE && w == eb ? s : ISA_NONE;
    }
    if (dest || eb == 16 || (o->kind != ISA_OPD_IMM && o->kind != ISA_OPD_F32 && o->kind != ISA_OPD_F64))
        return ISA_NONE;
    return ex_pd_operand(pd, o, eb);
}

/* A vector operand's element slots into f->opd_slot (from its first pool index, which
 * *out_first receives). */
static bool vec_slots(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned vec, unsigned eb, bool dest,
                      uint32_t *out_first)
{
    if (o->kind != ISA_OPD_VEC || o->count != vec)
        return false;
    for (unsigned k = 0; k < vec; k++) {
        const isa_operand_t *e = &f->ir->opds[o->u.first + k];
        uint32_t s = data_slot(pd, f, e, eb, dest);
        if (s == ISA_NONE)
            return false;
        f->opd_slot[o->u.first + k] = s;
    }
    *out_first = o->u.first;
    return true;
}

static bool select_atom(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    bool red = in->op == ISA_OP_RED;
    if ((in->op != ISA_OP_ATOM && !red) || in->ntypes != 1)
        return false;
    const isa_func_t *fn = f->ir;
    isa_type_t t = (isa_type_t)in->types[0];
    int op = isa_instr_mod(in, ISA_G_ATOMOP), sem = isa_instr_mod(in, ISA_G_SEM);
    int scope = isa_instr_mod(in, ISA_G_SCOPE), ftz = isa_instr_mod(in, ISA_G_FTZ);
    int vm = isa_instr_mod(in, ISA_G_VEC), spi = isa_instr_space(in, 0);
    bool hint = isa_instr_has(in, ISA_M_L2_CACHE_HINT);
    /* Every suffix must be one this handler implements: nothing is ignored. */
    unsigned known = 1u + (op >= 0) + (sem >= 0) + (scope >= 0) + (ftz >= 0) + (vm >= 0) + (spi >= 0) + hint;
    if (in->nsfx != known || op < 0 || (ftz >= 0 && ftz != ISA_M_NOFTZ))
        return false;
    int order;
    switch (sem) {
    case -1: case ISA_M_RELAXED: order = __ATOMIC_RELAXED; break;
    case ISA_M_ACQUIRE: order = __ATOMIC_ACQUIRE; break;
    case ISA_M_RELEASE: order = __ATOMIC_RELEASE; break;
    case ISA_M_ACQ_REL: order = __ATOMIC_ACQ_REL; break;
    default: return false;
    }
    if (scope >= 0 && scope != ISA_M_CTA && scope != ISA_M_CLUSTER && scope != ISA_M_GPU && scope != ISA_M_SYS)
        return false;
    isa_space_t sp = spi < 0 ? ISA_SP_NONE : (isa_space_t)spi;
    if (sp != ISA_SP_NONE && isa_spaces[sp].window != ISA_SP_GLOBAL && isa_spaces[sp].window != ISA_SP_SHARED)
        return false;
    unsigned vec = vm < 0 ? 1 : vm == ISA_M_V2 ? 2 : vm == ISA_M_V4 ? 4 : vm == ISA_M_V8 ? 8 : 0;
    unsigned eb = isa_types[t].bits / 8;
    if (vec == 0 || (eb != 2 && eb != 4 && eb != 8 && eb != 16) || (eb == 16 && vec > 1))
        return false;
    /* Operands: d (atom), [a], b, c (cas), the cache policy (a hint: it changes no result). */
    unsigned nd = red ? 0 : 1, ns = op == ISA_M_CAS ? 2 : 1;
    if (in->nopd != nd + 1 + ns + hint)
        return false;
    const isa_operand_t *o = &fn->opds[in->opd];
    const isa_operand_t *d = red ? NULL : &o[0], *addr = &o[nd], *b = &o[nd + 1];
    const isa_operand_t *c = ns == 2 ? &o[nd + 2] : NULL;
    if (hint) {
        const isa_operand_t *pol = &o[nd + 1 + ns];
        if (pol->kind != ISA_OPD_REG || ex_reg_width(f, pol) != 8)
            return false;
    }
    /* Address: a register or a variable, plus an offset. */
    if (addr->kind != ISA_OPD_ADDR || (addr->flags & ISA_OPDF_ADDRLIST))
        return false;
    x->imm = addr->imm;
    x->o[4] = ISA_NONE;
    if (addr->base == ISA_OPD_REG) {
        unsigned bw;
        x->o[4] = ex_reg_operand(f, addr, &bw);
        if (x->o[4] == ISA_NONE || (bw != 4 && bw != 8))
            return false;
        if (bw == 4)
            x->flags |= AT_BASE32;
    } else if (addr->base == ISA_OPD_SYM) {
        const isa_var_t *v = (addr->flags & ISA_OPDF_MODSYM) ? &f->mod->vars[addr->u.sym] : &fn->vars[addr->u.sym];
        isa_space_t vw = isa_spaces[v->space].window;
        if (vw != ISA_SP_GLOBAL && vw != ISA_SP_SHARED)
            return false;
        isa_operand_t s = *addr;
        s.kind = ISA_OPD_SYM;
        s.imm = 0;
        x->o[4] = ex_pd_operand(pd, &s, 8);
        if (x->o[4] == ISA_NONE)
            return false;
        if (sp == ISA_SP_NONE)
            sp = vw;            /* a generic access to a variable is one in its space */
    } else if (addr->base != ISA_OPD_IMM) {
        return false;
    }
    /* The operation. */
    unsigned kind = AK_FN, gfn = 0, sfn = 0;
    if (eb == 16) {
        if (op != ISA_M_EXCH && op != ISA_M_CAS)
            return false;
    } else {
        gfn = isa_sem_atom((unsigned)op, t, true);
        sfn = isa_sem_atom((unsigned)op, t, false);
        if (!gfn || !sfn)
            return false;
        bool integer = isa_types[t].cls != ISA_TC_FLOAT && isa_types[t].cls != ISA_TC_PACKED;
        if (op == ISA_M_ADD && integer)
            kind = AK_ADD;
        else if (op == ISA_M_AND)
            kind = AK_AND;
        else if (op == ISA_M_OR)
            kind = AK_OR;
        else if (op == ISA_M_XOR)
            kind = AK_XOR;
        else if (op == ISA_M_EXCH)
            kind = AK_EXCH;
    }
    /* Data operands. */
    x->o[0] = x->o[1] = x->o[2] = x->o[3] = ISA_NONE;
    x->target = ISA_NONE;
    if (vec > 1) {
        if (c || (d && d->kind != ISA_OPD_SINK && !vec_slots(pd, f, d, vec, eb, true, &x->target)) ||
            !vec_slots(pd, f, b, vec, eb, false, &x->o[3]))
            return false;
        x->flags |= AT_VOPS;
    } else {
        if (d && d->kind != ISA_OPD_SINK && (x->o[0] = data_slot(pd, f, d, eb, true)) == ISA_NONE)
            return false;
        if ((x->o[1] = data_slot(pd, f, b, eb, false)) == ISA_NONE)
            return false;
        if (c && (x->o[2] = data_slot(pd, f, c, eb, false)) == ISA_NONE)
            return false;
    }
    x->aux = eb | (uint64_t)vec << 8 | (uint64_t)(sp == ISA_SP_NONE ? AT_GENERIC : (unsigned)sp) << 16 |
             (uint64_t)kind << 24 | (uint64_t)order << 28 | (uint64_t)gfn << 32 | (uint64_t)sfn << 40;
    x->desc = eb == 16 ? atom128_d : atom_d;
    bool shared = sp != ISA_SP_NONE && isa_spaces[sp].window == ISA_SP_SHARED;
    if (shared)
        x->flags |= AT_SHAREDSP;
    if (eb == 4 && vec == 1 && kind == AK_ADD && !shared && !(x->flags & AT_BASE32) && x->o[4] != ISA_NONE)
        x->desc = atom_add32_global_d;
    /* What ptxas makes a compare-and-swap loop in shared memory (shared_spin).  Not a
     * generic 64-bit integer add: the H100's generic ATOM adds in shared memory itself,
     * in lane order (atom_fuzz_372, _435), where .shared and the generic and, or, xor,
     * min, max and f64 add loop. */
    bool generic_add = op == ISA_M_ADD && sp == ISA_SP_NONE && isa_types[t].cls != ISA_TC_FLOAT;
    if (eb == 8 && op != ISA_M_EXCH && op != ISA_M_CAS && !generic_add) {
        x->flags |= AT_SPIN;
        if (op == ISA_M_MIN || op == ISA_M_MAX)
            x->flags |= AT_SKIP;
    }
    if (eb == 4 && vec == 1 && shared && x->o[4] != ISA_NONE && !(x->flags & AT_SPIN))
        x->desc = atom_shared32_d;
    return true;
}

bool ex_select_atom(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    if (select_atom(pd, f, in, x))
        return true;
    x->flags = 0;
    x->aux = 0;
    x->imm = 0;
    x->target = 0;
    return false;
}
/*}=====================================================================*/
