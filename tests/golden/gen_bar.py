#!/usr/bin/env python3
"""gen_bar.py: random CTA barrier programs, as goldens.

Each program (tests/golden/bar_fuzz_N.ptx, with its .cmd) runs a CTA of a random size
(whole warps or a partial last one; two CTAs) through random phases over shared memory:
exchanges (every thread writes its slot, a CTA-wide barrier in one of its spellings,
bar/barrier, .cta, .aligned, any id, with or without the count; every thread reads a
slot a table names), exchanges whose barrier lanes reach on two paths (barrier.sync is
not .aligned), producers and consumers on a named barrier (a random subset of the
warps arrives, another subset waits, with the count of both), bar.red (popc, and, or, of
a per-thread predicate, negated or not, by every thread or a subset of the warps with
its count), threads that exit (lanes or whole warps; the barriers after them count
only the threads left), and counted loops around some of these.  A phase on a subset
ends with a CTA-wide barrier 0 (subsets use ids 1 to 15).  Each thread folds what it
reads and every reduction into one value, stored when it exits or at the end.  The
expected outputs are the H100's (record.sh).
    tests/golden/gen_bar.py FIRST COUNT     writes bar_fuzz_FIRST .. FIRST+COUNT-1
"""
import random
import sys


class Gen:
    def __init__(self, rng, nthr):
        self.rng = rng
        self.T = nthr
        self.W = (nthr + 31) // 32
        self.alive = set(range(nthr))
        self.out = []
        self.tables = []
        self.labels = 0
        self.phase = 0
        self.in_loop = False

    def emit(self, s):
        self.out.append("\t" + s)

    def label(self):
        self.labels += 1
        return f"$L{self.labels}"

    def live_warps(self):
        return sorted({t // 32 for t in self.alive})

    def whole_warps(self):
        """Warps none of whose threads exited."""
        return [w for w in range(self.W)
                if all(t in self.alive for t in range(32 * w, min(32 * w + 32, self.T)))]

    def table(self, srcs):
        """A per-thread table of source slots: srcs(t) for each thread t."""
        k = len(self.tables)
        self.tables.append([srcs(t) for t in range(self.T)])
        return f"tab{k}"

    def read(self, tab):
        """acc folds in the shared slot tab[tid] names."""
        self.emit(f"mov.u64 %rd3, {tab};")
        self.emit("add.u64 %rd3, %rd3, %rd4;")
        self.emit("ld.global.u32 %r10, [%rd3];")
        self.emit("shl.b32 %r10, %r10, 2;")
        self.emit("add.u32 %r10, %r10, %r6;")
        self.emit("ld.shared.u32 %r12, [%r10];")
        self.emit("mad.lo.u32 %r5, %r5, 31, %r12;")
        self.emit(f"xor.b32 %r5, %r5, {self.phase * 0x9e37 & 0xffffff};")

    def write(self):
        self.emit(f"mad.lo.u32 %r13, %r5, {self.rng.randrange(3, 1 << 20) | 1}, {self.phase};")
        self.emit("st.shared.u32 [%r7], %r13;")

    def full_barrier(self, ident=None, aligned_ok=True):
        """A barrier every thread left executes (in convergence)."""
        r = self.rng
        k = r.randrange(16) if ident is None else ident
        forms = [f"bar.sync {k};", f"barrier.sync {k};", f"bar.cta.sync {k};",
                 f"barrier.sync.aligned {k};", f"barrier.cta.sync.aligned {k};"]
        if k == 0:
            forms.append("bar.sync 0;")
        # the count of every warp: only while no warp has exited entirely
        if len(self.whole_warps()) == len(self.live_warps()) == self.W:
            forms.append(f"bar.sync {k}, {32 * self.W};")
            forms.append(f"barrier.sync {k}, {32 * self.W};")
        if k != 0 and r.random() < 0.3:
            self.emit(f"mov.u32 %r14, {k};")
            forms.append("barrier.sync %r14;")
            forms.append("bar.sync %r14;")
        self.emit(r.choice(forms))

    def warp_test(self, warps, neg_label):
        """Branch to neg_label unless this thread's warp is in warps."""
        m = sum(1 << w for w in warps)
        self.emit(f"shr.u32 %r9, {m}, %r4;")
        self.emit("and.b32 %r9, %r9, 1;")
        self.emit("setp.eq.u32 %p1, %r9, 0;")
        self.emit(f"@%p1 bra {neg_label};")

    def exchange(self):
        r = self.rng
        alive = sorted(self.alive)
        self.write()
        self.full_barrier()
        tab = self.table(lambda t: r.randrange(self.T))
        del alive
        self.read(tab)
        self.full_barrier()

    def divergent_exchange(self):
        """The barrier reached by the lanes on two paths (not .aligned)."""
        r = self.rng
        self.write()
        k = r.randrange(16)
        spell = r.choice(["barrier.sync", "barrier.cta.sync"])
        if r.random() < 0.5:
            self.emit(f"and.b32 %r14, %r3, {r.choice([1, 3, 16, 7, 24, 31])};")
        else:
            self.emit(f"shr.u32 %r14, %r5, {r.randrange(28)};")
            self.emit("and.b32 %r14, %r14, 1;")
        self.emit("setp.eq.u32 %p2, %r14, 0;")
        a, j = self.label(), self.label()
        self.emit(f"@%p2 bra {a};")
        self.emit(f"add.u32 %r5, %r5, {r.randrange(1 << 16)};")
        self.emit(f"{spell} {k};")
        self.emit(f"xor.b32 %r5, %r5, {r.randrange(1 << 16)};")
        self.emit(f"bra {j};")
        self.out.append(f"{a}:")
        self.emit(f"mul.lo.u32 %r5, %r5, {r.randrange(3, 1 << 16) | 1};")
        self.emit(f"{spell} {k};")
        self.emit(f"add.u32 %r5, %r5, {r.randrange(1 << 16)};")
        self.out.append(f"{j}:")
        tab = self.table(lambda t: r.randrange(self.T))
        self.read(tab)
        self.full_barrier()

    def producers_consumers(self):
        r = self.rng
        live = self.live_warps()
        if len(live) < 2:
            return self.exchange()
        r.shuffle(live)
        n = r.randrange(2, len(live) + 1)
        pc = live[:n]
        np_ = r.randrange(1, n)
        prod, cons = sorted(pc[:np_]), sorted(pc[np_:])
        k = r.randrange(1, 16)
        cnt = 32 * n
        ptid = [t for t in range(self.T) if t // 32 in prod]
        skip, cl, end = self.label(), self.label(), self.label()
        if r.random() < 0.3:
            self.emit(f"mov.u32 %r14, {cnt};")
            c = "%r14"
        else:
            c = str(cnt)
        self.warp_test(pc, end)
        self.warp_test(prod, cl)
        self.write()
        self.emit(r.choice([f"bar.arrive {k}, {c};", f"barrier.arrive {k}, {c};",
                            f"bar.cta.arrive {k}, {c};", f"barrier.arrive.aligned {k}, {c};"]))
        self.emit(f"bra {end};")
        self.out.append(f"{cl}:")
        self.emit(r.choice([f"bar.sync {k}, {c};", f"barrier.sync {k}, {c};",
                            f"barrier.sync.aligned {k}, {c};", f"bar.cta.sync {k}, {c};"]))
        tab = self.table(lambda t: r.choice(ptid))
        self.read(tab)
        self.out.append(f"{end}:")
        del skip
        self.full_barrier(0)

    def reduction(self):
        r = self.rng
        live = self.live_warps()
        op = r.choice(["popc", "and", "or"])
        self.emit(f"shr.u32 %r14, %r5, {r.randrange(28)};")
        self.emit(f"and.b32 %r14, %r14, {r.choice([1, 1, 3, 7])};")
        self.emit("setp.ne.u32 %p3, %r14, 0;")
        neg = "!" if r.random() < 0.3 else ""
        sub = r.random() < 0.5 and len(live) > 1
        end = None
        if sub:
            ws = sorted(r.sample(live, r.randrange(1, len(live) + 1)))
            k = r.randrange(1, 16)
            end = self.label()
            self.warp_test(ws, end)
            cnt = f", {32 * len(ws)}"
        else:
            k = r.randrange(16)
            cnt = ""
        spell = r.choice(["bar.red", "barrier.red", "bar.cta.red", "barrier.red.aligned"])
        if op == "popc":
            self.emit(f"{spell}.popc.u32 %r15, {k}{cnt}, {neg}%p3;")
        else:
            self.emit(f"{spell}.{op}.pred %p4, {k}{cnt}, {neg}%p3;")
            self.emit("selp.u32 %r15, 0x1234, 0x777, %p4;")
        self.emit("mad.lo.u32 %r5, %r5, 131, %r15;")
        if end:
            self.out.append(f"{end}:")
            self.full_barrier(0)

    def exits(self):
        r = self.rng
        live = self.live_warps()
        if len(self.alive) < 8 or self.in_loop:
            return
        if r.random() < 0.4 and len(live) > 1:
            w = r.choice(live)
            gone = {t for t in self.alive if t // 32 == w}
            code = [f"setp.ne.u32 %p5, %r4, {w};"]
        else:
            m, v = r.choice([(3, 1), (7, 0), (31, 5), (1, 1), (15, 3)])
            w = r.choice(live)
            gone = {t for t in self.alive if t // 32 == w and (t % 32) & m == v}
            code = [f"and.b32 %r14, %r3, {m};", f"setp.ne.u32 %p5, %r14, {v};",
                    f"setp.ne.or.u32 %p5, %r4, {w}, %p5;"]
        if not gone or len(gone) == len(self.alive):
            return
        for c in code:
            self.emit(c)
        stay = self.label()
        self.emit(f"@%p5 bra {stay};")
        self.emit("st.global.u32 [%rd2], %r5;")
        self.emit("exit;")
        self.out.append(f"{stay}:")
        self.alive -= gone

    def step(self):
        self.phase += 1
        k = self.rng.random()
        if k < 0.25:
            self.exchange()
        elif k < 0.4:
            self.divergent_exchange()
        elif k < 0.65:
            self.producers_consumers()
        elif k < 0.85:
            self.reduction()
        else:
            self.exits()

    def body(self):
        r = self.rng
        for _ in range(r.randrange(6, 14)):
            if r.random() < 0.12 and not self.in_loop:
                top = self.label()
                self.emit("mov.u32 %r16, 0;")
                self.out.append(f"{top}:")
                self.in_loop = True
                for _ in range(r.randrange(1, 4)):
                    self.step()
                self.in_loop = False
                self.emit("add.u32 %r16, %r16, 1;")
                self.emit("setp.lt.u32 %p6, %r16, %r17;")
                self.emit(f"@%p6 bra {top};")
            else:
                self.step()


def program(seed):
    rng = random.Random(seed * 7919 + 11)
    nthr = rng.choice([32, 64, 96, 128, 160, 256, 48, 80, 100, 200, 33, 255, 512])
    g = Gen(rng, nthr)
    g.body()
    tabs = []
    for i, t in enumerate(g.tables):
        tabs.append(f".global .align 4 .u32 tab{i}[{len(t)}] = {{{', '.join(map(str, t))}}};")
    head = f"""//
// bar_fuzz_{seed}: generated by tests/golden/gen_bar.py (random CTA barrier phases)
//
.version 8.5
.target sm_90
.address_size 64

{chr(10).join(tabs)}

.visible .entry bar_fuzz(.param .u64 out, .param .u32 nloop)
{{
	.reg .pred %p<8>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b32 sh[{nthr}];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	and.b32 %r3, %r1, 31;
	shr.u32 %r4, %r1, 5;
	mad.lo.u32 %r5, %r1, -1640531535, %r2;
	add.u32 %r5, %r5, {seed};
	mov.u32 %r6, sh;
	shl.b32 %r7, %r1, 2;
	add.u32 %r7, %r7, %r6;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u32 %r17, [nloop];
	mad.lo.u32 %r8, %r2, {nthr}, %r1;
	mul.wide.u32 %rd2, %r8, 4;
	add.u64 %rd2, %rd1, %rd2;
	mul.wide.u32 %rd4, %r1, 4;
	st.shared.u32 [%r7], %r5;
	bar.sync 0;
"""
    tail = """	st.global.u32 [%rd2], %r5;
	ret;
}
"""
    ptx = head + "\n".join(g.out) + "\n" + tail
    cmd = f"-g 2 -b {nthr} u32[{2 * nthr}]:out {rng.randrange(1, 4)}\n"
    return ptx, cmd


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for seed in range(first, first + count):
        ptx, cmd = program(seed)
        with open(f"tests/golden/bar_fuzz_{seed}.ptx", "w") as f:
            f.write(ptx)
        with open(f"tests/golden/bar_fuzz_{seed}.cmd", "w") as f:
            f.write(cmd)


if __name__ == "__main__":
    main()
