#include "driver/history/add_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace iobench::history {
namespace {

// Every file's record, read on every CPU: parsing the run files and their meta files was half of
// an add's CPU time (docs/history.md, "Performance"). The first file that fails, in the order
// given, is the error, as when they were read one after the other.
std::vector<RunRecord> load_run_records(const std::vector<std::filesystem::path>& files,
                                        const Labels& given, const EnvLookup& lookup) {
  std::vector<RunRecord> records(files.size());
  if (files.empty()) return records;
  std::vector<std::exception_ptr> errors(files.size());
  std::atomic<std::size_t> next{0};
  const auto load = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      try {
        records[i] = load_run_record(files[i], given, lookup);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const std::size_t helpers =
      std::min<std::size_t>(std::max(1U, std::thread::hardware_concurrency()), files.size()) - 1;
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < helpers; ++t) threads.emplace_back(load);
    load();
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  return records;
}

}  // namespace

std::vector<std::string> add_run_files(Store& store,
                                       const std::vector<std::filesystem::path>& files,
                                       const Labels& given, const EnvLookup& lookup) {
  const std::vector<RunRecord> records = load_run_records(files, given, lookup);
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
