// What the run loop does for `iobench bench`'s configs (docs/bench.md), through a fake launcher
// that records every request: runs without an input, a stdin file fed to every run, the hooks
// (setup, prepare, conclude, cleanup) in hyperfine's order, ignore_failure, and the inherit sink.
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver/run/executor.hpp"
#include "driver/runfile/header.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

// What one request asked for, and what the fake answers.
struct Seen {
  std::vector<std::string> argv;
  bool has_stdin = false;
  std::string stdin_bytes;
  int stdout_fd = -1;
  int stderr_fd = -1;
  std::vector<std::string> env;
};

class RecordingLauncher final : public Launcher {
 public:
  // The answer for a request: exit code and stdout, by argv.
  using Answer = std::function<std::pair<int, std::string>(const std::vector<std::string>&)>;
  explicit RecordingLauncher(Answer answer) : answer_(std::move(answer)) {}

  spawn::SpawnResult run(const spawn::SpawnRequest& request) override {
    Seen seen{request.argv,      request.stdin_fd >= 0, "",
              request.stdout_fd, request.stderr_fd,     request.env};
    if (request.stdin_fd >= 0) {
      char buffer[4096];
      for (;;) {
        const ssize_t n = ::read(request.stdin_fd, buffer, sizeof buffer);
        if (n <= 0) break;
        seen.stdin_bytes.append(buffer, static_cast<std::size_t>(n));
      }
    }
    requests.push_back(std::move(seen));
    const auto [exit_code, out] = answer_(request.argv);
    if (request.stdout_fd >= 0 && !out.empty()) {
      EXPECT_EQ(::write(request.stdout_fd, out.data(), out.size()),
                static_cast<ssize_t>(out.size()));
    }
    spawn::SpawnResult result;
    result.outcome = spawn::SpawnOutcome::kExited;
    result.exit_code = exit_code;
    result.elapsed_s = 0.01;
    return result;
  }
  void cancel() const noexcept override {}

  std::vector<Seen> requests;

 private:
  Answer answer_;
};

class BenchExecutorTest : public ::testing::Test {
 protected:
  // Runs the config text through the executor with the launcher; returns the rows as column ->
  // value maps, each column found by its header name.
  std::vector<std::map<std::string, std::string>> run(const std::string& config_text,
                                                      Launcher& launcher) {
    config_ = config::parse_config(config_text, dir_ / "c.json");
    config::PlanOptions options;
    options.worker_path = "iobench-worker";
    plan_ = config::build_plan(config_, options);
    const fs::path runs = dir_ / ("runs" + std::to_string(++count_) + ".tsv");
    {
      runfile::RunTsvWriter writer(runs);
      ExecutorSettings settings;
      settings.temp_folder = dir_.path();
      settings.host = "h";
      MatrixExecutor executor(config_, plan_, launcher, writer, settings);
      totals_ = executor.run_all();
    }
    std::ifstream in(runs);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const runfile::FileHeader header = runfile::read_header(runs.string(), text);
    std::vector<std::map<std::string, std::string>> rows;
    std::istringstream body(text.substr(header.body_start));
    std::string line;
    while (std::getline(body, line)) {
      const auto fields = runfile::split_tabs(line);
      std::map<std::string, std::string> row;
      for (std::size_t i = 0; i < header.columns.size() && i < fields.size(); ++i)
        row[std::string(header.columns[i])] = std::string(fields[i]);
      rows.push_back(std::move(row));
    }
    return rows;
  }

  const iobench::test::TempDir dir_{"bench-executor"};
  config::Config config_;
  config::Plan plan_;
  MatrixTotals totals_;
  int count_ = 0;
};

