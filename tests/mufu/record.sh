#!/bin/sh
# record.sh OUT: on a machine with an H100, records the multi-function unit's results
# (capture.cu) and packs them into OUT (pack.py); unpack.py turns them back into tables.
set -eu
here=$(dirname "$0")
out=$1
tmp=$(mktemp -d)
nvcc -O2 -arch=sm_90 -o "$tmp/capture" "$here/capture.cu"
cuobjdump -sass "$tmp/capture" | grep -E 'MUFU|FMUL.*RZ' | sed 's/^ *//; s/ *;.*//' | sort | uniq -c
mkdir "$tmp/t"
nvcc -arch=sm_90 -cubin -o "$tmp/sass.cubin" "$here/sass.cu"
cuobjdump -sass "$tmp/sass.cubin" | grep -E 'Function|/\*[0-9a-f]{4}\*/' | sed 's/ *;.*//; s/^ *//' >"$out/sass.txt"
"$tmp/capture" "$tmp/t"
python3 "$here/pack.py" "$tmp/t" "$out"
