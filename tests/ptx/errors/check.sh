#!/bin/sh
# check.sh: every case here is invalid PTX: confirm that NVIDIA's ptxas rejects each one
# too (run where the CUDA toolkit is installed; the expected diagnostics in *.err are
# ptxemu's own wording and locations).
set -u
cd "$(dirname "$0")"
PTXAS=${PTXAS:-ptxas}
command -v "$PTXAS" >/dev/null 2>&1 || { echo "ptxas not found; nothing checked"; exit 0; }
bad=0
for f in *.ptx; do
    if "$PTXAS" -arch=sm_90 "$f" -o /dev/null >/dev/null 2>&1; then
        echo "ptxas accepts $f"
        bad=1
    fi
done
exit $bad
