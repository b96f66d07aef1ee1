#!/usr/bin/env python3
"""gen_mma_fp8.py: writes mma_fp8_all.ptx and .cmd, every mma.sync form on fp8 operands
the H100 takes (m16n8k16 and m16n8k32; A and B each e4m3 or e5m2; f32 or f16 c and d).

Thread t of CTA b loads its A, B and C words from a[4t..], b[2t..] and c[4t..] (f32; the
f16 forms pack them in pairs) and masks the fp8 bytes by CTA: b = 0 with 0xfb (no NaN or
infinity, every exponent: e5m2 sums overflow f16), b = 1 not at all (NaNs and
infinities), b = 2 with 0xbf (magnitudes below 2).  It stores its D registers of the 16
forms, 48 words, at d[48t..].  The expected output is the H100's (record.sh)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
T = ("e4m3", "e5m2")
CTAS, THREADS = 3, 128


def main():
    out = []
    w = out.append
    w(".version 8.7\n.target sm_90\n.address_size 64\n")
    w("// mma.sync on fp8 operands, every shape and type the H100 takes (gen_mma_fp8.py).")
    w(".visible .entry mma_fp8_all(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{")
    w("\t.reg .pred %p<4>;\n\t.reg .b32 %r<200>;\n\t.reg .f32 %f<200>;\n\t.reg .b64 %rd<16>;")
    w("\tld.param.u64 %rd1, [pa];\n\tld.param.u64 %rd2, [pb];\n\tld.param.u64 %rd3, [pc];\n\tld.param.u64 %rd4, [pd];")
    w("\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;")
    w("\tmad.lo.u32 %r1, %r2, %r3, %r1;")
    # mask by CTA: 0 -> 0xfbfbfbfb, 1 -> 0xffffffff, 2 -> 0xbfbfbfbf
    w("\tsetp.eq.u32 %p1, %r2, 0;\n\tsetp.eq.u32 %p2, %r2, 1;")
    w("\tselp.b32 %r20, 0xfbfbfbfb, 0xbfbfbfbf, %p1;\n\tselp.b32 %r20, 0xffffffff, %r20, %p2;")
    w("\tmul.wide.u32 %rd5, %r1, 16;\n\tadd.s64 %rd6, %rd1, %rd5;")
    w("\tld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd6];")
    for r in (4, 5, 6, 7):
        w(f"\tand.b32 %r{r}, %r{r}, %r20;")
    w("\tmul.wide.u32 %rd7, %r1, 8;\n\tadd.s64 %rd7, %rd2, %rd7;")
    w("\tld.global.v2.u32 {%r8, %r9}, [%rd7];")
    w("\tand.b32 %r8, %r8, %r20;\n\tand.b32 %r9, %r9, %r20;")
    w("\tadd.s64 %rd8, %rd3, %rd5;\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd8];")
    w("\tcvt.rn.f16x2.f32 %r10, %f2, %f1;\n\tcvt.rn.f16x2.f32 %r11, %f4, %f3;")
    w("\tmul.wide.u32 %rd9, %r1, 192;\n\tadd.s64 %rd10, %rd4, %rd9;")
    off, fr, rr = 0, 10, 30
    for shape in ("m16n8k32", "m16n8k16"):
        a = "{%r4, %r5, %r6, %r7}" if shape == "m16n8k32" else "{%r4, %r5}"
        b = "{%r8, %r9}" if shape == "m16n8k32" else "{%r8}"
        for ta in T:
            for tb in T:
                for td in ("f32", "f16"):
                    if td == "f32":
                        d = [f"%f{fr + i}" for i in range(4)]
                        fr += 4
                        c = "{%f1, %f2, %f3, %f4}"
                    else:
                        d = [f"%r{rr + i}" for i in range(2)]
                        rr += 2
                        c = "{%r10, %r11}"
                    w(f"\tmma.sync.aligned.{shape}.row.col.{td}.{ta}.{tb}.{td} {{{', '.join(d)}}}, {a}, {b}, {c};")
                    for i, x in enumerate(d):
                        w(f"\tst.global.b32 [%rd10+{off + 4 * i}], {x};")
                    off += 4 * len(d)
    assert off == 192
    w("\tret;\n}")
    with open(os.path.join(HERE, "mma_fp8_all.ptx"), "w") as f:
        f.write("\n".join(out) + "\n")
    n = CTAS * THREADS
    with open(os.path.join(HERE, "mma_fp8_all.cmd"), "w") as f:
        f.write(f"-g {CTAS} -b {THREADS} u32[{4 * n}]=rand(31) u32[{2 * n}]=rand(32) f32[{4 * n}]=rand(33) "
                f"u32[{48 * n}]:out\n")


if __name__ == "__main__":
    main()
