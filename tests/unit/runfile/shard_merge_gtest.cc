// `iobench merge`'s checks: one matrix, every shard once, every (cell, repeat) exactly once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "driver/runfile/shard_merge.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::runfile {
namespace {

namespace fs = std::filesystem;

// A matrix of 5 cells (tests t0..t4 on one input and sink), 2 repeats, dealt out to N shards as
// `iobench run --shard` does: cell c goes to shard c mod N + 1.
class ShardMerge : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(dir_ / "meta"); }

  static constexpr int kCells = 5;
  static constexpr int kRepeats = 2;
  // The rest of the six columns every run file has (the one reader requires them).
  static constexpr const char* kFigures = "\t0.4\t0.1\t100.0\t1000";

  // Writes shard k of n (1-based) with every row it should have, minus `skip_repeat` of cell
  // `skip_cell`; returns the run file's path.
  fs::path write_shard(const std::string& stem, int k, int n, const std::string& hash = "abc",
                       int skip_cell = -1, int skip_repeat = 0, const std::string& host = "h") {
    nlohmann::ordered_json meta;
    meta["host"] = host;
    nlohmann::ordered_json cells = nlohmann::ordered_json::array();
    for (int c = 0; c < kCells; ++c) cells.push_back({"t" + std::to_string(c), "in.txt", "pipe"});
    meta["matrix"] = {{"hash", hash},
                      {"shard", std::to_string(k) + "/" + std::to_string(n)},
                      {"repeats", kRepeats},
                      {"cells", cells}};
    meta["config"] = {{"name", "m"}, {"baseline", "t0"}};
    std::ofstream(dir_ / "meta" / (stem + ".json")) << meta.dump(2);
    fs::path runs = dir_ / (stem + ".tsv");
    std::ofstream out(runs);
    out << "test\telapsed\tinput\tsink\trepeat\tstatus\thost\tuser\tsystem\tcpu_pct\tmem\n";
    for (int r = 1; r <= kRepeats; ++r) {
      for (int c = k - 1; c < kCells; c += n) {
        if (c == skip_cell && r == skip_repeat) continue;
        out << "t" << c << "\t0.5\tin.txt\tpipe\t" << r << "\tok\t" << host << kFigures << "\n";
      }
    }
    return runs;
  }

  static std::string all(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines) text += line + "\n";
    return text;
  }

  const iobench::test::TempDir dir_{"merge"};
};

TEST_F(ShardMerge, JoinsEveryShardIntoOneFile) {
  const auto merged = merge_shards({write_shard("a", 1, 2, "abc", -1, 0, "node1"),
                                    write_shard("b", 2, 2, "abc", -1, 0, "node2")});
  ASSERT_TRUE(merged.problems.empty()) << all(merged.problems);
  EXPECT_EQ(merged.rows, static_cast<std::size_t>(kCells * kRepeats));
  EXPECT_EQ(merged.runs_text.rfind("test\telapsed\t", 0), 0U);
  EXPECT_EQ(merged.hosts, (std::vector<std::string>{"node1", "node2"}));
  EXPECT_EQ(merged.baseline, "t0");
  EXPECT_EQ(merged.meta.merged_from.size(), 2U);
  ASSERT_TRUE(merged.meta.matrix.has_value());
  EXPECT_EQ(merged.meta.matrix->shard.text(), "1/1");
  EXPECT_EQ(merged.meta.matrix->hash, "abc");
}

TEST_F(ShardMerge, AMissingShardIsOneLineAndNothingMerged) {
  const auto merged = merge_shards({write_shard("a", 1, 3), write_shard("c", 3, 3)});
  ASSERT_EQ(merged.problems.size(), 1U) << all(merged.problems);
  EXPECT_NE(merged.problems[0].find("missing: shard 2/3"), std::string::npos) << merged.problems[0];
  EXPECT_TRUE(merged.runs_text.empty());
}

TEST_F(ShardMerge, TheSameShardTwiceIsADuplicate) {
  const auto a = write_shard("a", 1, 2);
  const auto merged = merge_shards({a, write_shard("b", 2, 2), write_shard("a2", 1, 2)});
  ASSERT_EQ(merged.problems.size(), 1U) << all(merged.problems);
  EXPECT_NE(merged.problems[0].find("duplicate: shard 1/2 is also " + a.string()),
            std::string::npos)
      << merged.problems[0];
}

