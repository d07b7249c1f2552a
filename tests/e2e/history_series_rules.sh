#!/usr/bin/env bash
# End to end, SQLite: issue 47's rules on imports written value for value
# (history_series_rules_lib.bash): a rename across units or tools is refused and writes nothing;
# check, its formats, list, the site's feed and ack name one change by one id, and acking it
# passes check; list says why a trend is no change. history_series_rules_postgresql.sh runs the
# same against a real PostgreSQL server.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to write and read JSON"
iobench=$bin/iobench
source "$src/tests/e2e/history_series_rules_lib.bash"
new_store() { store=$tmp/$1.sqlite; }
store_state() {  # the store's bytes and its write-ahead log's, if it holds any (a reader's -shm
  # and empty -wal come and go)
  md5sum <"$store"
  [ ! -s "$store-wal" ] || md5sum <"$store-wal"
}

series_rules
echo "history_series_rules: ok"
