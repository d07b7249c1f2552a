#pragma once
// The run record: what `iobench run` and `iobench merge` write to meta/<stem>.json beside a run
// file, and the one place that reads it back (docs/formats.md "Meta file", which lists every field
// from this type; meta_tables.hpp spells each field's key once, from the field lists here for the
// provenance blocks). Blocks a writer does not know stay empty and are left out of the JSON;
// fields that may be null say when.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "driver/runfile/shell_startup.hpp"

namespace iobench::runfile {

// 1: every meta file written before the record was typed (no "format_version" key); 2: this
// record. Readers take both; docs/formats.md says what 2 changed.
inline constexpr int kMetaFormatVersion = 2;

// Where `iobench run` puts the meta and medians files of a run file: <folder>/meta/<stem>.json
// and <folder>/medians/<stem>.tsv.
std::filesystem::path meta_path_for(const std::filesystem::path& runs_file);
std::filesystem::path medians_path_for(const std::filesystem::path& runs_file);

// Shard K of N, as `--shard K/N` and the matrix block spell it.
struct ShardId {
  int number = 1;  // K, 1-based
  int count = 1;   // N
  // "K/N" with 1 <= K <= N; nullopt for anything else.
  static std::optional<ShardId> parse(std::string_view text);
  std::string text() const;
  bool operator==(const ShardId&) const = default;
};

// A block whose fields are written once, as lines X(TYPE, MEMBER, PRESENCE, CODEC) in the order
// the file has them: the struct's members are made from the lines here, and the block's JSON table
// (meta_tables.hpp) from the same lines, each key the member's name (json_fields::Presence;
// CODEC spells the value, json_fields::Plain{} as nlohmann does). A new field is one line.
#define IOBENCH_DECLARE_META_MEMBER(type, member, presence, codec) type member{};

// The machine and build that ran (Google Benchmark's context block).
#define IOBENCH_MACHINE_CONTEXT_FIELDS(X)                                                        \
  X(std::string, date, kDefault, Plain{}) /* UTC, 2026-12-01T08:36:01Z */                        \
  X(std::string, host, kDefault, Plain{})                                                        \
  X(std::string, kernel, kDefault, Plain{})         /* "Linux 6.1.0" */                          \
  X(std::string, kernel_version, kDefault, Plain{}) /* uname's version string */                 \
  X(std::string, machine, kDefault, Plain{})        /* x86_64 */                                 \
  X(std::string, cpu_model, kDefault, Plain{})                                                   \
  X(long, cpus_online, kDefault, Plain{})                                                        \
  /* MemTotal; left out when /proc does not say, as older files have it */                       \
  X(std::optional<std::int64_t>, memory_kib, kOmitted, Plain{})                                  \
  X(std::string, cpu_governor, kDefault, Plain{}) /* "unknown (no cpufreq)" without cpufreq */   \
  X(std::optional<std::int64_t>, pipe_max_size_bytes, kNullable, Plain{}) /* null: unknown */    \
  X(std::string, build, kDefault, Plain{}) /* type, compiler, sanitizers */                      \
  X(std::string, iobench_version, kDefault, Plain{})                                             \
  /* The commit of the folder iobench ran in; absent outside a repository (format 1 wrote "") */ \
  X(std::optional<std::string>, git_commit, kOmitted, Plain{})

struct MachineContext {
  IOBENCH_MACHINE_CONTEXT_FIELDS(IOBENCH_DECLARE_META_MEMBER)
  bool operator==(const MachineContext&) const = default;
};

// How the run was asked for (the JSON's "options").
struct RunSettings {
  std::string filter;              // --filter, "" for none
  int repeats = 0;                 // the most measured runs per cell
  std::optional<int> repeats_min;  // absent in the oldest files, which had no precision target
  std::optional<double> ci_pct;    // 0: no precision target
  ShardId shard;
  std::string order;
  std::uint64_t seed = 0;
  std::string worker;  // the worker binary's path
  // The time each cell's runs were to fill ("repeats": {"fill_s": ...}); absent before it was.
  std::optional<double> fill_s;
  // The disturbance rule the runs were judged by (docs/driver.md, "Disturbance"), wherever it was
  // set (config, option, environment): off, flag or rerun, the threshold in CPUs, and whose wait
  // for a CPU was measured ("tree" or "worker", with why not the tree). Absent in older files.
  std::optional<std::string> disturbance;
  std::optional<double> disturbance_threshold_cpus;
  std::optional<std::string> disturbance_wait_scope;
  bool operator==(const RunSettings&) const = default;
};

// The worker binary that ran (provenance's "worker").
#define IOBENCH_WORKER_BINARY_FIELDS(X)                     \
  X(std::string, path, kDefault, Plain{})                   \
  X(std::string, build, kDefault, Plain{})                  \
  /* null: there is no worker binary (only commands ran) */ \
  X(std::optional<std::string>, xxh3, kNullable, Plain{})

struct WorkerBinary {
  IOBENCH_WORKER_BINARY_FIELDS(IOBENCH_DECLARE_META_MEMBER)
  bool operator==(const WorkerBinary&) const = default;
};

// Where the figures come from (docs/formats.md "Meta file", provenance).
#define IOBENCH_PROVENANCE_FIELDS(X)                                                               \
  X(std::string, reference_test, kDefault, Plain{}) /* the test `relative` divides by */           \
  /* The config's repository: both absent outside one or without git. */                           \
  X(std::optional<std::string>, git_commit, kOmitted, Plain{})                                     \
  X(std::optional<bool>, git_dirty, kOmitted, Plain{})                                             \
  X(std::optional<WorkerBinary>, worker, kOmitted, object_of(kWorkerFields))                       \
  /* 1-minute; null when the kernel does not say */                                                \
  X(std::optional<double>, load_average_start, kNullable, Plain{})                                 \
  X(std::optional<double>, busy_cpus_start, kNullable, Plain{}) /* null until the window closes */ \
  X(bool, root, kDefault, Plain{})                                                                 \
  X(std::optional<double>, load_average_end, kNullable, Plain{}) /* null until the run ends */

struct Provenance {
  IOBENCH_PROVENANCE_FIELDS(IOBENCH_DECLARE_META_MEMBER)
  bool operator==(const Provenance&) const = default;
};

struct CellName {
  std::string test;
  std::string input;
  std::string sink;
  bool operator==(const CellName&) const = default;
};

// The planned order: "v:CELL" verification, "w:CELL" warmup, "m:CELL:REPEAT" measured.
struct Schedule {
  std::vector<CellName> cells;
  std::vector<std::string> runs;
  bool operator==(const Schedule&) const = default;
};

// What lets `iobench merge` prove the shards are one complete matrix (docs/distributed.md).
struct Matrix {
  std::string hash;  // XXH3 of the expanded, unsharded plan, 16 hex digits
  ShardId shard;
  std::optional<std::string> shard_source;  // absent in merged files and the oldest
  int repeats = 0;
  std::vector<CellName> cells;  // every cell of the whole matrix; cell c is shard c mod N + 1's
  bool operator==(const Matrix&) const = default;
};

struct CounterAvailability {
  std::vector<std::string> requested;
  std::vector<std::string> counted;
  std::vector<std::pair<std::string, std::string>> unavailable;  // counter, why
  bool operator==(const CounterAvailability&) const = default;
};

// One shard of a merged file.
struct MergedShard {
  std::string file;
  ShardId shard;
  std::string host;  // the host its meta file names
  std::vector<std::string> row_hosts;
  std::size_t rows = 0;
  bool operator==(const MergedShard&) const = default;
};

// The end of a run, written once the runs are over (absent from the meta written before them,
// and from a run that died).
struct RunEnd {
  bool finished = false;  // false when interrupted or when iobench could not go on
  std::size_t runs_saved_by_ci_pct = 0;
  std::optional<std::uint64_t> pipe_size_given_bytes;  // null without a pipe sink
  std::vector<std::string> cache_state_warnings;
  // Every warning the runs printed, in order; empty in files
  // written before it was kept.
  std::vector<std::string> warnings;
  // The end table's warnings in full, every group named: the printed ones name a few and point
  // here (docs/reports.md, "Warnings"). Left out of the JSON when empty, as files before it have.
  std::vector<std::string> summary_warnings;
  // The order the measured runs took where it differs from the one asked for: "duet, then
  // interleave" for a duet given up (docs/bench.md, "Duet"). Left out of the JSON when empty.
  std::string order_taken;
  bool operator==(const RunEnd&) const = default;
};

struct RunMeta {
  int format_version = kMetaFormatVersion;  // the format it was read from; to_json writes today's
  std::string runs_file;
  std::string medians_file;
  std::optional<MachineContext> context;
  std::optional<RunSettings> options;
  std::optional<std::string> host;
  std::optional<Matrix> matrix;
  std::optional<std::string> config_file;
  nlohmann::ordered_json config;  // the config as written; null when absent
  std::optional<Provenance> provenance;
  std::optional<bool> drop_caches_available;
  std::optional<Schedule> schedule;
  std::optional<CounterAvailability> counters;
  std::vector<MergedShard> merged_from;  // a merged file's only, with hosts
  std::vector<std::string> hosts;
  std::optional<RunEnd> end;
  std::optional<std::size_t> rows;  // rows in the run file: at the end of a run, and by merge
  // bench's: the shell's own cost, which its summary subtracts; absent without a shell or bench.
  std::optional<ShellStartup> shell_startup;

