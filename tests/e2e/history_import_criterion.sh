#!/usr/bin/env bash
# End to end: Criterion.rs's sample.json files as `cargo bench` left them (Debian's
# librust-criterion-dev; tests/fixtures/imports/README.md), three commits, `changed` made slower
# in the third: check flags it (exit 1) and not `steady` (docs/history.md, "Criterion").
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
source "$src/tests/e2e/history_import_lib.bash"
fixtures=$src/tests/fixtures/imports/criterion-0.3.6
store=$tmp/history.sqlite

for c in 1 2 3; do
  "$iobench" history add --history="$store" --commit "c$c" \
    "$fixtures/commit$c/steady/new/sample.json" "$fixtures/commit$c/changed/new/sample.json" \
    2>"$tmp/add.err" || fail "history add commit$c: $(cat "$tmp/add.err")"
done
grep -q "changed/new/sample.json to .*: 10 rows, 0 new series (commit c3)" "$tmp/add.err" ||
  fail "add said: $(cat "$tmp/add.err")"
# Two earlier sessions say nothing of how far sessions drift: the spread is stated
# (docs/history.md, "Sessions"). Two sessions 10 % apart cannot rule out the default 5 %: the
# steady one is then underpowered, not judged; they rule out 40 %.
expect_one_slower "$store" '^regression .* changed \(criterion time\): time 1\.[0-9]* µs -> [4-6]\.[0-9]* µs' \
  'steady (criterion' '2 series: 1 regression, 1 underpowered; exit 1' --session-spread 10
expect_one_slower "$store" '^regression .* changed \(criterion time\)' \
  'steady (criterion' '2 series: 1 regression, 1 steady; exit 1' --session-spread 10 --min-effect 40
echo "history_import_criterion: ok"
