// Verification by the first ok measured run, through the fake launcher (executor_fixture.hpp):
// with `warmup` 0 a copy into a pipe runs no verification run; its first ok measured run is
// compared with the input (docs/driver.md, "Verification"), and what a mismatch or a failure
// does to the rows stays what a verification run's would.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

TEST_F(ExecutorTest, AMismatchOnTheFirstMeasuredRunMarksThePairsRowsAndFailsTheRun) {
  FakeLauncher launcher([](const std::string& name, int) {
    Script script = ok_copy();
    if (name == "wrong") script.stdout_bytes = "alpha\n";
    return script;
  });
  ::testing::internal::CaptureStderr();
  const MatrixTotals totals = run(
      R"("strategies": [{"name": "right", "command": ["right"]}, {"name": "wrong", "command": ["wrong"]}],
             "repeats": 3, "warmup": 0)",
      launcher);
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(launcher.calls.size(), 6U) << "no verification run: 2 tests x 3 measured runs";
  std::map<std::string, std::vector<std::string>> statuses;
  for (const Row& row : rows()) statuses[row.test].push_back(row.status);
  EXPECT_EQ(statuses["right"], (std::vector<std::string>{"ok", "ok", "ok"}));
  EXPECT_EQ(statuses["wrong"], (std::vector<std::string>{"mismatch", "mismatch", "mismatch"}));
  EXPECT_EQ(totals.bad_rows, 3U) << "bad rows make `run` exit 1";
  EXPECT_NE(warnings.find("wrong on "), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("MISMATCH"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("the input"), std::string::npos) << warnings;
}

// No retry: the failed run is a failed row like any measured run, and the next run that ends ok
// is the one compared with the input.
TEST_F(ExecutorTest, AFailedFirstRunIsAFailedRowAndTheNextOkRunVerifies) {
  FakeLauncher launcher([](const std::string& name, int nth) {
    if (nth == 0) return Script{spawn::SpawnOutcome::kSignaled, 0, SIGKILL, "", "", false};
    Script script = ok_copy();
    if (name == "wrong") script.stdout_bytes = "alpha\n";
    return script;
  });
  const MatrixTotals totals = run(
      R"("strategies": [{"name": "right", "command": ["right"]}, {"name": "wrong", "command": ["wrong"]}],
             "repeats": 3, "warmup": 0)",
      launcher);
  EXPECT_EQ(launcher.calls.size(), 6U) << "no verification run, no retry";
  std::map<std::string, std::vector<std::string>> statuses;
  for (const Row& row : rows()) statuses[row.test].push_back(row.status);
  EXPECT_EQ(statuses["right"], (std::vector<std::string>{"signal", "ok", "ok"}));
  EXPECT_EQ(statuses["wrong"], (std::vector<std::string>{"signal", "mismatch", "mismatch"}));
  EXPECT_EQ(totals.bad_rows, 4U);
}

TEST_F(ExecutorTest, ALaterRunThatDiffersFromTheRunThatVerifiedIsAMismatch) {
  FakeLauncher launcher([](const std::string&, int nth) {
    Script script = ok_copy();
    if (nth == 1) script.stdout_bytes = "alpha\n";
    return script;
  });
  ::testing::internal::CaptureStderr();
  run(R"("strategies": [{"name": "flaky", "command": ["flaky"]}], "repeats": 3, "warmup": 0)",
      launcher);
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].status, "ok");
  EXPECT_EQ(all[1].status, "mismatch");
  EXPECT_EQ(all[2].status, "ok");
  EXPECT_NE(warnings.find("run 2: output differs from run 1, which verified it"), std::string::npos)
      << warnings;
}

// The cells that keep a verification run still run it: a null sink beside the pipe, and a
// warmup, which the verification run stands in for.
TEST_F(ExecutorTest, CellsThatKeepTheirVerificationRunStillRunIt) {
  FakeLauncher with_null([](const std::string&, int) { return ok_copy(); });
  run(R"("strategies": [{"name": "a", "command": ["a"]}], "sinks": ["pipe", "null"],
         "repeats": 2, "warmup": 0)",
      with_null);
  EXPECT_EQ(with_null.calls.size(), 5U) << "verification, 2 cells x 2 measured runs";
  FakeLauncher with_warmup([](const std::string&, int) { return ok_copy(); });
  run(R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 2, "warmup": 1)", with_warmup);
  EXPECT_EQ(with_warmup.calls.size(), 3U) << "verification as the warmup, 2 measured runs";
}

}  // namespace
}  // namespace iobench::run::executor_test
