// The identity rules of a series (docs/history.md, "Series"): what makes two rows one series,
// and what does not.
#include <gtest/gtest.h>

#include "driver/history/series.hpp"
#include "fixture.hpp"

namespace iobench::history {
namespace {

using test::sample_meta;

RunMetaFacts facts_of(const nlohmann::json& meta) {
  return facts_from_meta(runfile::meta_from_json(nlohmann::ordered_json::parse(meta.dump())),
                         "meta/t.json");
}

std::string hash_of(const nlohmann::json& meta, const std::string& test,
                    const std::string& sink = "pipe", const std::string& counters = "") {
  const RunMetaFacts facts = facts_of(meta);
  SeriesIdentity identity(facts, counters);
  return identity.key(test, "data/in.txt", sink).hash();
}

TEST(SeriesIdentity, ATestIsMatchedToTheStrategyThatExpandsToIt) {
  const nlohmann::json config = sample_meta()["config"];
  EXPECT_EQ(strategy_for_test(config, "read-raw"), 0u);
  EXPECT_EQ(strategy_for_test(config, "count-mmap"), 1u);  // not {r}-raw with r = "count-mmap"
  EXPECT_EQ(strategy_for_test(config, "wc"), 2u);
  EXPECT_EQ(strategy_for_test(config, "gzip-raw"), std::nullopt);  // gzip is no value of r
}

TEST(SeriesIdentity, TheSameCellMeasuredTheSameWayIsOneSeries) {
  EXPECT_EQ(hash_of(sample_meta("a"), "read-raw"), hash_of(sample_meta("b"), "read-raw"));
  nlohmann::json other_worker = sample_meta();
  other_worker["provenance"]["worker"]["xxh3"] = "ffffffffffffffff";  // a new build: watched
  other_worker["context"]["kernel"] = "Linux 6.1.0-20-amd64";         // a condition, not a class
  other_worker["provenance"]["busy_cpus_start"] = 1.5;
  EXPECT_EQ(hash_of(sample_meta(), "read-raw"), hash_of(other_worker, "read-raw"));
}

TEST(SeriesIdentity, AnotherDefinitionInputSinkCacheCountersOrHostClassIsAnotherSeries) {
  const std::string base = hash_of(sample_meta(), "read-raw");
  EXPECT_NE(base, hash_of(sample_meta(), "mmap-raw"));
  EXPECT_NE(base, hash_of(sample_meta(), "read-raw", "file"));
  EXPECT_NE(base, hash_of(sample_meta(), "read-raw", "pipe", "syscalls"));
  nlohmann::json argv = sample_meta();
  argv["config"]["strategies"][0]["worker"].push_back("--buffer=4K");
  EXPECT_NE(base, hash_of(argv, "read-raw"));
  nlohmann::json pinned = sample_meta();
  pinned["config"]["cpus"] = {1};
  EXPECT_NE(base, hash_of(pinned, "read-raw"));
  nlohmann::json cold = sample_meta();
  cold["config"]["cache"] = "cold";
  EXPECT_NE(base, hash_of(cold, "read-raw"));
  nlohmann::json input = sample_meta();
  input["config"]["inputs"][0]["generate"]["size"] = "2MiB";
  EXPECT_NE(base, hash_of(input, "read-raw"));
  nlohmann::json host = sample_meta();
  host["context"]["cpus_online"] = 8;
  EXPECT_NE(base, hash_of(host, "read-raw"));
  nlohmann::json kernel = sample_meta();
  kernel["context"]["kernel"] = "Linux 6.5.0-1-amd64";
  EXPECT_NE(base, hash_of(kernel, "read-raw"));
}

TEST(SeriesIdentity, ADescriptionOrAnotherStrategyInTheConfigChangesNothing) {
  const std::string base = hash_of(sample_meta(), "read-raw");
  nlohmann::json described = sample_meta();
  described["config"]["strategies"][0]["description"] = "now with words";
  described["config"]["strategies"].push_back({{"name", "cat"}, {"command", {"cat"}}});
  described["config"]["description"] = "another text";
  EXPECT_EQ(base, hash_of(described, "read-raw"));
}

TEST(SeriesIdentity, AnInputIsItsGeneratorSpecWhereverItLives) {
  const nlohmann::json config = sample_meta()["config"];
  // The run file's input column holds the path resolved against the config's folder.
  EXPECT_EQ(input_identity_of(config, "configs/t.json", "data/in.txt"),
            R"(generate:{"kind":"lines","size":"1MiB"})");
  EXPECT_EQ(input_identity_of(config, "/elsewhere/t.json", "/data-dir/in.txt"),
            R"(generate:{"kind":"lines","size":"1MiB"})");  // by its file name
  EXPECT_EQ(input_identity_of(config, "configs/t.json", "other.txt"), "path:other.txt");
  nlohmann::json plain = config;
  plain["inputs"] = {"../data/in.txt"};
  EXPECT_EQ(input_identity_of(plain, "configs/t.json", "data/in.txt"), "path:data/in.txt");
}

TEST(SeriesIdentity, AnUnverifiedTestIsMarkedSo) {
  const RunMetaFacts facts = facts_of(sample_meta());
  SeriesIdentity identity(facts, "");
  EXPECT_FALSE(identity.key("wc", "data/in.txt", "pipe").verified);
  EXPECT_TRUE(identity.key("read-raw", "data/in.txt", "pipe").verified);
}

TEST(SeriesIdentity, TheHostClassKeepsTheKernelUpToItsMinorVersion) {
  EXPECT_EQ(kernel_series("Linux 6.1.0-18-amd64"), "Linux 6.1");
  EXPECT_EQ(kernel_series("Linux 6.18.44-fc-v1045"), "Linux 6.18");
  EXPECT_EQ(kernel_series("Linux 5.10"), "Linux 5.10");
  EXPECT_EQ(host_class_of(facts_of(sample_meta())),
            "Test CPU | 4 CPUs | memory ? | Linux 6.1 | x86_64");
}

TEST(SeriesIdentity, MemoryIsInTheHostClassRoundedUpToWholeGib) {
  nlohmann::json meta = sample_meta();
  // Two boots of a 16 GiB machine: MemTotal 4 MiB apart, one class, one series.
  meta["context"]["memory_kib"] = 16'314'000;
  const std::string boot_one = hash_of(meta, "read-raw");
  EXPECT_EQ(host_class_of(facts_of(meta)),
            "Test CPU | 4 CPUs | memory 16 GiB | Linux 6.1 | x86_64");
  meta["context"]["memory_kib"] = 16'318'096;
  EXPECT_EQ(hash_of(meta, "read-raw"), boot_one);
  // A 32 GiB machine of the same CPU: another class.
  meta["context"]["memory_kib"] = 32'756'000;
  EXPECT_NE(hash_of(meta, "read-raw"), boot_one);
  EXPECT_EQ(memory_class_gib(1'048'576), 1);
  EXPECT_EQ(memory_class_gib(1'048'577), 2);
  EXPECT_EQ(memory_class_gib(200'000), 1);
}

TEST(SeriesIdentity, AMetaFileWithoutMemoryKeepsTheSeriesItHadBefore) {
  // Meta files from before memory was recorded: the class says "memory ?", as it did, so the
  // series hash those runs made is the one they make now.
  const nlohmann::json meta = sample_meta();
  ASSERT_FALSE(meta["context"].contains("memory_kib"));
  EXPECT_EQ(host_class_of(facts_of(meta)), "Test CPU | 4 CPUs | memory ? | Linux 6.1 | x86_64");
}

// Issue 47: a series without an input read "(, pipe)" on every surface.
TEST(SeriesIdentity, ItsConditionsNameOnlyWhatItHas) {
  SeriesKey key;
  key.input = "in.txt";
  key.sink = "pipe";
  EXPECT_EQ(key.conditions(), "(in.txt, pipe)");
  key.input.clear();
  EXPECT_EQ(key.conditions(), "(pipe)");
  key.tool = "hyperfine";
  EXPECT_EQ(key.conditions(), "(hyperfine pipe)");
}

}  // namespace
}  // namespace iobench::history
