#include "driver/run/measurement.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "driver/run/counter_plan.hpp"

namespace iobench::run {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string read_capture(int memfd, off_t from, std::size_t max_bytes) {
  std::string text(max_bytes, '\0');
  const ssize_t n = ::pread(memfd, text.data(), text.size(), from);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

}  // namespace

std::string describe_outcome(const spawn::SpawnResult& result) {
  switch (result.outcome) {
    case spawn::SpawnOutcome::kExited:
      return fmt::format("exit code {}", result.exit_code);
    case spawn::SpawnOutcome::kSignaled:
      return fmt::format("killed by signal {} ({})", result.term_signal,
                         strsignal(result.term_signal));
    case spawn::SpawnOutcome::kTimedOut:
      return "timed out";
    case spawn::SpawnOutcome::kCancelled:
      return "cancelled";
    case spawn::SpawnOutcome::kSpawnFailed:
      return "could not start: " + result.error;
  }
  return "unknown";
}

void fill_measurements(runfile::RunRow& row, const spawn::SpawnResult& result,
                       const config::IgnoredFailures& ignore_failure) {
  const auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
  };
  row.elapsed_s = result.elapsed_s;
  row.user_s = seconds(result.usage.ru_utime);
  row.system_s = seconds(result.usage.ru_stime);
  row.cpu_pct = row.elapsed_s > 0 ? (row.user_s + row.system_s) / row.elapsed_s * 100.0 : 0.0;
  row.max_rss_kib = result.usage.ru_maxrss;  // KiB on Linux
  row.minflt = result.usage.ru_minflt;
  row.majflt = result.usage.ru_majflt;
  row.nvcsw = result.usage.ru_nvcsw;
  row.nivcsw = result.usage.ru_nivcsw;
  row.inblock = result.usage.ru_inblock;
  row.oublock = result.usage.ru_oublock;
  switch (result.outcome) {
    case spawn::SpawnOutcome::kExited:
      row.status = ignore_failure.covers(result.exit_code) ? runfile::RunStatus::kOk
                                                           : runfile::RunStatus::kFailed;
      row.exit_code = result.exit_code;
      break;
    case spawn::SpawnOutcome::kSignaled:
      row.status = runfile::RunStatus::kSignal;
      row.exit_code = 128 + result.term_signal;
      break;
    case spawn::SpawnOutcome::kTimedOut:
      row.status = runfile::RunStatus::kTimeout;
      row.exit_code = 128 + result.term_signal;
      break;
    case spawn::SpawnOutcome::kCancelled:
    case spawn::SpawnOutcome::kSpawnFailed:
      row.status = runfile::RunStatus::kError;
      break;
  }
  // A process the worker left behind still held the sink: what was read from it may not be all
  // it would have got, so the run is not measured as asked (docs/driver.md, "Strays").
  if (result.stray_held_sink) {
    row.status = runfile::RunStatus::kError;
    row.exit_code.reset();
  }
  fill_counters(row, result);
}

std::string stderr_tail(int memfd) {
  constexpr std::size_t kTailBytes = 4096;
  const off_t size = ::lseek(memfd, 0, SEEK_END);
  const off_t from =
      size > static_cast<off_t>(kTailBytes) ? size - static_cast<off_t>(kTailBytes) : 0;
  const std::vector<std::string> lines = split_lines(read_capture(memfd, from, kTailBytes));
  std::string tail;
  for (std::size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i) {
    if (!tail.empty()) tail += " | ";
    tail += lines[i];
  }
  return tail;
}

std::string stderr_first_line(int memfd) {
  const std::vector<std::string> lines = split_lines(read_capture(memfd, 0, 4096));
  return lines.empty() ? std::string() : lines.front();
}

bool command_failed(const runfile::RunRow& row) {
  return row.status == runfile::RunStatus::kFailed || row.status == runfile::RunStatus::kSignal ||
         row.status == runfile::RunStatus::kTimeout;
}

std::string failure_line(const runfile::RunRow& row, const config::PlannedRun& run,
                         const spawn::SpawnResult& result, int stderr_fd) {
  std::string detail = describe_outcome(result);
  if (const std::string tail = stderr_fd >= 0 ? stderr_tail(stderr_fd) : ""; !tail.empty()) {
    detail += ": " + tail;
  }
  std::string which;
  switch (run.phase) {
    case config::RunPhase::kVerify:
      which = "verification run";
      break;
    case config::RunPhase::kWarmup:
      which = "warmup";
      break;
    case config::RunPhase::kMeasure:
      which = fmt::format("run {}", run.repeat);
      break;
  }
  return fmt::format("{}{} ({} sink, {}): {}", row.test,
                     row.input.empty() ? "" : " on " + row.input, row.sink, which, detail);
}

}  // namespace iobench::run
