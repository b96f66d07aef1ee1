#!/bin/sh
# check.sh: the texture fuzz cases (cases.txt, made by gen_cases.py) on the emulator
# against the H100's results (expected.txt, recorded by record.sh): every case outside
# PENDING must give the H100's output bit for bit (its SHA-256 digest), and every case in
# PENDING must still differ (else it has been fixed: take it out of PENDING).
#   tests/texfuzz/check.sh        PTXRUN names ptxrun (default build/bin/ptxrun);
#                                 TEXFUZZ_STRIDE=K runs every K-th case only (the
#                                 sanitizer build, where each run is slower)
set -u
cd "$(dirname "$0")/../.." || exit 2
PTXRUN=${PTXRUN:-build/bin/ptxrun}
export PTXRUN
got=$(mktemp) || exit 2
trap 'rm -f "$got"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
stride=${TEXFUZZ_STRIDE:-1}
cut -d' ' -f1 tests/texfuzz/cases.txt | awk -v k="$stride" '(NR - 1) % k == 0' |
    xargs -n 25 -P "$jobs" sh tests/texfuzz/run1.sh | sort > "$got"
total=$(awk -v k="$stride" '(NR - 1) % k == 0' tests/texfuzz/cases.txt | wc -l)
bad=0 same=0 pend=0 fixed=""
while read -r name digest; do
    want=$(grep "^$name " tests/texfuzz/expected.txt | cut -d' ' -f2)
    if grep -q "^$name " tests/texfuzz/PENDING; then
        pend=$((pend + 1))
        [ "$digest" = "$want" ] && fixed="$fixed $name"
    elif [ "$digest" = "$want" ]; then
        same=$((same + 1))
    else
        echo "texfuzz: $name differs from the H100 (emulator $digest, H100 ${want:-none})"
        bad=$((bad + 1))
    fi
done < "$got"
if [ -n "$fixed" ]; then
    echo "texfuzz: now bit-exact, take out of tests/texfuzz/PENDING:$fixed"
    bad=$((bad + 1))
fi
n=$(wc -l < "$got")
if [ "$n" -ne "$total" ]; then
    echo "texfuzz: $n of $total cases ran"
    bad=$((bad + 1))
fi
echo "texfuzz: $total cases${TEXFUZZ_STRIDE:+ (every $stride-th)}: $same bit-exact with the H100, $pend pending, $bad failing"
[ "$bad" -eq 0 ]
