#pragma once
// The run loop's second step (docs/driver.md, "The run loop"): one run of a cell spawned through
// the Launcher into its sink, its stderr into a capture, the machine's disturbance sampled around
// it; the row gets its measurements, status and (but for the null sink) its output's hash and
// byte count. A sink or split folder that cannot be made fails the run, not the matrix.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
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
  // Runs `test` on `input` into a sink of `sink_kind` and fills row's measured columns; row is
  // left as it was when the run was cancelled.
  LaunchOutcome launch(const config::Test& test, const std::filesystem::path& input,
                       config::SinkKind sink_kind, runfile::RunRow& row);
  // A run that ended ok but wrote to stderr: warned about with its first line, once per test.
  void warn_stderr_of_ok_run(std::size_t test_index, const config::Test& test,
                             const LaunchOutcome& outcome);
  // The pipe sinks' capacity as the kernel gave it (F_GETPIPE_SZ); empty without a pipe sink.
  [[nodiscard]] std::optional<std::uint64_t> pipe_size_given_bytes() const {
    return pipe_size_given_bytes_;
  }

 private:
  void spawn(const config::Test& test, const std::filesystem::path& input,
             config::SinkKind sink_kind, LaunchOutcome& outcome);

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
