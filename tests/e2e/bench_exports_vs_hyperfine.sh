#!/usr/bin/env bash
# bench's exports beside real hyperfine's for the same commands: the JSON reader written to
# hyperfine's documented schema (tests/e2e/lib/hyperfine_json.py) reads hyperfine's own JSON and
# refuses a broken copy, so the reader itself is shown right, then reads bench's; the CSV,
# Markdown, AsciiDoc and org-mode files have hyperfine's layout, header and rows.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
lib=$src/tests/e2e/lib
cd "$tmp"
command -v python3 >/dev/null || skip "python3 reads the exports"
command -v hyperfine >/dev/null || skip "no hyperfine (scripts/test installs it)"

commands=('sleep 0.01' 'sleep 0.02')
exports() { echo --export-json "$1.json" --export-csv "$1.csv" --export-markdown "$1.md" \
  --export-asciidoc "$1.adoc" --export-orgmode "$1.org"; }
# shellcheck disable=SC2046
hyperfine -N -r 3 -w 0 --style none $(exports hf) "${commands[@]}" >/dev/null 2>err.txt ||
  fail "hyperfine exited $?: $(cat err.txt)"
# shellcheck disable=SC2046
"$bin" bench -q --disturbance off -N -r 3 -w 0 -o io.tsv $(exports io) "${commands[@]}" >/dev/null 2>err.txt ||
  fail "bench exited $?: $(cat err.txt)"

# The reader: right on hyperfine's JSON, refusing what does not fit, then on bench's.
python3 "$lib/hyperfine_json.py" hf.json >hf.txt || fail "the reader refuses hyperfine's own JSON"
[ "$(grep -c ': n 3 mean' hf.txt)" -eq 2 ] || fail "reader on hyperfine: $(cat hf.txt)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["times"] = [str(t) for t in d["results"][0]["times"]]
json.dump(d, open(sys.argv[2], "w"))' hf.json broken.json
python3 "$lib/hyperfine_json.py" broken.json >/dev/null 2>&1 && fail "the reader took times written as text"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][1]["mean"] += 1
json.dump(d, open(sys.argv[2], "w"))' hf.json broken.json
python3 "$lib/hyperfine_json.py" broken.json >/dev/null 2>&1 && fail "the reader took a mean that is not its times'"
python3 "$lib/hyperfine_json.py" io.json >io.txt || fail "the reader refuses bench's JSON"
[ "$(grep -c ': n 3 mean' io.txt)" -eq 2 ] || fail "reader on bench: $(cat io.txt)"
python3 - hf.json io.json <<'PY' || fail "bench's JSON lacks a key hyperfine's results have"
import json, sys
hf, io = (json.load(open(p))["results"] for p in sys.argv[1:])
for h, i in zip(hf, io):
    missing = set(h) - set(i)
    assert not missing, missing
    assert h["command"] == i["command"]
PY

# The tables and the CSV: hyperfine's layout, the same header and commands (both in ms here).
for format in csv markdown asciidoc orgmode; do
  ext=${format/markdown/md}
  ext=${ext/asciidoc/adoc}
  ext=${ext/orgmode/org}
  python3 "$lib/hyperfine_tables.py" "$format" "hf.$ext" >hf.rows || fail "hyperfine's $format: $(cat "hf.$ext")"
  python3 "$lib/hyperfine_tables.py" "$format" "io.$ext" >io.rows || fail "bench's $format: $(cat "io.$ext")"
  if [ "$format" = csv ]; then
    [ "$(head -1 hf.rows)" = "$(head -1 io.rows | cut -f1-8)" ] || fail "CSV headers: $(head -1 hf.rows) / $(head -1 io.rows)"
  else
    [ "$(head -1 hf.rows)" = "$(head -1 io.rows)" ] || fail "$format headers: $(head -1 hf.rows) / $(head -1 io.rows)"
  fi
  [ "$(tail -n +2 hf.rows | cut -f1)" = "$(tail -n +2 io.rows | cut -f1)" ] ||
    fail "$format commands: $(cut -f1 hf.rows) / $(cut -f1 io.rows)"
done
echo "bench_exports_vs_hyperfine: ok"
