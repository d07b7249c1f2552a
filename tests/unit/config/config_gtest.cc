// Config parsing and validation: each error is one line that names the file and the place.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/config/config.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

constexpr const char* kValid = R"({
  "name": "demo",
  "description": "what it answers",
  "inputs": [{"path": "data/a.tsv", "generate": {"kind": "ngram", "size": "1MiB", "seed": 3}}, "/abs/b.tsv"],
  "strategies": [
    {"name": "getlineRaw", "worker": ["--read", "getline", "--write", "raw"]},
    {"name": "buf-{buf}", "worker": ["--read", "read", "--write", "buffered", "--buffer", "{buf}"]},
    {"name": "wc", "command": ["wc", "-l", "{input}"], "verify": false},
    {"name": "sh", "command": "cat {input} | cat", "shell": true}
  ],
  "params": {"buf": ["4KiB", "64KiB", 1048576]},
  "sinks": ["pipe", "file"],
  "repeats": 3, "warmup": 0, "cache": "cold", "order": "shuffle", "seed": 9,
  "timeout_s": 30, "baseline": "getlineRaw", "cpus": [0], "pipe_size": "1MiB"
})";

std::string with(const std::string& key_and_value) {
  return R"({"name": "n", "inputs": ["in.txt"], "strategies": [{"name": "a", "worker": ["--read", "read"]}], )" +
         key_and_value + "}";
}

TEST(Config, ParsesEveryKey) {
  const Config config = parse_config(kValid, "configs/demo.json");
  EXPECT_EQ(config.name, "demo");
  ASSERT_EQ(config.inputs.size(), 2u);
  EXPECT_EQ(config.inputs[0].path, "configs/data/a.tsv");  // relative to the config's folder
  EXPECT_EQ(config.inputs[1].path, "/abs/b.tsv");
  ASSERT_TRUE(config.inputs[0].generate.has_value());
  EXPECT_EQ(config.inputs[0].generate->kind, "ngram");
  EXPECT_EQ(config.inputs[0].generate->size_bytes, 1u << 20);
  EXPECT_EQ(config.inputs[0].generate->seed, 3u);
  ASSERT_EQ(config.strategies.size(), 4u);
  EXPECT_EQ(config.strategies[2].kind, StrategySpec::Kind::kCommand);
  EXPECT_FALSE(config.strategies[2].verify);
  EXPECT_TRUE(config.strategies[3].shell);
  EXPECT_EQ(config.strategies[3].args, std::vector<std::string>{"cat {input} | cat"});
  ASSERT_EQ(config.params.size(), 1u);
  EXPECT_EQ(config.params[0].second, (std::vector<std::string>{"4KiB", "64KiB", "1048576"}));
  EXPECT_EQ(config.sinks, (std::vector<SinkKind>{SinkKind::kPipe, SinkKind::kFile}));
  EXPECT_EQ(config.repeats, 3);
  EXPECT_EQ(config.warmup, 0);
  EXPECT_EQ(config.cache, CacheMode::kCold);
  EXPECT_EQ(config.order, RunOrder::kShuffle);
  EXPECT_EQ(config.seed, 9u);
  EXPECT_DOUBLE_EQ(config.timeout_s, 30);
  EXPECT_EQ(config.baseline, "getlineRaw");
  EXPECT_EQ(config.cpus, std::vector<int>{0});
  EXPECT_EQ(config.pipe_size_bytes, 1u << 20);
}

TEST(Config, DefaultsAreDocumented) {
  const Config config = parse_config(with(R"("repeats": 2)"), "x.json");
  EXPECT_EQ(config.sinks, std::vector<SinkKind>{SinkKind::kPipe});
  EXPECT_EQ(config.warmup, 1);
  EXPECT_EQ(config.cache, CacheMode::kWarm);
  EXPECT_EQ(config.order, RunOrder::kInterleave);
  EXPECT_DOUBLE_EQ(config.timeout_s, 600);
}

