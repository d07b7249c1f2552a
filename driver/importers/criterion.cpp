// Criterion.rs's sample.json (docs/history.md, "Criterion"): what `cargo bench` leaves in
// target/criterion/BENCH/new/, each sample a measurement of `iters[i]` iterations taking
// `times[i]` ns; the series is named by benchmark.json beside it (its full_id), else by the
// folder.
#include <fmt/format.h>

#include <filesystem>

#include "common/read_file.hpp"
#include "driver/importers/formats.hpp"
#include "driver/importers/json_input.hpp"

namespace iobench::importers {
namespace {

// Strict: exactly Criterion's three keys.
bool detects(std::string_view bytes) {
  const Json json = parse_or_discarded(bytes);
  return json.is_object() && json.size() == 3 && json.contains("sampling_mode") &&
         json.contains("iters") && json.contains("times") && json["iters"].is_array() &&
         json["times"].is_array();
}

// The benchmark's name: benchmark.json's full_id beside the file, else the folder above `new/`.
std::string benchmark_name(const std::string& file) {
  const std::filesystem::path folder = std::filesystem::path(file).parent_path();
  if (const auto bytes = read_file_bytes_if_present(folder / "benchmark.json")) {
    const Json json = parse_or_discarded(*bytes);
    if (json.is_object() && json.contains("full_id") && json["full_id"].is_string()) {
      return json["full_id"].get<std::string>();
    }
  }
  const std::filesystem::path bench =
      folder.filename() == "new" || folder.filename() == "base" ? folder.parent_path() : folder;
  return bench.filename().string();
}

ImportedRun parse(std::string_view bytes, const std::string& file) {
  const Json json = parse_json(bytes, file);
  const Fields top(json, file, "the file");
  const std::vector<double> iters = numbers_of(top.array("iters"), top, "iters");
  const std::vector<double> times = numbers_of(top.array("times"), top, "times");
  if (iters.size() != times.size() || iters.empty()) {
    top.fail(
        fmt::format("{} iters and {} times: one of each a sample", iters.size(), times.size()));
  }
  ImportedSeries series =
      series_named(benchmark_name(file), "time", "ns", Direction::kLowerIsBetter);
  for (std::size_t i = 0; i < iters.size(); ++i) {
    if (!(iters[i] > 0)) top.fail(fmt::format("iters[{}] is not a positive count", i));
    series.samples.push_back(times[i] / iters[i]);  // ns an iteration, as Criterion reports
  }
  series.failed.assign(series.samples.size(), false);
  ImportedRun run;
  run.tool = "criterion";
  run.context_json = Json{{"sampling_mode", json["sampling_mode"]}}.dump();
  run.series.push_back(std::move(series));
  return run;
}

}  // namespace

const Importer kCriterion{"criterion", detects, parse};

}  // namespace iobench::importers
