#!/bin/sh
# regen.sh - regenerate the PTX parse corpus from its CUDA sources.
#
# Usage: tests/ptx/corpus/regen.sh [file.cu ...]     (default: every *.cu here)
#        NVCC=/path/to/nvcc tests/ptx/corpus/regen.sh
#
# The generated .ptx files are committed, so the emulator's tests never need
# nvcc; this script only has to be run when a .cu file changes or a new nvcc
# is adopted. It does nothing (exit 0) when nvcc cannot be found.
#
# For each <name>.cu it writes, with `nvcc -std=c++17 -ptx -arch=<target>`:
#   <name>.sm_75.ptx  <name>.sm_80.ptx  <name>.sm_90.ptx    plain builds
#   <name>.sm_90.lineinfo.ptx                               + -lineinfo (.file/.loc)
#   <name>.sm_90.G.ptx                                      + -G (debug: .target sm_90, debug,
#                                                             .section .debug_* blocks, unoptimised)
#   <name>.sm_90.fastmath.ptx                               + -use_fast_math (only *math* files)
# Files named *_sm90a.cu use Hopper-only instructions and are built for sm_90a
# only: <name>.sm_90a.ptx, <name>.sm_90a.lineinfo.ptx, <name>.sm_90a.G.ptx.
# Nothing is stripped from the output. -G is done for every file (the whole
# corpus stays well under 25 MB); set NO_G=1 to skip the -G variants.
#
# Contents (one source per feature group of docs PTX_CATALOG.md section 6):
#   01_exec_space           __global__/__device__/__noinline__/__forceinline__, extern "C",
#                           real recursion (fib), struct return, by-value struct/char/short/
#                           float/double/float4/int2/bool params, __grid_constant__ (+__isGridConstant),
#                           function-pointer tables (global and local), __launch_bounds__ (2 and
#                           3 args), __maxnreg__, __cluster_dims__, templates, early return
#   02_memory_spaces        __device__ globals with scalar/array/struct/2-D/string initialisers,
#                           pointer initialisers (generic(sym)), function-pointer tables,
#                           __constant__ (initialised, short string, uninitialised), __managed__,
#                           static and dynamic __shared__, %dynamic_smem_size, __restrict__,
#                           local arrays/structs with dynamic index, volatile
#   03_vector_types         float4/int4/uint4/double2/longlong2/double4_16a/_32a/float2/float3/
#                           uint3/char4/uchar4/short2/uchar2/ushort4/int2/long4_16a/ulonglong2,
#                           shared vector access, dim3/uint3
#   04_builtins             threadIdx/blockIdx/blockDim/gridDim (x,y,z), warpSize
#   05_sync_fences          __threadfence_*, __syncthreads(_count/_and/_or), __syncwarp,
#                           cooperative groups (block/tile sync, reduce, shfl, ballot, coalesced),
#                           cuda::atomic_thread_fence, cluster sync
#   06_math_float_intrinsics  __sinf..__powf, rounding-mode add/sub/mul/fma/div/rcp/sqrt (f32, f64),
#                           __frsqrt_rn, rsqrt, min/max/abs/copysign, floor/ceil/trunc/rint/round
#   07_int_intrinsics       popc/clz/brev/ffs/byte_perm/funnelshift/mulhi/mul24/sad/hadd/dp4a/dp2a/
#                           fns/abs/min/max/div/rem, __vimax*/__viaddmax*/__vibmax*
#   08_conversions          __float2int_*/__double2*/__int2float_*/__ll2double_*, reinterpretation
#   09_math_libdevice       libdevice float and double math (+ -use_fast_math variant)
#   10_half_bf16            __half/__half2/__nv_bfloat16/__nv_bfloat162 arithmetic, math,
#                           compares, conversions, cache-hint loads, shuffles
#   11_texture              tex1Dfetch, tex1D/2D/3D, *Lod, *Grad, layered, cubemap (+layered,
#                           Lod, Grad), tex2Dgather (all components, float/int/uchar), sparse residency
#   12_surface              surf1D/2D/3D/layered/cubemap read/write, all sizes, trap/clamp/zero
#   13_ldg_cache            __ldg, __ldcg/__ldca/__ldcs/__ldlu/__ldcv, __stwb/__stcg/__stcs/__stwt
#   14_clock_sleep          clock, clock64, __nanosleep, %globaltimer(_lo/_hi), %clock
#   15_atomics              atomic* on int/uint/ull/ll/float/double/ushort/half/half2/bf16/bf162/
#                           float2/float4/128-bit, _block/_system variants, shared, generic,
#                           cuda::atomic_ref/atomic with memory orders and scopes
#   16_addrspace            __isGlobal/Shared/Constant/Local/GridConstant/ClusterShared,
#                           __cvta_*, cluster map/query shared rank, cluster barrier arrive/wait
#   17_alloca               alloca/__builtin_alloca (dynamic, in a loop, constant size)
#   18_hints                __builtin_assume_aligned/expect/assume/unreachable, #pragma unroll (N/1),
#                           [[likely]]/[[unlikely]]
#   19_warp_vote            __all/__any/__uni/__ballot_sync, __activemask
#   20_warp_match           __match_any_sync/__match_all_sync (32/64-bit)
#   21_warp_reduce          __reduce_*_sync (sm_80+), cg::reduce
#   22_warp_shuffle         __shfl*_sync with constant/run-time widths, float/double/64-bit
#   23_wmma                 nvcuda::wmma: f16 (f16/f32 acc, all 3 shapes), s8/u8, s4/u4, b1 xor/and,
#                           bf16, tf32, f64 (sm_80+), shared/global/generic, all layouts
#   24_async_barrier        cuda::barrier (block and device scope), __mbarrier_* primitives
#   25_memcpy_async         cg::memcpy_async, cuda::memcpy_async (+barrier, bulk/TMA on sm_90),
#                           cuda::pipeline (thread and block scope), __pipeline_* primitives
#   26_printf_misc          printf (many argument types), assert, __trap, __brkpt, __prof_trigger,
#                           malloc/free/new/delete, device memcpy/memset
#   27_video_simd           __v* SIMD intrinsics, video instructions (vadd2...vmad, .b0/.h1 selectors)
#   28_clusters             __cluster_dims__, 3-arg __launch_bounds__, cluster groups, DSMEM,
#                           cluster special registers, %is_explicit_cluster
#   29_sregs_asm            inline-asm reads of %laneid %warpid %nwarpid %smid %nsmid %gridid
#                           %lanemask_* %clock %clock_hi %clock64 %globaltimer* %dynamic_smem_size
#                           %total_smem_size %aggr_smem_size %envreg* %pm* %pm0_64
#   30_hopper_sm90a         sm_90a only: setmaxnreg, wgmma.fence/mma_async/commit_group/wait_group,
#                           cp.async.bulk.tensor (CUtensorMap __grid_constant__ param) load+store,
#                           prefetch.tensormap, cp.async.bulk (+reduce), mbarrier.expect_tx/try_wait
#                           with suspend-time hint, fence.proxy.async, fence.mbarrier_init,
#                           elect.sync, mapa, getctarank, ld.shared::cluster, griddepcontrol,
#                           ldmatrix/stmatrix
# Hand-written syntax-corner PTX lives in ../syntax/ (not generated).

