// `iobench bench 'CMD' ['CMD'...]`: the one-line benchmark (docs/bench.md). Its options are wired
// to run_bench (driver/run/bench.hpp).
#include <memory>
#include <string>

#include "driver/cli/cmd_history.hpp"
#include "driver/cli/command.hpp"
#include "driver/run/bench.hpp"

namespace iobench {
namespace {

constexpr const char* kExamples =
    "  iobench bench --input data/big.txt 'grep -c x {input}' 'rg -c x {input}'\n"
    "      # compare two commands on one file: runs, verified output, U test\n"
    "  iobench bench --input data/big.txt -L buf=4K,1M 'dd if={input} bs={buf} of=/dev/stdout'\n"
    "      # one command over a parameter's values (cartesian with several -L)\n"
    "  iobench bench --input a.txt --input b.txt --sink pipe --sink file --cache cold \\\n"
    "      --save-config bench.json 'cat {input}' 'tac {input} | tac'\n"
    "      # a matrix, saved as a config that `iobench run bench.json` measures again\n";

struct BenchCli {
  BenchOptions options;
  double timeout_s = 0;
  std::string save_config;
  std::string export_json;
  std::string export_markdown;
};

void setup_bench(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<BenchCli>();
  BenchRequest& r = cli->options.request;
  show_examples_first(sub, kExamples);
  sub.add_option(
         "commands", r.commands,
         "Commands to compare, each one argument, run by `sh -c` (so pipes and "
         "redirections work); {input} is the --input path, quoted for sh, {NAME} a -L value")
      ->required();
  sub.add_option("--input", r.inputs,
                 "The file the commands read ({input}); repeat for several; its page-cache state "
                 "is prepared per --cache")
      ->allow_extra_args(false);
  sub.add_option("-L,--parameter-list", r.param_specs,
                 "NAME=V1,V2,...: run each command with each value for {NAME}; several -L give "
                 "their cartesian product")
      ->allow_extra_args(false);
  sub.add_option("-n,--name", r.names, "Name of each command in the results, in order")
      ->allow_extra_args(false);
  sub.add_option("--reference", r.reference,
                 "The command the others are compared with (added first unless it is one of "
                 "them); default the first command");
  sub.add_option("-r,--runs", r.runs, "Measured runs of each command")->capture_default_str();
  sub.add_option("-w,--warmup", r.warmup, "Unrecorded runs before the measured ones")
      ->capture_default_str();
  sub.add_option("--sink", r.sinks,
                 "Where the output goes: null, pipe (drained and hashed) or file; repeat for "
                 "several (default pipe)")
      ->allow_extra_args(false);
  sub.add_option("--cache", r.cache, "Input's page-cache state: warm, cold or none")
      ->capture_default_str();
  sub.add_option("--order", r.order, "interleave, grouped or shuffle")->capture_default_str();
  auto* timeout =
      sub.add_option("--timeout", cli->timeout_s, "Seconds before a run is ended (default 600)");
  sub.add_option(
         "--counters", r.counters,
         "Kernel counters per run, comma-separated (config key counters: syscalls, "
         "context-switches, task-clock, cycles, instructions, ...). Counting costs time: "
         "syscalls and context-switches up to 15 % on a strategy making one system call per line "
         "(docs/driver.md); compare runs with the same counters")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub.add_option("--disturbance", r.disturbance,
                 "A run others disturbed: off (figures only), flag (marked disturbed) or rerun "
                 "(marked and run again at the end of its round; docs/driver.md, \"Disturbance\")")
      ->capture_default_str();
  sub.add_option("--disturbance-threshold", r.disturbance_threshold_cpus,
                 "CPUs' worth of others' time over a run above which it is disturbed (default "
                 "0.5)");
  sub.add_option("--decide", r.decide,
                 "on: a command stops once its comparison with the reference is decided, "
                 "different or equivalent (docs/reports.md, \"Deciding a comparison\"); off: "
                 "every command runs --runs times")
      ->capture_default_str();
  sub.add_option("--decide-margin", r.decide_margin_pct,
                 "Percent within which a command is equivalent to the reference (default 1)");
  sub.add_flag(
      "--no-shell", [&r](std::int64_t) { r.shell = false; },
      "Run each command directly, split into words as sh would but with nothing "
      "expanded (as hyperfine -N)");
  sub.add_flag(
      "--no-verify", [&r](std::int64_t) { r.verify = false; },
      "Do not check that every command writes what the reference writes");
  sub.add_option("-o,--output", cli->options.run.output,
                 "Runs file to write (never overwritten); default results/bench-<UTC time>.tsv");
  sub.add_option("--export-json", cli->export_json, "Also write the summary as JSON");
  sub.add_option("--export-markdown", cli->export_markdown,
                 "Also write the summary and the comparisons as Markdown");
  sub.add_option("--save-config", cli->save_config,
                 "Write the config this runs, for `iobench run FILE` to measure again");
  sub.add_flag("--dry-run", cli->options.run.dry_run, "Print the expanded plan and exit");
  sub.add_flag("-q,--quiet", cli->options.run.quiet, "No progress line");
  auto history = std::make_shared<HistoryAfterRun>();
  history->add_option(sub);
  sub.callback([cli, timeout, history, &exit_code] {
    BenchOptions& options = cli->options;
    if (timeout->count() > 0) options.request.timeout_s = cli->timeout_s;
    options.save_config = cli->save_config;
    options.exports = {cli->export_json, cli->export_markdown};
    std::filesystem::path runs_file;
    options.run.before_writing = [&](const Config&, const std::filesystem::path& runs) {
      history->open();
      runs_file = runs;
    };
    exit_code = history->add(runs_file, run_bench(options));
  });
}

const RegisterCommand kRegisterBench{
    "bench", "Compare commands in one line (no config file): verified, U-tested, as `run` measures",
    &setup_bench, 5};

}  // namespace
}  // namespace iobench
