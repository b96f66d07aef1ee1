#!/bin/sh
# run1.sh [--backend cuda] NAME...: runs texture fuzz cases of tests/texfuzz/cases.txt
# (from the source tree's root) and prints "NAME DIGEST" for each: the first 16 hex digits
# of the SHA-256 of ptxrun's hex output, or "NAME fail" where ptxrun exits non-zero.
# PTXRUN names ptxrun (default build/bin/ptxrun); TEXFUZZ_SAVE=DIR also keeps each case's
# whole output as DIR/NAME.out.
set -u
be=""
if [ "${1:-}" = "--backend" ]; then
    be="--backend $2"
    shift 2
fi
P=${PTXRUN:-build/bin/ptxrun}
set -f
for name in "$@"; do
    line=$(grep "^$name " tests/texfuzz/cases.txt) || { echo "$name unknown"; continue; }
    # shellcheck disable=SC2086
    set -- $line
    k=$2 n=$3 sc=$4 bi=$5 co=$6 tx=$7
    # shellcheck disable=SC2086
    if out=$("$P" $be -o hex -k "$k" -g $(( (n + 255) / 256 )) -b 256 tests/texfuzz/texfuzz.ptx "$tx" \
             "f32[4096]=@$co" "f32[4096]:out" "$n" "$sc" "$bi" 2>/dev/null); then
        echo "$name $(printf '%s\n' "$out" | sha256sum | cut -c1-16)"
        [ -n "${TEXFUZZ_SAVE:-}" ] && printf '%s\n' "$out" > "$TEXFUZZ_SAVE/$name.out"
    else
        echo "$name fail"
    fi
done
