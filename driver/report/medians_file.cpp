// The medians glue: after `iobench run`, the run file becomes the medians file and the medians
// table (docs/formats.md "Medians file").
#include "driver/report/medians_file.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::report {

TableView end_table_view(const std::filesystem::path& runs_tsv, std::size_t top_rows) {
  return {top_rows, fmt::format("all of them: iobench summarize {}", runs_tsv.string())};
}

runfile::ReadOptions medians_grouping() {
  runfile::ReadOptions options;
  options.group_by = {"test", "input", "sink"};
  return options;
}

std::vector<std::string> write_medians_report(const MediansReportRequest& request,
                                              const runfile::RunSet& set, std::ostream& table_out,
                                              std::ostream& warnings_out) {
  report::SummaryOptions options;
  options.baseline = request.baseline;
  if (!request.warnings_kept_in.empty()) {  // shortened only where the full list is kept
    options.groups_named = kGroupsNamedInAWarning;
    options.all_groups_in = request.warnings_kept_in.string();
  }
  const report::Summary summary = report::summarize(set, options);

  if (!request.medians_tsv.empty()) {
    std::ostringstream medians;
    report::write_medians_tsv(summary, medians);
    write_file_atomically(request.medians_tsv, medians.str());
  }
  report::write_summary(summary, report::Format::kPretty, table_out,
                        end_table_view(request.runs_tsv, request.table_top_rows));
  report::write_warnings(summary.warnings, warnings_out);
  return summary.warnings_in_full;
}

}  // namespace iobench::report
