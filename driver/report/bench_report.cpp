#include "driver/report/bench_report.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "common/atomic_file.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::report {
namespace {

runfile::RunSet read_by_test_input_sink(const std::filesystem::path& runs_file) {
  runfile::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  return runfile::read_runs({runs_file}, read);
}

// The summary as `iobench summarize` writes it, then the comparisons with the reference when
// `versus` is given and has any.
void export_summary(const std::filesystem::path& runs_file, const std::string& reference,
                    const std::filesystem::path& path, report::Format format,
                    const VersusReference* versus) {
  const runfile::RunSet set = read_by_test_input_sink(runs_file);
  report::SummaryOptions options;
  options.baseline = reference;
  std::ostringstream text;
  report::write_summary(report::summarize(set, options), format, text);
  if (versus != nullptr && !versus->result.rows.empty()) {
    text << fmt::format("\nAgainst the reference `{}`:\n\n", versus->reference);
    report::write_result(versus->result, format, text);
  }
  write_file_atomically(path, text.str());
}

}  // namespace

void report_bench(const std::filesystem::path& runs_file, const std::string& reference,
                  const BenchExports& exports, std::ostream& out) {
  const runfile::RunSet set = read_by_test_input_sink(runs_file);
  const VersusReference versus = compare_with_reference(set, reference);
  if (!versus.result.rows.empty()) {
    out << '\n';
    write_versus_reference(versus, out);
    out.flush();
  }
  if (!exports.json.empty()) {
    export_summary(runs_file, reference, exports.json, report::Format::kJson, nullptr);
  }
  if (!exports.markdown.empty()) {
    export_summary(runs_file, reference, exports.markdown, report::Format::kMarkdown, &versus);
  }
}

}  // namespace iobench::report
