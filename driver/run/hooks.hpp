#pragma once
// The unmeasured commands around a test's runs (a strategy's "setup", "prepare", "conclude" and
// "cleanup"; `iobench bench -s -p -C -c` as hyperfine means them; docs/bench.md): setup once
// before the test's first run, prepare before each of its runs (verification and warmups too,
// after the cache step, so after a cold cache's eviction), conclude after each, cleanup once
// after its last planned run. Each starts through
// the Launcher the runs use and is never measured; its stdout goes to /dev/null (iobench's own
// with the inherit sink), its stderr is kept for the warning when it fails.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/fd.hpp"
#include "driver/config/plan.hpp"
#include "driver/run/launcher.hpp"

namespace iobench::run {

// A run's stdin: the config's "stdin" file opened afresh, so that every run reads it from its
// start (docs/formats.md "Config"); an empty descriptor (/dev/null) without one. Throws
// iobench::Error naming the file when it cannot be opened.
UniqueFd open_run_stdin(const config::Config& config);

class RunHooks {
 public:
  RunHooks(const config::Config& config, const config::Plan& plan, Launcher& launcher);

  // Whether any strategy has a hook (else every call below does nothing).
  [[nodiscard]] bool any() const { return any_; }

  struct Before {
    bool ran = false;            // a setup or prepare ran: the input's cache state may have moved
    std::string failure;         // why the run cannot go on; empty: it can
    bool first_failure = false;  // this test's first failure (the one to warn about)
    double prepare_s = 0;        // the prepare's elapsed time: hyperfine counts it in its 3 s
  };
  // Before plan run `index`: its test's setup when it is the test's first run, then its prepare,
  // which sees the run's `iteration` as HYPERFINE_ITERATION (the setup, once, none). A failed
  // setup fails every later run of its test without running again.
  Before before_run(std::size_t index, std::string_view iteration);

  // After plan run `index` ran: its test's conclude. One that fails fails every later run of its
  // test, as a failed setup does (hyperfine stops there); the cleanup still runs. Returns the
  // failure the first time its test fails, else empty. It sees the run's `iteration`.
  std::string conclude(std::size_t index, std::string_view iteration);

  // After plan run `index` ran or was skipped: its test's cleanup when it was the test's last
  // planned run and its setup ran. Returns a warning when the cleanup failed, else empty.
  std::string after_run(std::size_t index);

  // The cleanups still owed when the loop stopped early (a full results disk); none after an
  // interrupt. Returns the warnings of those that failed.
  std::vector<std::string> finish();

 private:
  enum class SetUp : char { kNotYet, kDone, kFailed };
  // `iteration` empty: HYPERFINE_ITERATION is not set (setup, cleanup).
  std::string run_hook(const config::Test& test, const char* kind, const std::string& text,
                       std::string_view iteration, double* elapsed_s = nullptr);
  std::string cleanup(std::size_t test);

  const config::Config& config_;
  const config::Plan& plan_;
  Launcher& launcher_;
  bool any_ = false;
  bool show_output_ = false;                   // an inherit sink: hooks print to iobench's stdout
  std::vector<std::size_t> last_run_;          // per test: its last index in the plan
  std::vector<SetUp> set_up_;                  // per test
  std::vector<std::string> setup_failure_;     // per test
  std::vector<std::string> conclude_failure_;  // per test: its first failed conclude
  std::vector<char> cleaned_;                  // per test
  std::vector<char> warned_;                   // per test
};

}  // namespace iobench::run
