#include "driver/run/progress.hpp"

#include <fmt/core.h>

#include <chrono>
#include <utility>

#include "driver/util/format.hpp"

namespace iobench::run {

Progress::Progress(std::size_t total_runs, bool enabled, Clock elapsed_s)
    : total_(total_runs), enabled_(enabled), elapsed_s_(std::move(elapsed_s)) {
  if (!elapsed_s_) {
    elapsed_s_ = [began = std::chrono::steady_clock::now()] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    };
  }
}

std::string format_progress_line(std::size_t run_index, std::size_t total_runs,
                                 const std::string& label, double elapsed_s) {
  // Without a total (a time to fill: the count is known per cell as it runs) no ETA is guessed.
  if (total_runs == 0) {
    return fmt::format("[{}] {}  elapsed {}", run_index + 1, label.substr(0, 120),
                       util::format_duration(elapsed_s));
  }
  std::string eta = "?";
  if (run_index > 0) {
    eta = util::format_duration(elapsed_s / static_cast<double>(run_index) *
                                static_cast<double>(total_runs - run_index));
  }
  std::string line = fmt::format("[{}/{}] {}  elapsed {}  ETA {}", run_index + 1, total_runs, label,
                                 util::format_duration(elapsed_s), eta);
  if (line.size() > 160) line.resize(160);
  return line;
}

void Progress::start(const std::string& label) {
  const std::size_t shown = started_runs_++;
  // Made when disabled too: a few hundred nanoseconds against a run's milliseconds.
  line_ = format_progress_line(shown, total_, label, elapsed_s_());
  if (!enabled_) return;
  fmt::print(stderr, "\r\033[K{}", line_);
  std::fflush(stderr);
  line_shown_ = true;
}

void Progress::add_rerun() {
  if (total_ != 0) ++total_;
}

void Progress::skip() {
  if (total_ > started_runs_) --total_;
}

void Progress::warn(const std::string& message) {
  clear_line();
  fmt::print(stderr, "iobench: warning: {}\n", message);
  warnings_.push_back(message);
}

void Progress::finish() {
  clear_line();
}

void Progress::clear_line() {
  if (!line_shown_) return;
  fmt::print(stderr, "\r\033[K");
  line_shown_ = false;
}

}  // namespace iobench::run