TEST_F(BenchExecutorTest, WithoutAnInputRunsHaveNoInputNoCacheStepAndDevNullOnStdin) {
  RecordingLauncher launcher([](const std::vector<std::string>&) {
    return std::pair<int, std::string>{0, "same\n"};
  });
  const auto rows = run(R"({"name": "b", "strategies": [{"name": "a", "command": ["a"]},
                           {"name": "b", "command": ["b"]}], "repeats": 2, "warmup": 0})",
                        launcher);
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("status"), "ok");
    EXPECT_EQ(row.at("input"), "");
    EXPECT_EQ(row.at("cache_pct"), "");  // no cache step, no residency
    EXPECT_EQ(row.at("bytes_out"), "5");
  }
  ASSERT_EQ(launcher.requests.size(), 6u);  // a verification run each, then the measured ones
  for (const Seen& seen : launcher.requests) EXPECT_FALSE(seen.has_stdin);
}

TEST_F(BenchExecutorTest, WithoutAnInputTheFirstCommandsOutputIsTheReference) {
  RecordingLauncher launcher([](const std::vector<std::string>& argv) {
    return std::pair<int, std::string>{0, argv[0] == "odd" ? "other\n" : "same\n"};
  });
  const auto rows = run(R"({"name": "b", "strategies": [{"name": "a", "command": ["a"]},
                           {"name": "odd", "command": ["odd"]}], "repeats": 1, "warmup": 0})",
                        launcher);
  std::map<std::string, std::string> status;
  for (const auto& row : rows) status[row.at("test")] = row.at("status");
  EXPECT_EQ(status["a"], "ok");
  EXPECT_EQ(status["odd"], "mismatch");
}

TEST_F(BenchExecutorTest, EveryRunReadsTheStdinFileFromItsStart) {
  std::ofstream(dir_ / "feed.txt", std::ios::binary) << "fed\nbytes\n";
  RecordingLauncher launcher([](const std::vector<std::string>&) {
    return std::pair<int, std::string>{0, "10\n"};
  });
  const auto rows = run(R"({"name": "b", "stdin": "feed.txt", "strategies": [{"name": "wc",
                           "command": ["wc", "-c"]}], "repeats": 3, "warmup": 1})",
                        launcher);
  ASSERT_EQ(rows.size(), 3u);
  ASSERT_EQ(launcher.requests.size(), 4u);  // verification (the warmup too), 3 measured
  for (const Seen& seen : launcher.requests) {
    EXPECT_TRUE(seen.has_stdin);
    EXPECT_EQ(seen.stdin_bytes, "fed\nbytes\n");
  }
}

TEST_F(BenchExecutorTest, AStdinFileThatIsGoneMakesTheRunAnError) {
  // (The pre-run check refuses a missing one before anything runs; here it went away since.)
  RecordingLauncher launcher([](const std::vector<std::string>&) {
    return std::pair<int, std::string>{0, ""};
  });
  const auto rows = run(R"({"name": "b", "stdin": "gone.txt", "strategies": [{"name": "c",
                           "command": ["c"]}], "repeats": 1, "warmup": 0})",
                        launcher);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("status"), "error");
  EXPECT_TRUE(launcher.requests.empty());
}

// The last word of each request: the command, or the hook's text (sh -c TEXT).
std::vector<std::string> last_words(const RecordingLauncher& launcher) {
  std::vector<std::string> words;
  for (const Seen& seen : launcher.requests) words.push_back(seen.argv.back());
  return words;
}

std::pair<int, std::string> ok_empty(const std::vector<std::string>&) {
  return {0, ""};
}

