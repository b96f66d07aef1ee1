#!/bin/sh
# show-chunk.sh: on a machine with the GPU, re-runs one chunk of a fuzz variant on both the
# GPU and the emulator and prints the vectors whose outputs differ (inputs, emu, gpu).
#   tests/fuzz/show-chunk.sh NAME CHUNK      (CHUNK -1: the special values kept whole; from 0
#                                            the crossed specials' chunks, then the random ones)
# Add -v after the script name to print every vector of the chunk.
# Without a GPU: build/bin/ptxfuzz show --raw DIR NAME CHUNK compares against the outputs
# kept by `ptxfuzz record --raw DIR` (whole for .approx variants, else the specials, the
# crossed specials and the first 2 random chunks).
set -u
cd "$(dirname "$0")/../.." || exit 2
make -j"$(nproc 2>/dev/null || echo 4)" build/bin/ptxfuzz >/dev/null || exit 2
exec build/bin/ptxfuzz show --backend both "$@"
