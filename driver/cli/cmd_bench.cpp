// `iobench bench 'CMD' ['CMD'...]`: the one-line benchmark (docs/bench.md). Its options are wired
// to run_bench (driver/run/bench.hpp); hyperfine's keep hyperfine's names and meaning.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/cmd_history.hpp"
#include "driver/cli/command.hpp"
#include "driver/config/choices.hpp"
#include "driver/config/config.hpp"
#include "driver/config/disturbance_keys.hpp"
#include "driver/report/html_report.hpp"
#include "driver/run/bench.hpp"
#include "iobench/build_info.hpp"

namespace iobench {
namespace {

constexpr const char* kExamples =
    "  iobench bench 'sleep 0.1' 'sleep 0.2'\n"
    "      # compare two commands (stdin /dev/null): runs, verified output, U test\n"
    "  iobench bench --input data/big.txt 'grep -c x {input}' 'rg -c x {input}'\n"
    "      # two commands reading one file whose page-cache state is prepared\n"
    "  iobench bench --input data/big.txt -L buf=4K,1M 'dd if={input} bs={buf} of=/dev/stdout'\n"
    "      # one command over a parameter's values (cartesian with several -L)\n"
    "  iobench bench --input a.txt --input b.txt --sink pipe --sink file --cache cold \\\n"
    "      --save-config bench.json 'cat {input}' 'tac {input} | tac'\n"
    "      # a matrix, saved as a config that `iobench run bench.json` measures again\n";

struct BenchCli {
  run::BenchOptions options;
  double timeout_s = 0;
  std::string save_config;
  std::filesystem::path report;  // --report: the HTML page of the runs
  std::string style = "auto";
  std::string time_unit;
  std::string sort = "auto";
  std::string refused;  // the value of an option iobench refuses
  CLI::Option* timeout = nullptr;
  CLI::Option* disturbance = nullptr;
  CLI::Option* commands = nullptr;        // the positional commands, for -L NAME V1,V2
  CLI::Option* parameter_list = nullptr;  // -L
  CLI::Option* verify = nullptr;          // --verify
  CLI::Option* no_verify = nullptr;       // --no-verify
};

// `-o pipe` is hyperfine's --output habit (where the output goes), not a runs file name.
void refuse_hyperfine_output(const std::filesystem::path& runs_file) {
  const std::string name = runs_file.string();
  if (name == "null" || name == "pipe" || name == "inherit") {
    throw Error(
        fmt::format("--output {}: is the runs file here; for hyperfine's --output={} "
                    "give --sink {}",
                    name, name, name));
  }
}

// hyperfine's `-L NAME V1,V2` is two words: CLI11 takes -L's one value (NAME) and gives the next
// word to the commands. parse_order() lists each -L value and each command as they came, so the
// word right after a NAME without '=' is found there and joined to it ("NAME=V1,V2").
void join_two_word_parameter_lists(const CLI::App& sub, const BenchCli& cli, BenchRequest& r) {
  std::vector<std::string> specs;
  std::vector<std::string> commands;
  std::size_t next_spec = 0;
  std::size_t next_command = 0;
  const std::vector<CLI::Option*>& order = sub.parse_order();
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] == cli.commands && next_command < r.commands.size()) {
      commands.push_back(r.commands[next_command++]);
    } else if (order[i] == cli.parameter_list && next_spec < r.param_specs.size()) {
      std::string spec = r.param_specs[next_spec++];
      if (spec.find('=') == std::string::npos && i + 1 < order.size() &&
          order[i + 1] == cli.commands && next_command < r.commands.size()) {
        spec += "=" + r.commands[next_command++];
        ++i;
      }
      specs.push_back(std::move(spec));
    }
  }
  r.param_specs = std::move(specs);
  r.commands = std::move(commands);
}

