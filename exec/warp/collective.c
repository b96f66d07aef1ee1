/* collective.c: the warp collectives: shfl, vote, match, redux, elect (with and without
 * .sync) and activemask.  A .sync collective runs at once when every live lane of its
 * member mask executes it together (the converged case); otherwise its handler returns
 * ISA_X_COLLECTIVE and the waiter (exec/sync/wait.c) holds the lanes until the others
 * arrive, from any instruction with the same qualifiers and mask, and then calls
 * ex_coll_exec on all of them.  docs/execution.md describes the rules and what the H100
 * does where the manual leaves a result undefined. */
#include "exec/internal.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*{=====================================================================
 * The instruction record.  o[0] d (ISA_NONE: none or the sink), o[4] the p of d|p
 * (ISA_NONE: none), o[1] a, o[2] b, o[3] c, o[5] the member mask (ISA_NONE: the form
 * without .sync, whose members are the lanes executing it); flags bit 0: !a (vote);
 * width: bytes of a (match.b64: 8).  aux holds the qualifiers (below): lanes rendezvous
 * only with lanes at an instruction of the same aux and the same member mask.
 *====================================================================*/
enum { K_SHFL, K_VOTE, K_MATCH, K_REDUX, K_ELECT };
enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };
enum { V_ALL, V_ANY, V_UNI, V_BALLOT };
enum { MA_ANY, MA_ALL };
enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };
enum { T_U32, T_S32, T_B32, T_F32, T_B64 };
#define AUX(kind, mode, type) ((uint64_t)(kind) | (uint64_t)(mode) << 4 | (uint64_t)(type) << 8)
#define AUX_KIND(a) ((unsigned)(a) & 15)
#define AUX_MODE(a) ((unsigned)((a) >> 4) & 15)
#define AUX_TYPE(a) ((unsigned)((a) >> 8) & 15)
#define AUX_ABS  (1u << 12)
#define AUX_NAN  (1u << 13)
/*}=====================================================================*/

/*{=====================================================================
 * Operands of the lanes of one execution: either every lane at instruction x with frame
 * f (xs NULL), or each lane l at xs[l] with frame fs[l] (lanes that met from different
 * instructions or activations).
 *====================================================================*/
typedef struct {
    const ex_insn_t *x;
    uint8_t *f;
    const ex_insn_t *const *xs;
    uint8_t *const *fs;
} who_t;

static inline const ex_insn_t *X(const who_t *h, unsigned l) { return h->xs ? h->xs[l] : h->x; }
static inline uint8_t *F(const who_t *h, unsigned l) { return h->fs ? h->fs[l] : h->f; }

/* Operand k of lane l: 32 bits, a (of x->width bytes), a predicate ({!}a of vote). */
static inline uint32_t rd32(const who_t *h, unsigned l, unsigned k)
{
    return ISA_SLOT(const uint32_t, F(h, l), X(h, l)->o[k])[l];
}
static inline uint64_t rdv(const who_t *h, unsigned l, unsigned k)
{
    const ex_insn_t *x = X(h, l);
    return x->width == 8 ? ISA_SLOT(const uint64_t, F(h, l), x->o[k])[l]
                         : ISA_SLOT(const uint32_t, F(h, l), x->o[k])[l];
}
static inline bool rdp(const who_t *h, unsigned l, unsigned k)
{
    const ex_insn_t *x = X(h, l);
    uint32_t v = *ISA_SLOT(const uint32_t, F(h, l), x->o[k]);
    return ((v >> l) & 1) ^ (x->flags & 1);
}
/* Results: d (32 bits) and the predicate p of d|p (or d itself for vote's predicates). */
static inline void wr32(const who_t *h, unsigned l, uint32_t v)
{
    const ex_insn_t *x = X(h, l);
    if (x->o[0] != ISA_NONE)
        ISA_SLOT(uint32_t, F(h, l), x->o[0])[l] = v;
}
static inline void wrp(const who_t *h, unsigned l, unsigned k, bool v)
{
    const ex_insn_t *x = X(h, l);
    if (x->o[k] == ISA_NONE)
        return;
    uint32_t *p = ISA_SLOT(uint32_t, F(h, l), x->o[k]);
    *p = v ? *p | (1u << l) : *p & ~(1u << l);
}
/*}=====================================================================*/

