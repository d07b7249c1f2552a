#!/usr/bin/env bash
# Skips under CI (tests/e2e/lib/common.bash): `skip`, for a missing package, is a skip (exit 77)
# on a developer's machine and a failure under IOBENCH_TEST_STRICT=1 (scripts/test, which installs
# every package the tests use); `skip_here`, for what no package gives, skips either way.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
probe() {  # STRICT FUNCTION: runs FUNCTION "no frobnicate" in a test of its own; prints its exit
  local status=0
  IOBENCH_TEST_STRICT=$1 bash -c 'source "$0/tests/e2e/lib/common.bash" "$1" "$0"; '"$2"' "no frobnicate"' \
    "$src" "$bin" >"$tmp/out" 2>"$tmp/err" || status=$?
  echo "$status"
}
[ "$(probe 0 skip)" = 77 ] || fail "skip without strict did not exit 77: $(cat "$tmp/out" "$tmp/err")"
grep -q "^SKIP: no frobnicate$" "$tmp/out" || fail "skip did not say why: $(cat "$tmp/out")"
[ "$(probe 1 skip)" = 1 ] || fail "skip under IOBENCH_TEST_STRICT=1 did not fail: $(cat "$tmp/out" "$tmp/err")"
grep -q "^FAIL: no frobnicate (IOBENCH_TEST_STRICT=1: scripts/test installs what the tests need" "$tmp/err" ||
  fail "the strict failure does not say why: $(cat "$tmp/err")"
[ "$(probe 1 skip_here)" = 77 ] || fail "skip_here under strict did not skip: $(cat "$tmp/out" "$tmp/err")"
[ "$(probe 0 skip_here)" = 77 ] || fail "skip_here did not skip: $(cat "$tmp/out" "$tmp/err")"
grep -q "IOBENCH_TEST_STRICT=1" "$src/scripts/test" || fail "scripts/test does not make skips strict"
echo "skip_strict: a missing package fails under CI, a machine's limit still skips"
