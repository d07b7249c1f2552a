#!/usr/bin/env bash
# End to end: configs/smoke.json as 4 shards (two of them through --shard auto with Slurm's and
# Kubernetes' variables), merged; the merged cell set equals an unsharded run's; summarize and
# compare read the merged file; a missing shard, a duplicate and a foreign file each fail the
# merge (exit 1, one line naming it, nothing written).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
config=$src/configs/smoke.json
run() { "$bin/iobench" run "$config" --repeats 2 --quiet "$@" >/dev/null 2>"$tmp/stderr.txt" \
  || { local rc=$?; cat "$tmp/stderr.txt" >&2; fail "iobench run $* exited $rc"; }; }
cells() { col test,input,sink,repeat "$1" | sort; }

cd "$tmp"
run -o whole.tsv
run --shard 1/4 -o s1.tsv
run --shard 3/4 -o s3.tsv
# auto, Slurm: --array=0-3, task 1 is shard 2/4; the default name carries the shard.
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3 \
  run --shard auto
s2=$(ls results/smoke-*-shard-2-of-4.tsv) || fail "no results/smoke-<time>-shard-2-of-4.tsv"
# auto, Kubernetes Indexed Job: index 3 of 4 is shard 4/4.
JOB_COMPLETION_INDEX=3 IOBENCH_SHARD_COUNT=4 run --shard auto
s4=$(ls results/smoke-*-shard-4-of-4.tsv) || fail "no results/smoke-<time>-shard-4-of-4.tsv"
grep -q '"shard": "4/4"' results/meta/"$(basename "$s4" .tsv)".json || fail "meta lacks shard 4/4"
grep -q '"hash": "' results/meta/"$(basename "$s4" .tsv)".json || fail "meta lacks the matrix hash"

# No scheduler variables: exit 2, naming what it looked for.
set +e
env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX "$bin/iobench" run "$config" --shard auto \
  -o none.tsv 2>err.txt
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--shard auto without variables exited $rc"
grep -q 'SLURM_ARRAY_TASK_ID' err.txt && grep -q 'JOB_COMPLETION_INDEX' err.txt \
  || fail "error does not name the variables: $(cat err.txt)"
[ ! -e none.tsv ] || fail "a file was written"

# Shards are disjoint and whole cells: every repeat of a cell in one shard.
for f in s1.tsv "$s2" s3.tsv "$s4"; do
  run_awk '{ n[col("test") "\t" col("input") "\t" col("sink")]++ } END { for (c in n) if (n[c] != 2) exit 1 }' "$f" \
    || fail "$f splits a cell's repeats"
done

"$bin/iobench" merge s1.tsv "$s2" s3.tsv "$s4" -o merged.tsv >merge-table.txt 2>merge-err.txt \
  || { rc=$?; cat merge-err.txt >&2; fail "merge of 4 shards exited $rc"; }
[ "$(cells merged.tsv)" = "$(cells whole.tsv)" ] || fail "merged cells differ from the unsharded run's"
[ -s medians/merged.tsv ] || fail "no medians for the merged file"
grep -q '"merged_from"' meta/merged.json && grep -q '"hosts"' meta/merged.json \
  || fail "merged meta lacks shards or hosts"
"$bin/iobench" summarize merged.tsv >summary.txt || fail "summarize of the merged file"
grep -q 'getline-raw' summary.txt || fail "summary lacks getline-raw"
"$bin/iobench" compare whole.tsv merged.tsv >compare.txt || fail "compare whole merged exited $?"

# Broken sets: exit 1, one line per problem, nothing written.
expect_fail() {
  local what=$1 pattern=$2
  shift 2
  set +e
  "$bin/iobench" merge "$@" -o bad.tsv >/dev/null 2>bad-err.txt
  local rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "$what: merge exited $rc"
  grep -q -- "$pattern" bad-err.txt || fail "$what: no line '$pattern' in: $(cat bad-err.txt)"
  [ ! -e bad.tsv ] && [ ! -e meta/bad.json ] && [ ! -e medians/bad.tsv ] || fail "$what: a file was written"
}
expect_fail "missing shard" 'missing: shard 3/4' s1.tsv "$s2" "$s4"
expect_fail "duplicate" 'duplicate: shard 1/4' s1.tsv "$s2" s3.tsv "$s4" s1.tsv
run --shard 3/4 --filter 'raw' -o other.tsv
expect_fail "foreign (other filter)" 'other.tsv: foreign file: matrix hash' s1.tsv "$s2" other.tsv "$s4"
expect_fail "foreign (whole run)" 'whole.tsv: shard 1/1' s1.tsv "$s2" s3.tsv "$s4" whole.tsv
head -n -1 s3.tsv >cut.tsv && cp meta/s3.json meta/cut.json
expect_fail "interrupted shard" 'missing: test .* repeat 2 (shard 3/4, cut.tsv)' s1.tsv "$s2" cut.tsv "$s4"
echo "merge_shards: 4 shards of $(($(wc -l <merged.tsv) - 1)) rows merged and checked"
