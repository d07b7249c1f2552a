#pragma once
// The run file's schema (docs/formats.md, "Run file"): the status names, the columns and
// their order, the metrics a report reads, and the optional kernel-counter columns. The writer,
// the reader, the history and the reports name a column or a status through these: one line of
// IOBENCH_RUN_COLUMNS makes a standard column's name, RunRow's member, how the writer writes it
// and how the reader reads it (RunColumnsTable checks the round trip of every one).
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
// How a standard column's value is written and read.
enum class RunCodec : unsigned char {
  kName,          // text, never empty
  kText,          // text ("" when unknown); tabs and line ends written as spaces
  kSeconds,       // seconds, 6 decimals; empty only for a run that did not end ok
  kCpuPct,        // percent, 1 decimal; GNU time's "?%" (elapsed 0) worked out from the times
  kKib,           // KiB; empty only for a run that did not end ok
  kRepeat,        // 1-based
  kStatus,        // kStatusNames
  kExitCode,      // an integer, empty for none
  kRusage,        // a count, never empty where the column is (wait4's; GNU time has none)
  kCount,         // a count, empty for unknown
  kPercent,       // percent, 1 decimal, empty for unknown
  kMilliseconds,  // seconds to the millisecond, empty for unknown
  kMicroseconds,  // seconds to the microsecond, empty for unknown
};
// Who needs a column: every reader (the six of the dcat / GNU time recipe:
// `tsv-summarize -H --group-by 1 --median 2-4,6` still works on our files), the history (it
// keeps them for every row, NOT NULL; every format `run` wrote has them), or nobody.
enum class RunColumnNeed : unsigned char { kRequired, kStored, kOptional };

// The standard columns, always written, in this order: X(type, member, "name", codec, initial,
// need). A figure a file lacks reads as empty (nullopt, or "" for text), never 0; others_cpu_s and
// steal_s came later, wait_cpu_s and block_io_wait_s later still. docs/formats.md says what each
// holds.
#define IOBENCH_RUN_COLUMNS(X)                                                                  \
  X(std::string, test, "test", kName, {}, kRequired)                                            \
  X(double, elapsed_s, "elapsed", kSeconds, {}, kRequired)                                      \
  X(double, user_s, "user", kSeconds, {}, kRequired)                                            \
  X(double, system_s, "system", kSeconds, {}, kRequired)                                        \
  X(double, cpu_pct, "cpu_pct", kCpuPct, {}, kRequired) /* (user + system) / elapsed * 100 */   \
  X(std::int64_t, max_rss_kib, "mem", kKib, {}, kRequired)                                      \
  X(std::string, input, "input", kText, {}, kStored)                                            \
  X(std::string, sink, "sink", kText, {}, kStored)                                              \
  X(int, repeat, "repeat", kRepeat, {}, kStored) /* 0 only from a file without the column */    \
  /* A file without `status` has ok rows only */                                                \
  X(RunStatus, status, "status", kStatus, {RunStatus::kOk}, kStored)                            \
  /* 128 + signal number for signal and timeout; empty for error */                             \
  X(std::optional<int>, exit_code, "exit_code", kExitCode, {}, kOptional)                       \
  /* wait4's rusage counts: 0 for a run that never started; empty only from GNU time's files */ \
  X(std::optional<std::int64_t>, minflt, "minflt", kRusage, {0}, kStored)                       \
  X(std::optional<std::int64_t>, majflt, "majflt", kRusage, {0}, kStored)                       \
  X(std::optional<std::int64_t>, nvcsw, "nvcsw", kRusage, {0}, kStored)                         \
  X(std::optional<std::int64_t>, nivcsw, "nivcsw", kRusage, {0}, kStored)                       \
  X(std::optional<std::int64_t>, inblock, "inblock", kRusage, {0}, kStored)                     \
  X(std::optional<std::int64_t>, oublock, "oublock", kRusage, {0}, kStored)                     \
  X(std::optional<std::uint64_t>, bytes_out, "bytes_out", kCount, {}, kOptional) /* not null */ \
  X(std::optional<double>, cache_pct, "cache_pct", kPercent, {}, kOptional) /* of the input */  \
  X(std::string, output_hash, "output_hash", kText, {}, kOptional) /* "" when not hashed */     \
  X(std::string, host, "host", kText, {}, kOptional)                                            \
  /* What the rest of the machine did during the run (docs/driver.md, "Disturbance"): CPU */    \
  /* seconds of other processes, and steal; empty when /proc/stat could not be read */          \
  X(std::optional<double>, others_cpu_s, "others_cpu_s", kMilliseconds, {}, kOptional)          \
  X(std::optional<double>, steal_s, "steal_s", kMilliseconds, {}, kOptional)                    \
  /* What the run suffered, the disturbance rule's figure: the time its own process tree was */ \
  /* runnable but waited for a CPU; its tasks' wait for block I/O, context, not judged */       \
  X(std::optional<double>, wait_cpu_s, "wait_cpu_s", kMicroseconds, {}, kOptional)              \
  X(std::optional<double>, block_io_wait_s, "block_io_wait_s", kMicroseconds, {}, kOptional)

struct RunColumnSpec {
  std::string_view name;
  RunCodec codec;
  RunColumnNeed need;
};
#define IOBENCH_RUN_COLUMN_SPEC(type, member, name, codec, initial, need) \
  RunColumnSpec{name, RunCodec::codec, RunColumnNeed::need},
inline constexpr std::array kRunColumnSpecs{IOBENCH_RUN_COLUMNS(IOBENCH_RUN_COLUMN_SPEC)};
#undef IOBENCH_RUN_COLUMN_SPEC

inline constexpr std::size_t kStandardColumnCount = kRunColumnSpecs.size();
inline constexpr auto kStandardColumns = [] {
  std::array<std::string_view, kStandardColumnCount> names{};
  for (std::size_t c = 0; c < kStandardColumnCount; ++c) names[c] = kRunColumnSpecs[c].name;
  return names;
}();
// The columns of this need, in order.
template <RunColumnNeed kNeed>
inline constexpr auto kColumnsNeeded = [] {
  constexpr std::size_t count = [] {
    std::size_t n = 0;
    for (const RunColumnSpec& spec : kRunColumnSpecs) n += spec.need == kNeed ? 1 : 0;
    return n;
  }();
  std::array<std::string_view, count> names{};
  std::size_t i = 0;
  for (const RunColumnSpec& spec : kRunColumnSpecs)
    if (spec.need == kNeed) names[i++] = spec.name;
  return names;
}();

// A standard column's position, by name; kStandardColumnCount when it is none.
constexpr std::size_t standard_column(std::string_view name) {
  std::size_t c = 0;
  while (c < kStandardColumnCount && kStandardColumns[c] != name) ++c;
  return c;
}
// The name of a standard column, checked when compiled: column("steal_s").
consteval std::string_view column(std::string_view name) {
  if (standard_column(name) == kStandardColumnCount) throw "not a standard column";
  return name;
}

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
// run file ever written: the standard columns' members (IOBENCH_RUN_COLUMNS), then the counters.
struct RunRow {
#define IOBENCH_RUN_ROW_MEMBER(type, member, name, codec, initial, need) type member initial;
  IOBENCH_RUN_COLUMNS(IOBENCH_RUN_ROW_MEMBER)
#undef IOBENCH_RUN_ROW_MEMBER
  // Per counter, in schema order: empty when not counted (never 0 for "unknown"). Only the
  // counters the writer was given are written.
  std::array<std::optional<std::uint64_t>, kCounterCount> counters{};
  std::optional<double> counted_pct;  // see kCountedPctColumn
};

}  // namespace iobench::runfile
