#!/usr/bin/env bash
# The history site (docs/reports.md, "The history site"): two commits' real runs in an SQLite
# store, the second 50 % slower on one cell, published with `history publish`; headless Chromium
# (tests/e2e/site_cdp.py) opens every page: no console error, nothing fetched, every series in
# the index, the expected points on a series page. The feed parses as Atom with one entry per
# open regression, under ids that stay the same from one publish to the next; an acknowledgement
# closes it. A folder that is not a site is refused (one line, exit 2, nothing written). Then the
# screenshots people look at (IOBENCH_PUBLISH_SCREENSHOTS=DIR keeps them). Skips (77) where
# Chromium is missing or cannot start.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
command -v python3 >/dev/null || skip "no python3"
chromium=$(command -v chromium || command -v chromium-browser) ||
  skip "no chromium here (apt-get install chromium; scripts/test installs it)"
browser=("$chromium" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars
  "--user-data-dir=$tmp/profile")
timeout 120 "${browser[@]}" --dump-dom about:blank >"$tmp/probe.out" 2>"$tmp/probe.err" ||
  skip_here "chromium cannot start here: $(grep -v '^\s*$' "$tmp/probe.err" | tail -1)"
iobench=$bin/iobench
store=$tmp/h.sqlite
source "$src/tests/e2e/history_lib.bash"

# A third series whose name is no file name: a slash, spaces and markup. It runs steady's script:
# a sleep is steady on a loaded machine, a bare cat of 2 ms is not.
odd='odd / name <b>'
python3 - "$tmp/hist.json" "$odd" "$tmp/work/steady.sh" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["strategies"].append({"name": sys.argv[2], "command": ["sh", sys.argv[3], "{input}"]})
json.dump(config, open(sys.argv[1], "w"))
PY
measure a1 0.10
measure a2 0.10
measure a3 0.10  # three sessions: enough to learn how far they drift
add aaaa1111 "$tmp/r/a1.tsv" "$tmp/r/a2.tsv" "$tmp/r/a3.tsv"
measure b1 0.15
add bbbb2222 "$tmp/r/b1.tsv"
check 1
# tunable's, and on a loaded machine perhaps one more by noise: the site must list what check does.
change=$(awk '/^regression/ && / tunable \(/ {print $2}' "$tmp/check.out")
[ -n "$change" ] || fail "tunable is no regression: $(cat "$tmp/check.out")"
open_count=$(grep -c '^regression' "$tmp/check.out")
printf '%s\n' steady tunable "$odd" >"$tmp/tests.txt"

# A folder that is not a site is refused before anything is written.
mkdir "$tmp/mine"
echo keep >"$tmp/mine/notes.txt"
set +e
"$iobench" history publish --history="$store" -o "$tmp/mine" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ] ||
  fail "a folder that is not a site: exit $rc: $(cat "$tmp/bad.out" "$tmp/bad.err")"
grep -q 'is not empty and not a site published before' "$tmp/bad.err" || fail "said: $(cat "$tmp/bad.err")"
[ "$(ls -A "$tmp/mine")" = notes.txt ] && ! compgen -G "$tmp/mine.tmp-*" >/dev/null ||
  fail "the refused folder was written to: $(ls -A "$tmp/mine" "$tmp")"

publish() {  # the site in $tmp/site
  "$iobench" history publish --history="$store" -o "$tmp/site" >"$tmp/publish.out" 2>"$tmp/publish.err" ||
    fail "history publish exited $?: $(cat "$tmp/publish.err")"
  ! compgen -G "$tmp/site.tmp-*" >/dev/null || fail "a build folder was left: $(ls "$tmp")"
}
feed_ids() {  # EXPECTED_ENTRIES: checks the feed as Atom 1.0, prints its id and its entries' ids
  python3 - "$tmp/site/feed.atom" "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
atom = "{http://www.w3.org/2005/Atom}"
feed = ET.parse(sys.argv[1]).getroot()
assert feed.tag == atom + "feed", feed.tag
for field in ("id", "title", "updated"):
    assert (feed.findtext(atom + field) or "").strip(), f"the feed has no {field}"
assert feed.find(atom + "author/" + atom + "name") is not None, "the feed has no author"
entries = feed.findall(atom + "entry")
assert len(entries) == int(sys.argv[2]), f"{len(entries)} entries, not {sys.argv[2]}"
print(feed.findtext(atom + "id"))
for entry in entries:
    for field in ("id", "title", "updated"):
        assert (entry.findtext(atom + field) or "").strip(), f"an entry has no {field}"
    assert entry.find(atom + "link").get("href").startswith("series-"), "entry link"
    print(entry.findtext(atom + "id"), entry.findtext(atom + "title"))
PY
}

