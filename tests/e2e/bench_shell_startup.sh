#!/usr/bin/env bash
# The shell's start-up, measured as the commands run (an empty `SHELL -c ''` through the spawner),
# recorded in the meta file and subtracted in bench's summary, against --no-shell on the same
# command. The command is /bin/true under -S bash, which execs a lone command instead of forking
# it, so what is left after the subtraction is what --no-shell measures: exec and true.
# Stated tolerance: after the subtraction, the medians of --no-shell and of the shell agree
# within half the shell's own start-up, where the raw ones are a whole start-up apart: always
# for CPU time (user + system), and for elapsed time in one of three tries, since other
# processes' load shifts one bench's elapsed against the next's. It compares times, so it carries
# the ctest label timing (docs/reliability.md).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
command -v python3 >/dev/null || skip "python3 reads the meta file"
command -v bash >/dev/null || skip "no bash to exec the command"

median_us() { col "$1" "$2" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) * 1e6 }'; }

# One pair of benches; prints "ELAPSED_OK" when the elapsed medians agree; fails on anything else.
try_pair() {
  local n=$1
  "$bin" bench -q -v --disturbance off -S bash -r 30 -w 3 -u microsecond -o "shell$n.tsv" /bin/true >"shell$n.txt" 2>err.txt ||
    fail "through bash exited $?: $(cat err.txt)"
  "$bin" bench -q --disturbance off -N -r 30 -w 3 -o "noshell$n.tsv" /bin/true >/dev/null 2>err.txt ||
    fail "--no-shell exited $?: $(cat err.txt)"
  grep -q '"shell_startup"' "meta/noshell$n.json" && fail "--no-shell recorded a shell start-up"
  grep -q "^Shell start-up subtracted: bash -c '' took" "shell$n.txt" || fail "no line saying so: $(cat "shell$n.txt")"
  local startup
  startup=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["shell_startup"]
assert s["command"] == ["bash", "-c", ""] and s["runs"] == 30, s
print(s["elapsed_s"] * 1e6, (s["user_s"] + s["system_s"]) * 1e6)' "meta/shell$n.json") ||
    fail "no shell_startup: $(cat "meta/shell$n.json")"
  # The summary's corrected row: "/bin/true  pipe  30  412.3 µs  300.0 µs  100.0 µs".
  local corrected
  corrected=$(awk '$1 == "/bin/true" && $3 == "30" && $5 == "µs" { print $4, $6 + $8; exit }' "shell$n.txt")
  [ -n "$corrected" ] || fail "no corrected row: $(cat "shell$n.txt")"
  awk -v startup="$startup" -v corrected="$corrected" \
    -v raw="$(median_us elapsed "shell$n.tsv")" -v noshell="$(median_us elapsed "noshell$n.tsv")" \
    -v noshell_cpu="$(( $(median_us user "noshell$n.tsv" | cut -d. -f1) + $(median_us system "noshell$n.tsv" | cut -d. -f1) ))" 'BEGIN {
    split(startup, s, " "); split(corrected, c, " ")
    printf "try: bash -c /bin/true %.1f µs, bash -c \x27\x27 %.1f µs (CPU %.1f), corrected %.1f µs (CPU %.1f), -N /bin/true %.1f µs (CPU %.1f)\n", raw, s[1], s[2], c[1], c[2], noshell, noshell_cpu > "/dev/stderr"
    # The summary shows the raw median less the shell median (to its 0.1 µs rounding); a load
    # that makes the shell alone no faster leaves nothing to subtract, and the try is retried.
    if (raw - s[1] >= 0 && (c[1] - (raw - s[1]) > 0.2 || (raw - s[1]) - c[1] > 0.2)) { print "corrected elapsed is not raw - startup" > "/dev/stderr"; exit 1 }
    d = c[2] - noshell_cpu; if (d < 0) d = -d
    if (d > s[2] / 2) { print "corrected CPU time and --no-shell differ by more than half the start-up" > "/dev/stderr"; exit 1 }
    d = c[1] - noshell; if (d < 0) d = -d
    if (d <= s[1] / 2) print "ELAPSED_OK"
  }' || fail "shell correction, try $n"
}

for n in 1 2 3; do
  result=$(try_pair "$n") || exit 1  # try_pair's fail has said why
  [ "$result" = ELAPSED_OK ] && { echo "bench_shell_startup: ok (elapsed agreed on try $n)"; exit 0; }
done
fail "the corrected elapsed median and --no-shell's differed by more than half the shell's start-up in 3 tries"
