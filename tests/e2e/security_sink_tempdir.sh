#!/usr/bin/env bash
# Security: a file sink is a file made with mkstemp (mode 0600) inside a private folder made with
# mkdtemp (mode 0700) beside the results, and both are gone after the run. The strategy records
# what its stdout is (via /proc/self/fd/1) and the modes of that file and its folder.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
printf 'x\n' >"$tmp/in.txt"
cat >"$tmp/probe" <<SCRIPT
#!/bin/bash
out=\$(readlink /proc/\$\$/fd/1)
printf '%s %s %s\n' "\$out" "\$(stat -c %a "\$out")" "\$(stat -c %a "\$(dirname "\$out")")" >>'$tmp/probe.txt'
echo data
SCRIPT
chmod +x "$tmp/probe"
cat >"$tmp/c.json" <<EOF2
{"name": "tmpdir", "inputs": [{"path": "in.txt"}],
 "strategies": [{"name": "probe", "command": ["$tmp/probe"], "verify": false}],
 "sinks": ["file"], "repeats": 2, "warmup": 0, "cache": "none", "disturbance": "off"}
EOF2
mkdir "$tmp/out"
"$bin/iobench" run "$tmp/c.json" -o "$tmp/out/runs.tsv" --quiet >/dev/null 2>"$tmp/err" \
  || fail "exit $?: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/probe.txt")" -eq 2 ] || fail "probe ran $(wc -l <"$tmp/probe.txt") times"
while read -r path mode dirmode; do
  case "$path" in
    "$tmp/out/.sinks-"??????/sink-??????) ;;
    *) fail "sink file $path is not in a private folder beside the results" ;;
  esac
  [ "$mode" = 600 ] || fail "sink file mode $mode (want 600)"
  [ "$dirmode" = 700 ] || fail "sink folder mode $dirmode (want 700)"
  [ ! -e "$path" ] || fail "sink file $path left behind"
done <"$tmp/probe.txt"
! ls -d "$tmp/out"/.sinks-* >/dev/null 2>&1 || fail "private folder left behind"
# Each run got a fresh name.
[ "$(awk '{ print $1 }' "$tmp/probe.txt" | sort -u | wc -l)" -eq 2 ] || fail "sink name reused"
[ "$(col bytes_out "$tmp/out/runs.tsv" | sort -u)" = 5 ] || fail "bytes_out not 5"
echo "security_sink_tempdir: $(head -1 "$tmp/probe.txt")"
