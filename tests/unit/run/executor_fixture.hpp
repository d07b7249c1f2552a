#pragma once
// The run loop's test fixture (docs/architecture.md, "Seams for tests"): a fake launcher that
// starts no process, returns scripted outcomes and writes scripted bytes to the run's stdout, and
// ExecutorTest, which runs a config through the executor with it and reads the rows back by
// column name. Used by executor_gtest.cc and executor_loop_gtest.cc.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/sysio.hpp"
#include "driver/run/executor.hpp"
#include "driver/run/interrupt.hpp"
#include "driver/runfile/header.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run::executor_test {

namespace fs = std::filesystem;

struct Script {
  spawn::SpawnOutcome outcome = spawn::SpawnOutcome::kExited;
  int exit_code = 0;
  int term_signal = 0;
  std::string stdout_bytes;
  std::string stderr_bytes;
  bool interrupt = false;  // raise SIGINT during the run (as a user's Ctrl-C would)
  double elapsed_s = 0.25;
  std::optional<double> wait_cpu_s{};  // the worker's own wait for a CPU, as the spawner reads it
};

// Scripts by the command's name (argv[0]) and how often that command ran before.
class FakeLauncher final : public Launcher {
 public:
  using Scripter = std::function<Script(const std::string& name, int nth_call)>;
  explicit FakeLauncher(Scripter scripter) : scripter_(std::move(scripter)) {}

  spawn::SpawnResult run(const spawn::SpawnRequest& request) override {
    const std::string& name = request.argv.front();
    calls.push_back(name);
    const Script script = scripter_(name, call_counts_[name]++);
    write_fully(request.stdout_fd, script.stdout_bytes);
    write_fully(request.stderr_fd, script.stderr_bytes);
    spawn::SpawnResult result;
    result.outcome = script.outcome;
    result.exit_code = script.exit_code;
    result.term_signal = script.term_signal;
    result.elapsed_s = script.elapsed_s;
    result.usage.ru_utime.tv_usec = 100000;
    result.usage.ru_maxrss = 1234;
    result.pid = 4242;
    result.own_wait_cpu_s = script.wait_cpu_s;
    if (script.interrupt) {
      ::raise(SIGINT);  // the guard's handler calls cancel()
      result.outcome = spawn::SpawnOutcome::kCancelled;
    }
    return result;
  }
  void cancel() const noexcept override { cancelled = true; }

  std::vector<std::string> calls;
  mutable std::atomic<bool> cancelled{false};

 private:
  static void write_fully(int fd, const std::string& bytes) {
    if (fd < 0 || bytes.empty()) return;
    ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }
  Scripter scripter_;
  std::map<std::string, int> call_counts_;
};

struct Row {
  std::string test, sink, status, exit_code, bytes_out, output_hash;
  int repeat = 0;
  std::string others_cpu_s, steal_s, wait_cpu_s;
};

inline const std::string kInputText = "alpha\nbeta\ngamma\n";

class ExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(dir_ / "in.txt", std::ios::binary) << kInputText; }

  // Runs a config (JSON fields after "inputs") through the executor with the fake.
  MatrixTotals run(const std::string& fields, Launcher& launcher,
                   const std::function<void()>& before_run = {},
                   std::function<std::string()> after_run = {}) {
    config_ = config::parse_config(
        R"({"name": "t", "inputs": [{"path": "in.txt"}], "cache": "none", )" + fields + "}",
        dir_ / "t.json");
    config::PlanOptions options;
    options.worker_path = "iobench-worker";
    plan_ = config::build_plan(config_, options);
    runs_path_ = dir_ / ("runs" + std::to_string(++run_count_) + ".tsv");
    runfile::RunTsvWriter writer(runs_path_);
    ExecutorSettings settings;
    settings.temp_folder = dir_.path();
    settings.host = "testhost";
    settings.after_run = std::move(after_run);
    settings.disturbance_source = disturbance_source_;
    settings.stop_at_first_failure = stop_at_first_failure_;
    settings.duet_partner = duet_partner_;
    settings.duet_cpus = {3, 5};
    MatrixExecutor executor(config_, plan_, launcher, writer, settings);
    if (before_run) before_run();
    return executor.run_all();
  }

  // The rows of the run file, each column found by its name in the header (docs/formats.md, "Run
  // file"), so that a new column breaks only the tests about columns.
  std::vector<Row> rows() const {
    std::ifstream in(runs_path_);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const runfile::FileHeader header = runfile::read_header(runs_path_.string(), text);
    const auto column = [&header](std::string_view name) {
      const auto found = std::find(header.columns.begin(), header.columns.end(), name);
      if (found == header.columns.end()) throw std::runtime_error("no column " + std::string(name));
      return static_cast<std::size_t>(found - header.columns.begin());
    };
    std::vector<Row> result;
    std::istringstream body(text.substr(header.body_start));
    std::string line;
    while (std::getline(body, line)) {
      const std::vector<std::string_view> fields = runfile::split_tabs(line);
      const auto field = [&](std::string_view name) {
        const std::size_t i = column(name);
        return i < fields.size() ? std::string(fields[i]) : std::string();
      };
      result.push_back(Row{field("test"), field("sink"), field("status"), field("exit_code"),
                           field("bytes_out"), field("output_hash"), std::stoi(field("repeat")),
                           field("others_cpu_s"), field("steal_s"), field("wait_cpu_s")});
    }
    return result;
  }

  const iobench::test::TempDir dir_{"executor"};
  std::optional<ProcSource> disturbance_source_;  // empty: the runs' disturbance is not measured
  bool stop_at_first_failure_ = false;            // bench's stop (executor_stop_gtest.cc)
  Launcher* duet_partner_ = nullptr;  // a duet's second launcher (executor_duet_gtest.cc)
  config::Config config_;
  config::Plan plan_;
  fs::path runs_path_;
  int run_count_ = 0;
};

inline Script ok_copy() {
  return Script{spawn::SpawnOutcome::kExited, 0, 0, kInputText, "", false};
}

// How many of `rows` are of `test`.
inline long rows_of(const std::vector<Row>& rows, const std::string& test) {
  return std::count_if(rows.begin(), rows.end(), [&](const Row& r) { return r.test == test; });
}

}  // namespace iobench::run::executor_test
