#pragma once
// `iobench run`: validates the config, prepares inputs and the page cache, runs the plan through
// the spawner, verifies outputs, and streams one row per run to the results file.
#include <filesystem>
#include <optional>
#include <string>

#include "driver/config/plan.hpp"

namespace iobench {

struct RunOptions {
  std::filesystem::path config_path;
  std::filesystem::path output;  // empty: results/<name>-<UTC timestamp>.tsv
  std::string filter_regex;
  std::optional<int> repeats_override;
  std::string shard;  // "K/N" or empty
  bool dry_run = false;
  bool quiet = false;
};

// Returns the exit code (docs/formats.md "Exit codes"). Throws iobench::Error for errors found
// before any run.
int run_experiment(const RunOptions& options);

}  // namespace iobench
