#include "driver/report/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/report/stats.hpp"
#include "driver/util/format.hpp"

namespace iobench::plot {
namespace {

using results::Metric;

// Layout, in pixels. Text is monospace: a character is 0.6 em wide (DejaVu Sans Mono 0.602,
// Consolas 0.55, Menlo 0.602); 0.62 leaves a margin.
constexpr double kCharWidth = 0.62;
constexpr double kFont = 12;  // labels, ticks, values
constexpr double kTitleFont = 16;
constexpr double kSectionFont = 13;
constexpr double kRowHeight = 26;
constexpr double kBarHeight = 14;
constexpr double kStripHeight = 5;
constexpr double kMargin = 16;
constexpr double kGap = 12;  // between the label column, the plot and the value column
constexpr std::size_t kMaxLabelChars = 40;
constexpr double kLogRange = 30;  // slowest / fastest median above which the axis is logarithmic

constexpr const char* kFontFamily = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace";
constexpr const char* kBarColor = "#a6bddb";
constexpr const char* kFastestColor = "#74c476";
constexpr const char* kUserColor = "#08519c";
constexpr const char* kSystemColor = "#e6550d";
constexpr const char* kWhiskerColor = "#333333";
constexpr const char* kGridColor = "#e3e3e3";
constexpr const char* kTextColor = "#222222";
constexpr const char* kMutedColor = "#666666";

double text_width(std::string_view text, double font) {
  const auto chars =
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; });
  return static_cast<double>(chars) * font * kCharWidth;
}

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
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

struct Unit {
  double divisor;
  const char* name;
};

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
  const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(s) - 1e-9)));
  return fmt::format("{:.{}f} {}", v, std::min(decimals, 6), unit.name);
}

// Counts in thousands, millions or billions, by the axis' basis.
Unit count_unit(double basis) {
  if (basis >= 1e9) return {1e9, "G"};
  if (basis >= 1e6) return {1e6, "M"};
  if (basis >= 1e3) return {1e3, "k"};
  return {1, ""};
}

std::string format_value(double v, Metric metric) {
  if (metric == Metric::kMem) return format_kib(v);
  if (is_counter(metric)) return fmt::format("{:.0f}", v);
  return format_seconds(v);
}

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
    if (!tooltip.empty()) body_ += fmt::format("<title>{}</title>", escape(tooltip));
    body_ += escape(content) + "</text>\n";
  }
  void raw(const std::string& element) { body_ += element + "\n"; }
  [[nodiscard]] const std::string& body() const { return body_; }
  std::vector<Box>& boxes() { return boxes_; }

 private:
  std::string body_;
  std::vector<Box> boxes_;
};

std::string star(double cx, double cy, double r) {
  std::string points;
  for (int i = 0; i < 10; ++i) {
    const double angle = -M_PI / 2 + i * M_PI / 5;
    const double rr = i % 2 == 0 ? r : r * 0.45;
    points += fmt::format("{:.1f},{:.1f} ", cx + rr * std::cos(angle), cy + rr * std::sin(angle));
  }
  return fmt::format(R"(<polygon points="{}" fill="{}" stroke="#2f7d32" stroke-width="0.8"/>)",
                     points, kFastestColor);
}

struct Row {
  const results::Group* group;
  std::string label;
  stats::Summary value;
  double user_median = 0;
  double system_median = 0;
  bool fastest = false;
  std::optional<double> relative;
};

struct Section {
  std::string title;
  std::vector<Row> rows;
  double top = 0;          // largest value drawn
  double bottom = 0;       // smallest positive value drawn (the log axis starts below it)
  bool log_scale = false;  // medians span more than kLogRange: a log axis keeps them readable
  double divisor = 1;
  const char* unit = "s";
  int value_decimals = 3;
  std::vector<std::string> values;     // median, in the section's unit
  std::vector<std::string> relatives;  // "1.43×", "fastest"
  std::vector<std::string> notes;      // "1 failed"
};

}  // namespace

