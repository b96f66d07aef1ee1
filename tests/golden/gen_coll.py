#!/usr/bin/env python3
"""gen_coll.py: random warp collectives on random operands, as goldens.

Each program (tests/golden/coll_fuzz_N.ptx, with its .cmd) runs 64 threads (two warps)
through a random sequence of shfl.sync (up, down, bfly, idx; lane and clamp/segment
operands immediate or per lane, anything from 0 to 63 and 0 to 0x1fff; with the
predicate result), vote.sync (all, any, uni, ballot, the predicate negated or not),
match.any and match.all (b32 and b64 values from few distinct ones), redux.sync (add,
min, max of u32 and s32, and, or, xor) and activemask.  Shuffles run on the whole warp;
votes, matches and reductions also on a random subset of it, the lanes whose predicate
holds, with that subset (their ballot) as the member mask.  Every result goes to a
per-thread log.  The expected outputs are the H100's (record.sh).  Seeds 0 to 239 all
matched when this was written; 0 to 9 are committed.
    tests/golden/gen_coll.py FIRST COUNT     writes coll_fuzz_FIRST .. FIRST+COUNT-1
"""
import random
import sys

LOG = 32          # 4-byte log slots per thread


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.out = []
        self.slot = 0
        self.labels = 0

    def emit(self, s):
        self.out.append("\t" + s)

    def log(self, reg):
        if self.slot < LOG:
            self.emit(f"st.global.u32 [%dl+{self.slot * 4}], {reg};")
            self.slot += 1

    def value(self, dst, spread):
        """A per-lane value from the lane and the values so far: spread distinct ones, or any."""
        r = self.rng
        self.emit(f"mad.lo.u32 {dst}, %rt, {r.randrange(1, 1 << 31) | 1}, %racc;")
        self.emit(f"shr.u32 {dst}, {dst}, {r.randrange(0, 28)};")
        if spread:
            self.emit(f"rem.u32 {dst}, {dst}, {spread};")

    def pred(self, p):
        r = self.rng
        self.value("%rp", 0)
        self.emit(f"and.b32 %rp, %rp, {r.choice([1, 3, 7, 15])};")
        self.emit(f"setp.{r.choice(['ne', 'eq'])}.u32 {p}, %rp, 0;")

    def mix(self, reg):
        self.emit(f"xor.b32 %racc, %racc, {reg};")
        self.emit("mul.lo.u32 %racc, %racc, 16777619;")

    def shfl(self):
        r = self.rng
        mode = r.choice(["up", "down", "bfly", "idx"])
        self.value("%ra", 0)
        if r.random() < 0.5:
            b = str(r.randrange(0, 64) if r.random() < 0.3 else r.randrange(0, 32))
        else:
            self.value("%rb", r.choice([32, 40, 64]))
            b = "%rb"
        if r.random() < 0.7:
            seg = r.choice([0, 0x10, 0x18, 0x1c, 0x1e, 0x1f, r.randrange(32)])
            clamp = r.choice([0, 31, 15, 7, r.randrange(32)]) if mode != "up" else r.choice([0, 31, r.randrange(32)])
            c = str(seg << 8 | clamp)
        else:
            self.value("%rc", 0)
            self.emit("and.b32 %rc, %rc, 0x1fff;")
            c = "%rc"
        withp = r.random() < 0.5
        d = "%rd|%p5" if withp else "%rd"
        self.emit(f"shfl.sync.{mode}.b32 {d}, %ra, {b}, {c}, -1;")
        self.log("%rd")
        self.mix("%rd")
        if withp:
            self.emit("selp.u32 %rx, 1, 0, %p5;")
            self.log("%rx")

    def collective(self, mask):
        r = self.rng
        kind = r.choice(["vote", "ballot", "match_any", "match_all", "redux", "activemask"])
        if kind == "vote":
            self.pred("%p2")
            m = r.choice(["all", "any", "uni"])
            neg = "!" if r.random() < 0.3 else ""
            self.emit(f"vote.sync.{m}.pred %p3, {neg}%p2, {mask};")
            self.emit("selp.u32 %rx, 1, 0, %p3;")
            self.log("%rx")
        elif kind == "ballot":
            self.pred("%p2")
            neg = "!" if r.random() < 0.3 else ""
            self.emit(f"vote.sync.ballot.b32 %rx, {neg}%p2, {mask};")
            self.log("%rx")
            self.mix("%rx")
        elif kind in ("match_any", "match_all"):
            wide = r.random() < 0.4
            self.value("%ra", r.choice([1, 2, 3, 5, 8]))
            if wide:
                self.emit("cvt.u64.u32 %da, %ra;")
                self.emit(f"mul.lo.u64 %da, %da, {r.choice([1, 0x100000001, 0xffffffff00000001])};")
                src, t = "%da", "b64"
            else:
                src, t = "%ra", "b32"
            if kind == "match_any":
                self.emit(f"match.any.sync.{t} %rx, {src}, {mask};")
                self.log("%rx")
            else:
                self.emit(f"match.all.sync.{t} %rx|%p4, {src}, {mask};")
                self.log("%rx")
                self.emit("selp.u32 %ry, 1, 0, %p4;")
                self.log("%ry")
            self.mix("%rx")
        elif kind == "redux":
            op = r.choice(["add.u32", "min.u32", "max.u32", "min.s32", "max.s32", "and.b32", "or.b32",
                           "xor.b32", "add.s32"])
            self.value("%ra", r.choice([0, 0, 7, 1000]))
            self.emit(f"redux.sync.{op} %rx, %ra, {mask};")
            self.log("%rx")
            self.mix("%rx")
        else:
            self.emit("activemask.b32 %rx;")
            self.log("%rx")

    def subset(self):
        """The lanes whose predicate holds run collectives among themselves."""
        self.labels += 1
        lab = f"$S{self.labels}"
        self.pred("%p1")
        self.emit("vote.sync.ballot.b32 %rm, %p1, -1;")
        self.emit(f"@!%p1 bra {lab};")
        for _ in range(self.rng.randrange(1, 4)):
            self.collective("%rm")
        self.out.append(f"{lab}:")
        self.emit("bar.warp.sync -1;")

    def body(self):
        for _ in range(self.rng.randrange(8, 16)):
            k = self.rng.random()
            if k < 0.4:
                self.shfl()
            elif k < 0.7:
                self.collective("-1")
            else:
                self.subset()


