#!/bin/sh
# record.sh: records the golden outputs on a machine with an NVIDIA GPU (the H100):
# builds ptxrun, runs every tests/golden/NAME.ptx with the arguments in NAME.cmd on
# --backend cuda, and writes its stdout to NAME.out.
#   tests/golden/record.sh [NAME...]     (no NAME: every golden)
# A golden whose run fails (non-zero exit) keeps its old .out and is listed at the end,
# except one with a NAME.rc file (a launch expected to fail, such as an assertion): its
# stdout, stderr (NAME.err) and exit status are recorded.  A NAME.sort file says that
# the order of its output lines is not fixed on the GPU (they are compared sorted).
# PTXRUN names a prebuilt ptxrun to use instead of building one (the GPU machine may
# lack flex and bison).
set -u
cd "$(dirname "$0")/../.." || exit 2
if [ -z "${PTXRUN:-}" ]; then
    make -j"$(nproc 2>/dev/null || echo 4)" build/bin/ptxrun >/dev/null || exit 2
    PTXRUN=build/bin/ptxrun
fi
failed=""
for cmd in tests/golden/*.cmd; do
    n=${cmd%.cmd}
    name=$(basename "$n")
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    # The .cmd file holds the arguments after FILE, split on white space and not
    # globbed (they hold [ ] and ( )), as the replay in tests/unit/golden does.
    set -f
    # shellcheck disable=SC2046
    if [ -f "$n.rc" ]; then
        # a golden whose launch fails on the GPU (an assertion): its stdout, stderr
        # and exit status are all recorded
        "$PTXRUN" --backend cuda "$n.ptx" $(cat "$cmd") > "$n.out" 2> "$n.err"
        echo $? > "$n.rc"
        echo "recorded $name (exit $(cat "$n.rc"))"
        set +f
        continue
    fi
    if "$PTXRUN" --backend cuda "$n.ptx" $(cat "$cmd") > "$n.out.tmp" 2> "$n.err.tmp"; then
        mv "$n.out.tmp" "$n.out"
        echo "recorded $name"
    else
        echo "FAILED $name:"
        cat "$n.err.tmp"
        rm -f "$n.out.tmp"
        failed="$failed $name"
    fi
    set +f
    rm -f "$n.err.tmp"
done
if [ -n "$failed" ]; then
    echo "failed:$failed"
    exit 1
fi
