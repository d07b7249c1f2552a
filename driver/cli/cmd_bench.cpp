// `iobench bench 'CMD' ['CMD'...]`: the one-line benchmark (docs/bench.md). The options that make
// its request come from the one table (driver/bench/options.hpp, added by
// bench/cli_options); the output options are wired to run_bench (driver/bench/bench.hpp) here.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "driver/bench/bench.hpp"
#include "driver/bench/cli_options.hpp"
#include "driver/cli/cmd_history.hpp"
#include "driver/cli/command.hpp"
#include "driver/config/config.hpp"
#include "driver/config/disturbance_keys.hpp"
#include "driver/report/html_report.hpp"
#include "iobench/build_info.hpp"

namespace iobench::cli {
namespace {

constexpr const char* kBenchExamples =
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
  bench::BenchOptions options;
  std::string save_config;
  std::filesystem::path report;  // --report: the HTML page of the runs
  std::string style = "auto";
  std::string time_unit;
  std::string sort = "auto";
  std::string refused;  // the value of an option iobench refuses
  double fail_if_slower_pct = 0;
  std::string gate_format;
};

// `-o pipe` is hyperfine's --output habit (where the output goes), not a runs file name.
void refuse_hyperfine_output(const std::filesystem::path& runs_file) {
  const std::string name = runs_file.string();
  if (name == "null" || name == "pipe" || name == "inherit") {
    throw Error(
        fmt::format("-o {}: -o is iobench's runs file; for where the commands' output goes give "
                    "--output {}, as hyperfine",
                    name, name));
  }
}

// hyperfine's `-L NAME V1,V2` is two words: CLI11 takes -L's one value (NAME) and gives the next
// word to the commands. parse_order() lists each -L value and each command as they came, so the
// word right after a NAME without '=' is found there and joined to it ("NAME=V1,V2").
void join_two_word_parameter_lists(const CLI::App& sub, bench::BenchRequest& r) {
  const CLI::Option* commands_option = sub.get_option("commands");
  const CLI::Option* parameter_list = sub.get_option("-L");
  std::vector<std::string> specs;
  std::vector<std::string> commands;
  std::size_t next_spec = 0;
  std::size_t next_command = 0;
  const std::vector<CLI::Option*>& order = sub.parse_order();
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] == commands_option && next_command < r.commands.size()) {
      commands.push_back(r.commands[next_command++]);
    } else if (order[i] == parameter_list && next_spec < r.param_specs.size()) {
      std::string spec = r.param_specs[next_spec++];
      if (spec.find('=') == std::string::npos && i + 1 < order.size() &&
          order[i + 1] == commands_option && next_command < r.commands.size()) {
        spec += "=" + r.commands[next_command++];
        ++i;
      }
      specs.push_back(std::move(spec));
    }
  }
  r.param_specs = std::move(specs);
  r.commands = std::move(commands);
}

