// driver/run/launch_step: one run through the fake launcher into a real sink: the row gets its
// measurements, status and exit code (a non-zero exit is ok with ignore_failure), the pipe's hash
// and byte count (none for the null sink); a sink that cannot be made fails the run, not the
// step; a strategy's own output file is written and kept; what an ok run wrote to stderr is said
// once per test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "driver/run/launch_step.hpp"
#include "tests/unit/run/executor_fixture.hpp"
#include "tests/unit/run/step_fixture.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run::step_test {
namespace {

using executor_test::FakeLauncher;
using executor_test::Script;

LaunchSettings into(const std::filesystem::path& temp_folder) {
  LaunchSettings settings;
  settings.temp_folder = temp_folder;
  return settings;
}

struct Launch {
  explicit Launch(const std::string& fields, FakeLauncher::Scripter scripter)
      : m(fields),
        launcher(std::move(scripter)),
        step(m.config, launcher, into(m.dir.path()), progress) {}
  runfile::RunRow run(std::size_t test, config::SinkKind sink) {
    runfile::RunRow row;
    outcome = step.launch(m.plan.tests[test], m.dir / "in.txt", sink, row, "0");
    return row;
  }
  Matrix m;
  FakeLauncher launcher;
  Progress progress{0, false};
  LaunchStep step;
  LaunchOutcome outcome;
};

Script copies_input() {
  return Script{spawn::SpawnOutcome::kExited, 0, 0, kStepInput, "", false};
}

TEST(LaunchStep, FillsTheRowFromTheRunAndItsPipe) {
  Launch launch(kTwoCommands, [](const std::string&, int) { return copies_input(); });
  const runfile::RunRow row = launch.run(0, config::SinkKind::kPipe);
  EXPECT_EQ(launch.launcher.calls, std::vector<std::string>{"a"});
  EXPECT_EQ(row.status, runfile::RunStatus::kOk);
  EXPECT_EQ(row.exit_code, 0);
  EXPECT_EQ(row.elapsed_s, 0.25);
  EXPECT_EQ(row.max_rss_kib, 1234);
  EXPECT_EQ(row.bytes_out, kStepInput.size());
  EXPECT_EQ(row.output_hash, launch.outcome.output.hash);
  EXPECT_FALSE(row.output_hash.empty());
  EXPECT_EQ(launch.step.pipe_size_given_bytes(), launch.outcome.output.pipe_size_bytes);
}

TEST(LaunchStep, TheNullSinkGivesNoHashOrByteCount) {
  Launch launch(kTwoCommands, [](const std::string&, int) { return copies_input(); });
  const runfile::RunRow row = launch.run(0, config::SinkKind::kNull);
  EXPECT_EQ(row.status, runfile::RunStatus::kOk);
  EXPECT_FALSE(row.bytes_out.has_value());
  EXPECT_EQ(row.output_hash, "");
}

TEST(LaunchStep, ANonZeroExitFailsUnlessTheStrategyIgnoresIt) {
  const std::string fields =
      R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                        {"name": "b", "command": ["b"], "verify": false, "ignore_failure": true}],
         "repeats": 1, "warmup": 0)";
  Launch launch(fields, [](const std::string&, int) {
    return Script{spawn::SpawnOutcome::kExited, 3, 0, "", "", false};
  });
  const runfile::RunRow failed = launch.run(0, config::SinkKind::kPipe);
  EXPECT_EQ(failed.status, runfile::RunStatus::kFailed);
  EXPECT_EQ(failed.exit_code, 3);
  const runfile::RunRow ignored = launch.run(1, config::SinkKind::kPipe);
  EXPECT_EQ(ignored.status, runfile::RunStatus::kOk);
  EXPECT_EQ(ignored.exit_code, 3);
}

TEST(LaunchStep, ASinkThatCannotBeMadeFailsTheRunWithoutLaunchingIt) {
  Launch launch(kTwoCommands, [](const std::string&, int) { return copies_input(); });
  std::filesystem::remove_all(launch.m.dir.path() / "gone");
  LaunchStep step(launch.m.config, launch.launcher, into(launch.m.dir / "gone"), launch.progress);
  runfile::RunRow row;
  const LaunchOutcome outcome =
      step.launch(launch.m.plan.tests[0], "", config::SinkKind::kFile, row, "0");
  EXPECT_TRUE(launch.launcher.calls.empty());
  EXPECT_EQ(outcome.result.outcome, spawn::SpawnOutcome::kSpawnFailed);
  EXPECT_EQ(row.status, runfile::RunStatus::kError);
}

// bench --output FILE: a strategy's "output_file" is where its file sink writes, emptied at each
// run (as hyperfine's File::create), sized and hashed as a pipe's output is, and kept.
TEST(LaunchStep, AStrategysOutputFileIsWhereItsFileSinkWritesAndIsKept) {
  const iobench::test::TempDir out{"output-file"};
  const std::filesystem::path file = out.path() / "capture.txt";
  const std::string fields = R"("strategies": [{"name": "a", "command": ["a"], "verify": false,
                                                "output_file": ")" +
                             file.string() + R"("}], "repeats": 2, "warmup": 0)";
  Launch launch(fields, [](const std::string&, int nth_call) {
    return Script{
        spawn::SpawnOutcome::kExited, 0, 0, nth_call == 0 ? "first run\n" : "second\n", "", false};
  });
  launch.run(0, config::SinkKind::kFile);
  const runfile::RunRow written = launch.run(0, config::SinkKind::kFile);
  std::ifstream in(file);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "second\n");
  const runfile::RunRow piped = launch.run(0, config::SinkKind::kPipe);
  EXPECT_EQ(written.bytes_out, 7u);
  EXPECT_EQ(written.output_hash, piped.output_hash);
  EXPECT_TRUE(std::filesystem::exists(file)) << "the pipe run left the file alone";
}

TEST(LaunchStep, SaysOncePerTestThatAnOkRunWroteToStderr) {
  Launch launch(kTwoCommands, [](const std::string& name, int) {
    return Script{spawn::SpawnOutcome::kExited, 0, 0, "", "note from " + name + "\nmore\n", false};
  });
  for (int run = 0; run < 2; ++run) {
    launch.run(0, config::SinkKind::kPipe);
    launch.step.warn_stderr_of_ok_run(0, launch.m.plan.tests[0], launch.outcome);
  }
  launch.run(1, config::SinkKind::kPipe);
  launch.step.warn_stderr_of_ok_run(1, launch.m.plan.tests[1], launch.outcome);
  EXPECT_EQ(launch.progress.warnings(),
            (std::vector<std::string>{"a: wrote to stderr on a run that ended ok: note from a",
                                      "b: wrote to stderr on a run that ended ok: note from b"}));
}

}  // namespace
}  // namespace iobench::run::step_test
