// The run loop through a fake launcher (the fixture is executor_fixture.hpp): the
// order, an interrupt, run boundaries, a full results disk, stderr on ok runs, an unreadable
// input, the repeats precision target, cache-state and pipe-size reports, checked without
// starting a process or timing anything.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

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
  // The pipe cells' verification runs are their warmups (docs/driver.md, "Order, failures,
  // interrupts"): 2 verification runs, then 4 measured.
  ASSERT_EQ(interleaved.calls.size(), 6U) << "a verification run stands in for the warmup";
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
    const InterruptGuard guard;
    const CancelOnInterrupt cancel(launcher);
    // "warmup": 1 keeps the verification run (as the warmup), call 0.
    totals = run(R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 5, "warmup": 1)",
                 launcher);
    EXPECT_TRUE(interrupt_requested());
  }
  EXPECT_TRUE(launcher.cancelled.load());
  EXPECT_EQ(launcher.calls.size(), 4U) << "nothing runs after the interrupt";
  EXPECT_EQ(totals.rows_written, 2U);
  EXPECT_EQ(rows().size(), 2U);
  // The flag outlives its guard (interrupt_requested says so after a run); a new outermost guard
  // clears it, so the tests after this one in the same process are not interrupted.
  { const InterruptGuard clear; }
}

TEST_F(ExecutorTest, EachRunBoundaryCallsAfterRunOnceItsRowIsWrittenAndPrintsItsWarning) {
  // The busy-CPU window closes at a run boundary (docs/driver.md, "Order, failures, interrupts"):
  // the run's worker reaped and its row written, so what it left behind is counted as iobench's
  // own.
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  std::vector<std::size_t> runs_then, rows_then;
  ::testing::internal::CaptureStderr();
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 2, "warmup": 1)", launcher,
          {}, [&] {
            runs_then.push_back(launcher.calls.size());
            rows_then.push_back(rows().size());
            return runs_then.size() == 2 ? std::string("the window closed") : std::string();
          });
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(totals.rows_written, 2U);
  // Verification (standing in for the warmup), two measured runs.
  EXPECT_EQ(runs_then, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(rows_then, (std::vector<std::size_t>{0, 1, 2}));
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
      run(R"("strategies": [{"name": "a", "command": ["a"]}], "repeats": 6, "warmup": 1)", launcher,
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
  ::testing::internal::CaptureStderr();
  run(R"("strategies": [{"name": "chatty", "command": ["chatty"]}], "repeats": 3, "warmup": 0)",
      launcher);
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  const std::string quoted = "chatty: wrote to stderr on a run that ended ok: note: fell back";
  const auto first = warnings.find(quoted);
  ASSERT_NE(first, std::string::npos) << warnings;
  EXPECT_EQ(warnings.find(quoted, first + 1), std::string::npos) << "warned more than once";
}

TEST_F(ExecutorTest, AnInputThatCannotBeReadIsAnErrorRowAndTheMatrixGoesOn) {
  // /proc/self/mem has a size (0) but reading it from offset 0 fails with EIO.
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  config_ = config::parse_config(
      R"({"name": "t", "inputs": [{"path": "/proc/self/mem"}, {"path": "in.txt"}],
      "cache": "warm", "strategies": [{"name": "a", "command": ["a"]}], "repeats": 1, "warmup": 0})",
      dir_ / "t.json");
  config::PlanOptions options;
  options.worker_path = "iobench-worker";
  plan_ = config::build_plan(config_, options);
  runs_path_ = dir_ / "runs.tsv";
  runfile::RunTsvWriter writer(runs_path_);
  ExecutorSettings settings;
  settings.temp_folder = dir_.path();
  ::testing::internal::CaptureStderr();
  MatrixExecutor executor(config_, plan_, launcher, writer, settings);
  const MatrixTotals totals = executor.run_all();
  const std::string warnings = ::testing::internal::GetCapturedStderr();
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
  const iobench::test::TempDir dir("cold", "/dev/shm");
  std::ofstream(dir / "in.txt", std::ios::binary) << kInputText;
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  const config::Config config = config::parse_config(
      R"({"name": "t", "inputs": ["in.txt"], "cache": "cold", "repeats": 2, "warmup": 0,
          "strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}]})",
      dir / "t.json");
  config::PlanOptions options;
  options.worker_path = "iobench-worker";
  const config::Plan plan = config::build_plan(config, options);
  runfile::RunTsvWriter writer(dir / "runs.tsv");
  ExecutorSettings settings;
  settings.temp_folder = dir.path();
  MatrixExecutor executor(config, plan, launcher, writer, settings);
  ::testing::internal::CaptureStderr();
  const MatrixTotals totals = executor.run_all();
  const std::string warnings = ::testing::internal::GetCapturedStderr();
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

}  // namespace
}  // namespace iobench::run::executor_test
