// `iobench bench 'CMD' ['CMD'...]`: the one-line benchmark (docs/bench.md). Its options become a
// Config (driver/config/bench_config), which runs through the engine of `iobench run`; then each
// command is judged against the reference.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/config/bench_config.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/run/runner.hpp"
#include "driver/util/text.hpp"

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
  BenchRequest request;
  RunOptions run;
  double timeout_s = 0;
  bool timeout_given = false;
  std::string save_config;
  std::string export_json;
  std::string export_markdown;
};

// The command line that gives this request, for the saved config's description.
std::string canonical_command_line(const BenchRequest& request) {
  std::vector<std::string> argv{"iobench", "bench"};
  auto add = [&](const std::string& option, const std::string& value) {
    argv.push_back(option);
    argv.push_back(value);
  };
  for (const auto& input : request.inputs) add("--input", input);
  for (const auto& spec : request.param_specs) add("-L", spec);
  for (const auto& name : request.names) add("--name", name);
  if (!request.reference.empty()) add("--reference", request.reference);
  add("--runs", std::to_string(request.runs));
  add("--warmup", std::to_string(request.warmup));
  for (const auto& sink : request.sinks) add("--sink", sink);
  add("--cache", request.cache);
  add("--order", request.order);
  if (request.timeout_s) add("--timeout", fmt::format("{}", *request.timeout_s));
  if (!request.counters.empty())
    add("--counters", fmt::format("{}", fmt::join(request.counters, ",")));
  if (!request.shell) argv.emplace_back("--no-shell");
  if (!request.verify) argv.emplace_back("--no-verify");
  argv.insert(argv.end(), request.commands.begin(), request.commands.end());
  return join_argv(argv);
}

void export_summary(const std::filesystem::path& runs, const std::string& baseline,
                    const std::string& path, exporter::Format format,
                    const report::VersusReference* versus) {
  results::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  const results::RunSet set = results::read_runs({runs}, read);
  summary::Options options;
  options.baseline = baseline;
  std::ostringstream text;
  exporter::write_summary(summary::summarize(set, options), format, text);
  if (versus != nullptr && !versus->result.rows.empty()) {
    text << fmt::format("\nAgainst the reference `{}`:\n\n", versus->reference);
    compare::write_result(versus->result, format, text);
  }
  write_file_atomically(path, text.str());
}

int run_bench(BenchCli& cli) {
  BenchRequest& request = cli.request;
  if (cli.timeout_given) request.timeout_s = cli.timeout_s;
  request.made_by = canonical_command_line(request);
  const Config config = build_bench_config(request);
  // The config is saved once the run has accepted it, so an error found before any run (exit 2)
  // leaves nothing written; its folder is checked first, so that a long run is not lost to it.
  const std::filesystem::path save_path = cli.save_config;
  if (!save_path.empty()) {
    // The nearest folder that exists: the writer makes the missing ones.
    std::filesystem::path folder = std::filesystem::absolute(save_path).parent_path();
    std::error_code ec;
    while (!std::filesystem::exists(folder, ec) && folder.has_relative_path()) {
      folder = folder.parent_path();
    }
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
      throw Error(fmt::format("--save-config {}: cannot write in {}: {}", save_path.string(),
                              folder.string(), std::strerror(errno)));
    }
  }
  std::filesystem::path runs_file;
  cli.run.runs_file_out = &runs_file;
  const int exit_code = run_config(config, cli.run);
  if (!save_path.empty()) {
    try {
      write_file_atomically(save_path, config_to_save(config, save_path).dump(2) + "\n");
    } catch (const Error& e) {
      throw Error(e.what(), cli.run.dry_run ? kExitUsage : kExitCouldNotContinue);
    }
    fmt::print(stderr, "iobench: config saved to {}; `iobench run {}` measures it again\n",
               save_path.string(), save_path.string());
  }
  if (cli.run.dry_run || runs_file.empty()) return exit_code;

  results::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  const results::RunSet set = results::read_runs({runs_file}, read);
  const report::VersusReference versus = report::compare_with_reference(set, config.baseline);
  if (!versus.result.rows.empty()) {
    std::cout << '\n';
    report::write_versus_reference(versus, std::cout);
    std::cout.flush();
  }
  if (!cli.export_json.empty()) {
    export_summary(runs_file, config.baseline, cli.export_json, exporter::Format::kJson, nullptr);
  }
  if (!cli.export_markdown.empty()) {
    export_summary(runs_file, config.baseline, cli.export_markdown, exporter::Format::kMarkdown,
                   &versus);
  }
  return exit_code;
}

void setup_bench(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<BenchCli>();
  BenchRequest& r = cli->request;
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
  sub.add_flag(
      "--no-shell", [&r](std::int64_t) { r.shell = false; },
      "Run each command directly, split into words as sh would but with nothing "
      "expanded (as hyperfine -N)");
  sub.add_flag(
      "--no-verify", [&r](std::int64_t) { r.verify = false; },
      "Do not check that every command writes what the reference writes");
  sub.add_option("-o,--output", cli->run.output,
                 "Runs file to write (never overwritten); default results/bench-<UTC time>.tsv");
  sub.add_option("--export-json", cli->export_json, "Also write the summary as JSON");
  sub.add_option("--export-markdown", cli->export_markdown,
                 "Also write the summary and the comparisons as Markdown");
  sub.add_option("--save-config", cli->save_config,
                 "Write the config this runs, for `iobench run FILE` to measure again");
  sub.add_flag("--dry-run", cli->run.dry_run, "Print the expanded plan and exit");
  sub.add_flag("-q,--quiet", cli->run.quiet, "No progress line");
  sub.callback([cli, timeout, &exit_code] {
    cli->timeout_given = timeout->count() > 0;
    exit_code = run_bench(*cli);
  });
}

const RegisterCommand kRegisterBench{
    "bench", "Compare commands in one line (no config file): verified, U-tested, as `run` measures",
    &setup_bench, 5};

}  // namespace
}  // namespace iobench
