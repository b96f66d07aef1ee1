#!/usr/bin/env python3
"""gen_calls.py: random programs of small device functions calling each other, as goldens.

Each program (tests/golden/calls_fuzz_N.ptx, with its .cmd) has a handful of functions
with .reg and .param parameters and results, bodies of integer arithmetic, comparisons,
forward branches, short loops and early returns, and calls of the functions before them:
results into any register (the caller's own results, its parameters, the arguments
themselves), guarded calls, calls under divergent branches.  The entry runs 64 threads
and stores every register it computed.  The expected outputs are the H100's (record.sh);
the golden replay runs them with and without the expansion of small functions into
their callers, so both must give the H100's bits.
    tests/golden/gen_calls.py FIRST COUNT     writes calls_fuzz_FIRST .. FIRST+COUNT-1
The committed ones are seeds 100 to 119 (109 and 118 caught a copy into a result register
that the expansion deleted) and 400 to 419 (400 to 439 all matched when added).
"""
import random
import sys

NREG = 6          # local .u32 registers per function


class Fn:
    def __init__(self, name, pstyle, nparam, nret):
        self.name, self.pstyle, self.nparam, self.nret = name, pstyle, nparam, nret


def operand(rng, regs):
    return rng.choice(regs) if rng.random() < 0.8 else str(rng.randrange(0, 1 << 16))


def arith(rng, dst, regs):
    a, b = rng.choice(regs), operand(rng, regs)
    op = rng.choice(["add.u32", "sub.u32", "mul.lo.u32", "xor.b32", "and.b32", "or.b32", "min.u32", "max.s32",
                     "shl", "shr", "mad", "selp"])
    if op == "shl":
        return [f"shl.b32 {dst}, {a}, {rng.randrange(1, 9)};"]
    if op == "shr":
        return [f"shr.u32 {dst}, {a}, {rng.randrange(1, 9)};"]
    if op == "mad":
        return [f"mad.lo.u32 {dst}, {a}, {rng.choice(regs)}, {b};"]
    if op == "selp":
        return [f"setp.{rng.choice(['lt', 'gt', 'eq', 'ne', 'le'])}.u32 %p1, {a}, {b};",
                f"selp.b32 {dst}, {rng.choice(regs)}, {operand(rng, regs)}, %p1;"]
    return [f"{op} {dst}, {a}, {b};"]


def gen_call(rng, callee, dests, regs, guard):
    """A call of callee: arguments from regs, results into dests (registers)."""
    args = [rng.choice(regs) for _ in range(callee.nparam)]
    rets = [rng.choice(dests) for _ in range(callee.nret)]
    if len(set(rets)) < len(rets):
        rets = rets[:1] if callee.nret == 1 else [rets[0], next(d for d in dests if d != rets[0])]
    g = f"@{guard} " if guard else ""
    lst = []
    if callee.pstyle == "reg":
        r = f"({', '.join(rets)}), " if rets else ""
        a = f", ({', '.join(args)})" if args else ""
        lst.append(f"{g}call {r}{callee.name}{a};")
        return lst
    # .param style: arguments through .param variables of the caller, as nvcc writes calls;
    # ptxas guards no access to them, so a guarded one is branched around
    if g:
        gen_call.skips += 1
        skip = f"$Lskip{gen_call.skips}"
        neg = guard[1:] if guard.startswith("!") else "!" + guard
        return [f"@{neg} bra {skip};"] + gen_call(rng, callee, dests, regs, None) + [f"{skip}:"]
    lst.append("{")
    for i, x in enumerate(args):
        lst.append(f".param .b32 arg{i};")
        lst.append(f"st.param.b32 [arg{i}], {x};")
    if rets:
        lst.append(".param .b32 rv0;")
    r = "(rv0), " if rets else ""
    a = f", ({', '.join(f'arg{i}' for i in range(len(args)))})" if args else ""
    lst.append(f"{g}call {r}{callee.name}{a};")
    if rets:
        lst.append(f"ld.param.b32 {rets[0]}, [rv0];")
    lst.append("}")
    return lst


gen_call.skips = 0


