#pragma once
// `history add` and `--history` on run, bench and merge (docs/history.md, "Adding runs").
#include <filesystem>
#include <string>
#include <vector>

#include "driver/history/store.hpp"

namespace iobench::history {

// Reads every run file and its meta file first (any problem: iobench::Error, exit 2, nothing
// written), then adds each in its own transaction. Returns one line per file: "added RUNS: N rows,
// M new series" or "RUNS is already in the store".
std::vector<std::string> add_run_files(Store& store,
                                       const std::vector<std::filesystem::path>& files,
                                       const Labels& given, const EnvLookup& lookup);

}  // namespace iobench::history
