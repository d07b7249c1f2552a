#include "driver/report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "driver/util/format.hpp"

namespace iobench::report::svg {

double text_width(std::string_view text, double font) {
  return static_cast<double>(util::display_width(text)) * font * kCharWidth;
}

// What kCharWidth measures: monospace fonts, the common ones first.
constexpr const char* kFontFamily = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace";
constexpr const char* kTextColor = "#222222";

std::string document(double width_px, double height_px, const std::string& body) {
  return fmt::format(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" font-family="{2}" fill="{3}">
<rect width="100%" height="100%" fill="#ffffff"/>
{4}</svg>
)",
      width_px, height_px, kFontFamily, kTextColor, body);
}

// Shortens to `max_chars` code points with an ellipsis in the middle (test names differ at both
// ends: "readInBufOut-64KiB").
std::string shorten(const std::string& text, std::size_t max_chars) {
  std::vector<std::size_t> starts;  // byte offset of each code point
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  if (starts.size() <= max_chars) return text;
  const std::size_t head = (max_chars - 1) / 2;
  const std::size_t tail = max_chars - 1 - head;
  return text.substr(0, starts[head]) + "…" + text.substr(starts[starts.size() - tail]);
}

// Decimals that show three significant digits of `smallest` (in display units), 0 to 4.
int decimals_for(double smallest) {
  if (!(smallest > 0)) return 2;
  return std::clamp(2 - static_cast<int>(std::floor(std::log10(smallest))), 0, 4);
}

// A 1-2-5 step with at most `max_ticks` intervals over [0, top].
double nice_step(double top, int max_ticks) {
  if (!(top > 0)) return 1;
  const double raw = top / max_ticks;
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  for (double f : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (f * magnitude >= raw * (1 - 1e-9)) return f * magnitude;
  }
  return 10 * magnitude;
}

std::string tick_label(double value, double step, const Unit& unit) {
  const double v = value / unit.divisor;
  const double s = step / unit.divisor;
  // The fewest decimals in which the step is a whole number of units of the last digit; steps
  // are 1, 2, 2.5 or 5 times a power of ten, so at most one more than the power's.
  int decimals = 0;
  while (decimals < 6) {
    const double scaled = s * std::pow(10, decimals);
    if (std::abs(scaled - std::round(scaled)) <= 1e-6 * scaled) break;
    ++decimals;
  }
  return fmt::format("{:.{}f} {}", v, decimals, unit.name);
}

// Counts in thousands, millions or billions, by the axis' basis.
Unit count_unit(double basis) {
  if (basis >= 1e9) return {1e9, "G"};
  if (basis >= 1e6) return {1e6, "M"};
  if (basis >= 1e3) return {1e3, "k"};
  return {1, ""};
}

std::string star(double cx, double cy, double r, std::string_view fill) {
  std::string points;
  for (int i = 0; i < 10; ++i) {
    const double angle = -M_PI / 2 + i * M_PI / 5;
    const double rr = i % 2 == 0 ? r : r * 0.45;
    points += fmt::format("{:.1f},{:.1f} ", cx + rr * std::cos(angle), cy + rr * std::sin(angle));
  }
  return fmt::format(R"(<polygon points="{}" fill="{}" stroke="#2f7d32" stroke-width="0.8"/>)",
                     points, fill);
}

}  // namespace iobench::report::svg
