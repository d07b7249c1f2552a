#!/usr/bin/env bash
# `iobench bench --compare-with hyperfine`: the same commands through hyperfine after iobench's
# runs, both answers side by side; without hyperfine one clear line, exit 2, nothing run or
# written; another tool is refused the same way.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"

# A PATH without hyperfine (sh and sleep are still found: they are all the commands need).
mkdir nohf
for tool in sh sleep; do ln -s "$(command -v "$tool")" "nohf/$tool"; done
for args in "--compare-with hyperfine" "--compare-with perf"; do
  set +e
  # shellcheck disable=SC2086
  PATH=$tmp/nohf "$bin" bench -q --disturbance off -r 2 -w 0 -o missing.tsv $args 'sleep 0.01' >out.txt 2>err.txt
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "'$args' without hyperfine exited $code: $(cat err.txt)"
  [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -s out.txt ] && [ ! -e missing.tsv ] ||
    fail "'$args': $(cat err.txt out.txt)"
done
grep -q 'iobench compares with hyperfine only' err.txt || fail "$(cat err.txt)"
set +e
PATH=$tmp/nohf "$bin" bench -q --disturbance off -o missing.tsv --compare-with hyperfine 'sleep 0.01' 2>err.txt
set -e
grep -q '^iobench: --compare-with hyperfine: hyperfine is not installed' err.txt || fail "$(cat err.txt)"

command -v hyperfine >/dev/null || skip "no hyperfine (scripts/test installs it)"
"$bin" bench -q --disturbance off -r 6 -w 1 -u millisecond -o both.tsv --compare-with hyperfine 'sleep 0.01' 'sleep 0.03' \
  >out.txt 2>err.txt || fail "--compare-with hyperfine exited $?: $(cat err.txt)"
grep -q '^Side by side with hyperfine [0-9.]* (' out.txt || fail "no side by side: $(cat out.txt)"
row=$(grep -E '^sleep 0\.03 ' out.txt | tail -1)
grep -Eq '[0-9.]+× slower \[[0-9.]+, [0-9.]+\]' <<<"$row" || fail "no iobench verdict: $row"
grep -Eq '[0-9.]+ ms ± [0-9.]+ ms +[0-9.]+ ± [0-9.]+ times slower' <<<"$row" || fail "no hyperfine answer: $row"
grep -q '^Only iobench' out.txt || fail "what only iobench checked is not said: $(cat out.txt)"
echo "bench_compare_with: ok"
