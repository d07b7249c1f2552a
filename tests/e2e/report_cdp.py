#!/usr/bin/env python3
"""Opens an `iobench report` page in headless Chromium and checks it as a reader would.

Usage: report_cdp.py CHROMIUM PAGE.html [--tests FILE] [--points N] [--sort-table N]
                     [--timing-only] [--json OUT]

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on its
fd 3, replies and events on its fd 4, each a JSON text ended by a NUL byte), so only the Python
standard library is needed. The checks (docs/reports.md, "The HTML report"):

- the page loads with no console error, no uncaught exception, no CSP violation, no dialog;
- the only request is the page itself (file://): nothing from the network;
- every test named in --tests (one a line) is a row of the DOM (data-test), and there is exactly
  one <script>: a test named <script>alert(1)</script> stays text;
- the charts have --points run dots (circle.run);
- sorting: a times table's (the --sort-table'th; the answer's ranking comes before them) "test"
  header orders its rows by name, a second click reverses them, and the "median" header orders
  them by the number (descending on a second click);
- hiding: a row's "hide" button hides that test's rows and chart rows, "show all" shows them again.

Prints one line of figures (load time in ms, DOM nodes, points) and exits 1 naming each failed
check. --timing-only measures the load and checks nothing else (scripts/bench-report).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chromium, profile):
        self.cmd_r, self.cmd_w = os.pipe()  # ours -> chromium's fd 3
        self.res_r, self.res_w = os.pipe()  # chromium's fd 4 -> ours

        def give_fds():  # in the child: the pipe ends become fds 3 and 4 (inherited, not CLOEXEC)
            a, b = os.dup(self.cmd_r), os.dup(self.res_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update",
                "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=give_fds, close_fds=False,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(profile, "chromium.log"), "wb"))
        os.close(self.cmd_r)
        os.close(self.res_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.res_r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe (see chromium.log in the profile)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.cmd_w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout=30):
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def open_tab(self):
        """A new blank tab that reports its console, log and network events; its session id."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=session)
        return session

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:  # it may be gone already; the kill below ends it either way
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def evaluate(browser, session, expression):
    result = browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": True}, session)
    if "exceptionDetails" in result:
        raise RuntimeError(f"{expression[:60]}...: {result['exceptionDetails']}")
    return result["result"].get("value")


# Sorting and hiding as a reader does it: clicks on the buttons the page's script made.
SORT_CHECK = r"""
(() => {
  const table = document.querySelectorAll("table.sortable.times")[%d];
  const heads = Array.from(table.tHead.rows[0].cells);
  const column = name => heads.findIndex(th => th.textContent.trim().startsWith(name));
  const names = () => Array.from(table.tBodies[0].rows, r => r.getAttribute("data-test"));
  const values = c => Array.from(table.tBodies[0].rows, r => r.cells[c].getAttribute("data-v"));
  const click = c => heads[c].querySelector("button.sort").click();
  const before = names();
  const t = column("test"), m = column("median");
  click(t);
  const byName = names();
  click(t);
  const byNameDown = names();
  click(m);
  const medianUp = values(m);
  click(m);
  const medianDown = values(m);
  const expectedByName = before.slice().sort((a, b) => a.localeCompare(b));
  return {before, byName, byNameDown, medianUp, medianDown, expectedByName};
})()
"""

HIDE_CHECK = r"""
(() => {
  const row = document.querySelector("table.sortable.times tbody tr[data-test]");
  const test = row.getAttribute("data-test");
  const shown = () => Array.from(document.querySelectorAll("[data-test]"))
      .filter(e => e.tagName !== "INPUT" && e.getAttribute("data-test") === test)
      .filter(e => getComputedStyle(e).display !== "none").length;
  const all = shown();
  row.querySelector("button.hide").click();
  const hidden = shown();
  document.getElementById("show-all").click();
  return {test, all, hidden, again: shown()};
})()
"""

FIGURES = r"""
(() => ({
  tests: Array.from(new Set(Array.from(document.querySelectorAll("tr[data-test]"),
                                       r => r.getAttribute("data-test")))),
  points: document.querySelectorAll("svg circle.run").length,
  scripts: document.scripts.length,
  nodes: document.getElementsByTagName("*").length,
  load_ms: performance.getEntriesByType("navigation")[0].loadEventEnd,
}))()
"""


