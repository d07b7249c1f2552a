#include "driver/bench/versus_hyperfine.hpp"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <tuple>

#include "common/child_process.hpp"
#include "common/error.hpp"
#include "common/fd.hpp"
#include "driver/spawn/spawner.hpp"
#include "driver/util/text.hpp"

namespace iobench::bench {
namespace {

namespace fs = std::filesystem;

// The command as hyperfine gets it: the shell script with {input} filled (and the stdin file
// redirected when hyperfine has no --input), or the argv joined for -N.
std::string command_text(const config::Config& config, const config::Test& test,
                         const config::InputSpec& input, bool with_input_option) {
  const std::vector<std::string> argv = config::run_argv(test, config, input.path.string());
  const config::StrategySpec& strategy = config.strategies[test.strategy];
  if (!strategy.shell) return util::join_argv(argv);
  std::string script = argv.back();
  if (!config.stdin_path.empty() && !with_input_option) {
    script = fmt::format("{{ {}\n}} < {}", script, util::shell_quote(config.stdin_path.string()));
  }
  return script;
}

// What the config asks of every run, as hyperfine's options.
std::vector<std::string> common_options(const config::Config& config,
                                        const config::StrategySpec& first,
                                        const HyperfineAbilities& can) {
  std::vector<std::string> argv{"--style", "none"};
  // A time to fill is hyperfine's own rule between the bounds (its 3 s).
  if (config.repeats_ci_pct > 0 || config.repeats_fill_s > 0) {
    argv.insert(argv.end(), {"--min-runs", std::to_string(config.repeats_min), "--max-runs",
                             std::to_string(config.repeats)});
  } else {
    argv.insert(argv.end(), {"--runs", std::to_string(config.repeats)});
  }
  argv.insert(argv.end(), {"--warmup", std::to_string(config.warmup)});
  if (!first.shell) argv.emplace_back("-N");
  if (first.shell && first.shell_words != std::vector<std::string>{"sh"}) {
    argv.insert(argv.end(), {"--shell", util::join_argv(first.shell_words)});
  }
  // Before 1.20 every non-zero exit (Debian's 1.15 takes no codes); the note says so
  // (run_hyperfine).
  if (first.ignore_failure.any()) {
    argv.emplace_back(can.failure_codes && !first.ignore_failure.codes.empty()
                          ? "--ignore-failure=" + config::codes_text(first.ignore_failure)
                          : "--ignore-failure");
  }
  if (!config.stdin_path.empty() && can.input_option) {
    argv.insert(argv.end(), {"--input", config.stdin_path.string()});
  }
  if (!config.stdin_path.empty() && !can.input_option && !first.shell) {
    throw Error(
        "--compare-with hyperfine: this hyperfine has no --input, and without a shell the "
        "--stdin file cannot be redirected to the commands");
  }
  return argv;
}

// hyperfine's --output for the sink: the commands' own FILE (bench --output FILE) where they
// name one, written as a path of two parts at least, which hyperfine needs to take it as a file.
std::string output_option(config::SinkKind sink, const fs::path& sink_file,
                          const std::string& output_file) {
  if (sink == config::SinkKind::kFile && !output_file.empty()) {
    const fs::path path(output_file);
    return "--output=" +
           (std::distance(path.begin(), path.end()) > 1 ? path : fs::path(".") / path).string();
  }
  switch (sink) {
    case config::SinkKind::kNull:
      return "--output=null";
    case config::SinkKind::kPipe:
      return "--output=pipe";
    case config::SinkKind::kInherit:
      return "--output=inherit";
    case config::SinkKind::kFile:
      break;
  }
  return "--output=" + sink_file.string();
}

}  // namespace

std::string find_hyperfine() {
  std::string path = spawn::find_in_path("hyperfine");
  if (path.empty()) {
    throw Error(
        "--compare-with hyperfine: hyperfine is not installed (on Debian: apt-get install "
        "hyperfine)");
  }
  return path;
}

namespace {

// hyperfine takes a hook given per command once for each command, or not at all: each cell's
// own, `true` for a cell without one.
void add_per_command_hook(const config::Config& config, const config::Plan& plan,
                          const std::vector<std::size_t>& cells, const char* option,
                          std::string config::StrategySpec::*hook, std::vector<std::string>& argv) {
  const auto text_of = [&](std::size_t c) -> const std::string& {
    return config.strategies[plan.tests[plan.cells[c].test].strategy].*hook;
  };
  if (std::all_of(cells.begin(), cells.end(), [&](std::size_t c) { return text_of(c).empty(); }))
    return;
  for (const std::size_t c : cells) {
    const std::string& text = text_of(c);
    argv.insert(argv.end(),
                {option, text.empty() ? std::string("true")
                                      : config::expand_placeholders(
                                            text, plan.tests[plan.cells[c].test].param_values)});
  }
}

}  // namespace

HyperfineAbilities abilities_of(std::string_view version_text, std::string_view help_text) {
  // "hyperfine 1.15.0"
  int major = 0;
  int minor = 0;
  const std::size_t digits = version_text.find_first_of("0123456789");
  if (digits != std::string_view::npos) {
    const std::string_view number = version_text.substr(digits);
    const char* end = number.data() + number.size();
    const auto [after_major, error] = std::from_chars(number.data(), end, major);
    if (error == std::errc() && after_major != end && *after_major == '.')
      std::from_chars(after_major + 1, end, minor);
  }
  HyperfineAbilities can;
  can.input_option = help_text.find("--input") != std::string_view::npos;
  can.conclude_option = help_text.find("--conclude") != std::string_view::npos;
  can.failure_codes = major > 1 || (major == 1 && minor >= 20);
  return can;
}

std::vector<HyperfineCall> hyperfine_calls(const config::Config& config, const config::Plan& plan,
                                           const std::string& hyperfine,
                                           const HyperfineAbilities& can, const fs::path& folder) {
  // Cells by input, sink, the hooks run once (hyperfine takes one setup and one cleanup) and the
  // output file (hyperfine before 1.19 takes one --output).
  std::map<std::tuple<std::size_t, int, std::string, std::string, std::string>,
           std::vector<std::size_t>>
      groups;
  for (std::size_t c = 0; c < plan.cells.size(); ++c) {
    const config::Cell& cell = plan.cells[c];
    const config::Test& test = plan.tests[cell.test];
    const config::StrategySpec& strategy = config.strategies[test.strategy];
    groups[{cell.input, static_cast<int>(cell.sink),
            config::expand_placeholders(strategy.setup, test.param_values),
            config::expand_placeholders(strategy.cleanup, test.param_values), strategy.output_file}]
        .push_back(c);
  }
  std::vector<HyperfineCall> calls;
  for (const auto& [key, cells] : groups) {
    const auto& [input, sink, setup, cleanup, output_file] = key;
    HyperfineCall call;
    call.cells = cells;
    call.json = folder / fmt::format("hyperfine-{}.json", calls.size());
    const config::Test& first = plan.tests[plan.cells[cells.front()].test];
    call.argv = {hyperfine};
    const auto options = common_options(config, config.strategies[first.strategy], can);
    call.argv.insert(call.argv.end(), options.begin(), options.end());
    call.argv.insert(call.argv.end(), {"--export-json", call.json.string()});
    call.argv.push_back(output_option(static_cast<config::SinkKind>(sink),
                                      folder / fmt::format("sink-{}", calls.size()), output_file));
    if (!setup.empty()) call.argv.insert(call.argv.end(), {"--setup", setup});
    if (!cleanup.empty()) call.argv.insert(call.argv.end(), {"--cleanup", cleanup});
    add_per_command_hook(config, plan, cells, "--prepare", &config::StrategySpec::prepare,
                         call.argv);
    if (can.conclude_option) {
      add_per_command_hook(config, plan, cells, "--conclude", &config::StrategySpec::conclude,
                           call.argv);
    }
    for (const std::size_t c : cells) {
      const config::Test& test = plan.tests[plan.cells[c].test];
      call.argv.insert(
          call.argv.end(),
          {"-n", test.name, command_text(config, test, config.inputs[input], can.input_option)});
    }
    calls.push_back(std::move(call));
  }
  return calls;
}

bench::OtherToolRun run_hyperfine(const config::Config& config, const config::Plan& plan,
                                  const fs::path& folder) {
  const std::string hyperfine = find_hyperfine();
  bench::OtherToolRun run;
  run.tool = child::run_capturing_stdout({hyperfine, "--version"}, child::Stderr::kDevNull).out;
  run.tool.erase(run.tool.find_last_not_of(" \n") + 1);
  const std::string help =
      child::run_capturing_stdout({hyperfine, "--help"}, child::Stderr::kDevNull).out;
  const HyperfineAbilities can = abilities_of(run.tool, help);
  std::vector<std::string> notes;
  if (config.cache != config::CacheMode::kNone && !config.inputs.front().none()) {
    notes.push_back(fmt::format("hyperfine prepares no {} cache", to_string(config.cache)));
  }
  if (!can.conclude_option &&
      std::any_of(config.strategies.begin(), config.strategies.end(),
                  [](const config::StrategySpec& s) { return !s.conclude.empty(); })) {
    notes.emplace_back("this hyperfine has no --conclude: its runs had none");
  }
  for (const config::StrategySpec& strategy : config.strategies) {
    if (can.failure_codes || strategy.ignore_failure.codes.empty()) continue;
    notes.push_back(fmt::format("hyperfine ignored every non-zero exit, not only {}",
                                config::codes_text(strategy.ignore_failure)));
    break;
  }
  run.note = fmt::format("{}", fmt::join(notes, "; "));
  for (const HyperfineCall& call : hyperfine_calls(config, plan, hyperfine, can, folder)) {
    const fs::path errors = folder / "hyperfine.err";
    const UniqueFd err(::open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    // Its stdout is its own table (the JSON export is what is read); its stderr is kept for the
    // message when it fails.
    const int status = err ? child::Helper(call.argv, {nullptr, nullptr, err.get()}).wait()
                           : child::Helper(call.argv, {nullptr, nullptr, nullptr}).wait();
    std::ifstream in(call.json);
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (status != 0 || doc.is_discarded() || !doc.contains("results")) {
      std::ifstream said(errors);
      std::string line;
      std::string last;
      while (std::getline(said, line)) {
        if (!line.empty()) last = line;
      }
      throw Error(fmt::format("hyperfine {}: {}", child::describe_exit(status), last),
                  kExitCouldNotContinue);
    }
    for (std::size_t k = 0; k < call.cells.size() && k < doc["results"].size(); ++k) {
      const config::Cell& cell = plan.cells[call.cells[k]];
      const nlohmann::json& r = doc["results"][k];
      bench::OtherToolResult result;
      result.test = plan.tests[cell.test].name;
      result.input = config.inputs[cell.input].path.string();
      result.sink = std::string(to_string(cell.sink));
      result.mean_s = r.value("mean", 0.0);
      if (r.contains("stddev") && r["stddev"].is_number())
        result.stddev_s = r["stddev"].get<double>();
      result.runs = r.contains("times") ? r["times"].size() : 0;
      run.results.push_back(std::move(result));
    }
  }
  return run;
}

}  // namespace iobench::bench
