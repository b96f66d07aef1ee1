#!/usr/bin/env python3
"""tables.py TABLES_DIR PROBE5_OUT OUT_DIR: writes the recorded tables the emulator embeds
(isa/sem/mufu/NAME.zst) from the files unpack.py wrote and from the output of
tests/golden/pending/probe5.cu (texs8: the texture unit's 16-bit result q, read as q/32767,
of each sum S of s8 texels times their weights in 1/256, S + 32768 as the index; srgbcut:
for each pair of sRGB values lo * 256 + hi whose linear values (exec/tex/sample.c's
srgb_hi) have lo's below hi's, 1 where linear filtering counts lo one step of 2^(E - 8)
lower than its table value cut to that step, E the exponent of hi's: solved here from
every recorded pair and weight, failing if a pair fits neither).

Format (before zstd): per entry, the difference from the previous entry's u32 (the first
from 0) as one signed byte when it lies in [-127, 127], else the byte 0x80 and the entry's
u32, little-endian.  h16 (u16 entries) is widened to u32 first.  tanh is the binades
tanh-8 .. tanh2 one after the other, each keeping one entry per run of inputs that the
unit does not tell apart (TANH_GROUP; checked here)."""
import os, subprocess, sys
import numpy as np

TABLES = ["rcp", "rsq", "sqrt", "lg2", "lg2m", "ex2", "sin", "cos", "h16", "rcp64", "rsq64",
          "tanh", "texs8", "srgbcut"]
# log2 of the run of inputs with one result, per binade 2^-8 .. 2^2 (isa/sem/fp_approx.c)
TANH_GROUP = [6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3]


def srgb_table():
    src = open(os.path.join(os.path.dirname(__file__), "../../exec/tex/sample.c")).read()
    body = src[src.index("srgb_hi[256] = {"):]
    body = body[body.index("{") + 1:body.index("}")]
    hi = [int(x, 16) for x in body.replace(",", " ").split()]
    return (np.array(hi, dtype=np.uint32) << 16).view(np.float32).astype(np.float64)


def srgb_cut():
    with open(PROBE5, "rb") as f:
        data = f.read()
    n1 = int.from_bytes(data[0:4], "little")
    off = 4 + 4 * n1
    n2 = int.from_bytes(data[off:off + 4], "little")
    off += 4 + 256 + 12 * n2
    n3 = int.from_bytes(data[off:off + 4], "little")
    h = np.frombuffer(data, dtype="<u2", count=n3, offset=off + 4).view(np.float16).astype(np.float64)
    tab = srgb_table()
    a = np.repeat(np.arange(256), 65536)
    b = np.tile(np.repeat(np.arange(256), 256), 256)
    w = np.tile(np.arange(256), 65536)
    va, vb = tab[a], tab[b]
    m = np.maximum(va, vb)
    g = np.ldexp(1.0, np.frexp(m)[1] - 8)
    lo = np.minimum(va, vb)
    fits = []
    for k in (0, 1):
        clo = np.floor(lo / g) * g - k * g
        ca = np.where(va < vb, clo, va)
        cb = np.where(vb < va, clo, vb)
        s = (ca * (256 - w) + cb * w) / 256
        ulp = np.ldexp(1.0, np.maximum(np.frexp(s)[1] - 11, -24))
        r = np.floor(s / ulp + 0.5) * ulp
        fits.append(((r == h) | (w == 0)).reshape(65536, 256).all(axis=1))
    if not np.all(fits[0] | fits[1]):
        sys.exit("srgbcut: a pair fits neither rule")
    first, second = np.arange(65536) >> 8, np.arange(65536) & 255
    out = np.zeros(65536, dtype=np.uint32)
    sel = (tab[first] < tab[second]) & ~fits[0]
    out[first[sel] * 256 + second[sel]] = 1
    return out


def load(src, name):
    if name == "srgbcut":
        return srgb_cut()
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
