#pragma once
// Series: one cell measured the same way, across runs (docs/history.md, "Series"). Two rows are of
// one series when they agree on the test and its definition, the input, the sink, the cache mode,
// the counters counted and the host class; everything else (the commit, the worker build, the
// load, the exact kernel) is what the history watches change.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/hash.hpp"
#include "driver/history/run_meta_facts.hpp"
#include "driver/runfile/config_strategies.hpp"

namespace iobench::history {

struct SeriesKey {
  std::string test;
  std::string input;  // the path as written, for people; input_identity is what counts
  std::string sink;
  std::string cache_mode;
  std::string counters;         // the run file's counter columns, comma-separated, schema order
  std::string definition_hash;  // hex XXH3-64 of the test's definition (definition_of)
  bool verified = true;         // false for a strategy with "verify": false
  std::string input_identity;   // input_identity_of
  std::string host_class;       // host_class_of
  // Imported series (docs/history.md, "Other harnesses"): the harness, the unit of the values and
  // which way is better; iobench's own are "", "s", "lower" and hash as they always did.
  std::string tool;
  std::string unit = "s";
  std::string direction = "lower";
  [[nodiscard]] bool higher_is_better() const { return direction == "higher"; }

  // Hex XXH3-64 of every field: the series' identity in the store.
  [[nodiscard]] std::string hash() const;
  // What it was measured on, as every surface names it after the test: "(in.txt, pipe)", "(pipe)"
  // without an input, "(hyperfine pipe)" for an imported series.
  [[nodiscard]] std::string conditions() const;
};

// "Linux 6.1": the kernel up to its minor version (the host class); the full release is a
// condition of each run (docs/history.md, "Like with like").
std::string kernel_series(std::string_view kernel);
// The memory of the host class: MemTotal rounded up to whole GiB (at least 1). MemTotal is the
// memory installed less what firmware and kernel keep, which moves by a few MiB between boots of
// one machine; rounded up, it names the memory installed, a little above it (docs/history.md).
std::int64_t memory_class_gib(std::int64_t memory_kib);
// "Intel(R) Xeon(R) Processor | 2 CPUs | memory 24 GiB | Linux 6.18 | x86_64" ("memory ?" for a
// meta file from before memory was recorded).
std::string host_class_of(const RunMetaFacts& facts);

// Which strategy a test came from, and whether its output is verified: the run file's
// (runfile/config_strategies.hpp), which the reports mark by too.
using runfile::is_verified;
using runfile::strategy_for_test;
// The canonical text of what runs as `test`: its strategy (without name and description), which
// fixes the argv once the name fixes the params' values, and the config's settings that change
// how it runs (cpus, pipe_size, drain).
std::string definition_of(const nlohmann::json& config, std::string_view test);
// The input's generator spec when it has one (the spec fixes the bytes), else its path as
// written, with size and XXH3 when the meta file records them. The run file's input column holds
// the path resolved against the config's folder (or the data folder): an input of the config is
// matched as written, resolved against `config_file`'s folder, or by its file name when one
// input alone has it.
std::string input_identity_of(const nlohmann::json& config,
                              const std::filesystem::path& config_file, std::string_view input);

// What one config says of its tests and inputs, worked out once for every run of that config
// that one command adds: matching each test to its strategy and writing out its definition was
// the largest part of an add's CPU time (docs/history.md, "Performance").
struct ConfigFacts {
  struct Test {
    std::string definition_hash;
    bool verified = true;
  };
  std::unordered_map<std::string, Test> tests;
  std::unordered_map<std::string, std::string> input_identities;
};
// The ConfigFacts of each config seen, by RunMetaFacts::config_fingerprint.
using ConfigMemo = std::unordered_map<std::string, ConfigFacts>;

// The keys of the rows of runs measured alike (one config, cache mode, counters and host class:
// context_of), memoised per (test, input, sink) with their hashes; what the config says of each
// test and input in `memo` when given (kept across configs), else here alone.
class SeriesIdentity {
 public:
  struct Cell {
    SeriesKey key;
    std::string hash;  // key.hash()
  };
  SeriesIdentity(const RunMetaFacts& facts, std::string counters, ConfigMemo* memo = nullptr);
  const Cell& cell(std::string_view test, std::string_view input, std::string_view sink);
  const SeriesKey& key(std::string_view test, std::string_view input, std::string_view sink) {
    return cell(test, input, sink).key;
  }
  // What two runs must share for one SeriesIdentity to serve both: the config (by
  // RunMetaFacts::config_fingerprint), the cache mode, `counters` and the host class.
  static std::string context_of(const RunMetaFacts& facts, std::string_view counters);

 private:
  nlohmann::json config_;  // the facts' own: an identity outlives the run it was made for
  std::filesystem::path config_file_;
  std::string cache_mode_;
  std::string counters_;
  std::string host_class_;
  ConfigFacts own_;
  ConfigFacts* config_facts_;
  std::string probe_;  // the memo's key of the cell asked for, its buffer reused
  std::unordered_map<std::string, Cell> cells_;
};

}  // namespace iobench::history
