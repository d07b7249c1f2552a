#!/usr/bin/env python3
"""Reads a JSON export as hyperfine documents it, and as its own scripts read it.

hyperfine's schema (src/benchmark/benchmark_result.rs): {"results": [...]}, each result with
command (string), mean, median, user, system, min, max (numbers, seconds), stddev (a number, or
null after one run), times (the runs' wall times), exit_codes (one integer, or null, per run),
and optionally parameters (string -> string) and memory_usage_byte (integers). Its scripts read
exactly these: plot_whisker.py and advanced_statistics.py `command` and `times`, welch_ttest.py
the first two results' `times`.

Usage: hyperfine_json.py FILE  -- exit 0 and one line per result with what those scripts compute
(mean, sample standard deviation, median, P05..P95, IQR; Welch's t for the first two), or exit 1
and one line naming what does not fit the schema. Extra keys (iobench's) are ignored, as those
scripts ignore them.
"""
import json
import math
import statistics
import sys


def fail(message):
    print(f"hyperfine_json: {message}", file=sys.stderr)
    sys.exit(1)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def percentile(sorted_values, pct):
    """numpy.percentile's default (linear) interpolation."""
    position = (len(sorted_values) - 1) * pct / 100
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def check_result(i, result):
    where = f"results[{i}]"
    if not isinstance(result, dict):
        fail(f"{where}: not an object")
    if not isinstance(result.get("command"), str):
        fail(f"{where}.command: not a string")
    for key in ("mean", "median", "user", "system", "min", "max"):
        if not is_number(result.get(key)):
            fail(f"{where}.{key}: not a number")
    if result.get("stddev") is not None and not is_number(result["stddev"]):
        fail(f"{where}.stddev: neither a number nor null")
    times = result.get("times")
    if not isinstance(times, list) or not times or not all(is_number(t) for t in times):
        fail(f"{where}.times: not a non-empty list of numbers")
    codes = result.get("exit_codes")
    if not isinstance(codes, list) or len(codes) != len(times):
        fail(f"{where}.exit_codes: not one per time")
    if not all(c is None or (isinstance(c, int) and not isinstance(c, bool)) for c in codes):
        fail(f"{where}.exit_codes: not integers or null")
    parameters = result.get("parameters", {})
    if not isinstance(parameters, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in parameters.items()):
        fail(f"{where}.parameters: not an object of strings")
    memory = result.get("memory_usage_byte", [])
    if not isinstance(memory, list) or not all(isinstance(m, int) for m in memory):
        fail(f"{where}.memory_usage_byte: not a list of integers")
    # The summary fields are the times' own, as hyperfine computes them.
    if not math.isclose(result["mean"], statistics.fmean(times), rel_tol=1e-9, abs_tol=1e-12):
        fail(f"{where}.mean: {result['mean']} is not the mean of its times")
    if not math.isclose(result["median"], statistics.median(times), rel_tol=1e-9, abs_tol=1e-12):
        fail(f"{where}.median: {result['median']} is not the median of its times")
    if result["min"] != min(times) or result["max"] != max(times):
        fail(f"{where}.min/max: not those of its times")
    return times


def main():
    if len(sys.argv) != 2:
        fail("usage: hyperfine_json.py FILE")
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{sys.argv[1]}: {e}")
    results = document.get("results") if isinstance(document, dict) else None
    if not isinstance(results, list) or not results:
        fail("results: not a non-empty list")
    samples = []
    for i, result in enumerate(results):
        times = check_result(i, result)
        samples.append(times)
        ordered = sorted(times)
        stdev = statistics.stdev(times) if len(times) > 1 else float("nan")
        print(f"{result['command']}: n {len(times)} mean {statistics.fmean(times):.6f} s "
              f"stddev {stdev:.6f} s median {statistics.median(times):.6f} s "
              f"P05..P95 {percentile(ordered, 5):.6f}..{percentile(ordered, 95):.6f} s "
              f"IQR {percentile(ordered, 75) - percentile(ordered, 25):.6f} s")
    if len(samples) >= 2 and len(samples[0]) > 1 and len(samples[1]) > 1:
        a, b = samples[0], samples[1]
        va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
        t = (statistics.fmean(a) - statistics.fmean(b)) / math.sqrt(va + vb) if va + vb > 0 else 0
        print(f"welch t = {t:.3f}")


if __name__ == "__main__":
    main()
