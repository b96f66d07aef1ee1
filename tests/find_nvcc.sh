# find_nvcc.sh: sourced by the test scripts that build CUDA programs.  find_nvcc LABEL sets
# NVCC (kept when the caller set it) to nvcc on PATH or /usr/local/cuda/bin/nvcc; without
# one it says "LABEL: skipped (no nvcc)" and fails, and the caller passes visibly.
find_nvcc() {
    NVCC=${NVCC:-}
    [ -n "$NVCC" ] && return 0
    if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
    elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
    else echo "$1: skipped (no nvcc)"; return 1
    fi
}