/*{=====================================================================
 * shfl: the source lane of lane l (PTX manual: bits 4:0 of b are the lane or offset,
 * bits 4:0 of c the clamp value and bits 12:8 of c the segment mask); *pv says whether
 * it is in range (otherwise the lane keeps its own value).
 *====================================================================*/
static inline unsigned shfl_src(unsigned mode, unsigned lane, uint32_t b, uint32_t c, bool *pv)
{
    uint32_t bval = b & 31, cval = c & 31, seg = (c >> 8) & 31;
    uint32_t maxl = (lane & seg) | (cval & ~seg), minl = lane & seg;
    int j;
    bool p;
    switch (mode) {
    case SH_UP:   j = (int)lane - (int)bval; p = j >= (int)maxl; break;
    case SH_DOWN: j = (int)(lane + bval);    p = j <= (int)maxl; break;
    case SH_BFLY: j = (int)(lane ^ bval);    p = j <= (int)maxl; break;
    default:      j = (int)(minl | (bval & ~seg)); p = j <= (int)maxl; break;
    }
    *pv = p;
    return p ? (unsigned)j : lane;
}

/* A converged shuffle: every lane of lanes at one instruction and frame. */
static inline void shfl_one(unsigned mode, uint8_t *f, const ex_insn_t *x, uint32_t lanes)
{
    const uint32_t *a = ISA_SLOT(const uint32_t, f, x->o[1]);
    const uint32_t *b = ISA_SLOT(const uint32_t, f, x->o[2]);
    const uint32_t *c = ISA_SLOT(const uint32_t, f, x->o[3]);
    uint32_t v[ISA_LANES], pv = 0;
    ISA_LANE_LOOP(lanes, {
        bool p;
        unsigned j = shfl_src(mode, l, b[l], c[l], &p);
        v[l] = (lanes >> j) & 1 ? a[j] : 0;
        pv |= (uint32_t)p << l;
    });
    if (x->o[0] != ISA_NONE) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        ISA_LANE_LOOP(lanes, { d[l] = v[l]; });
    }
    if (x->o[4] != ISA_NONE) {
        uint32_t *p = ISA_SLOT(uint32_t, f, x->o[4]);
        *p = (*p & ~lanes) | (pv & lanes);
    }
}

static void shfl_exec(const who_t *h, uint32_t lanes, unsigned mode)
{
    if (!h->xs) {
        switch (mode) {
        case SH_UP:   shfl_one(SH_UP, h->f, h->x, lanes); return;
        case SH_DOWN: shfl_one(SH_DOWN, h->f, h->x, lanes); return;
        case SH_BFLY: shfl_one(SH_BFLY, h->f, h->x, lanes); return;
        default:      shfl_one(SH_IDX, h->f, h->x, lanes); return;
        }
    }
    uint32_t v[ISA_LANES], pv = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        bool p;
        unsigned j = shfl_src(mode, l, rd32(h, l, 2), rd32(h, l, 3), &p);
        /* A source lane that takes part gives its own instruction's a; another one (not
         * executing it, exited, or no thread) gives 0, as on the H100. */
        v[l] = (lanes >> j) & 1 ? rd32(h, j, 1) : 0;
        pv |= (uint32_t)p << l;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        wr32(h, l, v[l]);
        wrp(h, l, 4, (pv >> l) & 1);
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * vote, match, elect
 *====================================================================*/
static void vote_exec(const who_t *h, uint32_t lanes, unsigned mode)
{
    uint32_t pv = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        pv |= (uint32_t)rdp(h, l, 1) << l;
    }
    pv &= lanes;
    bool r = mode == V_ALL ? pv == lanes : mode == V_ANY ? pv != 0 : pv == 0 || pv == lanes;
    if (mode == V_BALLOT && !h->xs) {
        uint32_t *d = ISA_SLOT(uint32_t, h->f, h->x->o[0]);
        ISA_LANE_LOOP(lanes, { d[l] = pv; });
        return;
    }
    if (!h->xs) {
        uint32_t *d = ISA_SLOT(uint32_t, h->f, h->x->o[0]);
        *d = (*d & ~lanes) | (r ? lanes : 0);
        return;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (mode == V_BALLOT)
            wr32(h, l, pv);
        else
            wrp(h, l, 0, r);
    }
}

