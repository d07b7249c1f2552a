#pragma once
// Another harness's result file as the history takes it (docs/history.md, "Other harnesses"): a
// list of series, each with its unit, direction and per-run values (or only a summary), and the
// conditions the file records. Pure data.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace iobench::importers {

enum class Direction { kLowerIsBetter, kHigherIsBetter };
// "lower", "higher": as the store keeps it.
std::string_view to_string(Direction direction);

// What a file says of a series when it has no per-run values.
struct Summary {
  double center = 0;  // the median where the file has one, else the mean
  std::optional<double> stddev;
  std::int64_t n = 0;           // how many runs it summarises
  std::optional<double> lower;  // BMF's lower_value and upper_value
  std::optional<double> upper;
};

inline Summary summary_of(double center, std::optional<double> stddev, std::int64_t n) {
  Summary summary;
  summary.center = center;
  summary.stddev = stddev;
  summary.n = n;
  return summary;
}

struct ImportedSeries {
  std::string name;     // the benchmark or command
  std::string measure;  // "real_time", "cpu_time", "latency", "throughput", ...
  std::string unit;     // as the file gives it: "s", "ns", "ops/s", "" when it says none
  Direction direction = Direction::kLowerIsBetter;
  std::vector<double> samples;     // one per run, in the file's unit
  std::vector<bool> failed;        // beside samples: the run failed (a nonzero exit, an error)
  std::optional<Summary> summary;  // when samples is empty
};

// A series with no values yet. (Made here, not assigned field by field: GCC 12 warns wrongly of
// an overflow when a short literal is assigned to a string, -Wstringop-overflow.)
inline ImportedSeries series_named(std::string name, std::string measure, std::string unit,
                                   Direction direction) {
  ImportedSeries series;
  series.name = std::move(name);
  series.measure = std::move(measure);
  series.unit = std::move(unit);
  series.direction = direction;
  return series;
}

struct ImportedRun {
  std::string tool;  // "hyperfine", "gbench", "pytest-benchmark", "bmf", "criterion"
  std::vector<ImportedSeries> series;
  // Measures the file gives without saying which way is better (Google Benchmark's user
  // counters), their direction a placeholder: history add imports those its --higher-is-better
  // or --lower-is-better names, and says which it did not.
  std::vector<ImportedSeries> undirected;
  // Like with like: conditions under which two runs compare (a debug build, CPU scaling on); a
  // change of any of them is "conditions changed", not a regression.
  std::map<std::string, std::string> conditions;
  // What the file records of the machine and run beside (load average, caches, parameters): kept,
  // not compared. JSON text of an object.
  std::string context_json = "{}";
  // The machine and provenance, where the file names them.
  std::optional<std::string> host;
  // The machine's class as the file describes it, where it names no CPU model, memory or kernel
  // (Google Benchmark: the host, CPU count, clock, caches); empty: the store works it out from
  // the fields below as for iobench's own runs.
  std::string host_class;
  std::optional<std::int64_t> cpus;
  std::string cpu_model;
  std::string kernel;
  std::string machine;
  std::optional<std::string> date;  // UTC ISO 8601 when the file says when it ran
  std::optional<std::string> commit;
  std::optional<std::string> branch;
  std::optional<bool> dirty;
};

}  // namespace iobench::importers
