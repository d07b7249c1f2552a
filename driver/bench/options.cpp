#include "driver/bench/options.hpp"

#include <fmt/format.h>

#include <type_traits>

#include "driver/config/choices.hpp"
#include "driver/util/text.hpp"

namespace iobench::bench {

using config::cache_mode_names;
using config::order_names;
using config::sink_names;

namespace {

using R = BenchRequest;
using Kind = BenchOptionKind;

std::vector<std::string> on_off() {
  return {"on", "off"};
}

// The inputs' cache state is always spelled out with an input: the default differs without one.
std::string cache_written(const BenchRequest& request) {
  if (request.inputs.empty() && request.cache.empty()) return "";
  return request.cache.empty() ? "warm" : request.cache;
}

// What runs, and through what: commands, inputs, parameters, names.
std::vector<BenchOption> command_options() {
  return {
      {.names = "commands",
       .help = "Commands to compare, each one argument, run by `sh -c` (so pipes and "
               "redirections work); {input} is the --input path, quoted for sh, {NAME} a -L value",
       .field = &R::commands,
       .kind = Kind::kPositional},
      {.names = "--input",
       .help = "A file the commands name as {input}; repeat for several; its page-cache state "
               "is prepared per --cache and measured in every row. Not hyperfine's --input: "
               "that is --stdin here",
       .field = &R::inputs,
       .written_as = "--input"},
      {.names = "--stdin",
       .help = "A file fed to each run's stdin, read from its start every time (hyperfine's "
               "--input); its cache state is left alone. Default /dev/null",
       .field = &R::stdin_file,
       .written_as = "--stdin"},
      {.names = "-L,--parameter-list",
       .help = "NAME V1,V2,... (as hyperfine) or NAME=V1,V2,...: run each command with each "
               "value for {NAME}; several -L give their cartesian product",
       .field = &R::param_specs,
       .written_as = "-L"},
      {.names = "-n,--name,--command-name",
       .help = "Name of each command in the results, in order",
       .field = &R::names,
       .written_as = "--name"},
      {.names = "--reference",
       .help = "The command the others are compared with (added first unless it is one of "
               "them); default the first command",
       .field = &R::reference,
       .written_as = "--reference"},
      {.names = "--reference-name",
       .help = "The reference's name in the results (as hyperfine 1.20; needs --reference)",
       .field = &R::reference_name,
       .written_as = "--reference-name"},
  };
}

// hyperfine's: counts, the parameter scan, the shell, hooks (docs/bench.md, the table).
std::vector<BenchOption> hyperfine_options() {
  return {
      {.names = "-r,--runs",
       .help = "Exactly this many measured runs of each command (--decide on makes it a budget "
               "instead). Default: as hyperfine, as many as fill 3 s, at least 10, at most "
               "1000, and the sequential rule may stop a decided comparison sooner",
       .field = &R::runs,
       .written_as = "--runs"},
      {.names = "-m,--min-runs",
       .help = "At least this many runs (as hyperfine: as many as fill 3 s, within -m and -M; "
               "default 10, or -M when below)",
       .field = &R::min_runs,
       .written_as = "--min-runs"},
      {.names = "-M,--max-runs",
       .help = "At most this many runs (default 1000, or -m when above; hyperfine: no limit)",
       .field = &R::max_runs,
       .written_as = "--max-runs"},
      {.names = "--ci-pct",
       .help = "With -m/-M: stop each command once its median's 95 % interval is within this % "
               "of it, instead of filling 3 s",
       .field = &R::ci_pct,
       .written_as = "--ci-pct"},
      {.names = "-P,--parameter-scan",
       .help = "VAR MIN MAX: {VAR} takes MIN, MIN+1, ... MAX (as hyperfine -P; with -L, "
               "their product)",
       .field = &R::parameter_scan,
       .written_as = "--parameter-scan",
       .words = 3},
      {.names = "-D,--parameter-step-size",
       .help = "DELTA: -P steps by DELTA (required when MIN or MAX has decimals)",
       .field = &R::parameter_step,
       .written_as = "--parameter-step-size"},
      {.names = "-S,--shell",
       .help = "The shell the commands run in: a command line such as \"bash --norc\", "
               "\"default\" (sh) or \"none\" (as --no-shell)",
       .field = &R::shell_name,
       .written_as = "--shell"},
      {.names = "-s,--setup",
       .help = "A command run once per command (per parameter value), before its first run; "
               "unmeasured",
       .field = &R::setup,
       .written_as = "--setup"},
      {.names = "-p,--prepare",
       .help = "A command run before every run, unmeasured (after a cold cache's eviction); "
               "once for all commands or once per command",
       .field = &R::prepare,
       .written_as = "--prepare"},
      {.names = "-C,--conclude",
       .help = "A command run after every run, unmeasured (as hyperfine 1.19); once for all "
               "commands or once per command",
       .field = &R::conclude,
       .written_as = "--conclude"},
      {.names = "-c,--cleanup",
       .help = "A command run once per command after its last run; unmeasured",
       .field = &R::cleanup,
       .written_as = "--cleanup"},
      {.names = "-i,--ignore-failure",
       .help = "A non-zero exit is not a failure: the run is ok and its exit code kept; "
               "--ignore-failure=1,2 only those codes (hyperfine 1.20)",
       .field = &R::ignore_failure,
       .written_as = "--ignore-failure",
       .kind = Kind::kFlagOrText,
       .flag_text = "true"},
      {.names = "--show-output",
       .help = "Print each run's stdout and stderr (the inherit sink; timed as printed)",
       .field = &R::show_output,
       .written_as = "--show-output",
       .kind = Kind::kFlag},
      {.names = "--output",
       .help = "Where each run's stdout goes, as hyperfine's --output: null, pipe (drained and "
               "hashed), inherit (as --show-output), or FILE, a path such as ./out.txt that each "
               "run writes anew; once for all commands or once per command, in order. "
               "iobench's runs file is -o/--runs-file",
       .field = &R::outputs,
       .written_as = "--output"},
  };
}

// How each runs and is judged: warmup, sinks, cache, order, timeout, counters, disturbance.
std::vector<BenchOption> schedule_options() {
  return {
      {.names = "-w,--warmup",
       .help = "Unrecorded runs before the measured ones",
       .field = &R::warmup,
       .written_as = "--warmup",
       .shows_default = true},
      {.names = "--sink",
       .help = "Where the output goes: null, pipe (drained and hashed), file or inherit "
               "(iobench's stdout); repeat for several (default pipe)",
       .field = &R::sinks,
       .written_as = "--sink",
       .choices = &sink_names},
      {.names = "--cache",
       .help = "The --input files' page-cache state: warm (default), cold or none",
       .field = &R::cache,
       .written_as = "--cache",
       .choices = &cache_mode_names,
       .written_value = &cache_written},
      {.names = "--order",
       .help = "interleave, grouped, shuffle, or duet (a pair at the same moment, each on a CPU "
               "of its own)",
       .field = &R::order,
       .written_as = "--order",
       .choices = &order_names,
       .shows_default = true},
      {.names = "--timeout",
       .help = "Seconds before a run is ended (default 600)",
       .field = &R::timeout_s,
       .written_as = "--timeout"},
      {.names = "--counters",
       .help = "Kernel counters per run, comma-separated (config key counters: syscalls, "
               "context-switches, task-clock, cycles, instructions, ...). Counting costs time: "
               "syscalls and context-switches up to 15 % on a strategy making one system call "
               "per line (docs/driver.md); compare runs with the same counters",
       .field = &R::counters,
       .written_as = "--counters",
       .delimiter = ','},
      {.names = "--disturbance",
       .help = "A run kept waiting for a CPU, or overlapped by a burst of others: off (figures "
               "only), flag (marked disturbed) or "
               "rerun (marked and run again at the end of its round; docs/driver.md, "
               "\"Disturbance\"); default rerun, or IOBENCH_DISTURBANCE where it is set",
       .field = &R::disturbance,
       .written_as = "--disturbance",
       .unwritten = "rerun"},
      {.names = "--disturbance-threshold",
       .help = "CPUs' worth of the run's own wait for a CPU over its time above which it is "
               "disturbed (default 0.1: one process waiting a tenth of the run)",
       .field = &R::disturbance_threshold_cpus,
       .written_as = "--disturbance-threshold"},
  };
}

// When a command stops, and what it must write.
std::vector<BenchOption> judging_options() {
  return {
      {.names = "--decide",
       .help = "on: a command stops once its comparison with the reference is decided, "
               "different or equivalent (docs/reports.md, \"Deciding a comparison\"); off: "
               "every command makes its count of runs. Default: on without -r, -m or -M, off "
               "with them",
       .field = &R::decide,
       .written_as = "--decide"},
      {.names = "--decide-margin",
       .help = "Percent within which a command is equivalent to the reference (default 1)",
       .field = &R::decide_margin_pct,
       .written_as = "--decide-margin"},
      {.names = "-N,--no-shell",
       .help = "Run each command directly, split into words as sh would but with nothing "
               "expanded (as hyperfine -N)",
       .field = &R::shell,
       .written_as = "--no-shell",
       .kind = Kind::kFlagOff},
      {.names = "--verify",
       .help = "on: every command must write what the reference writes, or it is a mismatch, "
               "said after its first run and not run again (exit 1); off (default, as "
               "hyperfine; on with --history): all are timed, and one line gives each "
               "output's bytes and hash when they differ",
       .field = &R::verify,
       .written_as = "--verify",
       .choices = &on_off,
       .unwritten = "off"},
      {.names = "--no-verify",
       .help = "As --verify off",
       .field = &R::verify,
       .kind = Kind::kFlagText,
       .flag_text = "off"},
  };
}

std::vector<BenchOption> all_options() {
  std::vector<BenchOption> options;
  for (auto part : {&command_options, &hyperfine_options, &schedule_options, &judging_options}) {
    const std::vector<BenchOption> some = part();
    options.insert(options.end(), some.begin(), some.end());
  }
  return options;
}

// One option's words on the made_by line, appended to argv.
void write_option(const BenchOption& option, const BenchRequest& request,
                  std::vector<std::string>& argv) {
  const std::string name = option.written_as;
  auto add = [&](const std::string& value) {
    argv.push_back(name);
    argv.push_back(value);
  };
  if (option.written_value != nullptr) {
    if (const std::string value = option.written_value(request); !value.empty()) add(value);
    return;
  }
  std::visit(
      [&](auto field) {
        const auto& value = request.*field;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::string>) {
          if (option.kind == BenchOptionKind::kFlagOrText) {  // a flag takes no second word
            if (!value.empty())
              argv.push_back(value == option.flag_text ? name : name + "=" + value);
          } else if (!value.empty() && (option.unwritten == nullptr || value != option.unwritten)) {
            add(value);
          }
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          if (value.empty()) return;
          if (option.delimiter != 0) {
            add(fmt::format("{}", fmt::join(value, std::string(1, option.delimiter))));
          } else if (option.words > 1) {
            argv.push_back(name);
            argv.insert(argv.end(), value.begin(), value.end());
          } else {
            for (const std::string& each : value) add(each);
          }
        } else if constexpr (std::is_same_v<T, bool>) {
          if (value == (option.kind == BenchOptionKind::kFlag)) argv.push_back(name);
        } else if constexpr (std::is_same_v<T, int>) {
          add(std::to_string(value));
        } else {
          if (value) add(fmt::format("{}", *value));
        }
      },
      option.field);
}

}  // namespace

const std::vector<BenchOption>& bench_options() {
  static const std::vector<BenchOption> options = all_options();
  return options;
}

std::string bench_command_line(const BenchRequest& request) {
  std::vector<std::string> argv{"iobench", "bench"};
  const BenchOption* positional = nullptr;
  for (const BenchOption& option : bench_options()) {
    if (option.kind == BenchOptionKind::kPositional) positional = &option;
    if (option.written_as != nullptr && option.kind != BenchOptionKind::kPositional)
      write_option(option, request, argv);
  }
  // The commands last, as a shell reads them after the options.
  if (positional != nullptr) {
    const auto& commands =
        request.*std::get<std::vector<std::string> BenchRequest::*>(positional->field);
    argv.insert(argv.end(), commands.begin(), commands.end());
  }
  return util::join_argv(argv);
}

}  // namespace iobench::bench
