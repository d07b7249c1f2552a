#pragma once
// The run loop's second step (docs/driver.md, "The run loop"): one run of a cell spawned through
// the Launcher into its sink, its stderr into a capture, the machine's disturbance sampled around
// it; the row gets its measurements, status and (but for the null sink) its output's hash and
// byte count. A sink or split folder that cannot be made fails the run, not the matrix.
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/fd.hpp"
#include "driver/config/plan.hpp"
#include "driver/run/disturbance.hpp"
#include "driver/run/launcher.hpp"
#include "driver/run/progress.hpp"
#include "driver/run/sink.hpp"
#include "driver/run/stray_watch.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::run {

struct LaunchOutcome {
  spawn::SpawnResult result;
  SinkResult output;
  std::optional<RunDisturbance> disturbance;  // empty when not measured or unreadable
  UniqueFd stderr_capture;                    // what the worker wrote to stderr (a memfd)
  bool cancelled = false;                     // an interrupt: the run is not recorded
};

// One run of a duet (LaunchStep::launch_duet): what launch takes, and the CPU it is pinned to.
struct DuetRun {
  const config::Test& test;
  std::filesystem::path input;
  config::SinkKind sink_kind;
  runfile::RunRow& row;
  int cpu = 0;
  std::string iteration;  // its HYPERFINE_ITERATION (iteration.hpp)
};

struct LaunchSettings {
  std::filesystem::path temp_folder;  // private folder for file sinks and split folders
  std::vector<std::string> counters;  // what each run asks the spawner to count
  // Where each run's disturbance is read; empty: not measured.
  std::optional<ProcSource> disturbance_source;
};

class LaunchStep {
 public:
  LaunchStep(const config::Config& config, Launcher& launcher, LaunchSettings settings,
             Progress& progress);
  // Runs `test` on `input` into a sink of `sink_kind`, `iteration` its HYPERFINE_ITERATION, and
  // fills row's measured columns; row is left as it was when the run was cancelled.
  LaunchOutcome launch(const config::Test& test, const std::filesystem::path& input,
                       config::SinkKind sink_kind, runfile::RunRow& row,
                       std::string_view iteration);
  // Two runs at the same moment, each pinned to its CPU (config order `duet`): `first` through
  // this step's launcher, `second` through `partner`'s (a spawner of its own) on a thread of its
  // own. Each is judged by its own wait, over the pair's interval (DisturbanceMeter::after_runs).
  // A run whose sink cannot be made fails alone; the other still runs.
  std::array<LaunchOutcome, 2> launch_duet(LaunchStep& partner, const DuetRun& first,
                                           const DuetRun& second);
  // A run that ended ok but wrote to stderr: warned about with its first line, once per test.
  void warn_stderr_of_ok_run(std::size_t test_index, const config::Test& test,
                             const LaunchOutcome& outcome);
  // The pipe sinks' capacity as the kernel gave it (F_GETPIPE_SZ); empty without a pipe sink.
  [[nodiscard]] std::optional<std::uint64_t> pipe_size_given_bytes() const {
    return pipe_size_given_bytes_;
  }

 private:
  struct Staged;  // a run's sink, split folder, stdin and request, made before its spawn
  struct Where {  // the run's CPUs and its number
    std::vector<int> cpus;
    std::string_view iteration;
  };
  std::unique_ptr<Staged> stage(const config::Test& test, const std::filesystem::path& input,
                                config::SinkKind sink_kind, const Where& where,
                                LaunchOutcome& outcome);
  // After the worker was reaped: strays said, the sink read (not when cancelled).
  void conclude(const config::Test& test, Staged& staged, LaunchOutcome& outcome);
  // The outcome's figures into the row (not when cancelled).
  void fill_row(const config::Test& test, config::SinkKind sink_kind, const LaunchOutcome& outcome,
                runfile::RunRow& row);

  const config::Config& config_;
  Launcher& launcher_;
  LaunchSettings settings_;
  Progress& progress_;
  SinkSettings sink_settings_;
  StrayWatch strays_;
  std::optional<DisturbanceMeter> disturbance_meter_;
  std::optional<std::uint64_t> pipe_size_given_bytes_;
  std::set<std::size_t> stderr_warned_tests_;
};

}  // namespace iobench::run
