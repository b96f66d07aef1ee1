#!/bin/sh
# record.sh: run on the GPU machine (from a folder holding the binaries built by build.sh):
# the device's attribute table, and the driver calls of the vecadd builds through the logging
# shim libcuda.so.1 placed first on LD_LIBRARY_PATH.  Results go to ${OUT:-out}/.
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
REAL=$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')
REAL=$(readlink -f "$REAL")
{
    echo "real driver: $REAL"
    nvidia-smi --query-gpu=name,driver_version,memory.total,pci.bus_id --format=csv
    uname -r
} > "$OUT/device.txt" 2>&1
nm -D --defined-only "$REAL" > "$OUT/libcuda_exports.txt" 2>&1 ||
    readelf --dyn-syms -W "$REAL" > "$OUT/libcuda_exports.txt" 2>&1
readelf -d -V -W "$REAL" > "$OUT/libcuda_dynamic.txt" 2>&1
./attrs > "$OUT/h100_attrs.def" 2> "$OUT/attrs.err"
for app in vecadd_default vecadd_static vecadd_shared; do
    timeout 60 ./$app > "$OUT/$app.native.out" 2>&1
    echo "exit $?" >> "$OUT/$app.native.out"
    # wrap no table (the program must run as natively), then each table alone
    for wrap in none f8cff951 6bd5fb6c a094798c 42d85a81 263e8860 d4082055 all; do
        log="$OUT/$app.wrap-$wrap"
        rm -f "$log.log"
        DRVLOG_WRAP=$wrap DRVLOG_REAL="$REAL" DRVLOG_FILE="$log.log" \
            LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 60 ./$app > "$log.out" 2>&1
        echo "exit $?" >> "$log.out"
    done
    # only the look-ups logged: the driver's own functions and tables handed out
    log="$OUT/$app.lookups"
    DRVLOG_PROCS=0 DRVLOG_WRAP=none DRVLOG_REAL="$REAL" DRVLOG_FILE="$log.log" \
        LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 60 ./$app > "$log.out" 2>&1
    echo "exit $?" >> "$log.out"
done
LD_LIBRARY_PATH="$PWD" ldd ./vecadd_shared > "$OUT/ldd_shared.txt" 2>&1