  // The config's cache mode ("warm" when it does not say, the config's default); empty when the
  // record holds no config.
  std::string cache_mode() const;
  // The config's baseline test; empty when none.
  std::string baseline() const;
  bool operator==(const RunMeta&) const = default;
};

nlohmann::ordered_json to_json(const RunMeta& meta);
nlohmann::ordered_json to_json(const Provenance& provenance);
nlohmann::ordered_json to_json(const Matrix& matrix);
// Throws iobench::Error naming the field for a record it cannot read, and for a format newer than
// kMetaFormatVersion.
RunMeta meta_from_json(const nlohmann::ordered_json& json);

// Reads the meta file of a run file; nullopt when there is none. Throws iobench::Error (with the
// path) when it exists but cannot be read or parsed. With `only`, just the top-level fields it
// names are read into the record (the rest must be JSON): `history add` needs eight of them,
// and building the others (the schedule, the matrix: nine tenths of the bytes) was most of its
// parsing (docs/history.md, "Performance").
std::optional<RunMeta> read_meta_for(const std::filesystem::path& runs_file,
                                     std::span<const std::string_view> only = {});
// Writes the record through the atomic writer (docs/architecture.md, "Files").
void write_meta(const std::filesystem::path& path, const RunMeta& meta);

}  // namespace iobench::runfile
