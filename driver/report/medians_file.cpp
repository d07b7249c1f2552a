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

using runfile::Metric;

TableView end_table_view(const std::filesystem::path& runs_tsv, std::size_t top_rows) {
  return {top_rows, fmt::format("all of them: iobench summarize {}", runs_tsv.string())};
}

runfile::ReadOptions medians_grouping() {
  runfile::ReadOptions options;
  options.group_by = {"test", "input", "sink"};
  return options;
}

void write_medians_tsv(const report::Summary& s, std::ostream& out) {
  const runfile::RunSet& set = *s.set;
  Table t;
  t.header = {"test",        "input",         "sink",           "n",          "elapsed_median",
              "user_median", "system_median", "cpu_pct_median", "mem_median", "elapsed_min",
              "elapsed_max", "elapsed_mad",   "mb_per_s",       "relative"};
  const std::array<std::size_t, 3> keys{set.key_index("test"), set.key_index("input"),
                                        set.key_index("sink")};
  for (const auto& g : s.groups) {
    std::vector<std::string> row;
    row.reserve(keys.size());
    for (std::size_t k : keys) {
      row.push_back(k != std::string_view::npos ? g.group->key[k] : std::string());
    }
    const auto& el = g.metric(Metric::kElapsed);
    row.push_back(std::to_string(el.n));
    row.push_back(trimmed(el.median, 6));
    row.push_back(trimmed(g.metric(Metric::kUser).median, 6));
    row.push_back(trimmed(g.metric(Metric::kSystem).median, 6));
    row.push_back(trimmed(g.metric(Metric::kCpuPct).median, 2));
    row.push_back(trimmed(g.metric(Metric::kMem).median, 1));
    row.push_back(trimmed(el.min, 6));
    row.push_back(trimmed(el.max, 6));
    row.push_back(trimmed(el.mad, 6));
    row.push_back(g.mb_per_s ? trimmed(*g.mb_per_s, 2) : "");
    row.push_back(g.relative ? trimmed(*g.relative, 4) : "");
    t.rows.push_back(std::move(row));
  }
  write_table(t, Format::kTsv, out);
}

std::vector<std::string> write_medians_report(const MediansReportRequest& request,
                                              const runfile::RunSet& set, std::ostream& table_out,
                                              std::ostream& warnings_out) {
  report::SummaryOptions options;
  options.baseline = request.baseline;
  options.baseline_named_by = "the config's baseline";
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
  TableView view = end_table_view(request.runs_tsv, request.table_top_rows);
  view.answer = AnswerAt::kLast;  // `run` ends with the answer (docs/reports.md, "The answer")
  report::write_summary(summary, report::Format::kPretty, table_out, view);
  report::write_warnings(summary.warnings, warnings_out);
  return summary.warnings_in_full;
}

}  // namespace iobench::report
