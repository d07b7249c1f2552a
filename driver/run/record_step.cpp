#include "driver/run/record_step.hpp"

#include "common/error.hpp"
#include "driver/report/summary.hpp"

namespace iobench::run {

RecordStep::RecordStep(const config::Plan& plan, const config::Config& config,
                       runfile::RunTsvWriter& writer)
    : plan_(plan), config_(config), writer_(writer), ok_elapsed_s_(plan.cells.size()) {}

void RecordStep::record(const runfile::RunRow& row) {
  try {
    writer_.append(row);
  } catch (const Error& e) {
    results_error_ = e.what();
    return;
  }
  ++rows_written_;
  // A disturbed run ended ok: it is out of the statistics, not a failure.
  if (row.status != runfile::RunStatus::kOk && row.status != runfile::RunStatus::kDisturbed)
    ++bad_rows_;
}

// The state a row claims is checked, not assumed (docs/driver.md, "The page cache"): a test whose
// ok rows were not in the cache state asked for is named in the meta file. The summary that ends
// the run warns about them, per group and in the same words, so the run loop does not.
bool RecordStep::record_measured(std::size_t cell, const runfile::RunRow& row) {
  if (row.status == runfile::RunStatus::kOk && row.cache_pct)
    cache_checks_[plan_.cells[cell].test].add(to_string(config_.cache), *row.cache_pct);
  record(row);
  if (row.status != runfile::RunStatus::kOk) return false;
  ok_elapsed_s_[cell].push_back(row.elapsed_s);
  return ok_elapsed_s_[cell].size() == 1;
}

std::vector<std::string> RecordStep::cache_state_warnings() const {
  std::vector<std::string> warnings;
  for (const auto& [test, check] : cache_checks_) {
    if (check.off > 0)
      warnings.push_back(report::cache_state_warning(plan_.tests[test].name, check));
  }
  return warnings;
}

}  // namespace iobench::run
