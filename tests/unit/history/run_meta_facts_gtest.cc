// Reading a meta file for the history: only the fields the facts come from are kept
// (read_run_meta_facts), the facts are those of the whole typed record, and a meta file with every
// field gives every provenance column of the runs table.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "common/error.hpp"
#include "driver/history/run_meta_facts.hpp"
#include "fixture.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

using test::sample_meta;
using test::sample_row;
using test::write_run;

// A meta file with every field `iobench run` writes, the ones the history does not read too.
nlohmann::json full_meta() {
  nlohmann::json meta = sample_meta();
  meta["format_version"] = 2;
  meta["host"] = "box";
  meta["rows"] = 2;
  meta["options"] = {{"repeats", 3}, {"shard", "1/1"}};
  meta["matrix"] = {{"hash", "0123456789abcdef"},
                    {"shard", "1/1"},
                    {"repeats", 3},
                    {"cells", {{"read-raw", "data/in.txt", "pipe"}}}};
  meta["schedule"] = {{"cells", {{{"test", "read-raw"}, {"input", "in"}, {"sink", "pipe"}}}},
                      {"runs", {"v:0", "w:0", "m:0:1", "m:0:2"}}};
  meta["summary_warnings"] = {"one", "two"};
  meta["context"]["memory_kib"] = 4096;
  meta["provenance"]["load_average_end"] = 0.7;
  return meta;
}

// Each PROVENANCE line of the runs table (runs_table.hpp), compared: a line added there without
// its source in facts_from_meta, or whose field the SAX filter drops, fails here.
#define IOBENCH_EXPECT_READ_AND_SET(where, type, member, ...)                 \
  IOBENCH_RUNS_WHERE_##where(EXPECT_EQ(read.member, whole.member) << #member; \
                             EXPECT_NE(whole.member, unset.member) << #member;, , )

TEST(RunMetaFacts, TheFieldsReadGiveTheFactsOfTheWholeRecord) {
  const iobench::test::TempDir dir("history-meta");
  const auto runs = write_run(dir.path(), "r", full_meta(), {sample_row("read-raw", 0.1)});
  const RunMetaFacts read = read_run_meta_facts(runs);
  const RunMetaFacts whole = facts_from_meta(*runfile::read_meta_for(runs), read.meta_path);
  const RunProvenance unset{};
  IOBENCH_RUNS_TABLE(IOBENCH_EXPECT_READ_AND_SET)
  EXPECT_EQ(read.memory_kib, 4096);
  EXPECT_EQ(read.worker_xxh3, "00aa11bb22cc33dd");
  EXPECT_EQ(read.load_average_end, 0.7);
  EXPECT_EQ(read.config, whole.config);
  EXPECT_EQ(read.config_fingerprint, whole.config_fingerprint);
  EXPECT_EQ(read.config_name, "t");
  EXPECT_EQ(read.finished, true);
  EXPECT_EQ(read.rows, 2);
}

#undef IOBENCH_EXPECT_READ_AND_SET

TEST(RunMetaFacts, AMetaFileThatIsNotJsonIsAnErrorNamingIt) {
  const iobench::test::TempDir dir("history-meta");
  const auto runs = write_run(dir.path(), "r", full_meta(), {sample_row("read-raw", 0.1)});
  const std::string text = full_meta().dump();
  // Broken inside a field the history does not keep: the file must still be JSON.
  const std::size_t cut = text.find("\"schedule\"");
  ASSERT_NE(cut, std::string::npos);
  std::ofstream(dir.path() / "meta" / "r.json") << text.substr(0, cut + 20);
  try {
    read_run_meta_facts(runs);
    FAIL() << "a truncated meta file was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("r.json: not JSON ("), std::string::npos) << e.what();
  }
}

TEST(RunMetaFacts, AMetaFileFromANewerFormatIsStillRefused) {
  const iobench::test::TempDir dir("history-meta");
  nlohmann::json meta = full_meta();
  meta["format_version"] = 999;
  const auto runs = write_run(dir.path(), "r", meta, {sample_row("read-raw", 0.1)});
  EXPECT_THROW(read_run_meta_facts(runs), Error);
}

}  // namespace
}  // namespace iobench::history
