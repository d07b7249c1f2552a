#pragma once
// bench's exports in hyperfine's formats (docs/bench.md, "Exports"): --export-json in hyperfine's
// schema (results[]: command, mean, stddev, median, user, system, min, max, times, exit_codes,
// parameters, memory_usage_byte) with iobench's fields beside them under "iobench";
// --export-csv, --export-markdown, --export-asciidoc and --export-orgmode as hyperfine writes
// them. The times are those of the elapsed figure (the shell-corrected ones when bench measured a
// shell start-up; hyperfine's are too): seconds in CSV and JSON, the -u unit in the tables (else
// hyperfine's pick from the first mean). A command without an ok run is never dropped: its
// result is there, marked failed, its times empty.
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "driver/report/elapsed_figure.hpp"
#include "driver/report/time_unit.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/runfile/shell_startup.hpp"

namespace iobench::bench {

// One of bench's tests: its name and the values its params took (hyperfine's "parameters").
struct BenchTest {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
};

enum class ExportFormat { kJson, kCsv, kMarkdown, kAsciidoc, kOrgmode };

struct ExportData {
  const runfile::RunSet* figures = nullptr;  // grouped by test, input, sink; shell-corrected
  const runfile::RunSet* raw = nullptr;      // the same groups as the run file has them
  report::ElapsedFigure figure;  // which figure `figures` holds (elapsed_figure_of); its start-up
  std::vector<BenchTest> tests;  // in the order they were given
  std::string reference;         // the reference test
  report::TimeUnit time_unit = report::TimeUnit::kAuto;
  bool tables_by_time = false;  // --sort mean-time: the tables' rows fastest first
  const report::VersusReference* versus =
      nullptr;  // the verdicts bench printed; null: none exported
  // The runs stopped before the plan's end (an interrupt, a full disk): the results are partial,
  // and the JSON says so ("partial": true), as the terminal's summary line does.
  bool partial = false;
};

void write_bench_export(const ExportData& data, ExportFormat format, std::ostream& out);

}  // namespace iobench::bench