// What runs, and through what: commands, inputs, parameters, names, the shell.
void add_command_options(CLI::App& sub, BenchCli& cli) {
  BenchRequest& r = cli.options.request;
  cli.commands =
      sub.add_option(
             "commands", r.commands,
             "Commands to compare, each one argument, run by `sh -c` (so pipes and "
             "redirections work); {input} is the --input path, quoted for sh, {NAME} a -L value")
          ->required();
  sub.add_option("--input", r.inputs,
                 "A file the commands name as {input}; repeat for several; its page-cache state "
                 "is prepared per --cache and measured in every row. Not hyperfine's --input: "
                 "that is --stdin here")
      ->allow_extra_args(false);
  sub.add_option("--stdin", r.stdin_file,
                 "A file fed to each run's stdin, read from its start every time (hyperfine's "
                 "--input); its cache state is left alone. Default /dev/null");
  cli.parameter_list =
      sub.add_option("-L,--parameter-list", r.param_specs,
                     "NAME V1,V2,... (as hyperfine) or NAME=V1,V2,...: run each command with each "
                     "value for {NAME}; several -L give their cartesian product")
          ->allow_extra_args(false);
  sub.add_option("-P,--parameter-scan", r.parameter_scan,
                 "VAR MIN MAX: {VAR} takes MIN, MIN+1, ... MAX (as hyperfine -P; with -L, "
                 "their product)")
      ->expected(3)
      ->allow_extra_args(false);
  sub.add_option("-D,--parameter-step-size", r.parameter_step,
                 "DELTA: -P steps by DELTA (required when MIN or MAX has decimals)");
  sub.add_option("-n,--name,--command-name", r.names,
                 "Name of each command in the results, in order")
      ->allow_extra_args(false);
  sub.add_option("--reference", r.reference,
                 "The command the others are compared with (added first unless it is one of "
                 "them); default the first command");
  sub.add_flag(
      "-N,--no-shell", [&r](std::int64_t) { r.shell = false; },
      "Run each command directly, split into words as sh would but with nothing "
      "expanded (as hyperfine -N)");
  sub.add_option("-S,--shell", r.shell_name,
                 "The shell the commands run in: a command line such as \"bash --norc\", "
                 "\"default\" (sh) or \"none\" (as --no-shell)");
}

// How often and around what each runs: counts, hooks, sinks, cache, order.
void add_run_options(CLI::App& sub, BenchCli& cli) {
  BenchRequest& r = cli.options.request;
  sub.add_option("-r,--runs", r.runs,
                 "Exactly this many measured runs of each command (--decide on makes it a budget "
                 "instead). Default: as hyperfine, as many as fill 3 s, at least 10, at most "
                 "1000, and the sequential rule may stop a decided comparison sooner");
  sub.add_option("-m,--min-runs", r.min_runs,
                 "At least this many runs (as hyperfine: as many as fill 3 s, within -m and -M; "
                 "default 10, or -M when below)");
  sub.add_option("-M,--max-runs", r.max_runs,
                 "At most this many runs (default 1000, or -m when above; hyperfine: no limit)");
  sub.add_option("--ci-pct", r.ci_pct,
                 "With -m/-M: stop each command once its median's 95 % interval is within this % "
                 "of it, instead of filling 3 s");
  sub.add_option("-w,--warmup", r.warmup, "Unrecorded runs before the measured ones")
      ->capture_default_str();
  sub.add_option("-s,--setup", r.setup,
                 "A command run once per command (per parameter value), before its first run; "
                 "unmeasured");
  sub.add_option("-p,--prepare", r.prepare,
                 "A command run before every run, unmeasured (after a cold cache's eviction); "
                 "once for all commands or once per command")
      ->allow_extra_args(false);
  sub.add_option("-c,--cleanup", r.cleanup,
                 "A command run once per command after its last run; unmeasured");
  sub.add_flag("-i,--ignore-failure", r.ignore_failure,
               "A non-zero exit is not a failure: the run is ok and its exit code kept");
  sub.add_option("--sink", r.sinks,
                 "Where the output goes: null, pipe (drained and hashed), file or inherit "
                 "(iobench's stdout); repeat for several (default pipe)")
      ->allow_extra_args(false)
      ->check(CLI::IsMember(sink_names()));
  sub.add_flag("--show-output", r.show_output,
               "Print each run's stdout and stderr (the inherit sink; timed as printed)");
  sub.add_option("--cache", r.cache,
                 "The --input files' page-cache state: warm (default), cold or none")
      ->check(CLI::IsMember(cache_mode_names()));
  sub.add_option("--order", r.order, "interleave, grouped or shuffle")
      ->capture_default_str()
      ->check(CLI::IsMember(order_names()));
  cli.timeout =
      sub.add_option("--timeout", cli.timeout_s, "Seconds before a run is ended (default 600)");
  sub.add_option(
         "--counters", r.counters,
         "Kernel counters per run, comma-separated (config key counters: syscalls, "
         "context-switches, task-clock, cycles, instructions, ...). Counting costs time: "
         "syscalls and context-switches up to 15 % on a strategy making one system call per line "
         "(docs/driver.md); compare runs with the same counters")
      ->delimiter(',')
      ->allow_extra_args(false);
  cli.disturbance =
      sub.add_option("--disturbance", r.disturbance,
                     "A run others disturbed: off (figures only), flag (marked disturbed) or rerun "
                     "(marked and run again at the end of its round; docs/driver.md, "
                     "\"Disturbance\"); default rerun, or IOBENCH_DISTURBANCE where it is set");
  sub.add_option("--disturbance-threshold", r.disturbance_threshold_cpus,
                 "CPUs' worth of others' time over a run above which it is disturbed (default "
                 "0.2)");
  sub.add_option("--decide", r.decide,
                 "on: a command stops once its comparison with the reference is decided, "
                 "different or equivalent (docs/reports.md, \"Deciding a comparison\"); off: "
                 "every command makes its count of runs. Default: on without -r, -m or -M, off "
                 "with them");
  sub.add_option("--decide-margin", r.decide_margin_pct,
                 "Percent within which a command is equivalent to the reference (default 1)");
  cli.verify =
      sub.add_option("--verify", r.verify,
                     "on: every command must write what the reference writes, or it is a mismatch, "
                     "said after its first run and not run again (exit 1); off (default, as "
                     "hyperfine; on with --history): all are timed, and one line gives each "
                     "output's bytes and hash when they differ")
          ->check(CLI::IsMember({"on", "off"}));
  cli.no_verify = sub.add_flag(
      "--no-verify", [&r](std::int64_t) { r.verify = "off"; }, "As --verify off");
}