TEST_F(ShardMerge, AnotherMatrixIsAForeignFile) {
  const auto other = write_shard("b", 2, 2, "def");
  const auto merged = merge_shards({write_shard("a", 1, 2), other});
  ASSERT_EQ(merged.problems.size(), 2U) << all(merged.problems);
  EXPECT_NE(merged.problems[0].find(other.string() + ": foreign file: matrix hash def"),
            std::string::npos)
      << merged.problems[0];
  EXPECT_NE(merged.problems[1].find("missing: shard 2/2"), std::string::npos);
}

TEST_F(ShardMerge, AFileWithoutMetaIsForeign) {
  std::ofstream(dir_ / "loose.tsv") << "test\telapsed\n";
  const auto merged = merge_shards({write_shard("a", 1, 1), dir_ / "loose.tsv"});
  ASSERT_EQ(merged.problems.size(), 1U) << all(merged.problems);
  EXPECT_NE(merged.problems[0].find("loose.tsv: foreign file: no meta file"), std::string::npos)
      << merged.problems[0];
}

TEST_F(ShardMerge, AMissingRowNamesTheCellAndRepeat) {
  // Shard 2/2 holds cells 1 and 3; its task died before cell 3's repeat 2.
  const auto merged = merge_shards({write_shard("a", 1, 2), write_shard("b", 2, 2, "abc", 3, 2)});
  ASSERT_EQ(merged.problems.size(), 1U) << all(merged.problems);
  EXPECT_NE(
      merged.problems[0].find("missing: test t3, input in.txt, sink pipe repeat 2 (shard 2/2"),
      std::string::npos)
      << merged.problems[0];
}

TEST_F(ShardMerge, ARowTwiceOrOfAnotherShardIsExtra) {
  const auto b = write_shard("b", 2, 2);
  std::ofstream(b, std::ios::app) << "t1\t0.5\tin.txt\tpipe\t1\tok\th" << kFigures << "\n"  // again
                                  << "t0\t0.5\tin.txt\tpipe\t1\tok\th" << kFigures
                                  << "\n"  // shard 1's cell
                                  << "t9\t0.5\tin.txt\tpipe\t1\tok\th" << kFigures
                                  << "\n"  // no such cell
                                  << "t1\t0.5\tin.txt\tpipe\t3\tok\th" << kFigures
                                  << "\n";  // no such repeat
  const auto merged = merge_shards({write_shard("a", 1, 2), b});
  ASSERT_EQ(merged.problems.size(), 4U) << all(merged.problems);
  EXPECT_NE(merged.problems[0].find("duplicate: test t1"), std::string::npos);
  EXPECT_NE(merged.problems[1].find("extra: test t0, input in.txt, sink pipe belongs to shard 1/2"),
            std::string::npos)
      << merged.problems[1];
  EXPECT_NE(merged.problems[2].find("extra: test t9"), std::string::npos);
  EXPECT_NE(merged.problems[3].find("repeat 3 is not in the matrix"), std::string::npos);
}

// docs/driver.md, "Disturbance": a disturbed row keeps the repeat number its re-run has.
TEST_F(ShardMerge, ADisturbedRowAndItsReRunShareTheRepeat) {
  const auto b = write_shard("b", 2, 2);
  std::ofstream(b, std::ios::app) << "t1\t0.9\tin.txt\tpipe\t1\tdisturbed\th" << kFigures << "\n";
  const auto merged = merge_shards({write_shard("a", 1, 2), b});
  EXPECT_TRUE(merged.problems.empty()) << all(merged.problems);
  EXPECT_NE(merged.runs_text.find("t1\t0.9\tin.txt\tpipe\t1\tdisturbed"), std::string::npos);
}

TEST(ShardMergePaths, MetaAndMediansLiveBesideTheRunFile) {
  EXPECT_EQ(meta_path_for("results/x.tsv"), fs::path("results/meta/x.json"));
  EXPECT_EQ(medians_path_for("x.tsv"), fs::path("./medians/x.tsv"));
}

}  // namespace
}  // namespace iobench::runfile
