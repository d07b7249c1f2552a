#!/usr/bin/env bash
# Fault: the results disk fills up mid-run. A small tmpfs (mounted here; needs root, skipped with
# the reason otherwise) holds the results. A strategy fills the disk; the next row cannot be
# written. Expect a clear error naming the file and "No space left", exit 3, and every row written
# before intact: each line of the file complete (every column), the rows before the fill all there.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
mount_small_tmpfs fault_disk_full 256k

printf 'x\n' >"$tmp/in.txt"
# "fill" writes a filler file that takes every free block, then succeeds; its rows (long test
# names make them ~300 bytes) soon cross into a page the disk no longer has.
long=$(printf 'f%.0s' $(seq 200))
cat >"$tmp/full.json" <<EOF2
{"name": "full", "inputs": [{"path": "in.txt"}],
 "strategies": [
   {"name": "before", "command": ["true"], "verify": false},
   {"name": "fill-$long", "command": "head -c 1M /dev/zero > $mnt/filler 2>/dev/null; true",
    "shell": true, "verify": false}],
 "sinks": ["null"], "repeats": 40, "warmup": 0, "cache": "none", "order": "grouped"}
EOF2
set +e
"$bin/iobench" run "$tmp/full.json" -o "$mnt/runs.tsv" --quiet >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "exit $rc (want 3): $(cat "$tmp/err")"
grep -q "runs.tsv" "$tmp/err" && grep -qi "no space left" "$tmp/err" \
  || fail "error does not name the file and the cause: $(cat "$tmp/err")"
# Short: 3 lines at most besides the warnings (a sanitizer build's, a busy machine's).
[ "$(grep -vc '^iobench: warning: ' "$tmp/err")" -le 3 ] || fail "error is not short: $(cat "$tmp/err")"
# Every line complete: ends with a newline and has every column of the schema.
[ "$(tail -c 1 "$mnt/runs.tsv" | od -An -c | tr -d ' ')" = '\n' ] || fail "the file ends with half a row"
bad=$(malformed_lines "$mnt/runs.tsv" | sed -n 1,3p)
[ -z "$bad" ] || fail "malformed rows: $bad"
before=$(run_awk 'col("test") == "before" && col("status") == "ok"' "$mnt/runs.tsv" | wc -l)
[ "$before" -eq 40 ] || fail "$before of the 40 rows written before the fill survived"
fills=$(run_awk 'col("test") ~ /^fill/' "$mnt/runs.tsv" | wc -l)
[ "$fills" -lt 40 ] || fail "the disk never filled up ($fills fill rows)"
# No file sink folder and no stray left behind.
! ls -d "$mnt"/.sinks-* >/dev/null 2>&1 || fail "private sink folder left behind"
echo "fault_disk_full: exit 3, '$(head -1 "$tmp/err")'; 40 + $fills complete rows kept"