static void match_exec(const who_t *h, uint32_t lanes, unsigned mode)
{
    uint64_t v[ISA_LANES];
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        v[l] = rdv(h, l, 1);
    }
    unsigned l0 = (unsigned)__builtin_ctz(lanes);
    uint32_t same0 = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned k = (unsigned)__builtin_ctz(m);
        same0 |= (uint32_t)(v[k] == v[l0]) << k;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (mode == MA_ALL) {
            wr32(h, l, same0 == lanes ? lanes : 0);
            wrp(h, l, 4, same0 == lanes);
            continue;
        }
        uint32_t same = 0;
        for (uint32_t n = lanes; n; n &= n - 1) {
            unsigned k = (unsigned)__builtin_ctz(n);
            same |= (uint32_t)(v[k] == v[l]) << k;
        }
        wr32(h, l, same);
    }
}

/* elect.sync: the lowest lane taking part leads; d is its lane number, p true there. */
static void elect_exec(const who_t *h, uint32_t lanes)
{
    unsigned lead = (unsigned)__builtin_ctz(lanes);
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        wr32(h, l, lead);
        wrp(h, l, 4, l == lead);
    }
}
/*}=====================================================================*/

/*{=====================================================================
 * redux.  f32 min/max (PTX manual): +0 is greater than -0; .abs takes the inputs'
 * absolute values; without .NaN the NaN inputs are ignored (all NaN: the canonical NaN),
 * with .NaN any NaN input gives the canonical NaN.
 *====================================================================*/
#define CANON_NAN 0x7fffffffu

static uint32_t redux_f32(const uint32_t *v, uint32_t lanes, bool max, bool absv, bool nan)
{
    bool have = false, sawnan = false;
    uint32_t best = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t u = v[__builtin_ctz(m)];
        if (absv)
            u &= 0x7fffffffu;
        if ((u & 0x7fffffffu) > 0x7f800000u) {
            sawnan = true;
            continue;
        }
        if (!have) {
            best = u;
            have = true;
            continue;
        }
        /* Order of IEEE values with -0 below +0: compare sign-magnitude as integers. */
        int32_t ku = (u >> 31) ? (int32_t)~(u & 0x7fffffffu) : (int32_t)u;
        int32_t kb = (best >> 31) ? (int32_t)~(best & 0x7fffffffu) : (int32_t)best;
        if (max ? ku > kb : ku < kb)
            best = u;
    }
    if ((nan && sawnan) || !have)
        return CANON_NAN;
    return best;
}

static void redux_exec(const who_t *h, uint32_t lanes, uint64_t aux)
{
    uint32_t v[ISA_LANES] = { 0 };
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        v[l] = rd32(h, l, 1);
    }
    unsigned op = AUX_MODE(aux), t = AUX_TYPE(aux);
    uint32_t r;
    if (t == T_F32) {
        r = redux_f32(v, lanes, op == R_MAX, aux & AUX_ABS, aux & AUX_NAN);
    } else {
        unsigned l0 = (unsigned)__builtin_ctz(lanes);
        r = op == R_ADD || op == R_XOR ? 0 : v[l0];
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint32_t u = v[__builtin_ctz(m)];
            switch (op) {
            case R_ADD: r += u; break;
            case R_AND: r &= u; break;
            case R_OR:  r |= u; break;
            case R_XOR: r ^= u; break;
            case R_MIN: r = t == T_S32 ? ((int32_t)u < (int32_t)r ? u : r) : (u < r ? u : r); break;
            default:    r = t == T_S32 ? ((int32_t)u > (int32_t)r ? u : r) : (u > r ? u : r); break;
            }
        }
    }
    if (!h->xs) {
        uint32_t *d = ISA_SLOT(uint32_t, h->f, h->x->o[0]);
        ISA_LANE_LOOP(lanes, { d[l] = r; });
        return;
    }
    for (uint32_t m = lanes; m; m &= m - 1)
        wr32(h, (unsigned)__builtin_ctz(m), r);
}
/*}=====================================================================*/

