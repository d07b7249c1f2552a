#!/usr/bin/env bash
# End to end, PostgreSQL: history_import_gbench_hosts.sh's cases against a real server this test
# starts (tests/e2e/lib/postgresql.bash), each case in a database of its own. Skipped, saying why,
# where no server can start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write the benchmark files"
iobench=$bin/iobench
source "$src/tests/e2e/lib/postgresql.bash"
source "$src/tests/e2e/history_import_gbench_hosts_lib.bash"
new_store() {
  pg_createdb "gbench_$1"
  store=$(pg_url "gbench_$1")
}

gbench_hosts_cases
echo "history_import_gbench_hosts_postgresql: ok"
