#!/bin/sh
# record.sh: on a machine with the GPU, records the fuzz data: every variant `ptxfuzz list`
# enumerates (or the NAMEs given) runs on the GPU and its tests/fuzz/NAME.fz is rewritten;
# the variants ptxas rejects are printed as SKIP lines (keep tests/fuzz/REJECTED in step).
#   tests/fuzz/record.sh [NAME...]       (RAW=DIR also keeps the GPU's outputs for measure;
#                                         JOBS=N recording processes)
set -u
cd "$(dirname "$0")/../.." || exit 2
make -j"$(nproc 2>/dev/null || echo 4)" build/bin/ptxfuzz >/dev/null || exit 2
# JOBS processes (the number of CPUs by default) share the GPU: on an H100 with 16 CPUs
# all 3592 variants take about 10 s.
njobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
if [ $# -eq 0 ]; then
    set -- $(build/bin/ptxfuzz list) || exit 2
fi
tmp=$(mktemp -d) || exit 2
i=0
for name in "$@"; do
    echo "$name" >> "$tmp/part.$((i % njobs))"
    i=$((i + 1))
done
rc=0 pids=
for part in "$tmp"/part.*; do
    build/bin/ptxfuzz record --backend cuda ${RAW:+--raw "$RAW"} $(cat "$part") > "$part.log" 2>&1 &
    pids="$pids $!"
done
for pid in $pids; do
    wait "$pid" || rc=1
done
cat "$tmp"/part.*.log
rm -rf "$tmp"
exit $rc
