#pragma once
// The run loop's last step (docs/driver.md, "The run loop"): a row appended to the run file, and
// for each measured row what the loop goes on from: the cell's ok runs' elapsed times (which the
// precision target and the sequential rule read) and the test's cache state check. A row that
// cannot be written (results disk full) is kept as the error that stops the loop; every row
// before it is in the file.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/runfile/writer.hpp"

namespace iobench::run {

class RecordStep {
 public:
  RecordStep(const config::Plan& plan, const config::Config& config, runfile::RunTsvWriter& writer);
  // Appends a row; counts it, and counts it bad when it ended neither ok nor disturbed.
  void record(const runfile::RunRow& row);
  // A measured row of `cell`: its cache state noted, the row appended, its elapsed time kept
  // when ok. True when it is the cell's first ok run.
  bool record_measured(std::size_t cell, const runfile::RunRow& row);
  // One line per test whose ok measured rows were not in the cache state the config asked for
  // (report::cache_state_warning).
  [[nodiscard]] std::vector<std::string> cache_state_warnings() const;

  [[nodiscard]] const std::vector<std::vector<double>>& ok_elapsed_s() const {
    return ok_elapsed_s_;
  }
  [[nodiscard]] std::size_t rows_written() const { return rows_written_; }
  [[nodiscard]] std::size_t bad_rows() const { return bad_rows_; }
  // Empty until a row could not be written.
  [[nodiscard]] const std::string& results_error() const { return results_error_; }

 private:
  const config::Plan& plan_;
  const config::Config& config_;
  runfile::RunTsvWriter& writer_;
  std::size_t rows_written_ = 0;
  std::size_t bad_rows_ = 0;
  std::string results_error_;
  std::vector<std::vector<double>> ok_elapsed_s_;            // per cell: its ok rows' times
  std::map<std::size_t, runfile::CacheCheck> cache_checks_;  // per test
};

}  // namespace iobench::run
