#!/bin/sh
# hello.sh: run the example CUDA program (examples/hello.cu) on the emulator: built here when
# nvcc is installed, else the committed x86-64 build.  Run from the source tree after make.
set -eu
cd "$(dirname "$0")/.."
if command -v nvcc >/dev/null 2>&1; then
    mkdir -p build/examples
    nvcc -O2 -o build/examples/hello examples/hello.cu
    exec build/bin/ptxrun build/examples/hello
elif [ "$(uname -m)" = x86_64 ]; then
    exec build/bin/ptxrun examples/hello
else
    echo "examples/hello.sh: skipped (no nvcc, and the committed build is x86-64)"
fi
