#include "driver/cli/cli.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <string>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/cli/exit_status.hpp"
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

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{
      "iobench: measure which way of reading and writing lines is fastest, and by how much",
      "iobench"};
  app.set_version_flag("-V,--version", IOBENCH_VERSION);  // -V: hyperfine's spelling too
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
