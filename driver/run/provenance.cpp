#include "driver/run/provenance.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include "common/error.hpp"
#include "driver/run/machine_context.hpp"
#include "driver/run/sink.hpp"

namespace iobench::run {

namespace fs = std::filesystem;

runfile::Provenance collect_provenance(const config::Config& config, const config::Plan& plan,
                                       const fs::path& worker, const MachineLoad& load_at_start) {
  runfile::Provenance provenance;
  provenance.reference_test = plan.baseline_test
                                  ? plan.tests[*plan.baseline_test].name
                                  : std::string("the fastest test of each input and sink");
  const fs::path config_folder = config.file.parent_path();
  if (const auto commit = git_output(config_folder, {"rev-parse", "HEAD"})) {
    const auto status =
        git_output(config_folder, {"status", "--porcelain", "--untracked-files=no"});
    provenance.git_commit = commit->substr(0, commit->find('\n'));
    provenance.git_dirty = status && !status->empty();
  }
  runfile::WorkerBinary binary{worker.string(), build_info(),
                               std::nullopt};  // built with the driver
  try {
    binary.xxh3 = hash_file(worker);
  } catch (const Error&) {
    // No worker binary: only commands run.
  }
  provenance.worker = binary;
  provenance.load_average_start = load_at_start.load_average_1min;
  provenance.busy_cpus_start = load_at_start.busy_cpus;
  provenance.root = ::geteuid() == 0;
  return provenance;
}

runfile::Schedule plan_schedule(const config::Config& config, const config::Plan& plan) {
  runfile::Schedule schedule;
  for (const config::Cell& cell : plan.cells) {
    schedule.cells.push_back({plan.tests[cell.test].name, config.inputs[cell.input].path.string(),
                              std::string(to_string(cell.sink))});
  }
  for (const config::PlannedRun& run : plan.runs) {
    switch (run.phase) {
      case config::RunPhase::kVerify:
        schedule.runs.push_back(fmt::format("v:{}", run.cell));
        break;
      case config::RunPhase::kWarmup:
        schedule.runs.push_back(fmt::format("w:{}", run.cell));
        break;
      case config::RunPhase::kMeasure:
        schedule.runs.push_back(fmt::format("m:{}:{}", run.cell, run.repeat));
        break;
    }
  }
  return schedule;
}

}  // namespace iobench::run
