#include "driver/bench/bench.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/bench/hyperfine_options.hpp"
#include "driver/bench/outputs.hpp"
#include "driver/bench/shell_startup.hpp"
#include "driver/bench/versus_hyperfine.hpp"
#include "driver/report/gate_output.hpp"
#include "driver/run/counter_plan.hpp"
#include "driver/run/launcher.hpp"
#include "driver/run/outputs.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/util/text.hpp"

namespace iobench::bench {

using run::plan_counting;
using run::PrivateFolder;
using run::run_config;
using run::SpawnerLauncher;

namespace {

namespace fs = std::filesystem;

void check_export_folders(const bench::BenchExports& exports) {
  const std::array<std::pair<const fs::path*, const char*>, 5> files{
      {{&exports.json, "--export-json"},
       {&exports.csv, "--export-csv"},
       {&exports.markdown, "--export-markdown"},
       {&exports.asciidoc, "--export-asciidoc"},
       {&exports.orgmode, "--export-orgmode"}}};
  for (const auto& [path, option] : files) {
    if (!path->empty()) check_output_folder(*path, option);
  }
}

void save_config(const config::Config& config, const fs::path& save_path, bool dry_run) {
  try {
    write_file_atomically(save_path, bench::config_to_save(config, save_path).dump(2) + "\n");
  } catch (const Error& e) {
    throw Error(e.what(), dry_run ? kExitUsage : kExitCouldNotContinue);
  }
  fmt::print(stderr, "iobench: config saved to {}; `iobench run {}` measures it again\n",
             save_path.string(), save_path.string());
}

// The shell's own cost, measured as the commands will run (docs/bench.md, "Shell start-up");
// nullopt without a shell or for a dry run.
std::optional<runfile::ShellStartup> shell_startup(const config::Config& config, bool dry_run) {
  if (dry_run || config_shell(config).empty()) return std::nullopt;
  SpawnerLauncher launcher(spawn::Spawner::global());
  auto startup = measure_shell_startup(launcher, config, plan_counting(config.counters).counted);
  if (!startup) {
    fmt::print(stderr,
               "iobench: warning: {} -c '' did not exit 0; the shell's start-up is not "
               "subtracted\n",
               util::join_argv(config_shell(config)));
  }
  return startup;
}

// The tests in the order given, each with its params: hyperfine's "parameters" in the exports.
std::vector<bench::BenchTest> bench_tests(const config::Config& config) {
  std::vector<bench::BenchTest> tests;
  for (const config::Test& test : config::build_plan(config, config::PlanOptions{}).tests) {
    tests.push_back({test.name, test.param_values});
  }
  return tests;
}

// --compare-with: hyperfine only, and installed, or nothing runs (exit 2).
void check_compare_with(const std::string& tool) {
  if (tool.empty()) return;
  if (tool != "hyperfine") {
    throw Error(fmt::format("--compare-with {}: iobench compares with hyperfine only", tool));
  }
  find_hyperfine();
}

// hyperfine's answer for the same cells (docs/bench.md); a failure is a warning, since iobench's
// own runs are done and kept.
std::optional<bench::OtherToolRun> run_other_tool(const config::Config& config,
                                                  const fs::path& runs_file) {
  try {
    const PrivateFolder folder(runs_file.has_parent_path() ? runs_file.parent_path() : ".");
    return run_hyperfine(config, config::build_plan(config, config::PlanOptions{}), folder.path());
  } catch (const Error& e) {
    fmt::print(stderr, "iobench: warning: --compare-with hyperfine: {}; no side by side\n",
               e.what());
  }
  return std::nullopt;
}

}  // namespace

void check_output_folder(const fs::path& file, const char* option) {
  const fs::path folder = fs::absolute(file).parent_path();
  std::error_code ec;
  if (!fs::exists(folder, ec)) {
    throw Error(fmt::format("{} {}: the folder {} does not exist (bench creates no folder)", option,
                            file.string(), folder.string()));
  }
  if (!fs::is_directory(folder, ec)) {
    throw Error(fmt::format("{} {}: cannot write in {}: not a folder", option, file.string(),
                            folder.string()));
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw Error(fmt::format("{} {}: cannot write in {}: {}", option, file.string(), folder.string(),
                            std::strerror(errno)));
  }
}

namespace {

// $TMPDIR, else /tmp.
fs::path temporary_folder() {
  std::error_code ec;
  fs::path parent = fs::temp_directory_path(ec);
  return ec ? fs::path("/tmp") : parent;
}

}  // namespace

TemporaryRunsFolder::TemporaryRunsFolder()
    : folder_(temporary_folder(), "iobench-bench-", "the runs (give -o FILE)") {}

run::RunResult run_bench(BenchOptions& options) {
  check_compare_with(options.compare_with);
  options.request.made_by = bench::bench_command_line(options.request);
  const config::Config config = bench::build_bench_config(options.request);
  // The config is saved once the run has accepted it, so an error found before any run (exit 2)
  // leaves nothing written.
  if (!options.save_config.empty()) check_output_folder(options.save_config, "--save-config");
  if (!options.run.output.empty() && !options.run.runs_file_is_temporary)
    check_output_folder(options.run.output, "--runs-file");
  check_export_folders(options.report.exports);
  for (const std::string& file : output_files(options.request))
    check_output_folder(file, "--output");
  // In the meta file from its first writing: every reader of the run subtracts it.
  options.run.shell_startup = shell_startup(config, options.run.dry_run);
  options.run.print_table = false;  // report_bench prints it, under the environment line
  options.run.print_summary_warnings = options.report.verbose;  // else counted in its last line
  options.run.stop_at_first_failure = true;
  run::RunResult result = run_config(config, options.run);
  if (!options.save_config.empty()) save_config(config, options.save_config, options.run.dry_run);
  if (!result.written) return result;
  const runfile::WrittenRun& run = *result.written;
  if (options.request.verify != "on") {
    for (const std::string& line : outputs_differ_lines(run, config.baseline))
      fmt::print(stderr, "iobench: {}\n", line);
  }
  if (!options.compare_with.empty()) options.report.other = run_other_tool(config, run.runs_file);
  options.report.reference = config.baseline;
  options.report.tests = bench_tests(config);
  options.report.rule_decisions = result.rule_decisions;
  const report::Gate gate = bench::report_bench(run, options.report, std::cout);
  result.exit_code = report::finish_gate(gate, result.exit_code, std::cerr);
  return result;
}

}  // namespace iobench::bench
