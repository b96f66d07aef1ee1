#!/usr/bin/env python3
"""gen_rand.py: random shared- and global-memory access patterns for the memory model's
test: writes tests/stats/rand.ptx (one kernel per space, ld or st, and width of 1 to 16
bytes: each thread accesses the byte offset its element of an index buffer names, none
where it is 0xffffffff) and prints cases.txt lines (rand_N FILE:KERNEL ARGUMENTS): strides,
permutations of a window, broadcasts to a few addresses, random addresses, columns of a
pitched array, some lanes idle, CTAs of 17 to 128 threads.  The expected counts come from
Nsight Compute on the H100 (record.sh).  Run from the repository's root:
    tests/stats/gen_rand.py FIRST COUNT >> tests/stats/cases.txt"""
import random
import sys

TYPES = {8: "u8", 16: "u16", 32: "u32", 64: "v2.u32", 128: "v4.u32"}


def kernels():
    out = [".version 8.0\n.target sm_90\n.address_size 64\n"]
    for sp in ("shared", "global"):
        for op in ("ld", "st"):
            for w, t in TYPES.items():
                regs = "%rs" if w <= 16 else {32: "%r", 64: "{%r, %r2}", 128: "{%r, %r2, %r3, %r4}"}[w]
                base = "%ds" if sp == "shared" else "%dg"
                if op == "ld":
                    acc = f"ld.{sp}.{t} {regs}, [%da];"
                    use = "st.global.u32 [%dout], %r;" if w > 16 else "cvt.u32.u16 %r, %rs;\n\tst.global.u32 [%dout], %r;"
                else:
                    acc, use = f"st.{sp}.{t} [%da], {regs};", ""
                out.append(f"""
.visible .entry {sp[0]}_{op}_{w}(.param .u64 idx_p, .param .u64 g_p, .param .u64 out_p)
{{
	.shared .align 16 .b8 sm[8192];
	.reg .b16 %rs;
	.reg .b32 %t, %o, %r, %r2, %r3, %r4;
	.reg .b64 %di, %dg, %ds, %da, %dout, %dx;
	.reg .pred %p;
	mov.u32 %t, %tid.x;
	ld.param.u64 %di, [idx_p];
	ld.param.u64 %dg, [g_p];
	ld.param.u64 %dout, [out_p];
	mul.wide.u32 %dx, %t, 4;
	add.s64 %di, %di, %dx;
	add.s64 %dout, %dout, %dx;
	ld.global.u32 %o, [%di];
	setp.eq.u32 %p, %o, -1;
	@%p bra DONE;
	mov.u64 %ds, sm;
	cvt.u64.u32 %dx, %o;
	add.s64 %da, {base}, %dx;
	mov.u32 %r, %t;
	mov.u32 %r2, %t;
	mov.u32 %r3, %t;
	mov.u32 %r4, %t;
	cvt.u16.u32 %rs, %t;
	{acc}
	{use}
DONE:
	ret;
}}
""")
    return "".join(out)


def cases(first, count):
    rng = random.Random(11)
    lines = []
    for i in range(first + count):
        sp = rng.choice(["s", "g"])
        op = rng.choice(["ld", "st"])
        w = rng.choice([8, 16, 32, 32, 64, 128])
        b = rng.choice([32, 32, 64, 96, 128, 48, 17])
        eb = w // 8
        fam = rng.choice(["stride", "perm", "bcast", "rand", "rowcol"])
        win = 8192 if sp == "s" else 65536
        if fam == "stride":
            s = rng.choice([0, 1, 2, 3, 4, 5, 8, 16, 17, 32, 33, 64])
            off = rng.randrange(0, 64) * eb
            idx = [(off + l * s * eb) % win for l in range(b)]
        elif fam == "perm":
            n = rng.choice([32, 64, 128, 256])
            base = rng.randrange(0, (win // eb) - n)
            idx = [(base + rng.randrange(n)) * eb for _ in range(b)]
        elif fam == "bcast":
            k = rng.choice([1, 2, 3, 4, 8])
            addrs = [rng.randrange(0, win // eb) * eb for _ in range(k)]
            idx = [addrs[rng.randrange(k)] for _ in range(b)]
        elif fam == "rand":
            idx = [rng.randrange(0, win // eb) * eb for _ in range(b)]
        else:
            pitch = rng.choice([32, 33, 64, 65, 128]) * 4
            idx = [((l % 8) * pitch + (l // 8) * eb) % win for l in range(b)]
            idx = [x - x % eb for x in idx]
        if rng.random() < 0.3:
            idx = [x if rng.random() < 0.7 else 0xffffffff for x in idx]
        if i >= first:
            lines.append(f"rand_{i} rand.ptx:{sp}_{op}_{w} -b {b} u32[]={','.join(map(str, idx))} "
                         f"u8[65536] u32[{b}]")
    return lines


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    with open("tests/stats/rand.ptx", "w") as f:
        f.write(kernels())
    print("\n".join(cases(first, count)))


if __name__ == "__main__":
    main()
