#include "driver/bench/report.hpp"

#include <fmt/format.h>

#include <array>
#include <ostream>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/bench/blocks.hpp"
#include "driver/bench/summary.hpp"
#include "driver/report/elapsed_figure.hpp"
#include "driver/report/export.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/report/summary.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::bench {

using report::compare_with_reference;
using report::CompareOptions;
using report::elapsed_figure_of;
using report::ElapsedFigure;
using report::end_table_view;
using report::fail_if_slower;
using report::Gate;
using report::kEndTableRows;
using report::summarize;
using report::Summary;
using report::SummaryOptions;
using report::TableView;
using report::VersusReference;
using report::VersusStyle;
using report::write_gate;
using report::write_summary;
using report::write_versus_reference;

namespace {

runfile::RunSet by_test_input_sink(const runfile::WrittenRun& run) {
  runfile::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  return runfile::group_written_run(run, read);
}

// Each export asked for, of the exported figures (shell-corrected when bench measured a shell).
void write_exports(const BenchExports& exports, const ExportData& data) {
  const std::array<std::pair<const std::filesystem::path*, ExportFormat>, 5> files{
      {{&exports.json, ExportFormat::kJson},
       {&exports.csv, ExportFormat::kCsv},
       {&exports.markdown, ExportFormat::kMarkdown},
       {&exports.asciidoc, ExportFormat::kAsciidoc},
       {&exports.orgmode, ExportFormat::kOrgmode}}};
  for (const auto& [path, format] : files) {
    if (path->empty()) continue;
    std::ostringstream text;
    write_bench_export(data, format, text);
    write_file_atomically(*path, text.str());
  }
}

// --verbose: the environment line, the medians table `run` prints (the raw figures), and the
// same less the shell's start-up when that is the figure, above the blocks.
void write_verbose_tables(const std::filesystem::path& runs_file, const runfile::RunSet& raw,
                          const runfile::RunSet& set, const std::optional<runfile::RunMeta>& meta,
                          const ElapsedFigure& figure, const BenchReportOptions& options,
                          std::ostream& out) {
  if (meta) out << environment_line(*meta) << '\n';
  SummaryOptions summary_options;
  summary_options.baseline = options.reference;
  TableView view = end_table_view(runs_file, kEndTableRows);
  view.time_unit = options.time_unit;
  // Named, since every other figure below is the chosen one (elapsed_figure.hpp).
  if (figure.startup) out << "Raw figures (the runs file's; nothing subtracted):\n";
  write_summary(summarize(raw, summary_options), report::Format::kPretty, out, view);
  if (figure.startup) {
    out << '\n';
    write_shell_corrected(set, *figure.startup, options.time_unit, out);
  }
  out << '\n';
}

}  // namespace

BenchSort parse_bench_sort(std::string_view name) {
  if (name.empty() || name == "auto") return BenchSort::kAuto;
  if (name == "command") return BenchSort::kCommand;
  if (name == "mean-time") return BenchSort::kMeanTime;
  throw Error(fmt::format("--sort {}: not one of auto, command, mean-time", name));
}

Gate report_bench(const runfile::WrittenRun& run, const BenchReportOptions& options,
                  std::ostream& out) {
  const std::string& reference = options.reference;
  const runfile::RunSet read = by_test_input_sink(run);
  // One decision of the figure for every surface (the --report page makes the same).
  const ElapsedFigure figure = elapsed_figure_of({run});
  // The order given (the run file's is the order the runs ended in), or fastest first.
  std::vector<std::string> commands;
  for (const BenchTest& test : options.tests) commands.push_back(test.name);
  const runfile::RunSet given = reordered(read, order_by_command(read, commands));
  const runfile::RunSet raw = options.sort == BenchSort::kMeanTime
                                  ? reordered(given, order_by_time(in_figure(given, figure)))
                                  : given;
  const runfile::RunSet set = in_figure(raw, figure);
  const std::optional<runfile::RunMeta>& meta = run.meta;
  SummaryOptions summary_options;
  summary_options.baseline = reference;
  const Summary summary = summarize(set, summary_options);
  const VersusReference versus =
      compare_with_reference(set, reference, CompareOptions{}, options.rule_decisions);
  if (options.print) {
    if (options.verbose) write_verbose_tables(run.runs_file, raw, set, meta, figure, options, out);
    write_bench_blocks(summary, options.time_unit, out);
  }
  if (options.print && !versus.result.rows.empty()) {
    out << '\n';
    write_versus_reference(versus, out,
                           VersusStyle{options.time_unit, options.sort != BenchSort::kCommand,
                                       "figure: " + figure.name()});
  }
  if (options.print && options.other) {
    out << '\n';
    write_side_by_side(set, versus, *options.other, options.time_unit, out);
  }
  if (options.print) {
    out << '\n'
        << runs_summary_line(summary, figure, meta, options.time_unit, options.verbose) << '\n';
  }
  out.flush();
  write_exports(options.exports,
                ExportData{&set, &raw, figure, options.tests, reference, options.time_unit,
                           options.sort == BenchSort::kMeanTime, &versus, stopped_early(meta)});
  if (!options.fail_if_slower_pct) return {};
  Gate gate = fail_if_slower(versus, *options.fail_if_slower_pct);
  if (options.gate_format) {
    write_gate(gate, *options.gate_format, out);
    out.flush();
  }
  return gate;
}

}  // namespace iobench::bench
