#!/bin/sh
# record_app.sh: builds tests/stats/app.cu with nvcc's defaults, runs it under Nsight Compute
# on a machine with an NVIDIA GPU, and writes tests/stats/measured_app.csv (launch,kernel,
# metric,value: one row per launch and metric, launches in the program's order).  The
# metrics are those of metrics.txt.  NVCC and NCU name the tools.
set -u
cd "$(dirname "$0")" || exit 2
NVCC=${NVCC:-nvcc}
NCU=${NCU:-ncu}
tmp=${TMPDIR:-/tmp}/ptxemu-app.$$
"$NVCC" -o "$tmp.app" app.cu || exit 2
METRICS=$(grep -v '^#' metrics.txt | tr '\n' ',' | sed 's/,*$//')
"$NCU" --csv --page raw --print-units base --metrics "$METRICS" "$tmp.app" > "$tmp.csv" || exit 1
python3 - "$tmp.csv" "$METRICS" > measured_app.csv <<'PY'
import csv, sys
want = set(sys.argv[2].split(','))
# the program's own output is mixed in: the table starts at the row "ID", ...; its launches
# are the rows whose ID is a number
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
start = next(i for i, r in enumerate(rows) if r[0] == 'ID')
head = rows[start]
ki = head.index('Kernel Name')
data = [r for r in rows[start + 1:] if r[0].isdigit() and len(r) == len(head)]
for n, r in enumerate(data):
    for h, v in zip(head, r):
        if h in want:
            print(f"{n},{r[ki]},{h},{v.replace(',', '')}")
PY
rm -f "$tmp.app" "$tmp.csv"
echo "recorded $(cut -d, -f1 measured_app.csv | sort -u | wc -l) launches"
