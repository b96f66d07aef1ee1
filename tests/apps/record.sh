#!/bin/sh
# record.sh: records what the CUDA programs of tests/apps print on a machine with an NVIDIA
# GPU (the H100): each NAME.cu built as run.sh builds it (from the top of the tree, static
# runtime with nvcc's defaults, and -cudart shared -arch=sm_90), run natively; the static
# build's standard output, standard error and exit status go to expected/NAME.out,
# NAME.err and NAME.rc.  The shared build must print the same; where it does not, that is
# reported and its output kept as expected/NAME.shared.out, to be looked at.
#   tests/apps/record.sh [NAME...]      NVCC overrides the compiler
set -u
cd "$(dirname "$0")/../.." || exit 2
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
bin=$(mktemp -d) || exit 2
trap 'rm -rf "$bin"' EXIT
exp=tests/apps/expected
mkdir -p "$exp"
status=0
for src in tests/apps/*.cu; do
    n=$(basename "$src" .cu)
    if [ $# -gt 0 ]; then
        case " $* " in *" $n "*) ;; *) continue ;; esac
    fi
    libs=$(sed -n 's|.*link: \(-l[a-zA-Z]*\( -l[a-zA-Z]*\)*\).*|\1|p' "$src" | head -n 1)
    target=$(sed -n 's|^// target: \(.*\)$|\1|p' "$src" | head -n 1)
    # shellcheck disable=SC2086
    if ! "$NVCC" -O2 $target -o "$bin/$n" "$src" $libs ||
       ! "$NVCC" -O2 -cudart shared ${target:--arch=sm_90} -o "$bin/$n.shared" "$src" $libs; then
        echo "BUILD FAILED $n"; status=1; continue
    fi
    timeout 300 "$bin/$n" > "$exp/$n.out" 2> "$exp/$n.err"
    echo $? > "$exp/$n.rc"
    timeout 300 "$bin/$n.shared" > "$bin/$n.shared.out" 2> /dev/null
    if cmp -s "$exp/$n.out" "$bin/$n.shared.out"; then
        rm -f "$exp/$n.shared.out"
        echo "recorded $n (exit $(cat "$exp/$n.rc"))"
    else
        cp "$bin/$n.shared.out" "$exp/$n.shared.out"
        echo "recorded $n (exit $(cat "$exp/$n.rc")); the shared build printed otherwise ($exp/$n.shared.out)"
    fi
done
exit $status
