#!/usr/bin/env python3
"""gen_warps.py: random divergent control flow with warp collectives, as goldens.

Each program (tests/golden/warp_fuzz_N.ptx, with its .cmd) runs 64 threads (two warps)
through random nests of if / if-else, counted loops whose trip counts differ between lanes
(some with a break), and lanes that leave (a guarded ret or exit, a branch to the final
ret, a ret the others branch around), and at random points records, in a per-thread log:
the active mask, a ballot, a shuffle from the highest active lane, a sum over the active
lanes (redux.sync) and a match.any, each over the lanes activemask names there.  What the
H100 records is where its warps diverge and meet again.  The expected outputs are the
H100's (record.sh).
    tests/golden/gen_warps.py FIRST COUNT     writes warp_fuzz_FIRST .. FIRST+COUNT-1
The committed ones are seeds 0 to 59 and 120 to 199; 16, 17, 36, 53 and 58 found lanes
that leave (a '@p ret' in a loop, a ret branched around) keeping the others from meeting,
162 that lanes leaving through a guarded ret stay no path when ptxas's folding makes the
ret certain; 105 (seeds 60 to 119) waits in pending/.
"""
import random
import sys

LOG = 24          # log entries per thread


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.out = []
        self.labels = 0
        self.depth = 0

    def label(self):
        self.labels += 1
        return f"$W{self.labels}"

    def emit(self, s):
        self.out.append(("\t" * (1 + self.depth)) + s)

    def log(self, reg):
        self.emit(f"setp.lt.u32 %p9, %rc, {LOG};")
        self.emit("mul.wide.u32 %rd9, %rc, 4;")
        self.emit("add.u64 %rd9, %rd9, %rdb;")
        self.emit(f"@%p9 st.global.u32 [%rd9], {reg};")
        self.emit("add.u32 %rc, %rc, 1;")

    def value(self):
        return self.rng.choice(["%rt", "%r1", "%r2", "%r3", "%r4"])

    def arith(self):
        rng = self.rng
        d = rng.choice(["%r1", "%r2", "%r3", "%r4"])
        op = rng.choice(["add.u32", "xor.b32", "mul.lo.u32", "sub.u32", "shr.u32"])
        b = rng.randrange(1, 7) if op == "shr.u32" else rng.randrange(1, 200)
        self.emit(f"{op} {d}, {self.value()}, {b};")

    def collective(self):
        rng = self.rng
        self.emit("activemask.b32 %rm;")
        k = rng.randrange(6)
        if k == 0:
            self.log("%rm")
        elif k == 1:
            self.emit(f"and.b32 %rx, {self.value()}, {rng.choice([1, 2, 4, 8])};")
            self.emit("setp.ne.u32 %p8, %rx, 0;")
            self.emit("vote.sync.ballot.b32 %rx, %p8, %rm;")
            self.log("%rx")
        elif k == 2:
            self.emit("bfind.u32 %rs, %rm;")
            self.emit(f"shfl.sync.idx.b32 %rx, {self.value()}, %rs, 31, %rm;")
            self.log("%rx")
        elif k == 3:
            self.emit(f"redux.sync.add.u32 %rx, {self.value()}, %rm;")
            self.log("%rx")
        elif k == 4:
            self.emit(f"and.b32 %ry, {self.value()}, 3;")
            self.emit("match.any.sync.b32 %rx, %ry, %rm;")
            self.log("%rx")
        else:
            self.emit("popc.b32 %rx, %rm;")
            self.emit(f"add.u32 {rng.choice(['%r1', '%r2'])}, %rx, {self.value()};")
            self.log("%rm")

    def cond(self, pred):
        rng = self.rng
        v = rng.choice(["%rt", "%rt", "%r1", "%r2", "%r3"])
        if rng.random() < 0.5:
            self.emit(f"and.b32 %rx, {v}, {rng.choice([1, 3, 5, 7, 12, 16, 31])};")
            self.emit(f"setp.{rng.choice(['eq', 'ne'])}.u32 {pred}, %rx, {rng.randrange(0, 3)};")
        else:
            self.emit(f"rem.u32 %rx, {v}, {rng.randrange(2, 40)};")
            self.emit(f"setp.{rng.choice(['lt', 'ge', 'gt'])}.u32 {pred}, %rx, {rng.randrange(1, 20)};")

    def block(self, n, loops_left):
        rng = self.rng
        for _ in range(n):
            k = rng.random()
            if k < 0.3:
                self.collective()
            elif k < 0.45:
                self.arith()
            elif k < 0.7 and self.depth < 3:
                # if / if-else
                p = f"%p{self.depth + 1}"
                self.cond(p)
                els, end = self.label(), self.label()
                self.emit(f"@{p} bra {els};")
                self.depth += 1
                self.block(rng.randrange(1, 4), loops_left)
                self.depth -= 1
                has_else = rng.random() < 0.5
                if has_else:
                    self.emit(f"bra {end};")
                self.out.append(f"{els}:")
                if has_else:
                    self.depth += 1
                    self.block(rng.randrange(1, 4), loops_left)
                    self.depth -= 1
                self.out.append(f"{end}:")
            elif k < 0.88 and self.depth < 3 and loops_left:
                # a counted loop, 1 to 4 times by lane, maybe with a break
                kreg = f"%k{self.depth + 1}"
                top, out = self.label(), self.label()
                self.emit(f"and.b32 {kreg}, {self.value()}, 3;")
                self.emit(f"add.u32 {kreg}, {kreg}, 1;")
                self.out.append(f"{top}:")
                self.depth += 1
                self.block(rng.randrange(1, 4), loops_left - 1)
                if rng.random() < 0.3:
                    p = f"%p{self.depth + 4}"
                    self.cond(p)
                    self.emit(f"@{p} bra {out};")
                self.emit(f"sub.u32 {kreg}, {kreg}, 1;")
                self.emit(f"setp.ne.u32 %p7, {kreg}, 0;")
                self.emit(f"@%p7 bra {top};")
                self.depth -= 1
                self.out.append(f"{out}:")
            elif self.depth > 0 and rng.random() < 0.4:
                # some lanes leave the kernel: a guarded ret or exit, a branch to the final
                # ret, or a ret the others branch around
                self.cond("%p8")
                form = rng.randrange(4)
                if form == 0:
                    self.emit("@%p8 ret;")
                elif form == 1:
                    self.emit("@%p8 exit;")
                elif form == 2:
                    self.emit("@%p8 bra $Wend;")
                else:
                    skip = self.label()
                    self.emit(f"@!%p8 bra {skip};")
                    self.emit("ret;")
                    self.out.append(f"{skip}:")
            else:
                self.collective()


