#pragma once
// What the config tests share: the one-line error a config text gives (exit 2 checked).
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "driver/config/config.hpp"

namespace iobench::testing {

// The message parse_config throws for `text` (as configs/x.json), or "(no error)".
inline std::string config_error_of(const std::string& text) {
  try {
    config::parse_config(text, "configs/x.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "(no error)";
}

}  // namespace iobench::testing
