#pragma once
// The experiment config (docs/formats.md "Config"): parsed and validated completely before any run,
// so a mistake costs nothing. Every error is one line naming the file and the place: line:column
// for JSON syntax, the JSON path (strategies[2].worker) for the schema.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "driver/config/ignored_failures.hpp"
#include "driver/gen/gen.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::config {

enum class CacheMode { kWarm, kCold, kNone };
// kDuet: interleaved rounds whose measured runs go two at a time, each pair at the same moment on
// a CPU of its own (docs/bench.md, "Duet"; Bulej et al., ICPE 2020).
enum class RunOrder { kInterleave, kGrouped, kShuffle, kDuet };
// Orders whose rounds follow a Williams design, one run of every cell each, so the i-th runs of
// two cells pair (interleave, duet).
bool rounds_interleaved(RunOrder order) noexcept;
// kInherit: the worker writes to iobench's own stdout (hyperfine's --output=inherit, bench's
// --show-output): seen, and paid for, but hashed by nobody.
enum class SinkKind { kNull, kPipe, kFile, kInherit };
// How a pipe sink is read (docs/driver.md, "What the pipe sink costs"): `block` (the default), by
// the spawner while it waits for the worker, asleep whenever the pipe is empty, as hyperfine's
// reader; `spin`, by a thread of the driver's that stays awake while output flows, so a writer
// never waits for the reader to wake up, but which needs a CPU of its own.
enum class DrainMode { kSpin, kBlock };
// What a run that was kept from running becomes (docs/driver.md, "Disturbance"): `off` measures
// the figures and keeps the run ok; `flag` marks it disturbed; `rerun` marks it and runs it again
// at the end of its round, within a budget.
enum class DisturbanceMode { kOff, kFlag, kRerun };
// The run's own tree waited for a CPU more than this many CPUs' worth of its elapsed time (one
// process waiting a tenth of the run, or two waiting a twentieth each). Chosen by measurement
// (docs/driver.md, "Disturbance").
inline constexpr double kDefaultDisturbanceThresholdCpus = 0.1;
// The environment variable that sets the disturbance mode's default (run's config key, bench's
// --disturbance): a test suite that runs its tests side by side sets it to off.
inline constexpr const char* kDisturbanceEnv = "IOBENCH_DISTURBANCE";

std::string_view to_string(CacheMode mode) noexcept;
std::string_view to_string(RunOrder order) noexcept;
std::string_view to_string(SinkKind sink) noexcept;
std::string_view to_string(DrainMode mode) noexcept;
std::string_view to_string(DisturbanceMode mode) noexcept;

struct InputSpec {
  std::string path_text;       // as written in the config; empty: no input (below)
  std::filesystem::path path;  // resolved against the config file's folder
  std::optional<gen::GenRequest> generate;
  // A config without "inputs" has one input that is no file (docs/formats.md "Config"): its runs
  // have no {input}, no cache step and an empty input column.
  [[nodiscard]] bool none() const { return path_text.empty(); }
  bool operator==(const InputSpec&) const = default;
};

struct StrategySpec {
  enum class Kind { kWorker, kCommand };
  std::string name;  // may hold {param} placeholders
  Kind kind = Kind::kWorker;
  std::vector<std::string> args;  // worker args, or the command's argv (one string when shell)
  bool shell = false;
  // The shell a `shell` command runs in, the argv before "-c COMMAND": sh, or the words of
  // "shell": "bash --norc".
  std::vector<std::string> shell_words{"sh"};
  bool verify = true;
  std::string description;
  // Unmeasured commands around the test's runs (bench's -s, -p, -c; docs/bench.md), each run as
  // the command is (in its shell, or split into words without one); empty: none.
  std::string setup;               // once, before the test's first run
  std::string prepare;             // before each of its runs, after the cache step
  std::string conclude;            // after each of its runs
  std::string cleanup;             // once, after its last run
  IgnoredFailures ignore_failure;  // non-zero exits that are no failure: ok, with their code
  // Where its file sink writes (bench --output FILE; key "output_file"), kept and truncated at
  // each run as hyperfine does; relative to the working folder; empty: a private temporary file.
  std::string output_file;
  bool operator==(const StrategySpec&) const = default;
};

