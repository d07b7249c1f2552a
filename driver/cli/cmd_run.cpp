// `iobench run CONFIG.json [-o RUNS.tsv] [--repeats N] [--filter REGEX] [--dry-run]
// [--shard K/N|auto] [--data-dir DIR] [--report FILE] [--top N] [--quiet] [--history[=PATH|URL]]
// [--build DIR] [--versus DIR] [--fail-if-slower PCT [--gate-format FMT]]
#include <iostream>
#include <memory>
#include <string>

#include "common/error.hpp"
#include "driver/cli/cmd_history.hpp"
#include "driver/cli/command.hpp"
#include "driver/report/html_report.hpp"
#include "driver/run/run_gate.hpp"
#include "driver/run/runner.hpp"

namespace iobench::cli {
namespace {

struct GateCli {
  double fail_if_slower_pct = 0;
  std::string gate_format;
};

void add_build_options(CLI::App& sub, run::RunOptions& options, GateCli& gate) {
  sub.add_option("--build", options.build_dir,
                 "The candidate build's folder: what {build} names in the config's commands, and "
                 "where its iobench-worker is (default: this iobench's)")
      ->check(CLI::ExistingDirectory);
  sub.add_option("--versus", options.versus_dir,
                 "The base build's folder: every test measured with it too, in the same session "
                 "(NAME@base, interleaved with NAME), each judged against its twin "
                 "(docs/driver.md, \"Two builds\")")
      ->check(CLI::ExistingDirectory);
  sub.add_option("--fail-if-slower", gate.fail_if_slower_pct,
                 "A gate: exit 1 when a test is decided slower than its base twin (--versus), "
                 "else the baseline, by more than PCT percent; 4 when its runs cannot rule that "
                 "out; the sequential rule decides each comparison")
      ->check(CLI::Range(0.0, 1e9));
  sub.add_option("--gate-format", gate.gate_format,
                 "With --fail-if-slower: the gate's verdict on stdout as history check writes it: "
                 "text, markdown, json, github");
}

run::RunGateOptions gate_options_of(const CLI::App& sub, const run::RunOptions& options,
                                    const GateCli& gate) {
  run::RunGateOptions gate_options;
  gate_options.twins = options.versus_dir.has_value();
  if (sub.get_option("--fail-if-slower")->count() > 0)
    gate_options.fail_if_slower_pct = gate.fail_if_slower_pct;
  if (sub.get_option("--gate-format")->count() > 0) {
    if (!gate_options.fail_if_slower_pct)
      throw Error("--gate-format: needs --fail-if-slower PCT, the gate it writes");
    gate_options.gate_format = report::parse_verdict_format("--gate-format", gate.gate_format);
  }
  return gate_options;
}

void setup_run(CLI::App& sub, int& exit_code) {
  auto options = std::make_shared<run::RunOptions>();
  auto repeats = std::make_shared<int>(0);
  auto report = std::make_shared<std::filesystem::path>();
  sub.add_option("config", options->config_path,
                 "The experiment, a JSON matrix (see docs/formats.md)")
      ->required();
  sub.add_option("-o,--output", options->output,
                 "Runs file to write (never overwritten); default results/<name>-<UTC time>.tsv");
  sub.add_option("--repeats", *repeats, "Measured runs per cell, overriding the config")
      ->check(CLI::Range(1, 1000000));
  sub.add_option("--filter", options->filter_regex, "Run only tests whose name matches this regex");
  sub.add_flag("--dry-run", options->dry_run, "Print the expanded plan and exit");
  sub.add_option("--shard", options->shard,
                 "Run the K-th of N shares of the cells (K/N), or auto: K/N from a Slurm job array "
                 "or a Kubernetes Indexed Job (docs/distributed.md)");
  sub.add_option("--data-dir", options->data_dir,
                 "Folder that relative input paths resolve against (default: the config's folder; "
                 "$IOBENCH_DATA_DIR; the current folder for an installed config)");
  sub.add_option("--report", *report,
                 "Also write the runs as one HTML page after the medians (as `iobench report`)");
  sub.add_option("--top", options->table_top_rows,
                 "Rows of the medians table per input and sink, then a count of the rest (0: all)")
      ->capture_default_str();
  sub.add_flag("-q,--quiet", options->quiet, "No progress line or generation notes");
  auto gate = std::make_shared<GateCli>();
  add_build_options(sub, *options, *gate);
  auto history = std::make_shared<HistoryAfterRun>();
  history->add_option(sub);
  sub.callback([options, repeats, report, history, gate, &sub, &exit_code] {
    if (*repeats > 0) options->repeats_override = *repeats;
    // Absolute, as the meta file records them and whatever folder a run starts in.
    for (auto* dir : {&options->build_dir, &options->versus_dir})
      if (*dir) *dir = std::filesystem::absolute(**dir);
    const run::RunGateOptions gate_options = gate_options_of(sub, *options, *gate);
    config::Config config = run::load_run_config(*options);
    if (gate_options.fail_if_slower_pct)
      run::decide_for_gate(config, *gate_options.fail_if_slower_pct);
    // The store is opened before anything is written: a bad one is exit 2 with no run file.
    options->before_writing = [&history, &options](const config::Config& run_config,
                                                   const std::filesystem::path&) {
      if (options->versus_dir && history->wanted(run_config.history)) {
        throw Error(
            "--versus: a session of two builds is not added to the history (its base "
            "twins' rows would stand as the candidate's commit); gate it with "
            "--fail-if-slower, or run each build alone with --history");
      }
      history->open(run_config.history, run_config.file.parent_path());
    };
    const run::RunResult result = run::run_config(config, *options);
    exit_code = run::report_comparisons(result, config, gate_options, std::cout);
    if (!report->empty() && result.written) {
      exit_code = report::write_report_after_run(*result.written, *report, exit_code, std::cerr);
    }
    exit_code = history->add(result.written, exit_code);
  });
}

const RegisterCommand kRegisterRun{"run", "Run an experiment: measure every strategy in the config",
                                   &setup_run, 10};

}  // namespace
}  // namespace iobench::cli
