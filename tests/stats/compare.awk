# compare.awk: one launch's metrics against the H100's, with the tolerances of
# docs/memory-model.md.  Files: the H100's "metric value" lines, known.txt, the emulator's
# "metric value" lines; -v name=CASE picks the case's known deviations.  Prints one line per
# metric out of tolerance: "known ..." for the deviations known.txt lists, "FAIL ..." else;
# and "agrees ..." for a deviation known.txt lists that is within tolerance now.
FILENAME == ARGV[1] { hw[$1] = $2; next }
FILENAME == ARGV[2] { if ($1 == name) known[$2] = 1; next }
($1 in hw) {
    m = $1; e = $2 + 0; h = hw[m] + 0; d = e - h; if (d < 0) d = -d
    if (m ~ /\.pct$/)               ok = d <= 5
    else if (m ~ /^dram__/)         ok = d <= (0.10 * h > 4096 ? 0.10 * h : 4096)
    else if (m ~ /^lts__t_sectors/) ok = d <= 0.10 * h
    else                            ok = d == 0
    if (!ok) printf "%s %s emulator %s, H100 %s\n", (m in known) ? "known" : "FAIL", m, $2, hw[m]
    else if (m in known) printf "agrees %s emulator %s, H100 %s\n", m, $2, hw[m]
}
