// `iobench bench`'s stop (ExecutorSettings::stop_at_first_failure, docs/bench.md): a command
// whose run fails, without ignore_failure, or whose output mismatches the reference's, is said
// so in one line and not run again; `iobench run` keeps running it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

constexpr const char* kTwoCommands =
    R"("repeats": 5, "warmup": 1, "strategies": [{"name": "a", "command": ["a"]}, )"
    R"({"name": "b", "command": ["b"]}], "baseline": "a")";

long calls_of(const FakeLauncher& launcher, const std::string& name) {
  return std::count(launcher.calls.begin(), launcher.calls.end(), name);
}

long lines_with(const std::vector<std::string>& lines, const std::string& part) {
  return std::count_if(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

Script failing() {
  Script script = ok_copy();
  script.exit_code = 1;
  return script;
}

class ExecutorStop : public ExecutorTest {
 protected:
  void SetUp() override {
    ExecutorTest::SetUp();
    stop_at_first_failure_ = true;
  }
};

TEST_F(ExecutorStop, AFailingCommandRunsOnceAndIsSaidInOneLine) {
  FakeLauncher launcher(
      [](const std::string& name, int) { return name == "b" ? failing() : ok_copy(); });
  const MatrixTotals totals = run(kTwoCommands, launcher);
  EXPECT_EQ(calls_of(launcher, "b"), 1) << "its verification run, not retried, not run again";
  EXPECT_EQ(calls_of(launcher, "a"), 6);
  // The run that failed keeps its row, so the command is on every surface with no ok run (it
  // vanished from bench's blocks and exports when its first run failed).
  const std::vector<Row> all = rows();
  EXPECT_EQ(rows_of(all, "b"), 1);
  EXPECT_EQ(std::count_if(all.begin(), all.end(),
                          [](const Row& r) { return r.test == "b" && r.status == "failed"; }),
            1);
  EXPECT_EQ(totals.bad_rows, 1U);
  EXPECT_EQ(totals.stopped_pairs, 1U);
  EXPECT_EQ(totals.warnings.size(), 1U) << "one line, not the verification's warning twice";
  EXPECT_EQ(lines_with(totals.warnings, "b on "), 1);
  EXPECT_EQ(lines_with(totals.warnings, "exit code 1; it is not run again"), 1);
}

TEST_F(ExecutorStop, AFailureAtAMeasuredRunEndsItsCommandThere) {
  FakeLauncher launcher([](const std::string& name, int nth) {
    return name == "b" && nth == 3 ? failing() : ok_copy();
  });
  const MatrixTotals totals = run(kTwoCommands, launcher);
  const std::vector<Row> all = rows();
  EXPECT_EQ(rows_of(all, "b"), 3) << "runs 1 and 2 ok, run 3 failed, then none";
  const auto failed =
      std::find_if(all.begin(), all.end(), [](const Row& r) { return r.status == "failed"; });
  ASSERT_NE(failed, all.end());
  EXPECT_EQ(failed->test, "b");
  EXPECT_EQ(failed->repeat, 3);
  EXPECT_EQ(totals.bad_rows, 1U);
  EXPECT_EQ(calls_of(launcher, "b"), 4);
}

TEST_F(ExecutorStop, AMismatchIsSaidAfterTheFirstRunAndNotRunAgain) {
  FakeLauncher launcher([](const std::string& name, int) {
    Script script = ok_copy();
    if (name == "b") script.stdout_bytes = "other\n";
    return script;
  });
  const MatrixTotals totals = run(kTwoCommands, launcher);
  EXPECT_EQ(calls_of(launcher, "b"), 1);
  // Its one run's row stays, marked (issue 47: it vanished, so the history never had the
  // command's series and check said "every series judged").
  const std::vector<Row> all = rows();
  EXPECT_EQ(rows_of(all, "b"), 1);
  EXPECT_EQ(std::count_if(all.begin(), all.end(),
                          [](const Row& r) { return r.test == "b" && r.status == "mismatch"; }),
            1);
  EXPECT_EQ(totals.bad_rows, 1U);
  EXPECT_EQ(totals.stopped_pairs, 1U);
  EXPECT_EQ(lines_with(totals.warnings, "MISMATCH"), 1);
  EXPECT_EQ(lines_with(totals.warnings, "it is not run again (--verify off times it anyway)"), 1);
}

TEST_F(ExecutorStop, IgnoredFailuresAreTimedEveryRun) {
  FakeLauncher launcher(
      [](const std::string& name, int) { return name == "b" ? failing() : ok_copy(); });
  const MatrixTotals totals =
      run(R"("repeats": 5, "warmup": 1, "strategies": [{"name": "a", "command": ["a"]}, )"
          R"({"name": "b", "command": ["b"], "ignore_failure": true}], "baseline": "a")",
          launcher);
  EXPECT_EQ(rows_of(rows(), "b"), 5);
  EXPECT_EQ(totals.stopped_pairs, 0U);
}

class ExecutorNoStop : public ExecutorTest {};

TEST_F(ExecutorNoStop, RunKeepsRunningAFailingCommand) {
  FakeLauncher launcher(
      [](const std::string& name, int) { return name == "b" ? failing() : ok_copy(); });
  const MatrixTotals totals = run(kTwoCommands, launcher);
  EXPECT_EQ(rows_of(rows(), "b"), 5) << "iobench run: every planned run, failed";
  EXPECT_EQ(totals.stopped_pairs, 0U);
}

}  // namespace
}  // namespace iobench::run::executor_test