// What is written and shown: the files, the exports, the style of the output.
void add_output_options(CLI::App& sub, BenchCli& cli) {
  sub.add_option("-o,--output", cli.options.run.output,
                 "Runs file to write (never overwritten) in a folder that exists; default a "
                 "temporary one, removed at exit (results/bench-<UTC time>.tsv with --history). "
                 "Not hyperfine's --output (where the output goes): that is --sink here");
  report::BenchExports& exports = cli.options.report.exports;
  sub.add_option("--export-json", exports.json,
                 "Also write the results in hyperfine's JSON schema, iobench's fields beside");
  sub.add_option("--export-csv", exports.csv, "Also write hyperfine's CSV summary");
  sub.add_option("--export-markdown", exports.markdown, "Also write hyperfine's Markdown table");
  sub.add_option("--export-asciidoc", exports.asciidoc, "Also write hyperfine's AsciiDoc table");
  sub.add_option("--export-orgmode", exports.orgmode, "Also write hyperfine's org-mode table");
  sub.add_option("--report", cli.report,
                 "Also write the runs as one HTML page after the summary (as `iobench report`)");
  sub.add_option("--save-config", cli.save_config,
                 "Write the config this runs, for `iobench run FILE` to measure again");
  sub.add_option("--style", cli.style,
                 "auto, basic (no progress line), full, nocolor, color (as auto: iobench has no "
                 "colors) or none (nothing on stdout; warnings still on stderr)")
      ->check(CLI::IsMember({"auto", "basic", "full", "nocolor", "color", "none"}));
  sub.add_option("-u,--time-unit", cli.time_unit,
                 "second, millisecond or microsecond for the times bench prints (default: fit)")
      ->check(CLI::IsMember({"second", "millisecond", "microsecond"}));
  sub.add_option("--sort", cli.sort,
                 "auto (comparisons by time), command (in the order given) or mean-time")
      ->check(CLI::IsMember({"auto", "command", "mean-time"}));
  sub.add_option("--compare-with", cli.options.compare_with,
                 "hyperfine: after iobench's runs, run the same commands and options through "
                 "hyperfine and print both answers side by side");
  sub.add_flag("--dry-run", cli.options.run.dry_run, "Print the expanded plan and exit");
  sub.add_flag("-q,--quiet", cli.options.run.quiet, "No progress line");
  sub.add_flag("-v,--verbose", cli.options.report.verbose,
               "Also the environment, the raw medians table and the shell-corrected one, above "
               "the blocks");
}

