#!/usr/bin/env bash
# End to end, PostgreSQL: history_series_rules.sh's cases (issue 47) against a real server this
# test starts (tests/e2e/lib/postgresql.bash), each case in a database of its own. Skipped, saying
# why, where no server can start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write and read JSON"
iobench=$bin/iobench
source "$src/tests/e2e/lib/postgresql.bash"
source "$src/tests/e2e/history_series_rules_lib.bash"
new_store() {
  pg_createdb "rules_$1"
  store=$(pg_url "rules_$1")
}
store_state() {  # every table's rows, and which tables there are (a rename makes its own)
  local table
  for table in $(psql "$store" -tAc "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"); do
    echo "$table"
    psql "$store" -tAc "SELECT md5(COALESCE(string_agg(t::text, ',' ORDER BY t::text), '')) FROM $table t"
  done
}

series_rules
echo "history_series_rules_postgresql: ok"
