#!/usr/bin/env bash
# End to end, PostgreSQL: history_gate.sh's cases (every fail-safe exit of `history check`, rename,
# the formats) against a real server this test starts (tests/e2e/lib/postgresql.bash), each case
# in a database of its own. Skipped, saying why, where no server can start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to edit meta files and read JSON"
iobench=$bin/iobench
source "$src/tests/e2e/lib/postgresql.bash"
source "$src/tests/e2e/history_lib.bash"
source "$src/tests/e2e/history_gate_lib.bash"
new_store() {
  pg_createdb "gate_$1"  # a prefix: some case names (both) are SQL keywords
  store=$(pg_url "gate_$1")
}

gate_measure
gate_cases
echo "history_gate_postgresql: ok"
