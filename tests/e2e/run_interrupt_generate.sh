#!/usr/bin/env bash
# Ctrl-C while `run` generates its input: exit 130, and nothing of the run left in its folder (the
# medians/ and meta/ folders were made before the inputs were prepared and stayed behind, empty).
# No timing: it is interrupted as soon as the generator's temporary file has its first MiB.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

mkdir "$tmp/work"
cat >"$tmp/work/c.json" <<'JSON'
{"name": "genint", "inputs": [{"path": "big.tsv", "generate": {"kind": "ngram", "size": "2GiB", "seed": 1}}],
 "strategies": [{"name": "cat", "command": ["cat", "{input}"]}], "sinks": ["null"], "repeats": 1,
 "warmup": 0, "cache": "none"}
JSON
cd "$tmp/work"
driver=""
on_exit '[ -z "$driver" ] || kill "$driver" 2>/dev/null'
"$bin/iobench" run c.json -q -o runs.tsv >/dev/null 2>"$tmp/err.txt" &
driver=$!
generating() { [ -n "$(find . -maxdepth 1 -name '.big.tsv.tmp*' -size +1M)" ]; }
wait_until 60 "the input's generation" generating
kill -INT "$driver"
code=0
wait "$driver" || code=$?
driver=""
[ "$code" -eq 130 ] || fail "exit $code after SIGINT during generation, not 130: $(cat "$tmp/err.txt")"
left=$(ls -A)
[ "$left" = c.json ] || fail "an interrupted generation left: $(tr '\n' ' ' <<<"$left")"
echo "run_interrupt_generate: ok"
