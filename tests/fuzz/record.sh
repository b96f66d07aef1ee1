#!/bin/sh
# record.sh: on a machine with the GPU, records the fuzz data: every variant `ptxfuzz list`
# enumerates (or the NAMEs given) runs on the GPU and its tests/fuzz/NAME.fz is rewritten;
# the variants ptxas rejects are printed as SKIP lines (keep tests/fuzz/REJECTED in step).
#   tests/fuzz/record.sh [NAME...]       (RAW=DIR also keeps the GPU's outputs for measure)
set -u
cd "$(dirname "$0")/../.." || exit 2
make -j"$(nproc 2>/dev/null || echo 4)" build/bin/ptxfuzz >/dev/null || exit 2
exec build/bin/ptxfuzz record --backend cuda ${RAW:+--raw "$RAW"} "$@"
