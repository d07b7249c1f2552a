#!/usr/bin/env bash
# End to end: `--history` on run, bench and merge adds what they just wrote (docs/history.md,
# "Adding runs"): alone it takes $IOBENCH_HISTORY, the config key `history` resolves against the
# config's folder, and a store that cannot be opened stops the command before it writes anything.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v sqlite3 >/dev/null || skip "sqlite3 is needed to count the runs stored (scripts/bootstrap installs it)"
command -v python3 >/dev/null || skip "python3 is needed to write a config with a history key"
iobench=$bin/iobench
runs_in() { sqlite3 "$1" 'SELECT COUNT(*) FROM runs'; }

mkdir "$tmp/cfg"
printf 'alpha\nbeta\ngamma\n' >"$tmp/cfg/in.txt"
cat >"$tmp/cfg/tiny.json" <<'JSON'
{"name": "tiny", "inputs": ["in.txt"],
 "strategies": [{"name": "read-raw", "worker": ["--read", "read", "--write", "raw"]},
                {"name": "cat", "command": ["cat", "{input}"]}],
 "sinks": ["pipe"], "repeats": 2, "warmup": 0, "cache": "none",
 "disturbance": "off"}
JSON

"$iobench" run "$tmp/cfg/tiny.json" -o "$tmp/r/one.tsv" -q --history="$tmp/h.sqlite" >/dev/null 2>"$tmp/err" ||
  fail "run --history exited $?: $(cat "$tmp/err")"
grep -q "iobench history: added $tmp/r/one.tsv to $tmp/h.sqlite: 4 rows, 2 new series" "$tmp/err" ||
  fail "run --history said: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/h.sqlite")" -eq 1 ] || fail "run --history stored no run"

IOBENCH_HISTORY=$tmp/env.sqlite "$iobench" run "$tmp/cfg/tiny.json" -o "$tmp/r/two.tsv" -q --history >/dev/null 2>"$tmp/err" ||
  fail "run --history (alone) exited $?: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/env.sqlite")" -eq 1 ] || fail "--history alone did not take \$IOBENCH_HISTORY"

python3 - "$tmp/cfg/tiny.json" "$tmp/cfg/keyed.json" <<'PY' || fail "could not write the keyed config"
import json, sys
config = json.load(open(sys.argv[1]))
config["name"], config["history"] = "keyed", "stores/keyed.sqlite"
json.dump(config, open(sys.argv[2], "w"))
PY
"$iobench" run "$tmp/cfg/keyed.json" -o "$tmp/r/keyed.tsv" -q >/dev/null 2>"$tmp/err" ||
  fail "run of a config with a history key exited $?: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/cfg/stores/keyed.sqlite")" -eq 1 ] || fail "the config key did not resolve against its folder"

"$iobench" bench --input "$tmp/cfg/in.txt" -r 2 -w 0 -o "$tmp/r/bench.tsv" -q --history="$tmp/h.sqlite" \
  'cat {input}' 'tac {input} | tac' >/dev/null 2>"$tmp/err" || fail "bench --history exited $?: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/h.sqlite")" -eq 2 ] || fail "bench --history stored no run"

for k in 1 2; do
  "$iobench" run "$tmp/cfg/tiny.json" --shard "$k/2" -o "$tmp/r/shard$k.tsv" -q >/dev/null 2>"$tmp/err" ||
    fail "shard $k exited $?: $(cat "$tmp/err")"
done
"$iobench" merge "$tmp/r/shard1.tsv" "$tmp/r/shard2.tsv" -o "$tmp/r/merged.tsv" --history="$tmp/h.sqlite" >/dev/null 2>"$tmp/err" ||
  fail "merge --history exited $?: $(cat "$tmp/err")"
grep -q "added $tmp/r/merged.tsv" "$tmp/err" || fail "merge --history said: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/h.sqlite")" -eq 3 ] || fail "merge --history stored no run"

# A bare --history never takes the next word (getopt's rule for an optional argument): before the
# config, the command or the run files, each stays the positional and the store is the default.
IOBENCH_HISTORY=$tmp/bare.sqlite "$iobench" run --history "$tmp/cfg/tiny.json" -o "$tmp/r/bare-run.tsv" -q \
  >/dev/null 2>"$tmp/err" || fail "run --history CONFIG exited $?: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/bare.sqlite")" -eq 1 ] || fail "run --history CONFIG did not run CONFIG into \$IOBENCH_HISTORY"
IOBENCH_HISTORY=$tmp/bare.sqlite "$iobench" bench --history 'cat {input}' 'tac {input} | tac' --input "$tmp/cfg/in.txt" \
  -r 2 -w 0 -o "$tmp/r/bare-bench.tsv" -q >/dev/null 2>"$tmp/err" ||
  fail "bench --history COMMAND exited $?: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/bare.sqlite")" -eq 2 ] || fail "bench --history COMMAND did not bench COMMAND into \$IOBENCH_HISTORY"
IOBENCH_HISTORY=$tmp/bare-merge.sqlite "$iobench" merge --history "$tmp/r/shard1.tsv" "$tmp/r/shard2.tsv" \
  -o "$tmp/r/bare-merged.tsv" >/dev/null 2>"$tmp/err" || fail "merge --history RUNS exited $?: $(cat "$tmp/err")"
[ "$(runs_in "$tmp/bare-merge.sqlite")" -eq 1 ] || fail "merge --history RUNS did not merge RUNS into \$IOBENCH_HISTORY"

# A store that cannot be opened: exit 2 before the run file is made.
printf 'not a database, just text that is long enough to be read as a header\n' >"$tmp/text.sqlite"
set +e
"$iobench" run "$tmp/cfg/tiny.json" -o "$tmp/r/never.tsv" -q --history="$tmp/text.sqlite" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "run with a store that is no store exited $rc, not 2: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "not one line: $(cat "$tmp/err")"
[ ! -e "$tmp/r/never.tsv" ] && [ ! -e "$tmp/r/meta/never.json" ] || fail "run wrote before refusing the store"
echo "history_cli: ok"
