#!/usr/bin/env bash
# scripts/bench-noise --quick (docs/bench.md, "Under noise"): one trial of each tool on a tiny
# input, quiet and under its own bursts of load; the table has its shape (three tools, A/A and
# slower, quiet and loaded, counts out of one trial) and the machine-time line, the noise it
# started is gone afterwards, and bad options are one line, exit 2. Not its figures: the lead
# measures those quietly.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v hyperfine >/dev/null || skip "no hyperfine (scripts/test installs it)"
command -v taskset >/dev/null || skip "no taskset"
script=$src/scripts/bench-noise
cd "$tmp"

IOBENCH_BIN=$bin one_line_exit_2 "--trials 0" "$script" --trials 0

seed=$((RANDOM + 100000))  # names this run's noise child among the processes
IOBENCH_BIN=$bin "$script" --quick --seed "$seed" >out.txt 2>err.txt ||
  fail "--quick exited $?: $(cat err.txt)"
grep -q "^# .*load average .* 1 trials of -r 5; input 1MiB; extra work: awk looping [0-9]* times" out.txt ||
  fail "no header line: $(cat out.txt)"
grep -qx '| | quiet | with bursts of CPU load on one CPU |' out.txt || fail "$(cat out.txt)"
rows=$(grep -cE '^\| [^|]+: (A/A false alarms|slower detected) \| [01] of 1 \| [01] of 1 \|$' out.txt)
[ "$rows" -eq 6 ] || fail "$rows rows of counts, not 6: $(cat out.txt)"
for tool in 'iobench bench (defaults: rerun, decide)' 'iobench bench --disturbance off' \
  'hyperfine (Welch t, alpha 0.05)'; do
  for what in 'A/A false alarms' 'slower detected'; do
    grep -qF "| $tool: $what |" out.txt || fail "no row '$tool: $what': $(cat out.txt)"
  done
done
grep -qE '^Machine time of one trial .*: iobench bench [0-9.]+ s, --disturbance off [0-9.]+ s, hyperfine [0-9.]+ s; iobench / hyperfine [0-9.]+x\.$' out.txt ||
  fail "no machine-time line: $(cat out.txt)"
# Either sign: one trial of 5 runs on a loaded test machine may see the slower command faster.
grep -qE '^The slower command, by hyperfine.s quiet means: [+-][0-9.]+ %' out.txt ||
  fail "no slowdown line: $(cat out.txt)"
! ps -eo args | grep -v grep | grep -q "Random($seed)" || fail "the noise child is still running"
