#!/usr/bin/env python3
"""gen_vec.py: writes vec.ptx, the kernels of the vec_* cases of cases.txt: groups of
shared-memory loads and stores of one base register at constant offsets, which ptxas merges
into 64- and 128-bit accesses where it can prove their alignment (exec/stats/model.c,
vectorise).  Each kernel (one warp) fills a 4 KiB shared array with 4-byte stores 128 bytes
apart (never merged), waits at a barrier, then reads its pattern from base = array + (lane
<< SHIFT) + EXTRA and stores the sum to out[lane].
    tests/stats/gen_vec.py > tests/stats/vec.ptx"""

CASES = [
    # name, shift, extra, offsets (loads, or stores with "st"), options
    ("row16_4", 4, 0, [0, 4, 8, 12], ""),
    ("row64_16", 6, 0, list(range(0, 64, 4)), ""),
    ("align8", 3, 0, [0, 4, 8, 12], ""),
    ("align4", 2, 0, [0, 4, 8, 12], ""),
    ("off4", 4, 0, [4, 8, 12, 16], ""),
    ("off8", 4, 0, [8, 12, 16, 20], ""),
    ("shuffled", 4, 0, [8, 0, 12, 4], ""),
    ("three", 4, 0, [0, 4, 8], ""),
    ("pair", 4, 0, [0, 4], ""),
    ("store_between", 4, 0, [0, 4, "st", 8, 12], ""),
    ("bar_between", 4, 0, [0, 4, "bar", 8, 12], ""),
    ("volatile", 4, 0, [0, 4, 8, 12], "volatile"),
    ("f64_pair", 4, 0, [0, 8], "f64"),
    ("stores", 4, 0, [0, 4, 8, 12], "stores"),
    ("generic", 4, 0, [0, 4, 8, 12], "generic"),
    ("dynamic", 4, 0, [0, 4, 8, 12], "dynamic"),
    ("u16x2", 4, 0, [0, 2], "u16"),
    ("u16x3", 4, 0, [0, 2, 4], "u16"),
    ("u16x8", 4, 0, list(range(0, 16, 2)), "u16"),
    ("u8x8", 4, 0, list(range(8)), "u8"),
    ("v2_pair", 4, 0, [0, 8], "v2"),
    ("v2_off8", 4, 0, [8, 16], "v2"),
    ("v2_scalar", 4, 0, [0, "s8", "s12"], "v2"),
    ("words_1_2", 4, 0, [4, 8], ""),
    ("words_0_2", 4, 0, [0, 8], ""),
    ("stores_pair", 4, 0, [0, 4], "stores"),
    ("stores_three", 4, 0, [0, 4, 8], "stores"),
    ("global_masked", 4, 0, [0, 4, 8, 12], "global_masked"),
    ("global_var", 4, 0, [0, 4, 8, 12], "global_var"),
    ("global_reused", 4, 0, [0, 4, 8, 12], "global_reused"),
]

