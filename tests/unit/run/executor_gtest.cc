// The run loop through a fake launcher (the fixture is executor_fixture.hpp): every
// status, the verification rules and their retry, null sinks, split files and a lone count,
// checked without starting a process or timing anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

TEST_F(ExecutorTest, EveryStatusIsRecordedAsTheLauncherReportsIt) {
  FakeLauncher launcher([](const std::string& name, int) {
    if (name == "fails")
      return Script{spawn::SpawnOutcome::kExited, 3, 0, "", "bad input\n", false};
    if (name == "crashes") return Script{spawn::SpawnOutcome::kSignaled, 0, SIGSEGV, "", "", false};
    if (name == "hangs") return Script{spawn::SpawnOutcome::kTimedOut, 0, SIGTERM, "", "", false};
    if (name == "absent") return Script{spawn::SpawnOutcome::kSpawnFailed, 0, 0, "", "", false};
    return ok_copy();
  });
  const MatrixTotals totals = run(
      R"("strategies": [{"name": "good", "command": ["good"]}, {"name": "fails", "command": ["fails"]},
          {"name": "crashes", "command": ["crashes"]}, {"name": "hangs", "command": ["hangs"]},
          {"name": "absent", "command": ["absent"]}], "repeats": 1, "warmup": 0)",
      launcher);
  std::map<std::string, Row> by_test;
  for (const Row& row : rows()) by_test[row.test] = row;
  ASSERT_EQ(by_test.size(), 5U);
  EXPECT_EQ(by_test["good"].status, "ok");
  EXPECT_EQ(by_test["good"].exit_code, "0");
  EXPECT_EQ(by_test["fails"].status, "failed");
  EXPECT_EQ(by_test["fails"].exit_code, "3");
  EXPECT_EQ(by_test["crashes"].status, "signal");
  EXPECT_EQ(by_test["crashes"].exit_code, std::to_string(128 + SIGSEGV));
  EXPECT_EQ(by_test["hangs"].status, "timeout");
  EXPECT_EQ(by_test["hangs"].exit_code, std::to_string(128 + SIGTERM));
  EXPECT_EQ(by_test["absent"].status, "error");
  EXPECT_EQ(by_test["absent"].exit_code, "");
  EXPECT_EQ(totals.rows_written, 5U);
  EXPECT_EQ(totals.bad_rows, 4U);
}

TEST_F(ExecutorTest, ACopyIsComparedWithTheInputAndWrongBytesAreAMismatch) {
  FakeLauncher launcher([](const std::string& name, int) {
    Script script = ok_copy();
    if (name == "wrong") script.stdout_bytes = "alpha\n";
    return script;
  });
  run(R"("strategies": [{"name": "right", "command": ["right"]}, {"name": "wrong", "command": ["wrong"]}],
         "repeats": 2, "warmup": 0)",
      launcher);
  int right_ok = 0;
  int wrong_mismatch = 0;
  for (const Row& row : rows()) {
    if (row.test == "right" && row.status == "ok") {
      ++right_ok;
      EXPECT_EQ(row.bytes_out, std::to_string(kInputText.size()));
      EXPECT_FALSE(row.output_hash.empty());
    }
    wrong_mismatch += row.test == "wrong" && row.status == "mismatch" ? 1 : 0;
  }
  EXPECT_EQ(right_ok, 2);
  EXPECT_EQ(wrong_mismatch, 2);
}

TEST_F(ExecutorTest, AMeasuredRunThatDiffersFromItsVerificationRunIsAMismatch) {
  // Right on its verification run, then half the input on the second measured run.
  FakeLauncher launcher([](const std::string&, int nth) {
    Script script = ok_copy();
    if (nth == 2) script.stdout_bytes = "alpha\n";
    return script;
  });
  // "warmup": 1 keeps the verification run (as the warmup; docs/driver.md, "Verification").
  run(R"("strategies": [{"name": "flaky", "command": ["flaky"]}], "repeats": 3, "warmup": 1)",
      launcher);
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].status, "ok");
  EXPECT_EQ(all[1].status, "mismatch");
  EXPECT_EQ(all[2].status, "ok");
}

TEST_F(ExecutorTest, AFailedVerificationRunIsRetriedOnce) {
  FakeLauncher launcher([](const std::string&, int nth) {
    if (nth == 0) return Script{spawn::SpawnOutcome::kSignaled, 0, SIGKILL, "", "", false};
    return ok_copy();
  });
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "once", "command": ["once"]}], "repeats": 2, "warmup": 1)",
          launcher);
  EXPECT_EQ(launcher.calls.size(), 4U) << "verification, its retry, two measured runs";
  for (const Row& row : rows()) EXPECT_EQ(row.status, "ok");
  EXPECT_EQ(totals.bad_rows, 0U);
}

