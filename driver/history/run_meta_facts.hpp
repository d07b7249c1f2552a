#pragma once
// What the history keeps from a run's meta file, read through the typed run record
// (driver/runfile/meta.hpp, docs/formats.md "Meta file"), in this one place.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "driver/runfile/meta.hpp"

namespace iobench::history {

struct RunMetaFacts {
  std::filesystem::path meta_path;
  // context
  std::string date;  // UTC, ISO 8601: the runs' time axis
  std::string host;
  std::string kernel;  // "Linux 6.1.0-18-amd64"
  std::string machine;
  std::string cpu_model;
  std::optional<std::int64_t> cpus_online;
  std::optional<std::int64_t> memory_kib;  // MemTotal; empty in meta files from before it was kept
  std::string iobench_version;
  std::string iobench_build;
  // provenance: what was measured
  std::optional<std::string> measured_commit;  // absent outside a git repository
  std::optional<bool> measured_dirty;
  std::string worker_build;
  std::string worker_xxh3;
  std::optional<double> load_average_start;
  std::optional<double> load_average_end;
  std::optional<double> busy_cpus_start;
  // the config as written: strategies, params, inputs, cache, cpus, pipe_size, drain
  std::filesystem::path config_file;  // the config's path as given to `run`
  std::string config_name;
  std::string cache_mode = "warm";  // the config's default
  nlohmann::json config;            // {} when the meta file has none
  // Hex XXH3-64 of the config file's path and the config's text: runs of one config (ConfigMemo).
  std::string config_fingerprint;
  std::optional<bool> finished;
  std::optional<std::int64_t> rows;
};

// Reads RUNS's meta file as runfile::read_meta_for does, keeping only the fields the facts come
// from (the rest must be JSON, and is not checked further). Throws iobench::Error (exit 2) naming
// RUNS when it is missing ("history add needs the meta file `iobench run` writes beside each run
// file"), and the record's own error when it cannot be read.
RunMetaFacts read_run_meta_facts(const std::filesystem::path& runs_file);

// The same from a record in hand; `name` is the meta file it came from.
RunMetaFacts facts_from_meta(const runfile::RunMeta& meta, const std::filesystem::path& name);

}  // namespace iobench::history
