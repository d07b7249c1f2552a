#pragma once
// `iobench run`: validates the config, prepares inputs and the page cache, runs the plan through
// the spawner, verifies outputs, and streams one row per run to the results file.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "driver/config/plan.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/runfile/written_run.hpp"

namespace iobench::run {

struct RunOptions {
  std::filesystem::path config_path;  // read by run_experiment only
  std::filesystem::path output;       // empty: results/<name>-<UTC timestamp>.tsv
  std::string filter_regex;
  std::optional<int> repeats_override;
  std::string shard;  // "K/N", "auto" or empty
  // Relative input paths resolve here instead of the config's folder; empty: $IOBENCH_DATA_DIR,
  // else the current folder for an installed config (run_experiment only).
  std::filesystem::path data_dir;
  // `--build DIR`, `--versus DIR`: the candidate build's folder and the base build's, measured
  // in one session (config::PlanOptions; docs/driver.md, "Two builds").
  std::optional<std::filesystem::path> build_dir;
  std::optional<std::filesystem::path> versus_dir;
  bool dry_run = false;
  bool quiet = false;
  // `iobench bench`: a command is not run again after its first failure or mismatch
  // (ExecutorSettings::stop_at_first_failure), and the runs file is in a temporary folder, so
  // the closing line does not send anyone to it.
  bool stop_at_first_failure = false;
  bool runs_file_is_temporary = false;
  // False: the medians table is not printed at the end (`iobench bench` prints its own output).
  bool print_table = true;
  // False: the summary's warnings (spread, outliers, ...) are kept in the meta file, not printed
  // (`iobench bench` without --verbose counts them in its summary line).
  bool print_summary_warnings = true;
  // Rows of the medians table per input and sink (`--top N`; 0: all), docs/reports.md.
  std::size_t table_top_rows = report::kEndTableRows;
  // The shell's start-up, measured before the runs (`iobench bench`, docs/bench.md "Shell
  // start-up"): recorded in the meta file from its first writing.
  std::optional<runfile::ShellStartup> shell_startup;
  // When set, called once the config is accepted and the runs file chosen, before anything is
  // written (`--history` opens its store there: a store error is exit 2, nothing written).
  std::function<void(const config::Config&, const std::filesystem::path& runs_file)> before_writing;
};

// What a run gives whoever asked for it: one value, so that nothing after the runs reads the run
// file or the meta file again.
struct RunResult {
  int exit_code = 0;  // docs/formats.md "Exit codes"
  // The run file and meta record as written; empty for a dry run.
  std::optional<runfile::WrittenRun> written;
  // How the sequential rule ended each comparison (docs/reports.md "Deciding a comparison");
  // empty when the rule is off.
  std::vector<report::RuleDecision> rule_decisions;
};

// Loads options.config_path, its relative inputs resolved against options.data_dir (else
// $IOBENCH_DATA_DIR, ...). Throws iobench::Error (exit 2).
config::Config load_run_config(const RunOptions& options);

// Loads options.config_path and runs it through run_config. Throws iobench::Error for errors
// found before any run.
RunResult run_experiment(const RunOptions& options);

// Runs an in-memory config (e.g. one `iobench bench` built from its command line) through exactly
// the path a config file takes: plan, pre-run checks, outputs, executor, medians, metadata.
// config.file names the source in error messages and the metadata; it need not exist.
// options.config_path is not read. Throws iobench::Error as run_experiment.
RunResult run_config(const config::Config& config, const RunOptions& options);

}  // namespace iobench::run