// A config as its file said it, for the run metadata: kept as text, since the tree of a config
// of 100,000 strategies is 34 MB where its text is 6. Two are equal when they say the same.
struct WrittenConfig {
  std::string text;  // JSON; empty for a Config not read from a file
  // The parsed text; null when empty.
  [[nodiscard]] nlohmann::ordered_json tree() const;
  bool operator==(const WrittenConfig& other) const { return tree() == other.tree(); }
};

struct Config {
  std::filesystem::path file;      // the config file as given
  std::filesystem::path base_dir;  // relative paths in the config resolve against this
  std::string name;
  std::string description;
  std::vector<InputSpec> inputs;  // never empty: without "inputs", one that is none()
  // Config "stdin": the file every run reads on its stdin, opened afresh for each; empty: none
  // (/dev/null). Its page-cache state is left as it is.
  std::string stdin_text;
  std::filesystem::path stdin_path;
  std::vector<StrategySpec> strategies;
  std::vector<std::pair<std::string, std::vector<std::string>>> params;  // in file order
  std::vector<SinkKind> sinks{SinkKind::kPipe};
  int repeats = 5;            // measured runs per cell; with a precision target, the most
  int repeats_min = 5;        // the fewest measured runs (= repeats without a target)
  double repeats_ci_pct = 0;  // stop a cell once its median's 95 % interval is within this %
  double repeats_fill_s = 0;  // or once its runs fill this many seconds (hyperfine's 3 s); 0: no
  int warmup = 1;
  CacheMode cache = CacheMode::kWarm;
  RunOrder order = RunOrder::kInterleave;
  std::uint64_t seed = 1;
  double timeout_s = 600;
  std::string baseline;
  std::string history;  // the history store `run` adds its runs to (docs/history.md); "" for none
  std::vector<int> cpus;
  std::optional<std::uint64_t> pipe_size_bytes;  // for the pipes the driver makes
  DrainMode drain = DrainMode::kBlock;           // how pipe sinks are read
  std::vector<runfile::Counter> counters;        // kernel counters per run, as listed
  DisturbanceMode disturbance = DisturbanceMode::kRerun;
  double disturbance_threshold_cpus = kDefaultDisturbanceThresholdCpus;  // of the run's own wait
  // Stop a test's cells once its comparison with the baseline is decided (docs/reports.md,
  // "Deciding a comparison"); on by default with a precision target.
  bool decide = false;
  double decide_margin_pct = 1;  // "equivalent": the ratio's interval within ± this %
  // Config "family_reference": {"ps": "64KiB"}: a test that uses a param named here is compared
  // with its family's member that has these values (its strategy, its other params), not with the
  // baseline (docs/formats.md, "Config").
  std::vector<std::pair<std::string, std::string>> family_reference;
  WrittenConfig as_written;  // the config, for the run metadata
  bool operator==(const Config&) const = default;
};

// Parses and validates config text. `file` names the source in error messages and gives the
// folder relative paths resolve against. Throws iobench::Error (exit 2).
Config parse_config(std::string_view text, const std::filesystem::path& file);

// The checks every config passes, whether parsed from a file or built by `bench`: each value's
// range and the rules across keys (placeholders, names, hooks). Errors name config.file and the
// key. Throws iobench::Error (exit 2).
void check_config(const Config& config);

// A relative input path resolves against base_dir (the config's folder, or the data folder).
std::filesystem::path resolve_input_path(const std::string& path_text,
                                         const std::filesystem::path& base_dir);

// Makes relative input paths resolve against data_dir instead of the config's folder
// (`iobench run --data-dir`, docs/distributed.md).
void set_data_dir(Config& config, const std::filesystem::path& data_dir);

// Reads and parses a config file. Throws iobench::Error (exit 2).
Config load_config(const std::filesystem::path& file);

// The {name} placeholders in text, in order of appearance (duplicates kept).
std::vector<std::string> find_placeholders(std::string_view text);

// Replaces each {name} in text by its value; names without a value are left as they are.
std::string expand_placeholders(std::string_view text,
                                const std::vector<std::pair<std::string, std::string>>& values);

}  // namespace iobench::config
