#!/bin/sh
# check.sh - assemble every hand-written syntax-corner PTX file here with ptxas
# (`ptxas -arch=<its .target> file.ptx -o /dev/null`). Skips (exit 0) when ptxas is absent.
# address_size32.ptx is listed but not assembled: CUDA 13's ptxas refuses all 32-bit modules.
#
# Files (one theme each):
#   immediates.ptx       0f/0F/0d/0D floats, decimal floats, negative ints, U suffix, 0x/0X,
#                        octal, binary, WARP_SZ, constant expressions, immediates in vectors
#   vectors.ptx          {a,b,c,d} operands, `_` sinks, .reg .v4 .f32 / .v2 / .v4 .b16 with
#                        .x/.y/.r/.g/.b/.a, mov.b64/.b32 pack/unpack
#   dual_dest.ptx        shfl.sync d|p, match.all d|p, setp p|q, setp with !c
#   asm_regs.ptx         %-less register names, .reg .f16/.f16x2, several statements per line
#   addressing.ptx       [reg] [reg+imm] [reg+-imm] [reg+(expr)] [sym] [sym+imm] [imm], sym+off values
#   scopes_regs.ptx      nested { } with shadowed names, %r<N>, multiple declarators, trailing label
#   initializers.ptx     short byte arrays, nested 2-D braces, generic(sym)(+off), function-address
#                        tables, unsized arrays, .attribute(.managed), .extern .shared [], $ names
#   calls.ptx            direct/multi-line calls, struct return, .callprototype + indirect call,
#                        call with a target-list symbol, vprintf with immediate param, .noreturn
#   branchtargets.ptx    .branchtargets + brx.idx / brx.idx.uni (predicated)
#   linkage.ptx          .visible/.extern/.weak/.common, .weak .entry, .alias
#   old_nvcc.ptx         CUDA 2/3 nvcc style: prototypes without ';', .file between items
#   debug_info.ptx       .target sm_90, debug; .file (with timestamp,size); .loc with
#                        function_name/inlined_at; .section .debug_* blocks
#   perf_directives.ptx  .maxntid .reqntid .minnctapersm .maxnreg .explicitcluster
#                        .reqnctapercluster .maxclusterrank .noreturn, .pragma "nounroll"
#   predicates.ptx       @%p / @!%p / named preds, and/or/xor/not.pred, setp.cmp.bool, set, selp
#   comments_layout.ptx  /* */ and // everywhere, statements split across lines, no final newline
#   params.ptx           .ptr.global/.shared/.const/.local.align N, byte-array params, small-int
#                        params, param address taken + cvta.param, empty param lists
#   address_size32.ptx   .address_size 32 module (not assembled, see above)
#   modifiers.ptx        `::` qualifiers, cache-policy operand, .b128 registers, mbarrier/cp.async.bulk
#   texrefs.ptx          .target ..., texmode_independent; .texref/.samplerref (initialiser)/.surfref
#   video_operands.ptx   vmad {-}a/{-}b/{-}c, SIMD video selectors .hxy/.bxyzw and masks .h10/.b20/.b3210,
#                        lop3.{and,or} d|p, ..., q
#   cvt_registers.ptx    cvt's register widths: wider registers for the older conversions, exact
#                        widths for bf16, tf32 and the fp8 pairs
#   call_lists.ptx       call lists of constants, expressions, registers and .param variables;
#                        .reg parameters and results, vector ones with components, call.uni
#                        (several .reg results turn the ABI off, which -c refuses: golden calls_multiret)
#   version_thresholds.ptx  forms at the oldest .version ptxas takes them (tests/isa/versions.md):
#                        the fp8 pair conversions at 7.8 on sm_90, cluster spaces and scopes
set -u
cd "$(dirname "$0")" || exit 1
PTXAS=${PTXAS:-}
if [ -z "$PTXAS" ]; then
    if command -v ptxas >/dev/null 2>&1; then PTXAS=ptxas
    elif [ -x /usr/local/cuda/bin/ptxas ]; then PTXAS=/usr/local/cuda/bin/ptxas
    else echo "check.sh: ptxas not found, skipped" >&2; exit 0
    fi
fi
fail=0
for f in *.ptx; do
    case $f in address_size32.ptx) echo "SKIP $f (32-bit not supported by ptxas)"; continue ;; esac
    t=$(sed -n 's/^\.target[ 	]*\(sm_[0-9a-z]*\).*/\1/p' "$f" | head -n 1)
    if "$PTXAS" -c -arch="$t" "$f" -o /dev/null; then echo "OK   $f ($t)"
    else echo "FAIL $f ($t)"; fail=1
    fi
done
exit $fail
