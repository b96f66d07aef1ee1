#!/bin/sh
# record.sh: on a machine with an NVIDIA GPU (the H100), runs every texture fuzz case with
# ptxrun --backend cuda and writes expected.txt (NAME DIGEST, sorted).
#   tests/texfuzz/record.sh      PTXRUN names a prebuilt ptxrun (default build/bin/ptxrun)
set -u
cd "$(dirname "$0")/../.." || exit 2
PTXRUN=${PTXRUN:-build/bin/ptxrun}
export PTXRUN
jobs=$(nproc 2>/dev/null || echo 4)
cut -d' ' -f1 tests/texfuzz/cases.txt | xargs -n 10 -P "$jobs" sh tests/texfuzz/run1.sh --backend cuda | sort \
    > tests/texfuzz/expected.txt
echo "recorded $(wc -l < tests/texfuzz/expected.txt) cases; $(grep -c ' fail$' tests/texfuzz/expected.txt) failed on the GPU"
