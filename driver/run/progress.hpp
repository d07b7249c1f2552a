#pragma once
// The progress line on stderr (run i of N, current test, elapsed, ETA), shown only when stderr is
// a terminal; warnings are printed above it so neither garbles the other.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace iobench::run {

// The line itself, without terminal control: "[4/12] TEST  elapsed 0:30  ETA 1:30" (run_index is
// 0-based; the ETA is the mean time of the runs so far times the runs left, "?" before the first
// ends), at most 160 bytes. A total of 0 is unknown: "[4] TEST  elapsed 0:30".
std::string format_progress_line(std::size_t run_index, std::size_t total_runs,
                                 const std::string& label, double elapsed_s);

class Progress {
 public:
  // Seconds since the progress began; a test gives its own clock.
  using Clock = std::function<double()>;
  // total_runs 0: unknown. Without a clock, the steady clock from now.
  Progress(std::size_t total_runs, bool enabled, Clock elapsed_s = {});
  // The next run begins: the line counts runs as they start, in any order (a run's index in the
  // plan would go backwards when a disturbed run is re-run).
  void start(const std::string& label);
  // One run more than planned (a disturbed run's re-run): the total grows, so the count never
  // passes it and the ETA counts it.
  void add_rerun();
  // A planned run that will not run (its cell is as precise as asked, decided, or stopped at a
  // failure): the total shrinks, so the ETA stops counting it and the count ends at the total.
  void skip();
  [[nodiscard]] std::size_t runs_started() const { return started_runs_; }
  [[nodiscard]] std::size_t total_runs() const { return total_; }
  // The line start() showed last (also when disabled, for the tests); empty before the first.
  [[nodiscard]] const std::string& line() const { return line_; }
  void warn(const std::string& message);  // always printed, progress or not
  void finish();
  // Every warning printed so far, in order: the run record keeps them (docs/formats.md, "Meta
  // file", warnings), so a report shows them beside the rows they concern.
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void clear_line();
  std::size_t total_;
  bool enabled_;
  bool line_shown_ = false;
  std::size_t started_runs_ = 0;
  Clock elapsed_s_;
  std::string line_;
  std::vector<std::string> warnings_;
};

}  // namespace iobench::run
