// The config key table (config_keys.hpp) is the one source of the config's top-level keys: each
// is known, read and written back from its entry, and every field of Config has its key. A key
// added to the table without a sample here, a key the parser does not read or config_to_json
// does not write back as it was given, or a Config field no key sets, fails here. Boost.PFR
// lists a struct's members, which C++ cannot.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/pfr.hpp>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/config/config_json.hpp"
#include "driver/config/config_keys.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

using detail::config_keys;
using detail::KeyKind;
using Json = nlohmann::ordered_json;

// A value of a key other than its default, and the keys it needs beside it.
struct Sample {
  Json value;
  Json companions = Json::object();
};

// At least one a key; one a shape of a key that has several.
const std::vector<std::pair<std::string, Sample>>& samples() {
  static const std::vector<std::pair<std::string, Sample>> by_key{
      {"name", {"other"}},
      {"description", {"what it measures"}},
      {"inputs", {Json::array({"in.txt", "in2.txt"})}},
      {"stdin", {"in.txt"}},
      {"strategies", {Json::parse(R"([{"name": "b", "worker": ["--read", "read"]}])")}},
      {"params", {Json::parse(R"({"n": ["1", "2"]})")}},
      {"sinks", {Json::array({"null", "file"})}},
      {"repeats", {Json::parse(R"({"min": 3, "max": 9, "ci_pct": 2})")}},
      {"repeats", {Json::parse(R"({"min": 3, "max": 9, "fill_s": 1.5})")}},
      {"warmup", {3}},
      {"cache", {"cold"}},
      {"order", {"shuffle"}},
      {"seed", {7}},
      {"timeout_s", {12.5}},
      {"baseline", {"a"}},
      {"cpus", {Json::array({0, 1})}},
      {"pipe_size", {65536}},
      {"drain", {"spin"}},
      {"counters", {Json::array({"syscalls", "cycles"})}},
      {"history", {"history.db"}},
      {"disturbance", {"flag"}},
      {"disturbance_threshold_cpus", {0.5}},
      {"decide", {true}},
      {"decide_margin_pct", {2.5}},
      {"family_reference",
       {Json::parse(R"({"n": "2"})"), Json::parse(R"({"params": {"n": ["1", "2"]}})")}},
      {"$schema", {"https://example.org/iobench-config.json"}},
  };
  return by_key;
}

// The smallest config, with `keys` set on it.
Config parsed(const Json& keys) {
  Json root = Json::parse(testing::with_keys(""));
  for (const auto& [key, value] : keys.items()) root[key] = value;
  return parse_config(root.dump(), "configs/x.json");
}

// With the key's own text put aside: it differs whenever the keys do.
bool same_fields(Config a, const Config& b) {
  a.as_written = b.as_written;
  return a == b;
}

std::vector<std::string> table_names(bool with_ignored) {
  std::vector<std::string> names;
  for (const auto& key : config_keys())
    if (with_ignored || key.kind != KeyKind::kIgnored) names.emplace_back(key.name);
  return names;
}

class ConfigKeys : public ::testing::Test {
 protected:
  // The disturbance default is the environment's where it is set: the samples assume none.
  void SetUp() override {
    if (const char* env = std::getenv(kDisturbanceEnv)) saved_env_ = env;
    unsetenv(kDisturbanceEnv);
  }
  void TearDown() override {
    if (saved_env_) setenv(kDisturbanceEnv, saved_env_->c_str(), 1);
  }

 private:
  std::optional<std::string> saved_env_;
};

TEST_F(ConfigKeys, EveryKeyOfTheTableHasASampleHere) {
  std::set<std::string> sampled;
  for (const auto& [key, sample] : samples()) sampled.insert(key);
  const std::vector<std::string> names = table_names(true);
  EXPECT_EQ(sampled, std::set<std::string>(names.begin(), names.end()));
}

TEST_F(ConfigKeys, EachEntryHasWhatItsKindNeeds) {
  for (const auto& key : config_keys()) {
    SCOPED_TRACE(key.name);
    const bool plain = key.kind != KeyKind::kOwn && key.kind != KeyKind::kIgnored;
    EXPECT_EQ(std::holds_alternative<std::monostate>(key.field), !plain);
    EXPECT_EQ(key.write != nullptr, key.kind == KeyKind::kOwn);
    if (key.kind == KeyKind::kOwn) {
      EXPECT_NE(key.parse, nullptr);
    }
    EXPECT_EQ(key.choices != nullptr, key.kind == KeyKind::kChoice);
    EXPECT_EQ(key.rule != nullptr, key.kind == KeyKind::kNumber);
  }
}

