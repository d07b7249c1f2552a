#pragma once
// The run file's schema (docs/formats.md, "Run file"): the status names, the columns and
// their order, the metrics a report reads, and the optional kernel-counter columns. The writer,
// the reader and the reports' metrics name a column or a status through these. Not yet all
// readers: html_rusage.cpp, two_levels_warnings.cpp and history/run_file.hpp still spell a few
// column names themselves, until one table of the columns serves every reader.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iobench::runfile {

// ---- statuses ---------------------------------------------------------------------------------
// `disturbed`: the run ended ok, but others kept more of the machine busy during it than the
// config allows (docs/driver.md, "Disturbance"); like every status but ok, out of the statistics.
enum class RunStatus { kOk, kFailed, kSignal, kTimeout, kMismatch, kError, kDisturbed };
inline constexpr std::size_t kStatusCount = 7;
inline constexpr std::array<std::string_view, kStatusCount> kStatusNames{
    "ok", "failed", "signal", "timeout", "mismatch", "error", "disturbed"};
// What each status means to a person ("3 timed out"), in the same order.
inline constexpr std::array<std::string_view, kStatusCount> kStatusWords{
    "ok",         "failed",          "killed by a signal", "timed out",
    "mismatched", "could not start", "disturbed"};

std::string_view to_string(RunStatus status) noexcept;
std::optional<RunStatus> parse_run_status(std::string_view text) noexcept;

// ---- kernel counters (docs/driver.md, "Counters") ---------------------------------------------
// In schema order: the order of their columns, whatever order a config lists them in.
enum class Counter {
  kSyscalls,
  kContextSwitches,
  kCpuMigrations,
  kPageFaults,
  kTaskClock,  // nanoseconds
  kCycles,
  kInstructions,
  kCacheMisses,
  kBranchMisses,
};
inline constexpr std::size_t kCounterCount = 9;
// The config's spelling (`counters` key, `bench --counters`).
inline constexpr std::array<std::string_view, kCounterCount> kCounterConfigNames{
    "syscalls", "context-switches", "cpu-migrations", "page-faults",  "task-clock",
    "cycles",   "instructions",     "cache-misses",   "branch-misses"};
// The run file's spelling (`-` written `_`).
inline constexpr std::array<std::string_view, kCounterCount> kCounterColumns{
    "syscalls", "context_switches", "cpu_migrations", "page_faults",  "task_clock",
    "cycles",   "instructions",     "cache_misses",   "branch_misses"};
// Written after the counter columns whenever a file has any: the smallest share (percent) of its
// enabled time that a counter of this run was actually counting (100 unless the kernel
// multiplexed hardware counters; the counts are already scaled up by it). Empty when no counter
// was counted.
inline constexpr std::string_view kCountedPctColumn = "counted_pct";

inline constexpr std::size_t index(Counter c) {
  return static_cast<std::size_t>(c);
}
inline constexpr bool is_hardware(Counter c) {
  return c >= Counter::kCycles;
}
std::string_view config_name(Counter c) noexcept;
std::string_view column_name(Counter c) noexcept;
// Accepts the config spelling; nullopt for anything else.
std::optional<Counter> parse_counter(std::string_view config_name) noexcept;
// Sorted into schema order, each once.
std::vector<Counter> in_schema_order(std::vector<Counter> counters);

// ---- columns ------------------------------------------------------------------------------------
// The standard columns, always written, in this order. The first six are those of the dcat / GNU
// time recipe (`tsv-summarize -H --group-by 1 --median 2-4,6` still works on our files), and the
// only ones a reader requires.
// others_cpu_s and steal_s came later, wait_cpu_s and block_io_wait_s later still: a reader takes
// files without them.
inline constexpr std::array<std::string_view, 25> kStandardColumns{
    "test",         "elapsed", "user",       "system",         "cpu_pct",   "mem",         "input",
    "sink",         "repeat",  "status",     "exit_code",      "minflt",    "majflt",      "nvcsw",
    "nivcsw",       "inblock", "oublock",    "bytes_out",      "cache_pct", "output_hash", "host",
    "others_cpu_s", "steal_s", "wait_cpu_s", "block_io_wait_s"};
inline constexpr std::size_t kRequiredColumnCount = 6;

// The header of a run file with these counters: the standard columns, then the counters' columns
// in schema order, then counted_pct (when there are counters).
std::vector<std::string_view> run_columns(const std::vector<Counter>& counters);

// ---- the page-cache state a row claims (cache_pct, checked) ------------------------------------
// docs/driver.md, "The page cache": the one definition, which `run` and every report check.
inline constexpr double kColdMaxCachePct = 5;   // a `cold` run above this was not cold
inline constexpr double kWarmMinCachePct = 95;  // a `warm` run below this was not warm
// False when a run of this cache mode ("warm", "cold") started with cache_pct outside its bound;
// true for any other mode.
bool cache_state_holds(std::string_view cache_mode, double cache_pct) noexcept;

