#!/usr/bin/env bash
# End to end, PostgreSQL: history_baseline.sh's cases against a real server this test starts
# (tests/e2e/lib/postgresql.bash), each case in a database of its own. Skipped, saying why, where
# no server can start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write the result files"
iobench=$bin/iobench
source "$src/tests/e2e/lib/postgresql.bash"
new_store() {
  pg_createdb "baseline_$1"
  store=$(pg_url "baseline_$1")
}
source "$src/tests/e2e/history_baseline_lib.bash"
branches_cases
measure_cases
underpowered_cases
mismatch_cases
