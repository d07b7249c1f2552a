#!/usr/bin/env bash
# Sinks (null, pipe, file) are named and counted; the cache state is measured (cache_pct), cold
# and warm; shards partition the matrix; file sinks leave nothing behind; meta is written.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

seq 1 1000000 >"$tmp/in.txt"
size=$(stat -c %s "$tmp/in.txt")
for cache in warm cold; do
  cat >"$tmp/$cache.json" <<JSON
{
  "name": "sinks", "inputs": ["in.txt"],
  "strategies": [
    {"name": "cat", "command": ["cat", "{input}"]},
    {"name": "worker-read-buffered", "worker": ["--read", "read", "--write", "buffered"]}
  ],
  "sinks": ["null", "pipe", "file"], "repeats": 2, "warmup": 0, "cache": "$cache",
  "pipe_size": "1MiB", "disturbance": "off"
}
JSON
  "$bin/iobench" run "$tmp/$cache.json" -o "$tmp/res-$cache/runs.tsv" --quiet >/dev/null 2>"$tmp/err.txt" \
    || { rc=$?; cat "$tmp/err.txt"; fail "$cache run exited $rc"; }
  runs=$tmp/res-$cache/runs.tsv
  [ "$(tail -n +2 "$runs" | wc -l)" -eq 12 ] || fail "$cache: rows"
  # A null sink shows nothing: its rows leave bytes_out (and output_hash) empty.
  for sink in null pipe file; do
    want=$size
    [ "$sink" = null ] && want=""
    run_awk -v s="$sink" -v n="$want" 'col("sink") == s && (col("bytes_out") != n || col("status") != "ok") { exit 1 }' "$runs" \
      || fail "$cache/$sink: bytes_out or status: $(run_awk -v s="$sink" 'col("sink") == s { print col("test"), col("sink"), col("status"), col("bytes_out") }' "$runs" | sed -n 1,2p)"
  done
  if [ "$cache" = warm ]; then
    run_awk 'col("cache_pct") != "100.0" { exit 1 }' "$runs" || fail "warm cache_pct: $(col cache_pct "$runs" | sort -u | tr '\n' ' ')"
  else
    run_awk 'col("cache_pct") + 0 > 50 { exit 1 }' "$runs" || fail "cold cache_pct: $(col cache_pct "$runs" | sort -u | tr '\n' ' ')"
  fi
  ls -A "$tmp/res-$cache" | grep -q '^\.sinks' && fail "$cache: a file-sink folder was left behind"
  grep -q '"cpu_model"' "$tmp/res-$cache/meta/runs.json" || fail "meta lacks the machine context"
  grep -q '"pipe_max_size_bytes"' "$tmp/res-$cache/meta/runs.json" || fail "meta lacks pipe-max-size"
done
# null-sink rows carry no hash; pipe and file rows are hashed alike.
run_awk 'col("sink") == "null" && col("output_hash") != "" { exit 1 }' "$tmp/res-warm/runs.tsv" \
  || fail "a null-sink row has a hash"
[ "$(run_awk 'col("sink") != "null" { print col("output_hash") }' "$tmp/res-warm/runs.tsv" | sort -u | wc -l)" -eq 1 ] \
  || fail "pipe and file hashes differ"

# Shards: 1/2 and 2/2 together are the whole matrix, each cell once.
for k in 1 2; do
  "$bin/iobench" run "$tmp/warm.json" -o "$tmp/shard$k.tsv" --shard "$k/2" --repeats 1 --quiet >/dev/null 2>&1 \
    || fail "shard $k"
done
cells=$(col test,sink "$tmp/shard1.tsv" "$tmp/shard2.tsv" | sort | uniq | wc -l)
rows=$(tail -qn +2 "$tmp/shard1.tsv" "$tmp/shard2.tsv" | wc -l)
[ "$cells" -eq 6 ] && [ "$rows" -eq 6 ] || fail "shards: $cells cells in $rows rows"
echo "run_sinks_cache: ok"
