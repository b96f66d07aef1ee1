/* check_tables.c: invariants of the ISA tables (the isa .def files and isa/tables.c),
 * plus a resolver that splits real instruction names the way frontend/lower.c does. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"

/* Every OF_ bit that ops.def may use. */
#define OF_ALL (ISA_OF_DTYPE | ISA_OF_BRANCH | ISA_OF_CALL | ISA_OF_RET | ISA_OF_EXIT | ISA_OF_BARRIER | ISA_OF_WARPSYNC | ISA_OF_LOAD | \
                ISA_OF_STORE | ISA_OF_ATOMIC | ISA_OF_SIDE | ISA_OF_ASYNC | ISA_OF_FENCE | ISA_OF_SINKD | ISA_OF_PREDOUT)
/* Type suffixes an instruction may carry at most (mma with a block-scale type). */
#define MAX_TYPE_SUFFIXES 5

static uint64_t bits_below(int n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* The group a modifier fills for an opcode when `used` groups are already full: the
 * first group (in groups.def order) that both accept; -1 when none. */
static int mod_group(int mod, uint64_t op_groups, const unsigned char *count)
{
    uint64_t cand = isa_mods[mod].groups & op_groups;
    for (int g = 0; g < ISA_G__COUNT; g++)
        if ((cand >> g & 1) && count[g] < isa_groups[g].maxn)
            return g;
    return -1;
}

/* Split a dotted instruction name as the frontend's lowering pass does: the opcode is
 * the longest mnemonic it starts with; every other component must be a type of the
 * opcode's type set, a state space the opcode accepts, or a modifier that finds room
 * in one of the opcode's groups; the number of types must fit the opcode's arity.
 * Returns the opcode, or -1 with a reason in why. */
static int resolve(const char *name, char *why, size_t whysize)
{
    size_t len = strlen(name), mlen = 0;
    int op = isa_op_lookup(name, len, &mlen);
    if (op < 0) {
        snprintf(why, whysize, "no opcode");
        return -1;
    }
    const isa_op_info_t *o = &isa_ops[op];
    unsigned char count[ISA_G__COUNT] = { 0 };
    unsigned ntypes = 0;
    size_t p = mlen;
    while (p < len) {
        size_t b = p + 1, e = b;
        while (e < len && name[e] != '.')
            e++;
        const char *c = name + b;
        size_t n = e - b;
        p = e;
        int v;
        if ((v = isa_type_lookup(c, n)) >= 0) {
            if (!(o->types >> v & 1)) {
                snprintf(why, whysize, "type .%.*s not accepted", (int)n, c);
                return -1;
            }
            ntypes++;
        } else if (isa_space_lookup(c, n) >= 0) {
            if (!(o->groups & ISA_GM(SPACE)) || count[ISA_G_SPACE] >= isa_groups[ISA_G_SPACE].maxn) {
                snprintf(why, whysize, "space .%.*s not accepted", (int)n, c);
                return -1;
            }
            count[ISA_G_SPACE]++;
        } else if ((v = isa_mod_lookup(c, n)) >= 0) {
            int g = mod_group(v, o->groups, count);
            if (g < 0) {
                snprintf(why, whysize, "modifier .%.*s not accepted", (int)n, c);
                return -1;
            }
            count[g]++;
        } else {
            snprintf(why, whysize, "unknown component .%.*s", (int)n, c);
            return -1;
        }
    }
    if (ntypes < o->tmin || ntypes > o->tmax) {
        snprintf(why, whysize, "%u type suffixes, %s takes %u..%u", ntypes, o->mnemonic, o->tmin,
                 o->tmax);
        return -1;
    }
    return op;
}

/*{=====================================================================
 * Opcodes
 *====================================================================*/

/* Every opcode mnemonic is unique and looks itself up. */
START_TEST(ops_unique_and_lookup)
{
    for (int i = 0; i < ISA_OP__COUNT; i++) {
        const char *mn = isa_ops[i].mnemonic;
        size_t len = 0;
        ck_assert_int_eq(isa_op_lookup(mn, strlen(mn), &len), i);
        ck_assert_uint_eq(len, strlen(mn));
    }
}
END_TEST

/* Every row names a valid shape, type arity, and only known groups, types and flags. */
START_TEST(ops_columns_valid)
{
    for (int i = 0; i < ISA_OP__COUNT; i++) {
        const isa_op_info_t *o = &isa_ops[i];
        ck_assert_msg(o->family < ISA_FAM__COUNT, "%s: bad family", o->mnemonic);
        ck_assert_msg(o->shape < ISA_SH__COUNT, "%s: bad shape", o->mnemonic);
        ck_assert_msg(o->tmin <= o->tmax && o->tmax <= MAX_TYPE_SUFFIXES, "%s: bad type arity",
                      o->mnemonic);
        ck_assert_msg(o->tmax == 0 || o->types != 0, "%s: types expected but none allowed", o->mnemonic);
        ck_assert_msg(o->tmax != 0 || o->types == 0, "%s: types listed but arity 0", o->mnemonic);
        ck_assert_msg((o->types & ~bits_below(ISA_T__COUNT)) == 0, "%s: unknown type bit", o->mnemonic);
        ck_assert_msg((o->groups & ~bits_below(ISA_G__COUNT)) == 0, "%s: unknown group bit", o->mnemonic);
        ck_assert_msg((o->flags & ~(uint32_t)OF_ALL) == 0, "%s: unknown flag", o->mnemonic);
        ck_assert_msg(o->sm < ISA_SM__COUNT && o->ptx < ISA_PTXV__COUNT, "%s: bad target", o->mnemonic);
    }
}
END_TEST

/* Mnemonics are lower-case dotted words with no empty component, and none of their
 * components after the first is a type or space (it would be read as a suffix). */
START_TEST(ops_mnemonics_wellformed)
{
    for (int i = 0; i < ISA_OP__COUNT; i++) {
        const char *mn = isa_ops[i].mnemonic;
        size_t n = strlen(mn);
        ck_assert_msg(n > 0 && mn[0] != '.' && mn[n - 1] != '.' && !strstr(mn, ".."),
                      "%s: malformed", mn);
        for (const char *c = mn; *c; c++)
            ck_assert_msg((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || strchr("._:", *c),
                          "%s: unexpected character", mn);
        for (const char *c = strchr(mn, '.'); c; c = strchr(c + 1, '.')) {
            const char *e = strchr(c + 1, '.');
            size_t cn = e ? (size_t)(e - c - 1) : strlen(c + 1);
            ck_assert_msg(isa_type_lookup(c + 1, cn) < 0 && isa_space_lookup(c + 1, cn) < 0,
                          "%s: component %.*s is a type or space", mn, (int)cn, c + 1);
        }
    }
}
END_TEST

/* Every dot-prefix of a multi-word mnemonic that is not itself an opcode resolves to the
 * longest opcode it starts with (or to none), like any other instruction name. */
START_TEST(ops_prefixes_resolve)
{
    for (int i = 0; i < ISA_OP__COUNT; i++) {
        const char *mn = isa_ops[i].mnemonic;
        for (const char *d = strchr(mn, '.'); d; d = strchr(d + 1, '.')) {
            size_t plen = (size_t)(d - mn), got_len = 0;
            /* Brute force: the longest opcode that is a dot-prefix of mn[0, plen). */
            int want = -1;
            size_t want_len = 0;
            for (int j = 0; j < ISA_OP__COUNT; j++) {
                const char *m = isa_ops[j].mnemonic;
                size_t ml = strlen(m);
                if (ml <= plen && memcmp(m, mn, ml) == 0 && (ml == plen || mn[ml] == '.') &&
                    ml > want_len) {
                    want = j;
                    want_len = ml;
                }
            }
            int got = isa_op_lookup(mn, plen, &got_len);
            ck_assert_msg(got == want, "prefix %.*s of %s resolves to %s, expected %s", (int)plen, mn, mn,
                          got >= 0 ? isa_ops[got].mnemonic : "nothing",
                          want >= 0 ? isa_ops[want].mnemonic : "nothing");
            if (got >= 0)
                ck_assert_uint_eq(got_len, want_len);
        }
    }
}
END_TEST

/* Each family names a unique file and has an opcode; HALF is the one exception: its
 * handlers are the f16/bf16 variants of opcodes of other families (families.def). */
START_TEST(families_used)
{
    for (int f = 0; f < ISA_FAM__COUNT; f++) {
        int n = 0;
        for (int i = 0; i < ISA_OP__COUNT; i++)
            n += isa_ops[i].family == (isa_family_t)f;
        if (f == ISA_FAM_HALF)
            ck_assert_int_eq(n, 0);
        else
            ck_assert_msg(n > 0, "family %s has no opcode", isa_families[f].name);
        for (int g = 0; g < f; g++)
            ck_assert_msg(strcmp(isa_families[f].file, isa_families[g].file) != 0,
                          "families %s and %s share a file", isa_families[f].name, isa_families[g].name);
    }
}
END_TEST

/* Every shape is used by some opcode, and every type is accepted by some opcode. */
START_TEST(shapes_and_types_used)
{
    for (int s = 0; s < ISA_SH__COUNT; s++) {
        int n = 0;
        for (int i = 0; i < ISA_OP__COUNT; i++)
            n += isa_ops[i].shape == (isa_shape_t)s;
        ck_assert_msg(n > 0, "shape %s is used by no opcode", isa_shapes[s].name);
    }
    for (int t = 0; t < ISA_T__COUNT; t++) {
        int n = 0;
        for (int i = 0; i < ISA_OP__COUNT; i++)
            n += (int)(isa_ops[i].types >> t & 1);
        ck_assert_msg(n > 0, "type %s is accepted by no opcode", isa_types[t].text);
    }
}
END_TEST

/*}=====================================================================*/

/*{=====================================================================
 * Modifiers, groups, types, spaces, directives
 *====================================================================*/

/* Modifier, type, space and directive texts are unique across the suffix tables,
 * so that a suffix resolves to exactly one table row. */
START_TEST(suffixes_unambiguous)
{
    for (int i = 0; i < ISA_M__COUNT; i++) {
        const char *t = isa_mods[i].text;
        ck_assert_int_eq(isa_mod_lookup(t, strlen(t)), i);
        ck_assert_msg(isa_type_lookup(t, strlen(t)) < 0, "mod %s is also a type", t);
        ck_assert_msg(isa_space_lookup(t, strlen(t)) < 0, "mod %s is also a space", t);
        ck_assert_msg(isa_mods[i].groups != 0, "mod %s belongs to no group", t);
        ck_assert_msg((isa_mods[i].groups & ~bits_below(ISA_G__COUNT)) == 0, "mod %s: unknown group", t);
        ck_assert_msg(!(isa_mods[i].groups & ISA_GM(SPACE)), "mod %s: SPACE comes from spaces.def", t);
        ck_assert_msg(strlen(t) > 0 && !strchr(t, '.'), "mod %s: empty or dotted", t);
    }
    for (int i = 0; i < ISA_T__COUNT; i++) {
        const char *t = isa_types[i].text;
        ck_assert_int_eq(isa_type_lookup(t, strlen(t)), i);
        ck_assert_msg(isa_space_lookup(t, strlen(t)) < 0, "type %s is also a space", t);
        ck_assert_msg(isa_types[i].bits > 0, "type %s has no width", t);
    }
    for (int i = 0; i < ISA_SP__COUNT; i++) {
        const char *t = isa_spaces[i].text;
        ck_assert_int_eq(isa_space_lookup(t, strlen(t)), i);
        ck_assert(isa_spaces[i].window < ISA_SP__COUNT);
    }
    for (int i = 0; i < ISA_D__COUNT; i++) {
        const char *t = isa_dirs[i].text;
        ck_assert_int_eq(isa_dir_lookup(t, strlen(t)), i);
        ck_assert(t[0] == '.');
    }
}
END_TEST

/* Every group is accepted by some opcode and filled by some token (SPACE by spaces.def,
 * the others by mods.def). */
START_TEST(groups_used)
{
    for (int g = 0; g < ISA_G__COUNT; g++) {
        int ops = 0, mods = 0;
        for (int i = 0; i < ISA_OP__COUNT; i++)
            ops += (int)(isa_ops[i].groups >> g & 1);
        for (int m = 0; m < ISA_M__COUNT; m++)
            mods += (int)(isa_mods[m].groups >> g & 1);
        if (g == ISA_G_SPACE)
            mods = ISA_SP__COUNT;
        ck_assert_msg(ops > 0, "group %s is accepted by no opcode", isa_groups[g].name);
        ck_assert_msg(mods > 0, "group %s has no token", isa_groups[g].name);
        ck_assert_msg(isa_groups[g].maxn == ISA_GN_ONE || isa_groups[g].maxn == ISA_GN_TWO,
                      "group %s: bad MAXN", isa_groups[g].name);
    }
}
END_TEST

/* Every group an opcode accepts is reachable for it: some token lands there when it is
 * the instruction's first modifier (a token of several groups fills the first one the
 * opcode accepts, so a group whose tokens all land earlier would be dead). */
START_TEST(op_groups_reachable)
{
    for (int i = 0; i < ISA_OP__COUNT; i++) {
        const isa_op_info_t *o = &isa_ops[i];
        for (int g = 0; g < ISA_G__COUNT; g++) {
            if (!(o->groups >> g & 1) || g == ISA_G_SPACE)
                continue;
            unsigned char none[ISA_G__COUNT] = { 0 };
            int hit = 0;
            for (int m = 0; m < ISA_M__COUNT && !hit; m++)
                hit = mod_group(m, o->groups, none) == g;
            ck_assert_msg(hit, "%s accepts group %s but no token lands in it", o->mnemonic,
                          isa_groups[g].name);
        }
    }
}
END_TEST

/* Shapes: kinds use the documented letters and fit the min/max counts. */
START_TEST(shapes_valid)
{
    for (int i = 0; i < ISA_SH__COUNT; i++) {
        const isa_shape_info_t *s = &isa_shapes[i];
        ck_assert_msg(s->min <= s->max, "shape %s: min > max", s->name);
        ck_assert_msg(s->max == 0 || strlen(s->kinds) > 0, "shape %s: no kinds", s->name);
        ck_assert_msg(strlen(s->kinds) <= s->max, "shape %s: more kinds than operands", s->name);
        for (const char *k = s->kinds; *k; k++)
            ck_assert_msg(strchr("depsqatflx", *k), "shape %s: unknown kind %c", s->name, *k);
    }
}
END_TEST

/* Special registers: unique, start with %, typed, known form and target. */
START_TEST(sregs_valid)
{
    for (int i = 0; i < ISA_SR__COUNT; i++) {
        const char *t = isa_sregs[i].text;
        ck_assert(t[0] == '%');
        ck_assert_int_eq(isa_sreg_lookup(t, strlen(t)), i);
        ck_assert(isa_sregs[i].type < ISA_T__COUNT);
        ck_assert(isa_sregs[i].form <= ISA_SRF_INDEX8);
        ck_assert(isa_sregs[i].sm < ISA_SM__COUNT && isa_sregs[i].ptx < ISA_PTXV__COUNT);
    }
}
END_TEST

/* The type and group masks fit in 64 bits. */
START_TEST(masks_fit)
{
    ck_assert_int_le(ISA_T__COUNT, 64);
    ck_assert_int_le(ISA_G__COUNT, 64);
}
END_TEST

/*}=====================================================================*/

/*{=====================================================================
 * Real instruction names: the opcode each resolves to, every other
 * component accepted.  Most come from what nvcc 13 emits (the catalog's
 * list); the rest cover Hopper and Blackwell forms.
 *====================================================================*/

static const struct { const char *name, *op; } spot[] = {
    { "abs.bf16", "abs" },
    { "add.rn.f16", "add" },
    { "add.cc.u32", "add" },
    { "add.rn.ftz.f32x2", "add" },
    { "add.rn.sat.f32.bf16", "add" },
    { "addc.cc.u32", "addc" },
    { "alloca.u64", "alloca" },
    { "atom.add.acq_rel.gpu.s32", "atom" },
    { "atom.global.add.v2.f32", "atom" },
    { "atom.add.noftz.bf16x2", "atom" },
    { "atom.global.cas.b128", "atom" },
    { "atom.shared.cta.add.u32", "atom" },
    { "bar.red.and.pred", "bar" },
    { "bar.red.popc.u32", "bar" },
    { "bar.sync", "bar" },
    { "bar.cta.arrive", "bar" },
    { "bar.warp.sync", "bar.warp.sync" },
    { "barrier.sync", "barrier" },
    { "barrier.cta.red.or.aligned.pred", "barrier" },
    { "barrier.cluster.arrive.relaxed", "barrier.cluster" },
    { "barrier.cluster.wait.acquire.aligned", "barrier.cluster" },
    { "bfind.shiftamt.u32", "bfind" },
    { "bmsk.wrap.b32", "bmsk" },
    { "bra.uni", "bra" },
    { "brx.idx.uni", "brx.idx" },
    { "call.uni", "call" },
    { "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes."
      "multicast::cluster::all.b128", "clusterlaunchcontrol.try_cancel" },
    { "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128",
      "clusterlaunchcontrol.query_cancel" },
    { "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128",
      "clusterlaunchcontrol.query_cancel" },
    { "copysign.f64", "copysign" },
    { "cp.async.ca.shared.global", "cp.async" },
    { "cp.async.cg.shared.global.L2::cache_hint.L2::128B", "cp.async" },
    { "cp.async.commit_group", "cp.async.commit_group" },
    { "cp.async.wait_group", "cp.async.wait_group" },
    { "cp.async.wait_all", "cp.async.wait_all" },
    { "cp.async.mbarrier.arrive.shared.b64", "cp.async.mbarrier.arrive" },
    { "cp.async.mbarrier.arrive.noinc.shared::cta.b64", "cp.async.mbarrier.arrive" },
    { "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", "cp.async.bulk" },
    { "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster",
      "cp.async.bulk" },
    { "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask", "cp.async.bulk" },
    { "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
      "multicast::cluster.cta_group::2", "cp.async.bulk.tensor" },
    { "cp.async.bulk.tensor.5d.shared::cta.global.im2col::w::128.mbarrier::complete_tx::bytes",
      "cp.async.bulk.tensor" },
    { "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group", "cp.async.bulk.tensor" },
    { "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group",
      "cp.reduce.async.bulk.tensor" },
    { "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16", "cp.reduce.async.bulk" },
    { "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.inc.u32",
      "cp.reduce.async.bulk" },
    { "cp.async.bulk.prefetch.L2.global.L2::cache_hint", "cp.async.bulk.prefetch" },
    { "cp.async.bulk.prefetch.tensor.5d.L2.global.im2col::w::128", "cp.async.bulk.prefetch.tensor" },
    { "cp.async.bulk.commit_group", "cp.async.bulk.commit_group" },
    { "cp.async.bulk.wait_group.read", "cp.async.bulk.wait_group" },
    { "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64", "createpolicy" },
    { "createpolicy.cvt.L2.b64", "createpolicy" },
    { "cvt.rn.bf16x2.f32", "cvt" },
    { "cvt.rna.tf32.f32", "cvt" },
    { "cvt.rzi.s8.f16", "cvt" },
    { "cvt.rn.satfinite.e4m3x2.f32", "cvt" },
    { "cvt.rs.relu.satfinite.e2m1x4.f32", "cvt" },
    { "cvt.rp.satfinite.ue8m0x2.bf16x2", "cvt" },
    { "cvt.pack.sat.u8.s32.b32", "cvt.pack" },
    { "cvta.to.shared.u64", "cvta" },
    { "cvta.shared::cluster.u32", "cvta" },
    { "discard.global.L2", "discard" },
    { "applypriority.global.L2::evict_normal", "applypriority" },
    { "div.approx.ftz.f32", "div" },
    { "div.full.f32", "div" },
    { "dp2a.hi.u32.u32", "dp2a" },
    { "dp4a.s32.u32", "dp4a" },
    { "elect.sync", "elect" },
    { "ex2.approx.ftz.bf16x2", "ex2" },
    { "fence.sc.cluster", "fence" },
    { "fence.acq_rel.cta", "fence" },
    { "fence.mbarrier_init.release.cluster", "fence" },
    { "fence.acquire.sync_restrict::shared::cluster.cluster", "fence" },
    { "fence.proxy.tensormap::generic.acquire.gpu", "fence.proxy" },
    { "fence.proxy.async.shared::cta", "fence.proxy" },
    { "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster", "fence.proxy" },
    { "fma.rn.relu.bf16", "fma" },
    { "fma.rn.oob.relu.bf16x2", "fma" },
    { "fma.rz.ftz.f32x2", "fma" },
    { "getctarank.shared::cluster.u32", "getctarank" },
    { "griddepcontrol.launch_dependents", "griddepcontrol" },
    { "griddepcontrol.wait", "griddepcontrol" },
    { "isspacep.shared::cluster", "isspacep" },
    { "isspacep.param", "isspacep" },
    { "istypep.texref", "istypep" },
    { "ld.global.nc.v4.f32", "ld" },
    { "ld.global.ca.nc.L2::cache_hint.f32", "ld" },
    { "ld.acquire.gpu.b64", "ld" },
    { "ld.volatile.shared.u32", "ld" },
    { "ld.global.cs.v4.f32", "ld" },
    { "ld.param::entry.b32", "ld" },
    { "ld.global.L1::evict_last.L2::evict_first.L2::cache_hint.L2::256B.v8.f32", "ld" },
    { "ld.mmio.relaxed.sys.global.b32", "ld" },
    { "ldu.global.v2.f64", "ldu" },
    { "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "ldmatrix" },
    { "ldmatrix.sync.aligned.m16n16.x1.trans.shared::cta.b8x16.b6x16_p32", "ldmatrix" },
    { "lop3.or.b32", "lop3" },
    { "mad.lo.cc.u32", "mad" },
    { "mad.hi.sat.s32", "mad" },
    { "madc.hi.cc.u32", "madc" },
    { "mapa.shared::cluster.u64", "mapa" },
    { "match.all.sync.b64", "match" },
    { "max.s32.relu", "max" },
    { "max.NaN.xorsign.abs.f16x2", "max" },
    { "mbarrier.init.shared.b64", "mbarrier.init" },
    { "mbarrier.arrive.noComplete.shared.b64", "mbarrier.arrive" },
    { "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64", "mbarrier.arrive" },
    { "mbarrier.arrive_drop.shared.b64", "mbarrier.arrive_drop" },
    { "mbarrier.expect_tx.relaxed.cta.shared::cta.b64", "mbarrier.expect_tx" },
    { "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64", "mbarrier.complete_tx" },
    { "mbarrier.test_wait.parity.shared.b64", "mbarrier.test_wait" },
    { "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64", "mbarrier.try_wait" },
    { "mbarrier.pending_count.b64", "mbarrier.pending_count" },
    { "mbarrier.inval.shared::cta.b64", "mbarrier.inval" },
    { "membar.gl", "membar" },
    { "membar.proxy.alias", "membar.proxy" },
    { "min.NaN.bf16", "min" },
    { "min.u16x2", "min" },
    { "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "mma" },
    { "mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16", "mma" },
    { "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", "mma" },
    { "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32", "mma" },
    { "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X."
      "f32.e2m1.e2m1.f32.ue4m3", "mma" },
    { "mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32", "mma.sp" },
    { "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",
      "mma.sp::ordered_metadata" },
    { "mov.b128", "mov" },
    { "movmatrix.sync.aligned.m8n8.trans.b16", "movmatrix" },
    { "mul.wide.u16", "mul" },
    { "multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.bf16x2", "multimem.ld_reduce" },
    { "multimem.st.weak.global.v8.f16", "multimem.st" },
    { "multimem.red.release.gpu.global.add.u64", "multimem.red" },
    { "nanosleep.u32", "nanosleep" },
    { "pmevent.mask", "pmevent" },
    { "prefetch.global.L2::evict_last", "prefetch" },
    { "prefetch.param.tensormap", "prefetch" },
    { "prefetchu.L1", "prefetchu" },
    { "prmt.b32.ecl", "prmt" },
    { "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32", "red.async" },
    { "red.release.gpu.global.add.noftz.v4.bf16x2", "red" },
    { "redux.sync.xor.b32", "redux" },
    { "redux.sync.max.abs.NaN.f32", "redux" },
    { "rsqrt.approx.ftz.f64", "rsqrt" },
    { "set.eq.u32.f16x2", "set" },
    { "setmaxnreg.inc.sync.aligned.u32", "setmaxnreg" },
    { "setp.ltu.f16", "setp" },
    { "setp.lo.and.u32", "setp" },
    { "shf.r.clamp.b32", "shf" },
    { "shfl.sync.bfly.b32", "shfl" },
    { "slct.ftz.u32.f32", "slct" },
    { "st.release.gpu.b32", "st" },
    { "st.volatile.global.u32", "st" },
    { "st.global.L1::no_allocate.v4.b32", "st" },
    { "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b32", "st.async" },
    { "st.async.mmio.release.sys.global.u32", "st.async" },
    { "st.bulk.weak.shared::cta", "st.bulk" },
    { "stmatrix.sync.aligned.m8n8.x2.shared::cta.b16", "stmatrix" },
    { "suld.b.2d.v4.b8.clamp", "suld" },
    { "sust.b.a2d.b32.trap", "sust" },
    { "sured.b.add.2d.u32.trap", "sured" },
    { "suq.channel_order.b32", "suq" },
    { "szext.clamp.s32", "szext" },
    { "tanh.approx.f16", "tanh" },
    { "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32", "tcgen05.alloc" },
    { "tcgen05.dealloc.cta_group::2.sync.aligned.b32", "tcgen05.dealloc" },
    { "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned", "tcgen05.relinquish_alloc_permit" },
    { "tcgen05.ld.sync.aligned.16x32bx2.x64.pack::16b.b32", "tcgen05.ld" },
    { "tcgen05.ld.red.sync.aligned.32x32b.x8.min.abs.NaN.f32", "tcgen05.ld" },
    { "tcgen05.st.sync.aligned.32x32b.x128.unpack::16b.b32", "tcgen05.st" },
    { "tcgen05.wait::st.sync.aligned", "tcgen05.wait::st" },
    { "tcgen05.wait::ld.sync.aligned", "tcgen05.wait::ld" },
    { "tcgen05.cp.cta_group::1.64x128b.warpx2::02_13.b8x16.b4x16_p64", "tcgen05.cp" },
    { "tcgen05.shift.cta_group::2.down", "tcgen05.shift" },
    { "tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X.collector::a::fill",
      "tcgen05.mma" },
    { "tcgen05.mma.cta_group::1.kind::f16.ashift.collector::a::lastuse", "tcgen05.mma" },
    { "tcgen05.mma.sp.cta_group::1.kind::i8", "tcgen05.mma.sp" },
    { "tcgen05.mma.ws.cta_group::1.kind::tf32.collector::b1::use", "tcgen05.mma.ws" },
    { "tcgen05.mma.ws.sp.cta_group::1.kind::i8.collector::b2::lastuse", "tcgen05.mma.ws.sp" },
    { "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64",
      "tcgen05.commit" },
    { "tcgen05.fence::before_thread_sync", "tcgen05.fence::before_thread_sync" },
    { "tcgen05.fence::after_thread_sync", "tcgen05.fence::after_thread_sync" },
    { "tensormap.replace.tile.global_stride.shared::cta.b1024.b64", "tensormap.replace" },
    { "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned",
      "tensormap.cp_fenceproxy" },
    { "testp.notanumber.f64", "testp" },
    { "tex.grad.acube.v4.f32.f32", "tex" },
    { "tex.level.2d.v2.f16x2.f32", "tex" },
    { "tld4.a.2d.v4.f32.f32", "tld4" },
    { "tld4.r.2d.v4.s32.f32", "tld4" },
    { "txq.level.width.b32", "txq" },
    { "txq.addr_mode_1.b32", "txq" },
    { "vabsdiff4.s32.s32.s32.add", "vabsdiff4" },
    { "vadd.u32.u32.u32.sat", "vadd" },
    { "vmax.u32.u32.u32.max", "vmax" },
    { "vmad.s32.s32.s32.po.sat.shr15", "vmad" },
    { "vset.u32.u32.lt", "vset" },
    { "vset2.u32.u32.gt.add", "vset2" },
    { "vshr.u32.u32.u32.wrap", "vshr" },
    { "vavrg4.u32.u32.u32.add", "vavrg4" },
    { "vote.sync.ballot.b32", "vote" },
    { "vote.sync.uni.pred", "vote" },
    { "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", "wgmma.mma_async" },
    { "wgmma.mma_async.sync.aligned.m64n256k256.s32.b1.b1.and.popc", "wgmma.mma_async" },
    { "wgmma.mma_async.sp.sync.aligned.m64n64k32.f16.e4m3.e5m2", "wgmma.mma_async.sp" },
    { "wgmma.fence.sync.aligned", "wgmma.fence" },
    { "wgmma.commit_group.sync.aligned", "wgmma.commit_group" },
    { "wgmma.wait_group.sync.aligned", "wgmma.wait_group" },
    { "wmma.load.a.sync.aligned.col.m16n16k16.global.f16", "wmma.load" },
    { "wmma.load.c.sync.aligned.row.m8n8k32.global.s32", "wmma.load" },
    { "wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", "wmma.mma" },
    { "wmma.mma.sync.aligned.col.row.m8n8k4.f64.f64.f64.f64.rn", "wmma.mma" },
    { "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite", "wmma.mma" },
    { "wmma.store.d.sync.aligned.row.m16n16k16.global.f32", "wmma.store" },
    { "xor.pred", "xor" },
    { "trap", "trap" },
    { "exit", "exit" },
    { "ret.uni", "ret" },
};

START_TEST(spot_names_resolve)
{
    char why[160];
    for (size_t i = 0; i < sizeof spot / sizeof spot[0]; i++) {
        int op = resolve(spot[i].name, why, sizeof why);
        ck_assert_msg(op >= 0, "%s: %s", spot[i].name, why);
        ck_assert_msg(strcmp(isa_ops[op].mnemonic, spot[i].op) == 0, "%s: resolves to %s, expected %s",
                      spot[i].name, isa_ops[op].mnemonic, spot[i].op);
    }
}
END_TEST

/* Names the tables must reject: each is one component away from a valid one. */
static const char *const bad_names[] = {
    "add.foo.s32",                      /* unknown component */
    "add.s32.s32.s32",                  /* too many types */
    "tld4.c.2d.v4.f32.f32",             /* c is a wmma fragment, not a tld4 component */
    "wmma.load.r.sync.aligned.row.m16n16k16.f16", /* r is a tld4 component */
    "bar.sync.sync",                    /* MODE filled twice */
    "ld.global.shared.global.f32",      /* three spaces */
    "setp.eq.wide.s32",                 /* wide is not a comparison */
    "cp.reduce.async.s32",              /* no such opcode prefix */
    "mma.sp::ordered_metadata.xor.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",
};

START_TEST(bad_names_rejected)
{
    char why[160];
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++)
        ck_assert_msg(resolve(bad_names[i], why, sizeof why) < 0, "%s was accepted", bad_names[i]);
}
END_TEST

/*}=====================================================================*/

Suite *make_tables_suite(void)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("invariants");
    tcase_add_test(tc, ops_unique_and_lookup);
    tcase_add_test(tc, ops_columns_valid);
    tcase_add_test(tc, ops_mnemonics_wellformed);
    tcase_add_test(tc, ops_prefixes_resolve);
    tcase_add_test(tc, families_used);
    tcase_add_test(tc, shapes_and_types_used);
    tcase_add_test(tc, suffixes_unambiguous);
    tcase_add_test(tc, groups_used);
    tcase_add_test(tc, op_groups_reachable);
    tcase_add_test(tc, shapes_valid);
    tcase_add_test(tc, sregs_valid);
    tcase_add_test(tc, masks_fit);
    suite_add_tcase(s, tc);
    TCase *tn = tcase_create("names");
    tcase_add_test(tn, spot_names_resolve);
    tcase_add_test(tn, bad_names_rejected);
    suite_add_tcase(s, tn);
    return s;
}
