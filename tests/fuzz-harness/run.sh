#!/bin/sh
# run.sh BUILD SECONDS HARNESS...: fuzz each harness for SECONDS with libFuzzer.  The seed
# corpus is made at run time (frontend: every tests/ptx/**.ptx; args: seeds.txt, one
# input a paragraph) in BUILD/fuzz/corpus/<harness>; what libFuzzer adds stays there.
# A crash, timeout, leak or out-of-memory fails; the input is left as BUILD/fuzz/crash-*
# (add it under tests/fuzz-harness/regress/<harness>/ once fixed).
set -eu
build=$1 secs=$2
shift 2
dir=$(dirname "$0")
status=0
for h in "$@"; do
    corpus=$build/fuzz/corpus/$h
    mkdir -p "$corpus"
    case $h in
    frontend)
        find tests/ptx -name '*.ptx' | while read -r f; do
            cp "$f" "$corpus/seed-$(echo "$f" | tr / _)"
        done ;;
    args)
        awk -v d="$corpus" 'BEGIN { n = 0 } /^#/ { next }
             /^$/ { if (buf != "") { printf "%s", buf > (d "/seed-" n); close(d "/seed-" n); n++ } buf = ""; next }
             { buf = buf (buf == "" ? "" : "\n") $0 }
             END { if (buf != "") printf "%s", buf > (d "/seed-" n) }' "$dir/seeds.txt" ;;
    esac
    cp "$dir"/regress/"$h"/* "$corpus"/ 2>/dev/null || true
    echo "fuzz: $h for ${secs}s"
    if ! "$build/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
            -artifact_prefix="$build/fuzz/" -print_final_stats=1 "$corpus" \
            > "$build/fuzz/$h.log" 2>&1; then
        tail -n 60 "$build/fuzz/$h.log"
        echo "fuzz: $h FAILED (log: $build/fuzz/$h.log)"
        status=1
    else
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$build/fuzz/$h.log" | sed "s/^/fuzz: $h /"
    fi
done
exit $status
