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

RunSet group_written_run(const WrittenRun& run, const ReadOptions& options) {
  return parse_run_views(
      {{run.runs_file.string(), run.text, run.meta ? run.meta->cache_mode() : std::string()}},
      options);
}

}  // namespace iobench::runfile