/*{=====================================================================
 * Execution and the handlers
 *====================================================================*/
static void coll_run(const who_t *h, uint32_t lanes)
{
    uint64_t aux = X(h, (unsigned)__builtin_ctz(lanes))->aux;
    switch (AUX_KIND(aux)) {
    case K_SHFL:  shfl_exec(h, lanes, AUX_MODE(aux)); break;
    case K_VOTE:  vote_exec(h, lanes, AUX_MODE(aux)); break;
    case K_MATCH: match_exec(h, lanes, AUX_MODE(aux)); break;
    case K_REDUX: redux_exec(h, lanes, aux); break;
    default:      elect_exec(h, lanes); break;
    }
}

void ex_coll_exec(ex_warp_t *w, uint32_t lanes, const ex_insn_t *const *xs, uint8_t *const *fs)
{
    (void)w;
    who_t h = { NULL, NULL, xs, fs };
    coll_run(&h, lanes);
}

/* Every collective: the form without .sync exchanges among the lanes executing it; a
 * .sync one runs at once when every live lane of its member mask is here with the same
 * mask, and otherwise waits (the waiter completes it). */
ISA_HOT static int coll_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    ex_warp_t *w = wv;
    who_t h = { x, f, NULL, NULL };
    if (x->o[5] != ISA_NONE) {
        const uint32_t *mm = ISA_SLOT(const uint32_t, f, x->o[5]);
        uint32_t m0 = mm[__builtin_ctz(mask)], diff = 0, self = 0;
        ISA_LANE_LOOP(mask, { diff |= mm[l] ^ m0; self |= (mm[l] >> l & 1u) << l; });
        /* elect.sync by a lane outside its member mask: the H100 stops the kernel
         * (measured: CUDA_ERROR_ILLEGAL_INSTRUCTION); so does this. */
        if (AUX_KIND(x->aux) == K_ELECT && self != mask) {
            ex_set_fault(w, x, mask & ~self, "illegal instruction: elect.sync executed by a lane outside its "
                         "member mask (the H100 stops the kernel)");
            return ISA_X_FAULT;
        }
        uint32_t out = ex_mask_outcasts(mm, mask);
        if (out) {
            snprintf(w->fault_buf, sizeof w->fault_buf, "illegal instruction: lane %u is not in its member "
                     "mask 0x%08x, and the lanes' masks differ (the H100 stops the kernel)",
                     (unsigned)__builtin_ctz(out), mm[__builtin_ctz(out)]);
            ex_set_fault(w, x, out, w->fault_buf);
            return ISA_X_FAULT;
        }
        /* Other lanes waiting (at a collective, perhaps this one with this mask, from
         * outside the mask): the waiter sorts out who meets whom. */
        if (diff || (m0 & w->alive & ~mask) || w->waiting)
            return ISA_X_COLLECTIVE;
    }
    coll_run(&h, mask);
    return ISA_X_NEXT;
}
static const isa_xdesc_t coll_d[1] = { { coll_f, { 0 }, 0 } };
static const isa_xdesc_t coll_dual_sink_d[1] = { { coll_f, { 0 }, ISA_HON_DUAL | ISA_HON_SINK } };
static const isa_xdesc_t coll_not_d[1] = { { coll_f, { 0 }, ISA_OPDF_NEG } };
static const isa_xdesc_t shfl_d[1] = { { coll_f, { 0 }, ISA_HON_DUAL } };

/*{=====================================================================
 * shfl.sync with constant b and c and the full mask, over a whole converged warp: the hot
 * path of warp reductions and scans.  Pre-decoding works out which lane each lane reads
 * and recognises the four patterns nvcc's shuffles make (lane ^ k; lane + k, clamped;
 * lane - k, clamped; one lane for all); aux2 (x->target) holds k, x->imm the predicate
 * outputs.  Other lane masks go the general way.
 *====================================================================*/
enum { SP_XOR, SP_DOWN, SP_UP, SP_BCAST, SP_NONE };

