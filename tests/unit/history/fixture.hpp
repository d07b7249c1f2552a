#pragma once
// Run files and meta files for the history's tests, written to a scratch folder as `iobench run`
// lays them out (RUNS.tsv, meta/RUNS.json).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "driver/history/location.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/runfile/writer.hpp"

namespace iobench::history::test {

// An environment without a variable set.
inline const EnvLookup kNoEnvironment = [](const char*) -> const char* { return nullptr; };

// A meta file like the one `iobench run` writes, with the fields the history reads.
inline nlohmann::json sample_meta(const std::string& commit = "c0ffee1", double busy_cpus = 0.1) {
  nlohmann::json meta;
  meta["context"] = {{"date", "2026-01-01T00:00:00Z"},   {"host", "box"},
                     {"kernel", "Linux 6.1.0-18-amd64"}, {"machine", "x86_64"},
                     {"cpu_model", "Test CPU"},          {"cpus_online", 4},
                     {"iobench_version", "0.1.0"},       {"build", "Release GNU 12"}};
  meta["provenance"] = {{"git_commit", commit},
                        {"git_dirty", false},
                        {"worker", {{"build", "Release GNU 12"}, {"xxh3", "00aa11bb22cc33dd"}}},
                        {"load_average_start", 0.5},
                        {"busy_cpus_start", busy_cpus}};
  meta["config_file"] = "configs/t.json";
  meta["config"] = nlohmann::json::parse(R"({
    "name": "t",
    "inputs": [{"path": "../data/in.txt", "generate": {"kind": "lines", "size": "1MiB"}}],
    "strategies": [
      {"name": "{r}-raw", "worker": ["--read", "{r}", "--write", "raw"]},
      {"name": "count-{r}", "worker": ["--read", "{r}", "--op", "count"]},
      {"name": "wc", "command": ["wc", "-l", "{input}"], "verify": false}
    ],
    "params": {"r": ["read", "mmap"]},
    "cache": "warm"
  })");
  meta["finished"] = true;
  return meta;
}

inline runfile::RunRow sample_row(const std::string& test, double elapsed_s, int repeat = 1) {
  runfile::RunRow row;
  row.test = test;
  row.elapsed_s = elapsed_s;
  row.user_s = elapsed_s / 4;
  row.system_s = elapsed_s / 2;
  row.cpu_pct = 75;
  row.max_rss_kib = 2048;
  row.input = "data/in.txt";
  row.sink = "pipe";
  row.repeat = repeat;
  row.exit_code = 0;
  row.minflt = 100;
  row.nvcsw = 3;
  row.nivcsw = 1;
  row.bytes_out = 1048576;
  row.cache_pct = 100;
  row.output_hash = "f00dfeedcafe0001";
  row.host = "box";
  return row;
}

// Writes DIR/NAME.tsv and DIR/meta/NAME.json; returns the run file's path.
inline std::filesystem::path write_run(const std::filesystem::path& dir, const std::string& name,
                                       const nlohmann::json& meta,
                                       const std::vector<runfile::RunRow>& rows,
                                       const std::vector<runfile::Counter>& counters = {}) {
  std::filesystem::create_directories(dir / "meta");
  auto runs = dir / (name + ".tsv");
  std::ofstream out(runs);
  out << runfile::run_tsv_header(counters);
  for (const auto& row : rows) out << format_run_row(row, counters);
  std::ofstream(dir / "meta" / (name + ".json")) << meta.dump(2);
  return runs;
}

}  // namespace iobench::history::test
