#!/usr/bin/env python3
"""pack.py DIR OUT: delta-codes each table in DIR (u32 differences from the previous
entry, which the smooth functions keep small), compresses it with xz, and bundles the
results into tar files of at most 15 MB under OUT (named mufu-N.tar)."""
import io, lzma, os, sys, tarfile
from concurrent.futures import ProcessPoolExecutor
import numpy as np

RAW = {"samples", "h16"}          # not smooth: stored as they are


def pack_one(args):
    d, name = args
    data = open(os.path.join(d, name), "rb").read()
    if name not in RAW:
        a = np.frombuffer(data, dtype="<u4")
        data = np.diff(a, prepend=np.uint32(0)).astype("<u4").tobytes()
    return name, lzma.compress(data, preset=6)


def main():
    d, out = sys.argv[1], sys.argv[2]
    names = sorted(os.listdir(d))
    with ProcessPoolExecutor() as ex:
        blobs = list(ex.map(pack_one, [(d, n) for n in names]))
    blobs.sort(key=lambda b: -len(b[1]))
    bins = []
    for name, blob in blobs:
        for b in bins:
            if b[0] + len(blob) <= 15_000_000:
                b[0] += len(blob)
                b[1].append((name, blob))
                break
        else:
            bins.append([len(blob), [(name, blob)]])
    for k, (_, items) in enumerate(bins):
        with tarfile.open(os.path.join(out, f"mufu-{k}.tar"), "w") as t:
            for name, blob in items:
                info = tarfile.TarInfo(name + ".dxz")
                info.size = len(blob)
                t.addfile(info, io.BytesIO(blob))
        print(f"mufu-{k}.tar:", ", ".join(f"{n} {len(b)}" for n, b in items))


main()
