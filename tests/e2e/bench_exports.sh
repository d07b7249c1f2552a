#!/usr/bin/env bash
# bench's exports in hyperfine's formats, each parsed: the JSON by a reader written to hyperfine's
# documented schema (tests/e2e/lib/hyperfine_json.py), CSV, Markdown, AsciiDoc and org-mode by
# their layout (tests/e2e/lib/hyperfine_tables.py); with -P parameters, the shell-corrected times
# and iobench's fields beside hyperfine's.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
lib=$src/tests/e2e/lib
cd "$tmp"
command -v python3 >/dev/null || skip "python3 reads the exports"

"$bin" bench -q --disturbance off -r 3 -w 0 -P n 1 2 -o e.tsv --export-json e.json --export-csv e.csv \
  --export-markdown e.md --export-asciidoc e.adoc --export-orgmode e.org 'sleep 0.0{n}' \
  >/dev/null 2>err.txt || fail "bench exited $?: $(cat err.txt)"

# JSON: hyperfine's schema (the reader checks every field's type, and mean, median, min and max
# against the times), then iobench's fields.
python3 "$lib/hyperfine_json.py" e.json >read.txt || fail "e.json does not fit hyperfine's schema"
[ "$(grep -c '^sleep 0.0[12]: n 3 mean' read.txt)" -eq 2 ] || fail "reader: $(cat read.txt)"
python3 - e.json e.tsv <<'PY' || fail "e.json: iobench's fields"
import csv, json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
assert [r["command"] for r in results] == ["sleep 0.01", "sleep 0.02"], results
assert [r["parameters"] for r in results] == [{"n": "1"}, {"n": "2"}]
rows = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
for r in results:
    extra = r["iobench"]
    assert extra["sink"] == "pipe" and extra["input"] == "" and extra["n"] == 3, extra
    startup = extra["shell_startup_subtracted"]
    assert startup["command"] == ["sh", "-c", ""], startup
    raw = sorted(float(row["elapsed"]) for row in rows if row["test"] == r["command"])
    # hyperfine's times are the raw ones less the shell's start-up, as hyperfine's own are.
    assert sorted(extra["raw"]["times"]) == raw, (extra["raw"]["times"], raw)
    expected = sorted(max(0.0, t - startup["elapsed_s"]) for t in raw)
    assert all(abs(a - b) < 1e-9 for a, b in zip(sorted(r["times"]), expected)), (r["times"], expected)
    assert len(r["memory_usage_byte"]) == 3 and all(m > 0 for m in r["memory_usage_byte"])
assert [r["iobench"]["is_reference"] for r in results] == [True, False]
PY

# CSV: hyperfine's columns, then its parameter_ columns, then iobench's input, sink and status.
python3 "$lib/hyperfine_tables.py" csv e.csv >csv.txt || fail "e.csv: $(cat e.csv)"
[ "$(head -1 csv.txt)" = "$(printf 'command\tmean\tstddev\tmedian\tuser\tsystem\tmin\tmax\tparameter_n\tinput\tsink\tstatus')" ] ||
  fail "CSV header: $(head -1 csv.txt)"
[ "$(cut -f1,9,11,12 csv.txt | tail -n +2 | tr '\t\n' ',;')" = 'sleep 0.01,1,pipe,ok;sleep 0.02,2,pipe,ok;' ] ||
  fail "CSV rows: $(cat csv.txt)"

# The tables: hyperfine's header, one row per command, the fastest 1.00.
for format in markdown asciidoc orgmode; do
  file=e.${format/markdown/md}
  file=${file/asciidoc/adoc}
  file=${file/orgmode/org}
  python3 "$lib/hyperfine_tables.py" "$format" "$file" >table.txt || fail "$file: $(cat "$file")"
  [ "$(head -1 table.txt)" = "$(printf 'Command\tMean [ms]\tMin [ms]\tMax [ms]\tRelative')" ] ||
    fail "$format header: $(head -1 table.txt)"
  [ "$(tail -n +2 table.txt | cut -f1 | tr -d '`=' | tr '\n' ';')" = 'sleep 0.01;sleep 0.02;' ] ||
    fail "$format rows: $(cat table.txt)"
  [ "$(tail -n +2 table.txt | cut -f5 | grep -c '^1\.00$')" -eq 1 ] || fail "$format relative: $(cat table.txt)"
done

# -u second and --sort mean-time: the tables in seconds, fastest first.
"$bin" bench -q --disturbance off -r 3 -w 0 -u second --sort mean-time -o sorted.tsv --export-markdown sorted.md \
  'sleep 0.03' 'sleep 0.01' >/dev/null 2>err.txt || fail "sorted exited $?: $(cat err.txt)"
python3 "$lib/hyperfine_tables.py" markdown sorted.md >table.txt || fail "sorted.md: $(cat sorted.md)"
[ "$(head -1 table.txt | cut -f2)" = 'Mean [s]' ] || fail "-u second: $(head -1 table.txt)"
[ "$(tail -n +2 table.txt | cut -f1 | tr -d '`' | tr '\n' ';')" = 'sleep 0.01;sleep 0.03;' ] ||
  fail "--sort mean-time: $(cat table.txt)"

# Without a shell nothing is subtracted: the times are the runs file's.
"$bin" bench -q --disturbance off -N -r 2 -w 0 -o noshell.tsv --export-json noshell.json true >/dev/null 2>err.txt ||
  fail "-N exited $?: $(cat err.txt)"
python3 "$lib/hyperfine_json.py" noshell.json >/dev/null || fail "noshell.json: not hyperfine's schema"
python3 - noshell.json noshell.tsv <<'PY' || fail "noshell.json: times are not the runs file's"
import csv, json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["iobench"]["shell_startup_subtracted"] is None
assert sorted(r["times"]) == sorted(float(row["elapsed"]) for row in csv.DictReader(open(sys.argv[2]), delimiter="\t"))
PY
# An export that cannot be written (here its folder is a file) is found before anything runs:
# exit 2, one line, nothing written.
touch not-a-folder
for option in --export-json --export-csv --export-markdown --export-asciidoc --export-orgmode; do
  set +e
  "$bin" bench -q --disturbance off -r 1 -w 0 -o unwritten.tsv "$option" not-a-folder/x true >out.txt 2>err.txt
  code=$?
  set -e
  [ "$code" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -e unwritten.tsv ] && [ ! -s out.txt ] ||
    fail "$option not-a-folder/x: exit $code, $(cat err.txt)"
  grep -q -- "^iobench: $option not-a-folder/x: cannot write in" err.txt || fail "$option: $(cat err.txt)"
done
echo "bench_exports: ok"
