#!/usr/bin/env bash
# End to end, PostgreSQL: history_commit_order.sh's cases (issue 47: --date orders runs added out
# of commit order; the same file under another commit is another run) against a real server this
# test starts (tests/e2e/lib/postgresql.bash), each case in a database of its own. Skipped, saying
# why, where no server can start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write and read JSON"
iobench=$bin/iobench
source "$src/tests/e2e/lib/postgresql.bash"
source "$src/tests/e2e/history_commit_order_lib.bash"
new_store() {
  pg_createdb "order_$1"
  store=$(pg_url "order_$1")
}
# An empty database is no store: one with a table is.
store_made() {
  [ "$(psql "$store" -tAc "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'")" -ne 0 ]
}
count_runs() { psql "$store" -tAc 'SELECT COUNT(*) FROM runs'; }

commits_added_out_of_order
new_store bad
bad_dates_write_nothing store_made
same_file_under_three_commits count_runs
echo "history_commit_order_postgresql: ok"
