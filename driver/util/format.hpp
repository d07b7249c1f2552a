#pragma once
// How the driver writes figures for people (progress line, tables, warnings, charts): one set of
// rules for each kind of figure, so a time reads the same wherever it is shown.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace iobench::util {

// "1:05", "12:03:09": a wall-clock duration (rounded to the second), for the progress line.
std::string format_duration(double seconds);

// A measured time with three or four significant digits and its unit: "123.4 s", "1.234 s",
// "12.35 ms", "999 µs"; "-" for NaN.
std::string format_seconds(double seconds);

// A size given in KiB (max RSS), in MiB with one decimal: "1.8 MiB"; "-" for NaN.
std::string format_kib(double kib);

// Columns a UTF-8 text takes on a terminal: code points, not bytes ("µs" is 2).
std::size_t display_width(std::string_view text);

// A time over the reference's as people say it (hyperfine's style): "133× faster",
// "1.36× slower", "1.00×" for the same time; "" for NaN or a ratio <= 0. The figure has three
// significant digits at most ("1.36", "13.6", "133").
std::string format_relative(double ratio);
// Just the factor of format_relative, without a direction: "1.36", "13.6", "133".
std::string format_factor(double factor);

// "test (input, sink, host)": the first value (or "(no COLUMN)" when it is empty), the others in
// parentheses, empty ones left out; "all runs" when there is no value at all.
std::string format_group_label(std::span<const std::string> values, std::string_view first_column);

// "4,990": counts of groups and rows at 10,000 and beyond read at a glance.
std::string with_thousands(std::size_t n);

}  // namespace iobench::util
