#!/bin/sh
# print-ptxas.sh: `ptxrun --print` of every valid PTX file under tests/ptx (the corpus,
# the syntax corners, the unsupported-instruction kernel) must assemble with NVIDIA's
# ptxas, -arch taken from the file's .target; so must the link of tests/ptx/link.  Where ptxas is absent it says so and
# passes.  Run by `make check` (target check-print); PTXRUN names the ptxrun binary.
set -u
cd "$(dirname "$0")/../.." || exit 1
PTXRUN=${PTXRUN:-build/bin/ptxrun}
PTXAS=${PTXAS:-}
if [ -z "$PTXAS" ]; then
    if command -v ptxas >/dev/null 2>&1; then PTXAS=ptxas
    elif [ -x /usr/local/cuda/bin/ptxas ]; then PTXAS=/usr/local/cuda/bin/ptxas
    else echo "print-ptxas: skipped (no ptxas)"; exit 0
    fi
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
for f in tests/ptx/corpus/*.ptx tests/ptx/syntax/*.ptx tests/ptx/unsupported/*.ptx; do
    # CUDA 13's ptxas refuses every 32-bit module (see tests/ptx/syntax/check.sh).
    case $f in */address_size32.ptx) continue ;; esac
    t=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\(sm_[0-9a-z]*\).*/\1/p' "$f" | head -n 1)
    # targets older than CUDA 13's oldest (sm_75) are assembled for sm_90, as the driver's JIT
    # does, whole (-c needs PTX ISA 3.1)
    c=-c
    case $t in sm_[1-6][0-9]|sm_[1-6][0-9][a-z]|sm_7[0-2]) t=sm_90 c= ;; esac
    if ! "$PTXRUN" --print "$f" > "$tmp/p.ptx" 2> "$tmp/err"; then
        echo "FAIL $f: ptxrun --print failed"; head -n 5 "$tmp/err"; fail=1; continue
    fi
    if ! "$PTXAS" $c -arch="$t" "$tmp/p.ptx" -o /dev/null > "$tmp/err" 2>&1; then
        echo "FAIL $f: ptxas -arch=$t refuses the printed PTX:"; head -n 5 "$tmp/err"; fail=1
    fi
    n=$((n + 1))
done
# The printed link of tests/ptx/link is a whole program: it assembles without -c.
if ! "$PTXRUN" --link tests/ptx/link/lib.ptx --link tests/ptx/link/pick.ptx --print tests/ptx/link/main.ptx \
        > "$tmp/p.ptx" 2> "$tmp/err"; then
    echo "FAIL tests/ptx/link: ptxrun --link --print failed"; head -n 5 "$tmp/err"; fail=1
elif ! "$PTXAS" -arch=sm_90 "$tmp/p.ptx" -o /dev/null > "$tmp/err" 2>&1; then
    echo "FAIL tests/ptx/link: ptxas refuses the printed link as a whole program:"; head -n 5 "$tmp/err"; fail=1
fi
n=$((n + 1))
[ $fail = 0 ] && echo "print-ptxas: the printed PTX of $n files (one of them a link of three) assembles with ptxas"
exit $fail
