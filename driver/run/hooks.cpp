#include "driver/run/hooks.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/error.hpp"
#include "driver/run/interrupt.hpp"
#include "driver/run/iteration.hpp"
#include "driver/run/measurement.hpp"
#include "driver/util/text.hpp"

namespace iobench::run {

UniqueFd open_run_stdin(const config::Config& config) {
  if (config.stdin_path.empty()) return UniqueFd();
  UniqueFd fd(::open(config.stdin_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    throw Error(fmt::format("stdin {}: {}", config.stdin_path.string(), std::strerror(errno)));
  }
  return fd;
}

RunHooks::RunHooks(const config::Config& config, const config::Plan& plan, Launcher& launcher)
    : config_(config),
      plan_(plan),
      launcher_(launcher),
      last_run_(plan.tests.size(), 0),
      set_up_(plan.tests.size(), SetUp::kNotYet),
      setup_failure_(plan.tests.size()),
      conclude_failure_(plan.tests.size()),
      cleaned_(plan.tests.size(), 0),
      warned_(plan.tests.size(), 0) {
  for (const config::StrategySpec& strategy : config.strategies) {
    any_ = any_ || !strategy.setup.empty() || !strategy.prepare.empty() ||
           !strategy.conclude.empty() || !strategy.cleanup.empty();
  }
  show_output_ = std::find(config.sinks.begin(), config.sinks.end(), config::SinkKind::kInherit) !=
                 config.sinks.end();
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    last_run_[plan.cells[plan.runs[r].cell].test] = r;
  }
}

RunHooks::Before RunHooks::before_run(std::size_t index, std::string_view iteration) {
  Before before;
  if (!any_) return before;
  const std::size_t t = plan_.cells[plan_.runs[index].cell].test;
  const config::Test& test = plan_.tests[t];
  const config::StrategySpec& strategy = config_.strategies[test.strategy];
  if (set_up_[t] == SetUp::kNotYet) {
    set_up_[t] = SetUp::kDone;
    if (!strategy.setup.empty()) {
      before.ran = true;
      setup_failure_[t] = run_hook(test, "setup", strategy.setup, "");
      if (!setup_failure_[t].empty()) set_up_[t] = SetUp::kFailed;
    }
  }
  if (set_up_[t] == SetUp::kFailed) {
    before.failure = setup_failure_[t];
  } else if (!conclude_failure_[t].empty()) {
    before.failure = conclude_failure_[t];
  } else if (!strategy.prepare.empty()) {
    before.ran = true;
    before.failure = run_hook(test, "prepare", strategy.prepare, iteration, &before.prepare_s);
  }
  if (!before.failure.empty() && warned_[t] == 0) {
    warned_[t] = 1;
    before.first_failure = true;
  }
  return before;
}

std::string RunHooks::conclude(std::size_t index, std::string_view iteration) {
  if (!any_ || interrupt_requested()) return "";
  const std::size_t t = plan_.cells[plan_.runs[index].cell].test;
  const config::Test& test = plan_.tests[t];
  const std::string& text = config_.strategies[test.strategy].conclude;
  if (text.empty() || set_up_[t] != SetUp::kDone || !conclude_failure_[t].empty()) return "";
  conclude_failure_[t] = run_hook(test, "conclude", text, iteration);
  if (conclude_failure_[t].empty() || warned_[t] != 0) return "";
  warned_[t] = 1;
  return conclude_failure_[t];
}

std::string RunHooks::after_run(std::size_t index) {
  if (!any_) return "";
  const std::size_t t = plan_.cells[plan_.runs[index].cell].test;
  return last_run_[t] == index ? cleanup(t) : "";
}

std::vector<std::string> RunHooks::finish() {
  std::vector<std::string> warnings;
  if (!any_ || interrupt_requested()) return warnings;
  for (std::size_t t = 0; t < plan_.tests.size(); ++t) {
    if (std::string warning = cleanup(t); !warning.empty()) warnings.push_back(std::move(warning));
  }
  return warnings;
}

// Once per test, and only after its setup ran (and did not fail): hyperfine's order.
std::string RunHooks::cleanup(std::size_t t) {
  if (cleaned_[t] != 0 || set_up_[t] != SetUp::kDone) return "";
  cleaned_[t] = 1;
  const config::Test& test = plan_.tests[t];
  const std::string& text = config_.strategies[test.strategy].cleanup;
  return text.empty() ? "" : run_hook(test, "cleanup", text, "");
}

// The hook runs as the command does: in its shell, or split into words for a command without one
// (hyperfine -N); the test's params fill its {NAME}s, and its build's folder {build}, as in its
// command (docs/driver.md, "Two builds").
std::string RunHooks::run_hook(const config::Test& test, const char* kind, const std::string& text,
                               std::string_view iteration, double* elapsed_s) {
  const config::StrategySpec& strategy = config_.strategies[test.strategy];
  config::ParamValues values = test.param_values;
  if (test.build_dir) values.emplace_back("build", *test.build_dir);
  const std::string command = config::expand_placeholders(text, values);
  spawn::SpawnRequest request;
  if (strategy.kind == config::StrategySpec::Kind::kCommand && !strategy.shell) {
    if (!util::split_words(command, request.argv) || request.argv.empty()) {
      return fmt::format("{}: {} '{}': not a command line (an unterminated quote?)", test.name,
                         kind, command);
    }
  } else {
    request.argv = strategy.shell_words;
    request.argv.insert(request.argv.end(), {"-c", command});
  }
  const UniqueFd stderr_capture(::memfd_create("iobench-hook-stderr", MFD_CLOEXEC));
  request.stdout_fd = show_output_ ? STDOUT_FILENO : -1;
  request.stderr_fd = show_output_ ? -1 : stderr_capture.get();
  request.timeout_s = config_.timeout_s;
  request.env = iteration_env(iteration);
  const spawn::SpawnResult result = launcher_.run(request);
  if (elapsed_s != nullptr) *elapsed_s = result.elapsed_s;
  if (result.outcome == spawn::SpawnOutcome::kExited && result.exit_code == 0) return "";
  std::string why = fmt::format("{}: {} '{}' did not succeed: {}", test.name, kind, command,
                                describe_outcome(result));
  if (const std::string tail = show_output_ ? "" : stderr_tail(stderr_capture.get());
      !tail.empty()) {
    why += ": " + tail;
  }
  return why;
}

}  // namespace iobench::run
