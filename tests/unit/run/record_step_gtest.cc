// driver/run/record_step: the rows to the run file, counted (bad: neither ok nor disturbed), each
// measured ok row's elapsed time kept for its cell, the first one said, and the tests whose ok
// rows were not in the cache state asked for named.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "driver/run/record_step.hpp"
#include "tests/unit/run/step_fixture.hpp"

namespace iobench::run::step_test {
namespace {

runfile::RunRow row_of(const std::string& test, runfile::RunStatus status, double elapsed_s) {
  runfile::RunRow row;
  row.test = test;
  row.status = status;
  row.elapsed_s = elapsed_s;
  row.repeat = 1;
  return row;
}

std::size_t lines_in(const std::filesystem::path& path) {
  std::ifstream in(path);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(RecordStep, CountsRowsAndBadOnesButNotDisturbedOnes) {
  const Matrix m(kTwoCommands);
  runfile::RunTsvWriter writer(m.dir / "runs.tsv");
  RecordStep record(m.plan, m.config, writer);
  const std::size_t header_lines = lines_in(m.dir / "runs.tsv");
  record.record(row_of("a", runfile::RunStatus::kOk, 0.5));
  record.record(row_of("a", runfile::RunStatus::kDisturbed, 0.5));
  record.record(row_of("a", runfile::RunStatus::kFailed, 0.5));
  record.record(row_of("a", runfile::RunStatus::kError, 0));
  EXPECT_EQ(record.rows_written(), 4U);
  EXPECT_EQ(record.bad_rows(), 2U);
  EXPECT_EQ(lines_in(m.dir / "runs.tsv"), header_lines + 4);
  EXPECT_TRUE(record.results_error().empty());
}

TEST(RecordStep, KeepsEachCellsOkTimesAndSaysTheFirst) {
  const Matrix m(kTwoCommands);
  runfile::RunTsvWriter writer(m.dir / "runs.tsv");
  RecordStep record(m.plan, m.config, writer);
  EXPECT_FALSE(record.record_measured(1, row_of("b", runfile::RunStatus::kDisturbed, 0.9)));
  EXPECT_TRUE(record.record_measured(1, row_of("b", runfile::RunStatus::kOk, 0.25)));
  EXPECT_FALSE(record.record_measured(1, row_of("b", runfile::RunStatus::kOk, 0.5)));
  EXPECT_TRUE(record.record_measured(0, row_of("a", runfile::RunStatus::kOk, 0.75)));
  const std::vector<std::vector<double>> expected = {{0.75}, {0.25, 0.5}};
  EXPECT_EQ(record.ok_elapsed_s(), expected);
}

TEST(RecordStep, NamesATestWhoseOkRowsWereNotInTheCacheStateAskedFor) {
  Matrix m(kTwoCommands);
  m.config.cache = config::CacheMode::kWarm;
  runfile::RunTsvWriter writer(m.dir / "runs.tsv");
  RecordStep record(m.plan, m.config, writer);
  runfile::RunRow cold = row_of("b", runfile::RunStatus::kOk, 0.5);
  cold.cache_pct = 10;
  runfile::RunRow warm = row_of("a", runfile::RunStatus::kOk, 0.5);
  warm.cache_pct = 100;
  record.record_measured(0, warm);
  record.record_measured(1, cold);
  const std::vector<std::string> warnings = record.cache_state_warnings();
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_EQ(warnings[0].rfind("b: cache warm, but 1 of 1 runs started with", 0), 0U) << warnings[0];
}

}  // namespace
}  // namespace iobench::run::step_test
