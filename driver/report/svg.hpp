#pragma once
// SVG building blocks for `iobench plot`: monospace text measure, shortening, axis
// ticks and units, the document around a chart, and a body writer that records each text's box for
// the overlap check.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "driver/report/plot.hpp"
#include "driver/util/text.hpp"

namespace iobench::report::svg {

// Text is monospace: a character is 0.6 em wide (DejaVu Sans Mono 0.602, Consolas 0.55, Menlo
// 0.602); 0.62 leaves a margin.
inline constexpr double kCharWidth = 0.62;

double text_width(std::string_view text, double font);
// Shortens to `max_chars` code points with an ellipsis in the middle (test names differ at both
// ends: "readInBufOut-64KiB").
std::string shorten(const std::string& text, std::size_t max_chars);

struct Unit {
  double divisor;
  const char* name;
};
// Decimals that show three significant digits of `smallest` (in display units), 0 to 4.
int decimals_for(double smallest);
// A 1-2-2.5-5 step (times a power of ten) with at most `max_ticks` intervals over [0, top].
double nice_step(double top, int max_ticks);
// The label of the tick at `value`, with as many decimals as the step needs to be written
// exactly (a 2.5 ms step: 0.0, 2.5, 5.0, 7.5 ms), so that no two labels round alike.
std::string tick_label(double value, double step, const Unit& unit);
// Counts in thousands, millions or billions, by the axis' basis.
Unit count_unit(double basis);
// A whole SVG document around `body`: the XML declaration, a root `width_px` × `height_px` (whole
// pixels) in the monospace fonts the text measure assumes, dark text on a white background.
std::string document(double width_px, double height_px, const std::string& body);
// A five-pointed star polygon centred on (cx, cy).
std::string star(double cx, double cy, double r, std::string_view fill);

class Svg {
 public:
  void text(double x, double y, std::string_view anchor, double font, std::string_view content,
            std::string_view style = {}, std::string_view tooltip = {}) {
    const double w = text_width(content, font);
    const double x0 = anchor == "end" ? x - w : anchor == "middle" ? x - w / 2 : x;
    // y is the baseline: ascent about 0.8 em above it, descent 0.2 em below.
    boxes_.push_back(Box{x0, y - 0.8 * font, x0 + w, y + 0.2 * font, std::string(content)});
    body_ += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="{}" text-anchor="{}"{}>)", x, y,
                         font, anchor, style.empty() ? "" : fmt::format(" {}", style));
    if (!tooltip.empty()) body_ += fmt::format("<title>{}</title>", util::escape_markup(tooltip));
    body_ += util::escape_markup(content) + "</text>\n";
  }
  void raw(const std::string& element) { body_ += element + "\n"; }
  [[nodiscard]] const std::string& body() const { return body_; }
  std::vector<Box>& boxes() { return boxes_; }

 private:
  std::string body_;
  std::vector<Box> boxes_;
};

}  // namespace iobench::report::svg
