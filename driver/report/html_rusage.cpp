#include "driver/report/html_rusage.hpp"

#include <fmt/format.h>

#include "driver/runfile/rows.hpp"
#include "driver/stats/descriptive.hpp"

namespace iobench::report {
namespace {

struct Samples {
  std::vector<double> voluntary;
  std::vector<double> involuntary;
};

std::string cell_key_of(const runfile::RunRow& row) {
  return cell_key(row.test, row.input, row.sink);
}

void read_text(const std::string& name, std::string_view text, std::map<std::string, Samples>& to) {
  runfile::RowReader reader(name, text);
  if (!reader.columns().has(runfile::column("nvcsw")) &&
      !reader.columns().has(runfile::column("nivcsw")))
    return;
  while (reader.next()) {
    const runfile::RunRow& row = reader.row();
    if (row.status != runfile::RunStatus::kOk) continue;
    Samples& samples = to[cell_key_of(row)];
    if (row.nvcsw) samples.voluntary.push_back(static_cast<double>(*row.nvcsw));
    if (row.nivcsw) samples.involuntary.push_back(static_cast<double>(*row.nivcsw));
  }
}

void read_others(const std::string& name, std::string_view text,
                 std::map<std::string, std::vector<OthersDuringRun>>& to) {
  runfile::RowReader reader(name, text);
  if (!reader.columns().has(runfile::column("others_cpu_s")) &&
      !reader.columns().has(runfile::column("steal_s")) &&
      !reader.columns().has(runfile::column("wait_cpu_s")))
    return;
  while (reader.next()) {
    const runfile::RunRow& row = reader.row();
    to[cell_key_of(row)].push_back(OthersDuringRun{row.repeat, std::string(to_string(row.status)),
                                                   row.elapsed_s, row.others_cpu_s, row.steal_s,
                                                   row.wait_cpu_s});
  }
}

std::optional<double> median_of(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  return stats::median(values);
}

}  // namespace

std::string cell_key(std::string_view test, std::string_view input, std::string_view sink) {
  return fmt::format("{}\t{}\t{}", test, input, sink);
}

std::map<std::string, ContextSwitches> context_switches_of(
    const std::vector<std::pair<std::string, std::string_view>>& named_texts) {
  std::map<std::string, Samples> samples;
  for (const auto& [name, text] : named_texts) read_text(name, text, samples);
  std::map<std::string, ContextSwitches> out;
  for (const auto& [key, s] : samples) {
    out[key] = ContextSwitches{median_of(s.voluntary), median_of(s.involuntary)};
  }
  return out;
}

std::map<std::string, std::vector<OthersDuringRun>> others_during_runs_of(
    const std::vector<std::pair<std::string, std::string_view>>& named_texts) {
  std::map<std::string, std::vector<OthersDuringRun>> out;
  for (const auto& [name, text] : named_texts) read_others(name, text, out);
  return out;
}

}  // namespace iobench::report
