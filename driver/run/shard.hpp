#pragma once
// `--shard K/N|auto`: which share of a matrix's cells this task runs (docs/distributed.md), and
// the meta file's "matrix" block that lets `iobench merge` prove the shards are complete.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::run {

struct ShardChoice {
  int index = 0;       // 0-based K-1
  int count = 1;       // N
  std::string source;  // where K/N came from, for the meta file ("--shard", "SLURM_ARRAY_*", ...)
};

// Looks a variable up in the environment; null when unset. Tests pass their own.
using EnvLookup = std::function<const char*(const char*)>;

// "" is 1/1; "K/N" as given; "auto" from the scheduler's variables: a Slurm job array
// (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, and SLURM_ARRAY_TASK_MIN / _MAX / _STEP so that
// arrays not starting at 0 or stepped map to 1..N), else a Kubernetes Indexed Job
// (JOB_COMPLETION_INDEX with IOBENCH_SHARD_COUNT). Throws iobench::Error (exit 2) naming the
// variables when none fit.
ShardChoice resolve_shard(const std::string& text, const EnvLookup& lookup);

// The matrix block of a run's meta file: the hash of the expanded, unsharded plan (tests with
// their argv, cells, repeats and the settings that change a measurement), this run's shard,
// the repeats and every cell of the matrix as rows name it (test, input, sink), in the order
// that --shard deals them out (cell c belongs to shard c mod N + 1).
runfile::Matrix describe_matrix(const config::Config& config, const config::Plan& unsharded,
                                const ShardChoice& shard);

}  // namespace iobench::run
