#!/usr/bin/env bash
# The answer (docs/reports.md, "The answer"): a user's own matrix (four strategies, two sinks, warm
# and cold) run twice; run's answer, summarize's pretty answer, its JSON and the HTML report carry
# the same ranking, reference and numbers, and warm and cold are two answers, never pooled.
# Usage: bash report_answer.sh BIN_DIR SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"

seq 1 20000 >"$tmp/in.txt"
for cache in warm cold; do
  cat >"$tmp/$cache.json" <<JSON
{"name": "answer-$cache", "inputs": ["in.txt"],
 "strategies": [{"name": "{reader}In-{writer}Out", "worker": ["--read", "{reader}", "--write", "{writer}"]}],
 "params": {"reader": ["getline", "read"], "writer": ["raw", "buffered"]},
 "sinks": ["null", "pipe"], "repeats": 6, "warmup": 0, "cache": "$cache",
 "baseline": "getlineIn-rawOut", "disturbance": "off"}
JSON
  "$iobench" run "$tmp/$cache.json" -o "$tmp/res/$cache.tsv" >"$tmp/run-$cache.out" 2>"$tmp/run-$cache.err" ||
    fail "run $cache exited $?: $(cat "$tmp/run-$cache.err")"
done

# The answer blocks: from "The answer (" to the blank line that ends each.
answer_blocks() { awk '/^The answer \(/ { p = 1 } p { print } /^$/ { p = 0 }' "$1"; }

# run ends with the answer (after its medians table), one per sink; the config's baseline is the
# reference, named.
answer_blocks "$tmp/run-warm.out" >"$tmp/run-warm.answer"
[ "$(grep -c '^The answer (' "$tmp/run-warm.answer")" -eq 2 ] ||
  fail "run's answer: not one per sink: $(cat "$tmp/run-warm.out")"
grep -q '^The answer (input [^,]*in.txt, sink null): ' "$tmp/run-warm.answer" || fail "no null-sink answer"
grep -q "reference: getlineIn-rawOut (the config's baseline)" "$tmp/run-warm.answer" ||
  fail "the reference is not named: $(cat "$tmp/run-warm.answer")"
[ "$(grep -n 'relative' "$tmp/run-warm.out" | head -1 | cut -d: -f1)" -lt \
  "$(grep -n '^The answer (' "$tmp/run-warm.out" | head -1 | cut -d: -f1)" ] ||
  fail "run's answer is not after its table"

# summarize begins with the same answer, to the character: the reference from the run's meta file.
"$iobench" summarize "$tmp/res/warm.tsv" >"$tmp/sum-warm.out" 2>/dev/null || fail "summarize exited $?"
head -1 "$tmp/sum-warm.out" | grep -q '^The answer (' || fail "summarize does not begin with the answer"
answer_blocks "$tmp/sum-warm.out" >"$tmp/sum-warm.answer"
diff -u "$tmp/run-warm.answer" "$tmp/sum-warm.answer" || fail "run's and summarize's answers differ"
# `relative` divides by the same reference: the baseline's row says so.
grep -E '^getlineIn-rawOut .* reference( |$)' "$tmp/sum-warm.out" >/dev/null ||
  fail "relative is not against the baseline: $(cat "$tmp/sum-warm.out")"

# The JSON has the same claims, ranking and factors as the pretty answer.
"$iobench" summarize --format json "$tmp/res/warm.tsv" >"$tmp/sum-warm.json" 2>/dev/null ||
  fail "summarize json exited $?"
python3 - "$tmp/sum-warm.json" "$tmp/sum-warm.answer" <<'PY' || fail "JSON and pretty answers differ"
import json, re, sys
answers = json.load(open(sys.argv[1]))["iobench"]["answer"]
pretty = open(sys.argv[2], encoding="utf-8").read()
assert len(answers) == 2, answers
for a in answers:
    where = ", ".join(f"{k} {v}" for k, v in a["conditions"].items())
    line = f"The answer ({where}): {a['claim']}."
    assert line in pretty, (line, pretty)
    assert a["reference"] == "getlineIn-rawOut" and a["reference_is"] == "the config's baseline", a
    block = pretty[pretty.index(line):].split("\n\n")[0]
    for rank, e in enumerate(a["ranked"], 1):
        row = re.compile(rf"^ *{rank} +{re.escape(e['test'])} .* {re.escape(e['factor'])}$", re.M)
        assert row.search(block), (rank, e, block)
    medians = [e["median"] for e in a["ranked"]]
    assert medians == sorted(medians), medians
PY

# Warm and cold files together: four answers, each naming its cache state; never pooled.
"$iobench" summarize "$tmp/res/warm.tsv" "$tmp/res/cold.tsv" >"$tmp/both.out" 2>/dev/null ||
  fail "summarize of warm and cold exited $?"
[ "$(grep -c '^The answer (.*, cache warm)' "$tmp/both.out")" -eq 2 ] &&
  [ "$(grep -c '^The answer (.*, cache cold)' "$tmp/both.out")" -eq 2 ] ||
  fail "warm and cold are not four answers: $(cat "$tmp/both.out")"

# The HTML report's first section is the same answer.
"$iobench" report "$tmp/res/warm.tsv" -o "$tmp/report.html" 2>/dev/null || fail "report exited $?"
python3 - "$tmp/sum-warm.json" "$tmp/report.html" <<'PY' || fail "the report's answer differs"
import html, json, sys
answers = json.load(open(sys.argv[1]))["iobench"]["answer"]
page = html.unescape(open(sys.argv[2], encoding="utf-8").read())
first = page.index('<section id="answer">')
assert first < page.index('<section class="place"'), "the answer is not the first section"
for a in answers:
    assert a["claim"] in page[first:], a["claim"]
PY
exit 0
