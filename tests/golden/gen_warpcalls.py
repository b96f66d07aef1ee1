#!/usr/bin/env python3
"""gen_warpcalls.py: divergent calls of divergent functions, as goldens.

Each program (tests/golden/warp_call_fuzz_N.ptx, with its .cmd) has a few device
functions that branch and loop by lane, return early for some lanes (a guarded ret, a ret
in one arm), and fold what warp collectives see (activemask, a ballot, redux.sync, a
shuffle from the highest active lane) into the value they return; the kernel calls them,
some under divergent branches and in loops, and logs each result and the active mask after
each call.  What the H100 logs is where lanes meet again inside and after calls; the
golden replay runs each program with and without the expansion of small functions.
    tests/golden/gen_warpcalls.py FIRST COUNT     writes warp_call_fuzz_FIRST .. +COUNT-1
The committed ones are seeds 0 to 49, 55, 60, 72, 105 and 110 to 169; 38 found a guard
ptxas folds (an always-taken return: the flow graphs fold such guards), 16 and 20 found a guarded ret in a function keeping its other lanes from
meeting, 10, 24, 30, 55, 60, 72 and 105 a loop of calls that let the lanes at its join
run on (with --no-inline).
"""
import random
import sys

LOG = 24


class Body:
    def __init__(self, rng, prefix, is_entry, callees):
        self.rng, self.prefix, self.is_entry, self.callees = rng, prefix, is_entry, callees
        self.out, self.labels, self.depth = [], 0, 0

    def label(self):
        self.labels += 1
        return f"$L{self.prefix}_{self.labels}"

    def emit(self, s):
        self.out.append("\t" * (1 + self.depth) + s)

    def value(self):
        return self.rng.choice(["%rt", "%ra", "%rb"])

    def cond(self, p):
        rng = self.rng
        v = rng.choice(["%rt", "%rt", "%ra", "%rb"])
        if rng.random() < 0.5:
            self.emit(f"and.b32 %rx, {v}, {rng.choice([1, 3, 5, 7, 12, 16])};")
            self.emit(f"setp.{rng.choice(['eq', 'ne'])}.u32 {p}, %rx, {rng.randrange(0, 3)};")
        else:
            self.emit(f"rem.u32 %rx, {v}, {rng.randrange(2, 40)};")
            self.emit(f"setp.{rng.choice(['lt', 'ge'])}.u32 {p}, %rx, {rng.randrange(1, 20)};")

    def observe(self):
        """Fold what a collective sees into %ra (in a function) or log it (kernel)."""
        rng = self.rng
        self.emit("activemask.b32 %rm;")
        k = rng.randrange(4)
        if k == 0:
            self.emit("mov.b32 %rx, %rm;")
        elif k == 1:
            self.emit(f"and.b32 %ry, {self.value()}, 2;")
            self.emit("setp.ne.u32 %p8, %ry, 0;")
            self.emit("vote.sync.ballot.b32 %rx, %p8, %rm;")
        elif k == 2:
            self.emit(f"redux.sync.add.u32 %rx, {self.value()}, %rm;")
        else:
            self.emit("bfind.u32 %rs, %rm;")
            self.emit(f"shfl.sync.idx.b32 %rx, {self.value()}, %rs, 31, %rm;")
        if self.is_entry:
            self.log("%rx")
        else:
            self.emit("mad.lo.u32 %ra, %ra, 31, %rx;")

    def log(self, reg):
        self.emit(f"setp.lt.u32 %p9, %rc, {LOG};")
        self.emit("mul.wide.u32 %rd9, %rc, 4;")
        self.emit("add.u64 %rd9, %rd9, %rdb;")
        self.emit(f"@%p9 st.global.u32 [%rd9], {reg};")
        self.emit("add.u32 %rc, %rc, 1;")

    def call(self):
        rng = self.rng
        f = rng.choice(self.callees)
        self.emit("{")
        self.emit(".param .b32 a0;")
        self.emit(".param .b32 r0;")
        self.emit(f"st.param.b32 [a0], {self.value()};")
        self.emit(f"call (r0), {f}, (a0);")
        self.emit("ld.param.b32 %ry, [r0];")
        self.emit("}")
        if self.is_entry:
            self.log("%ry")
            self.emit("activemask.b32 %rm;")
            self.log("%rm")
        else:
            self.emit("xor.b32 %ra, %ra, %ry;")

    def block(self, n, loops_left):
        rng = self.rng
        for _ in range(n):
            k = rng.random()
            if k < 0.25:
                self.observe()
            elif k < 0.45 and self.callees:
                self.call()
            elif k < 0.65 and self.depth < 2:
                p = f"%p{self.depth + 1}"
                self.cond(p)
                els, end = self.label(), self.label()
                self.emit(f"@{p} bra {els};")
                self.depth += 1
                self.block(rng.randrange(1, 3), loops_left)
                self.depth -= 1
                has_else = rng.random() < 0.5
                if has_else:
                    self.emit(f"bra {end};")
                self.out.append(f"{els}:")
                if has_else:
                    self.depth += 1
                    self.block(rng.randrange(1, 3), loops_left)
                    self.depth -= 1
                self.out.append(f"{end}:")
            elif k < 0.8 and self.depth < 2 and loops_left:
                kreg = f"%k{self.depth + 1}"
                top = self.label()
                self.emit(f"and.b32 {kreg}, {self.value()}, 3;")
                self.emit(f"add.u32 {kreg}, {kreg}, 1;")
                self.out.append(f"{top}:")
                self.depth += 1
                self.block(rng.randrange(1, 3), loops_left - 1)
                self.emit(f"sub.u32 {kreg}, {kreg}, 1;")
                self.emit(f"setp.ne.u32 %p7, {kreg}, 0;")
                self.emit(f"@%p7 bra {top};")
                self.depth -= 1
            elif not self.is_entry and self.depth > 0 and rng.random() < 0.5:
                # some lanes return early
                self.cond("%p6")
                self.emit("st.param.b32 [res], %ra;")
                if rng.random() < 0.5:
                    self.emit("@%p6 ret;")
                else:
                    skip = self.label()
                    self.emit(f"@!%p6 bra {skip};")
                    self.emit("ret;")
                    self.out.append(f"{skip}:")
            else:
                self.emit(f"mad.lo.u32 %rb, {self.value()}, {rng.randrange(3, 99)}, %rt;")


