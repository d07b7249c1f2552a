#!/usr/bin/env bash
# scripts/history-sessions --quick (docs/history.md, "Sessions"): one trial of three baseline
# sessions, drifting; its lines have their shape (each session's median, the spread learnt, each case's
# verdict beside the rows' alone) and the table counts out of one trial; a bad option is one line,
# exit 2. Not its figures: the lead measures those quietly.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
script=$src/scripts/history-sessions
cd "$tmp"

IOBENCH_BIN=$bin one_line_exit_2 "--trials 0" "$script" --trials 0
IOBENCH_BIN=$bin one_line_exit_2 "--runs 1" "$script" --runs 1

# --drift: each session beside a load the script starts and stops.
IOBENCH_BIN=$bin "$script" --quick --drift >out.txt 2>err.txt || fail "--quick exited $?: $(cat err.txt)"
grep -qE '^# .*load average .* 1 trials of 3 baseline sessions, bench -r 5; input 1MiB, base median [0-9.]+ ms; slower \+25 %: awk looping [0-9]+ times; drift between sessions$' out.txt ||
  fail "no header line: $(cat out.txt)"
# Any verdict: under the parallel suite a session may start on a busy machine (conditions changed,
# no rows' verdict: None, no spread: -).
v='[a-z ]+ \(rows: ([a-z ]+|None)\)'
grep -qE "^# trial 1: session medians [0-9.]+ [0-9.]+ [0-9.]+ ms, then unchanged [0-9.]+, slower [0-9.]+; spread ([0-9.]+ %|-); same: $v; slower: $v; one base: $v$" out.txt ||
  fail "no trial line: $(cat out.txt)"
grep -qx '| | sessions (history check now) | rows alone (check before sessions counted) |' out.txt ||
  fail "no table header: $(cat out.txt)"
for row in '3 sessions, then unchanged: regression' '3 sessions, then 25 % slower: regression' \
  '--base one session, unchanged: regression'; do
  grep -qE "^\| $row \| [01] of 1 \| [01] of 1 \|$" out.txt || fail "no row '$row': $(cat out.txt)"
done
grep -qE '^[0-9]+ s in all\.$' out.txt || fail "no total time: $(cat out.txt)"
