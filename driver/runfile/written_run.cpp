#include "driver/runfile/written_run.hpp"

#include "common/error.hpp"
#include "driver/runfile/load.hpp"

namespace iobench::runfile {

WrittenRun load_written_run(const std::filesystem::path& runs_file) {
  WrittenRun run;
  run.runs_file = runs_file;
  run.text = std::string(load_run_file(runs_file).text());
  try {
    run.meta = read_meta_for(runs_file);
  } catch (const Error& e) {
    run.meta_problem = e.what();
  }
  return run;
}

namespace {

RunFileView view_of(const WrittenRun& run) {
  return {run.runs_file.string(), run.text, run.meta ? run.meta->cache_mode() : std::string(),
          run.meta ? &*run.meta : nullptr};
}

}  // namespace

RunSet group_written_runs(const std::vector<WrittenRun>& runs, const ReadOptions& options) {
  std::vector<RunFileView> views;
  views.reserve(runs.size());
  for (const WrittenRun& run : runs) views.push_back(view_of(run));
  return parse_run_views(views, options);
}

RunSet group_written_run(const WrittenRun& run, const ReadOptions& options) {
  return parse_run_views({view_of(run)}, options);
}

}  // namespace iobench::runfile
