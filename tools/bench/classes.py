#!/usr/bin/env python3
"""classes.py: writes classes.ptx, one kernel per instruction class for ptxbench's
per-class table (docs/benchmarks.md): each thread runs N iterations of 16 dependent
instructions of the class on values made from its thread index, then stores one result.
Run from tools/bench: python3 classes.py > classes.ptx"""

# name, register type of the chain, init (from %r1 = tid, %r2 = ctaid), the instruction
# (d and a are the chain register, b and c are fixed operands of the same type)
CLASSES = [
    ("fma_f32",     "f32", "cvt.rn.f32.u32 {d}, %r1;", "fma.rn.f32 {d}, {d}, {b}, {c};", "0f3f7fff00", "0f3c000000"),
    ("add_s32",     "b32", "mov.b32 {d}, %r1;", "add.s32 {d}, {d}, {b};", "7", "3"),
    ("mul_lo_s32",  "b32", "mov.b32 {d}, %r1;", "mul.lo.s32 {d}, {d}, {b};", "1103515245", "3"),
    ("mad_lo_s32",  "b32", "mov.b32 {d}, %r1;", "mad.lo.s32 {d}, {d}, {b}, {c};", "1103515245", "12345"),
    ("and_b32",     "b32", "mov.b32 {d}, %r1;", "lop3.b32 {d}, {d}, {b}, {c}, 0x96;", "0x5555", "0x3333"),
    ("shf_b32",     "b32", "mov.b32 {d}, %r1;", "shf.l.wrap.b32 {d}, {d}, {d}, {b};", "3", "0"),
    ("setp_selp",   "b32", "mov.b32 {d}, %r1;", "SETP", "100", "0"),
    ("fma_f16",     "b16", "cvt.rn.f16.f32 {d}, {f};", "fma.rn.f16 {d}, {d}, {b}, {c};", "0x3bff", "0x1c00"),
    ("fma_f16x2",   "b32", "mov.b32 {d}, {{{h}, {h}}};", "fma.rn.f16x2 {d}, {d}, {b}, {c};", "0x3bff3bff", "0x1c001c00"),
    ("add_f16x2",   "b32", "mov.b32 {d}, {{{h}, {h}}};", "add.rn.f16x2 {d}, {d}, {b};", "0x1c001c00", "0"),
    ("fma_bf16x2",  "b32", "mov.b32 {d}, {{{h}, {h}}};", "fma.rn.bf16x2 {d}, {d}, {b}, {c};", "0x3f7f3f7f", "0x3c003c00"),
    ("fma_f64",     "f64", "cvt.rn.f64.u32 {d}, %r1;", "fma.rn.f64 {d}, {d}, {b}, {c};", "0d3fefffffffffffff", "0d3f80000000000000"),
    ("add_f64",     "f64", "cvt.rn.f64.u32 {d}, %r1;", "add.rn.f64 {d}, {d}, {b};", "0d3f80000000000000", "0"),
    ("cvt_f32_u32", "CVT", "", "", "", ""),
    ("cvt_f16_f32", "CVT16", "", "", "", ""),
    ("vadd_s32",    "b32", "mov.b32 {d}, %r1;", "vadd.s32.s32.s32.add {d}, {d}, {b}, {c};", "7", "3"),
    ("call_func",   "CALL", "", "", "", ""),
    ("call_inline", "INLINE", "", "", "", ""),
    ("vabsdiff4",   "b32", "mov.b32 {d}, %r1;", "vabsdiff4.u32.u32.u32.add {d}, {d}, {b}, {c};", "0x01020304", "5"),
    # memory: 16 accesses of the class per step, each thread at its own place (W bytes
    # apart: global in the output buffer's first 64 KiB, shared in a 4 KiB array)
    ("ld_global_f32",    "MEM", "4", "ld.global.f32 %f11, [%rd4];", "mov.b32 %r11, %f11;", ""),
    ("ld_global_v4_f32", "MEM", "16", "ld.global.v4.f32 {%f11, %f12, %f13, %f14}, [%rd4];", "mov.b32 %r11, %f14;", ""),
    ("ld_global_u8",     "MEM", "1", "ld.global.u8 %h11, [%rd4];", "cvt.u32.u16 %r11, %h11;", ""),
    ("st_global_v4_f32", "MEM", "16", "st.global.v4.f32 [%rd4], {%f10, %f10, %f10, %f10};", "mov.b32 %r11, %f10;", ""),
    ("st_global_u8",     "MEM", "1", "st.global.u8 [%rd4], %h10;", "cvt.u32.u16 %r11, %h10;", ""),
    ("ld_shared_v4_f32", "MEM", "16", "ld.shared.v4.f32 {%f11, %f12, %f13, %f14}, [%r13];", "mov.b32 %r11, %f14;", ""),
    ("ld_const_f32",     "MEM", "4", "ld.const.f32 %f11, [cbank+16];", "mov.b32 %r11, %f11;", ""),
    # what --use_fast_math and the math library emit
    ("fma_ftz_f32", "f32", "cvt.rn.f32.u32 {d}, %r1;", "fma.rn.ftz.f32 {d}, {d}, {b}, {c};", "0f3f7fff00", "0f3c000000"),
    ("fma_rm_f32",  "f32", "cvt.rn.f32.u32 {d}, %r1;", "fma.rm.f32 {d}, {d}, {b}, {c};", "0f3f7fff00", "0f3c000000"),
    ("min_ftz_f32", "f32", "cvt.rn.f32.u32 {d}, %r1;", "min.ftz.f32 {d}, {d}, {b};", "0f3f7fff00", "0"),
    ("cvt_rni_f32", "f32", "cvt.rn.f32.u32 {d}, %r1;", "cvt.rni.f32.f32 {d}, {d};", "0", "0"),
    ("rcp_approx_ftz", "f32", "cvt.rn.f32.u32 {d}, %r1;", "rcp.approx.ftz.f32 {d}, {d};", "0", "0"),
]

