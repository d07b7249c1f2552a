#pragma once
// What the config tests share: the one-line error a config text gives (exit 2 checked).
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"

namespace iobench::testing {

// The message `call` throws, or "(no error)"; an error of the config's is exit 2.
template <typename Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "(no error)";
}

// The message parse_config throws for `text` (as configs/x.json), or "(no error)".
inline std::string config_error_of(const std::string& text) {
  return error_of([&] { config::parse_config(text, "configs/x.json"); });
}

// A config of one input and one strategy, then `key_and_value` (", KEY: VALUE" or empty).
inline std::string with_keys(const std::string& key_and_value) {
  return R"({"name": "n", "inputs": ["in.txt"], "strategies": [{"name": "a", "worker": ["--read", "read"]}])" +
         key_and_value + "}";
}

// Plan options with a worker path, as `iobench run` gives them.
inline config::PlanOptions worker_options() {
  config::PlanOptions options;
  options.worker_path = "/bin/iobench-worker";
  return options;
}

}  // namespace iobench::testing