TEST_F(BenchExecutorTest, SetupOncePrepareBeforeEveryRunCleanupOnceAfterTheLast) {
  RecordingLauncher launcher(ok_empty);
  const auto rows = run(R"({"name": "b", "strategies": [
      {"name": "a", "command": "a", "shell": true, "setup": "setup a", "prepare": "prep a",
       "cleanup": "clean a"},
      {"name": "b", "command": "b", "shell": true, "prepare": "prep b"}],
      "repeats": 3, "warmup": 1})",
                        launcher);
  ASSERT_EQ(rows.size(), 6u);
  for (const auto& row : rows) EXPECT_EQ(row.at("status"), "ok");
  const std::vector<std::string> words = last_words(launcher);
  const auto count = [&](const std::string& word) {
    return std::count(words.begin(), words.end(), word);
  };
  EXPECT_EQ(count("setup a"), 1);
  EXPECT_EQ(count("clean a"), 1);
  EXPECT_EQ(count("a"), 4);  // verification (the warmup too), 3 measured: hyperfine's -w 1 -r 3
  EXPECT_EQ(count("prep a"), 4);
  EXPECT_EQ(count("prep b"), count("b"));
  const auto first_a = std::find(words.begin(), words.end(), "a");
  const auto last_a = std::find(words.rbegin(), words.rend(), "a").base() - 1;
  EXPECT_LT(std::find(words.begin(), words.end(), "setup a"), first_a);
  EXPECT_GT(std::find(words.begin(), words.end(), "clean a"), last_a);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "a" || words[i] == "b") {
      ASSERT_GT(i, 0u);
      EXPECT_EQ(words[i - 1], "prep " + words[i]) << "run " << i << " was not prepared";
    }
  }
  // Hooks run as their command does, unmeasured: sh -c TEXT, output to /dev/null.
  const auto setup = std::find_if(launcher.requests.begin(), launcher.requests.end(),
                                  [](const Seen& seen) { return seen.argv.back() == "setup a"; });
  EXPECT_EQ(setup->argv, (std::vector<std::string>{"sh", "-c", "setup a"}));
  EXPECT_EQ(setup->stdout_fd, -1);
}

TEST_F(BenchExecutorTest, HooksTakeTheTestsParamsAndItsWayOfRunning) {
  RecordingLauncher launcher(ok_empty);
  run(R"({"name": "b", "params": {"n": [1, 2]}, "strategies": [
      {"name": "a {n}", "command": ["a", "{n}"], "setup": "setup 'x {n}'"}],
      "repeats": 1, "warmup": 0})",
      launcher);
  std::vector<std::vector<std::string>> setups;
  for (const Seen& seen : launcher.requests) {
    if (seen.argv.front() == "setup") setups.push_back(seen.argv);
  }
  // Without a shell, a hook is split into words as the command was (hyperfine -N).
  EXPECT_EQ(setups, (std::vector<std::vector<std::string>>{{"setup", "x 1"}, {"setup", "x 2"}}));
}

TEST_F(BenchExecutorTest, AFailedPrepareMakesItsRunsErrorsAndTheOthersGoOn) {
  RecordingLauncher launcher([](const std::vector<std::string>& argv) {
    return std::pair<int, std::string>{argv.back() == "prep b" ? 1 : 0, ""};
  });
  const auto rows = run(R"({"name": "b", "strategies": [
      {"name": "a", "command": "a", "shell": true},
      {"name": "b", "command": "b", "shell": true, "prepare": "prep b"}],
      "repeats": 2, "warmup": 0})",
                        launcher);
  std::map<std::string, std::vector<std::string>> statuses;
  for (const auto& row : rows) statuses[row.at("test")].push_back(row.at("status"));
  EXPECT_EQ(statuses["a"], (std::vector<std::string>{"ok", "ok"}));
  EXPECT_EQ(statuses["b"], (std::vector<std::string>{"error", "error"}));
  const std::vector<std::string> words = last_words(launcher);
  EXPECT_EQ(std::count(words.begin(), words.end(), "b"), 0);
  EXPECT_EQ(totals_.bad_rows, 2u);
}

