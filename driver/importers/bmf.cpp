// Bencher Metric Format (docs/history.md, "BMF"): {benchmark: {measure: {value, lower_value,
// upper_value}}}. One value a run, so each series has a summary, not samples.
#include <fmt/format.h>

#include "driver/importers/formats.hpp"
#include "driver/importers/json_input.hpp"

namespace iobench::importers {
namespace {

bool is_metric(const Json& metric) {
  if (!metric.is_object() || !metric.contains("value")) return false;
  for (const auto& [key, value] : metric.items()) {
    if (key != "value" && key != "lower_value" && key != "upper_value") return false;
    if (!value.is_number()) return false;
  }
  return true;
}

// Strict: every top-level value an object of measures, each with a number `value`.
bool detects(std::string_view bytes) {
  const Json json = parse_or_discarded(bytes);
  if (!json.is_object() || json.empty()) return false;
  for (const auto& [name, measures] : json.items()) {
    if (!measures.is_object() || measures.empty()) return false;
    for (const auto& [measure, metric] : measures.items()) {
      if (!is_metric(metric)) return false;
    }
  }
  return true;
}

// Bencher's built-in measures: their units, and which way is better.
std::string bmf_unit(std::string_view measure) {
  if (measure == "latency") return "ns";
  if (measure == "throughput") return "ops/s";
  if (measure == "file-size") return "B";
  if (measure == "build-time") return "s";
  return "";
}
Direction bmf_direction(std::string_view measure) {
  return measure == "throughput" ? Direction::kHigherIsBetter : Direction::kLowerIsBetter;
}

ImportedRun parse(std::string_view bytes, const std::string& file) {
  const Json json = parse_json(bytes, file);
  ImportedRun run;
  run.tool = "bmf";
  if (!json.is_object() || json.empty()) Fields(json, file, "the file").fail("no benchmarks");
  for (const auto& [name, measures] : json.items()) {
    const Fields benchmark(measures, file, fmt::format("\"{}\"", name));
    for (const auto& [measure, metric] : measures.items()) {
      const Fields fields(metric, file, fmt::format("\"{}\".\"{}\"", name, measure));
      ImportedSeries series =
          series_named(name, measure, bmf_unit(measure), bmf_direction(measure));
      series.summary = summary_of(fields.number("value"), std::nullopt, 1);
      series.summary->lower = fields.optional_number("lower_value");
      series.summary->upper = fields.optional_number("upper_value");
      run.series.push_back(std::move(series));
    }
  }
  return run;
}

}  // namespace

const Importer kBmf{"bmf", detects, parse};

}  // namespace iobench::importers
