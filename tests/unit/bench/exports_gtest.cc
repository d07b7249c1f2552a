// bench's exports in hyperfine's formats (docs/bench.md, "Exports"), byte for byte on fixed
// figures: the tables as hyperfine 1.15 lays them out, its CSV columns, its JSON schema with
// iobench's fields beside.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "driver/bench/exports.hpp"

namespace iobench::bench {

using report::TimeUnit;

namespace {

using Json = nlohmann::ordered_json;

runfile::Group group(const std::string& test, std::vector<double> elapsed_s) {
  runfile::Group g;
  g.key = {test, "", "pipe"};
  const std::size_t n = elapsed_s.size();
  g.samples[runfile::index(runfile::Metric::kElapsed)] = std::move(elapsed_s);
  g.samples[runfile::index(runfile::Metric::kUser)] = std::vector<double>(n, 0.001);
  g.samples[runfile::index(runfile::Metric::kSystem)] = std::vector<double>(n, 0.002);
  g.samples[runfile::index(runfile::Metric::kCpuPct)] = std::vector<double>(n, 20);
  g.samples[runfile::index(runfile::Metric::kMem)] = std::vector<double>(n, 1500);
  g.exit_codes.assign(n, 0);
  g.rows[0] = n;
  return g;
}

// Two commands whose run-file order (fast first) is not the order they were given (slow first).
struct Fixture {
  runfile::RunSet set;
  ExportData data;
  Fixture() {
    set.group_by = {"test", "input", "sink"};
    set.groups = {group("fast | cat", {0.010, 0.011, 0.012}), group("slow", {0.020, 0.022, 0.024})};
    data.figures = &set;
    data.raw = &set;
    data.tests = {{"slow", {{"n", "2"}}}, {"fast | cat", {{"n", "1"}}}};
    data.reference = "slow";
  }
  std::string write(ExportFormat format) const {
    std::ostringstream out;
    write_bench_export(data, format, out);
    return out.str();
  }
};

TEST(BenchExports, TheTablesAreLaidOutAsHyperfineLaysThemOut) {
  const Fixture f;
  EXPECT_EQ(f.write(ExportFormat::kMarkdown),
            "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n"
            "|:---|---:|---:|---:|---:|\n"
            "| `slow` | 22.0 ± 2.0 | 20.0 | 24.0 | 2.00 ± 0.26 |\n"
            "| `fast \\| cat` | 11.0 ± 1.0 | 10.0 | 12.0 | 1.00 |\n");
  EXPECT_EQ(f.write(ExportFormat::kOrgmode),
            "| Command  |  Mean [ms] |  Min [ms] |  Max [ms] |  Relative |\n"
            "|--+--+--+--+--|\n"
            "| =slow=  |  22.0 ± 2.0 |  20.0 |  24.0 |  2.00 ± 0.26 |\n"
            "| =fast \\| cat=  |  11.0 ± 1.0 |  10.0 |  12.0 |  1.00 |\n");
  EXPECT_EQ(f.write(ExportFormat::kAsciidoc),
            "[cols=\"<,>,>,>,>\"]\n|===\n| Command \n| Mean [ms] \n| Min [ms] \n| Max [ms] \n"
            "| Relative \n\n| `slow` \n| 22.0 ± 2.0 \n| 20.0 \n| 24.0 \n| 2.00 ± 0.26 \n\n"
            "| `fast \\| cat` \n| 11.0 ± 1.0 \n| 10.0 \n| 12.0 \n| 1.00 \n|===\n");
}

TEST(BenchExports, TheUnitAndTheOrderFollowTimeUnitAndSort) {
  Fixture f;
  f.data.time_unit = TimeUnit::kSecond;
  f.data.tables_by_time = true;
  EXPECT_EQ(f.write(ExportFormat::kMarkdown),
            "| Command | Mean [s] | Min [s] | Max [s] | Relative |\n"
            "|:---|---:|---:|---:|---:|\n"
            "| `fast \\| cat` | 0.011 ± 0.001 | 0.010 | 0.012 | 1.00 |\n"
            "| `slow` | 0.022 ± 0.002 | 0.020 | 0.024 | 2.00 ± 0.26 |\n");
}

TEST(BenchExports, TheCsvHasHyperfinesColumnsThenTheParametersThenIobenchs) {
  Fixture f;
  f.set.groups[1].key[0] = "slow, \"quoted\"";  // RFC 4180, as hyperfine's writer quotes it
  f.data.tests[0].name = f.set.groups[1].key[0];
  std::istringstream csv(f.write(ExportFormat::kCsv));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "command,mean,stddev,median,user,system,min,max,parameter_n,input,sink,status");
  std::getline(csv, line);
  ASSERT_TRUE(line.starts_with("\"slow, \"\"quoted\"\"\",")) << line;
  std::vector<std::string> fields;
  std::istringstream rest(line.substr(line.find("\",") + 2));
  for (std::string field; std::getline(rest, field, ',');) fields.push_back(field);
  if (line.ends_with(",")) fields.emplace_back();
  ASSERT_EQ(fields.size(), 11u) << line;
  const std::vector<double> want{0.022, 0.002, 0.022, 0.001, 0.002, 0.020, 0.024};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(std::stod(fields[i]), want[i], 1e-12);
  EXPECT_EQ(fields[7], "2");  // parameter_n
  EXPECT_EQ(fields[8], "");   // no input
  EXPECT_EQ(fields[9], "pipe");
  EXPECT_EQ(fields[10], "ok");
  std::getline(csv, line);
  EXPECT_TRUE(line.starts_with("fast | cat,0.011")) << line;
  EXPECT_TRUE(line.ends_with(",1,,pipe,ok")) << line;
}

// A command without an ok run is never dropped: its row is there, saying so (issue 30).
TEST(BenchExports, ACommandWithoutAnOkRunIsARowThatSaysItFailed) {
  Fixture f;
  runfile::Group broken = group("broken", {});
  broken.rows[static_cast<std::size_t>(runfile::RunStatus::kFailed)] = 3;
  f.set.groups.push_back(broken);
  f.data.tests.push_back({"broken", {{"n", "3"}}});
  std::istringstream csv(f.write(ExportFormat::kCsv));
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[3], "broken,,,,,,,,3,,pipe,failed: no ok run (3 failed)");
  EXPECT_EQ(f.write(ExportFormat::kMarkdown),
            "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n"
            "|:---|---:|---:|---:|---:|\n"
            "| `slow` | 22.0 ± 2.0 | 20.0 | 24.0 | 2.00 ± 0.26 |\n"
            "| `fast \\| cat` | 11.0 ± 1.0 | 10.0 | 12.0 | 1.00 |\n"
            "| `broken` | failed: no ok run (3 failed) | - | - | N/A |\n");
  f.data.tables_by_time = true;  // no time to sort by: last
  EXPECT_TRUE(f.write(ExportFormat::kMarkdown)
                  .ends_with("| `broken` | failed: no ok run (3 failed) | - | - | N/A |\n"));
}