TEST_F(BenchExecutorTest, AFailedSetupFailsEveryRunOfItsTestWithoutRunningAgain) {
  RecordingLauncher launcher([](const std::vector<std::string>& argv) {
    return std::pair<int, std::string>{argv.back() == "setup a" ? 2 : 0, ""};
  });
  const auto rows = run(R"({"name": "b", "strategies": [
      {"name": "a", "command": "a", "shell": true, "setup": "setup a", "prepare": "prep a",
       "cleanup": "clean a"},
      {"name": "b", "command": "b", "shell": true}], "repeats": 3, "warmup": 1})",
                        launcher);
  for (const auto& row : rows) EXPECT_EQ(row.at("status"), row.at("test") == "a" ? "error" : "ok");
  const std::vector<std::string> words = last_words(launcher);
  EXPECT_EQ(std::count(words.begin(), words.end(), "setup a"), 1);
  for (const char* never : {"a", "prep a", "clean a"}) {
    EXPECT_EQ(std::count(words.begin(), words.end(), never), 0) << never;
  }
}

// hyperfine 1.19's --conclude: after every run of its test (verification and warmups too), before
// the next one's prepare; one that fails makes the test's later runs errors, its cleanup still
// runs, and the other tests go on.
TEST_F(BenchExecutorTest, AConcludeRunsAfterEveryRunAndAFailedOneStopsItsTest) {
  RecordingLauncher launcher(ok_empty);
  run(R"({"name": "b", "strategies": [
      {"name": "a", "command": "a", "shell": true, "prepare": "prep a", "conclude": "done a"}],
      "repeats": 3, "warmup": 1})",
      launcher);
  const std::vector<std::string> words = last_words(launcher);
  EXPECT_EQ(words, (std::vector<std::string>{"prep a", "a", "done a", "prep a", "a", "done a",
                                             "prep a", "a", "done a", "prep a", "a", "done a"}));

  int concludes = 0;
  RecordingLauncher failing([&concludes](const std::vector<std::string>& argv) {
    const bool fails = argv.back() == "done a" && ++concludes == 2;
    return std::pair<int, std::string>{fails ? 1 : 0, ""};
  });
  const auto rows = run(R"({"name": "b", "strategies": [
      {"name": "a", "command": "a", "shell": true, "conclude": "done a", "cleanup": "clean a"},
      {"name": "b", "command": "b", "shell": true}], "repeats": 3, "warmup": 0})",
                        failing);
  std::map<std::string, std::vector<std::string>> statuses;
  for (const auto& row : rows) statuses[row.at("test")].push_back(row.at("status"));
  // The runs of a before the failed conclude are ok (the verification run's conclude is the
  // first), every one after it an error.
  EXPECT_EQ(statuses["a"], (std::vector<std::string>{"ok", "error", "error"}));
  EXPECT_EQ(statuses["b"], (std::vector<std::string>{"ok", "ok", "ok"}));
  const std::vector<std::string> seen = last_words(failing);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), "done a"), 2);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), "clean a"), 1);
}

// HYPERFINE_ITERATION as hyperfine numbers runs (warmup-K, then K from 0), the same for a run's
// prepare, command and conclude; none for the setup and the cleanup; "verify" for a verification
// run, which here stands in for the first pipe warmup, so the next warmup is warmup-0.
TEST_F(BenchExecutorTest, EachRunAndItsHooksSeeTheRunsNumber) {
  const auto numbered = [](const RecordingLauncher& launcher) {
    std::vector<std::string> seen;
    for (const Seen& request : launcher.requests) {
      seen.push_back(request.argv.back() + (request.env.empty() ? "" : " " + request.env.at(0)));
    }
    return seen;
  };
  RecordingLauncher launcher(ok_empty);
  run(R"({"name": "b", "strategies": [
      {"name": "a", "command": "a", "shell": true, "verify": false, "setup": "up",
       "prepare": "prep", "conclude": "done", "cleanup": "down"}],
      "repeats": 2, "warmup": 2})",
      launcher);
  std::vector<std::string> expected{"up"};
  for (const std::string n : {"warmup-0", "warmup-1", "0", "1"}) {
    for (const std::string word : {"prep", "a", "done"})
      expected.push_back(fmt::format("{} HYPERFINE_ITERATION={}", word, n));
  }
  expected.emplace_back("down");
  EXPECT_EQ(numbered(launcher), expected);

  RecordingLauncher verified(ok_empty);
  run(R"({"name": "b", "strategies": [{"name": "a", "command": "a", "shell": true}],
      "repeats": 1, "warmup": 2})",
      verified);
  EXPECT_EQ(numbered(verified), (std::vector<std::string>{"a HYPERFINE_ITERATION=verify",
                                                          "a HYPERFINE_ITERATION=warmup-0",
                                                          "a HYPERFINE_ITERATION=0"}));
}

