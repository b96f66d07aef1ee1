#!/usr/bin/env python3
"""gen_mbar.py: random mbarrier operation sequences, as goldens.

Each program (tests/golden/mbar_fuzz_N.ptx, with its .cmd) runs one warp through a
random sequence of mbarrier operations on one barrier in shared memory, each by one
lane, a few lanes or the whole warp: init (after inval), arrive (with and without a
count, .noComplete, .release/.relaxed, .cta/.cluster, into a register or the sink),
arrive_drop, expect_tx, complete_tx, arrive.expect_tx, test_wait and try_wait (on a
state a lane received earlier, or on a parity), pending_count of a state, inval.  Every
result (states, predicates, counts) goes to a per-lane log; of a state, its high half
(ptxas leaves the low half of the register as it was in some forms).  The barrier's own
bits are not logged: on the H100 a load of them reads memory the barrier unit updates
only at inval (measured: the bits of the barrier before the latest inval).  The sequence is kept within what the manual defines
(no arrival past the pending count, .noComplete never completes a phase, counts and
transaction counts within their ranges).  The expected outputs are the H100's
(record.sh).
    tests/golden/gen_mbar.py FIRST COUNT     writes mbar_fuzz_FIRST .. FIRST+COUNT-1
"""
import random
import sys

NOPS = 40


class Model:
    """Just enough of the barrier to keep a sequence defined."""

    def __init__(self, n):
        self.phase, self.pending, self.expected, self.tx = 0, n, n, 0

    def settle(self):
        if self.pending == 0 and self.tx == 0:
            self.phase ^= 1
            self.pending = self.expected


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.out = []
        self.op = 0
        self.m = None

    def emit(self, s):
        self.out.append("\t" + s)

    def lanes(self):
        r = self.rng
        k = r.random()
        if k < 0.5:
            return [r.randrange(32)]
        if k < 0.7:
            return list(range(32))
        return sorted(r.sample(range(32), r.randrange(2, 9)))

    def guard(self, lanes):
        m = sum(1 << l for l in lanes)
        self.emit(f"shr.u32 %r9, {m}, %r3;")
        self.emit("and.b32 %r9, %r9, 1;")
        self.emit("setp.ne.u32 %p1, %r9, 0;")

    def log(self, reg, lanes):
        """The lanes' reg (b64) into their log slot of this operation."""
        self.emit(f"@%p1 st.global.b64 [%rd2+{self.op * 32 * 8}], {reg};")

    def sync(self):
        self.emit("bar.warp.sync -1;")

    def sem(self):
        r = self.rng
        return r.choice(["", ".release.cta", ".release.cluster", ".relaxed.cta", ".relaxed.cluster"])

    def space(self):
        return self.rng.choice([".shared", ".shared::cta", ".shared::cta", ".shared.cta"][:3])

    def arrive(self):
        r, m = self.rng, self.m
        lanes = self.lanes()
        drop = r.random() < 0.2
        nocomp = r.random() < 0.25
        cnt = r.choice([None, None, 1, 2, 3, 5])
        c = cnt or 1
        total = c * len(lanes)
        if nocomp:
            if cnt is None or total >= m.pending:
                return False
        elif total > m.pending:
            return False
        if drop and m.expected - total < 1:
            return False
        self.guard(lanes)
        sem = self.sem()
        if drop:
            sem = sem.replace(".relaxed.cta", ".release.cta").replace(".relaxed.cluster", ".release.cluster")
        name = "arrive_drop" if drop else "arrive"
        nc = ".noComplete" if nocomp else ""
        if nocomp:
            sem = ""
        sink = r.random() < 0.15 and ".cluster" not in sem and not nocomp
        dst = "_" if sink else "%rd5"
        if sink:
            self.emit("mov.u64 %rd5, 0;")
        arg = f", {cnt}" if cnt is not None else ""
        self.emit(f"@%p1 mbarrier.{name}{nc}{sem}{self.space()}.b64 {dst}, [%r6]{arg};")
        if ".cluster" in sem:
            pass
        # a state's low half is not written by every form (ptxas leaves the register's
        # low half as it was): only the high half is logged
        self.emit("and.b64 %rd7, %rd5, 0xffffffff00000000;")
        self.log("%rd7", lanes)
        self.emit("@%p1 mov.b64 %rd6, %rd5;")   # the lane's last state
        m.pending -= total
        if drop:
            m.expected -= total
        m.settle()
        return True

    def tx(self):
        r, m = self.rng, self.m
        lanes = [r.randrange(32)] if r.random() < 0.7 else self.lanes()
        t = r.choice([16, 32, 128, 4, 1024, 8, 100])
        kind = r.choice(["expect", "complete", "arrive"])
        n = len(lanes)
        if kind == "expect":
            if m.tx + t * n > (1 << 20) - 1:
                return False
            self.guard(lanes)
            self.emit(f"@%p1 mbarrier.expect_tx.relaxed.cta{self.space()}.b64 [%r6], {t};")
            m.tx += t * n
        elif kind == "complete":
            if m.tx - t * n < -((1 << 20) - 1):
                return False
            self.guard(lanes)
            self.emit(f"@%p1 mbarrier.complete_tx.relaxed.cta{self.space()}.b64 [%r6], {t};")
            m.tx -= t * n
            if m.pending == 0:
                m.settle()
        else:
            if n > m.pending or m.tx + t * n > (1 << 20) - 1:
                return False
            self.guard(lanes)
            self.emit(f"@%p1 mbarrier.arrive.expect_tx.release.cta{self.space()}.b64 %rd5, [%r6], {t};")
            self.emit("and.b64 %rd7, %rd5, 0xffffffff00000000;")
            self.log("%rd7", lanes)
            self.emit("@%p1 mov.b64 %rd6, %rd5;")
            m.tx += t * n
            m.pending -= n
            m.settle()
        return True

    def wait(self):
        r = self.rng
        lanes = self.lanes()
        self.guard(lanes)
        op = r.choice(["test_wait", "try_wait"])
        sem = r.choice(["", ".acquire.cta", ".relaxed.cta", ".acquire.cluster"])
        if r.random() < 0.5:
            self.emit(f"@%p1 mbarrier.{op}{sem}{self.space()}.b64 %p3, [%r6], %rd6;")
        else:
            self.emit(f"@%p1 mbarrier.{op}.parity{sem}{self.space()}.b64 %p3, [%r6], {r.randrange(2)};")
        self.emit("selp.b64 %rd7, 0x5a5a, 0x3c3c, %p3;")
        self.log("%rd7", lanes)
        return True

    def pending(self):
        lanes = self.lanes()
        self.guard(lanes)
        self.emit("@%p1 mbarrier.pending_count.b64 %r10, %rd6;")
        self.emit("cvt.u64.u32 %rd7, %r10;")
        self.log("%rd7", lanes)
        return True

    def reinit(self):
        r = self.rng
        n = r.choice([1, 2, 3, 4, 7, 32, 33, 100, 1 << 19])
        self.emit("setp.eq.u32 %p1, %r3, 0;")
        self.emit("bar.warp.sync -1;")
        self.emit(f"@%p1 mbarrier.inval{self.space()}.b64 [%r6];")
        self.emit(f"@%p1 mbarrier.init{self.space()}.b64 [%r6], {n};")
        self.m = Model(n)
        return True

    def step(self):
        k = self.rng.random()
        if k < 0.4:
            ok = self.arrive()
        elif k < 0.6:
            ok = self.tx()
        elif k < 0.82:
            ok = self.wait()
        elif k < 0.93:
            ok = self.pending()
        else:
            ok = self.reinit()
        if ok:
            self.sync()
            self.op += 1


