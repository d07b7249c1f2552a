#pragma once
// The rows of `iobench plot`, in sections by input and sink: which test is fastest, the relative
// figures, each section's scale, unit and axis, and the texts of the value columns (the drawing
// is in plot.cpp).
#include <optional>
#include <string>
#include <vector>

#include "driver/runfile/reader.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/stats/median_interval.hpp"

namespace iobench::report {

inline constexpr double kFont = 12;  // labels, ticks, values
inline constexpr std::size_t kMaxLabelChars = 40;
inline constexpr double kLogRange = 30;  // slowest / fastest median above which the axis is log

struct ChartRow {
  const runfile::Group* group;
  std::string label;
  stats::SampleStats value;
  double user_median = 0;
  double system_median = 0;
  bool fastest = false;    // the smallest median of its section
  bool reference = false;  // what `relative` divides by (reference.hpp): the baseline or fastest
  std::optional<double> relative;
  stats::MedianInterval elapsed_ci95;  // the elapsed median's 95 % interval (summary.hpp)
};

struct Section {
  std::string title;
  std::string reference;  // "relative to B (the config's baseline)", in the title
  std::vector<ChartRow> rows;
  double top = 0;          // largest value drawn
  double bottom = 0;       // smallest positive value drawn (the log axis starts below it)
  bool log_scale = false;  // medians span more than kLogRange: a log axis keeps them readable
  double divisor = 1;
  const char* unit = "s";
  int value_decimals = 3;
  std::vector<std::string> values;     // median, in the section's unit
  std::vector<std::string> relatives;  // "1.43×", "fastest", "reference"
  std::vector<std::string> notes;      // "1 failed"
};

// Sections by input, sink and every other group-by column (a condition the files differ in,
// named in the title), in order of first appearance; rows fastest first. Throws iobench::Error
// when there is no test column or no run.
// `baseline`: the summary's (empty: the configs', else the fastest).
std::vector<Section> group_sections(const runfile::RunSet& set, runfile::Metric metric,
                                    const std::string& baseline = "");

struct ColumnWidths {
  double label = 0;
  double value = 0;
  double relative = 0;
  double note = 0;
};
// Sets each section's scale, unit and value texts; returns the widest text of each column.
ColumnWidths scale_sections(std::vector<Section>& sections, runfile::Metric metric);

// A section's value axis: its ticks and their labels, and where a value lies on the plot (from
// plot_x0, plot_w wide).
struct Axis {
  bool log_scale = false;
  double lo = 0;  // the log axis' first decade (a linear axis starts at 0)
  double hi = 0;
  std::vector<double> ticks;
  std::vector<std::string> labels;
  double plot_x0 = 0;
  double plot_w = 0;

  [[nodiscard]] double x(double v) const;
};

// The axis of a scaled section (scale_sections): as many ticks as fit with their labels apart,
// decades (and 2 and 5 between them) on a log axis, 1-2-5 steps from 0 on a linear one.
Axis make_axis(const Section& section, double plot_x0, double plot_w);

}  // namespace iobench::report
