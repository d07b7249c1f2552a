#pragma once
// The expanded matrix: tests (strategies with their params filled in) × inputs × sinks, and the
// ordered list of runs (verification, warmup, measured) that `iobench run` executes.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "driver/config/config.hpp"

namespace iobench::config {

// A test's value of each param its strategy uses, in config order.
using ParamValues = std::vector<std::pair<std::string, std::string>>;

struct Test {
  std::string name;
  std::size_t strategy = 0;  // index into Config::strategies
  ParamValues param_values;
  // What {build} names in its hooks (`run --build`, `--versus`); none: it names nothing.
  std::optional<std::string> build_dir;
  // The argv with {params} filled and {input} left for the run to fill. Worker tests start with
  // the worker's path and end with "{input}".
  std::vector<std::string> argv;
  // A worker test's arguments as the strategy gives them ({params} filled; no path, no input, no
  // driver-given --prefix); empty for a command.
  std::vector<std::string> worker_args;
  bool verify = true;
  // Tests of one output class must write the same bytes for the same input. "copy" means the
  // input itself. A worker's class is WorkerCommandLine::output_class (common/worker_args.hpp):
  // its options minus those that cannot change the output; a command takes the baseline's class.
  std::string output_class;
  // `--op split`: the worker writes files besides stdout. The driver gives it `--prefix` in the
  // run's private folder (argv holds kSplitPrefixPlaceholder) and hashes those files too.
  bool writes_files = false;
  // The test its cells are compared with on the same input and sink (the sequential rule, the
  // gate): its base build's twin under --versus, else the baseline; none for the baseline itself.
  std::optional<std::size_t> reference;
  bool base_build = false;  // --versus: this is a twin measured with the base build
};

// What a command's args name the folder of the build measured by (`run --build`, `--versus`).
inline constexpr std::string_view kBuildPlaceholder = "{build}";

inline constexpr const char* kSplitPrefixPlaceholder = "{iobench_split_prefix}";

struct Cell {
  std::size_t test = 0;
  std::size_t input = 0;
  SinkKind sink = SinkKind::kPipe;
  // No verification run: its pair's first measured run that ends ok is compared with the class's
  // independent reference instead (docs/driver.md, "Verification"). Only with `warmup` 0, outside
  // `grouped`, for a verified pipe cell whose pair has no other sink and whose class the driver
  // computes itself (independent_reference_of).
  bool verified_by_first_ok_run = false;
};

enum class RunPhase { kVerify, kWarmup, kMeasure };

struct PlannedRun {
  RunPhase phase = RunPhase::kMeasure;
  std::size_t cell = 0;  // for kVerify: any cell of the (test, input) pair
  int repeat = 0;        // 1-based for kMeasure
};

struct PlanOptions {
  std::string worker_path;
  // `run --build DIR`: the candidate build's folder, what {build} names in commands and where its
  // iobench-worker is (else worker_path); `--versus DIR`: the base build's, whose twin of every
  // test is measured in the same session (docs/driver.md, "Two builds").
  std::optional<std::filesystem::path> build_dir;
  std::optional<std::filesystem::path> versus_dir;
  std::string filter_regex;             // empty: all tests
  std::optional<int> repeats_override;  // --repeats
  int shard_index = 0;                  // --shard K/N as index K-1 ...
  int shard_count = 1;                  // ... of N
};

struct Plan {
  std::vector<Test> tests;
  std::vector<Cell> cells;
  std::vector<PlannedRun> runs;
  std::optional<std::size_t> baseline_test;
  // --versus: tests 2k and 2k+1 are a base twin and its candidate, and so are cells 2k and 2k+1.
  bool twins = false;
  int repeats = 0;      // the most measured runs per cell (rounds)
  int repeats_min = 0;  // with a precision target (ci_pct > 0), the fewest; else = repeats
  double ci_pct = 0;    // the precision target (config "repeats": {"ci_pct": ...}); 0: none
  double fill_s = 0;    // a time to fill (config "repeats": {"fill_s": ...}); 0: none
  [[nodiscard]] std::size_t measured_runs() const;
};

// Expands the config. Throws iobench::Error (exit 2) for duplicate test names, a baseline that
// names no test, a filter that is not a valid regex or selects nothing, a bad shard.
Plan build_plan(const Config& config, const PlanOptions& options);

// The rounds of a Williams design (a balanced Latin square) over `cells` cells: each round
// visits every cell once and, over all the rounds, each cell comes right after every other cell
// equally often (once for an even count; an odd count needs 2 * cells rounds, twice each).
// `interleave` cycles through them. cells == 0 gives one empty round.
std::vector<std::vector<std::size_t>> williams_rounds(std::size_t cells);

// How many rounds the design has: cells for an even count, 2 * cells for an odd one (1 for 0).
std::size_t williams_round_count(std::size_t cells);

// Round `round` (taken modulo williams_round_count) of the design, computed alone in O(cells):
// what `interleave` plans with, so a matrix of N cells costs O(N) per round, not the N x N square.
std::vector<std::size_t> williams_round(std::size_t cells, std::size_t round);

// Round `round` of twin cells (Plan::twins): a Williams round over the pairs, each pair's two
// cells side by side (a duet runs them at once), which goes first alternating by round and pair.
std::vector<std::size_t> twins_round(std::size_t cells, std::size_t round);

// Parses "K/N" (1 <= K <= N). Throws iobench::Error.
std::pair<int, int> parse_shard(const std::string& text);

// The argv of one run: {input} replaced by the input path (shell-quoted for shell strategies).
std::vector<std::string> run_argv(const Test& test, const Config& config, const std::string& input);

}  // namespace iobench::config