TEST(BenchExports, TheJsonIsHyperfinesSchemaWithIobenchsFieldsBeside) {
  Fixture f;
  f.set.groups[1].samples[runfile::index(runfile::Metric::kElapsed)] = {0.02};  // one run
  for (auto& samples : f.set.groups[1].samples) samples.resize(1);
  f.set.groups[1].rows[static_cast<std::size_t>(runfile::RunStatus::kOk)] = 1;
  f.set.groups[1].exit_codes = {3};
  runfile::Group broken = group("broken", {});  // no ok run: a result marked failed
  broken.rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)] = 4;
  f.set.groups.push_back(broken);
  const Json doc = Json::parse(f.write(ExportFormat::kJson));
  const Json& results = doc["results"];
  ASSERT_EQ(results.size(), 3u);
  const Json& slow = results[0];
  EXPECT_EQ(slow["command"], "slow");
  for (const char* key : {"mean", "median", "user", "system", "min", "max"}) {
    EXPECT_TRUE(slow[key].is_number()) << key;
  }
  EXPECT_TRUE(slow["stddev"].is_null());  // one run: hyperfine's null
  EXPECT_EQ(slow["times"], Json::parse("[0.02]"));
  EXPECT_EQ(slow["exit_codes"], Json::parse("[3]"));
  EXPECT_EQ(slow["parameters"], Json::parse(R"({"n": "2"})"));
  EXPECT_EQ(slow["memory_usage_byte"], Json::parse("[1536000]"));
  EXPECT_EQ(slow["iobench"]["sink"], "pipe");
  EXPECT_EQ(slow["iobench"]["is_reference"], true);
  EXPECT_TRUE(slow["iobench"]["shell_startup_subtracted"].is_null());
  EXPECT_NEAR(results[1]["iobench"]["relative_median"].get<double>(), 0.011 / 0.02, 1e-12);
  EXPECT_EQ(doc["iobench"]["without_ok_runs"][0]["command"], "broken");
  EXPECT_EQ(slow["iobench"]["status"], "ok");
  EXPECT_EQ(slow["iobench"]["ok_runs"], 1);
  const Json& failed = results[2];
  EXPECT_EQ(failed["command"], "broken");
  EXPECT_EQ(failed["iobench"]["status"], "failed");
  EXPECT_EQ(failed["iobench"]["ok_runs"], 0);
  EXPECT_EQ(failed["iobench"]["excluded"], Json::parse(R"({"disturbed": 4})"));
  EXPECT_EQ(failed["times"], Json::array());
  EXPECT_EQ(failed["exit_codes"], Json::array());
  for (const char* key : {"mean", "stddev", "median", "user", "system", "min", "max"}) {
    EXPECT_TRUE(failed[key].is_null()) << key;
  }
  EXPECT_TRUE(failed["iobench"]["relative_median"].is_null());
  EXPECT_EQ(doc["iobench"]["elapsed_figure"], "raw");  // nothing subtracted in this fixture
  EXPECT_EQ(doc["iobench"]["elapsed_figure_name"], "elapsed");
}

}  // namespace
}  // namespace iobench::bench
