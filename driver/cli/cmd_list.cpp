// `iobench list`: the worker's strategies, one per line.
#include <fmt/core.h>

#include <algorithm>

#include "driver/cli/command.hpp"
#include "driver/run/worker_catalog.hpp"

namespace iobench::cli {
namespace {

void setup_list(CLI::App& sub, int& exit_code) {
  sub.callback([&exit_code] {
    auto catalog = run::load_worker_catalog(run::find_worker());
    std::stable_sort(
        catalog.begin(), catalog.end(),
        [](const run::WorkerEntry& a, const run::WorkerEntry& b) { return a.kind < b.kind; });
    for (const auto& entry : catalog) {
      fmt::print("{:<7} {:<10} {}\n", entry.kind, entry.name, entry.description);
    }
    exit_code = 0;
  });
}

const RegisterCommand kRegisterList{"list", "List the worker's readers, writers and ops",
                                    &setup_list, 60};

}  // namespace
}  // namespace iobench::cli
