#!/usr/bin/env bash
# `iobench bench` stops a command once its comparison with the reference is decided
# (docs/reports.md, "Deciding a comparison"): a command 50 ms slower than `cat` of a small file is
# decided different before the budget of 20 runs, the reference stops with it, and stderr says
# so; with --decide off, the default with -r, both run all 20. (--disturbance off: a loaded
# machine would add re-runs to the rows counted.)
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
bin=$(cd "$bin" && pwd)/iobench
cd "$tmp"
"$bin" gen lines --size 16KiB --seed 3 -o data/in.txt 2>/dev/null

"$bin" bench --input data/in.txt -r 20 --decide on -w 0 -q --disturbance off -o decided.tsv \
  'cat {input}' 'sleep 0.05; cat {input}' >out.txt 2>err.txt ||
  fail "bench exited $?: $(cat err.txt)"
grep -Eq "^iobench: 'sleep 0.05; cat \{input\}' on in.txt \(pipe sink\) against 'cat \{input\}': decided: different after [0-9]+ runs$" err.txt ||
  fail "no decision said: $(cat err.txt)"
rows=$(tail -n +2 decided.tsv | wc -l)
[ "$rows" -lt 40 ] || fail "decided, yet all $rows rows ran"
slow=$(run_awk 'col("test") ~ /sleep/' decided.tsv | wc -l)
[ "$((rows - slow))" -eq "$slow" ] || fail "the reference ran $((rows - slow)) times, the test $slow"

"$bin" bench --input data/in.txt -r 20 -w 0 -q --disturbance off -o all.tsv \
  'cat {input}' 'sleep 0.05; cat {input}' >out.txt 2>err.txt ||
  fail "bench --decide off exited $?: $(cat err.txt)"
[ "$(tail -n +2 all.tsv | wc -l)" -eq 40 ] || fail "--decide off: not 40 rows: $(cat all.tsv)"
grep -q "decided" err.txt && fail "-r 20 still decided: $(cat err.txt)"
exit 0
