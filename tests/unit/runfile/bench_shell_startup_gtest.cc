// bench's shell start-up in the run record (docs/formats.md "Meta file", shell_startup): written
// and read back the same, absent from every other record, and a bad one names its field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::runfile {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

TEST(BenchShellStartup, ReadsBackAsItWasWritten) {
  RunMeta meta;
  meta.runs_file = "results/bench.tsv";
  meta.shell_startup = ShellStartup{{"bash", "--norc", "-c", ""}, 30, 0.00091, 0.0004, 0.00035};
  const Json json = to_json(meta);
  ASSERT_TRUE(json.contains("shell_startup"));
  EXPECT_EQ(json["shell_startup"]["command"], Json::parse(R"(["bash", "--norc", "-c", ""])"));
  EXPECT_EQ(json["shell_startup"]["runs"], 30);
  const RunMeta again = meta_from_json(json);
  ASSERT_TRUE(again.shell_startup.has_value());
  EXPECT_EQ(again.shell_startup->command, meta.shell_startup->command);
  EXPECT_EQ(again.shell_startup->runs, 30u);
  EXPECT_DOUBLE_EQ(again.shell_startup->elapsed_s, 0.00091);
  EXPECT_DOUBLE_EQ(again.shell_startup->user_s, 0.0004);
  EXPECT_DOUBLE_EQ(again.shell_startup->system_s, 0.00035);
}

TEST(BenchShellStartup, TheFixtureOfABenchRunHasIt) {
  const fs::path path =
      fs::path(IOBENCH_SOURCE_DIR) / "tests/fixtures/meta/v2-bench-shell-startup.json";
  std::ifstream in(path);
  const RunMeta meta = meta_from_json(Json::parse(in));
  ASSERT_TRUE(meta.shell_startup.has_value());
  EXPECT_EQ(meta.shell_startup->command, (std::vector<std::string>{"sh", "-c", ""}));
  EXPECT_EQ(meta.shell_startup->runs, 30u);
  EXPECT_GT(meta.shell_startup->elapsed_s, 0);
}

TEST(BenchShellStartup, IsAbsentWhereNoShellWasMeasured) {
  RunMeta meta;
  meta.runs_file = "results/run.tsv";
  const Json json = to_json(meta);
  EXPECT_FALSE(json.contains("shell_startup"));
  EXPECT_FALSE(meta_from_json(json).shell_startup.has_value());
}

TEST(BenchShellStartup, ABadRecordNamesItsField) {
  Json json = to_json(RunMeta{});
  json["shell_startup"] = Json::parse(R"({"command": ["sh", "-c", ""], "runs": 3,
                                          "elapsed_s": "fast", "user_s": 0, "system_s": 0})");
  try {
    meta_from_json(json);
    FAIL() << "read a shell_startup whose elapsed_s is text";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shell_startup.elapsed_s"), std::string::npos) << e.what();
  }
  json["shell_startup"] = 1;
  EXPECT_THROW(meta_from_json(json), Error);
}

}  // namespace
}  // namespace iobench::runfile