def program(seed):
    g = Gen(random.Random(seed))
    g.body()
    text = "\n".join(g.out)
    return f"""// coll_fuzz: generated by tests/golden/gen_coll.py (seed {seed}); expected output from the H100.
.version 8.0
.target sm_90
.address_size 64

.visible .entry coll_fuzz(.param .u64 out_p)
{{
	.reg .u32 %rt, %racc, %ra, %rb, %rc, %rd, %rx, %ry, %rp, %rm;
	.reg .u64 %dl, %dx, %da;
	.reg .pred %p<6>;
	ld.param.u64 %dl, [out_p];
	cvta.to.global.u64 %dl, %dl;
	mov.u32 %rt, %tid.x;
	mul.wide.u32 %dx, %rt, {LOG * 4};
	add.s64 %dl, %dl, %dx;
	mov.u32 %racc, {seed * 2654435761 % (1 << 32)};
{text}
	ret;
}}
""", f"-b 64 u32[{64 * LOG}]:out\n"


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for seed in range(first, first + count):
        ptx, cmd = program(seed)
        with open(f"tests/golden/coll_fuzz_{seed}.ptx", "w") as f:
            f.write(ptx)
        with open(f"tests/golden/coll_fuzz_{seed}.cmd", "w") as f:
            f.write(cmd)


if __name__ == "__main__":
    main()
