#!/usr/bin/env bash
# End to end, SQLite (docs/history.md): real runs of two commits where the second is 20 % slower
# on one cell; `history check` exits 1 naming that cell and only it, an A/A pair exits 0, an
# acknowledged change no longer fails; the reports read the store; two writers at once both land;
# a busy machine is "conditions changed"; bad input is one line and exit 2, nothing written.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "python3 is needed to edit meta files and read JSON"
command -v sqlite3 >/dev/null || skip "sqlite3 is needed to count rows and age a store (scripts/bootstrap installs it)"
iobench=$bin/iobench
store=$tmp/h.sqlite

# Two strategies that copy their input after a sleep: the sleep is the work, steady on a loaded
# machine (a wake-up is late by a millisecond, not by 20 %). tunable.sh is the "code" a commit
# changes; its argv does not change, so both commits' rows are of one series.
mkdir "$tmp/work" "$tmp/r"
write_work() { printf 'sleep %s\nexec cat "$1"\n' "$2" >"$tmp/work/$1.sh"; }
write_work steady 0.10
cat >"$tmp/hist.json" <<JSON
{"name": "hist",
 "inputs": [{"path": "in.txt", "generate": {"kind": "lines", "size": "16KiB", "seed": 1}}],
 "strategies": [
   {"name": "steady", "command": ["sh", "$tmp/work/steady.sh", "{input}"]},
   {"name": "tunable", "command": ["sh", "$tmp/work/tunable.sh", "{input}"]}],
 "sinks": ["pipe"], "repeats": 5, "warmup": 0, "cache": "warm"}
JSON

# The busy-CPU figure of each run is set (to BUSY, default 0): this machine is shared, and what
# its neighbours do is not what this test is about; conditions are tested on their own below.
set_busy() {
  python3 - "$1" "$2" <<'PY'
import json, sys
path, busy = sys.argv[1], float(sys.argv[2])
meta = json.load(open(path))
meta["provenance"]["busy_cpus_start"] = busy
json.dump(meta, open(path, "w"), indent=2)
PY
}
measure() {  # NAME TUNABLE_SLEEP [BUSY]
  write_work tunable "$2"
  "$iobench" run "$tmp/hist.json" -o "$tmp/r/$1.tsv" -q >/dev/null 2>"$tmp/run.err" ||
    { rc=$?; cat "$tmp/run.err" >&2; fail "iobench run for $1 exited $rc"; }
  set_busy "$tmp/r/meta/$1.json" "${3:-0}"
}
add() {  # COMMIT FILE...
  local commit=$1
  shift
  "$iobench" history add --history "$store" --commit "$commit" --branch main "$@" 2>"$tmp/add.err" ||
    { rc=$?; cat "$tmp/add.err" >&2; fail "history add $* exited $rc"; }
}
check() {  # expected exit code, then check's options
  local want=$1
  shift
  set +e
  "$iobench" history check --history "$store" "$@" >"$tmp/check.out" 2>"$tmp/check.err"
  rc=$?
  set -e
  [ "$rc" -eq "$want" ] ||
    fail "history check $* exited $rc, not $want: $(cat "$tmp/check.out" "$tmp/check.err")"
}

measure a1 0.10
measure a2 0.10
add aaaa1111 "$tmp/r/a1.tsv" "$tmp/r/a2.tsv"
grep -q 'added .*a1.tsv.*: 10 rows, 2 new series' "$tmp/add.err" || fail "add said: $(cat "$tmp/add.err")"
add aaaa1111 "$tmp/r/a1.tsv"
grep -q 'a1.tsv is already in' "$tmp/add.err" || fail "a second add of a1 said: $(cat "$tmp/add.err")"
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')" -eq 2 ] || fail "a run added twice was stored twice"

# A/A: the same code measured twice.
check 0
! grep -q '^regression' "$tmp/check.out" || fail "A/A gave a regression: $(cat "$tmp/check.out")"
grep -q '2 series: 2 steady' "$tmp/check.err" || fail "A/A summary: $(cat "$tmp/check.err")"

# The second commit: tunable 20 % slower.
measure b1 0.12
add bbbb2222 "$tmp/r/b1.tsv"
check 1
[ "$(grep -c '^regression' "$tmp/check.out")" -eq 1 ] || fail "not one regression: $(cat "$tmp/check.out")"
line=$(grep '^regression' "$tmp/check.out")
[[ $line == 'regression '*' tunable ('*'in.txt, pipe): elapsed'* ]] || fail "the regression line: $line"
[[ $line == *'times slower'*'why: '* ]] || fail "no ratio or why: $line"
! grep -q 'steady (' "$tmp/check.out" || fail "steady was named: $(cat "$tmp/check.out")"
change=$(awk '/^regression/ {print $2}' "$tmp/check.out")
# Against the branch's commit aaaa: the same verdict.
check 1 --base aaaa1111
check 0 --min-effect 'tun.*=40'

# Acknowledged: check passes, and says so.
"$iobench" history ack "$change" --why "tunable sleeps longer now, on purpose" --by e2e --history "$store" 2>"$tmp/ack.err" ||
  fail "history ack exited $?: $(cat "$tmp/ack.err")"
check 0
grep -q "^acknowledged $change tunable .*acknowledged by e2e at .*: tunable sleeps longer now, on purpose" "$tmp/check.out" ||
  fail "the acknowledgement is not shown: $(cat "$tmp/check.out")"

