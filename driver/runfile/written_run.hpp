#pragma once
// A run file and its meta record, held in memory: as `iobench run` and `iobench bench` have just
// written them, or as a command given a run file by name reads them, each file once. What follows
// the runs (the medians, the warnings, bench's blocks and exports, the HTML report, the history)
// reads this value; the files are written once and read again only by a command given them
// (docs/architecture.md, "Seams for tests").
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::runfile {

struct WrittenRun {
  std::filesystem::path runs_file;  // where the text is; names it in messages
  std::string text;                 // the run file's bytes: the header and every row
  // The meta record. Always there for a run just made; for a file read by name, empty when no
  // meta file is beside it, or when it cannot be read: then meta_problem says why.
  std::optional<RunMeta> meta;
  std::string meta_problem;
};

// Reads a run file and the meta file beside it, once each. Throws iobench::Error (exit 2) when the
// run file cannot be read; an unreadable meta file is recorded in meta_problem.
WrittenRun load_written_run(const std::filesystem::path& runs_file);

// Their rows grouped as read_runs groups the files, each one's cache mode taken from its meta.
RunSet group_written_runs(const std::vector<WrittenRun>& runs, const ReadOptions& options = {});
// The same of one run.
RunSet group_written_run(const WrittenRun& run, const ReadOptions& options = {});

}  // namespace iobench::runfile
