#!/usr/bin/env python3
"""unpack.py TAR... DIR: the tables that pack.py bundled, back as files of u32 (or u16)
results in DIR."""
import lzma, os, sys, tarfile
import numpy as np

RAW = {"samples", "h16"}


def main():
    *tars, d = sys.argv[1:]
    os.makedirs(d, exist_ok=True)
    for path in tars:
        with tarfile.open(path) as t:
            for m in t.getmembers():
                name = m.name[:-4]
                data = lzma.decompress(t.extractfile(m).read())
                if name not in RAW:
                    data = np.cumsum(np.frombuffer(data, dtype="<u4"),
                                     dtype=np.uint32).astype("<u4").tobytes()
                open(os.path.join(d, name), "wb").write(data)


main()
