#pragma once
// bench's -u/--time-unit, as hyperfine means it (docs/bench.md): the unit of the times bench
// prints and of its Markdown, AsciiDoc and org-mode exports (CSV and JSON are always seconds).
#include <string>
#include <string_view>

namespace iobench::report {

enum class TimeUnit { kAuto, kSecond, kMillisecond, kMicrosecond };

// "second", "millisecond", "microsecond"; empty: kAuto. Throws iobench::Error (exit 2) otherwise.
TimeUnit parse_time_unit(std::string_view name);

// A time in the unit: "0.012 s" (3 decimals), "12.3 ms" and "12.3 µs" (1 decimal), as hyperfine
// writes them; kAuto: format_seconds's three or four significant digits ("12.35 ms"); "-" for
// NaN (no run).
std::string format_time(double seconds, TimeUnit unit);

// The unit hyperfine picks for a time without -u: milliseconds below a second, else seconds.
TimeUnit fitting_unit(double seconds);

// The unit's short name, "s", "ms", "µs"; for kAuto, fitting_unit(seconds)'s.
std::string_view unit_name(TimeUnit unit, double seconds = 0);
// The figure alone, in the unit (kAuto as unit_name picks it), with hyperfine's decimals.
std::string format_in_unit(double seconds, TimeUnit unit);

}  // namespace iobench::report
