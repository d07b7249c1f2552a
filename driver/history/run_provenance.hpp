#pragma once
// The provenance of a run that the history keeps, shared by what `history add` reads
// (RunMetaFacts) and what the store holds (StoredRun).
#include <cstdint>
#include <optional>
#include <string>

namespace iobench::history {

// What a run's meta file (or an imported result file) says of where and how it was measured that
// the history keeps: the runs table's provenance columns (run_columns.cpp).
struct RunProvenance {
  std::optional<std::string> measured_commit;  // absent outside a git repository
  std::optional<bool> measured_dirty;
  std::string date;  // UTC, ISO 8601: the runs' time axis
  std::string config_name;
  std::string host;
  std::string kernel;  // "Linux 6.1.0-18-amd64"
  std::string cpu_model;
  std::optional<std::int64_t> cpus_online;
  std::optional<std::int64_t> memory_kib;  // MemTotal; empty in meta files from before it was kept
  std::string worker_build;
  std::string worker_xxh3;
  std::string iobench_version;
  std::string iobench_build;
  std::string cache_mode;  // "warm", "cold", ...; "" for an import
  std::optional<double> load_average_start;
  std::optional<double> load_average_end;
  std::optional<double> busy_cpus_start;
  std::optional<bool> finished;  // absent from a run that died, and from an import
};

}  // namespace iobench::history
