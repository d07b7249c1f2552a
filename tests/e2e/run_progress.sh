#!/usr/bin/env bash
# The progress line appears on a terminal (run i of N, test, elapsed, ETA), not in a pipe, and
# not with --quiet.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
# script(1) makes the terminal; a chroot without /dev/pts cannot have one.
script -qec true /dev/null >/dev/null 2>&1 || skip_here "script(1) cannot make a terminal here"
echo x >"$tmp/in.txt"
cat >"$tmp/p.json" <<'JSON'
{"name": "p", "inputs": ["in.txt"], "strategies": [{"name": "napper", "command": ["sleep", "0.05"], "verify": false}],
 "repeats": 3, "warmup": 0, "sinks": ["null"]}
JSON
script -qec "'$bin/iobench' run '$tmp/p.json' -o '$tmp/tty.tsv'" /dev/null >"$tmp/tty.txt"
grep -q '\[3/3\] napper' "$tmp/tty.txt" || fail "no progress line on a terminal: $(cat -v "$tmp/tty.txt" | head -5)"
grep -q 'ETA' "$tmp/tty.txt" || fail "no ETA"
script -qec "'$bin/iobench' run '$tmp/p.json' -o '$tmp/quiet.tsv' --quiet" /dev/null >"$tmp/quiet.txt"
grep -q 'ETA' "$tmp/quiet.txt" && fail "--quiet still shows progress"
"$bin/iobench" run "$tmp/p.json" -o "$tmp/pipe.tsv" 2>"$tmp/pipe.txt" >/dev/null
grep -q 'ETA' "$tmp/pipe.txt" && fail "progress shown when stderr is not a terminal"
echo "run_progress: ok"
