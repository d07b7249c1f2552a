#!/usr/bin/env bash
# Two runs that start together on one file system (two tasks of a job array) and need the same
# generated input: one generates it, the other waits for it; both measure the whole file. Each
# run is the other's disturbance (docs/driver.md, "Disturbance"), so that rule is off here.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

cat >"$tmp/c.json" <<'JSON'
{"name": "gen2", "inputs": [{"path": "data/in.txt", "generate": {"kind": "lines", "size": "48MiB", "seed": 7}}],
 "strategies": [{"name": "count", "worker": ["--read", "read", "--write", "buffered", "--op", "count"]}],
 "repeats": 1, "warmup": 0, "disturbance": "off"}
JSON
"$bin/iobench" run "$tmp/c.json" -o "$tmp/a.tsv" >/dev/null 2>"$tmp/a.err" &
a=$!
"$bin/iobench" run "$tmp/c.json" -o "$tmp/b.tsv" >/dev/null 2>"$tmp/b.err" &
b=$!
wait "$a" || { rc=$?; cat "$tmp/a.err" >&2; fail "first run exited $rc"; }
wait "$b" || { rc=$?; cat "$tmp/b.err" >&2; fail "second run exited $rc"; }
made=$(cat "$tmp/a.err" "$tmp/b.err" | grep -c '^iobench: generating') || true
[ "$made" -eq 1 ] || fail "the input was generated $made times: $(cat "$tmp/a.err" "$tmp/b.err")"
[ "$(stat -c %s "$tmp/data/in.txt")" -eq $((48 * 1024 * 1024)) ] || fail "input is not whole"
# Both counted the same lines of the same file.
count() { col status,bytes_out "$1" | sed -n 1p; }
[ "$(count "$tmp/a.tsv")" = "$(count "$tmp/b.tsv")" ] || fail "runs disagree: $(count "$tmp/a.tsv") / $(count "$tmp/b.tsv")"
[ -z "$(ls -A "$tmp/data" | grep -v '^in.txt$')" ] || fail "left behind in data/: $(ls -A "$tmp/data")"
echo "run_generate_concurrent: generated once, both runs ok"