def kernel(name, shift, extra, offs, opt):
    arr = "dyn" if opt == "dynamic" else "sh"
    L = []
    L.append(f".visible .entry {name}(.param .u64 out)")
    L.append("{")
    L.append("    .reg .b32 %r<40>;\n    .reg .b16 %rs<20>;\n    .reg .f32 %f<40>;\n    .reg .f64 %fd<8>;\n    .reg .b64 %rd<20>;\n    .reg .pred %p<4>;")
    if opt != "dynamic":
        L.append(f"    .shared .align 4 .b8 sh[4608];")
    L.append("    mov.u32 %r1, %tid.x;")
    L.append(f"    mov.u32 %r3, {arr};")
    # fill: word i of thread t at t*4 + 128*k, k = 0..35
    L.append("    shl.b32 %r10, %r1, 2;\n    add.s32 %r11, %r3, %r10;\n    mov.u32 %r12, 0;")
    L.append("$Lfill:\n    add.s32 %r13, %r12, %r1;\n    st.shared.u32 [%r11], %r13;\n    add.s32 %r11, %r11, 128;\n"
             "    add.s32 %r12, %r12, 32;\n    setp.lt.u32 %p1, %r12, 1152;\n    @%p1 bra $Lfill;")
    L.append("    bar.sync 0;")
    L.append(f"    shl.b32 %r4, %r1, {shift};\n    add.s32 %r5, %r3, %r4;")
    if extra:
        L.append(f"    add.s32 %r5, %r5, {extra};")
    if opt == "generic":
        L.append("    cvta.shared.u64 %rd7, %r5;")   # not: a generic address of a register (cvta of a u32)
    body = []
    sums = []
    k = 0
    if opt == "stores":
        for o in offs:
            body.append(f"    add.s32 %r{20 + k}, %r1, {o};\n    st.shared.u32 [%r5+{o}], %r{20 + k};")
            k += 1
        body.append("    bar.sync 0;\n    ld.shared.f32 %f10, [%r5];")
        sums.append("%f10")
    else:
        for o in offs:
            if o == "st":
                body.append("    st.shared.u32 [sh+4096], %r1;")
                continue
            if o == "bar":
                body.append("    bar.sync 0;")
                continue
            if opt == "v2" and isinstance(o, str):
                body.append(f"    ld.shared.f32 %f{10 + k}, [%r5+{o[1:]}];")
            elif opt == "v2":
                body.append(f"    ld.shared.v2.f32 {{%f{10 + k}, %f{20 + k}}}, [%r5+{o}];\n"
                            f"    add.f32 %f{10 + k}, %f{10 + k}, %f{20 + k};")
            elif opt in ("u16", "u8"):
                body.append(f"    ld.shared.{opt} %rs{k}, [%r5+{o}];\n    cvt.rn.f32.{opt} %f{10 + k}, %rs{k};")
            elif opt == "global_masked":
                body.append(f"    ld.global.f32 %f{10 + k}, [%rd12+{o}];")
            elif opt in ("global_var", "global_reused"):
                body.append(f"    ld.global.f32 %f{10 + k}, [%rd12+{o}];")
            elif opt == "f64":
                body.append(f"    ld.shared.f64 %fd{k}, [%r5+{o}];\n    cvt.rn.f32.f64 %f{10 + k}, %fd{k};")
            elif opt == "volatile":
                body.append(f"    ld.volatile.shared.f32 %f{10 + k}, [%r5+{o}];")
            elif opt == "generic":
                body.append(f"    ld.f32 %f{10 + k}, [%rd8+{o}];")
            else:
                body.append(f"    ld.shared.f32 %f{10 + k}, [%r5+{o}];")
            sums.append(f"%f{10 + k}")
            k += 1
    if opt == "global_masked":   # the output buffer's first 2 KiB, 16-byte aligned by a mask
        L.append("    ld.param.u64 %rd13, [out];\n    cvta.to.global.u64 %rd14, %rd13;\n    add.s64 %rd15, %rd14, 15;\n"
                 "    and.b64 %rd10, %rd15, -16;\n    mul.wide.u32 %rd11, %r1, 16;\n    add.s64 %rd12, %rd10, %rd11;")
    if opt == "global_reused":   # the same, one register written again and again
        L.append("    ld.param.u64 %rd10, [out];\n    cvta.to.global.u64 %rd10, %rd10;\n    add.s64 %rd10, %rd10, 15;\n"
                 "    and.b64 %rd10, %rd10, -16;\n    mul.wide.u32 %rd11, %r1, 16;\n    add.s64 %rd12, %rd10, %rd11;")
    if opt == "global_var":      # a .global array of the module
        L.append("    mov.u64 %rd10, gv;\n    mul.wide.u32 %rd11, %r1, 16;\n    add.s64 %rd12, %rd10, %rd11;")
    if opt == "generic":
        L.append("    cvta.shared.u64 %rd8, sh;\n    cvt.u64.u32 %rd9, %r4;\n    add.s64 %rd8, %rd8, %rd9;")
        L = [l for l in L if "cvta.shared.u64 %rd7" not in l]
    L.extend(body)
    L.append("    mov.f32 %f9, 0f00000000;")
    for s_ in sums:
        L.append(f"    add.f32 %f9, %f9, {s_};")
    L.append("    ld.param.u64 %rd1, [out];\n    cvta.to.global.u64 %rd2, %rd1;\n    mul.wide.u32 %rd3, %r1, 4;\n"
             "    add.s64 %rd4, %rd2, %rd3;\n    st.global.f32 [%rd4], %f9;\n    ret;\n}\n")
    return "\n".join(L)

print("// vec.ptx: written by gen_vec.py (the vec_* cases of cases.txt)")
print(".version 8.8\n.target sm_90\n.address_size 64\n")
print(".extern .shared .align 4 .b8 dyn[];")
print(".global .align 16 .b8 gv[4096];\n")
for c in CASES:
    print(kernel(*c))