# The reports.
"$iobench" history list --history "$store" >"$tmp/list.out" || fail "history list exited $?"
[ "$(grep -c 'in.txt, pipe)' "$tmp/list.out")" -eq 2 ] || fail "list: $(cat "$tmp/list.out")"
"$iobench" history show tunable --history "$store" >"$tmp/show.out" || fail "history show exited $?"
[ "$(grep -c '^20[0-9-]*T.*  5/5 ' "$tmp/show.out")" -eq 3 ] || fail "show: $(cat "$tmp/show.out")"
"$iobench" history changes --history "$store" >/dev/null 2>"$tmp/changes.err" || fail "history changes exited $?"
"$iobench" history plot tunable -o "$tmp/trend.svg" --history "$store" 2>/dev/null || fail "history plot exited $?"
[ "$(grep -o '<circle' "$tmp/trend.svg" | wc -l)" -eq 15 ] || fail "the plot has not 15 points (3 runs x 5)"
"$iobench" history export --format bmf --history "$store" >"$tmp/bmf.json" || fail "history export exited $?"
python3 - "$tmp/bmf.json" <<'PY' || fail "the BMF export: $(cat "$tmp/bmf.json")"
import json, sys
bmf = json.load(open(sys.argv[1]))
names = sorted(bmf)
assert len(names) == 2 and names[0].startswith("steady (") and names[1].startswith("tunable ("), bmf
slow = bmf[names[1]]["latency"]
assert 0.11e9 < slow["value"] < 0.2e9 and slow["lower_value"] <= slow["value"] <= slow["upper_value"], slow
PY

# Two writers at once, each adding ten run files one process after another: every one lands.
for i in $(seq 1 20); do
  cp "$tmp/r/a1.tsv" "$tmp/r/copy$i.tsv"
  printf '\n%.0s' $(seq "$i") >>"$tmp/r/copy$i.tsv"  # blank lines: other bytes, the same rows
  cp "$tmp/r/meta/a1.json" "$tmp/r/meta/copy$i.json"
done
writer() {
  for i in $(seq "$1" 2 20); do
    "$iobench" history add --history "$store" "$tmp/r/copy$i.tsv" 2>>"$tmp/writer$1.err" || return 1
  done
}
writer 1 &
first=$!
writer 2 &
second=$!
wait "$first" || fail "the first writer failed: $(cat "$tmp/writer1.err")"
wait "$second" || fail "the second writer failed: $(cat "$tmp/writer2.err")"
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')" -eq 23 ] || fail "not every concurrent add landed"
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM samples')" -eq 230 ] || fail "rows lost in the concurrent adds"
[ "$(sqlite3 "$store" 'PRAGMA journal_mode')" = wal ] || fail "the store is not in WAL mode"

# Like with like: the slow commit on a busy machine is "conditions changed", not a regression.
store=$tmp/busy.sqlite
add aaaa1111 "$tmp/r/a1.tsv" "$tmp/r/a2.tsv"
measure c1 0.12 1.5
add cccc3333 "$tmp/r/c1.tsv"
check 0
grep -q '^conditions changed .* tunable (.*in.txt, pipe): a busy machine (1.50 CPUs' "$tmp/check.out" ||
  fail "conditions not said: $(cat "$tmp/check.out")"

# Bad input: one line each, exit 2, nothing written.
one_line_exit_2() {  # WHAT COMMAND...
  local what=$1
  shift
  set +e
  "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$what: exited $rc, not 2: $(cat "$tmp/bad.err")"
  [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ] ||
    fail "$what: not one line: $(cat "$tmp/bad.out" "$tmp/bad.err")"
}
one_line_exit_2 "an unknown scheme" "$iobench" history check --history 'mysql://db/bench'
grep -q "unknown store scheme 'mysql'" "$tmp/bad.err" || fail "scheme: $(cat "$tmp/bad.err")"
one_line_exit_2 "a URL libpq refuses" "$iobench" history check --history 'postgresql://u:secret@db/x?nosuch=1'
grep -q 'not a PostgreSQL URL' "$tmp/bad.err" && ! grep -q secret "$tmp/bad.err" || fail "URL: $(cat "$tmp/bad.err")"
one_line_exit_2 "a server that refuses" "$iobench" history check --history 'postgresql://nobody@127.0.0.1:1/none?connect_timeout=5'
grep -q 'cannot open the history store' "$tmp/bad.err" || fail "refused: $(cat "$tmp/bad.err")"
mkdir "$tmp/lone"
cp "$tmp/r/b1.tsv" "$tmp/lone/b1.tsv"
runs_before=$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')
one_line_exit_2 "a run file without its meta" "$iobench" history add --history "$store" "$tmp/r/b1.tsv" "$tmp/lone/b1.tsv"
grep -q 'b1.tsv: no meta file at' "$tmp/bad.err" || fail "no meta: $(cat "$tmp/bad.err")"
[ "$(sqlite3 "$store" 'SELECT COUNT(*) FROM runs')" -eq "$runs_before" ] || fail "the good file was added before the bad one was refused"
sqlite3 "$store" 'UPDATE schema_version SET version = 99'
one_line_exit_2 "a store from a newer schema" "$iobench" history check --history "$store"
grep -q 'schema is version 99, newer than' "$tmp/bad.err" || fail "newer: $(cat "$tmp/bad.err")"
one_line_exit_2 "a missing store" "$iobench" history list --history "$tmp/none.sqlite"
[ ! -e "$tmp/none.sqlite" ] || fail "reading a missing store made one"
echo "history_sqlite: ok"