def program(seed):
    rng = random.Random(seed * 104729 + 5)
    g = Gen(rng)
    n = rng.choice([1, 2, 3, 5, 8, 32, 40, 64, 96])
    g.m = Model(n)
    while g.op < NOPS:
        g.step()
    ptx = f"""//
// mbar_fuzz_{seed}: generated by tests/golden/gen_mbar.py (random mbarrier sequences)
//
.version 8.8
.target sm_90
.address_size 64

.visible .entry mbar_fuzz(.param .u64 out)
{{
	.reg .pred %p<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<10>;
	.shared .align 8 .b64 bar;
	mov.u32 %r3, %tid.x;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r3, 8;
	add.u64 %rd2, %rd1, %rd2;
	mov.u32 %r6, bar;
	mov.u64 %rd5, 0;
	mov.u64 %rd6, 0;
	setp.eq.u32 %p1, %r3, 0;
	@%p1 mbarrier.init.shared.b64 [%r6], {n};
	bar.warp.sync -1;
{chr(10).join(g.out)}
	ret;
}}
"""
    cmd = f"-b 32 b64[{NOPS * 32}]:out\n"
    return ptx, cmd


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for seed in range(first, first + count):
        ptx, cmd = program(seed)
        with open(f"tests/golden/mbar_fuzz_{seed}.ptx", "w") as f:
            f.write(ptx)
        with open(f"tests/golden/mbar_fuzz_{seed}.cmd", "w") as f:
            f.write(cmd)


if __name__ == "__main__":
    main()
