// `iobench run CONFIG.json [-o RUNS.tsv] [--repeats N] [--filter REGEX] [--dry-run]
// [--shard K/N|auto] [--data-dir DIR] [--report FILE] [--top N] [--quiet] [--history[=PATH|URL]]
#include <iostream>
#include <memory>

#include "driver/cli/cmd_history.hpp"
#include "driver/cli/command.hpp"
#include "driver/report/html_report.hpp"
#include "driver/run/runner.hpp"

namespace iobench::cli {
namespace {

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
  auto history = std::make_shared<HistoryAfterRun>();
  history->add_option(sub);
  sub.callback([options, repeats, report, history, &exit_code] {
    if (*repeats > 0) options->repeats_override = *repeats;
    // The store is opened before anything is written: a bad one is exit 2 with no run file.
    options->before_writing = [&history](const config::Config& config,
                                         const std::filesystem::path&) {
      history->open(config.history, config.file.parent_path());
    };
    const run::RunResult result = run::run_experiment(*options);
    exit_code = result.exit_code;
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