def program(seed):
    rng = random.Random(seed)
    g = Gen(rng)
    g.block(rng.randrange(4, 9), 2)
    g.collective()
    head = [f"// warp_fuzz: generated by tests/golden/gen_warps.py (seed {seed}); expected output from the H100.",
            ".version 8.0", ".target sm_90", ".address_size 64", "",
            ".visible .entry warp_fuzz(.param .u64 out_p)", "{",
            "\t.reg .u32 %rt, %rc, %rm, %rs, %rx, %ry, %r<5>, %k<4>;",
            "\t.reg .u64 %rd<10>, %rdb;",
            "\t.reg .pred %p<10>;",
            "\tld.param.u64 %rd1, [out_p];",
            "\tmov.u32 %rt, %tid.x;",
            f"\tmul.wide.u32 %rd2, %rt, {LOG * 4};",
            "\tadd.u64 %rdb, %rd1, %rd2;",
            "\tmov.u32 %rc, 0;",
            "\tmul.lo.u32 %r1, %rt, 2654435761;",
            "\tshr.u32 %r1, %r1, 7;",
            "\tadd.u32 %r2, %rt, 11;",
            "\txor.b32 %r3, %rt, 21;",
            "\tmul.lo.u32 %r4, %rt, %rt;"]
    return "\n".join(head + g.out + ["$Wend:", "\tret;", "}"]) + "\n"


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for n in range(first, first + count):
        with open(f"tests/golden/warp_fuzz_{n}.ptx", "w") as f:
            f.write(program(n))
        with open(f"tests/golden/warp_fuzz_{n}.cmd", "w") as f:
            f.write("-b 64 u32[%d]:out\n" % (64 * LOG))


if __name__ == "__main__":
    main()
