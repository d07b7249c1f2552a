#!/usr/bin/env bash
# iobench compare end to end: verdicts, tsv columns, exit codes of --fail-on-regression.
# Usage: bash report_compare.sh BIN_DIR SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
fixtures=$src/tests/fixtures/reports

"$iobench" compare "$fixtures/compare-base.tsv" "$fixtures/compare-new.tsv" >"$tmp/out" 2>"$tmp/err" ||
  fail "compare exited $? without --fail-on-regression"
grep -q '^slower .* slower$' "$tmp/out" || fail "no slower verdict: $(cat "$tmp/out")"
grep -q 'too few runs to judge' "$tmp/out" || fail "too few runs not said: $(cat "$tmp/out")"
grep -q 'only in the base runs' "$tmp/err" || fail "missing group not warned: $(cat "$tmp/err")"

"$iobench" compare --format tsv "$fixtures/compare-base.tsv" "$fixtures/compare-new.tsv" 2>/dev/null >"$tmp/out.tsv"
diff -u "$fixtures/golden/compare.tsv" "$tmp/out.tsv" || fail "tsv differs from golden"

set +e
"$iobench" compare --fail-on-regression 10 "$fixtures/compare-base.tsv" "$fixtures/compare-new.tsv" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "--fail-on-regression 10 exited $rc, not 1"
grep -q 'regression: slower' "$tmp/err" || fail "regression not named: $(cat "$tmp/err")"
"$iobench" compare --fail-on-regression 50 "$fixtures/compare-base.tsv" "$fixtures/compare-new.tsv" >/dev/null 2>&1 ||
  fail "--fail-on-regression 50 failed"

set +e
"$iobench" compare "$fixtures/compare-base.tsv" /nonexistent.tsv >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "missing file exited $rc, not 2"
echo "report_compare: ok"
