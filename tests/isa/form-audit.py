#!/usr/bin/env python3
"""form-audit.py: which forms of ld, st, atom, red, the fences, barriers, mbarriers,
asynchronous copies, warp instructions, prefetch, cvta, ldmatrix and stmatrix ptxas 13 takes, against ptxemu's
checker.

Each form (every combination of the modifiers below, a random share of them for atom and
red) goes into a one-instruction kernel, assembled with ptxas -arch=sm_90 and checked
with `ptxrun FILE --list`; a form one accepts and the other refuses is printed with
ptxas's reason.  Not part of `make check` (tens of thousands of ptxas runs); its result
when the rules were last changed: ld/st 7,776 forms, atom/red 15,692 (seed 2), sync
1,056, warp 337, matrix 771, none disagree.
    tests/isa/form-audit.py ldst|atom|sync|warp|matrix [SEED]     PTXAS and PTXRUN override the tools
"""
import itertools
import os
import random
import subprocess
import sys
import tempfile

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
PTXRUN = os.environ.get("PTXRUN", "build/bin/ptxrun")
HDR = (".version 8.7\n.target sm_90\n.address_size 64\n.visible .func (.param .b32 q) g()\n{\n"
       ".reg .b32 %r<9>;\n.reg .b64 %rd<10>;\n.reg .f32 %f<9>;\n.reg .f64 %fd<9>;\n.reg .b16 %h<9>;\n"
       ".reg .b128 %q<9>;\n.reg .pred %p<4>;\n.shared .align 16 .b8 sm[1024];\nmov.u64 %rd1, 0;\nmov.u32 %r1, 0;\n"
       "mov.u64 %rd2, sm;\nmov.u32 %r2, 32;\n")


