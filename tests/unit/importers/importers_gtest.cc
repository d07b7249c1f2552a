// Each importer on a file its real tool wrote (tests/fixtures/imports/README.md): what it reads,
// exactly, and what each detects; the refusals name the file and what is wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "driver/importers/importer.hpp"

namespace iobench::importers {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(IOBENCH_SOURCE_DIR) + "/tests/fixtures/imports/" + name,
                   std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

const Importer& named(std::string_view name) {
  const Importer* importer = importer_named(name);
  EXPECT_NE(importer, nullptr) << name;
  return *importer;
}

const ImportedSeries& find(const ImportedRun& run, std::string_view name,
                           std::string_view measure) {
  for (const ImportedSeries& series : run.series) {
    if (series.name == name && series.measure == measure) return series;
  }
  throw std::runtime_error("no such series");
}

TEST(Importers, EachRealFileIsDetectedAsItsOwnFormatOnly) {
  const std::pair<const char*, const char*> files[] = {
      {"hyperfine-1.15.0.json", "hyperfine"},
      {"gbench-1.7.1.json", "gbench"},
      {"pytest-benchmark-3.2.2-commit1.json", "pytest-benchmark"},
      {"criterion-0.3.6/commit1/steady/new/sample.json", "criterion"},
  };
  for (const auto& [file, format] : files) {
    const std::string bytes = fixture(file);
    ASSERT_FALSE(bytes.empty()) << file;
    const Importer* detected = detect_importer(bytes);
    ASSERT_NE(detected, nullptr) << file;
    EXPECT_EQ(detected->name, format) << file;
    for (const Importer& other : all_importers()) {
      if (other.name != format) {
        EXPECT_FALSE(other.detects(bytes)) << file << " as " << other.name;
      }
    }
  }
  EXPECT_EQ(importer_names(), "hyperfine, gbench, pytest-benchmark, bmf, criterion");
}

TEST(Importers, HyperfineGivesEachCommandItsTimesInSeconds) {
  const ImportedRun run = named("hyperfine").parse(fixture("hyperfine-1.15.0.json"), "h.json");
  EXPECT_EQ(run.tool, "hyperfine");
  ASSERT_EQ(run.series.size(), 2U);
  const ImportedSeries& work = find(run, "work", "real_time");
  EXPECT_EQ(work.unit, "s");
  EXPECT_EQ(work.direction, Direction::kLowerIsBetter);
  ASSERT_EQ(work.samples.size(), 10U);
  EXPECT_DOUBLE_EQ(work.samples.front(), 0.031234341000000002);
  EXPECT_DOUBLE_EQ(work.samples.back(), 0.032491724);
  EXPECT_EQ(work.failed, std::vector<bool>(10, false));
  EXPECT_FALSE(work.summary);
}

TEST(Importers, GbenchTakesTheRepetitionsNotTheAggregatesAndTheContext) {
  const ImportedRun run = named("gbench").parse(fixture("gbench-1.7.1.json"), "g.json");
  EXPECT_EQ(run.tool, "gbench");
  ASSERT_EQ(run.series.size(), 4U);  // two benchmarks, real_time and cpu_time
  const ImportedSeries& steady = find(run, "BM_Steady", "real_time");
  EXPECT_EQ(steady.unit, "ns");
  ASSERT_EQ(steady.samples.size(), 3U);  // --benchmark_repetitions=3: not the 4 aggregates
  EXPECT_DOUBLE_EQ(steady.samples.front(), 1842.4440387740165);
  EXPECT_DOUBLE_EQ(find(run, "BM_Steady", "cpu_time").samples.front(), 303.47995131949784);
  EXPECT_DOUBLE_EQ(find(run, "BM_Changed", "real_time").samples.front(), 1583.1595502267037);
  EXPECT_EQ(run.conditions.at("library_build_type"), "debug");
  EXPECT_EQ(run.conditions.at("cpu_scaling_enabled"), "false");
  EXPECT_EQ(run.host, "vm");
  EXPECT_EQ(run.cpus, 2);
  EXPECT_TRUE(nlohmann::json::parse(run.context_json).contains("load_avg"));
}

// Issue 47: the machine's class names the host (the file names no CPU model, memory or kernel).
TEST(Importers, GbenchHostClassIsTheHostCpusClockAndCaches) {
  const ImportedRun run = named("gbench").parse(fixture("gbench-1.7.1.json"), "g.json");
  EXPECT_EQ(run.host_class,
            "vm | 2 CPUs | 2.6 GHz | caches L1d 48 KiB, L1i 64 KiB, L2 2048 KiB, L3 491520 KiB");
  nlohmann::json json = nlohmann::json::parse(fixture("gbench-1.7.1.json"));
  json["context"]["host_name"] = "other";
  json["context"]["mhz_per_cpu"] = 2612;  // to a tenth of a GHz: the same clock
  EXPECT_EQ(named("gbench").parse(json.dump(), "g.json").host_class.substr(0, 28),
            "other | 2 CPUs | 2.6 GHz | c");
  json["context"]["caches"] = nlohmann::json::parse(R"([5, {"level": "x"}])");  // kept, not read
  EXPECT_EQ(named("gbench").parse(json.dump(), "g.json").host_class,
            "other | 2 CPUs | 2.6 GHz | caches L? 0 KiB");
}

// User counters: any other number of an entry, whose direction the file does not give.
TEST(Importers, GbenchKeepsUserCountersAsideAsUndirected) {
  nlohmann::json json = nlohmann::json::parse(fixture("gbench-1.7.1.json"));
  for (auto& row : json["benchmarks"]) row["MyCounter"] = 4.5;
  const ImportedRun run = named("gbench").parse(json.dump(), "g.json");
  EXPECT_EQ(run.series.size(), 4U);  // real_time and cpu_time of two benchmarks, as before
  ASSERT_EQ(run.undirected.size(), 2U);
  const ImportedSeries& counter = run.undirected.front();
  EXPECT_EQ(counter.name, "BM_Steady");
  EXPECT_EQ(counter.measure, "MyCounter");
  EXPECT_EQ(counter.unit, "");
  EXPECT_EQ(counter.samples, std::vector<double>(3, 4.5));  // the repetitions, not aggregates
}

TEST(Importers, GbenchWithOnlyAggregatesGetsTheirSummary) {
  nlohmann::json json = nlohmann::json::parse(fixture("gbench-1.7.1.json"));
  auto& rows = json["benchmarks"];
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const auto& row) { return row["run_type"] == "iteration"; }),
             rows.end());
  const ImportedRun run = named("gbench").parse(json.dump(), "g.json");
  const ImportedSeries& steady = find(run, "BM_Steady", "real_time");
  EXPECT_TRUE(steady.samples.empty());
  ASSERT_TRUE(steady.summary);
  EXPECT_DOUBLE_EQ(steady.summary->center, 1842.4440387740167);  // the median aggregate
  EXPECT_EQ(steady.summary->n, 3);
}

