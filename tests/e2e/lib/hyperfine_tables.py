#!/usr/bin/env python3
"""Parses hyperfine's CSV, Markdown, AsciiDoc and org-mode exports by their layout.

Usage: hyperfine_tables.py csv|markdown|asciidoc|orgmode FILE -- prints the table's rows, header
first, one per line with its cells joined by a tab; exit 1 and one line when the file is not laid
out as hyperfine 1.15 writes that format (src/hyperfine/export/*.rs): Markdown's
`|:---|---:|...` rule under the header, org-mode's `|--+--...|`, AsciiDoc's `[cols=...]` and
`|===` around one cell a line with a blank line between rows, CSV by RFC 4180 with hyperfine's
first eight columns.
"""
import csv
import re
import sys


def fail(message):
    print(f"hyperfine_tables: {message}", file=sys.stderr)
    sys.exit(1)


def pipe_cells(line):
    """The cells of a `| a | b |` row; a backslash-escaped `\\|` stays inside its cell."""
    if not (line.startswith("|") and line.rstrip().endswith("|")):
        fail(f"not a table row: {line!r}")
    cells = re.split(r"(?<!\\)\|", line.rstrip()[1:-1])
    return [cell.strip().replace("\\|", "|") for cell in cells]


def markdown(lines):
    if len(lines) < 3 or lines[1] != "|:---|" + "---:|" * (len(pipe_cells(lines[0])) - 1):
        fail("no Markdown rule |:---|---:|... under the header")
    return [pipe_cells(lines[0])] + [pipe_cells(line) for line in lines[2:]]


def orgmode(lines):
    if len(lines) < 3 or not re.fullmatch(r"\|--(\+--)*\|", lines[1]):
        fail("no org-mode rule |--+--...| under the header")
    return [pipe_cells(lines[0])] + [pipe_cells(line) for line in lines[2:]]


def asciidoc(lines):
    if len(lines) < 3 or not lines[0].startswith("[cols=") or lines[1] != "|===" or lines[-1] != "|===":
        fail("not [cols=...] then |=== ... |===")
    rows, row = [], []
    for line in lines[2:-1]:
        if line == "":
            rows.append(row)
            row = []
        elif line.startswith("| "):
            row.append(line[2:].strip())
        else:
            fail(f"not a cell: {line!r}")
    rows.append(row)
    if any(len(r) != len(rows[0]) for r in rows):
        fail("rows of different widths")
    return rows


def comma_separated(text):
    rows = list(csv.reader(text.splitlines()))
    expected = ["command", "mean", "stddev", "median", "user", "system", "min", "max"]
    if not rows or rows[0][:8] != expected:
        fail(f"CSV header does not start with {','.join(expected)}")
    for row in rows[1:]:
        if len(row) != len(rows[0]):
            fail(f"a CSV row of {len(row)} fields under {len(rows[0])} columns")
        for value in row[1:8]:
            float(value)  # a ValueError ends the script: not a number
    return rows


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("csv", "markdown", "asciidoc", "orgmode"):
        fail("usage: hyperfine_tables.py csv|markdown|asciidoc|orgmode FILE")
    with open(sys.argv[2], encoding="utf-8") as f:
        text = f.read()
    lines = text.rstrip("\n").split("\n")
    parse = {"markdown": markdown, "orgmode": orgmode, "asciidoc": asciidoc}
    rows = comma_separated(text) if sys.argv[1] == "csv" else parse[sys.argv[1]](lines)
    for row in rows:
        print("\t".join(row))


if __name__ == "__main__":
    main()
