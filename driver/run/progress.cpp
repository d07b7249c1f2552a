#include "driver/run/progress.hpp"

#include <fmt/core.h>

#include "driver/util/format.hpp"

namespace iobench::run {

Progress::Progress(std::size_t total_runs, bool enabled)
    : total_(total_runs), enabled_(enabled), started_(std::chrono::steady_clock::now()) {}

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
  if (!enabled_) return;
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const std::string line = format_progress_line(shown, total_, label, elapsed_s);
  fmt::print(stderr, "\r\033[K{}", line);
  std::fflush(stderr);
  line_shown_ = true;
}

void Progress::add_rerun() {
  if (total_ != 0) ++total_;
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
