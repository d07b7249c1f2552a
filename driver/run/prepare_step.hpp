#pragma once
// The run loop's first step (docs/driver.md, "The run loop"): before a run, its input is checked
// (still there, its size unchanged since the start) and brought into the cache state the config
// asks for, whose residency the row then carries. Each input's problems are warned about once.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/run/progress.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::run {

class PrepareStep {
 public:
  struct Check {
    bool ready = true;
    // The input could not be read into its cache state: a verification run's pair is then
    // unverified, for this reason.
    std::string read_error;
  };

  // Each input's size is taken now, to tell a change during the runs.
  PrepareStep(const config::Config& config, bool allow_drop_caches, Progress& progress);
  // The input of run's cell ready, row.cache_pct measured; not ready when it is gone or cannot be
  // read: that input's rows are errors, the rest goes on.
  Check prepare(std::size_t input, runfile::RunRow& row);
  // After a hook (bench --prepare) that may have changed the input's cache state: measured again.
  void measure_cache_again(std::size_t input, runfile::RunRow& row) const;
  [[nodiscard]] const std::filesystem::path& input_path(std::size_t input) const {
    return inputs_[input].path;
  }

 private:
  struct InputState {
    std::filesystem::path path;
    std::optional<std::uint64_t> size_bytes;
    bool size_change_reported = false;
    bool missing_reported = false;
    bool read_error_reported = false;
  };
  bool still_there(InputState& input);
  [[nodiscard]] std::optional<double> prepare_cache(const std::filesystem::path& path) const;

  config::CacheMode cache_;
  bool allow_drop_caches_;
  Progress& progress_;
  std::vector<InputState> inputs_;
};

}  // namespace iobench::run
