#!/bin/sh
# run.sh: the CUDA programs of tests/apps run unmodified on the emulator.  Each NAME.cu is
# built twice with nvcc, as a user builds it: with the defaults (static runtime, nvcc's
# default architecture) and with -cudart shared -arch=sm_90; both run under ptxrun, and
# their standard output and exit status must be what the H100 gave (expected/NAME.out and
# NAME.rc, recorded by record.sh).  A program whose source says "compare: stderr" also has
# its standard error compared (expected/NAME.err), less the emulator's own diagnostics
# (lines that begin "ptxemu: " or "ptxrun: ", and the indented lines after them).  A source
# that says "link: -lcuda" is linked with the driver (several: "link: -lnvrtc -lcuda"), one
# that says "target: FLAGS" (such as
# -arch=sm_90, or -gencode arch=compute_90a,code=compute_90a for sm_90a's wgmma) is
# built for sm_90 in both ways (it uses Hopper's instructions).  One that says "requires: HEADER
# TEXT" is built on a library's header (such as VkFFT's) and runs only where that header, in
# /usr/include or /usr/local/include, holds TEXT (the version it was recorded with); elsewhere
# it is skipped, saying so.  Where nvcc is absent, or in the sanitizer build (no driver
# library there), it says so and passes.
#   tests/apps/run.sh [NAME...]     PTXRUN, BUILD and NVCC override the defaults
set -u
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
PTXRUN=${PTXRUN:-$BUILD/bin/ptxrun}
. tests/find_nvcc.sh
find_nvcc check-apps || exit 0
if [ ! -f "$BUILD/lib/libcuda.so.1" ]; then
    echo "check-apps: skipped (no $BUILD/lib/libcuda.so.1: the sanitizer build has no driver library)"
    exit 0
fi
out=$BUILD/apps
mkdir -p "$out" || exit 2
names=""
for src in tests/apps/*.cu; do
    n=$(basename "$src" .cu)
    if [ $# -gt 0 ]; then
        case " $* " in *" $n "*) ;; *) continue ;; esac
    fi
    req=$(sed -n 's|^// requires: \(.*\)$|\1|p' "$src" | head -n 1)
    if [ -n "$req" ]; then
        hdr=${req%% *}
        text=${req#* }
        if ! { [ -f "/usr/include/$hdr" ] && grep -qF "$text" "/usr/include/$hdr"; } &&
           ! { [ -f "/usr/local/include/$hdr" ] && grep -qF "$text" "/usr/local/include/$hdr"; }; then
            echo "check-apps: $n skipped (it needs $hdr holding \"$text\", the version it was recorded with)"
            continue
        fi
    fi
    names="$names $n"
done

# Build what is out of date (older than its source or the newest shared header), two
# programs at a time per core.
newest_h=$(ls -t tests/apps/*.h | head -n 1)
build_one() {   # NAME VARIANT
    src=tests/apps/$1.cu
    # "target: FLAGS": a program that needs sm_90 features is built for it both ways
    target=$(sed -n 's|^// target: \(.*\)$|\1|p' "$src" | head -n 1)
    if [ "$2" = shared ]; then bin=$out/$1.shared; flags="-cudart shared ${target:--arch=sm_90}"
    else bin=$out/$1; flags="$target"
    fi
    libs=$(sed -n 's|.*link: \(-l[a-zA-Z]*\( -l[a-zA-Z]*\)*\).*|\1|p' "$src" | head -n 1)
    if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$newest_h" ]; then return 0; fi
    # shellcheck disable=SC2086
    "$NVCC" -O2 $flags -o "$bin" "$src" $libs > "$bin.log" 2>&1 || { echo "BUILD FAILED $1 ($2):"; cat "$bin.log"; return 1; }
}
jobs=$(nproc 2>/dev/null || echo 2)
fail=0
set -- 
for n in $names; do set -- "$@" "$n static" "$n shared"; done
i=0
pids=""
for job in "$@"; do
    # shellcheck disable=SC2086
    build_one $job &
    pids="$pids $!"
    i=$((i + 1))
    if [ $i -ge "$jobs" ]; then
        for p in $pids; do wait "$p" || fail=1; done
        pids=""; i=0
    fi
done
for p in $pids; do wait "$p" || fail=1; done
[ $fail = 0 ] || { echo "check-apps: a build failed"; exit 1; }

filter() { awk '/^(ptxemu|ptxrun): /{skip=1; next} skip && /^[ \t]/{next} {skip=0; print}' "$1"; }

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0
for n in $names; do
    exp=tests/apps/expected/$n
    if [ ! -f "$exp.out" ] || [ ! -f "$exp.rc" ]; then
        echo "FAIL $n: no recording (run tests/apps/record.sh on a machine with an NVIDIA GPU)"; fail=1; continue
    fi
    for v in "" .shared; do
        timeout 300 "$PTXRUN" "$out/$n$v" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        ok=1
        if ! cmp -s "$tmp/out" "$exp.out"; then
            echo "FAIL $n$v: standard output differs from the H100's:"; diff "$exp.out" "$tmp/out" | head -n 20; ok=0
        fi
        if [ "$rc" != "$(cat "$exp.rc")" ]; then
            echo "FAIL $n$v: exit status $rc, the H100's $(cat "$exp.rc")"; head -n 10 "$tmp/err"; ok=0
        fi
        if grep -q "compare: stderr" "tests/apps/$n.cu"; then
            filter "$tmp/err" > "$tmp/err.f"
            if ! cmp -s "$tmp/err.f" "$exp.err"; then
                echo "FAIL $n$v: standard error differs from the H100's:"; diff "$exp.err" "$tmp/err.f" | head -n 20; ok=0
            fi
        fi
        if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=1; fi
    done
done
echo "check-apps: $pass programs as on the H100$( [ $fail = 0 ] || echo ', some FAILED')"
exit $fail
