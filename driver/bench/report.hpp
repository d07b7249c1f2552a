#pragma once
// What `iobench bench` says and writes once its runs are done (docs/bench.md): each command
// against the reference on the same input and sink, and the summary exported when asked.
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/bench/exports.hpp"
#include "driver/bench/side_by_side.hpp"
#include "driver/report/gate_output.hpp"
#include "driver/report/time_unit.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/runfile/written_run.hpp"

namespace iobench::bench {

// Each in hyperfine's format (driver/bench/exports.hpp); empty: not written.
struct BenchExports {
  std::filesystem::path json;
  std::filesystem::path csv;
  std::filesystem::path markdown;
  std::filesystem::path asciidoc;
  std::filesystem::path orgmode;
};

// --sort as hyperfine means it: kAuto orders the comparisons by time and the exported tables
// by command; kCommand orders both by command, kMeanTime both by time.
enum class BenchSort { kAuto, kCommand, kMeanTime };
// "auto", "command", "mean-time"; throws iobench::Error (exit 2) otherwise.
BenchSort parse_bench_sort(std::string_view name);

struct BenchReportOptions {
  std::string reference;         // the reference test
  std::vector<BenchTest> tests;  // in the order given, with their params (hyperfine's parameters)
  BenchExports exports;
  report::TimeUnit time_unit = report::TimeUnit::kAuto;  // -u
  BenchSort sort = BenchSort::kAuto;
  bool print = true;     // false: --style none, nothing on stdout (the exports are still written)
  bool verbose = false;  // --verbose: the environment and the tables above the blocks
  std::optional<OtherToolRun> other;  // --compare-with hyperfine: its answer, printed beside
  // How the sequential rule ended each comparison (--decide on); empty: the U test judges.
  std::vector<report::RuleDecision> rule_decisions;
  std::optional<double> fail_if_slower_pct;  // --fail-if-slower: the gate (fail_if_slower)
  std::optional<report::VerdictFormat>
      gate_format;  // --gate-format: the gate written to `out` last
};

// From the run just written, held in memory (grouped by test, input, sink) and its meta record,
// decides the elapsed figure (elapsed_figure_of), writes to `out` one block per command, the
// comparisons with the reference test in that figure and one line of what the blocks leave out
// (--verbose: the environment line, the raw medians table and the figures less the shell's start-up
// first), then each export, atomically. Returns the gate's findings (fail_if_slower; none without
// fail_if_slower_pct). Throws iobench::Error when a row cannot be parsed or an export written.
report::Gate report_bench(const runfile::WrittenRun& run, const BenchReportOptions& options,
                          std::ostream& out);

}  // namespace iobench::bench
