#!/usr/bin/env bash
# `run --versus DIR --build DIR` (docs/driver.md, "Two builds"): a test's hooks (setup, prepare,
# conclude, cleanup) see {build} as its commands do, the base build's folder for NAME@base and the
# candidate's for NAME; without --build a hook that names {build} is refused as a command is (exit
# 2, one line, nothing written). Nothing is timed: each hook writes its {build} into a file.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
cd "$tmp"
mkdir base head
seq 1 100 >in.txt
cat >c.json <<JSON
{"name": "hooks", "inputs": ["in.txt"], "sinks": ["null"], "repeats": 2, "warmup": 0,
 "disturbance": "off",
 "strategies": [{"name": "copy", "command": "cat {input}", "shell": true,
                 "setup": "echo setup {build} >>$tmp/hooks.txt",
                 "prepare": "echo prepare {build} >>$tmp/hooks.txt",
                 "conclude": "echo conclude {build} >>$tmp/hooks.txt",
                 "cleanup": "echo cleanup {build} >>$tmp/hooks.txt"}]}
JSON
"$bin/iobench" run -q c.json -o runs.tsv --build head --versus base >out.txt 2>err.txt ||
  fail "run --versus exited $?: $(cat out.txt err.txt)"
expected=""
for hook in cleanup conclude prepare setup; do
  expected+="$hook $tmp/base"$'\n'"$hook $tmp/head"$'\n'
done
[ "$(sort -u hooks.txt)" = "${expected%$'\n'}" ] ||
  fail "the hooks' {build}: $(sort -u hooks.txt | tr '\n' ';'), want $(tr '\n' ';' <<<"$expected")"
# Each copy's hooks ran as the other's: one setup and cleanup, a prepare and conclude a run (its
# verification run too).
for hook in setup prepare conclude cleanup; do
  [ "$(grep -c "^$hook $tmp/base$" hooks.txt)" -eq "$(grep -c "^$hook $tmp/head$" hooks.txt)" ] ||
    fail "$hook ran not as often for each build: $(cat hooks.txt)"
done
[ "$(grep -c "^setup $tmp/head$" hooks.txt)" -eq 1 ] && [ "$(grep -c "^prepare $tmp/head$" hooks.txt)" -ge 2 ] ||
  fail "the hooks' counts: $(cat hooks.txt)"

# Without --build, {build} names no folder: refused before anything is written.
rm hooks.txt
code=0
"$bin/iobench" run -q c.json -o refused.tsv >out.txt 2>err.txt || code=$?
[ "$code" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] &&
  grep -q "strategies\[0\]: {build} names the build measured: give --build DIR" err.txt ||
  fail "a hook's {build} without --build: exit $code: $(cat err.txt)"
[ ! -e hooks.txt ] && [ ! -e refused.tsv ] && [ ! -e meta/refused.json ] || fail "a refused run wrote: $(ls)"
echo "run_versus_hooks: ok"
