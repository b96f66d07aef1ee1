#!/usr/bin/env python3
"""tables.py TABLES_DIR OUT_DIR: writes the recorded tables the emulator embeds
(isa/sem/mufu/NAME.zst) from the files unpack.py wrote.

Format (before zstd): per entry, the difference from the previous entry's u32 (the first
from 0) as one signed byte when it lies in [-127, 127], else the byte 0x80 and the entry's
u32, little-endian.  h16 (u16 entries) is widened to u32 first.  tanh is the binades
tanh-8 .. tanh2 one after the other, each keeping one entry per run of inputs that the
unit does not tell apart (TANH_GROUP; checked here)."""
import os, subprocess, sys
import numpy as np

TABLES = ["rcp", "rsq", "sqrt", "lg2", "lg2m", "ex2", "sin", "cos", "h16", "rcp64", "rsq64",
          "tanh"]
# log2 of the run of inputs with one result, per binade 2^-8 .. 2^2 (isa/sem/fp_approx.c)
TANH_GROUP = [6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3]


def load(src, name):
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
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    for name in TABLES:
        y = load(src, name)
        raw = encode(y)
        out = os.path.join(dst, name + ".zst")
        subprocess.run(["zstd", "-q", "-f", "--ultra", "-22", "--long=27", "-o", out, "-"],
                       input=raw, check=True)
        print(name, len(y), "entries,", os.path.getsize(out), "bytes")


main()
