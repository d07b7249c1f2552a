#!/usr/bin/env bash
# One elapsed figure everywhere (docs/bench.md, "Which figure"): one bench run with --report and
# --export-json; the terminal's ratio, the page's and the JSON's are the same figure's (shell
# start-up subtracted, since bench measured one), and each surface says which figure it shows.
# With -N nothing is measured or subtracted, and every surface says "elapsed".
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
command -v python3 >/dev/null || skip "python3 reads the JSON export and the page"

# Short commands, so that the shell's start-up (about 1 ms) moves the ratio well past its rounding.
"$bin" bench -r 8 -w 1 -q --decide off --disturbance off -o f.tsv --report f.html \
  --export-json f.json 'sleep 0.003' 'sleep 0.009' >out.txt 2>err.txt ||
  fail "bench exited $?: $(cat err.txt)"

# The terminal: "    sleep 0.009  2.61× slower [...]", under a header naming the figure.
terminal=$(grep -E '^    sleep 0\.009 ' out.txt | grep -oE '[0-9.]+× slower' | head -1 | sed 's/×.*//')
[ -n "$terminal" ] || fail "no ratio on the terminal: $(cat out.txt)"
grep -q "^Against the reference 'sleep 0.003' .*figure: elapsed, shell start-up subtracted)" out.txt ||
  fail "the terminal does not name its figure: $(cat out.txt)"
grep -q "^Figures: elapsed, shell start-up subtracted (sh -c '' took" out.txt ||
  fail "no summary line naming the figure: $(cat out.txt)"
# The page: its verdict cell ("2.61× slower [2.59, 2.63]") and the line naming its figure.
page=$(grep -oE '[0-9.]+× slower' f.html | head -1 | sed 's/×.*//')
[ -n "$page" ] || fail "no ratio on the page"
grep -q '<li class="figure">figures: elapsed, shell start-up subtracted (sh -c' f.html ||
  fail "the page does not name its figure: $(grep -o '<ul class="glance">.*</ul>' f.html)"
# The JSON: the verdict's ratio, its named figure, and the raw ratio the old page showed.
read -r json raw figure < <(python3 - f.json <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
slow = [r for r in doc["results"] if r["command"] == "sleep 0.009"][0]
fast = [r for r in doc["results"] if r["command"] == "sleep 0.003"][0]
raw = statistics.median(slow["iobench"]["raw"]["times"]) / statistics.median(fast["iobench"]["raw"]["times"])
print(f'{slow["iobench"]["verdict"]["ratio"]:.2f} {raw:.2f} {doc["iobench"]["elapsed_figure"]}')
PY
)
[ "$figure" = startup_subtracted ] || fail "JSON elapsed_figure: $figure"
[ "$terminal" = "$page" ] && [ "$page" = "$json" ] ||
  fail "the surfaces disagree: terminal $terminal, page $page, JSON $json (raw $raw)"
# The test sees a difference: the raw figure's ratio is another number.
[ "$raw" != "$json" ] || skip_here "the shell's start-up did not move the ratio here ($raw): nothing to tell apart"

# -N: no shell, nothing subtracted; every surface says "elapsed".
"$bin" bench -N -r 3 -w 0 -q --decide off --disturbance off -o n.tsv --report n.html \
  --export-json n.json 'sleep 0.003' 'sleep 0.009' >out.txt 2>err.txt ||
  fail "bench -N exited $?: $(cat err.txt)"
grep -q "^Against the reference .*figure: elapsed)" out.txt || fail "-N terminal: $(cat out.txt)"
grep -q '<li class="figure">figures: elapsed</li>' n.html || fail "-N page does not say elapsed"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["iobench"]["elapsed_figure"] == "raw", d["iobench"]' n.json ||
  fail "-N JSON: $(grep -A3 '"elapsed_figure"' n.json)"
echo "bench_one_figure: terminal $terminal, page $page, JSON $json (raw $raw)"
