#!/usr/bin/env bash
# End to end, SQLite (docs/history.md): real runs of two commits where the second is 50 % slower
# on one cell; `history check` exits 1 naming that cell and only it, an A/A pair exits 0, an
# acknowledged change no longer fails; the reports read the store; two writers at once both land;
# a busy machine is "conditions changed"; bad input is one line and exit 2, nothing written.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to edit meta files and read JSON"
command -v sqlite3 >/dev/null || skip "sqlite3 is needed to count rows and age a store (scripts/bootstrap installs it)"
iobench=$bin/iobench
store=$tmp/h.sqlite
source "$src/tests/e2e/history_lib.bash"

two_commits
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')" -eq 4 ] || fail "a run added twice was stored twice"

# The reports.
"$iobench" history list --history="$store" >"$tmp/list.out" || fail "history list exited $?"
[ "$(grep -c 'in.txt, pipe)' "$tmp/list.out")" -eq 2 ] || fail "list: $(cat "$tmp/list.out")"
"$iobench" history show tunable --history="$store" >"$tmp/show.out" || fail "history show exited $?"
[ "$(grep -c '^20[0-9-]*T.*  5/5 ' "$tmp/show.out")" -eq 4 ] || fail "show: $(cat "$tmp/show.out")"
"$iobench" history changes --history="$store" >/dev/null 2>"$tmp/changes.err" ||
  fail "history changes exited $?"
"$iobench" history plot tunable -o "$tmp/trend.svg" --history="$store" 2>/dev/null ||
  fail "history plot exited $?"
[ "$(grep -o '<circle' "$tmp/trend.svg" | wc -l)" -eq 20 ] || fail "the plot has not 20 points (4 runs x 5)"
"$iobench" history export --format bmf --history="$store" >"$tmp/bmf.json" ||
  fail "history export exited $?"
python3 - "$tmp/bmf.json" <<'PY' || fail "the BMF export: $(cat "$tmp/bmf.json")"
import json, sys
bmf = json.load(open(sys.argv[1]))
names = sorted(bmf)
assert len(names) == 2 and names[0].startswith("steady (") and names[1].startswith("tunable ("), bmf
slow = bmf[names[1]]["latency"]
assert 0.11e9 < slow["value"] < 0.2e9 and slow["lower_value"] <= slow["value"] <= slow["upper_value"], slow
PY

# Two writers at once: every one of their adds lands, in WAL mode.
two_writers
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')" -eq 24 ] || fail "not every concurrent add landed"
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM samples')" -eq 240 ] || fail "rows lost in the concurrent adds"
[ "$(sqlite3 "$store" 'PRAGMA journal_mode')" = wal ] || fail "the store is not in WAL mode"

# Like with like: the slow commit on a busy machine is "conditions changed", not a regression.
store=$tmp/busy.sqlite
add aaaa1111 "$tmp/r/a1.tsv" "$tmp/r/a2.tsv"
measure c1 0.15 1.5
add cccc3333 "$tmp/r/c1.tsv"
check 4  # not judged (docs/history.md, "Exit statuses"), unless accepted
check 0 --session-spread 3 --allow-conditions-changed
grep -q '^conditions changed .* tunable (.*in.txt, pipe): a busy machine (1.50 CPUs' "$tmp/check.out" ||
  fail "conditions not said: $(cat "$tmp/check.out")"

# Bad input: one line each, exit 2, nothing written.
one_line_exit_2 "an unknown scheme" "$iobench" history check --history='mysql://db/bench'
grep -q "unknown store scheme 'mysql'" "$tmp/bad.err" || fail "scheme: $(cat "$tmp/bad.err")"
one_line_exit_2 "a URL libpq refuses" "$iobench" history check --history='postgresql://u:secret@db/x?nosuch=1'
grep -q 'not a PostgreSQL URL' "$tmp/bad.err" && ! grep -q secret "$tmp/bad.err" ||
  fail "URL: $(cat "$tmp/bad.err")"
# Port 1 of the loopback: nothing listens there, so the connection is refused at once.
one_line_exit_2 "a server that refuses" "$iobench" history check \
  --history='postgresql://nobody@127.0.0.1:1/none?connect_timeout=5'
grep -q 'cannot open the history store' "$tmp/bad.err" || fail "refused: $(cat "$tmp/bad.err")"
mkdir "$tmp/lone"
cp "$tmp/r/b1.tsv" "$tmp/lone/b1.tsv"
runs_before=$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')
one_line_exit_2 "a run file without its meta" "$iobench" history add --history="$store" "$tmp/r/b1.tsv" "$tmp/lone/b1.tsv"
grep -q 'b1.tsv: no meta file at' "$tmp/bad.err" || fail "no meta: $(cat "$tmp/bad.err")"
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')" -eq "$runs_before" ] ||
  fail "the good file was added before the bad one was refused"
one_line_exit_2 "run --history with a bad name" "$iobench" run "$tmp/hist.json" -o "$tmp/r/never.tsv" -q --history=mysql://x/y
[ ! -e "$tmp/r/never.tsv" ] || fail "run wrote its run file before refusing the store"
sqlite3 "$store" 'UPDATE schema_version SET version = 99'
one_line_exit_2 "a store from a newer schema" "$iobench" history check --history="$store"
grep -q 'schema is version 99, newer than' "$tmp/bad.err" || fail "newer: $(cat "$tmp/bad.err")"
one_line_exit_2 "a missing store" "$iobench" history list --history="$tmp/none.sqlite"
[ ! -e "$tmp/none.sqlite" ] || fail "reading a missing store made one"
echo "history_sqlite: ok"