def body(rng, fn, callees, label_base, is_entry):
    """Statements of a function body over its registers (%r1..%rN, params, results).  A
    function with .reg results either sets them first (and may return early) or, in about
    a third of them, only at its end: by a call whose results are its own, or once each."""
    tail = fn.pstyle == "reg" and fn.nret and rng.random() < 0.4
    locs = [f"%r{i}" for i in range(1, NREG + 1)]
    params = [f"a{i}" for i in range(fn.nparam)] if fn.pstyle == "reg" else []
    rets = [f"res{i}" for i in range(fn.nret)] if fn.pstyle == "reg" else []
    out = []
    # every register defined before it is read
    if fn.pstyle == "param":
        for i in range(fn.nparam):
            out.append(f"ld.param.b32 {locs[i]}, [a{i}];")
        start = fn.nparam
    else:
        start = 0
    out.append("mov.u32 %r6, %tid.x;")
    for i in range(start, NREG - 1):
        src = rng.choice(params + ["%r6"]) if (params or True) else "%r6"
        out.append(f"add.u32 {locs[i]}, {src}, {rng.randrange(1, 100)};")
    if not tail:
        for r in rets:
            out.append(f"mov.u32 {r}, {rng.choice(locs)};")
    regs = locs + params + ([] if tail else rets)
    dests = locs + params + ([] if tail else rets)
    nlab = 0
    for _ in range(rng.randrange(4, 12)):
        k = rng.random()
        if k < 0.45:
            out += arith(rng, rng.choice(dests), regs)
        elif k < 0.7 and callees:
            callee = rng.choice(callees)
            guard = None
            if rng.random() < 0.3:
                out.append(f"setp.{rng.choice(['lt', 'ge', 'ne'])}.u32 %p2, {rng.choice(regs)}, "
                           f"{rng.randrange(0, 64)};")
                guard = rng.choice(["%p2", "!%p2"])
            out += gen_call(rng, callee, dests, regs, guard)
        elif k < 0.82:
            # a forward branch around a few instructions (divergent when it reads %tid)
            lab = f"$L{label_base}_{nlab}"
            nlab += 1
            out.append(f"setp.{rng.choice(['lt', 'ge', 'eq'])}.u32 %p3, {rng.choice(regs)}, {rng.randrange(0, 64)};")
            out.append(f"@%p3 bra {lab};")
            for _ in range(rng.randrange(1, 4)):
                if callees and rng.random() < 0.4:
                    out += gen_call(rng, rng.choice(callees), dests, regs, None)
                else:
                    out += arith(rng, rng.choice(dests), regs)
            out.append(f"{lab}:")
        elif k < 0.9:
            # a short counted loop
            lab = f"$L{label_base}_{nlab}"
            nlab += 1
            n = rng.randrange(1, 5)
            out.append(f"and.b32 %r5, {rng.choice(regs)}, {n};")
            out.append(f"add.u32 %r5, %r5, 1;")
            out.append(f"{lab}:")
            d = rng.choice([x for x in dests if x != "%r5"])
            out += arith(rng, d, regs)
            out.append("sub.u32 %r5, %r5, 1;")
            out.append("setp.ne.u32 %p4, %r5, 0;")
            out.append(f"@%p4 bra {lab};")
        elif not is_entry and not tail:
            # an early return for some lanes
            if fn.pstyle == "param" and fn.nret:
                out.append(f"st.param.b32 [res0], {rng.choice(regs)};")
            out.append(f"setp.{rng.choice(['lt', 'gt'])}.u32 %p3, {rng.choice(regs)}, {rng.randrange(0, 64)};")
            out.append("@%p3 ret;")
    if fn.pstyle == "param" and fn.nret:
        out.append(f"st.param.b32 [res0], {rng.choice(regs)};")
    if tail:
        same = [c for c in callees if c.pstyle == "reg" and c.nret == fn.nret]
        if same and rng.random() < 0.7:
            c = rng.choice(same)
            args = [rng.choice(regs) for _ in range(c.nparam)]
            a = f", ({', '.join(args)})" if args else ""
            out.append(f"call ({', '.join(rets)}), {c.name}{a};")
        else:
            for r in rets:
                out += arith(rng, r, regs) if rng.random() < 0.5 else [f"mov.u32 {r}, {rng.choice(regs)};"]
    return out, regs


def program(seed):
    rng = random.Random(seed)
    gen_call.skips = 0
    fns = []
    text = [f"// calls_fuzz: generated by tests/golden/gen_calls.py (seed {seed}); expected output from the H100.",
            ".version 8.0", ".target sm_90", ".address_size 64", ""]
    for i in range(rng.randrange(4, 8)):
        pstyle = rng.choice(["reg", "reg", "param"])
        nparam = rng.randrange(0, 4)
        nret = rng.randrange(0, 3) if pstyle == "reg" else rng.randrange(0, 2)
        fn = Fn(f"f{i}", pstyle, nparam, nret)
        if pstyle == "reg":
            r = f"({', '.join(f'.reg .u32 res{k}' for k in range(nret))}) " if nret else ""
            p = f"({', '.join(f'.reg .u32 a{k}' for k in range(nparam))})"
        else:
            r = "(.param .b32 res0) " if nret else ""
            p = f"({', '.join(f'.param .b32 a{k}' for k in range(nparam))})"
        stmts, _ = body(rng, fn, fns, i, False)
        text.append(f".func {r}{fn.name}{p}")
        text.append("{")
        text.append(f"\t.reg .u32 %r<{NREG + 1}>;")
        text.append("\t.reg .pred %p<5>;")
        text += ["\t" + s if not s.endswith(":") else s for s in stmts]
        text.append("\tret;")
        text.append("}")
        text.append("")
        fns.append(fn)
    entry = Fn("calls_fuzz", "reg", 0, 0)
    stmts, _ = body(rng, entry, fns, 99, True)
    text.append(".visible .entry calls_fuzz(.param .u64 out_p)")
    text.append("{")
    text.append(f"\t.reg .u32 %r<{NREG + 1}>;")
    text.append("\t.reg .pred %p<5>;")
    text.append("\t.reg .u64 %rd<4>;")
    text += ["\t" + s if not s.endswith(":") else s for s in stmts]
    text.append("\tld.param.u64 %rd1, [out_p];")
    text.append("\tmov.u32 %r6, %tid.x;")   # (the last store is the thread's index)
    text.append("\tmul.wide.u32 %rd2, %r6, 24;")
    text.append("\tadd.u64 %rd3, %rd1, %rd2;")
    for i in range(1, NREG + 1):
        text.append(f"\tst.global.u32 [%rd3+{4 * (i - 1)}], %r{i};")
    text.append("\tret;")
    text.append("}")
    return "\n".join(text) + "\n"


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for n in range(first, first + count):
        with open(f"tests/golden/calls_fuzz_{n}.ptx", "w") as f:
            f.write(program(n))
        with open(f"tests/golden/calls_fuzz_{n}.cmd", "w") as f:
            f.write("-b 64 u32[384]:out\n")


if __name__ == "__main__":
    main()