TEST(Importers, PytestBenchmarkTakesStatsDataAndMachineInfo) {
  const ImportedRun run =
      named("pytest-benchmark").parse(fixture("pytest-benchmark-3.2.2-commit3.json"), "p.json");
  EXPECT_EQ(run.tool, "pytest-benchmark");
  const ImportedSeries& changed = find(run, "test_tiny.py::test_changed", "time");
  ASSERT_EQ(changed.samples.size(), 10U);
  EXPECT_DOUBLE_EQ(changed.samples.front(), 1.6190399998095016e-05);
  EXPECT_EQ(run.conditions.at("python_version"), "3.11.2");
  EXPECT_EQ(run.conditions.at("python_implementation"), "CPython");
  EXPECT_EQ(run.host, "vm");
  EXPECT_FALSE(run.commit);  // "unversioned": not a commit
  EXPECT_EQ(run.date, "2026-12-03T06:12:11.781288");
}

TEST(Importers, PytestBenchmarkWithoutDataGetsTheSummary) {
  nlohmann::json json = nlohmann::json::parse(fixture("pytest-benchmark-3.2.2-commit3.json"));
  for (auto& benchmark : json["benchmarks"]) benchmark["stats"].erase("data");
  const ImportedRun run = named("pytest-benchmark").parse(json.dump(), "p.json");
  const ImportedSeries& changed = find(run, "test_tiny.py::test_changed", "time");
  ASSERT_TRUE(changed.summary);
  EXPECT_DOUBLE_EQ(changed.summary->center, 1.7285300000935425e-05);
  EXPECT_EQ(changed.summary->n, 10);
}