def ldst_forms():
    sems = ["", ".volatile", ".relaxed.gpu", ".acquire.gpu", ".release.gpu", ".weak", ".mmio.relaxed.sys",
            ".relaxed.cta", ".acquire.cluster"]
    spaces = ["", ".global", ".shared", ".local", ".const", ".param", ".global.nc", ".shared::cta", ".shared::cluster"]
    caches = ["", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"]
    hints = ["", ".L1::evict_last", ".L1::no_allocate", ".L2::64B", ".L2::128B", ".L2::256B", ".L2::cache_hint",
             ".L1::evict_first", ".L1::evict_unchanged", ".L1::evict_normal", ".L2::evict_last",
             ".L1::evict_last.L2::cache_hint", ".L2::cache_hint.L2::64B"]
    n = 0
    for op in ["ld", "st"]:
        for sem, sp, c, h in itertools.product(sems, spaces, caches, hints):
            n += 1
            if c and h and n % 3:
                continue
            f = f"{op}{sem}{sp}{c}{h}.u32"
            hint = ", %rd2" if "cache_hint" in f else ""
            ins = (f"{f} %r1, [%rd1]" if op == "ld" else f"{f} [%rd1], %r1") + hint + ";"
            yield ins.replace("[%rd1]", "[q]") if ".param" in f else ins


def atom_forms(rng):
    sems = ["", ".relaxed", ".acquire", ".release", ".acq_rel", ".volatile", ".weak"]
    scopes = ["", ".cta", ".gpu", ".sys", ".cluster"]
    spaces = ["", ".global", ".shared", ".shared::cta", ".shared::cluster", ".local"]
    ops = [".add", ".inc", ".dec", ".min", ".max", ".and", ".or", ".xor", ".exch", ".cas"]
    types = {".u32": "%r", ".s32": "%r", ".u64": "%rd", ".s64": "%rd", ".b32": "%r", ".b64": "%rd", ".f32": "%f",
             ".f64": "%fd", ".f16": "%h", ".f16x2": "%r", ".bf16": "%h", ".bf16x2": "%r", ".b128": "%q", ".b16": "%h"}
    extra = ["", ".noftz", ".L2::cache_hint", ".v2", ".v4"]
    for op in ["atom", "red"]:
        for sem, sc, sp, o, t, x in itertools.product(sems, scopes, spaces, ops, types, extra):
            if rng.random() > 0.06 or (op == "red" and o in (".exch", ".cas")):
                continue
            R = types[t]
            vec = {".v2": 2, ".v4": 4}.get(x, 1)
            val = R + "1" if vec == 1 else "{" + ", ".join(f"{R}{i + 1}" for i in range(vec)) + "}"
            hint = ", %rd9" if "cache_hint" in x else ""
            name = f"{op}{sem}{sc}{sp}{o}{x}{t}"
            if op == "atom":
                d = R + "5" if vec == 1 else "{" + ", ".join(f"{R}{i + 5}" for i in range(vec)) + "}"
                yield f"{name} {d}, [%rd1], {val}" + (f", {R}2" if o == ".cas" else "") + hint + ";"
            else:
                yield f"{name} [%rd1], {val}" + hint + ";"


def sync_forms():
    for sem, sc in itertools.product(["", ".sc", ".acq_rel", ".acquire", ".release", ".relaxed", ".mbarrier_init",
                                      ".proxy.alias", ".proxy.async", ".proxy.async.global", ".proxy.async.shared::cta",
                                      ".proxy.async.shared::cluster", ".proxy.tensormap::generic.release",
                                      ".op_restrict.release"], ["", ".cta", ".cluster", ".gpu", ".sys"]):
        yield f"fence{sem}{sc};"
    for sc in ["", ".cta", ".gl", ".sys", ".gpu", ".cluster"]:
        yield f"membar{sc};"
    for op in ["bar", "barrier"]:
        for v, args in itertools.product(["", ".sync", ".arrive", ".red.popc.u32", ".red.and.pred", ".red.or.pred",
                                          ".aligned", ".sync.aligned", ".arrive.aligned", ".cta", ".cta.sync",
                                          ".cta.arrive", ".cta.red.popc.u32"], ["0", "0, 64", "%r1", "%r1, %r2"]):
            if ".red" in v:
                d = "%r4" if "popc" in v else "%p1"
                yield f"{op}{v} {d}, {args}, {'!' if 'pred' in v else ''}%p2;"
            else:
                yield f"{op}{v} {args};"
    for op, a in [("init", "[%rd2], %r2"), ("inval", "[%rd2]"), ("arrive", "%rd3, [%rd2]"), ("arrive", "%rd3, [%rd2], %r2"),
                  ("arrive.noComplete", "%rd3, [%rd2], %r2"), ("arrive_drop", "%rd3, [%rd2]"), ("expect_tx", "[%rd2], %r2"),
                  ("complete_tx", "[%rd2], %r2"), ("arrive.expect_tx", "%rd3, [%rd2], %r2"), ("test_wait", "%p1, [%rd2], %rd3"),
                  ("try_wait", "%p1, [%rd2], %rd3"), ("test_wait.parity", "%p1, [%rd2], %r1"),
                  ("try_wait.parity", "%p1, [%rd2], %r1"), ("pending_count", "%r4, %rd3"), ("arrive", "_, [%rd2]"),
                  ("try_wait", "%p1, [%rd2], %rd3, %r2")]:
        for sem, sc, sp in itertools.product(["", ".relaxed", ".acquire", ".release"], ["", ".cta", ".cluster"],
                                             ["", ".shared", ".shared::cta", ".shared::cluster"]):
            yield f"mbarrier.{op}{sem}{sc}{sp}.b64 {a};"
    for c, sz, sp, x in itertools.product([".ca", ".cg"], ["4", "8", "16"], [".shared.global", ".shared::cta.global"],
                                          ["", ".L2::128B", ".L2::cache_hint", ".L2::64B"]):
        hint = ", %rd5" if "cache_hint" in x else ""
        yield f"cp.async{c}{sp}{x} [%rd2], [%rd1], {sz}{hint};"
        yield f"cp.async{c}{sp}{x} [%rd2], [%rd1], {sz}, %r1{hint};"
    yield from ["cp.async.commit_group;", "cp.async.wait_group 0;", "cp.async.wait_group %r1;", "cp.async.wait_all;",
                "cp.async.mbarrier.arrive.b64 [%rd2];", "cp.async.mbarrier.arrive.noinc.b64 [%rd2];",
                "cp.async.mbarrier.arrive.shared.b64 [%rd2];", "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%rd2];",
                "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;", "cp.async.bulk.wait_group %r1;",
                "cp.async.bulk.wait_group.read 0;"]


def warp_forms():
    for m, t, sync in itertools.product(["", ".up", ".down", ".bfly", ".idx"], ["", ".b32", ".u32", ".f32", ".b64"],
                                        ["", ".sync"]):
        d = "%r4" if t != ".b64" else "%rd4"
        yield f"shfl{sync}{m}{t} {d}, %r5, 1, 31" + (", 0xffffffff;" if sync else ";")
        yield f"shfl{sync}{m}{t} {d}|%p1, %r5, %r1, 0x1f" + (", %r2;" if sync else ";")
    for m, t, sync in itertools.product(["", ".all", ".any", ".uni", ".ballot"], ["", ".pred", ".b32"], ["", ".sync"]):
        yield f"vote{sync}{m}{t} {'%r4' if m == '.ballot' else '%p1'}, %p2" + (", 0xffffffff;" if sync else ";")
    for m, t in itertools.product(["", ".any", ".all"], [".b32", ".b64", ".u32", ".s32", ".f32"]):
        a = "%rd5" if t == ".b64" else "%r5"
        yield f"match{m}.sync{t} %r4, {a}, 0xffffffff;"
        yield f"match{m}.sync{t} %r4|%p1, {a}, 0xffffffff;"
    for op, t in itertools.product(["", ".add", ".min", ".max", ".and", ".or", ".xor"],
                                   ["", ".u32", ".s32", ".b32", ".f32", ".u64", ".abs.f32", ".NaN.f32", ".abs.NaN.f32"]):
        yield f"redux.sync{op}{t} %r4, %r5, 0xffffffff;"
    for t in ["", ".sync", ".sync.b32", ".b32"]:
        yield f"activemask{t} %r4;"
        yield f"elect{t} %r4|%p1, 0xffffffff;"
    for m in ["", ".sync", ".sync.aligned", ".aligned"]:
        yield f"bar.warp{m} 0xffffffff;"
    for sp, lvl in itertools.product(["", ".global", ".local", ".shared", ".const"],
                                     [".L1", ".L2", ".L2::evict_last", ".L2::evict_normal", ".L1::evict_last", ""]):
        yield f"prefetch{sp}{lvl} [%rd1];"
    for sp, t in itertools.product(["", ".global", ".local", ".shared", ".const", ".param", ".shared::cta",
                                    ".shared::cluster"], [".u32", ".u64", ".b64"]):
        d = "%r4" if t == ".u32" else "%rd4"
        yield f"cvta{sp}{t} {d}, %rd1;"
        yield f"cvta.to{sp}{t} {d}, %rd1;"
        yield f"isspacep{sp} %p1, %rd1;"


def matrix_forms():
    for op, shape, num, trans, sp, t in itertools.product(["ldmatrix", "stmatrix"], [".m8n8", ".m16n16", ".m8n16", ".m16n8"],
                                                          [".x1", ".x2", ".x4", ""], ["", ".trans"],
                                                          ["", ".shared", ".shared::cta"],
                                                          [".b16", ".b8", ".b8x16.b6x16_p32", ".b8x16.b4x16_p64"]):
        regs = "{" + ", ".join(f"%r{i + 2}" for i in range({".x2": 2, ".x4": 4}.get(num, 1))) + "}"
        if op == "ldmatrix":
            yield f"ldmatrix.sync.aligned{shape}{num}{trans}{sp}{t} {regs}, [%r1];"
        else:
            yield f"stmatrix.sync.aligned{shape}{num}{trans}{sp}{t} [%r1], {regs};"
    for t in [".b16", ".b32", ".b8"]:
        yield f"movmatrix.sync.aligned.m8n8.trans{t} %r2, %r3;"


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else "ldst"
    forms = (ldst_forms() if kind == "ldst" else sync_forms() if kind == "sync" else warp_forms() if kind == "warp" else
             matrix_forms() if kind == "matrix" else atom_forms(random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 2)))
    n = bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "f.ptx")
        for ins in forms:
            with open(path, "w") as f:
                f.write(HDR + ins + "\nret;\n}\n")
            a = subprocess.run([PTXAS, "-c", "-arch=sm_90", path, "-o", os.devnull], capture_output=True, text=True)
            b = subprocess.run([PTXRUN, path, "--list"], capture_output=True, text=True)
            n += 1
            if (a.returncode == 0) != (b.returncode == 0):
                bad += 1
                why = [line for line in a.stderr.split("\n") if "error" in line]
                print(f"{'ptxas takes' if a.returncode == 0 else 'ptxas refuses'}, ptxemu "
                      f"{'takes' if b.returncode == 0 else 'refuses'}: {ins}  ({why[0] if why else b.stderr.strip()})")
    print(f"form-audit {kind}: {n} forms, {bad} disagree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
