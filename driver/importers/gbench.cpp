// Google Benchmark's --benchmark_format=json (docs/history.md, "Google Benchmark"): each
// benchmark's repetitions (run_type "iteration") are the samples of its real_time and cpu_time,
// and of items_per_second and bytes_per_second where it counts them; a benchmark with only
// aggregates (--benchmark_report_aggregates_only) gets their summary. Its user counters, which the
// file gives no direction, are kept aside for history add to import as told.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "driver/importers/formats.hpp"
#include "driver/importers/json_input.hpp"

namespace iobench::importers {
namespace {

struct Measure {
  const char* key;
  const char* unit;  // nullptr: the row's time_unit
  Direction direction;
};
constexpr Measure kMeasures[] = {
    {"real_time", nullptr, Direction::kLowerIsBetter},
    {"cpu_time", nullptr, Direction::kLowerIsBetter},
    {"items_per_second", "items/s", Direction::kHigherIsBetter},
    {"bytes_per_second", "B/s", Direction::kHigherIsBetter},
};
// The numbers of a benchmark's entry that are neither a measure nor a user counter (gbench
// 1.7.1's JSONReporter): any other number is a counter.
constexpr std::string_view kNotCounters[] = {"family_index",
                                             "per_family_instance_index",
                                             "repetitions",
                                             "repetition_index",
                                             "threads",
                                             "iterations",
                                             "cpu_coefficient",
                                             "real_coefficient",
                                             "rms"};

bool is_counter(std::string_view key) {
  const auto named = [key](std::string_view other) { return other == key; };
  return std::none_of(std::begin(kNotCounters), std::end(kNotCounters), named) &&
         std::none_of(std::begin(kMeasures), std::end(kMeasures),
                      [key](const Measure& m) { return m.key == key; });
}

bool detects(std::string_view bytes) {
  const Json json = parse_or_discarded(bytes);
  const Json* context = object_at(json, "context");
  return context != nullptr && has_rows(json, "benchmarks", {"name", "real_time"}, false) &&
         (context->contains("num_cpus") || context->contains("library_build_type"));
}

// One series per benchmark and measure, in the file's order.
class SeriesTable {
 public:
  ImportedSeries& at(const std::string& name, std::string_view measure, const std::string& unit,
                     Direction direction) {
    const std::string key = fmt::format("{}\x1f{}", name, measure);
    const auto [it, made] = index_.emplace(key, series_.size());
    if (made) series_.push_back(series_named(name, std::string(measure), unit, direction));
    return series_[it->second];
  }
  // The series with values, each with its samples or else its summary.
  std::vector<ImportedSeries> take() {
    for (ImportedSeries& series : series_) {
      if (!series.samples.empty()) series.summary.reset();  // the repetitions say more
    }
    std::erase_if(series_, [](const ImportedSeries& series) {
      return series.samples.empty() && !series.summary;  // only a cv or another percentage
    });
    return std::move(series_);
  }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<ImportedSeries> series_;
};

// What one entry of `benchmarks` is: a repetition, or an aggregate of them.
struct Entry {
  std::string name;
  std::string run_type;
  std::string aggregate;
  bool failed = false;
  std::int64_t repetitions = 0;
};

void add_value(ImportedSeries& series, const Entry& entry, double value) {
  if (entry.run_type == "iteration") {
    series.samples.push_back(value);
    series.failed.push_back(entry.failed);
  } else if (entry.aggregate == "median" || (entry.aggregate == "mean" && !series.summary)) {
    if (!series.summary) series.summary = Summary{};
    series.summary->center = value;
    series.summary->n = entry.repetitions;
  } else if (entry.aggregate == "stddev") {
    if (!series.summary) series.summary = summary_of(value, std::nullopt, 0);
    series.summary->stddev = value;
  }
}

// The entry's measures into `table`, its user counters (no unit: the file gives none, nor their
// direction) into `counters`.
void add_row(SeriesTable& table, SeriesTable& counters, const Fields& row, const Json& json) {
  Entry entry;
  entry.run_type = row.optional_text("run_type").value_or("iteration");
  entry.name = row.optional_text("run_name").value_or(row.text("name"));
  entry.aggregate = row.optional_text("aggregate_name").value_or("");
  entry.failed = json.value("error_occurred", false);
  entry.repetitions = json.value("repetitions", std::int64_t{0});
  const std::string time_unit = row.optional_text("time_unit").value_or("ns");
  for (const Measure& measure : kMeasures) {
    const auto value = row.optional_number(measure.key);
    if (!value) continue;
    const std::string unit = measure.unit != nullptr ? measure.unit : time_unit;
    add_value(table.at(entry.name, measure.key, unit, measure.direction), entry, *value);
  }
  for (const auto& [key, value] : json.items()) {
    if (!value.is_number() || !is_counter(key)) continue;
    add_value(counters.at(entry.name, key, "", Direction::kLowerIsBetter), entry,
              value.get<double>());
  }
}

// "2.6 GHz": the clock to a tenth of a GHz, so that a reading a few MHz off (a VM's "cpu MHz")
// does not split one machine's series.
std::string clock_class(const Json& context) {
  const auto it = context.find("mhz_per_cpu");
  if (it == context.end() || !it->is_number()) return "? GHz";
  return fmt::format("{:.1f} GHz", std::round(it->get<double>() / 100) / 10);
}

// "caches L1d 48 KiB, L1i 64 KiB, L2 2048 KiB, L3 491520 KiB".
std::string cache_class(const Json& context) {
  const auto it = context.find("caches");
  if (it == context.end() || !it->is_array() || it->empty()) return "caches ?";
  std::vector<std::string> parts;
  for (const Json& cache : *it) {
    if (!cache.is_object()) continue;  // kept as context; not the class's to refuse
    const auto field = [&cache](const char* key) {
      const auto found = cache.find(key);
      return found == cache.end() ? Json() : *found;
    };
    const Json type = field("type");
    const Json level = field("level");
    const Json size = field("size");
    const char* kind = type == "Data" ? "d" : type == "Instruction" ? "i" : "";
    parts.push_back(fmt::format("L{}{} {} KiB", level.is_number() ? level.dump() : "?", kind,
                                size.is_number() ? size.get<std::int64_t>() / 1024 : 0));
  }
  return fmt::format("caches {}", fmt::join(parts, ", "));
}

void read_context(const Fields& context, const Json& json, ImportedRun& run) {
  for (const char* key : {"library_build_type", "cpu_scaling_enabled"}) {
    if (const auto it = json.find(key); it != json.end()) run.conditions[key] = condition_text(*it);
  }
  run.host = context.optional_text("host_name");
  run.date = context.optional_text("date");  // local time with its offset
  if (const auto cpus = context.optional_number("num_cpus")) {
    run.cpus = static_cast<std::int64_t>(*cpus);
  }
  // The file names no CPU model, memory or kernel: a class of "2 CPUs" alone would be half the
  // machines of a rack, so the host's name is part of it (docs/history.md, "Google Benchmark").
  run.host_class =
      fmt::format("{} | {} CPUs | {} | {}", run.host.value_or("?"),
                  run.cpus ? std::to_string(*run.cpus) : "?", clock_class(json), cache_class(json));
  Json kept = Json::object();
  for (const char* key : {"mhz_per_cpu", "load_avg", "caches", "executable", "date"}) {
    if (const auto it = json.find(key); it != json.end()) kept[key] = *it;
  }
  run.context_json = kept.dump();
}

ImportedRun parse(std::string_view bytes, const std::string& file) {
  const Json json = parse_json(bytes, file);
  const Fields top(json, file, "the file");
  const Json* context = top.optional_object("context");
  if (context == nullptr) top.fail("no object 'context'");
  ImportedRun run;
  run.tool = "gbench";
  read_context(Fields(*context, file, "context"), *context, run);
  SeriesTable table;
  SeriesTable counters;
  const Json& benchmarks = top.array("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    add_row(table, counters, Fields(benchmarks[i], file, fmt::format("benchmarks[{}]", i)),
            benchmarks[i]);
  }
  run.series = table.take();
  run.undirected = counters.take();
  if (run.series.empty()) top.fail("no benchmarks");
  return run;
}

}  // namespace

const Importer kGbench{"gbench", detects, parse};

}  // namespace iobench::importers
