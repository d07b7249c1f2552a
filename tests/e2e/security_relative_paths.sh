#!/usr/bin/env bash
# Security/config: relative paths in a config (inputs[].path, generated inputs too) resolve against
# the config file's folder, never the current folder; -o on the command line resolves against the
# current folder. Run from an unrelated folder that has a decoy input of the same name.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
mkdir -p "$tmp/proj/cfg/data" "$tmp/elsewhere/data"
printf 'right\n' >"$tmp/proj/cfg/data/in.txt"
printf 'decoy decoy\n' >"$tmp/elsewhere/data/in.txt"
cat >"$tmp/proj/cfg/rel.json" <<'EOF2'
{"name": "rel", "inputs": [{"path": "data/in.txt"},
                           {"path": "../gen/made.txt", "generate": {"kind": "lines", "size": "4KiB", "seed": 1}}],
 "strategies": [{"name": "cat", "command": ["cat", "{input}"]}],
 "sinks": ["pipe"], "repeats": 1, "warmup": 0, "cache": "none"}
EOF2
cd "$tmp/elsewhere"
"$bin/iobench" run ../proj/cfg/rel.json -o out/runs.tsv --quiet >/dev/null 2>"$tmp/err" \
  || fail "exit $?: $(cat "$tmp/err")"
[ -f "$tmp/elsewhere/out/runs.tsv" ] || fail "-o did not resolve against the current folder"
[ -f "$tmp/proj/gen/made.txt" ] || fail "generated input not made beside the config"
[ ! -e "$tmp/elsewhere/gen" ] && [ ! -e "$tmp/gen" ] || fail "generated input made in the wrong place"
inputs=$(col input out/runs.tsv | sort -u)
grep -q "proj/cfg/data/in.txt" <<<"$inputs" || fail "input column: $inputs"
! grep -q "elsewhere" <<<"$inputs" || fail "the decoy in the current folder was used: $inputs"
bytes=$(run_awk 'col("input") ~ /in.txt$/ { print col("bytes_out") }' out/runs.tsv)
[ "$bytes" = 6 ] || fail "read $bytes bytes, want 6 (the config-relative file, not the decoy)"
# --dry-run shows the resolved path too.
# Into a file: `| grep -q` stops at its first match, and the writer's SIGPIPE fails the pipe (pipefail).
"$bin/iobench" run ../proj/cfg/rel.json --dry-run >dry-run.txt
grep -q "proj/cfg/data/in.txt" dry-run.txt || fail "dry-run path: $(cat dry-run.txt)"
echo "security_relative_paths: inputs resolved to: $(tr '\n' ' ' <<<"$inputs")"
