#pragma once
// What cmd_history.cpp and cmd_history_report.cpp share, and the --history option of run, bench
// and merge.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "driver/history/location.hpp"
#include "driver/history/store.hpp"
#include "driver/runfile/written_run.hpp"

namespace iobench::cli {

history::EnvLookup environment();
// --history given (or not) to a history subcommand, resolved as docs/history.md says.
history::StoreLocation store_location(const std::optional<std::string>& given);
void add_store_option(CLI::App& sub, std::optional<std::string>& store);
// Adds the subcommands that read the store (check, changes, list, show, plot, export, publish)
// to `history`.
void setup_history_reports(CLI::App& history, int& exit_code);

// `--history[=PATH|URL]` on run, bench and merge (docs/history.md, "Adding runs"): the store is
// opened before anything is written (a bad name, a refusing server or a newer schema is exit 2
// with nothing written), and what the command wrote is added once it is done.
class HistoryAfterRun {
 public:
  HistoryAfterRun();
  ~HistoryAfterRun();
  HistoryAfterRun(const HistoryAfterRun&) = delete;
  HistoryAfterRun& operator=(const HistoryAfterRun&) = delete;

  void add_option(CLI::App& sub);
  // Opens the store if --history was given, else `config_key` (the config's `history`, resolved
  // against `config_folder`) when it is not empty. Throws iobench::Error (exit 2).
  void open(const std::string& config_key = {}, const std::filesystem::path& config_folder = {});
  // Whether open() would open a store: --history given, or `config_key` not empty.
  [[nodiscard]] bool wanted(const std::string& config_key) const {
    return (option_ != nullptr && option_->count() > 0) || !config_key.empty();
  }
  // Adds the run just written, from memory, when a store is open, a run was written and the
  // command ended 0 or 1 (an interrupted or broken-off run is not added: `history add` takes it
  // later). Returns the exit code: the command's, or 3 when the add fails (every row stays in the
  // run file). A SQLite store that open() created and that got nothing is removed: nothing
  // half-written stays.
  int add(const std::optional<runfile::WrittenRun>& run, int exit_code);

 private:
  // Closes the store, and removes it when open() created it and it holds no run.
  void remove_created_store();

  CLI::Option* option_ = nullptr;
  std::string given_;
  std::unique_ptr<history::Store> store_;
  std::filesystem::path created_;  // the SQLite file open() created; empty: none
};

}  // namespace iobench::cli
