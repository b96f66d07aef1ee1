#!/usr/bin/env python3
"""atom_gen.py: writes the atomics goldens' kernels and arguments (tests/golden/atom_*.ptx
and .cmd): every operation, type and space of atom and red applied by each thread to its
own slots, so that every result is a pure function of the thread's inputs and the output
does not depend on the order the GPU runs the threads in.  The .out files are recorded on
the H100 (record.sh), never written here.
    tests/golden/atom_gen.py            (rewrites the .ptx and .cmd files)
Each kernel takes A, B, C (a thread's initial memory value and operands), NEW (the memory
after each operation) and OLD (what atom returned); operation k of thread i uses element
k * N + i of NEW and OLD."""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
N = 64                      # threads: two warps

HEAD = """// {name}.ptx: written by atom_gen.py ({what}).
.version 8.7
.target sm_90
.address_size 64
"""

# A family: element bytes, register class, the loads' bit type, operations (modifiers
# before the type, the type) and spaces.
SPACES_ALL = ["global", "shared", "gen_global", "gen_shared"]


def reg_decl(es):
    return {2: ".b16", 4: ".b32", 8: ".b64", 16: ".b128"}[es]


def kernel(name, what, es, ops, red_ops, vec_ops=None):
    """ops: list of (modifiers, type, spaces); red_ops the same for red; vec_ops: list of
    (modifiers, vec, type, spaces) with es the element size."""
    slots = len(ops) + len(red_ops) + (len(vec_ops) if vec_ops else 0)
    slot_bytes = 16 if vec_ops else es
    L = []
    L.append(HEAD.format(name=name, what=what))
    L.append(f".visible .entry {name}(.param .u64 pa, .param .u64 pb, .param .u64 pc, "
             f".param .u64 pnew, .param .u64 pold)")
    L.append("{")
    L.append(" .reg .pred %p<4>;")
    L.append(" .reg .b32 %r<32>;")
    L.append(" .reg .b64 %rd<64>;")
    rt = reg_decl(es)
    L.append(f" .reg {rt} %v<40>;")
    if es == 16:
        L.append(" .reg .b64 %w<8>;")
    L.append(f" .shared .align 16 .b8 sh[{N * slot_bytes}];")
    L.append(" ld.param.u64 %rd1, [pa];")
    L.append(" ld.param.u64 %rd2, [pb];")
    L.append(" ld.param.u64 %rd3, [pc];")
    L.append(" ld.param.u64 %rd4, [pnew];")
    L.append(" ld.param.u64 %rd5, [pold];")
    L.append(" mov.u32 %r1, %tid.x;")
    L.append(f" mul.wide.u32 %rd6, %r1, {slot_bytes};")
    L.append(" add.s64 %rd7, %rd1, %rd6;")
    L.append(" add.s64 %rd8, %rd2, %rd6;")
    L.append(" add.s64 %rd9, %rd3, %rd6;")
    L.append(" mov.u32 %r2, sh;")
    L.append(f" mul.lo.u32 %r3, %r1, {slot_bytes};")
    L.append(" add.u32 %r4, %r2, %r3;")            # the thread's shared slot (32-bit)
    L.append(" cvt.u64.u32 %rd10, %r4;")
    L.append(" cvta.shared.u64 %rd11, %rd10;")    # ... and its generic address
    nelem = slot_bytes // es
    bt = {2: "b16", 4: "b32", 8: "b64", 16: "b64"}[es]
    # Values: %v0.. a, %v10.. b, %v20.. c (elements of a vector slot in order).
    if es == 16:
        for src, base in (("%rd7", 0), ("%rd8", 10), ("%rd9", 20)):
            L.append(f" ld.global.v2.b64 {{%w0, %w1}}, [{src}];")
            L.append(f" mov.b128 %v{base}, {{%w0, %w1}};")
    else:
        for src, base in (("%rd7", 0), ("%rd8", 10), ("%rd9", 20)):
            for e in range(nelem):
                L.append(f" ld.global.{bt} %v{base + e}, [{src}+{e * es}];")
    k = 0

    def st_slot(addr_reg, regs, space="global"):
        if es == 16:
            L.append(f" mov.b128 {{%w2, %w3}}, {regs[0]};")
            L.append(f" st.{space}.v2.b64 [{addr_reg}], {{%w2, %w3}};")
        else:
            for e, r in enumerate(regs):
                L.append(f" st.{space}.{bt} [{addr_reg}+{e * es}], {r};")

    def ld_slot(addr_reg, regs, space):
        if es == 16:
            L.append(f" ld.{space}.v2.b64 {{%w2, %w3}}, [{addr_reg}];")
            L.append(f" mov.b128 {regs[0]}, {{%w2, %w3}};")
        else:
            for e, r in enumerate(regs):
                L.append(f" ld.{space}.{bt} {r}, [{addr_reg}+{e * es}];")

    def one(opname, mods, typ, space, vec=1, red=False):
        nonlocal k
        off = k * N * slot_bytes
        L.append(f" // {k}: {opname} {mods} {typ} {space} v{vec}")
        L.append(f" add.s64 %rd20, %rd4, {off};")
        L.append(" add.s64 %rd20, %rd20, %rd6;")     # NEW slot
        L.append(f" add.s64 %rd21, %rd5, {off};")
        L.append(" add.s64 %rd21, %rd21, %rd6;")     # OLD slot
        a = [f"%v{e}" for e in range(vec)]
        b = [f"%v{10 + e}" for e in range(vec)]
        d = [f"%v{30 + e}" for e in range(vec)]
        if space in ("global", "gen_global"):
            st_slot("%rd20", a)
            where = "%rd20"
        else:
            st_slot("%r4", a, "shared")
            where = "%r4" if space == "shared" else "%rd11"
        sp = {"global": ".global", "shared": ".shared", "gen_global": "", "gen_shared": ""}[space]
        vs = f".v{vec}" if vec > 1 else ""
        dv = "{" + ", ".join(d) + "}" if vec > 1 else d[0]
        bv = "{" + ", ".join(b) + "}" if vec > 1 else b[0]
        sem, _, op = mods.rpartition(":")
        cas = op == "cas"
        semp = sem + "." if sem else ""
        if red:
            L.append(f" red.{semp}{sp.lstrip('.') + '.' if sp else ''}{op}{vs}.{typ} [{where}], {bv};")
        else:
            extra = ", %v20" if cas else ""
            L.append(f" atom.{semp}{sp.lstrip('.') + '.' if sp else ''}{op}{vs}.{typ} {dv}, [{where}], {bv}{extra};")
        if space in ("shared", "gen_shared"):
            # Read the shared slot back and copy it to NEW (element by element).
            for e in range(vec):
                r = "%v39"
                if es == 16:
                    ld_slot("%r4", [r], "shared")
                    st_slot("%rd20", [r])
                else:
                    L.append(f" ld.shared.{bt} {r}, [%r4+{e * es}];")
                    L.append(f" st.global.{bt} [%rd20+{e * es}], {r};")
        if not red:
            st_slot("%rd21", d)
        k += 1

    for mods, typ, spaces in ops:
        for s in spaces:
            one(mods, mods, typ, s)
    for mods, typ, spaces in red_ops:
        for s in spaces:
            one(mods, mods, typ, s, red=True)
    for mods, vec, typ, spaces, red in (vec_ops or []):
        for s in spaces:
            one(mods, mods, typ, s, vec=vec, red=red)
    L.append(" ret;")
    L.append("}")
    return "\n".join(L) + "\n", k