// hyperfine's options that iobench refuses, each saying why in one line (exit 2).
void add_refused_options(CLI::App& sub, BenchCli& cli) {
  const auto refuse = [](const char* why) {
    return [why](const std::string&) { throw Error(why); };
  };
  sub.add_option("-C,--conclude", cli.refused,
                 "hyperfine 1.19's, refused: iobench runs nothing after each run")
      ->each(refuse("--conclude: iobench runs nothing after each run; do that work at the start "
                    "of --prepare, which runs before every run"))
      ->group("Refused hyperfine options");
  sub.add_option("--min-benchmarking-time", cli.refused,
                 "refused: iobench fills hyperfine's 3 s by default")
      ->each(refuse("--min-benchmarking-time: iobench fills hyperfine's 3 s by default (at "
                    "least 10 runs); -r N runs exactly N, -m/-M bound the runs that fill it"))
      ->group("Refused hyperfine options");
  sub.add_flag(
         "--debug-mode",
         [](std::int64_t) {
           throw Error(
               "--debug-mode: hyperfine's fake times of sleep; iobench measures every run "
               "(--dry-run prints the plan instead)");
         },
         "refused: iobench never fakes a time")
      ->group("Refused hyperfine options");
}

void setup_bench(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<BenchCli>();
  show_examples_first(sub, kExamples);
  add_command_options(sub, *cli);
  sub.set_version_flag("-V,--version", IOBENCH_VERSION);
  add_run_options(sub, *cli);
  add_output_options(sub, *cli);
  add_refused_options(sub, *cli);
  auto history = std::make_shared<HistoryAfterRun>();
  history->add_option(sub);
  sub.callback([cli, history, &exit_code, &sub] {
    run::BenchOptions& options = cli->options;
    join_two_word_parameter_lists(sub, *cli, options.request);
    refuse_hyperfine_output(options.run.output);
    if (!cli->report.empty()) run::check_output_folder(cli->report, "--report");
    if (cli->timeout->count() > 0) options.request.timeout_s = cli->timeout_s;
    // The environment's default, checked as run checks it: an error names the variable.
    if (cli->disturbance->count() == 0) {
      if (const auto mode = disturbance_mode_from_env())
        options.request.disturbance = std::string(to_string(*mode));
    }
    options.save_config = cli->save_config;
    options.report.time_unit = report::parse_time_unit(cli->time_unit);
    options.report.sort = report::parse_bench_sort(cli->sort);
    if (cli->style == "basic" || cli->style == "none") options.run.quiet = true;
    if (cli->style == "none") options.report.print = false;
    // Nothing in the working folder unless asked: the runs go to a temporary folder, removed at
    // exit, unless -o names a file or --history keeps the run (its store names the file).
    const bool keeps_history = sub.get_option("--history")->count() > 0;
    // The history's statistics take verified rows only (docs/history.md): --history verifies.
    if (keeps_history && cli->verify->count() == 0 && cli->no_verify->count() == 0)
      options.request.verify = "on";
    std::optional<run::TemporaryRunsFolder> temporary;
    if (options.run.output.empty() && !options.run.dry_run && !keeps_history) {
      temporary.emplace();
      options.run.output = temporary->runs_file();
      options.run.runs_file_is_temporary = true;
    }
    std::filesystem::path runs_file;
    options.run.before_writing = [&](const Config&, const std::filesystem::path& runs) {
      history->open();
      runs_file = runs;
    };
    exit_code = run::run_bench(options);
    if (!cli->report.empty() && !runs_file.empty()) {
      exit_code = report::write_report_after_run(runs_file, cli->report, exit_code, std::cerr);
    }
    exit_code = history->add(runs_file, exit_code);
  });
}

const RegisterCommand kRegisterBench{
    "bench", "Compare commands in one line (no config file): verified, U-tested, as `run` measures",
    &setup_bench, 5};

}  // namespace
}  // namespace iobench
