#!/usr/bin/env bash
# A cell whose runs fall into two levels is warned about once, naming the levels and the runs
# when each held, and the run record keeps the line (docs/reports.md, "Two levels"): a command
# that sleeps 10 ms for about its first five measured runs and 200 ms after them, one of the fast
# ones a stray of 500 ms (which hid the levels from the rule before it left strays out, and is the
# likeliest reason the sanitizer pass on a loaded machine once printed no warning).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
cd "$tmp"
# Every run counts itself: the verification run (n = 0, or 0 and 1 when it is retried), then the
# measured runs, of which about the first five are fast.
step='n=$(cat count 2>/dev/null || echo 0); echo $((n + 1)) >count; if [ "$n" -eq 3 ]; then sleep 0.5; elif [ "$n" -le 5 ]; then sleep 0.01; else sleep 0.2; fi'
"$bin/iobench" bench --disturbance off --decide off -r 10 -w 0 -n step -o runs.tsv "$step" \
  >out.txt 2>err.txt || fail "bench exited $?: $(cat err.txt)"
[ "$(grep -c 'fell into two levels' err.txt)" -eq 1 ] || fail "not one two-level warning: $(cat err.txt)"
grep -qE '^iobench: warning: step \(pipe sink\): its ok runs fell into two levels, [0-9.]+ ms over runs 1–[3-7] \(repeats 1–[3-7]; [^)]*\), then [0-9.]+ ms over runs [4-8]–10 \(repeats [4-8]–10; [^)]*\); ' err.txt ||
  fail "$(cat err.txt)"
grep -q 'fell into two levels' meta/runs.json || fail "the record does not keep the warning"
