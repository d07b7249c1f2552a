// `iobench plot FILE... -o chart.svg [--metric elapsed|mem|COUNTER] [--title T] [--width PX]`.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/report/plot.hpp"

namespace iobench::cli {
namespace {

struct PlotOptions {
  std::vector<std::string> files;
  std::string out;
  std::string metric = "elapsed";
  std::string title;
  int width_px = 1000;
};

void setup_plot(CLI::App& sub, int& exit_code) {
  auto opts = std::make_shared<PlotOptions>();
  sub.add_option("files", opts->files,
                 "Run files (results/*.tsv or GNU time recipe files); files whose meta files "
                 "differ in cache, host, build, counters or pipe size are drawn apart")
      ->required();
  sub.add_option("-o,--output", opts->out, "The SVG file to write")->required();
  sub.add_option("--metric", opts->metric,
                 "elapsed, mem (max RSS) or a counter column (syscalls, ...)")
      ->capture_default_str();
  sub.add_option("--title", opts->title, "Title line (default: from the metric)");
  sub.add_option("--width", opts->width_px, "Chart width in pixels (640 or more)")
      ->capture_default_str();
  sub.callback([opts, &exit_code] {
    report::PlotOptions options;
    const auto metric = runfile::parse_metric(opts->metric);
    if (!metric || !(*metric == runfile::Metric::kElapsed || *metric == runfile::Metric::kMem ||
                     is_counter(*metric))) {
      throw Error(fmt::format("--metric {}: plot draws elapsed, mem or a counter column ({})",
                              opts->metric, fmt::join(runfile::kCounterColumns, ", ")));
    }
    options.metric = *metric;
    if (opts->width_px < 640 || opts->width_px > 20000) {
      throw Error(fmt::format("--width {}: must be between 640 and 20000", opts->width_px));
    }
    options.title = opts->title;
    options.width_px = opts->width_px;
    const std::vector<std::filesystem::path> files(opts->files.begin(), opts->files.end());
    report::plot_files(files, opts->out, options);
    exit_code = kExitOk;
  });
}

const RegisterCommand kRegisterPlot{
    "plot", "Draw run files as an SVG chart (median bars, whiskers, runs)", &setup_plot, 40};

}  // namespace
}  // namespace iobench::cli
