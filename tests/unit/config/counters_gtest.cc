// The config key `counters`: known names in order, an unknown or repeated one is a config error
// with its place.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/config/config.hpp"
#include "tests/unit/config/test_util.hpp"

namespace iobench::config {
namespace {

std::string config_with(const std::string& counters) {
  return R"({"name": "n", "inputs": ["in.txt"], "strategies": [{"name": "a", "worker": ["--read", "read"]}], "counters": )" +
         counters + "}";
}

TEST(ConfigCounters, KeepsTheNamesInTheirOrder) {
  const Config config =
      parse_config(config_with(R"(["syscalls", "context-switches", "cycles"])"), "x.json");
  EXPECT_EQ(config.counters, (std::vector<runfile::Counter>{runfile::Counter::kSyscalls,
                                                            runfile::Counter::kContextSwitches,
                                                            runfile::Counter::kCycles}));
  EXPECT_TRUE(parse_config(config_with("[]"), "x.json").counters.empty());
}

TEST(ConfigCounters, AnUnknownNameIsAnErrorWithItsPlace) {
  const std::string error =
      testing::config_error_of(config_with(R"(["syscalls", "context_switches"])"));
  EXPECT_NE(error.find("configs/x.json: counters[1]: unknown counter 'context_switches' (known: "
                       "syscalls, context-switches,"),
            std::string::npos)
      << error;
  EXPECT_NE(testing::config_error_of(config_with(R"(["page-faults", "page-faults"])"))
                .find("counters[1]: 'page-faults' is listed twice"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(config_with(R"("syscalls")")).find("counters: must be a list"),
            std::string::npos);
  EXPECT_NE(testing::config_error_of(config_with("[3]")).find("counters[0]: must be a string"),
            std::string::npos);
}

}  // namespace
}  // namespace iobench::config
