#!/usr/bin/env python3
"""gen_atom.py: random atomics and reductions of one warp on shared tables, as goldens.

Each program (tests/golden/atom_fuzz_N.ptx, with its .cmd) runs 2 CTAs of 32 threads; each
CTA has 256 bytes of global memory and 256 bytes of shared memory, both filled from random
bytes (some words small, so that compare-and-swap succeeds), and runs a random sequence of
atom and red on them: every operation and type the PTX ISA allows for one element (and,
or, xor, exch, cas of b16 to b64; add of u32, s32, u64, f32, f64, f16, f16x2, bf16, bf16x2;
inc, dec; min and max of integers), through the space's own
instructions and generic addresses, with orderings and scopes, on addresses where the lanes
collide (all on one, a few, a lane each).  Operands are per-lane values, some of them
infinities and NaNs.  The lanes of one instruction apply to one address in the hardware's
order, so every returned value is logged, and the tables are copied out at the end.  One
warp per CTA: the order between warps would not be fixed.  The expected outputs are the
H100's.  Of seeds 0 to 449, 79 found the order of shared memory's 64-bit compare-and-swap
loops and 2 the generic 64-bit add (all match now); 32 are committed.
    tests/golden/gen_atom.py FIRST COUNT     writes atom_fuzz_FIRST .. FIRST+COUNT-1
"""
import random
import sys

LOG = 24          # 8-byte log slots per thread

# (op, types) of atom; red takes the same but cas and exch
OPS = [("and", ["b32", "b64"]), ("or", ["b32", "b64"]), ("xor", ["b32", "b64"]),
       ("exch", ["b32", "b64"]), ("cas", ["b16", "b32", "b64"]),
       ("add", ["u32", "s32", "u64", "f32", "f64", "noftz.f16", "noftz.f16x2", "noftz.bf16",
                "noftz.bf16x2"]),
       ("inc", ["u32"]), ("dec", ["u32"]),
       ("min", ["u32", "s32", "u64", "s64"]), ("max", ["u32", "s32", "u64", "s64"])]


def size_of(t):
    t = t.split(".")[-1]
    return {"b16": 2, "f16": 2, "bf16": 2, "f16x2": 4, "bf16x2": 4, "f32": 4, "u32": 4, "s32": 4,
            "b32": 4, "u64": 8, "s64": 8, "b64": 8, "f64": 8}[t]


def reg_of(t):
    n = size_of(t)
    return {2: "%h", 4: "%r", 8: "%d"}[n]


def value(rng, t, dst, out):
    """Code that leaves a per-lane operand of type t in register dst (from %rt, the lane)."""
    k1, k2 = rng.randrange(1, 1 << 31) | 1, rng.randrange(1 << 32)
    out.append(f"\tmul.lo.u32 %rv, %rt, {k1};")
    out.append(f"\txor.b32 %rv, %rv, {k2};")
    base = t.split(".")[-1]
    if base in ("f32",):
        if rng.random() < 0.2:
            out.append(f"\tmov.b32 {dst}, %rv;")                 # any bits: NaNs, infinities
        else:
            out.append("\tshr.s32 %rw, %rv, 12;")
            out.append("\tcvt.rn.f32.s32 %fv, %rw;")
            out.append(f"\tmul.rn.f32 %fv, %fv, 0f{rng.choice(['3A800000', '3F800000', '2F800000', '4B000000'])};")
            out.append(f"\tmov.b32 {dst}, %fv;")
    elif base == "f64":
        if rng.random() < 0.2:
            out.append("\tmul.wide.u32 %dw, %rv, 2654435761;")
            out.append(f"\tmov.b64 {dst}, %dw;")
        else:
            out.append("\tshr.s32 %rw, %rv, 8;")
            out.append("\tcvt.rn.f64.s32 %fd, %rw;")
            out.append(f"\tmul.rn.f64 %fd, %fd, 0d{rng.choice(['3E70000000000000', '3FF0000000000000', '3CB0000000000000'])};")
            out.append(f"\tmov.b64 {dst}, %fd;")
    elif base in ("f16", "bf16", "b16"):
        mask = rng.choice(["0x3fff", "0x7fff", "0xbfff", "0xffff", "0x83ff"])
        out.append(f"\tshr.u32 %rw, %rv, {rng.randrange(0, 17)};")
        out.append(f"\tand.b32 %rw, %rw, {mask};")
        out.append(f"\tcvt.u16.u32 {dst}, %rw;")
    elif base in ("f16x2", "bf16x2"):
        mask = rng.choice(["0x3fff3fff", "0x7fff7fff", "0xbfffbfff", "0xffffffff", "0x83ff03ff"])
        out.append(f"\tand.b32 {dst}, %rv, {mask};")
    elif size_of(t) == 8:
        out.append(f"\tmul.wide.u32 %dw, %rv, {rng.randrange(1, 1 << 32)};")
        out.append(f"\tshr.u64 %dw, %dw, {rng.choice([0, 8, 30, 40, 60])};")
        out.append(f"\tmov.b64 {dst}, %dw;")
    else:
        out.append(f"\tshr.u32 %rw, %rv, {rng.choice([0, 4, 16, 28, 31])};")
        out.append(f"\tmov.b32 {dst}, %rw;")