static inline void shfl_pred_const(uint8_t *f, const isa_xinsn_t *x)
{
    if (x->o[4] != ISA_NONE)
        *ISA_SLOT(uint32_t, f, x->o[4]) = (uint32_t)x->imm;
}

/* d[l] = a[l ^ k] over 32 lanes: eight 4-lane blocks, each from block q ^ (k >> 2), its
 * lanes permuted by k & 3 (one handler for each, SHUF its _mm_shuffle_epi32 pattern). */
#if defined(__SSE2__)
#define SHFL_XOR(NAME, SHUF)                                                             \
    static int NAME(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)           \
    {                                                                                    \
        if (mask != ISA_FULL)                                                            \
            return coll_f(wv, f, x, mask);                                               \
        const uint32_t *a = ISA_SLOT(const uint32_t, f, x->o[1]);                        \
        unsigned qk = (x->target >> 2) & 7;                                              \
        __m128i v[8];                                                                    \
        for (unsigned q = 0; q < 8; q++) {                                               \
            v[q] = _mm_loadu_si128((const __m128i *)(const void *)(a + 4 * (q ^ qk)));    \
            if (SHUF != 0xE4)                                                            \
                v[q] = _mm_shuffle_epi32(v[q], SHUF);                                    \
        }                                                                                \
        if (x->o[0] != ISA_NONE) {                                                       \
            uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);                                \
            for (unsigned q = 0; q < 8; q++)                                             \
                _mm_storeu_si128((__m128i *)(void *)(d + 4 * q), v[q]);                   \
        }                                                                                \
        shfl_pred_const(f, x);                                                           \
        return ISA_X_NEXT;                                                               \
    }
#else
#define SHFL_XOR(NAME, SHUF)                                                             \
    static int NAME(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)           \
    {                                                                                    \
        if (mask != ISA_FULL)                                                            \
            return coll_f(wv, f, x, mask);                                               \
        const uint32_t *a = ISA_SLOT(const uint32_t, f, x->o[1]);                        \
        uint32_t v[ISA_LANES];                                                           \
        for (unsigned l = 0; l < ISA_LANES; l++)                                         \
            v[l] = a[l ^ x->target];                                                     \
        if (x->o[0] != ISA_NONE)                                                         \
            memcpy(ISA_SLOT(uint32_t, f, x->o[0]), v, sizeof v);                         \
        shfl_pred_const(f, x);                                                           \
        return ISA_X_NEXT;                                                               \
    }
#endif
SHFL_XOR(shfl_xor0_f, 0xE4)   /* lanes in place */
SHFL_XOR(shfl_xor1_f, 0xB1)   /* 1 0 3 2 */
SHFL_XOR(shfl_xor2_f, 0x4E)   /* 2 3 0 1 */
SHFL_XOR(shfl_xor3_f, 0x1B)   /* 3 2 1 0 */

/* d[l] = a[l + k] for l + k < 32, else a[l]. */
ISA_HOT static int shfl_down_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    if (mask != ISA_FULL)
        return coll_f(wv, f, x, mask);
    const uint32_t *a = ISA_SLOT(const uint32_t, f, x->o[1]);
    unsigned k = x->target;
    if (x->o[0] != ISA_NONE) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        memmove(d, a + k, (ISA_LANES - k) * 4);
        if (d != a)
            memcpy(d + ISA_LANES - k, a + ISA_LANES - k, k * 4);
    }
    shfl_pred_const(f, x);
    return ISA_X_NEXT;
}

/* d[l] = a[l - k] for l >= k, else a[l]. */
ISA_HOT static int shfl_up_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    if (mask != ISA_FULL)
        return coll_f(wv, f, x, mask);
    const uint32_t *a = ISA_SLOT(const uint32_t, f, x->o[1]);
    unsigned k = x->target;
    if (x->o[0] != ISA_NONE) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        if (d != a)
            memcpy(d, a, k * 4);
        memmove(d + k, a, (ISA_LANES - k) * 4);
    }
    shfl_pred_const(f, x);
    return ISA_X_NEXT;
}

