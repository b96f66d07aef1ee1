#!/bin/sh
# gen_exports.sh LIBCUDA OUTDIR: exports.h and exports.S for the logging shim, one stub per
# function the driver library exports (except the three drvlog.c defines itself).
set -eu
nm -D --defined-only "$1" | awk '$2 ~ /^[Tt]$/ {sub(/@.*/, "", $3); print $3}' | sort -u |
    grep -vx -e cuGetProcAddress -e cuGetProcAddress_v2 -e cuGetExportTable > "$2/exports.txt"
n=$(wc -l < "$2/exports.txt")
{
    echo "#define NEXPORT $n"
    echo "static const char *const export_names[NEXPORT] = {"
    sed 's/.*/    "&",/' "$2/exports.txt"
    echo "};"
} > "$2/exports.h"
{
    echo "    .text"
    awk '{printf "    .globl %s\n    .type %s,@function\n%s:\n    jmp drvlog_tramp_base+16*%d\n", $1, $1, $1, NR-1}' "$2/exports.txt"
    echo '    .section .note.GNU-stack,"",@progbits'
} > "$2/exports.S"
