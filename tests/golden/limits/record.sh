#!/bin/sh
# record.sh: records the GPU's answer to every launch of cases.txt (run on a machine
# with the H100): ptxrun --backend cuda, its exit status and the CUDA error it names.
#   tests/golden/limits/record.sh      writes recorded.txt and recorded.log here
# PTXRUN names a prebuilt ptxrun (the GPU machine may lack flex and bison).  PROBE names
# a prebuilt probe (probe.c: the driver's raw rules, without ptxrun); without it, it is
# built with cc when the CUDA headers are there.  Its output goes to probe.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.." || exit 2
PTXRUN=${PTXRUN:-build/bin/ptxrun}
out="$here/recorded.txt"; log="$here/recorded.log"
: > "$out"; : > "$log"
echo "# name exit error (recorded by record.sh with ptxrun --backend cuda)" >> "$out"
grep -v '^#' "$here/cases.txt" | while read -r name where file args; do
    [ -n "$name" ] || continue
    set -f
    # shellcheck disable=SC2086
    timeout 120 "$PTXRUN" --backend cuda "$here/$file" $args > /tmp/lim.out 2> /tmp/lim.err
    rc=$?
    set +f
    err=$(grep -o 'CUDA_ERROR_[A-Z_]*' /tmp/lim.err | head -1)
    echo "$name $rc ${err:--}" >> "$out"
    { echo "== $name ($where): ptxrun --backend cuda $file $args -> exit $rc"; cat /tmp/lim.out /tmp/lim.err; } >> "$log"
done
if [ -z "${PROBE:-}" ] && [ -f /usr/local/cuda/include/cuda.h ]; then
    cc -O1 -I/usr/local/cuda/include "$here/probe.c" -o /tmp/limits_probe -lcuda && PROBE=/tmp/limits_probe
fi
[ -n "${PROBE:-}" ] && "$PROBE" > "$here/probe.txt" 2>&1
cat "$out"