def count(ops):
    return sum(len(o[2]) for o in ops)


def fmt_list(t, vals, width):
    return f"{t}[]=" + ",".join("0x%0*x" % (width, v) for v in vals)


def write(name, text, cmd):
    with open(os.path.join(HERE, name + ".ptx"), "w") as f:
        f.write(text)
    with open(os.path.join(HERE, name + ".cmd"), "w") as f:
        f.write(cmd + "\n")


def pad(vals, n, rnd, bits):
    vals = list(vals)[:n]
    while len(vals) < n:
        vals.append(rnd.getrandbits(bits))
    return vals


def main():
    rnd = random.Random(20261125)
    # --- 32-bit integers ---
    ops = [("add", "u32", SPACES_ALL), ("add", "s32", ["global"]), ("inc", "u32", SPACES_ALL),
           ("dec", "u32", SPACES_ALL), ("min", "u32", SPACES_ALL), ("max", "u32", SPACES_ALL),
           ("min", "s32", SPACES_ALL), ("max", "s32", SPACES_ALL), ("and", "b32", SPACES_ALL),
           ("or", "b32", ["global", "shared"]), ("xor", "b32", ["global", "shared"]),
           ("exch", "b32", SPACES_ALL), ("cas", "b32", SPACES_ALL),
           ("relaxed.cta:add", "u32", ["global"]), ("acquire.gpu:max", "s32", ["global"]),
           ("release.sys:exch", "b32", ["global"]), ("acq_rel.cluster:cas", "b32", ["global", "shared"]),
           ("acq_rel.gpu:inc", "u32", ["shared"])]
    red = [("add", "u32", ["global", "shared", "gen_global"]), ("add", "s32", ["global"]),
           ("inc", "u32", ["global", "shared"]), ("dec", "u32", ["global", "shared"]),
           ("min", "u32", ["global"]), ("max", "s32", ["global", "shared"]), ("and", "b32", ["global"]),
           ("or", "b32", ["shared"]), ("xor", "b32", ["global"]), ("release.gpu:add", "u32", ["global"])]
    edge_a = [0, 0, 1, 5, 9, 10, 11, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 3, 3, 100, 0, 7]
    edge_b = [0, 9, 9, 9, 9, 9, 9, 0xffffffff, 1, 0xffffffff, 0x7fffffff, 3, 0, 0xffffffff, 0xffffffff, 6]
    A = pad(edge_a, N, rnd, 32)
    B = pad(edge_b, N, rnd, 32)
    for i in range(len(edge_b), N):    # small operands for inc and dec's wrap
        if i % 4 == 1:
            B[i] = rnd.randrange(0, 40)
            A[i] = rnd.randrange(0, 44)
        if i % 4 == 2:
            B[i] = A[i]
    C = pad([], N, rnd, 32)
    Cc = [A[i] if i % 3 == 0 else C[i] for i in range(N)]
    Bc = [A[i] if i % 2 == 0 else B[i] for i in range(N)]
    text, k = kernel("atom_int32", "32-bit integer atom and red, per-thread slots", 4, ops, red)
    write("atom_int32", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b32", A, 8), fmt_list("b32", Bc, 8), fmt_list("b32", Cc, 8),
         f"b32[{k * N}]:out", f"b32[{k * N}]:out"]))
    # --- 64-bit integers ---
    ops = [("add", "u64", SPACES_ALL), ("min", "u64", SPACES_ALL), ("max", "u64", SPACES_ALL),
           ("min", "s64", SPACES_ALL), ("max", "s64", SPACES_ALL), ("and", "b64", ["global", "shared"]),
           ("or", "b64", SPACES_ALL), ("xor", "b64", ["global", "shared"]), ("exch", "b64", SPACES_ALL),
           ("cas", "b64", SPACES_ALL), ("acq_rel.gpu:add", "u64", ["global"])]
    red = [("add", "u64", ["global", "shared"]), ("min", "s64", ["global"]), ("max", "u64", ["shared"]),
           ("and", "b64", ["global"]), ("or", "b64", ["global"]), ("xor", "b64", ["shared"])]
    edge_a = [0, 1, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffff, 0x100000000, 5]
    edge_b = [0, 0xffffffffffffffff, 1, 0x8000000000000000, 0x7fffffffffffffff, 1, 0xffffffff, 5]
    A = pad(edge_a, N, rnd, 64)
    B = pad(edge_b, N, rnd, 64)
    C = pad([], N, rnd, 64)
    Bc = [A[i] if i % 2 == 0 else B[i] for i in range(N)]
    text, k = kernel("atom_int64", "64-bit integer atom and red, per-thread slots", 8, ops, red)
    write("atom_int64", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b64", A, 16), fmt_list("b64", Bc, 16), fmt_list("b64", C, 16),
         f"b64[{k * N}]:out", f"b64[{k * N}]:out"]))
    # --- f32 add: subnormals, NaNs, infinities, overflow, signed zeros, ties ---
    pairs = [(0x00000001, 0x00000000), (0x00000001, 0x00000001), (0x007fffff, 0x00000001),
             (0x00800000, 0x80000001), (0x00800001, 0x80800000), (0x00c00000, 0x80800000),
             (0x80000001, 0x00000000), (0x80000000, 0x00000000), (0x80000000, 0x80000000),
             (0x3f800000, 0xbf800000), (0x7fc00000, 0x3f800000), (0x3f800000, 0x7fc00001),
             (0x7f800001, 0x3f800000), (0xffc00123, 0x7fc00456), (0x7f800000, 0xff800000),
             (0x7f7fffff, 0x7f7fffff), (0xff7fffff, 0xff7fffff), (0x3f800000, 0x33800000),
             (0x3f800001, 0x33800000), (0x4b800000, 0x3f800000), (0x00400000, 0x00400000),
             (0x00800000, 0x00800000), (0x3f800000, 0x00000001), (0x80800000, 0x00000001),
             (0x7f800000, 0x3f800000), (0xff800000, 0x7fc00000), (0x00000000, 0x80000000),
             (0x01000000, 0x80ffffff), (0x00ffffff, 0x80800000), (0x3fc00000, 0x40100000)]
    A = [p[0] for p in pairs]
    B = [p[1] for p in pairs]
    while len(A) < N:
        A.append(rnd.getrandbits(32) & 0x8fffffff if len(A) % 3 else rnd.getrandbits(32) & 0x80ffffff)
        B.append(rnd.getrandbits(32) & 0x8fffffff if len(B) % 3 else rnd.getrandbits(32) & 0x80ffffff)
    ops = [("add", "f32", SPACES_ALL), ("relaxed.gpu:add", "f32", ["global"]), ("exch", "b32", ["global"])]
    red = [("add", "f32", ["global", "shared", "gen_global", "gen_shared"])]
    text, k = kernel("atom_f32", "f32 add (and exch of float bits), per-thread slots", 4, ops, red)
    write("atom_f32", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b32", A, 8), fmt_list("b32", B, 8), fmt_list("b32", [0] * N, 8),
         f"b32[{k * N}]:out", f"b32[{k * N}]:out"]))
    # --- f64 add ---
    pairs = [(0x0000000000000001, 0x0000000000000001), (0x000fffffffffffff, 0x0000000000000001),
             (0x0010000000000000, 0x8000000000000001), (0x8000000000000001, 0),
             (0x8000000000000000, 0), (0x8000000000000000, 0x8000000000000000),
             (0x7ff8000000000000, 0x3ff0000000000000), (0x3ff0000000000000, 0x7ff8000000000123),
             (0x7ff0000000000001, 0x3ff0000000000000), (0xfff8000000000abc, 0x7ff8000000000def),
             (0x7ff0000000000000, 0xfff0000000000000), (0x7fefffffffffffff, 0x7fefffffffffffff),
             (0x3ff0000000000000, 0x3ca0000000000000), (0x3ff0000000000001, 0x3ca0000000000000),
             (0x3ff0000000000000, 0xbff0000000000000), (0x4000000000000000, 0x0000000000000001)]
    # Signalling NaNs in either operand (they take the places of random pairs).
    more = [(0x3ff0000000000000, 0x7ff0000000000002), (0x7ff0000000000003, 0x7ff8000000000004),
            (0xfff0000000000005, 0x7ff0000000000006), (0x7ff8000000000007, 0xfff0000000000008),
            (0xfff0000000000000, 0x7ff0000000000009), (0x000fffffffffffff, 0x000fffffffffffff)]
    A = [p[0] for p in pairs]
    B = [p[1] for p in pairs]
    while len(A) < N:
        A.append(rnd.getrandbits(64) & 0x80ffffffffffffff)
        B.append(rnd.getrandbits(64) & 0x80ffffffffffffff)
    for i, (x, y) in enumerate(more):
        A[len(pairs) + i], B[len(pairs) + i] = x, y
    ops = [("add", "f64", SPACES_ALL), ("acq_rel.sys:add", "f64", ["global"])]
    red = [("add", "f64", ["global", "shared"])]
    text, k = kernel("atom_f64", "f64 add, per-thread slots", 8, ops, red)
    write("atom_f64", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b64", A, 16), fmt_list("b64", B, 16), fmt_list("b64", [0] * N, 16),
         f"b64[{k * N}]:out", f"b64[{k * N}]:out"]))
    # --- 16-bit: f16 and bf16 add, cas.b16 ---
    pairs = [(0x0001, 0x0001), (0x03ff, 0x0001), (0x0400, 0x8001), (0x8001, 0x0000), (0x8000, 0x8000),
             (0x8000, 0x0000), (0x3c00, 0xbc00), (0x7e00, 0x3c00), (0x3c00, 0x7e01), (0x7c01, 0x3c00),
             (0xfe12, 0x7e34), (0x7c00, 0xfc00), (0x7bff, 0x7bff), (0x7bff, 0x0001), (0x3c00, 0x1000),
             (0x3c01, 0x1000), (0x0080, 0x0001), (0x007f, 0x8001), (0x7f7f, 0x7f7f), (0x7fc0, 0x3f80),
             (0x3f80, 0x3b80), (0x3f81, 0x3b80), (0xffc1, 0x7fc2), (0x7f80, 0xff80)]
    A = [p[0] for p in pairs]
    B = [p[1] for p in pairs]
    while len(A) < N:
        A.append(rnd.getrandbits(16))
        B.append(rnd.getrandbits(16))
    C = pad([], N, rnd, 16)
    Bc = [A[i] if i % 2 == 0 else B[i] for i in range(N)]
    ops = [("add.noftz", "f16", SPACES_ALL), ("add.noftz", "bf16", SPACES_ALL),
           ("cas", "b16", SPACES_ALL), ("acquire.cta:add.noftz", "f16", ["global"])]
    red = [("add.noftz", "f16", ["global", "shared"]), ("add.noftz", "bf16", ["global", "gen_shared"])]
    text, k = kernel("atom_half", "f16 and bf16 add, cas.b16, per-thread slots", 2, ops, red)
    write("atom_half", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b16", A, 4), fmt_list("b16", B, 4), fmt_list("b16", C, 4),
         f"b16[{k * N}]:out", f"b16[{k * N}]:out"]))
    # --- packed halves: f16x2, bf16x2 add ---
    A2 = [A[i] | A[(i + 7) % N] << 16 for i in range(N)]
    B2 = [B[i] | B[(i + 11) % N] << 16 for i in range(N)]
    ops = [("add.noftz", "f16x2", SPACES_ALL), ("add.noftz", "bf16x2", SPACES_ALL)]
    red = [("add.noftz", "f16x2", ["global", "shared"]), ("add.noftz", "bf16x2", ["global"])]
    text, k = kernel("atom_half2", "f16x2 and bf16x2 add, per-thread slots", 4, ops, red)
    write("atom_half2", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b32", A2, 8), fmt_list("b32", B2, 8), fmt_list("b32", [0] * N, 8),
         f"b32[{k * N}]:out", f"b32[{k * N}]:out"]))
    # --- sm_90 vector atomics (global and generic addresses of global memory) ---
    G = ["global", "gen_global"]
    vec16 = []
    for typ in ("f16", "bf16"):
        for op in ("add.noftz", "min.noftz", "max.noftz"):
            for v in (2, 4, 8):
                vec16.append((op, v, typ, G if v == 8 else ["global"], False))
        vec16.append(("add.noftz", 8, typ, ["global"], True))
        vec16.append(("max.noftz", 4, typ, ["global"], True))
    # 16-bit elements: the slot's 16 bytes hold up to 8 elements.
    A16 = pad([p[0] for p in pairs] + [0x7e00, 0x3c00, 0x8000, 0x0000, 0xfc00, 0x7c00, 0xffff, 0x0000],
              N * 8, rnd, 16)
    B16 = pad([p[1] for p in pairs] + [0x3c00, 0x7e00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x0000, 0xffff],
              N * 8, rnd, 16)
    text, k = kernel("atom_vec16", "sm_90 vector atom and red of f16 and bf16", 2, [], [], vec16)
    write("atom_vec16", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b16", A16, 4), fmt_list("b16", B16, 4), fmt_list("b16", [0] * (N * 8), 4),
         f"b16[{k * N * 8}]:out", f"b16[{k * N * 8}]:out"]))
    vec32 = []
    for v in (2, 4):
        vec32.append(("add", v, "f32", G, False))
    for typ in ("f16x2", "bf16x2"):
        for op in ("add.noftz", "min.noftz", "max.noftz"):
            for v in (2, 4):
                vec32.append((op, v, typ, ["global"], False))
    vec32.append(("add", 4, "f32", ["global"], True))
    vec32.append(("min.noftz", 2, "f16x2", ["global"], True))
    vec32.append(("add.noftz", 4, "bf16x2", ["global"], True))
    A32 = pad([0x00000001, 0x7fc00000, 0x3f800000, 0x00800000, 0x7e003c00, 0x80000000, 0x00000000, 0x7f800000]
              + [a2 for a2 in A2], N * 4, rnd, 32)
    B32 = pad([0x00000001, 0x3f800000, 0x7fc00001, 0x80000001, 0x3c007e00, 0x00000000, 0x80000000, 0xff800000]
              + [b2 for b2 in B2], N * 4, rnd, 32)
    text, k = kernel("atom_vec32", "sm_90 vector atom and red of f32, f16x2 and bf16x2", 4, [], [], vec32)
    write("atom_vec32", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b32", A32, 8), fmt_list("b32", B32, 8), fmt_list("b32", [0] * (N * 4), 8),
         f"b32[{k * N * 4}]:out", f"b32[{k * N * 4}]:out"]))
    # --- 128-bit exch and cas ---
    A = pad([0, 1, 0xffffffffffffffff, 5, 5, 7], N * 2, rnd, 64)
    B = pad([0, 1, 0xffffffffffffffff, 5, 6, 7], N * 2, rnd, 64)
    C = pad([], N * 2, rnd, 64)
    for i in range(0, N, 2):           # cas: every other compare matches (both halves)
        B[2 * i], B[2 * i + 1] = A[2 * i], A[2 * i + 1]
    B[2 * 5 + 1] = A[2 * 5 + 1]        # one match of the low half only
    ops = [("exch", "b128", SPACES_ALL), ("cas", "b128", SPACES_ALL), ("acq_rel.gpu:cas", "b128", ["global"])]
    text, k = kernel("atom_b128", "sm_90 128-bit exch and cas, per-thread slots", 16, ops, [])
    write("atom_b128", text, f"-j 2 -b {N} -o hex " + " ".join(
        [fmt_list("b64", A, 16), fmt_list("b64", B, 16), fmt_list("b64", C, 16),
         f"b64[{k * N * 2}]:out", f"b64[{k * N * 2}]:out"]))

if __name__ == "__main__":
    main()
