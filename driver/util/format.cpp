#include "driver/util/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace iobench::util {

std::string format_duration(double seconds) {
  const long long total = std::llround(seconds);
  if (total >= 3600)
    return fmt::format("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60);
  return fmt::format("{}:{:02}", total / 60, total % 60);
}

std::string format_seconds(double seconds) {
  if (std::isnan(seconds)) return "-";
  if (seconds >= 100) return fmt::format("{:.1f} s", seconds);
  if (seconds >= 1) return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.2f} ms", seconds * 1e3);
  return fmt::format("{:.0f} µs", seconds * 1e6);
}

std::string format_kib(double kib) {
  if (std::isnan(kib)) return "-";
  return fmt::format("{:.1f} MiB", kib / 1024);
}

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string format_factor(double factor) {
  if (factor >= 99.95) return fmt::format("{:.0f}", factor);
  if (factor >= 9.995) return fmt::format("{:.1f}", factor);
  return fmt::format("{:.2f}", factor);
}

std::string format_relative(double ratio) {
  if (!(ratio > 0) || !std::isfinite(ratio)) return "";
  // The factor is rounded as it is shown, so 0.9999 (1.00× faster) reads as the same time.
  const double factor = ratio < 1 ? 1 / ratio : ratio;
  const std::string shown = format_factor(factor);
  if (shown == "1.00") return "1.00×";
  return fmt::format("{}× {}", shown, ratio < 1 ? "faster" : "slower");
}

std::string format_group_label(std::span<const std::string> values, std::string_view first_column) {
  if (values.empty()) return "all runs";
  std::string label =
      values[0].empty() ? fmt::format("(no {})", first_column) : std::string(values[0]);
  std::vector<std::string_view> rest;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (!values[i].empty()) rest.push_back(values[i]);
  }
  if (!rest.empty()) label += fmt::format(" ({})", fmt::join(rest, ", "));
  return label;
}

std::string with_thousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace iobench::util
