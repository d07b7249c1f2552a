#include "driver/report/bench_report.hpp"

#include <fmt/format.h>

#include <array>
#include <ostream>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/report/bench_summary.hpp"
#include "driver/report/export.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/report/summary.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::report {
namespace {

runfile::RunSet read_by_test_input_sink(const std::filesystem::path& runs_file) {
  runfile::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  return runfile::read_runs({runs_file}, read);
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

}  // namespace

BenchSort parse_bench_sort(std::string_view name) {
  if (name.empty() || name == "auto") return BenchSort::kAuto;
  if (name == "command") return BenchSort::kCommand;
  if (name == "mean-time") return BenchSort::kMeanTime;
  throw Error(fmt::format("--sort {}: not one of auto, command, mean-time", name));
}

void report_bench(const std::filesystem::path& runs_file, const BenchReportOptions& options,
                  std::ostream& out) {
  const std::string& reference = options.reference;
  const BenchExports& exports = options.exports;
  const runfile::RunSet raw = read_by_test_input_sink(runs_file);
  // The shell's start-up, when bench measured one, comes off every figure it compares.
  const std::optional<runfile::RunMeta> meta = runfile::read_meta_for(runs_file);
  const std::optional<runfile::ShellStartup> startup =
      meta ? meta->shell_startup : std::optional<runfile::ShellStartup>();
  const runfile::RunSet set = startup ? subtract_shell_startup(raw, *startup) : raw;
  if (options.print) {
    // The conditions first, then the medians as `run` prints them (the raw figures).
    if (meta) out << environment_line(*meta) << '\n';
    report::SummaryOptions summary_options;
    summary_options.baseline = reference;
    report::write_summary(report::summarize(raw, summary_options), report::Format::kPretty, out,
                          end_table_view(runs_file, kEndTableRows));
  }
  if (options.print && startup) {
    out << '\n';
    write_shell_corrected(set, *startup, options.time_unit, out);
  }
  const VersusReference versus =
      compare_with_reference(set, reference, CompareOptions{}, options.rule_decisions);
  if (options.print && !versus.result.rows.empty()) {
    out << '\n';
    write_versus_reference(versus, out,
                           VersusStyle{options.time_unit, options.sort != BenchSort::kCommand,
                                       startup ? "shell start-up subtracted" : ""});
  }
  if (options.print && options.other) {
    out << '\n';
    write_side_by_side(set, versus, *options.other, options.time_unit, out);
  }
  out.flush();
  write_exports(exports,
                ExportData{&set, &raw, startup, options.tests, reference, options.time_unit,
                           options.sort == BenchSort::kMeanTime, &versus});
}

}  // namespace iobench::report