Chart render(const results::RunSet& set, const Options& options) {
  if (options.metric != Metric::kElapsed && options.metric != Metric::kMem &&
      !is_counter(options.metric)) {
    throw Error("--metric: plot draws elapsed, mem or a counter column (syscalls, ...)");
  }
  const bool mem = options.metric == Metric::kMem;
  const bool time = options.metric == Metric::kElapsed;  // with the user + system strip
  const std::size_t test_key = set.key_index("test");
  const std::size_t input_key = set.key_index("input");
  const std::size_t sink_key = set.key_index("sink");
  if (test_key == std::string_view::npos) throw Error("plot: the runs have no test column");

  // Sections by input and sink, in order of first appearance; rows fastest first.
  std::vector<Section> sections;
  std::map<std::pair<std::string, std::string>, std::size_t> section_index;
  for (const auto& g : set.groups) {
    const std::string input = input_key != std::string_view::npos ? g.key[input_key] : "";
    const std::string sink = sink_key != std::string_view::npos ? g.key[sink_key] : "";
    auto [it, inserted] = section_index.emplace(std::make_pair(input, sink), sections.size());
    if (inserted) {
      std::string title;
      if (!input.empty()) title += "input " + input;
      if (!sink.empty()) title += (title.empty() ? "sink " : " · sink ") + sink;
      Section section;
      section.title = title.empty() ? "(no input or sink column)" : title;
      sections.push_back(std::move(section));
    }
    Row row{&g,
            g.key[test_key],
            stats::summarize(g.metric(options.metric)),
            stats::median(g.metric(Metric::kUser)),
            stats::median(g.metric(Metric::kSystem)),
            false,
            std::nullopt};
    sections[it->second].rows.push_back(std::move(row));
  }
  if (sections.empty()) throw Error("plot: no runs to plot");
  for (auto& section : sections) {
    std::stable_sort(section.rows.begin(), section.rows.end(), [](const Row& a, const Row& b) {
      const bool an = a.value.n > 0;
      const bool bn = b.value.n > 0;
      if (an != bn) return an;
      return an && a.value.median < b.value.median;
    });
    if (!section.rows.empty() && section.rows.front().value.n > 0) {
      const double best = section.rows.front().value.median;
      for (auto& row : section.rows) {
        if (row.value.n == 0) continue;
        row.fastest = row.value.median == best;
        if (best > 0) row.relative = row.value.median / best;
      }
    }
  }

  // Each section's scale and unit, then the texts of the value columns.
  double label_w = 0;
  double value_w = 0;
  double relative_w = text_width("fastest", kFont);
  double note_w = 0;
  for (auto& section : sections) {
    double smallest = std::numeric_limits<double>::infinity();
    for (const auto& row : section.rows) {
      if (row.value.n == 0) continue;
      section.top = std::max(section.top, row.value.max);
      if (time) section.top = std::max(section.top, row.user_median + row.system_median);
      if (row.value.median > 0) smallest = std::min(smallest, row.value.median);
      if (row.value.min > 0) {
        section.bottom =
            section.bottom > 0 ? std::min(section.bottom, row.value.min) : row.value.min;
      }
    }
    if (!(section.top > 0)) section.top = mem ? 1024 : 1;
    double largest_median = 0;
    for (const auto& row : section.rows) {
      if (row.value.n > 0) largest_median = std::max(largest_median, row.value.median);
    }
    section.log_scale = smallest > 0 && std::isfinite(smallest) && section.bottom > 0 &&
                        largest_median / smallest > kLogRange;
    if (section.log_scale) section.title += " · log scale";
    const double unit_basis = section.log_scale ? section.bottom : section.top;
    const Unit unit = mem                  ? Unit{1024, "MiB"}
                      : !time              ? count_unit(unit_basis)
                      : unit_basis >= 1    ? Unit{1, "s"}
                      : unit_basis >= 1e-3 ? Unit{1e-3, "ms"}
                                           : Unit{1e-6, "µs"};
    section.divisor = unit.divisor;
    section.unit = unit.name;
    section.value_decimals = decimals_for(smallest / unit.divisor);
    for (const auto& row : section.rows) {
      label_w = std::max(label_w, text_width(shorten(row.label, kMaxLabelChars), kFont));
      std::string v = row.value.n == 0 ? std::string("no successful run")
                                       : fmt::format("{:.{}f} {}", row.value.median / unit.divisor,
                                                     section.value_decimals, unit.name);
      std::string rel = row.fastest    ? std::string(time ? "fastest" : "smallest")
                        : row.relative ? fmt::format("{:.2f}×", *row.relative)
                                       : std::string();
      const std::size_t excluded = row.group->excluded_count();
      std::string note = excluded > 0 ? fmt::format("{} excluded", excluded) : std::string();
      value_w = std::max(value_w, text_width(v, kFont));
      relative_w = std::max(relative_w, text_width(rel, kFont));
      note_w = std::max(note_w, text_width(note, kFont));
      section.values.push_back(std::move(v));
      section.relatives.push_back(std::move(rel));
      section.notes.push_back(std::move(note));
    }
  }
  const double star_w = 2 * kFont;
  const double columns_w = star_w + value_w + kGap + relative_w + (note_w > 0 ? kGap + note_w : 0);
  const double width = std::max(options.width_px, 640);
  const double plot_x0 = kMargin + label_w + kGap;
  const double plot_x1 = width - kMargin - columns_w - kGap;
  const double value_x1 = plot_x1 + kGap + star_w + value_w;  // right edge: numbers align
  const double relative_x1 = value_x1 + kGap + relative_w;
  const double note_x0 = relative_x1 + kGap;
  if (plot_x1 - plot_x0 < 200) {
    throw Error("plot: test names too long for the chart width; use a wider chart");
  }
  const double plot_w = plot_x1 - plot_x0;

  Svg svg;
  double y = kMargin + kTitleFont;
  const std::string title =
      !options.title.empty() ? options.title
      : mem                  ? std::string("iobench: peak memory (max RSS) per test")
      : time                 ? std::string("iobench: elapsed time per test")
             : fmt::format("iobench: {} per test (kernel counter)", metric_name(options.metric));
  svg.text(kMargin, y, "start", kTitleFont, title, R"(font-weight="bold")");
  y += kFont + 8;
  svg.text(kMargin, y, "start", kFont,
           !time
               ? "bar: median · whisker: min–max · dot: one run · lower is better"
               : "bar: median · whisker: min–max · dot: one run · strip: user + system CPU · lower "
                 "is better",
           fmt::format(R"(fill="{}")", kMutedColor));
  if (!options.subtitle.empty()) {
    y += kFont + 6;
    svg.text(kMargin, y, "start", kFont,
             shorten(options.subtitle,
                     static_cast<std::size_t>((width - 2 * kMargin) / (kFont * kCharWidth))),
             fmt::format(R"(fill="{}")", kMutedColor));
  }

  // Legend, wrapped to the width.
  y += 12;
  {
    std::vector<std::pair<int, std::string>> items{
        {0, mem    ? std::string("median max RSS")
            : time ? std::string("median elapsed")
                   : fmt::format("median {}", metric_name(options.metric))},
        {1, "min–max"},
        {2, "one run"}};
    if (time) {
      items.push_back({3, "user CPU"});
      items.push_back({4, "system CPU"});
    }
    items.push_back({5, time ? "fastest of its input and sink" : "smallest of its input and sink"});
    double x = kMargin;
    double cy = y + 10;
    for (const auto& [kind, text] : items) {
      const double item_w = 26 + text_width(text, kFont) + 18;
      if (x + item_w > width - kMargin) {
        x = kMargin;
        cy += 20;
      }
      switch (kind) {
        case 0:
          svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)",
                              x, cy - kBarHeight / 2, kBarHeight, kBarColor));
          break;
        case 1:
          svg.raw(fmt::format(
              R"(<path d="M{0:.1f} {1:.1f}H{2:.1f}M{0:.1f} {3:.1f}V{4:.1f}M{2:.1f} {3:.1f}V{4:.1f}" stroke="{5}" stroke-width="1.2" fill="none"/>)",
              x, cy, x + 20, cy - 5, cy + 5, kWhiskerColor));
          break;
        case 2:
          svg.raw(fmt::format(
              R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.6" fill="#000" fill-opacity="0.6"/>)", x + 10,
              cy));
          break;
        case 3:
          svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)",
                              x, cy - kStripHeight / 2, kStripHeight, kUserColor));
          break;
        case 4:
          svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)",
                              x, cy - kStripHeight / 2, kStripHeight, kSystemColor));
          break;
        default:
          svg.raw(star(x + 10, cy, 7));
          break;
      }
      svg.text(x + 26, cy + 4, "start", kFont, text);
      x += item_w;
    }
    y = cy + 14;
  }

  for (std::size_t s = 0; s < sections.size(); ++s) {
    const Section& section = sections[s];
    y += 18;
    svg.text(kMargin, y, "start", kSectionFont, section.title, R"(font-weight="bold")");
    y += 8;

    const double top = section.top;
    const Unit unit{section.divisor, section.unit};
    // Ticks: as many as fit with their labels apart. The first label is anchored at its start
    // and the last at its end, so 1.5 label widths apart suffice.
    std::vector<double> ticks;
    std::vector<std::string> tick_labels;
    const auto labels_fit = [&](const std::vector<std::string>& names, double min_spacing_px) {
      double label_max = 0;
      for (const auto& name : names) label_max = std::max(label_max, text_width(name, kFont));
      return min_spacing_px >= 1.5 * label_max + 12;
    };
    double axis_lo = 0;
    double axis_hi = 0;
    if (section.log_scale) {
      // Decades around the data, with 2 and 5 between them where they fit.
      axis_lo = std::pow(10, std::floor(std::log10(section.bottom / unit.divisor) + 1e-9));
      axis_hi = std::pow(10, std::ceil(std::log10(top / unit.divisor) - 1e-9));
      const double decades = std::log10(axis_hi / axis_lo);
      for (const auto& mantissas : {std::vector<double>{1, 2, 5}, std::vector<double>{1}}) {
        ticks.clear();
        tick_labels.clear();
        for (double decade = axis_lo; decade <= axis_hi * (1 + 1e-9); decade *= 10) {
          for (double m : mantissas) {
            const double v = decade * m;
            if (v > axis_hi * (1 + 1e-9)) break;
            ticks.push_back(v * unit.divisor);
            tick_labels.push_back(fmt::format("{:g} {}", v, unit.name));
          }
        }
        // Narrowest gap: between 2 and 5 (log10 2.5 = 0.398 of a decade) or a whole decade.
        const double gap = plot_w / decades * (mantissas.size() > 1 ? std::log10(2.5) : 1.0);
        if (labels_fit(tick_labels, gap)) break;
      }
      axis_lo *= unit.divisor;
      axis_hi *= unit.divisor;
    } else {
      double step = 0;
      for (int max_ticks = 10; max_ticks >= 1; --max_ticks) {
        step = nice_step(top / unit.divisor, max_ticks) * unit.divisor;
        axis_hi = std::ceil(top / step - 1e-9) * step;
        ticks.clear();
        tick_labels.clear();
        const int count = static_cast<int>(std::lround(axis_hi / step));
        for (int t = 0; t <= count; ++t) {
          ticks.push_back(step * t);
          tick_labels.push_back(tick_label(step * t, step, unit));
        }
        if (labels_fit(tick_labels, plot_w * step / axis_hi)) break;
      }
    }
    const double log_lo = section.log_scale ? std::log10(axis_lo) : 0;
    const double log_span = section.log_scale ? std::log10(axis_hi) - log_lo : 1;
    const auto sx = [&](double v) {
      if (section.log_scale) {
        return plot_x0 + plot_w * (std::log10(std::max(v, axis_lo)) - log_lo) / log_span;
      }
      return plot_x0 + plot_w * v / axis_hi;
    };
    const std::size_t tick_count = ticks.size() - 1;

    const double rows_y0 = y;
    const double rows_y1 = y + kRowHeight * static_cast<double>(section.rows.size());
    for (std::size_t t = 0; t <= tick_count; ++t) {
      const double v = ticks[t];
      svg.raw(
          fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" stroke="{3}"/>)",
                      sx(v), rows_y0, rows_y1, t == 0 ? "#999999" : kGridColor));
    }

    for (std::size_t r = 0; r < section.rows.size(); ++r) {
      const Row& row = section.rows[r];
      const double cy = y + kRowHeight / 2;
      if (r % 2 == 1) {
        svg.raw(fmt::format(
            R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="#f6f8fa"/>)", kMargin,
            y, width - 2 * kMargin, kRowHeight));
        // Redraw the grid over the stripe.
        for (std::size_t t = 1; t <= tick_count; ++t) {
          svg.raw(fmt::format(
              R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" stroke="{3}"/>)",
              sx(ticks[t]), y, y + kRowHeight, kGridColor));
        }
      }
      const std::string label = shorten(row.label, kMaxLabelChars);
      svg.text(plot_x0 - kGap, cy + 4, "end", kFont, label,
               row.fastest ? R"(font-weight="bold")" : "", label != row.label ? row.label : "");
      if (row.value.n > 0) {
        const auto& samples = row.group->metric(options.metric);
        svg.raw(fmt::format(
            R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>{}: median {}, n = {}</title></rect>)",
            plot_x0, cy - kBarHeight / 2, std::max(0.5, sx(row.value.median) - plot_x0), kBarHeight,
            row.fastest ? kFastestColor : kBarColor, escape(row.label),
            format_value(row.value.median, options.metric), row.value.n));
        if (time) {
          const double xu = sx(row.user_median);
          svg.raw(fmt::format(
              R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>user {}</title></rect>)",
              plot_x0, cy - kStripHeight / 2, xu - plot_x0, kStripHeight, kUserColor,
              format_value(row.user_median, Metric::kElapsed)));
          svg.raw(fmt::format(
              R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>system {}</title></rect>)",
              xu, cy - kStripHeight / 2, sx(row.user_median + row.system_median) - xu, kStripHeight,
              kSystemColor, format_value(row.system_median, Metric::kElapsed)));
        }
        svg.raw(fmt::format(
            R"(<path d="M{0:.1f} {1:.1f}H{2:.1f}M{0:.1f} {3:.1f}V{4:.1f}M{2:.1f} {3:.1f}V{4:.1f}" stroke="{5}" stroke-width="1.2" fill="none"/>)",
            sx(row.value.min), cy, sx(row.value.max), cy - 5, cy + 5, kWhiskerColor));
        for (std::size_t i = 0; i < samples.size(); ++i) {
          // Deterministic vertical jitter so equal values stay visible.
          const double jitter = (static_cast<double>((i * 7) % 5) - 2) * 1.6;
          svg.raw(fmt::format(
              R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.6" fill="#000" fill-opacity="0.55"/>)",
              sx(samples[i]), cy + jitter));
        }
      }
      if (row.fastest) svg.raw(star(plot_x1 + kGap + 6, cy, 7));
      const char* style = row.fastest        ? R"(font-weight="bold" fill="#2f7d32")"
                          : row.value.n == 0 ? R"(fill="#b00020")"
                                             : "";
      svg.text(value_x1, cy + 4, "end", kFont, section.values[r], style);
      if (!section.relatives[r].empty()) {
        svg.text(relative_x1, cy + 4, "end", kFont, section.relatives[r], style);
      }
      if (!section.notes[r].empty()) {
        svg.text(note_x0, cy + 4, "start", kFont, section.notes[r], R"(fill="#b00020")");
      }
      y += kRowHeight;
    }
    // Axis labels under the rows.
    y += kFont + 4;
    for (std::size_t t = 0; t <= tick_count; ++t) {
      svg.text(sx(ticks[t]), y,
               t == 0            ? "start"
               : t == tick_count ? "end"
                                 : "middle",
               kFont, tick_labels[t], fmt::format(R"(fill="{}")", kMutedColor));
    }
  }
  y += kMargin;

  Chart chart;
  chart.width = width;
  chart.height = std::ceil(y);
  chart.svg = fmt::format(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" font-family="{2}" fill="{3}">
<rect width="100%" height="100%" fill="#ffffff"/>
{4}</svg>
)",
      width, chart.height, kFontFamily, kTextColor, svg.body());
  chart.text_boxes = std::move(svg.boxes());
  return chart;
}

void plot_files(const std::vector<std::filesystem::path>& files, const std::filesystem::path& out,
                const Options& options) {
  results::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  read.allow_missing_columns = true;
  const results::RunSet set = results::read_runs(files, read);
  Options o = options;
  if (o.subtitle.empty()) {
    std::vector<std::string> names;
    for (const auto& f : set.files) names.push_back(std::filesystem::path(f).filename().string());
    o.subtitle = fmt::format("{} · {} runs", fmt::join(names, ", "), set.rows);
  }
  const Chart chart = render(set, o);
  write_file_atomically(out, chart.svg);
}

}  // namespace iobench::plot
