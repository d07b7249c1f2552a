#!/usr/bin/env bash
# End to end, from files real tools wrote (tests/fixtures/imports/README.md; docs/history.md,
# "Other harnesses"): pytest-benchmark's JSON of three commits, test_changed made slower in the
# third: check flags it (exit 1) and not test_steady, with the commit pytest-benchmark recorded
# beside; BMF, as history export writes it, imported into another store and exported again gives
# back the same metrics.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to read JSON"
iobench=$bin/iobench
source "$src/tests/e2e/history_import_lib.bash"
fixtures=$src/tests/fixtures/imports
store=$tmp/pytest.sqlite

for c in 1 2 3; do
  "$iobench" history add --history="$store" --commit "c$c" \
    "$fixtures/pytest-benchmark-3.2.2-commit$c.json" 2>"$tmp/add.err" ||
    fail "history add commit$c: $(cat "$tmp/add.err")"
done
expect_one_slower "$store" \
  '^regression .* test_tiny.py::test_changed \(pytest-benchmark time\): time [0-9.]* µs -> 1[0-9.]* µs' \
  'test_steady' '2 series: 1 regression, 1 underpowered; exit 1' --session-spread 10
# (two earlier sessions.) test_steady's rows are 1.05 times higher [1.012, 1.101] run for run
# (its medians 1.047 apart): past the 5 % by its rows, within the sessions' stated 10 %, which
# cannot rule out 5 % either way: not judged (underpowered).

# A commit with no run to export is one line and exit 2, nothing written (issue 47: `{}`, exit 0);
# a commit prefix that has runs exports them.
status=0
"$iobench" history export --history="$store" --commit c9 -o "$tmp/none.json" 2>"$tmp/none.err" ||
  status=$?
[ "$status" -eq 2 ] || fail "export --commit c9: exit $status: $(cat "$tmp/none.err")"
[ "$(cat "$tmp/none.err")" = "iobench: --commit c9: no series has a run of that commit to export" ] ||
  fail "export --commit c9 said: $(cat "$tmp/none.err")"
[ -e "$tmp/none.json" ] && fail "export --commit c9 wrote its file"
"$iobench" history export --history="$store" --commit c3 -o "$tmp/c3.json" ||
  fail "export --commit c3 failed"
grep -q 'test_changed' "$tmp/c3.json" || fail "export --commit c3: $(cat "$tmp/c3.json")"

# BMF both ways: the store's metrics out, into a new store, out again: the same metrics.
"$iobench" history export --history="$store" --format bmf -o "$tmp/first.json"
"$iobench" history add --history="$tmp/bmf.sqlite" --commit b1 "$tmp/first.json" 2>"$tmp/add.err" ||
  fail "history add of BMF: $(cat "$tmp/add.err")"
grep -q "first.json to .*: 2 rows, 2 new series" "$tmp/add.err" || fail "add said: $(cat "$tmp/add.err")"
"$iobench" history export --history="$tmp/bmf.sqlite" --format bmf -o "$tmp/again.json"
python3 - "$tmp/first.json" "$tmp/again.json" <<'PY' || fail "the BMF metrics differ"
import json, sys
first, again = (json.load(open(p)) for p in sys.argv[1:])
assert first == again, (first, again)
assert set(first) == {"test_tiny.py::test_steady", "test_tiny.py::test_changed"}, first
PY
echo "history_import_pytest_bmf: ok"
