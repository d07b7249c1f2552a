#!/usr/bin/env python3
"""Opens every page of an `iobench history publish` site in headless Chromium and checks it.

Usage: site_cdp.py CHROMIUM SITE_DIR --tests FILE [--points TEST=N]...

Drives Chromium over the DevTools pipe as report_cdp.py does (its Browser, evaluate and
collect_problems). The checks (docs/reports.md, "The history site"):

- index.html, regressions.html and every series page the index links to load with no console
  error, no uncaught exception, no CSP violation, and request nothing but themselves;
- the index has one row per series, each linking to a page that exists, and every test named in
  --tests (one a line) is the name of a row;
- each page has exactly one <script> (names with markup stay text);
- --points TEST=N: the page of the series of TEST draws N row points in its trend chart.

Prints one line per page and exits 1 naming each failed check.
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_cdp import Browser, collect_problems, evaluate  # noqa: E402

FIGURES = r"""
(() => ({
  rows: Array.from(document.querySelectorAll("table.series tbody tr"), r => ({
    test: r.cells[0].querySelector("a").textContent,
    href: r.cells[0].querySelector("a").getAttribute("href"),
  })),
  points: document.querySelectorAll("figure.trend svg circle").length,
  sparklines: document.querySelectorAll("svg.spark").length,
  scripts: document.scripts.length,
  title: document.title,
}))()
"""


def open_page(browser, session, path):
    """Loads one page; returns its figures, the URLs it requested and the problems it logged."""
    browser.events.clear()
    url = "file://" + os.path.abspath(path)
    browser.call("Page.navigate", {"url": url}, session)
    browser.wait_for("Page.loadEventFired", timeout=60)
    figures = evaluate(browser, session, FIGURES)
    time.sleep(0.1)  # late console messages
    evaluate(browser, session, "0")
    requests = [e["params"]["request"]["url"] for e in browser.events
                if e.get("method") == "Network.requestWillBeSent"]
    return figures, [u for u in requests if u != url], collect_problems(browser.events)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("chromium")
    parser.add_argument("site")
    parser.add_argument("--tests", required=True)
    parser.add_argument("--points", action="append", default=[])
    args = parser.parse_args()
    with open(args.tests, encoding="utf-8") as f:
        expected_tests = [line.rstrip("\n") for line in f if line.strip()]
    expected_points = {p.rsplit("=", 1)[0]: int(p.rsplit("=", 1)[1]) for p in args.points}
    failures = []
    with tempfile.TemporaryDirectory(prefix="iobench-site-cdp-") as profile:
        browser = Browser(args.chromium, profile)
        try:
            session = browser.open_tab()
            index, _, _ = open_page(browser, session, os.path.join(args.site, "index.html"))
            pages = ["index.html", "regressions.html"] + [r["href"] for r in index["rows"]]
            page_points = {r["href"]: expected_points[r["test"]] for r in index["rows"]
                           if r["test"] in expected_points}
            if len(index["rows"]) != len(expected_tests):
                failures.append(f"index: {len(index['rows'])} series, not {len(expected_tests)}")
            missing = [t for t in expected_tests if t not in [r["test"] for r in index["rows"]]]
            if missing:
                failures.append(f"index: tests not listed: {missing}")
            if index["sparklines"] != len(index["rows"]):
                failures.append(f"index: {index['sparklines']} sparklines for "
                                f"{len(index['rows'])} series")
            for page in pages:
                path = os.path.join(args.site, page)
                if "/" in page or not os.path.isfile(path):
                    failures.append(f"{page}: linked from the index, not a file of the site")
                    continue
                figures, requests, problems = open_page(browser, session, path)
                failures += [f"{page}: {p}" for p in problems]
                if requests:
                    failures.append(f"{page}: requests beyond the page itself: {requests}")
                if figures["scripts"] != 1:
                    failures.append(f"{page}: {figures['scripts']} scripts, not 1")
                if page in page_points and figures["points"] != page_points[page]:
                    failures.append(f"{page}: {figures['points']} points in the trend chart, not "
                                    f"{page_points[page]}")
                print(f"{page}: {figures['title']!r}, {figures['points']} points, "
                      f"{len(requests)} other request(s), {len(problems)} problem(s)")
        finally:
            browser.close()
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
