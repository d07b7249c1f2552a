// hyperfine's --export-json (docs/history.md, "hyperfine"): each result's command is a series of
// its wall-clock `times`, in seconds; a run whose exit code is not 0 failed.
#include <fmt/format.h>

#include "driver/importers/formats.hpp"
#include "driver/importers/json_input.hpp"

namespace iobench::importers {
namespace {

bool detects(std::string_view bytes) {
  return has_rows(parse_or_discarded(bytes), "results", {"command", "mean", "times"}, true);
}

ImportedSeries series_of(const Json& result, const std::string& file, std::size_t index) {
  const Fields fields(result, file, fmt::format("results[{}]", index));
  ImportedSeries series =
      series_named(fields.text("command"), "real_time", "s", Direction::kLowerIsBetter);
  series.samples = numbers_of(fields.array("times"), fields, "times");
  series.failed.assign(series.samples.size(), false);
  if (const auto codes = result.find("exit_codes"); codes != result.end() && codes->is_array()) {
    for (std::size_t i = 0; i < codes->size() && i < series.samples.size(); ++i) {
      series.failed[i] = !(*codes)[i].is_number_integer() || (*codes)[i].get<int>() != 0;
    }
  }
  if (series.samples.empty()) {
    series.summary = summary_of(fields.optional_number("median").value_or(fields.number("mean")),
                                fields.optional_number("stddev"), 0);
  }
  return series;
}

ImportedRun parse(std::string_view bytes, const std::string& file) {
  const Json json = parse_json(bytes, file);
  const Fields top(json, file, "the file");
  ImportedRun run;
  run.tool = "hyperfine";
  Json context = Json::object();
  const Json& results = top.array("results");
  for (std::size_t i = 0; i < results.size(); ++i) {
    run.series.push_back(series_of(results[i], file, i));
    // hyperfine's -L/-P values are part of each command's text already: kept beside, not
    // compared.
    if (const auto parameters = results[i].find("parameters"); parameters != results[i].end()) {
      context["parameters"][run.series.back().name] = *parameters;
    }
  }
  if (run.series.empty()) top.fail("no results");
  run.context_json = context.dump();
  return run;
}

}  // namespace

const Importer kHyperfine{"hyperfine", detects, parse};

}  // namespace iobench::importers
