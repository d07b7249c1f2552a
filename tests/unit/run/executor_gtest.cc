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

namespace iobench::executor_test {
namespace {

TEST_F(ExecutorTest, EveryStatusIsRecordedAsTheLauncherReportsIt) {
  FakeLauncher launcher([](const std::string& name, int) {
    if (name == "fails") return Script{SpawnOutcome::kExited, 3, 0, "", "bad input\n", false};
    if (name == "crashes") return Script{SpawnOutcome::kSignaled, 0, SIGSEGV, "", "", false};
    if (name == "hangs") return Script{SpawnOutcome::kTimedOut, 0, SIGTERM, "", "", false};
    if (name == "absent") return Script{SpawnOutcome::kSpawnFailed, 0, 0, "", "", false};
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
  run(R"("strategies": [{"name": "flaky", "command": ["flaky"]}], "repeats": 3, "warmup": 0)",
      launcher);
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].status, "ok");
  EXPECT_EQ(all[1].status, "mismatch");
  EXPECT_EQ(all[2].status, "ok");
}

TEST_F(ExecutorTest, AFailedVerificationRunIsRetriedOnce) {
  FakeLauncher launcher([](const std::string&, int nth) {
    if (nth == 0) return Script{SpawnOutcome::kSignaled, 0, SIGKILL, "", "", false};
    return ok_copy();
  });
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "once", "command": ["once"]}], "repeats": 2, "warmup": 0)",
          launcher);
  EXPECT_EQ(launcher.calls.size(), 4U) << "verification, its retry, two measured runs";
  for (const Row& row : rows()) EXPECT_EQ(row.status, "ok");
  EXPECT_EQ(totals.bad_rows, 0U);
}

TEST_F(ExecutorTest, APairWhoseVerificationFailsTwiceHasNoOkRows) {
  // Crashes on its verification run (and the retry), then "succeeds" with half the input: without
  // a verified output nothing can tell, so those rows must not say ok.
  FakeLauncher launcher([](const std::string&, int nth) {
    if (nth < 2) return Script{SpawnOutcome::kSignaled, 0, SIGSEGV, "", "", false};
    return Script{SpawnOutcome::kExited, 0, 0, "alpha\n", "", false};
  });
  testing::internal::CaptureStderr();
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "crashy", "command": ["crashy"]}], "repeats": 2, "warmup": 0)",
          launcher);
  const std::string warnings = testing::internal::GetCapturedStderr();
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

<<<<<<< HEAD
=======
TEST_F(ExecutorTest, GroupedRunsEachCellsRepeatsTogetherInterleaveAlternates) {
  FakeLauncher grouped([](const std::string&, int) { return ok_copy(); });
  run(R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
         "repeats": 2, "warmup": 1, "order": "grouped")",
      grouped);
  // Verification of both pairs first, then each cell's warmup and repeats together.
  EXPECT_EQ(grouped.calls, (std::vector<std::string>{"a", "b", "a", "a", "a", "b", "b", "b"}));
  FakeLauncher interleaved([](const std::string&, int) { return ok_copy(); });
  run(R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
         "repeats": 2, "warmup": 1, "order": "interleave")",
      interleaved);
  ASSERT_EQ(interleaved.calls.size(), 8U) << "every cell gets its warmup";
  const std::vector<std::string> measured(interleaved.calls.end() - 4, interleaved.calls.end());
  EXPECT_NE(measured[0], measured[1]);
  EXPECT_NE(measured[2], measured[3]);
}

TEST_F(ExecutorTest, AnInterruptStopsTheLoopAndKeepsEveryFinishedRow) {
  FakeLauncher launcher([](const std::string&, int nth) {
    Script script = ok_copy();
    script.interrupt = nth == 3;  // the third measured run
    return script;
  });
  MatrixTotals totals;
  {
    const InterruptGuard guard(launcher);
    totals = run(R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 5, "warmup": 0)",
                 launcher);
    EXPECT_TRUE(interrupt_requested());
  }
  EXPECT_TRUE(launcher.cancelled.load());
  EXPECT_EQ(launcher.calls.size(), 4U) << "nothing runs after the interrupt";
  EXPECT_EQ(totals.rows_written, 2U);
  EXPECT_EQ(rows().size(), 2U);
}

TEST_F(ExecutorTest, EachRunBoundaryCallsAfterRunOnceItsRowIsWrittenAndPrintsItsWarning) {
  // The busy-CPU window closes at a run boundary (issue 15): the run's worker reaped and its row
  // written, so what it left behind is counted as iobench's own.
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  std::vector<std::size_t> runs_then, rows_then;
  testing::internal::CaptureStderr();
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 2, "warmup": 1)", launcher,
          {}, [&] {
            runs_then.push_back(launcher.calls.size());
            rows_then.push_back(rows().size());
            return runs_then.size() == 2 ? std::string("the window closed") : std::string();
          });
  const std::string warnings = testing::internal::GetCapturedStderr();
  EXPECT_EQ(totals.rows_written, 2U);
  // Verification, warmup, two measured runs.
  EXPECT_EQ(runs_then, (std::vector<std::size_t>{1, 2, 3, 4}));
  EXPECT_EQ(rows_then, (std::vector<std::size_t>{0, 0, 1, 2}));
  EXPECT_EQ(warnings, "iobench: warning: the window closed\n");
}

