// The config keys `iobench bench` needs beyond a matrix of files (docs/formats.md "Config"): a
// config without "inputs", and "stdin".
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/config/config.hpp"

namespace iobench {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "dir/c.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BenchKeys, AConfigWithoutInputsHasOneInputThatIsNone) {
  const Config config = parse_config(
      R"({"name": "n", "strategies": [{"name": "s", "command": "sleep 0", "shell": true}]})",
      "dir/c.json");
  ASSERT_EQ(config.inputs.size(), 1u);
  EXPECT_TRUE(config.inputs[0].none());
  EXPECT_TRUE(config.inputs[0].path.empty());
  // Given, "inputs" is still a non-empty list, and every input is a file.
  EXPECT_NE(error_of(R"({"name": "n", "inputs": [], "strategies": [{"name": "s", "command": ["x"]}]})")
                .find("inputs: must be a non-empty list"),
            std::string::npos);
  EXPECT_FALSE(parse_config(R"({"name": "n", "inputs": ["in.txt"],
                                "strategies": [{"name": "s", "command": ["x"]}]})",
                            "dir/c.json")
                   .inputs[0]
                   .none());
}

TEST(BenchKeys, WithoutInputsNothingMayNameOne) {
  EXPECT_NE(error_of(R"({"name": "n", "strategies": [{"name": "s", "command": ["cat", "{input}"]}]})")
                .find("strategies[0].command[1]: placeholder {input} names the input, but the "
                      "config has no \"inputs\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"name": "n", "strategies": [{"name": "w", "worker": ["--read", "read"]}]})")
                .find("strategies[0].worker: a worker reads an input file, but the config has no "
                      "\"inputs\""),
            std::string::npos);
}

TEST(BenchKeys, StdinIsAPathResolvedLikeTheInputs) {
  const std::string text =
      R"({"name": "n", "stdin": "data/feed.txt", "strategies": [{"name": "s", "command": ["wc"]}]})";
  Config config = parse_config(text, "dir/c.json");
  EXPECT_EQ(config.stdin_text, "data/feed.txt");
  EXPECT_EQ(config.stdin_path, "dir/data/feed.txt");
  set_data_dir(config, "/data");
  EXPECT_EQ(config.stdin_path, "/data/data/feed.txt");
  EXPECT_NE(error_of(R"({"name": "n", "stdin": "", "strategies": [{"name": "s", "command": ["x"]}]})")
                .find("stdin: must not be empty"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"name": "n", "stdin": 3, "strategies": [{"name": "s", "command": ["x"]}]})")
                .find("stdin: must be a string"),
            std::string::npos);
}

}  // namespace
}  // namespace iobench