// What is written and shown: the files, the exports, the style of the output.
void add_output_options(CLI::App& sub, BenchCli& cli) {
  sub.add_option("-o,--runs-file", cli.options.run.output,
                 "Runs file to write (never overwritten) in a folder that exists, medians/ and "
                 "meta/ beside it; default a temporary one, removed at exit "
                 "(results/bench-<UTC time>.tsv with --history). --output is hyperfine's: where "
                 "the commands' output goes");
  bench::BenchExports& exports = cli.options.report.exports;
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
  sub.add_option("--fail-if-slower", cli.fail_if_slower_pct,
                 fmt::format("A gate: exit 1 when a command is decided slower than the reference "
                             "by more than PCT percent, 4 when its runs can neither show nor rule "
                             "that out; its runs fill {:g} s a command unless -r, -m or -M count "
                             "them",
                             bench::kGateFillS))
      ->type_name("PCT");
  sub.add_option("--gate-format", cli.gate_format,
                 "With --fail-if-slower: the gate's verdict on stdout as history check writes "
                 "its own: text, markdown (a pull request's comment), json, github (workflow "
                 "commands)")
      ->check(CLI::IsMember({"text", "markdown", "json", "github"}));
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
  show_examples_first(sub, kBenchExamples);
  bench::add_bench_request_options(sub, cli->options.request);
  sub.set_version_flag("-V,--version", std::string("iobench ") + IOBENCH_VERSION);
  add_output_options(sub, *cli);
  add_refused_options(sub, *cli);
  auto history = std::make_shared<HistoryAfterRun>();
  history->add_option(sub);
  sub.callback([cli, history, &exit_code, &sub] {
    bench::BenchOptions& options = cli->options;
    join_two_word_parameter_lists(sub, options.request);
    refuse_hyperfine_output(options.run.output);
    if (!cli->report.empty()) bench::check_output_folder(cli->report, "--report");
    // The environment's default, checked as run checks it: an error names the variable.
    if (sub.get_option("--disturbance")->count() == 0) {
      if (const auto mode = config::disturbance_mode_from_env())
        options.request.disturbance = std::string(to_string(*mode));
    }
    if (sub.get_option("--gate-format")->count() > 0) {
      if (sub.get_option("--fail-if-slower")->count() == 0)
        throw Error("--gate-format: needs --fail-if-slower PCT, the gate it writes");
      options.report.gate_format = report::parse_verdict_format("--gate-format", cli->gate_format);
    }
    if (sub.get_option("--fail-if-slower")->count() > 0) {
      if (!(cli->fail_if_slower_pct >= 0))
        throw Error(fmt::format("--fail-if-slower {}: must be a percentage of 0 or more",
                                cli->fail_if_slower_pct));
      options.report.fail_if_slower_pct = cli->fail_if_slower_pct;
      // The gate's question is a slowdown beyond PCT: its runs fill longer than 3 s, and the rule
      // stops once it is decided either way (equivalent within PCT) unless told otherwise.
      bench::BenchRequest& request = options.request;
      if (!request.runs && !request.min_runs && !request.max_runs)
        request.fill_s = bench::kGateFillS;
      if (!request.decide_margin_pct && cli->fail_if_slower_pct > 0 &&
          cli->fail_if_slower_pct < 100)
        request.decide_margin_pct = cli->fail_if_slower_pct;
    }
    options.save_config = cli->save_config;
    options.report.time_unit = report::parse_time_unit(cli->time_unit);
    options.report.sort = bench::parse_bench_sort(cli->sort);
    if (cli->style == "basic" || cli->style == "none") options.run.quiet = true;
    if (cli->style == "none") options.report.print = false;
    // Nothing in the working folder unless asked: the runs go to a temporary folder, removed at
    // exit, unless -o names a file or --history keeps the run (its store names the file).
    const bool keeps_history = sub.get_option("--history")->count() > 0;
    // The history's statistics take verified rows only (docs/history.md): --history verifies.
    if (keeps_history && sub.get_option("--verify")->count() == 0 &&
        sub.get_option("--no-verify")->count() == 0)
      options.request.verify = "on";
    std::optional<bench::TemporaryRunsFolder> temporary;
    if (options.run.output.empty() && !options.run.dry_run && !keeps_history) {
      temporary.emplace();
      options.run.output = temporary->runs_file();
      options.run.runs_file_is_temporary = true;
    }
    options.run.before_writing = [&](const config::Config&, const std::filesystem::path&) {
      history->open();
    };
    const run::RunResult result = bench::run_bench(options);
    exit_code = result.exit_code;
    if (!cli->report.empty() && result.written) {
      exit_code =
          report::write_report_after_run(*result.written, cli->report, exit_code, std::cerr);
    }
    exit_code = history->add(result.written, exit_code);
  });
}

const RegisterCommand kRegisterBench{
    "bench", "Compare commands in one line (no config file): verified, U-tested, as `run` measures",
    &setup_bench, 5};

}  // namespace
}  // namespace iobench::cli
