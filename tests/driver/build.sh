#!/bin/sh
# build.sh DIR: build (here, with nvcc 13 and gcc) the shim, the attribute program and the
# vecadd builds into DIR, for record.sh to run on the GPU machine.
set -eu
D=$1
S=$(cd "$(dirname "$0")" && pwd)
CUDA=${CUDA:-/usr/local/cuda}
mkdir -p "$D"
"$S/gen_exports.sh" "$CUDA/lib64/stubs/libcuda.so" "$D"
gcc -O1 -g -shared -fPIC -Wall -Wextra -I"$D" -o "$D/libcuda.so.1" -Wl,-soname,libcuda.so.1 \
    "$S/drvlog.c" "$S/tramp.S" "$D/exports.S" -ldl -lpthread
gcc -O1 -Wall -I"$CUDA/include" -I"$S" -o "$D/attrs" "$S/attrs.c" -L"$CUDA/lib64/stubs" -lcuda
"$CUDA/bin/nvcc" -o "$D/vecadd_default" "$S/vecadd.cu"
"$CUDA/bin/nvcc" -o "$D/vecadd_static" -gencode arch=compute_90,code=[sm_90,compute_90] "$S/vecadd.cu"
"$CUDA/bin/nvcc" -cudart shared -o "$D/vecadd_shared" -gencode arch=compute_90,code=[sm_90,compute_90] "$S/vecadd.cu"
cp "$S/record.sh" "$D/"
"$CUDA/bin/nvcc" -o "$D/cublaslt" "$S/../apps/cublaslt.cu" -lcublasLt
"$CUDA/bin/nvcc" -o "$D/cublas_gemmex" "$S/cublas_gemmex.cu" -lcublas
"$CUDA/bin/nvcc" -o "$D/nvrtc_ptx" "$S/nvrtc_ptx.cu" -lnvrtc
cp "$S/record_libs.sh" "$D/"
