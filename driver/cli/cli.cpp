#include "driver/cli/cli.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/cli/exit_status.hpp"
#include "driver/util/text.hpp"
#include "iobench/build_info.hpp"

namespace iobench::cli {
namespace {

// The three most common uses, before the list of subcommands.
constexpr const char* kExamples =
    "  iobench bench --input data/big.txt 'grep -c x {input}' 'rg -c x {input}'\n"
    "      # compare commands in one line: verified output, exact rusage, U-tested verdict\n"
    "  iobench run configs/ngram.json\n"
    "      # a matrix from a config -> results/ngram-<UTC time>.tsv and its medians\n"
    "  iobench compare base.tsv new.tsv\n"
    "      # did a change help? ratio, 95 % CI and Mann-Whitney p per test\n";

// A word where a subcommand must be that names none: CLI11 would say "A subcommand is required",
// which hides the typo. Says which word, and the command it most likely meant (git's way).
std::optional<std::string> unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  const CLI::App* level = &app;
  std::string path = "iobench";
  for (int i = 1; i < argc && level->get_require_subcommand_min() > 0; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word.front() == '-') return std::nullopt;  // an option: CLI11's to judge
    const auto subs = level->get_subcommands([](const CLI::App*) { return true; });
    const auto named = std::find_if(subs.begin(), subs.end(),
                                    [&](const CLI::App* sub) { return sub->check_name(word); });
    if (named != subs.end()) {
      level = *named;
      path += " " + word;
      continue;
    }
    std::vector<std::string> names(subs.size());
    std::transform(subs.begin(), subs.end(), names.begin(),
                   [](const CLI::App* sub) { return sub->get_name(); });
    const auto meant = util::closest_name(word, names);
    return fmt::format("{}: '{}' is not a command{} (see {} --help)", path, word,
                       meant ? fmt::format("; did you mean '{}'?", *meant) : std::string(), path);
  }
  return std::nullopt;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{
      "iobench: measure which way of reading and writing lines is fastest, and by how much",
      "iobench"};
  // "iobench 0.1.0", as hyperfine -V prints "hyperfine 1.20.0" (-V: its spelling too).
  app.set_version_flag("-V,--version", std::string("iobench ") + IOBENCH_VERSION);
  app.require_subcommand(1);
  // Usage errors are one line, like every other error (CLI11's default adds a second).
  // An argument a subcommand does not take is reported by the top level: name the subcommand.
  app.failure_message([](const CLI::App* failed, const CLI::Error& e) {
    const CLI::App* where_app = failed;
    if (failed != nullptr && failed->get_parent() == nullptr) {
      for (const CLI::App* sub : failed->get_subcommands()) where_app = sub;
    }
    const std::string where = where_app != nullptr && where_app->get_parent() != nullptr
                                  ? " " + where_app->get_name()
                                  : std::string();
    return fmt::format("iobench{}: {} (see iobench{} --help)\n", where, e.what(), where);
  });
  app.fallthrough(false);

  auto commands = command_registry();
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return a.order < b.order; });
  int exit_code = kExitOk;
  for (const auto& command : commands) {
    CLI::App* sub = app.add_subcommand(std::string(command.name), std::string(command.description));
    command.setup(*sub, exit_code);
    sub->footer(cli::exit_status_footer(command.name));
    for (CLI::App* child : sub->get_subcommands([](const CLI::App*) { return true; })) {
      child->footer(cli::exit_status_footer(fmt::format("{} {}", command.name, child->get_name())));
    }
  }
  app.footer(cli::exit_status_footer(""));

  show_examples_first(app, kExamples);

  if (const auto unknown = unknown_subcommand(app, argc, argv)) {
    fmt::print(stderr, "{}\n", *unknown);
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const Error& e) {
    fmt::print(stderr, "iobench: {}\n", e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    fmt::print(stderr, "iobench: {}\n", e.what());
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace iobench::cli