TEST_F(BenchExecutorTest, TheCleanupRunsWhenThePrecisionTargetEndsTheTestEarly) {
  RecordingLauncher launcher(ok_empty);  // every run takes 0.01 s: precise after the fewest
  const auto rows = run(R"({"name": "b", "strategies": [
      {"name": "a", "command": "a", "shell": true, "cleanup": "clean a"}],
      "repeats": {"min": 2, "max": 6, "ci_pct": 50}, "warmup": 0})",
                        launcher);
  EXPECT_EQ(rows.size(), 2u);
  EXPECT_EQ(totals_.runs_saved, 4u);
  const std::vector<std::string> words = last_words(launcher);
  EXPECT_EQ(words, (std::vector<std::string>{"a", "a", "a", "clean a"}));
}

TEST_F(BenchExecutorTest, IgnoreFailureRecordsANonZeroExitAsOkWithItsCode) {
  RecordingLauncher launcher([](const std::vector<std::string>&) {
    return std::pair<int, std::string>{3, ""};
  });
  const auto rows = run(R"({"name": "b", "strategies": [
      {"name": "ignored", "command": ["x"], "ignore_failure": true},
      {"name": "failing", "command": ["y"]}], "repeats": 1, "warmup": 0, "baseline": "ignored"})",
                        launcher);
  std::map<std::string, std::map<std::string, std::string>> by_test;
  for (const auto& row : rows) by_test[row.at("test")] = row;
  EXPECT_EQ(by_test["ignored"]["status"], "ok");
  EXPECT_EQ(by_test["ignored"]["exit_code"], "3");
  EXPECT_NE(by_test["failing"]["status"], "ok");
  EXPECT_EQ(totals_.bad_rows, 1u);
}

TEST_F(BenchExecutorTest, TheInheritSinkHandsTheRunIobenchsStdoutAndStderr) {
  RecordingLauncher launcher(ok_empty);
  const auto rows = run(R"({"name": "b", "sinks": ["inherit"], "strategies": [
      {"name": "a", "command": "a", "shell": true, "prepare": "prep"}],
      "repeats": 2, "warmup": 0})",
                        launcher);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("sink"), "inherit");
  EXPECT_EQ(rows[0].at("bytes_out"), "");  // nobody read it
  std::vector<std::pair<int, int>> command_fds;
  for (const Seen& seen : launcher.requests) {
    if (seen.argv.back() == "prep") {
      EXPECT_EQ(seen.stdout_fd, STDOUT_FILENO);  // shown, as hyperfine --show-output shows it
      EXPECT_EQ(seen.stderr_fd, -1);
    } else {
      command_fds.emplace_back(seen.stdout_fd, seen.stderr_fd);
    }
  }
  ASSERT_EQ(command_fds.size(), 3u);
  EXPECT_NE(command_fds[0].first, STDOUT_FILENO);  // verification: into a hashing pipe
  EXPECT_GE(command_fds[0].second, 0);             // ... its stderr kept for a warning
  for (std::size_t i = 1; i < command_fds.size(); ++i) {
    EXPECT_EQ(command_fds[i], std::make_pair(STDOUT_FILENO, -1));
  }
}

}  // namespace
}  // namespace iobench::run
