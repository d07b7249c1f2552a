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
[ "$(count runs)" -eq 4 ] || fail "not four runs in the server: $(count runs)"
[ "$(count samples)" -eq 40 ] || fail "not forty rows in the server: $(count samples)"

two_writers
[ "$(count runs)" -eq 24 ] || fail "not every concurrent add landed: $(count runs) runs"
[ "$(count samples)" -eq 240 ] || fail "rows lost in the concurrent adds: $(count samples)"
"$iobench" history list --history="$store" >"$tmp/list.out" || fail "history list exited $?"
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
"$iobench" history add --history="$store" "$tmp/r/fresh.tsv" "$tmp/lone/a2.tsv" 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q 'a2.tsv: no meta file at' "$tmp/bad.err" ||
  fail "a bad file last: exit $rc, $(cat "$tmp/bad.err")"
[ "$(count runs)" -eq 24 ] && [ "$(count samples)" -eq 240 ] ||
  fail "the good file stayed stored after the bad one failed: $(count runs) runs"

set +e
"$iobench" history check --history="postgresql://iobench@127.0.0.1:$port/nosuchdb" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] ||
  fail "a refused database: exit $rc, $(cat "$tmp/bad.err")"
grep -q 'nosuchdb' "$tmp/bad.err" || fail "the refusal does not say why: $(cat "$tmp/bad.err")"
# A password never shows, in the server's refusal either.
set +e
"$iobench" history list --history="postgresql://iobench:pgsecret@127.0.0.1:$port/nosuchdb" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q nosuchdb "$tmp/bad.err" && ! grep -q pgsecret "$tmp/bad.err" ||
  fail "a refusal with a password: exit $rc, $(cat "$tmp/bad.err")"

# A database that is not an iobench store (tables, but not iobench's set) is refused, exit 2,
# and gets no table; an empty one is not made a store by a reading command.
server() { psql "postgresql://iobench@127.0.0.1:$port/$1" -v ON_ERROR_STOP=1 -qtAc "$2"; }
server postgres 'CREATE DATABASE other'
server postgres 'CREATE DATABASE blank'
server other 'CREATE TABLE notes (t TEXT); CREATE TABLE runs (x INTEGER)'
tables_of() { server "$1" "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'public'"; }
for cmd in "add $tmp/r/a1.tsv" "list" "check" "prune --keep 1"; do
  set +e
  # shellcheck disable=SC2086 # the subcommand and its arguments, split on purpose
  "$iobench" history $cmd --history="postgresql://iobench@127.0.0.1:$port/other" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q 'not an iobench history store' "$tmp/bad.err" ||
    fail "history $cmd into another program's database: exit $rc, $(cat "$tmp/bad.err")"
done
[ "$(tables_of other)" = notes,runs ] || fail "another program's database got tables: $(tables_of other)"
for cmd in list check changes "export --format bmf"; do
  set +e
  # shellcheck disable=SC2086
  "$iobench" history $cmd --history="postgresql://iobench@127.0.0.1:$port/blank" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -q 'no history store there' "$tmp/bad.err" ||
    fail "history $cmd of an empty database: exit $rc, $(cat "$tmp/bad.err")"
done
[ -z "$(tables_of blank)" ] || fail "a reading command made a store: $(tables_of blank)"

# Prune vacuums what it removed (outside a transaction, as PostgreSQL requires).
"$iobench" history prune --keep 1 --history="$store" 2>"$tmp/prune.err" || fail "prune exited $?: $(cat "$tmp/prune.err")"
grep -q 'runs removed' "$tmp/prune.err" || fail "prune said: $(cat "$tmp/prune.err")"
[ "$(psql "$store" -tAc "SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'samples'")" = t ] ||
  fail "prune did not vacuum the samples table"
# Imported results on PostgreSQL (docs/history.md, "Other harnesses"): the values exactly (the
# samples' double-precision column through the server's arrays), the BMF bounds too.
"$iobench" history add --history="$store" --commit h1 \
  "$src/tests/fixtures/imports/hyperfine-1.15.0.json" 2>/dev/null || fail "hyperfine import"
"$iobench" history export --history="$store" --format hyperfine --commit h1 -o "$tmp/hf.json"
echo '{"copy": {"latency": {"value": 88.5, "lower_value": 80.25, "upper_value": 90.125}}}' >"$tmp/bmf.json"
"$iobench" history add --history="$store" --commit b1 "$tmp/bmf.json" 2>/dev/null || fail "BMF import"
"$iobench" history export --history="$store" --format bmf --commit b1 -o "$tmp/bmf-back.json"
python3 - "$src/tests/fixtures/imports/hyperfine-1.15.0.json" "$tmp/hf.json" "$tmp/bmf.json" \
  "$tmp/bmf-back.json" <<'PY' || fail "imported values differ on PostgreSQL"
import json, sys
given = {r["command"]: r["times"] for r in json.load(open(sys.argv[1]))["results"]}
back = {r["command"]: r["times"] for r in json.load(open(sys.argv[2]))["results"]}
assert all(back[c] == t for c, t in given.items()), (given, back)
assert json.load(open(sys.argv[4]))["copy"] == json.load(open(sys.argv[3]))["copy"]
PY
# Issue 47: a libpq keyword=value string names the same server; it was taken for a file's name.
conninfo="host=127.0.0.1 port=$port user=iobench dbname=postgres"
(cd "$tmp" && "$iobench" history list --history="$conninfo" >conninfo.out 2>conninfo.err) ||
  fail "a conninfo string: exit $?: $(cat "$tmp/conninfo.err")"
[ "$(grep -c 'in.txt, pipe)' "$tmp/conninfo.out")" -eq 2 ] || fail "conninfo: $(cat "$tmp/conninfo.out")"
[ ! -e "$tmp/$conninfo" ] || fail "a file named after the connection string"
echo "history_postgresql: ok"