REG = {"f32": ("f", ".f32"), "b32": ("r", ".b32"), "b16": ("h", ".b16"), "f64": ("fd", ".f64")}

def body(name, t, init, insn, b, c):
    out = []
    if t == "CVT":
        # u32 -> f32 -> u32 round trip: two conversions per step (16 each)
        step = ["cvt.rn.f32.u32 %f10, %r10;", "cvt.rzi.u32.f32 %r10, %f10;", "add.u32 %r10, %r10, 1;"] * 8
        return "mov.b32 %r10, %r1;", step[:16], "mov.b32 %r11, %r10;"
    if t == "CALL":
        return "mov.b32 %r10, %r1;", CALL_STEP * 16, "mov.b32 %r11, %r10;"
    if t == "INLINE":
        return "mov.b32 %r10, %r1;", ["mad.lo.s32 %r10, %r10, 3, 1;"] * 16, "mov.b32 %r11, %r10;"
    if t == "CVT16":
        step = ["cvt.rn.f16.f32 %h10, %f10;", "cvt.f32.f16 %f10, %h10;"] * 8
        return "cvt.rn.f32.u32 %f10, %r1;", step, "cvt.rzi.u32.f32 %r11, %f10;"
    if t == "MEM":
        w = int(init)
        pre = ["mov.u32 %r5, %ntid.x;", "mad.lo.u32 %r6, %r2, %r5, %r1;", "and.b32 %r6, %r6, 4095;",
               "ld.param.u64 %rd1, [out];", f"mul.wide.u32 %rd2, %r6, {w};", "add.u64 %rd4, %rd1, %rd2;",
               f"mul.lo.u32 %r13, %r1, {w};", "mov.u32 %r14, smem;", "add.u32 %r13, %r13, %r14;",
               "cvt.rn.f32.u32 %f10, %r1;", "cvt.u16.u32 %h10, %r1;"]
        return "\n\t".join(pre), [insn] * 16, b
    p, _ = REG[t]
    d, bb, cc = f"%{p}10", f"%{p}11", f"%{p}12"
    pre = []
    if "{h}" in init:
        pre.append("cvt.rn.f32.u32 %f20, %r1;")
        pre.append("cvt.rn.f16.f32 %h20, %f20;")
        init = init.format(d=d, h="%h20")
    elif "{f}" in init:
        pre.append("cvt.rn.f32.u32 %f20, %r1;")
        init = init.format(d=d, f="%f20")
    else:
        init = init.format(d=d)
    pre.append(init)
    pre.append(f"mov.b{ {'f32': 32, 'b32': 32, 'b16': 16, 'f64': 64}[t] } {bb}, {b};".replace(" ", " ", 1))
    pre.append(f"mov.b{ {'f32': 32, 'b32': 32, 'b16': 16, 'f64': 64}[t] } {cc}, {c};")
    if insn == "SETP":
        step = ["setp.lt.u32 %p10, %r10, %r11;", "selp.b32 %r10, 3, 5, %p10;"] * 8
        step = [s for s in step]
        step = ["add.u32 %r10, %r10, %r1;", "setp.lt.u32 %p10, %r10, %r11;", "selp.b32 %r10, %r1, %r10, %p10;", "xor.b32 %r10, %r10, 1;"] * 4
    else:
        step = [insn.format(d=d, b=bb, c=cc)] * 16
    if t == "f32":
        fin = "mov.b32 %r11, %f10;"
    elif t == "b16":
        fin = "cvt.u32.u16 %r11, %h10;"
    elif t == "f64":
        fin = "cvt.rzi.u32.f64 %r11, %fd10;"
    else:
        fin = "mov.b32 %r11, %r10;"
    return "\n\t".join(pre), step, fin

