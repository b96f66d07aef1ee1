#!/usr/bin/env python3
"""gen_order.py: the order in which a warp runs the arms of its divergent branches, as goldens.

Each program (tests/golden/warp_order_N.ptx, with its .cmd) runs one warp through random
nests of if, if/else and else-if chains (and loops with a per-lane count around some) on
predicates of random lane sets of every size, ties included.  Every block it enters
takes a ticket from a shared counter (atom.shared.add: the lanes of one instruction in
lane order) and logs it with the block's number, so the log shows which arm ran first.
The expected outputs are the H100's (record.sh): the arm with fewer lanes first, the
fall-through arm when they are as many (docs/execution.md).
    tests/golden/gen_order.py FIRST COUNT     writes warp_order_FIRST .. FIRST+COUNT-1
    ... --leave   adds breaks out of the loops and branches of lanes that leave (to the
                  kernel's end), as warp_order_leave_N: 42 of 150 match the H100 (pending/)
"""
import random
import sys

LOG = 24


class Gen:
    def __init__(self, rng, leave):
        self.rng = rng
        self.leave = leave
        self.loops = []
        self.out = []
        self.labels = 0
        self.blocks = 0
        self.depth = 0

    def emit(self, s):
        self.out.append("\t" + s)

    def label(self):
        self.labels += 1
        return f"$L{self.labels}"

    def ticket(self):
        self.blocks += 1
        self.emit("atom.shared.add.u32 %r5, [%r9], 1;")
        self.emit(f"mad.lo.u32 %r5, %r5, 256, {self.blocks};")
        self.emit("setp.lt.u32 %p7, %r8, " + str(LOG) + ";")
        self.emit("mul.wide.u32 %rd3, %r8, 4;")
        self.emit("add.u64 %rd3, %rd3, %rd2;")
        self.emit("@%p7 st.global.u32 [%rd3], %r5;")
        self.emit("add.u32 %r8, %r8, 1;")

    def pred(self, p):
        """p: a random lane set (of a random size), from the lane and the loop count."""
        r = self.rng
        k = r.random()
        if k < 0.5:
            m = 0
            n = r.choice([1, 2, 3, 5, 8, 10, 11, 15, 16, 16, 17, 21, 24, 30, 31])
            m = sum(1 << l for l in r.sample(range(32), n))
            self.emit(f"shr.u32 %r2, {m}, %r1;")
            self.emit("and.b32 %r2, %r2, 1;")
            self.emit(f"setp.ne.u32 {p}, %r2, 0;")
        elif k < 0.8:
            self.emit(f"setp.lt.u32 {p}, %r1, {r.randrange(1, 32)};")
        else:
            self.emit(f"add.u32 %r2, %r1, %r10;")
            self.emit(f"rem.u32 %r2, %r2, {r.randrange(2, 6)};")
            self.emit(f"setp.eq.u32 {p}, %r2, 0;")

    def stmt(self):
        r = self.rng
        k = r.random()
        if self.leave and self.depth >= 1 and k < 0.12:
            self.pred("%p3")
            if self.loops and r.random() < 0.6:
                self.emit(f"@%p3 bra {self.loops[-1]};")     # a break
            else:
                self.emit("@%p3 bra $END;")                   # lanes leave
            return
        if self.depth >= 3 or k < 0.3:
            self.ticket()
            return
        self.depth += 1
        if k < 0.55:                       # if / else
            els, end = self.label(), self.label()
            self.pred("%p1")
            self.emit(f"@%p1 bra {els};")
            self.body()
            self.emit(f"bra {end};")
            self.out.append(f"{els}:")
            self.body()
            self.out.append(f"{end}:")
        elif k < 0.7:                      # if
            end = self.label()
            self.pred("%p1")
            self.emit(f"@%p1 bra {end};")
            self.body()
            self.out.append(f"{end}:")
        elif k < 0.88:                     # else-if chain
            n = r.randrange(2, 4)
            arms = [self.label() for _ in range(n)]
            end = self.label()
            for a in arms:
                self.pred("%p1")
                self.emit(f"@%p1 bra {a};")
            self.body()
            self.emit(f"bra {end};")
            for a in arms:
                self.out.append(f"{a}:")
                self.body()
                self.emit(f"bra {end};")
            self.out.append(f"{end}:")
        else:                              # a loop with a per-lane count
            top = self.label()
            brk = self.label() if self.leave else None
            self.loops.append(brk)
            c = f"%r{11 + self.depth}"       # a counter per nesting depth
            self.emit(f"and.b32 {c}, %r1, {r.choice([1, 3, 7])};")
            self.emit(f"add.u32 {c}, {c}, 1;")
            self.out.append(f"{top}:")
            self.body()
            self.emit("add.u32 %r10, %r10, 1;")
            self.emit(f"sub.u32 {c}, {c}, 1;")
            self.emit(f"setp.ne.u32 %p2, {c}, 0;")
            self.emit(f"@%p2 bra {top};")
            if brk:
                self.out.append(f"{brk}:")
            self.loops.pop()
        self.depth -= 1

    def body(self):
        for _ in range(self.rng.randrange(1, 3)):
            self.stmt()


END = """$END:
	atom.shared.add.u32 %r5, [%r9], 1;
	mad.lo.u32 %r5, %r5, 256, 255;
	setp.lt.u32 %p7, %r8, 24;
	mul.wide.u32 %rd3, %r8, 4;
	add.u64 %rd3, %rd3, %rd2;
	@%p7 st.global.u32 [%rd3], %r5;
"""


def program(seed, leave=False):
    rng = random.Random(seed * 7727 + 1)
    g = Gen(rng, leave)
    for _ in range(rng.randrange(2, 5)):
        g.stmt()
    ptx = f"""//
// warp_order_{seed}: generated by tests/golden/gen_order.py (the order of divergent arms)
//
.version 8.0
.target sm_90
.address_size 64

.visible .entry warp_order(.param .u64 out)
{{
	.reg .pred %p<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b32 ctr;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, {LOG * 4};
	add.u64 %rd2, %rd1, %rd2;
	mov.u32 %r9, ctr;
	mov.u32 %r8, 0;
	mov.u32 %r10, 0;
	setp.eq.u32 %p7, %r1, 0;
	@%p7 st.shared.u32 [%r9], 1;
	bar.sync 0;
{chr(10).join(g.out)}
{END if leave else ""}	ret;
}}
"""
    return ptx, f"-b 32 u32[{32 * LOG}]:out\n"


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    leave = len(sys.argv) > 3 and sys.argv[3] == "--leave"
    name = "warp_order_leave" if leave else "warp_order"
    for seed in range(first, first + count):
        ptx, cmd = program(seed, leave)
        with open(f"tests/golden/{name}_{seed}.ptx", "w") as f:
            f.write(ptx.replace("warp_order_", name + "_", 1))
        with open(f"tests/golden/{name}_{seed}.cmd", "w") as f:
            f.write(cmd)


if __name__ == "__main__":
    main()
