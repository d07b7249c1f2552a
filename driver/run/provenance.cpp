#include "driver/run/provenance.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include "common/error.hpp"
#include "driver/run/run_meta.hpp"
#include "driver/run/sink.hpp"

namespace iobench {

namespace fs = std::filesystem;

nlohmann::ordered_json collect_provenance(const Config& config, const Plan& plan,
                                          const fs::path& worker,
                                          const MachineLoad& load_at_start) {
  nlohmann::ordered_json provenance;
  provenance["reference_test"] = plan.baseline_test
                                     ? plan.tests[*plan.baseline_test].name
                                     : std::string("the fastest test of each input and sink");
  const fs::path config_folder = config.file.parent_path();
  if (const auto commit = git_output(config_folder, {"rev-parse", "HEAD"})) {
    const auto status =
        git_output(config_folder, {"status", "--porcelain", "--untracked-files=no"});
    provenance["git_commit"] = commit->substr(0, commit->find('\n'));
    provenance["git_dirty"] = status && !status->empty();
  }
  nlohmann::ordered_json worker_json;
  worker_json["path"] = worker.string();
  worker_json["build"] = build_info();  // the worker is built with the driver
  try {
    worker_json["xxh3"] = hash_file(worker);
  } catch (const Error&) {
    worker_json["xxh3"] = nullptr;  // no worker binary: only commands run
  }
  provenance["worker"] = worker_json;
  const auto or_null = [](const std::optional<double>& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
  };
  provenance["load_average_start"] = or_null(load_at_start.load_average_1min);
  provenance["busy_cpus_start"] = or_null(load_at_start.busy_cpus);
  provenance["root"] = ::geteuid() == 0;
  return provenance;
}

nlohmann::ordered_json schedule_json(const Config& config, const Plan& plan) {
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const Cell& cell : plan.cells) {
    cells.push_back({{"test", plan.tests[cell.test].name},
                     {"input", config.inputs[cell.input].path.string()},
                     {"sink", to_string(cell.sink)}});
  }
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const PlannedRun& run : plan.runs) {
    switch (run.phase) {
      case RunPhase::kVerify:
        runs.push_back(fmt::format("v:{}", run.cell));
        break;
      case RunPhase::kWarmup:
        runs.push_back(fmt::format("w:{}", run.cell));
        break;
      case RunPhase::kMeasure:
        runs.push_back(fmt::format("m:{}:{}", run.cell, run.repeat));
        break;
    }
  }
  return {{"cells", cells}, {"runs", runs}};
}

}  // namespace iobench