TEST(Config, SyntaxErrorsNameLineAndColumn) {
  const std::string error = testing::config_error_of("{\n  \"name\": \"x\",\n  oops\n}");
  EXPECT_EQ(error.rfind("configs/x.json:3:3: invalid JSON", 0), 0u) << error;
}

// Found by the config fuzzer: a number beyond a double escaped as the JSON library's exception.
TEST(Config, ANumberTooLargeForADoubleIsAnErrorWithItsPlace) {
  const std::string error = testing::config_error_of("{\"name\": \"n\",\n \"repeats\": 1e400}");
  EXPECT_EQ(error, "configs/x.json:2:13: invalid JSON: the number 1e400 does not fit a double");
  EXPECT_NE(testing::config_error_of(with(R"("params": {"b": [-2E+999]})"))
                .find("-2E+999 does not fit a double"),
            std::string::npos);
}

TEST(Config, ATimeoutThatWouldOverflowIsRefused) {
  EXPECT_NE(testing::config_error_of(with(R"("timeout_s": 1e300)"))
                .find("timeout_s: must be a number of seconds"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(with(R"("timeout_s": 1000001)")).find("at most"),
            std::string::npos);
}

TEST(Config, RepeatsTakeAPrecisionTarget) {
  const Config plain = parse_config(with(R"("repeats": 4)"), "configs/x.json");
  EXPECT_EQ(plain.repeats, 4);
  EXPECT_EQ(plain.repeats_min, 4);
  EXPECT_EQ(plain.repeats_ci_pct, 0);
  const Config target =
      parse_config(with(R"("repeats": {"min": 3, "max": 10, "ci_pct": 2.5})"), "configs/x.json");
  EXPECT_EQ(target.repeats_min, 3);
  EXPECT_EQ(target.repeats, 10);
  EXPECT_EQ(target.repeats_ci_pct, 2.5);
  EXPECT_EQ(target.repeats_fill_s, 0);
  const Config fill =
      parse_config(with(R"("repeats": {"min": 10, "max": 1000, "fill_s": 3})"), "configs/x.json");
  EXPECT_EQ(fill.repeats_min, 10);
  EXPECT_EQ(fill.repeats, 1000);
  EXPECT_EQ(fill.repeats_fill_s, 3);
  EXPECT_EQ(fill.repeats_ci_pct, 0);
  EXPECT_TRUE(fill.decide) << "a time to fill decides by default, as a precision target does";
}

TEST(Config, RepeatsTargetErrorsNameTheKey) {
  const auto error_with = [](const std::string& repeats) {
    return testing::config_error_of(with(R"("repeats": )" + repeats));
  };
  EXPECT_NE(
      error_with(R"({"min": 5, "max": 3, "ci_pct": 2})").find("repeats.max: must be at least"),
      std::string::npos);
  EXPECT_NE(error_with(R"({"min": 3, "max": 10})")
                .find("repeats: needs min, max and one of ci_pct or fill_s"),
            std::string::npos);
  EXPECT_NE(error_with(R"({"min": 3, "max": 10, "ci_pct": 2, "fill_s": 3})")
                .find("repeats: needs min, max and one of ci_pct or fill_s"),
            std::string::npos)
      << "a precision target and a time to fill are two rules: one at a time";
  EXPECT_NE(error_with(R"({"min": 3, "max": 10, "fill_s": 0})").find("repeats.fill_s: must be"),
            std::string::npos);
  EXPECT_NE(error_with(R"({"min": 3, "max": 10, "fill_s": "3"})").find("repeats.fill_s: must be"),
            std::string::npos);
  EXPECT_NE(error_with(R"({"min": 3, "max": 10, "ci_pct": 0})").find("repeats.ci_pct: must be"),
            std::string::npos);
  EXPECT_NE(error_with(R"({"min": 3, "max": 10, "ci_pct": 2, "p": 1})").find("repeats.p: unknown"),
            std::string::npos);
  EXPECT_NE(error_with(R"({"min": 1, "max": 10, "ci_pct": 2})").find("repeats.min"),
            std::string::npos)
      << "an interval needs two runs";
}

TEST(Config, DrainIsBlockUnlessSaid) {
  EXPECT_EQ(parse_config(with(R"("sinks": ["pipe"])"), "x.json").drain, DrainMode::kBlock);
  EXPECT_EQ(parse_config(with(R"("drain": "block")"), "x.json").drain, DrainMode::kBlock);
  EXPECT_EQ(parse_config(with(R"("drain": "spin")"), "x.json").drain, DrainMode::kSpin);
  // The old default's name still runs, as the default it has become.
  EXPECT_EQ(parse_config(with(R"("drain": "auto")"), "x.json").drain, DrainMode::kBlock);
  EXPECT_NE(testing::config_error_of(with(R"("drain": "lazy")"))
                .find("drain: 'lazy' is not one of: spin, block"),
            std::string::npos);
}

// A duet pins each run of a pair to a CPU of its own and runs both at once: "cpus" would pin
// them together, and a cold cache would be warmed by whichever read first.
TEST(Config, DuetIsAnOrderThatNeedsItsOwnCpusAndNoColdCache) {
  EXPECT_EQ(parse_config(with(R"("order": "duet")"), "x.json").order, RunOrder::kDuet);
  EXPECT_NE(
      testing::config_error_of(with(R"("order": "duet", "cpus": [0])"))
          .find("order: duet pins each run of a pair to a CPU of its own; leave \"cpus\" out"),
      std::string::npos);
  EXPECT_NE(testing::config_error_of(with(R"("order": "duet", "cache": "cold")"))
                .find("order: duet runs two at once, so one would warm the other's cold cache"),
            std::string::npos);
  EXPECT_EQ(testing::config_error_of(with(R"("order": "duet", "cache": "none")")), "(no error)");
  EXPECT_NE(testing::config_error_of(with(R"("order": "pairs")"))
                .find("order: 'pairs' is not one of: interleave, grouped, shuffle, duet"),
            std::string::npos);
}

TEST(Config, SchemaErrorsNameTheJsonPath) {
  EXPECT_NE(
      testing::config_error_of(with(R"("colour": 1)")).find("configs/x.json: colour: unknown key"),
      std::string::npos);
  EXPECT_NE(
      testing::config_error_of(with(R"("repeats": "5")")).find("repeats: must be a whole number"),
      std::string::npos);
  EXPECT_NE(testing::config_error_of(with(R"("repeats": 0)")).find("repeats: must be from 1"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(with(R"("cache": "hot")"))
                .find("cache: 'hot' is not one of: warm, cold, none"),
            std::string::npos);
  EXPECT_NE(
      testing::config_error_of(with(R"("sinks": [])")).find("sinks: must be a non-empty list"),
      std::string::npos);
  EXPECT_NE(testing::config_error_of(with(R"("sinks": ["pipe", "pipe"])"))
                .find("sinks[1]: is listed twice"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(with(R"("pipe_size": "12QB")"))
                .find("pipe_size: size '12QB' has an unknown suffix"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(with(R"("timeout_s": 0)"))
                .find("timeout_s: must be a number of seconds"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(R"({"name": "n", "inputs": [], "strategies": []})")
                .find("inputs: must be a non-empty list"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(
                R"({"inputs": ["a"], "strategies": [{"name": "a", "worker": ["x"]}]})")
                .find("name: is required"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(R"([1, 2])").find("must be a JSON object"), std::string::npos);
}

TEST(Config, StrategyErrors) {
  const std::string base = R"({"name": "n", "inputs": ["in"], "strategies": [)";
  EXPECT_NE(testing::config_error_of(base + R"({"name": "a"}]})")
                .find("strategies[0]: needs exactly one of"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(base + R"({"name": "a", "worker": ["x"], "command": ["y"]}]})")
                .find("needs exactly one"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(base + R"({"name": "a", "worker": ["x"], "args": ["y"]}]})")
                .find("strategies[0].args: unknown key"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(base + R"({"name": "a", "worker": []}]})")
                .find("strategies[0].worker: must not be an empty list"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(base + R"({"name": "a", "worker": [1]}]})")
                .find("strategies[0].worker[0]: must be a string"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(
                base + R"({"name": "a", "worker": ["x"]}, {"name": "a", "worker": ["y"]}]})")
                .find("strategies[1].name: 'a' is used by another strategy"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(base + R"({"name": "a-{b}", "worker": ["--buffer", "{b}"]}]})")
                .find("strategies[0].name: placeholder {b} is not defined"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(
                base + R"({"name": "a", "worker": ["--buffer", "{b}"]}], "params": {"b": ["1"]}})")
                .find("strategies[0].name: must contain {b}"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(base + R"({"name": "a", "worker": ["x"], "shell": true}]})")
                .find("applies to \"command\" only"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(
                base + R"({"name": "a", "worker": ["x"]}], "params": {"input": ["1"]}})")
                .find("reserved"),
            std::string::npos);
}

TEST(Config, GenerateErrors) {
  const std::string head =
      R"({"name": "n", "strategies": [{"name": "a", "worker": ["x"]}], "inputs": [)";
  EXPECT_NE(testing::config_error_of(head + R"({"path": "p", "generate": {"kind": "ngram"}}]})")
                .find("inputs[0].generate.size: is required"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(
                head + R"({"path": "p", "generate": {"kind": "ngram", "size": "x"}}]})")
                .find("inputs[0].generate.size: size 'x' must start with a number"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(
                head + R"({"path": "p", "generate": {"kind": "no-such-kind", "size": "1K"}}]})")
                .find("inputs[0].generate"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(head + R"({"generate": {"kind": "ngram", "size": "1K"}}]})")
                .find("inputs[0].path: is required"),
            std::string::npos);
  // edge writes a folder: made before the runs, it failed every one of them (exit 1, rows written).
  EXPECT_NE(testing::config_error_of(head + R"({"path": "corpus", "generate": {"kind": "edge"}}]})")
                .find("inputs[0].generate.kind: 'edge' writes a folder of files, and an input is "
                      "one file"),
            std::string::npos);
}

// The config is kept as its text (run metadata); two texts that say the same are one config.
TEST(Config, KeepsItsTextAndComparesByWhatItSays) {
  const std::string text = R"({"name": "d", "strategies": [{"name": "t", "command": ["true"]}]})";
  const Config config = parse_config(text, "d.json");
  EXPECT_EQ(config.as_written.text, text);
  EXPECT_EQ(config.as_written.tree()["strategies"][0]["name"], "t");
  const Config spaced = parse_config(R"({ "name" : "d",
    "strategies" : [ { "name" : "t", "command" : [ "true" ] } ] })",
                                     "d.json");
  EXPECT_TRUE(spaced.as_written == config.as_written);
  const Config other = parse_config(
      R"({"name": "d", "strategies": [{"name": "t", "command": ["true"], "verify": true}]})",
      "d.json");
  EXPECT_FALSE(other.as_written == config.as_written);
  EXPECT_TRUE(WrittenConfig{}.tree().is_null());
}

TEST(Placeholders, FindAndExpand) {
  EXPECT_EQ(find_placeholders("a{x}b{input}{x}{not valid}{}"),
            (std::vector<std::string>{"x", "input", "x"}));
  EXPECT_EQ(expand_placeholders("--buffer={buf} {input} {other}", {{"buf", "4KiB"}}),
            "--buffer=4KiB {input} {other}");
  EXPECT_EQ(expand_placeholders("{", {{"a", "b"}}), "{");
}

}  // namespace
}  // namespace iobench::config
