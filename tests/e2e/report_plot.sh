#!/usr/bin/env bash
# iobench plot end to end: writes a well-formed SVG, refuses bad options with exit 2.
# Usage: bash report_plot.sh BIN_DIR SOURCE_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
iobench=$bin/iobench
fixtures=$src/tests/fixtures/reports

"$iobench" plot "$fixtures/runs-ngram.tsv" -o "$tmp/chart.svg" || fail "plot exited $?"
head -1 "$tmp/chart.svg" | grep -q '^<?xml' || fail "not an SVG file"
tail -1 "$tmp/chart.svg" | grep -q '^</svg>$' || fail "SVG not closed"
grep -q '>fastest</text>' "$tmp/chart.svg" || fail "fastest not marked"
if command -v xmllint >/dev/null; then xmllint --noout "$tmp/chart.svg" || fail "not well-formed XML"; fi

"$iobench" plot --metric mem "$fixtures/runs-ngram.tsv" "$fixtures/gnu-time.tsv" -o "$tmp/mem.svg" ||
  fail "plot --metric mem exited $?"
grep -q 'MiB</text>' "$tmp/mem.svg" || fail "mem axis not in MiB"

set +e
"$iobench" plot --metric user "$fixtures/runs-ngram.tsv" -o "$tmp/x.svg" 2>/dev/null
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--metric user exited $rc, not 2"
[ ! -e "$tmp/x.svg" ] || fail "a chart was written after an error"
echo "report_plot: ok"