int g_row_writes_left = 0;
ssize_t filling_write(int fd, const void* buf, std::size_t count) {
  if (g_row_writes_left-- > 0) return ::write(fd, buf, count);
  errno = ENOSPC;
  return -1;
}

TEST_F(ExecutorTest, AFullResultsDiskStopsTheLoopWithEveryWrittenRowKept) {
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  g_row_writes_left = 2;
  std::unique_ptr<sys::ScopedOps> full_disk;
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 6, "warmup": 0)", launcher,
          [&] {
            sys::Ops ops = sys::ops();
            ops.write = &filling_write;
            full_disk = std::make_unique<sys::ScopedOps>(ops);
          });
  full_disk.reset();
  EXPECT_EQ(totals.rows_written, 2U);
  EXPECT_NE(totals.results_error.find("No space left"), std::string::npos) << totals.results_error;
  EXPECT_EQ(launcher.calls.size(), 4U) << "the loop stops at the row it could not write";
  EXPECT_EQ(rows().size(), 2U);
}

TEST_F(ExecutorTest, StderrOnAnOkRunIsWarnedOncePerTestQuotingTheLine) {
  FakeLauncher launcher([](const std::string&, int) {
    Script script = ok_copy();
    script.stderr_bytes = "note: fell back to read(2)\nsecond line\n";
    return script;
  });
  testing::internal::CaptureStderr();
  run(R"("strategies": [{"name": "chatty", "command": ["chatty"]}], "repeats": 3, "warmup": 0)",
      launcher);
  const std::string warnings = testing::internal::GetCapturedStderr();
  const std::string quoted = "chatty: wrote to stderr on a run that ended ok: note: fell back";
  const auto first = warnings.find(quoted);
  ASSERT_NE(first, std::string::npos) << warnings;
  EXPECT_EQ(warnings.find(quoted, first + 1), std::string::npos) << "warned more than once";
}

TEST_F(ExecutorTest, AnInputThatCannotBeReadIsAnErrorRowAndTheMatrixGoesOn) {
  // /proc/self/mem has a size (0) but reading it from offset 0 fails with EIO.
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  config_ =
      parse_config(R"({"name": "t", "inputs": [{"path": "/proc/self/mem"}, {"path": "in.txt"}],
      "cache": "warm", "strategies": [{"name": "a", "command": ["a"]}], "repeats": 1, "warmup": 0})",
                   dir_ / "t.json");
  PlanOptions options;
  options.worker_path = "iobench-worker";
  plan_ = build_plan(config_, options);
  runs_path_ = dir_ / "runs.tsv";
  RunTsvWriter writer(runs_path_);
  ExecutorSettings settings;
  settings.temp_folder = dir_.path();
  testing::internal::CaptureStderr();
  MatrixExecutor executor(config_, plan_, launcher, writer, settings);
  const MatrixTotals totals = executor.run_all();
  const std::string warnings = testing::internal::GetCapturedStderr();
  ASSERT_EQ(totals.rows_written, 2U) << warnings;
  std::ifstream in(runs_path_);
  std::string header, first, second;
  std::getline(in, header);
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_NE(first.find("/proc/self/mem"), std::string::npos);
  EXPECT_NE(first.find("\terror\t"), std::string::npos) << first;
  EXPECT_NE(second.find("\tok\t"), std::string::npos) << second;
}

TEST_F(ExecutorTest, APreciseCellStopsAtMinAndANoisyOneRunsToMax) {
  // a: every run 0.25 s, so its interval is 0 from the third run on; b: 0.2, 0.3, 0.2, ... s,
  // an interval of about ±30 %, so it never reaches 2 % and runs to max.
  FakeLauncher launcher([](const std::string& name, int nth) {
    Script script = ok_copy();
    if (name == "b") script.elapsed_s = nth % 2 == 0 ? 0.2 : 0.3;
    return script;
  });
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
             "repeats": {"min": 3, "max": 6, "ci_pct": 2}, "warmup": 0)",
          launcher);
  int a_rows = 0;
  int b_rows = 0;
  for (const Row& row : rows()) {
    EXPECT_EQ(row.status, "ok");
    (row.test == "a" ? a_rows : b_rows) += 1;
  }
  EXPECT_EQ(a_rows, 3);
  EXPECT_EQ(b_rows, 6);
  EXPECT_EQ(totals.runs_saved, 3U);
}

