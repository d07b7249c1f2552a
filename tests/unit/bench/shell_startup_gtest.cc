// bench's shell start-up measured through a fake launcher (docs/bench.md, "Shell start-up"): the
// config's shell with -c '', spawned as the commands are, its medians after a few unrecorded runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/bench/shell_startup.hpp"

namespace iobench::bench {

using run::Launcher;

namespace {

// Answers each run with the next scripted elapsed time (user and system a tenth and a fifth of
// it) and keeps the requests.
class TimedLauncher final : public Launcher {
 public:
  explicit TimedLauncher(std::vector<double> elapsed_s, int exit_code = 0)
      : elapsed_s_(std::move(elapsed_s)), exit_code_(exit_code) {}
  spawn::SpawnResult run(const spawn::SpawnRequest& request) override {
    requests.push_back(request);
    spawn::SpawnResult result;
    result.outcome = spawn::SpawnOutcome::kExited;
    result.exit_code = exit_code_;
    result.elapsed_s = elapsed_s_[next_++ % elapsed_s_.size()];
    result.usage.ru_utime.tv_usec = static_cast<long>(result.elapsed_s * 1e5);
    result.usage.ru_stime.tv_usec = static_cast<long>(result.elapsed_s * 2e5);
    return result;
  }
  void cancel() const noexcept override {}
  std::vector<spawn::SpawnRequest> requests;

 private:
  std::vector<double> elapsed_s_;
  int exit_code_;
  std::size_t next_ = 0;
};

config::Config config_of(const std::string& strategies) {
  return config::parse_config(R"({"name": "b", "cpus": [0], "strategies": [)" + strategies + "]}",
                              "bench command line");
}

TEST(BenchShell, TheConfigsShellRunsEmptyAsTheCommandsRun) {
  const config::Config config =
      config_of(R"({"name": "a", "command": "a", "shell": "bash --norc"})");
  EXPECT_EQ(config_shell(config), (std::vector<std::string>{"bash", "--norc"}));
  // Three unrecorded runs (0.9 s each, far off), then five whose medians are kept.
  TimedLauncher launcher({0.9, 0.9, 0.9, 0.001, 0.003, 0.002, 0.005, 0.004});
  const auto startup = measure_shell_startup(launcher, config, {"syscalls"}, 5);
  ASSERT_TRUE(startup.has_value());
  EXPECT_EQ(startup->command, (std::vector<std::string>{"bash", "--norc", "-c", ""}));
  EXPECT_EQ(startup->runs, 5u);
  EXPECT_DOUBLE_EQ(startup->elapsed_s, 0.003);
  EXPECT_NEAR(startup->user_s, 0.0003, 1e-6);
  EXPECT_NEAR(startup->system_s, 0.0006, 1e-6);
  ASSERT_EQ(launcher.requests.size(), 8u);
  for (const spawn::SpawnRequest& request : launcher.requests) {
    EXPECT_EQ(request.argv, startup->command);
    EXPECT_EQ(request.cpus, std::vector<int>{0});  // pinned as the commands are
    EXPECT_EQ(request.counters, std::vector<std::string>{"syscalls"});
    EXPECT_GE(request.stdout_fd, 0);  // into the commands' sink
  }
}

TEST(BenchShell, NothingIsMeasuredWithoutAShellOrWhenItFails) {
  TimedLauncher launcher({0.001});
  EXPECT_FALSE(measure_shell_startup(launcher, config_of(R"({"name": "a", "command": ["a"]})"), {})
                   .has_value());
  EXPECT_TRUE(launcher.requests.empty());
  TimedLauncher failing({0.001}, 127);  // no such shell
  const config::Config config =
      config_of(R"({"name": "a", "command": "a", "shell": "no-such-shell"})");
  EXPECT_FALSE(measure_shell_startup(failing, config, {}, 5).has_value());
}

}  // namespace
}  // namespace iobench::bench
