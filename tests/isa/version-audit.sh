#!/bin/sh
# version-audit.sh: measures, with NVIDIA's ptxas, the oldest .target and .version each
# instruction form assembles at, and compares them with what ptxemu's checker (the ISA
# tables: ops.def, rules.def, sregs.def, directives.def) demands of the same file.
#
#   tests/isa/version-audit.sh [-o FILE] [NAME...]
#
# The forms: every ptxfuzz variant (`ptxfuzz kernel NAME`: one arithmetic, logic or
# conversion instruction in a kernel) and the one-line forms of tests/isa/version-forms.txt
# (the other instructions, per-modifier and per-space rules, special registers and
# directives).  NAME... restricts the run to the forms whose name starts with one of them.
# For each form:
#   target: from its own .target, step down the target chain (sm_90a > sm_90 > sm_89 >
#     sm_88 > sm_87 > sm_86 > sm_80 > sm_75; sm_100a > sm_100 > sm_90; ...) while each
#     tool still accepts it at .version 9.0: the lowest target of each tool;
#   version: at each target of that chain (from the form's own down) that both accept,
#     the oldest .version each accepts, from the target's own oldest .version up.
# A row whose two columns differ is a mismatch ("!" in the last column); "<=6.3" means
# the oldest version the target allows already works.  Needs ptxas, build/bin/ptxrun and
# build/bin/ptxfuzz; the result is tests/isa/versions.md.  Runs a few minutes: `nice`.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUTF=tests/isa/versions.md
if [ "${1:-}" = "-o" ]; then OUTF=$2; shift 2; fi
PTXRUN=${PTXRUN:-build/bin/ptxrun}
PTXFUZZ=${PTXFUZZ:-build/bin/ptxfuzz}
PTXAS=${PTXAS:-}
if [ -z "$PTXAS" ]; then
    if command -v ptxas >/dev/null 2>&1; then PTXAS=ptxas
    elif [ -x /usr/local/cuda/bin/ptxas ]; then PTXAS=/usr/local/cuda/bin/ptxas
    else echo "version-audit: skipped (no ptxas)"; exit 0
    fi
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Private copies: a rebuild during the run must not change the answers.
cp "$PTXRUN" "$tmp/ptxrun" && cp "$PTXFUZZ" "$tmp/ptxfuzz" 2>/dev/null || true
PTXRUN=$tmp/ptxrun
[ -x "$tmp/ptxfuzz" ] && PTXFUZZ=$tmp/ptxfuzz

VERS="6.3 6.4 6.5 7.0 7.1 7.2 7.3 7.4 7.5 7.6 7.7 7.8 8.0 8.1 8.2 8.3 8.4 8.5 8.6 8.7 8.8 9.0"
# The oldest .version that may name each target (ptxas 13; targets.def agrees).
tmin() {
    case $1 in
    sm_75) echo 6.3 ;; sm_80) echo 7.0 ;; sm_86) echo 7.1 ;; sm_87) echo 7.4 ;;
    sm_88) echo 7.3 ;; sm_89|sm_90) echo 7.8 ;; sm_90a) echo 8.0 ;;
    sm_100|sm_100a) echo 8.6 ;; sm_120|sm_120a) echo 8.7 ;; sm_110*) echo 9.0 ;;
    *) echo 8.8 ;;
    esac
}
# The next lower target whose features include this one's (none below sm_75).
below() {
    case $1 in
    sm_90a) echo sm_90 ;; sm_90) echo sm_89 ;; sm_89) echo sm_88 ;; sm_88) echo sm_87 ;;
    sm_87) echo sm_86 ;; sm_86) echo sm_80 ;; sm_80) echo sm_75 ;;
    sm_100f) echo sm_100 ;; sm_100a) echo sm_100 ;; sm_100) echo sm_90 ;;
    sm_103a|sm_103f) echo sm_103 ;; sm_103) echo sm_100 ;;
    sm_110a|sm_110f) echo sm_110 ;; sm_110) echo sm_100 ;;
    sm_120a|sm_120f) echo sm_120 ;; sm_120) echo sm_90 ;;
    *) echo "" ;;
    esac
}

# mk SRC VERSION TARGET: the form at that version and target, in $tmp/x.ptx
mk() { sed -e "s/^\.version .*/.version $2/" -e "s/^\.target [a-z0-9_]*/.target $3/" "$1" > "$tmp/x.ptx"; }
ok_p() { mk "$1" "$2" "$3"; "$PTXAS" -arch="$3" "$tmp/x.ptx" -o /dev/null >/dev/null 2>&1; }
ok_e() { mk "$1" "$2" "$3"; "$PTXRUN" --list "$tmp/x.ptx" >/dev/null 2>&1; }

