// The medians report that `iobench run` prints at its end (driver/report.hpp).
#include "driver/report.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "driver/atomic_file.hpp"
#include "driver/error.hpp"
#include "driver/export.hpp"
#include "driver/results_reader.hpp"
#include "driver/summary.hpp"

namespace iobench::report {

void write_run_report(const RunReportRequest& request, std::ostream& table_out,
                      std::ostream& warnings_out) {
  results::ReadOptions read_options;
  read_options.group_by = {"test", "input", "sink"};
  const results::RunSet set = results::read_runs({request.runs_tsv}, read_options);
  summary::Options options;
  options.baseline = request.baseline;
  const summary::Summary summary = summary::summarize(set, options);

  if (!request.medians_tsv.empty()) {
    std::ostringstream medians;
    exporter::write_medians_tsv(summary, medians);
    write_file_atomically(request.medians_tsv, medians.str());
  }
  exporter::write_summary(summary, exporter::Format::kPretty, table_out);
  exporter::write_warnings(summary.warnings, warnings_out);
}

}  // namespace iobench::report
