// The run record (docs/formats.md "Meta file"): every format this repository has written loads,
// what is written reads back the same, and a record that cannot be read says which field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "driver/runfile/meta.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::runfile {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

fs::path fixture(const std::string& name) {
  return fs::path(IOBENCH_SOURCE_DIR) / "tests" / "fixtures" / "meta" / name;
}

Json read_json(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

std::string error_of(const Json& json) {
  try {
    meta_from_json(json);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(RunMeta, EveryFixtureOfEveryFormatLoads) {
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(fixture(""))) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    SCOPED_TRACE(entry.path().filename().string());
    const RunMeta meta = meta_from_json(read_json(entry.path()));
    const bool v2 = entry.path().filename().string().rfind("v2-", 0) == 0;
    EXPECT_EQ(meta.format_version, v2 ? 2 : 1);
    EXPECT_FALSE(meta.runs_file.empty());
    EXPECT_TRUE(meta.config.is_object());
  }
  EXPECT_GE(files, 8U);  // fixtures/meta/README.md lists them
}

TEST(RunMeta, TodaysFormatOneRunReadsEveryBlock) {
  const RunMeta meta = meta_from_json(read_json(fixture("v1-548687b-smoke.json")));
  ASSERT_TRUE(meta.context && meta.options && meta.matrix && meta.provenance && meta.schedule);
  EXPECT_EQ(meta.context->cpus_online, 2);
  EXPECT_EQ(meta.context->git_commit, "548687b30ee9bcc77198675685cbeef314c16ebe");
  EXPECT_EQ(meta.options->shard, (ShardId{1, 1}));
  EXPECT_EQ(meta.options->repeats, 3);
  EXPECT_EQ(meta.matrix->hash, "bbd472a4fcbab039");
  EXPECT_EQ(meta.matrix->cells.size(), 92U);
  EXPECT_EQ(meta.schedule->runs.size(), 367U);  // 92 cells x 3 repeats, 91 verified (not wc-l)
  EXPECT_EQ(meta.provenance->reference_test, "getline-raw");
  EXPECT_EQ(meta.provenance->git_dirty, false);
  ASSERT_TRUE(meta.provenance->worker.has_value());
  EXPECT_EQ(meta.provenance->worker->xxh3, "ef2d4c153941c8d0");
  ASSERT_TRUE(meta.end.has_value());
  EXPECT_TRUE(meta.end->finished);
  EXPECT_EQ(meta.rows, 276U);
  EXPECT_EQ(meta.end->pipe_size_given_bytes, 65536U);
  EXPECT_EQ(meta.cache_mode(), "warm");
  EXPECT_EQ(meta.baseline(), "getline-raw");
}

TEST(RunMeta, FormatOneQuirksBecomeOneShape) {
  // Outside a repository format 1 wrote context.git_commit "" but left provenance's out.
  const RunMeta shard = meta_from_json(read_json(fixture("v1-548687b-shard-counters.json")));
  ASSERT_TRUE(shard.context && shard.provenance && shard.counters && shard.options);
  EXPECT_FALSE(shard.context->git_commit.has_value());
  EXPECT_FALSE(shard.provenance->git_commit.has_value());
  EXPECT_EQ(shard.options->ci_pct, 50.0);
  EXPECT_EQ(shard.counters->counted, (std::vector<std::string>{"syscalls", "context-switches"}));
  EXPECT_EQ(shard.matrix->shard, (ShardId{1, 2}));
  EXPECT_EQ(shard.cache_mode(), "none");

  const RunMeta first = meta_from_json(read_json(fixture("v1-9972eef-first.json")));
  EXPECT_FALSE(first.options->repeats_min.has_value());
  EXPECT_FALSE(first.matrix.has_value());
  EXPECT_FALSE(first.provenance.has_value());
  ASSERT_TRUE(first.end.has_value());
  EXPECT_TRUE(first.end->finished);

  const RunMeta start = meta_from_json(read_json(fixture("v1-548687b-start.json")));
  EXPECT_FALSE(start.end.has_value());
  EXPECT_FALSE(start.rows.has_value());
  EXPECT_FALSE(start.provenance->busy_cpus_start.has_value());
}

TEST(RunMeta, AMergedRecordNamesItsShards) {
  const RunMeta merged = meta_from_json(read_json(fixture("v1-548687b-merged.json")));
  ASSERT_EQ(merged.merged_from.size(), 2U);
  EXPECT_EQ(merged.merged_from[1].shard, (ShardId{2, 2}));
  EXPECT_EQ(merged.merged_from[1].rows, 3U);
  EXPECT_EQ(merged.hosts.size(), 1U);
  EXPECT_EQ(merged.rows, 6U);
  EXPECT_FALSE(merged.end.has_value());
  EXPECT_FALSE(merged.context.has_value());
}

TEST(RunMeta, WhatIsWrittenReadsBackTheSame) {
  for (const char* name : {"v2-smoke.json", "v1-548687b-shard-counters.json",
                           "v1-548687b-merged.json", "v1-548687b-start.json"}) {
    SCOPED_TRACE(name);
    const Json written = to_json(meta_from_json(read_json(fixture(name))));
    EXPECT_EQ(written.at("format_version"), kMetaFormatVersion);
    EXPECT_EQ(to_json(meta_from_json(written)), written);
  }
  // Format 2 is format 1 plus its version, once format 1's empty git commit is left out.
  Json v1 = read_json(fixture("v1-548687b-smoke.json"));
  Json v2 = to_json(meta_from_json(v1));
  v2.erase("format_version");
  EXPECT_EQ(v2, v1);
  // A time to fill (bench's default) is kept in the options, and absent without one.
  EXPECT_FALSE(v2.at("options").contains("fill_s"));
  Json filled = read_json(fixture("v2-smoke.json"));
  filled["options"]["fill_s"] = 3.0;
  const RunMeta with_fill = meta_from_json(filled);
  ASSERT_TRUE(with_fill.options && with_fill.options->fill_s);
  EXPECT_EQ(*with_fill.options->fill_s, 3.0);
  EXPECT_EQ(to_json(with_fill).at("options").at("fill_s"), 3.0);
}

// The end table's warnings in full: written when there are some, read back the same, absent
// (and empty on reading) otherwise, so every earlier file keeps its shape.
TEST(RunMeta, SummaryWarningsInFullRoundTripAndStayOutWhenEmpty) {
  RunMeta meta = meta_from_json(read_json(fixture("v2-smoke.json")));
  ASSERT_TRUE(meta.end.has_value());
  EXPECT_TRUE(meta.end->summary_warnings.empty());
  EXPECT_FALSE(to_json(meta).contains("summary_warnings"));
  meta.end->summary_warnings = {"fewer than 3 runs in 2 groups, ...: a (n=1), b (n=2)"};
  const Json written = to_json(meta);
  ASSERT_TRUE(written.contains("summary_warnings"));
  EXPECT_EQ(meta_from_json(written).end->summary_warnings, meta.end->summary_warnings);
}

TEST(RunMeta, ARecordFromANewerIobenchIsRefusedWithItsVersion) {
  Json json = read_json(fixture("v2-smoke.json"));
  json["format_version"] = kMetaFormatVersion + 1;
  EXPECT_EQ(error_of(json),
            "format_version 3: written by a newer iobench (this one reads formats "
            "1 to 2)");
}

TEST(RunMeta, AFieldOfTheWrongTypeIsNamedByItsPath) {
  Json json = read_json(fixture("v2-smoke.json"));
  json["provenance"]["root"] = "yes";
  EXPECT_EQ(error_of(json), "provenance.root: expected a value of another type");
  json = read_json(fixture("v2-smoke.json"));
  json["matrix"]["shard"] = "3/2";
  EXPECT_EQ(error_of(json), "matrix.shard: expected K/N with 1 <= K <= N");
  EXPECT_EQ(error_of(Json::array()), ": expected an object");
}

TEST(RunMeta, ReadMetaForFindsTheFileBesideTheRunFileOrSaysThereIsNone) {
  const iobench::test::TempDir dir("meta-read");
  EXPECT_FALSE(read_meta_for(dir / "runs.tsv").has_value());
  fs::create_directories(dir / "meta");
  std::ofstream(dir / "meta" / "runs.json") << "{not json";
  try {
    read_meta_for(dir / "runs.tsv");
    ADD_FAILURE() << "a broken meta file was read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind((dir / "meta" / "runs.json").string() + ": not JSON", 0),
              0U)
        << e.what();
  }
  RunMeta meta;
  meta.runs_file = (dir / "runs.tsv").string();
  meta.config = {{"cache", "cold"}};
  write_meta(meta_path_for(dir / "runs.tsv"), meta);
  EXPECT_EQ(read_meta_for(dir / "runs.tsv")->cache_mode(), "cold");
}

TEST(RunMeta, PathsBesideTheRunFile) {
  EXPECT_EQ(meta_path_for("results/x.tsv"), fs::path("results/meta/x.json"));
  EXPECT_EQ(meta_path_for("x.tsv"), fs::path("./meta/x.json"));
  EXPECT_EQ(medians_path_for("x.tsv"), fs::path("./medians/x.tsv"));
}

TEST(ShardId, ParsesKOfNAndNothingElse) {
  EXPECT_EQ(ShardId::parse("2/4"), (ShardId{2, 4}));
  EXPECT_EQ(ShardId::parse("1/1"), (ShardId{1, 1}));
  for (const char* bad : {"", "2", "0/4", "5/4", "2/0", "2/4x", " 2/4", "-1/4", "2//4", "/4"}) {
    EXPECT_FALSE(ShardId::parse(bad).has_value()) << bad;
  }
  EXPECT_EQ((ShardId{3, 8}).text(), "3/8");
}

}  // namespace
}  // namespace iobench::runfile
