#!/usr/bin/env bash
# A `cold` run whose input cannot be evicted (it is on tmpfs) is warned about once per group, by
# the summary that ends the run, and kept per test in the meta file (docs/driver.md, "The page
# cache"): the run loop does not warn about the same rows again in other words.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

[ -d /dev/shm ] && [ -w /dev/shm ] || skip_here "no writable /dev/shm (tmpfs) here"
shm=$(mktemp -d /dev/shm/iobench-e2e-XXXXXX)
on_exit 'rm -rf "$shm"'
seq 1 1000 >"$shm/in.txt"
cat >"$tmp/cold.json" <<JSON
{
  "name": "cold", "inputs": ["$shm/in.txt"], "cache": "cold", "repeats": 2, "warmup": 0,
  "sinks": ["pipe", "null"],
  "strategies": [
    {"name": "cat", "command": ["cat", "{input}"]},
    {"name": "worker", "worker": ["--read", "read", "--write", "buffered"]}
  ]
}
JSON
status=0
"$bin/iobench" run "$tmp/cold.json" -o "$tmp/res/runs.tsv" --quiet >/dev/null 2>"$tmp/err.txt" ||
  status=$?
[ "$status" -eq 0 ] || { cat "$tmp/err.txt" >&2; fail "the run exited $status"; }
warned=$(grep -c 'cache cold, but 2 of 2 runs started with more of the input' "$tmp/err.txt" || true)
[ "$warned" -eq 4 ] || { cat "$tmp/err.txt" >&2; fail "$warned cache warnings, not one per group (4)"; }
[ "$(grep -c 'cache' "$tmp/err.txt")" -eq 4 ] || { cat "$tmp/err.txt" >&2; fail "another cache warning"; }
kept=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["cache_state_warnings"]))' \
  "$tmp/res/meta/runs.json")
[ "$kept" -eq 2 ] || fail "the meta file keeps $kept cache warnings, not one per test (2)"
grep -q '"cat: cache cold, but 4 of 4 runs started' "$tmp/res/meta/runs.json" ||
  fail "the meta file's warning is not the summary's: $(grep -A3 cache_state_warnings "$tmp/res/meta/runs.json")"
echo "run_cache_warning_once: ok"
