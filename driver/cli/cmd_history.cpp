// `iobench history SUBCOMMAND`: the history store (docs/history.md). This file wires the store's
// subcommands that write.
#include "driver/cli/cmd_history.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/history/add_runs.hpp"

namespace iobench {

history::EnvLookup environment() {
  return [](const char* name) { return std::getenv(name); };
}

history::StoreLocation store_location(const std::optional<std::string>& given) {
  return history::choose_store_location(given, environment());
}

void add_store_option(CLI::App& sub, std::optional<std::string>& store) {
  sub.add_option("--history", store,
                 "The store: a path or sqlite:PATH (SQLite), postgresql://... (PostgreSQL); "
                 "default $IOBENCH_HISTORY, else results/history.sqlite");
}

namespace {

struct AddCli {
  std::optional<std::string> store;
  std::vector<std::string> files;
  history::Labels labels;
};

void setup_add(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<AddCli>();
  sub.add_option("runs", cli->files, "Run files (each with its meta file beside it, in meta/)")
      ->required();
  add_store_option(sub, cli->store);
  sub.add_option("--commit", cli->labels.commit,
                 "The commit to file the runs under (default $GITHUB_SHA, $CI_COMMIT_SHA, else "
                 "the commit the meta file says was measured)");
  sub.add_option("--branch", cli->labels.branch,
                 "The branch (default $GITHUB_REF_NAME, $CI_COMMIT_REF_NAME)");
  sub.callback([cli, &exit_code] {
    history::Store store(store_location(cli->store), history::OpenMode::kCreate);
    const std::vector<std::filesystem::path> files(cli->files.begin(), cli->files.end());
    for (const auto& line : history::add_run_files(store, files, cli->labels, environment())) {
      fmt::print(stderr, "iobench history: {}\n", line);
    }
    exit_code = kExitOk;
  });
}

void setup_history(CLI::App& sub, int& exit_code) {
  sub.require_subcommand(1);
  setup_add(*sub.add_subcommand("add", "Add run files (and their meta files) to the store"),
            exit_code);
}

const RegisterCommand kRegisterHistory{
    "history",
    "Remember runs across commits and machines; find and explain regressions (docs/history.md)",
    &setup_history, 17};

}  // namespace
}  // namespace iobench
