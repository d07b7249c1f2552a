#!/usr/bin/env bash
# End-to-end: `iobench gen` from the command line — output, determinism, and every error path
# (one line on stderr, exit 2, nothing written). Run as: bash gen_cli.sh BIN_DIR SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
passes=0

pass() { passes=$((passes + 1)); }

# expect_error NAME ARGS...: exit code 2, exactly one line on stderr, nothing on stdout.
expect_error() {
  local name=$1
  shift
  local code=0
  "$iobench" "$@" >"$tmp/out" 2>"$tmp/err" || code=$?
  if [ "$code" -ne 2 ]; then
    fail "$name: exit $code, expected 2 ($(head -c 300 "$tmp/err"))"
  elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
    fail "$name: stderr is not one line: $(cat "$tmp/err")"
  elif [ -s "$tmp/out" ]; then
    fail "$name: wrote to stdout"
  else
    pass
  fi
}

# Files: exact size, deterministic by seed.
"$iobench" gen ngram --size 1MiB --seed 3 -o "$tmp/a.tsv" 2>"$tmp/err"
"$iobench" gen ngram --size 1MiB --seed 3 -q -o "$tmp/b.tsv"
"$iobench" gen ngram --size 1MiB --seed 4 -q -o "$tmp/c.tsv"
[ "$(stat -c %s "$tmp/a.tsv")" -eq 1048576 ] && pass || fail "ngram size $(stat -c %s "$tmp/a.tsv")"
cmp -s "$tmp/a.tsv" "$tmp/b.tsv" && pass || fail "same seed, different bytes"
cmp -s "$tmp/a.tsv" "$tmp/c.tsv" && fail "other seed, same bytes" || pass
grep -q "wrote 1048576 bytes" "$tmp/err" && pass || fail "no summary line: $(cat "$tmp/err")"
awk -F'\t' 'NF != 4 || $2 < 1500 || $2 > 2019 || $4 > $3 { bad = 1 } END { exit bad }' \
  "$tmp/a.tsv" && pass || fail "ngram lines malformed"
# Chunks made on several threads: the same bytes as on one (9 MiB: two 4 MiB chunks, one larger).
"$iobench" gen ngram --size 9MiB --seed 3 --threads 1 -q -o "$tmp/t1.tsv"
"$iobench" gen ngram --size 9MiB --seed 3 --threads 3 -q -o "$tmp/t3.tsv"
cmp -s "$tmp/t1.tsv" "$tmp/t3.tsv" && pass || fail "--threads 3 wrote other bytes than --threads 1"
rm -f "$tmp/t1.tsv" "$tmp/t3.tsv"

"$iobench" gen lines --size 100000 --line-length fixed:99 -q -o "$tmp/lines.txt"
[ "$(awk 'length($0) != 99' "$tmp/lines.txt" | wc -l)" -eq 0 ] && pass || fail "fixed:99"
"$iobench" gen fastq --size 200000 --read-length 100 --compress gzip -q -o "$tmp/r.fastq.gz"
[ "$(gzip -dc "$tmp/r.fastq.gz" | wc -c)" -eq 200000 ] && pass || fail "fastq.gz size"
"$iobench" gen edge --size 64KiB -q -o "$tmp/edge"
[ -f "$tmp/edge/MANIFEST.tsv" ] && [ "$(stat -c %s "$tmp/edge/long-line-only.txt")" -eq 65537 ] \
  && pass || fail "edge corpus"
# The docs write `-o corpus/`: a new folder, or an empty one made for it, with or without '/'.
mkdir -p "$tmp/made"
"$iobench" gen edge --size 1KiB -q -o "$tmp/new/" && "$iobench" gen edge --size 1KiB -q -o "$tmp/made/" \
  && [ -f "$tmp/new/MANIFEST.tsv" ] && [ -f "$tmp/made/MANIFEST.tsv" ] && pass \
  || fail "edge into a new or an empty folder"
[ -z "$(find "$tmp" -name '.*.tmp.*')" ] && pass || fail "temporary files left behind"

# Errors: one line, exit 2, no output file.
expect_error "unknown kind" gen words --size 1K -o "$tmp/e1"
expect_error "bad size" gen ngram --size 12Q -o "$tmp/e2"
expect_error "size not a number" gen ngram --size lots -o "$tmp/e3"
expect_error "missing size" gen ngram -o "$tmp/e4"
expect_error "bad line-length" gen lines --size 1K --line-length wavy:3 -o "$tmp/e5"
expect_error "line-length range" gen lines --size 1K --line-length uniform:9-1 -o "$tmp/e6"
expect_error "option of another kind" gen ngram --size 1K --line-length fixed:8 -o "$tmp/e7"
expect_error "bad read-length" gen fastq --size 1K --read-length 0 -o "$tmp/e8"
expect_error "bad compress" gen fastq --size 1K --compress zstd -o "$tmp/e9"
expect_error "edge size too large" gen edge --size 2GiB -o "$tmp/e10"
mkdir -p "$tmp/taken" && echo keep >"$tmp/taken/mine.txt"
expect_error "edge over a foreign folder" gen edge --size 1K -o "$tmp/taken"
expect_error "output is a folder" gen ngram --size 1K -o "$tmp/taken"
for n in 1 2 3 4 5 6 7 8 9 10; do
  [ -e "$tmp/e$n" ] && fail "e$n written despite the error"
done
[ "$(cat "$tmp/taken/mine.txt")" = keep ] && pass || fail "foreign folder touched"

# Interrupted as Ctrl-C interrupts (SIGINT to gen and its compressor, one process group) or by
# SIGTERM: exit 130, one line, and nothing left in the folder (no hidden temporary file).
interrupt() {  # NAME SIGNAL ARGS...
  local name=$1 signal=$2 status=0
  shift 2
  mkdir -p "$tmp/$name"
  python3 -c 'import os, signal, sys
os.setsid()
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$iobench" gen "$@" -q -o "$tmp/$name/big" 2>"$tmp/$name.err" &
  local pid=$!
  for _ in $(seq 300); do  # until the temporary file has its first MiB
    [ -n "$(find "$tmp/$name" -name '.big.tmp.*' -size +1M)" ] && break
    sleep 0.1
  done
  kill "-$signal" -- "-$pid"
  wait "$pid" || status=$?
  [ "$status" -eq 130 ] || fail "$name: exit $status, not 130: $(cat "$tmp/$name.err")"
  grep -qx "iobench: interrupted (SIG$signal); nothing written" "$tmp/$name.err" ||
    fail "$name: $(cat "$tmp/$name.err")"
  [ -z "$(ls -A "$tmp/$name")" ] && pass || fail "$name left: $(ls -A "$tmp/$name")"
}
interrupt int INT ngram --size 512MiB
interrupt int-gzip INT lines --size 512MiB --compress gzip
interrupt term TERM ngram --size 512MiB

echo "gen_cli: $passes passed"
