// pytest-benchmark's --benchmark-json (docs/history.md, "pytest-benchmark"): each benchmark's
// fullname is a series of its rounds' times (stats.data, in seconds), or of its summary where the
// file has no data; machine_info fills the machine and the conditions, commit_info the commit.
#include <fmt/format.h>

#include "driver/importers/formats.hpp"
#include "driver/importers/json_input.hpp"

namespace iobench::importers {
namespace {

bool detects(std::string_view bytes) {
  const Json json = parse_or_discarded(bytes);
  return object_at(json, "machine_info") != nullptr &&
         has_rows(json, "benchmarks", {"name", "stats"}, false);
}

ImportedSeries series_of(const Json& benchmark, const std::string& file, std::size_t index) {
  const Fields fields(benchmark, file, fmt::format("benchmarks[{}]", index));
  const Json* stats_json = fields.optional_object("stats");
  if (stats_json == nullptr) fields.fail("no object 'stats'");
  const Fields stats(*stats_json, file, fields.where() + ".stats");
  ImportedSeries series =
      series_named(fields.optional_text("fullname").value_or(fields.text("name")), "time", "s",
                   Direction::kLowerIsBetter);
  if (stats_json->contains("data")) {
    series.samples = numbers_of(stats.array("data"), stats, "data");
    series.failed.assign(series.samples.size(), false);
  }
  if (series.samples.empty()) {
    series.summary =
        summary_of(stats.optional_number("median").value_or(stats.number("mean")),
                   stats.optional_number("stddev"),
                   static_cast<std::int64_t>(stats.optional_number("rounds").value_or(0)));
  }
  return series;
}

void read_machine(const Json& machine, ImportedRun& run) {
  for (const char* key : {"python_implementation", "python_version"}) {
    if (const auto it = machine.find(key); it != machine.end()) {
      run.conditions[key] = condition_text(*it);
    }
  }
  if (const auto node = machine.find("node"); node != machine.end() && node->is_string()) {
    run.host = node->get<std::string>();
  }
  run.machine = machine.value("machine", "");
  run.kernel = fmt::format("{} {}", machine.value("system", ""), machine.value("release", ""));
  if (const auto cpu = machine.find("cpu"); cpu != machine.end() && cpu->is_object()) {
    run.cpu_model = cpu->value("brand_raw", cpu->value("brand", ""));
    if (const auto count = cpu->find("count"); count != cpu->end() && count->is_number()) {
      run.cpus = count->get<std::int64_t>();
    }
  }
  run.context_json = machine.dump();
}

void read_commit(const Json& commit, ImportedRun& run) {
  const std::string id = commit.value("id", "");
  if (!id.empty() && id != "unversioned") run.commit = id;
  const std::string branch = commit.value("branch", "");
  if (!branch.empty() && branch != "(unknown)") run.branch = branch;
  if (const auto dirty = commit.find("dirty"); dirty != commit.end() && dirty->is_boolean()) {
    run.dirty = dirty->get<bool>();
  }
}

ImportedRun parse(std::string_view bytes, const std::string& file) {
  const Json json = parse_json(bytes, file);
  const Fields top(json, file, "the file");
  ImportedRun run;
  run.tool = "pytest-benchmark";
  if (const Json* machine = top.optional_object("machine_info")) read_machine(*machine, run);
  if (const Json* commit = top.optional_object("commit_info")) read_commit(*commit, run);
  run.date = top.optional_text("datetime");  // UTC: pytest-benchmark writes utcnow()
  const Json& benchmarks = top.array("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    run.series.push_back(series_of(benchmarks[i], file, i));
  }
  if (run.series.empty()) top.fail("no benchmarks");
  return run;
}

}  // namespace

const Importer kPytestBenchmark{"pytest-benchmark", detects, parse};

}  // namespace iobench::importers
