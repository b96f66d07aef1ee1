#!/bin/sh
# record_libs.sh: run on the GPU machine from the folder build.sh filled: the library programs
# (cuBLASLt's heuristics: the app test tests/apps/cublaslt.cu; cublasGemmEx)
# natively and through the logging libcuda.so.1 with the table DRVLOG_WRAP names wrapped
# (default the one cuBLASLt asks for); the outputs and logs go to ${OUT:-out}/.
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
REAL=$(readlink -f "$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')")
for n in cublaslt cublas_gemmex; do
    timeout 120 ./$n > "$OUT/$n.native.out" 2>&1
    echo "exit $?" >> "$OUT/$n.native.out"
    DRVLOG_WRAP=${DRVLOG_WRAP:-1734dc26} DRVLOG_REAL="$REAL" DRVLOG_FILE="$OUT/$n.log" \
        LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 120 ./$n > "$OUT/$n.wrap.out" 2>&1
    echo "exit $?" >> "$OUT/$n.wrap.out"
done
