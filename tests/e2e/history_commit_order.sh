#!/usr/bin/env bash
# End to end, SQLite (issue 47; docs/history.md, "Adding runs"): runs added out of commit order
# with `history add --date` are judged in commit order, the change pinned to c2..c3; a bad --date
# is one line, exit 2, no store; the same result file under three commits is three runs, under the
# same commit and branch one. tests/e2e/history_commit_order_postgresql.sh runs the same cases
# against a real PostgreSQL server.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write and read JSON"
command -v sqlite3 >/dev/null || skip "sqlite3 is needed to count runs (scripts/bootstrap installs it)"
iobench=$bin/iobench
source "$src/tests/e2e/history_commit_order_lib.bash"
new_store() { store=$tmp/$1.sqlite; }
store_made() { [ -e "$store" ]; }
count_runs() { sqlite3 "$store" 'SELECT COUNT(*) FROM runs'; }

commits_added_out_of_order
new_store bad
bad_dates_write_nothing store_made
same_file_under_three_commits count_runs
echo "history_commit_order: ok"
