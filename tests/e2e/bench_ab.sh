#!/usr/bin/env bash
# scripts/bench-ab --quick (docs/history.md, "Gate a pull request on a shared runner"): one trial
# of each pair on a tiny input; the table has its shape (the gate's counts out of one trial, the
# interleaved and duet columns, hyperfine's anchor, runs, wall time and the order each took), and
# a bad option is one line, exit 2.
# Not its figures: the lead measures those quietly.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v hyperfine >/dev/null || skip "no hyperfine (scripts/test installs it)"
script=$src/scripts/bench-ab
cd "$tmp"

IOBENCH_BIN=$bin one_line_exit_2 "--trials 0" "$script" --trials 0

IOBENCH_BIN=$bin "$script" --quick >out.txt 2>err.txt || fail "--quick exited $?: $(cat err.txt)"
grep -qE '^# .*load average .* 1 trials a pair; input 1MiB, base median [0-9.]+ ms; candidate \+3 %: awk looping [0-9]+ times .*; gate --fail-if-slower 1 -M 20 --decide on$' out.txt ||
  fail "no header line: $(cat out.txt)"
for mode in interleaved duet; do
  grep -qE "^# A/A 1 $mode: bench exit [014], [0-9]+ runs a side, [0-9.]+ s, order (duet|interleave|duet, then interleave)\$" out.txt ||
    fail "no A/A $mode trial line: $(cat out.txt)"
done
grep -qE '^# A/A 1: hyperfine (same|different) \([0-9.]+\)$' out.txt || fail "no hyperfine line: $(cat out.txt)"
grep -qx '| | interleaved (bench defaults) | duet (`--order duet`) | hyperfine (defaults; Welch t, alpha 0.05) |' out.txt ||
  fail "no table header: $(cat out.txt)"
grep -qE '^\| slower found \(exit 1, a verdict\) \| [01] of 1 \| [01] of 1 \| [01] of 1 \|$' out.txt || fail "$(cat out.txt)"
# Exit 1 without a verdict (every run disturbed) is counted apart, out of both pairs' trials.
grep -qE '^\| no ok run \(exit 1, no verdict\) \| [0-2] of 2 \| [0-2] of 2 \| \|$' out.txt || fail "$(cat out.txt)"
grep -qE '^\| A/A called different \| [01] of 1 \| [01] of 1 \| [01] of 1 \|$' out.txt || fail "$(cat out.txt)"
grep -qE '^\| slower not judged \(exit 4\) \| [01] of 1 \| [01] of 1 \| \|$' out.txt || fail "$(cat out.txt)"
# At most 20 runs a side in either mode, as --quick asks (the budget bounds bench's runs).
line=$(grep -E '^\| runs a side \(min, median, max\) \|' out.txt) || fail "no runs line: $(cat out.txt)"
mosts=$(sed -nE 's/^\| runs a side \(min, median, max\) \| [0-9]+, [0-9.]+, ([0-9]+) \| [0-9]+, [0-9.]+, ([0-9]+) \| \|$/\1 \2/p' <<<"$line")
[ -n "$mosts" ] || fail "runs a side: $line"
for most in $mosts; do
  [ "$most" -le 20 ] || fail "runs a side: '$most': $line"
done
grep -qE '^\| wall time of a run \(median, max\) \| [0-9.]+ s, [0-9.]+ s \| [0-9.]+ s, [0-9.]+ s \| \|$' out.txt || fail "$(cat out.txt)"
# Either sign: one trial on a loaded test machine may see the slower command faster.
grep -qE '^The candidate, by hyperfine.s means: [+-][0-9.]+ %' out.txt || fail "no slowdown line: $(cat out.txt)"
# The order each mode took, from the meta files: the default is never a duet.
grep -qE '^\| order taken \(runs\) \| interleave 2 \| .+ \| \|$' out.txt || fail "no order line: $(cat out.txt)"