# oldest TOOL SRC TARGET: the first version (from the target's floor) TOOL accepts;
# "<=V" when the floor V already works.
oldest() {
    fl=$(tmin "$3") first=1 on=0
    for v in $VERS; do
        [ "$v" = "$fl" ] && on=1
        [ $on = 1 ] || continue
        if "$1" "$2" "$v" "$3"; then
            if [ $first = 1 ]; then echo "<=$v"; else echo "$v"; fi
            return
        fi
        first=0
    done
    echo "none"
}

nmis=0 nform=0
# audit NAME SRC: one table row.  Walks the target chain down from the form's own
# target while both tools accept it at .version 9.0, and at each such target compares
# the oldest versions.
audit() {
    t0=$(sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$2" | head -n1)
    nform=$((nform + 1))
    t=$t0 tp="" te="" vp="" ve="" mis=0
    while [ -n "$t" ]; do
        # Both taking it at the target's own oldest version settles this target at once.
        fl=$(tmin "$t")
        if ok_p "$2" "$fl" "$t" && ok_e "$2" "$fl" "$t"; then
            tp=$t te=$t vp="$t:<=$fl $vp" ve="$t:<=$fl $ve" pa=1 ea=1
            t=$(below "$t")
            continue
        fi
        pa=0 ea=0
        ok_p "$2" 9.0 "$t" && pa=1
        ok_e "$2" 9.0 "$t" && ea=1
        [ $pa = 1 ] && tp=$t
        [ $ea = 1 ] && te=$t
        [ $pa = 1 ] && [ $ea = 1 ] || break
        a=$(oldest ok_p "$2" "$t") b=$(oldest ok_e "$2" "$t")
        [ "$a" = "$b" ] || mis=1
        vp="$t:$a $vp" ve="$t:$b $ve"
        t=$(below "$t")
    done
    # One tool stopped at a higher target than the other, or one refused at the start.
    [ "$tp" = "$te" ] || mis=1
    if [ -n "$t" ] && [ $pa != $ea ]; then mis=1; fi
    mark=""
    if [ $mis = 1 ]; then mark="!"; nmis=$((nmis + 1)); fi
    [ "$vp" = "$ve" ] && ve="same"
    echo "| \`$1\` | ${tp:-refused} | ${te:-refused} | ${vp% } | ${ve% } | $mark |"
}

FILTER="$*"
want() {
    [ -z "$FILTER" ] && return 0
    for p in $FILTER; do case $1 in "$p"*) return 0 ;; esac; done
    return 1
}

{
echo "# PTX versions and targets: ptxas against the ISA tables"
echo
echo "Generated by \`tests/isa/version-audit.sh\` (ptxas $("$PTXAS" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')); do not edit by hand."
echo "Each row is one instruction form: the lowest \`.target\` each tool accepts it at (.version 9.0),"
echo "then, at each target of the chain down from the form's own, the oldest \`.version\` each"
echo "accepts (\`<=V\`: the target's own oldest version already works; \`same\`: as ptxas)."
echo "\`!\`: ptxemu's checker and ptxas disagree."
echo
echo "| form | ptxas target | ptxemu target | ptxas version | ptxemu version | |"
echo "| --- | --- | --- | --- | --- | --- |"
for v in $({ "$PTXFUZZ" list; "$PTXFUZZ" list --sm100; } | awk '!seen[$0]++'); do
    want "$v" || continue
    "$PTXFUZZ" kernel "$v" > "$tmp/form.ptx" 2>/dev/null || continue
    audit "$v" "$tmp/form.ptx"
done
# version-forms.txt: "TARGET NAME | declarations and instructions" (";"-separated lines)
while IFS='|' read -r head body; do
    case $head in ''|'#'*) continue ;; esac
    set -- $head
    t=$1 name=$2
    want "$name" || continue
    {
        printf '.version 9.0\n.target %s\n.address_size 64\n' "$t"
        printf '.global .align 16 .b8 gbuf[256];\n.shared .align 16 .b8 sbuf[256];\n'
        printf '.visible .entry k(.param .u64 p)\n{\n'
        printf '\t.reg .pred %%p<4>;\n\t.reg .b16 %%h<4>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n'
        printf '\t.reg .f32 %%f<8>;\n\t.reg .f64 %%fd<4>;\n'
        printf '\tld.param.u64 %%rd1, [p];\n\tmov.u32 %%r1, sbuf;\n'
        echo "$body" | tr ';' '\n' | sed 's/^ */\t/; s/$/;/' | grep -v '^	;$'
        printf '\tret;\n}\n'
    } > "$tmp/form.ptx"
    audit "$name" "$tmp/form.ptx"
done < "${FORMS:-tests/isa/version-forms.txt}"
echo
echo "$nform forms, $nmis mismatches."
} > "$OUTF"
tail -n 1 "$OUTF"
grep '| ! |$' "$OUTF"
exit 0
