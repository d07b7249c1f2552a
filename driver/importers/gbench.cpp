// Google Benchmark's --benchmark_format=json (docs/history.md, "Google Benchmark"): each
// benchmark's repetitions (run_type "iteration") are the samples of its real_time and cpu_time,
// and of items_per_second and bytes_per_second where it counts them; a benchmark with only
// aggregates (--benchmark_report_aggregates_only) gets their summary.
#include <fmt/format.h>

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

bool detects(std::string_view bytes) {
  const Json json = parse_or_discarded(bytes);
  const Json* context = object_at(json, "context");
  return context != nullptr && has_rows(json, "benchmarks", {"name", "real_time"}, false) &&
         (context->contains("num_cpus") || context->contains("library_build_type"));
}

// One series per benchmark and measure, in the file's order.
class SeriesTable {
 public:
  ImportedSeries& at(const std::string& name, const Measure& measure, const std::string& unit) {
    const std::string key = name + '\x1f' + measure.key;
    const auto [it, made] = index_.emplace(key, series_.size());
    if (made) {
      series_.push_back(series_named(name, measure.key, unit, measure.direction));
    }
    return series_[it->second];
  }
  std::vector<ImportedSeries> take() { return std::move(series_); }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<ImportedSeries> series_;
};

void add_row(SeriesTable& table, const Fields& row, const Json& json) {
  const std::string run_type = row.optional_text("run_type").value_or("iteration");
  const std::string name = row.optional_text("run_name").value_or(row.text("name"));
  const std::string time_unit = row.optional_text("time_unit").value_or("ns");
  const bool failed = json.value("error_occurred", false);
  const std::string aggregate = row.optional_text("aggregate_name").value_or("");
  for (const Measure& measure : kMeasures) {
    const auto value = row.optional_number(measure.key);
    if (!value) continue;
    ImportedSeries& series =
        table.at(name, measure, measure.unit != nullptr ? measure.unit : time_unit);
    if (run_type == "iteration") {
      series.samples.push_back(*value);
      series.failed.push_back(failed);
    } else if (aggregate == "median" || (aggregate == "mean" && !series.summary)) {
      if (!series.summary) series.summary = Summary{};
      series.summary->center = *value;
      series.summary->n = json.value("repetitions", std::int64_t{0});
    } else if (aggregate == "stddev") {
      if (!series.summary) series.summary = summary_of(*value, std::nullopt, 0);
      series.summary->stddev = *value;
    }
  }
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
  const Json& benchmarks = top.array("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    add_row(table, Fields(benchmarks[i], file, fmt::format("benchmarks[{}]", i)), benchmarks[i]);
  }
  run.series = table.take();
  for (ImportedSeries& series : run.series) {
    if (!series.samples.empty()) series.summary.reset();  // the repetitions say more
  }
  std::erase_if(run.series, [](const ImportedSeries& series) {
    return series.samples.empty() && !series.summary;  // only a cv or another percentage
  });
  if (run.series.empty()) top.fail("no benchmarks");
  return run;
}

}  // namespace

const Importer kGbench{"gbench", detects, parse};

}  // namespace iobench::importers
