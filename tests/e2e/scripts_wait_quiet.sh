#!/usr/bin/env bash
# scripts/wait-quiet: returns at once under a load limit no machine reaches; gives up (exit 1,
# naming the busiest processes) when the limit cannot be met (a load average is never below 0).
# Usage: bash scripts_wait_quiet.sh BIN_DIR SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bash "$src/scripts/wait-quiet" 100000 0 2>"$tmp/err" || fail "limit 100000 exited $?: $(cat "$tmp/err")"
grep -q '^wait-quiet: load average .* after 0 s (under 100000)' "$tmp/err" || fail "$(cat "$tmp/err")"
set +e
bash "$src/scripts/wait-quiet" 0 0 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "limit 0 exited $rc, not 1"
grep -q 'still .*(want under 0)' "$tmp/err" || fail "$(cat "$tmp/err")"
grep -q 'COMMAND' "$tmp/err" || fail "no process list: $(cat "$tmp/err")"
