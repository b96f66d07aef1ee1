/* policy.c: createpolicy, the 64-bit L2 cache eviction policies that the .L2::cache_hint
 * forms of ld, st, atom, red and the bulk copies take, computed bit for bit as the H100's
 * code computes them (the policy is only a hint here: it changes no result). */
#include "exec/internal.h"

#include <math.h>

/*{=====================================================================
 * The encoding.  The PTX manual calls the policy opaque; the layout below is that of the
 * access-property descriptors of CUDA's libcu++ (cuda::access_property, "sm_80"
 * descriptors), and the values are those that ptxas 13's code for sm_90 computes for
 * every form (its SASS, read for each priority pair, for fractions on a grid of 2^-10
 * and at every step boundary, for constant and register operands; docs/execution.md):
 *
 *   bits 59-60  mode: 2 fraction-based ("interleaved"), 3 range-based ("block")
 *   bits 57-58  primary priority: 0 evict_unchanged, 1 evict_first, 2 evict_last,
 *               3 evict_normal
 *   bit  56     secondary priority: 1 evict_first, 0 evict_unchanged (the default)
 *   fractional: bits 52-55  the fraction f as floor(f * 15.99f) in f32 arithmetic for a
 *               constant (ptxas takes (0, 1] only), the same truncated toward zero and
 *               masked to 4 bits for a register
 *   range:      bits 52-55  block size: a block is 2^s bytes, s = max(ceil(log2(total)) - 7,
 *                           12), stored as s - 12
 *               bits 44-50  the first block: (a >> s) & 0x7f
 *               bits 37-43  the blocks of the primary range: ((a + primary + 2^s - 1) >> s)
 *                           - (a >> s), at most 0x7f (the addition of primary and 2^s - 1
 *                           in 32 bits)
 *               a total size of 0 gives 0x1800000000000000 whatever the priorities
 *   cvt.L2:     the access property itself
 *====================================================================*/
#define POL_FRACTIONAL (2ull << 59)
#define POL_RANGE      (3ull << 59)
#define POL_EMPTY      0x1800000000000000ull

/* The priority bits of a primary and a secondary modifier (-1: none). */
static uint64_t priority_bits(int prim, int sec)
{
    unsigned on = prim == ISA_M_L2_EVICT_FIRST ? 1 : prim == ISA_M_L2_EVICT_LAST ? 2 : prim == ISA_M_L2_EVICT_NORMAL ? 3 : 0;
    unsigned off = sec == ISA_M_L2_EVICT_FIRST ? 1 : 0;
    return (uint64_t)(on << 1 | off) << 56;
}

/* f32 to u32 towards zero, saturating (NaN and negatives 0), as the H100 converts a
 * register fraction (recorded: createpolicy_edge; -0.5 gives 0, 2.0 and 1e10 give 15). */
static inline uint32_t f2u_trunc(float f)
{
    if (!(f > 0))
        return 0;
    if (f >= 4294967296.0f)
        return UINT32_MAX;
    return (uint32_t)f;
}

/* The fraction field of a constant fraction (checked to lie in (0, 1] by the frontend). */
static uint64_t fraction_code(float f)
{
    float p = f * 15.99f;               /* one f32 multiplication, rounded to nearest */
    return (uint64_t)(f2u_trunc(p) & 15);
}

/* The range-based policy of address a, primary and total sizes in bytes, the priority
 * bits pb. */
static uint64_t range_policy(uint64_t a, uint32_t primary, uint32_t total, uint64_t pb)
{
    if (total == 0)
        return POL_EMPTY;
    /* ceil(log2(total)) as the GPU's code computes it: on the f32 value of total. */
    float l = (float)log2((double)(float)total);
    int32_t e = (int32_t)ceilf(l) - 7;
    unsigned s = e > 12 ? (unsigned)e : 12u;
    uint32_t t = primary + ((1u << s) - 1);
    uint64_t first = a >> s, count = ((a + t) >> s) - first;
    if (count > 0x7f)
        count = 0x7f;
    return POL_RANGE | pb | (uint64_t)((s - 12) & 15) << 52 | (first & 0x7f) << 44 | count << 37;
}
/*}=====================================================================*/

/*{=====================================================================
 * Handlers.  x->aux: the priority bits (fractional and range) or the whole policy (a
 * constant fraction); x->flags 1: the range's address register is 32 bits.
 *====================================================================*/
static int policy_const_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint64_t *d = ISA_SLOT(uint64_t, f, x->o[0]), v = x->aux;
    ISA_LANE_LOOP(mask, { d[l] = v; });
    return ISA_X_NEXT;
}
static const isa_xdesc_t policy_const_d[1] = { { policy_const_f, { 0 }, 0 } };

static int policy_fraction_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint64_t *d = ISA_SLOT(uint64_t, f, x->o[0]);
    const float *fr = ISA_SLOT(const float, f, x->o[1]);
    uint64_t base = POL_FRACTIONAL | x->aux;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        d[l] = base | fraction_code(fr[l]) << 52;
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t policy_fraction_d[1] = { { policy_fraction_f, { 0 }, 0 } };