REGS = ["\t.reg .u32 %rt, %rc, %rm, %rs, %rx, %ry, %ra, %rb, %k<3>;", "\t.reg .u64 %rd<10>, %rdb;",
        "\t.reg .pred %p<10>;"]


def program(seed):
    rng = random.Random(seed)
    text = [f"// warp_call_fuzz: generated by tests/golden/gen_warpcalls.py (seed {seed}); expected output "
            "from the H100.", ".version 8.0", ".target sm_90", ".address_size 64", ""]
    names = []
    for i in range(rng.randrange(2, 4)):
        name = f"g{i}"
        b = Body(rng, f"{i}", False, list(names))
        b.emit("ld.param.b32 %rb, [arg];")
        b.emit("mov.u32 %rt, %tid.x;")
        b.emit("mov.u32 %ra, 1;")
        b.block(rng.randrange(2, 6), 1)
        b.emit("st.param.b32 [res], %ra;")
        text += [f".func (.param .b32 res) {name}(.param .b32 arg)", "{"] + REGS[:1] + REGS[2:] + \
            [s if s.endswith(":") and not s.startswith("\t") else s for s in b.out] + ["\tret;", "}", ""]
        names.append(name)
    e = Body(rng, "e", True, names)
    e.block(rng.randrange(4, 8), 1)
    head = [".visible .entry warp_call_fuzz(.param .u64 out_p)", "{"] + REGS + [
        "\tld.param.u64 %rd1, [out_p];", "\tmov.u32 %rt, %tid.x;", f"\tmul.wide.u32 %rd2, %rt, {LOG * 4};",
        "\tadd.u64 %rdb, %rd1, %rd2;", "\tmov.u32 %rc, 0;", "\tmul.lo.u32 %ra, %rt, 2654435761;",
        "\tshr.u32 %ra, %ra, 9;", "\txor.b32 %rb, %rt, 13;"]
    text += head + e.out + ["\tret;", "}"]
    return "\n".join(text) + "\n"


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for n in range(first, first + count):
        with open(f"tests/golden/warp_call_fuzz_{n}.ptx", "w") as f:
            f.write(program(n))
        with open(f"tests/golden/warp_call_fuzz_{n}.cmd", "w") as f:
            f.write("-b 64 u32[%d]:out\n" % (64 * LOG))


if __name__ == "__main__":
    main()
