#!/bin/sh
# record.sh: measures the launches of tests/stats/cases.txt on a machine with an NVIDIA
# GPU under Nsight Compute and writes tests/stats/measured.csv (case,metric,value: raw
# counts, base units).  ncu replays each launch with the caches flushed before it (its
# default --cache-control all), so every launch starts with cold L1 and L2.
#   tests/stats/record.sh [NAME...]     (no NAME: every case)
# PTXRUN names a prebuilt ptxrun (its --backend cuda makes the launch); NCU the profiler.
set -u
cd "$(dirname "$0")/../.." || exit 2
PTXRUN=${PTXRUN:-build/bin/ptxrun}
NCU=${NCU:-ncu}
METRICS=$(grep -v '^#' tests/stats/metrics.txt | tr '\n' ',' | sed 's/,*$//')
out=tests/stats/measured.csv.tmp
: > "$out"
grep -v '^#' tests/stats/cases.txt | grep -v '^ *$' | while read -r name kernel args; do
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    set -f
    file=mem.ptx
    case $kernel in *:*) file=${kernel%%:*} kernel=${kernel#*:} ;; esac
    # shellcheck disable=SC2086
    if ! "$NCU" --csv --page raw --print-units base --metrics "$METRICS" \
            "$PTXRUN" --backend cuda "tests/stats/$file" -k "$kernel" $args > "$out.raw" 2> "$out.err"; then
        echo "FAILED $name"; cat "$out.err"; set +f; continue
    fi
    set +f
    # The raw page: a header row of metric names, a row of units, a row of values.
    # Kept: the metrics asked for and the launch's shared-memory configuration.
    python3 - "$name" "$out.raw" "$METRICS" >> "$out" <<'PY'
import csv, sys
name, path, want = sys.argv[1], sys.argv[2], set(sys.argv[3].split(','))
want |= {'launch__shared_mem_config_size', 'launch__registers_per_thread', 'launch__occupancy_limit_shared_mem'}
rows = [r for r in csv.reader(open(path)) if r and not r[0].startswith('==')]
head, vals = rows[0], rows[-1]
for h, v in zip(head, vals):
    if h in want:
        print(f"{name},{h},{v.replace(',', '')}")
PY
    echo "measured $name"
done
rm -f "$out.raw" "$out.err"
if [ $# -gt 0 ] && [ -f tests/stats/measured.csv ]; then
    # keep the other cases' rows
    for n in "$@"; do grep -v "^$n," tests/stats/measured.csv > "$out.keep" && mv "$out.keep" tests/stats/measured.csv; done
    cat tests/stats/measured.csv "$out" | sort -t, -k1,1 -s > "$out.all" && mv "$out.all" tests/stats/measured.csv
    rm -f "$out"
else
    mv "$out" tests/stats/measured.csv
fi