/* d[l] = a[k] for every lane. */
ISA_HOT static int shfl_bcast_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    if (mask != ISA_FULL)
        return coll_f(wv, f, x, mask);
    uint32_t v = ISA_SLOT(const uint32_t, f, x->o[1])[x->target];
    if (x->o[0] != ISA_NONE) {
        uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
        for (unsigned l = 0; l < ISA_LANES; l++)
            d[l] = v;
    }
    shfl_pred_const(f, x);
    return ISA_X_NEXT;
}
static const isa_xdesc_t shfl_fast_d[4] = {
    { shfl_xor0_f, { 0 }, ISA_HON_DUAL }, { shfl_down_f, { 0 }, ISA_HON_DUAL },
    { shfl_up_f, { 0 }, ISA_HON_DUAL }, { shfl_bcast_f, { 0 }, ISA_HON_DUAL },
};
static const isa_xdesc_t shfl_xor_d[4] = {
    { shfl_xor0_f, { 0 }, ISA_HON_DUAL }, { shfl_xor1_f, { 0 }, ISA_HON_DUAL },
    { shfl_xor2_f, { 0 }, ISA_HON_DUAL }, { shfl_xor3_f, { 0 }, ISA_HON_DUAL },
};

/* The pattern of a shuffle with constant b and c (SP_NONE: none of the four), its k, and
 * the lanes whose predicate output is true. */
static unsigned shfl_pattern(unsigned mode, uint32_t b, uint32_t c, unsigned *out_k, uint32_t *out_pv)
{
    unsigned src[ISA_LANES];
    uint32_t pv = 0;
    for (unsigned l = 0; l < ISA_LANES; l++) {
        bool p;
        src[l] = shfl_src(mode, l, b, c, &p);
        pv |= (uint32_t)p << l;
    }
    *out_pv = pv;
    for (unsigned pat = 0; pat < SP_NONE; pat++) {
        for (unsigned k = 0; k < ISA_LANES; k++) {
            bool ok = true;
            for (unsigned l = 0; l < ISA_LANES && ok; l++) {
                unsigned want = pat == SP_XOR ? l ^ k : pat == SP_DOWN ? (l + k < ISA_LANES ? l + k : l)
                              : pat == SP_UP ? (l >= k ? l - k : l) : k;
                ok = src[l] == want;
            }
            if (ok) {
                *out_k = k;
                return pat;
            }
        }
    }
    return SP_NONE;
}
/*}=====================================================================*/

/* activemask.b32 d: the lanes executing it together. */
ISA_HOT static int activemask_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint32_t *d = ISA_SLOT(uint32_t, f, x->o[0]);
    ISA_LANE_LOOP(mask, { d[l] = mask; });
    return ISA_X_NEXT;
}
static const isa_xdesc_t activemask_d[1] = { { activemask_f, { 0 }, 0 } };
/*}=====================================================================*/

/*{=====================================================================
 * Selection
 *====================================================================*/
/* A source operand of w bytes per lane: a register of that width or a constant. */
static uint32_t src_slot(void *pd, ex_func_t *f, const isa_operand_t *o, unsigned w)
{
    if (o->kind == ISA_OPD_REG)
        return ex_reg_width(f, o) == w ? ex_pd_operand(pd, o, w) : ISA_NONE;
    if (o->kind == ISA_OPD_IMM || (o->kind == ISA_OPD_F32 && w == 4) || (o->kind == ISA_OPD_F64 && w == 8))
        return ex_pd_operand(pd, o, w);
    return ISA_NONE;
}

/* A destination register of w bytes per lane (0: a predicate). */
static uint32_t dst_slot(ex_func_t *f, const isa_operand_t *o, unsigned w)
{
    unsigned have;
    if (o->kind != ISA_OPD_REG)
        return ISA_NONE;
    uint32_t s = ex_reg_operand(f, o, &have);
    return s != ISA_NONE && have == w ? s : ISA_NONE;
}

/* d, d|p or _|p (sink_ok) into o[0] and o[4], d of dw bytes; p required (need_p), optional
 * or refused (p_ok false). */
