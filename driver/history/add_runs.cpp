#include "driver/history/add_runs.hpp"

#include <fmt/format.h>

namespace iobench::history {

std::vector<std::string> add_run_files(Store& store,
                                       const std::vector<std::filesystem::path>& files,
                                       const Labels& given, const EnvLookup& lookup) {
  std::vector<RunRecord> records;
  records.reserve(files.size());
  for (const auto& file : files) records.push_back(load_run_record(file, given, lookup));
  std::vector<std::string> lines;
  for (const RunRecord& record : records) {
    const AddOutcome outcome = store.add(record);
    if (!outcome.stored) {
      lines.push_back(
          fmt::format("{} is already in {}", record.runs_file, store.location().display));
      continue;
    }
    lines.push_back(fmt::format("added {} to {}: {} rows, {} new series (commit {}{})",
                                record.runs_file, store.location().display, outcome.rows,
                                outcome.new_series, record.labels.commit.value_or("unknown"),
                                record.labels.branch ? ", branch " + *record.labels.branch : ""));
  }
  return lines;
}

}  // namespace iobench::history
