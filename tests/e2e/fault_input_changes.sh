#!/usr/bin/env bash
# Fault: an input file changes size, disappears, or becomes unreadable between runs. The driver
# checks before each run and says so in a warning that names the file; runs on a missing input are
# rows with status error (never silently skipped), exit 1; nothing hangs or crashes.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
# The rows are counted: "disturbance": "off", or a run that tests beside it disturb is re-run as
# one row more (docs/driver.md, "Disturbance").
on_exit 'chmod -R u+rwx "$tmp" 2>/dev/null'

run() {  # NAME MUTATING_SHELL_COMMAND
  local name=$1 cmd=$2
  printf 'a\nb\nc\n' >"$tmp/in-$name.txt"
  cat >"$tmp/$name.json" <<EOF2
{"name": "$name", "inputs": [{"path": "in-$name.txt"}],
 "strategies": [{"name": "mutate", "command": "$cmd", "shell": true, "verify": false}],
 "sinks": ["null"], "repeats": 3, "warmup": 0, "cache": "warm", "disturbance": "off"}
EOF2
  set +e
  timeout -k 5 60 "$bin/iobench" run "$tmp/$name.json" -o "$tmp/$name.tsv" --quiet >/dev/null 2>"$tmp/$name.err"
  rc=$?
  set -e
}

# Grows after the first run: a warning naming it, the rows still there.
run grow "echo more >> $tmp/in-grow.txt"
grep -q "in-grow.txt changed size" "$tmp/grow.err" || fail "grow: no warning naming the file: $(cat "$tmp/grow.err")"
[ "$(grep -c . "$tmp/grow.err")" -ge 1 ] && [ "$(grep -c 'changed size' "$tmp/grow.err")" -eq 1 ] \
  || fail "grow: warned more than once"
[ "$(awk 'NR > 1' "$tmp/grow.tsv" | wc -l)" -eq 3 ] || fail "grow: rows missing"
echo "grow: exit $rc, '$(grep 'changed size' "$tmp/grow.err")'"

# Disappears after the first run: later runs are error rows, a warning names it, exit 1.
run gone "cat $tmp/in-gone.txt >/dev/null && rm -f $tmp/in-gone.txt"
[ "$rc" -eq 1 ] || fail "gone: exit $rc (want 1): $(cat "$tmp/gone.err")"
grep -q "in-gone.txt is gone or unreadable" "$tmp/gone.err" || fail "gone: no warning: $(cat "$tmp/gone.err")"
[ "$(col status "$tmp/gone.tsv" | tr '\n' ' ')" = "ok error error " ] \
  || fail "gone: statuses $(col status "$tmp/gone.tsv" | tr '\n' ' ')"
echo "gone: exit 1, '$(grep 'gone or' "$tmp/gone.err")'"

# Replaced by a dangling symlink (unreadable even for root).
run dangling "rm -f $tmp/in-dangling.txt && ln -s $tmp/nowhere $tmp/in-dangling.txt"
[ "$rc" -eq 1 ] || fail "dangling: exit $rc"
grep -q "in-dangling.txt is gone or unreadable" "$tmp/dangling.err" || fail "dangling: no warning"
echo "dangling symlink: exit 1, warned"

# Becomes a directory.
run dir "rm -f $tmp/in-dir.txt && mkdir $tmp/in-dir.txt"
[ "$rc" -eq 1 ] || fail "dir: exit $rc: $(cat "$tmp/dir.err")"
grep -q "in-dir.txt" "$tmp/dir.err" || fail "dir: no warning naming it: $(cat "$tmp/dir.err")"
echo "replaced by a directory: exit 1, warned: '$(grep -m1 'in-dir.txt' "$tmp/dir.err")'"

# Permissions removed (root reads anyway, so only checked for other users).
if [ "$(id -u)" -ne 0 ]; then
  run perm "chmod 000 $tmp/in-perm.txt"
  [ "$rc" -ne 0 ] || fail "perm: exit 0 on an unreadable input"
  grep -q "in-perm.txt" "$tmp/perm.err" || fail "perm: no message naming it: $(cat "$tmp/perm.err")"
  echo "chmod 000: exit $rc, named"
else
  echo "chmod 000 case skipped: root reads any file"
fi