TEST_F(ExecutorTest, PlainRepeatsRunExactlyThatMany) {
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  const MatrixTotals totals = run(
      R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 4, "warmup": 0)", launcher);
  EXPECT_EQ(rows().size(), 4U);
  EXPECT_EQ(totals.runs_saved, 0U);
}

TEST(ExecutorCacheState, ColdRowsThatStayedResidentAreWarnedAboutPerTest) {
  // tmpfs pages cannot be evicted: every "cold" row is 100 % resident.
  if (!fs::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm here";
  const test::TempDir dir("cold", "/dev/shm");
  std::ofstream(dir / "in.txt", std::ios::binary) << kInputText;
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  const Config config = parse_config(
      R"({"name": "t", "inputs": ["in.txt"], "cache": "cold", "repeats": 2, "warmup": 0,
          "strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}]})",
      dir / "t.json");
  PlanOptions options;
  options.worker_path = "iobench-worker";
  const Plan plan = build_plan(config, options);
  RunTsvWriter writer(dir / "runs.tsv");
  ExecutorSettings settings;
  settings.temp_folder = dir.path();
  MatrixExecutor executor(config, plan, launcher, writer, settings);
  testing::internal::CaptureStderr();
  const MatrixTotals totals = executor.run_all();
  const std::string warnings = testing::internal::GetCapturedStderr();
  ASSERT_EQ(totals.cache_state_warnings.size(), 2U) << warnings;
  EXPECT_EQ(totals.cache_state_warnings[0].rfind("a: cache cold, but 2 of 2 runs started with more "
                                                 "of the input in the page cache (as much as "
                                                 "100.0%",
                                                 0),
            0U)
      << totals.cache_state_warnings[0];
  // Kept for the meta file, not printed: the summary after the runs warns, once, per group.
  EXPECT_EQ(warnings.find("cache cold"), std::string::npos) << warnings;
}

TEST_F(ExecutorTest, TheKernelsPipeSizeIsReported) {
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  const MatrixTotals totals = run(
      R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 1, "warmup": 0, "pipe_size": 100000)",
      launcher);
  // The kernel rounds a pipe's size up to a power of two pages.
  ASSERT_TRUE(totals.pipe_size_given_bytes.has_value());
  EXPECT_GE(*totals.pipe_size_given_bytes, 100000U);
  const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t pages = *totals.pipe_size_given_bytes / page;
  EXPECT_EQ(pages & (pages - 1), 0U) << *totals.pipe_size_given_bytes;
}

// `--op split` files: written under a --prefix the driver gives inside its private folder,
// hashed into the output compared across the class, and removed.
>>>>>>> h-a
TEST_F(ExecutorTest, SplitFilesAreWrittenPrivatelyComparedAcrossTheClassAndRemoved) {
  std::vector<std::string> prefixes;
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  struct SplitWriter final : public Launcher {
    std::vector<std::string>* prefixes = nullptr;
    SpawnResult run(const SpawnRequest& request) override {
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
      SpawnResult result;
      result.outcome = SpawnOutcome::kExited;
      return result;
    }
    void cancel() const noexcept override {}
  } split_writer;
  split_writer.prefixes = &prefixes;
  config_ = parse_config(
      R"({"name": "t", "inputs": ["in.txt"], "cache": "none", "repeats": 1, "warmup": 0,
          "strategies": [
            {"name": "read", "worker": ["--read", "read", "--write", "raw", "--op", "split", "--outputs", "2"]},
            {"name": "fread", "worker": ["--read", "fread", "--write", "raw", "--op=split", "--outputs=2"]},
            {"name": "mmap", "worker": ["--read", "mmap", "--write", "raw", "--op", "split", "--outputs", "2"]}]})",
      dir_ / "t.json");
  PlanOptions options;
  options.worker_path = "iobench-worker";
  plan_ = build_plan(config_, options);
  runs_path_ = dir_ / "runs.tsv";
  const fs::path private_folder = dir_ / "private";
  fs::create_directory(private_folder);
  RunTsvWriter writer(runs_path_);
  ExecutorSettings settings;
  settings.temp_folder = private_folder;
  MatrixExecutor executor(config_, plan_, split_writer, writer, settings);
  testing::internal::CaptureStderr();
  executor.run_all();
  const std::string warnings = testing::internal::GetCapturedStderr();
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
    return Script{SpawnOutcome::kExited, 0, 0, "4\n", "", false};  // the input has 3 lines
  });
  run(R"("strategies": [{"name": "count", "worker": ["--read", "read", "--write", "raw", "--op", "count"]}],
         "repeats": 1, "warmup": 0)",
      launcher);
  ASSERT_EQ(rows().size(), 1U);
  EXPECT_EQ(rows()[0].status, "mismatch");
}

}  // namespace
}  // namespace iobench::executor_test
