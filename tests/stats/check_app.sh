#!/bin/sh
# check_app.sh: builds tests/stats/app.cu with nvcc's defaults, runs it under
# ptxrun --stats=json on the emulator's driver, and compares every launch's memory metrics
# with the H100's (measured_app.csv, recorded by record_app.sh), with check.sh's tolerances
# (compare.awk; known.txt lists deviations as app:LAUNCH).  Skipped, visibly, without nvcc
# or without the driver library (the sanitizer build).
#   PTXRUN=build/bin/ptxrun BUILD=build sh tests/stats/check_app.sh
set -u
cd "$(dirname "$0")" || exit 2
top=$(cd ../.. && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
PTXRUN=${PTXRUN:-$BUILD/bin/ptxrun}
. ../find_nvcc.sh
find_nvcc check-stats-app || exit 0
if [ ! -f "$BUILD/lib/libcuda.so.1" ]; then
    echo "check-stats-app: skipped (no $BUILD/lib/libcuda.so.1: the sanitizer build has no driver library)"
    exit 0
fi
app=$BUILD/stats-app
if [ ! -x "$app" ] || [ app.cu -nt "$app" ] || [ mem.cu -nt "$app" ]; then
    "$NVCC" -o "$app" app.cu > "$app.log" 2>&1 || { echo "check-stats-app: BUILD FAILED"; cat "$app.log"; exit 1; }
fi
tmp=${TMPDIR:-/tmp}/ptxemu-stats-app.$$
trap 'rm -f "$tmp".*' EXIT
"$PTXRUN" --stats=json "$app" > "$tmp.out" 2> "$tmp.err" || { echo "check-stats-app: the program failed"; cat "$tmp.err"; exit 1; }
grep '^{"kernel"' "$tmp.err" > "$tmp.json"
want=$(cut -d, -f1 measured_app.csv | sort -un | wc -l)
got=$(wc -l < "$tmp.json")
if [ "$got" -ne "$want" ]; then
    echo "check-stats-app: FAIL: $got launches reported, the H100 ran $want"
    exit 1
fi
fail=0 n=0
while IFS= read -r line; do
    kernel=$(echo "$line" | sed 's/^{"kernel": "\([^"]*\)".*/\1/')
    hwk=$(grep "^$n," measured_app.csv | head -n 1 | cut -d, -f2)
    if [ "$kernel" != "$hwk" ]; then
        echo "FAIL app:$n: kernel $kernel, the H100 ran $hwk"
        fail=$((fail + 1))
    fi
    echo "$line" | grep -o '"[a-z0-9_]*__[^"]*": [0-9.e+-]*' | tr -d '":' > "$tmp.emu"
    grep "^$n," measured_app.csv | awk -F, '{ print $3, $4 }' > "$tmp.hw"
    out=$(awk -v name="app:$n" -f compare.awk "$tmp.hw" known.txt "$tmp.emu")
    if echo "$out" | grep -q '^FAIL'; then
        echo "FAIL app:$n ($kernel):"; echo "$out" | sed 's/^/  /'
        fail=$((fail + 1))
    else
        k=$(echo "$out" | awk '$1 == "known" { print $2 }' | tr '\n' ' ')
        a=$(echo "$out" | awk '$1 == "agrees" { print $2 }' | tr '\n' ' ')
        echo "ok   app:$n ($kernel)${k:+ (known deviations: $k)}${a:+ (listed in known.txt, within tolerance now: $a)}"
    fi
    n=$((n + 1))
done < "$tmp.json"
echo "check-stats-app: $n launches of a CUDA program, $fail failed"
[ "$fail" -eq 0 ]