TEST_F(ExecutorTest, APairWhoseVerificationFailsTwiceHasNoOkRows) {
  // Crashes on its verification run (and the retry), then "succeeds" with half the input: without
  // a verified output nothing can tell, so those rows must not say ok.
  FakeLauncher launcher([](const std::string&, int nth) {
    if (nth < 2) return Script{spawn::SpawnOutcome::kSignaled, 0, SIGSEGV, "", "", false};
    return Script{spawn::SpawnOutcome::kExited, 0, 0, "alpha\n", "", false};
  });
  ::testing::internal::CaptureStderr();
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "crashy", "command": ["crashy"]}], "repeats": 2, "warmup": 1)",
          launcher);
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 2U);
  for (const Row& row : all) EXPECT_EQ(row.status, "error");
  EXPECT_EQ(totals.bad_rows, 2U);
  EXPECT_NE(warnings.find("unverified"), std::string::npos) << warnings;
}

TEST_F(ExecutorTest, NullSinkRowsHaveNoByteCountOrHash) {
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  run(R"("strategies": [{"name": "a", "command": ["a"]}], "sinks": ["null", "pipe"],
         "repeats": 1, "warmup": 0)",
      launcher);
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 2U);
  for (const Row& row : all) {
    EXPECT_EQ(row.status, "ok");
    if (row.sink == "null") {
      EXPECT_EQ(row.bytes_out, "");
      EXPECT_EQ(row.output_hash, "");
    } else {
      EXPECT_EQ(row.bytes_out, std::to_string(kInputText.size()));
    }
  }
}

TEST_F(ExecutorTest, SplitFilesAreWrittenPrivatelyComparedAcrossTheClassAndRemoved) {
  std::vector<std::string> prefixes;
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  struct SplitWriter final : public Launcher {
    std::vector<std::string>* prefixes = nullptr;
    spawn::SpawnResult run(const spawn::SpawnRequest& request) override {
      const auto& argv = request.argv;
      const auto prefix = std::find(argv.begin(), argv.end(), "--prefix");
      const auto reader = std::find(argv.begin(), argv.end(), "--read");
      EXPECT_NE(prefix, argv.end());
      if (prefix == argv.end() || reader == argv.end()) return {};
      prefixes->push_back(*(prefix + 1));
      for (int i = 0; i < 2; ++i) {
        std::string path = *(prefix + 1);
        path.replace(path.find("{}"), 2, std::to_string(i));
        // "mmap" puts a line into the wrong output: its stdout is right, its files are not.
        std::ofstream(path) << (*(reader + 1) == "mmap" ? "b\na\n" : "a\nb\n");
      }
      spawn::SpawnResult result;
      result.outcome = spawn::SpawnOutcome::kExited;
      return result;
    }
    void cancel() const noexcept override {}
  } split_writer;
  split_writer.prefixes = &prefixes;
  config_ = config::parse_config(
      R"({"name": "t", "inputs": ["in.txt"], "cache": "none", "repeats": 1, "warmup": 0,
          "strategies": [
            {"name": "read", "worker": ["--read", "read", "--write", "raw", "--op", "split", "--outputs", "2"]},
            {"name": "fread", "worker": ["--read", "fread", "--write", "raw", "--op=split", "--outputs=2"]},
            {"name": "mmap", "worker": ["--read", "mmap", "--write", "raw", "--op", "split", "--outputs", "2"]}]})",
      dir_ / "t.json");
  config::PlanOptions options;
  options.worker_path = "iobench-worker";
  plan_ = config::build_plan(config_, options);
  runs_path_ = dir_ / "runs.tsv";
  const fs::path private_folder = dir_ / "private";
  fs::create_directory(private_folder);
  runfile::RunTsvWriter writer(runs_path_);
  ExecutorSettings settings;
  settings.temp_folder = private_folder;
  MatrixExecutor executor(config_, plan_, split_writer, writer, settings);
  ::testing::internal::CaptureStderr();
  executor.run_all();
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(prefixes.size(), 6U);
  for (const auto& prefix : prefixes) {
    EXPECT_EQ(prefix.rfind(private_folder.string() + "/", 0), 0U) << prefix;
  }
  EXPECT_TRUE(fs::is_empty(private_folder)) << "split files left behind";
  std::map<std::string, std::string> status;
  for (const Row& row : rows()) status[row.test] = row.status;
  EXPECT_EQ(status["read"], "ok");
  EXPECT_EQ(status["fread"], "ok");
  EXPECT_EQ(status["mmap"], "mismatch") << warnings;
}

TEST_F(ExecutorTest, ALoneCountTestIsCheckedAgainstTheInputsLineCount) {
  // The only test of its class: without the driver's own reference, nothing would catch it.
  FakeLauncher launcher([](const std::string&, int) {
    return Script{spawn::SpawnOutcome::kExited, 0, 0, "4\n", "", false};  // the input has 3 lines
  });
  run(R"("strategies": [{"name": "count", "worker": ["--read", "read", "--write", "raw", "--op", "count"]}],
         "repeats": 1, "warmup": 0)",
      launcher);
  ASSERT_EQ(rows().size(), 1U);
  EXPECT_EQ(rows()[0].status, "mismatch");
}

}  // namespace
}  // namespace iobench::run::executor_test
