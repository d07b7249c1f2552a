#pragma once
// What cmd_history.cpp and cmd_history_report.cpp share, and the --history option of run, bench
// and merge.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "driver/history/location.hpp"

namespace iobench {

history::EnvLookup environment();
// --history given (or not) to a history subcommand, resolved as docs/history.md says.
history::StoreLocation store_location(const std::optional<std::string>& given);
void add_store_option(CLI::App& sub, std::optional<std::string>& store);
// Adds the subcommands that only read (check, changes, list, show, plot, export) to `history`.
void setup_history_reports(CLI::App& history, int& exit_code);

}  // namespace iobench
