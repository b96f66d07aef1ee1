#!/bin/sh
# build.sh: rebuild the committed -rdc test program (README.md) with nvcc: both halves, relocatable
# device code, PTX only for compute_90 (the emulator runs PTX), static runtime, stripped.
set -eu
cd "$(dirname "$0")"
nvcc -rdc=true -gencode arch=compute_90,code=compute_90 -o rdc a.cu b.cu
strip rdc