// The tally of one group's (or test's) ok runs against the cache mode they claim.
struct CacheCheck {
  std::string mode;         // "warm" or "cold" of the first run checked; "" when unknown
  std::size_t checked = 0;  // ok rows checked against `mode`
  std::size_t off = 0;      // of which did not hold (cache_state_holds)
  double worst_pct = std::numeric_limits<double>::quiet_NaN();  // the farthest from the mode

  // Counts one ok run of this cache mode; a run of another mode than the first is not counted.
  void add(std::string_view cache_mode, double cache_pct);
};

// ---- metrics: the numbers a report summarizes per group ---------------------------------------
// elapsed user system (seconds), cpu_pct (percent), mem (KiB), then one per counter column.
enum class Metric : std::size_t { kElapsed, kUser, kSystem, kCpuPct, kMem };
inline constexpr std::size_t kTimeMetricCount = 5;
inline constexpr std::size_t kMetricCount = kTimeMetricCount + kCounterCount;
inline constexpr std::array<std::string_view, kMetricCount> kMetricNames{
    "elapsed",          "user",           "system",      "cpu_pct",    "mem",    "syscalls",
    "context_switches", "cpu_migrations", "page_faults", "task_clock", "cycles", "instructions",
    "cache_misses",     "branch_misses"};
inline constexpr std::size_t index(Metric m) {
  return static_cast<std::size_t>(m);
}
inline constexpr Metric metric_of(Counter c) {
  return static_cast<Metric>(kTimeMetricCount + index(c));
}
inline constexpr bool is_counter(Metric m) {
  return index(m) >= kTimeMetricCount;
}
inline constexpr Counter counter_of(Metric m) {
  return static_cast<Counter>(index(m) - kTimeMetricCount);
}
// By column name ("elapsed", "syscalls"); nullopt for anything else.
std::optional<Metric> parse_metric(std::string_view column) noexcept;
std::string_view metric_name(Metric m) noexcept;

// ---- one run ----------------------------------------------------------------------------------
// What `run` writes of one run, and what the reader (runfile/rows.hpp) gives back of a row of any
// run file ever written: a figure whose column a file lacks is empty (or "" for text), never 0;
// a file without `status` has ok rows only; `repeat` is 0 where the file does not number them.
struct RunRow {
  std::string test;
  double elapsed_s = 0;
  double user_s = 0;
  double system_s = 0;
  double cpu_pct = 0;  // (user + system) / elapsed * 100
  std::int64_t max_rss_kib = 0;
  std::string input;
  std::string sink;
  int repeat = 0;  // 1-based; 0 only when read from a file without the column
  RunStatus status = RunStatus::kOk;
  std::optional<int> exit_code;  // 128 + signal number for signal/timeout; empty for error
  // wait4's rusage counts. `run` writes them on every row (0 for a run that never started);
  // empty only when read from a file without the column (GNU time's).
  std::optional<std::int64_t> minflt = 0;
  std::optional<std::int64_t> majflt = 0;
  std::optional<std::int64_t> nvcsw = 0;
  std::optional<std::int64_t> nivcsw = 0;
  std::optional<std::int64_t> inblock = 0;
  std::optional<std::int64_t> oublock = 0;
  std::optional<std::uint64_t> bytes_out;  // empty where the sink cannot count (null)
  std::optional<double> cache_pct;         // empty when the input is not a file
  std::string output_hash;                 // empty when not hashed
  std::string host;
  // Per counter, in schema order: empty when not counted (never 0 for "unknown"). Only the
  // counters the writer was given are written.
  std::array<std::optional<std::uint64_t>, kCounterCount> counters{};
  std::optional<double> counted_pct;  // see kCountedPctColumn
  // What the rest of the machine did during the run (docs/driver.md, "Disturbance"): CPU seconds
  // of other processes and steal seconds; empty when /proc/stat could not be read.
  std::optional<double> others_cpu_s;
  std::optional<double> steal_s;
  // What the run itself suffered, the disturbance rule's figure: the time its own process tree
  // was runnable but waited for a CPU (all of it where the kernel reports every task's exit to
  // iobench, the worker process' own otherwise); empty when not measured.
  std::optional<double> wait_cpu_s;
  // Its tasks' wait for block I/O, where the kernel accounts it (kernel.task_delayacct): context,
  // not judged (a cold run's own reads are in it).
  std::optional<double> block_io_wait_s;
};

}  // namespace iobench::runfile