TEST(Importers, BmfIsStrictAndKeepsEachMetricWithItsBounds) {
  const std::string bmf =
      R"({"copy": {"latency": {"value": 88.5, "lower_value": 80, "upper_value": 90.25},)"
      R"( "throughput": {"value": 1000}}})";
  ASSERT_EQ(detect_importer(bmf), &named("bmf"));
  const ImportedRun run = named("bmf").parse(bmf, "b.json");
  const ImportedSeries& latency = find(run, "copy", "latency");
  EXPECT_EQ(latency.unit, "ns");
  ASSERT_TRUE(latency.summary);
  EXPECT_EQ(latency.summary->center, 88.5);
  EXPECT_EQ(latency.summary->lower, 80);
  EXPECT_EQ(latency.summary->upper, 90.25);
  EXPECT_EQ(find(run, "copy", "throughput").direction, Direction::kHigherIsBetter);
  // Bencher's four built-in measures have their units (issue 47: build-time had none).
  const ImportedRun built = named("bmf").parse(
      R"({"app": {"build-time": {"value": 12.5}, "file-size": {"value": 4096}}})", "b.json");
  EXPECT_EQ(find(built, "app", "build-time").unit, "s");
  EXPECT_EQ(find(built, "app", "build-time").direction, Direction::kLowerIsBetter);
  EXPECT_EQ(find(built, "app", "file-size").unit, "B");
  // Strict: one value that is not a measure object, or an extra key, and it is no BMF.
  EXPECT_EQ(detect_importer(R"({"copy": {"latency": {"value": 1}}, "note": "x"})"), nullptr);
  EXPECT_EQ(detect_importer(R"({"copy": {"latency": {"value": 1, "unit": "ns"}}})"), nullptr);
  EXPECT_EQ(detect_importer(R"({"copy": {"latency": {"lower_value": 1}}})"), nullptr);
  EXPECT_EQ(detect_importer("test\telapsed\n"), nullptr);
}

TEST(Importers, CriterionGivesEachSampleItsTimeAnIterationNamedByBenchmarkJson) {
  const std::string file = std::string(IOBENCH_SOURCE_DIR) +
                           "/tests/fixtures/imports/criterion-0.3.6/commit1/steady/new/sample.json";
  const ImportedRun run =
      named("criterion").parse(fixture("criterion-0.3.6/commit1/steady/new/sample.json"), file);
  EXPECT_EQ(run.tool, "criterion");
  ASSERT_EQ(run.series.size(), 1U);
  const ImportedSeries& steady = run.series.front();
  EXPECT_EQ(steady.name, "steady");  // benchmark.json's full_id
  EXPECT_EQ(steady.unit, "ns");
  ASSERT_EQ(steady.samples.size(), 10U);
  EXPECT_DOUBLE_EQ(steady.samples.front(), 3723570.0 / 3965.0);  // times[0] / iters[0]
}

TEST(Importers, ARefusalIsOneLineNamingTheFileAndTheField) {
  try {
    (void)named("hyperfine")
        .parse(R"({"results": [{"command": "x", "mean": 1, "times": [1, "a"]}]})", "bad.json");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bad.json: results[0]: 'times' holds a value that is not a number");
    EXPECT_EQ(e.exit_code(), kExitUsage);
  }
  try {
    (void)named("gbench").parse("{not json", "bad.json");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.json: not JSON: ", 0), 0U) << e.what();
  }
}

}  // namespace
}  // namespace iobench::importers
