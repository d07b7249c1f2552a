#include "driver/run/bench.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;

// Checked before the run, so that a long run is not lost to a folder the config cannot be
// saved in: the nearest folder that exists (the writer makes the missing ones) must be writable.
void check_save_folder(const fs::path& save_path) {
  fs::path folder = fs::absolute(save_path).parent_path();
  std::error_code ec;
  while (!fs::exists(folder, ec) && folder.has_relative_path()) folder = folder.parent_path();
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw Error(fmt::format("--save-config {}: cannot write in {}: {}", save_path.string(),
                            folder.string(), std::strerror(errno)));
  }
}

void save_config(const Config& config, const fs::path& save_path, bool dry_run) {
  try {
    write_file_atomically(save_path, config_to_save(config, save_path).dump(2) + "\n");
  } catch (const Error& e) {
    throw Error(e.what(), dry_run ? kExitUsage : kExitCouldNotContinue);
  }
  fmt::print(stderr, "iobench: config saved to {}; `iobench run {}` measures it again\n",
             save_path.string(), save_path.string());
}

}  // namespace

int run_bench(BenchOptions& options) {
  options.request.made_by = bench_command_line(options.request);
  const Config config = build_bench_config(options.request);
  // The config is saved once the run has accepted it, so an error found before any run (exit 2)
  // leaves nothing written.
  if (!options.save_config.empty()) check_save_folder(options.save_config);
  fs::path runs_file;
  options.run.runs_file_out = &runs_file;
  const int exit_code = run_config(config, options.run);
  if (!options.save_config.empty()) save_config(config, options.save_config, options.run.dry_run);
  if (options.run.dry_run || runs_file.empty()) return exit_code;
  options.report.reference = config.baseline;
  report::report_bench(runs_file, options.report, std::cout);
  return exit_code;
}

}  // namespace iobench