def diverged():
    """diverged_add: each lane of the warp jumps (brx.idx on its lane index) to a block of
    its own, 16 add.s32 run by that lane alone, and the lanes meet again at the loop's end:
    every instruction of the blocks is a one-lane warp instruction."""
    out = [f".visible .entry diverged_add(.param .u64 out, .param .u32 n)\n{{",
           "\t.reg .pred %p<4>;\n\t.reg .b32 %r<21>;\n\t.reg .b64 %rd<5>;",
           "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tld.param.u32 %r3, [n];",
           "\tmov.u32 %r10, %r1;\n\tmov.u32 %r12, %laneid;\n\tmov.u32 %r4, 0;",
           "\tsetp.eq.u32 %p1, %r3, 0;\n\t@%p1 bra DONE;",
           "\tT: .branchtargets " + ", ".join(f"B{k}" for k in range(32)) + ";",
           "LOOP:\n\tbrx.idx %r12, T;"]
    for k in range(32):
        out.append(f"B{k}:")
        out += ["\tadd.s32 %r10, %r10, %r2;"] * 16
        out.append("\tbra.uni NEXT;")
    out += ["NEXT:", "\tadd.u32 %r4, %r4, 1;\n\tsetp.lt.u32 %p2, %r4, %r3;\n\t@%p2 bra LOOP;\nDONE:",
            "\tmov.b32 %r11, %r10;",
            "\tmov.u32 %r5, %ntid.x;\n\tmad.lo.u32 %r6, %r2, %r5, %r1;\n\tld.param.u64 %rd1, [out];"
            "\n\tmul.wide.u32 %rd2, %r6, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r11;\n\tret;\n}\n"]
    return "\n".join(out)

print("// classes.ptx: written by classes.py (ptxbench's per-class table); do not edit.")
print(".version 8.0\n.target sm_90\n.address_size 64\n")
print(".shared .align 16 .b8 smem[4096];\n.const .align 16 .b8 cbank[64];\n")
# A device function as nvcc calls one that is not inlined, and the same work inlined:
# call_func and call_inline do 16 x (x = x * 3 + 1) per iteration, one through 16 calls.
print(""".func (.param .b32 r) step(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	mad.lo.s32 %r2, %r1, 3, 1;
	st.param.b32 [r], %r2;
	ret;
}
""")
CALL_STEP = ["{", ".param .b32 param0;", "st.param.b32 [param0], %r10;", ".param .b32 retval0;",
             "call.uni (retval0), step, (param0);", "ld.param.b32 %r10, [retval0];", "}"]
for cls in CLASSES:
    name = cls[0]
    pre, step, fin = body(*cls)
    print(f".visible .entry {name}(.param .u64 out, .param .u32 n)\n{{")
    print("\t.reg .pred %p<21>;\n\t.reg .b16 %h<21>;\n\t.reg .b32 %r<21>;\n\t.reg .f32 %f<21>;\n\t.reg .f64 %fd<21>;\n\t.reg .b64 %rd<5>;")
    print("\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tld.param.u32 %r3, [n];")
    print(f"\t{pre}")
    print("\tmov.u32 %r4, 0;\n\tsetp.eq.u32 %p1, %r3, 0;\n\t@%p1 bra DONE;\nLOOP:")
    for s in step:
        print(f"\t{s}")
    print("\tadd.u32 %r4, %r4, 1;\n\tsetp.lt.u32 %p2, %r4, %r3;\n\t@%p2 bra LOOP;\nDONE:")
    print(f"\t{fin}")
    print("\tmov.u32 %r5, %ntid.x;\n\tmad.lo.u32 %r6, %r2, %r5, %r1;\n\tld.param.u64 %rd1, [out];\n\tmul.wide.u32 %rd2, %r6, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r11;\n\tret;\n}\n")
print(diverged())
