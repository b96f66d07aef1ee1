#!/bin/sh
# record_libs.sh: run on the GPU machine from the folder build.sh filled: the library programs
# natively and through the logging libcuda.so.1 with the table DRVLOG_WRAP names wrapped
# (default the one cuBLASLt asks for); the outputs and logs go to ${OUT:-out}/.
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
REAL=$(readlink -f "$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')")
for p in "cublaslt_fp8 1" "cublaslt_fp8 0" "cublas_gemmex"; do
    n=$(echo "$p" | tr ' ' _)
    timeout 120 ./$p > "$OUT/$n.native.out" 2>&1
    echo "exit $?" >> "$OUT/$n.native.out"
    DRVLOG_WRAP=${DRVLOG_WRAP:-1734dc26} DRVLOG_REAL="$REAL" DRVLOG_FILE="$OUT/$n.log" \
        LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 120 ./$p > "$OUT/$n.wrap.out" 2>&1
    echo "exit $?" >> "$OUT/$n.wrap.out"
done
