// `iobench merge SHARD.tsv... -o RUNS.tsv`: joins the shards of one matrix (docs/distributed.md).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/cli/cmd_history.hpp"
#include "driver/cli/command.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/runfile/shard_merge.hpp"
#include "driver/runfile/written_run.hpp"

namespace iobench::cli {
namespace {

namespace fs = std::filesystem;

struct MergeOptions {
  std::vector<std::string> shards;
  fs::path output;
};

// Writes the merged run (kept in `written` for the history) and returns the exit code.
int merge(const MergeOptions& options, std::optional<runfile::WrittenRun>& written) {
  const std::vector<fs::path> files(options.shards.begin(), options.shards.end());
  runfile::MergedShards merged = runfile::merge_shards(files);
  if (!merged.problems.empty()) {
    for (const auto& problem : merged.problems) fmt::print(stderr, "iobench merge: {}\n", problem);
    fmt::print(stderr, "iobench merge: {} problem(s); nothing written\n", merged.problems.size());
    return kExitRunFailed;
  }
  std::error_code ec;
  if (fs::exists(options.output, ec)) {
    throw Error(fmt::format("{}: exists; results are never overwritten (choose another -o)",
                            options.output.string()));
  }
  const fs::path medians = runfile::medians_path_for(options.output);
  const fs::path meta_path = runfile::meta_path_for(options.output);
  runfile::RunMeta meta = merged.meta;
  meta.runs_file = options.output.string();
  meta.medians_file = medians.string();
  write_file_atomically(options.output, merged.runs_text);
  runfile::write_meta(meta_path, meta);
  written = runfile::WrittenRun{options.output, std::move(merged.runs_text), std::move(meta), {}};
  report::write_medians_report({options.output, medians, merged.baseline, {}},
                               runfile::group_written_run(*written, report::medians_grouping()),
                               std::cout, std::cerr);
  fmt::print(stderr, "iobench merge: {} shards, {} rows from {} host(s) ({}) in {}\n",
             merged.meta.merged_from.size(), merged.rows, merged.hosts.size(),
             fmt::join(merged.hosts, ", "), options.output.string());
  return kExitOk;
}

void setup_merge(CLI::App& sub, int& exit_code) {
  auto options = std::make_shared<MergeOptions>();
  sub.add_option("shards", options->shards,
                 "Run files of the shards (their meta files beside them, in meta/)")
      ->required();
  sub.add_option("-o,--output", options->output, "Merged run file to write (never overwritten)")
      ->required();
  auto history = std::make_shared<HistoryAfterRun>();
  history->add_option(sub);
  sub.callback([options, history, &exit_code] {
    history->open();
    std::optional<runfile::WrittenRun> written;
    const int merged = merge(*options, written);
    exit_code = history->add(written, merged);
  });
}

const RegisterCommand kRegisterMerge{
    "merge",
    "Join the shards of one matrix (run --shard) into one run file; exit 1 if any is missing",
    &setup_merge, 15};

}  // namespace
}  // namespace iobench::cli