publish
grep -q "3 series, $open_count open regression(s), 7 files in" "$tmp/publish.err" || fail "publish said: $(cat "$tmp/publish.err")"
[ "$(ls -A "$tmp/site" | wc -l)" -eq 7 ] && [ -f "$tmp/site/.iobench-site" ] ||
  fail "the site's files: $(ls -A "$tmp/site")"
[ "$(ls "$tmp/site" | grep -c '^series-[0-9a-f]\{16\}\.html$')" -eq 3 ] ||
  fail "series pages not named by their hash: $(ls "$tmp/site")"
feed_ids "$open_count" >"$tmp/feed1.txt" || fail "feed.atom (above)"
grep -q "^urn:iobench:change:[0-9a-f]\{16\}@[0-9a-f]\{32\} regression $change tunable (" "$tmp/feed1.txt" ||
  fail "the feed's entry: $(cat "$tmp/feed1.txt")"
grep -q "$change" "$tmp/site/regressions.html" || fail "regressions.html does not name $change"
python3 "$src/tests/e2e/site_cdp.py" "$chromium" "$tmp/site" --tests "$tmp/tests.txt" \
  --points tunable=20 --points steady=20 >"$tmp/cdp.out" || { cat "$tmp/cdp.out"; fail "the site in Chromium (above)"; }

# What people look at, with the regression open: the index and the slower series' page, desktop
# and phone width.
shots=${IOBENCH_PUBLISH_SCREENSHOTS:-$tmp/shots}
mkdir -p "$shots"
tunable_page=$(grep -o 'href="series-[0-9a-f]*\.html">tunable<' "$tmp/site/index.html" | cut -d'"' -f2)
[ -n "$tunable_page" ] || fail "no link to tunable's page in the index"
for page in index:index.html series:$tunable_page regressions:regressions.html; do
  for size in desktop:1280,1000 phone:390,1400; do
    out="$shots/${page%%:*}-${size%%:*}.png"
    timeout 120 "${browser[@]}" --screenshot="$out" --window-size="${size#*:}" \
      "file://$tmp/site/${page#*:}" >/dev/null 2>"$tmp/shot.err" || fail "screenshot $out: $(tail -1 "$tmp/shot.err")"
    [ -s "$out" ] || fail "no screenshot $out"
  done
done

# Published again over itself: the same ids, so a feed reader shows nothing new.
publish
feed_ids "$open_count" >"$tmp/feed2.txt" || fail "feed.atom, second publish (above)"
cmp -s "$tmp/feed1.txt" "$tmp/feed2.txt" || fail "the feed's ids changed: $(cat "$tmp/feed1.txt" "$tmp/feed2.txt")"

# Acknowledged, each: no open regression, the reason on the series' page.
for id in $(awk '/^regression/ {print $2}' "$tmp/check.out"); do
  "$iobench" history ack "$id" --why "tunable sleeps <longer> now" --by e2e --history="$store" 2>/dev/null ||
    fail "history ack $id exited $?"
done
publish
feed_ids 0 >"$tmp/feed3.txt" || fail "feed.atom after the ack (above)"
[ "$(head -1 "$tmp/feed3.txt")" = "$(head -1 "$tmp/feed1.txt")" ] || fail "the feed's own id changed"
grep -q 'id="none-open"' "$tmp/site/regressions.html" || fail "regressions.html still lists one"
grep -lq 'tunable sleeps &lt;longer&gt; now' "$tmp"/site/series-*.html || fail "the ack's reason is on no series page"

echo "history_publish: ok ($(grep -c '' "$tmp/cdp.out") pages in Chromium; screenshots in $shots)"