static bool dst_dual(ex_func_t *f, const isa_operand_t *o, unsigned dw, bool p_ok, bool need_p, bool sink_ok,
                     ex_insn_t *x)
{
    x->o[0] = x->o[4] = ISA_NONE;
    if (o->kind == ISA_OPD_DUAL) {
        const isa_operand_t *d = &f->ir->opds[o->u.first], *p = d + 1;
        if (!p_ok || p->kind != ISA_OPD_REG || (d->kind == ISA_OPD_SINK && !sink_ok))
            return false;
        x->o[4] = dst_slot(f, p, 0);
        if (x->o[4] == ISA_NONE)
            return false;
        if (d->kind == ISA_OPD_SINK)
            return true;
        x->o[0] = dst_slot(f, d, dw);
        return x->o[0] != ISA_NONE;
    }
    if (need_p)
        return false;
    if (o->kind == ISA_OPD_SINK)
        return sink_ok;
    x->o[0] = dst_slot(f, o, dw);
    return x->o[0] != ISA_NONE;
}

/* The member mask, the last operand when .sync is given. */
static bool membermask(void *pd, ex_func_t *f, const isa_instr_t *in, unsigned i, ex_insn_t *x)
{
    bool sync = isa_instr_mod(in, ISA_G_SYNC) >= 0;
    if (!sync)
        return in->nopd == i;
    if (in->nopd != i + 1)
        return false;
    x->o[5] = src_slot(pd, f, &f->ir->opds[in->opd + i], 4);
    return x->o[5] != ISA_NONE;
}

static bool select_shfl(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int m = isa_instr_mod(in, ISA_G_MODE);
    unsigned mode = m == ISA_M_UP ? SH_UP : m == ISA_M_DOWN ? SH_DOWN : m == ISA_M_BFLY ? SH_BFLY
                  : m == ISA_M_IDX ? SH_IDX : 99;
    if (mode == 99 || in->ntypes != 1 || in->types[0] != ISA_T_B32 || in->nopd < 4)
        return false;
    if (!dst_dual(f, &o[0], 4, true, false, false, x))
        return false;
    for (unsigned k = 1; k <= 3; k++)
        if ((x->o[k] = src_slot(pd, f, &o[k], 4)) == ISA_NONE)
            return false;
    if (!membermask(pd, f, in, 4, x))
        return false;
    x->aux = AUX(K_SHFL, mode, T_B32) | (x->o[5] == ISA_NONE ? 0 : 1u << 14);
    x->width = 4;
    x->desc = shfl_d;
    /* Constant b, c and a full constant mask: one of the fast patterns, if it is one. */
    if (o[2].kind == ISA_OPD_IMM && o[3].kind == ISA_OPD_IMM && in->nopd == 5 && o[4].kind == ISA_OPD_IMM &&
        (uint32_t)o[4].imm == ISA_FULL) {
        unsigned k = 0;
        uint32_t pv = 0;
        unsigned pat = shfl_pattern(mode, (uint32_t)o[2].imm, (uint32_t)o[3].imm, &k, &pv);
        if (pat != SP_NONE) {
            x->desc = pat == SP_XOR ? &shfl_xor_d[k & 3] : &shfl_fast_d[pat];
            x->target = k;
            x->imm = pv;
        }
    }
    return true;
}

static bool select_vote(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int m = isa_instr_mod(in, ISA_G_MODE);
    unsigned mode = m == ISA_M_ALL ? V_ALL : m == ISA_M_ANY ? V_ANY : m == ISA_M_UNI ? V_UNI
                  : m == ISA_M_BALLOT ? V_BALLOT : 99;
    if (mode == 99 || in->ntypes != 1 || in->nopd < 2)
        return false;
    if (in->types[0] != (mode == V_BALLOT ? ISA_T_B32 : ISA_T_PRED))
        return false;
    x->o[0] = dst_slot(f, &o[0], mode == V_BALLOT ? 4 : 0);
    if (x->o[0] == ISA_NONE)
        return false;
    if (o[1].kind == ISA_OPD_REG)
        x->o[1] = dst_slot(f, &o[1], 0);
    else if (o[1].kind == ISA_OPD_IMM)
        x->o[1] = ex_pd_operand(pd, &(isa_operand_t){ .kind = ISA_OPD_IMM, .imm = o[1].imm ? -1 : 0 }, 4);
    if (x->o[1] == ISA_NONE)
        return false;
    if (o[1].flags & ISA_OPDF_NEG)
        x->flags |= 1;
    if (!membermask(pd, f, in, 2, x))
        return false;
    x->aux = AUX(K_VOTE, mode, mode == V_BALLOT ? T_B32 : T_U32) | (x->o[5] == ISA_NONE ? 0 : 1u << 14);
    x->width = 4;
    x->desc = coll_not_d;
    return true;
}

