#!/usr/bin/env python3
"""tables.py TABLES_DIR PROBE5_OUT OUT_DIR: writes the recorded tables the emulator embeds
(isa/sem/mufu/NAME.zst) from the files unpack.py wrote and from the output of
tests/golden/pending/probe5.cu (texs8: the texture unit's 16-bit result q, read as q/32767,
of each sum S of s8 texels times their weights in 1/256, S + 32768 as the index).

Format (before zstd): per entry, the difference from the previous entry's u32 (the first
from 0) as one signed byte when it lies in [-127, 127], else the byte 0x80 and the entry's
u32, little-endian.  h16 (u16 entries) is widened to u32 first.  tanh is the binades
tanh-8 .. tanh2 one after the other, each keeping one entry per run of inputs that the
unit does not tell apart (TANH_GROUP; checked here)."""
import os, subprocess, sys
import numpy as np

TABLES = ["rcp", "rsq", "sqrt", "lg2", "lg2m", "ex2", "sin", "cos", "h16", "rcp64", "rsq64",
          "tanh", "texs8"]
# log2 of the run of inputs with one result, per binade 2^-8 .. 2^2 (isa/sem/fp_approx.c)
TANH_GROUP = [6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3]


def load(src, name):
    if name == "texs8":
        with open(PROBE5, "rb") as f:
            n = int.from_bytes(f.read(4), "little")
            r = np.frombuffer(f.read(4 * n), dtype="<f4").astype(np.float64)
        q = np.round(r * 32767).astype(np.int64)
        if not np.all(np.float32(q) / np.float32(32767) == r.astype(np.float32)):
            sys.exit("texs8: a result is not q/32767")
        return (q & 0xffffffff).astype(np.uint32)
    if name != "tanh":
        return np.fromfile(os.path.join(src, name), dtype="<u2" if name == "h16" else "<u4")
    parts = []
    for k, g in zip(range(-8, 3), TANH_GROUP):
        y = np.fromfile(os.path.join(src, f"tanh{k}"), dtype="<u4").reshape(-1, 1 << g)
        if not np.all(y == y[:, :1]):
            sys.exit(f"tanh{k}: results differ within a run of 2^{g} inputs")
        parts.append(y[:, 0])
    return np.concatenate(parts)


def encode(y):
    y = y.astype(np.int64)
    d = np.diff(y, prepend=0)
    d = (d + (1 << 31)) % (1 << 32) - (1 << 31)          # wrap to a signed 32-bit step
    small = (d >= -127) & (d <= 127)
    size = np.where(small, 1, 5)
    off = np.concatenate([[0], np.cumsum(size)[:-1]])
    out = np.zeros(int(size.sum()), dtype=np.uint8)
    out[off[small]] = (d[small] & 0xff).astype(np.uint8)
    big = ~small
    out[off[big]] = 0x80
    for k in range(4):
        out[off[big] + 1 + k] = ((y[big] >> (8 * k)) & 0xff).astype(np.uint8)
    return out.tobytes()


def main():
    global PROBE5
    src, PROBE5, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(dst, exist_ok=True)
    for name in TABLES:
        y = load(src, name)
        raw = encode(y)
        out = os.path.join(dst, name + ".zst")
        subprocess.run(["zstd", "-q", "-f", "--ultra", "-22", "--long=27", "-o", out, "-"],
                       input=raw, check=True)
        print(name, len(y), "entries,", os.path.getsize(out), "bytes")


main()
