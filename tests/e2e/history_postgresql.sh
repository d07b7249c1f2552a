#!/usr/bin/env bash
# End to end, PostgreSQL (docs/history.md): the SQLite test's two commits against a real server
# this test starts itself (tests/e2e/lib/postgresql.bash), two concurrent writers, and a database
# that refuses. Skipped, saying why, where no server can start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to edit meta files"
iobench=$bin/iobench
source "$src/tests/e2e/lib/postgresql.bash"
port=$pg_port
store="postgresql://iobench@127.0.0.1:$port/postgres"
count() { psql "$store" -tAc "SELECT COUNT(*) FROM $1"; }
source "$src/tests/e2e/history_lib.bash"

two_commits
[ "$(count runs)" -eq 3 ] || fail "not three runs in the server: $(count runs)"
[ "$(count samples)" -eq 30 ] || fail "not thirty rows in the server: $(count samples)"

two_writers
[ "$(count runs)" -eq 23 ] || fail "not every concurrent add landed: $(count runs) runs"
[ "$(count samples)" -eq 230 ] || fail "rows lost in the concurrent adds: $(count samples)"
"$iobench" history list --history "$store" >"$tmp/list.out" || fail "history list exited $?"
[ "$(grep -c 'in.txt, pipe)' "$tmp/list.out")" -eq 2 ] || fail "list: $(cat "$tmp/list.out")"

# A database that is not there: the server refuses, one line, exit 2.
# A bad file last among good ones: the good one, stored first in the add's one transaction, goes
# back with it (docs/history.md, "Adding runs").
cp "$tmp/r/a1.tsv" "$tmp/r/fresh.tsv"
printf '\n%.0s' $(seq 30) >>"$tmp/r/fresh.tsv"  # not any copy's bytes: a run not yet stored
cp "$tmp/r/meta/a1.json" "$tmp/r/meta/fresh.json"
mkdir "$tmp/lone"
cp "$tmp/r/a2.tsv" "$tmp/lone/a2.tsv"
set +e
"$iobench" history add --history "$store" "$tmp/r/fresh.tsv" "$tmp/lone/a2.tsv" 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q 'a2.tsv: no meta file at' "$tmp/bad.err" ||
  fail "a bad file last: exit $rc, $(cat "$tmp/bad.err")"
[ "$(count runs)" -eq 23 ] && [ "$(count samples)" -eq 230 ] ||
  fail "the good file stayed stored after the bad one failed: $(count runs) runs"

set +e
"$iobench" history check --history "postgresql://iobench@127.0.0.1:$port/nosuchdb" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] ||
  fail "a refused database: exit $rc, $(cat "$tmp/bad.err")"
grep -q 'nosuchdb' "$tmp/bad.err" || fail "the refusal does not say why: $(cat "$tmp/bad.err")"
echo "history_postgresql: ok"