set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1

if [ -z "${NVCC:-}" ]; then
    if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
    elif [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc
    else echo "regen.sh: nvcc not found, nothing regenerated" >&2; exit 0
    fi
fi

fail=0
gen() {  # gen <out.ptx> <src.cu> <nvcc flags...>
    out=$1; src=$2; shift 2
    echo "  $out"
    if ! "$NVCC" -std=c++17 -ptx "$@" "$src" -o "$out.tmp" 2>"$out.log"; then
        echo "regen.sh: FAILED: $NVCC -std=c++17 -ptx $* $src" >&2
        cat "$out.log" >&2
        rm -f "$out.tmp"; fail=1
    else
        mv "$out.tmp" "$out"
    fi
    rm -f "$out.log"
}

if [ $# -eq 0 ]; then set -- *.cu; fi
for src in "$@"; do
    src=$(basename "$src")
    name=${src%.cu}
    echo "$src"
    case $name in
    *_sm90a) targets=sm_90a; dbg=sm_90a ;;
    *)       targets="sm_75 sm_80 sm_90"; dbg=sm_90 ;;
    esac
    for t in $targets; do gen "$name.$t.ptx" "$src" -arch=$t; done
    gen "$name.$dbg.lineinfo.ptx" "$src" -arch=$dbg -lineinfo
    if [ "${NO_G:-0}" != 1 ]; then gen "$name.$dbg.G.ptx" "$src" -arch=$dbg -G; fi
    case $name in
    *math*) gen "$name.$dbg.fastmath.ptx" "$src" -arch=$dbg -use_fast_math ;;
    esac
done
exit $fail
