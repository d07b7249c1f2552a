#pragma once
// `history add` and `--history` on run, bench and merge (docs/history.md, "Adding runs").
#include <filesystem>
#include <string>
#include <vector>

#include "driver/history/import_record.hpp"
#include "driver/history/store.hpp"

namespace iobench::history {

// Adds every run file with its meta file (or another harness's file, as `options` say:
// load_any_record), all in one transaction: each is read on every CPU while
// the ones before it are stored, and the first file that fails, in the order given, is the error
// (iobench::Error, exit 2) with nothing stored. Returns one line per file: "added RUNS: N rows,
// M new series" or "RUNS is already in the store".
std::vector<std::string> add_run_files(Store& store,
                                       const std::vector<std::filesystem::path>& files,
                                       const Labels& given, const EnvLookup& lookup,
                                       const AddOptions& options = {});
// The same of the run just written (`run --history`, `bench --history`), from memory.
std::vector<std::string> add_written_run(Store& store, const runfile::WrittenRun& run,
                                         const EnvLookup& lookup);

}  // namespace iobench::history