def collect_problems(events):
    problems = []
    for e in events:
        method, params = e.get("method"), e.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            problems.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                   for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            problems.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:300])
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            problems.append("log: " + params["entry"].get("text", ""))
        elif method == "Page.javascriptDialogOpening":
            problems.append("dialog: " + params.get("message", ""))
    return problems


def check(args, figures, sorting, hiding, requests, problems, page_url):
    failures = list(problems)
    others = [u for u in requests if u != page_url]
    if others:
        failures.append(f"requests beyond the page itself: {others}")
    if figures["scripts"] != 1:
        failures.append(f"{figures['scripts']} scripts in the DOM, not 1 (markup let through?)")
    if args.tests:
        with open(args.tests, encoding="utf-8") as f:
            expected = [line.rstrip("\n") for line in f if line.strip()]
        missing = [t for t in expected if t not in figures["tests"]]
        if missing:
            failures.append(f"tests not in the DOM: {missing}")
    if args.points is not None and figures["points"] != args.points:
        failures.append(f"{figures['points']} run dots in the charts, not {args.points}")
    if sorting["byName"] != sorting["expectedByName"]:
        failures.append(f"sorting by test: {sorting['byName']}")
    if sorting["byNameDown"] != list(reversed(sorting["byName"])):
        failures.append(f"sorting by test again did not reverse: {sorting['byNameDown']}")
    if sorting["byName"] == sorting["before"] and sorting["byNameDown"] == sorting["before"]:
        failures.append("sorting by test left the rows as they were both ways")
    up = [float(v) for v in sorting["medianUp"] if v != ""]
    down = [float(v) for v in sorting["medianDown"] if v != ""]
    if up != sorted(up) or down != sorted(down, reverse=True):
        failures.append(f"sorting by median: {sorting['medianUp']} then {sorting['medianDown']}")
    if not (hiding["all"] > 0 and hiding["hidden"] == 0 and hiding["again"] == hiding["all"]):
        failures.append(f"hiding {hiding['test']}: shown {hiding['all']}, after hide "
                        f"{hiding['hidden']}, after show all {hiding['again']}")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("chromium")
    parser.add_argument("page")
    parser.add_argument("--tests")
    parser.add_argument("--points", type=int)
    parser.add_argument("--sort-table", type=int, default=0)
    parser.add_argument("--timing-only", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()
    page_url = "file://" + os.path.abspath(args.page)
    with tempfile.TemporaryDirectory(prefix="iobench-cdp-") as profile:
        browser = Browser(args.chromium, profile)
        try:
            session = browser.open_tab()
            started = time.monotonic()
            browser.call("Page.navigate", {"url": page_url}, session)
            browser.wait_for("Page.loadEventFired", timeout=60)
            wall_ms = (time.monotonic() - started) * 1000
            figures = evaluate(browser, session, FIGURES)
            figures["wall_ms"] = round(wall_ms, 1)
            sorting = hiding = None
            if not args.timing_only:
                sorting = evaluate(browser, session, SORT_CHECK % args.sort_table)
                hiding = evaluate(browser, session, HIDE_CHECK)
            time.sleep(0.2)  # late console messages
            evaluate(browser, session, "0")
        finally:
            browser.close()
    requests = [e["params"]["request"]["url"] for e in browser.events
                if e.get("method") == "Network.requestWillBeSent"]
    problems = collect_problems(browser.events)
    summary = {"page": args.page, "bytes": os.path.getsize(args.page),
               "load_ms": round(figures["load_ms"], 1), "wall_ms": figures["wall_ms"],
               "nodes": figures["nodes"], "points": figures["points"],
               "tests": len(figures["tests"]), "requests": requests, "problems": problems}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    print(f"loaded in {summary['load_ms']} ms (navigation to load event; {summary['wall_ms']} ms "
          f"wall), {summary['bytes']} bytes, {summary['nodes']} elements, {summary['tests']} "
          f"tests, {summary['points']} run dots, {len(requests)} request(s)")
    if args.timing_only:
        return 0
    failures = check(args, figures, sorting, hiding, requests, problems, page_url)
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