// Read (the Config differs from the one without it), written back as it was given, and read back
// from what was written unchanged.
TEST_F(ConfigKeys, EveryKeyIsReadWrittenAsGivenAndReadBackUnchanged) {
  for (const auto& named_sample : samples()) {
    const std::string& name = named_sample.first;
    const auto& sample = named_sample.second;
    SCOPED_TRACE(name + ": " + sample.value.dump());
    const auto& key = *std::find_if(config_keys().begin(), config_keys().end(),
                                    [&](const auto& entry) { return entry.name == name; });
    Json with_key = sample.companions;
    with_key[name] = sample.value;
    const Config without = parsed(sample.companions);
    const Config with = parsed(with_key);
    const Json written = config_to_json(with);
    Config again;
    ASSERT_NO_THROW(again = parse_config(written.dump(), "configs/x.json")) << written.dump();
    EXPECT_TRUE(same_fields(again, with)) << written.dump();
    if (key.kind == KeyKind::kIgnored) {
      EXPECT_TRUE(same_fields(with, without));
      EXPECT_FALSE(written.contains(name));
      continue;
    }
    EXPECT_FALSE(same_fields(with, without));
    ASSERT_TRUE(written.contains(name)) << written.dump();
    EXPECT_EQ(written[name], sample.value);
  }
}

TEST_F(ConfigKeys, TheKeysAreWrittenInTheTablesOrder) {
  Json every = Json::object();
  for (const auto& [key, sample] : samples()) {
    every.update(sample.companions);
    every[key] = sample.value;
  }
  std::vector<std::string> written;
  const Json json = config_to_json(parsed(every));
  for (const auto& [key, value] : json.items()) written.push_back(key);
  EXPECT_EQ(written, table_names(false));
}

TEST_F(ConfigKeys, TheKnownKeysAreTheTablesNames) {
  std::string known;
  for (const auto& name : table_names(false)) known += (known.empty() ? "" : ", ") + name;
  EXPECT_EQ(testing::config_error_of(testing::with_keys(R"(, "repeat": 3)")),
            "configs/x.json: repeat: unknown key (known keys: " + known + ")");
}

// A value each key's check refuses, set on a Config as bench sets it (without JSON), and the error.
struct Refused {
  std::string key;
  void (*set)(Config&);
  std::string error;
};

const std::vector<Refused>& refused() {
  static const std::vector<Refused> by_key{
      {"repeats", [](Config& c) { c.repeats = 0; }, "repeats: must be from 1 to 1000000, at least"},
      {"warmup", [](Config& c) { c.warmup = -1; }, "warmup: must be from 0 to 1000"},
      {"order", [](Config& c) { c.order = RunOrder::kDuet, c.cpus = {0}; }, "order: duet pins"},
      {"timeout_s", [](Config& c) { c.timeout_s = 0; }, "timeout_s: must be a number of seconds"},
      {"disturbance_threshold_cpus", [](Config& c) { c.disturbance_threshold_cpus = 0; },
       "disturbance_threshold_cpus: must be a number of CPUs above 0"},
      {"decide_margin_pct", [](Config& c) { c.decide_margin_pct = 100; },
       "decide_margin_pct: must be a percentage above 0 and below 100"},
      {"family_reference",
       [](Config& c) {
         c.family_reference = {{"n", "1"}};
       },
       "family_reference.n: is not a param"},
  };
  return by_key;
}

// check_config, which bench's Config passes too, runs the check of every key that has one.
TEST_F(ConfigKeys, EveryKeysCheckRefusesAConfigMadeWithoutJson) {
  std::set<std::string> checked;
  for (const auto& key : config_keys())
    if (key.check != nullptr) checked.insert(key.name);
  std::set<std::string> sampled;
  for (const auto& [key, set, error] : refused()) {
    SCOPED_TRACE(key);
    sampled.insert(key);
    Config config = parsed(Json::object());
    set(config);
    const std::string message = testing::error_of([&] { check_config(config); });
    EXPECT_EQ(message.rfind("configs/x.json: " + error, 0), 0U) << message;
  }
  EXPECT_EQ(sampled, checked);
}

// The fields of Config that differ between a and b, by index.
template <std::size_t... I>
std::set<std::size_t> fields_differing(const Config& a, const Config& b,
                                       std::index_sequence<I...>) {
  std::set<std::size_t> differing;
  ((boost::pfr::get<I>(a) == boost::pfr::get<I>(b) ? void() : void(differing.insert(I))), ...);
  return differing;
}

TEST_F(ConfigKeys, EveryFieldOfConfigIsSetByAKey) {
  constexpr auto kFields = boost::pfr::tuple_size_v<Config>;
  std::set<std::size_t> set_by_a_key;
  for (const auto& [key, sample] : samples()) {
    Json with_key = sample.companions;
    with_key[key] = sample.value;
    Config with = parsed(with_key);
    with.as_written = parsed(sample.companions).as_written;
    set_by_a_key.merge(
        fields_differing(with, parsed(sample.companions), std::make_index_sequence<kFields>()));
  }
  // file and base_dir: where the config was read from; as_written: its text.
  const std::set<std::size_t> not_keys{0, 1, kFields - 1};
  std::set<std::size_t> every;
  for (std::size_t i = 0; i < kFields; ++i)
    if (!not_keys.contains(i)) every.insert(i);
  EXPECT_EQ(set_by_a_key, every);
}

}  // namespace
}  // namespace iobench::config