static bool select_match(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int m = isa_instr_mod(in, ISA_G_MODE);
    unsigned mode = m == ISA_M_ANY ? MA_ANY : m == ISA_M_ALL ? MA_ALL : 99;
    if (mode == 99 || in->ntypes != 1 || in->nopd != 3)
        return false;
    unsigned w = in->types[0] == ISA_T_B64 ? 8 : in->types[0] == ISA_T_B32 ? 4 : 0;
    if (!w || !dst_dual(f, &o[0], 4, mode == MA_ALL, false, true, x))
        return false;
    if ((x->o[1] = src_slot(pd, f, &o[1], w)) == ISA_NONE || !membermask(pd, f, in, 2, x))
        return false;
    x->aux = AUX(K_MATCH, mode, w == 8 ? T_B64 : T_B32) | 1u << 14;
    x->width = (uint8_t)w;
    x->desc = coll_dual_sink_d;
    return true;
}

static bool select_redux(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    int m = isa_instr_mod(in, ISA_G_ATOMOP);
    unsigned op = m == ISA_M_ADD ? R_ADD : m == ISA_M_MIN ? R_MIN : m == ISA_M_MAX ? R_MAX
                : m == ISA_M_AND ? R_AND : m == ISA_M_OR ? R_OR : m == ISA_M_XOR ? R_XOR : 99;
    if (op == 99 || in->ntypes != 1 || in->nopd != 3)
        return false;
    isa_type_t ty = (isa_type_t)in->types[0];
    unsigned t = ty == ISA_T_U32 ? T_U32 : ty == ISA_T_S32 ? T_S32 : ty == ISA_T_B32 ? T_B32
               : ty == ISA_T_F32 ? T_F32 : 99;
    if (t == 99)
        return false;
    uint64_t aux = AUX(K_REDUX, op, t) | 1u << 14;
    if (isa_instr_mod(in, ISA_G_ABSMOD) >= 0)
        aux |= AUX_ABS;
    if (isa_instr_mod(in, ISA_G_NAN) >= 0)
        aux |= AUX_NAN;
    if ((aux & (AUX_ABS | AUX_NAN)) && t != T_F32)
        return false;
    if (!dst_dual(f, &o[0], 4, false, false, false, x))
        return false;
    if ((x->o[1] = src_slot(pd, f, &o[1], 4)) == ISA_NONE || !membermask(pd, f, in, 2, x))
        return false;
    x->aux = aux;
    x->width = 4;
    x->desc = coll_d;
    return true;
}

static bool select_elect(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    if (in->nopd != 2 || isa_instr_mod(in, ISA_G_SYNC) < 0)
        return false;
    if (!dst_dual(f, &o[0], 4, true, true, true, x) || !membermask(pd, f, in, 1, x))
        return false;
    x->aux = AUX(K_ELECT, 0, T_B32) | 1u << 14;
    x->width = 4;
    x->desc = coll_dual_sink_d;
    return true;
}

bool ex_select_warp(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    switch ((isa_op_t)in->op) {
    case ISA_OP_SHFL:
        return select_shfl(pd, f, in, x);
    case ISA_OP_VOTE:
        return select_vote(pd, f, in, x);
    case ISA_OP_MATCH:
        return select_match(pd, f, in, x);
    case ISA_OP_REDUX:
        return select_redux(pd, f, in, x);
    case ISA_OP_ELECT:
        return select_elect(pd, f, in, x);
    case ISA_OP_ACTIVEMASK:
        if (in->nopd != 1 || (x->o[0] = dst_slot(f, &f->ir->opds[in->opd], 4)) == ISA_NONE)
            return false;
        x->desc = activemask_d;
        return true;
    default:
        return false;
    }
}
/*}=====================================================================*/
