#!/usr/bin/env bash
# scripts/check-orderings: a pair resolved in the base run (non-overlapping 95 % intervals of the
# median) must keep its order in the new run; an unresolved pair may change; a flip exits 1.
# Usage: bash report_check_orderings.sh BIN_DIR SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
export IOBENCH=$bin/iobench
check=$src/scripts/check-orderings

runs() {  # FILE then TEST:ELAPSED... rows
  local file=$1
  shift
  printf 'test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n' >"$file"
  for row in "$@"; do printf '%s\t%s\t0\t0\t100\t1\tin.txt\tpipe\tok\n' "${row%%:*}" "${row#*:}" >>"$file"; done
}
# fast and slow are resolved (1.00-1.02 against 2.00-2.02); near overlaps slow (1.98-2.04).
runs "$tmp/base.tsv" fast:1.00 fast:1.01 fast:1.02 slow:2.00 slow:2.01 slow:2.02 near:1.98 near:2.04 near:2.01
# near and slow swap (allowed: never resolved); fast and slow keep their order.
runs "$tmp/kept.tsv" fast:1.10 fast:1.11 fast:1.12 slow:1.90 slow:1.91 slow:1.92 near:1.95 near:1.96 near:1.97
runs "$tmp/flip.tsv" fast:2.10 fast:2.11 fast:2.12 slow:1.90 slow:1.91 slow:1.92 near:1.95 near:1.96 near:1.97

bash "$check" "$tmp/base.tsv" "$tmp/kept.tsv" >"$tmp/out" || fail "kept order exited $?: $(cat "$tmp/out")"
grep -q 'pairs resolved in BASE (non-overlapping 95% intervals): 2$' "$tmp/out" ||
  fail "expected 2 resolved pairs (fast-slow, fast-near): $(cat "$tmp/out")"
grep -q 'same order in NEW: 2 (also resolved in NEW: 2)' "$tmp/out" || fail "$(cat "$tmp/out")"

set +e
bash "$check" "$tmp/base.tsv" "$tmp/flip.tsv" >"$tmp/out"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a flipped pair exited $rc, not 1: $(cat "$tmp/out")"
grep -q 'CHANGED ORDER .*fast 1.01 < slow 2.01; NEW fast 2.11, slow 1.91' "$tmp/out" ||
  fail "flip not named: $(cat "$tmp/out")"

set +e
bash "$check" "$tmp/base.tsv" >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "one argument exited $rc, not 2"
