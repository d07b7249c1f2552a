// What the run loop does for `iobench bench`'s configs (docs/bench.md), through a fake launcher
// that records every request: runs without an input, and a stdin file fed to every run.
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

namespace iobench {
namespace {

namespace fs = std::filesystem;

// What one request asked for, and what the fake answers.
struct Seen {
  std::vector<std::string> argv;
  bool has_stdin = false;
  std::string stdin_bytes;
};

class RecordingLauncher final : public Launcher {
 public:
  // The answer for a request: exit code and stdout, by argv.
  using Answer = std::function<std::pair<int, std::string>(const std::vector<std::string>&)>;
  explicit RecordingLauncher(Answer answer) : answer_(std::move(answer)) {}

  SpawnResult run(const SpawnRequest& request) override {
    Seen seen{request.argv, request.stdin_fd >= 0, ""};
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
    SpawnResult result;
    result.outcome = SpawnOutcome::kExited;
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
    config_ = parse_config(config_text, dir_ / "c.json");
    PlanOptions options;
    options.worker_path = "iobench-worker";
    plan_ = build_plan(config_, options);
    const fs::path runs = dir_ / ("runs" + std::to_string(++count_) + ".tsv");
    {
      RunTsvWriter writer(runs);
      ExecutorSettings settings;
      settings.temp_folder = dir_.path();
      settings.host = "h";
      MatrixExecutor executor(config_, plan_, launcher, writer, settings);
      totals_ = executor.run_all();
    }
    std::ifstream in(runs);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const results::FileHeader header = results::read_header(runs.string(), text);
    std::vector<std::map<std::string, std::string>> rows;
    std::istringstream body(text.substr(header.body_start));
    std::string line;
    while (std::getline(body, line)) {
      const auto fields = results::split_tabs(line);
      std::map<std::string, std::string> row;
      for (std::size_t i = 0; i < header.columns.size() && i < fields.size(); ++i)
        row[std::string(header.columns[i])] = std::string(fields[i]);
      rows.push_back(std::move(row));
    }
    return rows;
  }

  const test::TempDir dir_{"bench-executor"};
  Config config_;
  Plan plan_;
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
  ASSERT_EQ(launcher.requests.size(), 5u);  // verification, warmup, 3 measured
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

}  // namespace
}  // namespace iobench
