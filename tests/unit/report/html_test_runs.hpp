#pragma once
// A small run file with its meta file beside it, for the HTML report's tests: two sinks, a
// reference, a faster test, a test whose name is markup, a test with a timed-out run, warm-cache
// rows that were not warm, and a recorded warning.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "driver/runfile/meta.hpp"
#include "driver/runfile/schema.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::report::testing {

inline constexpr const char* kMarkupTest = "<script>alert(1)</script>";
inline constexpr const char* kBusyLine =
    "other processes kept 1.2 of 2 CPUs busy as the runs started";

inline std::string run_row(const std::string& test, double elapsed_s, const std::string& sink,
                           const std::string& status = "ok", int nvcsw = 3,
                           double cache_pct = 100) {
  return fmt::format(
      "{}\t{}\t{}\t{}\t95.0\t2048\tin.txt\t{}\t1\t{}\t0\t100\t0\t{}\t1\t0\t0\t\t{}\t\thost-"
      "1\t0\t0\t0.0001\t\n",
      test, elapsed_s, elapsed_s * 0.6, elapsed_s * 0.3, sink, status, nvcsw, cache_pct);
}

// Writes DIR/runs.tsv and DIR/meta/runs.json; returns the run file.
inline std::filesystem::path write_test_runs(const iobench::test::TempDir& dir) {
  auto runs = dir / "runs.tsv";
  std::ofstream out(runs);
  for (std::size_t c = 0; c < runfile::kStandardColumns.size(); ++c) {
    out << (c ? "\t" : "") << runfile::kStandardColumns[c];
  }
  out << '\n';
  for (const std::string sink : {"pipe", "null"}) {
    for (int i = 0; i < 6; ++i) {
      out << run_row("ref", 0.0100 + 0.0001 * i, sink);
      out << run_row("fast", 0.0050 + 0.0001 * i, sink, "ok", 3 + i % 3, i < 2 ? 50 : 100);
      out << run_row(kMarkupTest, 0.0200 + 0.0001 * i, sink);
      out << run_row("slow-one", 0.0300 + 0.0001 * i, sink, i == 5 ? "timeout" : "ok");
    }
  }
  out.close();
  runfile::RunMeta meta;
  meta.runs_file = runs.string();
  meta.config_file = (dir / "tiny.json").string();
  meta.config = nlohmann::ordered_json::parse(
      R"({"name": "tiny", "inputs": ["in.txt"], "repeats": 3, "baseline": "ref", "cache": "warm",
          "strategies": [{"name": "ref", "command": ["cat", "{input}"]}, {"name": "fast"}]})");
  meta.options = runfile::RunSettings{
      "f|s", 6, 6, 0, {}, "interleave", 1, "iobench-worker", std::nullopt, "rerun", 0.1, "tree"};
  meta.context = runfile::MachineContext{};
  meta.context->host = "host-1";
  meta.context->cpu_model = "Test CPU <9000>";
  meta.provenance = runfile::Provenance{};
  meta.provenance->reference_test = "ref";
  const std::string cache_line = "fast: 4 measured rows were not warm (cache_pct down to 50.0 %)";
  meta.end = runfile::RunEnd{true, 0, 65536, {cache_line}, {cache_line, kBusyLine}, {}, {}};
  meta.rows = 48;
  runfile::write_meta(runfile::meta_path_for(runs), meta);
  return runs;
}

}  // namespace iobench::report::testing
