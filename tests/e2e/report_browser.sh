#!/usr/bin/env bash
# The run report in a real browser (docs/reports.md, "The HTML report"): headless Chromium opens
# the page `iobench run --report` wrote for a small real run and tests/e2e/report_cdp.py checks it
# over the DevTools protocol: no console error, nothing fetched but the page itself, every test
# of the run in the DOM (one of them named <script>alert(1)</script>), one dot per ok run in the
# charts, sorting and hiding by clicks. Then it takes the screenshots people look at, desktop and
# phone width (IOBENCH_REPORT_SCREENSHOTS=DIR keeps them; docs/report-screenshot.png is the
# desktop one), and prints the page to PDF. Skips (77) where Chromium is missing or cannot start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"

chromium=$(command -v chromium || command -v chromium-browser) ||
  skip "no chromium here (apt-get install chromium; scripts/test installs it)"
command -v python3 >/dev/null || skip "no python3"
# As root Chromium needs --no-sandbox; --disable-gpu: there is no GPU.
browser=("$chromium" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars
  "--user-data-dir=$tmp/profile")
timeout 120 "${browser[@]}" --dump-dom about:blank >"$tmp/probe.out" 2>"$tmp/probe.err" ||
  skip_here "chromium cannot start here: $(grep -v '^\s*$' "$tmp/probe.err" | tail -1)"

seq 1 20000 >"$tmp/input.txt"
cat >"$tmp/browser.json" <<'JSON'
{
  "name": "browser",
  "inputs": ["input.txt"],
  "strategies": [
    {"name": "read-buffered", "worker": ["--read", "read", "--write", "buffered"]},
    {"name": "getline-raw", "worker": ["--read", "getline", "--write", "raw"]},
    {"name": "fgets-stdio", "worker": ["--read", "fgets", "--write", "stdio"]},
    {"name": "<script>alert(1)</script>", "command": ["cat", "{input}"]}
  ],
  "sinks": ["pipe", "null"],
  "repeats": 4, "warmup": 0, "cache": "warm", "disturbance": "off",
  "counters": ["syscalls", "context-switches"],
  "baseline": "read-buffered"
}
JSON
"$bin/iobench" run "$tmp/browser.json" -o "$tmp/results/browser.tsv" --report "$tmp/report.html" \
  --quiet >"$tmp/run.out" 2>"$tmp/run.err" || { code=$?; cat "$tmp/run.err" >&2; fail "run exited $code"; }
[ -s "$tmp/report.html" ] || fail "no report written"

col test "$tmp/results/browser.tsv" | sort -u >"$tmp/tests.txt"
[ "$(wc -l <"$tmp/tests.txt")" -eq 4 ] || fail "the run has $(wc -l <"$tmp/tests.txt") tests, not 4"
points=$(run_awk 'col("status") == "ok"' "$tmp/results/browser.tsv" | wc -l)
python3 "$src/tests/e2e/report_cdp.py" "$chromium" "$tmp/report.html" --tests "$tmp/tests.txt" \
  --points "$points" --json "$tmp/figures.json" ||
  fail "the page in Chromium (above)"

# What people look at: the test's own screenshots, desktop and phone width, and a printout.
shots=${IOBENCH_REPORT_SCREENSHOTS:-$tmp/shots}
mkdir -p "$shots"
for size in desktop:1280,1600 phone:390,1600; do
  timeout 120 "${browser[@]}" --screenshot="$shots/report-${size%%:*}.png" --window-size="${size#*:}" \
    "file://$tmp/report.html" >/dev/null 2>"$tmp/shot.err" || fail "screenshot ${size%%:*}: $(tail -1 "$tmp/shot.err")"
  [ -s "$shots/report-${size%%:*}.png" ] || fail "no ${size%%:*} screenshot"
done
timeout 120 "${browser[@]}" --no-pdf-header-footer --print-to-pdf="$shots/report.pdf" \
  "file://$tmp/report.html" >/dev/null 2>"$tmp/pdf.err" || fail "print to PDF: $(tail -1 "$tmp/pdf.err")"
head -c 5 "$shots/report.pdf" | grep -q '^%PDF-' || fail "the printout is not a PDF"
echo "report_browser: ok ($(cat "$tmp/tests.txt" | wc -l) tests, $points run dots; screenshots in $shots)"
