#pragma once
// `iobench bench 'CMD' ['CMD'...]` end to end (docs/bench.md): the request becomes a Config
// (driver/bench/request.hpp), which runs through exactly the engine of `iobench run`; the
// config is saved when asked; then each command is judged against the reference
// (driver/bench/report.hpp).
#include <filesystem>

#include "driver/bench/report.hpp"
#include "driver/bench/request.hpp"
#include "driver/run/outputs.hpp"
#include "driver/run/runner.hpp"

namespace iobench::bench {

struct BenchOptions {
  bench::BenchRequest request;        // made_by is filled in from the rest
  run::RunOptions run;                // config_path is not read
  std::filesystem::path save_config;  // empty: not saved
  bench::BenchReportOptions report;   // its reference is filled in from the config
  std::string compare_with;           // "hyperfine": run the commands through it too; empty: no
};

// The folder of a file bench writes (an export, -o, --report, --save-config) must exist and be
// writable: bench creates no folder of yours. Throws iobench::Error (exit 2) naming `option`.
void check_output_folder(const std::filesystem::path& file, const char* option);

// Where bench keeps its runs file when nothing asks for one (docs/bench.md): a private folder
// under $TMPDIR (else /tmp), removed with everything in it when this goes.
class TemporaryRunsFolder {
 public:
  TemporaryRunsFolder();
  [[nodiscard]] std::filesystem::path runs_file() const { return folder_.path() / "bench.tsv"; }

 private:
  run::PrivateFolder folder_;
};

// Returns the run, its exit code the gate's where the run had nothing worse to say (docs/formats.md
// "Exit codes"). Throws iobench::Error (exit 2, nothing written) for a bad request or a
// --save-config folder it cannot write in, found before any run.
run::RunResult run_bench(BenchOptions& options);

}  // namespace iobench::bench