def program(seed):
    rng = random.Random(seed)
    body = []
    slot = 0
    for _ in range(rng.randrange(10, LOG + 1)):
        op, types = rng.choice(OPS)
        t = rng.choice(types)
        red = op not in ("cas", "exch") and rng.random() < 0.3
        sz = size_of(t)
        space = rng.choice(["global", "shared", "gglobal", "gshared"])
        # where the lanes go: one address, a few, one each
        pat = rng.choice(["same", "mod", "div", "lane"])
        c = rng.randrange(0, 256 // sz) * sz
        body.append(f"\t// {'red' if red else 'atom'} {op}.{t} on {space}, lanes: {pat}")
        if pat == "same":
            body.append(f"\tmov.u32 %ro, {c};")
        else:
            m = rng.choice([2, 3, 4, 5, 8, 16])
            n = 256 // sz
            if pat == "mod":
                body.append(f"\trem.u32 %ro, %rt, {m};")
            elif pat == "div":
                body.append(f"\tdiv.u32 %ro, %rt, {m};")
            else:
                body.append("\tmov.u32 %ro, %rt;")
            body.append(f"\tadd.u32 %ro, %ro, {c // sz};")
            body.append(f"\trem.u32 %ro, %ro, {n};")
            body.append(f"\tmul.lo.u32 %ro, %ro, {sz};")
        body.append("\tcvt.u64.u32 %do, %ro;")
        base = {"global": "%ag", "shared": "%as", "gglobal": "%gg", "gshared": "%gs"}[space]
        body.append(f"\tadd.s64 %dadr, {base}, %do;")
        sp = "" if space.startswith("g") and space != "global" else "." + space
        sem = ""
        if rng.random() < 0.5:
            sem = rng.choice([".relaxed", ".acquire", ".release", ".acq_rel"]) if not red else \
                rng.choice([".relaxed", ".release"])
            sem += rng.choice([".cta", ".gpu", ".sys"])
        r = reg_of(t)
        value(rng, t, f"{r}b", body)
        if op == "cas":
            # compare with what the lane reads there now (the first lane to swap wins) or
            # with a small number
            if rng.random() < 0.7:
                ld_t = {2: "b16", 4: "b32", 8: "b64"}[sz]
                body.append(f"\tld.volatile{sp}.{ld_t} {r}c, [%dadr];")
            else:
                body.append(f"\tmov.b{sz * 8} {r}c, {rng.randrange(0, 4)};")
            body.append(f"\tatom{sem}{sp}.cas.{t} {r}a, [%dadr], {r}c, {r}b;")
        elif red:
            body.append(f"\tred{sem}{sp}.{op}.{t} [%dadr], {r}b;")
        else:
            body.append(f"\tatom{sem}{sp}.{op}.{t} {r}a, [%dadr], {r}b;")
        if not red:
            st_t = {2: "b16", 4: "b32", 8: "b64"}[sz]
            body.append(f"\tst.global.{st_t} [%dl+{slot * 8}], {r}a;")
            slot += 1
    head = f"""// atom_fuzz: generated by tests/golden/gen_atom.py (seed {seed}); expected output from the H100.
.version 8.1
.target sm_90
.address_size 64

.visible .entry atom_fuzz(.param .u64 tab_p, .param .u64 log_p)
{{
	.shared .align 16 .b8 stab[256];
	.reg .b16 %ha, %hb, %hc;
	.reg .b32 %rt, %rcta, %ro, %rv, %rw, %ra, %rb, %rc, %rx;
	.reg .f32 %fv;
	.reg .f64 %fd;
	.reg .b64 %ag, %as, %gg, %gs, %dl, %do, %dadr, %dw, %da, %db, %dc, %dx;
	mov.u32 %rt, %tid.x;
	mov.u32 %rcta, %ctaid.x;
	ld.param.u64 %ag, [tab_p];
	cvta.to.global.u64 %ag, %ag;
	mul.wide.u32 %do, %rcta, 512;
	add.s64 %ag, %ag, %do;
	ld.param.u64 %dl, [log_p];
	cvta.to.global.u64 %dl, %dl;
	mad.lo.u32 %rx, %rcta, 32, %rt;
	mul.wide.u32 %do, %rx, {LOG * 8};
	add.s64 %dl, %dl, %do;
	mov.u64 %as, stab;
	cvta.global.u64 %gg, %ag;
	cvta.shared.u64 %gs, %as;
	// the shared table starts as the CTA's second 256 bytes
	mul.wide.u32 %do, %rt, 8;
	add.s64 %dx, %ag, %do;
	ld.global.b64 %dw, [%dx+256];
	add.s64 %dx, %as, %do;
	st.shared.b64 [%dx], %dw;
	bar.sync 0;
"""
    tail = """	bar.sync 0;
	mul.wide.u32 %do, %rt, 8;
	add.s64 %dx, %as, %do;
	ld.shared.b64 %dw, [%dx];
	add.s64 %dx, %ag, %do;
	st.global.b64 [%dx+256], %dw;
	ret;
}
"""
    text = "\n".join(body) + "\n"
    # initial tables: random words, a quarter of them small
    rngv = random.Random(seed * 7 + 1)
    words = []
    for _ in range(2 * 512 // 4):
        words.append(str(rngv.randrange(0, 4) if rngv.random() < 0.25 else rngv.randrange(1 << 32)))
    cmd = f"-g 2 -b 32 -o hex u32[]={','.join(words)}:out b64[{2 * 32 * LOG}]:out\n"
    return head + text + tail, cmd


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for seed in range(first, first + count):
        ptx, cmd = program(seed)
        with open(f"tests/golden/atom_fuzz_{seed}.ptx", "w") as f:
            f.write(ptx)
        with open(f"tests/golden/atom_fuzz_{seed}.cmd", "w") as f:
            f.write(cmd)


if __name__ == "__main__":
    main()