static int policy_range_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint64_t *d = ISA_SLOT(uint64_t, f, x->o[0]);
    const uint32_t *ps = ISA_SLOT(const uint32_t, f, x->o[2]), *ts = ISA_SLOT(const uint32_t, f, x->o[3]);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t a = (x->flags & 1) ? ISA_SLOT(const uint32_t, f, x->o[1])[l] : ISA_SLOT(const uint64_t, f, x->o[1])[l];
        d[l] = range_policy(a + (uint64_t)x->imm, ps[l], ts[l], x->aux);
    }
    return ISA_X_NEXT;
}
static const isa_xdesc_t policy_range_d[1] = { { policy_range_f, { 0 }, 0 } };

static int policy_cvt_f(void *wv, uint8_t *f, const isa_xinsn_t *x, uint32_t mask)
{
    (void)wv;
    uint64_t *d = ISA_SLOT(uint64_t, f, x->o[0]);
    const uint64_t *a = ISA_SLOT(const uint64_t, f, x->o[1]);
    ISA_LANE_LOOP(mask, { d[l] = a[l]; });
    return ISA_X_NEXT;
}
static const isa_xdesc_t policy_cvt_d[1] = { { policy_cvt_f, { 0 }, 0 } };
/*}=====================================================================*/

/* A register operand of w bytes per lane, or ISA_NONE. */
static uint32_t reg_w(const ex_func_t *f, const isa_operand_t *o, unsigned w)
{
    unsigned rw;
    if (o->kind != ISA_OPD_REG)
        return ISA_NONE;
    uint32_t s = ex_reg_operand(f, o, &rw);
    return rw == w ? s : ISA_NONE;
}

bool ex_select_policy(void *pd, ex_func_t *f, const isa_instr_t *in, ex_insn_t *x)
{
    const isa_operand_t *o = &f->ir->opds[in->opd];
    if (in->op != ISA_OP_CREATEPOLICY)
        return false;
    int mode = isa_instr_mod(in, ISA_G_MODE), prim = -1, sec = -1;
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i].kind == ISA_SFX_MOD && in->sfx[i].group == ISA_G_L2HINT) {
            if (prim < 0)
                prim = in->sfx[i].id;
            else
                sec = in->sfx[i].id;
        }
    if (in->nopd < 1 || (x->o[0] = reg_w(f, &o[0], 8)) == ISA_NONE)
        return false;
    uint64_t pb = priority_bits(prim, sec);
    switch (mode) {
    case ISA_M_FRACTIONAL:
        if (prim < 0 || in->nopd > 2)
            return false;
        if (in->nopd == 1 || o[1].kind == ISA_OPD_F32 || o[1].kind == ISA_OPD_F64) {
            float fr = 1.0f;
            if (in->nopd == 2 && o[1].kind == ISA_OPD_F32) {
                uint32_t b = (uint32_t)o[1].imm;
                memcpy(&fr, &b, 4);
            } else if (in->nopd == 2) {
                double v;
                uint64_t b = (uint64_t)o[1].imm;
                memcpy(&v, &b, 8);
                fr = (float)v;
            }
            x->aux = POL_FRACTIONAL | pb | fraction_code(fr) << 52;
            x->desc = policy_const_d;
            return true;
        }
        if ((x->o[1] = reg_w(f, &o[1], 4)) == ISA_NONE)
            return false;
        x->aux = pb;
        x->desc = policy_fraction_d;
        return true;
    case ISA_M_RANGE: {
        if (prim < 0 || in->nopd != 4 || o[1].kind != ISA_OPD_ADDR || (o[1].flags & ISA_OPDF_ADDRLIST))
            return false;
        x->imm = o[1].imm;
        if (o[1].base == ISA_OPD_REG) {
            unsigned bw;
            x->o[1] = ex_reg_operand(f, &o[1], &bw);
            if (x->o[1] == ISA_NONE || (bw != 4 && bw != 8))
                return false;
            x->flags = bw == 4 ? 1 : 0;
        } else if (o[1].base == ISA_OPD_SYM) {
            isa_operand_t s = o[1];
            s.kind = ISA_OPD_SYM;
            s.imm = 0;
            if ((x->o[1] = ex_pd_operand(pd, &s, 8)) == ISA_NONE)
                return false;
        } else {
            return false;
        }
        for (unsigned k = 2; k < 4; k++) {
            x->o[k] = o[k].kind == ISA_OPD_REG ? reg_w(f, &o[k], 4) : ex_pd_operand(pd, &o[k], 4);
            if (x->o[k] == ISA_NONE)
                return false;
        }
        x->aux = pb;
        x->desc = policy_range_d;
        return true;
    }
    case ISA_M_CVT:
        if (in->nopd != 2)
            return false;
        x->o[1] = o[1].kind == ISA_OPD_REG ? reg_w(f, &o[1], 8) : ex_pd_operand(pd, &o[1], 8);
        if (x->o[1] == ISA_NONE)
            return false;
        x->desc = policy_cvt_d;
        return true;
    default:
        return false;
    }
}
