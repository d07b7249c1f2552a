#pragma once
// What the history keeps from a run's meta file, read through the typed run record
// (driver/runfile/meta.hpp, docs/formats.md "Meta file"), in this one place.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "driver/history/run_provenance.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::history {

// RunProvenance (the stored part) and what a series' identity is made of besides.
struct RunMetaFacts : RunProvenance {
  std::filesystem::path meta_path;
  std::string machine;  // x86_64
  // the config as written: strategies, params, inputs, cache, cpus, pipe_size, drain
  std::filesystem::path config_file;  // the config's path as given to `run`
  nlohmann::json config;              // {} when the meta file has none
  // Hex XXH3-64 of the config file's path and the config's text: runs of one config (ConfigMemo).
  std::string config_fingerprint;
  std::optional<std::int64_t> rows;  // the meta file's count
};

// Reads RUNS's meta file as runfile::read_meta_for does, keeping only the fields the facts come
// from (the rest must be JSON, and is not checked further). Throws iobench::Error (exit 2) naming
// RUNS when it is missing ("history add needs the meta file `iobench run` writes beside each run
// file"), and the record's own error when it cannot be read.
RunMetaFacts read_run_meta_facts(const std::filesystem::path& runs_file);

// The same from a record in hand; `name` is the meta file it came from.
RunMetaFacts facts_from_meta(const runfile::RunMeta& meta, const std::filesystem::path& name);

}  // namespace iobench::history
