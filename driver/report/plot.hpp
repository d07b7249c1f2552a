#pragma once
// `iobench plot`: a self-contained SVG chart of run files. One horizontal row per test, in
// sections by input and sink (fastest first): the median as a bar, min-max whiskers, every run as
// a dot, the user and system medians as a strip inside the bar, the fastest marked. Every text is
// monospace so its width is known, and the layout keeps them apart (text_boxes() proves it).
#include <string>
#include <vector>

#include "driver/runfile/reader.hpp"

namespace iobench::report {

struct PlotOptions {
  runfile::Metric metric = runfile::Metric::kElapsed;  // kElapsed or kMem
  std::string title;                                   // empty: made from the metric
  std::string subtitle;                                // e.g. the file names
  int width_px = 1000;
  // What the HTML report asks for (docs/reports.md, "The HTML report"); `iobench plot` keeps the
  // defaults, so its SVG stays byte for byte what it was.
  bool heading = true;  // the title, the key to the marks and the subtitle above the sections
  // Each row a <g class="chart-row" data-test="NAME"> (so a page can hide a test), each run's dot
  // of class "run", and the elapsed median's 95 % interval drawn over the bar, with its key.
  bool report_marks = false;
  // The test the ratios compare with (the report's --baseline); empty: the run files' configs'
  // baseline, else the fastest (reference.hpp), named in each section's title.
  std::string baseline;
};

// A text's estimated box, for the overlap check.
struct Box {
  double x0, y0, x1, y1;
  std::string text;
};

struct Chart {
  std::string svg;
  std::vector<Box> text_boxes;
  double width = 0;
  double height = 0;
};

// The set must have a test column; it is drawn in sections by input, sink and every other column
// (runfile::cell_grouping gives test, input and sink for any file, and the conditions the files
// differ in, each named in its sections' titles and the heading). Throws iobench::Error (exit 2)
// for another metric, or when there is nothing to plot.
Chart render(const runfile::RunSet& set, const PlotOptions& options);

// The key to the marks alone (as render draws it under the title), `options.width_px` wide: the
// report shows it once above its charts drawn without a heading.
Chart render_key(const PlotOptions& options);

// Reads the files and writes the chart to `out` (atomically: a temporary file renamed).
void plot_files(const std::vector<std::filesystem::path>& files, const std::filesystem::path& out,
                const PlotOptions& options);

}  // namespace iobench::report
