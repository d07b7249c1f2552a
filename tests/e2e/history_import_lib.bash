# What the tests/e2e/history_import_*.sh tests share (sourced after lib/common.bash, with
# $iobench set): the gate's verdict on a store where one benchmark was made slower.
#   expect_one_slower STORE REGRESSION_REGEX STEADY_TEXT SUMMARY [CHECK_OPTION...]
#     runs `history check` on STORE; fails unless it exits 1, a line matches REGRESSION_REGEX
#     (grep -E), no line that flags a series names STEADY_TEXT as a regression, and its summary
#     (stderr) holds SUMMARY ("2 series: 1 regression, 1 steady; exit 1").
expect_one_slower() {
  local store=$1 regression=$2 steady=$3 summary=$4 status
  shift 4
  set +e
  "$iobench" history check --history="$store" "$@" >"$tmp/check.out" 2>"$tmp/check.err"
  status=$?
  set -e
  [ "$status" -eq 1 ] || fail "check exited $status, not 1: $(cat "$tmp/check.out" "$tmp/check.err")"
  grep -Eq "$regression" "$tmp/check.out" || fail "no line matches $regression: $(cat "$tmp/check.out")"
  grep -F "$steady" "$tmp/check.out" | grep -q '^regression' &&
    fail "$steady is flagged: $(cat "$tmp/check.out")"
  grep -qF "$summary" "$tmp/check.err" || fail "check's summary: $(cat "$tmp/check.err")"
}
