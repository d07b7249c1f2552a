#!/usr/bin/env bash
# At the end of `run` a gathered warning names five groups and counts the rest, pointing to the
# meta file, whose summary_warnings names every one (docs/reports.md, "Warnings").
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

echo x >"$tmp/in.txt"
cat >"$tmp/many.json" <<'JSON'
{"name": "many", "inputs": ["in.txt"],
 "strategies": [{"name": "t{i}", "command": ["true"], "verify": false}],
 "params": {"i": ["0", "1", "2", "3", "4", "5", "6"]},
 "sinks": ["null"], "repeats": 1, "warmup": 0, "cache": "none"}
JSON
"$bin/iobench" run "$tmp/many.json" -o "$tmp/many.tsv" >/dev/null 2>"$tmp/many.err" ||
  fail "run: exit $?: $(cat "$tmp/many.err")"
line=$(grep 'fewer than 3 runs in 7 groups' "$tmp/many.err") || fail "no few-runs warning: $(cat "$tmp/many.err")"
case $line in
  *"(n=1) … and 2 more; all in $tmp/meta/many.json") ;;
  *) fail "the warning does not count two groups and point to the meta file: $line" ;;
esac
named=$(grep -o '(n=1)' <<<"$line" | wc -l)
[ "$named" -eq 5 ] || fail "the printed warning names $named groups, not 5: $line"
grep -q '"summary_warnings"' "$tmp/meta/many.json" || fail "no summary_warnings in the meta file"
full=$(grep -A2 '"summary_warnings"' "$tmp/meta/many.json" | grep 'fewer than 3 runs in 7 groups') ||
  fail "no few-runs line in summary_warnings: $(cat "$tmp/meta/many.json")"
for i in 0 1 2 3 4 5 6; do
  grep -qF "t$i ($tmp/in.txt, null) (n=1)" <<<"$full" || fail "summary_warnings does not name t$i: $full"
done
case $full in *"… and"*) fail "summary_warnings is shortened: $full" ;; esac
echo "run_warnings_many_groups: five named, two counted, all seven in the record"
